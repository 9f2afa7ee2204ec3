//! The real window, driven by scripted input (`boids run --script`): winit cannot
//! synthesise OS input, so the script feeds the same handlers as real events, and the app reports
//! its state as JSON (`--report`, script `report`).
//!
//! These tests need a display: they skip (printing why) when DISPLAY / WAYLAND_DISPLAY are unset,
//! unless BOIDS_REQUIRE_GPU=1 (CI, which starts `Xvfb :99`), where they fail instead. They run one
//! at a time (a shared lock) so that several windows do not compete for a small machine.

use crate::support;
use std::path::PathBuf;
use std::process::Command;

use serde_json::Value;
use support::window::{fraction_differing, have_display, lock, run_app, run_cmd, scratch};

#[test]
fn run_120_frames_exits_zero() {
    if !have_display() {
        return;
    }
    let _l = lock();
    let r = run_app("frames", &["--frames", "120", "--boids", "3000"], None);
    r.assert_ok();
    let rep = r.report("final.json");
    assert_eq!(rep["frames"], 120);
    assert!(rep["presented"].as_u64().unwrap() >= 110, "{rep}");
    assert_eq!(rep["steps"], rep["presented"]);
    assert_eq!(rep["boids"], 3000);
    assert_eq!(rep["finite"], true);
    assert_eq!(rep["inside_world"], true);
    assert!(rep["avg_fps"].as_f64().unwrap() > 0.0);
    // A quiet exit: one human line, no JSON (it went to the --report file).
    assert!(!r.stdout.contains("boids-report"), "{}", r.stdout);
    assert_eq!(r.stdout.trim().lines().count(), 1, "{}", r.stdout);
    assert!(r.stdout.contains("120 frames"), "{}", r.stdout);
}

/// `--report -` prints the report as one `boids-report: {json}` line on stdout, and writes no
/// file named `-`.
#[test]
fn the_report_on_stdout_only_when_asked() {
    if !have_display() {
        return;
    }
    let _l = lock();
    let dir = scratch("report-stdout");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_boids"));
    cmd.current_dir(dir.path())
        .args(["run", "--frames", "5", "--boids", "500", "--report", "-"]);
    let r = run_cmd(cmd, dir);
    r.assert_ok();
    let line = r
        .stdout
        .lines()
        .find_map(|l| l.strip_prefix("boids-report: "))
        .unwrap_or_else(|| panic!("{}", r.stdout));
    let rep: Value = serde_json::from_str(line).unwrap();
    assert_eq!(rep["frames"], 5);
    assert!(!r.path("-").exists());
}

/// Holding the add tool for 30 frames adds 30 × 12 boids; five wheel notches about a point zoom in
/// by 1.15⁵ keeping that point still, and change the picture (while paused, so only the zoom can
/// change it: a frame later without zoom is identical).
#[test]
fn add_tool_raises_the_count_and_zoom_changes_the_view() {
    if !have_display() {
        return;
    }
    let _l = lock();
    let script = "\
        3: tool add\n\
        3: move 400 300\n\
        4: press\n\
        34: release\n\
        35: report @/added.json\n\
        40: key space\n\
        41: capture @/before.png\n\
        42: move 300 200\n\
        42: wheel 5\n\
        43: capture @/zoomed.png\n\
        45: capture @/zoomed_again.png\n\
        46: report @/zoomed.json\n\
        50: quit\n";
    let r = run_app("tools", &["--boids", "2000"], Some(script));
    r.assert_ok();
    let added = r.report("added.json");
    assert_eq!(added["boids"], 2000 + 30 * 12, "{added}");
    assert_eq!(added["finite"], true);
    let zoomed = r.report("zoomed.json");
    let fit = zoomed["fit_zoom"].as_f64().unwrap();
    let zoom = zoomed["zoom"].as_f64().unwrap();
    assert!(
        (zoom / fit - 1.15f64.powi(5)).abs() < 1e-3,
        "zoom {zoom}, fit {fit}"
    );
    assert_eq!(zoomed["paused"], true);
    let before = r.image("before.png");
    let after = r.image("zoomed.png");
    let again = r.image("zoomed_again.png");
    assert_eq!(before.dimensions(), (1280, 720));
    let changed = fraction_differing(&before, &after);
    assert!(
        changed > 0.05,
        "zoom changed only {changed:.4} of the pixels"
    );
    assert_eq!(fraction_differing(&after, &again), 0.0);
    let fin = r.report("final.json");
    assert_eq!(fin["boids"], 2360);
}

