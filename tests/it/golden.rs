//! Golden files: what the commands write — checkpoints, `--stats` CSV, number fluctuations, GSD
//! trajectories, sweep tables, summaries, plots and series — held byte for byte to the files in
//! `tests/golden/`, written by the commit before the formats, uniforms and measure table were
//! reorganised. A change that alters an output on purpose re-blesses them:
//! `BOIDS_BLESS_GOLDEN=1 cargo test --release golden::` (then review `git diff --stat tests/golden`).
//!
//! Every case runs on the CPU backend, which is bit-for-bit reproducible on every machine. Only
//! what a run cannot reproduce is masked before the comparison: the `step_ms` column of `--stats`
//! files, and in `summary.json` the dates, the run times, the commit and the machine.

use std::path::{Path, PathBuf};

use crate::support::cmd;

/// The folder of the golden files.
fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

/// One case: a command (`{out}` stands for its output folder) and the files it writes there.
struct Case {
    name: &'static str,
    args: &'static [&'static str],
    files: &'static [&'static str],
}

const CASES: &[Case] = &[
    Case {
        // Boids with hunting predators: checkpoint (predators in its metadata), every measure
        // with the census, number fluctuations, a trajectory with predators and image counts.
        name: "headless-predators",
        args: &[
            "headless",
            "--backend",
            "cpu",
            "--scene",
            "scenes/predators.toml",
            "--boids",
            "300",
            "--steps",
            "40",
            "--seed",
            "3",
            "--save",
            "{out}/checkpoint.csv",
            "--stats",
            "{out}/stats.csv",
            "--flocks",
            "--fluctuations",
            "{out}/fluctuations.csv",
            "--trajectory",
            "{out}/trajectory.gsd",
            "--every",
            "10",
        ],
        files: &[
            "checkpoint.csv",
            "stats.csv",
            "fluctuations.csv",
            "trajectory.gsd",
        ],
    },
    Case {
        name: "headless-vicsek-vectorial",
        args: &[
            "headless",
            "--backend",
            "cpu",
            "--scene",
            "scenes/vicsek_vectorial.toml",
            "--boids",
            "200",
            "--steps",
            "50",
            "--discard",
            "10",
            "--save",
            "{out}/checkpoint.csv",
            "--stats",
            "{out}/stats.csv",
            "--stats-every",
            "5",
        ],
        files: &["checkpoint.csv", "stats.csv"],
    },
    Case {
        name: "headless-vicsek-topological",
        args: &[
            "headless",
            "--backend",
            "cpu",
            "--scene",
            "scenes/vicsek_topological.toml",
            "--boids",
            "200",
            "--steps",
            "30",
            "--save",
            "{out}/checkpoint.csv",
            "--stats",
            "{out}/stats.csv",
            "--trajectory",
            "{out}/trajectory.gsd",
            "--every",
            "15",
        ],
        files: &["checkpoint.csv", "stats.csv", "trajectory.gsd"],
    },
    Case {
        // Fish in walls with obstacles (the fish box), and the boids model in walls.
        name: "headless-fish",
        args: &[
            "headless",
            "--backend",
            "cpu",
            "--scene",
            "scenes/fish_box.toml",
            "--boids",
            "200",
            "--steps",
            "40",
            "--save",
            "{out}/checkpoint.csv",
            "--stats",
            "{out}/stats.csv",
        ],
        files: &["checkpoint.csv", "stats.csv"],
    },
    Case {
        name: "headless-trees",
        args: &[
            "headless",
            "--backend",
            "cpu",
            "--scene",
            "scenes/trees.toml",
            "--steps",
            "40",
            "--save",
            "{out}/checkpoint.csv",
            "--stats",
            "{out}/stats.csv",
        ],
        files: &["checkpoint.csv", "stats.csv"],
    },
    Case {
        name: "sweep-vicsek",
        args: &[
            "sweep",
            "--backend",
            "cpu",
            "--scene",
            "scenes/vicsek.toml",
            "--param",
            "vicsek_eta",
            "--values",
            "0.5,2,4",
            "--boids",
            "100",
            "--steps",
            "60",
            "--discard",
            "20",
            "--repeats",
            "2",
            "--series",
            "--quiet",
            "--out",
            "{out}/sweep",
        ],
        files: &[
            "sweep/sweep.csv",
            "sweep/points.csv",
            "sweep/summary.json",
            "sweep/va.png",
            "sweep/va.svg",
            "sweep/polarization.svg",
            "sweep/milling.svg",
            "sweep/nematic.svg",
            "sweep/mean_neighbors.svg",
            "sweep/binder.svg",
            "sweep/susceptibility.svg",
            "sweep/tau_int.svg",
            "sweep/phi_histogram.csv",
            "sweep/series/point-00001-repeat-001.csv.gz",
            "sweep/series/point-00003-repeat-002.csv.gz",
        ],
    },
];

