//! The run layer: one precedence (built-in defaults < scene < checkpoint < command line), tested
//! once here through `run::resolve`, and `--set KEY=VALUE` on every command that runs a
//! simulation (`run`, `headless`, `snapshot`, `bench`, `sweep`): a good setting takes effect, a bad
//! one is refused with the nearest keys, a key the model does not use names the model's.

use crate::support::cmd::boids;

use std::path::Path;

use boids::formats::checkpoint::{load_checkpoint, save_checkpoint, Checkpoint};
use boids::formats::scene::Scene;
use boids::model::{initial_state, SimParams};
use boids::run::args::{parse_set, Set};
use boids::run::spec::{resolve, Defaults, Inputs, Overrides, PRECEDENCE};
use boids::run::RunError;

fn sets(s: &[&str]) -> Vec<Set> {
    s.iter().map(|x| parse_set(x).unwrap()).collect()
}

#[test]
fn defaults_then_scene_then_checkpoint_then_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let scene_path = dir.path().join("s.toml");
    std::fs::write(
        &scene_path,
        "boids = 300\nseed = 5\n[params]\nseparation_weight = 2.0\nalignment_weight = 0.5\n\
         world_width = 400.0\nworld_height = 400.0\n",
    )
    .unwrap();
    let d = Defaults::headless(123);
    let none = Overrides::default();
    // Defaults alone.
    let r = resolve(&Inputs::default(), &none, &d).unwrap();
    let base = SimParams::default();
    assert_eq!(
        (r.setup.boids.len(), r.setup.seed, r.setup.step),
        (123, 1, 0)
    );
    assert_eq!(
        r.setup.params.models.boids.separation_weight,
        base.models.boids.separation_weight
    );
    // The scene replaces the defaults.
    let scene_only = Inputs::load(Some(&scene_path), None).unwrap();
    let r = resolve(&scene_only, &none, &d).unwrap();
    assert_eq!((r.setup.boids.len(), r.setup.seed), (300, 5));
    assert_eq!(r.setup.params.models.boids.separation_weight, 2.0);
    assert_eq!(r.setup.params.world_width, 400.0);
    // A checkpoint replaces the scene (every parameter, seed, step, count), and says the scene
    // was not used.
    let mut saved = SimParams {
        world_width: 500.0,
        world_height: 500.0,
        ..SimParams::default()
    };
    saved.models.boids.separation_weight = 3.0;
    let cp_path = dir.path().join("cp.csv");
    save_checkpoint(
        &cp_path,
        &Checkpoint {
            boids: initial_state(7, 50, &saved),
            params: saved,
            seed: 7,
            step: 10,
            obstacles: Vec::new(),
            predators: Vec::new(),
            catches_total: 4,
        },
    )
    .unwrap();
    let both = Inputs::load(Some(&scene_path), Some(&cp_path)).unwrap();
    let r = resolve(&both, &none, &d).unwrap();
    assert_eq!(
        (
            r.setup.boids.len(),
            r.setup.seed,
            r.setup.step,
            r.catches_total
        ),
        (50, 7, 10, 4)
    );
    assert_eq!(r.setup.params.models.boids.separation_weight, 3.0);
    assert_eq!(
        r.setup.params.models.boids.alignment_weight, 1.2,
        "not the scene's"
    );
    assert_eq!(r.setup.params.world_width, 500.0);
    assert!(
        r.warnings
            .iter()
            .any(|w| w.contains("s.toml") && w.contains("not used")),
        "{:?}",
        r.warnings
    );
    // The command line replaces everything, in order.
    let s = sets(&[
        "separation_weight=4",
        "separation_weight=4.5",
        "boundary=walls",
    ]);
    let o = Overrides {
        seed: Some(9),
        sets: &s,
        ..Overrides::default()
    };
    let r = resolve(&both, &o, &d).unwrap();
    assert_eq!(r.setup.seed, 9);
    assert_eq!(
        r.setup.step, 10,
        "the step index is always the checkpoint's"
    );
    assert_eq!(r.setup.params.models.boids.separation_weight, 4.5);
    assert_eq!(r.setup.params.boundary, boids::model::Boundary::Walls);
    // --boids must agree with a state file.
    let o = Overrides {
        boids: Some(51),
        ..Overrides::default()
    };
    let e = resolve(&both, &o, &d).unwrap_err().to_string();
    assert!(e.contains("--boids 51") && e.contains("50 boids"), "{e}");
    // The rule is written once, for --help and the docs.
    assert!(PRECEDENCE.contains("defaults < scene < checkpoint < command line"));
}

