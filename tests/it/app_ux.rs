//! What a person sees and does in the window, driven by scripts (`boids run --script`): the
//! real-time clock and the speed control, lowering the count, the world's edge, density dots,
//! the help, the HUD and tool bar in a corner of any window, resizes, one boid, the backends
//! offered, snapshots too large for the adapter, honest live captures and the sound toggle.
//!
//! Like `tests/it/app_window.rs` these need a display (they skip visibly without one, and fail
//! under BOIDS_REQUIRE_GPU=1), and run one window at a time.

use crate::support;
use std::process::Command;

use serde_json::Value;
use support::window::{have_display, lock, run_app, run_app_env, scratch, Run};

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("{v} is not a number"))
}

/// Simulated seconds per wall-clock second between two reports.
fn rate(a: &Value, b: &Value) -> f64 {
    (f(&b["sim_time_s"]) - f(&a["sim_time_s"])) / (f(&b["wall_time_s"]) - f(&a["wall_time_s"]))
}

/// At 1× the real-time clock keeps simulated time within 10 % of wall time (a small flock, so
/// the frame rate is above the step cost); at ½× it runs at half; paused it stands still, and
/// `.` takes exactly one step of dt.
#[test]
fn real_time_clock_follows_the_wall_clock_and_the_speed_control() {
    if !have_display() {
        return;
    }
    let _l = lock();
    // Windows of 1200 frames: a frame of this small window takes 1.5 ms on lavapipe, and a
    // window must be long against the step of dt that quantises simulated time.
    let script = "\
        30: report @/a.json\n\
        1230: report @/b.json\n\
        1230: key minus\n\
        1250: report @/c.json\n\
        2450: report @/d.json\n\
        2451: key space\n\
        2455: report @/e.json\n\
        2490: report @/f.json\n\
        2491: key period\n\
        2495: report @/g.json\n\
        2496: quit\n";
    let r = run_app(
        "clock",
        &[
            // The backend the clock was first measured on; the clock is the same on both.
            "--backend",
            "gpu",
            "--clock",
            "real-time",
            "--boids",
            "300",
            "--width",
            "480",
            "--height",
            "270",
        ],
        Some(script),
    );
    r.assert_ok();
    let [a, b, c, d, e, f_, g] =
        ["a", "b", "c", "d", "e", "f", "g"].map(|n| r.report(&format!("{n}.json")));
    assert_eq!(a["clock"], "real-time");
    let one = rate(&a, &b);
    eprintln!(
        "1×: {one:.3} simulated s per s at {:.0} fps; ½×: {:.3}",
        f(&b["avg_fps"]),
        rate(&c, &d)
    );
    assert!((one - 1.0).abs() < 0.1, "1×: {one} (report {b})");
    assert_eq!(b["slowed_to"], Value::Null);
    assert_eq!(d["speed"], 0.5);
    let half = rate(&c, &d);
    assert!((half - 0.5).abs() < 0.05, "½×: {half}");
    // Paused: not a step more; one step of dt with `.`, and still paused.
    assert_eq!(e["paused"], true);
    assert_eq!(e["steps"], f_["steps"]);
    assert_eq!(f(&g["steps"]), f(&f_["steps"]) + 1.0);
    let dt = f(&g["params"]["dt"]);
    assert!((f(&g["sim_time_s"]) - f(&f_["sim_time_s"]) - dt).abs() < 1e-9);
    assert_eq!(g["paused"], true);
}

