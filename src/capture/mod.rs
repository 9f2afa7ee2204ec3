//! Benchmark captures: the folder a `boids bench` run or a live session of the app (F9) writes —
//! `frames.csv` (per-frame wall and per-pass times), `summary.json` ([`summary::Summary`]: machine,
//! adapter, parameters, per-run statistics, skipped runs with reasons), `trace.json` ([`trace`],
//! a Chrome trace of the GPU passes) and the [`plot`]s — through one [`recorder::CaptureRecorder`],
//! into a folder checked with [`outdir::prepare_out_dir`].
//!
//! A live session records with the same recorder: build a [`recorder::CaptureMeta`] with
//! [`recorder::CaptureMeta::collect`] (source `live`, the window's present mode), push one
//! [`recorder::FrameRow`] per frame, optionally [`recorder::CaptureRecorder::push_trace`] the GPU
//! timer scopes, then [`recorder::CaptureRecorder::write`].

pub mod error;
pub mod outdir;
pub mod plot;
pub mod recorder;
pub mod summary;
pub mod trace;
