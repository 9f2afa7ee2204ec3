//! The command line end to end.

use crate::support;
use std::path::Path;
use std::process::Command;
use support::cmd::boids;

use boids::stats::format::format_ms;
use support::capture::*;

#[test]
fn headless_cpu_20k_prints_the_figures() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let stats = dir.join("stats.csv");
    let save = dir.join("state.csv");
    let out = boids()
        .args([
            "headless",
            "--backend",
            "cpu",
            "--boids",
            "20000",
            "--steps",
            "200",
        ])
        .arg("--stats")
        .arg(&stats)
        .arg("--save")
        .arg(&save)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for k in [
        "step time:",
        "median",
        "p95",
        "polarization:",
        "mean speed:",
        "mean neighbours:",
    ] {
        assert!(text.contains(k), "missing {k:?} in:\n{text}");
    }
    // Times are written with a unit and 3 significant digits: the median against the stats file.
    let step_line = text.lines().find(|l| l.starts_with("step time:")).unwrap();
    let median = step_line
        .split("median ")
        .nth(1)
        .and_then(|r| r.split(',').next())
        .unwrap();
    let mut step_ms: Vec<f64> = std::fs::read_to_string(&stats)
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(1).unwrap().parse().unwrap())
        .collect();
    step_ms.sort_by(f64::total_cmp);
    let m = (step_ms[99] + step_ms[100]) / 2.0;
    assert_time_label(median, m, "headless median");
    let rows = std::fs::read_to_string(&stats).unwrap();
    assert_eq!(rows.lines().count(), 201, "header + one row per step");
    assert!(rows.starts_with("step,step_ms,polarization,milling,mean_speed,mean_neighbors"));
    // A checkpoint: `# ` metadata lines, then a CSV of boids (header + one row per boid).
    let state = std::fs::read_to_string(&save).unwrap();
    assert!(state.starts_with("# boids-state 1\n"), "{}", &state[..200]);
    let csv: Vec<&str> = state.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(csv.len(), 20001);
    assert_eq!(csv[0], "id,x,y,vx,vy,hx,hy,hvx,hvy,ix,iy");
    assert!(
        state.contains("\n# step = 200\n"),
        "step index in the metadata"
    );

    // --init continues from the saved state: same count.
    let out = boids()
        .args([
            "headless",
            "--backend",
            "cpu-naive",
            "--steps",
            "1",
            "--init",
        ])
        .arg(&save)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("boids:          20000"));
}

#[test]
fn headless_stats_every_and_flocks_add_rows_and_columns() {
    // Two flocks of 12 boids far apart in a walled scene, flying side by side along +x with their
    // own hue each: the census must count 2 flocks, the largest 12, all boids in flocks, hue
    // coherence 1 (each flock keeps one hue; the hue rules only average equal hues).
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let scene = dir.join("two.toml");
    std::fs::write(
        &scene,
        "[params]\nworld_width = 400.0\nworld_height = 300.0\nboundary = \"walls\"\n\
         separation_weight = 0.0\nalignment_weight = 0.0\ncohesion_weight = 0.0\n",
    )
    .unwrap();
    let mut state = String::from("id,x,y,vx,vy,hx,hy,hvx,hvy\n");
    for i in 0..24 {
        let (y0, hue) = if i < 12 {
            (60.0, [1.0, 0.0])
        } else {
            (220.0, [0.0, 1.0])
        };
        let x = 100.0 + (i % 12) as f32 * 8.0;
        state += &format!("{i},{x},{y0},50,0,{},{},0,0\n", hue[0], hue[1]);
    }
    let init = dir.join("two.csv");
    std::fs::write(&init, state).unwrap();
    let stats = dir.join("stats.csv");
    let out = boids()
        .args([
            "headless",
            "--steps",
            "10",
            "--stats-every",
            "4",
            "--flocks",
        ])
        .arg("--scene")
        .arg(&scene)
        .arg("--init")
        .arg(&init)
        .arg("--stats")
        .arg(&stats)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        text.contains("flocks:         2\n")
            && text.contains("largest cluster: 12\n")
            && text.contains("fraction in flocks: 1.0000\n")
            && text.contains("hue coherence:  1.0000"),
        "{text}"
    );
    let rows = std::fs::read_to_string(&stats).unwrap();
    let lines: Vec<&str> = rows.lines().collect();
    assert_eq!(
        lines[0],
        "step,step_ms,polarization,milling,mean_speed,mean_neighbors,va,nematic,time_s,flocks,\
         largest_flock,flocked_fraction,hue_coherence,flock_polarization"
    );
    // Rows at steps 4 and 8 (every 4 steps of 10).
    assert_eq!(lines.len(), 3, "{rows}");
    for (line, step, time) in [(lines[1], "4", "0.0667"), (lines[2], "8", "0.1333")] {
        let f: Vec<&str> = line.split(',').collect();
        assert_eq!(
            (f[0], f[8], f[9], f[10], f[11], f[12]),
            (step, time, "2", "12", "1", "1")
        );
    }
    // 0 steps between rows is refused.
    let out = boids()
        .args(["headless", "--steps", "10", "--stats-every", "0", "--stats"])
        .arg(dir.join("zero.csv"))
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--stats-every 0"), "{err}");
}

