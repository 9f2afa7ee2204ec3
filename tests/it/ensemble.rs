//! Ensembles (docs/sweeps.md, "Ensembles"): every replica of a GPU ensemble equals the same system
//! run alone, bit for bit — state and measures, step after step — for every model of the table,
//! in every neighbourhood (metric, both topological searches, Voronoi), in a wrapping and a
//! bounded world, with
//! replicas whose seeds, counts, worlds, model parameters and predators differ from their
//! neighbours'. The
//! comparison is shown to fail on a planted difference (a replica given another seed than its lone
//! run). What splits an ensemble is refused with its field and values. The GPU tests skip visibly
//! without an adapter and fail under BOIDS_REQUIRE_GPU=1.

use crate::support;
use boids::backend::Simulation;
use boids::gpu::{GpuBackend, GpuContext, Replica};
use boids::model::{
    Boundary, FlockMeasures, Model, Neighborhood, Predator, PredatorKind, SimParams, MODELS,
};
use glam::Vec2;

/// `p` with each of its model's own parameters moved by `scale` (where the result is valid), so
/// a replica reading another's model uniforms computes something else.
fn scaled_model_params(p: &SimParams, scale: f64) -> SimParams {
    let desc = MODELS.iter().find(|d| d.name == p.model.name()).unwrap();
    let mut out = p.clone();
    let json = serde_json::to_value(p).unwrap();
    for spec in desc.own_params {
        let Some(v) = json[spec.key].as_f64() else {
            continue;
        };
        let mut q = out.clone();
        let moved = if v == 0.0 { 0.1 } else { v * scale };
        if q.set(spec.key, &moved.to_string()).is_ok() && q.validate().is_ok() {
            out = q;
        }
    }
    out
}

/// Four replicas of `base`: other seeds, counts, worlds and model parameters; the last one of
/// more boids than one measures workgroup sums (4096), so its reduction has a final pass.
fn replicas(base: &SimParams) -> Vec<Replica> {
    let worlds = [
        (200.0, 200.0, 300, 11),
        (320.0, 150.0, 520, 12),
        (150.0, 260.0, 90, 13),
        (900.0, 700.0, 4500, 14),
    ];
    worlds
        .iter()
        .enumerate()
        .map(|(r, &(w, h, n, seed))| {
            let p = SimParams {
                world_width: w,
                world_height: h,
                // Hunting predators catch boids within 12 wu (the default 0 catches none).
                catch_radius: 12.0,
                ..scaled_model_params(base, 1.0 - 0.15 * r as f64)
            };
            let mut rep = Replica::new(&p, n, seed).unwrap();
            // Predators in two replicas (hunting ones, which catch boids), none in the others.
            let hunter = |x: f32, y: f32| {
                Predator::new(Vec2::new(x, y), Vec2::new(20.0, 5.0), PredatorKind::Hunting)
            };
            rep.predators = match r {
                1 => vec![hunter(40.0, 60.0), hunter(250.0, 100.0)],
                3 => vec![hunter(450.0, 350.0)],
                _ => Vec::new(),
            };
            rep
        })
        .collect()
}

/// A replica's measures for `steps` steps, its state after them and its last measures with its
/// catches, run alone.
fn alone(
    ctx: &GpuContext,
    r: &Replica,
    steps: u32,
) -> (Vec<FlockMeasures>, Vec<boids::model::Boid>, FlockMeasures) {
    let mut sim = GpuBackend::from_state(ctx, &r.params, &r.boids, r.seed).unwrap();
    sim.set_predators(&r.predators).unwrap();
    let m = sim.run_measured(steps, &mut || {}).unwrap();
    (m, sim.read_state().unwrap(), sim.measures().unwrap())
}

