//! Bad input is rejected with an error that names the field, the value and the allowed range
//! (and the file and line for scene files).

use std::path::Path;

use crate::support;
use boids::backend::BackendKind;
use boids::cpu::CpuBackend;
use boids::formats::scene::Scene;
use boids::model::{validate_boid_count, SimParams};

fn err_of(p: SimParams) -> String {
    p.validate().unwrap_err().to_string()
}

/// Default parameters with one change.
fn with(change: impl FnOnce(&mut SimParams)) -> SimParams {
    let mut p = SimParams::default();
    change(&mut p);
    p
}

/// Each case's parameters are refused with a message holding every one of its parts.
fn params_refused(cases: Vec<(SimParams, &[&str])>) {
    for (p, wants) in cases {
        support::assert_names(&err_of(p), wants);
    }
}

/// Each scene text (read as the file named with it) is refused with a message holding every one
/// of its parts.
fn scenes_refused(cases: &[(&str, &str, &[&str])]) {
    for (text, file, wants) in cases {
        let e = Scene::parse(text, Path::new(file)).unwrap_err().to_string();
        support::assert_names(&e, wants);
    }
}

#[test]
fn out_of_range_names_field_value_and_range() {
    params_refused(vec![
        (
            with(|p| p.models.boids.max_speed = -1.0),
            &["max_speed", "-1", "..="],
        ),
        (with(|p| p.dt = 5.0), &["dt = 5", "0.1"]),
        (
            with(|p| p.rotational_diffusion = 101.0),
            &["rotational_diffusion = 101", "100"],
        ),
    ]);
}

#[test]
fn nan_is_rejected() {
    params_refused(vec![(
        with(|p| p.models.boids.cohesion_weight = f32::NAN),
        &["cohesion_weight", "NaN"],
    )]);
}

#[test]
fn rule_radius_above_perception_is_rejected() {
    params_refused(vec![(
        with(|p| {
            p.alignment_radius = 50.0;
            p.perception_radius = 20.0;
        }),
        &["alignment_radius", "perception_radius", "50"],
    )]);
}

#[test]
fn zero_and_absurd_world_size() {
    params_refused(vec![
        (with(|p| p.world_width = 0.0), &["world_width = 0"]),
        (with(|p| p.world_height = 1e9), &["world_height"]),
    ]);
}

#[test]
fn min_speed_above_max_speed() {
    params_refused(vec![(
        with(|p| {
            p.models.boids.min_speed = 200.0;
            p.models.boids.max_speed = 100.0;
        }),
        &["min_speed", "100"],
    )]);
}

#[test]
fn zero_boids() {
    let e = validate_boid_count(0).unwrap_err().to_string();
    support::assert_names(&e, &["boids = 0"]);
    let e = CpuBackend::new(BackendKind::Cpu, &SimParams::default(), 0, 1)
        .err()
        .unwrap()
        .to_string();
    support::assert_names(&e, &["boids"]);
}

#[test]
fn backends_refuse_invalid_params() {
    let bad = with(|p| p.models.boids.separation_weight = -3.0);
    let e = CpuBackend::new(BackendKind::Cpu, &bad, 10, 1)
        .err()
        .unwrap()
        .to_string();
    support::assert_names(&e, &["separation_weight"]);
}

#[test]
fn scene_unknown_key_names_file_line_and_key() {
    scenes_refused(&[(
        "boids = 10\n[params]\nmax_speed = 50.0\nmax_sped = 3.0\n",
        "flock.toml",
        &["flock.toml", "line 4", "max_sped"],
    )]);
}

#[test]
fn a_scene_with_the_old_noise_key_says_what_replaced_it() {
    scenes_refused(&[(
        "[params]\nnoise = 0.3\n",
        "old.toml",
        &["line 2", "rotational_diffusion", "η² / (24·dt)"],
    )]);
}

#[test]
fn scene_bad_type_and_bad_toml() {
    scenes_refused(&[
        ("[params]\ndt = \"fast\"\n", "a.toml", &["a.toml", "line 2"]),
        ("boids = = 3\n", "b.toml", &["b.toml", "line 1"]),
        (
            "[params]\nboundary = \"donut\"\n",
            "c.toml",
            &["c.toml", "line 2", "donut"],
        ),
    ]);
}

