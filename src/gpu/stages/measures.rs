use super::StagePipelines;
use crate::gpu::shaders::{self, Slot};

/// Stage `measures` (`shaders/measures.wgsl`): polarization, milling, mean speed and mean
/// neighbours by parallel reduction. Bindings: params, state, neighbors, partials (32 bytes per
/// workgroup), result (32 bytes: Σv̂x, Σv̂y, Σ|v|, Σneighbours, Σpx, Σpy, Σ r̂×v̂, 0).
pub struct Measures(pub StagePipelines);

/// Bytes of one partial row / of the result.
pub const MEASURES_ROW_BYTES: u64 = 32;

impl Measures {
    /// Creates the pipelines (partial, milling partial, final).
    pub fn new(device: &wgpu::Device) -> Self {
        Measures(StagePipelines::new(
            device,
            "measures",
            shaders::MEASURES,
            &[
                Slot::Uniform,
                Slot::Read,
                Slot::Read,
                Slot::ReadWrite,
                Slot::ReadWrite,
            ],
            &["measures_partial", "milling_partial", "measures_final"],
        ))
    }
    /// Records the four dispatches for `boids` boids.
    pub fn record(
        &self,
        pass: &mut wgpu::ComputePass<'_>,
        bind: &wgpu::BindGroup,
        boids: u32,
        max_dim: u32,
    ) {
        self.0.run(pass, 0, bind, boids, max_dim);
        self.0.run(pass, 2, bind, 1, max_dim);
        self.0.run(pass, 1, bind, boids, max_dim);
        self.0.run(pass, 2, bind, 1, max_dim);
    }
}