#[test]
fn bad_flag_value_exits_non_zero_with_the_message() {
    let out = boids()
        .args(["headless", "--boids", "many"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--boids") && err.contains("many"), "{err}");

    let out = boids().args(["headless", "--boids", "0"]).output().unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("boids = 0") && err.contains("allowed"),
        "{err}"
    );

    let out = boids()
        .args(["headless", "--backend", "quantum"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("quantum"));
}

/// `boids … | head`: a standard output (or error) whose reader has gone ends the run quietly,
/// with 141 (128 + SIGPIPE) as a Unix tool the signal kills, after writing its files; a panic's
/// message (`failed printing to stdout`) would be a failure.
#[test]
fn a_closed_pipe_ends_the_run_quietly_with_its_files_written() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("end.csv");
    for (args, closed) in [
        (vec!["info"], "stdout"),
        (
            vec![
                "headless",
                "--boids",
                "300",
                "--steps",
                "3",
                "--save",
                save.to_str().unwrap(),
            ],
            "stdout",
        ),
        (
            vec![
                "headless",
                "--boids",
                "300",
                "--steps",
                "1",
                "--set",
                "no_such_key=1",
            ],
            "stderr",
        ),
    ] {
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let mut cmd = boids();
        cmd.args(&args);
        if closed == "stdout" {
            cmd.stdout(writer).stderr(std::process::Stdio::piped());
        } else {
            cmd.stderr(writer).stdout(std::process::Stdio::piped());
        }
        let out = cmd.output().unwrap();
        let other = String::from_utf8_lossy(if closed == "stdout" {
            &out.stderr
        } else {
            &out.stdout
        })
        .into_owned();
        assert!(
            !other.contains("panicked"),
            "boids {args:?}, {closed} closed: {other}"
        );
        assert_eq!(
            out.status.code(),
            Some(141),
            "boids {args:?}, {closed} closed: {other}"
        );
    }
    let saved = std::fs::read_to_string(&save).unwrap();
    assert_eq!(saved.lines().filter(|l| !l.starts_with('#')).count(), 301);
}

/// `--fluctuations` with too few boids for two box sizes (the fit of α needs two points) is
/// refused before any step, naming the count it needs; one boid more than that runs.
#[test]
fn fluctuations_of_too_few_boids_are_refused_before_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("f.csv");
    let args = |n: &'static str| ["headless", "--boids", n, "--steps", "3", "--fluctuations"];
    let o = boids().args(args("99")).arg(&f).output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success(), "{err}");
    assert!(
        err.contains("99 boids") && err.contains("at least 100 boids"),
        "{err}"
    );
    assert!(!f.exists());
    let o = boids().args(args("100")).arg(&f).output().unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success() && out.contains("2 box sizes"), "{out}");
}

/// `--fluctuations` takes at most its cap of 64 snapshots, evenly spread over the --stats rows:
/// 130 steps measured every 2nd past a discard of 1 are 65 rows, so every 2nd row is taken
/// (33 snapshots), not every row (65, when the rows were counted as (130 − 1) / 2 = 64).
#[test]
fn fluctuations_take_at_most_their_cap_of_snapshots() {
    let dir = tempfile::tempdir().unwrap();
    let (f, s) = (dir.path().join("f.csv"), dir.path().join("s.csv"));
    let o = boids()
        .args([
            "headless",
            "--backend",
            "cpu",
            "--boids",
            "100",
            "--steps",
            "130",
        ])
        .args(["--discard", "1", "--stats-every", "2", "--stats"])
        .arg(&s)
        .arg("--fluctuations")
        .arg(&f)
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{out}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let rows = std::fs::read_to_string(&s).unwrap();
    let rows = rows.lines().filter(|l| !l.starts_with('#')).count() - 1;
    assert_eq!(rows, 65, "the --stats rows");
    assert!(out.contains("over 33 snapshots"), "{out}");
}

