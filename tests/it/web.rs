//! The web build in a real browser: `scripts/web-probe.sh` builds the page (wasm32, WebGPU),
//! serves it and opens it in Debian's headless Chromium on its software adapter (SwiftShader).
//! Every pipeline must be made there, and the known flocks the page steps (web/src/check.rs)
//! must equal the native GPU backend's after 1 and 10 steps from the same state, within the
//! tolerances below. With WebGPU off
//! the page must say so. Without Chromium, wasm-bindgen or the wasm32 target the tests say
//! SKIPPED — unless `BOIDS_REQUIRE_WEB=1` (CI), where they fail.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;

use crate::support;
use boids::backend::Simulation;
use boids::gpu::GpuBackend;
use boids::model::{initial_state, SimParams, DEFAULT_DENSITY};

/// One browser test at a time (each builds the page and starts a browser and a server).
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// What is missing to run the page, if anything.
fn missing_tool() -> Option<String> {
    for tool in ["chromium", "wasm-bindgen", "python3"] {
        let found = Command::new("sh")
            .args(["-c", &format!("command -v {tool}")])
            .output()
            .is_ok_and(|o| o.status.success());
        if !found {
            return Some(format!("no {tool} on the PATH (see scripts/web-probe.sh)"));
        }
    }
    let targets = Command::new("rustup")
        .args(["target", "list", "--installed"])
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
        .unwrap_or_default();
    if !targets.contains("wasm32-unknown-unknown") {
        return Some("no wasm32-unknown-unknown target (rustup target add)".into());
    }
    None
}

/// Whether the browser tests can run; skips (prints SKIPPED) or fails under `BOIDS_REQUIRE_WEB=1`.
fn web() -> bool {
    match missing_tool() {
        None => true,
        Some(w) if std::env::var("BOIDS_REQUIRE_WEB").as_deref() == Ok("1") => {
            panic!("BOIDS_REQUIRE_WEB=1 but {w}")
        }
        Some(w) => {
            use std::io::Write;
            let _ = writeln!(std::io::stderr(), "SKIPPED: {w}");
            false
        }
    }
}

/// Runs the probe script into `out` on `port`, with WebGPU `webgpu` ("on" or "off"): its exit
/// code and printed report.
fn probe(out: &Path, port: u16, webgpu: &str) -> (i32, String) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let t = std::time::Instant::now();
    let o = Command::new(root.join("scripts/web-probe.sh"))
        .arg(out)
        .env("BOIDS_WEB_PORT", port.to_string())
        .env("BOIDS_WEB_WEBGPU", webgpu)
        .output()
        .expect("run scripts/web-probe.sh");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    // Straight to the terminal (the harness hides a passing test's output): the browser test's
    // share of a CI run, the page's build included.
    use std::io::Write;
    let _ = writeln!(
        std::io::stderr(),
        "web: scripts/web-probe.sh (WebGPU {webgpu}) took {:.0} s",
        t.elapsed().as_secs_f64()
    );
    (o.status.code().unwrap_or(-1), text)
}

/// A free local port for the page's server.
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free local port")
}

/// One flock's state the page wrote: how to make it natively, and the state.
struct Written {
    header: String,
    sets: Vec<(String, String)>,
    boids: usize,
    seed: u32,
    steps: u32,
    csv: String,
}

/// The sections of the page's `states.txt` (web/src/check.rs gives the header's form).
fn sections(text: &str) -> Vec<Written> {
    let mut out: Vec<Written> = Vec::new();
    for line in text.lines() {
        if let Some(h) = line.strip_prefix("# case ") {
            let field = |k: &str| {
                h.split_whitespace()
                    .find_map(|f| f.strip_prefix(&format!("{k}=")))
                    .unwrap_or_else(|| panic!("no {k}= in {line:?}"))
                    .to_string()
            };
            let sets = field("sets");
            out.push(Written {
                header: line.to_string(),
                sets: sets
                    .split(',')
                    .filter(|s| !s.is_empty())
                    .map(|kv| {
                        let (k, v) = kv.split_once('=').expect("KEY=VALUE");
                        (k.to_string(), v.to_string())
                    })
                    .collect(),
                boids: field("boids").parse().unwrap(),
                seed: field("seed").parse().unwrap(),
                steps: field("steps").parse().unwrap(),
                csv: String::new(),
            });
        } else if let Some(w) = out.last_mut() {
            w.csv.push_str(line);
            w.csv.push('\n');
        }
    }
    out
}

