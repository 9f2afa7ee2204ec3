//! `boids sweep` end to end on the CPU backend (bit-for-bit deterministic): shards merged equal
//! one run byte for byte; bad shard sets, plans and options are refused with clear messages;
//! Ctrl-C leaves a valid folder; and the batch-means standard error on known series.

use crate::support;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use support::cmd::{boids, ok, refused, text};

use boids::model::rng::uniform01;
use boids::stats::series_stats;

fn summary(dir: &Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(dir.join("summary.json")).unwrap()).unwrap()
}

fn p(dir: &Path) -> &str {
    dir.to_str().unwrap()
}

/// The index of the column `name` in a CSV's header.
fn column(csv: &str, name: &str) -> usize {
    csv.lines()
        .next()
        .unwrap()
        .split(',')
        .position(|c| c == name)
        .unwrap_or_else(|| panic!("no column {name} in {csv}"))
}

/// A 2-parameter plan with repeats: 4 × 2 points × 2 repeats = 16 runs, small enough to run in a
/// second.
const PLAN: [&str; 17] = [
    "sweep",
    "--backend",
    "cpu",
    "--param",
    "rotational_diffusion",
    "--values",
    "0:1.5:0.5",
    "--param2",
    "alignment_weight",
    "--values2",
    "0.6,2",
    "--boids",
    "300",
    "--steps",
    "60",
    "--discard",
    "20",
];

fn plan(extra: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = PLAN.iter().map(|s| s.to_string()).collect();
    v.extend(["--repeats", "2", "--seed", "5", "--quiet"].map(String::from));
    v.extend(extra.iter().map(|s| s.to_string()));
    v
}

fn run_plan(extra: &[&str]) -> Output {
    boids().args(plan(extra)).output().unwrap()
}

/// Runs the plan unsharded into `root/full` and as three shards into `root/s1..s3`.
fn full_and_shards(root: &Path) -> (PathBuf, [PathBuf; 3]) {
    let full = root.join("full");
    let o = run_plan(&["--out", p(&full), "--series"]);
    assert!(o.status.success(), "{}", text(&o));
    let shards = [1, 2, 3].map(|i| root.join(format!("s{i}")));
    for (i, d) in shards.iter().enumerate() {
        let shard = format!("{}/3", i + 1);
        let o = run_plan(&["--shard", &shard, "--out", p(d), "--series"]);
        assert!(o.status.success(), "{}", text(&o));
    }
    (full, shards)
}

#[test]
fn three_shards_merged_equal_one_run_byte_for_byte() {
    let root = tempfile::tempdir().unwrap();
    let (full, s) = full_and_shards(root.path());
    let merged = root.path().join("merged");
    ok(&["sweep", "merge", p(&merged), p(&s[2]), p(&s[0]), p(&s[1])]);
    let a = std::fs::read(full.join("sweep.csv")).unwrap();
    let b = std::fs::read(merged.join("sweep.csv")).unwrap();
    assert_eq!(
        String::from_utf8_lossy(&a),
        String::from_utf8_lossy(&b),
        "merged sweep.csv differs from the unsharded one"
    );
    // The table is not trivially equal: 16 rows with different seeds and polarizations.
    let t = String::from_utf8(a).unwrap();
    let rows: Vec<&str> = t.lines().skip(1).collect();
    assert_eq!(rows.len(), 16);
    let pol_at = column(&t, "polarization");
    let mut pol: Vec<&str> = rows
        .iter()
        .map(|r| r.split(',').nth(pol_at).unwrap())
        .collect();
    pol.sort_unstable();
    pol.dedup();
    assert!(pol.len() > 10, "polarizations barely differ: {pol:?}");
    // Each shard holds its own slice: run k (from 1) in shard ((k − 1) mod 3) + 1.
    for (i, d) in s.iter().enumerate() {
        let t = std::fs::read_to_string(d.join("sweep.csv")).unwrap();
        for r in t.lines().skip(1) {
            let k: usize = r.split(',').next().unwrap().parse().unwrap();
            assert_eq!((k - 1) % 3, i, "run {k} in shard {}", i + 1);
        }
        let sj = summary(d);
        assert_eq!(sj["shard"]["index"], i + 1);
        assert_eq!(sj["shard"]["count"], 3);
        assert_eq!(sj["fingerprint"], summary(&full)["fingerprint"]);
    }
    let (sf, sm) = (summary(&full), summary(&merged));
    for key in [
        "schema",
        "status",
        "shard",
        "plan",
        "fingerprint",
        "runs_total",
        "method",
    ] {
        assert_eq!(sf[key], sm[key], "summary field {key}");
    }
    assert_eq!(sm["status"], "complete");
    assert_eq!(sm["runs_done"], 16);
    assert_eq!(sm["merged_from"].as_array().unwrap().len(), 3);
    let runs = sm["runs"].as_array().unwrap();
    assert!(runs.iter().enumerate().all(|(k, r)| r["run"] == k + 1
        && r["point"] == k / 2 + 1
        && r["done"] == true
        && r["seconds"].is_number()));
    for f in sf["files"].as_array().unwrap() {
        let f = f.as_str().unwrap();
        assert!(merged.join(f).is_file(), "merged {f} missing");
    }
    // Every run's series, copied from its shard, as the unsharded run wrote it.
    let series: Vec<&str> = sf["files"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|f| f.as_str().filter(|f| f.starts_with("series/")))
        .collect();
    assert_eq!(series.len(), 16);
    for f in series {
        assert_eq!(
            std::fs::read(full.join(f)).unwrap(),
            std::fs::read(merged.join(f)).unwrap(),
            "{f}"
        );
    }
    // points.csv (the repeats combined) is recomputed by the merge, byte for byte.
    assert_eq!(
        std::fs::read_to_string(full.join("points.csv")).unwrap(),
        std::fs::read_to_string(merged.join("points.csv")).unwrap()
    );
    let svg = std::fs::read_to_string(merged.join("polarization.svg")).unwrap();
    assert!(
        svg.contains("Polarization φ against D_r")
            && svg.contains("D_r (rad²/s)")
            && svg.contains("w_a = 2")
            && svg.contains("N = 300")
            && svg.contains("ρ = 0.01 wu⁻²")
            && svg.contains("bars ±1 se across 2 repeats"),
        "{svg}"
    );
    let png = std::fs::read(merged.join("polarization.png")).unwrap();
    assert!(png.starts_with(b"\x89PNG"));
}

