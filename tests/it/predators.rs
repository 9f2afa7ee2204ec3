//! Predators (docs/model.md §18): the push on planted boids equals B·e/|e|^1.5, a caught boid
//! respawns exactly once where the counter-based random numbers put it (the boid count kept), and
//! one whole GPU step with obstacles, straight and hunting predators equals the CPU's (boids,
//! predators and catches). The GPU tests skip visibly without an adapter and fail under
//! BOIDS_REQUIRE_GPU=1.

use crate::support;
use boids::backend::{BackendKind, Simulation};
use boids::cpu::CpuBackend;
use boids::gpu::GpuBackend;
use boids::model::predators::{respawn, NO_TARGET};
use boids::model::{Actors, Boid, Boundary, Predator, PredatorKind, SimParams};
use glam::Vec2;

/// Parameters under which a boid feels nothing but the predators: the three rules weighted 0, no
/// noise, wrapping world, a speed clamp wide enough to keep v + a·Δt as it is; hunters have no
/// steering force (they stay where they are placed).
fn quiet(predator_weight: f32) -> SimParams {
    {
        let mut sp = SimParams {
            predator_max_force: 0.0,
            world_width: 1000.0,
            world_height: 1000.0,
            boundary: Boundary::Wrap,
            rotational_diffusion: 0.0,
            predator_radius: 80.0,
            predator_weight,
            catch_radius: 0.0,
            ..SimParams::default()
        };
        sp.models.boids.separation_weight = 0.0;
        sp.models.boids.alignment_weight = 0.0;
        sp.models.boids.cohesion_weight = 0.0;
        sp.models.boids.min_speed = 0.0;
        sp.models.boids.max_speed = 1000.0;
        sp
    }
}

use crate::support::states::planted as boid;

fn still(at: [f32; 2], kind: PredatorKind) -> Predator {
    Predator::new(Vec2::from(at), Vec2::ZERO, kind)
}

fn by_id(mut v: Vec<Boid>) -> Vec<Boid> {
    v.sort_by_key(|b| b.id);
    v
}

#[test]
fn the_push_on_planted_boids_equals_b_e_over_e_to_the_one_and_a_half() {
    let b = 1500.0;
    let p = quiet(b);
    let dt = p.dt;
    // Two still predators; boids at planted offsets, 200 wu or more apart (no neighbours).
    let preds = [
        still([300.0, 300.0], PredatorKind::Straight),
        still([990.0, 700.0], PredatorKind::Hunting),
    ];
    let v0 = [20.0, -10.0];
    let boids = vec![
        // 25 wu right of the first: |a| = B/5 = 300, along +x.
        boid(0, [325.0, 300.0], v0),
        // (−30, 40) from the first: |e| = 50.
        boid(1, [270.0, 340.0], v0),
        // Across the seam from the second: e = (20, 0) by minimum image (x = 10 vs 990).
        boid(2, [10.0, 700.0], v0),
        // 80 wu from the first: not strictly within the radius, no push.
        boid(3, [300.0, 380.0], v0),
        // Far from both.
        boid(4, [600.0, 100.0], v0),
    ];
    let expected = |e: [f32; 2]| -> Vec2 {
        let e = Vec2::from(e);
        let d = e.length();
        Vec2::from(v0) + e * (b / d.powf(1.5)) * dt
    };
    let want = [
        expected([25.0, 0.0]),
        expected([-30.0, 40.0]),
        expected([20.0, 0.0]),
        Vec2::from(v0),
        Vec2::from(v0),
    ];
    // Spot check of the formula itself: |Δv| = B/√25 · Δt for boid 0.
    assert!(((want[0] - Vec2::from(v0)).length() - 300.0 * dt).abs() < 1e-3);
    for kind in [BackendKind::Cpu, BackendKind::CpuNaive] {
        let mut sim = CpuBackend::from_state(kind, &p, boids.clone(), 1).unwrap();
        sim.set_predators(&preds).unwrap();
        sim.step().unwrap();
        let out = by_id(sim.read_state().unwrap());
        for (k, w) in want.iter().enumerate() {
            let got = Vec2::from(out[k].velocity);
            assert!(
                (got - *w).length() <= 1e-4 * w.length(),
                "{kind:?}: boid {k}: velocity {got}, expected {w}"
            );
            let moved = Vec2::from(out[k].position) - Vec2::from(boids[k].position);
            let moved = Vec2::new(
                moved.x - (moved.x / p.world_width).round() * p.world_width,
                moved.y,
            );
            assert!(
                (moved - *w * dt).length() < 1e-3,
                "{kind:?}: boid {k} moved {moved}, expected {}",
                *w * dt
            );
        }
        // The predators did not move (no velocity, no steering force); the hunter aimed at the
        // nearest boid it sees, boid 2, 20 wu away across the seam.
        let moved = sim.read_predators().unwrap();
        assert_eq!(moved[0].pos(), Vec2::from(preds[0].position));
        assert_eq!(moved[1].target, 2, "the hunter sees boid 2 across the seam");
    }
    // A planted wrong weight is caught by the same check: B doubled gives another velocity.
    let mut sim = CpuBackend::from_state(BackendKind::Cpu, &quiet(2.0 * b), boids, 1).unwrap();
    sim.set_predators(&preds).unwrap();
    sim.step().unwrap();
    let out = by_id(sim.read_state().unwrap());
    assert!((Vec2::from(out[0].velocity) - want[0]).length() > 1.0);
}