/// The world line says where the world's size came from: a few boids get the smallest world,
/// not "the default density" it does not have; a huge world's density keeps its digits.
#[test]
fn the_world_line_says_the_smallest_world_and_tiny_densities() {
    let text = |args: &[&str]| {
        let o = support::cmd::ok(args);
        let out = support::cmd::stdout(&o);
        out.lines()
            .find(|l| l.starts_with("world:"))
            .unwrap()
            .to_string()
    };
    let one = text(&["headless", "--boids", "1", "--steps", "1"]);
    assert!(
        one.contains("the smallest world") && one.contains(" 1 boid "),
        "{one}"
    );
    let many = text(&["headless", "--boids", "1000", "--steps", "1"]);
    assert!(
        many.contains("density 0.01 boids/wu² (the default density for 1000 boids)"),
        "{many}"
    );
    let huge = text(&[
        "headless",
        "--boids",
        "20",
        "--steps",
        "1",
        "--set",
        "world_width=1000000",
        "--set",
        "world_height=1000000",
    ]);
    assert!(huge.contains("density 0.00000000002 boids/wu²"), "{huge}");
}

/// A scene's `spawn` is the app's start: `headless` starts as --spawn says, and says so when the
/// scene starts otherwise.
#[test]
fn headless_says_when_a_scene_start_is_not_used() {
    let scene = concat!(env!("CARGO_MANIFEST_DIR"), "/scenes/couzin_torus.toml");
    let run = |extra: &[&str]| {
        let mut args = vec![
            "headless", "--scene", scene, "--boids", "100", "--steps", "1",
        ];
        args.extend_from_slice(extra);
        let o = support::cmd::ok(&args);
        String::from_utf8_lossy(&o.stderr).into_owned()
    };
    let err = run(&[]);
    assert!(
        err.contains("spawn = \"group\"") && err.contains("--spawn group for the scene's start"),
        "{err}"
    );
    assert!(!run(&["--spawn", "group"]).contains("spawn ="));
}

#[test]
fn bad_scene_file_exits_with_file_and_line() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let scene = dir.join("bad.toml");
    std::fs::write(&scene, "[params]\nmax_speed = 10.0\nwobble = 1\n").unwrap();
    let out = boids()
        .args(["headless", "--steps", "1", "--scene"])
        .arg(&scene)
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("bad.toml") && err.contains("line 3") && err.contains("wobble"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn zero_steps_and_a_count_that_contradicts_the_initial_state_are_refused() {
    let out = boids().args(["headless", "--steps", "0"]).output().unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--steps"));

    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let save = dir.join("s.csv");
    let ok = boids()
        .args(["headless", "--boids", "40", "--steps", "1", "--save"])
        .arg(&save)
        .output()
        .unwrap();
    assert!(ok.status.success());
    let out = boids()
        .args(["headless", "--boids", "60", "--steps", "1", "--init"])
        .arg(&save)
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--boids 60") && err.contains("40 boids"),
        "{err}"
    );
}

/// Runs `boids bench` on the CPU into `out`; returns its stdout.
fn bench_cpu(out: &Path, counts: &str, steps: &str) -> String {
    let res = boids()
        .args([
            "bench",
            "--backends",
            "cpu",
            "--boids",
            counts,
            "--steps",
            steps,
        ])
        .args(["--warmup", "1", "--quiet", "--out"])
        .arg(out)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&res.stdout).into_owned();
    assert!(
        res.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&res.stderr)
    );
    text
}

