//! Sweeps that stop early (the Ctrl-C flag set from the event callback) still leave a valid
//! capture of what finished; unusable output folders are refused before any run starts. CPU only,
//! so these run without a GPU.

use crate::support;
use boids::run::steps::Stop;
use std::path::PathBuf;

use boids::backend::BackendKind;
use boids::bench::sweep::{run_sweep, BenchConfig, SweepEvent};
use boids::capture::error::BenchError;
use boids::capture::recorder::FILES;
use support::capture::*;

fn cpu_config(out: PathBuf, counts: &[usize], steps: u32, warmup: u32) -> BenchConfig {
    let mut cfg = BenchConfig::new(out);
    cfg.backends = vec![BackendKind::Cpu];
    cfg.boids = counts.to_vec();
    cfg.steps = steps;
    cfg.warmup = warmup;
    cfg
}

#[test]
fn interrupted_sweep_keeps_what_finished() {
    let tmp = fresh_dir("interrupt");
    let dir = tmp.path();
    let cfg = cpu_config(dir.to_path_buf(), &[300, 600, 900], 10, 2);
    let stop = Stop::default();
    let mut measured = 0;
    let outcome = run_sweep(&cfg, None, &stop, &mut |ev| {
        if let SweepEvent::Step { warmup: false, .. } = ev {
            measured += 1;
            // "Ctrl-C" halfway through the second run.
            if measured == 15 {
                stop.set();
            }
        }
    })
    .expect("an interrupted sweep is not an error");
    for f in FILES {
        assert!(dir.join(f).is_file(), "{f} missing");
    }
    let (_, rows) = read_csv(&dir.join("frames.csv"));
    assert_eq!(rows.len(), 15, "the step in flight when stopped is kept");
    let by_run = wall_by_run(&rows);
    let s: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("summary.json")).unwrap()).unwrap();
    assert_eq!(s["status"], "interrupted");
    let runs = s["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 2);
    assert_eq!(
        (runs[0]["boids"].as_u64(), runs[0]["complete"].as_bool()),
        (Some(300), Some(true))
    );
    assert_eq!(
        (runs[1]["boids"].as_u64(), runs[1]["complete"].as_bool()),
        (Some(600), Some(false))
    );
    for run in runs {
        let key = ("cpu".to_string(), run["boids"].as_u64().unwrap() as usize);
        assert_run_matches(run, &by_run[&key]);
    }
    assert_eq!(runs[1]["samples"], 5);
    let skipped = s["skipped"].as_array().unwrap();
    assert_eq!(skipped.len(), 1);
    assert_eq!(skipped[0]["boids"], 900);
    assert_eq!(skipped[0]["kind"], "interrupted");
    assert!(skipped[0]["reason"]
        .as_str()
        .unwrap()
        .contains("interrupted"));
    assert_eq!(outcome.summary.runs.len(), 2);
    assert_xml_well_formed(&std::fs::read_to_string(dir.join("scaling.svg")).unwrap());
}

#[test]
fn stopped_during_warmup_records_no_run_and_says_why() {
    let tmp = fresh_dir("warmup-stop");
    let dir = tmp.path();
    let cfg = cpu_config(dir.to_path_buf(), &[400, 800], 5, 4);
    let stop = Stop::default();
    let mut warm = 0;
    run_sweep(&cfg, None, &stop, &mut |ev| {
        if let SweepEvent::Step { warmup: true, .. } = ev {
            warm += 1;
            if warm == 2 {
                stop.set();
            }
        }
    })
    .unwrap();
    let s: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("summary.json")).unwrap()).unwrap();
    assert_eq!(s["status"], "interrupted");
    assert_eq!(s["runs"], serde_json::json!([]));
    let kinds: Vec<(u64, &str)> = s["skipped"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| (k["boids"].as_u64().unwrap(), k["kind"].as_str().unwrap()))
        .collect();
    assert_eq!(kinds, [(400, "interrupted"), (800, "interrupted")]);
    let (header, rows) = read_csv(&dir.join("frames.csv"));
    // backend, boids, step, wall_ms, one column per stage of the stage table, then the frame's
    // columns (render, ui, step_cpu, present).
    assert_eq!(
        (header.len(), rows.len()),
        (
            4 + boids::stages::STAGE_COUNT + boids::capture::recorder::FRAME_COLUMNS.len(),
            0
        )
    );
}

/// Runs a sweep into `out` and asserts it is refused with an output-folder error before any event.
fn assert_refused(out: PathBuf, why: &str) -> String {
    let cfg = cpu_config(out.clone(), &[1000], 50, 5);
    let mut events = 0;
    let err = run_sweep(&cfg, None, &Stop::default(), &mut |_| events += 1).expect_err(why);
    assert_eq!(events, 0, "{why}: something ran before the error");
    match &err {
        BenchError::OutputDir { path, .. } => assert_eq!(path, &out),
        other => panic!("{why}: expected an output-folder error, got {other:?}"),
    }
    let msg = err.to_string();
    assert!(msg.contains(&out.display().to_string()), "{msg}");
    msg
}

