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

use crate::backend::{BackendKind, Costs, GpuError, SimError, Simulation};
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
use crate::run::driver::{drive, Device, Event, Outcome, Sweep, INTERRUPTED};
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
    /// How the render draws the boids.
    pub rasteriser: crate::render::Rasteriser,
    /// Whether the render draws density dots with motion streaks (as the app does by default).
    pub streaks: bool,
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
            rasteriser: crate::render::Rasteriser::Auto,
            streaks: true,
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

/// Progress of a bench (the driver's events: a planned run, its summary).
pub type SweepEvent<'a> = Event<'a, PlannedRun, RunSummary>;

/// What a bench produced: the capture folder, its files and its summary.
pub type SweepOutcome = Outcome<Summary>;

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
    // Timer queries on: a bench records each stage's GPU time.
    let mut device = Device::new(gpu.cloned(), true);
    let adapter_error = match need_gpu(cfg) {
        true => device.context().err().map(|e| e.to_string()),
        false => None,
    };
    let ctx = device.existing_context().cloned();
    let ctx = ctx.as_ref();
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
        "render_rasteriser": cfg.render.map(|_| format!("{:?}", cfg.rasteriser).to_lowercase()),
        "render_streaks": cfg.render.map(|_| cfg.streaks),
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
            let run = PlannedRun {
                backend: b,
                boids: n,
            };
            match skipped {
                Some(s) => {
                    on_event(SweepEvent::Skipped {
                        run: &run,
                        reason: &s.reason,
                    });
                    rec.skip(s);
                }
                None => plan.push(run),
            }
        }
    }
    let mut runs = Runs {
        cfg,
        inputs: &inputs,
        stop,
        rec: std::sync::Mutex::new(rec),
        summary: None,
    };
    drive(&mut runs, &plan, &mut device, stop, on_event)?;
    let mut rec = runs.rec.into_inner().unwrap_or_else(|e| e.into_inner());
    rec.set_status(if stop.is_set() {
        CaptureStatus::Interrupted
    } else {
        CaptureStatus::Complete
    });
    let written = rec.write(&cfg.out)?;
    Ok(Outcome {
        dir: cfg.out.clone(),
        files: written,
        summary: rec.summary(),
    })
}

/// The runs of a bench as the driver runs them, and their capture.
struct Runs<'a> {
    cfg: &'a BenchConfig,
    inputs: &'a Inputs,
    /// Polled after every step: the current run keeps what it measured.
    stop: &'a Stop,
    /// The capture (a run records its frames as they are measured).
    rec: std::sync::Mutex<CaptureRecorder>,
    /// The summary after the last run recorded.
    summary: Option<Summary>,
}

impl Runs<'_> {
    fn rec(&self) -> std::sync::MutexGuard<'_, CaptureRecorder> {
        self.rec.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Records `run` as not done, and why.
    fn skip(&mut self, run: &PlannedRun, kind: SkipKind, reason: String) {
        self.rec().skip(SkippedRun {
            backend: run.backend.name().into(),
            boids: run.boids,
            kind,
            reason,
        });
    }
}

impl Sweep for Runs<'_> {
    type Run = PlannedRun;
    type Output = Result<bool, RunError>;
    type Done = RunSummary;
    type Error = BenchError;

    fn steps(&self, _run: &PlannedRun) -> u64 {
        u64::from(self.cfg.warmup + self.cfg.steps)
    }

    fn run(
        &self,
        run: &PlannedRun,
        device: &mut Device,
        step: &mut dyn FnMut(bool),
    ) -> Result<bool, RunError> {
        run_one(self, *run, device, step)
    }

    /// A failure is not an error of the bench: the run is listed as skipped (`failed`, or
    /// `over-limit` for an adapter limit), with what it measured before.
    fn record(
        &mut self,
        run: &PlannedRun,
        output: Result<bool, RunError>,
        _seconds: f64,
    ) -> Result<Option<String>, BenchError> {
        let skipped = match output {
            Ok(true) => None,
            Ok(false) => Some((
                SkipKind::Interrupted,
                "interrupted (Ctrl-C) before a frame was measured".to_string(),
            )),
            Err(RunError::Sim(SimError::Gpu(e @ GpuError::Limit { .. }))) => {
                Some((SkipKind::OverLimit, e.to_string()))
            }
            Err(e) => Some((SkipKind::Failed, e.to_string())),
        };
        if let Some((kind, reason)) = &skipped {
            self.skip(run, *kind, reason.clone());
        }
        let summary = self.rec().summary();
        self.summary = Some(summary);
        Ok(skipped.map(|(_, reason)| reason))
    }

    fn done(&self, run: &PlannedRun) -> Option<&RunSummary> {
        self.summary.as_ref()?.run(run.backend.name(), run.boids)
    }

    fn save(&mut self) -> Result<(), BenchError> {
        let cfg = self.cfg;
        let mut rec = self.rec();
        rec.set_status(CaptureStatus::InProgress);
        rec.write(&cfg.out)?;
        Ok(())
    }

    fn stopped(&mut self, runs: &[PlannedRun]) {
        for r in runs {
            self.skip(r, SkipKind::Interrupted, INTERRUPTED.into());
        }
    }
}