#[test]
fn scene_value_out_of_range_names_file_and_field() {
    scenes_refused(&[
        (
            "[params]\ncohesion_radius = 500.0\n",
            "d.toml",
            &["d.toml", "cohesion_radius"],
        ),
        ("boids = 0\n", "e.toml", &["e.toml", "boids"]),
    ]);
}

#[test]
fn missing_scene_file_is_named() {
    let e = Scene::load(Path::new("/nonexistent/scene.toml"))
        .unwrap_err()
        .to_string();
    assert!(e.contains("/nonexistent/scene.toml"), "{e}");
}

#[test]
fn shipped_scenes_load() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "toml") {
            Scene::load(&path).unwrap_or_else(|e| panic!("{e}"));
            n += 1;
        }
    }
    assert!(n >= 4, "expected the four source scenes, found {n}");
}

#[test]
fn state_csv_round_trip_and_bad_row() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let p = SimParams::default();
    let boids = boids::model::initial_state(3, 50, &p);
    let path = dir.join("state.csv");
    boids::formats::checkpoint::save_state(&path, &boids).unwrap();
    let back = boids::formats::checkpoint::load_state(&path).unwrap();
    assert_eq!(back, boids, "a saved state loads back bit for bit");
    let text = std::fs::read_to_string(&path).unwrap();
    let broken = text.replacen('\n', "\n1,2,oops,4,5,6,7,8,9,0,0\n", 1);
    std::fs::write(&path, broken).unwrap();
    let e = boids::formats::checkpoint::load_state(&path)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("state.csv") && e.contains("line 2") && e.contains("oops"),
        "{e}"
    );
}

#[test]
fn a_world_size_written_in_a_scene_is_kept_even_at_the_default_value() {
    let s = Scene::parse(
        "[params]\nworld_width = 1000.0\nworld_height = 1000.0\n",
        Path::new("w.toml"),
    )
    .unwrap();
    assert!(s.world_is_fixed());
    let s = Scene::parse("[params]\nmax_speed = 90.0\n", Path::new("w.toml")).unwrap();
    assert!(!s.world_is_fixed());
}

#[test]
fn scene_range_error_names_the_line_and_plain_decimals() {
    scenes_refused(&[(
        "boids = 5\n\n[params]\ndt = 0.2\n",
        "dt.toml",
        &["line 4", "dt = 0.2 ", "0.0001 ..= 0.1"],
    )]);
}

#[test]
fn non_finite_obstacles_are_rejected() {
    scenes_refused(&[(
        "obstacles = [[1.0, 2.0], [nan, 1.0]]\n",
        "o.toml",
        &["o.toml", "line 1", "obstacle point 1"],
    )]);
}

#[test]
fn duplicate_ids_in_a_state_file_are_rejected() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let path = dir.join("dup.csv");
    std::fs::write(
        &path,
        "id,x,y,vx,vy,hx,hy,hvx,hvy\n1,1,1,1,0,1,0,0,0\n1,2,2,1,0,1,0,0,0\n",
    )
    .unwrap();
    let e = boids::formats::checkpoint::load_state(&path)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("line 3") && e.contains("id 1 appears twice"),
        "{e}"
    );
}

/// A scene's error for `text` (file `s.toml`).
fn scene_err(text: &str) -> String {
    Scene::parse(text, Path::new("s.toml"))
        .unwrap_err()
        .to_string()
}

/// Coordinates are exactly two numbers: extra numbers are refused (not dropped), naming the file,
/// the line and the key, as is a single number.
#[test]
fn scene_coordinates_take_exactly_two_numbers() {
    for (text, line, key) in [
        (
            "[[predators]]\nposition = [1, 2, 3]\n",
            2,
            "predators[0].position",
        ),
        (
            "[[predators]]\nposition = [1, 2]\nvelocity = [1, 2, 3, 4]\n",
            3,
            "predators[0].velocity",
        ),
        ("boids = 5\nobstacles = [[1, 2, 3]]\n", 2, "obstacles[0]"),
        (
            "obstacles = [\n  [1.0, 2.0],\n  [3.0, 4.0, 5.0],\n]\n",
            3,
            "obstacles[1]",
        ),
        (
            "[[predators]]\nposition = [1]\n",
            2,
            "predators[0].position",
        ),
    ] {
        let e = scene_err(text);
        assert!(
            e.contains("s.toml")
                && e.contains(&format!("line {line},"))
                && e.contains(key)
                && e.contains("exactly two numbers"),
            "{text:?}: {e}"
        );
    }
    // Two numbers load.
    let s = Scene::parse(
        "obstacles = [[1, 2]]\n[[predators]]\nposition = [3, 4]\nvelocity = [5, 6]\n",
        Path::new("s.toml"),
    )
    .unwrap();
    assert_eq!(s.obstacles, vec![[1.0, 2.0]]);
    assert_eq!(
        (s.predators[0].position, s.predators[0].velocity),
        ([3.0, 4.0], [5.0, 6.0])
    );
}

