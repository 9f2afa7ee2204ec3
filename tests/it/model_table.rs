//! The model table: every model of it is a first-class entry — its checkpoints resume bit for bit
//! (speeds kept as the model means them, not clamped into another model's range), its respawned
//! boids move at its own speed, its order parameter stays in [0, 1] through catches, the load
//! warning speaks its units, a parameter it does not use cannot be swept, and one GPU step equals
//! one CPU step. Each test walks the table ([`MODELS`]), so a new model is tested here at once.

use crate::support;
use std::path::{Path, PathBuf};
use support::states::bits_by_id;

use boids::backend::{self, BackendKind};
use boids::formats::checkpoint::{load_checkpoint, save_checkpoint, Checkpoint};
use boids::formats::scene::Scene;
use boids::headless::{self, HeadlessArgs, HeadlessReport};
use boids::model::measures::MeasureId;
use boids::model::models::OnLoad;
use boids::model::predators::respawn;
use boids::model::{
    initial_state, Actors, Boid, Interaction, Model, Predator, PredatorKind, Setup, SimParams,
    StepUniforms, MODELS,
};
use boids::run::steps::Stop;
use glam::Vec2;

/// A scene of each model of the table: the boids model's with hunting predators that catch, the
/// fish school's, `scenes/<name>.toml` for another model that has one, else 400 of its boids at
/// its defaults with two hunting predators (written once into the temporary folder), so a new
/// model of the table is tested here without a line of this file.
fn scene_of(m: Model) -> PathBuf {
    let scenes = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scenes");
    match m.name() {
        "boids" => return scenes.join("predators.toml"),
        "fish" => return scenes.join("fish_school.toml"),
        _ => {}
    }
    let own = scenes.join(format!("{}.toml", m.name()));
    if own.exists() {
        return own;
    }
    let path = std::env::temp_dir().join(format!(
        "boids-model-table-{}-{}.toml",
        m.name(),
        std::process::id()
    ));
    let text = format!(
        "boids = 400\n[params]\nmodel = \"{}\"\ncatch_radius = 2.0\n\n\
         [[predators]]\nposition = [10.0, 10.0]\nkind = \"hunting\"\n\
         [[predators]]\nposition = [40.0, 25.0]\nkind = \"hunting\"\n",
        m.name()
    );
    std::fs::write(&path, text).unwrap();
    Scene::load(&path).unwrap_or_else(|e| panic!("the generated {} scene: {e}", m.name()));
    path
}

/// The scene of `m` with the `key = value` lines of `params` set in `[params]` (replacing the
/// scene's own) and `extra` appended (tables), written into `dir`.
fn variant(dir: &Path, m: Model, tag: &str, params: &str, extra: &str) -> PathBuf {
    let mut text = std::fs::read_to_string(scene_of(m)).unwrap();
    for line in params.lines() {
        let key = line.split('=').next().unwrap().trim();
        let kept: Vec<&str> = text
            .lines()
            .filter(|l| l.split('=').next().map(str::trim) != Some(key))
            .collect();
        text = kept
            .join("\n")
            .replacen("[params]", &format!("[params]\n{line}"), 1);
    }
    let path = dir.join(format!("{}-{tag}.toml", m.name()));
    std::fs::write(&path, format!("{text}\n{extra}\n")).unwrap();
    Scene::load(&path).unwrap_or_else(|e| panic!("{tag}: {e}"));
    path
}

fn opts(backend: BackendKind) -> HeadlessArgs {
    HeadlessArgs {
        steps: 10,
        ..HeadlessArgs::new(backend)
    }
}

fn with_scene(path: &Path) -> boids::run::SetupArgs {
    boids::run::SetupArgs {
        scene: Some(path.to_path_buf()),
        ..Default::default()
    }
}

fn run(o: HeadlessArgs) -> HeadlessReport {
    headless::run(&o, &Stop::default()).unwrap_or_else(|e| panic!("{e}"))
}

