//! A tiny sweep (500 and 2000 boids × gpu, cpu × 20 steps) and every file of its capture:
//! CSV columns and rows, summary fields and statistics against the CSV, trace events, SVG
//! structure (one line per backend in its colour, legend, axis titles, tick and point labels), the
//! PNG, reading the summary back and `--compare`.

use crate::support;
use boids::run::steps::Stop;

use boids::backend::BackendKind;
use boids::bench::compare::{compare_table, load_summary, scaling_table};
use boids::bench::sweep::{run_sweep, BenchConfig, SweepEvent};
use boids::capture::plot::{backend_color, backend_color_hex};
use boids::capture::recorder::{csv_header, FILES, TRACE_FRAMES_PER_RUN};
use boids::plot::PLOT_SIZE;
use boids::stats::format::format_ms;
use support::capture::*;

const STEPS: u32 = 20;
const WARMUP: u32 = 2;
const COUNTS: [usize; 2] = [500, 2000];

#[test]
fn tiny_sweep_writes_a_complete_capture() {
    let Some(ctx) = support::gpu() else { return };
    let tmp = fresh_dir("tiny");
    let dir = tmp.path();
    let mut cfg = BenchConfig::new(dir.to_path_buf());
    cfg.backends = vec![BackendKind::Gpu, BackendKind::Cpu];
    cfg.boids = COUNTS.to_vec();
    cfg.steps = STEPS;
    cfg.warmup = WARMUP;
    let (mut measured, mut started, mut planned) = (0, 0, 0);
    let outcome = run_sweep(&cfg, Some(&ctx), &Stop::default(), &mut |ev| match ev {
        SweepEvent::Planned {
            runs,
            steps: total_steps,
        } => {
            planned = runs.len();
            assert_eq!(total_steps, 4 * u64::from(STEPS + WARMUP));
        }
        SweepEvent::Started(_) => started += 1,
        SweepEvent::Step { warmup: false, .. } => measured += 1,
        SweepEvent::Skipped { run, reason } => panic!("unexpected skip: {run:?}: {reason}"),
        _ => {}
    })
    .expect("sweep");
    assert_eq!((planned, started, measured), (4, 4, 4 * STEPS));
    for f in FILES {
        assert!(dir.join(f).is_file(), "{f} missing");
    }
    assert_eq!(outcome.files.len(), FILES.len());
    let timestamps = ctx.has_timestamps();

    // frames.csv: the columns, one row per measured step, steps counted on after the warm-up.
    let (header, rows) = read_csv(&dir.join("frames.csv"));
    let expected = csv_header();
    assert_eq!(header, expected);
    assert_eq!(rows.len(), 2 * 2 * STEPS as usize);
    let by_run = wall_by_run(&rows);
    assert_eq!(by_run.len(), 4);
    for (key, wall) in &by_run {
        assert_eq!(wall.len(), STEPS as usize, "{key:?}");
        assert!(wall.iter().all(|w| *w > 0.0), "{key:?}: {wall:?}");
    }
    for r in &rows {
        let filled = |col: &str| !r[expected.iter().position(|c| *c == col).unwrap()].is_empty();
        let passes = [
            "clear_ms",
            "count_ms",
            "scan_ms",
            "scatter_ms",
            "rules_ms",
            "measures_ms",
        ];
        let want = r[0] == "cpu" || timestamps;
        for p in passes {
            assert_eq!(filled(p), want, "{p} in {r:?}");
        }
        assert!(!filled("render_ms"), "no --render, yet render_ms in {r:?}");
        let step: u32 = r[2].parse().unwrap();
        assert!((WARMUP + 1..=WARMUP + STEPS).contains(&step), "step {step}");
    }

    // summary.json, read as plain JSON: identity fields, parameters, statistics = CSV's.
    let text = std::fs::read_to_string(dir.join("summary.json")).unwrap();
    let s: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(s["schema"], "boids-bench-capture/1");
    assert_eq!(s["status"], "complete");
    assert_eq!(s["present_mode"], "offscreen");
    assert_eq!(
        s["gpu_timing"],
        if timestamps {
            "timestamp-queries"
        } else {
            "cpu-side-only"
        }
    );
    assert_eq!(s["tool"]["version"], env!("CARGO_PKG_VERSION"));
    assert!(s["tool"].get("git_commit").is_some());
    for k in ["os", "cpu_model", "arch", "logical_cpus"] {
        assert!(s["system"].get(k).is_some(), "system.{k}");
    }
    assert_eq!(s["adapter"]["name"], ctx.info.name.as_str());
    for k in ["backend", "device_type", "driver", "driver_info"] {
        assert!(s["adapter"][k].is_string(), "adapter.{k}");
    }
    let p = &s["parameters"];
    assert_eq!(p["steps"], STEPS);
    assert_eq!(p["warmup"], WARMUP);
    assert_eq!(p["seed"], 1);
    assert_eq!(p["boids"], serde_json::json!(COUNTS));
    assert_eq!(p["backends"], serde_json::json!(["gpu", "cpu"]));
    assert_eq!(s["skipped"], serde_json::json!([]));
    let runs = s["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 4);
    for run in runs {
        let key = (
            run["backend"].as_str().unwrap().to_string(),
            run["boids"].as_u64().unwrap() as usize,
        );
        assert_run_matches(run, &by_run[&key]);
        assert_eq!(run["complete"], true);
        assert!(run["params"]["world_width"].as_f64().unwrap() > 0.0);
        assert!(run["final_measures"]["polarization"].is_number());
        let stage_keys: Vec<&str> = run["stage_median_ms"]
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        if key.0 == "cpu" || timestamps {
            // Every stage of the stage table (the summary's keys are sorted).
            let mut all: Vec<&str> = boids::stages::STAGES.iter().map(|s| s.name).collect();
            all.sort_unstable();
            assert_eq!(stage_keys, all);
            assert!(stage_keys.contains(&"rules") && stage_keys.contains(&"measures"));
        } else {
            assert!(stage_keys.is_empty());
        }
    }

    // trace.json: one process per GPU run, the passes of the last few frames.
    let trace: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("trace.json")).unwrap()).unwrap();
    let events = trace["traceEvents"].as_array().unwrap();
    if timestamps {
        let names: Vec<&str> = events
            .iter()
            .filter(|e| e["ph"] == "M")
            .map(|e| e["args"]["name"].as_str().unwrap())
            .collect();
        assert_eq!(names, ["gpu · 500 boids", "gpu · 2000 boids"]);
        for pid in [1, 2] {
            for pass in ["clear", "count", "scan", "scatter", "rules", "measures"] {
                let n = events
                    .iter()
                    .filter(|e| e["ph"] == "X" && e["pid"] == pid && e["name"] == pass)
                    .inspect(|e| assert!(e["dur"].as_f64().unwrap() >= 0.0))
                    .count();
                assert_eq!(n, TRACE_FRAMES_PER_RUN, "{pass} events of run {pid}");
            }
        }
    } else {
        assert!(events.iter().all(|e| e["ph"] == "M"));
    }

    // scaling.svg: well formed; exactly one line per backend in its colour with one point per
    // count; a legend swatch and entry per backend; the axis titles; time ticks that are distinct
    // positive times; one label per point, in the backend's colour, saying the run's median.
    let svg = std::fs::read_to_string(dir.join("scaling.svg")).unwrap();
    assert_xml_well_formed(&svg);
    let lines = polylines(&svg);
    let texts = svg_texts(&svg);
    for b in ["gpu", "cpu"] {
        let color = backend_color_hex(b);
        let mine: Vec<_> = lines.iter().filter(|l| l.0 == color).collect();
        assert_eq!(mine.len(), 1, "{b} lines in scaling.svg");
        assert_eq!(mine[0].1, COUNTS.len(), "{b} points");
        assert!(
            svg.contains(&format!("fill=\"{color}\" stroke=\"none\"/>")),
            "legend swatch of {b}"
        );
        assert!(texts.iter().any(|t| t.content == b), "legend entry {b}");
        let labels: Vec<&SvgText> = texts.iter().filter(|t| t.fill == color).collect();
        assert_eq!(labels.len(), COUNTS.len(), "{b} point labels: {labels:?}");
        for n in COUNTS {
            let median = s["runs"]
                .as_array()
                .unwrap()
                .iter()
                .find(|r| r["backend"] == b && r["boids"] == n)
                .unwrap()["median_ms"]
                .as_f64()
                .unwrap();
            let want = format_ms(median);
            assert!(
                labels.iter().any(|t| t.content == want),
                "{b} {n}: no point label {want:?} in {labels:?}"
            );
            assert_time_label(&want, median, "point label");
        }
    }
    assert!(!lines.iter().any(|l| l.0 == backend_color_hex("cpu-naive")));
    for title in ["boids", "median step time"] {
        assert!(
            texts.iter().any(|t| t.content == title),
            "axis title {title}"
        );
    }
    assert_time_ticks_sound(&time_ticks(&svg), "scaling.svg");

    // frametimes.svg: one line per run, one point per measured step; sound time ticks.
    let svg = std::fs::read_to_string(dir.join("frametimes.svg")).unwrap();
    assert_xml_well_formed(&svg);
    let lines = polylines(&svg);
    for b in ["gpu", "cpu"] {
        let mine: Vec<_> = lines
            .iter()
            .filter(|l| l.0 == backend_color_hex(b))
            .collect();
        assert_eq!(mine.len(), 2, "{b} runs in frametimes.svg");
        assert!(mine.iter().all(|l| l.1 == STEPS as usize));
    }
    let texts = svg_texts(&svg);
    for title in ["frame (capture order)", "frame time"] {
        assert!(
            texts.iter().any(|t| t.content == title),
            "axis title {title}"
        );
    }
    assert_time_ticks_sound(&time_ticks(&svg), "frametimes.svg");

    // scaling.png: the right size, both backend colours drawn, and dark text pixels.
    let img = image::open(dir.join("scaling.png")).unwrap().to_rgb8();
    assert_eq!(img.dimensions(), PLOT_SIZE);
    for b in ["gpu", "cpu"] {
        let (r, g, bl) = backend_color(b);
        let n = img.pixels().filter(|p| p.0 == [r, g, bl]).count();
        assert!(n > 200, "{b}: {n} pixels of its colour");
    }
    assert!(img.pixels().filter(|p| p.0.iter().all(|c| *c < 80)).count() > 1000);

    // The summary reads back equal, and compares to itself with ratios of 1, within the noise.
    let back = load_summary(dir).unwrap();
    assert_json_close(
        &serde_json::to_value(&back).unwrap(),
        &serde_json::to_value(&outcome.summary).unwrap(),
        "summary",
    );
    let table = compare_table(dir, &back, dir, &back);
    let data_rows: Vec<&str> = table
        .lines()
        .filter(|l| l.starts_with("gpu ") || l.starts_with("cpu "))
        .collect();
    assert_eq!(data_rows.len(), 4, "{table}");
    assert!(
        data_rows
            .iter()
            .all(|l| table_cells(l).get(6).map(String::as_str) == Some("1.00 ~")),
        "{table}"
    );
    let scaling = scaling_table(&back);
    assert_eq!(scaling.lines().count(), 1 + COUNTS.len(), "{scaling}");
    assert!(scaling.lines().next().unwrap().ends_with("gpu/cpu"));
    for n in COUNTS {
        let row = scaling
            .lines()
            .find(|l| l.split_whitespace().next() == Some(&n.to_string()))
            .unwrap_or_else(|| panic!("no row {n} in {scaling}"));
        for b in ["gpu", "cpu"] {
            let want = format_ms(back.run(b, n).unwrap().stats.median_ms);
            assert!(row.contains(&want), "{b} {n}: {want:?} not in {row:?}");
        }
    }
}

