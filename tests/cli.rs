//! The command line end to end.

use std::process::Command;

fn boids() -> Command {
    Command::new(env!("CARGO_BIN_EXE_boids"))
}

#[test]
fn headless_cpu_20k_prints_the_figures() {
    let dir = std::env::temp_dir().join(format!("boids-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let stats = dir.join("stats.csv");
    let save = dir.join("state.csv");
    let out = boids()
        .args([
            "headless",
            "--backend",
            "cpu",
            "--boids",
            "20000",
            "--steps",
            "200",
        ])
        .arg("--stats")
        .arg(&stats)
        .arg("--save")
        .arg(&save)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for k in [
        "step time:",
        "median",
        "p95",
        "polarization:",
        "mean speed:",
        "mean neighbors:",
    ] {
        assert!(text.contains(k), "missing {k:?} in:\n{text}");
    }
    let rows = std::fs::read_to_string(&stats).unwrap();
    assert_eq!(rows.lines().count(), 201, "header + one row per step");
    assert!(rows.starts_with("step,step_ms,polarization,milling,mean_speed,mean_neighbors"));
    // A checkpoint: `# ` metadata lines, then a CSV of boids (header + one row per boid).
    let state = std::fs::read_to_string(&save).unwrap();
    assert!(state.starts_with("# boids-state 1\n"), "{}", &state[..200]);
    let csv: Vec<&str> = state.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(csv.len(), 20001);
    assert_eq!(csv[0], "id,x,y,vx,vy,hx,hy,hvx,hvy");
    assert!(
        state.contains("\n# step = 200\n"),
        "step index in the metadata"
    );

    // --init continues from the saved state: same count.
    let out = boids()
        .args([
            "headless",
            "--backend",
            "cpu-naive",
            "--steps",
            "1",
            "--init",
        ])
        .arg(&save)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("boids:          20000"));
}

#[test]
fn bad_flag_value_exits_non_zero_with_the_message() {
    let out = boids()
        .args(["headless", "--boids", "many"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--boids") && err.contains("many"), "{err}");

    let out = boids().args(["headless", "--boids", "0"]).output().unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("boids = 0") && err.contains("allowed"),
        "{err}"
    );

    let out = boids()
        .args(["headless", "--backend", "quantum"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("quantum"));
}

#[test]
fn bad_scene_file_exits_with_file_and_line() {
    let dir = std::env::temp_dir().join(format!("boids-cli-scene-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let scene = dir.join("bad.toml");
    std::fs::write(&scene, "[params]\nmax_speed = 10.0\nwobble = 1\n").unwrap();
    let out = boids()
        .args(["headless", "--steps", "1", "--scene"])
        .arg(&scene)
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("bad.toml") && err.contains("line 3") && err.contains("wobble"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn zero_steps_and_a_count_that_contradicts_the_initial_state_are_refused() {
    let out = boids().args(["headless", "--steps", "0"]).output().unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--steps"));

    let dir = std::env::temp_dir().join(format!("boids-cli-init-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let save = dir.join("s.csv");
    let ok = boids()
        .args(["headless", "--boids", "40", "--steps", "1", "--save"])
        .arg(&save)
        .output()
        .unwrap();
    assert!(ok.status.success());
    let out = boids()
        .args(["headless", "--boids", "60", "--steps", "1", "--init"])
        .arg(&save)
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--boids 60") && err.contains("40 boids"),
        "{err}"
    );
}