/// Under a script the clock takes one step per frame at 1× (a run is a function of its frame
/// count), every other frame at ½×, two at 2×.
#[test]
fn scripted_runs_take_one_step_per_frame() {
    if !have_display() {
        return;
    }
    let _l = lock();
    let script = "\
        10: report @/a.json\n\
        10: key minus\n\
        30: report @/b.json\n\
        30: key equals\n\
        30: key plus\n\
        40: report @/c.json\n\
        41: quit\n";
    let r = run_app("perframe", &["--boids", "500"], Some(script));
    r.assert_ok();
    let steps = |n: &str| f(&r.report(n)["steps"]);
    assert_eq!(r.report("a.json")["clock"], "per-frame");
    // Script lines run before their frame's step: 9 frames stepped by frame 10.
    assert_eq!(steps("a.json"), 9.0);
    assert_eq!(
        steps("b.json") - steps("a.json"),
        10.0,
        "½×: 20 frames, 10 steps"
    );
    assert_eq!(
        steps("c.json") - steps("b.json"),
        20.0,
        "2×: 10 frames, 20 steps"
    );
}

fn histogram(path: &std::path::Path, world: &Value, n: usize) -> Vec<usize> {
    let boids = boids::formats::checkpoint::load_state(path).unwrap();
    let (w, h) = (f(&world[0]), f(&world[1]));
    let mut cells = vec![0; n * n];
    for b in &boids {
        let i = ((b.position[0] as f64 / w * n as f64) as usize).min(n - 1);
        let j = ((b.position[1] as f64 / h * n as f64) as usize).min(n - 1);
        cells[j * n + i] += 1;
    }
    cells
}

/// Lowering the count removes a random sample, not a region: after 20 000 → 2 000 on the GPU
/// (whose state buffer is sorted by grid cell after a step) and 2 000 → 400 on the CPU, every
/// cell of a 4 × 4 grid over the world still holds boids, near its share.
#[test]
fn lowering_the_count_keeps_boids_across_the_world() {
    if !have_display() {
        return;
    }
    let _l = lock();
    let script = "\
        4: state @/before.csv\n\
        5: boids 2000\n\
        6: state @/gpu.csv\n\
        6: report @/gpu.json\n\
        7: backend cpu\n\
        9: boids 400\n\
        10: state @/cpu.csv\n\
        10: report @/cpu.json\n\
        11: quit\n";
    let r = run_app(
        "lower",
        &[
            "--spawn", "uniform", "--boids", "20000", "--width", "640", "--height", "360",
        ],
        Some(script),
    );
    r.assert_ok();
    let gpu = r.report("gpu.json");
    assert_eq!(gpu["boids"], 2000);
    assert_eq!(r.report("cpu.json")["boids"], 400);
    for (file, n) in [("before.csv", 20_000), ("gpu.csv", 2000), ("cpu.csv", 400)] {
        let cells = histogram(&r.path(file), &gpu["world"], 4);
        let share = n as f64 / 16.0;
        eprintln!("{file}: {cells:?}");
        for (k, c) in cells.iter().enumerate() {
            assert!(
                (*c as f64) > 0.4 * share && (*c as f64) < 1.6 * share,
                "{file}: cell {k} holds {c} of {n} boids: {cells:?}"
            );
        }
    }
}

/// Mean colour of a column or row of an image, between two indices across it.
fn line_mean(img: &image::RgbaImage, column: Option<u32>, row: Option<u32>) -> [f64; 3] {
    let mut sum = [0.0; 3];
    let mut n = 0.0;
    for (x, y, p) in img.enumerate_pixels() {
        if column.is_some_and(|c| c == x) || row.is_some_and(|r| r == y) {
            for k in 0..3 {
                sum[k] += p[k] as f64;
            }
            n += 1.0;
        }
    }
    sum.map(|s| s / n)
}

