//! The statistics of the order parameter against their exact limits (docs/model.md §12.9), end
//! to end through `boids sweep` and `boids headless`:
//! - N independent, uniformly random headings (the Vicsek model at η = 2π: each new heading is
//!   uniform on the circle, independent of everything before): ⟨φ²⟩ = 1/N,
//!   ⟨φ⁴⟩ = (2N − 1)/N³, so G = 1/3 + 1/(3N), and χ = N(⟨φ²⟩ − ⟨φ⟩²) → 1 − π/4;
//! - a perfectly ordered flock (the Vicsek model at η = 0 from aligned headings): G = 2/3, χ = 0.

use crate::support;
use std::path::Path;
use support::cmd::boids;

fn ok(args: &[&str]) -> String {
    let o = boids().args(args).output().unwrap();
    let out = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(o.status.success(), "boids {}: {out}", args.join(" "));
    out
}

/// The columns of a CSV file by name: header and rows.
fn table(path: &Path) -> (Vec<String>, Vec<Vec<String>>) {
    let csv = std::fs::read_to_string(path).unwrap();
    let mut lines = csv.lines();
    let split = |l: &str| l.split(',').map(String::from).collect::<Vec<_>>();
    let header = split(lines.next().unwrap());
    (header, lines.map(split).collect())
}

/// The value of `name` at the sweep's one point (`points.csv`, the mean over the repeats) and
/// its error: the larger of the spread of the repeats (sd/√K) and the within-run errors combined
/// (√(Σ se²)/K, from `sweep.csv`). With a few repeats the spread alone is itself noisy (K − 1
/// degrees of freedom); the headings here are independent from step to step, so the within-run
/// errors are honest too.
fn estimate(dir: &Path, name: &str) -> (f64, f64) {
    let se_name = format!("{name}_se");
    let at = |h: &[String], c: &str| h.iter().position(|x| x == c).unwrap();
    let (h, rows) = table(&dir.join("points.csv"));
    let value: f64 = rows[0][at(&h, name)].parse().unwrap();
    let across: f64 = rows[0][at(&h, &se_name)].parse().unwrap();
    let (h, rows) = table(&dir.join("sweep.csv"));
    let k = rows.len() as f64;
    let within = rows
        .iter()
        .map(|r| r[at(&h, &se_name)].parse::<f64>().unwrap().powi(2))
        .sum::<f64>()
        .sqrt()
        / k;
    (value, across.max(within))
}

/// A sweep of the Vicsek model at η = 2π, N = 400, ρ = 4, on `backend`; its folder.
fn random_headings(root: &Path, backend: &str) -> std::path::PathBuf {
    let out = root.join(backend);
    let scene = concat!(env!("CARGO_MANIFEST_DIR"), "/scenes/vicsek.toml");
    ok(&[
        "sweep",
        "--scene",
        scene,
        "--backend",
        backend,
        "--param",
        "vicsek_eta",
        "--values",
        "6.2831853",
        "--boids",
        "400",
        "--steps",
        "2010",
        "--discard",
        "10",
        "--repeats",
        "4",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]);
    out
}

fn check_random_headings(dir: &Path, label: &str) {
    let n = 400.0;
    // Within 4 standard errors (4 repeats, each of 2000 independent steps).
    let within = |name: &str, want: f64| {
        let (v, se) = estimate(dir, name);
        assert!(se > 0.0 && se.is_finite(), "{label}: {name} se {se}");
        assert!(
            (v - want).abs() <= 4.0 * se,
            "{label}: {name} = {v} ± {se}, exact {want}"
        );
        // The exact value is not within reach of a wrong one: the errors are small.
        (v, se)
    };
    let (_, se) = within("phi2", 1.0 / n);
    assert!(se < 0.1 / n, "{label}: ⟨φ²⟩ error {se} too large to test");
    within("phi4", (2.0 * n - 1.0) / (n * n * n));
    let (_, se) = within("binder", 1.0 / 3.0 + 1.0 / (3.0 * n));
    // The limit of perfect order is many errors away.
    assert!((2.0 / 3.0 - (1.0 / 3.0 + 1.0 / (3.0 * n))) > 10.0 * se);
    // χ → 1 − π/4; at N = 400 the exact value is higher by about π/(16 N) ≈ 5e-4, well within
    // the error.
    within("susceptibility", 1.0 - std::f64::consts::PI / 4.0);
}

#[test]
fn random_headings_give_the_exact_moments_binder_cumulant_and_susceptibility_on_the_cpu() {
    let root = tempfile::tempdir().unwrap();
    let dir = random_headings(root.path(), "cpu");
    check_random_headings(&dir, "cpu");
}

