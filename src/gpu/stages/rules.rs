use super::StagePipelines;
use crate::gpu::shaders::{self, Slot};

/// Stage `rules` (`shaders/rules.wgsl` + `shaders/rules_common.wgsl`): the next state of every
/// sorted boid. Bindings: params, sorted, cells (starts), obstacles, state (output), neighbors.
pub struct Rules(pub StagePipelines);

impl Rules {
    /// Creates the pipeline.
    pub fn new(device: &wgpu::Device) -> Self {
        Rules(StagePipelines::new(
            device,
            "rules",
            shaders::RULES,
            &[
                Slot::Uniform,
                Slot::Read,
                Slot::Read,
                Slot::Read,
                Slot::ReadWrite,
                Slot::ReadWrite,
            ],
            &["rules"],
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
