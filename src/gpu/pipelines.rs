//! The compute pipelines of every stage of [`crate::stages::STAGES`]: for each, one bind group
//! layout made from its binding slots and one pipeline per entry point, all labelled with the
//! stage's name. A stage that holds the model's rule (`rules`, `rules_heavy`) is compiled for the
//! model and the neighbourhood of the run alone ([`Variant`]); switching either compiles it for the
//! new one (once: each variant's pipelines are kept), with the same bind group layout, so the bind
//! groups stay valid.

use crate::gpu::shaders;
use crate::model::{Model, SimParams};
use crate::stages::{Search, Stage, STAGES};

/// The pipelines of a stage's entry points, for one variant.
type EntryPipelines = Vec<(&'static str, wgpu::ComputePipeline)>;

/// What a stage holding the model's rule is compiled for: the model and the neighbour search
/// (the other searches are compiled out).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Variant {
    /// The model.
    pub model: Model,
    /// The neighbour search.
    pub search: Search,
}

impl Variant {
    /// The variant of a run with `params`.
    pub fn of(params: &SimParams) -> Variant {
        Variant {
            model: params.model,
            search: Search::of(params),
        }
    }

    /// Its slot among the kept pipelines: one per model and search.
    fn slot(self) -> usize {
        Search::ALL.len() * self.model.code() as usize + self.search as usize
    }
}

/// The bind group layout and pipelines of one stage.
pub struct StagePipelines {
    /// The stage described.
    pub stage: &'static Stage,
    /// Layout of group 0 (the stage's binding slots).
    pub bgl: wgpu::BindGroupLayout,
    /// One pipeline per entry point, for the current variant.
    pipelines: EntryPipelines,
    /// A per-model stage's pipelines for each variant compiled so far (by [`Variant::slot`]).
    by_variant: Vec<Option<EntryPipelines>>,
}

impl StagePipelines {
    /// Compiles `stage` (for `variant`, when it holds the model's rule).
    pub fn new(device: &wgpu::Device, stage: &'static Stage, variant: Variant) -> Self {
        let bgl = shaders::layout(device, stage.name, stage.bindings);
        let pipelines = Self::compile(device, stage, &bgl, variant);
        StagePipelines {
            stage,
            bgl,
            pipelines,
            by_variant: Vec::new(),
        }
    }

    fn compile(
        device: &wgpu::Device,
        stage: &'static Stage,
        bgl: &wgpu::BindGroupLayout,
        variant: Variant,
    ) -> EntryPipelines {
        let label = if stage.wgsl.per_model() {
            format!(
                "{} ({}, {})",
                stage.name,
                variant.model.name(),
                variant.search.name()
            )
        } else {
            stage.name.to_string()
        };
        let source = stage.wgsl.source_for(variant.model, variant.search);
        let module = shaders::module(device, &label, &source);
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

    /// Makes the pipelines those of `to` (`from` is the current variant), compiling them on
    /// first use; nothing to do for a stage without the model's rule.
    fn set_variant(&mut self, device: &wgpu::Device, from: Variant, to: Variant) {
        if !self.stage.wgsl.per_model() || from == to {
            return;
        }
        let slots = Search::ALL.len() * crate::model::MODELS.len();
        self.by_variant.resize_with(slots, || None);
        let next = match self.by_variant[to.slot()].take() {
            Some(p) => p,
            None => Self::compile(device, self.stage, &self.bgl, to),
        };
        let old = std::mem::replace(&mut self.pipelines, next);
        self.by_variant[from.slot()] = Some(old);
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
    /// Compiles every stage for `variant`.
    pub fn new(device: &wgpu::Device, variant: Variant) -> Self {
        Pipelines {
            stages: STAGES
                .iter()
                .map(|s| StagePipelines::new(device, s, variant))
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
    /// first use, then kept).
    pub fn set_variant(&mut self, device: &wgpu::Device, variant: Variant) {
        for s in &mut self.stages {
            s.set_variant(device, self.variant, variant);
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