/// A zero-size surface (minimised) skips frames without stepping, restore and resizes
/// reconfigure, and two live backend switches keep every boid with finite state.
#[test]
fn minimise_resize_and_backend_switches_keep_the_flock() {
    if !have_display() {
        return;
    }
    let _l = lock();
    let script = "\
        10: minimize\n\
        40: restore\n\
        45: resize 800 600\n\
        55: capture @/small.png\n\
        60: backend cpu\n\
        70: report @/cpu.json\n\
        75: resize 1280 720\n\
        90: backend gpu\n\
        120: quit\n";
    let r = run_app(
        "robust",
        &["--backend", "gpu", "--boids", "3000"],
        Some(script),
    );
    r.assert_ok();
    let cpu = r.report("cpu.json");
    assert_eq!(cpu["backend"], "cpu");
    assert_eq!(cpu["boids"], 3000);
    assert_eq!(cpu["finite"], true);
    assert!(cpu["step_ms_cpu"].as_f64().is_some(), "{cpu}");
    let rep = r.report("final.json");
    assert_eq!(rep["boids"], 3000, "{rep}");
    assert_eq!(rep["backend"], "gpu");
    assert_eq!(rep["backend_switches"], 2);
    assert_eq!(rep["finite"], true);
    assert_eq!(rep["inside_world"], true);
    assert_eq!(rep["skipped_zero_size"], 30);
    assert_eq!(
        rep["steps"].as_u64().unwrap(),
        rep["frames"].as_u64().unwrap() - 30 - rep["skipped_acquire"].as_u64().unwrap()
    );
    assert!(rep["surface_configures"].as_u64().unwrap() >= 3, "{rep}");
    assert_eq!(r.image("small.png").dimensions(), (800, 600));
    assert_eq!(rep["surface"], serde_json::json!([1280, 720]));
}

/// Drawing a stroke makes obstacle points no farther apart than the spacing (4 wu); erasing
/// removes the points under the eraser.
#[test]
fn draw_and_erase_obstacles() {
    if !have_display() {
        return;
    }
    let _l = lock();
    let script = "\
        2: tool draw\n\
        2: move 200 300\n\
        3: press\n\
        4: move 700 300\n\
        5: move 700 500\n\
        6: release\n\
        7: report @/drawn.json\n\
        8: key 3\n\
        8: move 450 300\n\
        9: press\n\
        10: release\n\
        11: report @/erased.json\n\
        12: key delete\n\
        13: report @/cleared.json\n\
        14: quit\n";
    let r = run_app("obstacles", &["--boids", "1000"], Some(script));
    r.assert_ok();
    let drawn = r.report("drawn.json");
    let zoom = drawn["zoom"].as_f64().unwrap();
    let length_wu = 700.0 / zoom;
    let n = drawn["obstacles"].as_u64().unwrap() as f64;
    // 1 start point, then ⌈segment / 4 wu⌉ points per segment.
    let expected = 1.0 + (500.0 / zoom / 4.0).ceil() + (200.0 / zoom / 4.0).ceil();
    assert_eq!(n, expected, "{length_wu} wu drawn");
    let erased = r.report("erased.json")["obstacles"].as_u64().unwrap() as f64;
    assert!(erased < n && erased > n / 2.0, "{erased} of {n} left");
    assert_eq!(r.report("cleared.json")["obstacles"], 0);
    assert_eq!(r.report("erased.json")["tool"], "eraser");
}

/// Esc opens the pause menu (and pauses), F11 enters immersion, Esc leaves it, Tab shows the panel.
#[test]
fn keys_menu_immersion_and_panel() {
    if !have_display() {
        return;
    }
    let _l = lock();
    let script = "\
        3: key escape\n\
        4: report @/menu.json\n\
        5: key escape\n\
        6: key f11\n\
        8: report @/immersive.json\n\
        9: key escape\n\
        10: key tab\n\
        11: report @/panel.json\n\
        12: quit\n";
    let r = run_app("keys", &["--boids", "1000"], Some(script));
    r.assert_ok();
    let menu = r.report("menu.json");
    assert_eq!(menu["paused"], true);
    let imm = r.report("immersive.json");
    assert_eq!(imm["immersive"], true);
    assert_eq!(imm["paused"], false);
    let panel = r.report("panel.json");
    assert_eq!(panel["immersive"], false);
    assert_eq!(panel["panel_open"], true);
}

