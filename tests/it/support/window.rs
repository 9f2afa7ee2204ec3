//! The window-test harness shared by `tests/it/app_window.rs` and `tests/it/app_ux.rs`: runs `boids run`
//! with a script under the display (skipping visibly without one, failing under
//! BOIDS_REQUIRE_GPU=1), one window at a time, and reads back its reports, images and states.

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;
use tempfile::TempDir;

pub fn have_display() -> bool {
    let set = |v: &str| std::env::var_os(v).is_some_and(|s| !s.is_empty());
    if set("DISPLAY") || set("WAYLAND_DISPLAY") {
        return true;
    }
    if std::env::var("BOIDS_REQUIRE_GPU").as_deref() == Ok("1") {
        panic!(
            "BOIDS_REQUIRE_GPU=1 but no display: start `Xvfb :99 -noreset` and export DISPLAY=:99"
        );
    }
    // Straight to stderr: the harness hides eprintln! output of passing tests.
    use std::io::Write;
    let _ = writeln!(
        std::io::stderr(),
        "SKIPPED (window test): DISPLAY and WAYLAND_DISPLAY are unset"
    );
    false
}

pub struct Run {
    pub dir: TempDir,
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    /// The path of a file of the run's folder.
    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }
    pub fn report(&self, name: &str) -> Value {
        let p = self.dir.path().join(name);
        let text = std::fs::read_to_string(&p).unwrap_or_else(|e| {
            panic!(
                "{}: {e}\nstdout:\n{}\nstderr:\n{}",
                p.display(),
                self.stdout,
                self.stderr
            )
        });
        serde_json::from_str(&text).unwrap()
    }
    pub fn image(&self, name: &str) -> image::RgbaImage {
        image::open(self.dir.path().join(name)).unwrap().to_rgba8()
    }
    pub fn assert_ok(&self) {
        assert_eq!(
            self.code,
            Some(0),
            "stdout:\n{}\nstderr:\n{}",
            self.stdout,
            self.stderr
        );
        assert!(!self.stderr.contains("panicked"), "{}", self.stderr);
    }
}

/// Runs `boids run ARGS --report final.json` with `script` (FILE placeholders `@/name` are put in
/// a fresh directory), killing it after 300 s.
pub fn run_app(tag: &str, args: &[&str], script: Option<&str>) -> Run {
    run_app_env(tag, args, script, &[])
}

/// [`run_app`] with environment variables set for the app.
pub fn run_app_env(tag: &str, args: &[&str], script: Option<&str>, env: &[(&str, &str)]) -> Run {
    let dir = scratch(&format!("window-{tag}"));
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_boids"));
    cmd.envs(env.iter().copied());
    cmd.arg("run")
        .args(args)
        .arg("--report")
        .arg(dir.path().join("final.json"));
    if let Some(s) = script {
        let text = s.replace("@/", &format!("{}/", dir.path().display()));
        let path = dir.path().join("script.txt");
        std::fs::write(&path, text).unwrap();
        cmd.arg("--script").arg(path);
    }
    run_cmd(cmd, dir)
}

/// A new empty folder `boids-<name>-XXXXXX` under the system temp dir, removed on drop.
pub fn scratch(name: &str) -> TempDir {
    tempfile::Builder::new()
        .prefix(&format!("boids-{name}-"))
        .tempdir()
        .unwrap()
}

/// Runs `cmd` to its end (at most 300 s); `dir` (the run's files) lives as long as the [`Run`].
pub fn run_cmd(mut cmd: Command, dir: TempDir) -> Run {
    // Winit and Mesa want a runtime folder (mode 0700, which `tempdir` gives); it lives until the
    // command has exited.
    let _xdg = if std::env::var_os("XDG_RUNTIME_DIR").is_none() {
        let xdg = scratch("xdg");
        cmd.env("XDG_RUNTIME_DIR", xdg.path());
        Some(xdg)
    } else {
        None
    };
    // An X server refuses connections for a moment while it resets (Xvfb does so whenever its
    // last client leaves, unless started with -noreset): a refused connection is tried again, up
    // to three times; any other outcome is the test's to judge.
    let mut tries = 1;
    loop {
        let run = run_once(&mut cmd);
        let refused = run.0 == Some(1) && run.2.contains("Failed to open connection to X server");
        if !refused || tries == 3 {
            return Run {
                dir,
                code: run.0,
                stdout: run.1,
                stderr: run.2,
            };
        }
        tries += 1;
        std::thread::sleep(Duration::from_secs(1));
    }
}

/// Runs `cmd` once to its end (at most 300 s): its exit code, stdout and stderr.
fn run_once(cmd: &mut Command) -> (Option<i32>, String, String) {
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let out = child.stdout.take().unwrap();
    let err = child.stderr.take().unwrap();
    let read = |mut r: Box<dyn std::io::Read + Send>| {
        std::thread::spawn(move || {
            let mut s = String::new();
            let _ = r.read_to_string(&mut s);
            s
        })
    };
    let (out, err) = (read(Box::new(out)), read(Box::new(err)));
    let deadline = Instant::now() + Duration::from_secs(300);
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("the app did not exit within 300 s");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    (status.code(), out.join().unwrap(), err.join().unwrap())
}

/// One window at a time, and nothing else that needs the machine alone beside it.
pub fn lock() -> std::sync::MutexGuard<'static, ()> {
    super::alone::machine()
}

pub fn fraction_differing(a: &image::RgbaImage, b: &image::RgbaImage) -> f64 {
    assert_eq!(a.dimensions(), b.dimensions());
    let n = a
        .pixels()
        .zip(b.pixels())
        .filter(|(p, q)| p.0.iter().zip(q.0.iter()).any(|(x, y)| x.abs_diff(*y) > 24))
        .count();
    n as f64 / (a.width() * a.height()) as f64
}
