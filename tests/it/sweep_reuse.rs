//! A GPU sweep sets up once: its points reuse one set of pipelines (counted in each run's
//! `costs`), and its one backend, reset per point, gives every point the results a new backend
//! gives it — also when the points change the grid and the buffers (boid count, perception
//! radius) or the variant of the rules pass (topological k). Each run's row is compared with the
//! same run made alone in its own process (`--shard k/K`: the same seed, a new backend). And
//! backends made on one context (the app's switch of backend, Python's simulations) share its
//! pipelines, a switch of model compiling the rules stages once.

use crate::support;
use std::path::Path;
use support::cmd::ok;

use boids::stages::STAGES;

fn summary(dir: &Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(dir.join("summary.json")).unwrap()).unwrap()
}

/// The `costs` of every run of the sweep in `dir`.
fn costs(dir: &Path) -> Vec<serde_json::Value> {
    summary(dir)["runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["costs"].clone())
        .collect()
}

/// `sweep.csv`'s rows (the header dropped).
fn rows(dir: &Path) -> Vec<String> {
    std::fs::read_to_string(dir.join("sweep.csv"))
        .unwrap()
        .lines()
        .skip(1)
        .map(String::from)
        .collect()
}

/// Runs a GPU sweep of `param` over `values` (one run per value) into `root/full`, then each run
/// alone into `root/k` (`--shard k/K`), and returns the full sweep's folder after checking that
/// every run's row equals its lone run's.
fn full_equals_lone_runs(
    root: &Path,
    extra: &[&str],
    param: &str,
    values: &str,
) -> std::path::PathBuf {
    let n = values.split(',').count();
    let base = |out: &Path| -> Vec<String> {
        let mut a: Vec<String> = [
            "sweep",
            "--backend",
            "gpu",
            "--param",
            param,
            "--values",
            values,
            "--steps",
            "24",
            "--discard",
            "8",
            "--seed",
            "3",
            "--quiet",
            "--out",
        ]
        .map(String::from)
        .to_vec();
        a.push(out.to_str().unwrap().to_string());
        a.extend(extra.iter().map(|s| s.to_string()));
        a
    };
    let full = root.join("full");
    let args = base(&full);
    ok(&args.iter().map(String::as_str).collect::<Vec<_>>());
    let all = rows(&full);
    assert_eq!(all.len(), n);
    for k in 1..=n {
        let lone = root.join(format!("{k}"));
        let mut args = base(&lone);
        args.extend(["--shard".to_string(), format!("{k}/{n}")]);
        ok(&args.iter().map(String::as_str).collect::<Vec<_>>());
        let r = rows(&lone);
        assert_eq!(r.len(), 1);
        assert_eq!(
            r[0],
            all[k - 1],
            "run {k} of the {param} sweep differs from the same run alone on a new backend"
        );
    }
    full
}

/// Compute pipelines of every stage for one variant (one per entry point).
fn all_pipelines() -> u64 {
    STAGES.iter().map(|s| s.entry_points().len() as u64).sum()
}

/// Compute pipelines of the stages holding the model's rule (compiled per variant).
fn per_variant_pipelines() -> u64 {
    STAGES
        .iter()
        .filter(|s| s.wgsl.per_model())
        .map(|s| s.entry_points().len() as u64)
        .sum()
}

#[test]
fn a_gpu_sweep_compiles_its_pipelines_once() {
    if support::gpu().is_none() {
        return;
    }
    let root = tempfile::tempdir().unwrap();
    let full = full_equals_lone_runs(
        root.path(),
        &[
            "--scene",
            concat!(env!("CARGO_MANIFEST_DIR"), "/scenes/vicsek.toml"),
            "--boids",
            "300",
            // One run at a time (a batch is one ensemble: batched_runs_get_their_lone_results).
            "--batch",
            "1",
        ],
        "vicsek_eta",
        "0.1,1,2,3",
    );
    let c = costs(&full);
    assert_eq!(c[0]["pipelines_compiled"], all_pipelines(), "{:?}", c[0]);
    assert!(c[0]["adapter_ms"].as_f64().unwrap() > 0.0, "{:?}", c[0]);
    for r in &c[1..] {
        // Nothing compiled, no buffer made, no adapter: the state uploaded, the steps run.
        assert_eq!(r["pipelines_compiled"], 0, "{r:?}");
        assert_eq!(r["adapter_ms"], 0.0, "{r:?}");
        assert_eq!(r["buffer_sets"], 0, "{r:?}");
        assert!(r["steps_ms"].as_f64().unwrap() > 0.0, "{r:?}");
    }
    // A lone run made its own pipelines (the shard's process had none).
    let lone = costs(&root.path().join("3"));
    assert_eq!(lone[0]["pipelines_compiled"], all_pipelines());
}

#[test]
fn points_that_change_the_grid_or_the_count_get_their_own_results() {
    if support::gpu().is_none() {
        return;
    }
    // The count grows (buffers reallocated), shrinks (kept, the scan rebuilt for the smaller
    // grid), grows within them.
    let root = tempfile::tempdir().unwrap();
    let full = full_equals_lone_runs(root.path(), &["--batch", "1"], "boids", "200,900,300,500");
    let c = costs(&full);
    let sets: Vec<u64> = c
        .iter()
        .map(|r| r["buffer_sets"].as_u64().unwrap())
        .collect();
    assert_eq!(sets, [1, 1, 0, 0], "{c:?}");
    // The perception radius changes the uniform grid (its cells) at a fixed count.
    let root = tempfile::tempdir().unwrap();
    full_equals_lone_runs(
        root.path(),
        &["--boids", "400", "--batch", "1"],
        "perception_radius",
        "20,45,28",
    );
}

#[test]
fn batched_runs_get_their_lone_results() {
    if support::gpu().is_none() {
        return;
    }
    let vicsek = concat!(env!("CARGO_MANIFEST_DIR"), "/scenes/vicsek.toml");
    // One ensemble of four runs (the default --batch auto): its costs are its first run's.
    let root = tempfile::tempdir().unwrap();
    let full = full_equals_lone_runs(
        root.path(),
        &["--scene", vicsek, "--boids", "300"],
        "vicsek_eta",
        "0.1,1,2,3",
    );
    let c = costs(&full);
    assert_eq!(c[0]["pipelines_compiled"], all_pipelines(), "{:?}", c[0]);
    assert!(c[1..].iter().all(|r| r.is_null()), "{c:?}");
    // The batching is recorded (not in the plan: the results are the same bits whatever it is).
    let s = summary(&full);
    let batch = s["method"]["batch"].as_str().unwrap_or_default();
    assert!(batch.starts_with("auto: "), "{}", s["method"]);
    assert!(s["plan"].get("batch").is_none(), "{}", s["plan"]);
    // Replicas of other counts and worlds, and of other grids, in one ensemble; batches of two.
    let root = tempfile::tempdir().unwrap();
    full_equals_lone_runs(root.path(), &[], "boids", "200,900,300,500");
    let root = tempfile::tempdir().unwrap();
    full_equals_lone_runs(
        root.path(),
        &["--boids", "400", "--batch", "2"],
        "perception_radius",
        "20,45,28",
    );
    // Runs that need other pipelines cannot be one ensemble: they run one at a time.
    let root = tempfile::tempdir().unwrap();
    let topological = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/scenes/vicsek_topological.toml"
    );
    let full = full_equals_lone_runs(
        root.path(),
        &["--scene", topological, "--boids", "300"],
        "topological_k",
        "6,12",
    );
    assert!(costs(&full).iter().all(|r| !r.is_null()));
    // A batch of both neighbourhoods, two repeats each: each neighbourhood's runs one ensemble.
    let run = |name: &str, batch: &str| {
        let out = root.path().join(name);
        ok(&[
            "sweep",
            "--backend",
            "gpu",
            "--scene",
            vicsek,
            "--boids",
            "300",
            "--param",
            "neighborhood",
            "--values",
            "metric,topological",
            "--repeats",
            "2",
            "--steps",
            "24",
            "--discard",
            "8",
            "--batch",
            batch,
            "--quiet",
            "--out",
            out.to_str().unwrap(),
        ]);
        out
    };
    let (mixed, alone) = (run("mixed", "auto"), run("mixed-alone", "1"));
    assert_eq!(rows(&mixed), rows(&alone));
    let nulls = costs(&mixed).iter().filter(|r| r.is_null()).count();
    assert_eq!(nulls, 2, "{:?}", costs(&mixed));
}

