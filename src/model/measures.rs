//! Flock measures (docs/model.md §12): polarization, milling, mean speed, mean neighbour count.

use serde::{Deserialize, Serialize};

use crate::model::state::Boid;

/// Order parameters and averages of one flock state.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct FlockMeasures {
    /// Polarization φ = |Σ v_i/|v_i|| / N, in [0, 1]; 1 = all boids fly the same way (Vicsek 1995's
    /// v_a for constant speed). Stopped boids count as 0.
    pub polarization: f32,
    /// Milling (normalised angular momentum, Couzin et al. 2002):
    /// m = |Σ r̂_i × v̂_i| / N with r̂_i the unit vector from the centre to boid i, in [0, 1]. The
    /// centre is the mean of positions; in a wrap world the periodic (circular) mean per axis, with
    /// r_i the minimum-image offset from it (docs/model.md §12.2).
    pub milling: f32,
    /// Mean speed ⟨|v|⟩ (wu/s).
    pub mean_speed: f32,
    /// Mean number of neighbours within the perception radius (after the neighbour cap).
    pub mean_neighbors: f32,
}

/// The world a state's measures are taken in: its size and whether it wraps (a periodic milling
/// centre then).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct World {
    /// Width W (wu).
    pub width: f32,
    /// Height H (wu).
    pub height: f32,
    /// Whether the world is a torus (`wrap` boundary).
    pub wrap: bool,
}

impl World {
    /// The world of `params`.
    pub fn of(params: &crate::model::SimParams) -> World {
        World {
            width: params.world_width,
            height: params.world_height,
            wrap: params.boundary == crate::model::Boundary::Wrap,
        }
    }
}

/// Below this fraction of the world's larger side, a boid's distance from the milling centre counts
/// as 0 (it then adds nothing to the milling): the GPU's f32 centre is uncertain by about 1e-6 of
/// the world.
pub const MILLING_NEAR: f64 = 1e-5;

/// The periodic mean of coordinates x on a circle of length `len` (docs/model.md §12.2), from the
/// sums of cos θ and sin θ over them, θ = 2π·x/len: atan2(Σ sin θ, Σ cos θ)·len/2π, in
/// [−len/2, len/2]. 0 when the sums vanish (points spread evenly round the circle).
pub fn circular_mean(sum_cos: f64, sum_sin: f64, len: f64) -> f64 {
    sum_sin.atan2(sum_cos) * len / std::f64::consts::TAU
}

