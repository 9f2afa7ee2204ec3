use super::StagePipelines;
use crate::gpu::shaders::{self, Slot};

/// Stage `scatter` (`shaders/scatter.wgsl`): copies each boid's whole state to
/// `cell_start[cell] + rank`. Bindings: params, state, boid_cell, boid_rank, cells (starts), sorted.
pub struct Scatter(pub StagePipelines);

impl Scatter {
    /// Creates the pipeline.
    pub fn new(device: &wgpu::Device) -> Self {
        Scatter(StagePipelines::new(
            device,
            "scatter",
            shaders::SCATTER,
            &[
                Slot::Uniform,
                Slot::Read,
                Slot::Read,
                Slot::Read,
                Slot::Read,
                Slot::ReadWrite,
            ],
            &["scatter"],
        ))
    }
    /// Records the stage for `boids` boids.
    pub fn record(
        &self,
        pass: &mut wgpu::ComputePass<'_>,
        bind: &wgpu::BindGroup,
        boids: u32,
        max_dim: u32,
    ) {
        self.0.run(pass, 0, bind, boids, max_dim);
    }
}
