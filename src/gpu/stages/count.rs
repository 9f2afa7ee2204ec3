use super::StagePipelines;
use crate::gpu::shaders::{self, Slot};

/// Stage `count` (`shaders/count.wgsl`): each boid's cell, and its rank from `atomicAdd` on the
/// cell counter. Bindings: params, state, cells (atomic), boid_cell, boid_rank.
pub struct Count(pub StagePipelines);

impl Count {
    /// Creates the pipeline.
    pub fn new(device: &wgpu::Device) -> Self {
        Count(StagePipelines::new(
            device,
            "count",
            shaders::COUNT,
            &[
                Slot::Uniform,
                Slot::Read,
                Slot::ReadWrite,
                Slot::ReadWrite,
                Slot::ReadWrite,
            ],
            &["count"],
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
