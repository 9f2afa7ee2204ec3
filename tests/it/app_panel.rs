//! The panel and the tool bar in the real window, driven by scripts: the model selector shows the
//! running model's parameters (η in Vicsek, no boids weights), `set` goes through the parameter
//! table, scripted clicks work the UI's widgets (a section header, a tool bar button) rather than
//! the world, presets load, tool radii are pixels on screen, and at 640, 700, 780 and 1024 px the
//! tool bar is whole and no area covers another.
//!
//! Like `tests/it/app_window.rs` these need a display (they skip visibly without one, and fail
//! under BOIDS_REQUIRE_GPU=1), and run one window at a time.

use crate::support;
use serde_json::Value;
use support::window::{have_display, lock, run_app, scratch, Run};

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("{v} is not a number"))
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap_or_else(|| panic!("{v} is not an array"))
        .iter()
        .map(|s| s.as_str().unwrap().to_string())
        .collect()
}

/// The panel's model selector: the boids panel has the boids weights and no η; after `model
/// vicsek` it has η, v0 and the update and no boids weights; every particle then moves at v0 in
/// its old heading; `set` changes η and refuses a parameter Vicsek does not use, saying why.
#[test]
fn the_selector_shows_eta_in_vicsek_and_hides_the_boids_sliders() {
    if !have_display() {
        return;
    }
    let _l = lock();
    let script = "\
        3: panel open\n\
        6: report @/boids.json\n\
        7: state @/before.csv\n\
        7: model vicsek\n\
        7: state @/after.csv\n\
        10: report @/vicsek.json\n\
        11: set vicsek_eta 1.25\n\
        12: set separation_weight 2\n\
        14: report @/set.json\n\
        15: quit\n";
    let r = run_app("selector", &["--boids", "1500"], Some(script));
    r.assert_ok();
    let boids = strings(&r.report("boids.json")["panel_params"]);
    assert!(boids.contains(&"separation_weight".into()), "{boids:?}");
    assert!(!boids.iter().any(|k| k.starts_with("vicsek_")), "{boids:?}");
    let v = r.report("vicsek.json");
    assert_eq!(v["model"], "vicsek");
    let vicsek = strings(&v["panel_params"]);
    for k in [
        "vicsek_eta",
        "vicsek_speed",
        "vicsek_update",
        "perception_radius",
    ] {
        assert!(vicsek.contains(&k.to_string()), "{k}: {vicsek:?}");
    }
    for k in [
        "separation_weight",
        "alignment_weight",
        "max_speed",
        "wall_weight",
    ] {
        assert!(!vicsek.contains(&k.to_string()), "{k}: {vicsek:?}");
    }
    // The boids stay where they are; each keeps its heading at v0.
    let before = boids::formats::checkpoint::load_state(&r.path("before.csv")).unwrap();
    let after = boids::formats::checkpoint::load_state(&r.path("after.csv")).unwrap();
    let v0 = f(&v["params"]["vicsek_speed"]) as f32;
    let by_id = |s: &[boids::model::Boid], id: u32| *s.iter().find(|b| b.id == id).unwrap();
    for a in &after {
        let b = by_id(&before, a.id);
        assert_eq!(a.position, b.position);
        assert!((a.vel().length() - v0).abs() < 1e-5, "{a:?}");
        assert!(a.vel().normalize().dot(b.vel().normalize()) > 0.999);
    }
    assert_eq!(after.len(), before.len());
    assert_eq!(
        v["world"],
        r.report("boids.json")["world"],
        "the world is kept"
    );
    let set = r.report("set.json");
    assert_eq!(f(&set["params"]["vicsek_eta"]), 1.25);
    assert_eq!(
        set["params"]["separation_weight"],
        v["params"]["separation_weight"]
    );
    let msg = set["message"].as_str().unwrap();
    assert!(
        msg.contains("separation_weight") && msg.contains("not used by the vicsek model"),
        "{msg}"
    );
    // A refusal is a problem (the warning colour); the model's change before it was news.
    assert_eq!(set["message_problem"], true, "{msg}");
    let switched = &v["message"];
    assert!(
        switched
            .as_str()
            .is_some_and(|m| m.starts_with("model vicsek")),
        "{switched}"
    );
    assert_eq!(v["message_problem"], false, "{switched}");
}