#[test]
fn the_page_makes_every_pipeline_and_steps_like_the_native_gpu_backend() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    if !web() {
        return;
    }
    let Some(ctx) = support::gpu() else { return };
    let dir = tempfile::tempdir().unwrap();
    let out: PathBuf = dir.path().join("site");
    let (code, report) = probe(&out, free_port(), "on");
    assert_eq!(code, 0, "the probe failed:\n{report}");
    assert!(
        report.contains("stage variants whose source the browser refused: 0; whose source compiled but pipelines were refused: 0"),
        "a pipeline was refused in the browser:\n{report}"
    );
    let states = std::fs::read_to_string(out.join("states.txt")).expect("the page's states");
    let written = sections(&states);
    assert_eq!(
        written.len(),
        5,
        "two flocks after 1 and 10 steps, one after 1:\n{report}"
    );
    for w in &written {
        let mut p = SimParams::default();
        for (k, v) in &w.sets {
            p.set(k, v).unwrap();
        }
        let p = p.with_world_for(w.boids, DEFAULT_DENSITY);
        let start = initial_state(w.seed, w.boids, &p);
        let native = support::checked(&ctx, || {
            let mut gpu = GpuBackend::from_state(&ctx, &p, &start, w.seed).unwrap();
            for _ in 0..w.steps {
                gpu.step().unwrap();
            }
            gpu.read_state().unwrap()
        });
        let file = dir.path().join("page.csv");
        std::fs::write(&file, &w.csv).unwrap();
        let page = boids::formats::checkpoint::load_state(&file).unwrap();
        // Without Gaussian noise, one step: the GPU = CPU tolerance; ten: ten times it (the
        // browser's compiler and the native one may round differently, and differences grow
        // step by step). With the Box–Muller noise, whose `cos` WGSL lets err by 2⁻¹¹
        // (web/src/check.rs), one step within 10⁻³ of the largest speed (seen: 2·10⁻⁴).
        let noisy = w.header.contains("-heading-noise ");
        let tol = match (noisy, w.steps) {
            (true, _) => support::Tolerance {
                position_rel_world: 1e-5,
                velocity_rel: 1e-3,
                hue_abs: 1e-5,
            },
            (false, 1) => support::ONE_STEP,
            (false, _) => support::Tolerance {
                position_rel_world: 1e-4,
                velocity_rel: 1e-4,
                hue_abs: 1e-4,
            },
        };
        support::compare_states(&page, &native, &p, tol)
            .unwrap_or_else(|e| panic!("{}: the page's state differs: {e}", w.header));
    }
    // The comparison can fail: one boid moved in the page's state is caught.
    let w = &written[0];
    let mut p = SimParams::default();
    for (k, v) in &w.sets {
        p.set(k, v).unwrap();
    }
    let p = p.with_world_for(w.boids, DEFAULT_DENSITY);
    let file = dir.path().join("page.csv");
    std::fs::write(&file, &w.csv).unwrap();
    let page = boids::formats::checkpoint::load_state(&file).unwrap();
    let mut moved = page.clone();
    moved[17].position[0] += 0.01 * p.world_width;
    assert!(support::compare_states(&moved, &page, &p, support::ONE_STEP).is_err());
}

#[test]
fn a_browser_without_webgpu_gets_the_pages_own_message() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    if !web() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (code, report) = probe(&dir.path().join("site"), free_port(), "off");
    assert_eq!(code, 1, "the probe must fail without WebGPU:\n{report}");
    // Chromium without WebGPU still has `navigator.gpu` and finds no adapter: the page's own
    // message says so and what to use (a browser with no `navigator.gpu` gets its like).
    assert!(
        report.contains("FAILED: no WebGPU adapter in this browser")
            && report.contains("or the native app"),
        "the page's own message, not a blank page:\n{report}"
    );
}
