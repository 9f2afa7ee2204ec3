//! Couzin's zonal model (docs/model.md §21): its exact limits — no turn exceeds θ·Δt, repulsion
//! overrides orientation and attraction whenever a neighbour is inside r_r, a neighbour in the
//! blind zone changes nothing, a lone zone turns the animal toward its direction at the largest
//! rate — and the collective states of Couzin et al. (2002) from its scenes: swarm, torus, dynamic
//! and highly parallel, and the collective memory of a parallel group as the zone of orientation
//! narrows. GPU = CPU for the model (every boundary, both neighbourhoods, a field of view) is
//! tested with every model of the table (`model_table.rs`, `view_angle.rs`).

use std::path::PathBuf;

use boids::backend::{BackendKind, Simulation};
use boids::cpu::CpuBackend;
use boids::formats::scene::Scene;
use boids::model::models::couzin::turn_limit;
use boids::model::{group_state, initial_state, Boid, FlockMeasures, Model, SimParams};
use glam::Vec2;

use crate::support::states::first_after_step;
use crate::support::states::planted as animal;

/// The parameters and seed of `scenes/<name>.toml`.
fn scene(name: &str) -> (SimParams, u32) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("scenes/{name}.toml"));
    let scene = Scene::load(&path).unwrap();
    let setup = boids::run::spec::scene_setup(Some(&scene), None, None, 100, 1.0).unwrap();
    assert_eq!(setup.params.model, Model::COUZIN, "{name}");
    (setup.params, setup.seed)
}

/// Open space for a few planted animals: Couzin's defaults but no error, 400 wu wide.
fn open(view_angle: f32) -> SimParams {
    let mut p = SimParams {
        model: Model::COUZIN,
        world_width: 400.0,
        world_height: 400.0,
        dt: 0.1,
        view_angle,
        perception_radius: 19.0,
        ..SimParams::default()
    };
    p.models.couzin.noise = 0.0;
    p.validate().unwrap();
    p
}

/// The angle between two headings (rad, f64).
fn angle(a: Vec2, b: Vec2) -> f64 {
    let (a, b) = (a.as_dvec2().normalize(), b.as_dvec2().normalize());
    a.perp_dot(b).atan2(a.dot(b)).abs()
}

#[test]
fn no_turn_exceeds_the_largest_turning_rate() {
    // A crowded random start with a large error: many animals would turn further.
    for (sigma, theta) in [(1.0f32, 0.6981317f32), (0.05, 2.0), (0.0, 0.1)] {
        let mut p = scene("couzin_torus").0;
        p.models.couzin.noise = sigma;
        p.models.couzin.turn_rate = theta;
        let limit = (theta * p.dt) as f64;
        let mut sim =
            CpuBackend::from_state(BackendKind::Cpu, &p, initial_state(4, 300, &p), 4).unwrap();
        let mut largest = 0.0f64;
        for _ in 0..40 {
            let mut before = sim.read_state().unwrap();
            before.sort_by_key(|b| b.id);
            sim.step().unwrap();
            let mut after = sim.read_state().unwrap();
            after.sort_by_key(|b| b.id);
            for (b, a) in before.iter().zip(&after) {
                let turn = angle(b.vel(), a.vel());
                largest = largest.max(turn);
                assert!(
                    turn <= limit + 1e-5,
                    "σ {sigma} θ {theta}: animal {} turned {turn} rad > θΔt = {limit}",
                    b.id
                );
                assert!((a.vel().length() - p.models.couzin.speed).abs() < 1e-5);
            }
        }
        // The limit is reached (the test can fail): some animal turns by θΔt.
        assert!(
            largest > limit - 1e-5,
            "σ {sigma}: largest turn {largest} < {limit}"
        );
    }
}

