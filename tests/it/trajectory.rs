//! `boids headless --trajectory FILE.gsd --every K` and `--init FILE.gsd[:FRAME]` end to end:
//! frames at steps 0, K, 2K, … equal the checkpoints of runs of as many steps; a run resumed from
//! a frame equals the run that went on; predators travel in frames; a killed run leaves a file
//! readable up to its last whole frame; bad frames, worlds and cadences get clear errors.

use crate::support::cmd::{boids, ok, refused};
use crate::support::states::by_id;

use std::path::Path;
use std::time::{Duration, Instant};

use boids::formats::checkpoint::load_checkpoint;
use boids::formats::gsd::TrajectoryReader;
use boids::model::PredatorKind;

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// The boids of a checkpoint written by `headless --save`.
fn checkpoint_boids(p: &Path) -> Vec<boids::model::Boid> {
    load_checkpoint(p).unwrap_or_else(|e| panic!("{e}")).boids
}

#[test]
fn frames_are_the_checkpoints_of_the_same_steps_and_resume_bit_for_bit() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let t = d.join("t.gsd");
    let base = ["headless", "--boids", "600", "--seed", "3"];
    let mut a: Vec<&str> = base.to_vec();
    a.extend(["--steps", "30", "--every", "10", "--trajectory", s(&t)]);
    let out = ok(&a);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("trajectory:     4 frames"), "{text}");

    let mut r = TrajectoryReader::open(&t).unwrap();
    assert_eq!(r.frames(), 4);
    for (k, steps) in [0u32, 10, 20, 30].into_iter().enumerate() {
        let cp = d.join(format!("cp{steps}.csv"));
        let mut a: Vec<&str> = base.to_vec();
        let n = steps.to_string();
        a.extend(["--steps", &n, "--save", s(&cp)]);
        ok(&a);
        let f = r.read_frame(k as u64).unwrap();
        assert_eq!(f.step, u64::from(steps));
        assert!(f.predators.is_empty());
        assert_eq!(
            by_id(&f.boids),
            by_id(&checkpoint_boids(&cp)),
            "frame {k} vs {steps} steps"
        );
    }
    // The comparison sees a difference: frame 1 is not the state after 20 steps.
    assert_ne!(
        by_id(&r.read_frame(1).unwrap().boids),
        by_id(&checkpoint_boids(&d.join("cp20.csv")))
    );

    // Resumed from frame 1 (step 10) for 20 steps: the 30-step run, bit for bit; from frame 0
    // for 20 steps it is not.
    let resumed = |frame: &str, name: &str| {
        let cp = d.join(name);
        let init = format!("{}:{frame}", s(&t));
        ok(&[
            "headless",
            "--seed",
            "3",
            "--init",
            &init,
            "--steps",
            "20",
            "--save",
            s(&cp),
        ]);
        load_checkpoint(&cp).unwrap()
    };
    let from1 = resumed("1", "from1.csv");
    assert_eq!(from1.step, 30);
    assert_eq!(
        by_id(&from1.boids),
        by_id(&checkpoint_boids(&d.join("cp30.csv")))
    );
    let from0 = resumed("0", "from0.csv");
    assert_eq!(from0.step, 20);
    assert_ne!(
        by_id(&from0.boids),
        by_id(&checkpoint_boids(&d.join("cp30.csv")))
    );

    // FILE.gsd alone is its last frame (step 30).
    let cp = d.join("last.csv");
    ok(&[
        "headless",
        "--init",
        s(&t),
        "--steps",
        "0",
        "--save",
        s(&cp),
    ]);
    let last = load_checkpoint(&cp).unwrap();
    assert_eq!(last.step, 30);
    assert_eq!(
        by_id(&last.boids),
        by_id(&checkpoint_boids(&d.join("cp30.csv")))
    );
}

