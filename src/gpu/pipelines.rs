//! The compute pipelines of every stage of [`crate::stages::STAGES`]: for each, one bind group
//! layout made from its binding slots and one pipeline per entry point, all labelled with the
//! stage's name. A stage that holds the model's rule (`rules`, `rules_heavy`) is compiled for the
//! model of the run alone; switching models compiles it for the new one (once: each model's
//! pipelines are kept), with the same bind group layout, so the bind groups stay valid.

use crate::gpu::shaders;
use crate::model::Model;
use crate::stages::{Stage, STAGES};

/// The pipelines of a stage's entry points, for one model.
type EntryPipelines = Vec<(&'static str, wgpu::ComputePipeline)>;

/// The bind group layout and pipelines of one stage.
pub struct StagePipelines {
    /// The stage described.
    pub stage: &'static Stage,
    /// Layout of group 0 (the stage's binding slots).
    pub bgl: wgpu::BindGroupLayout,
    /// One pipeline per entry point, for the current model.
    pipelines: EntryPipelines,
    /// A per-model stage's pipelines for each model compiled so far (by model code).
    by_model: Vec<Option<EntryPipelines>>,
}

impl StagePipelines {
    /// Compiles `stage` (for `model`, when it holds the model's rule).
    pub fn new(device: &wgpu::Device, stage: &'static Stage, model: Model) -> Self {
        let bgl = shaders::layout(device, stage.name, stage.bindings);
        let pipelines = Self::compile(device, stage, &bgl, model);
        StagePipelines {
            stage,
            bgl,
            pipelines,
            by_model: Vec::new(),
        }
    }

    fn compile(
        device: &wgpu::Device,
        stage: &'static Stage,
        bgl: &wgpu::BindGroupLayout,
        model: Model,
    ) -> EntryPipelines {
        let label = if stage.wgsl.per_model() {
            format!("{} ({})", stage.name, model.name())
        } else {
            stage.name.to_string()
        };
        let module = shaders::module(device, &label, &stage.wgsl.source(model));
        stage
            .entry_points()
            .into_iter()
            .map(|e| {
                (
                    e,
                    shaders::compute_pipeline(device, &label, bgl, &module, e),
                )
            })
            .collect()
    }

    /// Makes the pipelines those of `model` (`from` is the current one), compiling them on first
    /// use; nothing to do for a stage without the model's rule.
    fn set_model(&mut self, device: &wgpu::Device, from: Model, model: Model) {
        if !self.stage.wgsl.per_model() || from == model {
            return;
        }
        let slots = crate::model::MODELS.len();
        self.by_model.resize_with(slots, || None);
        let next = match self.by_model[model.code() as usize].take() {
            Some(p) => p,
            None => Self::compile(device, self.stage, &self.bgl, model),
        };
        let old = std::mem::replace(&mut self.pipelines, next);
        self.by_model[from.code() as usize] = Some(old);
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

/// The pipelines of every stage, in the order of [`STAGES`], for one model at a time.
pub struct Pipelines {
    stages: Vec<StagePipelines>,
    model: Model,
}

impl Pipelines {
    /// Compiles every stage for `model`.
    pub fn new(device: &wgpu::Device, model: Model) -> Self {
        Pipelines {
            stages: STAGES
                .iter()
                .map(|s| StagePipelines::new(device, s, model))
                .collect(),
            model,
        }
    }

    /// The model the pipelines are compiled for.
    pub fn model(&self) -> Model {
        self.model
    }

    /// Makes the pipelines those of `model` (the stages holding the model's rule; compiled on
    /// first use, then kept).
    pub fn set_model(&mut self, device: &wgpu::Device, model: Model) {
        for s in &mut self.stages {
            s.set_model(device, self.model, model);
        }
        self.model = model;
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
