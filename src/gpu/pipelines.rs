//! The compute pipelines of every stage of [`crate::stages::STAGES`]: for each, one bind group
//! layout made from its binding slots and one pipeline per entry point, all labelled with the
//! stage's name. A stage that holds the model's rule (`rules`, `rules_heavy`) is compiled for the
//! model and the neighbourhood of the run alone ([`Variant`]), and every stage for a lone run or
//! an ensemble; switching takes the new variant's pipelines, with the same bind group layout, so
//! the bind groups stay valid. Layouts and
//! pipelines come from the device's [`crate::gpu::cache::PipelineCache`]: each is compiled once
//! per device, whatever the number of backends made on it.

use crate::gpu::cache::EntryPipelines;
pub use crate::gpu::cache::Variant;
use crate::gpu::context::GpuContext;
use crate::gpu::shaders;
use crate::model::Model;
use crate::stages::{Stage, STAGES};

/// The bind group layout and pipelines of one stage.
pub struct StagePipelines {
    /// The stage described.
    pub stage: &'static Stage,
    /// Layout of group 0 (the stage's binding slots).
    pub bgl: wgpu::BindGroupLayout,
    /// One pipeline per entry point, for the current variant.
    pipelines: EntryPipelines,
}

impl StagePipelines {
    /// The pipelines of `stage` (for `variant`, when it holds the model's rule), from the
    /// context's cache (compiled on first use).
    pub fn new(ctx: &GpuContext, stage: &'static Stage, variant: Variant) -> Self {
        let (bgl, pipelines) = ctx.with_pipeline_cache(|c| c.get(&ctx.device, stage, variant));
        StagePipelines {
            stage,
            bgl,
            pipelines,
        }
    }

    /// Makes the pipelines those of `to` (`from` is the current variant); nothing to do for a
    /// stage without the model's rule unless `to` switches between a lone run and an ensemble.
    fn set_variant(&mut self, ctx: &GpuContext, from: Variant, to: Variant) {
        let per_model = self.stage.wgsl.per_model();
        if from == to || (!per_model && from.ensemble == to.ensemble) {
            return;
        }
        self.pipelines = ctx
            .with_pipeline_cache(|c| c.get(&ctx.device, self.stage, to))
            .1;
    }

    /// The pipeline of entry point `entry`.
    ///
    /// # Panics
    /// When the stage has no such entry point (the table is checked by `tests/it/shaders.rs`).
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

/// The pipelines of every stage, in the order of [`STAGES`], for one variant at a time.
pub struct Pipelines {
    stages: Vec<StagePipelines>,
    variant: Variant,
}

impl Pipelines {
    /// Every stage for `variant`, from the context's cache.
    pub fn new(ctx: &GpuContext, variant: Variant) -> Self {
        Pipelines {
            stages: STAGES
                .iter()
                .map(|s| StagePipelines::new(ctx, s, variant))
                .collect(),
            variant,
        }
    }

    /// The model the pipelines are compiled for.
    pub fn model(&self) -> Model {
        self.variant.model
    }

    /// The variant the pipelines are compiled for.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// Makes the pipelines those of `variant` (the stages holding the model's rule; compiled on
    /// first use on this device, then kept).
    pub fn set_variant(&mut self, ctx: &GpuContext, variant: Variant) {
        for s in &mut self.stages {
            s.set_variant(ctx, self.variant, variant);
        }
        self.variant = variant;
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
