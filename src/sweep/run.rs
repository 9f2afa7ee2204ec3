//! Running a sweep (or one shard of it) into a folder.
//!
//! Everything that can be checked without running is checked before the folder is touched: the
//! options, the scene, every combination of values against the parameters' ranges (so a value out
//! of range is an error naming it before any run), and for `gpu` the adapter and its limits.
//! Then the runs of the shard (points × repeats) go through the sweep driver
//! ([`crate::run::driver::drive`]) in plan order, in waves: one run alone, or on
//! the `cpu` backend as many consecutive runs side by side (each on its own thread, its step
//! single-threaded) as their steps' rayon tasks ([`crate::cpu::rules::step_tasks`]) leave cores
//! for: a 400-boid point's step is one or two tasks, so a sweep of small systems fills the cores
//! with points, while a point of 20 000 boids fills them by itself and runs alone. GPU points run
//! one at a time on one reset backend ([`crate::run::driver::Device`]). After each wave
//! `sweep.csv` and `summary.json` are rewritten whole (status `in-progress`); what is written is
//! the same whatever the waves. When the stop flag is set (Ctrl-C)
//! the sweep stops after the current run (within a GPU batch: between steps, the batch's runs
//! not done) with status `interrupted`; the plots are drawn at the end either way.

use std::path::PathBuf;
use std::time::Instant;

use crate::backend::BackendKind;
use crate::formats::scene::{Scene, SceneError};
use crate::run::driver::{drive, Device, Event, Outcome, Sweep};
use crate::run::provenance::{now_rfc3339, SystemInfo, ToolInfo};
use crate::run::spec::Inputs;
use crate::run::steps::Stop;
use crate::run::RunError;
use crate::stats::{batch_count, order_parameter_moments, series_stats};
use crate::sweep::chain::{inputs_after, state_of, STATES_DIR};
use crate::sweep::engine::{run_one, RunOutput, RunRequest};
use crate::sweep::error::SweepError;
use crate::sweep::output::{prepare_dir, run_files, write_outputs};
use crate::sweep::plan::{sha256_hex, Axis, PlanSpec, PlannedRun, Protocol, Start, BRANCH};
use crate::sweep::series::{series_bytes, series_file, SERIES_DIR};
use crate::sweep::shard::Shard;
use crate::sweep::summary::{LogAxes, Method, RunStatus, SweepStatus, SweepSummary, SCHEMA};
use crate::sweep::table::order_columns;
use crate::sweep::table::RunRow;

/// Options of a sweep (`boids sweep`).
#[derive(Clone, Debug, PartialEq)]
pub struct SweepConfig {
    /// Scene file (TOML).
    pub scene: Option<PathBuf>,
    /// Backend.
    pub backend: BackendKind,
    /// The swept parameters and their values (one or two).
    pub axes: Vec<Axis>,
    /// Boid count (None: the scene's, else 20 000).
    pub boids: Option<usize>,
    /// Steps per run.
    pub steps: u32,
    /// Steps discarded before the measures are averaged.
    pub discard: u32,
    /// Runs per combination of values.
    pub repeats: u32,
    /// Base seed (None: the scene's, else 1).
    pub seed: Option<u32>,
    /// `--set KEY=VALUE`, applied to every run before its swept values.
    pub sets: Vec<crate::run::args::Set>,
    /// Which slice of the runs to run (None: all).
    pub shard: Option<Shard>,
    /// Output folder.
    pub out: PathBuf,
    /// Whether a non-empty output folder may be used.
    pub force: bool,
    /// `--start`: the state every run starts from.
    pub start: crate::sweep::plan::Start,
    /// `--protocol`: how the runs follow one another (with hysteresis, `axes` ends with the
    /// branch axis, [`crate::sweep::plan::branch_axis`]).
    pub protocol: crate::sweep::plan::Protocol,
    /// `--init`: the state file every run starts from.
    pub init: Option<PathBuf>,
    /// `--resume`: go on with the sweep in `out`, running only its runs not done
    /// ([`crate::sweep::resume`]).
    pub resume: bool,
    /// `--keep-world`: a scene's fixed world is kept when the count differs from the scene's.
    pub keep_world: bool,
    /// `--series`: write each run's per-step measures ([`crate::sweep::series`]).
    pub series: bool,
    /// `--analyse` and the analyses' settings.
    pub analyses: Option<crate::sweep::plan::AnalysisPlan>,
    /// `--log`: which plot axes are logarithmic.
    pub log: LogAxes,
    /// `--batch`: GPU runs stepped as one ensemble.
    pub batch: crate::sweep::batch::Batch,
}

