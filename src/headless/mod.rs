//! `boids headless`: runs a backend for a number of steps without a window, prints the step time
//! (median, p95) and the flock measures, and optionally saves the final state as a checkpoint and
//! the measures every few steps, and the run as a GSD trajectory ([`trajectory`]). The setup is the run layer's ([`crate::run::spec::PRECEDENCE`]);
//! so is the step loop ([`crate::run::steps`]): Ctrl-C stops after the current step and still
//! writes what was asked for.

use std::path::PathBuf;

use crate::analysis::{descs, finished_curves, Analyses, Curve, Request};
use crate::backend::{self, BackendKind, Simulation};
use crate::gpu::GpuContext;
use crate::model::census::FLOCK_MIN_BOIDS;
use crate::model::measures::{Measure, Needs, MEASURES};
use crate::model::{flock_census, FlockMeasures, World};
use crate::run::analyses::{give_state, run_analyses, time_unit, write_curves, AnalysisArgs};
use crate::run::args::{parse_count, SetupArgs};
use crate::run::spec::{resolve, Defaults, Inputs, Spawn};
use crate::run::steps::{run_steps, Ended, Observer, Schedule, Stop};
use crate::run::RunError;
use crate::stats::time::TimeStats;
use crate::stats::{Estimate, NumberFluctuations};

pub mod fluctuations;
pub mod stats_csv;
pub mod trajectory;

use fluctuations::{fluctuations, write_fluctuations, Snapshots};
use stats_csv::{order_statistics, write_stats};
use trajectory::Trajectory;

/// Options of `boids headless`.
#[derive(clap::Args, Clone, Debug)]
pub struct HeadlessArgs {
    /// Backend.
    #[arg(long, value_enum, default_value = "cpu")]
    pub backend: BackendKind,
    /// Number of boids, suffixes k and M allowed (default: the --init file's, the scene's, else
    /// 20000).
    #[arg(long, value_parser = parse_count)]
    pub boids: Option<usize>,
    /// Steps to run; 0 only with --save (exports the initial state).
    #[arg(long, default_value_t = 100)]
    pub steps: u32,
    /// The scene, the seed and `--set KEY=VALUE`.
    #[command(flatten)]
    pub setup: SetupArgs,
    /// Initial state: a checkpoint (resumes it, its predators where they were saved), a plain
    /// CSV id,x,y,vx,vy,hx,hy,hvx,hvy, or a frame of a GSD trajectory: FILE.gsd (its last frame)
    /// or FILE.gsd:FRAME (from 0), whose boids, step index and predators start the run (the
    /// parameters come from the scene, the defaults and --set; the world must be the frame's
    /// box).
    #[arg(long)]
    pub init: Option<PathBuf>,
    /// How the boids start without --init: `uniform` (spread evenly, random headings), `flocks`
    /// (a few formed flocks, as the app starts its default scene) or `group` (one disc at the
    /// world's centre, as Couzin's scenes start).
    #[arg(long, value_enum, default_value = "uniform", conflicts_with = "init")]
    pub spawn: Spawn,
    /// Write the final state here as a checkpoint (--init resumes it as saved: parameters, seed, step, obstacles, predators); a name ending in .gsd writes a GSD trajectory of that one frame instead (boids, step and predators; the seed and parameters in its log/boids/run for reference): like any frame, --init starts from its boids, step and predators with the parameters of the scene, the defaults and --set, so give the run's --scene and --seed to go on with it. It may name the --init checkpoint (a state CSV): the run goes on in place.
    #[arg(long)]
    pub save: Option<PathBuf>,
    /// Write the flock measures (CSV) here, one row every --stats-every steps: step, step time,
    /// then each measure of the measure table a run computes (docs/model.md §12: polarization,
    /// milling, mean speed, mean neighbours, v_a; the catches when there are predators; the
    /// flock census with --flocks).
    #[arg(long)]
    pub stats: Option<PathBuf>,
    /// Steps between two rows of --stats (e.g. 60: one row per simulated second at dt 1/60).
    #[arg(long, default_value_t = 1, value_name = "N", requires = "stats")]
    pub stats_every: u32,
    /// Of the --steps steps, the first D are the transient: run, timed and written to
    /// --trajectory, but not measured — no --stats rows, not in the order parameter's
    /// statistics, no --fluctuations snapshots (as `boids sweep --discard`). Less than --steps.
    #[arg(long, default_value_t = 0, value_name = "D")]
    pub discard: u32,
    /// Also count the flocks (connected components of at least 10 boids linked within the
    /// perception radius), their hue coherence (1 = one hue per flock) and the polarization
    /// within them (1 = each flock moves as one): adds to --stats the time (time_s; time_steps
    /// for the Vicsek model, whose unit of time is its step) and the columns flocks,
    /// largest_flock, flocked_fraction, hue_coherence, flock_polarization, and prints them for
    /// the final state.
    #[arg(long)]
    pub flocks: bool,
    /// Giant number fluctuations: write the standard deviation ΔN of the count in square boxes
    /// against the mean count ⟨n⟩ (CSV: box_width_wu, box_height_wu, boxes, mean_count, delta_n;
    /// box sides from a quarter of the world down to 4 boids per box) averaged over up to 64
    /// snapshots at the --stats rows (the final state alone without --stats), and print the
    /// fitted exponent α of ΔN ∝ ⟨n⟩^α (1/2 for a random gas) with its error. The fit needs two
    /// box sizes: at least 100 boids in a square world (fewer are refused before the run).
    #[arg(long, value_name = "FILE")]
    pub fluctuations: Option<PathBuf>,
    /// Write the run as a GSD trajectory (HOOMD schema, read by the `gsd` Python package, OVITO,
    /// freud): frame 0 the initial state, then one frame every --every steps, each flushed to disk
    /// as it is written (a killed run leaves every whole frame). Chunks: docs/python.md.
    #[arg(long, value_name = "FILE.gsd")]
    pub trajectory: Option<PathBuf>,
    /// Steps between two frames of --trajectory (1 or more); the last step is written too when
    /// it falls between two.
    #[arg(long, default_value_t = 100, value_name = "K", requires = "trajectory")]
    pub every: u32,
    /// Replace an existing --trajectory file. Without it an existing one is refused: a trajectory
    /// is written frame by frame from the first step, so the old file would be gone long before
    /// the new run ends. The files written whole at the end (--save, --stats, --fluctuations,
    /// each --analyse) replace theirs, as `cp` does, only once the run has them. No output may
    /// name the --scene or --init file, but --save may name an --init checkpoint (a state CSV):
    /// the run goes on in place.
    #[arg(long, requires = "trajectory")]
    pub force: bool,
    /// The analyses of the states (`--analyse NAME=FILE.csv`) and their settings.
    #[command(flatten)]
    pub analyses: AnalysisArgs,
}

