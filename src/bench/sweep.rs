//! The benchmark sweep: every (boid count × backend) from the same seed, with warm-up, measured
//! into a [`CaptureRecorder`] and written as a capture folder.
//!
//! Order: counts ascending, and for each count the backends in the order given, so a sweep stopped
//! early still compares every backend at the smaller counts.
//!
//! Per run: the parameters come from the scene (or the defaults) with the world sized to the
//! count at the default density unless the scene fixes it; the initial flock is
//! `initial_state(seed, count)`; `warmup` steps are run unmeasured; then each of `steps` measured
//! frames is: step submitted and waited for (plus the offscreen render with `--render`) =
//! `wall_ms`; the per-stage times of that step; then, outside `wall_ms`, the flock-measures pass,
//! timed into `measures_ms` (GPU timestamp scope on the GPU, wall time on the CPU).
//!
//! Skipped runs (written in the summary with the reason):
//! - `cpu-naive` when its estimated work, `count² × (warmup + steps)` pair checks, is above
//!   [`BenchConfig::naive_max_pairs`] (default [`DEFAULT_NAIVE_MAX_PAIRS`] = 5·10¹⁰, a few minutes
//!   on a two-core machine at ~2·10⁸ pairs/s);
//! - `gpu` when the count is over the adapter's buffer limits ([`crate::gpu::buffers::check_boids`]
//!   or a grid limit found when the buffers are made), or when there is no adapter;
//! - every run not started when the stop flag (Ctrl-C) is set.
//!
//! Everything that can be checked without running (options, scene, `--render`, the output
//! folder — see [`crate::bench::outdir`]) is checked before the first run.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use serde_json::json;

use crate::backend::{self, BackendKind, GpuError, SimError, Simulation};
use crate::bench::capture::{CaptureMeta, CaptureRecorder, FrameRow, RunInfo};
use crate::bench::error::BenchError;
use crate::bench::outdir::prepare_out_dir;
use crate::bench::render::RenderBench;
use crate::bench::summary::{
    CaptureStatus, RunSummary, SkipKind, SkippedRun, StageTiming, Summary,
};
use crate::bench::trace::TraceFrame;
use crate::gpu::GpuContext;
use crate::model::{validate_boid_count, Scene, Setup, DEFAULT_DENSITY};

/// Default limit of the brute-force backend's estimated pair checks per run.
pub const DEFAULT_NAIVE_MAX_PAIRS: f64 = 5e10;

/// Options of a sweep (`boids bench`).
#[derive(Clone, Debug, PartialEq)]
pub struct BenchConfig {
    /// Backends, in order (duplicates are ignored).
    pub backends: Vec<BackendKind>,
    /// Boid counts (each 1 ..= [`crate::model::MAX_BOIDS`]; sorted ascending, duplicates ignored).
    pub boids: Vec<usize>,
    /// Measured steps per run (≥ 1).
    pub steps: u32,
    /// Unmeasured steps before them.
    pub warmup: u32,
    /// Offscreen render size (width, height) px per frame, if any.
    pub render: Option<(u32, u32)>,
    /// Multisampling of the render (clamped to what the adapter offers).
    pub msaa: u32,
    /// Scene file (TOML).
    pub scene: Option<PathBuf>,
    /// Seed (default: the scene's, else 1).
    pub seed: Option<u32>,
    /// Output folder.
    pub out: PathBuf,
    /// Whether missing parents of `out` may be created (the default folder only).
    pub create_out_parents: bool,
    /// Whether a non-empty `out` may be used (its capture files are then replaced).
    pub force: bool,
    /// Limit of `count² × (warmup + steps)` for `cpu-naive`.
    pub naive_max_pairs: f64,
}

impl BenchConfig {
    /// The defaults (`boids bench` without options) writing into `out`: gpu, cpu and cpu-naive at
    /// 1k, 10k, 100k and 1M boids, 100 steps after 10 warm-up steps, no render, seed 1.
    pub fn new(out: PathBuf) -> BenchConfig {
        BenchConfig {
            backends: vec![BackendKind::Gpu, BackendKind::Cpu, BackendKind::CpuNaive],
            boids: vec![1_000, 10_000, 100_000, 1_000_000],
            steps: 100,
            warmup: 10,
            render: None,
            msaa: 4,
            scene: None,
            seed: None,
            out,
            create_out_parents: false,
            force: false,
            naive_max_pairs: DEFAULT_NAIVE_MAX_PAIRS,
        }
    }
}

