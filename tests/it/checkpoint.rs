//! Checkpoints: a saved state carries everything needed to resume (parameters, world size, seed,
//! step index, obstacles, predators, boids), loads back bit for bit, and `boids headless --init FILE` alone
//! resumes it.

use crate::support;
use std::path::Path;
use support::cmd::{boids, ok_cmd};

use boids::backend::{BackendKind, Simulation};
use boids::cpu::CpuBackend;
use boids::formats::checkpoint::{load_checkpoint, load_state, save_checkpoint, Checkpoint};
use boids::model::{Boid, Boundary, SimParams};

/// Every bit of a checkpoint, for comparisons that tell 0.0 from -0.0.
fn bits(cp: &Checkpoint) -> (String, u32, u32, Vec<u32>, Vec<u32>) {
    (
        format!("{:?}", cp.params),
        cp.seed,
        cp.step,
        cp.obstacles.iter().flatten().map(|x| x.to_bits()).collect(),
        cp.boids
            .iter()
            .flat_map(|b| bytemuck::cast::<Boid, [u32; 11]>(*b))
            .collect(),
    )
}

/// Boids sorted by id, as bits.
fn by_id(mut b: Vec<Boid>) -> Vec<[u32; 11]> {
    b.sort_by_key(|b| b.id);
    b.into_iter()
        .map(bytemuck::cast::<Boid, [u32; 11]>)
        .collect()
}

#[test]
fn a_checkpoint_round_trips_bit_for_bit() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cp.csv");
    let params = {
        let mut sp = SimParams {
            world_width: 1.000_000_1,
            world_height: 333.333_34,
            dt: 1.0 / 60.0,
            boundary: Boundary::Bounce,
            perception_radius: 0.1 + 0.2,
            separation_radius: 0.1,
            max_neighbors: 16,
            max_hue_speed: 1.0 / 3.0,
            rotational_diffusion: f32::from_bits(1),
            alignment_radius: 0.3,
            cohesion_radius: 0.0,
            hue_radius: 0.29999998,
            ..SimParams::default()
        };
        sp.models.boids.min_speed = 0.0;
        sp.models.boids.max_speed = 1.0e5;
        sp
    };
    params.validate().unwrap();
    let mut b = boids::model::initial_state(7, 200, &params);
    // Odd bit patterns: -0.0, subnormals, the largest float below the world's side.
    b[0].position = [f32::from_bits(params.world_width.to_bits() - 1), -0.0];
    b[0].velocity = [-0.0, f32::from_bits(1)];
    b[0].hue_velocity = [-0.0, 0.0];
    b[1].velocity = [99_999.99, -0.001];
    b[1].hue = [-1.0, -0.0];
    b.reverse(); // the order given is the order kept
                 // Obstacles lie inside the world too: its edges in odd bit patterns.
    let below_width = f32::from_bits(params.world_width.to_bits() - 1);
    let cp = Checkpoint {
        params,
        seed: u32::MAX,
        step: u32::MAX - 1,
        obstacles: vec![
            [-0.0, f32::from_bits(1)],
            [below_width, 0.1],
            [1.0 / 3.0, 1e-38],
        ],
        predators: Vec::new(),
        catches_total: 0,
        boids: b,
    };
    save_checkpoint(&path, &cp).unwrap();
    let back = load_checkpoint(&path).unwrap();
    assert_eq!(bits(&back), bits(&cp));
    // The comparison sees a single flipped bit (in the sign of a -0.0).
    let mut planted = back.clone();
    planted.boids[199].position[1] = 0.0;
    assert_ne!(bits(&planted), bits(&cp));
    // A checkpoint still reads as a CSV of boids for other tools (`#` lines are comments).
    let text = std::fs::read_to_string(&path).unwrap();
    let csv: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(csv[0], "id,x,y,vx,vy,hx,hy,hvx,hvy,ix,iy");
    assert_eq!(csv.len(), 201);
    assert_eq!(load_state(&path).unwrap(), cp.boids);
}