#[test]
fn a_scene_that_fixes_its_world_keeps_its_density_at_another_count_unless_keep_world() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("fixed.toml");
    std::fs::write(
        &path,
        "boids = 100\nobstacles = [[50.0, 25.0]]\n[params]\nworld_width = 100.0\n\
         world_height = 50.0\n[[predators]]\nposition = [10.0, 40.0]\n",
    )
    .unwrap();
    let inputs = Inputs::load(Some(&path), None).unwrap();
    let d = Defaults::headless(1);
    let at = |boids: Option<usize>, keep_world: bool| {
        resolve(
            &inputs,
            &Overrides {
                boids,
                keep_world,
                ..Overrides::default()
            },
            &d,
        )
        .unwrap()
    };
    let density = |r: &boids::run::spec::RunSpec| {
        r.setup.boids.len() as f64
            / (r.setup.params.world_width as f64 * r.setup.params.world_height as f64)
    };
    // The scene's own count: its world as written, ρ = 100 / 5000 = 0.02.
    let r = at(None, false);
    assert_eq!(
        (r.setup.params.world_width, r.setup.params.world_height),
        (100.0, 50.0)
    );
    // Four times the boids: sides × 2, the obstacle and predator moved with them, ρ kept.
    let r = at(Some(400), false);
    assert_eq!(
        (r.setup.params.world_width, r.setup.params.world_height),
        (200.0, 100.0)
    );
    assert_eq!(r.setup.actors.obstacles, vec![[100.0, 50.0]]);
    assert_eq!(r.setup.actors.predators[0].position, [20.0, 80.0]);
    assert!((density(&r) - 0.02).abs() < 1e-9, "{}", density(&r));
    assert!(r.world_from.contains("√(400/100)"), "{}", r.world_from);
    // --keep-world: the world as written, and the density four times the scene's.
    let r = at(Some(400), true);
    assert_eq!(
        (r.setup.params.world_width, r.setup.params.world_height),
        (100.0, 50.0)
    );
    assert_eq!(r.setup.actors.obstacles, vec![[50.0, 25.0]]);
    assert!((density(&r) - 0.08).abs() < 1e-9);
    // keep_world without a scene (Python's keep_world=True; the command line refuses it
    // first): refused, not ignored.
    let e = resolve(
        &Inputs::load(None, None).unwrap(),
        &Overrides {
            boids: Some(400),
            keep_world: true,
            ..Overrides::default()
        },
        &d,
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("keep_world") && e.contains("no scene"), "{e}");
    // A --set of the world's size wins over the scaling.
    let s = sets(&["world_width=300"]);
    let r = resolve(
        &inputs,
        &Overrides {
            boids: Some(400),
            sets: &s,
            ..Overrides::default()
        },
        &d,
    )
    .unwrap();
    assert_eq!(
        (r.setup.params.world_width, r.setup.params.world_height),
        (300.0, 100.0)
    );
}

#[test]
fn a_world_sized_to_the_count_yields_to_a_set_of_its_size() {
    let d = Defaults::headless(1000);
    let s = sets(&["world_width=123", "world_height=321"]);
    let o = Overrides {
        sets: &s,
        ..Overrides::default()
    };
    let r = resolve(&Inputs::default(), &o, &d).unwrap();
    assert_eq!(
        (r.setup.params.world_width, r.setup.params.world_height),
        (123.0, 321.0)
    );
    assert_eq!(r.world_from, "--set");
    // Without it: sized to the count at the default density.
    let r = resolve(&Inputs::default(), &Overrides::default(), &d).unwrap();
    assert!((r.setup.params.world_width - 316.23).abs() < 0.01);
}