#[test]
fn repulsion_overrides_orientation_and_attraction() {
    let p = open(360.0);
    // Animal 0 heads +x; animal 1 is inside r_r = 1, ahead and to the left; the others fill the
    // zones of orientation (r 1 … 7) and attraction (7 … 19), heading and lying elsewhere.
    let me = animal(0, [200.0, 200.0], [3.0, 0.0]);
    let close = animal(1, [200.5, 200.4], [3.0, 0.0]);
    let crowd: Vec<Boid> = (0..12)
        .map(|k| {
            let a = k as f32 * 0.5;
            let r = if k % 2 == 0 { 4.0 } else { 12.0 };
            animal(
                2 + k,
                [200.0 + r * a.cos(), 200.0 + r * a.sin()],
                [0.0, -3.0],
            )
        })
        .collect();
    // The crowd moved out of every zone: far away, but the same animals.
    let away: Vec<Boid> = crowd
        .iter()
        .map(|b| {
            animal(
                b.id,
                [b.position[0] - 150.0, b.position[1] + 150.0],
                [0.0, -3.0],
            )
        })
        .collect();
    for kind in [BackendKind::Cpu, BackendKind::CpuNaive] {
        let with_crowd = first_after_step(kind, &p, [vec![me, close], crowd.clone()].concat());
        let without = first_after_step(kind, &p, [vec![me, close], away.clone()].concat());
        assert_eq!(with_crowd, without, "{kind:?}: the zones beyond r_r act");
        // It turns away from animal 1 (to the right, −y), by the largest turn.
        let v = with_crowd.vel();
        assert!(v.y < 0.0, "{kind:?}: {v}");
        let limit = (p.models.couzin.turn_rate * p.dt) as f64;
        assert!((angle(me.vel(), v) - limit).abs() < 1e-5);
        // Without animal 1 the crowd acts.
        let crowd_only = first_after_step(kind, &p, [vec![me], crowd.clone()].concat());
        let alone = first_after_step(kind, &p, [vec![me], away.clone()].concat());
        assert_ne!(crowd_only, alone, "{kind:?}: the crowd does not act");
    }
}

#[test]
fn each_zone_alone_turns_the_animal_its_way() {
    let p = open(360.0);
    let (c, s) = turn_limit(p.models.couzin.turn_rate, p.dt);
    let me = animal(0, [200.0, 200.0], [3.0, 0.0]);
    // Orientation: a neighbour 4 wu ahead heading +y (desired +y: the largest turn left).
    // Attraction: one 12 wu to the right (desired −y: the largest turn right).
    // Orientation and attraction 1° apart: the desired direction is reached at once.
    let cases = [
        (animal(1, [204.0, 200.0], [0.0, 3.0]), Vec2::new(c, s)),
        (animal(1, [200.0, 188.0], [3.0, 0.0]), Vec2::new(c, -s)),
        (
            animal(1, [212.0, 200.0 + 12.0 * 0.01745], [3.0, 0.0]),
            Vec2::new(1.0, 0.01745).normalize(),
        ),
        // A lone animal keeps its heading.
        (animal(1, [100.0, 100.0], [0.0, 3.0]), Vec2::X),
    ];
    for (k, (other, want)) in cases.into_iter().enumerate() {
        let got = first_after_step(BackendKind::Cpu, &p, vec![me, other]).vel() / 3.0;
        assert!((got - want).length() < 1e-4, "case {k}: {got} want {want}");
    }
}

#[test]
fn a_neighbour_in_the_blind_zone_changes_nothing() {
    let p = open(270.0);
    let me = animal(0, [200.0, 200.0], [3.0, 0.0]);
    // 10 wu away (the zone of attraction), 30° off the tail (the blind zone is ±45° about it),
    // and the same distance ahead.
    let (cs, sn) = (30f32.to_radians().cos(), 30f32.to_radians().sin());
    let behind = animal(1, [200.0 - 10.0 * cs, 200.0 + 10.0 * sn], [0.0, 3.0]);
    let ahead = animal(1, [200.0 + 10.0 * cs, 200.0 + 10.0 * sn], [0.0, 3.0]);
    let far = animal(1, [50.0, 50.0], [0.0, 3.0]);
    for kind in [BackendKind::Cpu, BackendKind::CpuNaive] {
        let alone = first_after_step(kind, &p, vec![me, far]);
        assert_eq!(
            first_after_step(kind, &p, vec![me, behind]),
            alone,
            "{kind:?}"
        );
        assert_ne!(
            first_after_step(kind, &p, vec![me, ahead]),
            alone,
            "{kind:?}"
        );
    }
    // At 360° the same neighbour behind is attracted to.
    let all_round = open(360.0);
    let alone = first_after_step(BackendKind::Cpu, &all_round, vec![me, far]);
    assert_ne!(
        first_after_step(BackendKind::Cpu, &all_round, vec![me, behind]),
        alone
    );
}