#[test]
fn a_caught_boid_respawns_exactly_once_and_the_count_is_kept() {
    let n = 400;
    let p = SimParams {
        catch_radius: 4.0,
        predator_max_speed: 0.0,
        rotational_diffusion: 0.0,
        ..SimParams::default()
    }
    .with_world_for(n, 0.002);
    for kind in [BackendKind::Cpu, BackendKind::CpuNaive] {
        let mut boids = boids::model::initial_state(5, n, &p);
        // Boid 17 sits 1 wu from a hunting predator that cannot move; every other boid is at
        // least 60 wu away from it.
        let at = [p.world_width * 0.5, p.world_height * 0.5];
        for b in boids.iter_mut() {
            let e = Vec2::from(b.position) - Vec2::from(at);
            if e.length() < 60.0 {
                b.position[0] = (at[0] + 200.0) % p.world_width;
            }
        }
        boids[17].position = [at[0] + 1.0, at[1]];
        let before = boids[17];
        let mut sim = CpuBackend::from_state(kind, &p, boids, 3).unwrap();
        sim.set_predators(&[still(at, PredatorKind::Hunting)])
            .unwrap();
        let u = sim.uniforms();
        sim.step().unwrap();
        let m = sim.measures().unwrap();
        assert_eq!(
            (m.catches(), m.catches_total()),
            (1, 1),
            "{kind:?}: one catch"
        );
        let out = by_id(sim.read_state().unwrap());
        assert_eq!(out.len(), n, "{kind:?}: the count is kept");
        assert!(out.iter().enumerate().all(|(k, b)| b.id == k as u32));
        // Where the respawn rule puts it, from the step's random numbers: same id and hue.
        let want = respawn(&before, &u);
        assert_eq!(out[17], want, "{kind:?}: the caught boid respawned");
        assert!(Vec2::from(want.position).distance(Vec2::from(at)) > 4.0);
        // It is caught once: the next steps catch nobody (the respawned boid is far away).
        for _ in 0..3 {
            sim.step().unwrap();
        }
        let m = sim.measures().unwrap();
        assert_eq!(
            (m.catches(), m.catches_total()),
            (0, 1),
            "{kind:?}: caught once"
        );
        assert_eq!(sim.len(), n);
        let pr = sim.read_predators().unwrap();
        assert_eq!(pr[0].pos(), Vec2::from(at), "a hunter of max speed 0 stays");
        assert_ne!(pr[0].target, NO_TARGET, "it sees boids within its sight");
    }
}

