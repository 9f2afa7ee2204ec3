//! # boids
//!
//! A 2D flocking simulator whose whole simulation runs in wgpu compute shaders, with a CPU
//! reference backend computing the same model, and benchmark captures.
//!
//! - [`model`]: parameters, state, the uniform grid, the rules shared by every backend
//!   (`docs/model.md`).
//! - [`cpu`]: the CPU reference backend (counting-sort grid and brute force).
//! - [`gpu`]: the GPU backend (wgpu compute shaders).
//! - [`backend`]: the [`backend::Simulation`] interface both implement.
//! - [`headless`]: the `boids headless` run.
//! - [`app`]: the interactive app (winit + egui) and `boids snapshot`.
//! - [`sweep`]: parameter sweeps (`boids sweep`), sharded over machines and merged.

pub mod app;
pub mod backend;
pub mod bench;
pub mod cpu;
pub mod gpu;
pub mod headless;
pub mod io;
pub mod model;
pub mod sweep;
