//! The fish-school model (docs/model.md §17) forms the source's stable school from its published
//! parameters (`scenes/fish_school.toml`: C = 0.05, S = 0.3, M = 0.15, R = 8, 7, 2, L = 100,
//! Δt = 0.1, N = 500, the weak edge barrier), from the program's uniform random start, within the
//! program's run length T = 3200 steps. The criterion (docs/model.md §17.6), on three seeds:
//! - the fish gather: the mean neighbour count within R rises to at least 5 times its value at the
//!   uniform start (ρ·π·R² ≈ 10);
//! - they swim as one school: the polarization at T is at least 0.95, and stays at least 0.8 over
//!   the last 400 steps (after the school has formed, it does not break up);
//! - "on gathering, the speed decreases" (the page): the final mean speed is below half the
//!   initial one.
//!
//! A random start has polarization ≈ 1/√N ≈ 0.04 and the uniform neighbour count, so each part can
//! fail; without the alignment (M = 0) the polarization stays low (checked as a control).

use std::path::PathBuf;

use boids::backend::{BackendKind, Simulation};
use boids::cpu::CpuBackend;
use boids::formats::scene::Scene;
use boids::model::measures::MeasureId;
use boids::model::{initial_state, FlockMeasures, Setup, SimParams};

/// The program's run length (steps).
const T: u32 = 3200;

fn school_scene() -> Setup {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scenes/fish_school.toml");
    let scene = Scene::load(&path).unwrap();
    let mut setup = boids::run::spec::scene_setup(Some(&scene), None, None, 500, 1.0).unwrap();
    // The page let the school form before its two predators entered: the school is checked
    // without them.
    assert_eq!(setup.actors.predators.len(), 2, "the scene's two predators");
    setup.actors.predators.clear();
    setup
}

/// The measures after every step of `T` from seed `seed`, and those of the start.
fn run(p: &SimParams, n: usize, seed: u32) -> (FlockMeasures, Vec<FlockMeasures>) {
    let mut sim =
        CpuBackend::from_state(BackendKind::Cpu, p, initial_state(seed, n, p), seed).unwrap();
    let start = sim.measures().unwrap();
    // The neighbour count of the start: one step sees the uniform positions.
    let first = sim.run_measured(1, &mut || {}).unwrap();
    let mut series = first.clone();
    series.extend(sim.run_measured(T - 1, &mut || {}).unwrap());
    let mut start = start;
    start.set(MeasureId::MEAN_NEIGHBORS, first[0].mean_neighbors());
    (start, series)
}

#[test]
fn the_published_parameters_form_a_stable_school() {
    let setup = school_scene();
    let p = &setup.params;
    let n = setup.boids.len();
    assert_eq!(
        (n, p.models.fish.alignment, p.models.fish.cohesion),
        (500, 0.15, 0.05)
    );
    for seed in [1, 2, 3] {
        let (start, series) = run(p, n, seed);
        let end = series.last().unwrap();
        // The uniform start: ρ·π·R² = 0.05·π·64 ≈ 10 neighbours, no order.
        assert!(
            (7.0..13.0).contains(&start.mean_neighbors()) && start.polarization() < 0.2,
            "seed {seed}: start {start:?}"
        );
        assert!(
            end.mean_neighbors() >= 5.0 * start.mean_neighbors(),
            "seed {seed}: no gathering: {} → {} neighbours",
            start.mean_neighbors(),
            end.mean_neighbors()
        );
        let late_min = series[series.len() - 400..]
            .iter()
            .map(|m| m.polarization())
            .fold(1.0f64, f64::min);
        assert!(
            end.polarization() >= 0.95 && late_min >= 0.8,
            "seed {seed}: no stable school: polarization {} at T, {late_min} at least over the \
             last 400 steps",
            end.polarization()
        );
        assert!(
            end.mean_speed() < 0.5 * start.mean_speed(),
            "seed {seed}: the school did not slow: {} → {} wu/s",
            start.mean_speed(),
            end.mean_speed()
        );
    }
}

#[test]
fn without_alignment_no_school_forms() {
    // The control: the same set with M = 0 gathers (cohesion) but does not polarize.
    let setup = school_scene();
    let p = {
        let mut sp = SimParams {
            ..setup.params.clone()
        };
        sp.models.fish.alignment = 0.0;
        sp
    };
    let (_, series) = run(&p, setup.boids.len(), 1);
    let end = series.last().unwrap();
    assert!(end.polarization() < 0.5, "{end:?}");
}