#[test]
fn a_straight_predator_crosses_the_world_and_a_hunter_closes_in() {
    let p = SimParams {
        predator_max_speed: 110.0,
        predator_max_force: 200.0,
        predator_sight_radius: 150.0,
        ..quiet(0.0)
    };
    let boids = vec![
        boid(0, [600.0, 500.0], [0.0, 0.0]),
        boid(1, [100.0, 100.0], [0.0, 0.0]),
    ];
    let mut sim = CpuBackend::from_state(BackendKind::Cpu, &p, boids, 1).unwrap();
    sim.set_predators(&[
        Predator::new(
            Vec2::new(995.0, 20.0),
            Vec2::new(60.0, 0.0),
            PredatorKind::Straight,
        ),
        Predator::new(Vec2::new(500.0, 500.0), Vec2::ZERO, PredatorKind::Hunting),
    ])
    .unwrap();
    let steps = 30;
    for _ in 0..steps {
        sim.step().unwrap();
    }
    let pr = sim.read_predators().unwrap();
    // Straight: 30 steps of 1 wu, wrapped at x = 1000.
    let x = 995.0 + 60.0 * p.dt * steps as f32 - 1000.0;
    assert!(
        (pr[0].pos() - Vec2::new(x, 20.0)).length() < 1e-3,
        "{:?}",
        pr[0]
    );
    assert_eq!(pr[0].vel(), Vec2::new(60.0, 0.0));
    // Hunting: toward boid 0 (100 wu to the right), never faster than its max speed.
    assert_eq!(pr[1].target, 0);
    assert!(pr[1].pos().x > 500.0 && (pr[1].pos().y - 500.0).abs() < 1e-3);
    assert!(pr[1].vel().length() <= p.predator_max_speed * (1.0 + 1e-6));
}

#[test]
fn too_many_predators_are_refused_naming_the_limit() {
    let p = SimParams::default().with_world_for(10, 0.002);
    let mut sim = CpuBackend::new(BackendKind::Cpu, &p, 10, 1).unwrap();
    let many = vec![still([1.0, 1.0], PredatorKind::Straight); boids::model::MAX_PREDATORS + 1];
    let e = sim.set_predators(&many).unwrap_err().to_string();
    assert!(e.contains("predators") && e.contains("256"), "{e}");
    assert_eq!(sim.predator_count(), 0, "nothing was changed");
}

/// Compares predators one by one: positions within `tol_wu`, velocities within `tol_v`, kinds and
/// targets exactly.
fn compare_predators(
    a: &[Predator],
    b: &[Predator],
    tol_wu: f32,
    tol_v: f32,
) -> Result<(), String> {
    if a.len() != b.len() {
        return Err(format!(
            "predator counts differ: {} vs {}",
            a.len(),
            b.len()
        ));
    }
    for (k, (x, y)) in a.iter().zip(b).enumerate() {
        if x.kind != y.kind || x.target != y.target {
            return Err(format!("predator {k}: {x:?} vs {y:?}"));
        }
        if x.pos().distance(y.pos()) > tol_wu || x.vel().distance(y.vel()) > tol_v {
            return Err(format!("predator {k}: {x:?} vs {y:?}"));
        }
    }
    Ok(())
}

#[test]
fn one_gpu_step_with_obstacles_and_both_kinds_of_predator_equals_the_cpu() {
    let Some(ctx) = support::gpu() else { return };
    let n = 3000;
    for (k, boundary) in [Boundary::Wrap, Boundary::Walls, Boundary::Bounce]
        .into_iter()
        .enumerate()
    {
        let p = SimParams {
            boundary,
            rotational_diffusion: 1.0,
            predator_radius: 80.0,
            predator_weight: 1500.0,
            predator_sight_radius: 150.0,
            catch_radius: 4.0,
            ..SimParams::default()
        }
        .with_world_for(n, 0.02);
        let (w, h) = (p.world_width, p.world_height);
        let mut boids = support::test_state(k as u32 + 40, n, &p, true);
        // A boid 1 wu from the first hunter: caught in this step.
        boids[100].position = [0.3 * w + 1.0, 0.3 * h];
        let actors = Actors {
            obstacles: vec![[0.5 * w, 0.5 * h], [0.52 * w, 0.5 * h], [10.0, 10.0]],
            predators: vec![
                Predator::new(
                    Vec2::new(0.3 * w, 0.3 * h),
                    Vec2::new(10.0, 5.0),
                    PredatorKind::Hunting,
                ),
                Predator::new(
                    Vec2::new(0.7 * w, 0.2 * h),
                    Vec2::new(-40.0, 30.0),
                    PredatorKind::Hunting,
                ),
                // Near the edge, heading out: wraps or is turned back.
                Predator::new(
                    Vec2::new(w - 0.2, 0.6 * h),
                    Vec2::new(60.0, 0.0),
                    PredatorKind::Straight,
                ),
                Predator::new(
                    Vec2::new(0.4 * w, 0.8 * h),
                    Vec2::new(0.0, -50.0),
                    PredatorKind::Straight,
                ),
            ],
        };
        let (g, g_pred, g_m) = support::checked(&ctx, || {
            let mut gpu = GpuBackend::from_state(&ctx, &p, &boids, 9).unwrap();
            gpu.set_predators(&actors.predators).unwrap();
            gpu.set_obstacles(&actors.obstacles).unwrap();
            gpu.step().unwrap();
            (
                gpu.read_state().unwrap(),
                gpu.read_predators().unwrap(),
                gpu.measures().unwrap(),
            )
        });
        let mut cpu = CpuBackend::from_state(BackendKind::Cpu, &p, boids.clone(), 9).unwrap();
        cpu.set_predators(&actors.predators).unwrap();
        cpu.set_obstacles(&actors.obstacles).unwrap();
        cpu.step().unwrap();
        let c = cpu.read_state().unwrap();
        let c_pred = cpu.read_predators().unwrap();
        let c_m = cpu.measures().unwrap();
        support::compare_states(&g, &c, &p, support::ONE_STEP)
            .unwrap_or_else(|e| panic!("{boundary:?}: {e}"));
        let tol_wu = 1e-5 * w.max(h);
        let tol_v = 1e-5 * p.predator_max_speed;
        compare_predators(&g_pred, &c_pred, tol_wu, tol_v)
            .unwrap_or_else(|e| panic!("{boundary:?}: {e}"));
        assert_eq!(
            (g_m.catches(), g_m.catches_total()),
            (c_m.catches(), c_m.catches_total()),
            "{boundary:?}: catches"
        );
        assert!(
            c_m.catches() >= 1,
            "{boundary:?}: the planted boid is caught"
        );
        assert!(c_pred.iter().take(2).all(|p| p.target != NO_TARGET));
        // The predator comparator rejects a planted difference.
        let mut off = g_pred.clone();
        off[3].position[1] += 10.0 * tol_wu;
        assert!(compare_predators(&off, &c_pred, tol_wu, tol_v).is_err());
    }
}

