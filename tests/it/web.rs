//! The web build in a real browser: `scripts/web-probe.sh` builds the page (wasm32, WebGPU),
//! serves it and opens it in Debian's headless Chromium on its software adapter (SwiftShader).
//! Every pipeline must be made there, and the known flocks the page steps (web/src/check.rs)
//! must equal the native GPU backend's, made from the page's start checkpoint as `--init` makes
//! it, after 1 and 10 steps, within the tolerances below. With WebGPU off
//! the page must say so. The app itself (`web/index.html`, built by `scripts/web-site.sh`) is
//! driven over WebDriver by `scripts/web-app.py`: first view, panel, a slider, a preset, a live
//! model switch, a bad URL parameter, WebGPU off. Without Chromium, wasm-bindgen, the wasm32
//! target or (for the app) chromedriver the tests say SKIPPED — unless `BOIDS_REQUIRE_WEB=1`
//! (CI), where they fail.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;

use crate::support;

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
    page(out, port, webgpu, "probe.html", "")
}

/// Runs the probe script's server and browser on web/`file` with URL parameters `query`.
fn page(out: &Path, port: u16, webgpu: &str, file: &str, query: &str) -> (i32, String) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut cmd = Command::new(root.join("scripts/web-probe.sh"));
    cmd.arg(out)
        .env("BOIDS_WEB_PORT", port.to_string())
        .env("BOIDS_WEB_WEBGPU", webgpu)
        .env("BOIDS_WEB_PAGE", file)
        .env("BOIDS_WEB_QUERY", query)
        // The page's report waited for up to 15 min (the script's 5 by default): making every
        // pipeline takes ~3 min of this suite's 2-core host on its software adapter, and a busy
        // or slower host (seen: 2.7×) needs more; only a failing run waits it out.
        .env("BOIDS_WEB_TIMEOUT_S", "900");
    timed(&mut cmd, &format!("scripts/web-probe.sh (WebGPU {webgpu})"))
}

