//! The GPU stages, one struct per stage owning its pipeline(s). Stage names are shared with the
//! WGSL files, the CPU twins ([`crate::cpu::stages`]), the pipeline labels and the timing scopes.

mod clear;
mod count;
mod measures;
mod rules;
mod scan;
mod scatter;

pub use clear::Clear;
pub use count::Count;
pub use measures::{Measures, MEASURES_ROW_BYTES};
pub use rules::Rules;
pub use scan::{Scan, ScanBuffers};
pub use scatter::Scatter;

use crate::gpu::dispatch;
use crate::gpu::shaders::{self, Slot};

/// The bind group layout and compute pipelines (one per entry point) of one stage.
pub struct StagePipelines {
    /// Stage name (pipeline label and timing scope).
    pub name: &'static str,
    /// Layout of group 0.
    pub bgl: wgpu::BindGroupLayout,
    /// One pipeline per entry point, in the order given to [`StagePipelines::new`].
    pub pipelines: Vec<wgpu::ComputePipeline>,
}

impl StagePipelines {
    /// Compiles `source` and creates a pipeline for each of `entries`, all with the layout `slots`.
    pub fn new(
        device: &wgpu::Device,
        name: &'static str,
        source: &str,
        slots: &[Slot],
        entries: &[&str],
    ) -> Self {
        let module = shaders::module(device, name, source);
        let bgl = shaders::layout(device, name, slots);
        let pipelines = entries
            .iter()
            .map(|e| shaders::compute_pipeline(device, name, &bgl, &module, e))
            .collect();
        StagePipelines {
            name,
            bgl,
            pipelines,
        }
    }

    /// A bind group with `buffers` at bindings 0, 1, ….
    pub fn bind(&self, device: &wgpu::Device, buffers: &[&wgpu::Buffer]) -> wgpu::BindGroup {
        shaders::bind_group(device, self.name, &self.bgl, buffers)
    }

    /// Records entry point `k` over `items` invocations (split dispatch).
    pub fn run(
        &self,
        pass: &mut wgpu::ComputePass<'_>,
        k: usize,
        bind: &wgpu::BindGroup,
        items: u32,
        max_per_dim: u32,
    ) {
        pass.set_pipeline(&self.pipelines[k]);
        pass.set_bind_group(0, bind, &[]);
        dispatch::dispatch(pass, dispatch::groups_for(items), max_per_dim);
    }
}