#[test]
fn a_checkpoint_that_would_not_load_back_is_not_written() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.csv");
    let params = SimParams::default();
    let mut b = boids::model::initial_state(1, 10, &params);
    b[3].position[0] = params.world_width; // outside [0, W)
    let cp = Checkpoint {
        params,
        seed: 1,
        step: 0,
        obstacles: Vec::new(),
        predators: Vec::new(),
        catches_total: 0,
        boids: b,
    };
    let e = save_checkpoint(&path, &cp).unwrap_err().to_string();
    assert!(
        e.contains("bad.csv") && e.contains("boid 3") && e.contains("outside the world"),
        "{e}"
    );
    assert!(!path.exists());
}

/// The check before saving says which fault it found, so a caller can act on it (the boid's id,
/// the duplicated id).
#[test]
fn the_checkpoint_check_names_the_kind_of_fault() {
    use boids::formats::checkpoint::{check_checkpoint, CheckpointError};
    let params = SimParams::default();
    let mut b = boids::model::initial_state(1, 10, &params);
    b[3].position[0] = params.world_width;
    let mut cp = Checkpoint {
        params,
        seed: 1,
        step: 0,
        obstacles: Vec::new(),
        predators: Vec::new(),
        catches_total: 0,
        boids: b,
    };
    let e = check_checkpoint(&cp).unwrap_err();
    assert!(
        matches!(e, CheckpointError::BoidOutsideWorld { id: 3, .. }),
        "{e:?}"
    );
    cp.boids[3].position[0] = 1.0;
    assert_eq!(check_checkpoint(&cp), Ok(()));
    cp.boids[5].id = cp.boids[2].id;
    let e = check_checkpoint(&cp).unwrap_err();
    assert_eq!(e, CheckpointError::DuplicateId { id: cp.boids[2].id });
    assert!(e.to_string().contains("appears twice"), "{e}");
}

fn meta_value(path: &Path, key: &str) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .find_map(|l| l.strip_prefix(&format!("# {key} = ")))
        .unwrap_or_else(|| panic!("no {key} in {}", path.display()))
        .to_string()
}

/// `--steps 0 --save` exports the initial state; `--init` alone resumes it with the scene's world,
/// parameters, seed and obstacles, though no scene is given again.
#[test]
fn headless_exports_with_zero_steps_and_resumes_without_a_scene() {
    let dir = tempfile::tempdir().unwrap();
    let scene = dir.path().join("small.toml");
    std::fs::write(
        &scene,
        "boids = 300\nseed = 9\nobstacles = [[10.0, 20.0], [300.5, 1.0]]\n\
         [params]\nworld_width = 320.0\nworld_height = 200.0\nrotational_diffusion = 0.5\nmax_speed = 60.0\n",
    )
    .unwrap();
    let start = dir.path().join("start.csv");
    ok_cmd(
        boids()
            .args(["headless", "--steps", "0", "--scene"])
            .arg(&scene)
            .arg("--save")
            .arg(&start),
    );
    assert_eq!(meta_value(&start, "step"), "0");
    assert_eq!(meta_value(&start, "seed"), "9");
    assert_eq!(meta_value(&start, "world_width"), "320.0");
    let spawned = load_state(&start).unwrap();
    let p = load_checkpoint(&start).unwrap().params;
    assert_eq!(
        by_id(spawned),
        by_id(boids::model::initial_state(9, 300, &p)),
        "the export is the initial state"
    );

    let next = dir.path().join("next.csv");
    let out = ok_cmd(
        boids()
            .args(["headless", "--steps", "7", "--init"])
            .arg(&start)
            .arg("--save")
            .arg(&next),
    );
    assert!(out.contains("boids:          300"), "{out}");
    let cp = load_checkpoint(&next).unwrap();
    assert_eq!(cp.step, 7);
    assert_eq!(cp.seed, 9);
    assert_eq!(cp.obstacles, vec![[10.0, 20.0], [300.5, 1.0]]);
    assert_eq!(
        (cp.params.world_width, cp.params.world_height),
        (320.0, 200.0)
    );
    assert_eq!(
        (
            cp.params.rotational_diffusion,
            cp.params.models.boids.max_speed
        ),
        (0.5, 60.0)
    );

    // Without --save, 0 steps is refused, saying why.
    let out = boids().args(["headless", "--steps", "0"]).output().unwrap();
    assert!(!out.status.success());
    let e = String::from_utf8_lossy(&out.stderr);
    assert!(e.contains("--steps 0") && e.contains("--save"), "{e}");
}