/// Checks every replica of `reps` against its lone run of `lone` over `steps` steps (a shared
/// backend reset between ensembles, as a sweep does); the boids the lone runs' predators caught.
fn check(
    ctx: &GpuContext,
    ens: &mut GpuBackend,
    reps: &[Replica],
    lone: &[Replica],
    steps: u32,
) -> Result<u32, String> {
    ens.reset_ensemble(reps).map_err(|e| e.to_string())?;
    let measured = ens.run_measured_replicas(steps, &mut || {}).unwrap();
    let last = ens.replica_measures().unwrap();
    let mut caught = 0;
    for (r, rep) in lone.iter().enumerate() {
        let (m, state, end) = alone(ctx, rep, steps);
        let got = ens.replica_state(r).unwrap();
        if got != state {
            let first = got.iter().zip(&state).position(|(a, b)| a != b);
            return Err(format!(
                "replica {r}: state differs from its lone run (first at {first:?})"
            ));
        }
        // Bit for bit: the measures as their debug text (NaN-safe, every digit).
        if format!("{:?}", measured[r]) != format!("{m:?}") {
            return Err(format!("replica {r}: measures differ from its lone run"));
        }
        // The series carries the catch counters: its last row is the state's measures.
        if format!("{:?}", m.last()) != format!("{:?}", Some(&end)) {
            return Err(format!(
                "replica {r}: the lone run's last measured row is not its measures (catches?)"
            ));
        }
        if format!("{:?}", last[r]) != format!("{end:?}") {
            return Err(format!(
                "replica {r}: last measures or catches differ from its lone run"
            ));
        }
        caught += end.catches_total();
    }
    Ok(caught)
}

#[test]
fn every_replica_equals_its_lone_run_for_every_model_and_neighbourhood() {
    let Some(ctx) = support::gpu() else { return };
    let mut ens: Option<GpuBackend> = None;
    let mut caught = 0;
    for m in Model::all() {
        for (neighborhood, k) in [
            (Neighborhood::Metric, 7),
            (Neighborhood::Topological, 7),
            (Neighborhood::Topological, 12),
            (Neighborhood::Voronoi, 7),
        ] {
            for boundary in [Boundary::Wrap, Boundary::Walls] {
                let base = SimParams {
                    model: m,
                    neighborhood,
                    topological_k: k,
                    boundary,
                    ..SimParams::default()
                };
                let reps = replicas(&base);
                let ens = match &mut ens {
                    Some(e) => e,
                    None => ens.insert(GpuBackend::ensemble(&ctx, &reps).unwrap()),
                };
                caught += support::checked(&ctx, || check(&ctx, ens, &reps, &reps, 12))
                    .unwrap_or_else(|e| {
                        panic!("{} {neighborhood:?} k={k} {boundary:?}: {e}", m.name())
                    });
            }
        }
    }
    // The predators caught boids: the respawn path ran in the ensembles too.
    assert!(
        caught > 0,
        "no boid was caught: the test does not reach the predators' path"
    );
}

/// A lone run's pipelines find no replica (each invocation's is the constant 0), an ensemble's
/// find each invocation's: every backend holds its own kind, switches with a reset, and making
/// one compiles none of the other's.
#[test]
fn a_lone_run_and_an_ensemble_each_compile_their_own_pipelines() {
    let Some(ctx) = support::gpu() else { return };
    let reps = replicas(&SimParams::default());
    let compiled = || ctx.pipeline_stats().compiled;
    let mut ens = GpuBackend::ensemble(&ctx, &reps).unwrap();
    assert!(ens.pipelines().variant().ensemble);
    let for_ensemble = compiled();
    let mut lone = GpuBackend::new(&ctx, &reps[0].params, 300, 1).unwrap();
    assert!(!lone.pipelines().variant().ensemble);
    let for_lone = compiled() - for_ensemble;
    // Every stage but the scan includes replicas.wgsl: the lone run compiled those, not the scan.
    assert!(
        for_lone > 0 && for_lone < for_ensemble,
        "{for_lone} pipelines compiled for the lone run after {for_ensemble} for the ensemble"
    );
    // The lone backend made an ensemble steps every replica as its lone run: each stage took
    // an ensemble's pipelines (a stage left with a lone run's would give every replica
    // replica 0's parameters).
    check(&ctx, &mut lone, &reps, &reps, 3).unwrap();
    ens.reset(&reps[0].params, &reps[0].boids, 1).unwrap();
    assert!(lone.pipelines().variant().ensemble);
    assert!(!ens.pipelines().variant().ensemble);
    // A state set on a backend holding an ensemble makes it a lone run, with a lone run's
    // pipelines.
    lone.set_state(&reps[0].boids).unwrap();
    assert!(!lone.pipelines().variant().ensemble);
    assert_eq!(
        compiled(),
        for_ensemble + for_lone,
        "a reset compiled again"
    );
}

