//! The compute pipelines of every stage of [`crate::stages::STAGES`]: for each, one bind group
//! layout made from its binding slots and one pipeline per entry point, all labelled with the
//! stage's name.

use crate::gpu::shaders;
use crate::stages::{Stage, STAGES};

/// The bind group layout and pipelines of one stage.
pub struct StagePipelines {
    /// The stage described.
    pub stage: &'static Stage,
    /// Layout of group 0 (the stage's binding slots).
    pub bgl: wgpu::BindGroupLayout,
    /// One pipeline per entry point.
    pipelines: Vec<(&'static str, wgpu::ComputePipeline)>,
}

impl StagePipelines {
    /// Compiles `stage`.
    pub fn new(device: &wgpu::Device, stage: &'static Stage) -> Self {
        let module = shaders::module(device, stage.name, stage.wgsl.source);
        let bgl = shaders::layout(device, stage.name, stage.bindings);
        let pipelines = stage
            .entry_points()
            .into_iter()
            .map(|e| {
                (
                    e,
                    shaders::compute_pipeline(device, stage.name, &bgl, &module, e),
                )
            })
            .collect();
        StagePipelines {
            stage,
            bgl,
            pipelines,
        }
    }

    /// The pipeline of entry point `entry`.
    ///
    /// # Panics
    /// When the stage has no such entry point (the table is checked by `tests/shaders.rs`).
    pub fn pipeline(&self, entry: &str) -> &wgpu::ComputePipeline {
        &self
            .pipelines
            .iter()
            .find(|(e, _)| *e == entry)
            .unwrap_or_else(|| panic!("stage {} has no entry point {entry}", self.stage.name))
            .1
    }

    /// A bind group with `buffers` at bindings 0, 1, … (in the order of the stage's slots).
    pub fn bind(&self, device: &wgpu::Device, buffers: &[&wgpu::Buffer]) -> wgpu::BindGroup {
        shaders::bind_group(device, self.stage.name, &self.bgl, buffers)
    }
}

/// The pipelines of every stage, in the order of [`STAGES`].
pub struct Pipelines {
    stages: Vec<StagePipelines>,
}

impl Pipelines {
    /// Compiles every stage.
    pub fn new(device: &wgpu::Device) -> Self {
        Pipelines {
            stages: STAGES
                .iter()
                .map(|s| StagePipelines::new(device, s))
                .collect(),
        }
    }

    /// The stage at position `k` of [`STAGES`].
    pub fn at(&self, k: usize) -> &StagePipelines {
        &self.stages[k]
    }

    /// The stage named `name`.
    ///
    /// # Panics
    /// When no stage has that name.
    pub fn get(&self, name: &str) -> &StagePipelines {
        self.stages
            .iter()
            .find(|s| s.stage.name == name)
            .unwrap_or_else(|| panic!("no stage named {name:?}"))
    }

    /// Every stage with its pipelines.
    pub fn iter(&self) -> impl Iterator<Item = &StagePipelines> {
        self.stages.iter()
    }
}