/// A checkpoint wins over a scene (defaults < scene < checkpoint < command line): with `--init`,
/// `--scene` is not used (a warning says so); `--seed` and `--set` change what they name; the
/// step index stays the file's.
#[test]
fn a_checkpoint_wins_over_a_scene_and_the_command_line_over_both() {
    let dir = tempfile::tempdir().unwrap();
    let start = dir.path().join("start.csv");
    let scene = dir.path().join("fixed.toml");
    std::fs::write(
        &scene,
        "obstacles = [[1.0, 1.0]]\n[params]\nworld_width = 320.0\nworld_height = 320.0\n",
    )
    .unwrap();
    ok_cmd(
        boids()
            .args(["headless", "--steps", "3", "--boids", "100", "--scene"])
            .arg(&scene)
            .arg("--save")
            .arg(&start),
    );
    let other = dir.path().join("slow.toml");
    std::fs::write(&other, "seed = 5\n[params]\nmax_speed = 50.0\n").unwrap();
    let out = dir.path().join("out.csv");
    let res = boids()
        .args(["headless", "--steps", "2", "--init"])
        .arg(&start)
        .arg("--scene")
        .arg(&other)
        .arg("--save")
        .arg(&out)
        .output()
        .unwrap();
    assert!(res.status.success());
    let warn = String::from_utf8_lossy(&res.stderr);
    assert!(
        warn.contains("slow.toml: not used") && warn.contains("start.csv"),
        "{warn}"
    );
    let cp = load_checkpoint(&out).unwrap();
    assert_eq!(
        (cp.params.world_width, cp.params.models.boids.max_speed),
        (320.0, 100.0),
        "the checkpoint's parameters, not the scene's"
    );
    assert_eq!((cp.seed, cp.step), (1, 5));
    assert_eq!(cp.obstacles, vec![[1.0, 1.0]], "the checkpoint's obstacles");
    ok_cmd(
        boids()
            .args(["headless", "--steps", "1", "--seed", "77", "--init"])
            .arg(&start)
            .args(["--set", "max_speed=50", "--save"])
            .arg(&out),
    );
    let cp = load_checkpoint(&out).unwrap();
    assert_eq!((cp.seed, cp.params.models.boids.max_speed), (77, 50.0));
}

/// Resuming on the CPU backend: 20 steps straight against 10 steps, save, load, 10 more. With
/// noise on, the resumed backend must continue the noise stream (its step index comes from the
/// file); without it, the run differs (the comparison can fail).
#[test]
fn resuming_continues_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("half.csv");
    let params = SimParams {
        rotational_diffusion: 2.0,
        ..SimParams::default()
    }
    .with_world_for(3000, boids::model::DEFAULT_DENSITY);
    let obstacles = vec![[100.0, 100.0], [250.0, 400.0]];
    let seed = 11;
    let fresh = || {
        let mut s = CpuBackend::new(BackendKind::Cpu, &params, 3000, seed).unwrap();
        s.set_obstacles(&obstacles).unwrap();
        s
    };
    let mut straight = fresh();
    for _ in 0..20 {
        straight.step().unwrap();
    }
    let mut first = fresh();
    for _ in 0..10 {
        first.step().unwrap();
    }
    let cp = Checkpoint {
        params: first.params().clone(),
        seed,
        step: first.step_index(),
        obstacles: obstacles.clone(),
        predators: Vec::new(),
        catches_total: 0,
        boids: first.read_state().unwrap(),
    };
    save_checkpoint(&path, &cp).unwrap();
    let resume = |set_step: bool| {
        let cp = load_checkpoint(&path).unwrap();
        let mut s =
            CpuBackend::from_state(BackendKind::Cpu, &cp.params, cp.boids, cp.seed).unwrap();
        if set_step {
            s.set_step_index(cp.step);
        }
        s.set_obstacles(&cp.obstacles).unwrap();
        for _ in 0..10 {
            s.step().unwrap();
        }
        s
    };
    let mut resumed = resume(true);
    assert_eq!(resumed.step_index(), 20);
    let a = by_id(straight.read_state().unwrap());
    let b = by_id(resumed.read_state().unwrap());
    let differing = a.iter().zip(&b).filter(|(x, y)| x != y).count();
    eprintln!(
        "resumed vs straight: {differing} of {} boids differ in some bit",
        a.len()
    );
    assert_eq!(differing, 0, "resuming is bit-identical on the CPU backend");

    let mut restarted = resume(false);
    let c = by_id(restarted.read_state().unwrap());
    assert_ne!(a, c, "without the step index the noise stream restarts");
}