/// Without a display the app exits non-zero with a message that points to the windowless
/// commands, and no panic.
#[test]
fn no_display_is_a_clear_error() {
    for args in [&["run", "--frames", "5"][..], &[][..]] {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_boids"));
        cmd.args(args)
            .env_remove("DISPLAY")
            .env_remove("WAYLAND_DISPLAY")
            .env_remove("WAYLAND_SOCKET");
        let r = run_cmd(cmd, scratch("no-display"));
        assert_ne!(r.code, Some(0));
        // Every error message starts with "error: ", this one too.
        assert!(
            r.stderr.starts_with("error: cannot open a window"),
            "{}",
            r.stderr
        );
        assert!(!r.stderr.contains("Error:"), "{}", r.stderr);
        assert!(r.stderr.contains("boids headless"), "{}", r.stderr);
        assert!(r.stderr.contains("boids bench"), "{}", r.stderr);
        assert!(!r.stderr.contains("panicked"), "{}", r.stderr);
        assert!(!r.stderr.contains(".cargo/registry"), "{}", r.stderr);
    }
}

/// A malformed script is refused before any window opens, naming the line.
#[test]
fn bad_script_is_a_clear_error() {
    let dir = scratch("bad-script");
    let path = dir.path().join("bad.txt");
    std::fs::write(&path, "1: tool add\n2: jump 3\n").unwrap();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_boids"));
    cmd.args(["run", "--script"]).arg(&path);
    let r = run_cmd(cmd, dir);
    assert_ne!(r.code, Some(0));
    assert!(r.stderr.contains("line 2"), "{}", r.stderr);
    assert!(r.stderr.contains("jump"), "{}", r.stderr);
}

fn boids_within(path: &std::path::Path, centre: [f64; 2], r: f64) -> usize {
    let boids = boids::formats::checkpoint::load_state(path).unwrap();
    boids
        .iter()
        .filter(|b| {
            let dx = b.position[0] as f64 - centre[0];
            let dy = b.position[1] as f64 - centre[1];
            dx * dx + dy * dy < r * r
        })
        .count()
}

/// Holding attract gathers boids around the pointer; holding repel empties the area. Counts of
/// boids within half the tool radius after 60 frames with the tool selected but the button up,
/// then after 60 more frames holding it (one run per tool, same seed).
#[test]
fn attract_gathers_and_repel_scatters() {
    if !have_display() {
        return;
    }
    let _l = lock();
    let mut counts = Vec::new();
    for tool in ["attract", "repel"] {
        // 270 px: 150 wu in this 711 × 400 wu world.
        let script = format!(
            "2: tool {tool}\n\
             2: tool-radius 270\n\
             2: move 640 360\n\
             3: report @/start.json\n\
             63: state @/idle.csv\n\
             63: press\n\
             123: state @/held.csv\n\
             123: release\n\
             124: quit\n"
        );
        let r = run_app(tool, &["--boids", "3000"], Some(&script));
        r.assert_ok();
        let start = r.report("start.json");
        assert_eq!(start["tool"], tool);
        let p = start["pointer_world"].as_array().unwrap();
        let centre = [p[0].as_f64().unwrap(), p[1].as_f64().unwrap()];
        let world = start["world"].as_array().unwrap();
        assert!((centre[0] - world[0].as_f64().unwrap() / 2.0).abs() < 1.0);
        let half = start["pointer_radius"].as_f64().unwrap() / 2.0;
        let idle = boids_within(&r.dir.path().join("idle.csv"), centre, half);
        let held = boids_within(&r.dir.path().join("held.csv"), centre, half);
        eprintln!("{tool}: within {half} wu: {idle} before, {held} after 60 frames held");
        counts.push((idle, held));
    }
    let ((idle_a, attract), (idle_r, repel)) = (counts[0], counts[1]);
    assert!(
        attract > 2 * idle_a.max(10),
        "attract {attract} vs {idle_a}"
    );
    assert!(repel * 4 < idle_r.max(10), "repel {repel} vs {idle_r}");
}

