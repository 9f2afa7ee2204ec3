use super::StagePipelines;
use crate::gpu::shaders::{self, Slot};

/// Stage `clear` (`shaders/clear.wgsl`): zeroes the `cell_count + 1` cell counters.
/// Bindings: params, cells.
pub struct Clear(pub StagePipelines);

impl Clear {
    /// Creates the pipeline.
    pub fn new(device: &wgpu::Device) -> Self {
        Clear(StagePipelines::new(
            device,
            "clear",
            shaders::CLEAR,
            &[Slot::Uniform, Slot::ReadWrite],
            &["clear"],
        ))
    }
    /// Records the stage for `cell_count` cells.
    pub fn record(
        &self,
        pass: &mut wgpu::ComputePass<'_>,
        bind: &wgpu::BindGroup,
        cell_count: u32,
        max_dim: u32,
    ) {
        self.0.run(pass, 0, bind, cell_count + 1, max_dim);
    }
}