/// Without predators the step launches no predators stage (the step's catch counter is reset by
/// `clear`): a step after the last predator is removed counts no catch on either backend, and the
/// running total is kept.
#[test]
fn a_step_without_predators_launches_no_predators_stage_and_counts_no_catch() {
    let Some(ctx) = support::gpu() else { return };
    let n = 400;
    let p = SimParams {
        catch_radius: 4.0,
        predator_max_speed: 0.0,
        ..SimParams::default()
    }
    .with_world_for(n, 0.002);
    let mut boids = support::test_state(7, n, &p, true);
    let at = [p.world_width * 0.5, p.world_height * 0.5];
    boids[17].position = [at[0] + 1.0, at[1]];
    let hunter = [still(at, PredatorKind::Hunting)];
    let (gpu_counts, entries) = support::checked(&ctx, || {
        let mut gpu = GpuBackend::from_state(&ctx, &p, &boids, 3).unwrap();
        let without = gpu.step_entry_points();
        gpu.set_predators(&hunter).unwrap();
        let with = gpu.step_entry_points();
        gpu.step().unwrap();
        let m1 = gpu.measures().unwrap();
        gpu.set_predators(&[]).unwrap();
        gpu.step().unwrap();
        let m2 = gpu.measures().unwrap();
        (
            [
                (m1.catches(), m1.catches_total()),
                (m2.catches(), m2.catches_total()),
            ],
            (without, with),
        )
    });
    let mut cpu = CpuBackend::from_state(BackendKind::Cpu, &p, boids.clone(), 3).unwrap();
    cpu.set_predators(&hunter).unwrap();
    cpu.step().unwrap();
    let m1 = cpu.measures().unwrap();
    cpu.set_predators(&[]).unwrap();
    cpu.step().unwrap();
    let m2 = cpu.measures().unwrap();
    let cpu_counts = [
        (m1.catches(), m1.catches_total()),
        (m2.catches(), m2.catches_total()),
    ];
    assert_eq!(
        cpu_counts,
        [(1, 1), (0, 1)],
        "the planted boid is caught once"
    );
    assert_eq!(gpu_counts, cpu_counts);
    let (without, with) = entries;
    assert!(!without.contains(&"move_predators"), "{without:?}");
    assert!(with.contains(&"move_predators"), "{with:?}");
    assert_eq!(with.len(), without.len() + 1);
}