#[test]
fn predators_travel_in_frames_and_replace_the_scenes() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let t = d.join("p.gsd");
    let scene = concat!(env!("CARGO_MANIFEST_DIR"), "/scenes/predators.toml");
    ok(&[
        "headless",
        "--scene",
        scene,
        "--boids",
        "500",
        "--steps",
        "6",
        "--every",
        "3",
        "--trajectory",
        s(&t),
    ]);
    let mut r = TrajectoryReader::open(&t).unwrap();
    assert_eq!(r.frames(), 3);
    let f = r.read_last().unwrap();
    assert_eq!((f.boids.len(), f.predators.len()), (500, 3));
    assert!(f
        .predators
        .iter()
        .all(|p| p.kind == PredatorKind::Hunting.code()));
    // The frame's predators, where they were at step 6, start the run (the scene's are not used).
    let cp = d.join("cp.csv");
    let out = ok(&[
        "headless",
        "--scene",
        scene,
        "--init",
        s(&t),
        "--steps",
        "0",
        "--save",
        s(&cp),
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("its 3 predators are not used; frame 2"),
        "{err}"
    );
    let c = load_checkpoint(&cp).unwrap();
    assert_eq!(c.step, 6);
    let got: Vec<_> = c
        .predators
        .iter()
        .map(|p| (p.position, p.velocity))
        .collect();
    let want: Vec<_> = f
        .predators
        .iter()
        .map(|p| (p.position, p.velocity))
        .collect();
    assert_eq!(got, want);
    // Without the scene the world (sized to 500 boids) is not the frame's box: refused.
    let e = refused(&["headless", "--init", s(&t), "--steps", "1"]);
    assert!(
        e.contains(
            "frame 2: its box is 224.52171 × 224.52171 wu but the run's world is 223.6068 × 223.6068 wu"
        ) && e.contains("give the --scene, --set (and --keep-world) of the run that wrote it"),
        "{e}"
    );
}

#[test]
fn a_killed_run_leaves_every_whole_frame() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path().join("k.gsd");
    let mut child = boids()
        .args([
            "headless",
            "--boids",
            "2000",
            "--steps",
            "1000000",
            "--every",
            "1",
            "--trajectory",
            s(&t),
        ])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    let frames = loop {
        std::thread::sleep(Duration::from_millis(50));
        let n = TrajectoryReader::open(&t).map(|r| r.frames()).unwrap_or(0);
        if n >= 5 {
            break n;
        }
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "no 5 frames in 2 min"
        );
    };
    child.kill().unwrap();
    child.wait().unwrap();
    let mut r = TrajectoryReader::open(&t).unwrap();
    assert!(r.frames() >= frames);
    let last = r.read_last().unwrap();
    assert_eq!(last.boids.len(), 2000);
    assert_eq!(last.step, r.frames() - 1);
}

#[test]
fn bad_frames_cadences_and_worlds_are_refused_with_the_reason() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let t = d.join("t.gsd");
    ok(&[
        "headless",
        "--boids",
        "100",
        "--steps",
        "2",
        "--every",
        "1",
        "--trajectory",
        s(&t),
    ]);
    let e = refused(&[
        "headless",
        "--init",
        &format!("{}:3", s(&t)),
        "--steps",
        "1",
    ]);
    assert!(
        e.contains("t.gsd has 3 whole frames (0 ..= 2); there is no frame 3"),
        "{e}"
    );
    let e = refused(&[
        "headless",
        "--init",
        &format!("{}:last", s(&t)),
        "--steps",
        "1",
    ]);
    assert!(e.contains("frame \"last\" is not a frame number"), "{e}");
    let e = refused(&[
        "headless",
        "--init",
        s(&t),
        "--steps",
        "1",
        "--set",
        "world_width=50",
    ]);
    assert!(
        e.contains("frame 2: its box is 100 × 100 wu but the run's world is 50 × 100 wu"),
        "{e}"
    );
    let e = refused(&[
        "headless",
        "--steps",
        "1",
        "--every",
        "0",
        "--trajectory",
        s(&d.join("z.gsd")),
    ]);
    assert!(e.contains("--every 0"), "{e}");
    let e = refused(&["headless", "--steps", "1", "--every", "5"]);
    assert!(e.contains("--trajectory"), "{e}");
    let e = refused(&["headless", "--init", s(&d.join("none.gsd")), "--steps", "1"]);
    assert!(e.contains("none.gsd"), "{e}");
    // A CSV named .gsd is not GSD.
    let csv = d.join("state.gsd");
    std::fs::write(&csv, "id,x,y,vx,vy,hx,hy,hvx,hvy\n0,1,1,1,0,1,0,0,0\n").unwrap();
    let e = refused(&["headless", "--init", s(&csv), "--steps", "1"]);
    assert!(e.contains("is not a GSD file"), "{e}");
}