/// Reference computation of the measures in f64 (the CPU twin of the `measures` GPU stage).
/// `neighbors[i]` is the neighbour count of `boids[i]` from the last rules pass; in a `world` that
/// wraps, the milling centre is the periodic mean.
pub fn flock_measures(boids: &[Boid], neighbors: &[u32], world: World) -> FlockMeasures {
    let n = boids.len();
    if n == 0 {
        return FlockMeasures::default();
    }
    let unit = |x: f64, y: f64| {
        let l = (x * x + y * y).sqrt();
        if l > 1e-12 {
            (x / l, y / l)
        } else {
            (0.0, 0.0)
        }
    };
    let tau = std::f64::consts::TAU;
    let (mut sx, mut sy, mut speed, mut cx, mut cy) = (0.0f64, 0.0f64, 0.0f64, 0.0f64, 0.0f64);
    // Σ cos θ and Σ sin θ per axis, θ = 2π·x/W (used in a wrap world).
    let mut trig = [0.0f64; 4];
    let (w, h) = (world.width as f64, world.height as f64);
    for b in boids {
        let (vx, vy) = (b.velocity[0] as f64, b.velocity[1] as f64);
        let (ux, uy) = unit(vx, vy);
        sx += ux;
        sy += uy;
        speed += (vx * vx + vy * vy).sqrt();
        let (px, py) = (b.position[0] as f64, b.position[1] as f64);
        cx += px;
        cy += py;
        if world.wrap {
            let (tx, ty) = (tau * px / w, tau * py / h);
            trig[0] += tx.cos();
            trig[1] += tx.sin();
            trig[2] += ty.cos();
            trig[3] += ty.sin();
        }
    }
    let nf = n as f64;
    let (cx, cy) = match world.wrap {
        true => (
            circular_mean(trig[0], trig[1], w),
            circular_mean(trig[2], trig[3], h),
        ),
        false => (cx / nf, cy / nf),
    };
    let offset = |d: f64, len: f64| match world.wrap {
        true => d - len * (d / len).round(),
        false => d,
    };
    // A boid this near the centre (1e-5 of the world's larger side) has no direction from it: the
    // GPU's f32 centre is that uncertain (docs/model.md §12.2).
    let near2 = (MILLING_NEAR * w.max(h)).powi(2);
    let mut mill = 0.0f64;
    for b in boids {
        let (dx, dy) = (
            offset(b.position[0] as f64 - cx, w),
            offset(b.position[1] as f64 - cy, h),
        );
        let (rx, ry) = if dx * dx + dy * dy > near2 {
            unit(dx, dy)
        } else {
            (0.0, 0.0)
        };
        let (ux, uy) = unit(b.velocity[0] as f64, b.velocity[1] as f64);
        mill += rx * uy - ry * ux;
    }
    let neigh: f64 = neighbors.iter().map(|&k| k as f64).sum();
    FlockMeasures {
        polarization: ((sx * sx + sy * sy).sqrt() / nf) as f32,
        milling: (mill.abs() / nf) as f32,
        mean_speed: (speed / nf) as f32,
        mean_neighbors: (neigh / nf) as f32,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `n` boids on a circle of radius `r` around `centre` (positions taken modulo the world
    /// `w` × `h`), each flying along the circle counter-clockwise at 50 wu/s.
    fn ring(n: u32, r: f32, centre: [f32; 2], w: f32, h: f32) -> Vec<Boid> {
        (0..n)
            .map(|i| {
                let a = i as f32 / n as f32 * std::f32::consts::TAU;
                let (s, c) = a.sin_cos();
                Boid {
                    position: [
                        (centre[0] + r * c).rem_euclid(w),
                        (centre[1] + r * s).rem_euclid(h),
                    ],
                    velocity: [-50.0 * s, 50.0 * c],
                    hue: [1.0, 0.0],
                    hue_velocity: [0.0, 0.0],
                    id: i,
                    _pad: 0,
                }
            })
            .collect()
    }

    #[test]
    fn a_mill_on_the_seam_mills_as_one_in_the_middle() {
        let (w, h) = (1000.0, 600.0);
        let k = vec![0; 400];
        let torus = World {
            width: w,
            height: h,
            wrap: true,
        };
        let middle = flock_measures(&ring(400, 100.0, [500.0, 300.0], w, h), &k, torus);
        for centre in [[0.0, 300.0], [500.0, 0.0], [0.0, 0.0], [990.0, 595.0]] {
            let boids = ring(400, 100.0, centre, w, h);
            let m = flock_measures(&boids, &k, torus);
            assert!(
                m.milling > 0.99 && (m.milling - middle.milling).abs() < 1e-3,
                "centre {centre:?}: {m:?} vs {middle:?}"
            );
            // Without the periodic centre (a world that does not wrap) the same positions mill
            // less: the plain mean lies away from the ring's centre.
            let plain = flock_measures(
                &boids,
                &k,
                World {
                    wrap: false,
                    ..torus
                },
            );
            assert!(plain.milling < 0.9, "centre {centre:?}: {plain:?}");
        }
        assert!(middle.milling > 0.99, "{middle:?}");
    }

    #[test]
    fn circular_mean_of_points_across_the_seam() {
        let len = 1000.0f64;
        let (mut c, mut s) = (0.0, 0.0);
        for x in [990.0f64, 995.0, 5.0, 10.0] {
            let t = std::f64::consts::TAU * x / len;
            c += t.cos();
            s += t.sin();
        }
        assert!(circular_mean(c, s, len).abs() < 1e-9);
        let t = std::f64::consts::TAU * 250.0 / len;
        assert!((circular_mean(t.cos(), t.sin(), len) - 250.0).abs() < 1e-9);
    }
}