/// The centre of a rectangle [x0, y0, x1, y1] (physical px), as the script writes it.
fn centre(r: &Value) -> (f64, f64) {
    ((f(&r[0]) + f(&r[2])) / 2.0, (f(&r[1]) + f(&r[3])) / 2.0)
}

/// Scripted clicks go through egui as real ones: a click on the tool bar's Controls button opens
/// the panel; a click on the header of the (closed) Presets section opens it, and the add tool,
/// selected all along, adds no boid under the panel. The header's place comes from a first run
/// (the layout is the same in every run of the same size).
#[test]
fn a_scripted_click_opens_a_panel_section() {
    if !have_display() {
        return;
    }
    let _l = lock();
    let args = ["--boids", "800", "--width", "1280", "--height", "720"];
    let first = run_app(
        "click-layout",
        &args,
        Some("3: panel open\n8: report @/r.json\n9: quit\n"),
    );
    first.assert_ok();
    let rep = first.report("r.json");
    let presets = &rep["panel_sections"]["Presets"];
    assert_eq!(presets["open"], false, "{rep}");
    let (hx, hy) = centre(&presets["header"]);
    let bar = &rep["ui_areas"]["toolbar"];
    // "Controls" is the tool bar's last button.
    let (bx, by) = (f(&bar[2]) - 40.0, centre(bar).1);
    let script = format!(
        "2: tool add\n\
         3: move {bx} {by}\n\
         4: press\n\
         5: release\n\
         8: report @/panel.json\n\
         9: move {hx} {hy}\n\
         10: press\n\
         11: release\n\
         14: report @/r.json\n\
         15: quit\n"
    );
    let r = run_app("click", &args, Some(&script));
    r.assert_ok();
    assert_eq!(r.report("panel.json")["panel_open"], true);
    let rep = r.report("r.json");
    assert_eq!(rep["panel_sections"]["Presets"]["open"], true, "{rep}");
    assert_eq!(rep["boids"], 800, "the presses reached no tool");
    // The control: the same press on the world adds boids.
    let r = run_app(
        "click-world",
        &args,
        Some("2: tool add\n3: move 300 300\n4: press\n5: release\n8: report @/r.json\n9: quit\n"),
    );
    r.assert_ok();
    assert!(f(&r.report("r.json")["boids"]) > 800.0);
}

/// Presets load through the scene path: the Vicsek box (its world, count and model, a uniform
/// start, predators drawn at most a fortieth of its side), the hunting predators (three, started
/// as flocks) and the trees (obstacles, walls, flocks).
#[test]
fn presets_load() {
    if !have_display() {
        return;
    }
    let _l = lock();
    let script = "\
        3: preset vicsek\n\
        5: report @/vicsek.json\n\
        6: preset predators\n\
        8: report @/predators.json\n\
        9: preset trees\n\
        11: report @/trees.json\n\
        12: quit\n";
    let r = run_app("presets", &["--boids", "1000"], Some(script));
    r.assert_ok();
    let v = r.report("vicsek.json");
    assert_eq!(v["model"], "vicsek");
    assert_eq!(v["preset"], "vicsek");
    assert_eq!(v["boids"], 4000);
    assert_eq!(v["spawn"], "uniform");
    let side = f(&v["world"][0]);
    assert!((side - 31.6228).abs() < 1e-3, "{side}");
    assert!(f(&v["predator_draw_radius"]) <= side / 40.0 + 1e-6, "{v}");
    assert!(f(&v["boid_length"]) < 1.0, "{v}");
    // The Vicsek scene's `[view]` draws it in heading colour; a scene without one keeps it.
    assert_eq!(v["colour"], "heading");
    let p = r.report("predators.json");
    assert_eq!(p["colour"], "heading");
    assert_eq!(p["model"], "boids");
    assert_eq!(p["predators"].as_array().unwrap().len(), 3);
    assert_eq!(p["spawn"], "flocks");
    assert_eq!(p["boids"], 5000);
    let t = r.report("trees.json");
    assert_eq!(t["obstacles"], 100);
    assert_eq!(t["params"]["boundary"], "walls");
    assert_eq!(t["spawn"], "flocks");
    assert!(t["scene_status"]
        .as_str()
        .unwrap()
        .starts_with("loaded preset trees"));
}