/// The defaults of a `[[predators]]` table (velocity 0, kind straight) are the ones documented
/// where scene keys are: docs/cli.md's scene section and docs/model.md §18.
/// A flock with a straight and a hunting predator, and the obstacle points of a stroke (`k`
/// points along a line).
fn flock_and_stroke(k: usize) -> (SimParams, Vec<Boid>, Vec<Predator>, Vec<[f32; 2]>) {
    let p = SimParams {
        predator_sight_radius: 200.0,
        ..SimParams::default()
    }
    .with_world_for(3000, 0.02);
    let (w, h) = (p.world_width, p.world_height);
    let boids = support::test_state(12, 3000, &p, false);
    let predators = vec![
        Predator::new(
            Vec2::new(0.2 * w, 0.3 * h),
            Vec2::new(70.0, 20.0),
            PredatorKind::Straight,
        ),
        Predator::new(
            Vec2::new(0.6 * w, 0.5 * h),
            Vec2::ZERO,
            PredatorKind::Hunting,
        ),
    ];
    let stroke = (0..k)
        .map(|i| [0.1 * w + 0.8 * w * i as f32 / k as f32, 0.7 * h])
        .collect();
    (p, boids, predators, stroke)
}

/// The predators' bytes.
fn bytes(v: &[Predator]) -> Vec<u8> {
    bytemuck::cast_slice(v).to_vec()
}

/// Changing the obstacles (the app's draw and erase tools) leaves the predators as they are:
/// predators that have moved keep their state exactly, through a change that grows the obstacle
/// buffers (copied on the GPU) and one that does not, and on the GPU the predator buffer is not
/// written at all (a sentinel planted in it, which an upload of the predators would overwrite,
/// survives). Changing the predators leaves the obstacles.
#[test]
fn changing_the_obstacles_leaves_the_predators_untouched() {
    let (p, boids, predators, stroke) = flock_and_stroke(600);
    let ctx = support::gpu();
    let mut sims: Vec<Box<dyn Simulation>> = vec![Box::new(
        CpuBackend::from_state(BackendKind::Cpu, &p, boids.clone(), 5).unwrap(),
    )];
    if let Some(ctx) = &ctx {
        sims.push(Box::new(
            GpuBackend::from_state(ctx, &p, &boids, 5).unwrap(),
        ));
    }
    for sim in &mut sims {
        let kind = sim.kind().name();
        sim.set_predators(&predators).unwrap();
        sim.set_obstacles(&stroke[..3]).unwrap();
        for _ in 0..5 {
            sim.step().unwrap();
        }
        let moved = sim.read_predators().unwrap();
        assert!(
            moved
                .iter()
                .zip(&predators)
                .all(|(a, b)| a.pos() != b.pos()),
            "{kind}: the predators moved"
        );
        // 600 points: the obstacle buffers grow. Then fewer: they do not.
        for points in [&stroke[..], &stroke[..200], &[]] {
            sim.set_obstacles(points).unwrap();
            assert_eq!(
                bytes(&sim.read_predators().unwrap()),
                bytes(&moved),
                "{kind}: predators after setting {} obstacle points",
                points.len()
            );
        }
        // The predators go on from where they are.
        sim.set_obstacles(&stroke).unwrap();
        sim.step().unwrap();
        assert_ne!(bytes(&sim.read_predators().unwrap()), bytes(&moved));
    }
    // The GPU's predator buffer is not written: a sentinel (a predator far outside the world,
    // which `set_predators` would bring inside) is left as it is.
    if let Some(ctx) = &ctx {
        support::checked(ctx, || {
            let mut gpu = GpuBackend::from_state(ctx, &p, &boids, 5).unwrap();
            gpu.set_predators(&predators).unwrap();
            let mut sentinel = predators.clone();
            sentinel[0].position = [-1.0e6, 3.5e6];
            sentinel[1].velocity = [123.25, -7.5];
            let (buffer, at) = gpu.buffers().region("predators", 0);
            let buffer = buffer.clone();
            ctx.queue
                .write_buffer(&buffer, at, bytemuck::cast_slice(&sentinel));
            for points in [&stroke[..], &stroke[..10]] {
                gpu.set_obstacles(points).unwrap();
                assert_eq!(
                    bytes(&gpu.read_predators().unwrap()),
                    bytes(&sentinel),
                    "the predator buffer after setting {} obstacle points",
                    points.len()
                );
            }
            // The comparison sees a write: setting the predators replaces the sentinel.
            gpu.set_predators(&predators).unwrap();
            assert_ne!(bytes(&gpu.read_predators().unwrap()), bytes(&sentinel));
        });
    }
    // Setting the predators keeps the obstacles.
    let mut cpu = CpuBackend::from_state(BackendKind::Cpu, &p, boids.clone(), 5).unwrap();
    cpu.set_obstacles(&stroke).unwrap();
    let before = cpu.uniforms().obstacle_count;
    let points = cpu.buffers().obstacles.points.clone();
    cpu.set_predators(&predators[..1]).unwrap();
    cpu.set_predators(&[]).unwrap();
    assert_eq!(cpu.uniforms().obstacle_count, before);
    assert_eq!(cpu.buffers().obstacles.points, points);
    if let Some(ctx) = &ctx {
        support::checked(ctx, || {
            let mut gpu = GpuBackend::from_state(ctx, &p, &boids, 5).unwrap();
            gpu.set_obstacles(&stroke).unwrap();
            let n = gpu.uniforms().obstacle_count as usize;
            assert_eq!(n, stroke.len());
            let read = |g: &GpuBackend| -> Vec<[f32; 2]> {
                // The points are the last words of the obstacle grid's region.
                g.buffers().read_region(ctx, "obstacle_grid", n).unwrap()
            };
            let before = read(&gpu);
            gpu.set_predators(&predators).unwrap();
            gpu.set_predators(&predators[..1]).unwrap();
            assert_eq!(gpu.uniforms().obstacle_count as usize, n);
            assert_eq!(read(&gpu), before);
        });
    }
}

