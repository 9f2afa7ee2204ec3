//! # boids
//!
//! A 2D flocking simulator whose whole simulation runs in wgpu compute shaders, with a CPU
//! reference backend computing the same model, and benchmark captures.
//!
//! Layers, each using only those above it (held by `tests/it/module_graph.rs`):
//!
//! - [`model`]: parameters, state, the uniform grid, the rules, the random numbers, the measures,
//!   the [`model::Setup`] of a run and a state loaded into it (docs/model.md).
//! - [`formats`]: the files a run reads and writes — scenes, state CSVs and checkpoints, GSD
//!   trajectories (on the workspace's `gsd` crate) — with the table of state formats.
//! - [`analysis`]: the analyses of states (C(r) and ξ, S(k), g(r), local density, density
//!   profile, P(s), MSD, heading autocorrelation), as a table, on the CPU.
//! - [`stages`]: the one table of compute stages and each stage's CPU twin.
//! - [`simulation`]: the [`simulation::Simulation`] interface every backend implements.
//! - [`cpu`], [`gpu`]: the CPU reference backend and the GPU backend.
//! - [`backend`]: the one factory of backends.
//! - [`render`]: the instanced spearhead renderer, offscreen targets and the camera; [`plot`]:
//!   charts (plotters).
//! - [`run`]: a run's inputs resolved (scene < state file < options) into what it runs.
//! - [`capture`]: benchmark capture folders (summary, frames, plots, trace) written and compared.
//! - [`app`] (the window and `boids snapshot`), [`mod@bench`] (benchmark captures), [`headless`],
//!   [`sweep`] (parameter sweeps, sharded over machines and merged), [`analyse`] (the analyses of
//!   a trajectory file).
//!
//! [`io`] (whole-file writes) and [`stats`] (statistics of correlated series) serve every layer.

pub mod analyse;
pub mod analysis;
pub mod app;
pub mod backend;
pub mod bench;
pub mod capture;
pub mod cpu;
pub mod formats;
pub mod gpu;
pub mod headless;
pub mod io;
pub mod model;
pub mod plot;
pub mod render;
pub mod run;
pub mod simulation;
pub mod stages;
pub mod stats;
pub mod sweep;