/// The reported fault: with one boid a CPU step takes well under a microsecond, and the plot's log
/// axis showed ticks "0", "0.001", "0.001" and the point label and the CLI "0.000 ms".
#[test]
fn sub_microsecond_times_keep_three_significant_digits() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("cap");
    let stdout = bench_cpu(&out, "1", "5");
    let s: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("summary.json")).unwrap()).unwrap();
    let median = s["runs"][0]["median_ms"].as_f64().unwrap();
    assert!(median > 0.0, "{median}");
    let want = format_ms(median);
    assert_time_label(&want, median, "format_ms");
    assert!(!stdout.contains("0.000"), "{stdout}");
    // The table row of the count says the median.
    let row = stdout
        .lines()
        .find(|l| l.split_whitespace().next() == Some("1"))
        .unwrap_or_else(|| panic!("no row for 1 boid in {stdout}"));
    assert!(row.contains(&want), "{want:?} not in {row:?}");

    let svg = std::fs::read_to_string(out.join("scaling.svg")).unwrap();
    assert_xml_well_formed(&svg);
    let ticks = time_ticks(&svg);
    assert_time_ticks_sound(&ticks, "scaling.svg");
    let labels: Vec<SvgText> = svg_texts(&svg)
        .into_iter()
        .filter(|t| t.fill == boids::capture::plot::backend_color_hex("cpu"))
        .collect();
    assert_eq!(labels.len(), 1, "{labels:?}");
    assert_time_label(&labels[0].content, median, "point label");
    // The count axis: no repeated label, none of them "0".
    let counts: Vec<String> = svg_texts(&svg)
        .into_iter()
        .filter(|t| t.anchor == "middle" && t.content.chars().all(|c| c.is_ascii_digit()))
        .map(|t| t.content)
        .collect();
    let mut d = counts.clone();
    d.dedup();
    assert!(!counts.is_empty() && d == counts, "{counts:?}");
    assert!(!counts.iter().any(|c| c == "0"), "{counts:?}");
    assert_time_ticks_sound(
        &time_ticks(&std::fs::read_to_string(out.join("frametimes.svg")).unwrap()),
        "frametimes.svg",
    );
}

/// `--compare` of two captures: times with units, and `—` (not NaN) for what one side lacks.
#[test]
fn compare_prints_dashes_for_missing_values() {
    let tmp = tempfile::tempdir().unwrap();
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    bench_cpu(&a, "1,50", "3");
    bench_cpu(&b, "50", "3");
    // A run with no samples: its statistics are null in the JSON (NaN when read).
    let path = b.join("summary.json");
    let mut s: serde_json::Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    let mut empty = s["runs"][0].clone();
    empty["boids"] = 1.into();
    empty["samples"] = 0.into();
    for k in [
        "mean_ms",
        "median_ms",
        "p25_ms",
        "p75_ms",
        "p95_ms",
        "p99_ms",
        "max_ms",
        "fps",
        "low_1pct_fps",
    ] {
        empty[k] = serde_json::Value::Null;
    }
    s["runs"].as_array_mut().unwrap().push(empty);
    std::fs::write(&path, serde_json::to_vec(&s).unwrap()).unwrap();
    let res = boids()
        .args(["bench", "--compare"])
        .arg(&a)
        .arg(&b)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&res.stdout);
    assert!(
        res.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&res.stderr)
    );
    assert!(!text.contains("NaN") && !text.contains("0.000"), "{text}");
    let row = |n: &str| -> Vec<String> {
        table_cells(
            text.lines()
                .find(|l| l.starts_with("cpu") && l.split_whitespace().nth(1) == Some(n))
                .unwrap_or_else(|| panic!("no cpu {n} row in {text}")),
        )
    };
    // backend, boids, A median, A IQR, B median, B IQR, B/A, A p95, B p95, A fps, B fps
    let one = row("1");
    assert_eq!(one.len(), 11, "{one:?}");
    assert_eq!(
        [&one[4], &one[5], &one[6], &one[8], &one[10]],
        ["—"; 5],
        "{one:?}"
    );
    assert!(parse_time_label(&one[2]).is_some(), "{one:?}");
    let fifty = row("50");
    assert!(
        fifty[2..6].iter().all(|c| parse_time_label(c).is_some()),
        "{fifty:?}"
    );
}

