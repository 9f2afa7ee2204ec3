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