#[test]
fn bad_settings_name_the_setting_and_what_is_allowed() {
    let d = Defaults::headless(100);
    let check = |s: &str, want: &[&str]| {
        let v = sets(&[s]);
        let o = Overrides {
            sets: &v,
            ..Overrides::default()
        };
        let e = resolve(&Inputs::default(), &o, &d).unwrap_err();
        assert!(matches!(e, RunError::Set { .. }), "{s}: {e:?}");
        let e = e.to_string();
        for w in want {
            assert!(e.contains(w), "{s}: {e}");
        }
    };
    check(
        "sepration_weight=1",
        &[
            "--set sepration_weight=1",
            "did you mean `separation_weight`",
        ],
    );
    check(
        "separation_weight=1000",
        &["separation_weight = 1000 is out of range", "0 ..= 100"],
    );
    check("boundary=round", &["boundary = round", "unknown variant"]);
    check(
        "vicsek_eta=1",
        &[
            "vicsek_eta is not used by the boids model",
            "separation_weight",
        ],
    );
    // A set of the model makes its parameters usable.
    let v = sets(&["model=vicsek", "vicsek_eta=1"]);
    let o = Overrides {
        sets: &v,
        ..Overrides::default()
    };
    let r = resolve(&Inputs::default(), &o, &d).unwrap();
    assert_eq!(r.setup.params.models.vicsek.eta, 1.0);
    // A scene key is checked the same way (the nearest keys).
    let e = Scene::parse("[params]\nsepration_weight = 1\n", Path::new("x.toml"))
        .unwrap_err()
        .to_string();
    assert!(e.contains("did you mean `separation_weight`"), "{e}");
}

/// Runs the binary; (status ok, stdout, stderr).
fn run(args: &[&str], dir: &Path) -> (bool, String, String) {
    let out = boids()
        .args(args)
        .current_dir(dir)
        .env("XDG_RUNTIME_DIR", std::env::temp_dir())
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn every_command_takes_set_and_refuses_a_bad_one() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    let commands: [&[&str]; 5] = [
        &["run", "--frames", "1"],
        &["headless", "--boids", "50", "--steps", "2"],
        &[
            "snapshot", "--out", "x.png", "--boids", "50", "--steps", "1",
        ],
        &[
            "bench",
            "--backends",
            "cpu",
            "--boids",
            "50",
            "--steps",
            "2",
        ],
        &[
            "sweep",
            "--param",
            "alignment_weight",
            "--values",
            "1,2",
            "--boids",
            "50",
            "--steps",
            "6",
            "--discard",
            "2",
            "--quiet",
        ],
    ];
    for c in commands {
        let mut a: Vec<&str> = c.to_vec();
        a.extend(["--set", "sepration_weight=1"]);
        let (ok, _, err) = run(&a, p);
        assert!(
            !ok && err.contains("did you mean `separation_weight`"),
            "{c:?}: {err}"
        );
    }
    // Good settings take effect: headless writes them into its checkpoint …
    let (ok, _, err) = run(
        &[
            "headless",
            "--boids",
            "50",
            "--steps",
            "2",
            "--save",
            "h.csv",
            "--set",
            "model=vicsek",
            "--set",
            "vicsek_eta=0.5",
        ],
        p,
    );
    assert!(ok, "{err}");
    let cp = load_checkpoint(&p.join("h.csv")).unwrap();
    assert_eq!(cp.params.model, boids::model::Model::VICSEK);
    assert_eq!(cp.params.models.vicsek.eta, 0.5);
    // … the sweep into its summary (and every point) …
    let (ok, _, err) = run(
        &[
            "sweep",
            "--param",
            "alignment_weight",
            "--values",
            "1,2",
            "--boids",
            "50",
            "--steps",
            "6",
            "--discard",
            "2",
            "--quiet",
            "--out",
            "sw",
            "--set",
            "separation_weight=2.5",
        ],
        p,
    );
    assert!(ok, "{err}");
    let summary = std::fs::read_to_string(p.join("sw/summary.json")).unwrap();
    let v: serde_json::Value = serde_json::from_str(&summary).unwrap();
    assert_eq!(v["base_params"]["separation_weight"], 2.5, "{summary}");
    assert_eq!(v["plan"]["sets"][0], "separation_weight=2.5", "{summary}");
    // … and the bench into its runs' parameters.
    let (ok, _, err) = run(
        &[
            "bench",
            "--backends",
            "cpu",
            "--boids",
            "50",
            "--steps",
            "2",
            "--out",
            "b",
            "--set",
            "separation_weight=2.5",
        ],
        p,
    );
    assert!(ok, "{err}");
    let summary = std::fs::read_to_string(p.join("b/summary.json")).unwrap();
    assert!(
        summary.contains("separation_weight=2.5") && summary.contains("\"separation_weight\": 2.5"),
        "{summary}"
    );
}

