//! One GPU step against the CPU reference for every model (boids, Vicsek, fish school), with
//! obstacles, in a wrapping and a walled world. Tolerance: `support::ONE_STEP` (1e-5 relative: the
//! GPU sums neighbours in another order and its sqrt, division, exp, sin and cos are not correctly
//! rounded), velocities relative to the model's speed scale (v0 for Vicsek, `max_speed` otherwise).

use crate::support;
use boids::backend::{BackendKind, Simulation};
use boids::cpu::CpuBackend;
use boids::gpu::GpuBackend;
use boids::model::{
    Actors, Boid, Boundary, Interaction, Model, Predator, PredatorKind, SimParams, VicsekUpdate,
};
use glam::Vec2;

/// Vicsek particles at density 4 in the paper's units (r = 1, v0 = 0.03).
fn vicsek_params(n: usize, boundary: Boundary, update: VicsekUpdate) -> SimParams {
    let l = (n as f32 / 4.0).sqrt();
    {
        let mut sp = SimParams {
            model: Model::VICSEK,
            world_width: l,
            world_height: l,
            boundary,
            perception_radius: 1.0,
            hue_radius: 1.0,
            ..SimParams::default()
        };
        sp.models.vicsek.speed = 0.03;
        sp.models.vicsek.eta = 2.5;
        sp.models.vicsek.update = update;
        sp
    }
}

/// The fish school's scene parameters (L = 100, R = 8, 7, 2, C, S, M, barrier) with noise.
fn fish_params(boundary: Boundary) -> SimParams {
    {
        let mut sp = SimParams {
            model: Model::FISH,
            world_width: 100.0,
            world_height: 100.0,
            dt: 0.1,
            boundary,
            perception_radius: 8.0,
            separation_radius: 2.0,
            alignment_radius: 7.0,
            cohesion_radius: 8.0,
            hue_radius: 8.0,
            rotational_diffusion: 0.2,
            ..SimParams::default()
        };
        sp.models.boids.min_speed = 0.0;
        sp.models.boids.max_speed = 2.828427;
        sp.models.fish.alignment = 0.15;
        sp.models.fish.cohesion = 0.05;
        sp.models.fish.separation = 0.3;
        sp.models.fish.barrier = 0.05;
        sp.models.fish.barrier_width = 10.0;
        sp.models.fish.slow_speed = 1.0;
        sp
    }
}

/// `n` boids of `p` with planted cases: the common ones (seam, corners, coincident, stopped),
/// plus a dense crowd of a third of them within 2 wu·scale of the world's centre (for the fish,
/// every slowing band).
fn state(seed: u32, n: usize, p: &SimParams, scale: f32) -> Vec<Boid> {
    let mut boids = support::test_state(seed, n, p, true);
    let (cx, cy) = (p.world_width * 0.37, p.world_height * 0.61);
    for (k, b) in boids.iter_mut().enumerate().skip(20).take(n / 3) {
        let a = k as f32 * 2.399_963;
        let r = 2.0 * scale * ((k % 97) as f32 / 97.0).sqrt();
        b.position = [cx + r * a.cos(), cy + r * a.sin()];
    }
    boids
}

/// Obstacle points near the crowd and on the seam, and radii scaled to the world.
fn obstacles(p: &SimParams, scale: f32) -> (Actors, Interaction) {
    let (w, h) = (p.world_width, p.world_height);
    let actors = Actors {
        obstacles: vec![
            [w * 0.37 + 1.5 * scale, h * 0.61],
            [w * 0.37, h * 0.61 - 1.0 * scale],
            [0.0, h * 0.5],
            [w * 0.8, h * 0.2],
        ],
        // A straight predator on the crowd and a hunter beside it (docs/model.md §18).
        predators: vec![
            Predator::new(
                Vec2::new(w * 0.37 - 1.0 * scale, h * 0.61 + 0.5 * scale),
                Vec2::new(2.0 * scale, 0.5 * scale),
                PredatorKind::Straight,
            ),
            Predator::new(
                Vec2::new(w * 0.37 + 2.5 * scale, h * 0.61 - 2.0 * scale),
                Vec2::new(0.0, 1.0 * scale),
                PredatorKind::Hunting,
            ),
        ],
    };
    let ia = Interaction {
        obstacle_radius: 3.0 * scale,
        obstacle_weight: 3.0,
        obstacle_bounce_radius: 1.0 * scale,
        ..Interaction::default()
    };
    (actors, ia)
}