#[test]
fn missing_duplicated_foreign_and_unfinished_shards_are_refused() {
    let root = tempfile::tempdir().unwrap();
    let (_, s) = full_and_shards(root.path());
    let out = root.path().join("out");
    let e = refused(&["sweep", "merge", p(&out), p(&s[0]), p(&s[2])]);
    assert!(e.contains("shard 2/3 is missing"), "{e}");
    assert!(e.contains(p(&s[0])) && e.contains("--shard 2/3"), "{e}");
    let e = refused(&[
        "sweep",
        "merge",
        p(&out),
        p(&s[0]),
        p(&s[1]),
        p(&s[1]),
        p(&s[2]),
    ]);
    assert!(e.contains("shard 2/3 is given twice"), "{e}");
    // A shard of another plan (one more step) in place of shard 2.
    let other = root.path().join("other");
    let mut args = plan(&["--shard", "2/3", "--out", p(&other)]);
    let i = args.iter().position(|a| a == "60").unwrap();
    args[i] = "61".into();
    let o = boids().args(&args).output().unwrap();
    assert!(o.status.success(), "{}", text(&o));
    let e = refused(&["sweep", "merge", p(&out), p(&s[0]), p(&other), p(&s[2])]);
    assert!(
        e.contains("(shard 2/3) is from a different plan") && e.contains("steps 60 vs 61"),
        "{e}"
    );
    // Shards of another split.
    let four = root.path().join("four");
    let o = run_plan(&["--shard", "1/4", "--out", p(&four)]);
    assert!(o.status.success(), "{}", text(&o));
    let e = refused(&["sweep", "merge", p(&out), p(&s[0]), p(&s[1]), p(&four)]);
    assert!(e.contains("split the plan differently"), "{e}");
    // A shard whose status is not complete.
    let mut sj = summary(&s[1]);
    sj["status"] = "interrupted".into();
    std::fs::write(
        s[1].join("summary.json"),
        serde_json::to_vec_pretty(&sj).unwrap(),
    )
    .unwrap();
    let e = refused(&["sweep", "merge", p(&out), p(&s[0]), p(&s[1]), p(&s[2])]);
    assert!(
        e.contains(&format!("{} (shard 2/3) is interrupted", p(&s[1]))),
        "{e}"
    );
    // Not a sweep folder.
    let e = refused(&["sweep", "merge", p(&out), p(root.path())]);
    assert!(e.contains("cannot read summary.json"), "{e}");
    assert!(!out.exists(), "a refused merge made its output folder");
}

#[test]
fn a_csv_changed_after_the_run_is_refused() {
    let root = tempfile::tempdir().unwrap();
    let (_, s) = full_and_shards(root.path());
    let csv = s[0].join("sweep.csv");
    let t = std::fs::read_to_string(&csv).unwrap();
    let cut: Vec<&str> = t.lines().take(3).collect();
    std::fs::write(&csv, cut.join("\n") + "\n").unwrap();
    let out = root.path().join("out");
    let e = refused(&["sweep", "merge", p(&out), p(&s[0]), p(&s[1]), p(&s[2])]);
    assert!(e.contains("holds runs 1, 4 (2 runs)"), "{e}");
}