/// Under a scale factor of 2 (X11, `WINIT_X11_SCALE_FACTOR`), the app reads it and the pointer
/// (physical px) still maps to the world through the camera: the window centre is the world centre.
#[test]
fn hidpi_scale_factor_is_applied() {
    if !have_display() {
        return;
    }
    let _l = lock();
    let dir = scratch("window-hidpi");
    std::fs::write(
        dir.path().join("script.txt"),
        format!(
            "2: move 640 360\n3: report {}/r.json\n4: quit\n",
            dir.path().display()
        ),
    )
    .unwrap();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_boids"));
    cmd.args(["run", "--boids", "1000", "--script"])
        .arg(dir.path().join("script.txt"))
        .env("WINIT_X11_SCALE_FACTOR", "2");
    let r = run_cmd(cmd, dir);
    r.assert_ok();
    let rep = r.report("r.json");
    if std::env::var_os("WAYLAND_DISPLAY").is_none() {
        assert_eq!(rep["scale_factor"], 2.0, "{rep}");
    }
    assert_eq!(rep["surface"], serde_json::json!([1280, 720]));
    let p = rep["pointer_world"].as_array().unwrap();
    let w = rep["world"].as_array().unwrap();
    for k in 0..2 {
        let (pk, wk) = (p[k].as_f64().unwrap(), w[k].as_f64().unwrap());
        assert!((pk - wk / 2.0).abs() < 0.5, "{pk} vs {wk}/2");
    }
}

/// Showing the panel (with the theme switched to light by the script) leaves every parameter of a
/// scene as written, including a perception radius above the rule radii.
#[test]
fn open_panel_changes_no_parameter() {
    if !have_display() {
        return;
    }
    let _l = lock();
    let dir = scratch("panel-scene");
    let scene = dir.path().join("scene.toml");
    std::fs::write(
        &scene,
        "boids = 1500\n[params]\nperception_radius = 30.0\nalignment_radius = 25.0\nrotational_diffusion = 0.1\n\
         hue_cohesion_weight = 30.0\nseparation_weight = 7.5\n",
    )
    .unwrap();
    let script = "2: report @/before.json\n3: theme light\n20: report @/after.json\n21: quit\n";
    let r = run_app(
        "panel",
        &["--panel", "--scene", scene.to_str().unwrap()],
        Some(script),
    );
    r.assert_ok();
    let (before, after) = (r.report("before.json"), r.report("after.json"));
    assert_eq!(before["params"]["perception_radius"], 30.0);
    assert_eq!(before["params"], after["params"]);
    // Values beyond a slider's range (but valid) are kept as the scene set them, not clamped.
    assert_eq!(after["params"]["hue_cohesion_weight"], 30.0);
    assert_eq!(after["params"]["separation_weight"], 7.5);
    assert_eq!(after["panel_open"], true);
    assert_eq!(after["theme"], "light");
    assert_eq!(after["boids"], 1500);
}

/// The capture folders written under `root`.
fn capture_dirs(root: &std::path::Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(root)
        .map(|d| d.map(|e| e.unwrap().path()).collect())
        .unwrap_or_default();
    v.sort();
    v
}

#[test]
fn f9_records_a_live_capture() {
    if !have_display() {
        return;
    }
    let _l = lock();
    // F9 at frame 3 starts, a live backend switch at 30 gives a second run, F9 at 50 writes.
    let script = "3: key f9\n30: backend cpu\n50: key f9\n52: quit\n";
    let dir = scratch("live-cap");
    let caps = dir.path().join("caps");
    let r = run_app(
        "livecap",
        &[
            "--backend",
            "gpu",
            "--boids",
            "1500",
            "--capture-dir",
            caps.to_str().unwrap(),
        ],
        Some(script),
    );
    r.assert_ok();
    let dirs = capture_dirs(&caps);
    assert_eq!(dirs.len(), 1, "one capture folder: {dirs:?}\n{}", r.stderr);
    let d = &dirs[0];
    for f in boids::capture::recorder::LIVE_FILES {
        assert!(d.join(f).is_file(), "{f} missing in {}", d.display());
    }
    assert!(
        !d.join("scaling.png").exists(),
        "a live capture has no scaling plot"
    );
    let csv = std::fs::read_to_string(d.join("frames.csv")).unwrap();
    let rows: Vec<&str> = csv.lines().skip(1).collect();
    // Frames 3..50 are recorded; the first presented frame only starts the clock.
    assert!((40..=50).contains(&rows.len()), "{} rows", rows.len());
    assert!(rows.iter().any(|l| l.starts_with("gpu,1500,")));
    assert!(rows.iter().any(|l| l.starts_with("cpu,1500,")));
    let summary: Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("summary.json")).unwrap()).unwrap();
    assert_eq!(summary["source"], "live");
    assert_ne!(summary["present_mode"], "offscreen");
    let backends: Vec<&str> = summary["runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["backend"].as_str().unwrap())
        .collect();
    assert!(
        backends.contains(&"gpu") && backends.contains(&"cpu"),
        "{backends:?}"
    );

    // Quitting while recording still writes the capture.
    let r = run_app(
        "livecap2",
        &["--boids", "800", "--capture-dir", caps.to_str().unwrap()],
        Some("3: key f9\n25: quit\n"),
    );
    r.assert_ok();
    assert_eq!(capture_dirs(&caps).len(), 2, "{}", r.stderr);
}