/// The commit a freshly built binary reports is the checkout's HEAD, and its dirty flag is that
/// of the compiled sources (`build.rs` records both at build time); without a git checkout both
/// are absent.
#[test]
fn binary_reports_the_commit_it_was_built_from() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("cap");
    bench_cpu(&out, "10", "1");
    let s: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("summary.json")).unwrap()).unwrap();
    let root = env!("CARGO_MANIFEST_DIR");
    let git = |args: &[&str]| -> Option<String> {
        let o = Command::new("git")
            .args(["--no-optional-locks", "-C", root])
            .args(args)
            .output()
            .ok()?;
        o.status
            .success()
            .then(|| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    let tracked = git(&["ls-files", "--", "Cargo.toml"]).is_some_and(|t| !t.is_empty());
    match git(&["rev-parse", "HEAD"]).filter(|_| tracked) {
        Some(head) => {
            assert_eq!(s["tool"]["git_commit"], head.as_str(), "{}", s["tool"]);
            let changes = git(&[
                "status",
                "--porcelain",
                "--untracked-files=no",
                "--",
                "build.rs",
                "Cargo.toml",
                "Cargo.lock",
                "src",
                "shaders",
            ])
            .unwrap();
            assert_eq!(
                s["tool"]["git_dirty"],
                !changes.is_empty(),
                "sources changed since HEAD:\n{changes}"
            );
        }
        None => {
            eprintln!("not a git checkout: the binary must report no commit");
            assert!(s["tool"]["git_commit"].is_null(), "{}", s["tool"]);
            assert!(s["tool"]["git_dirty"].is_null(), "{}", s["tool"]);
        }
    }
}

/// A scene point outside the world stops `headless`, `sweep` and `bench` before anything runs,
/// with the file, line, key, value and world size; a checkpoint's predator outside the world a
/// scene gives the resumed run is refused too.
#[test]
fn scene_points_outside_the_world_stop_every_command() {
    let tmp = tempfile::tempdir().unwrap();
    let scene = tmp.path().join("far.toml");
    std::fs::write(&scene, "boids = 100\nobstacles = [[1e9, 5]]\n").unwrap();
    let s = scene.to_str().unwrap();
    let out = tmp.path().join("out");
    let o = out.to_str().unwrap();
    for args in [
        vec!["headless", "--scene", s, "--steps", "1"],
        vec![
            "sweep",
            "--scene",
            s,
            "--param",
            "max_speed",
            "--values",
            "90,100",
            "--steps",
            "20",
            "--discard",
            "0",
            "--out",
            o,
            "--quiet",
        ],
        vec![
            "bench",
            "--scene",
            s,
            "--backends",
            "cpu",
            "--boids",
            "100",
            "--steps",
            "1",
            "--out",
            o,
            "--quiet",
        ],
    ] {
        let res = boids().args(&args).output().unwrap();
        let e = String::from_utf8_lossy(&res.stderr);
        assert!(!res.status.success(), "{args:?} succeeded: {e}");
        assert!(
            e.starts_with("error: ")
                && e.contains("far.toml, line 2")
                && e.contains("obstacles[0] = [1000000000, 5]")
                && e.contains("[0, 100) × [0, 100)"),
            "{args:?}: {e}"
        );
        assert!(
            !out.join("summary.json").exists(),
            "{args:?} wrote a folder"
        );
    }
    // A checkpoint in a 1000 wu world with a predator at (500, 500), resumed with a 100 wu scene.
    let cp = tmp.path().join("cp.csv");
    let big = tmp.path().join("big.toml");
    std::fs::write(
        &big,
        "boids = 20\n[params]\nworld_width = 1000.0\nworld_height = 1000.0\n\
         [[predators]]\nposition = [500, 500]\n",
    )
    .unwrap();
    let res = boids()
        .args(["headless", "--scene"])
        .arg(&big)
        .args(["--steps", "0", "--save"])
        .arg(&cp)
        .output()
        .unwrap();
    assert!(
        res.status.success(),
        "{}",
        String::from_utf8_lossy(&res.stderr)
    );
    // The checkpoint resumed in a 100 wu world (--set over the checkpoint).
    let res = boids()
        .args(["headless", "--steps", "1", "--init"])
        .arg(&cp)
        .args(["--set", "world_width=100", "--set", "world_height=100"])
        .output()
        .unwrap();
    let e = String::from_utf8_lossy(&res.stderr);
    assert!(!res.status.success(), "{e}");
    assert!(
        e.contains("cp.csv, line")
            && e.contains("predators[0].position = [500, 500]")
            && e.contains("[0, 100) × [0, 100)"),
        "{e}"
    );
}

/// Every command that writes a folder follows one rule: an existing non-empty folder is refused
/// unless `--force`, and each one's `--help` says so.
#[test]
fn commands_that_write_a_folder_refuse_a_non_empty_one_without_force() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("cap");
    bench_cpu(&out, "20", "1");
    let again = boids()
        .args([
            "bench",
            "--backends",
            "cpu",
            "--boids",
            "20",
            "--steps",
            "1",
            "--quiet",
        ])
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    let e = String::from_utf8_lossy(&again.stderr);
    assert!(
        !again.status.success(),
        "a second capture overwrote the first: {e}"
    );
    assert!(e.contains("is not empty") && e.contains("--force"), "{e}");
    let forced = boids()
        .args([
            "bench",
            "--backends",
            "cpu",
            "--boids",
            "20",
            "--steps",
            "1",
            "--quiet",
        ])
        .arg("--out")
        .arg(&out)
        .arg("--force")
        .output()
        .unwrap();
    assert!(
        forced.status.success(),
        "{}",
        String::from_utf8_lossy(&forced.stderr)
    );
    for cmd in [&["bench"][..], &["sweep"], &["sweep", "merge"]] {
        let help = boids().args(cmd).arg("--help").output().unwrap();
        let text = String::from_utf8_lossy(&help.stdout).replace('\n', " ");
        let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            text.contains("--force") && text.contains("non-empty folder is refused"),
            "{cmd:?} --help: {text}"
        );
    }
}