#[test]
fn render_option_times_an_offscreen_frame_per_step() {
    let Some(ctx) = support::gpu() else { return };
    let tmp = fresh_dir("render");
    let dir = tmp.path();
    let mut cfg = BenchConfig::new(dir.to_path_buf());
    cfg.backends = vec![BackendKind::Gpu, BackendKind::Cpu];
    cfg.boids = vec![300];
    cfg.steps = 4;
    cfg.warmup = 1;
    cfg.render = Some((96, 64));
    run_sweep(&cfg, Some(&ctx), &Stop::default(), &mut |_| {}).unwrap();
    let (header, rows) = read_csv(&dir.join("frames.csv"));
    let render = header.iter().position(|c| c == "render_ms").unwrap();
    assert_eq!(rows.len(), 8);
    for r in &rows {
        let wall: f64 = r[3].parse().unwrap();
        let ms: f64 = r[render].parse().expect("render_ms filled");
        assert!(
            ms > 0.0 && ms <= wall,
            "render {ms} ms within the frame's {wall} ms"
        );
    }
    let s: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("summary.json")).unwrap()).unwrap();
    assert_eq!(s["parameters"]["render"], "96x64");
    assert_eq!(s["present_mode"], "offscreen");
    assert!(s["runs"][0]["stage_median_ms"]["render"].as_f64().unwrap() > 0.0);
    // The command's printout says its times are frames, the step and its render.
    let out = tmp.path().join("cli");
    let printed = support::cmd::text(&support::cmd::ok(&[
        "bench",
        "--backends",
        "cpu",
        "--boids",
        "300",
        "--steps",
        "3",
        "--warmup",
        "0",
        "--render",
        "96x64",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]));
    assert!(
        printed.contains("median frame time (the step, then its render):")
            && !printed.contains("median step time"),
        "{printed}"
    );
    // So does its scaling plot, title and axis.
    let svg = std::fs::read_to_string(out.join("scaling.svg")).unwrap();
    assert!(
        svg.contains("median frame time (step + render)")
            && svg.contains("Frame time against boid count (median of 3 frames")
            && !svg.contains("step time"),
        "scaling.svg of rendered frames"
    );
}

