//! `boids headless`: runs a backend for a number of steps without a window, prints the step time
//! (median, p95) and the flock measures, and optionally saves the final state as a checkpoint and
//! the per-step measures. `--init` resumes a checkpoint (see [`RESUME_RULE`]).

use std::path::PathBuf;
use std::time::Instant;

use crate::backend::{self, BackendKind};
use crate::bench::stats::TimeStats;
use crate::gpu::GpuContext;
use crate::model::measures::FLOCK_MIN_BOIDS;
use crate::model::measures::{Measure, MeasureId, Needs, MEASURES};
use crate::model::state_csv::{save_checkpoint, Checkpoint, StateFile};
use crate::model::{flock_census, Actors, FlockMeasures, Scene, Setup, World};

/// Options of `boids headless`.
#[derive(Clone, Debug)]
pub struct HeadlessOptions {
    /// Backend.
    pub backend: BackendKind,
    /// Boid count (None: the initial state's, the scene's or 20 000).
    pub boids: Option<usize>,
    /// Steps to run (0 only with `save`: exports the initial state).
    pub steps: u32,
    /// Seed (None: the scene's, the checkpoint's or 1).
    pub seed: Option<u32>,
    /// Scene file.
    pub scene: Option<PathBuf>,
    /// Initial state: a checkpoint or a plain state CSV. A checkpoint that holds predators starts
    /// them where they were saved (the scene's predators are then not used); otherwise the scene's
    /// predators start where the scene places them.
    pub init: Option<PathBuf>,
    /// Final state, written as a checkpoint.
    pub save: Option<PathBuf>,
    /// Measures CSV: one row every `stats_every` steps.
    pub stats: Option<PathBuf>,
    /// Steps between two rows of the measures CSV (at least 1).
    pub stats_every: u32,
    /// Also count the flocks (docs/model.md §12.6) in each row of the measures CSV and of the final
    /// state: adds the columns `time_s`, `flocks`, `largest_flock`, `flocked_fraction`,
    /// `hue_coherence`.
    pub flocks: bool,
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
    /// Step index of the final state (the initial state's plus the steps run).
    pub step_index: u32,
    /// Predators in the world (from the scene).
    pub predators: usize,
    /// What the loader changed in the initial state (speeds clamped, hue vectors normalised).
    /// The unit of `measures.mean_speed`: wu per step in the Vicsek model (docs/model.md §16.1),
    /// else wu/s.
    pub speed_unit: &'static str,
    pub warnings: Vec<String>,
}

/// How `boids headless` combines `--init`, `--scene`, `--seed` and `--boids` (also its `--help`).
pub const RESUME_RULE: &str = "\
Resuming: a checkpoint given to --init (written by --save or by the app's script `state`)
resumes as saved: parameters, world size, seed, step index, obstacles and boids from the file.
--scene replaces its parameters and obstacles (the world size stays the file's unless the scene
writes one); a seed in the scene, or --seed, replaces its seed (--seed wins); the step index is
always the file's. A plain state CSV (no metadata) takes everything but the boids from --scene
or the defaults, as a run without --init. --boids, when given, must equal the file's count.";