#[test]
fn predators_are_validated_when_set_and_a_refused_set_changes_nothing() {
    let (p, boids, predators, _) = flock_and_stroke(0);
    let mut nan = predators.clone();
    nan[1].velocity[0] = f32::NAN;
    let many = vec![predators[0]; boids::model::MAX_PREDATORS + 1];
    let ctx = support::gpu();
    let mut sims: Vec<Box<dyn Simulation>> = vec![Box::new(
        CpuBackend::from_state(BackendKind::Cpu, &p, boids.clone(), 5).unwrap(),
    )];
    if let Some(ctx) = &ctx {
        sims.push(Box::new(
            GpuBackend::from_state(ctx, &p, &boids, 5).unwrap(),
        ));
    }
    for sim in &mut sims {
        let kind = sim.kind().name();
        sim.set_predators(&predators).unwrap();
        let kept = sim.read_predators().unwrap();
        let e = sim.set_predators(&nan).unwrap_err().to_string();
        assert!(
            e.contains("predator") && e.contains("non-finite"),
            "{kind}: {e}"
        );
        let e = sim.set_predators(&many).unwrap_err().to_string();
        assert!(e.contains("predators") && e.contains("256"), "{kind}: {e}");
        assert_eq!(
            bytes(&sim.read_predators().unwrap()),
            bytes(&kept),
            "{kind}"
        );
        // A predator outside the world is brought inside.
        let mut outside = predators.clone();
        outside[0].position = [p.world_width + 30.0, -5.0];
        sim.set_predators(&outside).unwrap();
        let placed = sim.read_predators().unwrap();
        let q = placed[0].position;
        assert!(
            (0.0..p.world_width).contains(&q[0]) && (0.0..p.world_height).contains(&q[1]),
            "{kind}: {q:?}"
        );
    }
}

#[test]
fn predator_table_defaults_are_documented_where_scene_keys_are() {
    let s = boids::formats::scene::Scene::parse(
        "[[predators]]\nposition = [1, 2]\n",
        std::path::Path::new("p.toml"),
    )
    .unwrap();
    assert_eq!(s.predators[0].velocity, [0.0, 0.0]);
    assert_eq!(s.predators[0].kind, boids::model::PredatorKind::Straight);
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let section = |path: &str, start: &str| -> String {
        let text = std::fs::read_to_string(root.join(path)).unwrap();
        let from = text
            .find(start)
            .unwrap_or_else(|| panic!("no {start:?} in {path}"));
        let rest = &text[from + start.len()..];
        let end = rest.find("\n#").unwrap_or(rest.len());
        rest[..end].split_whitespace().collect::<Vec<_>>().join(" ")
    };
    for (path, start) in [
        ("docs/cli.md", "## Scenes"),
        ("docs/model.md", "## 18. Predators"),
    ] {
        let s = section(path, start);
        assert!(
            s.contains("`velocity` (wu/s, default `[0, 0]`")
                && s.contains("`kind` (`\"straight\"` or `\"hunting\"`, default `\"straight\"`)"),
            "{path}, {start}: {s}"
        );
    }
}
