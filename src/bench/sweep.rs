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
//! folder — see [`crate::capture::outdir`]) is checked before the first run.

use std::path::PathBuf;

use serde_json::json;

use crate::backend::{self, BackendKind, Costs, GpuError, SimError, Simulation};
use crate::bench::render::RenderBench;
use crate::capture::error::BenchError;
use crate::capture::outdir::prepare_out_dir;
use crate::capture::recorder::{CaptureMeta, CaptureRecorder, FrameRow, RunInfo};
use crate::capture::summary::{
    CaptureStatus, RunSummary, SkipKind, SkippedRun, StageTiming, Summary,
};
use crate::capture::trace::TraceFrame;
use crate::gpu::GpuContext;
use crate::model::{validate_boid_count, DEFAULT_DENSITY};
use crate::run::args::Set;
use crate::run::spec::{resolve, Defaults, Inputs, Overrides};
use crate::run::steps::{run_steps, Ended, Nothing, Observer, Schedule, Stop};
use crate::run::RunError;

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
    /// `--set KEY=VALUE`, applied to every run.
    pub sets: Vec<Set>,
    /// `--keep-world`: a scene's fixed world is not scaled to the count.
    pub keep_world: bool,
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
            sets: Vec::new(),
            keep_world: false,
            out,
            create_out_parents: false,
            force: false,
            naive_max_pairs: DEFAULT_NAIVE_MAX_PAIRS,
        }
    }
}

