//! States for the tests: seeded random states with planted special cases, and the boid-by-boid
//! comparison (matched by id) with its stated tolerances.

use boids::model::{Boid, SimParams};

/// Tolerances of the GPU-vs-CPU and grid-vs-naive state comparisons.
#[derive(Clone, Copy, Debug)]
pub struct Tolerance {
    /// Largest position difference (of the unwrapped positions `p + n·(W, H)` in a wrapping world,
    /// so the image counts are checked with them), as a fraction of the world's larger side: float summation order and GPU sqrt/division (not correctly rounded) differ by a few
    /// ulp, and a position is p + v·dt, so the difference is ~ulp(W).
    pub position_rel_world: f32,
    /// Largest velocity difference as a fraction of `max_speed`.
    pub velocity_rel: f32,
    /// Largest difference of a hue or hue-velocity component (unit vector components; 1/s).
    pub hue_abs: f32,
}

/// The tolerance stated for one step (GPU vs CPU, grid vs naive): 1e-5 relative.
pub const ONE_STEP: Tolerance = Tolerance {
    position_rel_world: 1e-5,
    velocity_rel: 1e-5,
    hue_abs: 1e-5,
};

/// Compares two states boid by boid (matched by id). Errors name the first offending boid.
pub fn compare_states(
    a: &[Boid],
    b: &[Boid],
    params: &SimParams,
    tol: Tolerance,
) -> Result<(), String> {
    if a.len() != b.len() {
        return Err(format!("boid counts differ: {} vs {}", a.len(), b.len()));
    }
    let mut a = a.to_vec();
    let mut b = b.to_vec();
    a.sort_by_key(|x| x.id);
    b.sort_by_key(|x| x.id);
    let (w, h) = (params.world_width, params.world_height);
    let wrap = params.boundary == boids::model::Boundary::Wrap;
    let pos_tol = tol.position_rel_world * w.max(h);
    let vel_tol = tol.velocity_rel * params.models.boids.max_speed;
    for (x, y) in a.iter().zip(&b) {
        if x.id != y.id {
            return Err(format!("id sets differ near id {} / {}", x.id, y.id));
        }
        if !x.is_finite() || !y.is_finite() {
            return Err(format!("boid {} is not finite: {x:?} vs {y:?}", x.id));
        }
        // Unwrapped (a boid on the seam may be wrapped on one side only; its image counts then
        // differ by one and its unwrapped positions agree).
        let (ux, uy) = (x.unwrapped(w, h), y.unwrapped(w, h));
        let (dx, dy) = if wrap {
            (ux[0] - uy[0], ux[1] - uy[1])
        } else {
            (
                (x.position[0] - y.position[0]) as f64,
                (x.position[1] - y.position[1]) as f64,
            )
        };
        let dp = (dx * dx + dy * dy).sqrt() as f32;
        let dv = ((x.velocity[0] - y.velocity[0]).powi(2)
            + (x.velocity[1] - y.velocity[1]).powi(2))
        .sqrt();
        let dh = (0..2)
            .map(|k| {
                (x.hue[k] - y.hue[k])
                    .abs()
                    .max((x.hue_velocity[k] - y.hue_velocity[k]).abs())
            })
            .fold(0.0f32, f32::max);
        if dp > pos_tol || dv > vel_tol || dh > tol.hue_abs {
            return Err(format!(
                "boid {} differs: |Δp| = {dp} (tol {pos_tol}), |Δv| = {dv} (tol {vel_tol}), \
                 hue Δ = {dh} (tol {})\n  a: {x:?}\n  b: {y:?}",
                x.id, tol.hue_abs
            ));
        }
    }
    Ok(())
}

/// A deterministic pseudo-random state for tests: `n` boids from `seed` with `params`, plus the
/// planted special cases the issue asks for when `special` is set: boids on the wrap seam and in
/// the corners, coincident boids, zero velocities, boids exactly on cell borders.
pub fn test_state(seed: u32, n: usize, params: &SimParams, special: bool) -> Vec<Boid> {
    let mut boids = boids::model::initial_state(seed, n, params);
    if special && n >= 16 {
        let (w, h) = (params.world_width, params.world_height);
        let grid = boids::model::Grid::new(params, n);
        let cell_w = w / grid.cols as f32;
        let e = 1e-3;
        let spots = [
            [0.0, 0.0],
            [w - e, h - e],
            [w - e, 0.0],
            [0.0, h - e],
            [w - e, h * 0.5],
            [e, h * 0.5],
            [w * 0.5, h - e],
            [w * 0.5, 0.0],
            [cell_w, h * 0.25],
            [2.0 * cell_w, h * 0.25],
            [w * 0.3, h * 0.3],
            [w * 0.3, h * 0.3],
            [w * 0.3, h * 0.3],
        ];
        for (k, s) in spots.iter().enumerate() {
            boids[k].position = *s;
        }
        // Zero velocities (two of them coincident).
        for b in boids.iter_mut().skip(10).take(3) {
            b.velocity = [0.0, 0.0];
        }
    }
    boids
}

/// One boid with id `id` at `p` (wu) moving at `v` (wu/s), of hue (1, 0) at rest and no image
/// count: the planted boid of a test.
pub fn planted(id: u32, p: [f32; 2], v: [f32; 2]) -> Boid {
    Boid {
        position: p,
        velocity: v,
        hue: [1.0, 0.0],
        hue_velocity: [0.0, 0.0],
        id,
        image: [0; 2],
    }
}

/// A state sorted by id (the backends reorder boids every step; a comparison matches them by id).
pub fn by_id(boids: &[Boid]) -> Vec<Boid> {
    let mut v = boids.to_vec();
    v.sort_by_key(|b| b.id);
    v
}

/// A state's bits, boid by boid in id order: every field of [`Boid`] as its `u32` pattern (so
/// −0.0 ≠ 0.0 and NaN payloads count), for the bit-for-bit comparisons of determinism and resume.
pub fn bits_by_id(boids: &[Boid]) -> Vec<[u32; 11]> {
    by_id(boids)
        .into_iter()
        .map(bytemuck::cast::<Boid, [u32; 11]>)
        .collect()
}

/// Boid 0's state (the lowest id) after one step of `boids` (seed 5) on the CPU backend `kind`:
/// what one planted neighbour does to a boid.
pub fn first_after_step(
    kind: boids::backend::BackendKind,
    p: &SimParams,
    boids: Vec<Boid>,
) -> Boid {
    use boids::backend::Simulation;
    let mut sim = boids::cpu::CpuBackend::from_state(kind, p, boids, 5).unwrap();
    sim.step().unwrap();
    let mut out = sim.read_state().unwrap();
    out.sort_by_key(|b| b.id);
    out[0]
}

/// The curve of analysis `name` (docs/model.md §12.11) over `states`, one time unit apart.
pub fn analysis_curve(
    name: &str,
    s: &boids::analysis::Settings,
    world: boids::model::World,
    states: &[Vec<Boid>],
) -> boids::analysis::Curve {
    let mut a = (boids::analysis::by_name(name).unwrap().make)(s, world).unwrap();
    for (k, b) in states.iter().enumerate() {
        a.add(&boids::analysis::Frame {
            boids: b,
            world,
            time: k as f64,
        })
        .unwrap();
    }
    a.curve().unwrap()
}
