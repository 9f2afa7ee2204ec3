//! The one place where a sweep calls into the simulator: the run layer's setup
//! ([`crate::run::spec::resolve`]), the backend (the driver's [`Device`]: a new one for the CPU
//! backends, for `gpu` one backend per sweep, reset per point) and the run layer's step loop
//! ([`crate::run::steps::run_steps`]) all happen inside [`run_one`].
//!
//! How a point's setup is resolved, in order:
//! 1. the scene (or the defaults), `--boids` (or the `boids` value of the point, or the scene's
//!    count, else 20 000), the seed, every `--set` and then the point's swept values (as settings)
//!    go through the run layer, as for `boids headless`: unless the
//!    scene fixes the world size, the world is a square sized to the count at the default density
//!    (0.01 boids/wu²) — so a `boids` sweep keeps the density and grows the world, while a scene
//!    that fixes the world keeps it and the density grows with the count;
//! 2. each swept [`crate::model::SimParams`] field is set by its key like a `--set`: any
//!    numeric parameter of the table can be swept, an unknown name is refused with the nearest
//!    known ones, a parameter the model does not use is refused naming the model's;
//! 3. a `density` value (boids/wu²) re-sizes the world last, keeping its aspect ratio, to
//!    count / density wu² — also when the scene fixes the world (the sweep asks for it); a
//!    density whose world side would fall outside 3 perception radii ..= 10⁶ wu is refused;
//! 4. the count and every parameter are validated, and every swept parameter must be one the
//!    model uses (its own and the shared ones its rules read: a sweep of `vicsek_eta` on a boids
//!    scene is refused, naming the model and its parameters).

use crate::analysis::{Analyses, AnalysisError};
use crate::backend::{BackendKind, Costs, Simulation};
use crate::model::measures::MeasureId;
use crate::model::FlockMeasures;
use crate::run::analyses::{give_state, run_analyses};
use crate::run::args::Set;
use crate::run::driver::Device;
use crate::run::provenance::AdapterSummary;
use crate::run::spec::{resolve, Defaults, Inputs, Overrides};
use crate::run::steps::{run_steps, Observer, Schedule, Stop};
use crate::run::RunError;
use crate::sweep::plan::AnalysisPlan;

/// Boid count when neither `--boids`, a `boids` axis nor the scene gives one (as `boids headless`).
pub const DEFAULT_BOIDS: usize = 20_000;

pub use crate::sweep::plan::SPECIAL;

/// What to resolve (and run).
pub struct RunRequest<'a> {
    /// The scene, read once.
    pub inputs: &'a Inputs,
    /// Backend.
    pub backend: BackendKind,
    /// `--boids`.
    pub boids: Option<usize>,
    /// The seed (None: the scene's, else 1).
    pub seed: Option<u32>,
    /// `--set KEY=VALUE`, applied before the point's own values.
    pub sets: &'a [Set],
    /// `--keep-world`.
    pub keep_world: bool,
    /// The swept names and the point's values (a categorical value as its index in its axis).
    pub settings: Vec<(String, f64)>,
    /// The sweep's axes, for the names of categorical values.
    pub axes: &'a [crate::sweep::plan::Axis],
    /// The state the run starts from.
    pub start: crate::sweep::plan::Start,
    /// Steps to run; 0 resolves and checks only (no backend is made, but the GPU context is, so
    /// a missing adapter or a count over its limits is found before any run).
    pub steps: u32,
    /// Steps run before the measures are recorded.
    pub discard: u32,
    /// `--analyse`: the analyses whose scalar summaries the run records.
    pub analyses: Option<&'a AnalysisPlan>,
    /// The steps of a run of the sweep (its `--steps`; `steps` is 0 when only checking), for
    /// checking the analyses' settings against the states a run gives them.
    pub run_steps: u32,
    /// Where to save the run's final state as a checkpoint (a hysteresis chain's next run starts
    /// from it), written whole.
    pub save: Option<std::path::PathBuf>,
}

