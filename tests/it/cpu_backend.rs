//! The CPU backend against the reference twins (`boids::stages::twins`): its list of stages is the
//! table's step stages in order, and one of its steps — parallel binning, cached candidates, the
//! vectorised gather and the 8-boid integrate — leaves the buffers one step of the twins leaves.
//! On the scalar gather path every buffer is equal bit for bit; on the vectorised paths, which add
//! each neighbour sum in another order (docs in `boids::cpu::gather_simd`), the integers are
//! equal (cells, sorted items, ids, neighbour counts, predators, catches) and the state is within
//! the one-step tolerance of `tests/common`. Every model, every boundary, with and without a
//! neighbour cap, in the topological neighbourhood (its recorded neighbour lists equal too),
//! obstacles, both kinds of predator and the pointer tool.

use crate::support;
use boids::backend::{BackendKind, Simulation};
use boids::cpu::gather_simd::GatherPath;
use boids::cpu::step::FAST_STAGES;
use boids::cpu::CpuBackend;
use boids::model::{
    Boid, Boundary, Interaction, Model, Neighborhood, Predator, PredatorKind, SimParams,
    StepUniforms,
};
use boids::stages::twins::CpuStep;
use glam::Vec2;

#[test]
fn the_backend_runs_every_step_stage_of_the_table_in_order() {
    let fast: Vec<&str> = FAST_STAGES.iter().map(|s| s.name).collect();
    assert_eq!(fast, boids::stages::step_stage_names());
}

/// One step of the reference twins on a copy of the backend's buffers, with the uniforms `u` of
/// the backend's next step.
fn twins_step(c: &CpuStep, u: StepUniforms) -> CpuStep {
    let mut r = c.clone();
    r.prepare(u);
    for stage in boids::stages::step_stages() {
        (stage.twin)(&mut r);
    }
    r
}

/// Whether two float arrays hold the same bits (−0.0 ≠ +0.0, NaN = the same NaN).
fn same_bits(a: &[[f32; 4]], b: &[[f32; 4]]) -> bool {
    a.len() == b.len()
        && a.iter()
            .flatten()
            .zip(b.iter().flatten())
            .all(|(x, y)| x.to_bits() == y.to_bits())
}

/// Each cell's range of `slot_ids`, sorted (the reference lists a cell in rank order, the
/// backend's `scatter` leaves it in id order).
fn ids_per_cell(c: &CpuStep) -> Vec<Vec<u32>> {
    (0..c.cells.len() - 1)
        .map(|k| {
            let mut v = c.slot_ids[c.cells[k] as usize..c.cells[k + 1] as usize].to_vec();
            v.sort_unstable();
            v
        })
        .collect()
}

/// Compares the backend's buffers `a` after a step with the twins' `b`: the binning, the sorted
/// items, the state's order, the neighbour counts, the predators and the catches exactly; the
/// state bit for bit when `exact`, else within the one-step tolerance.
fn compare(a: &CpuStep, b: &CpuStep, p: &SimParams, exact: bool) -> Result<(), String> {
    let total = *b.cells.last().unwrap() as usize;
    let checks = [
        ("cell starts", a.cells == b.cells),
        ("each cell's ids", ids_per_cell(a) == ids_per_cell(b)),
        ("sorted ids", a.sorted_id[..total] == b.sorted_id[..total]),
        (
            "sorted positions and velocities",
            same_bits(&a.sorted_pos_vel[..total], &b.sorted_pos_vel[..total]),
        ),
        (
            "sorted hues",
            same_bits(&a.sorted_hue[..total], &b.sorted_hue[..total]),
        ),
        // The boids' (the first n items; a ghost has none).
        (
            "sorted image counts",
            a.sorted_image[..a.len()] == b.sorted_image[..b.len()],
        ),
        ("ids (the state's order)", a.id == b.id),
        ("image counts", a.image == b.image),
        ("neighbour counts", a.neighbors == b.neighbors),
        (
            "recorded topological neighbours",
            a.neighbor_ids == b.neighbor_ids && a.recorded_k == b.recorded_k,
        ),
        (
            "predators",
            a.predators.len() == b.predators.len()
                && a.predators
                    .iter()
                    .zip(&b.predators)
                    .all(|(x, y)| bytemuck::bytes_of(x) == bytemuck::bytes_of(y)),
        ),
        ("catches", a.catches == b.catches),
        (
            "neighbours counted",
            a.neighbors_counted == b.neighbors_counted,
        ),
    ];
    if let Some((what, _)) = checks.iter().find(|(_, ok)| !ok) {
        return Err(format!("{what} differ"));
    }
    if exact {
        if !same_bits(&a.pos_vel, &b.pos_vel) || !same_bits(&a.hue, &b.hue) {
            let k = (0..a.len())
                .find(|&k| !same_bits(&a.pos_vel[k..=k], &b.pos_vel[k..=k]))
                .or_else(|| (0..a.len()).find(|&k| !same_bits(&a.hue[k..=k], &b.hue[k..=k])));
            return Err(format!("the state differs in its bits at boid index {k:?}"));
        }
        Ok(())
    } else {
        support::compare_states(&a.boids(), &b.boids(), p, support::ONE_STEP)
    }
}