/// Mean polarization and milling over the last `last` of `steps` steps of `p` from `start`.
fn measured(p: &SimParams, start: Vec<Boid>, seed: u32, steps: u32, last: usize) -> (f64, f64) {
    let mut sim = CpuBackend::from_state(BackendKind::Cpu, p, start, seed).unwrap();
    let series: Vec<FlockMeasures> = sim.run_measured(steps, &mut || {}).unwrap();
    let tail = &series[series.len() - last..];
    let mean = |f: fn(&FlockMeasures) -> f64| tail.iter().map(f).sum::<f64>() / last as f64;
    (mean(|m| m.polarization()), mean(|m| m.milling()))
}

#[test]
fn the_scenes_reach_the_collective_states_of_the_paper() {
    // (scene, polarization range, milling range) over the last 1000 of 4000 steps (400 s), from
    // the scenes' start (one group, `spawn = "group"`) with three seeds.
    for (name, pol, mill) in [
        ("couzin_swarm", 0.0..0.4, 0.0..0.4),
        ("couzin_torus", 0.0..0.3, 0.75..1.0),
        ("couzin_parallel", 0.8..0.97, 0.0..0.2),
        ("couzin_highly_parallel", 0.98..1.0, 0.0..0.1),
    ] {
        let (p, seed) = scene(name);
        for seed in [seed, seed + 1, seed + 2] {
            let (phi, m) = measured(&p, group_state(seed, 100, &p), seed, 4000, 1000);
            assert!(
                pol.contains(&phi) && mill.contains(&m),
                "{name} seed {seed}: polarization {phi:.3}, milling {m:.3}"
            );
        }
    }
}

#[test]
fn a_parallel_group_remembers_its_state_as_the_orientation_zone_narrows() {
    // Collective memory (Couzin et al. 2002): at Δr_o = 3 a group from the scene's start mills;
    // the group formed parallel at Δr_o = 13 stays parallel when Δr_o is lowered to 3. Three
    // seeds.
    let (mut p, seed) = scene("couzin_torus");
    p.perception_radius = 28.0;
    for seed in [seed, seed + 1, seed + 2] {
        p.models.couzin.orientation_width = 3.0;
        let (phi, m) = measured(&p, group_state(seed, 100, &p), seed, 4000, 1000);
        assert!(
            m > 0.75 && phi < 0.3,
            "seed {seed}, group at 3: φ {phi:.3} m {m:.3}"
        );
        let mut wide = p.clone();
        wide.models.couzin.orientation_width = 13.0;
        let start = group_state(seed, 100, &wide);
        let mut sim = CpuBackend::from_state(BackendKind::Cpu, &wide, start, seed).unwrap();
        sim.run_measured(3000, &mut || {}).unwrap();
        let formed = sim.read_state().unwrap();
        let (phi, m) = measured(&p, formed, seed, 4000, 1000);
        assert!(
            phi > 0.75 && m < 0.2,
            "seed {seed}, parallel at 3: φ {phi:.3} m {m:.3}"
        );
    }
}

#[test]
fn the_group_start_is_one_disc_at_the_centre() {
    // spawn = "group" (docs/model.md §11.1): the uniform start's boids, each in the disc of
    // radius 2·r_r·√(N/π) at the world's centre, with the uniform start's velocities and hues.
    let (p, seed) = scene("couzin_torus");
    let group = group_state(seed, 100, &p);
    let spray = initial_state(seed, 100, &p);
    let r = boids::model::spawn::group_radius(100, &p);
    assert!(
        (r - 2.0 * (100.0f32 / std::f32::consts::PI).sqrt()).abs() < 1e-4,
        "{r}"
    );
    let centre = Vec2::new(p.world_width, p.world_height) * 0.5;
    let far = group
        .iter()
        .map(|b| (b.pos() - centre).length())
        .fold(0.0f32, f32::max);
    assert!(
        far <= r * (1.0 + 1e-5) && far > 0.8 * r,
        "farthest {far} of {r}"
    );
    for (g, u) in group.iter().zip(&spray) {
        assert_eq!((g.id, g.velocity, g.hue), (u.id, u.velocity, u.hue));
    }
    // A small world clips the disc to 0.45 of its side.
    let small = SimParams {
        world_width: 40.0,
        world_height: 40.0,
        ..p.clone()
    };
    assert_eq!(boids::model::spawn::group_radius(10_000, &small), 18.0);
}
