//! The compiled compute pipelines of one device, kept for the device's lifetime and shared by every
//! backend made on it ([`crate::gpu::GpuContext::with_pipeline_cache`]): a stage's bind group layout
//! is made once, and its pipelines once per [`Variant`] (a stage without the model's rule has
//! one). A sweep's points, the app's switch of model or backend, and Python's repeated
//! simulations on one context compile nothing after their first use of a variant; the counts
//! ([`CacheStats`]) say so, and the sweep's cost breakdown reports them.

use std::collections::HashMap;
use web_time::Instant;

use crate::gpu::shaders;
use crate::model::{Model, SimParams};
use crate::stages::{RuleParts, Search, Stage};

/// The pipelines of a stage's entry points, for one variant.
pub type EntryPipelines = Vec<(&'static str, wgpu::ComputePipeline)>;

/// What a stage holding the model's rule is compiled for: the model, the neighbour search (the
/// other searches are compiled out) and the optional parts of the rule the run uses
/// ([`RuleParts`]: the field of view, the neighbour cap, obstacles; each compiled out when unused);
/// and what every stage that finds its invocations' replicas is compiled for: an ensemble or a
/// lone run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Variant {
    /// The model.
    pub model: Model,
    /// The neighbour search.
    pub search: Search,
    /// The optional parts compiled in.
    pub parts: RuleParts,
    /// Whether the pipelines serve an ensemble of replicas (`false`: a lone run's, in which
    /// every invocation's replica is the constant 0; [`crate::stages::Wgsl::source_variant`]).
    pub ensemble: bool,
}

impl Variant {
    /// The variant of a lone run with `params`, with or without obstacle points.
    pub fn of(params: &SimParams, obstacles: bool) -> Variant {
        Variant {
            model: params.model,
            search: Search::of(params),
            parts: RuleParts::of(params, obstacles),
            ensemble: false,
        }
    }

    /// Its number among the variants: one per model, search and combination of parts.
    fn slot(self) -> usize {
        RuleParts::ALL.len()
            * (Search::ALL.len() * self.model.code() as usize + self.search as usize)
            + self.parts.code()
    }
}

/// What a cache has done since the device was made.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct CacheStats {
    /// Compute pipelines compiled (one per entry point of a stage and variant).
    pub compiled: u64,
    /// Stage lookups answered with pipelines compiled before (nothing compiled).
    pub reused: u64,
    /// Wall time spent compiling shader modules and pipelines (ms).
    pub compile_ms: f64,
}

/// The layouts and pipelines compiled so far on one device.
#[derive(Default)]
pub struct PipelineCache {
    /// Whether the stages holding the model's rule are compiled with the shared gather
    /// ([`RuleParts::shared`]): the device's [`crate::gpu::Gather`].
    shared_gather: bool,
    layouts: HashMap<&'static str, wgpu::BindGroupLayout>,
    /// By stage name, variant slot (None: a stage without the model's rule) and whether for an
    /// ensemble (always false for a stage whose source does not include `replicas.wgsl`: the
    /// scan; `clear` and `slots` include it but read replica 0's block alone, so their two kinds
    /// are the same code, compiled twice).
    pipelines: HashMap<(&'static str, Option<usize>, bool), EntryPipelines>,
    stats: CacheStats,
}

impl PipelineCache {
    /// The bind group layout of `stage` and its pipelines for `variant` (of which a stage without
    /// the model's rule reads only `ensemble`, and one that does not find replicas nothing),
    /// compiled on first use.
    pub fn get(
        &mut self,
        device: &wgpu::Device,
        stage: &'static Stage,
        variant: Variant,
    ) -> (wgpu::BindGroupLayout, EntryPipelines) {
        let variant = Variant {
            parts: RuleParts {
                shared: self.shared_gather,
                ..variant.parts
            },
            ensemble: variant.ensemble && stage.wgsl.uses_replicas(),
            ..variant
        };
        let bgl = self
            .layouts
            .entry(stage.name)
            .or_insert_with(|| shaders::layout(device, stage.name, stage.bindings))
            .clone();
        let key = (
            stage.name,
            stage.wgsl.per_model().then(|| variant.slot()),
            variant.ensemble,
        );
        if let Some(p) = self.pipelines.get(&key) {
            self.stats.reused += 1;
            return (bgl, p.clone());
        }
        let t = Instant::now();
        let p = compile(device, stage, &bgl, variant);
        self.stats.compile_ms += t.elapsed().as_secs_f64() * 1e3;
        self.stats.compiled += p.len() as u64;
        self.pipelines.insert(key, p.clone());
        (bgl, p)
    }

    /// Compiles the stages holding the model's rule with the shared gather from now on (`true`),
    /// or with the per-invocation one; pipelines compiled before are kept (and reused by a later
    /// switch back).
    pub fn set_shared_gather(&mut self, shared: bool) {
        self.shared_gather = shared;
    }

    /// Whether the stages holding the model's rule are compiled with the shared gather.
    pub fn shared_gather(&self) -> bool {
        self.shared_gather
    }

    /// What the cache has done so far.
    pub fn stats(&self) -> CacheStats {
        self.stats
    }
}

/// Compiles the entry points of `stage` for `variant`, labelled with the stage's name (and the
/// variant's, for a stage holding the model's rule).
fn compile(
    device: &wgpu::Device,
    stage: &'static Stage,
    bgl: &wgpu::BindGroupLayout,
    variant: Variant,
) -> EntryPipelines {
    let ensemble = if variant.ensemble { ", ensemble" } else { "" };
    let label = if stage.wgsl.per_model() {
        format!(
            "{} ({}, {}{}{ensemble})",
            stage.name,
            variant.model.name(),
            variant.search.name(),
            variant.parts.describe()
        )
    } else if variant.ensemble {
        format!("{} (ensemble)", stage.name)
    } else {
        stage.name.to_string()
    };
    let source = stage.wgsl.source_variant(
        variant.model,
        variant.search,
        variant.parts,
        variant.ensemble,
    );
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