impl HeadlessArgs {
    /// Options for `backend` with every other option at its default: 100 steps, no files.
    pub fn new(backend: BackendKind) -> HeadlessArgs {
        HeadlessArgs {
            backend,
            boids: None,
            steps: 100,
            setup: SetupArgs::default(),
            init: None,
            spawn: Spawn::Uniform,
            save: None,
            stats: None,
            stats_every: 1,
            discard: 0,
            flocks: false,
            fluctuations: None,
            trajectory: None,
            every: 100,
            force: false,
            analyses: AnalysisArgs::default(),
        }
    }
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
    /// Measures of the final state (with its flock census when asked for).
    pub measures: FlockMeasures,
    /// The measures this run reports, in table order: the averages over the boids, the catches
    /// when there are predators, the flock census when asked for (`--flocks`).
    pub columns: Vec<&'static Measure>,
    /// Median time of each stage (ms), in step order, when the backend measures them.
    pub stage_median_ms: Vec<(String, f64)>,
    /// Steps run (fewer than asked when interrupted).
    pub steps: u32,
    /// Rows written to `--stats` (the steps measured).
    pub stats_rows: usize,
    /// Steps discarded before the first measured one (`--discard`).
    pub discard: u32,
    /// The integrated autocorrelation time of the order parameter over the `--stats` rows (in
    /// rows; a row is `--stats-every` steps), when they fluctuate.
    pub tau_int: Option<crate::stats::AutocorrelationTime>,
    /// `--stats-every`.
    pub stats_every: u32,
    /// Step index of the final state (the initial state's plus the steps run).
    pub step_index: u32,
    /// Predators in the world.
    pub predators: usize,
    /// The unit of the mean speed: the model's (wu per step in the Vicsek model, docs/model.md
    /// §16.1; else wu/s).
    pub speed_unit: &'static str,
    /// What the loader changed in the initial state (speeds, hue vectors), and sources not used.
    pub warnings: Vec<String>,
    /// Whether Ctrl-C (or SIGTERM) stopped the run early (its files are still written).
    pub interrupted: bool,
    /// The model's order parameter (its measure) and, over the rows of `--stats` (at least
    /// [`crate::stats::MIN_SAMPLES`]), its moments, Binder cumulant and susceptibility with their
    /// block-jackknife errors (docs/model.md §12.9), as `(measure, estimate)` in table order.
    pub order: Option<(&'static Measure, Vec<(&'static Measure, Estimate)>)>,
    /// World width and height (wu).
    pub world: [f32; 2],
    /// Where the world's size came from.
    pub world_from: String,
    /// With `--fluctuations`: the number fluctuations and the snapshots they average.
    pub fluctuations: Option<(NumberFluctuations, usize)>,
    /// With `--trajectory`: the frames written and the file's size (bytes).
    pub trajectory: Option<(u64, u64)>,
    /// With `--analyse`: each analysis's request and curve, and the states it was given.
    pub analyses: Option<(Vec<(Request, Curve)>, u64)>,
    /// The analyses that could not be finished (their files are not written; every other file
    /// is): the command reports the run, then fails naming them.
    pub unfinished: Vec<crate::analysis::AnalysisError>,
}