/// 10 + 10 steps through a checkpoint against 20 straight steps of `scene`: the same bits, the
/// resumed file's measures those the saved run reported, and no load warning.
fn resume_is_exact(scene: &Path, backend: BackendKind, label: &str) {
    let dir = tempfile::tempdir().unwrap();
    let (half, resumed, straight) = (
        dir.path().join("half.csv"),
        dir.path().join("resumed.csv"),
        dir.path().join("straight.csv"),
    );
    let first = run(HeadlessArgs {
        setup: with_scene(scene),
        save: Some(half.clone()),
        ..opts(backend)
    });
    // The checkpoint alone, no step: the measures of the saved state, as the run reported them.
    let loaded = run(HeadlessArgs {
        init: Some(half.clone()),
        steps: 0,
        save: Some(dir.path().join("again.csv")),
        ..opts(backend)
    });
    assert!(
        loaded.warnings.is_empty(),
        "{label}: the loader changed a saved state: {:?}",
        loaded.warnings
    );
    for id in [
        MeasureId::POLARIZATION,
        MeasureId::MILLING,
        MeasureId::MEAN_SPEED,
        MeasureId::VA,
    ] {
        let (a, b) = (first.measures.get(id), loaded.measures.get(id));
        assert_eq!(
            a,
            b,
            "{label}: {} saved {a:?}, loaded {b:?}",
            id.desc().name
        );
    }
    let va = loaded.measures.va();
    assert!(va <= 1.0 + 1e-6, "{label}: v_a {va}");
    assert_eq!(
        loaded.measures.get(MeasureId::MEAN_NEIGHBORS),
        None,
        "{label}: no neighbour was counted before a step"
    );
    run(HeadlessArgs {
        init: Some(half),
        save: Some(resumed.clone()),
        ..opts(backend)
    });
    run(HeadlessArgs {
        setup: with_scene(scene),
        steps: 20,
        save: Some(straight.clone()),
        ..opts(backend)
    });
    let (a, b) = (
        bits_by_id(&load_checkpoint(&resumed).unwrap().boids),
        bits_by_id(&load_checkpoint(&straight).unwrap().boids),
    );
    let differ = a.iter().zip(&b).filter(|(x, y)| x != y).count();
    assert_eq!(
        differ,
        0,
        "{label}: {differ} of {} boids differ after 10 + 10 steps against 20",
        a.len()
    );
}

/// Every model's variants: its scene (with predators), one without predators, and for the
/// Vicsek model both update orders with and without hunting predators that catch.
fn variants(dir: &Path) -> Vec<(String, PathBuf)> {
    let scenes = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scenes");
    let hunters =
        "[[predators]]\nposition = [10.0, 10.0]\nvelocity = [0.5, 0.0]\nkind = \"hunting\"\n\
                   [[predators]]\nposition = [20.0, 25.0]\nkind = \"hunting\"\n";
    let catch = "catch_radius = 0.5\npredator_sight_radius = 5.0\npredator_max_speed = 0.1\n\
                 predator_max_force = 0.05";
    let mut out = Vec::new();
    for m in Model::all() {
        out.push((m.name().to_string(), scene_of(m)));
        match m.name() {
            "boids" => out.push((
                "boids without predators".into(),
                scenes.join("interactive.toml"),
            )),
            "fish" => out.push((
                "fish without predators".into(),
                scenes.join("fish_program.toml"),
            )),
            "vicsek" => {
                for update in ["new", "old"] {
                    let p = format!("vicsek_update = \"{update}\"");
                    out.push((format!("vicsek {update}"), variant(dir, m, update, &p, "")));
                    out.push((
                        format!("vicsek {update} with hunters"),
                        variant(
                            dir,
                            m,
                            &format!("{update}-hunters"),
                            &format!("{p}\n{catch}"),
                            hunters,
                        ),
                    ));
                }
            }
            _ => {}
        }
    }
    out
}

#[test]
fn every_model_resumes_a_checkpoint_bit_for_bit_on_the_cpu() {
    let dir = tempfile::tempdir().unwrap();
    for (label, scene) in variants(dir.path()) {
        resume_is_exact(&scene, BackendKind::Cpu, &label);
    }
}