/// The tool radius is pixels on screen: zooming in by 1.15⁵ keeps 100 px and shrinks the world
/// radius by that factor.
#[test]
fn tool_radii_are_pixels() {
    if !have_display() {
        return;
    }
    let _l = lock();
    let script = "\
        2: tool attract\n\
        2: move 640 360\n\
        3: report @/a.json\n\
        4: wheel 5\n\
        5: report @/b.json\n\
        6: quit\n";
    let r = run_app("radii", &["--boids", "1000"], Some(script));
    r.assert_ok();
    let (a, b) = (r.report("a.json"), r.report("b.json"));
    assert_eq!(f(&a["tool_radius_px"]["attract"]), 100.0);
    assert_eq!(f(&b["tool_radius_px"]["attract"]), 100.0);
    let ratio = f(&a["tool_radius_wu"]) / f(&b["tool_radius_wu"]);
    assert!((ratio - 1.15f64.powi(5)).abs() < 1e-3, "{ratio}");
    assert!((f(&a["tool_radius_wu"]) - 100.0 / f(&a["zoom"])).abs() < 1e-3);
}

fn area(rep: &Value, name: &str) -> Option<[f64; 4]> {
    rep["ui_areas"][name]
        .as_array()
        .map(|a| [f(&a[0]), f(&a[1]), f(&a[2]), f(&a[3])])
}

fn overlap(a: [f64; 4], b: [f64; 4]) -> bool {
    a[0] < b[2] - 0.5 && b[0] < a[2] - 0.5 && a[1] < b[3] - 0.5 && b[1] < a[3] - 0.5
}

/// At 640, 700, 780 and 1024 px wide (600 high), with the panel, the help and an error message
/// shown: every area lies inside the window, the tool bar is whole (one row where it fits, else
/// folded), and neither the HUD, the tool bar, the panel nor the message covers another, nor the
/// help the HUD, the message or the tool bar (nor the panel, from 700 px on). The message of a scene with an unknown key names the key and
/// its line, and is short.
#[test]
fn the_tool_bar_and_the_areas_fit_every_width() {
    if !have_display() {
        return;
    }
    let _l = lock();
    let dir = scratch("widths");
    let bad = dir.path().join("bad.toml");
    std::fs::write(&bad, "boids = 50\n[params]\nseperation_weight = 2.0\n").unwrap();
    let script = format!(
        "3: panel open\n\
         3: key f1\n\
         4: scene-path {}\n\
         5: load-scene\n\
         10: report @/r.json\n\
         11: quit\n",
        bad.display()
    );
    let mut seen_folded = false;
    let mut seen_row = false;
    for w in [640.0, 700.0, 780.0, 1024.0] {
        let width = format!("{w}");
        let r: Run = run_app(
            "widths",
            &["--boids", "1000", "--width", &width, "--height", "600"],
            Some(&script),
        );
        r.assert_ok();
        let rep = r.report("r.json");
        let h = 600.0;
        let names = ["hud", "toolbar", "panel", "help", "messages"];
        let mut a = std::collections::BTreeMap::new();
        for n in names {
            let rect = area(&rep, n).unwrap_or_else(|| panic!("{w}: no {n}: {rep}"));
            assert!(
                rect[0] >= -0.5 && rect[1] >= -0.5 && rect[2] <= w + 0.5 && rect[3] <= h + 0.5,
                "{w}: {n} {rect:?} runs off the window"
            );
            a.insert(n, rect);
        }
        let bar = a["toolbar"];
        if bar[2] - bar[0] > 400.0 {
            seen_row = true;
        } else {
            seen_folded = true;
        }
        for (x, y) in [
            ("hud", "toolbar"),
            ("hud", "panel"),
            ("toolbar", "panel"),
            ("messages", "hud"),
            ("messages", "panel"),
            ("messages", "toolbar"),
            ("help", "hud"),
            ("help", "toolbar"),
            ("help", "messages"),
        ] {
            assert!(
                !overlap(a[x], a[y]),
                "{w}: {x} {:?} covers {y} {:?}",
                a[x],
                a[y]
            );
        }
        // Where the panel leaves room for it (700 px and wider), the help stays left of it.
        if w >= 700.0 {
            assert!(
                !overlap(a["help"], a["panel"]),
                "{w}: help {:?} covers the panel {:?}",
                a["help"],
                a["panel"]
            );
        }
        let msg = rep["message"].as_str().unwrap();
        assert!(
            msg.contains("seperation_weight") && msg.contains("line 3"),
            "{msg}"
        );
        let status = rep["scene_status"].as_str().unwrap();
        assert!(status.contains("separation_weight"), "{status}");
    }
    assert!(
        seen_row && seen_folded,
        "both forms of the tool bar were tested"
    );
}

