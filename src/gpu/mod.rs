//! The GPU backend: boid state in storage buffers, a counting-sort binning into the uniform grid,
//! the rules pass and the flock measures, all in wgpu compute shaders.
//!
//! The stages, their WGSL and their bindings are described once in [`crate::stages::STAGES`];
//! [`pipelines`] takes their pipelines from the device's [`cache`] (compiled once per device),
//! [`buffers`] allocates the buffers of [`crate::stages::BUFFERS`] and binds them, and
//! [`backend::GpuBackend`] records them in step order.

pub mod backend;
pub mod buffers;
pub mod cache;
pub mod context;
pub mod dispatch;
pub mod pipelines;
pub mod readback;
pub mod report;
pub mod scan;
pub mod shaders;

pub use crate::simulation::GpuError;
pub use backend::{GpuBackend, Launch, Replica};
pub use context::{Gather, GpuContext};
pub use report::adapter_report;
