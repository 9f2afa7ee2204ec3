//! The velocity-fluctuation correlation function C(r) and its correlation length ξ (Cavagna et
//! al., PNAS 107, 11865 (2010); docs/model.md §12.11). Each boid's fluctuation is its velocity less
//! the mean, δv_i = v_i − V, made dimensionless, φ_i = δv_i / √(Σ_k |δv_k|² / N); then
//!
//! C(r) = Σ_{i≠j} φ_i·φ_j δ(r − r_ij) / Σ_{i≠j} δ(r − r_ij),
//!
//! in bins of r, averaged over the states given (sums of numerators and of pair counts). Since
//! Σ φ_i = 0, C crosses zero; its first zero is ξ. C(r > 0) ≈ 0 for independent headings.
//!
//! Computed on a mesh by FFT ([`velocity_correlation_mesh`]): the fields n(x) = Σ δ(x − x_i) and
//! φ(x) = Σ φ_i δ(x − x_i), each boid in its cell (cells of about a third of a bin), their
//! autocorrelations by FFT (zero-padded in a world with walls), binned by the cells' separation;
//! the self-pairs taken out. The bins of short separations, where a state has fewer than
//! [`DIRECT_PAIRS`] pairs (and those below two cells, where the mesh cannot tell separations apart),
//! are summed over their pairs exactly; a small state is summed over its pairs alone. Its reference
//! twin is the direct sum over every pair ([`velocity_correlation_direct`]); the mesh agrees with
//! it within 1 % of C's scale on smooth fluctuations from two cells up (tests/it/analyses.rs); where
//! C has structure on the scale of a bin, the mesh blurs it by a cell.

use rayon::prelude::*;
use rustfft::num_complex::Complex;

use crate::analysis::mesh::{fft2_transposed, C64};
use crate::analysis::types::{
    bin_centre, need, Analysis, AnalysisDesc, AnalysisError, Axis, Curve, Frame, Reach, Scales,
    SettingName, Settings, StatePart, SEPARATION,
};
use crate::model::pairs::for_each_pair_within;
use crate::model::{Boid, World};

/// The table's entry.
pub const DESC: AnalysisDesc = AnalysisDesc {
    name: "velocity_correlation",
    about: "correlation C(r) of the velocity fluctuations at distance r, and its first zero ξ",
    x: SEPARATION,
    y: Axis {
        symbol: "C(r)",
        name: "velocity-fluctuation correlation",
        unit: "",
    },
    series: false,
    scales: Scales::Linear,
    reads: &[SettingName::RMax, SettingName::Bin],
    joined: true,
    needs: &[StatePart::Velocity],
    scalars: &[("xi", "wu")],
    make,
};

/// The most cells along a side of the mesh.
pub const MAX_MESH: usize = 4096;

fn make(s: &Settings, world: World) -> Result<Box<dyn Analysis>, AnalysisError> {
    let (r_max, bin) = s.pair_range(DESC.name, world, Reach::World)?;
    let bins = (r_max / bin).ceil() as usize;
    Ok(Box::new(VelocityCorrelation {
        r_max,
        bin,
        sums: Sums {
            numerator: vec![0.0; bins],
            pairs: vec![0.0; bins],
        },
        states: 0,
    }))
}

/// The sums behind C(r): per bin, Σ φ_i·φ_j and the pair count (both over ordered pairs).
#[derive(Clone, Debug, PartialEq)]
pub struct Sums {
    /// Σ φ_i·φ_j per bin.
    pub numerator: Vec<f64>,
    /// Pairs per bin (fractional on the mesh only through rounding; whole numbers).
    pub pairs: Vec<f64>,
}

/// The dimensionless fluctuations φ_i of `boids`, or `None` when they do not fluctuate (every
/// velocity equal).
pub fn fluctuations(boids: &[Boid]) -> Option<Vec<[f64; 2]>> {
    let n = boids.len() as f64;
    if boids.len() < 2 {
        return None;
    }
    let (mut mx, mut my) = (0.0, 0.0);
    for b in boids {
        mx += b.velocity[0] as f64;
        my += b.velocity[1] as f64;
    }
    let (mx, my) = (mx / n, my / n);
    let d: Vec<[f64; 2]> = boids
        .iter()
        .map(|b| [b.velocity[0] as f64 - mx, b.velocity[1] as f64 - my])
        .collect();
    let var = d.iter().map(|v| v[0] * v[0] + v[1] * v[1]).sum::<f64>() / n;
    if var <= 1e-24 {
        return None;
    }
    let s = var.sqrt();
    Some(d.into_iter().map(|v| [v[0] / s, v[1] / s]).collect())
}