/// Runs one (backend, count) through the run layer's step loop: warm-up, then measured frames
/// into the capture. Ok(false) when stopped before any frame was measured.
fn run_one(
    runs: &Runs<'_>,
    run: PlannedRun,
    device: &mut Device,
    step: &mut dyn FnMut(bool),
) -> Result<bool, RunError> {
    let cfg = runs.cfg;
    let spec = resolve(
        runs.inputs,
        &cfg.overrides(run.boids),
        &Defaults::headless(run.boids),
    )?;
    let setup = &spec.setup;
    let n = setup.boids.len();
    let name = run.backend.name();
    let gpu = run.backend == BackendKind::Gpu;
    let adapter_ms = if gpu { device.take_adapter_ms() } else { 0.0 };
    let ctx = device.existing_context().cloned();
    let render = match (cfg.render, &ctx) {
        (Some((w, h)), Some(c)) => Some(RenderBench::new(
            c,
            &setup.params,
            w,
            h,
            cfg.msaa,
            cfg.rasteriser,
            cfg.streaks,
            &setup.actors,
            n,
        )),
        _ => None,
    };
    let sim = device.simulation(run.backend, setup)?;
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
    runs.rec().set_run_info(name, n, info.clone());
    let warm = Schedule {
        warmup: cfg.warmup,
        steps: 0,
        measure_every: 0,
        timed: false,
    };
    let tick = &mut || step(true);
    if run_steps(sim, &warm, runs.stop, tick, &mut Nothing)? != Ended::Done {
        return Ok(false);
    }
    let mut frames = Frames {
        name,
        n,
        render,
        rec: &runs.rec,
        step,
        render_ms: None,
        measured: 0,
    };
    let measured = Schedule {
        warmup: 0,
        steps: cfg.steps,
        measure_every: 0,
        timed: true,
    };
    run_steps(sim, &measured, runs.stop, &mut || {}, &mut frames)?;
    let done = frames.measured;
    if done == 0 {
        // Stopped between the warm-up and the first measured frame: nothing to summarise.
        return Ok(false);
    }
    let info = RunInfo {
        final_measures: Some(sim.measures()?),
        complete: done == cfg.steps,
        costs: sim.take_costs().map(|c| Costs { adapter_ms, ..c }),
        ..info
    };
    runs.rec().set_run_info(name, n, info);
    Ok(true)
}

/// The measured frames of one run: each frame's wall time (the step, plus the offscreen render
/// with `--render`), its stage times, the flock measures after it (outside the wall time; their
/// time joins the stage times) and its GPU timer scopes.
struct Frames<'a> {
    name: &'static str,
    n: usize,
    render: Option<RenderBench>,
    rec: &'a std::sync::Mutex<CaptureRecorder>,
    step: &'a mut dyn FnMut(bool),
    /// The render time of the current frame.
    render_ms: Option<f64>,
    measured: u32,
}

impl Observer for Frames<'_> {
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
        let mut rec = self.rec.lock().unwrap_or_else(|e| e.into_inner());
        if !scopes.is_empty() {
            rec.push_trace(TraceFrame {
                backend: self.name.into(),
                boids: self.n,
                step,
                scopes,
            });
        }
        rec.push(row);
        drop(rec);
        self.measured += 1;
        (self.step)(false);
        Ok(())
    }
}