/// A case: its label, parameters, pointer and obstacle settings, obstacle points and predators.
type Case = (String, SimParams, Interaction, Vec<[f32; 2]>, Vec<Predator>);

/// The cases: every model in every boundary, an uncapped and a capped neighbourhood, obstacles
/// and both kinds of predator (or none), and once the pointer tool.
fn cases() -> Vec<Case> {
    let mut out = Vec::new();
    for m in Model::all() {
        for boundary in [Boundary::Wrap, Boundary::Walls, Boundary::Bounce] {
            for (cap, actors, pointer, topological) in [
                (0, false, false, false),
                (0, true, false, false),
                (6, false, false, false),
                (0, false, true, false),
                (0, false, false, true),
                (0, true, false, true),
            ] {
                let mut p = SimParams {
                    model: m,
                    boundary,
                    max_neighbors: cap,
                    neighborhood: if topological {
                        Neighborhood::Topological
                    } else {
                        Neighborhood::Metric
                    },
                    rotational_diffusion: 0.3,
                    catch_radius: 8.0,
                    predator_sight_radius: 200.0,
                    ..SimParams::default()
                }
                .with_world_for(3000, 0.02);
                if m == Model::VICSEK {
                    p.perception_radius = 20.0;
                    p.models.vicsek.speed = 2.0;
                }
                p.validate().unwrap();
                let (w, h) = (p.world_width, p.world_height);
                let mut ia = Interaction::with_obstacle_defaults();
                if pointer {
                    ia.pointer = [0.3 * w, 0.6 * h];
                    ia.pointer_radius = 80.0;
                    ia.pointer_weight = 4.0;
                }
                let (obstacles, predators) = if actors {
                    (
                        vec![[0.5 * w, 0.5 * h], [0.5 * w + 2.0, 0.5 * h], [0.0, 0.2 * h]],
                        vec![
                            Predator::new(
                                Vec2::new(0.3 * w, 0.3 * h),
                                Vec2::new(50.0, 10.0),
                                PredatorKind::Straight,
                            ),
                            Predator::new(
                                Vec2::new(0.7 * w, 0.6 * h),
                                Vec2::ZERO,
                                PredatorKind::Hunting,
                            ),
                        ],
                    )
                } else {
                    (Vec::new(), Vec::new())
                };
                let label = format!(
                    "{} {boundary:?} {}cap {cap}{}{}",
                    m.desc().name,
                    if topological { "topological " } else { "" },
                    if actors {
                        " with obstacles and predators"
                    } else {
                        ""
                    },
                    if pointer { " with the pointer" } else { "" },
                );
                out.push((label, p, ia, obstacles, predators));
            }
        }
    }
    out
}

/// Steps a backend on `path` three times, each step checked against one step of the twins from
/// the same buffers. Returns the number of boids with neighbours after the first step.
fn check_steps(
    path: GatherPath,
    label: &str,
    p: &SimParams,
    ia: &Interaction,
    obstacles: &[[f32; 2]],
    predators: &[Predator],
    boids: &[Boid],
) -> usize {
    let mut sim = CpuBackend::from_state(BackendKind::Cpu, p, boids.to_vec(), 21).unwrap();
    sim.set_interaction(ia);
    sim.set_obstacles(obstacles).unwrap();
    sim.set_predators(predators).unwrap();
    sim.set_gather_path(path);
    // The topological neighbourhood's lists too.
    sim.record_neighbor_ids(true).unwrap();
    let mut busy = 0;
    for step in 0..3 {
        let want = twins_step(sim.buffers(), sim.uniforms());
        sim.step().unwrap();
        compare(sim.buffers(), &want, p, path == GatherPath::Scalar)
            .unwrap_or_else(|e| panic!("{label}, {} path, step {step}: {e}", path.name()));
        if step == 0 {
            busy = want.neighbors.iter().filter(|&&k| k > 0).count();
        }
    }
    busy
}

#[test]
fn a_step_on_the_scalar_path_is_the_twins_step_bit_for_bit() {
    for (k, (label, p, ia, obstacles, predators)) in cases().into_iter().enumerate() {
        let boids = support::test_state(k as u32 + 1, 3000, &p, true);
        let busy = check_steps(
            GatherPath::Scalar,
            &label,
            &p,
            &ia,
            &obstacles,
            &predators,
            &boids,
        );
        assert!(busy > 1000, "{label}: most boids have neighbours ({busy})");
    }
}