/// The bytes of an output as compared: a `--stats` file without its `step_ms` column, a
/// `summary.json` without its times, dates, commit and machine; anything else as written.
fn masked(name: &str, bytes: &[u8]) -> Vec<u8> {
    if name.ends_with("stats.csv") {
        let text = String::from_utf8(bytes.to_vec()).expect("a stats file is text");
        let mut lines = text.lines();
        let header: Vec<&str> = lines.next().unwrap_or("").split(',').collect();
        let drop = header.iter().position(|c| *c == "step_ms");
        let keep = |line: &str| -> String {
            line.split(',')
                .enumerate()
                .filter(|(i, _)| Some(*i) != drop)
                .map(|(_, c)| c)
                .collect::<Vec<_>>()
                .join(",")
        };
        let mut out = keep(&header.join(","));
        for l in lines {
            out.push('\n');
            out.push_str(&keep(l));
        }
        return out.into_bytes();
    }
    if name.ends_with("summary.json") {
        let mut v: serde_json::Value = serde_json::from_slice(bytes).expect("a summary is JSON");
        for k in ["created_utc", "updated_utc", "system", "seconds_total"] {
            v.as_object_mut().unwrap().remove(k);
        }
        if let Some(tool) = v["tool"].as_object_mut() {
            tool.remove("git_commit");
            tool.remove("git_dirty");
        }
        if let Some(runs) = v["runs"].as_array_mut() {
            for r in runs {
                r.as_object_mut().unwrap().remove("seconds");
            }
        }
        return serde_json::to_vec_pretty(&v).unwrap();
    }
    bytes.to_vec()
}

/// The first difference of two outputs, or `None` when they are equal.
fn first_difference(name: &str, want: &[u8], got: &[u8]) -> Option<String> {
    let (want, got) = (masked(name, want), masked(name, got));
    if want == got {
        return None;
    }
    let at = want
        .iter()
        .zip(&got)
        .position(|(a, b)| a != b)
        .unwrap_or(want.len().min(got.len()));
    let show = |b: &[u8]| {
        String::from_utf8_lossy(&b[at.saturating_sub(60)..(at + 60).min(b.len())]).into_owned()
    };
    Some(format!(
        "{name}: {} bytes golden, {} written; first difference at byte {at}:\n  golden: {:?}\n  written: {:?}",
        want.len(),
        got.len(),
        show(&want),
        show(&got)
    ))
}

/// Runs `case` in a new folder; the folder.
fn run_case(case: &Case) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_str().unwrap().to_string();
    let args: Vec<String> = case.args.iter().map(|a| a.replace("{out}", &out)).collect();
    let mut c = cmd::boids();
    c.current_dir(env!("CARGO_MANIFEST_DIR")).args(&args);
    cmd::ok_cmd(&mut c);
    dir
}

/// Every case's outputs equal its golden files, byte for byte once masked (or, with
/// `BOIDS_BLESS_GOLDEN=1`, become them).
#[test]
fn outputs_equal_the_golden_files() {
    let bless = std::env::var_os("BOIDS_BLESS_GOLDEN").is_some_and(|v| v == "1");
    let mut failures = Vec::new();
    for case in CASES {
        let dir = run_case(case);
        for f in case.files {
            let got = std::fs::read(dir.path().join(f))
                .unwrap_or_else(|e| panic!("{}: {f} was not written: {e}", case.name));
            let golden = golden_dir().join(case.name).join(f);
            if bless {
                std::fs::create_dir_all(golden.parent().unwrap()).unwrap();
                std::fs::write(&golden, &got).unwrap();
                continue;
            }
            let want = std::fs::read(&golden).unwrap_or_else(|e| {
                panic!(
                    "{}: no golden file {}: {e} (BOIDS_BLESS_GOLDEN=1 writes it)",
                    case.name,
                    golden.display()
                )
            });
            if let Some(d) = first_difference(f, &want, &got) {
                failures.push(format!("{}: {d}", case.name));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "outputs differ from tests/golden (re-bless with BOIDS_BLESS_GOLDEN=1 only if the \
         change is meant):\n{}",
        failures.join("\n")
    );
}

/// The comparator on planted differences: one byte of a trajectory, one value of a stats row and
/// one value of a summary are found; the masked parts (a step time, a run's seconds, the dates)
/// are not differences.
#[test]
fn the_comparator_finds_a_planted_difference_and_ignores_only_the_masked_parts() {
    let gsd = std::fs::read(golden_dir().join("headless-predators/trajectory.gsd")).unwrap();
    let mut planted = gsd.clone();
    let k = planted.len() / 2;
    planted[k] ^= 1;
    assert!(first_difference("trajectory.gsd", &gsd, &planted).is_some());
    assert!(first_difference("trajectory.gsd", &gsd, &gsd).is_none());

    let stats = "step,step_ms,polarization\n1,0.2711,0.5\n2,0.1298,0.25";
    let other_time = "step,step_ms,polarization\n1,9.9,0.5\n2,3.1,0.25";
    let other_value = "step,step_ms,polarization\n1,0.2711,0.5\n2,0.1298,0.2500001";
    assert!(first_difference("stats.csv", stats.as_bytes(), other_time.as_bytes()).is_none());
    let d = first_difference("stats.csv", stats.as_bytes(), other_value.as_bytes()).unwrap();
    assert!(d.contains("0.2500001"), "{d}");

    let summary = std::fs::read(golden_dir().join("sweep-vicsek/sweep/summary.json")).unwrap();
    let mut v: serde_json::Value = serde_json::from_slice(&summary).unwrap();
    v["created_utc"] = "2001-01-01T00:00:00Z".into();
    v["runs"][0]["seconds"] = 123.0.into();
    let retimed = serde_json::to_vec_pretty(&v).unwrap();
    assert!(first_difference("summary.json", &summary, &retimed).is_none());
    v["runs"][0]["seed"] = 7.into();
    let reseeded = serde_json::to_vec_pretty(&v).unwrap();
    assert!(first_difference("summary.json", &summary, &reseeded).is_some());
}