/// Counts and worlds the run layer resolves say what they are: a plain state CSV with a scene
/// that fixes its world keeps the scene's density at the file's count (as a GSD frame and
/// `--boids` do); `--boids 0` names the count, not the world it would size; a world the density
/// scaling pushes out of range says so and names `--keep-world`; a default the scene's other
/// settings put out of range is named as the default, not at line 1; `0x10` is not a number.
#[test]
fn counts_worlds_and_defaults_are_named_for_what_they_are() {
    let dir = tempfile::tempdir().unwrap();
    let vicsek = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/vicsek.toml");
    let scene = Scene::load(&vicsek).unwrap();
    // The scene: 4000 particles in 31.62², ρ = 4. A plain state of 400 particles (positions in
    // 10 × 10) with the scene runs in the scene's density: a 10 × 10 world.
    let p10 = SimParams {
        world_width: 10.0,
        world_height: 10.0,
        ..scene.params.clone()
    };
    let state = dir.path().join("s.csv");
    boids::formats::checkpoint::save_state(&state, &initial_state(3, 400, &p10)).unwrap();
    let inputs = Inputs::load(Some(&vicsek), Some(&state)).unwrap();
    let spec = resolve(&inputs, &Overrides::default(), &Defaults::headless(20_000)).unwrap();
    let w = spec.setup.params.world_width;
    assert!((w - 10.0).abs() < 1e-3, "world {w}: {}", spec.world_from);
    assert!(
        spec.world_from.contains("scaled by √(400/4000)"),
        "{}",
        spec.world_from
    );
    // --boids 0 with a scene.
    let e = resolve(
        &Inputs::load(Some(&vicsek), None).unwrap(),
        &Overrides {
            boids: Some(0),
            ..Default::default()
        },
        &Defaults::headless(20_000),
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("boids = 0") && !e.contains("world"), "{e}");
    // Two particles: a world below 1 wu, pushed there by the density scaling.
    let e = resolve(
        &Inputs::load(Some(&vicsek), None).unwrap(),
        &Overrides {
            boids: Some(2),
            ..Default::default()
        },
        &Defaults::headless(20_000),
    )
    .unwrap_err()
    .to_string();
    crate::support::assert_names(
        &e,
        &["world_width = 0.7", "scaled by √(2/4000)", "--keep-world"],
    );
    // Vectorial noise without η: the default η = 2 is out of its range, and said to be the default.
    let vec = dir.path().join("v.toml");
    std::fs::write(
        &vec,
        "boids = 100\n[params]\nmodel = \"vicsek\"\nvicsek_noise = \"vectorial\"\n",
    )
    .unwrap();
    let e = Scene::load(&vec).unwrap_err().to_string();
    crate::support::assert_names(
        &e,
        &[
            "v.toml",
            "vicsek_eta = 2",
            "does not set vicsek_eta",
            "default",
        ],
    );
    assert!(!e.contains("line 1"), "{e}");
    // A radix prefix is a typo, not 16.
    let e = SimParams::default()
        .set("max_speed", "0x10")
        .unwrap_err()
        .to_string();
    crate::support::assert_names(&e, &["max_speed = 0x10", "expected a number"]);
}