#[test]
fn random_headings_give_the_exact_moments_binder_cumulant_and_susceptibility_on_the_gpu() {
    if support::gpu().is_none() {
        return;
    }
    let root = tempfile::tempdir().unwrap();
    let dir = random_headings(root.path(), "gpu");
    check_random_headings(&dir, "gpu");
}

#[test]
fn a_perfectly_ordered_flock_has_binder_two_thirds_and_no_susceptibility() {
    // 400 particles with one heading, at η = 0: the average heading of identical headings is
    // that heading, so φ = 1 at every step.
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("aligned.csv");
    let mut text = String::from("id,x,y,vx,vy,hx,hy,hvx,hvy\n");
    for i in 0..400 {
        let (x, y) = ((i % 20) as f32 * 0.5 + 0.1, (i / 20) as f32 * 0.5 + 0.1);
        text += &format!("{i},{x},{y},0.03,0,1,0,0,0\n");
    }
    std::fs::write(&state, text).unwrap();
    let stats = dir.path().join("stats.csv");
    for eta in ["0", "2"] {
        let out = ok(&[
            "headless",
            "--scene",
            concat!(env!("CARGO_MANIFEST_DIR"), "/scenes/vicsek.toml"),
            "--init",
            state.to_str().unwrap(),
            "--set",
            "world_width=10",
            "--set",
            "world_height=10",
            "--set",
            &format!("vicsek_eta={eta}"),
            "--steps",
            "200",
            "--stats",
            stats.to_str().unwrap(),
        ]);
        // The value of a statistic's line: "  G       Binder cumulant   0.6667 ± 0.0000  (…)".
        let line = |symbol: &str| -> f64 {
            let l = out
                .lines()
                .find(|l| l.trim_start().starts_with(symbol))
                .unwrap_or_else(|| panic!("no {symbol} line in {out}"));
            let before = l.split('±').next().unwrap();
            before.split_whitespace().last().unwrap().parse().unwrap()
        };
        let (g, chi) = (line("G "), line("χ "));
        if eta == "0" {
            assert!((g - 2.0 / 3.0).abs() < 1e-4, "G = {g}\n{out}");
            assert!(chi.abs() < 1e-4, "χ = {chi}\n{out}");
            // Rounding of the f32 sums does not carry the order parameter past its range: v_a
            // is exactly 1 at every step (not 1.0000000073), χ is not negative.
            assert!(!out.contains("-0.0000"), "{out}");
            let csv = std::fs::read_to_string(&stats).unwrap();
            let va = csv
                .lines()
                .next()
                .unwrap()
                .split(',')
                .position(|c| c == "va")
                .unwrap();
            for row in csv.lines().skip(1) {
                let v: f64 = row.split(',').nth(va).unwrap().parse().unwrap();
                assert_eq!(v, 1.0, "v_a in {row}");
            }
        } else {
            // With noise the order fluctuates: G below 2/3 and χ > 0, so the check can fail.
            assert!(
                g < 2.0 / 3.0 - 1e-4 && chi > 1e-3,
                "η = 2: G = {g}, χ = {chi}\n{out}"
            );
        }
    }
}