/// Progress of a sweep (the driver's events: a planned run, its row).
pub type SweepEvent<'a> = Event<'a, PlannedRun, RunRow>;

/// What a sweep produced: its folder, files and summary.
pub type SweepOutcome = Outcome<SweepSummary>;

/// The fixed texts of `summary.json`'s `method`.
pub fn method(spec: &PlanSpec) -> Method {
    Method {
        batch: None,
        measures: crate::sweep::measures()
            .iter()
            .map(|m| m.name.to_string())
            .collect(),
        samples_per_run: spec.samples(),
        batches: batch_count(spec.samples() as usize),
        standard_error: "sweep.csv (one run): non-overlapping batch means for the averages \
            (the measured steps cut into B = min(20, n/2) consecutive batches, earliest leftover \
            samples dropped; se = sd(batch means)/sqrt(B); sd is the standard deviation over \
            time), the delete-one-block jackknife over the same batches for phi2, phi4, binder \
            (G = 1 - <phi^4>/(3 <phi^2>^2)) and susceptibility (chi = N (<phi^2> - <phi>^2)) of \
            the model's order parameter phi; points.csv and the plots: with K >= 2 repeats the \
            mean of the K repeat values and se = sd/sqrt(K) of them, with one repeat the run's \
            own error (column error)"
            .into(),
        runs: "a point is one combination of values, a run one point x one repeat; runs, \
            points, repeats and shards are numbered from 1: point p = value index of param 1 * \
            values of param 2 + value index of param 2 + 1, run k = (p - 1) * repeats + repeat, \
            value indices from 0 and repeats from 1; seed of run k = hash4(seed, k - 1, 0, \
            0x53574550)"
            .to_string()
            + if spec.protocol == Protocol::Hysteresis {
                "; hysteresis: the second axis is the branch (up, down); each repeat is a chain \
                 of runs through the values up then down, each run starting from the final \
                 state of the chain's run before it (states/), the first from the start"
            } else {
                ""
            },
        shards: if spec.protocol == Protocol::Hysteresis {
            "shard I/N does the chains of the repeats r with (r - 1) mod N = I - 1".into()
        } else {
            "shard I/N does the runs k with (k - 1) mod N = I - 1".into()
        },
        world: "as boids headless: unless the scene fixes the world, a square sized to the \
            boid count at 0.01 boids/wu^2; a scene that fixes the world and gives a count, run \
            at another count N (--boids or a boids axis), has its world, obstacles and \
            predators scaled by sqrt(N/N_scene) to keep its density, unless keep_world; a \
            density value re-sizes the world last to boids/density wu^2, keeping its aspect \
            ratio, the scene's obstacles and predators placed as its sides are scaled"
            .into(),
    }
}