fn one_step(
    ctx: &boids::gpu::GpuContext,
    p: &SimParams,
    boids: &[Boid],
    scale: f32,
) -> (Vec<Boid>, Vec<Boid>) {
    let (actors, ia) = obstacles(p, scale);
    // The predators' push within 3 wu·scale, a hunter that sees 6 wu·scale and catches within
    // 0.3 wu·scale (a caught boid respawns on both backends alike).
    let p = &SimParams {
        predator_radius: 3.0 * scale,
        predator_weight: 2.0 * scale,
        predator_sight_radius: 6.0 * scale,
        predator_max_speed: 3.0 * scale,
        predator_max_force: 6.0 * scale,
        catch_radius: 0.3 * scale,
        ..p.clone()
    };
    let g = support::checked(ctx, || {
        let mut gpu = GpuBackend::from_state(ctx, p, boids, 5).unwrap();
        gpu.set_interaction(&ia);
        gpu.set_predators(&actors.predators).unwrap();
        gpu.set_obstacles(&actors.obstacles).unwrap();
        gpu.set_step_index(7);
        gpu.step().unwrap();
        gpu.read_state().unwrap()
    });
    let mut cpu = CpuBackend::from_state(BackendKind::Cpu, p, boids.to_vec(), 5).unwrap();
    cpu.set_interaction(&ia);
    cpu.set_predators(&actors.predators).unwrap();
    cpu.set_obstacles(&actors.obstacles).unwrap();
    cpu.set_step_index(7);
    cpu.step().unwrap();
    (g, cpu.read_state().unwrap())
}

#[test]
fn one_vicsek_step_equals_cpu_with_obstacles() {
    let Some(ctx) = support::gpu() else { return };
    for (boundary, update) in [
        (Boundary::Wrap, VicsekUpdate::New),
        (Boundary::Wrap, VicsekUpdate::Old),
        (Boundary::Walls, VicsekUpdate::New),
        (Boundary::Bounce, VicsekUpdate::Old),
    ] {
        let p = vicsek_params(3000, boundary, update);
        p.validate().unwrap();
        let boids = state(11, 3000, &p, 0.3);
        let (g, c) = one_step(&ctx, &p, &boids, 0.3);
        // Velocities are v0 = 0.03 wu per step: compare them relative to v0.
        let scale = {
            let mut sp = SimParams { ..p.clone() };
            sp.models.boids.max_speed = p.models.vicsek.speed;
            sp
        };
        support::compare_states(&g, &c, &scale, support::ONE_STEP)
            .unwrap_or_else(|e| panic!("{boundary:?} {update:?}: {e}"));
        // Every particle moves at v0.
        for b in &c {
            let s = (b.velocity[0].powi(2) + b.velocity[1].powi(2)).sqrt();
            assert!((s - 0.03).abs() < 1e-6, "{b:?}");
        }
    }
}

#[test]
fn one_fish_step_equals_cpu_with_obstacles() {
    let Some(ctx) = support::gpu() else { return };
    for boundary in [Boundary::Wrap, Boundary::Walls] {
        let p = fish_params(boundary);
        p.validate().unwrap();
        let n = 1500;
        let boids = state(12, n, &p, 1.0);
        let (g, c) = one_step(&ctx, &p, &boids, 1.0);
        support::compare_states(&g, &c, &p, support::ONE_STEP)
            .unwrap_or_else(|e| panic!("{boundary:?}: {e}"));
        // The crowd reaches the strongest band: n_c + 1 + n_a ≈ 2·k + 1 above N/2.
        let mut cpu = CpuBackend::from_state(BackendKind::Cpu, &p, boids.clone(), 5).unwrap();
        cpu.step().unwrap();
        let max_k = cpu.neighbor_counts().iter().max().copied().unwrap_or(0) as usize;
        assert!(2 * (2 * max_k + 1) > n, "the crowd is too small: {max_k}");
    }
}

#[test]
fn one_boids_step_equals_cpu_with_obstacles() {
    let Some(ctx) = support::gpu() else { return };
    for boundary in [Boundary::Wrap, Boundary::Walls] {
        let p = SimParams {
            boundary,
            rotational_diffusion: 1.0,
            ..SimParams::default()
        }
        .with_world_for(3000, 0.02);
        let boids = state(13, 3000, &p, 10.0);
        let (g, c) = one_step(&ctx, &p, &boids, 10.0);
        support::compare_states(&g, &c, &p, support::ONE_STEP)
            .unwrap_or_else(|e| panic!("{boundary:?}: {e}"));
    }
}

