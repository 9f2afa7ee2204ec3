//! `boids sweep --protocol hysteresis`: the parameter stepped up then back down, one chain per
//! repeat, each run going on from the final state of the chain's run before it — exactly as
//! `boids headless --init` of that state with the run's seed and value; the branch a second axis
//! of every output; the same files whatever the waves, after an interruption and resume, and
//! merged from shards (split by repeat); what cannot be a chain refused before anything runs.

use crate::support;
use std::path::Path;
use support::cmd::{boids, interrupted_sweep, ok, refused};

const SCENE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/scenes/vicsek.toml");

fn plan<'a>(out: &'a str, values: &'a str, boids: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut a = vec![
        "sweep",
        "--scene",
        SCENE,
        "--backend",
        "cpu",
        "--protocol",
        "hysteresis",
        "--param",
        "vicsek_eta",
        "--values",
        values,
        "--repeats",
        "2",
        "--boids",
        boids,
        "--steps",
        "120",
        "--discard",
        "40",
        "--quiet",
        "--out",
        out,
    ];
    a.extend(extra);
    a
}

fn rows(dir: &Path) -> (Vec<String>, Vec<Vec<String>>) {
    let text = std::fs::read_to_string(dir.join("sweep.csv")).unwrap();
    let mut lines = text.lines();
    let head = lines.next().unwrap().split(',').map(String::from).collect();
    let rows = lines
        .map(|l| l.split(',').map(String::from).collect())
        .collect();
    (head, rows)
}

fn summary(dir: &Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(dir.join("summary.json")).unwrap()).unwrap()
}

#[test]
fn each_run_of_a_chain_goes_on_from_the_one_before() {
    let root = tempfile::tempdir().unwrap();
    let d = root.path().join("h");
    ok(&plan(d.to_str().unwrap(), "0.5,2,4", "300", &[]));
    let (head, rows) = rows(&d);
    let col = |n: &str| head.iter().position(|h| h == n).unwrap();
    // Chain steps side by side: every repeat's first value up, …, the last up, the last down, …
    let order: Vec<(&str, &str, &str)> = rows
        .iter()
        .map(|r| {
            (
                r[col("vicsek_eta")].as_str(),
                r[col("branch")].as_str(),
                r[col("repeat")].as_str(),
            )
        })
        .collect();
    let mut want = Vec::new();
    for (eta, branch) in [
        ("0.5", "up"),
        ("2", "up"),
        ("4", "up"),
        ("4", "down"),
        ("2", "down"),
        ("0.5", "down"),
    ] {
        want.push((eta, branch, "1"));
        want.push((eta, branch, "2"));
    }
    assert_eq!(order, want);
    // Each run's final state is saved; a run is `headless --init` of the state before it in its
    // chain, with its own seed and value — the turn at the top (4 up → 4 down) too.
    for (i, before) in [(2usize, 0usize), (6, 4)] {
        let (this, prev) = (&rows[i], &rows[before]);
        assert_eq!(this[col("repeat")], prev[col("repeat")]);
        let state = |r: &Vec<String>| {
            d.join(format!(
                "states/point-{:05}-repeat-{:03}.csv",
                r[col("point")].parse::<usize>().unwrap(),
                r[col("repeat")].parse::<u32>().unwrap()
            ))
        };
        let again = root.path().join(format!("again-{i}.csv"));
        let o = boids()
            .args(["headless", "--scene", SCENE, "--steps", "120"])
            .arg("--init")
            .arg(state(prev))
            .args(["--seed", &this[col("seed")]])
            .args(["--set", &format!("vicsek_eta={}", this[col("vicsek_eta")])])
            .arg("--save")
            .arg(&again)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", support::cmd::text(&o));
        assert!(
            std::fs::read(&again).unwrap() == std::fs::read(state(this)).unwrap(),
            "run {} is not headless --init of run {}'s state",
            this[col("run")],
            prev[col("run")]
        );
    }
    // The branches tell apart in points.csv and the plots' legend.
    let points = std::fs::read_to_string(d.join("points.csv")).unwrap();
    assert!(points.lines().next().unwrap().contains("vicsek_eta,branch"));
    assert_eq!(points.lines().count(), 1 + 6);
    let svg = std::fs::read_to_string(d.join("va.svg")).unwrap();
    assert!(svg.contains("branch = up") && svg.contains("branch = down"));
    assert!(svg.contains("hysteresis"), "the subtitle says the protocol");
    // One run at a time, the same files as in waves of runs side by side.
    let one = root.path().join("one");
    let o = boids()
        .env("RAYON_NUM_THREADS", "1")
        .args(plan(one.to_str().unwrap(), "0.5,2,4", "300", &[]))
        .output()
        .unwrap();
    assert!(o.status.success());
    for f in [
        "sweep.csv",
        "points.csv",
        "states/point-00002-repeat-002.csv",
    ] {
        assert!(
            std::fs::read(one.join(f)).unwrap() == std::fs::read(d.join(f)).unwrap(),
            "{f} differs with one thread"
        );
    }
}

