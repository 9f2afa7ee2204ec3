//! Image counts (docs/model.md §2.4): in a wrapping world `position + image · (W, H)` is each boid's
//! unwrapped path, on every backend. In the Vicsek model with the `new` update (Δt = 1) a step
//! moves a particle by its new velocity exactly, so the unwrapped displacement of every step must
//! equal the velocity after it — a boid whose crossing was missed or miscounted is off by a whole
//! world size. Walls leave the counts at 0.

use crate::support;
use boids::backend::{BackendKind, Simulation};
use boids::cpu::CpuBackend;
use boids::gpu::GpuBackend;
use boids::model::{initial_state, Boid, Boundary, Model, SimParams};

/// A Vicsek gas (η = 2π) of 400 particles at ρ = 0.5 (L ≈ 28 wu) at speed 0.5 wu per step: every
/// particle crosses an edge about every 60 steps.
fn gas(boundary: Boundary) -> SimParams {
    let l = (400.0f32 / 0.5).sqrt();
    let mut p = SimParams {
        model: Model::VICSEK,
        world_width: l,
        world_height: l,
        perception_radius: 1.0,
        hue_radius: 1.0,
        boundary,
        ..SimParams::default()
    };
    p.models.vicsek.speed = 0.5;
    p.models.vicsek.eta = std::f32::consts::TAU;
    p
}

/// Steps `sim` `steps` times, checking after each step that every boid's unwrapped displacement
/// is its new velocity (to 1e-3 wu: the f32 rounding of positions of up to ~28 wu). Returns the
/// number of crossings seen.
fn check_paths(sim: &mut dyn Simulation, p: &SimParams, steps: u32, what: &str) -> u64 {
    let (w, h) = (p.world_width, p.world_height);
    let by_id = |s: Vec<Boid>| {
        let mut s = s;
        s.sort_by_key(|b| b.id);
        s
    };
    let mut before = by_id(sim.read_state().unwrap());
    let mut crossings = 0;
    for step in 0..steps {
        sim.step().unwrap();
        let after = by_id(sim.read_state().unwrap());
        for (a, b) in before.iter().zip(&after) {
            let (ua, ub) = (a.unwrapped(w, h), b.unwrapped(w, h));
            let d = [ub[0] - ua[0], ub[1] - ua[1]];
            let err = (d[0] - b.velocity[0] as f64).hypot(d[1] - b.velocity[1] as f64);
            assert!(
                err < 1e-3,
                "{what}, step {step}: boid {} moved {d:?} unwrapped with velocity {:?} \
                 (image {:?} → {:?})",
                b.id,
                b.velocity,
                a.image,
                b.image
            );
            crossings += (b.image[0] - a.image[0]).unsigned_abs() as u64
                + (b.image[1] - a.image[1]).unsigned_abs() as u64;
        }
        before = after;
    }
    crossings
}

#[test]
fn unwrapped_paths_follow_every_move_on_every_backend() {
    let p = gas(Boundary::Wrap);
    let boids = initial_state(3, 400, &p);
    for kind in [BackendKind::Cpu, BackendKind::CpuNaive] {
        let mut sim = CpuBackend::from_state(kind, &p, boids.clone(), 3).unwrap();
        let n = check_paths(&mut sim, &p, 120, kind.name());
        assert!(n > 400, "{}: only {n} crossings in 120 steps", kind.name());
    }
    let Some(ctx) = support::gpu() else { return };
    let mut sim = GpuBackend::from_state(&ctx, &p, &boids, 3).unwrap();
    let n = check_paths(&mut sim, &p, 120, "gpu");
    assert!(n > 400, "gpu: only {n} crossings in 120 steps");
}

#[test]
fn image_counts_are_resumed_and_stay_zero_without_wrapping() {
    // Counts given with a state are carried on (a resumed run continues them).
    let p = gas(Boundary::Wrap);
    let boids: Vec<Boid> = initial_state(5, 400, &p)
        .into_iter()
        .map(|b| b.with_image([7, -3]))
        .collect();
    let mut sim = CpuBackend::from_state(BackendKind::Cpu, &p, boids, 5).unwrap();
    check_paths(&mut sim, &p, 5, "resumed");
    let s = sim.read_state().unwrap();
    assert!(s
        .iter()
        .all(|b| (b.image[0] - 7).abs() <= 1 && (b.image[1] + 3).abs() <= 1));
    // Walls: never a crossing.
    let p = gas(Boundary::Walls);
    let boids = initial_state(5, 400, &p);
    let mut sim = CpuBackend::from_state(BackendKind::Cpu, &p, boids.clone(), 5).unwrap();
    sim.run_measured(50, &mut || {}).unwrap();
    assert!(sim.read_state().unwrap().iter().all(|b| b.image == [0, 0]));
    let Some(ctx) = support::gpu() else { return };
    let mut sim = GpuBackend::from_state(&ctx, &p, &boids, 5).unwrap();
    sim.run_measured(50, &mut || {}).unwrap();
    assert!(sim.read_state().unwrap().iter().all(|b| b.image == [0, 0]));
}