#[test]
fn measured_runs_equal_step_by_step_measures_on_both_backends() {
    // `run_measured` (the GPU keeps the measures of many steps and reads them back together)
    // returns what step + finish + measures return step by step.
    let Some(ctx) = support::gpu() else { return };
    let p = vicsek_params(2000, Boundary::Wrap, VicsekUpdate::New);
    let boids = boids::model::initial_state(3, 2000, &p);
    let one_by_one = |kind: BackendKind| {
        let setup = boids::model::Setup {
            params: p.clone(),
            seed: 3,
            step: 0,
            boids: boids.clone(),
            actors: Actors::default(),
        };
        let mut a = boids::backend::create(kind, &setup, Some(&ctx)).unwrap();
        let mut b = boids::backend::create(kind, &setup, Some(&ctx)).unwrap();
        let mut steps = 0;
        let batched = b.run_measured(40, &mut || steps += 1).unwrap();
        assert_eq!(steps, 40);
        let stepped: Vec<_> = (0..40)
            .map(|_| {
                a.step().unwrap();
                a.finish().unwrap();
                a.measures().unwrap()
            })
            .collect();
        assert_eq!(b.step_index(), 40);
        (batched, stepped)
    };
    for kind in [BackendKind::Cpu, BackendKind::Gpu] {
        let (batched, stepped) = support::checked(&ctx, || one_by_one(kind));
        assert_eq!(batched.len(), 40);
        for (k, (x, y)) in batched.iter().zip(&stepped).enumerate() {
            // The GPU's atomic binning varies between runs: the same to rounding there.
            let close = |a: f64, b: f64| (a - b).abs() <= 1e-4 * a.abs().max(1.0);
            assert!(
                close(x.va(), y.va())
                    && close(x.polarization(), y.polarization())
                    && close(x.mean_speed(), y.mean_speed())
                    && close(x.mean_neighbors(), y.mean_neighbors()),
                "{kind:?} step {k}: {x:?} vs {y:?}"
            );
        }
    }
}

#[test]
fn measures_asked_for_without_waiting_equal_the_waited_ones_and_come_once() {
    // `request_measures` (what the app's panel uses: no queue drain) hands over what `measures`
    // returns for the same state, once, on both backends.
    let Some(ctx) = support::gpu() else { return };
    let p = vicsek_params(2000, Boundary::Wrap, VicsekUpdate::New);
    let boids = boids::model::initial_state(5, 2000, &p);
    for kind in [BackendKind::Cpu, BackendKind::Gpu] {
        let setup = boids::model::Setup {
            params: p.clone(),
            seed: 5,
            step: 0,
            boids: boids.clone(),
            actors: Actors::default(),
        };
        let (waited, asked, again) = support::checked(&ctx, || {
            let mut s = boids::backend::create(kind, &setup, Some(&ctx)).unwrap();
            for _ in 0..3 {
                s.step().unwrap();
            }
            let mut pending = s.request_measures().unwrap();
            let started = std::time::Instant::now();
            let asked = loop {
                if let Some(m) = pending.poll().unwrap() {
                    break m;
                }
                assert!(
                    started.elapsed() < std::time::Duration::from_secs(60),
                    "{kind:?}: the measures never came back"
                );
                std::thread::sleep(std::time::Duration::from_millis(1));
            };
            let again = pending.poll().unwrap();
            s.finish().unwrap();
            (s.measures().unwrap(), asked, again)
        });
        assert_eq!(asked, waited, "{kind:?}");
        assert!(asked.polarization() > 0.0, "{kind:?}: {asked:?}");
        assert!(again.is_none(), "{kind:?}: handed over twice");
    }
}

#[test]
fn the_state_asked_for_without_waiting_equals_the_waited_one_and_comes_once() {
    // `request_state` (what the web app reads the state with: a tab cannot wait) hands over
    // what `read_state` returns — positions, velocities, hues, ids and periodic images — once.
    let Some(ctx) = support::gpu() else { return };
    let p = vicsek_params(1500, Boundary::Wrap, VicsekUpdate::New);
    let boids = boids::model::initial_state(9, 1500, &p);
    for kind in [BackendKind::Cpu, BackendKind::Gpu] {
        let setup = boids::model::Setup {
            params: p.clone(),
            seed: 9,
            step: 0,
            boids: boids.clone(),
            actors: Actors::default(),
        };
        let (waited, asked, again) = support::checked(&ctx, || {
            let mut s = boids::backend::create(kind, &setup, Some(&ctx)).unwrap();
            for _ in 0..200 {
                s.step().unwrap();
            }
            let mut pending = s.request_state().unwrap();
            let started = std::time::Instant::now();
            let asked = loop {
                if let Some(b) = pending.poll().unwrap() {
                    break b;
                }
                assert!(
                    started.elapsed() < std::time::Duration::from_secs(60),
                    "{kind:?}: the state never came back"
                );
                std::thread::sleep(std::time::Duration::from_millis(1));
            };
            let again = pending.poll().unwrap();
            (s.read_state().unwrap(), asked, again)
        });
        assert_eq!(asked, waited, "{kind:?}");
        // 200 steps at v0 = 0.03 a step in a small world: some boids have crossed an edge.
        assert!(
            asked.iter().any(|b| b.image != [0, 0]),
            "{kind:?}: no periodic image to compare"
        );
        assert!(again.is_none(), "{kind:?}: handed over twice");
    }
}