/// Refuses an output (`--save`, `--stats`, `--trajectory`, `--fluctuations`, each `--analyse`
/// and its plot) in a folder that does not exist, two naming one file (the one written last
/// would replace the other), and one naming the scene or the `--init` file (except `--save` over
/// an `--init` state CSV: the checkpoint goes on in place).
fn check_outputs_differ(opts: &HeadlessArgs) -> Result<(), RunError> {
    let analyses: Vec<(&str, Option<PathBuf>)> = opts
        .analyses
        .analyse
        .iter()
        .flat_map(|r| {
            [
                ("--analyse", Some(r.csv.clone())),
                (
                    "--analyse (its plot)",
                    Some(crate::analysis::plot_path(&r.csv)),
                ),
            ]
        })
        .collect();
    let mut outputs: Vec<(&str, &Option<PathBuf>)> = vec![
        ("--save", &opts.save),
        ("--stats", &opts.stats),
        ("--trajectory", &opts.trajectory),
        ("--fluctuations", &opts.fluctuations),
    ];
    outputs.extend(analyses.iter().map(|(n, p)| (*n, p)));
    for (flag, p) in &outputs {
        if let Some(p) = p {
            crate::io::check_folder_of(p)
                .map_err(|e| RunError::Conflict(format!("{flag}: {e}; nothing was run")))?;
        }
    }
    let key = crate::io::file_key;
    // The files read: an output naming one would replace it (a scene with the stats, a
    // trajectory with its own last frame). Only `--save` may name the `--init` checkpoint (a
    // state CSV): read whole at the start and written whole at the end, the run goes on in place.
    let init = opts
        .init
        .as_ref()
        .map(|i| match crate::formats::gsd::frame_ref(i) {
            Ok(Some(f)) => (f.path, true),
            _ => (i.clone(), false),
        });
    let inputs = [
        ("--scene", opts.setup.scene.clone(), false),
        (
            "--init",
            init.as_ref().map(|i| i.0.clone()),
            init.is_some_and(|i| i.1),
        ),
    ];
    for (flag, p) in &outputs {
        for (input, q, gsd) in &inputs {
            if let (Some(p), Some(q)) = (p, q) {
                let in_place = *flag == "--save" && *input == "--init" && !gsd;
                if key(p) == key(q) && !in_place {
                    return Err(RunError::Conflict(format!(
                        "{flag} {} names the {input} file the run reads: it would be replaced; \
                         give the output its own file",
                        crate::io::show_path(p)
                    )));
                }
            }
        }
    }
    for (i, (a, pa)) in outputs.iter().enumerate() {
        for (b, pb) in &outputs[i + 1..] {
            if let (Some(x), Some(y)) = (pa, pb) {
                if key(x) == key(y) {
                    return Err(RunError::Conflict(format!(
                        "{a} and {b} both name {}: one would replace the other; give each output \
                         its own file",
                        crate::io::show_path(x)
                    )));
                }
            }
        }
    }
    Ok(())
}