#[test]
fn raising_the_count_grows_the_world_to_the_default_density() {
    if !have_display() {
        return;
    }
    let _l = lock();
    let r = run_app(
        "grow",
        &["--boids", "300"],
        Some("3: boids 6000\n8: report @/after.json\n9: quit\n"),
    );
    r.assert_ok();
    let after = r.report("after.json");
    assert_eq!(after["boids"], 6000);
    let w = after["world"][0].as_f64().unwrap();
    let h = after["world"][1].as_f64().unwrap();
    // 6000 boids at 0.01 boids/wu² need 600 000 wu²; the 300-boid world was smaller.
    assert!(w * h >= 6000.0 / 0.01 * 0.999, "world {w} × {h}");
    assert_eq!(after["finite"], true);
    assert_eq!(after["inside_world"], true);
}

/// In the window: the predator tool places a straight predator with the drag as its velocity, the
/// run report counts it, and the panel's scene file saves the world (obstacles, predators) and
/// loads it back after the obstacles were cleared; the scene's hunters start with it.
#[test]
fn predator_tool_and_scene_file_in_the_window() {
    if !have_display() {
        return;
    }
    let _l = lock();
    let script = "\
        2: key 6\n\
        2: predator-kind straight\n\
        2: move 300 300\n\
        3: press\n\
        4: move 400 300\n\
        5: release\n\
        6: tool draw\n\
        6: move 200 500\n\
        7: press\n\
        8: move 500 500\n\
        9: release\n\
        10: scene-path @/saved.toml\n\
        11: save-scene\n\
        12: report @/saved.json\n\
        13: key delete\n\
        14: report @/cleared.json\n\
        15: load-scene\n\
        16: report @/loaded.json\n\
        17: capture @/loaded.png\n\
        18: quit\n";
    let r = run_app(
        "predators",
        &["--scene", "scenes/predators.toml", "--boids", "2000"],
        Some(script),
    );
    r.assert_ok();
    let saved = r.report("saved.json");
    let predators = saved["predators"].as_array().unwrap();
    assert_eq!(
        predators.len(),
        4,
        "three from the scene and one placed: {saved}"
    );
    assert_eq!(predators[3]["kind"], "straight");
    assert!(
        predators[3]["velocity"][0].as_f64().unwrap() > 0.0,
        "{saved}"
    );
    let obstacles = saved["obstacles"].as_u64().unwrap();
    assert!(obstacles > 3, "{saved}");
    assert!(
        saved["scene_status"].as_str().unwrap().starts_with("saved"),
        "{saved}"
    );
    assert_eq!(r.report("cleared.json")["obstacles"], 0);
    let loaded = r.report("loaded.json");
    assert!(
        loaded["scene_status"]
            .as_str()
            .unwrap()
            .starts_with("loaded"),
        "{loaded}"
    );
    assert_eq!(loaded["obstacles"].as_u64().unwrap(), obstacles);
    assert_eq!(loaded["predators"].as_array().unwrap().len(), 4);
    assert_eq!(loaded["boids"], 2000);
    let text = std::fs::read_to_string(r.path("saved.toml")).unwrap();
    assert_eq!(text.matches("[[predators]]").count(), 4, "{text}");
    // The loaded hunters are drawn in their red.
    let red = r
        .image("loaded.png")
        .pixels()
        .filter(|p| p.0[0] > 150 && p.0[1] < 100 && p.0[2] < 100)
        .count();
    assert!(red > 50, "{red} red pixels");
}

/// A window screenshot asked for while no frame is presented (the window minimised) and never
/// taken before the app leaves is said on stderr, naming the file, not dropped silently; one
/// asked for while frames are presented is written.
#[test]
fn a_screenshot_never_taken_is_said() {
    if !have_display() {
        return;
    }
    let _l = lock();
    let script = "\
        3: screenshot @/shown.png\n\
        5: minimize\n\
        6: screenshot @/hidden.png\n\
        9: quit\n";
    let r = run_app("screenshot-hidden", &["--boids", "300"], Some(script));
    r.assert_ok();
    assert!(r.path("shown.png").is_file(), "{}", r.stderr);
    assert!(!r.path("hidden.png").exists());
    assert!(
        r.stderr.contains("hidden.png not taken"),
        "no word of the missing screenshot:\n{}",
        r.stderr
    );
    assert!(!r.stderr.contains("shown.png not taken"), "{}", r.stderr);
}