#[test]
fn the_comparison_fails_when_a_replica_is_not_its_lone_run() {
    let Some(ctx) = support::gpu() else { return };
    let reps = replicas(&SimParams::default());
    let mut ens = GpuBackend::ensemble(&ctx, &reps).unwrap();
    // Replica 1 stepped in the ensemble with another seed than its lone run.
    let mut planted = reps.clone();
    planted[1].seed += 1;
    let err = check(&ctx, &mut ens, &planted, &reps, 4).unwrap_err();
    assert!(err.contains("replica 1"), "{err}");
    // Replica 2 with replica 0's model parameters: its neighbours' uniforms are not its own.
    let vicsek = SimParams {
        model: Model::by_name("vicsek").unwrap(),
        ..SimParams::default()
    };
    let reps = replicas(&vicsek);
    let mut planted = reps.clone();
    planted[2].params = SimParams {
        world_width: reps[2].params.world_width,
        world_height: reps[2].params.world_height,
        ..reps[0].params.clone()
    };
    let err = check(&ctx, &mut ens, &planted, &reps, 4).unwrap_err();
    assert!(err.contains("replica 2"), "{err}");
}

#[test]
fn an_ensemble_refuses_what_splits_it_and_a_lone_runs_operations() {
    let Some(ctx) = support::gpu() else { return };
    let mut reps = replicas(&SimParams::default());
    reps[2].params.neighborhood = Neighborhood::Topological;
    let reps = &reps[..3];
    let err = GpuBackend::ensemble(&ctx, reps).err().unwrap().to_string();
    assert!(err.contains("replica 2") && err.contains("search"), "{err}");
    let err = GpuBackend::ensemble(&ctx, &[]).err().unwrap().to_string();
    assert!(err.contains("no replicas"), "{err}");
    let many = vec![reps[0].clone(); 65];
    let err = GpuBackend::ensemble(&ctx, &many).err().unwrap().to_string();
    assert!(
        err.contains("65 replicas") && err.contains("at most 64"),
        "{err}"
    );
    let mut ens = GpuBackend::ensemble(&ctx, &reps[..2]).unwrap();
    let err = ens.set_predators(&[]).unwrap_err().to_string();
    assert!(
        err.contains("set_predators") && err.contains("2 replicas"),
        "{err}"
    );
    assert!(ens.measures().is_err());
    // Reset to one system, it is a lone run again.
    ens.reset(&reps[0].params, &reps[0].boids, reps[0].seed)
        .unwrap();
    assert_eq!(ens.replica_count(), 1);
    ens.measures().unwrap();
}