/// Runs `boids headless` with `stop` checked after every step.
///
/// The setup is resolved by the run layer (defaults < scene < checkpoint < command line); the
/// final state is saved as a checkpoint ([`crate::formats::save_state`]: a GSD frame for
/// `.gsd`) in the backend's storage order, with the parameters, seed, step index, obstacles and predators, so that
/// `--init` resumes it. `steps` may be 0 only with `save` (to export the initial state).
///
/// # Errors
/// [`RunError`] naming the file, field, setting or limit at fault.
pub fn run(opts: &HeadlessArgs, stop: &Stop) -> Result<HeadlessReport, RunError> {
    if opts.stats_every == 0 {
        return Err(RunError::Conflict(
            "--stats-every 0: give the steps between two rows, 1 or more".into(),
        ));
    }
    if opts.discard > 0 && opts.discard >= opts.steps {
        return Err(RunError::Conflict(format!(
            "--discard {} with --steps {} measures nothing: discard fewer steps than are run \
             (allowed 0 ..= {})",
            opts.discard,
            opts.steps,
            opts.steps.saturating_sub(1)
        )));
    }
    // A setting of what is measured with nothing measured, or measuring nothing, is refused
    // rather than ignored (as an analysis's setting without an analysis is).
    // (--fluctuations takes its snapshots at the --stats rows, else the final state alone.)
    let measured = opts.stats.is_some() || !opts.analyses.analyse.is_empty();
    if opts.discard > 0 && !measured {
        return Err(RunError::Conflict(format!(
            "--discard {} with nothing measured: it leaves the first steps out of --stats (and \
             of --fluctuations' snapshots at its rows) and of --analyse; give one, or drop \
             --discard",
            opts.discard
        )));
    }
    // The rows --stats measures: the multiples of --stats-every past --discard, up to --steps.
    let stats_rows = opts.steps / opts.stats_every - opts.discard / opts.stats_every;
    if opts.stats.is_some() && stats_rows == 0 {
        return Err(RunError::Conflict(format!(
            "--stats-every {} with --steps {} and --discard {} writes no row to --stats (a row \
             is each step that is a multiple of {0} after the first {2}): give a smaller \
             --stats-every or more --steps",
            opts.stats_every, opts.steps, opts.discard
        )));
    }
    if opts.trajectory.is_some() && opts.every == 0 {
        return Err(RunError::Conflict(
            "--every 0: give the steps between two trajectory frames, 1 or more".into(),
        ));
    }
    if opts.steps == 0 && opts.save.is_none() {
        return Err(RunError::Conflict(
            "--steps 0 runs no step and saves nothing: give at least 1 step, or --save FILE to \
             export the initial state"
                .into(),
        ));
    }
    check_outputs_differ(opts)?;
    if !opts.analyses.any() {
        opts.analyses.options.refuse_unused()?;
    }
    let inputs = Inputs::load(opts.setup.scene.as_deref(), opts.init.as_deref())?;
    let mut spec = resolve(
        &inputs,
        &opts.setup.overrides(opts.boids),
        &Defaults {
            spawn: opts.spawn,
            ..Defaults::headless(20_000)
        },
    )?;
    // A scene's `spawn` is the app's start; this command starts as --spawn says (uniform unless
    // given), which a scene that starts otherwise is told.
    let scene_spawn = inputs.scene.as_ref().and_then(|s| s.spawn);
    if let (Some(s), None) = (scene_spawn.filter(|&s| s != opts.spawn), &opts.init) {
        let name =
            |s: Spawn| clap::ValueEnum::to_possible_value(&s).map(|v| v.get_name().to_string());
        let (scene, used) = (
            name(s).unwrap_or_default(),
            name(opts.spawn).unwrap_or_default(),
        );
        spec.warnings.push(format!(
            "the scene's spawn = \"{scene}\" (the app's start) is not used: the boids start \
             {used} (--spawn {scene} for the scene's start)"
        ));
    }
    let ctx = match opts.backend {
        BackendKind::Gpu => Some(GpuContext::new()?),
        _ => None,
    };
    let device = match &ctx {
        Some(c) => format!("{}, neighbour gather {}", c.describe(), c.gather().name()),
        None => format!("CPU, {} rayon threads", rayon::current_num_threads()),
    };
    let setup = &spec.setup;
    let mut sim = backend::create(opts.backend, setup, ctx.as_ref())?;
    if spec.catches_total > 0 {
        sim.set_catches_total(spec.catches_total)?;
    }
    if opts.fluctuations.is_some() {
        let p = sim.params();
        fluctuations::check_count(sim.len(), p.world_width, p.world_height)?;
    }
    let trajectory = match &opts.trajectory {
        Some(path) => {
            let run = trajectory::run_description(setup.seed, opts.every, sim.as_ref());
            Some(Trajectory::start(
                path,
                opts.every,
                opts.force,
                run,
                sim.as_mut(),
            )?)
        }
        None => None,
    };
    let analyses = match opts.analyses.any() {
        true => Some(start_analyses(opts, sim.as_mut())?),
        false => None,
    };
    let mut rec = Recorder {
        analyses,
        analyse_every: opts.analyses.every(HEADLESS_ANALYSE_EVERY)?,
        trajectory,
        flocks: opts.flocks,
        times: Vec::with_capacity(opts.steps as usize),
        stages: Vec::new(),
        rows: Vec::new(),
        discard: opts.discard,
        snapshots: Snapshots::new(
            opts.fluctuations.is_some() && opts.stats.is_some(),
            u64::from(stats_rows),
        ),
    };
    let schedule = Schedule {
        warmup: 0,
        steps: opts.steps,
        measure_every: if opts.stats.is_some() {
            opts.stats_every
        } else {
            0
        },
        timed: true,
    };
    let ended = run_steps(sim.as_mut(), &schedule, stop, &mut || {}, &mut rec)?;
    if let Some(t) = &mut rec.trajectory {
        // The last step, when it fell between two frames (or the run was interrupted).
        t.finish(sim.as_mut())?;
    }
    // The files are written whole: a signal now quits at once, removing a temporary file.
    stop.quit_on_signal();
    // An analysis that cannot be finished (too few states whose velocities fluctuate, …) loses
    // nothing else: the other analyses, the measures and the state are written, then its error
    // is the run's.
    let mut unfinished = Vec::new();
    let analyses = match &rec.analyses {
        Some((a, states)) => {
            let curves;
            (curves, unfinished) = finished_curves(&opts.analyses.analyse, a.each_curve());
            let time = sim.params().model.desc().speed.time;
            let subtitle = match states {
                1 => format!("{} boids · 1 state", sim.len()),
                _ => format!(
                    "{} boids · {states} states, {} steps apart",
                    sim.len(),
                    rec.analyse_every
                ),
            };
            write_curves(&curves, &subtitle, time_unit(time))?;
            Some((curves, *states))
        }
        None => None,
    };
    let measures = sim.measures()?;
    let measures = rec.with_census(measures, sim.as_mut())?;
    let order = order_statistics(sim.params(), sim.len(), &rec.rows, opts.stats_every);
    let columns = report_measures(sim.predator_count() > 0, opts.flocks);
    if let Some(path) = &opts.stats {
        write_stats(
            path,
            &columns,
            &rec.rows,
            setup.step,
            sim.params().dt,
            sim.params().model.desc().speed.time,
        )?;
    }
    let (w, h) = (sim.params().world_width, sim.params().world_height);
    let nf = match &opts.fluctuations {
        Some(path) => {
            if rec.snapshots.positions.is_empty() {
                rec.snapshots.positions.push(positions(sim.as_mut())?);
            }
            let nf = fluctuations(&rec.snapshots.positions, w, h);
            write_fluctuations(path, &nf)?;
            Some((nf, rec.snapshots.positions.len()))
        }
        None => None,
    };
    if let Some(path) = &opts.save {
        crate::run::checkpoint::save_final(
            path,
            sim.as_mut(),
            setup.seed,
            setup.actors.obstacles.clone(),
            measures.catches_total(),
        )?;
    }
    Ok(HeadlessReport {
        unfinished,
        device,
        boids: sim.len(),
        step_ms: TimeStats::from_ms(&rec.times),
        measures,
        columns,
        stage_median_ms: rec
            .stages
            .into_iter()
            .map(|(n, v)| (n, TimeStats::from_ms(&v).median_ms))
            .collect(),
        steps: rec.times.len() as u32,
        stats_rows: rec.rows.len(),
        discard: opts.discard,
        tau_int: stats_csv::order_parameter_tau(sim.params(), &rec.rows),
        stats_every: opts.stats_every,
        step_index: sim.step_index(),
        predators: sim.predator_count(),
        speed_unit: sim.params().model.desc().speed.unit,
        warnings: spec.warnings,
        interrupted: matches!(ended, Ended::Interrupted(_)),
        order,
        world: [w, h],
        world_from: spec.world_from,
        fluctuations: nf,
        trajectory: rec.trajectory.as_ref().map(|t| (t.frames(), t.file_len())),
        analyses,
    })
}