/// A bad value inside a `[[predators]]` table that follows `[params]` is named as the predator's
/// key, not as a key of `[params]`.
#[test]
fn a_bad_predator_value_after_params_names_the_predator() {
    let text = "[params]\nmax_speed = 90.0\n\n[[predators]]\nposition = [1, 2]\n\n\
                [[predators]]\nposition = [3, 4]\nkind = \"hunter\"\n";
    let e = scene_err(text);
    assert!(
        e.contains("line 9") && e.contains("predators[1].kind") && !e.contains("params.kind"),
        "{e}"
    );
    let e = scene_err("[params]\ndt = 0.01\n[[predators]]\nposition = \"here\"\n");
    assert!(
        e.contains("line 4") && e.contains("predators[0].position") && !e.contains("params."),
        "{e}"
    );
}

/// A checkpoint's metadata takes exactly two numbers per point too, naming the file, line and key.
#[test]
fn checkpoint_coordinates_take_exactly_two_numbers() {
    use boids::formats::checkpoint::{load_checkpoint, save_checkpoint, Checkpoint};
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cp.csv");
    let params = SimParams::default();
    let cp = Checkpoint {
        params: params.clone(),
        seed: 1,
        step: 0,
        obstacles: vec![[10.0, 20.0], [30.0, 40.0]],
        predators: vec![boids::model::PredatorSpec {
            position: [50.0, 60.0],
            velocity: [1.5, 0.0],
            kind: boids::model::PredatorKind::Straight,
        }],
        catches_total: 0,
        boids: boids::model::initial_state(1, 10, &params),
    };
    save_checkpoint(&path, &cp).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    let line_of = |needle: &str| 1 + text.lines().position(|l| l.contains(needle)).unwrap();
    for (from, to, key) in [
        ("[30.0, 40.0]", "[30.0, 40.0, 1.0]", "obstacles[1]"),
        (
            "position = [50.0, 60.0]",
            "position = [50.0, 60.0, 7.0]",
            "predators[0].position",
        ),
        (
            "velocity = [1.5, 0.0]",
            "velocity = [1.5, 0.0, 0.0, 2.0]",
            "predators[0].velocity",
        ),
    ] {
        let line = line_of(from);
        let bad = dir.path().join("bad.csv");
        std::fs::write(&bad, text.replacen(from, to, 1)).unwrap();
        let e = load_checkpoint(&bad).unwrap_err().to_string();
        assert!(
            e.contains("bad.csv")
                && e.contains(&format!("line {line}:"))
                && e.contains(key)
                && e.contains("exactly two numbers"),
            "{to}: {e}"
        );
    }
}