/// The panel's live plot fills on both backends while the panel is open, its samples read without
/// waiting (the GPU's a frame or more late), and not while it is closed.
#[test]
fn the_live_plot_fills_while_the_panel_is_open_on_both_backends() {
    if !have_display() {
        return;
    }
    let _l = lock();
    // Each frame presents (≥ 10 ms under Xvfb), so 300 frames span more than the plot's 1 s period
    // twice.
    let script = "\
        150: report @/closed.json\n\
        151: panel open\n\
        450: report @/open.json\n\
        451: quit\n";
    for backend in ["gpu", "cpu"] {
        let r = run_app(
            &format!("plot-{backend}"),
            &["--boids", "2000", "--backend", backend],
            Some(script),
        );
        r.assert_ok();
        assert_eq!(
            r.report("closed.json")["plot_samples"],
            0,
            "{backend}: sampled while closed"
        );
        let rep = r.report("open.json");
        let open = f(&rep["plot_samples"]);
        assert!(open >= 2.0, "{backend}: {open} samples in 300 frames");
        // The census (counted off the frame, on a thread) came back with the sample.
        let flocks = f(&rep["plot_flocks"]);
        assert!(flocks >= 1.0, "{backend}: {flocks} flocks");
    }
}

/// The tool bar keeps its width whatever the tool and whether paused, so its buttons do not
/// slide under the pointer.
#[test]
fn the_tool_bar_keeps_its_width_across_tools_and_pause() {
    if !have_display() {
        return;
    }
    let _l = lock();
    let script = "\
        2: tool add\n\
        4: report @/add.json\n\
        5: tool predator\n\
        7: report @/predator.json\n\
        8: tool-radius 400\n\
        10: report @/wide.json\n\
        11: key space\n\
        13: report @/paused.json\n\
        14: tool attract\n\
        15: tool-radius 2000\n\
        17: report @/longest.json\n\
        18: quit\n";
    let r = run_app(
        "toolbar-width",
        &["--boids", "500", "--width", "1280", "--height", "720"],
        Some(script),
    );
    r.assert_ok();
    let width = |name: &str| {
        let a = &r.report(name)["ui_areas"]["toolbar"];
        f(&a[2]) - f(&a[0])
    };
    let add = width("add.json");
    assert!(add > 200.0, "{add}");
    for name in ["predator.json", "wide.json", "paused.json", "longest.json"] {
        let w = width(name);
        assert!(
            (w - add).abs() < 0.5,
            "{name}: {w} px against {add} with the add tool"
        );
    }
    assert_eq!(r.report("paused.json")["paused"], true);
}

/// A scene's `[view] colour` is the app's first colour unless `--colour` says otherwise, and the
/// app's Save writes the colour in use.
#[test]
fn a_scene_sets_the_first_colour_and_save_keeps_it() {
    if !have_display() {
        return;
    }
    let _l = lock();
    let vicsek = concat!(env!("CARGO_MANIFEST_DIR"), "/scenes/vicsek.toml");
    let r = run_app(
        "scene-colour",
        &["--scene", vicsek],
        Some("3: report @/r.json\n4: quit\n"),
    );
    r.assert_ok();
    assert_eq!(r.report("r.json")["colour"], "heading");
    let r = run_app(
        "scene-colour-cli",
        &["--scene", vicsek, "--colour", "speed"],
        Some("3: key c\n4: scene-path @/saved.toml\n5: save-scene\n7: report @/r.json\n8: quit\n"),
    );
    r.assert_ok();
    let rep = r.report("r.json");
    assert_eq!(rep["colour"], "neighbours", "C after speed");
    let saved = std::fs::read_to_string(r.path("saved.toml")).unwrap();
    assert!(
        saved.contains("[view]") && saved.contains("colour = \"neighbours\""),
        "{saved}"
    );
}