/// Frames as other tools read them: the boids of every frame in id order (row i is the same boid,
/// on both backends), a 2D box with Lz = 0, the ids under OVITO's name too, the run described in
/// frame 0, a frame of the last step when it falls between two; a run resumed from an id-ordered
/// frame is still the straight run bit for bit (the test above).
#[test]
fn frames_are_in_id_order_with_a_2d_box_a_last_frame_and_the_runs_description() {
    use gsd::GsdReader;
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    for backend in ["cpu", "gpu"] {
        if backend == "gpu" && crate::support::gpu().is_none() {
            continue;
        }
        let t = d.join(format!("{backend}.gsd"));
        ok(&[
            "headless",
            "--backend",
            backend,
            "--boids",
            "800",
            "--seed",
            "5",
            "--steps",
            "25",
            "--every",
            "10",
            "--trajectory",
            s(&t),
        ]);
        let mut g = GsdReader::open(&t).unwrap();
        assert_eq!(g.frames(), 4, "frames at steps 0, 10, 20 and the last, 25");
        let mut ids0 = Vec::new();
        for k in 0..4u64 {
            let step = g
                .read_chunk(k, "configuration/step")
                .unwrap()
                .unwrap()
                .to_u64()
                .unwrap();
            assert_eq!(step[0], [0, 10, 20, 25][k as usize], "{backend}");
            // Frame 0 holds the ids; later frames leave them out as equal to frame 0's (readers
            // take them from frame 0), so their rows are frame 0's boids: checked below with the
            // positions of a checkpoint of the same step.
            let id_chunk = |g: &mut GsdReader, name: &str| {
                g.read_chunk(k, name).unwrap().map(|c| c.to_u32().unwrap())
            };
            let ids = id_chunk(&mut g, "log/particles/id");
            let ovito = id_chunk(&mut g, "log/particles/Particle Identifier");
            assert_eq!(ovito, ids);
            if k == 0 {
                ids0 = ids.unwrap();
                assert!(
                    ids0.windows(2).all(|w| w[0] < w[1]),
                    "{backend} frame 0: not in id order"
                );
            } else {
                assert_eq!(
                    ids, None,
                    "{backend} frame {k}: ids equal frame 0's are left out"
                );
            }
            let bx = g
                .read_chunk(k, "configuration/box")
                .unwrap()
                .unwrap()
                .to_f32()
                .unwrap();
            assert_eq!(bx[2], 0.0, "Lz");
        }
        // The storage order really differs from the id order after steps (a checkpoint keeps
        // it), so the writer's sort is what puts the rows in order.
        let cp = d.join(format!("{backend}.csv"));
        ok(&[
            "headless",
            "--backend",
            backend,
            "--boids",
            "800",
            "--seed",
            "5",
            "--steps",
            "20",
            "--save",
            s(&cp),
        ]);
        let stored: Vec<u32> = checkpoint_boids(&cp).iter().map(|b| b.id).collect();
        assert!(
            stored.windows(2).any(|w| w[0] > w[1]),
            "{backend}: storage is in id order"
        );
        // Row i of frame 2 (step 20) is the boid ids0[i]: its position is that boid's.
        let mut by_id = checkpoint_boids(&cp);
        by_id.sort_by_key(|b| b.id);
        assert_eq!(by_id.iter().map(|b| b.id).collect::<Vec<_>>(), ids0);
        let rows = g
            .read_chunk(2, "log/particles/world_position")
            .unwrap()
            .unwrap()
            .to_f32()
            .unwrap();
        let want: Vec<f32> = by_id.iter().flat_map(|b| b.position).collect();
        assert_eq!(rows, want, "{backend}: frame 2's rows in id order");
        let run = g
            .read_chunk(0, "log/boids/run")
            .unwrap()
            .unwrap()
            .text_rows()
            .unwrap();
        let run: serde_json::Value = serde_json::from_str(&run[0]).unwrap();
        assert_eq!(
            (run["seed"].as_u64(), run["every"].as_u64()),
            (Some(5), Some(10))
        );
        assert_eq!(run["boids"], 800);
        assert!(run["params"]["dt"].is_number(), "{run}");
        assert!(
            g.read_chunk(1, "log/boids/run").unwrap().is_none(),
            "frame 0 only"
        );
    }
}