/// Obstacles and predators outside the world of the run are refused when the run is set up,
/// naming the scene file, the line, the key, the value and the world's size — also when the world
/// is sized to the boid count later (the scene writes no world size).
#[test]
fn scene_points_outside_the_world_are_refused_when_the_run_is_set_up() {
    let scene = |text: &str| Scene::parse(text, Path::new("far.toml")).unwrap();
    let s = scene(
        "[params]\nworld_width = 50.0\nworld_height = 50.0\n\n[[predators]]\nposition = [10, 10]\n\
         [[predators]]\nposition = [500, 500]\n",
    );
    let e = boids::run::spec::scene_setup(Some(&s), Some(10), None, 10, 1.0)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("far.toml")
            && e.contains("line 8")
            && e.contains("predators[1].position = [500, 500]")
            && e.contains("[0, 50) × [0, 50)"),
        "{e}"
    );
    // No world size in the scene: 100 boids get a 100 × 100 world, known only at set-up.
    let s = scene("boids = 100\nobstacles = [\n  [1, 2],\n  [1e9, 5],\n]\n");
    let e = boids::run::spec::scene_setup(Some(&s), None, None, 10, 1.0)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("far.toml")
            && e.contains("line 4")
            && e.contains("obstacles[1] = [1000000000, 5]")
            && e.contains("[0, 100) × [0, 100)")
            && e.contains("world_width"),
        "{e}"
    );
    // A world written but not fixed (`fixed_world = false`) says so, not that none is written.
    let s = scene(
        "fixed_world = false\nobstacles = [[400, 400]]\n[params]\nworld_width = 500.0\n\
         world_height = 500.0\n",
    );
    let e = boids::run::spec::scene_setup(Some(&s), Some(100), None, 10, 1.0)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("fixed_world = false") && !e.contains("writes no world size"),
        "{e}"
    );
    // The same scene in a world that holds its points (more boids) is fine, and the app's set-up
    // (world sized to the window) refuses as the others do.
    let s = scene("obstacles = [[150, 5]]\n[[predators]]\nposition = [5, 150]\n");
    assert!(boids::run::spec::scene_setup(Some(&s), Some(10_000), None, 10, 1.0).is_ok());
    let hundred = boids::run::spec::Overrides {
        boids: Some(100),
        ..Default::default()
    };
    let e = boids::app::start::app_setup(Some(&s), &hundred, 100, 1.0, None)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("far.toml") && e.contains("line 1") && e.contains("obstacles[0]"),
        "{e}"
    );
    // Exactly on the far edge is outside ([0, W)), as for boids.
    let s = scene(
        "[params]\nworld_width = 50.0\nworld_height = 50.0\n[[predators]]\nposition = [50, 0]\n",
    );
    assert!(boids::run::spec::scene_setup(Some(&s), Some(10), None, 10, 1.0).is_err());
}

/// A checkpoint's obstacles and predators lie inside its world: refused on load (file, line, key,
/// value, world) and on save.
#[test]
fn checkpoint_points_outside_the_world_are_refused() {
    use boids::formats::checkpoint::{load_checkpoint, save_checkpoint, Checkpoint};
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cp.csv");
    let params = SimParams {
        world_width: 200.0,
        world_height: 100.0,
        ..SimParams::default()
    };
    let mut cp = Checkpoint {
        params: params.clone(),
        seed: 1,
        step: 0,
        obstacles: vec![[10.0, 20.0], [30.0, 40.0]],
        predators: vec![boids::model::PredatorSpec {
            position: [50.0, 60.0],
            velocity: [1.5, 0.0],
            kind: boids::model::PredatorKind::Straight,
        }],
        catches_total: 0,
        boids: boids::model::initial_state(1, 10, &params),
    };
    save_checkpoint(&path, &cp).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    let line_of = |needle: &str| 1 + text.lines().position(|l| l.contains(needle)).unwrap();
    for (from, to, key) in [
        ("[30.0, 40.0]", "[30.0, 400.0]", "obstacles[1] = [30, 400]"),
        (
            "position = [50.0, 60.0]",
            "position = [-1.0, 60.0]",
            "predators[0].position = [-1, 60]",
        ),
    ] {
        let line = line_of(from);
        let bad = dir.path().join("bad.csv");
        std::fs::write(&bad, text.replacen(from, to, 1)).unwrap();
        let e = load_checkpoint(&bad).unwrap_err().to_string();
        assert!(
            e.contains("bad.csv")
                && e.contains(&format!("line {line}:"))
                && e.contains(key)
                && e.contains("[0, 200) × [0, 100)"),
            "{to}: {e}"
        );
    }
    cp.predators[0].position = [250.0, 10.0];
    let e = save_checkpoint(&path, &cp).unwrap_err().to_string();
    assert!(e.contains("predators[0].position = [250, 10]"), "{e}");
}