/// The reference twin: C(r)'s sums over every pair closer than `r_max`, exactly, in bins of `bin`.
pub fn velocity_correlation_direct(frame: &Frame, r_max: f64, bin: f64) -> Option<Sums> {
    let phi = fluctuations(frame.boids)?;
    let bins = (r_max / bin).ceil() as usize;
    Some(pair_sums(frame, &phi, r_max, bin, bins))
}

/// The mesh of `world` for bins of `bin` wu: cells along x and y (about bin / 3 wide, at most
/// [`MAX_MESH`]), and the padded sizes (r_max more in a world with walls, so that no pair wraps).
pub fn mesh_for(world: World, bin: f64, r_max: f64) -> (usize, usize, usize, usize) {
    let cells = |len: f64| ((len / (bin / 3.0)).ceil() as usize).clamp(1, MAX_MESH);
    let (mx, my) = (cells(world.width as f64), cells(world.height as f64));
    if world.wrap {
        (mx, my, mx, my)
    } else {
        let pad = |m: usize, len: f64| m + ((r_max / (len / m as f64)).ceil() as usize) + 1;
        (
            mx,
            my,
            pad(mx, world.width as f64),
            pad(my, world.height as f64),
        )
    }
}

/// Unordered pairs the analysis sums directly per state before the mesh takes over (about a third
/// of a second's work on two cores).
pub const DIRECT_PAIRS: f64 = 1.0e7;

/// The separation below which a state's pairs number about [`DIRECT_PAIRS`] (wu), for `n` boids
/// in `world` (uniformly spread).
pub fn direct_radius(n: usize, world: World) -> f64 {
    let area = world.width as f64 * world.height as f64;
    let n = n.max(2) as f64;
    (2.0 * DIRECT_PAIRS * area / (n * (n - 1.0) * std::f64::consts::PI)).sqrt()
}

/// C(r)'s sums on a mesh by FFT (the fast path; see the module's documentation), the bins below
/// `direct_below` wu (and below two cells) summed over their pairs.
pub fn velocity_correlation_mesh(
    frame: &Frame,
    r_max: f64,
    bin: f64,
    direct_below: f64,
) -> Option<Sums> {
    let phi = fluctuations(frame.boids)?;
    let world = frame.world;
    let (mx, my, px, py) = mesh_for(world, bin, r_max);
    let (hx, hy) = (
        world.width as f64 / mx as f64,
        world.height as f64 / my as f64,
    );
    // Three FFTs for the two autocorrelations: n + iφ_x and φ_y forward (a real field's spectrum
    // is Hermitian, so n̂ and φ̂_x part from one transform), then |n̂|² + i(|φ̂_x|² + |φ̂_y|²)
    // back (both spectra real and even: n⋆n in the real part, φ⋆φ in the imaginary). Three meshes
    // in all: the forward transforms leave their spectra transposed (kx major), the product is
    // formed there in place, and the inverse brings it back to the natural layout.
    let mut h1 = vec![C64::default(); px * py];
    let mut h2 = vec![C64::default(); px * py];
    for (b, f) in frame.boids.iter().zip(&phi) {
        let cx = ((b.position[0] as f64 / hx).floor().max(0.0) as usize).min(mx - 1);
        let cy = ((b.position[1] as f64 / hy).floor().max(0.0) as usize).min(my - 1);
        let c = cy * px + cx;
        h1[c] += Complex::new(1.0, f[0]);
        h2[c].re += f[1];
    }
    let mut t1 = vec![C64::default(); px * py];
    fft2_transposed(&mut h1, &mut t1, px, py, false);
    // h1 is spent: it takes φ̂_y, then the product.
    fft2_transposed(&mut h2, &mut h1, px, py, false);
    // The transposed spectra: t[x * py + y] holds wave vector (x, y).
    h1.par_chunks_mut(py).enumerate().for_each(|(x, col)| {
        let xm = (px - x) % px;
        for (y, out) in col.iter_mut().enumerate() {
            let (h, hm) = (t1[x * py + y], t1[xm * py + (py - y) % py].conj());
            let n_hat = (h + hm) * 0.5;
            let fx_hat = (h - hm) * Complex::new(0.0, -0.5);
            *out = Complex::new(n_hat.norm_sqr(), fx_hat.norm_sqr() + out.norm_sqr());
        }
    });
    drop(t1);
    let mut spectrum = h2;
    fft2_transposed(&mut h1, &mut spectrum, py, px, true);
    drop(h1);
    let scale = 1.0 / (px * py) as f64;
    let bins = (r_max / bin).ceil() as usize;
    let mut sums = Sums {
        numerator: vec![0.0; bins],
        pairs: vec![0.0; bins],
    };
    let self_phi: f64 = phi.iter().map(|f| f[0] * f[0] + f[1] * f[1]).sum();
    // Only the displacements within r_max: |dx| ≤ r_max / hx cells, |dy| ≤ r_max / hy.
    let (rx, ry) = (
        ((r_max / hx).ceil() as i64).min(px as i64 / 2),
        ((r_max / hy).ceil() as i64).min(py as i64 / 2),
    );
    for sy in -ry..=ry {
        let y = sy.rem_euclid(py as i64) as usize;
        let dy = sy as f64 * hy;
        for sx in -rx..=rx {
            let x = sx.rem_euclid(px as i64) as usize;
            let dx = sx as f64 * hx;
            let r = (dx * dx + dy * dy).sqrt();
            let b = (r / bin) as usize;
            if b >= bins || r >= r_max {
                continue;
            }
            let i = y * px + x;
            let (mut pairs, mut num) = (spectrum[i].re * scale, spectrum[i].im * scale);
            if x == 0 && y == 0 {
                pairs -= frame.boids.len() as f64;
                num -= self_phi;
            }
            sums.pairs[b] += pairs.round();
            sums.numerator[b] += num;
        }
    }
    // Below two cells the mesh cannot tell separations apart, and below `direct_below` the pairs
    // are cheap: those bins by the pairs themselves.
    let near = ((2.0 * hx.max(hy) / bin).ceil() as usize)
        .max((direct_below / bin).floor() as usize)
        .min(bins);
    if near > 0 {
        let direct = pair_sums(frame, &phi, near as f64 * bin, bin, near);
        sums.numerator[..near].copy_from_slice(&direct.numerator);
        sums.pairs[..near].copy_from_slice(&direct.pairs);
    }
    Some(sums)
}

