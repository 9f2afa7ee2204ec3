//! Every scene file in `scenes/` loads, validates and runs 100 steps on both backends (the GPU one
//! where an adapter is found): the boid count is kept, and every boid stays finite and inside the
//! world. `million.toml` (1 000 000 boids) runs with 50 000 of its boids here: 100 steps of a
//! million take minutes on lavapipe and on two CPU cores; its count itself is checked, and its
//! world is sized for the reduced count by the same rule (it fixes no world size).

use crate::support;
use std::path::PathBuf;

use boids::backend::{self, BackendKind, Simulation};
use boids::formats::scene::Scene;
use boids::model::Setup;

const STEPS: u32 = 100;

/// Boids `million.toml` runs with in this test (see the crate doc).
const MILLION_REDUCED: usize = 50_000;

fn scene_files() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scenes");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    files.sort();
    files
}

fn check_state(name: &str, kind: BackendKind, sim: &mut dyn Simulation, setup: &Setup) {
    let boids = sim.read_state().unwrap();
    assert_eq!(boids.len(), setup.boids.len(), "{name} on {kind:?}");
    let (w, h) = (setup.params.world_width, setup.params.world_height);
    for b in &boids {
        assert!(
            b.is_finite() && (0.0..w).contains(&b.position[0]) && (0.0..h).contains(&b.position[1]),
            "{name} on {kind:?}: {b:?} outside [0, {w}) × [0, {h})"
        );
    }
    let m = sim.measures().unwrap();
    assert!(
        m.polarization().is_finite() && m.va().is_finite() && m.mean_speed().is_finite(),
        "{name} on {kind:?}: {m:?}"
    );
}

#[test]
fn every_scene_loads_validates_and_runs_on_both_backends() {
    let files = scene_files();
    let names: Vec<String> = files
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    // The models' scenes and the million are among them.
    for want in ["vicsek.toml", "fish_school.toml", "million.toml"] {
        assert!(names.iter().any(|n| n == want), "{want} missing: {names:?}");
    }
    let ctx = support::gpu();
    for (path, name) in files.iter().zip(&names) {
        let scene = Scene::load(path).unwrap_or_else(|e| panic!("{name}: {e}"));
        let reduced = if name == "million.toml" {
            assert_eq!(scene.boids, Some(1_000_000), "{name}");
            Some(MILLION_REDUCED)
        } else {
            None
        };
        let setup = boids::run::spec::scene_setup(Some(&scene), reduced, None, 20_000, 1.0)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        setup.params.validate().unwrap();
        assert_eq!(setup.actors.obstacles, scene.obstacles, "{name}");
        let mut kinds = vec![BackendKind::Cpu];
        if let Some(c) = &ctx {
            kinds.push(BackendKind::Gpu);
            support::checked(c, || ());
        }
        for kind in kinds {
            let t = std::time::Instant::now();
            let mut sim = backend::create(kind, &setup, ctx.as_ref())
                .unwrap_or_else(|e| panic!("{name} on {kind:?}: {e}"));
            for _ in 0..STEPS {
                sim.step()
                    .unwrap_or_else(|e| panic!("{name} on {kind:?}: {e}"));
            }
            sim.finish().unwrap();
            assert_eq!(sim.step_index(), STEPS);
            check_state(name, kind, sim.as_mut(), &setup);
            eprintln!(
                "{name}: {} boids, {STEPS} steps on {kind:?} in {:.1} s",
                setup.boids.len(),
                t.elapsed().as_secs_f64()
            );
        }
    }
}

/// The sweep the topological Vicsek scene suggests is long enough to measure its order: at
/// v0 = 0.03 the order relaxes over many box crossings (~1000 steps each), so the comment's
/// `--steps` is at least 20 000 and it discards a transient.
#[test]
fn the_topological_scene_suggests_a_long_enough_sweep() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/scenes/vicsek_topological.toml"
    ))
    .unwrap();
    let comment: String = text
        .lines()
        .filter_map(|l| l.strip_prefix('#'))
        .collect::<Vec<_>>()
        .join(" ");
    let after = |flag: &str| -> u64 {
        let rest = comment
            .split(flag)
            .nth(1)
            .unwrap_or_else(|| panic!("no {flag} in the suggested sweep: {comment}"));
        rest.split_whitespace().next().unwrap().parse().unwrap()
    };
    assert!(comment.contains("boids sweep"), "{comment}");
    let (steps, discard) = (after("--steps "), after("--discard "));
    assert!(
        steps >= 20_000 && discard > 0 && discard < steps,
        "{steps}, {discard}"
    );
}

/// A `[view] colour` that is not a colour mode is refused by every command, even one that draws
/// nothing, with the file, the line, the value and the allowed names; a good one passes.
#[test]
fn a_bad_view_colour_is_refused_with_its_line() {
    let tmp = tempfile::tempdir().unwrap();
    let bad = tmp.path().join("bad.toml");
    std::fs::write(&bad, "boids = 50\n\n[view]\ncolour = \"rainbow\"\n").unwrap();
    let out = support::cmd::boids()
        .args(["headless", "--backend", "cpu", "--steps", "1", "--scene"])
        .arg(&bad)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{err}");
    for part in [
        "bad.toml",
        "line 4",
        "rainbow",
        "hue, heading, speed, neighbours",
    ] {
        assert!(err.contains(part), "{part}: {err}");
    }
    let good = tmp.path().join("good.toml");
    std::fs::write(&good, "boids = 50\n\n[view]\ncolour = \"speed\"\n").unwrap();
    let scene = Scene::load(&good).unwrap();
    assert_eq!(
        boids::run::spec::scene_colour(&scene).unwrap(),
        Some(boids::render::ColourMode::Speed)
    );
    let out = support::cmd::boids()
        .args(["headless", "--backend", "cpu", "--steps", "1", "--scene"])
        .arg(&good)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