/// The headless summary names the order parameter by its symbol and name, and `--stats` gives the
/// time in the model's unit: steps for the Vicsek model (which does not read dt), seconds for
/// boids.
#[test]
fn the_order_parameter_and_the_time_are_named_in_the_models_terms() {
    let dir = tempfile::tempdir().unwrap();
    let stats = dir.path().join("s.csv");
    let vicsek = concat!(env!("CARGO_MANIFEST_DIR"), "/scenes/vicsek.toml");
    for (scene, symbol, time) in [
        (Some(vicsek), "order parameter v_a over the ", "time_steps"),
        (None, "order parameter φ (the polarization)", "time_s"),
    ] {
        let mut args = vec!["headless", "--boids", "300", "--steps", "30", "--flocks"];
        if let Some(s) = scene {
            args.extend(["--scene", s]);
        }
        args.extend(["--stats", stats.to_str().unwrap()]);
        let out = ok(&args);
        assert!(out.contains(symbol), "{out}");
        assert!(!out.contains("φ = φ"), "{out}");
        let csv = std::fs::read_to_string(&stats).unwrap();
        let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
        assert!(header.contains(&time), "{header:?}");
        let other = if time == "time_s" {
            "time_steps"
        } else {
            "time_s"
        };
        assert!(!header.contains(&other), "{header:?}");
        // The time of the last row: its step in steps, or step·dt seconds (dt = 1/60).
        let at = header.iter().position(|c| *c == time).unwrap();
        let row: Vec<&str> = csv.lines().last().unwrap().split(',').collect();
        let (step, last): (f64, f64) = (row[0].parse().unwrap(), row[at].parse().unwrap());
        assert!(step >= 29.0, "{csv}");
        let want = if time == "time_steps" {
            step
        } else {
            step / 60.0
        };
        assert!(
            (last - want).abs() < 1e-3,
            "{time} = {last}, want {want}\n{csv}"
        );
    }
    // The time to 1 % of a step: 0.00015 s a step, not rounded to 0.0001.
    let args = [
        "headless",
        "--boids",
        "200",
        "--steps",
        "3",
        "--flocks",
        "--set",
        "dt=0.00015",
    ];
    ok(&[&args[..], &["--stats", stats.to_str().unwrap()]].concat());
    let csv = std::fs::read_to_string(&stats).unwrap();
    let at = csv
        .lines()
        .next()
        .unwrap()
        .split(',')
        .position(|c| c == "time_s")
        .unwrap();
    let times: Vec<&str> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(at).unwrap())
        .collect();
    assert_eq!(times, ["0.000150", "0.000300", "0.000450"], "{csv}");
}

/// `headless --discard D`: the first D steps are not measured — the `--stats` rows and the
/// order parameter's statistics are those of the steps after them, the same numbers a run
/// without the discard records for those steps (the CPU backend is bit for bit); a discard of
/// every step is refused.
#[test]
fn headless_discard_leaves_the_transient_out_of_the_statistics() {
    let root = tempfile::tempdir().unwrap();
    let (all, cut) = (root.path().join("all.csv"), root.path().join("cut.csv"));
    let run = |csv: &Path, extra: &[&str]| {
        let mut a = vec!["headless", "--boids", "400", "--steps", "120", "--stats"];
        a.push(csv.to_str().unwrap());
        a.extend(extra);
        ok(&a)
    };
    run(&all, &[]);
    let out = run(&cut, &["--discard", "40"]);
    assert!(
        out.contains("over the 80 steps written to --stats, after 40 discarded"),
        "{out}"
    );
    let (h, rows_all) = table(&all);
    let (h2, rows_cut) = table(&cut);
    assert_eq!(h, h2);
    assert_eq!(rows_cut.len(), 80);
    assert_eq!(rows_cut[0][0], "41");
    // Every column but the step time.
    let strip = |r: &Vec<String>| {
        let mut r = r.clone();
        r.remove(1);
        r
    };
    let tail: Vec<_> = rows_all[40..].iter().map(strip).collect();
    assert_eq!(rows_cut.iter().map(strip).collect::<Vec<_>>(), tail);
    // The printed ⟨φ⟩ is the mean of the measured rows' polarization.
    let col = h.iter().position(|c| c == "polarization").unwrap();
    let mean: f64 = rows_cut
        .iter()
        .map(|r| r[col].parse::<f64>().unwrap())
        .sum::<f64>()
        / 80.0;
    let line = out.lines().find(|l| l.contains("⟨φ⟩")).unwrap();
    let printed: f64 = line
        .split_whitespace()
        .find_map(|w| w.parse().ok())
        .unwrap();
    assert!((printed - mean).abs() < 1e-4, "{line} vs {mean}");
    let o = boids()
        .args(["headless", "--steps", "10", "--discard", "10"])
        .output()
        .unwrap();
    assert!(!o.status.success());
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(
        e.contains("--discard 10 with --steps 10") && e.contains("0 ..= 9"),
        "{e}"
    );
}