#[test]
fn ctrl_c_stops_after_the_current_run_with_a_valid_folder() {
    let root = tempfile::tempdir().unwrap();
    let out = root.path().join("int");
    support::cmd::interrupted_sweep(
        &[
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
            "--out",
            p(&out),
        ],
        &out,
    );
    let s = summary(&out);
    assert_eq!(s["status"], "interrupted");
    let done = s["runs_done"].as_u64().unwrap() as usize;
    assert!((1..31).contains(&done), "{done} runs done");
    let flags: Vec<bool> = s["runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["done"].as_bool().unwrap())
        .collect();
    assert_eq!(flags.len(), 31);
    assert!(flags[..done].iter().all(|d| *d) && flags[done..].iter().all(|d| !d));
    let csv = std::fs::read_to_string(out.join("sweep.csv")).unwrap();
    assert_eq!(csv.lines().count(), 1 + done, "one row per finished run");
    for f in s["files"].as_array().unwrap() {
        assert!(out.join(f.as_str().unwrap()).is_file(), "{f} missing");
    }
    // An interrupted folder is not merged.
    let e = refused(&["sweep", "merge", p(&root.path().join("m")), p(&out)]);
    assert!(e.contains("is interrupted"), "{e}");
}

#[test]
fn bad_options_are_clear_errors_before_anything_is_written() {
    let root = tempfile::tempdir().unwrap();
    let out = root.path().join("never");
    let base = |param: &str, values: &str| -> Vec<String> {
        [
            "sweep",
            "--param",
            param,
            "--values",
            values,
            "--boids",
            "100",
            "--steps",
            "40",
            "--discard",
            "10",
            "--out",
        ]
        .iter()
        .map(|s| s.to_string())
        .chain([p(&out).to_string()])
        .collect()
    };
    let cases: [(&str, &str, &str); 9] = [
        ("nosie", "1", "--param nosie: unknown parameter `nosie`"),
        (
            "rotational_diffusion",
            "0:400:200",
            "rotational_diffusion = 200 is out of range: allowed 0 ..= 100",
        ),
        ("rotational_diffusion", "0:1", "a range is start:stop:step"),
        ("rotational_diffusion", "0:1:0", "the step must not be 0"),
        ("rotational_diffusion", "1,x", "\"x\" is not a number"),
        (
            "boundary",
            "1",
            "--param boundary: \"1\" is not one of its values: wrap, walls, bounce",
        ),
        (
            "max_neighbors",
            "2.5",
            "--param max_neighbors: max_neighbors = 2.5: expected a whole number in 0 ..= 16",
        ),
        (
            "separation_radius",
            "30",
            "separation_radius = 30 is out of range",
        ),
        (
            "density",
            "1",
            "density = 1 is out of range at 100 boids: allowed",
        ),
    ];
    for (param, values, needle) in cases {
        let args = base(param, values);
        let args: Vec<&str> = args.iter().map(|s| s.as_str()).collect();
        let e = refused(&args);
        assert!(e.contains(needle), "--param {param} --values {values}: {e}");
        assert!(!out.exists(), "--param {param}: the output folder was made");
    }
    let e = refused(&[
        "sweep",
        "--param",
        "rotational_diffusion",
        "--values",
        "1",
        "--steps",
        "40",
        "--discard",
        "38",
    ]);
    assert!(e.contains("--discard 38 leaves 2 measured steps"), "{e}");
    let e = refused(&[
        "sweep",
        "--param",
        "rotational_diffusion",
        "--values",
        "0:1e9:1",
    ]);
    assert!(e.contains("more than 10000 values"), "{e}");
    let e = refused(&[
        "sweep",
        "--param",
        "rotational_diffusion",
        "--values",
        "1",
        "--shard",
        "4/3",
    ]);
    assert!(e.contains("--shard \"4/3\": I is out of range"), "{e}");
    // A logarithmic x axis asked for over values it cannot draw.
    for (param, values, needle) in [
        (
            "vicsek_eta",
            "0,1,2",
            "has the value 0, and a logarithmic axis takes values above 0",
        ),
        (
            "boundary",
            "wrap,walls",
            "takes names, which have no logarithmic axis",
        ),
    ] {
        let args = [base(param, values), vec!["--log".into(), "x".into()]].concat();
        let args: Vec<&str> = args.iter().map(|s| s.as_str()).collect();
        let e = refused(&args);
        assert!(e.contains(needle) && e.contains("--log x"), "{e}");
    }
    assert!(!out.exists(), "--log x: the output folder was made");
    // A non-empty folder is refused without --force.
    std::fs::create_dir_all(&out).unwrap();
    std::fs::write(out.join("keep.txt"), "x").unwrap();
    let args = base("rotational_diffusion", "1");
    let args: Vec<&str> = args.iter().map(|s| s.as_str()).collect();
    let e = refused(&args);
    assert!(
        e.contains("is not empty (holds keep.txt") && e.contains("--force"),
        "{e}"
    );
    assert_eq!(std::fs::read_dir(&out).unwrap().count(), 1);
}

#[test]
fn boids_and_density_axes_resize_the_world() {
    let root = tempfile::tempdir().unwrap();
    let out = root.path().join("n");
    ok(&[
        "sweep",
        "--param",
        "boids",
        "--values",
        "100,400",
        "--steps",
        "10",
        "--discard",
        "2",
        "--quiet",
        "--out",
        p(&out),
    ]);
    let csv = std::fs::read_to_string(out.join("sweep.csv")).unwrap();
    let cols = |line: &str| -> Vec<String> { line.split(',').map(String::from).collect() };
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(
        &cols(lines[0])[4..8],
        ["boids", "n_boids", "world_width_wu", "world_height_wu"]
    );
    // Default density 0.01 boids/wu²: sides 100 and 200 wu.
    assert_eq!(&cols(lines[1])[4..8], ["100", "100", "100", "100"]);
    assert_eq!(&cols(lines[2])[4..8], ["400", "400", "200", "200"]);
    let out = root.path().join("d");
    ok(&[
        "sweep",
        "--param",
        "density",
        "--values",
        "0.01,0.0025",
        "--boids",
        "400",
        "--steps",
        "10",
        "--discard",
        "2",
        "--quiet",
        "--out",
        p(&out),
    ]);
    let csv = std::fs::read_to_string(out.join("sweep.csv")).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(&cols(lines[1])[4..8], ["0.01", "400", "200", "200"]);
    assert_eq!(&cols(lines[2])[4..8], ["0.0025", "400", "400", "400"]);
    // A scene's predators and obstacles go with the world, placed as its sides are scaled.
    let scene_path = concat!(env!("CARGO_MANIFEST_DIR"), "/scenes/predators.toml");
    let inputs = boids::run::spec::Inputs::load(Some(Path::new(scene_path)), None).unwrap();
    let scene = inputs.scene.as_ref().unwrap();
    let density_axis = boids::sweep::plan::Axis::numeric("density", vec![0.02]);
    for d in [0.02, 0.0001] {
        let req = boids::sweep::engine::RunRequest {
            inputs: &inputs,
            backend: boids::backend::BackendKind::Cpu,
            boids: None,
            seed: None,
            sets: &[],
            keep_world: false,
            settings: vec![("density".into(), d)],
            axes: std::slice::from_ref(&density_axis),
            start: boids::sweep::plan::Start::Random,
            steps: 0,
            discard: 0,
            analyses: None,
            run_steps: 10,
            save: None,
        };
        let mut device = boids::run::driver::Device::new(None, false);
        let prepared = boids::sweep::engine::prepare(&req, &mut device).unwrap();
        let (p, actors) = (&prepared.spec.setup.params, &prepared.spec.setup.actors);
        let k = p.world_width / scene.params.world_width;
        assert!((p.world_height / scene.params.world_height - k).abs() < 1e-6);
        assert!(!scene.predators.is_empty());
        for (got, want) in actors.predators.iter().zip(&scene.predators) {
            for a in 0..2 {
                let w = want.position[a] * k;
                assert!(
                    (got.position[a] - w).abs() <= 1e-4 * w.abs().max(1.0),
                    "density {d}"
                );
            }
        }
        for (got, want) in actors.obstacles.iter().zip(&scene.obstacles) {
            assert!((got[0] - want[0] * k).abs() <= 1e-4 * (want[0] * k).abs().max(1.0));
        }
    }
    // The same through the command: a denser, smaller world than the scene's (whose predators
    // would lie outside it) runs.
    let scene = concat!(env!("CARGO_MANIFEST_DIR"), "/scenes/predators.toml");
    let out = root.path().join("pd");
    ok(&[
        "sweep",
        "--scene",
        scene,
        "--param",
        "density",
        "--values",
        "0.02,0.0001",
        "--steps",
        "5",
        "--discard",
        "1",
        "--quiet",
        "--out",
        p(&out),
    ]);
    assert_eq!(
        std::fs::read_to_string(out.join("sweep.csv"))
            .unwrap()
            .lines()
            .count(),
        3
    );
}

#[test]
fn gpu_sweep_writes_rows_and_the_adapter() {
    if support::gpu().is_none() {
        return;
    }
    let root = tempfile::tempdir().unwrap();
    let out = root.path().join("g");
    ok(&[
        "sweep",
        "--backend",
        "gpu",
        "--param",
        "rotational_diffusion",
        "--values",
        "0,30",
        "--boids",
        "500",
        "--steps",
        "30",
        "--discard",
        "10",
        "--quiet",
        "--out",
        p(&out),
    ]);
    let s = summary(&out);
    assert_eq!(s["status"], "complete");
    assert!(s["adapter"]["name"].is_string(), "{}", s["adapter"]);
    let csv = std::fs::read_to_string(out.join("sweep.csv")).unwrap();
    // A second run on the same adapter and driver writes the same bytes (what `sweep --help`
    // promises for gpu).
    let again = root.path().join("g2");
    let args: Vec<&str> = [
        "sweep",
        "--backend",
        "gpu",
        "--param",
        "rotational_diffusion",
        "--values",
        "0,30",
        "--boids",
        "500",
        "--steps",
        "30",
        "--discard",
        "10",
        "--quiet",
        "--out",
    ]
    .into_iter()
    .chain([p(&again)])
    .collect();
    ok(&args);
    assert_eq!(
        std::fs::read_to_string(again.join("sweep.csv")).unwrap(),
        csv
    );
    let pol_at = column(&csv, "polarization");
    let pol: Vec<f64> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(pol_at).unwrap().parse().unwrap())
        .collect();
    // The noiseless flock aligns more than the very noisy one.
    assert!(pol.len() == 2 && pol[0] > pol[1], "{pol:?}");
}