/// `--compare` shows each run's spread (the interquartile range of its step times) and marks a
/// ratio whose runs' interquartile ranges overlap: a difference within the noise.
#[test]
fn compare_shows_the_spread_and_marks_ratios_within_the_noise() {
    let tmp = tempfile::tempdir().unwrap();
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    bench_cpu(&a, "50,100", "8");
    bench_cpu(&b, "50,100", "8");
    // Planted statistics (ms): at 50 boids B's quartiles overlap A's; at 100 they do not.
    let plant = |dir: &Path, rows: [(f64, f64, f64); 2]| {
        let path = dir.join("summary.json");
        let mut s: serde_json::Value =
            serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        for (run, (p25, median, p75)) in s["runs"].as_array_mut().unwrap().iter_mut().zip(rows) {
            run["p25_ms"] = p25.into();
            run["median_ms"] = median.into();
            run["p75_ms"] = p75.into();
        }
        std::fs::write(&path, serde_json::to_vec(&s).unwrap()).unwrap();
    };
    plant(&a, [(9.0, 10.0, 11.0), (9.0, 10.0, 11.0)]);
    plant(&b, [(10.5, 11.5, 12.5), (11.5, 12.0, 12.5)]);
    let res = boids()
        .args(["bench", "--compare"])
        .arg(&a)
        .arg(&b)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&res.stdout);
    assert!(
        res.status.success(),
        "{}",
        String::from_utf8_lossy(&res.stderr)
    );
    let row = |n: &str| -> Vec<String> {
        table_cells(
            text.lines()
                .find(|l| l.starts_with("cpu") && l.split_whitespace().nth(1) == Some(n))
                .unwrap_or_else(|| panic!("no cpu {n} row in {text}")),
        )
    };
    let head = table_cells(text.lines().find(|l| l.starts_with("backend")).unwrap());
    let col = |name: &str| {
        head.iter()
            .position(|h| h == name)
            .unwrap_or_else(|| panic!("no column {name}: {head:?}"))
    };
    let (ia, ib, ir) = (col("A IQR"), col("B IQR"), col("B/A"));
    let fifty = row("50");
    assert_eq!(
        (&*fifty[ia], &*fifty[ib]),
        ("2.00 ms", "2.00 ms"),
        "{fifty:?}"
    );
    assert_eq!(fifty[ir], "1.15 ~", "{text}");
    let hundred = row("100");
    assert_eq!(
        (&*hundred[ia], &*hundred[ib]),
        ("2.00 ms", "1.00 ms"),
        "{hundred:?}"
    );
    assert_eq!(hundred[ir], "1.20", "{text}");
    assert!(text.contains("~: within the noise"), "{text}");
}

/// The text of `path` (relative to the repository) between the line `start` and the next heading
/// of at most `level` `#`s, with its lines joined by spaces.
fn doc_section(path: &str, start: &str, level: usize) -> String {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(path)).unwrap();
    let mut lines = text.lines().skip_while(|l| *l != start);
    assert!(lines.next().is_some(), "no {start:?} in {path}");
    let stop = |l: &&str| {
        let hashes = l.chars().take_while(|c| *c == '#').count();
        hashes > 0 && hashes <= level && l[hashes..].starts_with(' ')
    };
    lines.take_while(|l| !stop(l)).collect::<Vec<_>>().join(" ")
}

