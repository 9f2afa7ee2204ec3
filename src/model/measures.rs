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
    /// m = |Σ r̂_i × v̂_i| / N with r̂_i the unit vector from the centre of mass to boid i, in [0, 1].
    /// The centre of mass is the plain mean of positions (not wrap-aware).
    pub milling: f32,
    /// Mean speed ⟨|v|⟩ (wu/s).
    pub mean_speed: f32,
    /// Mean number of neighbours within the perception radius (after the neighbour cap).
    pub mean_neighbors: f32,
}

/// Reference computation of the measures in f64 (the CPU twin of the `measures` GPU stage).
/// `neighbors[i]` is the neighbour count of `boids[i]` from the last rules pass.
pub fn flock_measures(boids: &[Boid], neighbors: &[u32]) -> FlockMeasures {
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
    let (mut sx, mut sy, mut speed, mut cx, mut cy) = (0.0f64, 0.0f64, 0.0f64, 0.0f64, 0.0f64);
    for b in boids {
        let (vx, vy) = (b.velocity[0] as f64, b.velocity[1] as f64);
        let (ux, uy) = unit(vx, vy);
        sx += ux;
        sy += uy;
        speed += (vx * vx + vy * vy).sqrt();
        cx += b.position[0] as f64;
        cy += b.position[1] as f64;
    }
    let nf = n as f64;
    let (cx, cy) = (cx / nf, cy / nf);
    let mut mill = 0.0f64;
    for b in boids {
        let (rx, ry) = unit(b.position[0] as f64 - cx, b.position[1] as f64 - cy);
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
