//! The GPU backend (SPEC §6): boid state in storage buffers, a counting-sort binning into the
//! uniform grid, the rules pass and the flock measures, all in wgpu compute shaders.
//!
//! Stages, in step order, each a struct owning its pipeline, with a WGSL file of the same name in
//! `shaders/` and a CPU twin of the same name in [`crate::cpu::stages`]:
//! `clear` → `count` → `scan` → `scatter` → `rules`; `measures` on request.

pub mod backend;
pub mod buffers;
pub mod context;
pub mod dispatch;
pub mod readback;
pub mod shaders;
pub mod stages;

pub use backend::GpuBackend;
pub use context::{adapter_report, GpuContext};

/// Errors of the GPU backend.
#[derive(Debug, thiserror::Error)]
pub enum GpuError {
    /// No adapter could be found.
    #[error(
        "no GPU adapter found{detail}. Install a GPU driver, or Mesa's software Vulkan driver \
         (Debian/Ubuntu: apt-get install mesa-vulkan-drivers libvulkan1), or use --backend cpu"
    )]
    NoAdapter {
        /// Extra detail (e.g. the WGPU_ADAPTER_NAME filter that matched nothing).
        detail: String,
    },
    /// The device could not be created.
    #[error("cannot create a device on {adapter}: {message}")]
    Device {
        /// Adapter name.
        adapter: String,
        /// wgpu's message.
        message: String,
    },
    /// A boid count (or grid) that does not fit in the adapter's buffers.
    #[error("{what} needs {needed} bytes, above this adapter's {limit} ({max} bytes){hint}")]
    Limit {
        /// What was being allocated.
        what: String,
        /// Bytes needed.
        needed: u64,
        /// Name of the wgpu limit.
        limit: &'static str,
        /// Its value on this adapter.
        max: u64,
        /// How to stay inside it.
        hint: String,
    },
    /// wgpu reported a validation or out-of-memory error.
    #[error("wgpu error: {0}")]
    Wgpu(String),
    /// A buffer could not be mapped for reading.
    #[error("GPU readback failed: {0}")]
    Readback(String),
}
