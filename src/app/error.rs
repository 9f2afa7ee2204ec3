//! [`AppError`]: why the interactive app or `boids snapshot` could not start, or stopped; with
//! [`ScriptError`] (a script that cannot be used) and [`RecordingError`] (a video recording that
//! cannot start or be written). Each message says what is wrong and, where there is one, the way
//! out.
//!
//! They live here rather than beside their code so that this file imports no other file of the
//! app (the script's commands use the app state, whose live capture returns an [`AppError`]).

use std::path::PathBuf;

use crate::capture::error::BenchError;
use crate::formats::scene::SceneError;
use crate::io::PictureError;
use crate::render::picture::PictureSizeError;
use crate::run::RunError;
use crate::simulation::{GpuError, SimError};

/// A script that cannot be used: the file cannot be read, or a line is wrong. The messages name
/// the file (when read from one) and the line, and quote at most 60 characters of a value.
#[derive(Debug, thiserror::Error)]
pub enum ScriptError {
    /// The file cannot be read (missing, not UTF-8, larger than
    /// [`crate::io::TEXT_FILE_LIMIT`]).
    #[error("script {}: {source}", crate::io::show_path(path))]
    Read {
        /// The file.
        path: PathBuf,
        /// The I/O error (its message names the limit or the offset of a bad byte).
        source: std::io::Error,
    },
    /// A line that cannot be parsed: an unknown command, a missing or extra argument, a value
    /// out of range.
    #[error("{}line {line}: {message}", in_file(.file))]
    Line {
        /// The file (clipped for display), when the script was read from one.
        file: Option<String>,
        /// 1-based line.
        line: usize,
        /// What is wrong, with the value and the allowed range.
        message: String,
    },
}

/// `script FILE: `, or nothing for a script not read from a file.
fn in_file(file: &Option<String>) -> String {
    file.as_deref()
        .map(|f| format!("script {f}: "))
        .unwrap_or_default()
}

impl ScriptError {
    /// The 1-based line at fault, for [`ScriptError::Line`].
    pub fn line(&self) -> Option<usize> {
        match self {
            ScriptError::Line { line, .. } => Some(*line),
            ScriptError::Read { .. } => None,
        }
    }
}

/// Why a video recording ([`crate::app::recording`]) could not start or be written.
#[derive(Debug, thiserror::Error)]
pub enum RecordingError {
    /// The folder could not be created or read.
    #[error("recording folder {}: {source}", crate::io::show_path(dir))]
    Folder {
        /// The folder.
        dir: PathBuf,
        /// What failed.
        source: std::io::Error,
    },
    /// The folder already holds frames of another recording.
    #[error(
        "recording folder {} already holds frames ({first}, …): give a new or empty folder",
        crate::io::show_path(dir)
    )]
    NotEmpty {
        /// The folder.
        dir: PathBuf,
        /// One of the frames found.
        first: String,
    },
    /// The frame rate is out of range.
    #[error(
        "recording at {fps} frames per simulated second: allowed {} ..= {}",
        range.start(),
        range.end()
    )]
    Fps {
        /// The rate given (frames per simulated second).
        fps: f64,
        /// The rates allowed.
        range: std::ops::RangeInclusive<f64>,
    },
    /// A frame could not be written.
    #[error(transparent)]
    Frame(#[from] PictureError),
    /// The writer thread stopped without saying why (it panicked).
    #[error("the frame writer of {} stopped", crate::io::show_path(dir))]
    Writer {
        /// The folder.
        dir: PathBuf,
    },
}