/// `name = value, …` of a point (a combination of values), for messages.
pub fn describe(axes: &[Axis], values: &[f64]) -> String {
    axes.iter()
        .zip(values)
        .map(|(a, v)| format!("{} = {}", a.name, a.text(*v)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The row of a finished run (run, point and repeat numbered from 1): each measure's statistics,
/// and those of the model's order parameter φ over the run (docs/model.md §12.9).
fn row_of(planned: &PlannedRun, run: &RunOutput, samples: u32) -> RunRow {
    let col = |m: usize| -> Vec<f64> { run.samples.iter().map(|s| s[m]).collect() };
    let phi = crate::sweep::measures()
        .iter()
        .position(|m| m.name == run.order_parameter)
        .expect("the order parameter is an average of the measure table");
    RunRow {
        run: planned.index + 1,
        point: planned.point + 1,
        repeat: planned.repeat + 1,
        seed: planned.seed,
        values: planned.values.clone(),
        boids: run.boids,
        world: run.world,
        samples,
        stats: (0..crate::sweep::measures().len())
            .map(|m| series_stats(&col(m)))
            .collect(),
        order: order_columns(&order_parameter_moments(&col(phi), run.boids)),
        scalars: run.scalars.clone(),
        histogram: crate::sweep::histogram::histogram(&col(phi)),
        analysis_errors: run
            .analysis_errors
            .iter()
            .map(ToString::to_string)
            .collect(),
    }
}

/// Refuses what cannot go with `--init`: the count is the state file's.
fn check_init(cfg: &SweepConfig) -> Result<(), SweepError> {
    let conflict = |what: String| {
        Err(SweepError::Run(RunError::Conflict(format!(
            "--init gives every run the state file's boids: {what}"
        ))))
    };
    if let Some(a) = cfg
        .axes
        .iter()
        .find(|a| crate::sweep::engine::SPECIAL.contains(&a.name.as_str()))
    {
        return conflict(format!(
            "a {} axis would change the count or the world; sweep it from random starts",
            a.name
        ));
    }
    if cfg.boids.is_some() {
        return conflict("leave out --boids (the count is the file's)".into());
    }
    if cfg.start != crate::sweep::plan::Start::Random {
        return conflict("leave out --start (the file is the start)".into());
    }
    Ok(())
}

/// SHA-256 of the `--init` file's bytes, then `:FRAME` for a GSD frame given by number.
fn init_digest(p: &std::path::Path) -> Result<String, SweepError> {
    let (file, frame) = match crate::formats::gsd::frame_ref(p).map_err(RunError::from)? {
        Some(r) => (r.path, r.frame),
        None => (p.to_path_buf(), None),
    };
    let bytes = std::fs::read(&file).map_err(|source| SweepError::Io {
        path: file.clone(),
        source,
    })?;
    let hex = sha256_hex(&bytes);
    Ok(match frame {
        Some(f) => format!("{hex}:{f}"),
        None => hex,
    })
}

/// The sweep in `dir` to resume, its runs matched to this plan's.
fn load_resumed(
    dir: &std::path::Path,
    spec: &PlanSpec,
    shard: Option<Shard>,
    series: bool,
) -> Result<crate::sweep::resume::Resumed, SweepError> {
    let r = crate::sweep::resume::load(dir, spec, shard, series)?;
    if r.summary.runs.len() != spec.order(shard).len() {
        return Err(SweepError::Resume(format!(
            "{}: its summary lists {} runs where the plan has {}; the folder was changed after              the run",
            dir.display(),
            r.summary.runs.len(),
            spec.total()
        )));
    }
    Ok(r)
}

fn read_scene(path: &Option<PathBuf>) -> Result<Option<(PathBuf, String)>, SceneError> {
    match path {
        Some(p) => std::fs::read_to_string(p)
            .map(|t| Some((p.clone(), t)))
            .map_err(|source| SceneError::Io {
                path: p.clone(),
                source,
            }),
        None => Ok(None),
    }
}

/// Runs the sweep of `cfg` (its shard) into `cfg.out`. `stop` is polled before every run.
///
/// # Errors
/// Before any run: [`SweepError::Plan`] (the options), [`SweepError::Run`] (the scene, a
/// setting, a parameter value with its allowed range, the adapter), [`SweepError::Point`] (the
/// setup of a combination of values) or [`SweepError::Folder`]. During the sweep:
/// [`SweepError::Failed`] for the run that failed (the folder then holds the runs done before
/// it, status `failed`), or a file error.
pub fn run_sweep(
    cfg: &SweepConfig,
    stop: &Stop,
    on_event: &mut dyn FnMut(SweepEvent<'_>),
) -> Result<SweepOutcome, SweepError> {
    let start = Instant::now();
    let created_utc = now_rfc3339();
    let scene = read_scene(&cfg.scene).map_err(RunError::from)?;
    let inputs = Inputs {
        scene: match &scene {
            Some((p, t)) => Some(Scene::parse(t, p).map_err(RunError::from)?),
            None => None,
        },
        state: match &cfg.init {
            Some(p) => {
                check_init(cfg)?;
                Inputs::load(None, Some(p))?.state
            }
            None => None,
        },
    };
    let init_sha256 = match &cfg.init {
        Some(p) => Some(init_digest(p)?),
        None => None,
    };
    let names: Vec<String> = cfg.axes.iter().map(|a| a.name.clone()).collect();
    let mut device = Device::default();
    let request = |settings: &[(String, f64)], seed: Option<u32>, steps: u32| {
        request_of(cfg, &inputs, settings, seed, steps)
    };
    // The base setup: the scene parses, the base seed, the adapter — with the first value of
    // each axis, so a base value the sweep replaces (the scene's η where vectorial noise allows
    // 0 ..= 1 and the swept values are in it) does not refuse the sweep.
    let firsts: Vec<(String, f64)> = cfg
        .axes
        .iter()
        .filter_map(|a| a.values.first().map(|v| (a.name.clone(), *v)))
        .collect();
    let base = run_one(&request(&firsts, cfg.seed, 0), &mut device, &mut || {})?;
    let spec = PlanSpec {
        tool_version: env!("CARGO_PKG_VERSION").to_string(),
        scene: cfg.scene.as_ref().map(|p| p.display().to_string()),
        scene_sha256: scene.as_ref().map(|(_, t)| sha256_hex(t.as_bytes())),
        backend: cfg.backend.name().to_string(),
        axes: cfg.axes.clone(),
        boids: cfg.boids,
        steps: cfg.steps,
        discard: cfg.discard,
        repeats: cfg.repeats,
        seed: base.seed,
        sets: cfg
            .sets
            .iter()
            .map(|s| format!("{}={}", s.key, s.value))
            .collect(),
        keep_world: cfg.keep_world,
        start: cfg.start,
        protocol: cfg.protocol,
        init: cfg.init.as_ref().map(|p| p.display().to_string()),
        init_sha256,
        analyses: cfg.analyses.clone(),
    };
    spec.check()?;
    let settings_of = |p: &PlannedRun| -> Vec<(String, f64)> {
        names
            .iter()
            .cloned()
            .zip(p.values.iter().copied())
            .collect()
    };
    // The first values together first (each axis's alone could clash with the scene: η = 2 with
    // a swept vectorial noise), so an unknown name is reported as such, then every combination.
    let first_values: Vec<f64> = firsts.iter().map(|f| f.1).collect();
    run_one(&request(&firsts, cfg.seed, 0), &mut device, &mut || {}).map_err(|e| match e {
        // The engine's refusal of a swept name already names it (`--param NAME: …`).
        RunError::Conflict(m) if m.starts_with("--param") => SweepError::Run(RunError::Conflict(m)),
        e => SweepError::Point {
            point: describe(&spec.axes, &first_values),
            source: Box::new(e),
        },
    })?;
    let mut base_params = None;
    // The boid count of each point (by point index), for the waves below.
    let mut point_boids = Vec::with_capacity(spec.combinations());
    for c in 0..spec.combinations() {
        let p = spec.run(c * spec.repeats as usize);
        let r = run_one(
            &request(&settings_of(&p), Some(p.seed), 0),
            &mut device,
            &mut || {},
        )
        .map_err(|e| SweepError::Point {
            point: describe(&spec.axes, &p.values),
            source: Box::new(e),
        })?;
        point_boids.push(r.boids);
        base_params.get_or_insert(r.params);
    }
    let todo: Vec<usize> = spec.order(cfg.shard);
    let resumed = if cfg.resume {
        Some(load_resumed(&cfg.out, &spec, cfg.shard, cfg.series)?)
    } else {
        prepare_dir(&cfg.out, cfg.force)?;
        if cfg.force {
            crate::sweep::output::clear_run_files(&cfg.out)?;
        }
        None
    };

    let summary = SweepSummary {
        schema: SCHEMA.into(),
        created_utc,
        updated_utc: String::new(),
        status: SweepStatus::InProgress,
        error: None,
        tool: ToolInfo::current(),
        system: SystemInfo::current(),
        adapter: base.adapter.clone(),
        fingerprint: spec.fingerprint(),
        runs_total: spec.total(),
        shard: cfg.shard,
        base_params: base_params.unwrap_or(base.params),
        method: Method {
            batch: Some(if cfg.backend == BackendKind::Gpu {
                cfg.batch.describe()
            } else {
                format!(
                    "{} (ignored by the {} backend: its small runs run side by side, one per \
                     thread)",
                    cfg.batch.describe(),
                    cfg.backend.name()
                )
            }),
            ..method(&spec)
        },
        runs_done: 0,
        runs: todo
            .iter()
            .map(|&k| {
                let p = spec.run(k);
                RunStatus {
                    run: k + 1,
                    point: p.point + 1,
                    values: p.values,
                    repeat: p.repeat + 1,
                    seed: p.seed,
                    done: false,
                    seconds: None,
                    boids: None,
                    world_wu: None,
                    density: None,
                    costs: None,
                }
            })
            .collect(),
        seconds_total: 0.0,
        files: Vec::new(),
        merged_from: Vec::new(),
        log: cfg.log,
        plan: spec.clone(),
    };
    let mut runs = Runs {
        cfg,
        spec: &spec,
        inputs: &inputs,
        names: &names,
        point_boids,
        summary,
        rows: Vec::new(),
        files: Vec::new(),
        recorded: 0,
        start,
        before_s: 0.0,
    };
    // The runs of a resumed folder that are done: kept, and the sweep goes on after them.
    if let Some(r) = resumed {
        runs.before_s = r.summary.seconds_total;
        runs.summary.created_utc = r.summary.created_utc;
        runs.summary.runs = r.summary.runs;
        runs.summary.runs_done = r.summary.runs_done;
        runs.rows = r.rows;
        runs.files = r.files;
        runs.recorded = runs.summary.runs_done;
    }
    let mut folders = Vec::new();
    if cfg.series {
        folders.push(SERIES_DIR);
    }
    if spec.protocol == Protocol::Hysteresis {
        folders.push(STATES_DIR);
    }
    for f in folders {
        let d = cfg.out.join(f);
        std::fs::create_dir_all(&d).map_err(|source| SweepError::Io { path: d, source })?;
    }
    runs.write(false)?;
    let planned: Vec<PlannedRun> = todo[runs.recorded..].iter().map(|&k| spec.run(k)).collect();
    drive(&mut runs, &planned, &mut device, stop, on_event)?;
    if runs.summary.status == SweepStatus::InProgress {
        runs.summary.status = SweepStatus::Complete;
    }
    let files = runs.write(true)?;
    Ok(Outcome {
        dir: cfg.out.clone(),
        files,
        summary: runs.summary,
    })
}

/// The runs of a sweep as the driver runs them, and what they wrote so far.
struct Runs<'a> {
    cfg: &'a SweepConfig,
    spec: &'a PlanSpec,
    inputs: &'a Inputs,
    /// The swept names, in axis order.
    names: &'a [String],
    /// The boid count of each point (by point index), for the waves.
    point_boids: Vec<usize>,
    summary: SweepSummary,
    rows: Vec<RunRow>,
    /// The files of the runs written so far: series and chain states.
    files: Vec<String>,
    /// Runs of the summary recorded so far (done before a resume included).
    recorded: usize,
    start: Instant,
    /// The wall time of the sessions before a resumed one.
    before_s: f64,
}

impl Runs<'_> {
    /// What to resolve and run for the point `values` with `seed` and `steps` steps.
    fn request(&self, settings: &[(String, f64)], seed: Option<u32>, steps: u32) -> RunRequest<'_> {
        request_of(self.cfg, self.inputs, settings, seed, steps)
    }

    /// The folder written whole (`last`: the plots too); the files it holds.
    fn write(&mut self, last: bool) -> Result<Vec<PathBuf>, SweepError> {
        self.summary.seconds_total = self.before_s + self.start.elapsed().as_secs_f64();
        write_outputs(
            &self.cfg.out,
            &mut self.summary,
            &self.rows,
            last,
            &self.files,
        )?;
        Ok(self
            .summary
            .files
            .iter()
            .map(|f| self.cfg.out.join(f))
            .collect())
    }
}

impl Sweep for Runs<'_> {
    type Run = PlannedRun;
    type Output = Result<RunOutput, RunError>;
    type Done = RunRow;
    type Error = SweepError;

    fn steps(&self, _run: &PlannedRun) -> u64 {
        u64::from(self.cfg.steps)
    }

    /// On the CPU backend, consecutive runs whose steps together split into no more rayon tasks
    /// than there are threads (each point's step too small to fill the cores by itself), and in
    /// a hysteresis sweep of different chains (a run waits for the one before it in its chain).
    ///
    /// On the GPU backend, a batch of consecutive runs stepped as one ensemble (`--batch`; in a
    /// hysteresis sweep of different chains: [`crate::sweep::batch`]).
    fn wave(&self, next: &[PlannedRun]) -> usize {
        let chained = self.spec.protocol == Protocol::Hysteresis;
        if self.cfg.backend == BackendKind::Gpu {
            // Across chains, never within one (a run starts from the one before it).
            let across = next
                .iter()
                .enumerate()
                .take_while(|(k, r)| !(chained && next[..*k].iter().any(|o| o.repeat == r.repeat)))
                .count();
            return self
                .cfg
                .batch
                .size(next[..across].iter().map(|r| self.point_boids[r.point]));
        }
        if self.cfg.backend != BackendKind::Cpu {
            return 1;
        }
        let threads = rayon::current_num_threads();
        let tasks = |r: &PlannedRun| crate::cpu::rules::step_tasks(self.point_boids[r.point]);
        let mut used = tasks(&next[0]);
        let mut wave = 1;
        while wave < next.len()
            && used + tasks(&next[wave]) <= threads
            && !(chained && next[..wave].iter().any(|r| r.repeat == next[wave].repeat))
        {
            used += tasks(&next[wave]);
            wave += 1;
        }
        wave
    }

    fn run(
        &self,
        run: &PlannedRun,
        device: &mut Device,
        step: &mut dyn FnMut(bool),
    ) -> Result<RunOutput, RunError> {
        let settings: Vec<(String, f64)> = self
            .names
            .iter()
            .cloned()
            .zip(run.values.iter().copied())
            .collect();
        let mut req = self.request(&settings, Some(run.seed), self.cfg.steps);
        let after;
        if let Some(k) = self.spec.previous(run.index) {
            after = inputs_after(self.inputs, &self.cfg.out, &self.spec.run(k))?;
            req.inputs = &after;
            req.start = Start::Random;
        }
        if self.spec.protocol == Protocol::Hysteresis {
            req.save = Some(self.cfg.out.join(state_of(run)));
        }
        run_one(&req, device, &mut || step(false))
    }

    fn run_wave(
        &self,
        runs: &[PlannedRun],
        device: &mut Device,
        stop: &Stop,
        step: &mut dyn FnMut(bool),
    ) -> Option<Vec<crate::sweep::batch::BatchRun>> {
        if self.cfg.backend != BackendKind::Gpu {
            return None;
        }
        let settings: Vec<Vec<(String, f64)>> = runs
            .iter()
            .map(|r| {
                self.names
                    .iter()
                    .cloned()
                    .zip(r.values.iter().copied())
                    .collect()
            })
            .collect();
        // A chained run starts from its chain's last state, and saves its own (as `run` does).
        let chained = self.spec.protocol == Protocol::Hysteresis;
        let mut after: Vec<Option<Inputs>> = Vec::with_capacity(runs.len());
        for r in runs {
            match self.spec.previous(r.index) {
                None => after.push(None),
                Some(k) => match inputs_after(self.inputs, &self.cfg.out, &self.spec.run(k)) {
                    Ok(a) => after.push(Some(a)),
                    // Unreadable: each run alone says which and why.
                    Err(_) => {
                        return Some(
                            runs.iter()
                                .map(|r| {
                                    let t = std::time::Instant::now();
                                    let out = self.run(r, device, step);
                                    Some((out, t.elapsed().as_secs_f64()))
                                })
                                .collect(),
                        )
                    }
                },
            }
        }
        let reqs: Vec<RunRequest<'_>> = runs
            .iter()
            .zip(&settings)
            .zip(&after)
            .map(|((r, s), a)| {
                let mut req = self.request(s, Some(r.seed), self.cfg.steps);
                if let Some(a) = a {
                    req.inputs = a;
                    req.start = Start::Random;
                }
                if chained {
                    req.save = Some(self.cfg.out.join(state_of(r)));
                }
                req
            })
            .collect();
        Some(crate::sweep::batch::run_batch(
            &reqs,
            device,
            stop,
            &mut || step(false),
        ))
    }

    fn record(
        &mut self,
        planned: &PlannedRun,
        output: Result<RunOutput, RunError>,
        seconds: f64,
    ) -> Result<Option<String>, SweepError> {
        let spec = self.spec;
        let run = match output {
            Ok(r) => r,
            Err(source) => {
                let which = format!(
                    "{} (point {}: {}, repeat {} of {})",
                    planned.index + 1,
                    planned.point + 1,
                    describe(&spec.axes, &planned.values),
                    planned.repeat + 1,
                    spec.repeats
                );
                self.summary.status = SweepStatus::Failed;
                // The summary says which run failed and why; the error adds the folder.
                self.summary.error = Some(format!("sweep run {which}: {source}"));
                self.write(true)?;
                return Err(SweepError::Failed {
                    run: which,
                    source: Box::new(source),
                    dir: self.cfg.out.clone(),
                });
            }
        };
        let row = row_of(planned, &run, spec.samples());
        if self.cfg.series {
            let name = series_file(row.point, row.repeat);
            let bytes = series_bytes(self.cfg.discard.min(self.cfg.steps) + 1, &run.samples)?;
            let path = self.cfg.out.join(&name);
            crate::io::write_atomic(&path, &bytes)
                .map_err(|source| SweepError::Write { path, source })?;
        }
        // The chain's state was saved by the run itself.
        self.files.extend(run_files(
            row.point,
            row.repeat,
            self.cfg.series,
            spec.protocol == Protocol::Hysteresis,
        ));
        let status = &mut self.summary.runs[self.recorded];
        status.done = true;
        status.seconds = Some(seconds);
        status.boids = Some(row.boids);
        status.world_wu = Some(row.world);
        status.density = Some(row.density());
        status.costs = run.costs;
        self.summary.runs_done += 1;
        self.rows.push(row);
        self.recorded += 1;
        Ok(None)
    }

    fn done(&self, run: &PlannedRun) -> Option<&RunRow> {
        self.rows.iter().rev().find(|r| r.run == run.index + 1)
    }

    fn save(&mut self) -> Result<(), SweepError> {
        self.write(false).map(|_| ())
    }

    fn stopped(&mut self, _runs: &[PlannedRun]) {
        self.summary.status = SweepStatus::Interrupted;
    }
}

/// What to resolve and run for one point of the sweep `cfg` (its swept `settings`, `seed` and
/// `steps`).
fn request_of<'a>(
    cfg: &'a SweepConfig,
    inputs: &'a Inputs,
    settings: &[(String, f64)],
    seed: Option<u32>,
    steps: u32,
) -> RunRequest<'a> {
    RunRequest {
        inputs,
        backend: cfg.backend,
        boids: cfg.boids,
        seed,
        sets: &cfg.sets,
        keep_world: cfg.keep_world,
        // A hysteresis sweep's branch is not a parameter.
        settings: settings
            .iter()
            .filter(|(n, _)| !(cfg.protocol == Protocol::Hysteresis && n == BRANCH))
            .cloned()
            .collect(),
        axes: &cfg.axes,
        start: cfg.start,
        steps,
        discard: cfg.discard,
        analyses: cfg.analyses.as_ref(),
        run_steps: cfg.steps,
        save: None,
    }
}
