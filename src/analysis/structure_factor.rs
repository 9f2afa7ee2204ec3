//! The static structure factor S(k) = |Σ_j e^{−i k·r_j}|² / N on the box's wave vectors
//! k = 2π (n_x / W, n_y / H), averaged over the vectors of each shell of |k| (Δk = 2π / min(W, H)
//! wide, centred on the multiples of Δk)
//! and over the states given (docs/model.md §12.11). S → 1 for a uniform random gas; S(k → 0)
//! measures the number fluctuations on large scales.
//!
//! Computed on a mesh by FFT ([`structure_factor_mesh`]) up to half the mesh's Nyquist wave number,
//! k ≤ π / (2h) for cells h wide, and there exactly up to a truncation below 3·10⁻⁵ of a boid's term: each boid's
//! phase about its cell's centre c, e^{−i k·(c + δ)} = e^{−i k·c} Σ_{a,b} (−i k_x δ_x)^a (−i k_y δ_y)^b
//! / (a! b!), is a Taylor series whose terms are FFTs of the fields Σ δ_x^a δ_y^b (a + b ≤ 9;
//! |k_x δ_x| ≤ π/4 there). Its reference twin is the direct sum over the boids at each wave vector
//! ([`structure_factor_direct`]); the two agree (tests/it/analyses.rs).

use rustfft::num_complex::Complex;

use crate::analysis::mesh::{fft2, signed, C64};
use crate::analysis::types::{
    need, Analysis, AnalysisDesc, AnalysisError, Axis, Curve, Frame, Scales, SettingName, Settings,
};
use crate::model::World;

/// The table's entry.
pub const DESC: AnalysisDesc = AnalysisDesc {
    name: "structure_factor",
    about: "static structure factor S(k), radially averaged over the box's wave vectors",
    x: Axis {
        symbol: "k",
        name: "wave number",
        unit: "1/wu",
    },
    y: Axis {
        symbol: "S(k)",
        name: "structure factor",
        unit: "",
    },
    series: false,
    scales: Scales::LogLog,
    reads: &[SettingName::Mesh],
    joined: true,
    needs: &[],
    scalars: &[],
    make,
};

/// The Taylor series' highest order.
pub const ORDER: usize = 9;

/// The mesh's bounds (cells along the longer side).
pub const MESH: std::ops::RangeInclusive<u32> = 16..=4096;

fn make(s: &Settings, world: World) -> Result<Box<dyn Analysis>, AnalysisError> {
    if !MESH.contains(&s.mesh) {
        return Err(AnalysisError::Setting {
            analysis: DESC.name,
            field: "mesh",
            value: s.mesh as f64,
            allowed: format!("{} ..= {} cells", MESH.start(), MESH.end()),
        });
    }
    let geometry = Geometry::of(world, s.mesh as usize);
    let shells = geometry.shells();
    Ok(Box::new(StructureFactor {
        geometry,
        s: vec![0.0; shells],
        k: vec![0.0; shells],
        vectors: vec![0; shells],
        states: 0,
    }))
}

/// The mesh of a world and the shells of |k| it reports.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Geometry {
    /// Cells along x and y.
    pub nx: usize,
    /// Cells along y.
    pub ny: usize,
    /// World width and height (wu).
    pub size: [f64; 2],
    /// The largest |k| reported, π / (2h) for the wider cell (1/wu).
    pub k_max: f64,
    /// The shells' width, 2π / min(W, H) (1/wu).
    pub dk: f64,
}

impl Geometry {
    /// The mesh of `world` with `mesh` cells along its longer side, cells as square as the sides
    /// allow.
    pub fn of(world: World, mesh: usize) -> Geometry {
        let (w, h) = (world.width as f64, world.height as f64);
        let cell = w.max(h) / mesh as f64;
        let nx = ((w / cell).round() as usize).max(1);
        let ny = ((h / cell).round() as usize).max(1);
        let hmax = (w / nx as f64).max(h / ny as f64);
        Geometry {
            nx,
            ny,
            size: [w, h],
            k_max: std::f64::consts::PI / (2.0 * hmax),
            dk: 2.0 * std::f64::consts::PI / w.min(h),
        }
    }

    /// Shells reported.
    pub fn shells(&self) -> usize {
        ((self.k_max / self.dk).floor() as usize).max(1)
    }

    /// The wave vectors of the mesh within k_max (k ≠ 0): (mesh index, k_x, k_y).
    pub fn vectors(&self) -> Vec<(usize, f64, f64)> {
        let mut out = Vec::new();
        let tau = 2.0 * std::f64::consts::PI;
        for iy in 0..self.ny {
            let ky = tau * signed(iy, self.ny) as f64 / self.size[1];
            for ix in 0..self.nx {
                let kx = tau * signed(ix, self.nx) as f64 / self.size[0];
                let k = (kx * kx + ky * ky).sqrt();
                if k > 0.0 && k <= self.k_max {
                    out.push((iy * self.nx + ix, kx, ky));
                }
            }
        }
        out
    }

    /// The shell of |k|: shell b holds (b + ½) Δk ≤ |k| < (b + 1½) Δk, centred on (b + 1) Δk (no
    /// wave vector of a square box lies on an edge: |n| = √m is never an integer and a half).
    pub fn shell(&self, k: f64) -> usize {
        ((k / self.dk).round() as usize).max(1).min(self.shells()) - 1
    }
}