/// What stops the app or `boids snapshot`.
#[derive(Debug, thiserror::Error)]
pub enum AppError {
    /// No display: winit's event loop cannot start.
    #[error(
        "cannot open a window: {message}\nThe interactive app needs a display (X11 or Wayland). \
         Without one, use `boids headless` (simulation only), `boids bench` (benchmark \
         captures) or `boids snapshot --out FILE.png` (an offscreen picture)."
    )]
    NoDisplay {
        /// winit's message, without its source location.
        message: String,
    },
    /// A browser without a WebGPU adapter (the web app).
    #[error(
        "no WebGPU adapter in this browser ({0}): use a browser with WebGPU enabled (Chromium, \
         Chrome, Edge; Firefox and Safari where enabled), or the native app"
    )]
    NoBrowserAdapter(String),
    /// The event loop runs but the window cannot be created.
    #[error("cannot open a window: {message}")]
    Window {
        /// winit's message, without its source location.
        message: String,
    },
    /// The event loop failed while running.
    #[error("event loop: {0}")]
    EventLoop(winit::error::EventLoopError),
    /// The event loop ended without ever letting the app open its window.
    #[error("the window never opened (no display event received)")]
    NeverOpened,
    /// No drawing surface can be created for the window.
    #[error("cannot create a drawing surface: {0}")]
    Surface(wgpu::CreateSurfaceError),
    /// The drawing surface was lost and cannot be recreated.
    #[error("cannot recreate the surface: {0}")]
    SurfaceLost(wgpu::CreateSurfaceError),
    /// The surface offers no texture format on this adapter.
    #[error(
        "the surface offers no format on {adapter} (`boids info` lists the adapters; \
         WGPU_ADAPTER_NAME picks another)"
    )]
    NoSurfaceFormat {
        /// The adapter.
        adapter: String,
    },
    /// The adapter cannot draw into the window's surface.
    #[error(
        "the window surface is not supported by {adapter} (`boids info` lists the adapters; \
         WGPU_ADAPTER_NAME picks another)"
    )]
    SurfaceUnsupported {
        /// The adapter.
        adapter: String,
    },
    /// The script asked for a window screenshot, but the surface cannot be copied.
    #[error(
        "this surface cannot be copied (no COPY_SRC): take screenshots with an external tool, \
         or use the script's `capture` (the view without the UI)"
    )]
    NoScreenshotCopy,
    /// A scene file that cannot be read or used.
    #[error(transparent)]
    Scene(#[from] SceneError),
    /// A script that cannot be read or parsed (the message names the file and the line).
    #[error(transparent)]
    Script(#[from] ScriptError),
    /// The run cannot be set up (`--set`, counts, a scene's point outside the world).
    #[error(transparent)]
    Setup(#[from] RunError),
    /// No adapter, no device, a limit, or a readback that failed.
    #[error(transparent)]
    Gpu(#[from] GpuError),
    /// The simulation cannot be created or read back.
    #[error(transparent)]
    Sim(#[from] SimError),
    /// A simulation step failed.
    #[error("simulation step: {0}")]
    Step(SimError),
    /// wgpu reported an error while the app ran (a validation error, out of memory, a lost
    /// device).
    #[error("GPU error: {0}")]
    GpuFault(GpuError),
    /// A picture (`boids snapshot`, the script's `capture` or `screenshot`) cannot be written.
    #[error(transparent)]
    Picture(#[from] PictureError),
    /// The script's `state` cannot read the state back.
    #[error("script `state`: {0}")]
    StateRead(SimError),
    /// The script's `state` cannot write its checkpoint (the message names the file).
    #[error("script `state`: {0}")]
    StateWrite(std::io::Error),
    /// The run report cannot be written (the message names the file).
    #[error("cannot write the run report: {source}")]
    Report {
        /// The report's path.
        path: PathBuf,
        /// The file system's error.
        source: std::io::Error,
    },
    /// The run report cannot be encoded as JSON.
    #[error("cannot encode the run report as JSON: {0}")]
    ReportJson(serde_json::Error),
    /// F9 stopped a live capture before any frame was presented.
    #[error("nothing recorded (no frame was presented)")]
    NothingRecorded,
    /// `--record` could not start its recording.
    #[error(transparent)]
    Recording(#[from] RecordingError),
    /// A live capture's folder or files cannot be written.
    #[error(transparent)]
    Capture(#[from] BenchError),
    /// A picture out of range or too large for the adapter (`boids snapshot`).
    #[error(transparent)]
    PictureSize(#[from] PictureSizeError),
    /// A panic inside the app, caught.
    #[error("internal error in the app: {message}")]
    Panic {
        /// The panic's message.
        message: String,
    },
}
