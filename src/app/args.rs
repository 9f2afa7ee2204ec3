//! What the app is started with: the options of `boids run` ([`RunArgs`]), the backends it offers
//! ([`AppBackend`], also `boids snapshot`'s) and its default boid counts.

use std::path::PathBuf;

use crate::app::clock::Pace;
use crate::app::start::Spawn;
use crate::backend::BackendKind;
use crate::render::{ColourMode, Theme};

/// Boids of the default scene on a hardware GPU.
pub const DEFAULT_BOIDS_GPU: usize = 100_000;
/// Boids of the default scene on a software adapter (lavapipe, WARP…), so it stays fluid.
pub const DEFAULT_BOIDS_SOFTWARE: usize = 20_000;

/// The backends the app and `boids snapshot` run (the brute-force `cpu-naive` is for `boids
/// headless` and `boids bench`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum AppBackend {
    /// wgpu compute shaders.
    Gpu,
    /// The CPU reference backend (uniform grid, rayon).
    Cpu,
}

impl AppBackend {
    /// The backend it names.
    pub fn kind(self) -> BackendKind {
        match self {
            AppBackend::Gpu => BackendKind::Gpu,
            AppBackend::Cpu => BackendKind::Cpu,
        }
    }
}

/// Options of `boids run` (and of `boids` with no subcommand).
#[derive(Clone, Debug, clap::Args)]
pub struct RunArgs {
    /// Number of boids (default: the scene's, else 100000 on a GPU and 20000 on a software
    /// adapter). The world is sized to the window at the default density unless the scene fixes
    /// it.
    #[arg(long, value_parser = crate::run::args::parse_count)]
    pub boids: Option<usize>,
    /// The scene, the seed and `--set KEY=VALUE`.
    #[command(flatten)]
    pub setup: crate::run::args::SetupArgs,
    /// Backend that computes the steps (switchable live in the panel). Default: `cpu` on a
    /// software adapter (lavapipe, SwiftShader), where it steps faster than the compute shaders
    /// run; `gpu` on a GPU.
    #[arg(long, value_enum)]
    pub backend: Option<AppBackend>,
    /// How simulated time follows the frames: `real-time` (fixed steps of dt as real time asks,
    /// at most 4 a frame; the HUD says when the machine cannot keep up) or `per-frame` (one step
    /// per frame at 1×: deterministic). Default: per-frame when --script or --frames is given,
    /// else real-time.
    #[arg(long, value_enum)]
    pub clock: Option<Pace>,
    /// How the boids start: `flocks` (a few formed flocks, apart), `uniform` (spread evenly) or
    /// `group` (one disc at the world's centre).
    /// Default: the scene's `spawn` key (the default scene's is flocks), else uniform.
    #[arg(long, value_enum)]
    pub spawn: Option<Spawn>,
    /// Present without waiting for vertical sync (Mailbox or Immediate when offered).
    #[arg(long)]
    pub no_vsync: bool,
    /// Simulation steps to run before the window shows (a flock already formed, for captures).
    #[arg(long, default_value_t = 0)]
    pub warmup: u32,
    /// Exit after this many frame ticks, at least 1 (tests, scripted captures, fps
    /// measurements); the clock then takes one step per frame unless --clock real-time.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub frames: Option<u64>,
    /// Window inner width (physical px, 1 ..= 16384).
    #[arg(long, default_value_t = 1280, value_parser = clap::value_parser!(u32).range(1..=16384))]
    pub width: u32,
    /// Window inner height (physical px, 1 ..= 16384).
    #[arg(long, default_value_t = 720, value_parser = clap::value_parser!(u32).range(1..=16384))]
    pub height: u32,
    /// Colour theme.
    #[arg(long, value_enum, default_value = "dark")]
    pub theme: Theme,
    /// Start with the control panel open.
    #[arg(long)]
    pub panel: bool,
    /// Do not show the start screen (it is not shown under --script or --frames either).
    #[arg(long)]
    pub no_start_screen: bool,
    /// Multisampling (1 = off; clamped to what the adapter offers). Default: 4 on a GPU, 1 on a
    /// software adapter (where it would cost more than the simulation).
    #[arg(long)]
    pub msaa: Option<u32>,
    /// How boids are drawn: `auto` (the compute rasteriser for many small boids — 20 000 or more,
    /// as density dots or spearheads up to 6 px — the instanced draw otherwise), `instanced` (the
    /// design card's instanced spearheads), `compute` (the compute rasteriser).
    #[arg(long, value_enum, default_value_t = crate::render::Rasteriser::Auto)]
    pub rasteriser: crate::render::Rasteriser,
    /// Scripted input (see `boids::app::script`): timed pointer, key, tool and window events;
    /// the clock then takes one step per frame unless --clock real-time.
    #[arg(long)]
    pub script: Option<PathBuf>,
    /// Folder under which F9 writes live captures (`<DIR>/<UTC timestamp>/`).
    #[arg(long, default_value = "captures")]
    pub capture_dir: PathBuf,
    /// Write the exit report (JSON: frames, fps, boids, parameters, UI areas, …) to this file;
    /// `-` prints it on stdout as one `boids-report: {json}` line. Without it the app prints
    /// only one human line at exit.
    #[arg(long)]
    pub report: Option<PathBuf>,
    /// What the boids' colour shows (C cycles it). Default: the scene's `[view] colour`, else
    /// `hue`.
    #[arg(long, value_enum)]
    pub colour: Option<ColourMode>,
    /// Fading trails behind the boids (T turns them on and off; each frame costs a full-screen
    /// fade and composite more).
    #[arg(long)]
    pub trails: bool,
    /// Record the picture from the start as PNG frames `DIR/frame-000001.png`, … at a fixed
    /// simulated frame rate, and `DIR/recording.mp4` (H.264, encoded in-process) when it stops
    /// (V stops; V alone records under --capture-dir).
    #[arg(long, value_name = "DIR")]
    pub record: Option<PathBuf>,
    /// Frames per simulated second of a recording (1 ..= 240): each frame advances the
    /// simulation by that much whatever the display's rate.
    #[arg(long, default_value_t = crate::app::recording::DEFAULT_FPS, value_parser = parse_fps)]
    pub record_fps: f64,
    /// Stop the --record recording after N frames (at least 1), write it and leave the app.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..), requires = "record")]
    pub record_frames: Option<u64>,
}