/// The analyses of `plan` for a run of `params` with `steps` steps of which `discard` are
/// discarded: its states at the end of the discarded steps and every `plan.every()` steps after.
fn make_analyses(
    plan: &AnalysisPlan,
    params: &crate::model::SimParams,
    steps: u32,
    discard: u32,
) -> Result<Analyses, RunError> {
    let descs = plan
        .descs()
        .map_err(|e| RunError::Conflict(e.to_string()))?;
    run_analyses(&descs, &plan.options, params, steps, discard, plan.every())
}

/// A resolved (and possibly run) point.
pub struct RunOutput {
    /// Boid count.
    pub boids: usize,
    /// World width and height (wu).
    pub world: [f32; 2],
    /// The seed used.
    pub seed: u32,
    /// The parameters used (their scene-file form).
    pub params: serde_json::Value,
    /// The adapter, for a GPU run.
    pub adapter: Option<AdapterSummary>,
    /// The measures after each step past `discard`, in [`crate::sweep::measures`] order.
    pub samples: Vec<Vec<f64>>,
    /// The name of the model's order parameter (a measure of [`crate::sweep::measures`]).
    pub order_parameter: &'static str,
    /// Where a GPU run's time went (None for the CPU backends and for a point only resolved).
    pub costs: Option<Costs>,
    /// The analyses' scalar summaries ([`crate::sweep::plan::PlanSpec::scalar_columns`]
    /// order; `None` where one does not exist, as ξ without a zero of C); empty without
    /// `--analyse` or for a point only resolved.
    pub scalars: Vec<Option<f64>>,
    /// Why an analysis of the run could not be finished (its summaries are `None`): the sweep
    /// goes on, and says so.
    pub analysis_errors: Vec<AnalysisError>,
}

/// The sweep's samples: each measured step's values of [`crate::sweep::measures`].
struct Samples {
    ids: Vec<MeasureId>,
    rows: Vec<Vec<f64>>,
    /// Catches so far, at the last step measured (saved with the final state).
    catches_total: u32,
}

impl Observer for Samples {
    fn measured(
        &mut self,
        _k: u32,
        m: &FlockMeasures,
        _sim: &mut dyn Simulation,
    ) -> Result<(), RunError> {
        self.catches_total = m.catches_total();
        self.rows.push(sample_of(&self.ids, m));
        Ok(())
    }
}

/// A point resolved and checked, not yet run.
pub struct Prepared {
    /// What the run gives, before its samples, costs and scalars.
    pub out: RunOutput,
    /// What it starts from.
    pub spec: crate::run::spec::RunSpec,
    /// Its analyses, with `--analyse`.
    pub analyses: Option<Analyses>,
}

/// Resolves the setup of one point through the run layer, validates it, and runs it when
/// `req.steps > 0`, calling `on_step` after every step.
///
/// # Errors
/// [`RunError`] naming the scene file, parameter, value and allowed range, or the backend's error.
pub fn run_one(
    req: &RunRequest<'_>,
    device: &mut Device,
    on_step: &mut dyn FnMut(),
) -> Result<RunOutput, RunError> {
    let prepared = prepare(req, device)?;
    if req.steps == 0 {
        return Ok(prepared.out);
    }
    run_prepared(req, prepared, device, on_step)
}

/// The measures a sweep samples, as their ids (in [`crate::sweep::measures`] order).
pub fn sampled_ids() -> Vec<MeasureId> {
    crate::sweep::measures()
        .iter()
        .map(|m| MeasureId::by_name(m.name).expect("a measure of the table"))
        .collect()
}

/// One step's sample: the values of `ids` (NaN where a measure has none).
pub fn sample_of(ids: &[MeasureId], m: &FlockMeasures) -> Vec<f64> {
    ids.iter()
        .map(|id| m.get(*id).unwrap_or(f64::NAN))
        .collect()
}