/// What holds for GPU sweeps is said alike in `sweep --help`, the README and docs/sweeps.md: bit for bit on the
/// same adapter and driver (tests/it/gpu_determinism.rs), within the stated per-step tolerance across
/// adapters; not "not reproducible between runs".
#[test]
fn the_gpu_reproducibility_claim_is_what_holds() {
    let help = boids().args(["sweep", "--help"]).output().unwrap();
    let help = String::from_utf8_lossy(&help.stdout)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    let docs = doc_section("docs/sweeps.md", "## What a point is", 2);
    let readme = doc_section("README.md", "## Sweeps", 2);
    for (name, text) in [
        ("sweep --help", &help),
        ("docs/sweeps.md", &docs),
        ("README Sweeps", &readme),
    ] {
        assert!(
            text.contains("same adapter and driver")
                && text.contains("bit for bit")
                && text.contains("1e-5 relative")
                && !text.contains("gpu is not, between runs"),
            "{name}: {text}"
        );
    }
}

/// The long options in a command's `--help` (without `--help` itself).
fn help_options(command: &[&str]) -> Vec<String> {
    let mut args = command.to_vec();
    args.push("--help");
    let out = crate::support::cmd::ok(&args);
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let mut opts: Vec<String> = text
        .lines()
        .filter_map(|l| {
            let t = l.trim_start();
            let t = t.strip_prefix("-h, ").unwrap_or(t);
            let t = if t.len() > 4 && t.as_bytes()[0] == b'-' && t.as_bytes()[2] == b',' {
                &t[4..]
            } else {
                t
            };
            t.strip_prefix("--")
                .map(|r| r.split([' ', '=']).next().unwrap_or("").to_string())
        })
        .filter(|o| !o.is_empty() && o != "help" && o != "version")
        .map(|o| format!("--{o}"))
        .collect();
    opts.dedup();
    opts
}

/// docs/cli.md's section of each command names every option of that command's own `--help`, and
/// no option the command lacks; the check fails on a planted omission.
#[test]
fn docs_cli_names_every_option_of_every_command() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/cli.md")).unwrap();
    let section = |title: &str| -> String {
        let head = format!("### {title}\n");
        let start = doc
            .find(&head)
            .unwrap_or_else(|| panic!("docs/cli.md has no section {head:?}"));
        let rest = &doc[start + head.len()..];
        let end = rest
            .find("\n## ")
            .into_iter()
            .chain(rest.find("\n### "))
            .min();
        rest[..end.unwrap_or(rest.len())].to_string()
    };
    let documented = |sec: &str| -> Vec<String> {
        sec.lines()
            .filter_map(|l| l.strip_prefix("| `--"))
            .map(|r| format!("--{}", r.split([' ', '`']).next().unwrap()))
            .collect()
    };
    let commands: [&[&str]; 8] = [
        &["run"],
        &["headless"],
        &["analyse"],
        &["snapshot"],
        &["bench"],
        &["sweep"],
        &["sweep", "merge"],
        &["info"],
    ];
    for cmd in commands {
        let title = format!("boids {}", cmd.join(" "));
        let sec = section(&title);
        let want = help_options(cmd);
        let got = documented(&sec);
        let missing: Vec<&String> = want.iter().filter(|o| !got.contains(o)).collect();
        let extra: Vec<&String> = got.iter().filter(|o| !want.contains(o)).collect();
        assert!(
            missing.is_empty() && extra.is_empty(),
            "docs/cli.md, {title}: missing {missing:?}, not an option {extra:?}"
        );
        if cmd == ["sweep"] {
            assert!(
                want.len() > 10 && want.contains(&"--series".to_string()),
                "{want:?}"
            );
            // The check can fail: drop one option from the section.
            let planted = sec.replace("| `--series", "| series");
            assert!(!documented(&planted).contains(&"--series".to_string()));
        }
    }
}

