//! `boids sweep --resume`: a sweep stopped half way (Ctrl-C) and resumed ends byte for byte as an
//! uninterrupted one (every file, and `summary.json` but for its times), running only the runs
//! not done; a folder of another plan, shard or `--series` is refused naming what differs. And
//! `--init`: every run starts from a state file, whose contents are part of the plan.

use crate::support;
use std::path::Path;
use support::cmd::{boids, interrupted_sweep, ok, refused, text};

const PLAN: [&str; 14] = [
    "sweep",
    "--backend",
    "cpu",
    "--param",
    "rotational_diffusion",
    "--values",
    "0:3:0.1",
    "--boids",
    "1500",
    "--steps",
    "300",
    "--discard",
    "100",
    "--quiet",
];

fn args<'a>(out: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut a: Vec<&str> = PLAN.to_vec();
    a.extend(["--series", "--out", out]);
    a.extend(extra);
    a
}

fn summary(dir: &Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(dir.join("summary.json")).unwrap()).unwrap()
}

/// The summary without the fields that hold times.
fn timeless(mut s: serde_json::Value) -> serde_json::Value {
    for k in ["created_utc", "updated_utc", "seconds_total"] {
        s.as_object_mut().unwrap().remove(k);
    }
    for r in s["runs"].as_array_mut().unwrap() {
        r.as_object_mut().unwrap().remove("seconds");
    }
    s
}

/// Runs the plan into `out` and stops it with SIGINT once a run is done.
fn interrupted(out: &Path) {
    interrupted_sweep(&args(out.to_str().unwrap(), &[]), out);
}