#[test]
fn a_change_of_variant_compiles_only_the_rules_stages() {
    if support::gpu().is_none() {
        return;
    }
    // k ≤ 8 and k > 8 are two variants of the rules pass; back to the first compiles nothing.
    let root = tempfile::tempdir().unwrap();
    let full = full_equals_lone_runs(
        root.path(),
        &[
            "--scene",
            concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/scenes/vicsek_topological.toml"
            ),
            "--boids",
            "300",
            "--batch",
            "1",
        ],
        "topological_k",
        "6,12,7",
    );
    let c = costs(&full);
    assert_eq!(c[0]["pipelines_compiled"], all_pipelines(), "{:?}", c[0]);
    assert_eq!(
        c[1]["pipelines_compiled"],
        per_variant_pipelines(),
        "{:?}",
        c[1]
    );
    assert_eq!(c[2]["pipelines_compiled"], 0, "{:?}", c[2]);
}

#[test]
fn backends_on_one_context_share_its_pipelines() {
    use boids::backend::Simulation;
    use boids::gpu::GpuBackend;
    use boids::model::{Model, SimParams};
    let Some(ctx) = support::gpu() else {
        return;
    };
    let params = SimParams::default();
    let mut a = GpuBackend::new(&ctx, &params, 300, 1).unwrap();
    let first = ctx.pipeline_stats();
    assert_eq!(first.compiled, all_pipelines());
    // A second backend (the app's switch back to the GPU, a second Python simulation) compiles
    // nothing.
    let _b = GpuBackend::new(&ctx, &params, 500, 2).unwrap();
    assert_eq!(ctx.pipeline_stats().compiled, first.compiled);
    // A switch of model compiles the rules stages once; back and forth again compiles nothing.
    let vicsek = SimParams {
        model: Model::VICSEK,
        ..params.clone()
    };
    a.set_params(&vicsek).unwrap();
    let switched = ctx.pipeline_stats().compiled;
    assert_eq!(switched, first.compiled + per_variant_pipelines());
    for p in [&params, &vicsek, &params] {
        a.set_params(p).unwrap();
        a.step().unwrap();
    }
    a.finish().unwrap();
    assert_eq!(ctx.pipeline_stats().compiled, switched);
}