/// Steps between two states of the analyses without `--analyse-every`.
pub const HEADLESS_ANALYSE_EVERY: u32 = 10;

/// The analyses of `opts` made for `sim` (their settings checked before any step), given the
/// initial state when nothing is discarded; with the states given so far.
fn start_analyses(
    opts: &HeadlessArgs,
    sim: &mut dyn Simulation,
) -> Result<(Analyses, u64), RunError> {
    let every = opts.analyses.every(HEADLESS_ANALYSE_EVERY)?;
    let p = sim.params().clone();
    let mut a = run_analyses(
        &descs(&opts.analyses.analyse),
        &opts.analyses.options,
        &p,
        opts.steps,
        opts.discard,
        every,
    )?;
    let mut given = 0;
    if opts.discard == 0 {
        give_state(&mut a, sim)?;
        given += 1;
    }
    Ok((a, given))
}

/// What a headless run records: each step's wall time and stage times, and the rows of `--stats`.
struct Recorder {
    /// With `--analyse`: the analyses and the states given to them.
    analyses: Option<(Analyses, u64)>,
    /// Steps between two states given to the analyses.
    analyse_every: u32,
    /// With `--trajectory`: its writer, given every step.
    trajectory: Option<Trajectory>,
    flocks: bool,
    times: Vec<f64>,
    stages: Vec<(String, Vec<f64>)>,
    /// (step index, step time (ms), measures).
    rows: Vec<(u32, f64, FlockMeasures)>,
    /// Steps (1-based) up to which nothing is measured (`--discard`).
    discard: u32,
    /// The positions taken for `--fluctuations`.
    snapshots: Snapshots,
}