#[test]
fn the_ensemble_bench_writes_its_table_and_refuses_a_bad_count() {
    use support::cmd::{ok, run, stdout, text};
    let bad = run(&["bench", "--replicas", "65", "--boids", "100"]);
    assert!(!bad.status.success());
    assert!(
        text(&bad).contains("--replicas 65: allowed 1 ..= 64"),
        "{}",
        text(&bad)
    );
    // Scenes an ensemble cannot hold, and no steps, are refused before anything is measured.
    let trees = concat!(env!("CARGO_MANIFEST_DIR"), "/scenes/trees.toml");
    let obstacles = run(&[
        "bench",
        "--replicas",
        "2",
        "--boids",
        "100",
        "--scene",
        trees,
    ]);
    assert!(!obstacles.status.success());
    assert!(
        text(&obstacles).contains("obstacles"),
        "{}",
        text(&obstacles)
    );
    let none = run(&["bench", "--replicas", "2", "--boids", "100", "--steps", "0"]);
    assert!(!none.status.success());
    assert!(
        text(&none).contains("--steps must be at least 1"),
        "{}",
        text(&none)
    );
    // Options of the other benchmark are refused, not ignored.
    let other = run(&["bench", "--replicas", "2", "--backends", "cpu"]);
    assert!(!other.status.success());
    assert!(
        text(&other).contains("--backends") && text(&other).contains("cannot be used"),
        "{}",
        text(&other)
    );
    if support::gpu().is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("b");
    let o = ok(&[
        "bench",
        "--replicas",
        "1,3,3",
        "--boids",
        "100",
        "--steps",
        "3",
        "--warmup",
        "1",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(stdout(&o).contains("ens. rep-st/s"), "{}", stdout(&o));
    let csv = std::fs::read_to_string(out.join("ensembles.csv")).unwrap();
    let rows: Vec<Vec<Option<f64>>> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').map(|x| x.parse().ok()).collect())
        .collect();
    // R = 3 asked for twice is measured once.
    assert_eq!(rows.len(), 2, "{csv}");
    for (row, r) in rows.iter().zip([1.0, 3.0]) {
        let v = |k: usize| row[k].unwrap_or_else(|| panic!("column {k} empty: {csv}"));
        assert_eq!((v(0), v(1)), (100.0, r), "{csv}");
        // Every time measured, the rates from them.
        assert!((2..5).all(|k| v(k) > 0.0), "{csv}");
        assert!((v(7) - r * 1e3 / v(2)).abs() < 1e-6 * v(7), "{csv}");
        // The launch and per-boid terms need two counts: none for R = 1.
        assert_eq!(row[5].is_some() && row[6].is_some(), r > 1.0, "{csv}");
    }
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("ensembles.json")).unwrap()).unwrap();
    assert_eq!(json["schema"], "boids-ensembles/1");
    assert!(json["adapter"]["name"].is_string(), "{json}");
    assert_eq!(json["parameters"]["replicas"], serde_json::json!([1, 3]));
    assert_eq!(json["rows"].as_array().map(Vec::len), Some(2), "{json}");
    // The rows carry what the table derives, as the CSV does.
    assert!(json["rows"][1]["speedup"].as_f64().is_some(), "{json}");
    assert!(json["rows"][0]["launch_ms"].is_null(), "{json}");
}

#[test]
fn steps_of_an_ensemble_store_the_last_ones_neighbour_counts_and_equal_lone_steps() {
    use boids::backend::BackendKind;
    use boids::run::ensemble::Ensemble;
    let p = SimParams::default().with_world_for(700, 0.02);
    let reps: Vec<Replica> = (0..2)
        .map(|r| Replica::new(&p, 700, 40 + r).unwrap())
        .collect();
    let ctx = support::gpu();
    let mut kinds = vec![BackendKind::Cpu];
    if ctx.is_some() {
        kinds.push(BackendKind::Gpu);
    }
    for kind in kinds {
        let mut ens = Ensemble::new(kind, &reps, ctx.as_ref()).unwrap();
        ens.step(3).unwrap();
        let got = ens.measures().unwrap();
        for (r, rep) in reps.iter().enumerate() {
            let mut sim: Box<dyn Simulation> = match (kind, ctx.as_ref()) {
                (BackendKind::Gpu, Some(c)) => {
                    Box::new(GpuBackend::from_state(c, &rep.params, &rep.boids, rep.seed).unwrap())
                }
                _ => Box::new(
                    boids::cpu::CpuBackend::from_state(
                        kind,
                        &rep.params,
                        rep.boids.clone(),
                        rep.seed,
                    )
                    .unwrap(),
                ),
            };
            for _ in 0..3 {
                sim.step().unwrap();
            }
            assert_eq!(
                ens.state(r).unwrap(),
                sim.read_state().unwrap(),
                "{kind:?} {r}"
            );
            let m = sim.measures().unwrap();
            assert!(got[r].mean_neighbors() > 1.0, "{kind:?} replica {r}");
            assert_eq!(got[r].mean_neighbors(), m.mean_neighbors(), "{kind:?} {r}");
        }
    }
}