/// `--record-fps`: a number in [`crate::app::recording::FPS_RANGE`].
fn parse_fps(s: &str) -> Result<f64, String> {
    let range = crate::app::recording::FPS_RANGE;
    let fps: f64 = s.parse().map_err(|e| format!("{e}"))?;
    if range.contains(&fps) {
        Ok(fps)
    } else {
        Err(format!(
            "{fps} is out of range: allowed {} ..= {} frames per simulated second",
            range.start(),
            range.end()
        ))
    }
}

impl RunArgs {
    /// The clock's pace: `--clock`, else one step per frame under `--script` or `--frames`.
    pub fn pace(&self) -> Pace {
        self.clock
            .unwrap_or(if self.script.is_some() || self.frames.is_some() {
                Pace::PerFrame
            } else {
                Pace::RealTime
            })
    }

    /// Whether `--report -` asks for the report on stdout.
    pub fn report_to_stdout(&self) -> bool {
        self.report.as_deref() == Some(std::path::Path::new("-"))
    }

    /// Whether the start screen (the help overlay with Start, Settings, Quit) opens first: not
    /// under --script, --frames or --record.
    pub fn start_screen(&self) -> bool {
        !self.no_start_screen
            && self.script.is_none()
            && self.frames.is_none()
            && self.record.is_none()
    }
}

impl Default for RunArgs {
    /// The options of `boids run` without arguments (clap's own defaults).
    fn default() -> Self {
        #[derive(clap::Parser)]
        struct Cli {
            #[command(flatten)]
            run: RunArgs,
        }
        <Cli as clap::Parser>::parse_from(["boids"]).run
    }
}