/// A value of the wrong kind names the parameter's range, not the Rust type it is stored in, in a
/// scene file (with the value's line) and through `--set`.
#[test]
fn a_value_of_the_wrong_kind_names_the_range() {
    for (text, line, want) in [
        (
            "[params]\nneighborhood = \"topological\"\ntopological_k = 7.5\n",
            "line 3",
            "params.topological_k: expected a whole number in 1 ..= 64",
        ),
        (
            "[params]\n\ntopological_k = -1\n",
            "line 3",
            "expected a whole number in 1 ..= 64",
        ),
        (
            "[params]\nmax_speed = \"fast\"\n",
            "line 2",
            "params.max_speed: expected a number in 0.001 ..= 100000",
        ),
        // Beyond f32: quoted as written, not as the inf it would become.
        (
            "[params]\nperception_radius = 1e40\n",
            "line 2",
            "beyond 3.4e38, the largest number a parameter holds: expected a number in 0.01 ..= 100000, not 1e40",
        ),
    ] {
        let e = scene_err(text);
        assert!(
            e.contains("s.toml") && e.contains(line) && e.contains(want),
            "{e}"
        );
        assert!(!e.contains("u32") && !e.contains("f32"), "{e}");
    }
    for (key, value, want) in [
        (
            "topological_k",
            "seven",
            "topological_k = seven: expected a whole number in 1 ..= 64",
        ),
        (
            "max_neighbors",
            "2.5",
            "max_neighbors = 2.5: expected a whole number in 0 ..= 16",
        ),
        // Beyond f32: quoted as given, not as the inf it would become.
        (
            "perception_radius",
            "1e40",
            "perception_radius = 1e40: beyond 3.4e38, the largest number a parameter holds: expected a number in \
             0.01 ..= 100000",
        ),
    ] {
        let e = SimParams::default()
            .set(key, value)
            .unwrap_err()
            .to_string();
        assert!(e.contains(want), "{e}");
    }
    // A name keeps the list of names.
    let e = SimParams::default()
        .set("vicsek_noise", "fooo")
        .unwrap_err()
        .to_string();
    assert!(e.contains("angular") && e.contains("vectorial"), "{e}");
    // A number where a name is expected (a sweep's values) is told the names.
    let e = SimParams::default()
        .set("vicsek_noise", "0")
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("vicsek_noise = 0: expected one of angular, vectorial"),
        "{e}"
    );
}

/// η of vectorial noise out of its range names that range (0 ..= 1), even where it is also
/// outside the angular one; angular noise keeps the table's 0 ..= 2π.
#[test]
fn vectorial_eta_names_its_own_range() {
    for eta in [-0.1f32, 7.0, f32::NAN] {
        let mut p = SimParams::default();
        p.set("model", "vicsek").unwrap();
        p.set("vicsek_noise", "vectorial").unwrap();
        p.models.vicsek.eta = eta;
        let e = err_of(p);
        assert!(
            e.contains("for vicsek_noise = vectorial: allowed 0 ..= 1"),
            "{e}"
        );
    }
    let mut p = SimParams::default();
    p.set("model", "vicsek").unwrap();
    p.models.vicsek.eta = -0.1;
    let e = err_of(p);
    assert!(
        e.contains("vicsek_eta = -0.1 is out of range: allowed 0 ..= 6.28"),
        "{e}"
    );
}

/// `max_neighbors = 0` (no cap) is accepted as a setting in the topological neighbourhood; a cap
/// is refused, naming the neighbourhood.
#[test]
fn no_cap_is_the_topological_neighbourhoods_own_value() {
    let mut p = SimParams::default();
    p.set("neighborhood", "topological").unwrap();
    p.set("max_neighbors", "0").unwrap();
    p.check_used("max_neighbors").unwrap();
    p.validate().unwrap();
    p.set("max_neighbors", "3").unwrap();
    let e = p.check_used("max_neighbors").unwrap_err().to_string();
    assert!(e.contains("neighborhood = topological"), "{e}");
}

/// docs/model.md §3.1 has a row for every parameter of the code's table.
#[test]
fn the_parameter_table_of_the_docs_lists_every_parameter() {
    let doc = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/model.md"))
        .unwrap();
    let start = doc.find("### 3.1 Simulation parameters").unwrap();
    let end = start + doc[start..].find("\n### ").unwrap();
    let table = &doc[start..end];
    let missing: Vec<&str> = SimParams::specs()
        .iter()
        .map(|s| s.key)
        .filter(|k| !table.contains(&format!("| `{k}` |")))
        .collect();
    assert!(
        missing.is_empty(),
        "missing from docs/model.md §3.1: {missing:?}"
    );
}