/// Two outputs naming one file are refused before anything runs (one would replace the other),
/// also through another spelling of the folder; a trajectory's frame syntax on a state CSV says
/// what it means.
#[test]
fn headless_refuses_one_file_for_two_outputs() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    let same = format!("{d}/same.gsd");
    let other = format!("{d}/./same.gsd");
    let e = crate::support::cmd::refused(&[
        "headless",
        "--backend",
        "cpu",
        "--boids",
        "50",
        "--steps",
        "3",
        "--trajectory",
        &same,
        "--save",
        &other,
    ]);
    crate::support::assert_names(&e, &["--save", "--trajectory", "same.gsd", "replace"]);
    assert!(!std::path::Path::new(&same).exists(), "nothing was written");
    let csv = format!("{d}/s.csv");
    crate::support::cmd::ok(&[
        "headless",
        "--backend",
        "cpu",
        "--boids",
        "50",
        "--steps",
        "0",
        "--save",
        &csv,
    ]);
    let e =
        crate::support::cmd::refused(&["headless", "--init", &format!("{csv}:0"), "--steps", "1"]);
    crate::support::assert_names(&e, &["s.csv:0", "FILE:FRAME", "GSD trajectory"]);
}

/// An output naming the scene or the `--init` file is refused before anything runs, the file
/// left as it was (also through another spelling of the folder, and a GSD frame's `FILE:FRAME`);
/// `--save` over an `--init` checkpoint goes on in place.
#[test]
fn headless_refuses_an_output_over_its_inputs() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    let scene = format!("{d}/my.toml");
    std::fs::write(&scene, "boids = 50\n").unwrap();
    let csv = format!("{d}/run.csv");
    let gsd = format!("{d}/t.gsd");
    let base = ["headless", "--backend", "cpu", "--boids", "50"];
    crate::support::cmd::ok(&[&base[..], &["--steps", "0", "--save", &csv]].concat());
    crate::support::cmd::ok(&[&base[..], &["--steps", "0", "--save", &gsd]].concat());
    let before = |p: &str| std::fs::read(p).unwrap();
    let (scene0, csv0, gsd0) = (before(&scene), before(&csv), before(&gsd));
    let other = |f: &str| format!("{d}/./{f}");
    let frame = format!("{gsd}:0");
    for (args, names) in [
        (
            vec!["--scene", &scene, "--stats", &other("my.toml")],
            ["--stats", "--scene"],
        ),
        (
            vec!["--scene", &scene, "--save", &scene],
            ["--save", "--scene"],
        ),
        (
            vec!["--init", &csv, "--stats", &other("run.csv")],
            ["--stats", "--init"],
        ),
        (
            vec!["--init", &csv, "--analyse", &format!("rdf={csv}")],
            ["--analyse", "--init"],
        ),
        (vec!["--init", &gsd, "--save", &gsd], ["--save", "--init"]),
        (
            vec!["--init", &frame, "--trajectory", &gsd, "--force"],
            ["--trajectory", "--init"],
        ),
    ] {
        let e = crate::support::cmd::refused(&[&["headless", "--steps", "2"][..], &args].concat());
        crate::support::assert_names(&e, &[names[0], names[1], "replaced"]);
    }
    assert_eq!(before(&scene), scene0, "the scene is untouched");
    assert_eq!(before(&csv), csv0, "the checkpoint is untouched");
    assert_eq!(before(&gsd), gsd0, "the trajectory is untouched");
    // A checkpoint goes on in place.
    crate::support::cmd::ok(&["headless", "--init", &csv, "--steps", "2", "--save", &csv]);
    let text = std::fs::read_to_string(&csv).unwrap();
    assert_ne!(text.as_bytes(), &csv0[..], "the checkpoint moved on");
    assert!(
        text.contains("# step = 2\n"),
        "{}",
        &text[..text.len().min(400)]
    );
}

/// `boids` without a subcommand is `boids run`, options included: `boids --boids N` reaches the
/// app (here it stops at the missing display), a bad value is refused naming the option, and a
/// subcommand after the app's options is refused rather than ignored.
#[test]
fn the_app_options_work_without_the_run_subcommand() {
    let out = boids()
        .args(["--boids", "2000", "--backend", "cpu"])
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .env_remove("WAYLAND_SOCKET")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(err.contains("cannot open a window"), "{err}");
    for args in [
        &["--boids", "many"][..],
        &["--boids", "2000", "headless"][..],
        &["--width", "100000"][..],
        &["--height", "0"][..],
    ] {
        let out = boids().args(args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains(args[0]) || err.contains("headless"),
            "{args:?}: {err}"
        );
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}