/// `sweep --start ordered`: every boid along one heading, so the Vicsek model at η = 0 stays
/// perfectly ordered from the first step (v_a = 1 with no spread, G = 2/3, χ = 0), while the
/// random start at η = 0 is still forming its order; the start is part of the plan (a random
/// plan's summary does not name it, so earlier fingerprints hold).
#[test]
fn an_ordered_start_is_perfect_order_from_the_first_step() {
    let root = tempfile::tempdir().unwrap();
    let scene = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/vicsek.toml");
    let run = |start: &str| {
        let out = root.path().join(start);
        ok(&[
            "sweep",
            "--scene",
            scene.to_str().unwrap(),
            "--param",
            "vicsek_eta",
            "--values",
            "0",
            "--boids",
            "400",
            "--steps",
            "60",
            "--discard",
            "0",
            "--start",
            start,
            "--quiet",
            "--out",
            out.to_str().unwrap(),
        ]);
        out
    };
    let value = |dir: &Path, name: &str| -> f64 {
        let (h, rows) = table(&dir.join("sweep.csv"));
        let c = h.iter().position(|c| c == name).unwrap();
        rows[0][c].parse().unwrap()
    };
    let ordered = run("ordered");
    assert!((value(&ordered, "va") - 1.0).abs() < 1e-6);
    assert!(value(&ordered, "va_sd") < 1e-6);
    assert!((value(&ordered, "binder") - 2.0 / 3.0).abs() < 1e-6);
    assert!(value(&ordered, "susceptibility").abs() < 1e-6);
    let random = run("random");
    assert!(value(&random, "va") < 0.95, "{}", value(&random, "va"));
    let plan = |d: &Path| -> serde_json::Value {
        serde_json::from_slice::<serde_json::Value>(&std::fs::read(d.join("summary.json")).unwrap())
            .unwrap()["plan"]
            .clone()
    };
    assert_eq!(plan(&ordered)["start"], "ordered");
    assert!(plan(&random).get("start").is_none());
}

/// τ_int of `x` computed independently of the library: C(t) normalised by n (as emcee and a
/// numpy one-liner compute it), summed to the first window of at least 5 τ.
fn windowed_tau(x: &[f64]) -> f64 {
    let n = x.len();
    let mean = x.iter().sum::<f64>() / n as f64;
    let acf = |t: usize| -> f64 {
        (0..n - t)
            .map(|i| (x[i] - mean) * (x[i + t] - mean))
            .sum::<f64>()
            / n as f64
    };
    let c0 = acf(0);
    let mut est = 0.5;
    for m in 1..n / 2 {
        est += acf(m) / c0;
        if m as f64 >= 5.0 * est {
            break;
        }
    }
    est
}

/// τ_int of φ printed by `headless` (Sokal's windowing over C(t) normalised by n − t) against an
/// independent estimate from the `--stats` file (C(t) normalised by n, as emcee and a numpy
/// one-liner compute it): they agree within the printed error near the Vicsek transition; a run
/// made too short on purpose gets the warning, a long one does not.
#[test]
fn the_autocorrelation_time_matches_an_independent_estimate_and_warns_on_short_runs() {
    let root = tempfile::tempdir().unwrap();
    let scene = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/vicsek.toml");
    let run = |steps: &str, csv: &Path| {
        ok(&[
            "headless",
            "--scene",
            scene.to_str().unwrap(),
            "--boids",
            "400",
            "--steps",
            steps,
            "--discard",
            "100",
            "--set",
            "vicsek_eta=2.5",
            "--stats",
            csv.to_str().unwrap(),
        ])
    };
    let long = root.path().join("long.csv");
    let out = run("3100", &long);
    let line = out
        .lines()
        .find(|l| l.contains("τ_int"))
        .expect("a τ_int line");
    let nums: Vec<f64> = line
        .split_whitespace()
        .filter_map(|w| w.parse().ok())
        .collect();
    let (tau, err) = (nums[0], nums[1]);
    assert!(!out.contains("warning:"), "{out}");
    // The independent estimate.
    let (h, rows) = table(&long);
    let c = h.iter().position(|c| c == "va").unwrap();
    let x: Vec<f64> = rows.iter().map(|r| r[c].parse().unwrap()).collect();
    let est = windowed_tau(&x);
    assert!(
        tau > 1.0,
        "near the transition φ is correlated over steps: {line}"
    );
    assert!((tau - est).abs() < err, "{line} against {est}");
    let short = run("160", &root.path().join("short.csv"));
    assert!(
        short.contains("warning:") && short.contains("τ_int"),
        "{short}"
    );
}