#[test]
fn batched_runs_give_their_analyses_the_states_of_their_lone_runs() {
    if support::gpu().is_none() {
        return;
    }
    let root = tempfile::tempdir().unwrap();
    let run = |name: &str, batch: &str| {
        let out = root.path().join(name);
        ok(&[
            "sweep",
            "--backend",
            "gpu",
            "--scene",
            concat!(env!("CARGO_MANIFEST_DIR"), "/scenes/vicsek.toml"),
            "--boids",
            "300",
            "--param",
            "vicsek_eta",
            "--values",
            "0.2,1,2",
            "--repeats",
            "2",
            "--steps",
            "60",
            "--discard",
            "20",
            "--analyse",
            "cluster_sizes",
            "--analyse-every",
            "15",
            "--batch",
            batch,
            "--quiet",
            "--out",
            out.to_str().unwrap(),
        ]);
        out
    };
    let (batched, alone) = (run("batched", "auto"), run("alone", "1"));
    for f in ["sweep.csv", "points.csv"] {
        assert_eq!(
            std::fs::read_to_string(batched.join(f)).unwrap(),
            std::fs::read_to_string(alone.join(f)).unwrap(),
            "{f}"
        );
    }
    // The analyses' columns are there, with values, and the six runs were one ensemble.
    let text = std::fs::read_to_string(batched.join("sweep.csv")).unwrap();
    let head: Vec<&str> = text.lines().next().unwrap().split(',').collect();
    let col = head.iter().position(|h| *h == "mean_size").unwrap();
    assert!(text
        .lines()
        .skip(1)
        .all(|l| !l.split(',').nth(col).unwrap().is_empty()));
    let c = costs(&batched);
    assert_eq!(c.iter().filter(|r| r.is_null()).count(), 5, "{c:?}");
}

#[test]
fn ctrl_c_stops_a_sweep_within_its_batch() {
    // One batch of four long runs: a SIGINT during it stops it between steps, its runs not done
    // (the folder says interrupted; --resume runs them again), not after the whole batch.
    if support::gpu().is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("s");
    let mut child = support::cmd::boids()
        .args([
            "sweep",
            "--backend",
            "gpu",
            "--scene",
            concat!(env!("CARGO_MANIFEST_DIR"), "/scenes/vicsek.toml"),
            "--boids",
            "300",
            "--param",
            "vicsek_eta",
            "--values",
            "0.5,1,2,3",
            // Minutes on a software adapter: the batch cannot end before the signal.
            "--steps",
            "50000",
            "--quiet",
            "--out",
            out.to_str().unwrap(),
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // The folder is written before the first run: the batch has begun.
    let t0 = std::time::Instant::now();
    while !out.join("summary.json").exists() {
        assert!(child.try_wait().unwrap().is_none(), "the sweep ended first");
        assert!(t0.elapsed().as_secs() < 120, "no summary.json");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    std::thread::sleep(std::time::Duration::from_millis(500));
    let kill = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(130), "{}", support::cmd::text(&o));
    let s = summary(&out);
    assert_eq!(s["status"], "interrupted", "{s}");
    assert_eq!(s["runs_done"], 0, "{s}");
    assert_eq!(rows(&out).len(), 0);
}