/// Series of length n from seed `s`: i.i.d. uniform in [0, 1).
fn iid(seed: u32, n: usize) -> Vec<f64> {
    (0..n as u32)
        .map(|i| f64::from(uniform01(seed, i, 0, 0)))
        .collect()
}

/// AR(1) series x_t = φ x_{t−1} + e_t with uniform noise: integrated autocorrelation time
/// (1 + φ) / (1 − φ), so the true standard error of the mean is √((1 + φ)/(1 − φ)) times the
/// naive sd/√n (for n much larger than that time).
fn ar1(seed: u32, n: usize, phi: f64) -> Vec<f64> {
    let mut x = 0.0;
    iid(seed, n)
        .into_iter()
        .map(|u| {
            x = phi * x + (u - 0.5);
            x
        })
        .collect()
}

#[test]
fn batch_means_error_matches_iid_and_grows_with_correlation() {
    let n = 20_000;
    let naive = |xs: &[f64]| series_stats(xs).sd / (xs.len() as f64).sqrt();
    // i.i.d.: se ≈ sd/√n. One estimate has 19 degrees of freedom (±16 %), so the mean ratio of
    // 40 independent series has a spread of ±2.6 %: allow three of those.
    let ratios: Vec<f64> = (0..40)
        .map(|s| {
            let x = iid(100 + s, n);
            series_stats(&x).se / naive(&x)
        })
        .collect();
    let mean_ratio = ratios.iter().sum::<f64>() / ratios.len() as f64;
    assert!(
        (mean_ratio - 1.0).abs() < 0.08,
        "i.i.d. se / naive = {mean_ratio}"
    );
    let x = iid(7, n);
    let s = series_stats(&x);
    assert!(
        (s.mean - 0.5).abs() < 4.0 * s.se,
        "mean {} ± {}",
        s.mean,
        s.se
    );
    assert!((s.sd - (1.0f64 / 12.0).sqrt()).abs() < 0.01, "sd {}", s.sd);
    // Strongly correlated (φ = 0.9, autocorrelation time 19 steps, batches of 1000): the
    // batch-means error is about √19 ≈ 4.36 times the naive one.
    let phi: f64 = 0.9;
    let expected = ((1.0 + phi) / (1.0 - phi)).sqrt();
    let ratios: Vec<f64> = (0..40)
        .map(|s| {
            let x = ar1(500 + s, n, phi);
            series_stats(&x).se / naive(&x)
        })
        .collect();
    let mean_ratio = ratios.iter().sum::<f64>() / ratios.len() as f64;
    assert!(ratios.iter().all(|r| *r > 2.0), "{ratios:?}");
    assert!(
        (mean_ratio / expected - 1.0).abs() < 0.12,
        "correlated: se / naive = {mean_ratio}, expected {expected}"
    );
}