/// An existing trajectory is not overwritten without `--force`; a file cut short starts a run from
/// its last whole frame with a warning saying where it ends; a file whose name ends in `:1` opens.
#[test]
fn trajectories_are_not_overwritten_cut_files_warn_and_colon_names_open() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let t = d.join("run:1");
    let args = |extra: &[&'static str]| -> Vec<String> {
        let mut v: Vec<String> = [
            "headless", "--boids", "300", "--steps", "20", "--every", "10",
        ]
        .map(String::from)
        .to_vec();
        v.extend(extra.iter().map(|x| x.to_string()));
        v.extend(["--trajectory".to_string(), s(&t).to_string()]);
        v
    };
    let a = args(&[]);
    ok(&a.iter().map(String::as_str).collect::<Vec<_>>());
    let before = std::fs::read(&t).unwrap();
    let e = refused(&a.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(e.contains("the file exists; give --force"), "{e}");
    assert_eq!(
        std::fs::read(&t).unwrap(),
        before,
        "the refused run left the file as it was"
    );
    let f = args(&["--force"]);
    ok(&f.iter().map(String::as_str).collect::<Vec<_>>());
    // A folder is named as one.
    let dir_args: Vec<String> = {
        let mut v = args(&[]);
        let n = v.len();
        v[n - 1] = s(d).to_string();
        v
    };
    let e = refused(&dir_args.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(e.contains("is a folder"), "{e}");
    // The name with a colon opens as the file itself (its last frame, step 20).
    let cp = d.join("cp.csv");
    ok(&[
        "headless",
        "--init",
        s(&t),
        "--steps",
        "0",
        "--save",
        s(&cp),
    ]);
    assert_eq!(load_checkpoint(&cp).unwrap().step, 20);
    // Cut in the middle of its last frame: frame 1 is read, with a warning.
    let len = before.len();
    let cut = d.join("cut.gsd");
    std::fs::write(&cut, &before[..len - 2000]).unwrap();
    let out = ok(&[
        "headless",
        "--init",
        s(&cut),
        "--steps",
        "0",
        "--save",
        s(&cp),
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("cut.gsd") && err.contains("whole frames is read")
            || err.contains("whole frame is read"),
        "{err}"
    );
    assert!(
        load_checkpoint(&cp).unwrap().step < 20,
        "a frame before the cut"
    );
}

/// A run resumed from a checkpoint mid-trajectory continues the image counts: its frames equal
/// the straight run's frames of the same steps chunk for chunk, bit for bit, and the counts are
/// not all zero (an ordered Vicsek flock crosses the box several times).
#[test]
fn a_run_resumed_from_a_checkpoint_writes_the_straight_runs_frames_images_included() {
    use gsd::GsdReader;
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let scene = concat!(env!("CARGO_MANIFEST_DIR"), "/scenes/vicsek.toml");
    let base = [
        "headless",
        "--scene",
        scene,
        "--boids",
        "700",
        "--seed",
        "8",
        "--set",
        "vicsek_eta=0.3",
    ];
    let run = |extra: &[&str]| {
        let mut a: Vec<&str> = base.to_vec();
        a.extend(extra);
        ok(&a);
    };
    let (straight, cp, resumed) = (d.join("a.gsd"), d.join("cp.csv"), d.join("b.gsd"));
    run(&[
        "--steps",
        "1200",
        "--every",
        "200",
        "--trajectory",
        s(&straight),
    ]);
    run(&["--steps", "600", "--save", s(&cp)]);
    run(&[
        "--init",
        s(&cp),
        "--steps",
        "600",
        "--every",
        "200",
        "--trajectory",
        s(&resumed),
    ]);
    let mut a = GsdReader::open(&straight).unwrap();
    let mut b = GsdReader::open(&resumed).unwrap();
    assert_eq!(
        (a.frames(), b.frames()),
        (7, 4),
        "steps 0..=1200 and 600..=1200"
    );
    let mut crossed = 0;
    for k in 0..4u64 {
        let names: Vec<String> = a.chunk_names(k + 3).iter().map(|n| n.to_string()).collect();
        assert!(names.iter().any(|n| n == "particles/image"));
        for name in &names {
            let want = a.read_chunk(k + 3, name).unwrap();
            let got = b.read_chunk(k, name).unwrap();
            assert_eq!(got, want, "frame {k} of the resumed run, chunk {name}");
        }
        let image = a.read_chunk(k + 3, "particles/image").unwrap().unwrap();
        crossed = image.to_i32().unwrap().iter().filter(|&&c| c != 0).count();
    }
    assert!(
        crossed > 100,
        "at step 1200 most boids have crossed the box: {crossed} non-zero counts"
    );
}