/// Walls and bounce draw the world's edge (a solid line at the border of a fitted view); wrap
/// draws none there, and only a faint dashed seam once zoomed out past the world.
#[test]
fn the_worlds_edge_is_drawn() {
    if !have_display() {
        return;
    }
    let _l = lock();
    let dir = scratch("edge-scene");
    let walls = dir.path().join("walls.toml");
    std::fs::write(&walls, "boids = 200\n[params]\nboundary = \"walls\"\n").unwrap();
    let script = "3: key space\n4: capture @/fit.png\n5: wheel -5\n6: capture @/out.png\n6: report @/out.json\n7: quit\n";
    let walled = run_app(
        "edge-walls",
        &["--scene", walls.to_str().unwrap()],
        Some(script),
    );
    walled.assert_ok();
    let wrapped = run_app("edge-wrap", &["--boids", "200"], Some(script));
    wrapped.assert_ok();
    let brightness = |c: [f64; 3]| (c[0] + c[1] + c[2]) / 3.0;
    let fit_walls = walled.image("fit.png");
    let fit_wrap = wrapped.image("fit.png");
    let (w, h) = fit_walls.dimensions();
    // The outermost column and row: the edge colour (light grey) with walls, the dark world
    // without.
    for img_edge in [
        line_mean(&fit_walls, Some(0), None),
        line_mean(&fit_walls, Some(w - 1), None),
        line_mean(&fit_walls, None, Some(0)),
        line_mean(&fit_walls, None, Some(h - 1)),
    ] {
        assert!(brightness(img_edge) > 90.0, "walls edge {img_edge:?}");
    }
    assert!(brightness(line_mean(&fit_wrap, Some(0), None)) < 40.0);
    // Zoomed out: the world's left edge column (from the report's camera) holds a dashed seam
    // in wrap (some bright, some dark pixels), a solid line with walls.
    let rep = wrapped.report("out.json");
    let zoom = f(&rep["zoom"]);
    let x0 = (-f(&rep["center"][0]) * zoom + w as f64 / 2.0).round() as u32;
    let y0 = (-f(&rep["center"][1]) * zoom + h as f64 / 2.0).ceil() as u32;
    let y1 = ((f(&rep["world"][1]) - f(&rep["center"][1])) * zoom + h as f64 / 2.0) as u32;
    let column = |img: &image::RgbaImage| -> Vec<f64> {
        (y0 + 2..y1 - 2)
            .map(|y| {
                let p = img.get_pixel(x0, y);
                (p[0] as f64 + p[1] as f64 + p[2] as f64) / 3.0
            })
            .collect()
    };
    let seam = column(&wrapped.image("out.png"));
    let lit = seam.iter().filter(|v| **v > 45.0).count() as f64 / seam.len() as f64;
    assert!(
        (0.3..0.7).contains(&lit),
        "seam lit {lit}: dashed, about half"
    );
    let solid = column(&walled.image("out.png"));
    let lit = solid.iter().filter(|v| **v > 90.0).count() as f64 / solid.len() as f64;
    assert!(lit > 0.9, "walls edge lit {lit}");
}

/// Zoomed out until boids would be under 4 px, they become density dots: the report says so and
/// the picture keeps the flock's colours (not grey static).
#[test]
fn zoomed_out_boids_are_density_dots() {
    if !have_display() {
        return;
    }
    let _l = lock();
    let script = "2: key space\n3: capture @/near.png\n3: report @/near.json\n4: wheel -5\n5: capture @/far.png\n5: report @/far.json\n6: quit\n";
    let r = run_app("dots", &["--boids", "20000"], Some(script));
    r.assert_ok();
    assert_eq!(r.report("near.json")["density_dots"], false);
    assert_eq!(r.report("far.json")["density_dots"], true);
    let far = r.image("far.png");
    // Coloured pixels: a channel spread above 40 (grey static has none).
    let coloured = far
        .pixels()
        .filter(|p| {
            let (lo, hi) = (p[0].min(p[1]).min(p[2]), p[0].max(p[1]).max(p[2]));
            hi - lo > 40
        })
        .count();
    assert!(coloured > 5000, "{coloured} coloured pixels");
}

fn area(rep: &Value, name: &str) -> Option<[f64; 4]> {
    rep["ui_areas"][name]
        .as_array()
        .map(|a| [f(&a[0]), f(&a[1]), f(&a[2]), f(&a[3])])
}