/// Runs `cmd`: its exit code and its output (stdout, then stderr), its time printed as `what`
/// took it — straight to the terminal (the harness hides a passing test's output): the browser
/// tests' share of a CI run, the page's build included.
fn timed(cmd: &mut Command, what: &str) -> (i32, String) {
    let t = std::time::Instant::now();
    let o = cmd.output().unwrap_or_else(|e| panic!("run {what}: {e}"));
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    use std::io::Write;
    let _ = writeln!(
        std::io::stderr(),
        "web: {what} took {:.0} s",
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

/// One section of the page's `states.txt` (web/src/check.rs gives the form): its header line and
/// its text (a checkpoint for `start`, else a state CSV).
struct Section {
    header: String,
    case: String,
    /// None for the start.
    steps: Option<u32>,
    text: String,
}

fn sections(text: &str) -> Vec<Section> {
    let mut out: Vec<Section> = Vec::new();
    for line in text.lines() {
        if let Some(h) = line.strip_prefix("# case ") {
            let (case, what) = h.split_once(' ').expect("# case NAME start|steps=K");
            out.push(Section {
                header: line.to_string(),
                case: case.to_string(),
                steps: what.strip_prefix("steps=").map(|k| k.parse().unwrap()),
                text: String::new(),
            });
        } else if let Some(w) = out.last_mut() {
            w.text.push_str(line);
            w.text.push('\n');
        }
    }
    out
}

/// The tolerance of the page's state after `steps` steps of `case`. Without Gaussian noise, one
/// step: the GPU = CPU tolerance; ten: ten times it (the browser's compiler and the native one may
/// round differently, and differences grow step by step). With the Box–Muller heading noise,
/// whose `cos` WGSL lets err by 2⁻¹¹ (web/src/check.rs), one step within 10⁻³ of the largest
/// speed (seen: 2·10⁻⁴).
fn tolerance(case: &str, steps: u32) -> support::Tolerance {
    match (case.ends_with("-heading-noise"), steps) {
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
    }
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
    let all = sections(&states);
    let starts = all.iter().filter(|s| s.steps.is_none()).count();
    assert_eq!(starts, 4, "four flocks:\n{report}");
    assert_eq!(
        all.len(),
        4 + 7,
        "three flocks after 1 and 10 steps, one after 1:\n{report}"
    );
    let mut compared = 0;
    for start in all.iter().filter(|s| s.steps.is_none()) {
        // The start as `--init` reads it, and the native GPU backend made from it as every run
        // makes one.
        let file = dir.path().join(format!("{}.csv", start.case));
        std::fs::write(&file, &start.text).unwrap();
        let cp = boids::formats::checkpoint::load_checkpoint(&file).unwrap();
        let setup = boids::model::Setup {
            params: cp.params.clone(),
            seed: cp.seed,
            step: cp.step,
            boids: cp.boids.clone(),
            actors: boids::model::Actors {
                obstacles: cp.obstacles.clone(),
                predators: cp.predators.iter().map(|s| s.predator()).collect(),
            },
        };
        let mut native = support::checked(&ctx, || {
            boids::backend::create(boids::backend::BackendKind::Gpu, &setup, Some(&ctx)).unwrap()
        });
        let mut done = 0;
        for w in all
            .iter()
            .filter(|s| s.case == start.case && s.steps.is_some())
        {
            let steps = w.steps.unwrap();
            let got = support::checked(&ctx, || {
                while done < steps {
                    native.step().unwrap();
                    done += 1;
                }
                native.read_state().unwrap()
            });
            let file = dir.path().join("page.csv");
            std::fs::write(&file, &w.text).unwrap();
            let page = boids::formats::checkpoint::load_state(&file).unwrap();
            support::compare_states(&page, &got, &cp.params, tolerance(&w.case, steps))
                .unwrap_or_else(|e| panic!("{}: the page's state differs: {e}", w.header));
            compared += 1;
        }
    }
    assert_eq!(compared, 7);
    // The comparison can fail: one boid moved in a page's state is caught.
    let w = all.iter().find(|s| s.steps == Some(1)).unwrap();
    let file = dir.path().join("page.csv");
    std::fs::write(&file, &w.text).unwrap();
    let page = boids::formats::checkpoint::load_state(&file).unwrap();
    let p =
        boids::formats::checkpoint::load_checkpoint(&dir.path().join(format!("{}.csv", w.case)))
            .unwrap()
            .params;
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

#[test]
fn the_page_draws_the_flock_with_the_apps_renderer() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    if !web() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("site");
    // Offscreen: headless Chromium cannot present a WebGPU canvas on its software adapter here.
    let (code, report) = page(
        &out,
        free_port(),
        "on",
        "view.html",
        "boids=3000&seconds=2&offscreen=1",
    );
    assert_eq!(code, 0, "the view page failed:\n{report}");
    let frames: u32 = report
        .split("boids, ")
        .nth(1)
        .and_then(|r| r.split(' ').next())
        .and_then(|f| f.parse().ok())
        .unwrap_or_else(|| panic!("no frame count in the report:\n{report}"));
    assert!(
        report.contains("view: 3000 boids") && frames > 0,
        "{report}"
    );
    // The picture: the canvas's size, the theme's background, and boids drawn on it (pixels of
    // many colours, as the hue vectors give them).
    let img = image::open(out.join("view.png"))
        .expect("the page's picture")
        .to_rgba8();
    assert_eq!(img.dimensions(), (960, 600));
    let background = *img.get_pixel(0, 0);
    let drawn = img.pixels().filter(|p| **p != background).count();
    let colours: std::collections::HashSet<[u8; 3]> = img
        .pixels()
        .filter(|p| **p != background)
        .map(|p| [p[0] >> 4, p[1] >> 4, p[2] >> 4])
        .collect();
    assert!(
        drawn > 960 * 600 / 100 && colours.len() > 50,
        "{drawn} pixels drawn in {} colours",
        colours.len()
    );
    // A bad URL parameter: the page's own message (field, value, range), not a hang.
    for (query, says) in [
        ("boids=-5&offscreen=1", "URL parameter boids = -5"),
        ("boids=abc&offscreen=1", "URL parameter boids = NaN"),
        ("seconds=0&offscreen=1", "URL parameter seconds = 0"),
    ] {
        let (code, report) = page(&out, free_port(), "on", "view.html", query);
        assert!(
            code == 1 && report.contains(says),
            "{query}: {code}\n{report}"
        );
    }
}

/// Whether the app can be driven in the browser ([`web`], and chromium-driver's `chromedriver`);
/// skips (prints SKIPPED) or fails under `BOIDS_REQUIRE_WEB=1`.
fn webdriver() -> bool {
    if !web() {
        return false;
    }
    let found = Command::new("sh")
        .args(["-c", "command -v chromedriver"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        let w = "no chromedriver on the PATH (apt-get install chromium-driver)";
        assert!(
            std::env::var("BOIDS_REQUIRE_WEB").as_deref() != Ok("1"),
            "BOIDS_REQUIRE_WEB=1 but {w}"
        );
        use std::io::Write;
        let _ = writeln!(std::io::stderr(), "SKIPPED: {w}");
    }
    found
}

/// Builds the static site into `out` (`scripts/web-site.sh`).
fn site(out: &Path) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let o = Command::new(root.join("scripts/web-site.sh"))
        .arg(out)
        .output()
        .expect("run scripts/web-site.sh");
    assert!(
        o.status.success(),
        "scripts/web-site.sh failed:\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// Drives the app of the site `site` in Chromium over WebDriver (`scripts/web-app.py`) into
/// `out`: its exit code, its printed checks, and its result.json.
fn drive(
    site: &Path,
    out: &Path,
    webgpu: &str,
    extra: &[&str],
) -> (i32, String, serde_json::Value) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut cmd = Command::new("python3");
    cmd.arg(root.join("scripts/web-app.py"))
        .args([site, out])
        .args(["--webgpu", webgpu])
        .args(extra);
    let (code, text) = timed(&mut cmd, &format!("scripts/web-app.py (WebGPU {webgpu})"));
    let result = std::fs::read_to_string(out.join("result.json"))
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or_else(|| panic!("no result.json from scripts/web-app.py:\n{text}"));
    (code, text, result)
}

/// Pixels of `img` inside `r` ([x0, y0, x1, y1], image px) unlike `bg`, and
/// their distinct colours (4 bits a channel).
fn drawn(img: &image::RgbaImage, r: [f64; 4], bg: image::Rgba<u8>) -> (usize, usize) {
    let mut n = 0;
    let mut colours = std::collections::HashSet::new();
    for y in (r[1].max(0.0) as u32)..(r[3] as u32).min(img.height()) {
        for x in (r[0].max(0.0) as u32)..(r[2] as u32).min(img.width()) {
            let p = img.get_pixel(x, y);
            if *p != bg {
                n += 1;
                colours.insert([p[0] >> 4, p[1] >> 4, p[2] >> 4]);
            }
        }
    }
    (n, colours.len())
}

fn rect(v: &serde_json::Value) -> [f64; 4] {
    let a: Vec<f64> = v
        .as_array()
        .expect("a rectangle")
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect();
    [a[0], a[1], a[2], a[3]]
}

#[test]
fn the_app_runs_in_the_browser_and_its_panel_answers_a_user() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    if !webdriver() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let site_dir = dir.path().join("site");
    site(&site_dir);
    // The first view, the panel opened, a slider dragged, a preset clicked, the model switched,
    // the boid count lowered (scripts/web-app.py checks each one's effect on what the app
    // publishes), on a screen of device pixel ratio 2 (the bad-parameter run below is at 1).
    let out = dir.path().join("app");
    let (code, text, result) = drive(
        &site_dir,
        &out,
        "on",
        &[
            "--query",
            "boids=2000&seed=3",
            "--scale",
            "2",
            "--timeout",
            "600",
        ],
    );
    assert_eq!(code, 0, "the app in Chromium:\n{text}");
    for c in result["checks"].as_array().unwrap() {
        assert_eq!(c[1], true, "{c}");
    }
    assert!(result["checks"].as_array().unwrap().len() >= 9, "{text}");
    assert!(
        result["checks"].as_array().unwrap().iter().any(|c| c[0]
            .as_str()
            .is_some_and(|n| n.contains("boid count lowers"))),
        "{text}"
    );
    let console = result["console"].as_array().unwrap();
    assert!(
        console.is_empty(),
        "errors in the page's console: {console:?}"
    );
    // The screenshots: the flock drawn (many colours), the panel drawn where the app says it is.
    let first = image::open(out.join("first.png")).unwrap().to_rgba8();
    // Drawn at the device's resolution: twice the page's 1280 CSS pixels.
    assert_eq!(
        first.width(),
        2560,
        "the canvas is not drawn at the device pixel ratio"
    );
    let bg = *first.get_pixel(first.width() / 2, first.height() - 2);
    let whole = [0.0, 0.0, first.width() as f64, first.height() as f64];
    let (n, colours) = drawn(&first, whole, bg);
    assert!(
        n > (first.width() * first.height() / 100) as usize && colours > 20,
        "first view: {n} pixels drawn in {colours} colours"
    );
    let panel = image::open(out.join("panel.png")).unwrap().to_rgba8();
    let areas = &result["areas"];
    let p = rect(&areas["panel"]).map(|v| 2.0 * v);
    let (inside, _) = drawn(&panel, p, bg);
    let area = (p[2] - p[0]) * (p[3] - p[1]);
    assert!(
        inside as f64 > 0.9 * area,
        "the panel's rectangle {p:?} is not drawn over: {inside} of {area} pixels"
    );
    let preset = image::open(out.join("preset.png")).unwrap().to_rgba8();
    assert_ne!(
        preset.as_raw(),
        panel.as_raw(),
        "the preset's screenshot equals the panel's"
    );
    // A bad URL parameter: the command line's message on the page, and the app started anyway.
    let bad = dir.path().join("bad");
    let (code, text, result) = drive(
        &site_dir,
        &bad,
        "on",
        &[
            "--query",
            "boids=0&seed=3",
            "--first-only",
            "--timeout",
            "600",
        ],
    );
    let first = &result["steps"]["first"];
    assert_eq!(code, 0, "{text}");
    let message = first["message"].as_str().unwrap_or("");
    assert!(
        message.contains("URL parameter boids = 0") && message.contains("Started without"),
        "the page's message: {message:?}\n{text}"
    );
    assert!(first["frames"].as_str().is_some(), "{text}");
}

#[test]
fn the_app_without_webgpu_says_so_on_the_page() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    if !webdriver() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let site_dir = dir.path().join("site");
    site(&site_dir);
    let (code, text, result) = drive(
        &site_dir,
        &dir.path().join("off"),
        "off",
        &["--first-only", "--timeout", "60"],
    );
    assert_eq!(code, 1, "the app must fail without WebGPU:\n{text}");
    let page = &result["steps"]["first"];
    let said = format!(
        "{} {}",
        page["message"].as_str().unwrap_or(""),
        page["error"].as_str().unwrap_or("")
    );
    assert!(
        said.contains("no WebGPU adapter in this browser") && said.contains("or the native app"),
        "the page's own message, not a blank canvas: {said:?}\n{text}"
    );
}
