//! `boids headless`: runs a backend for a number of steps without a window, prints the step time
//! (median, p95) and the flock measures, and optionally saves the state and per-step measures.

use std::path::PathBuf;
use std::time::Instant;

use crate::backend::{BackendKind, SimError, Simulation};
use crate::bench::stats::TimeStats;
use crate::cpu::CpuBackend;
use crate::gpu::{GpuBackend, GpuContext};
use crate::model::{Boid, FlockMeasures, Scene, SimParams, DEFAULT_DENSITY};

/// Creates a backend of `kind` holding `boids` (GPU: on a fresh default context).
///
/// # Errors
/// [`SimError`] for invalid parameters, no adapter, or a count over the adapter's limits.
pub fn make_backend(
    kind: BackendKind,
    params: &SimParams,
    boids: &[Boid],
    seed: u32,
    gpu: Option<&GpuContext>,
) -> Result<Box<dyn Simulation>, SimError> {
    Ok(match kind {
        BackendKind::Gpu => {
            let owned;
            let ctx = match gpu {
                Some(c) => c,
                None => {
                    owned = GpuContext::new()?;
                    &owned
                }
            };
            Box::new(GpuBackend::from_state(ctx, params, boids, seed)?)
        }
        k => Box::new(CpuBackend::from_state(k, params, boids.to_vec(), seed)?),
    })
}

/// Resolves the parameters, boid count and seed of a run from an optional scene and command-line
/// overrides (falling back to `default_boids` and seed 1): unless the scene fixes its size, the
/// world gets aspect ratio `aspect` (width / height) and the boid count's area at the default
/// density. Returns (parameters, boid count, seed, obstacle points).
pub fn resolve_setup(
    scene: Option<&Scene>,
    boids: Option<usize>,
    seed: Option<u32>,
    default_boids: usize,
    aspect: f32,
) -> (SimParams, usize, u32, Vec<[f32; 2]>) {
    let n = boids
        .or(scene.and_then(|s| s.boids))
        .unwrap_or(default_boids);
    let seed = seed.or(scene.and_then(|s| s.seed)).unwrap_or(1);
    let (mut params, fixed, obstacles) = match scene {
        Some(s) => (s.params.clone(), s.world_is_fixed(), s.obstacles.clone()),
        None => (SimParams::default(), false, Vec::new()),
    };
    if !fixed {
        params = params.with_world_for_aspect(n, DEFAULT_DENSITY, aspect);
    }
    (params, n, seed, obstacles)
}

/// Options of `boids headless`.
#[derive(Clone, Debug)]
pub struct HeadlessOptions {
    /// Backend.
    pub backend: BackendKind,
    /// Boid count (None: scene's or 20 000).
    pub boids: Option<usize>,
    /// Steps to run.
    pub steps: u32,
    /// Seed (None: scene's or 1).
    pub seed: Option<u32>,
    /// Scene file.
    pub scene: Option<PathBuf>,
    /// Initial state CSV.
    pub init: Option<PathBuf>,
    /// Final state CSV.
    pub save: Option<PathBuf>,
    /// Per-step measures CSV.
    pub stats: Option<PathBuf>,
}

/// What a headless run measured.
#[derive(Clone, Debug)]
pub struct HeadlessReport {
    /// Adapter description (GPU) or CPU description.
    pub device: String,
    /// Boids.
    pub boids: usize,
    /// Step time statistics (ms, step submitted and finished).
    pub step_ms: TimeStats,
    /// Measures of the final state.
    pub measures: FlockMeasures,
    /// Median time of each stage (ms), in step order, when the backend measures them.
    pub stage_median_ms: Vec<(String, f64)>,
}