/// A run to be done.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlannedRun {
    /// Backend.
    pub backend: BackendKind,
    /// Boid count.
    pub boids: usize,
}

/// Progress of a sweep, for a progress bar or a test.
#[derive(Debug)]
pub enum SweepEvent<'a> {
    /// The runs that will be done (in order) and their total number of steps (warm-up included).
    Planned {
        /// Runs to do.
        runs: &'a [PlannedRun],
        /// Σ (warmup + steps).
        total_steps: u64,
    },
    /// A run that will not be done (or did not finish).
    Skipped(&'a SkippedRun),
    /// A run begins (its backend is being made).
    RunStarted(PlannedRun),
    /// One step of the current run is done (warm-up or measured).
    Step {
        /// Whether it was a warm-up step.
        warmup: bool,
        /// Its wall time (ms).
        wall_ms: f64,
    },
    /// A run ended; its statistics so far.
    RunFinished(&'a RunSummary),
}

/// What a sweep produced.
#[derive(Debug)]
pub struct SweepOutcome {
    /// The capture folder.
    pub dir: PathBuf,
    /// The files written.
    pub files: Vec<PathBuf>,
    /// The summary written.
    pub summary: Summary,
}

/// The GPU render target needs a context; `--render` on CPU runs draws on the same adapter.
fn need_gpu(cfg: &BenchConfig) -> bool {
    cfg.render.is_some() || cfg.backends.contains(&BackendKind::Gpu)
}

fn validate(cfg: &BenchConfig) -> Result<(Vec<BackendKind>, Vec<usize>), BenchError> {
    let mut backends = Vec::new();
    for b in &cfg.backends {
        if !backends.contains(b) {
            backends.push(*b);
        }
    }
    if backends.is_empty() {
        return Err(BenchError::Config(
            "--backends: at least one backend".into(),
        ));
    }
    let mut counts = cfg.boids.clone();
    counts.sort_unstable();
    counts.dedup();
    if counts.is_empty() {
        return Err(BenchError::Config("--boids: at least one count".into()));
    }
    for n in &counts {
        validate_boid_count(*n).map_err(|e| BenchError::Config(format!("--boids {n}: {e}")))?;
    }
    if cfg.steps == 0 {
        return Err(BenchError::Config("--steps must be at least 1".into()));
    }
    if let Some((w, h)) = cfg.render {
        if w == 0 || h == 0 || w > 16_384 || h > 16_384 {
            return Err(BenchError::Config(format!(
                "--render {w}x{h}: each side must be 1 ..= 16384 px"
            )));
        }
    }
    if cfg.naive_max_pairs.is_nan() || cfg.naive_max_pairs < 0.0 {
        return Err(BenchError::Config("--naive-max-pairs must be ≥ 0".into()));
    }
    Ok((backends, counts))
}

/// Runs the sweep of `cfg` and writes the capture into `cfg.out`. `gpu` is the context for GPU
/// runs and `--render` (made here when `None` and needed). `stop` is polled after every step:
/// when set, the current run keeps what it measured and the others are skipped. The capture is
/// rewritten after every run (status `in-progress`), so a crash leaves the runs done so far.
///
/// # Errors
/// [`BenchError::Config`] or [`BenchError::OutputDir`] before any run starts; [`BenchError::File`]
/// or [`BenchError::Plot`] when writing. Failures of a backend are not errors: the run is listed
/// as skipped with kind `failed`.
pub fn run_sweep(
    cfg: &BenchConfig,
    gpu: Option<&GpuContext>,
    stop: &AtomicBool,
    on_event: &mut dyn FnMut(SweepEvent<'_>),
) -> Result<SweepOutcome, BenchError> {
    let (backends, counts) = validate(cfg)?;
    let scene = match &cfg.scene {
        Some(p) => Some(Scene::load(p).map_err(|e| BenchError::Config(e.to_string()))?),
        None => None,
    };
    let owned;
    let (ctx, adapter_error) = match gpu {
        Some(c) => (Some(c), None),
        None if need_gpu(cfg) => match GpuContext::new() {
            Ok(c) => {
                owned = c;
                (Some(&owned), None)
            }
            Err(e) => (None, Some(e.to_string())),
        },
        None => (None, None),
    };
    if cfg.render.is_some() && ctx.is_none() {
        return Err(BenchError::Config(format!(
            "--render needs a GPU adapter: {}",
            adapter_error.unwrap_or_default()
        )));
    }
    let seed = cfg
        .seed
        .or(scene.as_ref().and_then(|s| s.seed))
        .unwrap_or(1);
    // Each count's world (sized to it unless the scene fixes it) must hold the scene's points.
    if let Some(s) = &scene {
        for &n in &counts {
            let (params, ..) = Setup::resolve_params(Some(s), Some(n), Some(seed), n, 1.0);
            s.check_inside(&params)
                .map_err(|e| BenchError::Config(e.to_string()))?;
        }
    }
    prepare_out_dir(&cfg.out, cfg.create_out_parents, cfg.force)?;

    let render_samples = match (cfg.render, ctx) {
        (Some(_), Some(c)) => Some(crate::render::supported_samples(
            &c.adapter,
            crate::render::Offscreen::FORMAT,
            cfg.msaa,
        )),
        _ => None,
    };
    let parameters = json!({
        "backends": backends.iter().map(|b| b.name()).collect::<Vec<_>>(),
        "boids": counts,
        "steps": cfg.steps,
        "warmup": cfg.warmup,
        "seed": seed,
        "scene": cfg.scene.as_ref().map(|p| p.display().to_string()),
        "render": cfg.render.map(|(w, h)| format!("{w}x{h}")),
        "render_msaa": render_samples,
        "naive_max_pairs": cfg.naive_max_pairs,
        "naive_rule": "cpu-naive is skipped when boids^2 * (warmup + steps) > naive_max_pairs",
        "world": if scene.as_ref().is_some_and(|s| s.world_is_fixed()) {
            "fixed by the scene".to_string()
        } else {
            format!("sized to each count at {DEFAULT_DENSITY} boids/wu^2")
        },
        "wall_ms": "step submitted and waited for (plus the offscreen render with --render); \
                    measures run after, outside wall_ms",
        "rayon_threads": rayon::current_num_threads(),
    });
    let mut meta = CaptureMeta::collect("sweep", "offscreen", ctx, parameters);
    meta.adapter_error = adapter_error.clone();
    let mut rec = CaptureRecorder::new(meta);

    let mut plan = Vec::new();
    for &n in &counts {
        for &b in &backends {
            let skip = |kind, reason: String| SkippedRun {
                backend: b.name().into(),
                boids: n,
                kind,
                reason,
            };
            let pairs = (n as f64) * (n as f64) * f64::from(cfg.warmup + cfg.steps);
            let skipped = match (b, ctx) {
                (BackendKind::CpuNaive, _) if pairs > cfg.naive_max_pairs => Some(skip(
                    SkipKind::TooSlow,
                    format!(
                        "brute force would need about {n}^2 x {} steps = {pairs:.2e} pair checks, \
                         above the limit {:.2e} (--naive-max-pairs)",
                        cfg.warmup + cfg.steps,
                        cfg.naive_max_pairs
                    ),
                )),
                (BackendKind::Gpu, None) => Some(skip(
                    SkipKind::NoAdapter,
                    adapter_error
                        .clone()
                        .unwrap_or_else(|| "no GPU adapter".into()),
                )),
                (BackendKind::Gpu, Some(c)) => crate::gpu::buffers::check_boids(c, n as u64)
                    .err()
                    .map(|e| skip(SkipKind::OverLimit, e.to_string())),
                _ => None,
            };
            match skipped {
                Some(s) => {
                    on_event(SweepEvent::Skipped(&s));
                    rec.skip(s);
                }
                None => plan.push(PlannedRun {
                    backend: b,
                    boids: n,
                }),
            }
        }
    }
    let total_steps = plan.len() as u64 * u64::from(cfg.warmup + cfg.steps);
    on_event(SweepEvent::Planned {
        runs: &plan,
        total_steps,
    });

    for run in &plan {
        if stop.load(Ordering::SeqCst) {
            let s = SkippedRun {
                backend: run.backend.name().into(),
                boids: run.boids,
                kind: SkipKind::Interrupted,
                reason: "not started: the sweep was interrupted (Ctrl-C)".into(),
            };
            on_event(SweepEvent::Skipped(&s));
            rec.skip(s);
            continue;
        }
        on_event(SweepEvent::RunStarted(*run));
        let outcome = run_one(
            cfg,
            *run,
            scene.as_ref(),
            seed,
            ctx,
            &mut rec,
            stop,
            on_event,
        );
        let mut fail = |kind, reason: String| {
            let s = SkippedRun {
                backend: run.backend.name().into(),
                boids: run.boids,
                kind,
                reason,
            };
            on_event(SweepEvent::Skipped(&s));
            rec.skip(s);
        };
        match outcome {
            Ok(true) => {}
            Ok(false) => fail(
                SkipKind::Interrupted,
                "interrupted (Ctrl-C) during warm-up: nothing measured".into(),
            ),
            Err(SimError::Gpu(e @ GpuError::Limit { .. })) => {
                fail(SkipKind::OverLimit, e.to_string())
            }
            Err(e) => fail(SkipKind::Failed, e.to_string()),
        }
        let summary = rec.summary();
        if let Some(r) = summary.run(run.backend.name(), run.boids) {
            on_event(SweepEvent::RunFinished(r));
        }
        rec.set_status(CaptureStatus::InProgress);
        rec.write(&cfg.out)?;
    }
    let interrupted = stop.load(Ordering::SeqCst);
    rec.set_status(if interrupted {
        CaptureStatus::Interrupted
    } else {
        CaptureStatus::Complete
    });
    let written = rec.write(&cfg.out)?;
    Ok(SweepOutcome {
        dir: cfg.out.clone(),
        files: written,
        summary: rec.summary(),
    })
}

/// Runs one (backend, count): warm-up, then measured frames into `rec`. Ok(false) when stopped
/// before any frame was measured.
#[allow(clippy::too_many_arguments)]
fn run_one(
    cfg: &BenchConfig,
    run: PlannedRun,
    scene: Option<&Scene>,
    seed: u32,
    ctx: Option<&GpuContext>,
    rec: &mut CaptureRecorder,
    stop: &AtomicBool,
    on_event: &mut dyn FnMut(SweepEvent<'_>),
) -> Result<bool, SimError> {
    let setup = Setup::resolve(scene, Some(run.boids), Some(seed), run.boids, 1.0)?;
    let n = setup.boids.len();
    let params = setup.params.clone();
    let name = run.backend.name();
    if run.backend == BackendKind::Gpu && ctx.is_none() {
        return Err(SimError::Gpu(GpuError::NoAdapter {
            detail: String::new(),
        }));
    }
    let mut sim = backend::create(run.backend, &setup, ctx)?;
    let mut render = match (cfg.render, ctx) {
        (Some((w, h)), Some(c)) => {
            Some(RenderBench::new(c, &params, w, h, cfg.msaa, &setup.actors))
        }
        _ => None,
    };
    drop(setup);
    let stage_timing = if sim.has_timestamps() {
        StageTiming::GpuTimestamps
    } else if sim.kind() == BackendKind::Gpu {
        StageTiming::None
    } else {
        StageTiming::CpuWall
    };
    let mut info = RunInfo {
        stage_timing,
        params: Some(params.clone()),
        final_measures: None,
        complete: false,
    };
    // Recorded now so a run that fails part-way is summarised as incomplete.
    rec.set_run_info(name, n, info.clone());
    let mut frame = |sim: &mut dyn Simulation| -> Result<(f64, Option<f64>), SimError> {
        let t = Instant::now();
        sim.step()?;
        sim.finish()?;
        let render_ms = match &mut render {
            Some(r) => Some(r.frame(sim, n as u32)?),
            None => None,
        };
        Ok((t.elapsed().as_secs_f64() * 1e3, render_ms))
    };
    for _ in 0..cfg.warmup {
        let (ms, _) = frame(sim.as_mut())?;
        on_event(SweepEvent::Step {
            warmup: true,
            wall_ms: ms,
        });
        if stop.load(Ordering::SeqCst) {
            return Ok(false);
        }
    }
    let mut measured = 0;
    while measured < cfg.steps {
        let (wall, render_ms) = frame(sim.as_mut())?;
        let step = u64::from(sim.step_index());
        // The flock measures run after the step, outside `wall_ms`; their time joins the stage
        // times (GPU timestamp scope, or CPU wall time).
        sim.measures()?;
        sim.finish()?;
        let mut row = FrameRow::new(name, n, step, wall);
        for (stage, ms) in sim.stage_times() {
            row.set_stage(&stage, ms);
        }
        if let Some(ms) = render_ms {
            row.set_stage("render", ms);
        }
        let scopes = sim.take_timer_results();
        if !scopes.is_empty() {
            rec.push_trace(TraceFrame {
                backend: name.into(),
                boids: n,
                step,
                scopes,
            });
        }
        rec.push(row);
        measured += 1;
        on_event(SweepEvent::Step {
            warmup: false,
            wall_ms: wall,
        });
        if stop.load(Ordering::SeqCst) {
            break;
        }
    }
    info.complete = measured == cfg.steps;
    info.final_measures = Some(sim.measures()?);
    rec.set_run_info(name, n, info);
    Ok(true)
}