/// Runs `boids headless`.
///
/// The initial state comes from `--init` (see [`RESUME_RULE`]) or is spawned from the seed; the
/// final state is saved as a checkpoint ([`crate::model::state_csv::save_checkpoint`]) in the
/// backend's storage order, with the parameters, seed, step index and obstacles, so that
/// `--init` resumes it. `steps` may be 0 only with `save` (to export the initial state).
///
/// # Errors
/// A message naming the file, field or limit at fault.
pub fn run(opts: &HeadlessOptions) -> Result<HeadlessReport, String> {
    if opts.stats_every == 0 {
        return Err("--stats-every 0: give the steps between two rows, 1 or more".into());
    }
    if opts.steps == 0 && opts.save.is_none() {
        return Err(
            "--steps 0 runs no step and saves nothing: give at least 1 step, or \
                    --save FILE to export the initial state"
                .into(),
        );
    }
    let scene = match &opts.scene {
        Some(p) => Some(Scene::load(p).map_err(|e| e.to_string())?),
        None => None,
    };
    let mut file = match &opts.init {
        Some(p) => Some(StateFile::read(p).map_err(|e| e.to_string())?),
        None => None,
    };
    if let (Some(n), Some(f)) = (opts.boids, &file) {
        if n != f.boids.len() {
            return Err(format!(
                "--boids {n} disagrees with the {} boids of {}: leave out --boids to use the file's",
                f.boids.len(),
                crate::io::show_path(&f.path)
            ));
        }
    }
    let meta = file.as_ref().and_then(|f| f.meta.clone());
    // A checkpoint's running total of catches carries on (docs/model.md §18.4).
    let catches_total = meta.as_ref().map_or(0, |m| m.catches_total);
    // The predators: a checkpoint's where they were saved, else the scene's.
    let saved_predators = meta.as_ref().is_some_and(|m| !m.predators.is_empty());
    let predators = match &meta {
        Some(m) if !m.predators.is_empty() => m.predators.iter().map(|p| p.predator()).collect(),
        _ => scene
            .as_ref()
            .map(|s| s.actors().predators)
            .unwrap_or_default(),
    };
    let (params, n, seed, obstacles, step, source) = match (meta, &file) {
        (Some(m), Some(f)) => {
            let shown = crate::io::show_path(&f.path);
            let (params, obstacles, source) = match &scene {
                Some(s) => {
                    let mut p = s.params.clone();
                    let mut source = format!("the scene {}", show(opts.scene.as_deref()));
                    if !s.world_is_fixed() {
                        p.world_width = m.params.world_width;
                        p.world_height = m.params.world_height;
                        source = format!("the metadata of {shown}");
                    }
                    (p, s.obstacles.clone(), source)
                }
                None => (
                    m.params.clone(),
                    m.obstacles.clone(),
                    format!("the metadata of {shown}"),
                ),
            };
            let seed = opts
                .seed
                .or(scene.as_ref().and_then(|s| s.seed))
                .unwrap_or(m.seed);
            (params, m.boids, seed, obstacles, m.step, source)
        }
        _ => {
            let (params, n, seed, actors) = Setup::resolve_params(
                scene.as_ref(),
                opts.boids.or(file.as_ref().map(|f| f.boids.len())),
                opts.seed,
                20_000,
                1.0,
            );
            let obstacles = actors.obstacles;
            let source = match &scene {
                Some(s) if s.world_is_fixed() => {
                    format!("the scene {}", show(opts.scene.as_deref()))
                }
                _ => format!(
                    "the default density for {n} boids; a plain state CSV carries no world size: \
                     give a scene that writes world_width and world_height"
                ),
            };
            (params, n, seed, obstacles, 0, source)
        }
    };
    params.validate().map_err(|e| e.to_string())?;
    crate::model::validate_boid_count(n).map_err(|e| e.to_string())?;
    if let Some(s) = &scene {
        // The scene's points that the run uses, in its world (a checkpoint's own predators
        // replace the scene's; `conform` checks those).
        let checked = if saved_predators {
            std::borrow::Cow::Owned(Scene {
                predators: Vec::new(),
                ..s.clone()
            })
        } else {
            std::borrow::Cow::Borrowed(s)
        };
        checked.check_inside(&params).map_err(|e| e.to_string())?;
    }
    let mut warnings = Vec::new();
    if let Some(f) = &mut file {
        f.conform(&params, &source).map_err(|e| e.to_string())?;
        warnings = f.warnings();
    }
    let boids = match file {
        Some(f) => f.boids,
        None => crate::model::initial_state(seed, n, &params),
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
    let setup = Setup {
        params,
        seed,
        step,
        boids,
        actors: Actors {
            obstacles: obstacles.clone(),
            predators,
        },
    };
    let mut sim = backend::create(opts.backend, &setup, ctx.as_ref()).map_err(|e| e.to_string())?;
    drop(setup);
    if catches_total > 0 {
        sim.set_catches_total(catches_total)
            .map_err(|e| e.to_string())?;
    }

    let mut times = Vec::with_capacity(opts.steps as usize);
    let mut stage_samples: Vec<(String, Vec<f64>)> = Vec::new();
    let mut rows: Vec<(u32, f64, FlockMeasures)> = Vec::new();
    let measured =
        |sim: &mut Box<dyn crate::simulation::Simulation>| -> Result<FlockMeasures, String> {
            let m = sim.measures().map_err(|e| e.to_string())?;
            if !opts.flocks {
                return Ok(m);
            }
            let p = sim.params().clone();
            let state = sim.read_state().map_err(|e| e.to_string())?;
            let census = flock_census(&state, p.perception_radius, World::of(&p), FLOCK_MIN_BOIDS);
            Ok(m.with_census(&census))
        };
    for k in 1..=opts.steps {
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
        if opts.stats.is_some() && k % opts.stats_every == 0 {
            rows.push((sim.step_index(), ms, measured(&mut sim)?));
        }
    }
    let measures = measured(&mut sim)?;
    let columns = report_measures(sim.predator_count() > 0, opts.flocks);
    if let Some(path) = &opts.stats {
        let mut w = csv::Writer::from_writer(Vec::new());
        let io = |e: csv::Error| format!("{}: {e}", path.display());
        // Simulated time since the run's first step goes before the census columns.
        let time_at = columns.iter().position(|m| m.needs == Needs::Census);
        let mut header = vec!["step", "step_ms"];
        for (k, m) in columns.iter().enumerate() {
            if Some(k) == time_at {
                header.push("time_s");
            }
            header.push(m.name);
        }
        w.write_record(&header).map_err(io)?;
        let dt = sim.params().dt as f64;
        for (s, ms, m) in &rows {
            let mut row = vec![s.to_string(), format!("{ms:.4}")];
            for (k, c) in columns.iter().enumerate() {
                if Some(k) == time_at {
                    let t = s.wrapping_sub(step) as f64 * dt;
                    row.push(format!("{t:.4}"));
                }
                let id = MeasureId::by_name(c.name).expect("a measure of the table");
                // Written as f32, the precision the backends compute in.
                row.push(
                    m.get(id)
                        .map_or_else(String::new, |v| (v as f32).to_string()),
                );
            }
            w.write_record(&row).map_err(io)?;
        }
        let bytes = w.into_inner().map_err(|e| e.to_string())?;
        crate::io::write_atomic(path, &bytes).map_err(|e| e.to_string())?;
    }
    if let Some(path) = &opts.save {
        // Storage order, not sorted: a resumed backend then visits the boids in the same order.
        let cp = Checkpoint {
            params: sim.params().clone(),
            seed,
            step: sim.step_index(),
            obstacles: obstacles.clone(),
            predators: sim
                .read_predators()
                .map_err(|e| e.to_string())?
                .iter()
                .map(crate::model::PredatorSpec::of)
                .collect(),
            catches_total: measures.catches_total(),
            boids: sim.read_state().map_err(|e| e.to_string())?,
        };
        save_checkpoint(path, &cp).map_err(|e| e.to_string())?;
    }
    Ok(HeadlessReport {
        device,
        boids: sim.len(),
        step_ms: TimeStats::from_ms(&times),
        measures,
        columns,
        stage_median_ms: stage_samples
            .into_iter()
            .map(|(n, v)| (n, TimeStats::from_ms(&v).median_ms))
            .collect(),
        step_index: sim.step_index(),
        predators: sim.predator_count(),
        speed_unit: sim.params().model.desc().speed.unit,
        warnings,
    })
}

/// The measures a run reports (the summary's lines and the `--stats` columns), in table order:
/// every average over the boids, the catches when there are `predators`, the flock census when
/// `flocks` is asked for. `--stats` writes `time_s` (simulated time since the run's first step, s)
/// before the census columns.
pub fn report_measures(predators: bool, flocks: bool) -> Vec<&'static Measure> {
    MEASURES
        .iter()
        .filter(|m| match m.needs {
            Needs::Sums | Needs::SumsAndNeighbors => true,
            Needs::Catches => predators,
            Needs::Census => flocks,
        })
        .collect()
}

/// A path for a message (`-` when absent).
fn show(p: Option<&std::path::Path>) -> String {
    p.map_or_else(|| "-".into(), crate::io::show_path)
}
