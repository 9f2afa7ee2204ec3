//! The `boids` binary as the tests run it: a command, its output as text for a failure message,
//! and the two outcomes a test asserts (it succeeds; it is refused with a message).

use std::process::{Command, Output};

/// `boids` (the binary cargo built for these tests), with no arguments yet.
pub fn boids() -> Command {
    Command::new(env!("CARGO_BIN_EXE_boids"))
}

/// Runs `boids ARGS` to the end, whatever its exit status.
pub fn run(args: &[&str]) -> Output {
    boids().args(args).output().expect("the boids binary runs")
}

/// The exit status, standard output and standard error of a run, for a failure message.
pub fn text(o: &Output) -> String {
    format!(
        "status {:?}\nstdout:\n{}\nstderr:\n{}",
        o.status.code(),
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// The standard output of a run, as text.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Runs `boids ARGS` and fails the test unless it succeeds.
pub fn ok(args: &[&str]) -> Output {
    let o = run(args);
    assert!(o.status.success(), "boids {args:?} failed: {}", text(&o));
    o
}

/// Runs a prepared command and fails the test unless it succeeds; its standard output.
pub fn ok_cmd(cmd: &mut Command) -> String {
    let o = cmd.output().expect("the boids binary runs");
    assert!(o.status.success(), "{cmd:?} failed: {}", text(&o));
    stdout(&o)
}

/// Runs `boids ARGS`, fails the test if it succeeds; its error message (standard error).
pub fn refused(args: &[&str]) -> String {
    let o = run(args);
    assert!(
        !o.status.success(),
        "boids {args:?} should fail: {}",
        text(&o)
    );
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Starts `boids ARGS` (a sweep into `out`), waits until its `summary.json` counts a run done
/// and sends it SIGINT; its output once it has stopped (status 130: stopped after the current
/// run).
pub fn interrupted_sweep(args: &[&str], out: &std::path::Path) -> Output {
    let mut child = boids()
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let t0 = std::time::Instant::now();
    loop {
        let done = std::fs::read(out.join("summary.json"))
            .ok()
            .and_then(|b| serde_json::from_slice::<serde_json::Value>(&b).ok())
            .and_then(|v| v["runs_done"].as_u64())
            .unwrap_or(0);
        if done >= 1 {
            break;
        }
        if let Some(st) = child.try_wait().unwrap() {
            panic!("the sweep ended before the signal: {st:?}");
        }
        assert!(
            t0.elapsed() < std::time::Duration::from_secs(120),
            "no run finished"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let kill = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(130), "{}", text(&o));
    o
}