/// Runs, points and repeats are counted from 1, as shards are (`--shard I/N`), in the progress
/// lines, `sweep.csv` and `summary.json` alike; a point is a combination of values (docs/sweeps.md),
/// so the repeats of one point share its number and grouping rows by `point` gives its repeats;
/// shard I of N holds the runs k with (k − 1) mod N = I − 1.
#[test]
fn points_repeats_and_shards_count_from_one() {
    let root = tempfile::tempdir().unwrap();
    let args = |out: &Path, shard: Option<&str>| -> Vec<String> {
        let mut v: Vec<String> = [
            "sweep",
            "--backend",
            "cpu",
            "--param",
            "max_speed",
            "--values",
            "90,100",
            "--boids",
            "50",
            "--steps",
            "20",
            "--discard",
            "0",
            "--repeats",
            "2",
            "--out",
        ]
        .map(String::from)
        .to_vec();
        v.push(p(out).to_string());
        if let Some(s) = shard {
            v.extend(["--shard".to_string(), s.to_string()]);
        }
        v
    };
    let full = root.path().join("full");
    let o = boids().args(args(&full, None)).output().unwrap();
    assert!(o.status.success(), "{}", text(&o));
    let csv = std::fs::read_to_string(full.join("sweep.csv")).unwrap();
    assert!(csv.starts_with("run,point,repeat,seed,max_speed,"), "{csv}");
    let cols: Vec<(u64, u64, u64)> = csv
        .lines()
        .skip(1)
        .map(|l| {
            let c: Vec<&str> = l.split(',').collect();
            (
                c[0].parse().unwrap(),
                c[1].parse().unwrap(),
                c[2].parse().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        cols,
        [(1, 1, 1), (2, 1, 2), (3, 2, 1), (4, 2, 2)],
        "run, point, repeat:\n{csv}"
    );
    let s = summary(&full);
    assert_eq!(s["schema"], "boids-sweep/2");
    let runs: Vec<(u64, u64, u64)> = s["runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|q| {
            let n = |k: &str| q[k].as_u64().unwrap();
            (n("run"), n("point"), n("repeat"))
        })
        .collect();
    assert_eq!(runs, cols, "summary runs");
    assert_eq!(
        (s["runs_total"].as_u64(), s["runs_done"].as_u64()),
        (Some(4), Some(4))
    );
    assert!(
        s["method"]["runs"].as_str().unwrap().contains("from 1"),
        "{}",
        s["method"]
    );
    // points.csv: one row per point, numbered as sweep.csv's point column.
    let pts = std::fs::read_to_string(full.join("points.csv")).unwrap();
    let firsts: Vec<&str> = pts.lines().map(|l| l.split(',').next().unwrap()).collect();
    assert_eq!(firsts, ["point", "1", "2"], "{pts}");
    // The progress lines: one per run, numbered as in the files.
    let err = String::from_utf8_lossy(&o.stderr);
    let lines: Vec<&str> = err.lines().filter(|l| l.starts_with("run")).collect();
    assert_eq!(lines.len(), 4, "{err}");
    for (l, (k, pt, r)) in lines.iter().zip(&cols) {
        let words: Vec<&str> = l.split_whitespace().collect();
        assert_eq!(words[1], k.to_string(), "{l}");
        assert!(l.contains(&format!("(point {pt}: ")), "{l}");
        assert!(l.contains(&format!("repeat {r} of 2)")), "{l}");
    }
    // Shard 2/2 holds runs 2 and 4.
    let shard = root.path().join("s2");
    let o = boids().args(args(&shard, Some("2/2"))).output().unwrap();
    assert!(o.status.success(), "{}", text(&o));
    let csv = std::fs::read_to_string(shard.join("sweep.csv")).unwrap();
    let points: Vec<&str> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').next().unwrap())
        .collect();
    assert_eq!(points, ["2", "4"], "{csv}");
    assert!(
        summary(&shard)["method"]["shards"]
            .as_str()
            .unwrap()
            .contains("(k - 1) mod N = I - 1"),
        "{}",
        summary(&shard)["method"]
    );
    // And `--help` says the same.
    let help = boids().args(["sweep", "--help"]).output().unwrap();
    let help = String::from_utf8_lossy(&help.stdout)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        help.contains("(k - 1) mod N = I - 1") && !help.contains(" k mod N = I - 1"),
        "{help}"
    );
}

/// `examples/parallel/sweep.sh` works from the caller's folder: a relative `--scene` is the
/// caller's file, and the shards and the merged sweep land in the caller's `sweeps/`, not the
/// repository's.
#[test]
fn the_parallel_script_works_from_the_callers_folder() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let listing = |d: &Path| -> Vec<String> {
        std::fs::read_dir(d)
            .map(|it| {
                it.map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                    .collect()
            })
            .unwrap_or_default()
    };
    let repo_sweeps = listing(&repo.join("sweeps"));
    let caller = tempfile::tempdir().unwrap();
    std::fs::write(caller.path().join("mine.toml"), "boids = 60\n").unwrap();
    let o = Command::new("bash")
        .arg(repo.join("examples/parallel/sweep.sh"))
        .args([
            "2",
            "--",
            "--scene",
            "mine.toml",
            "--param",
            "max_speed",
            "--values",
        ])
        .args([
            "90,100,110",
            "--steps",
            "20",
            "--discard",
            "0",
            "--backend",
            "cpu",
        ])
        .current_dir(caller.path())
        .env("BOIDS", env!("CARGO_BIN_EXE_boids"))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o));
    let roots = listing(&caller.path().join("sweeps"));
    assert_eq!(roots.len(), 1, "{roots:?}\n{}", text(&o));
    let merged = caller.path().join("sweeps").join(&roots[0]).join("merged");
    let csv = std::fs::read_to_string(merged.join("sweep.csv")).unwrap();
    let rows: Vec<&str> = csv.lines().skip(1).collect();
    assert_eq!(rows.len(), 3, "{csv}");
    // n_boids (column 6) is the caller's scene's 60, not the default count.
    assert!(
        rows.iter().all(|r| r.split(',').nth(5) == Some("60")),
        "{csv}"
    );
    assert_eq!(
        listing(&repo.join("sweeps")),
        repo_sweeps,
        "the repository's sweeps/ changed"
    );
}