/// Equal JSON, numbers within 1e-12 relative (serde_json's float parsing may differ from the
/// written value in the last bit).
fn assert_json_close(a: &serde_json::Value, b: &serde_json::Value, at: &str) {
    use serde_json::Value;
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            let (x, y) = (x.as_f64().unwrap(), y.as_f64().unwrap());
            assert!(
                (x - y).abs() <= 1e-12 * x.abs().max(y.abs()),
                "{at}: {x} vs {y}"
            );
        }
        (Value::Array(x), Value::Array(y)) => {
            assert_eq!(x.len(), y.len(), "{at}");
            for (i, (p, q)) in x.iter().zip(y).enumerate() {
                assert_json_close(p, q, &format!("{at}[{i}]"));
            }
        }
        (Value::Object(x), Value::Object(y)) => {
            assert_eq!(
                x.keys().collect::<Vec<_>>(),
                y.keys().collect::<Vec<_>>(),
                "{at}"
            );
            for (k, p) in x {
                assert_json_close(p, &y[k], &format!("{at}.{k}"));
            }
        }
        _ => assert_eq!(a, b, "{at}"),
    }
}

/// A live capture (F9 in the app) plots what it has: the frame times over the session and their
/// histogram, each as SVG and PNG — not a "step time against boid count" plot of one point per
/// run. No GPU needed: the rows are planted.
#[test]
fn a_live_capture_plots_frame_times_over_the_session_and_their_histogram() {
    use boids::capture::recorder::{CaptureMeta, CaptureRecorder, FrameRow, LIVE_FILES};
    let meta = CaptureMeta::collect("live", "Fifo", None, serde_json::json!({}));
    let mut rec = CaptureRecorder::new(meta);
    // cpu frames of 10..16 ms, then gpu frames of 30..34 ms.
    for i in 0..140u64 {
        rec.push(FrameRow::new("cpu", 1500, i, 10.0 + (i % 7) as f64));
    }
    for i in 0..60u64 {
        rec.push(FrameRow::new("gpu", 1500, 140 + i, 30.0 + (i % 5) as f64));
    }
    let tmp = fresh_dir("live-plots");
    let dir = tmp.path();
    rec.write(dir).unwrap();
    for f in LIVE_FILES {
        assert!(dir.join(f).is_file(), "{f} missing");
    }
    for f in ["scaling.svg", "scaling.png"] {
        assert!(!dir.join(f).exists(), "{f}: a one-point scaling plot");
    }
    let s: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("summary.json")).unwrap()).unwrap();
    assert_eq!(s["files"], serde_json::json!(LIVE_FILES));
    let colour_pixels = |png: &str, backend: &str| {
        let img = image::open(dir.join(png)).unwrap().to_rgb8();
        assert_eq!(img.dimensions(), PLOT_SIZE, "{png}");
        let (r, g, b) = backend_color(backend);
        img.pixels().filter(|p| p.0 == [r, g, b]).count()
    };
    for png in ["frametimes.png", "frametime_histogram.png"] {
        for b in ["gpu", "cpu"] {
            let n = colour_pixels(png, b);
            assert!(n > 100, "{png}: {n} pixels of {b}'s colour");
        }
    }
    // The histogram: frame time on the x axis, frame counts on the y axis, one bar series per run
    // (the cpu run's 7 distinct times fill at most 7 bars, the gpu run's 5 at most 5).
    let svg = std::fs::read_to_string(dir.join("frametime_histogram.svg")).unwrap();
    assert_xml_well_formed(&svg);
    let texts: Vec<String> = svg_texts(&svg).into_iter().map(|t| t.content).collect();
    for want in ["frame time", "frames"] {
        assert!(
            texts.iter().any(|t| t == want),
            "axis title {want}: {texts:?}"
        );
    }
    assert!(texts.iter().any(|t| t.starts_with("cpu")), "{texts:?}");
    assert!(texts.iter().any(|t| t.starts_with("gpu")), "{texts:?}");
    let bars = |b: &str| {
        svg.matches(&format!("fill=\"{}\"", backend_color_hex(b)))
            .count()
    };
    assert!((2..=8).contains(&bars("cpu")), "{} cpu bars", bars("cpu"));
    assert!((2..=6).contains(&bars("gpu")), "{} gpu bars", bars("gpu"));
}