#[test]
fn every_model_resumes_a_checkpoint_as_its_own_straight_run_on_the_gpu() {
    let Some(_) = support::gpu() else { return };
    let dir = tempfile::tempdir().unwrap();
    for (label, scene) in variants(dir.path()) {
        resume_is_exact(&scene, BackendKind::Gpu, &format!("GPU {label}"));
    }
}

/// A flock of `m` with one hunting predator in its midst that catches every boid within 30 wu.
fn hunted(m: Model, seed: u32) -> Setup {
    let mut p = SimParams {
        model: m,
        catch_radius: 30.0,
        predator_sight_radius: 200.0,
        rotational_diffusion: 0.0,
        ..SimParams::default()
    }
    .with_world_for(400, 0.01);
    if m == Model::VICSEK {
        // Particles in the Vicsek model's own units: r = 20 wu, a step moves them 2 wu.
        p.perception_radius = 20.0;
        p.models.vicsek.speed = 2.0;
    }
    p.validate().unwrap();
    let boids = initial_state(seed, 400, &p);
    Setup {
        boids,
        seed,
        step: 0,
        actors: Actors {
            obstacles: Vec::new(),
            predators: vec![Predator::new(
                Vec2::new(p.world_width / 2.0, p.world_height / 2.0),
                Vec2::ZERO,
                PredatorKind::Hunting,
            )],
        },
        params: p,
    }
}

/// The speed range of a model's spawned boids.
fn spawn_range(p: &SimParams) -> (f32, f32) {
    p.spawn_speeds()
}

#[test]
fn a_caught_boid_respawns_at_its_models_speed_on_both_backends() {
    let ctx = support::gpu();
    for m in Model::all() {
        let setup = hunted(m, 3);
        let (lo, hi) = spawn_range(&setup.params);
        let mut kinds = vec![BackendKind::Cpu];
        if ctx.is_some() {
            kinds.push(BackendKind::Gpu);
        }
        for kind in kinds {
            let mut sim = backend::create(kind, &setup, ctx.as_ref()).unwrap();
            let u = StepUniforms::new(
                &setup.params,
                setup.boids.len() as u32,
                0,
                setup.seed,
                &Interaction::default(),
            );
            sim.step().unwrap();
            sim.finish().unwrap();
            let caught = sim.measures().unwrap().catches();
            assert!(caught > 0, "{m} {kind:?}: nothing caught");
            // The caught boids are those now where the respawn rule puts them (a pure function
            // of seed, id and step); each moves at the model's spawn speed.
            let mut respawned = 0;
            for b in &sim.read_state().unwrap() {
                let r = respawn(b, &u);
                if (b.pos() - r.pos()).length() < 1e-3 {
                    respawned += 1;
                    let v = b.vel().length();
                    assert!(
                        v >= lo * (1.0 - 1e-5) && v <= hi * (1.0 + 1e-5),
                        "{m} {kind:?}: boid {} respawned at speed {v}, the model's range is \
                         [{lo}, {hi}]",
                        b.id
                    );
                }
            }
            assert_eq!(respawned, caught as usize, "{m} {kind:?}");
        }
    }
}

#[test]
fn the_order_parameter_stays_within_one_through_catches() {
    // Property over seeds and models: whatever is caught and respawned, v_a ≤ 1 and φ ≤ 1.
    for m in Model::all() {
        for seed in 1..=4 {
            let setup = hunted(m, seed);
            let mut sim = backend::create(BackendKind::Cpu, &setup, None).unwrap();
            let series = sim.run_measured(15, &mut || {}).unwrap();
            let caught: f64 = series
                .iter()
                .map(|x| x.get(MeasureId::CATCHES).unwrap())
                .sum();
            assert!(caught > 0.0, "{m} seed {seed}: nothing caught");
            for (k, x) in series.iter().enumerate() {
                assert!(
                    x.va() <= 1.0 + 1e-6 && x.polarization() <= 1.0 + 1e-6,
                    "{m} seed {seed} step {k}: v_a {} φ {}",
                    x.va(),
                    x.polarization()
                );
            }
        }
    }
}