/// A sweep records τ_int of φ per run (`tau_int`, `tau_int_se`, in steps, from the measure
/// table), the estimate that an independent windowed sum over the run's `--series` file gives
/// (within its error), near the Vicsek transition, and P(φ), the series's values counted in
/// their bins; a run made too short on purpose is named in a warning, and the summary line
/// counts it.
#[test]
fn a_sweep_records_the_autocorrelation_time_and_warns_on_short_runs() {
    let root = tempfile::tempdir().unwrap();
    let scene = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/vicsek.toml");
    let sweep = |steps: &str, out: &Path| {
        boids()
            .args(["sweep", "--scene", scene.to_str().unwrap()])
            .args(["--param", "vicsek_eta", "--values", "2.5", "--boids", "400"])
            .args(["--steps", steps, "--discard", "100", "--series", "--out"])
            .arg(out)
            .output()
            .unwrap()
    };
    let long = root.path().join("long");
    let out = sweep("3100", &long);
    assert!(out.status.success());
    assert!(
        !String::from_utf8_lossy(&out.stderr).contains("warning:"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let (h, rows) = table(&long.join("sweep.csv"));
    let at = |name: &str| h.iter().position(|c| c == name).unwrap();
    let tau: f64 = rows[0][at("tau_int")].parse().unwrap();
    let err: f64 = rows[0][at("tau_int_se")].parse().unwrap();
    let f = "series/point-00001-repeat-001.csv.gz";
    let bytes = std::fs::read(long.join(f)).unwrap();
    let (head, series) = boids::sweep::series::read_series(f, &bytes).unwrap();
    let c = head.iter().position(|h| h == "va").unwrap();
    let x: Vec<f64> = series.iter().map(|r| r[c]).collect();
    let est = windowed_tau(&x);
    assert!(tau > 1.0, "near the transition φ is correlated: {tau}");
    assert!((tau - est).abs() < err, "{tau} ± {err} against {est}");
    // P(φ) of the run: the series's values counted in 50 bins of [0, 1], the densities
    // integrating to 1.
    let (h, rows) = table(&long.join("phi_histogram.csv"));
    let at = |name: &str| h.iter().position(|c| c == name).unwrap();
    assert_eq!(rows.len(), 50);
    let mut integral = 0.0;
    for r in &rows {
        let (lo, hi): (f64, f64) = (
            r[at("phi_lo")].parse().unwrap(),
            r[at("phi_hi")].parse().unwrap(),
        );
        let count: usize = r[at("count")].parse().unwrap();
        let inside = x
            .iter()
            .filter(|v| **v >= lo && (**v < hi || (hi == 1.0 && **v <= 1.0)))
            .count();
        assert_eq!(count, inside, "bin [{lo}, {hi})");
        integral += r[at("density")].parse::<f64>().unwrap() * (hi - lo);
    }
    assert!((integral - 1.0).abs() < 1e-9, "{integral}");
    let out = sweep("260", &root.path().join("short"));
    let e = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success());
    assert!(
        e.contains("warning: run 1: ") && e.contains("τ_int of φ") && e.contains("1 of the 1 runs"),
        "{e}"
    );
}

/// A setting of what is measured that would change nothing is refused, naming what it needs:
/// `--discard` with nothing measured, `--stats-every` without `--stats`, a `--stats-every` that
/// leaves no row after the discard, `--keep-world` without a scene; too few rows for the order
/// parameter's statistics is said, not left silent; a negative length is refused by name.
#[test]
fn measuring_settings_that_change_nothing_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let stats = dir.path().join("s.csv");
    let s = stats.to_str().unwrap();
    for (args, needle) in [
        (
            vec!["--steps", "5", "--discard", "2"],
            "--discard 2 with nothing measured",
        ),
        (
            vec!["--steps", "5", "--stats-every", "1"],
            "--stats <STATS>",
        ),
        (
            vec![
                "--steps",
                "5",
                "--discard",
                "4",
                "--stats",
                s,
                "--stats-every",
                "2",
            ],
            "writes no row to --stats",
        ),
        (vec!["--steps", "5", "--keep-world"], "--scene"),
    ] {
        let e = support::cmd::refused(&[&["headless", "--boids", "200"][..], &args].concat());
        assert!(e.contains(needle), "{args:?}: {e}");
        assert!(!stats.exists(), "{args:?}: nothing written");
    }
    // Lengths of the analyses take a negative number, to refuse it by name (not as an option).
    let g = dir.path().join("g.csv");
    let e = support::cmd::refused(&[
        "headless",
        "--boids",
        "200",
        "--steps",
        "2",
        "--analyse",
        &format!("rdf={}", g.display()),
        "--r-max",
        "-1",
    ]);
    assert!(e.contains("r_max = -1 cannot be honoured"), "{e}");
    // One row more and it runs: steps 6 and 8 of 9 after 4.
    ok(&[
        "headless",
        "--boids",
        "200",
        "--steps",
        "9",
        "--discard",
        "4",
        "--stats",
        s,
        "--stats-every",
        "2",
    ]);
    let out = ok(&[
        "headless",
        "--boids",
        "200",
        "--steps",
        "10",
        "--stats-every",
        "3",
        "--stats",
        s,
    ]);
    assert!(
        out.contains("order parameter: no statistics over 3 rows of --stats (they need 4 or more)"),
        "{out}"
    );
}