/// Runs `boids headless`.
///
/// # Errors
/// A message naming the file, field or limit at fault.
pub fn run(opts: &HeadlessOptions) -> Result<HeadlessReport, String> {
    let scene = match &opts.scene {
        Some(p) => Some(Scene::load(p).map_err(|e| e.to_string())?),
        None => None,
    };
    let init = match &opts.init {
        Some(p) => Some(crate::model::state_csv::load_state(p).map_err(|e| e.to_string())?),
        None => None,
    };
    if let (Some(n), Some(b), Some(p)) = (opts.boids, &init, &opts.init) {
        if n != b.len() {
            return Err(format!(
                "--boids {n} disagrees with the {} boids of {}: leave out --boids to use the file's",
                b.len(),
                p.display()
            ));
        }
    }
    let (params, n, seed, obstacles) = resolve_setup(
        scene.as_ref(),
        opts.boids.or(init.as_ref().map(|b| b.len())),
        opts.seed,
        20_000,
        1.0,
    );
    params.validate().map_err(|e| e.to_string())?;
    crate::model::validate_boid_count(n).map_err(|e| e.to_string())?;
    if let Some(b) = &init {
        for x in b {
            let inside = x.position[0] >= 0.0
                && x.position[0] < params.world_width
                && x.position[1] >= 0.0
                && x.position[1] < params.world_height;
            if !inside {
                return Err(format!(
                    "initial state: boid {} at ({}, {}) is outside the world [0, {}) × [0, {})",
                    x.id, x.position[0], x.position[1], params.world_width, params.world_height
                ));
            }
        }
    }
    let boids = init.unwrap_or_else(|| crate::model::initial_state(seed, n, &params));
    let ctx = if opts.backend == BackendKind::Gpu {
        Some(GpuContext::new().map_err(|e| e.to_string())?)
    } else {
        None
    };
    let device = match &ctx {
        Some(c) => c.describe(),
        None => format!("CPU, {} rayon threads", rayon::current_num_threads()),
    };
    let mut sim = make_backend(opts.backend, &params, &boids, seed, ctx.as_ref())
        .map_err(|e| e.to_string())?;
    sim.set_obstacles(&obstacles).map_err(|e| e.to_string())?;

    let mut times = Vec::with_capacity(opts.steps as usize);
    let mut stage_samples: Vec<(String, Vec<f64>)> = Vec::new();
    let mut rows: Vec<(u32, f64, FlockMeasures)> = Vec::new();
    for _ in 0..opts.steps {
        let t = Instant::now();
        sim.step().map_err(|e| e.to_string())?;
        sim.finish().map_err(|e| e.to_string())?;
        let ms = t.elapsed().as_secs_f64() * 1e3;
        times.push(ms);
        for (name, t) in sim.stage_times() {
            match stage_samples.iter_mut().find(|(n, _)| *n == name) {
                Some((_, v)) => v.push(t),
                None => stage_samples.push((name, vec![t])),
            }
        }
        if opts.stats.is_some() {
            let m = sim.measures().map_err(|e| e.to_string())?;
            rows.push((sim.step_index(), ms, m));
        }
    }
    let measures = sim.measures().map_err(|e| e.to_string())?;
    if let Some(path) = &opts.stats {
        let mut w = csv::Writer::from_writer(Vec::new());
        let io = |e: csv::Error| format!("{}: {e}", path.display());
        w.write_record([
            "step",
            "step_ms",
            "polarization",
            "milling",
            "mean_speed",
            "mean_neighbors",
        ])
        .map_err(io)?;
        for (s, ms, m) in &rows {
            w.write_record(&[
                s.to_string(),
                format!("{ms:.4}"),
                m.polarization.to_string(),
                m.milling.to_string(),
                m.mean_speed.to_string(),
                m.mean_neighbors.to_string(),
            ])
            .map_err(io)?;
        }
        let bytes = w.into_inner().map_err(|e| e.to_string())?;
        crate::io::write_atomic(path, &bytes).map_err(|e| e.to_string())?;
    }
    if let Some(path) = &opts.save {
        let mut state = sim.read_state().map_err(|e| e.to_string())?;
        state.sort_by_key(|b| b.id);
        crate::model::state_csv::save_state(path, &state).map_err(|e| e.to_string())?;
    }
    Ok(HeadlessReport {
        device,
        boids: sim.len(),
        step_ms: TimeStats::from_ms(&times),
        measures,
        stage_median_ms: stage_samples
            .into_iter()
            .map(|(n, v)| (n, TimeStats::from_ms(&v).median_ms))
            .collect(),
    })
}