/// Resolves and checks the point of `req` (the GPU context made, for a GPU run, so a missing
/// adapter or a count over its limits is found here).
///
/// # Errors
/// As [`run_one`].
pub fn prepare(req: &RunRequest<'_>, device: &mut Device) -> Result<Prepared, RunError> {
    let get = |name: &str| req.settings.iter().find(|(n, _)| n == name).map(|s| s.1);
    let boids = match get("boids") {
        Some(v) if v.fract() != 0.0 || !(1.0..=1e12).contains(&v) => {
            return Err(RunError::Conflict(format!(
                "boids = {v}: the boid count is a whole number ≥ 1"
            )))
        }
        Some(v) => Some(v as usize),
        None => req.boids,
    };
    // The point's values are settings like `--set`, applied after the command line's.
    let mut sets: Vec<Set> = req.sets.to_vec();
    sets.extend(
        req.settings
            .iter()
            .filter(|(n, _)| !SPECIAL.contains(&n.as_str()))
            .map(|(n, v)| Set {
                key: n.clone(),
                // A categorical value by its name.
                value: req
                    .axes
                    .iter()
                    .find(|a| a.name == *n)
                    .map_or_else(|| v.to_string(), |a| a.text(*v)),
            }),
    );
    let mut spec = resolve(
        req.inputs,
        &Overrides {
            boids,
            seed: req.seed,
            sets: &sets,
            keep_world: req.keep_world,
        },
        &Defaults::headless(DEFAULT_BOIDS),
    )
    .map_err(|e| match e {
        // A swept value is a `--param`, not a `--set`.
        RunError::Set { key, source, .. } if req.settings.iter().any(|(n, _)| *n == key) => {
            RunError::Conflict(format!("--param {key}: {source}"))
        }
        e => e,
    })?;
    let n = spec.setup.boids.len();
    if let Some(d) = get("density") {
        let p = &mut spec.setup.params;
        let aspect = p.world_width / p.world_height;
        let sized = p.clone().with_world_for_aspect(n, d as f32, aspect);
        let got = n as f64 / (sized.world_width as f64 * sized.world_height as f64);
        if !(d > 0.0 && ((got - d) / d).abs() < 1e-3) {
            let min_side = p.smallest_sized_side() as f64;
            let which = match p.neighborhood {
                crate::model::Neighborhood::Metric => "3 perception radii",
                crate::model::Neighborhood::Topological | crate::model::Neighborhood::Voronoi => {
                    "3 separation radii or 1 wu"
                }
            };
            return Err(RunError::Conflict(format!(
                "density = {d} is out of range at {n} boids: allowed {} ..= {} boids/wu² (a \
                 world side between {which}, {min_side} wu, and 1e6 wu)",
                n as f64 / 1e12,
                n as f64 / (min_side * min_side)
            )));
        }
        // The scene's obstacles and predators go with the world: their places scaled as its
        // sides (radii and speeds kept), as a scene that fixes its world is scaled to a count.
        let (fx, fy) = (
            sized.world_width / p.world_width,
            sized.world_height / p.world_height,
        );
        let (w, h) = (sized.world_width, sized.world_height);
        let inside = |v: f32, side: f32| if v < side { v } else { side.next_down() };
        let scale = |q: [f32; 2]| [inside(q[0] * fx, w), inside(q[1] * fy, h)];
        let actors = &mut spec.setup.actors;
        for o in &mut actors.obstacles {
            *o = scale(*o);
        }
        for pr in &mut actors.predators {
            pr.position = scale(pr.position);
        }
        *p = sized;
        p.validate()?;
        // The boids spawned in the resized world.
        spec.setup.boids = crate::model::initial_state(spec.setup.seed, n, p);
    }
    match req.start {
        crate::sweep::plan::Start::Ordered => {
            crate::model::spawn::align_headings(&mut spec.setup.boids, &spec.setup.params);
        }
        crate::sweep::plan::Start::Group => {
            let (seed, p) = (spec.setup.seed, &spec.setup.params);
            spec.setup.boids = crate::model::spawn::group_state(seed, n, p);
        }
        _ => {}
    }
    let params = &spec.setup.params;
    let mut out = RunOutput {
        boids: n,
        world: [params.world_width, params.world_height],
        seed: spec.setup.seed,
        // Through text, so the f32 fields read 1.2, not 1.2000000476837158.
        params: serde_json::to_string(params)
            .and_then(|t| serde_json::from_str(&t))
            .expect("parameters serialise to JSON"),
        adapter: None,
        samples: Vec::new(),
        order_parameter: params.model.desc().order_parameter,
        costs: None,
        scalars: Vec::new(),
        analysis_errors: Vec::new(),
    };
    // The analyses' settings are checked against this point's world and run before any step.
    let analyses = match req.analyses {
        Some(plan) => Some(make_analyses(plan, params, req.run_steps, req.discard)?),
        None => None,
    };
    if req.backend == BackendKind::Gpu {
        let c = device.context()?;
        crate::gpu::buffers::check_boids(c, n as u64)?;
        out.adapter = Some(AdapterSummary::of(c));
    }
    Ok(Prepared {
        out,
        spec,
        analyses,
    })
}