#[test]
fn a_sweep_interrupted_and_resumed_is_the_uninterrupted_one() {
    let root = tempfile::tempdir().unwrap();
    let full = root.path().join("full");
    ok(&args(full.to_str().unwrap(), &[]));
    let cut = root.path().join("cut");
    interrupted(&cut);
    let s = summary(&cut);
    assert_eq!(s["status"], "interrupted");
    let done = s["runs_done"].as_u64().unwrap() as usize;
    assert!(
        (1..31).contains(&done),
        "{done} runs done before the signal"
    );
    let first_seconds = s["runs"][0]["seconds"].clone();

    // Another plan, another shard, no --series, or --force with it: refused, nothing changed.
    let before = std::fs::read(cut.join("sweep.csv")).unwrap();
    let c = cut.to_str().unwrap();
    let mut other: Vec<&str> = args(c, &["--resume"]);
    let at = other.iter().position(|a| *a == "300").unwrap();
    other[at] = "400";
    let e = refused(&other);
    assert!(
        e.contains("another plan") && e.contains("steps 300 vs 400"),
        "{e}"
    );
    let e = refused(&args(c, &["--resume", "--start", "ordered"]));
    assert!(e.contains(r#"start "random" vs "ordered""#), "{e}");
    let e = refused(&args(c, &["--resume", "--shard", "1/2"]));
    assert!(e.contains("holds no shard and this is shard 1/2"), "{e}");
    let no_series: Vec<&str> = args(c, &["--resume"])
        .into_iter()
        .filter(|a| *a != "--series")
        .collect();
    let e = refused(&no_series);
    assert!(e.contains("with --series"), "{e}");
    let e = refused(&args(c, &["--resume", "--force"]));
    assert!(e.contains("--force"), "{e}");
    let e = refused(&args(root.path().to_str().unwrap(), &["--resume"]));
    assert!(e.contains("summary.json"), "{e}");
    assert_eq!(std::fs::read(cut.join("sweep.csv")).unwrap(), before);
    // A row changed by hand (its seed) is not its run: refused.
    let edited = root.path().join("edited");
    std::fs::create_dir(&edited).unwrap();
    for e in std::fs::read_dir(&cut).unwrap() {
        let e = e.unwrap();
        if e.file_type().unwrap().is_file() {
            std::fs::copy(e.path(), edited.join(e.file_name())).unwrap();
        }
    }
    std::fs::create_dir(edited.join("series")).unwrap();
    let csv = String::from_utf8(before.clone()).unwrap();
    let seed = summary(&cut)["runs"][0]["seed"].to_string();
    std::fs::write(
        edited.join("sweep.csv"),
        csv.replacen(&format!(",{seed},"), ",123,", 1),
    )
    .unwrap();
    let e = refused(&args(edited.to_str().unwrap(), &["--resume"]));
    assert!(
        e.contains("row of run 1") && e.contains("changed after the run"),
        "{e}"
    );

    // Killed between writing the tables and the summary: `sweep.csv` (and the histograms')
    // rows past the summary's runs done are run again, to the same files.
    for ahead in [&["sweep.csv"][..], &["sweep.csv", "phi_histogram.csv"]] {
        let killed = root.path().join(format!("killed{}", ahead.len()));
        for sub in ["", "series"] {
            std::fs::create_dir(killed.join(sub)).unwrap();
            for e in std::fs::read_dir(cut.join(sub)).unwrap() {
                let e = e.unwrap();
                if e.file_type().unwrap().is_file() {
                    std::fs::copy(e.path(), killed.join(sub).join(e.file_name())).unwrap();
                }
            }
        }
        for f in ahead {
            std::fs::copy(full.join(f), killed.join(f)).unwrap();
        }
        ok(&args(killed.to_str().unwrap(), &["--resume"]));
        assert_eq!(timeless(summary(&killed)), timeless(summary(&full)));
        for f in ["sweep.csv", "phi_histogram.csv", "points.csv"] {
            assert_eq!(
                std::fs::read(killed.join(f)).unwrap(),
                std::fs::read(full.join(f)).unwrap(),
                "{f} after a kill between the tables and the summary"
            );
        }
    }

    ok(&args(c, &["--resume"]));
    let s = summary(&cut);
    assert_eq!(s["status"], "complete");
    // The runs done before were not run again.
    assert_eq!(s["runs"][0]["seconds"], first_seconds);
    assert_eq!(timeless(s.clone()), timeless(summary(&full)));
    let files: Vec<String> = s["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f.as_str().unwrap().to_string())
        .collect();
    assert!(files.iter().any(|f| f.starts_with("series/")), "{files:?}");
    assert!(files.iter().any(|f| f.ends_with(".png")), "{files:?}");
    for f in files.iter().filter(|f| *f != "summary.json") {
        assert!(
            std::fs::read(cut.join(f)).unwrap() == std::fs::read(full.join(f)).unwrap(),
            "{f} of the resumed sweep differs from the uninterrupted one's"
        );
    }
    // A complete sweep resumed runs nothing and writes the same files.
    let o = boids().args(args(c, &["--resume"])).output().unwrap();
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(timeless(summary(&cut)), timeless(summary(&full)));
}

#[test]
fn a_sweep_can_start_every_run_from_a_state_file() {
    let root = tempfile::tempdir().unwrap();
    let scene = concat!(env!("CARGO_MANIFEST_DIR"), "/scenes/vicsek.toml");
    // An ordered state: 400 Vicsek particles after 300 steps at η = 0.
    let state = root.path().join("ordered.csv");
    ok(&[
        "headless",
        "--scene",
        scene,
        "--boids",
        "400",
        "--steps",
        "300",
        "--set",
        "vicsek_eta=0",
        "--save",
        state.to_str().unwrap(),
    ]);
    let sweep = |out: &Path, extra: &[&str]| -> Vec<String> {
        let mut a: Vec<String> = [
            "sweep",
            "--scene",
            scene,
            "--param",
            "vicsek_eta",
            "--values",
            "0,0.5",
            "--steps",
            "10",
            "--discard",
            "0",
            "--quiet",
            "--out",
        ]
        .map(String::from)
        .to_vec();
        a.push(out.to_str().unwrap().into());
        a.extend(extra.iter().map(|s| s.to_string()));
        a
    };
    let run = |out: &Path, extra: &[&str]| {
        let a = sweep(out, extra);
        ok(&a.iter().map(String::as_str).collect::<Vec<_>>());
        let csv = std::fs::read_to_string(out.join("sweep.csv")).unwrap();
        let mut lines = csv.lines();
        let h: Vec<&str> = lines.next().unwrap().split(',').collect();
        let c = h.iter().position(|c| *c == "va").unwrap();
        let first: Vec<String> = lines.next().unwrap().split(',').map(String::from).collect();
        first[c].parse::<f64>().unwrap()
    };
    let s = state.to_str().unwrap();
    let from_file = root.path().join("file");
    // From the ordered state v_a stays near 1; from a random start it is still low.
    assert!(run(&from_file, &["--init", s]) > 0.95);
    assert!(run(&root.path().join("random"), &["--boids", "400"]) < 0.6);
    let plan = summary(&from_file)["plan"].clone();
    assert_eq!(plan["init"], s);
    assert_eq!(plan["init_sha256"].as_str().unwrap().len(), 64);
    // The count is the file's.
    for (extra, says) in [
        (vec!["--init", s, "--boids", "400"], "leave out --boids"),
        (vec!["--init", s, "--start", "ordered"], "leave out --start"),
    ] {
        let a = sweep(&root.path().join("x"), &extra);
        let e = refused(&a.iter().map(String::as_str).collect::<Vec<_>>());
        assert!(e.contains(says), "{e}");
    }
    // Another file's contents are another plan: a resume is refused naming it.
    let mut text = std::fs::read_to_string(&state).unwrap();
    text.push('\n');
    std::fs::write(&state, text).unwrap();
    let a = sweep(&from_file, &["--init", s, "--resume"]);
    let e = refused(&a.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(e.contains("init_sha256"), "{e}");
}