fn inside(r: [f64; 4], w: f64, h: f64) -> bool {
    r[0] >= -0.5 && r[1] >= -0.5 && r[2] <= w + 0.5 && r[3] <= h + 0.5
}

/// F1 opens the help, H hides the HUD and shows it again, I shows its details; the HUD never
/// leaves the top-left quarter, even with details, and the tool bar sits at the bottom.
#[test]
fn help_and_hud_toggle_and_stay_in_their_corner() {
    if !have_display() {
        return;
    }
    let _l = lock();
    let script = "\
        3: report @/start.json\n\
        4: key f1\n\
        6: report @/help.json\n\
        7: key escape\n\
        8: key h\n\
        10: report @/hidden.json\n\
        11: key h\n\
        12: key i\n\
        20: report @/details.json\n\
        21: quit\n";
    for (w, h) in [(1280.0, 720.0), (320.0, 200.0)] {
        let size = [format!("{w}"), format!("{h}")];
        let r = run_app(
            "hud",
            &["--boids", "2000", "--width", &size[0], "--height", &size[1]],
            Some(script),
        );
        r.assert_ok();
        let start = r.report("start.json");
        assert_eq!(start["help_open"], false, "no start screen under a script");
        let hud = area(&start, "hud").expect("a HUD");
        assert!(
            hud[2] <= w / 2.0 && hud[3] <= h / 2.0,
            "{w}×{h}: HUD {hud:?}"
        );
        let bar = area(&start, "toolbar").expect("a tool bar");
        assert!(
            inside(bar, w, h) && bar[3] > h * 0.75,
            "{w}×{h}: tool bar {bar:?}"
        );
        let help = r.report("help.json");
        assert_eq!(help["help_open"], true);
        let a = area(&help, "help").expect("help drawn");
        assert!(inside(a, w, h), "{w}×{h}: help {a:?}");
        let hidden = r.report("hidden.json");
        assert_eq!(hidden["help_open"], false);
        assert_eq!(hidden["hud_visible"], false);
        assert!(area(&hidden, "hud").is_none());
        let details = r.report("details.json");
        assert_eq!(details["hud_details"], true);
        let hud = area(&details, "hud").expect("a HUD");
        assert!(
            hud[2] <= w / 2.0 && hud[3] <= h / 2.0,
            "{w}×{h}: details {hud:?}"
        );
        if w > 1000.0 {
            assert!(hud[3] - hud[1] > 60.0, "details add lines: {hud:?}");
        }
    }
}

/// The control panel stays inside the window at any size: 160×100, and 600×380 px at a scale
/// factor of 2 (300×190 points), where it used to run off the edge.
#[test]
fn the_panel_stays_inside_small_windows() {
    if !have_display() {
        return;
    }
    let _l = lock();
    let script = "3: panel open\n8: report @/r.json\n9: quit\n";
    for (w, h, scale) in [
        (160.0, 100.0, "1"),
        (600.0, 380.0, "2"),
        (1280.0, 720.0, "1"),
    ] {
        let size = [format!("{w}"), format!("{h}")];
        let r = run_app_env(
            "panel-small",
            &["--boids", "1000", "--width", &size[0], "--height", &size[1]],
            Some(script),
            &[("WINIT_X11_SCALE_FACTOR", scale)],
        );
        r.assert_ok();
        let rep = r.report("r.json");
        assert_eq!(rep["panel_open"], true);
        let panel = area(&rep, "panel").expect("the panel is drawn");
        assert!(inside(panel, w, h), "{w}×{h} at {scale}: panel {panel:?}");
        for name in ["hud", "toolbar"] {
            let a = area(&rep, name).expect(name);
            assert!(inside(a, w, h), "{w}×{h}: {name} {a:?}");
        }
    }
}