impl BenchConfig {
    /// The command line's overrides of a run of `boids` boids.
    pub fn overrides(&self, boids: usize) -> Overrides<'_> {
        Overrides {
            boids: Some(boids),
            seed: self.seed,
            sets: &self.sets,
            keep_world: self.keep_world,
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
    stop: &Stop,
    on_event: &mut dyn FnMut(SweepEvent<'_>),
) -> Result<SweepOutcome, BenchError> {
    let (backends, counts) = validate(cfg)?;
    let inputs = Inputs::load(cfg.scene.as_deref(), None)?;
    let scene = inputs.scene.as_ref();
    let owned;
    // The context's time, charged to the first GPU run's costs.
    let mut adapter_ms = 0.0;
    let t = std::time::Instant::now();
    let (ctx, adapter_error) = match gpu {
        Some(c) => (Some(c), None),
        None if need_gpu(cfg) => match GpuContext::new() {
            Ok(c) => {
                adapter_ms = t.elapsed().as_secs_f64() * 1e3;
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
    // Each count's setup (the world sized to it unless the scene fixes it, every --set) is
    // resolved before any run: a bad setting or a scene point outside a world stops the bench now.
    let mut seed = 1;
    for &n in &counts {
        seed = resolve(&inputs, &cfg.overrides(n), &Defaults::headless(n))?
            .setup
            .seed;
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
        "set": cfg.sets.iter().map(|s| format!("{}={}", s.key, s.value)).collect::<Vec<_>>(),
        "render": cfg.render.map(|(w, h)| format!("{w}x{h}")),
        "render_msaa": render_samples,
        "naive_max_pairs": cfg.naive_max_pairs,
        "naive_rule": "cpu-naive is skipped when boids^2 * (warmup + steps) > naive_max_pairs",
        "world": if scene.is_some_and(|s| s.world_is_fixed()) {
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
        if stop.is_set() {
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
            &inputs,
            &mut Gpu {
                ctx,
                adapter_ms: &mut adapter_ms,
            },
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
            Err(RunError::Sim(SimError::Gpu(e @ GpuError::Limit { .. }))) => {
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
    let interrupted = stop.is_set();
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

/// The GPU context of a bench, and the time it took (charged to the first GPU run's costs).
struct Gpu<'a> {
    ctx: Option<&'a GpuContext>,
    adapter_ms: &'a mut f64,
}

/// Runs one (backend, count) through the run layer's step loop: warm-up, then measured frames
/// into `rec`. Ok(false) when stopped before any frame was measured.
fn run_one(
    cfg: &BenchConfig,
    run: PlannedRun,
    inputs: &Inputs,
    gpu: &mut Gpu<'_>,
    rec: &mut CaptureRecorder,
    stop: &Stop,
    on_event: &mut dyn FnMut(SweepEvent<'_>),
) -> Result<bool, RunError> {
    let spec = resolve(
        inputs,
        &cfg.overrides(run.boids),
        &Defaults::headless(run.boids),
    )?;
    let setup = &spec.setup;
    let n = setup.boids.len();
    let name = run.backend.name();
    let ctx = gpu.ctx;
    if run.backend == BackendKind::Gpu && ctx.is_none() {
        return Err(GpuError::NoAdapter {
            detail: String::new(),
        }
        .into());
    }
    let mut sim = backend::create(run.backend, setup, ctx)?;
    let render = match (cfg.render, ctx) {
        (Some((w, h)), Some(c)) => Some(RenderBench::new(
            c,
            &setup.params,
            w,
            h,
            cfg.msaa,
            &setup.actors,
        )),
        _ => None,
    };
    let stage_timing = if sim.has_timestamps() {
        StageTiming::GpuTimestamps
    } else if sim.kind() == BackendKind::Gpu {
        StageTiming::None
    } else {
        StageTiming::CpuWall
    };
    let info = RunInfo {
        stage_timing,
        params: Some(setup.params.clone()),
        final_measures: None,
        complete: false,
        costs: None,
    };
    // Recorded now so a run that fails part-way is summarised as incomplete.
    rec.set_run_info(name, n, info.clone());
    let warm = Schedule {
        warmup: cfg.warmup,
        steps: 0,
        measure_every: 0,
        timed: false,
    };
    let tick = &mut || {
        on_event(SweepEvent::Step {
            warmup: true,
            wall_ms: f64::NAN,
        })
    };
    if run_steps(sim.as_mut(), &warm, stop, tick, &mut Nothing)? != Ended::Done {
        return Ok(false);
    }
    let mut frames = Frames {
        name,
        n,
        render,
        rec,
        on_event,
        render_ms: None,
        measured: 0,
    };
    let measured = Schedule {
        warmup: 0,
        steps: cfg.steps,
        measure_every: 0,
        timed: true,
    };
    run_steps(sim.as_mut(), &measured, stop, &mut || {}, &mut frames)?;
    let done = frames.measured;
    rec.set_run_info(
        name,
        n,
        RunInfo {
            final_measures: Some(sim.measures()?),
            complete: done == cfg.steps,
            costs: sim.take_costs().map(|c| Costs {
                adapter_ms: std::mem::take(gpu.adapter_ms),
                ..c
            }),
            ..info
        },
    );
    Ok(true)
}

/// The measured frames of one run: each frame's wall time (the step, plus the offscreen render
/// with `--render`), its stage times, the flock measures after it (outside the wall time; their
/// time joins the stage times) and its GPU timer scopes.
struct Frames<'a, 'e> {
    name: &'static str,
    n: usize,
    render: Option<RenderBench>,
    rec: &'a mut CaptureRecorder,
    on_event: &'a mut dyn FnMut(SweepEvent<'e>),
    /// The render time of the current frame.
    render_ms: Option<f64>,
    measured: u32,
}

impl Observer for Frames<'_, '_> {
    fn within_step(&mut self, _k: u32, sim: &mut dyn Simulation) -> Result<(), RunError> {
        self.render_ms = match &mut self.render {
            Some(r) => Some(r.frame(sim, self.n as u32)?),
            None => None,
        };
        Ok(())
    }

    fn stepped(
        &mut self,
        _k: u32,
        wall_ms: Option<f64>,
        sim: &mut dyn Simulation,
    ) -> Result<(), RunError> {
        let wall = wall_ms.unwrap_or(f64::NAN);
        let step = u64::from(sim.step_index());
        sim.measures()?;
        sim.finish()?;
        let mut row = FrameRow::new(self.name, self.n, step, wall);
        for (stage, ms) in sim.stage_times() {
            row.set_stage(&stage, ms);
        }
        if let Some(ms) = self.render_ms.take() {
            row.set_stage("render", ms);
        }
        let scopes = sim.take_timer_results();
        if !scopes.is_empty() {
            self.rec.push_trace(TraceFrame {
                backend: self.name.into(),
                boids: self.n,
                step,
                scopes,
            });
        }
        self.rec.push(row);
        self.measured += 1;
        (self.on_event)(SweepEvent::Step {
            warmup: false,
            wall_ms: wall,
        });
        Ok(())
    }
}
