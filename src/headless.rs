//! `boids headless`: runs a backend for a number of steps without a window, prints the step time
//! (median, p95) and the flock measures, and optionally saves the state and per-step measures.

use std::path::PathBuf;
use std::time::Instant;

use crate::backend::{self, BackendKind};
use crate::bench::stats::TimeStats;
use crate::gpu::GpuContext;
use crate::model::{FlockMeasures, Scene, Setup};

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
    let setup = Setup::resolve(
        scene.as_ref(),
        opts.boids.or(init.as_ref().map(|b| b.len())),
        opts.seed,
        20_000,
        1.0,
    )
    .map_err(|e| e.to_string())?;
    let setup = match init {
        Some(b) => setup
            .with_boids(b)
            .map_err(|e| format!("initial state: {e}"))?,
        None => setup,
    };
    let ctx = if opts.backend == BackendKind::Gpu {
        Some(GpuContext::new().map_err(|e| e.to_string())?)
    } else {
        None
    };
    let device = match &ctx {
        Some(c) => c.describe(),
        None => format!("CPU, {} rayon threads", rayon::current_num_threads()),
    };
    let mut sim = backend::create(opts.backend, &setup, ctx.as_ref()).map_err(|e| e.to_string())?;
    drop(setup);

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