/// Runs a prepared point, calling `on_step` after every step.
///
/// # Errors
/// The backend's error, or the analyses'.
pub fn run_prepared(
    req: &RunRequest<'_>,
    prepared: Prepared,
    device: &mut Device,
    on_step: &mut dyn FnMut(),
) -> Result<RunOutput, RunError> {
    let Prepared {
        mut out,
        spec,
        mut analyses,
    } = prepared;
    let gpu = req.backend == BackendKind::Gpu;
    let adapter_ms = device.take_adapter_ms();
    let sim = device.simulation(req.backend, &spec.setup)?;
    if spec.catches_total > 0 {
        sim.set_catches_total(spec.catches_total)?;
    }
    let (seed, obstacles) = (spec.setup.seed, spec.setup.actors.obstacles.clone());
    drop(spec);
    let discard = req.discard.min(req.steps);
    let mut samples = Samples {
        ids: sampled_ids(),
        rows: Vec::new(),
        catches_total: 0,
    };
    // The measures of every step past the discarded ones, read back in batches (not one wait
    // per step). A point runs whole: Ctrl-C stops the sweep between points. With analyses, the
    // batches end where a state is given to them: at the end of the discarded steps and every
    // `--analyse-every` steps after it.
    let measured = req.steps - discard;
    let schedule = |warmup: u32, steps: u32| Schedule {
        warmup,
        steps,
        measure_every: 1,
        timed: false,
    };
    let stop = Stop::default();
    match &mut analyses {
        None => {
            run_steps(
                sim,
                &schedule(discard, measured),
                &stop,
                on_step,
                &mut samples,
            )?;
        }
        Some(a) => {
            let every = req.analyses.map_or(1, AnalysisPlan::every);
            run_steps(sim, &schedule(discard, 0), &stop, on_step, &mut samples)?;
            give_state(a, sim)?;
            let mut done = 0;
            while done < measured {
                let n = every.min(measured - done);
                run_steps(sim, &schedule(0, n), &stop, on_step, &mut samples)?;
                done += n;
                if n == every {
                    give_state(a, sim)?;
                }
            }
            (out.scalars, out.analysis_errors) = a.scalars();
        }
    }
    if let Some(path) = &req.save {
        // As `boids headless --save` writes it: `--init` of this file goes on from here.
        crate::run::checkpoint::save_final(path, sim, seed, obstacles, samples.catches_total)?;
    }
    out.samples = samples.rows;
    if gpu {
        let mut c = sim.take_costs().unwrap_or_default();
        c.adapter_ms = adapter_ms;
        out.costs = Some(c);
    }
    Ok(out)
}
