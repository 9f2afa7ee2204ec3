//! Benchmark captures.
//!
//! `boids bench` ([`cli`]) runs a [`sweep`] of boid counts × backends from one seed and writes a
//! capture folder through a [`capture::CaptureRecorder`]: `frames.csv` (per-frame wall and
//! per-pass times), `summary.json` ([`summary::Summary`]: machine, adapter, parameters, per-run
//! statistics from [`stats`], skipped runs with reasons), `trace.json` ([`trace`], Chrome trace of
//! the GPU passes), and the [`plot`]s `scaling.svg`/`.png` and `frametimes.svg` (a live capture:
//! `frametimes.svg`/`.png` and `frametime_histogram.svg`/`.png`).
//! `boids bench --compare A B` prints two captures side by side ([`compare`]). Every time shown
//! (plots, lines, tables) is written by [`format::format_ms`]: 3 significant digits with a unit.
//!
//! The app records a live session with the same [`capture::CaptureRecorder`]: build a
//! [`capture::CaptureMeta`] with [`capture::CaptureMeta::collect`] (source `live`, the window's
//! present mode), push one [`capture::FrameRow`] per frame, optionally
//! [`capture::CaptureRecorder::push_trace`] the GPU timer scopes, then
//! [`capture::CaptureRecorder::write`] into a folder checked with [`outdir::prepare_out_dir`].

pub mod capture;
pub mod cli;
pub mod compare;
pub mod error;
pub mod format;
pub mod outdir;
pub mod plot;
pub mod render;
pub mod stats;
pub mod summary;
pub mod sweep;
pub mod sysinfo;
pub mod trace;

pub use capture::{CaptureMeta, CaptureRecorder, FrameRow};
pub use error::BenchError;
pub use sweep::{run_sweep, BenchConfig};
