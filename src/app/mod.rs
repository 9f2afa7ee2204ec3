//! The interactive app and its offscreen twin `boids snapshot`; both draw with
//! [`crate::render`].
//!
//! - [`record`]: F9 records a live capture (the files of `boids bench`).
//! - [`sim`]: the running simulation, GPU or CPU, switchable live.
//! - [`snapshot`]: `boids snapshot` and the image comparator of the snapshot tests.
//! - [`state`], [`tools`], [`ui`], [`script`]: what the app does with input, its egui layer and
//!   scripted input for tests; [`window`] and `frame`: the winit/wgpu frame loop;
//!   [`report`]: what a run reports at exit.

mod frame;
pub mod record;
pub mod report;
pub mod script;
pub mod sim;
pub mod snapshot;
pub mod state;
pub mod tools;
pub mod ui;
pub mod window;

use std::path::PathBuf;

use crate::backend::BackendKind;
use crate::render::Theme;

/// Options of `boids run` (and of `boids` with no subcommand).
#[derive(Clone, Debug, clap::Args)]
pub struct RunArgs {
    /// Number of boids (default: the scene's, else 100000 on a GPU and 20000 on a software
    /// adapter). The world is sized to the window at the default density unless the scene fixes
    /// it.
    #[arg(long)]
    pub boids: Option<usize>,
    /// Scene file (TOML).
    #[arg(long)]
    pub scene: Option<PathBuf>,
    /// Random seed (default: the scene's, else 1).
    #[arg(long)]
    pub seed: Option<u32>,
    /// Backend that computes the steps (switchable live in the panel).
    #[arg(long, value_enum, default_value = "gpu")]
    pub backend: BackendKind,
    /// Present without waiting for vertical sync (Mailbox or Immediate when offered).
    #[arg(long)]
    pub no_vsync: bool,
    /// Simulation steps to run before the window shows (a flock already formed, for captures).
    #[arg(long, default_value_t = 0)]
    pub warmup: u32,
    /// Exit after this many frame ticks (tests, scripted captures, fps measurements).
    #[arg(long)]
    pub frames: Option<u64>,
    /// Window inner width (physical px).
    #[arg(long, default_value_t = 1280)]
    pub width: u32,
    /// Window inner height (physical px).
    #[arg(long, default_value_t = 720)]
    pub height: u32,
    /// Colour theme.
    #[arg(long, value_enum, default_value = "dark")]
    pub theme: Theme,
    /// Start with the control panel open.
    #[arg(long)]
    pub panel: bool,
    /// Multisampling (1 = off; clamped to what the adapter offers). Default: 4 on a GPU, 1 on a
    /// software adapter (where it would cost more than the simulation).
    #[arg(long)]
    pub msaa: Option<u32>,
    /// Scripted input (see `boids::app::script`): timed pointer, key, tool and window events.
    #[arg(long)]
    pub script: Option<PathBuf>,
    /// Folder under which F9 writes live captures (`<DIR>/<UTC timestamp>/`).
    #[arg(long, default_value = "captures")]
    pub capture_dir: PathBuf,
    /// Write the exit report (JSON) here.
    #[arg(long)]
    pub report: Option<PathBuf>,
}

impl Default for RunArgs {
    fn default() -> Self {
        RunArgs {
            boids: None,
            scene: None,
            seed: None,
            backend: BackendKind::Gpu,
            no_vsync: false,
            warmup: 0,
            frames: None,
            width: 1280,
            height: 720,
            theme: Theme::Dark,
            panel: false,
            msaa: None,
            script: None,
            capture_dir: PathBuf::from("captures"),
            report: None,
        }
    }
}

/// `boids run` / `boids`: runs the app, then prints the exit report (a human line and a
/// `boids-report: {json}` line). A panic inside the app is turned into an error message.
///
/// # Errors
/// A message for the user (no display, no adapter, bad scene or script, GPU error).
pub fn run(args: RunArgs) -> Result<(), String> {
    if args.backend == BackendKind::CpuNaive {
        return Err(
            "the app runs the gpu or cpu backend; cpu-naive (brute force) is for \
             `boids headless` and `boids bench`"
                .into(),
        );
    }
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| window::run(args)));
    let report = match outcome {
        Ok(r) => r?,
        Err(p) => {
            let msg = p
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "unknown".into());
            return Err(format!("internal error in the app: {msg}"));
        }
    };
    println!("{}", report.summary());
    println!(
        "boids-report: {}",
        serde_json::to_string(&report).map_err(|e| e.to_string())?
    );
    Ok(())
}