/// The same through the command line: `--steps 20` against `--steps 10 --save`, then
/// `--init … --steps 10`.
#[test]
fn headless_resume_matches_a_straight_run() {
    let dir = tempfile::tempdir().unwrap();
    let scene = dir.path().join("noisy.toml");
    std::fs::write(
        &scene,
        "boids = 2000\nseed = 3\n[params]\nrotational_diffusion = 1.5\n",
    )
    .unwrap();
    let full = dir.path().join("full.csv");
    let half = dir.path().join("half.csv");
    let resumed = dir.path().join("resumed.csv");
    let go = |steps: &str, out: &Path| {
        ok_cmd(
            boids()
                .args(["headless", "--steps", steps, "--scene"])
                .arg(&scene)
                .arg("--save")
                .arg(out),
        );
    };
    go("20", &full);
    go("10", &half);
    ok_cmd(
        boids()
            .args(["headless", "--steps", "10", "--init"])
            .arg(&half)
            .arg("--save")
            .arg(&resumed),
    );
    let a = load_checkpoint(&full).unwrap();
    let b = load_checkpoint(&resumed).unwrap();
    assert_eq!((a.step, b.step), (20, 20));
    assert_eq!(format!("{:?}", a.params), format!("{:?}", b.params));
    assert_eq!(by_id(a.boids), by_id(b.boids));
}

/// A run with moving predators resumes where they were: `--steps 20` against `--steps 10 --save`,
/// then `--init … --steps 10` with no scene (the checkpoint carries the predators, with their
/// kinds, positions and velocities, and the predator parameters). The hunters of the scene catch
/// boids, which respawn from the step's random numbers: the same in both runs.
#[test]
fn headless_resume_with_predators_matches_a_straight_run() {
    let dir = tempfile::tempdir().unwrap();
    let scene = dir.path().join("hunt.toml");
    std::fs::write(
        &scene,
        "boids = 1500\nseed = 5\n[params]\ncatch_radius = 6.0\npredator_weight = 900.0\n\
         [[predators]]\nposition = [100.0, 100.0]\nvelocity = [40.0, 10.0]\nkind = \"hunting\"\n\
         [[predators]]\nposition = [250.0, 300.0]\nvelocity = [-30.0, 60.0]\n",
    )
    .unwrap();
    let full = dir.path().join("full.csv");
    let half = dir.path().join("half.csv");
    let resumed = dir.path().join("resumed.csv");
    let go = |steps: &str, out: &Path| {
        ok_cmd(
            boids()
                .args(["headless", "--backend", "cpu", "--steps", steps, "--scene"])
                .arg(&scene)
                .arg("--save")
                .arg(out),
        );
    };
    go("20", &full);
    go("10", &half);
    let out = ok_cmd(
        boids()
            .args(["headless", "--backend", "cpu", "--steps", "10", "--init"])
            .arg(&half)
            .arg("--save")
            .arg(&resumed),
    );
    assert!(out.contains("predators:      2"), "{out}");
    let h = load_checkpoint(&half).unwrap();
    assert_eq!(h.predators.len(), 2);
    assert_eq!(h.predators[0].kind, boids::model::PredatorKind::Hunting);
    assert_ne!(h.predators[1].position, [250.0, 300.0], "they moved");
    let a = load_checkpoint(&full).unwrap();
    let b = load_checkpoint(&resumed).unwrap();
    assert_eq!((a.step, b.step), (20, 20));
    assert_eq!(a.predators, b.predators);
    // The running total of catches carries on across the resume (it would restart at 0).
    assert!(
        h.catches_total > 0,
        "the hunter caught nothing in the first half"
    );
    assert_eq!(a.catches_total, b.catches_total);
    assert_eq!(format!("{:?}", a.params), format!("{:?}", b.params));
    assert_eq!(by_id(a.boids), by_id(b.boids));
    // Without the saved predators (a scene restarts them where it places them) the run differs.
    let text = std::fs::read_to_string(&half).unwrap();
    let start = text.find("# predators = [").unwrap();
    let end = start + text[start..].find("# ]\n").unwrap() + 4;
    let stripped = dir.path().join("stripped.csv");
    std::fs::write(&stripped, format!("{}{}", &text[..start], &text[end..])).unwrap();
    let restarted = dir.path().join("restarted.csv");
    ok_cmd(
        boids()
            .args(["headless", "--backend", "cpu", "--steps", "10", "--init"])
            .arg(&stripped)
            .arg("--scene")
            .arg(&scene)
            .arg("--save")
            .arg(&restarted),
    );
    let c = load_checkpoint(&restarted).unwrap();
    assert_ne!(a.predators, c.predators);
}