#[test]
fn a_sweep_of_the_topological_k_set_with_set() {
    // `--set neighborhood=topological` and a `--param topological_k` axis: every boid has exactly
    // k neighbours, so the mean neighbour count of each point is its k, with no spread.
    let root = tempfile::tempdir().unwrap();
    let out = root.path().join("k");
    let args = [
        "sweep",
        "--set",
        "neighborhood=topological",
        "--param",
        "topological_k",
        "--values",
        "3,7,15",
        "--boids",
        "300",
        "--steps",
        "10",
        "--discard",
        "2",
        "--quiet",
        "--out",
        p(&out),
    ];
    ok(&args);
    let csv = std::fs::read_to_string(out.join("sweep.csv")).unwrap();
    let lines: Vec<Vec<&str>> = csv.lines().map(|l| l.split(',').collect()).collect();
    let col = |name: &str| lines[0].iter().position(|c| *c == name).unwrap();
    let (k, mean, sd) = (
        col("topological_k"),
        col("mean_neighbors"),
        col("mean_neighbors_sd"),
    );
    assert_eq!(lines.len(), 4, "{csv}");
    for (row, want) in lines[1..].iter().zip(["3", "7", "15"]) {
        assert_eq!((row[k], row[mean], row[sd]), (want, want, "0"), "{csv}");
    }
    // The same sweep in the metric neighbourhood would change nothing: refused, naming it.
    let mut metric = vec!["sweep"];
    metric.extend_from_slice(&args[3..]);
    let e = refused(&metric);
    assert!(
        e.contains("topological_k") && e.contains("neighborhood = metric"),
        "{e}"
    );
    // And the metric neighbourhood's radii are refused in the topological one.
    let e = refused(&[
        "sweep",
        "--set",
        "neighborhood=topological",
        "--param",
        "alignment_radius",
        "--values",
        "5,10",
        "--boids",
        "300",
        "--steps",
        "10",
        "--discard",
        "2",
        "--quiet",
        "--out",
        p(&root.path().join("r")),
    ]);
    assert!(
        e.contains("alignment_radius") && e.contains("topological"),
        "{e}"
    );
}

#[test]
fn a_boids_axis_on_a_fixed_world_keeps_the_scenes_density_and_series_hold_every_step() {
    let root = tempfile::tempdir().unwrap();
    let scene = concat!(env!("CARGO_MANIFEST_DIR"), "/scenes/vicsek.toml");
    let sweep = |out: &Path, extra: &[&str]| {
        let mut args = vec![
            "sweep",
            "--scene",
            scene,
            "--param",
            "boids",
            "--values",
            "100,400",
            "--steps",
            "120",
            "--discard",
            "20",
            "--quiet",
            "--out",
        ];
        args.push(p(out));
        args.extend_from_slice(extra);
        ok(&args);
        std::fs::read_to_string(out.join("sweep.csv")).unwrap()
    };
    let value = |csv: &str, row: usize, name: &str| -> f64 {
        let at = column(csv, name);
        csv.lines()
            .nth(row)
            .unwrap()
            .split(',')
            .nth(at)
            .unwrap()
            .parse()
            .unwrap()
    };
    // The scene's density (4000 in 31.62², ρ = 4) at both counts: sides 5 and 10.
    let kept = root.path().join("kept");
    let csv = sweep(&kept, &["--series"]);
    for (row, n, side) in [(1, 100.0, 5.0), (2, 400.0, 10.0)] {
        assert_eq!(value(&csv, row, "n_boids"), n);
        assert!(
            (value(&csv, row, "world_width_wu") - side).abs() < 1e-4,
            "{csv}"
        );
        assert!((value(&csv, row, "density") - 4.0).abs() < 1e-4, "{csv}");
    }
    // --keep-world: the scene's box, so the density is N / 1000.
    let csv2 = sweep(&root.path().join("world"), &["--keep-world"]);
    assert!((value(&csv2, 1, "density") - 0.1).abs() < 1e-4, "{csv2}");
    assert!((value(&csv2, 2, "density") - 0.4).abs() < 1e-4, "{csv2}");
    assert_eq!(
        summary(&root.path().join("world"))["plan"]["keep_world"],
        true
    );
    // The series: one file per run, a row per measured step (steps 21 ..= 120), whose mean is
    // the sweep's average to f32 precision.
    let sj = summary(&kept);
    // The summary gives each run's N, world and density too.
    let pt = &sj["runs"][1];
    assert_eq!(pt["boids"], 400);
    assert!(
        (pt["world_wu"][0].as_f64().unwrap() - 10.0).abs() < 1e-4,
        "{pt}"
    );
    assert!((pt["density"].as_f64().unwrap() - 4.0).abs() < 1e-4, "{pt}");
    let files: Vec<&str> = sj["files"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|f| f.as_str())
        .filter(|f| f.starts_with("series/"))
        .collect();
    assert_eq!(
        files,
        [
            "series/point-00001-repeat-001.csv.gz",
            "series/point-00002-repeat-001.csv.gz"
        ]
    );
    for (k, f) in files.iter().enumerate() {
        let bytes = std::fs::read(kept.join(f)).unwrap();
        let (header, rows) = boids::sweep::series::read_series(f, &bytes).unwrap();
        assert_eq!(rows.len(), 100);
        assert_eq!((rows[0][0], rows[99][0]), (21.0, 120.0));
        let at = header.iter().position(|h| h == "va").unwrap();
        let mean = rows.iter().map(|r| r[at]).sum::<f64>() / rows.len() as f64;
        let want = value(&csv, k + 1, "va");
        assert!((mean - want).abs() < 1e-6, "{f}: mean {mean} vs {want}");
        // The documented size: about 50 bytes per measured step (f64 values).
        assert!(bytes.len() < 70 * rows.len(), "{f}: {} bytes", bytes.len());
    }
    // Without --series there is no series folder.
    assert!(!root.path().join("world/series").exists());
}