/// A resize re-fits a view the user has not moved; once zoomed, a resize keeps the zoom.
#[test]
fn resizes_refit_an_unmoved_view() {
    if !have_display() {
        return;
    }
    let _l = lock();
    let script = "\
        3: resize 800 600\n\
        10: report @/a.json\n\
        11: wheel 3\n\
        12: resize 1000 700\n\
        20: report @/b.json\n\
        21: key home\n\
        22: resize 900 500\n\
        30: report @/c.json\n\
        31: quit\n";
    let r = run_app("refit", &["--boids", "2000"], Some(script));
    r.assert_ok();
    let (a, b, c) = (r.report("a.json"), r.report("b.json"), r.report("c.json"));
    assert_eq!(a["surface"], serde_json::json!([800, 600]));
    assert!((f(&a["zoom"]) - f(&a["fit_zoom"])).abs() < 1e-4, "{a}");
    assert_eq!(b["view_moved"], true);
    assert!(
        f(&b["zoom"]) > f(&b["fit_zoom"]) * 1.2,
        "kept the zoom: {b}"
    );
    assert_eq!(c["view_moved"], false);
    assert!((f(&c["zoom"]) - f(&c["fit_zoom"])).abs() < 1e-4, "{c}");
}

/// One boid gets a world of at least 400 wu a side, so it is drawn at a sensible size (a boid of
/// 10 wu: under 40 px), not 100 px.
#[test]
fn one_boid_is_not_a_giant() {
    if !have_display() {
        return;
    }
    let _l = lock();
    let r = run_app(
        "one",
        &["--boids", "1"],
        Some("3: capture @/one.png\n3: report @/one.json\n4: quit\n"),
    );
    r.assert_ok();
    let rep = r.report("one.json");
    let world = &rep["world"];
    assert!(f(&world[0]).min(f(&world[1])) >= 400.0 - 1e-3, "{world}");
    let img = r.image("one.png");
    let bg = *img.get_pixel(0, 0);
    let drawn: Vec<(u32, u32)> = img
        .enumerate_pixels()
        .filter(|(_, _, p)| **p != bg)
        .map(|(x, y, _)| (x, y))
        .collect();
    assert!(!drawn.is_empty(), "the boid is drawn");
    let span = |k: fn(&(u32, u32)) -> u32| {
        drawn.iter().map(k).max().unwrap() - drawn.iter().map(k).min().unwrap()
    };
    assert!(
        span(|p| p.0).max(span(|p| p.1)) < 40,
        "boid spans {}×{} px",
        span(|p| p.0),
        span(|p| p.1)
    );
}

/// `boids run --help` and `boids snapshot --help` offer gpu and cpu only, and cpu-naive is
/// refused by the argument parser, naming what is allowed.
#[test]
fn the_app_offers_only_the_backends_it_runs() {
    for sub in ["run", "snapshot"] {
        let out = Command::new(env!("CARGO_BIN_EXE_boids"))
            .args([sub, "--help"])
            .output()
            .unwrap();
        let help = String::from_utf8_lossy(&out.stdout);
        assert!(help.contains("gpu") && help.contains("cpu"), "{help}");
        assert!(
            !help.contains("cpu-naive"),
            "{sub} --help offers cpu-naive:\n{help}"
        );
        let extra: &[&str] = if sub == "snapshot" {
            &["--out", "x.png"]
        } else {
            &[]
        };
        let out = Command::new(env!("CARGO_BIN_EXE_boids"))
            .args([sub, "--backend", "cpu-naive"])
            .args(extra)
            .env_remove("DISPLAY")
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success());
        assert!(
            err.contains("cpu-naive") && err.contains("gpu, cpu"),
            "{err}"
        );
    }
}