/// A checkpoint's predators are checked on load: a non-finite position names the line.
#[test]
fn a_checkpoint_with_a_bad_predator_is_refused_with_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cp.csv");
    let params = SimParams::default();
    let cp = Checkpoint {
        params: params.clone(),
        seed: 1,
        step: 3,
        obstacles: Vec::new(),
        predators: vec![boids::model::PredatorSpec {
            position: [10.0, 20.0],
            velocity: [1.5, -0.0],
            kind: boids::model::PredatorKind::Hunting,
        }],
        catches_total: 7,
        boids: boids::model::initial_state(1, 10, &params),
    };
    save_checkpoint(&path, &cp).unwrap();
    assert_eq!(load_checkpoint(&path).unwrap().predators, cp.predators);
    assert_eq!(load_checkpoint(&path).unwrap().catches_total, 7);
    let text = std::fs::read_to_string(&path).unwrap();
    let line = 1 + text
        .lines()
        .position(|l| l.starts_with("# predators"))
        .unwrap();
    std::fs::write(
        &path,
        text.replace("position = [10.0, 20.0]", "position = [10.0, inf]"),
    )
    .unwrap();
    let e = load_checkpoint(&path).unwrap_err().to_string();
    assert!(
        e.contains(&format!("line {line}")) && e.contains("predator 0"),
        "{e}"
    );
}

/// The running total of catches in a checkpoint carries on through `--init` on both backends
/// (a far-away hunter catches nothing more, so the resumed run saves the same total).
#[test]
fn the_catch_total_carries_on_through_a_resume_on_both_backends() {
    let dir = tempfile::tempdir().unwrap();
    let params = SimParams::default().with_world_for(200, 0.01);
    let path = dir.path().join("ck.csv");
    let cp = Checkpoint {
        params: params.clone(),
        seed: 1,
        step: 3,
        obstacles: Vec::new(),
        predators: vec![boids::model::PredatorSpec {
            position: [1.0, 1.0],
            velocity: [0.0, 0.0],
            kind: boids::model::PredatorKind::Straight,
        }],
        catches_total: 5,
        boids: boids::model::initial_state(1, 200, &params),
    };
    save_checkpoint(&path, &cp).unwrap();
    for backend in ["cpu", "gpu"] {
        if backend == "gpu" && support::gpu().is_none() {
            continue;
        }
        let out = dir.path().join(format!("out-{backend}.csv"));
        ok_cmd(
            boids()
                .args(["headless", "--backend", backend, "--steps", "2", "--init"])
                .arg(&path)
                .arg("--save")
                .arg(&out),
        );
        assert_eq!(load_checkpoint(&out).unwrap().catches_total, 5, "{backend}");
    }
}