#[test]
fn the_load_warning_speaks_the_models_units_and_rule() {
    let dir = tempfile::tempdir().unwrap();
    for m in Model::all() {
        let setup = hunted(m, 5);
        let (lo, hi) = spawn_range(&setup.params);
        let unit = m.desc().speed.unit;
        // Every boid at 3× the top of the model's spawn range.
        let boids: Vec<Boid> = setup
            .boids
            .iter()
            .map(|b| Boid {
                velocity: (b.vel().normalize_or(Vec2::X) * 3.0 * hi.max(1.0)).into(),
                ..*b
            })
            .collect();
        let path = dir.path().join(format!("{m}.csv"));
        save_checkpoint(
            &path,
            &Checkpoint {
                params: setup.params.clone(),
                seed: 5,
                step: 0,
                obstacles: Vec::new(),
                predators: Vec::new(),
                catches_total: 0,
                boids: boids.clone(),
            },
        )
        .unwrap();
        let mut f = boids::formats::checkpoint::read(&path).unwrap();
        f.conform(&setup.params, "the test").unwrap();
        let warnings = f.warnings().join("\n");
        match m.desc().speed.on_load {
            OnLoad::Keep => {
                assert!(warnings.is_empty(), "{m}: {warnings}");
                assert_eq!(f.boids, boids, "{m}: speeds kept");
            }
            rule => {
                assert!(
                    warnings.contains(unit) && warnings.contains(m.name()),
                    "{m}: {warnings}"
                );
                for b in &f.boids {
                    let v = b.vel().length();
                    let want = if rule == OnLoad::Constant { lo } else { hi };
                    assert!((v - want).abs() <= 1e-5 * want, "{m}: {v} vs {want}");
                }
            }
        }
        if m == Model::VICSEK {
            assert!(!warnings.contains("wu/s"), "{warnings}");
        }
    }
}

#[test]
fn a_swept_parameter_the_model_does_not_use_is_refused() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_boids"))
        .args(["sweep", "--param", "vicsek_eta", "--values", "1,2"])
        .args([
            "--boids",
            "100",
            "--steps",
            "10",
            "--discard",
            "2",
            "--quiet",
        ])
        .args(["--out"])
        .arg(tempfile::tempdir().unwrap().path().join("s"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{err}");
    assert!(
        err.contains("vicsek_eta is not used by the boids model")
            && err.contains("separation_weight"),
        "{err}"
    );
    // Every model's own parameters are refused by every other model, and used by itself.
    for m in MODELS {
        let p = SimParams {
            model: Model::by_name(m.name).unwrap(),
            ..SimParams::default()
        };
        for other in MODELS {
            for spec in other.own_params {
                let used = p.check_used(spec.key).is_ok();
                assert_eq!(used, other.name == m.name, "{} and {}", m.name, spec.key);
            }
        }
    }
}

#[test]
fn one_gpu_step_equals_one_cpu_step_for_every_model_of_the_table() {
    let Some(ctx) = support::gpu() else { return };
    for m in Model::all() {
        let mut setup = hunted(m, 9);
        setup.actors.predators.push(Predator::new(
            Vec2::new(10.0, 30.0),
            Vec2::new(20.0, 5.0),
            PredatorKind::Straight,
        ));
        setup.actors.obstacles = (0..20).map(|k| [50.0 + 3.0 * k as f32, 60.0]).collect();
        let mut cpu = backend::create(BackendKind::Cpu, &setup, None).unwrap();
        let g = support::checked(&ctx, || {
            let mut gpu = backend::create(BackendKind::Gpu, &setup, Some(&ctx)).unwrap();
            gpu.step().unwrap();
            gpu.finish().unwrap();
            gpu.read_state().unwrap()
        });
        cpu.step().unwrap();
        let c = cpu.read_state().unwrap();
        support::compare_states(&g, &c, &setup.params, support::ONE_STEP)
            .unwrap_or_else(|e| panic!("{m}: {e}"));
    }
}