/// The sums over every pair closer than `r_max` of the fluctuations `phi`, in `bins` bins of
/// `bin` wu.
fn pair_sums(frame: &Frame, phi: &[[f64; 2]], r_max: f64, bin: f64, bins: usize) -> Sums {
    let mut sums = Sums {
        numerator: vec![0.0; bins],
        pairs: vec![0.0; bins],
    };
    let pos: Vec<[f32; 2]> = frame.boids.iter().map(|b| b.position).collect();
    for_each_pair_within(&pos, frame.world, r_max, |i, j, dx, dy| {
        let b = ((dx * dx + dy * dy).sqrt() / bin) as usize;
        if b < bins {
            let (a, c) = (phi[i as usize], phi[j as usize]);
            sums.numerator[b] += 2.0 * (a[0] * c[0] + a[1] * c[1]);
            sums.pairs[b] += 2.0;
        }
    });
    sums
}

/// The first zero of C(r) (wu), linearly interpolated between the last positive and the first
/// non-positive bin, when C then stays non-positive for the next bin too (or the crossing is in
/// the last bin); `None` without such a crossing below r_max.
pub fn first_zero(x: &[f64], c: &[f64]) -> Option<f64> {
    for i in 1..c.len() {
        if c[i - 1] > 0.0 && c[i] <= 0.0 && c.get(i + 1).is_none_or(|v| *v <= 0.0) {
            let t = c[i - 1] / (c[i - 1] - c[i]);
            return Some(x[i - 1] + t * (x[i] - x[i - 1]));
        }
    }
    None
}

/// C(r) in progress: its sums over the states given.
struct VelocityCorrelation {
    r_max: f64,
    bin: f64,
    sums: Sums,
    states: u64,
}

impl Analysis for VelocityCorrelation {
    fn add(&mut self, frame: &Frame) -> Result<(), AnalysisError> {
        let direct_below = direct_radius(frame.boids.len(), frame.world);
        let sums = if direct_below >= self.r_max {
            velocity_correlation_direct(frame, self.r_max, self.bin)
        } else {
            velocity_correlation_mesh(frame, self.r_max, self.bin, direct_below)
        };
        if let Some(s) = sums {
            for (a, b) in self.sums.numerator.iter_mut().zip(&s.numerator) {
                *a += b;
            }
            for (a, b) in self.sums.pairs.iter_mut().zip(&s.pairs) {
                *a += b;
            }
            self.states += 1;
        }
        Ok(())
    }

    fn curve(&self) -> Result<Curve, AnalysisError> {
        need(
            DESC.name,
            "state whose velocities fluctuate",
            1,
            self.states,
        )?;
        let bins = self.sums.pairs.len();
        let x: Vec<f64> = (0..bins)
            .map(|b| bin_centre(b, self.bin, self.r_max))
            .collect();
        let y: Vec<f64> = (0..bins)
            .map(|b| {
                let p = self.sums.pairs[b];
                if p > 0.0 {
                    self.sums.numerator[b] / p
                } else {
                    f64::NAN
                }
            })
            .collect();
        let xi = first_zero(&x, &y);
        Ok(Curve {
            samples: self.sums.pairs.iter().map(|p| *p as u64).collect(),
            scalars: vec![("xi", xi, "wu")],
            x,
            y,
        })
    }
}