#[test]
fn a_step_on_every_vectorised_path_is_the_twins_step_within_the_tolerance() {
    let paths: Vec<GatherPath> = GatherPath::available()
        .filter(|&x| x != GatherPath::Scalar)
        .collect();
    for (k, (label, p, ia, obstacles, predators)) in cases().into_iter().enumerate() {
        let boids = support::test_state(k as u32 + 1, 3000, &p, true);
        for &path in &paths {
            check_steps(path, &label, &p, &ia, &obstacles, &predators, &boids);
        }
    }
    for path in GatherPath::ALL.into_iter().filter(|x| !x.is_available()) {
        eprintln!("SKIPPED the {} path: this CPU lacks it", path.name());
    }
}

#[test]
fn the_comparison_rejects_a_planted_difference() {
    let p = SimParams::default().with_world_for(2000, 0.02);
    let boids = support::test_state(4, 2000, &p, true);
    let mut sim = CpuBackend::from_state(BackendKind::Cpu, &p, boids, 3).unwrap();
    sim.set_gather_path(GatherPath::Scalar);
    let want = twins_step(sim.buffers(), sim.uniforms());
    sim.step().unwrap();
    let got = sim.buffers().clone();
    compare(&got, &want, &p, true).unwrap();
    // One bit of one velocity: caught by the exact comparison, not by the tolerance.
    let mut planted = got.clone();
    planted.pos_vel[7][2] = f32::from_bits(planted.pos_vel[7][2].to_bits() ^ 1);
    assert!(compare(&planted, &want, &p, true).is_err());
    compare(&planted, &want, &p, false).unwrap();
    // A position off by more than the tolerance.
    let mut far = got.clone();
    far.pos_vel[11][0] += 0.01 * p.world_width;
    assert!(compare(&far, &want, &p, false).is_err());
    // Integers, whatever the path: a neighbour count, two swapped items, a catch.
    let mut count = got.clone();
    count.neighbors[5] += 1;
    assert!(compare(&count, &want, &p, false).is_err());
    let mut order = got.clone();
    order.sorted_id.swap(0, 1);
    assert!(compare(&order, &want, &p, false).is_err());
    let mut caught = got.clone();
    caught.catches[1] += 1;
    assert!(compare(&caught, &want, &p, false).is_err());
    let mut image = got.clone();
    image.image[7][1] -= 1;
    assert!(compare(&image, &want, &p, false).is_err());
    // A recorded topological neighbour.
    let topo = SimParams {
        neighborhood: Neighborhood::Topological,
        ..p.clone()
    };
    let boids = support::test_state(4, 2000, &topo, true);
    let mut sim = CpuBackend::from_state(BackendKind::Cpu, &topo, boids, 3).unwrap();
    sim.record_neighbor_ids(true).unwrap();
    let want = twins_step(sim.buffers(), sim.uniforms());
    sim.step().unwrap();
    let got = sim.buffers().clone();
    compare(&got, &want, &topo, false).unwrap();
    assert!(!got.neighbor_ids.is_empty());
    let mut listed = got.clone();
    listed.neighbor_ids[9] ^= 1;
    assert!(compare(&listed, &want, &topo, false).is_err());
}

#[test]
fn a_warm_up_stores_neighbour_counts_only_on_its_last_step() {
    use boids::model::measures::MeasureId;
    use boids::run::steps::{run_steps, Ended, Nothing, Schedule, Stop};
    let p = SimParams::default().with_world_for(800, 0.02);
    let boids = support::test_state(3, 800, &p, false);
    let schedule = Schedule {
        warmup: 3,
        steps: 0,
        measure_every: 0,
        timed: false,
    };
    let mean = |sim: &mut CpuBackend| sim.measures().unwrap().get(MeasureId::MEAN_NEIGHBORS);
    // Whole, it hands on a state with its counts.
    let mut sim = CpuBackend::from_state(BackendKind::Cpu, &p, boids.clone(), 1).unwrap();
    let ended = run_steps(
        &mut sim,
        &schedule,
        &Stop::default(),
        &mut || {},
        &mut Nothing,
    );
    assert_eq!(ended.unwrap(), Ended::Done);
    assert!(mean(&mut sim).is_some_and(|m| m > 1.0));
    // Stopped after its first step, which stored none; the steps after store them again.
    let mut sim = CpuBackend::from_state(BackendKind::Cpu, &p, boids, 1).unwrap();
    let stop = Stop::default();
    let asks = stop.clone();
    let ended = run_steps(&mut sim, &schedule, &stop, &mut || asks.set(), &mut Nothing);
    assert_eq!(ended.unwrap(), Ended::Interrupted(1));
    assert_eq!(
        mean(&mut sim),
        None,
        "the first warm-up step stored no counts"
    );
    sim.step().unwrap();
    assert!(mean(&mut sim).is_some_and(|m| m > 1.0));
}