#[test]
fn a_hysteresis_sweep_resumes_and_merges_as_one() {
    let root = tempfile::tempdir().unwrap();
    let s = |n: &str| root.path().join(n).to_str().unwrap().to_string();
    let (full, cut) = (s("full"), s("cut"));
    let (values, n) = ("0.5:3:0.5", "1500");
    ok(&plan(&full, values, n, &["--series"]));
    interrupted_sweep(&plan(&cut, values, n, &["--series"]), Path::new(&cut));
    let st = summary(Path::new(&cut));
    assert_eq!(st["status"], "interrupted");
    let done = st["runs_done"].as_u64().unwrap();
    assert!((1..24).contains(&done), "{done} runs done of 24");
    ok(&plan(&cut, values, n, &["--series", "--resume"]));
    let files: Vec<String> = summary(Path::new(&full))["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f.as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        files.iter().filter(|f| f.starts_with("states/")).count(),
        24
    );
    assert_eq!(
        summary(Path::new(&cut))["files"],
        summary(Path::new(&full))["files"]
    );
    for f in files.iter().filter(|f| *f != "summary.json") {
        assert!(
            std::fs::read(Path::new(&cut).join(f)).unwrap()
                == std::fs::read(Path::new(&full).join(f)).unwrap(),
            "{f} of the resumed sweep differs from the uninterrupted one's"
        );
    }
    // Shards split the chains by repeat; merged they are the one sweep.
    let (a, b, m) = (s("a"), s("b"), s("m"));
    ok(&plan(&a, values, n, &["--series", "--shard", "1/2"]));
    ok(&plan(&b, values, n, &["--series", "--shard", "2/2"]));
    let (_, rows_a) = rows(Path::new(&a));
    assert!(
        rows_a.iter().all(|r| r[2] == "1"),
        "shard 1/2 runs repeat 1"
    );
    // A shard missing a state: refused before anything is written.
    let state = Path::new(&b).join("states/point-00001-repeat-002.csv");
    let kept = std::fs::read(&state).unwrap();
    std::fs::remove_file(&state).unwrap();
    let e = refused(&["sweep", "merge", &m, &a, &b]);
    assert!(e.contains("states/point-00001-repeat-002.csv"), "{e}");
    assert!(!Path::new(&m).exists(), "a refused merge wrote {m}");
    std::fs::write(&state, kept).unwrap();
    ok(&["sweep", "merge", &m, &a, &b]);
    assert_eq!(
        summary(Path::new(&m))["files"],
        summary(Path::new(&full))["files"]
    );
    for f in files
        .iter()
        .filter(|f| !f.ends_with(".json") && !f.ends_with("g"))
    {
        assert!(
            std::fs::read(Path::new(&m).join(f)).unwrap()
                == std::fs::read(Path::new(&full).join(f)).unwrap(),
            "{f} of the merged shards differs from the one sweep's"
        );
    }
    // --force into a folder of a longer sweep: its states are gone, not taken for this one's.
    ok(&plan(&m, "0.5,1", n, &["--force"]));
    let states = std::fs::read_dir(Path::new(&m).join("states"))
        .unwrap()
        .count();
    assert_eq!(states, 8, "2 values × 2 branches × 2 repeats");
    let series = std::fs::read_dir(Path::new(&m).join("series"))
        .unwrap()
        .count();
    assert_eq!(series, 0, "an earlier sweep's series");
}