/// A 16384² snapshot with 4× MSAA is refused before anything is allocated, with the memory it
/// needs and the way out (lavapipe: a 4 GiB multisampled target above its 2 GiB allocations).
#[test]
fn a_snapshot_too_large_for_the_adapter_is_refused_up_front() {
    let Some(ctx) = boids::gpu::GpuContext::new().ok() else {
        if std::env::var("BOIDS_REQUIRE_GPU").as_deref() == Ok("1") {
            panic!("BOIDS_REQUIRE_GPU=1 but no GPU adapter");
        }
        use std::io::Write;
        let _ = writeln!(std::io::stderr(), "SKIPPED (no GPU adapter)");
        return;
    };
    let limit = ctx.device.limits().max_buffer_size;
    if limit >= 4 << 30 {
        use std::io::Write;
        let _ = writeln!(
            std::io::stderr(),
            "SKIPPED: this adapter allocates {limit} bytes at once; 16384² × 4× MSAA may fit"
        );
        return;
    }
    drop(ctx);
    let dir = scratch("huge-snap");
    let out = dir.path().join("huge.png");
    let t = std::time::Instant::now();
    let o = Command::new(env!("CARGO_BIN_EXE_boids"))
        .args([
            "snapshot", "--width", "16384", "--height", "16384", "--msaa", "4",
        ])
        .args(["--boids", "100", "--steps", "1", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success());
    for needle in [
        "needs 6.00 GiB",
        "multisampled target 4.00 GiB",
        "--msaa 1",
        "max_buffer_size",
    ] {
        assert!(err.contains(needle), "{err}");
    }
    assert!(!err.to_lowercase().contains("out of memory"), "{err}");
    assert!(!out.exists());
    assert!(
        t.elapsed().as_secs() < 60,
        "refused up front, not after trying"
    );
}

fn read_csv(path: &std::path::Path) -> (Vec<String>, Vec<Vec<String>>) {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    let header = lines
        .next()
        .unwrap()
        .split(',')
        .map(str::to_string)
        .collect();
    let rows = lines
        .map(|l| l.split(',').map(str::to_string).collect())
        .collect();
    (header, rows)
}

/// F9 on the GPU backend: `trace.json` holds a timer-scope event for every frame that came back
/// with scopes, the run says `gpu-timestamps` only with such frames, no frame repeats the
/// previous one's pass times (a stale reading), the frame budget columns are filled and the
/// summary says how each column was timed; on the CPU backend, paused frames have no stage times.
#[test]
fn live_captures_claim_only_what_they_measured() {
    if !have_display() {
        return;
    }
    let _l = lock();
    let dir = scratch("live-honest");
    let caps = dir.path().join("caps");
    let script = "3: key f9\n40: backend cpu\n60: key space\n75: key f9\n77: quit\n";
    let r = run_app(
        "live-honest",
        &[
            "--backend",
            "gpu",
            "--boids",
            "3000",
            "--capture-dir",
            caps.to_str().unwrap(),
        ],
        Some(script),
    );
    r.assert_ok();
    let d = std::fs::read_dir(&caps)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let summary: Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("summary.json")).unwrap()).unwrap();
    let trace: Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("trace.json")).unwrap()).unwrap();
    let events = trace["traceEvents"].as_array().unwrap();
    let timed = events.iter().filter(|e| e["ph"] == "X").count();
    let gpu_run = summary["runs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["backend"] == "gpu")
        .unwrap();
    eprintln!(
        "gpu run: {}, {timed} trace events; note {}",
        gpu_run["stage_timing"], trace["otherData"]["note"]
    );
    if gpu_run["stage_timing"] == "gpu-timestamps" {
        assert!(timed > 0, "timestamps claimed, none in the trace");
    } else {
        assert_eq!(timed, 0);
        assert!(trace["otherData"]["note"]
            .as_str()
            .unwrap()
            .starts_with("empty"));
    }
    for col in [
        "wall_ms",
        "ui_ms",
        "step_cpu_ms",
        "render_ms",
        "present_ms",
        "stage columns",
    ] {
        assert!(
            summary["timing_notes"][col]
                .as_str()
                .is_some_and(|s| !s.is_empty()),
            "no timing note for {col}: {}",
            summary["timing_notes"]
        );
    }
    let (header, rows) = read_csv(&d.join("frames.csv"));
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    let stages: Vec<usize> = ["clear_ms", "count_ms", "scan_ms", "scatter_ms", "rules_ms"]
        .iter()
        .map(|n| col(n))
        .collect();
    let mut previous: Option<Vec<String>> = None;
    let mut filled = 0;
    for row in rows.iter().filter(|r| r[0] == "gpu") {
        for c in ["ui_ms", "step_cpu_ms", "render_ms", "present_ms"] {
            assert!(!row[col(c)].is_empty(), "{c} empty in {row:?}");
        }
        let times: Vec<String> = stages.iter().map(|&i| row[i].clone()).collect();
        if times.iter().all(|t| !t.is_empty()) {
            filled += 1;
            assert_ne!(previous.as_ref(), Some(&times), "a stale repeat: {row:?}");
            previous = Some(times);
        } else {
            previous = None;
        }
    }
    if gpu_run["stage_timing"] == "gpu-timestamps" {
        assert!(filled > 0);
    }
    // CPU rows: stage times while running, none once paused (no step, nothing new to say).
    let cpu: Vec<&Vec<String>> = rows.iter().filter(|r| r[0] == "cpu").collect();
    let with = cpu.iter().filter(|r| !r[stages[4]].is_empty()).count();
    assert!(with >= 10, "{with} CPU rows with stage times");
    assert!(
        cpu.len() - with >= 10,
        "paused CPU rows must have none: {}",
        cpu.len() - with
    );
}

