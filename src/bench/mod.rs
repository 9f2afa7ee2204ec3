//! Benchmarks.
//!
//! `boids bench` ([`cli`]) runs a [`sweep`] of boid counts × backends from one seed, through the
//! run layer's setup and step loop, and writes a capture folder (`crate::capture`: `frames.csv`,
//! `summary.json`, `trace.json` and the plots). `boids bench --compare A B` prints two captures
//! side by side ([`compare`]); [`render`] times the offscreen render of each frame (`--render`).
//! Every time shown is written by `crate::stats::format::format_ms`: 3 significant digits with a
//! unit.

pub mod cli;
pub mod compare;
pub mod ensemble;
pub mod render;
pub mod sweep;

pub use crate::capture::error::BenchError;
pub use sweep::{run_sweep, BenchConfig};