#[test]
fn what_cannot_be_a_chain_is_refused() {
    let root = tempfile::tempdir().unwrap();
    let out = root.path().join("x");
    let o = out.to_str().unwrap();
    for (values, extra, says) in [
        (
            "1,2",
            vec!["--param2", "vicsek_v0", "--values2", "0.5,1"],
            "drop --param2",
        ),
        ("1", vec![], "one value of vicsek_eta"),
        (
            "3,2,1",
            vec![],
            "go 3 then 2; give them in increasing order",
        ),
        ("1,2", vec!["--shard", "1/3"], "there are 2 (--repeats)"),
    ] {
        let e = refused(&plan(o, values, "300", &extra));
        assert!(e.contains(says), "{extra:?}: {e}");
        assert!(!out.exists(), "{extra:?}");
    }
    for (param, values, says) in [
        ("boids", "100,200", "not boids, density or a choice"),
        (
            "vicsek_noise",
            "angular,vectorial",
            "not boids, density or a choice",
        ),
        ("world_width", "10,12", "would not fit the next world"),
    ] {
        let mut a = plan(o, values, "300", &[]);
        let at = a.iter().position(|x| *x == "vicsek_eta").unwrap();
        a[at] = param;
        if param == "boids" {
            let at = a.iter().position(|x| *x == "--boids").unwrap();
            a.drain(at..at + 2);
        }
        let e = refused(&a);
        assert!(e.contains(says), "{param}: {e}");
        assert!(!out.exists(), "{param}");
    }
}

#[test]
fn a_gpu_hysteresis_sweep_batches_across_chains_with_the_files_of_one_run_at_a_time() {
    if support::gpu().is_none() {
        return;
    }
    let root = tempfile::tempdir().unwrap();
    let run = |name: &str, batch: &str| {
        let d = root.path().join(name);
        let mut args = plan(d.to_str().unwrap(), "0.5,2,4", "300", &["--batch", batch]);
        let at = args.iter().position(|a| *a == "cpu").unwrap();
        args[at] = "gpu";
        let at = args.iter().position(|a| *a == "2").unwrap();
        args[at] = "3";
        ok(&args);
        d
    };
    let (batched, alone) = (run("batched", "auto"), run("alone", "1"));
    // The batched sweep stepped its chains' runs together: a batch's costs are its first run's.
    let costs = |d: &Path| -> usize {
        summary(d)["runs"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|r| r["costs"].is_null())
            .count()
    };
    assert_eq!((costs(&batched), costs(&alone)), (2 * 6, 0));
    for f in ["sweep.csv", "points.csv"] {
        assert_eq!(
            std::fs::read(batched.join(f)).unwrap(),
            std::fs::read(alone.join(f)).unwrap(),
            "{f}"
        );
    }
    // Every chain's saved states, the bytes a run alone saves (and not all alike).
    let mut states: Vec<_> = std::fs::read_dir(alone.join("states"))
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    states.sort();
    assert_eq!(states.len(), 3 * 6, "{states:?}");
    let read = |d: &Path, f: &std::ffi::OsStr| std::fs::read(d.join("states").join(f)).unwrap();
    for f in &states {
        assert_eq!(read(&batched, f), read(&alone, f), "{f:?}");
    }
    assert_ne!(read(&alone, &states[0]), read(&alone, &states[1]));
}
