//! The GPU backend is deterministic, and a run resumed from a saved state is the same run, bit for
//! bit: the binning puts every cell's boids in id order whatever the order of the atomic ranks, so
//! every sum is added in the same order on every run (docs/model.md §4.5). The CPU backend's
//! resume is tested in `checkpoint`.

use crate::support;
use boids::backend::Simulation;
use boids::gpu::{GpuBackend, GpuContext};
use boids::model::{Actors, Boid, SimParams};
use support::states::bits_by_id;

fn params() -> SimParams {
    SimParams {
        rotational_diffusion: 20.0,
        ..SimParams::default()
    }
    .with_world_for(6000, boids::model::DEFAULT_DENSITY)
}

fn actors() -> Actors {
    Actors {
        obstacles: vec![[100.0, 100.0], [250.0, 400.0], [251.0, 404.0]],
        ..Default::default()
    }
}

fn run(ctx: &GpuContext, start: &[Boid], first_step: u32, steps: u32) -> Vec<Boid> {
    let mut g = GpuBackend::from_state(ctx, &params(), start, 11).unwrap();
    g.set_step_index(first_step);
    let a = actors();
    g.set_predators(&a.predators).unwrap();
    g.set_obstacles(&a.obstacles).unwrap();
    for _ in 0..steps {
        g.step().unwrap();
    }
    g.read_state().unwrap()
}

#[test]
fn two_gpu_runs_are_bit_identical() {
    let Some(ctx) = support::gpu() else { return };
    let start = boids::model::initial_state(11, 6000, &params());
    let (a, b) = support::checked(&ctx, || {
        (run(&ctx, &start, 0, 15), run(&ctx, &start, 0, 15))
    });
    assert_eq!(bits_by_id(&a), bits_by_id(&b));
}

#[test]
fn a_gpu_run_resumed_from_its_state_is_the_same_run() {
    let Some(ctx) = support::gpu() else { return };
    let start = boids::model::initial_state(11, 6000, &params());
    support::checked(&ctx, || {
        let straight = run(&ctx, &start, 0, 20);
        let mut half = run(&ctx, &start, 0, 10);
        // A saved state may come back in any order: reverse it.
        half.reverse();
        let resumed = run(&ctx, &half, 10, 10);
        let (a, b) = (bits_by_id(&straight), bits_by_id(&resumed));
        let differing = a.iter().zip(&b).filter(|(x, y)| x != y).count();
        assert_eq!(differing, 0, "{differing} boids differ after resuming");
        // The comparison can fail: without the step index the noise stream restarts.
        let restarted = run(&ctx, &half, 0, 10);
        assert_ne!(a, bits_by_id(&restarted));
    });
}

#[test]
fn two_gpu_runs_with_hunting_and_straight_predators_are_bit_identical() {
    // The hunters' search reduces by (distance², id), an order-free minimum, and catches respawn
    // from the counter-based random numbers: predators, boids and catches repeat exactly.
    let Some(ctx) = support::gpu() else { return };
    let p = SimParams {
        catch_radius: 6.0,
        ..params()
    };
    let start = boids::model::initial_state(11, 6000, &p);
    let kinds = [
        boids::model::PredatorKind::Hunting,
        boids::model::PredatorKind::Straight,
    ];
    let actors = Actors {
        predators: (0..6)
            .map(|k| {
                boids::model::Predator::new(
                    glam::Vec2::new(60.0 + 90.0 * k as f32, 300.0),
                    glam::Vec2::new(30.0, -20.0 + 8.0 * k as f32),
                    kinds[k % 2],
                )
            })
            .collect(),
        ..actors()
    };
    let once = || {
        let mut g = GpuBackend::from_state(&ctx, &p, &start, 11).unwrap();
        g.set_predators(&actors.predators).unwrap();
        g.set_obstacles(&actors.obstacles).unwrap();
        for _ in 0..20 {
            g.step().unwrap();
        }
        let m = g.measures().unwrap();
        (
            bits_by_id(&g.read_state().unwrap()),
            g.read_predators().unwrap(),
            m.catches_total(),
        )
    };
    let (a, b) = support::checked(&ctx, || (once(), once()));
    assert!(a.2 > 0, "some boids were caught");
    assert_eq!(a, b);
}