#[test]
fn unusable_output_folders_are_refused_before_any_run() {
    let tmp = fresh_dir("outdir");
    let base = tmp.path();
    // Missing folder whose parent is missing too: refused, and nothing is created.
    let deep = base.join("no").join("such");
    let msg = assert_refused(deep, "missing parent");
    assert!(msg.contains("does not exist"), "{msg}");
    assert!(!base.join("no").exists());
    // A file where the folder should be.
    let file = base.join("file");
    std::fs::write(&file, b"x").unwrap();
    assert_refused(file, "a file in the way");
    // A read-only folder (mode 555). Root ignores permission bits, so when writing still works
    // there, /proc (where nobody can create files) stands in for it.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let ro = base.join("ro");
        std::fs::create_dir(&ro).unwrap();
        std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o555)).unwrap();
        let writable = std::fs::write(ro.join("probe"), b"x").is_ok();
        let target = if writable {
            PathBuf::from("/proc")
        } else {
            ro.clone()
        };
        let msg = assert_refused(target, "read-only folder");
        assert!(msg.contains("not writable"), "{msg}");
        std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
}

#[test]
fn missing_folder_with_an_existing_parent_is_created() {
    let tmp = fresh_dir("create");
    let base = tmp.path();
    let out = base.join("new-capture");
    let cfg = cpu_config(out.clone(), &[200], 3, 1);
    run_sweep(&cfg, None, &Stop::default(), &mut |_| {}).unwrap();
    for f in FILES {
        assert!(out.join(f).is_file(), "{f} missing");
    }
    // No probe or temporary files are left behind.
    let names: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.len(), FILES.len(), "{names:?}");
}

#[test]
fn invalid_options_are_refused_before_any_run() {
    let tmp = fresh_dir("options");
    let base = tmp.path();
    let mut events = 0;
    let mut cfg = cpu_config(base.join("x"), &[0], 5, 1);
    let e = run_sweep(&cfg, None, &Stop::default(), &mut |_| events += 1).unwrap_err();
    assert!(matches!(e, BenchError::Config(_)), "{e:?}");
    cfg.boids = vec![100];
    cfg.steps = 0;
    let e = run_sweep(&cfg, None, &Stop::default(), &mut |_| events += 1).unwrap_err();
    assert!(e.to_string().contains("--steps"), "{e}");
    assert_eq!(events, 0);
    assert!(
        !base.join("x").exists(),
        "the folder is not made for a refused sweep"
    );
}

#[test]
fn naive_runs_over_the_work_limit_are_skipped_with_the_reason() {
    let tmp = fresh_dir("naive-skip");
    let dir = tmp.path();
    let mut cfg = cpu_config(dir.to_path_buf(), &[100, 5000], 2, 0);
    cfg.backends = vec![BackendKind::CpuNaive];
    // 100² × 2 = 2·10⁴ fits, 5000² × 2 = 5·10⁷ does not.
    cfg.naive_max_pairs = 1e6;
    let out = run_sweep(&cfg, None, &Stop::default(), &mut |_| {}).unwrap();
    assert_eq!(out.summary.runs.len(), 1);
    assert_eq!(out.summary.runs[0].boids, 100);
    let s: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("summary.json")).unwrap()).unwrap();
    assert_eq!(s["status"], "complete");
    assert_eq!(s["skipped"][0]["boids"], 5000);
    assert_eq!(s["skipped"][0]["kind"], "too-slow");
    assert!(s["skipped"][0]["reason"]
        .as_str()
        .unwrap()
        .contains("naive-max-pairs"));
}

/// An existing non-empty folder is refused unless `force`, as `boids sweep` does: an earlier
/// capture there is not overwritten by accident.
#[test]
fn a_non_empty_output_folder_needs_force() {
    let tmp = fresh_dir("nonempty");
    let out = tmp.path().join("cap");
    let cfg = cpu_config(out.clone(), &[200], 3, 1);
    run_sweep(&cfg, None, &Stop::default(), &mut |_| {}).unwrap();
    let before = std::fs::read(out.join("frames.csv")).unwrap();
    let msg = assert_refused(out.clone(), "an earlier capture");
    assert!(
        msg.contains("is not empty") && msg.contains("--force") && msg.contains("frames.csv"),
        "{msg}"
    );
    assert_eq!(std::fs::read(out.join("frames.csv")).unwrap(), before);
    // Any other file makes it non-empty too; --force uses the folder and leaves that file.
    let other = tmp.path().join("other");
    std::fs::create_dir(&other).unwrap();
    std::fs::write(other.join("notes.txt"), b"mine").unwrap();
    assert_refused(other.clone(), "a folder holding a file");
    let mut cfg = cpu_config(other.clone(), &[200], 3, 1);
    cfg.force = true;
    run_sweep(&cfg, None, &Stop::default(), &mut |_| {}).unwrap();
    assert!(other.join("summary.json").is_file());
    assert_eq!(std::fs::read(other.join("notes.txt")).unwrap(), b"mine");
}