/// ρ_k = Σ_j e^{−i k·r_j} of `frame` at every mesh wave vector (row by row; all of them, those
/// beyond k_max inexact), by the Taylor series of the module's documentation.
pub fn density_modes(frame: &Frame, g: &Geometry) -> Vec<C64> {
    let (nx, ny) = (g.nx, g.ny);
    let (hx, hy) = (g.size[0] / nx as f64, g.size[1] / ny as f64);
    // Each boid's cell and offset from its centre.
    let cells: Vec<(usize, f64, f64)> = frame
        .boids
        .iter()
        .map(|b| {
            let fx = b.position[0] as f64 / hx;
            let fy = b.position[1] as f64 / hy;
            let cx = (fx.floor().max(0.0) as usize).min(nx - 1);
            let cy = (fy.floor().max(0.0) as usize).min(ny - 1);
            let dx = (fx - cx as f64 - 0.5) * hx;
            let dy = (fy - cy as f64 - 0.5) * hy;
            (cy * nx + cx, dx, dy)
        })
        .collect();
    let tau = 2.0 * std::f64::consts::PI;
    let kx: Vec<f64> = (0..nx)
        .map(|i| tau * signed(i, nx) as f64 / g.size[0])
        .collect();
    let ky: Vec<f64> = (0..ny)
        .map(|i| tau * signed(i, ny) as f64 / g.size[1])
        .collect();
    let mut rho = vec![C64::default(); nx * ny];
    let mut field = vec![C64::default(); nx * ny];
    let fact = |n: usize| (1..=n).map(|v| v as f64).product::<f64>();
    // (−i)^m.
    let minus_i = |m: usize| match m % 4 {
        0 => Complex::new(1.0, 0.0),
        1 => Complex::new(0.0, -1.0),
        2 => Complex::new(-1.0, 0.0),
        _ => Complex::new(0.0, 1.0),
    };
    for a in 0..=ORDER {
        for b in 0..=ORDER - a {
            field.iter_mut().for_each(|v| *v = C64::default());
            for &(c, dx, dy) in &cells {
                field[c].re += dx.powi(a as i32) * dy.powi(b as i32);
            }
            fft2(&mut field, nx, ny, false);
            let coef = minus_i(a + b) / (fact(a) * fact(b));
            let kxa: Vec<f64> = kx.iter().map(|k| k.powi(a as i32)).collect();
            for ((row, out), k) in field.chunks(nx).zip(rho.chunks_mut(nx)).zip(ky.iter()) {
                let c = coef * k.powi(b as i32);
                for ((f, r), kx) in row.iter().zip(out.iter_mut()).zip(&kxa) {
                    *r += f * c * *kx;
                }
            }
        }
    }
    // The phase of the cells' centres, e^{−i k·(h/2)}, against the DFT's corners.
    for (row, k) in rho.chunks_mut(nx).zip(&ky) {
        for (r, kx) in row.iter_mut().zip(&kx) {
            *r *= C64::from_polar(1.0, -(kx * hx + k * hy) / 2.0);
        }
    }
    rho
}

/// The fast path: S at each mesh wave vector within k_max, as (k_x, k_y, S).
pub fn structure_factor_mesh(frame: &Frame, g: &Geometry) -> Vec<(f64, f64, f64)> {
    let n = frame.boids.len().max(1) as f64;
    let rho = density_modes(frame, g);
    g.vectors()
        .into_iter()
        .map(|(i, kx, ky)| (kx, ky, rho[i].norm_sqr() / n))
        .collect()
}

/// The reference twin: S at each of `vectors` (k_x, k_y) by the direct sum over the boids.
pub fn structure_factor_direct(frame: &Frame, vectors: &[(f64, f64)]) -> Vec<f64> {
    let n = frame.boids.len().max(1) as f64;
    vectors
        .iter()
        .map(|&(kx, ky)| {
            let mut s = C64::default();
            for b in frame.boids {
                let ph = -(kx * b.position[0] as f64 + ky * b.position[1] as f64);
                s += C64::from_polar(1.0, ph);
            }
            s.norm_sqr() / n
        })
        .collect()
}

/// S(k) in progress: per shell, Σ S, Σ |k| and the vectors behind them.
struct StructureFactor {
    geometry: Geometry,
    s: Vec<f64>,
    k: Vec<f64>,
    vectors: Vec<u64>,
    states: u64,
}

impl Analysis for StructureFactor {
    fn add(&mut self, frame: &Frame) -> Result<(), AnalysisError> {
        if frame.boids.is_empty() {
            return Ok(());
        }
        for (kx, ky, s) in structure_factor_mesh(frame, &self.geometry) {
            let k = (kx * kx + ky * ky).sqrt();
            let b = self.geometry.shell(k);
            self.s[b] += s;
            self.k[b] += k;
            self.vectors[b] += 1;
        }
        self.states += 1;
        Ok(())
    }

    fn curve(&self) -> Result<Curve, AnalysisError> {
        need(DESC.name, "state with boids", 1, self.states)?;
        let keep: Vec<usize> = (0..self.s.len()).filter(|&b| self.vectors[b] > 0).collect();
        Ok(Curve {
            x: keep
                .iter()
                .map(|&b| self.k[b] / self.vectors[b] as f64)
                .collect(),
            y: keep
                .iter()
                .map(|&b| self.s[b] / self.vectors[b] as f64)
                .collect(),
            samples: keep.iter().map(|&b| self.vectors[b]).collect(),
            scalars: Vec::new(),
        })
    }
}