/// The topological neighbourhood's density sweep is not bounded by the perception radius it does
/// not use: 400 boids at ρ = 1 (a world 20 wu across, a third of 3 perception radii) run, and
/// the world columns give that density; the metric neighbourhood still refuses it, naming its
/// radius. No `density` column is written twice when density is swept.
#[test]
fn a_topological_density_sweep_reaches_high_densities() {
    let root = tempfile::tempdir().unwrap();
    let out = root.path().join("topo");
    let args = |out: &Path, hood: &str| -> Vec<String> {
        [
            "sweep",
            "--backend",
            "cpu",
            "--param",
            "density",
            "--values",
            "0.1,1",
            "--boids",
            "400",
            "--steps",
            "30",
            "--discard",
            "10",
            "--set",
        ]
        .iter()
        .map(|s| s.to_string())
        .chain([
            format!("neighborhood={hood}"),
            "--out".into(),
            p(out).into(),
        ])
        .collect()
    };
    let a = args(&out, "topological");
    ok(&a.iter().map(String::as_str).collect::<Vec<_>>());
    let csv = std::fs::read_to_string(out.join("sweep.csv")).unwrap();
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    assert_eq!(
        header.iter().filter(|c| **c == "density").count(),
        1,
        "{csv}"
    );
    let pts = std::fs::read_to_string(out.join("points.csv")).unwrap();
    let ph: Vec<&str> = pts.lines().next().unwrap().split(',').collect();
    assert_eq!(ph.iter().filter(|c| **c == "density").count(), 1, "{pts}");
    let (w, h) = (
        column(&csv, "world_width_wu"),
        column(&csv, "world_height_wu"),
    );
    let row: Vec<&str> = csv.lines().nth(2).unwrap().split(',').collect();
    let (w, h): (f64, f64) = (row[w].parse().unwrap(), row[h].parse().unwrap());
    assert!(
        (400.0 / (w * h) - 1.0).abs() < 1e-3,
        "ρ = {}",
        400.0 / (w * h)
    );
    let m = args(&root.path().join("metric"), "metric");
    let e = refused(&m.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(
        e.contains("density = 1 is out of range") && e.contains("3 perception radii"),
        "{e}"
    );
}

/// A setting the sweep would silently override is refused: a `--set` of the swept parameter,
/// `--boids` with `--param boids`, a value given twice.
#[test]
fn settings_a_sweep_would_override_are_refused() {
    let base = [
        "sweep",
        "--backend",
        "cpu",
        "--steps",
        "20",
        "--discard",
        "0",
    ];
    let with = |extra: &[&str]| -> Vec<String> {
        base.iter().chain(extra).map(|s| s.to_string()).collect()
    };
    for (extra, want) in [
        (
            &[
                "--param",
                "max_speed",
                "--values",
                "90,100",
                "--set",
                "max_speed=50",
            ][..],
            "--set max_speed=50 sets the swept parameter max_speed",
        ),
        (
            &["--param", "boids", "--values", "50,100", "--boids", "70"][..],
            "--boids 70 with --param boids",
        ),
        (
            &["--param", "max_speed", "--values", "90,100,90"][..],
            "90 is given twice",
        ),
    ] {
        let a = with(extra);
        let e = refused(&a.iter().map(String::as_str).collect::<Vec<_>>());
        assert!(e.contains(want), "{extra:?}: {e}");
    }
}

/// A Vicsek sweep's plots say which sweep they are: the kind of noise, η when not swept, v₀ and
/// the neighbourhood with its radius; η of vectorial noise has no unit on its axis.
#[test]
fn plot_subtitles_name_the_settings_that_tell_sweeps_apart() {
    let root = tempfile::tempdir().unwrap();
    let scene = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/vicsek_vectorial.toml");
    let out = root.path().join("v");
    ok(&[
        "sweep",
        "--backend",
        "cpu",
        "--scene",
        p(&scene),
        "--param",
        "vicsek_eta",
        "--values",
        "0.2,0.6",
        "--boids",
        "100",
        "--steps",
        "30",
        "--discard",
        "10",
        "--out",
        p(&out),
    ]);
    let svg = std::fs::read_to_string(out.join("va.svg")).unwrap();
    let texts: Vec<String> = support::capture::svg_texts(&svg)
        .into_iter()
        .map(|t| t.content)
        .collect();
    let all = texts.join("\n");
    for want in [
        "vectorial noise",
        "v₀ = 0.5 wu per step",
        "metric, r = 1 wu",
    ] {
        assert!(all.contains(want), "no {want:?} in {texts:?}");
    }
    assert!(
        !all.contains("η = "),
        "η is swept, not a setting: {texts:?}"
    );
    assert!(texts.iter().any(|t| t == "η"), "the axis: {texts:?}");
    assert!(!all.contains("η (rad)"), "{texts:?}");
}

/// A sweep of vectorial η over a scene whose own η (2, angular noise's) is outside vectorial
/// noise's range runs: the swept values replace it, so it is not checked alone.
#[test]
fn a_vectorial_eta_sweep_over_an_angular_scene_runs() {
    let root = tempfile::tempdir().unwrap();
    let scene = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/vicsek.toml");
    let out = root.path().join("v");
    ok(&[
        "sweep",
        "--backend",
        "cpu",
        "--scene",
        p(&scene),
        "--boids",
        "100",
        "--param",
        "vicsek_eta",
        "--values",
        "0.3,0.6",
        "--set",
        "vicsek_noise=vectorial",
        "--steps",
        "30",
        "--discard",
        "10",
        "--out",
        p(&out),
    ]);
    let csv = std::fs::read_to_string(out.join("sweep.csv")).unwrap();
    assert_eq!(csv.lines().count(), 3, "{csv}");
    // A swept value out of vectorial noise's range is still refused, naming it.
    let e = refused(&[
        "sweep",
        "--backend",
        "cpu",
        "--scene",
        p(&scene),
        "--boids",
        "100",
        "--param",
        "vicsek_eta",
        "--values",
        "0.3,2",
        "--set",
        "vicsek_noise=vectorial",
        "--steps",
        "30",
        "--discard",
        "10",
        "--out",
        p(&root.path().join("w")),
    ]);
    assert!(e.contains("vicsek_eta") && e.contains("0 ..= 1"), "{e}");
}

/// A categorical parameter (the kind of noise, the neighbourhood) is swept by its values' names:
/// the files write the names, each run is the headless run of its seed with that `--set`, shards
/// merge byte for byte (the names read back), and a name that is not one of the parameter's, one
/// given twice, or `model` are refused naming the allowed values.
#[test]
fn categorical_parameters_are_swept_by_name() {
    let root = tempfile::tempdir().unwrap();
    let scene = concat!(env!("CARGO_MANIFEST_DIR"), "/scenes/vicsek.toml");
    let args = |out: &Path, extra: &[&str]| -> Vec<String> {
        let mut v: Vec<String> = [
            "sweep",
            "--scene",
            scene,
            "--param",
            "vicsek_eta",
            "--values",
            "0.5,0.9",
            "--param2",
            "vicsek_noise",
            "--values2",
            "vectorial,angular",
            "--boids",
            "200",
            "--steps",
            "200",
            "--discard",
            "50",
            "--quiet",
            "--out",
            p(out),
        ]
        .map(String::from)
        .to_vec();
        v.extend(extra.iter().map(|s| s.to_string()));
        v
    };
    let full = root.path().join("full");
    let a: Vec<String> = args(&full, &[]);
    ok(&a.iter().map(String::as_str).collect::<Vec<_>>());
    let csv = std::fs::read_to_string(full.join("sweep.csv")).unwrap();
    let noise = column(&csv, "vicsek_noise");
    let rows: Vec<Vec<&str>> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect())
        .collect();
    let names: Vec<&str> = rows.iter().map(|r| r[noise]).collect();
    assert_eq!(names, ["vectorial", "angular", "vectorial", "angular"]);
    let points = std::fs::read_to_string(full.join("points.csv")).unwrap();
    assert!(points.contains(",0.9,angular,"), "{points}");
    // Run 2 (η = 0.5, angular) is the headless run of its seed with --set vicsek_noise=angular.
    let (seed, va) = (column(&csv, "seed"), column(&csv, "va"));
    let stats = root.path().join("h.csv");
    ok(&[
        "headless",
        "--scene",
        scene,
        "--boids",
        "200",
        "--steps",
        "200",
        "--discard",
        "50",
        "--seed",
        rows[1][seed],
        "--set",
        "vicsek_eta=0.5",
        "--set",
        "vicsek_noise=angular",
        "--stats",
        p(&stats),
    ]);
    let h = std::fs::read_to_string(&stats).unwrap();
    let c = column(&h, "va");
    let vals: Vec<f64> = h
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(c).unwrap().parse().unwrap())
        .collect();
    let mean = vals.iter().sum::<f64>() / vals.len() as f64;
    let want: f64 = rows[1][va].parse().unwrap();
    assert!((mean - want).abs() < 1e-12, "{mean} against {want}");
    // Two shards merged: the same files, the names read back from the shards' tables.
    for i in 1..=2 {
        let d = root.path().join(format!("s{i}"));
        let shard = format!("{i}/2");
        let a = args(&d, &["--shard", &shard]);
        ok(&a.iter().map(String::as_str).collect::<Vec<_>>());
    }
    let merged = root.path().join("merged");
    ok(&[
        "sweep",
        "merge",
        p(&merged),
        p(&root.path().join("s1")),
        p(&root.path().join("s2")),
    ]);
    for f in ["sweep.csv", "points.csv", "phi_histogram.csv"] {
        assert_eq!(
            std::fs::read(merged.join(f)).unwrap(),
            std::fs::read(full.join(f)).unwrap(),
            "{f}"
        );
    }
    for (values, says) in [
        (
            "vectorial,chaotic",
            "\"chaotic\" is not one of its values: angular, vectorial",
        ),
        ("angular,angular", "angular is given twice"),
    ] {
        let mut a = args(&root.path().join("bad"), &[]);
        a[10] = values.to_string();
        let e = refused(&a.iter().map(String::as_str).collect::<Vec<_>>());
        assert!(
            e.contains("--param vicsek_noise") && e.contains(says),
            "{e}"
        );
    }
    let mut a = args(&root.path().join("bad"), &[]);
    a[8] = "model".into();
    a[10] = "vicsek,boids".into();
    let e = refused(&a.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(e.contains("--param model: a sweep runs one model"), "{e}");
    assert!(!root.path().join("bad").exists());
}