/// The boids' positions (wu).
fn positions(sim: &mut dyn Simulation) -> Result<Vec<[f32; 2]>, RunError> {
    Ok(sim.read_state()?.iter().map(|b| b.position).collect())
}

impl Recorder {
    /// `m`, the measures of the current state, with its flock census when asked for.
    fn with_census(
        &self,
        m: FlockMeasures,
        sim: &mut dyn Simulation,
    ) -> Result<FlockMeasures, RunError> {
        if !self.flocks {
            return Ok(m);
        }
        let p = sim.params().clone();
        let state = sim.read_state()?;
        let census = flock_census(&state, p.perception_radius, World::of(&p), FLOCK_MIN_BOIDS);
        Ok(m.with_census(&census))
    }
}

impl Observer for Recorder {
    fn stepped(
        &mut self,
        k: u32,
        wall_ms: Option<f64>,
        sim: &mut dyn Simulation,
    ) -> Result<(), RunError> {
        if let Some(t) = &mut self.trajectory {
            t.stepped(k, wall_ms, sim)?;
        }
        if let Some((a, given)) = &mut self.analyses {
            if k >= self.discard && (k - self.discard).is_multiple_of(self.analyse_every) && k > 0 {
                give_state(a, sim)?;
                *given += 1;
            }
        }
        self.times.push(wall_ms.unwrap_or(0.0));
        for (name, t) in sim.stage_times() {
            match self.stages.iter_mut().find(|(n, _)| *n == name) {
                Some((_, v)) => v.push(t),
                None => self.stages.push((name, vec![t])),
            }
        }
        Ok(())
    }

    fn measured(
        &mut self,
        k: u32,
        m: &FlockMeasures,
        sim: &mut dyn Simulation,
    ) -> Result<(), RunError> {
        if k <= self.discard {
            return Ok(());
        }
        let m = self.with_census(*m, sim)?;
        if self.snapshots.take_this_row() {
            self.snapshots.positions.push(positions(sim)?);
        }
        let ms = self.times.last().copied().unwrap_or(0.0);
        self.rows.push((sim.step_index(), ms, m));
        Ok(())
    }
}

/// The measures a run reports (the summary's lines and the `--stats` columns), in table order:
/// every average over the boids, the catches when there are `predators`, the flock census when
/// `flocks` is asked for. `--stats` writes the simulated time since the run's first step before
/// the census columns, in the model's unit: `time_s` (s), `time_steps` for the Vicsek model.
pub fn report_measures(predators: bool, flocks: bool) -> Vec<&'static Measure> {
    MEASURES
        .iter()
        .filter(|m| match m.needs() {
            Needs::Sums | Needs::SumsAndNeighbors => true,
            Needs::Catches => predators,
            Needs::Census => flocks,
            Needs::Series => false,
        })
        .collect()
}