/// M turns the ambient sound on; where it cannot play (no device under Xvfb, or a build without
/// the `sound` feature) the app says why once and goes on.
#[test]
fn the_sound_toggle_goes_on_without_a_device() {
    if !have_display() {
        return;
    }
    let _l = lock();
    let r: Run = run_app(
        "sound",
        &["--boids", "500"],
        Some("3: key m\n6: report @/on.json\n7: key m\n8: key m\n10: report @/again.json\n11: quit\n"),
    );
    r.assert_ok();
    let on = r.report("on.json");
    assert_eq!(on["sound_on"], true);
    let status = on["sound"].as_str().expect("a sound status");
    if status.starts_with("playing") {
        return; // A machine with a sound card.
    }
    assert!(status.starts_with("no sound"), "{status}");
    assert_eq!(
        r.stderr.matches("going on without it").count(),
        1,
        "{}",
        r.stderr
    );
    assert_eq!(r.report("again.json")["sound"], on["sound"]);
}

/// Without --backend the app steps on the CPU backend on a software adapter (where it is the
/// faster, and says so on its note) and on the GPU backend on a GPU; --backend gpu overrides.
/// A few boids are drawn by the instanced draw, many small ones by the compute rasteriser, and
/// --rasteriser forces either.
#[test]
fn the_fastest_backend_and_rasteriser_by_default() {
    if !have_display() {
        return;
    }
    let _l = lock();
    let script = "3: report @/a.json\n4: quit\n";
    let report = |tag: &str, args: &[&str]| {
        let r = run_app(tag, args, Some(script));
        r.assert_ok();
        r.report("a.json")
    };
    let few = report("default-few", &["--boids", "2000"]);
    let software = few["software"].as_bool().expect("software in the report");
    assert_eq!(
        few["backend"],
        if software { "cpu" } else { "gpu" },
        "{few}"
    );
    assert_eq!(few["drawn_by"], "instanced", "{few}");
    let asked = report("default-asked", &["--boids", "2000", "--backend", "gpu"]);
    assert_eq!(asked["backend"], "gpu");
    let many = report("default-many", &["--boids", "100000"]);
    assert_eq!(many["drawn_by"], "compute", "{many}");
    let forced = report(
        "default-forced",
        &["--boids", "100000", "--rasteriser", "instanced"],
    );
    assert_eq!(forced["drawn_by"], "instanced");
}
