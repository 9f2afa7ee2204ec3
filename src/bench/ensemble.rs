//! `boids bench --replicas R,…`: the throughput of GPU ensembles (docs/sweeps.md, "Ensembles")
//! against the same replicas run one after another on one backend set up once, as an unbatched
//! sweep runs them.
//!
//! For each count N of `--boids` and each R of `--replicas`, from the scene (or the defaults) as
//! `boids bench` resolves a run of N boids, replica r from seed `seed + r`:
//! - **lone**: each replica in turn on one kept backend (reset per replica), `warmup` steps, then
//!   `steps` steps timed (submitted back to back, one wait at the end);
//! - **ensemble**: the R replicas as one ensemble, timed the same way;
//! - **one system** of R·N boids (the world scaled to keep the density; every replica's predators
//!   in it, as each lone run has its own), timed the same way: its
//!   step is the ensemble's work with one system's launches (and a lone run's pipelines, which
//!   do not search for each invocation's replica, so the ratio of the measured speed-up to the
//!   predicted one also holds the cost of the ensemble's search: docs/performance.md §4). With the lone step t(N) = L + b·N
//!   and the big one t(RN) = L + b·R·N (L: the launch term, b: the per-boid one, both measured
//!   here), the cost model predicts the ensemble's speed-up R·t(N) / t(RN); the table gives the
//!   measured speed-up, the predicted one and their ratio (L and b need R ≥ 2: a dash for R = 1).
//!
//! Each time is the median of [`SITTINGS`] measurements, the three kinds interleaved (lone,
//! ensemble, one system, then again), each after its own reset and warm-up; a count or R asked
//! for twice is measured once. The table is printed and written to the capture folder (`--out`,
//! default `captures/<UTC time>`, prepared as `boids bench` prepares its own) as `ensembles.csv`,
//! with the launch term L and the per-boid term b solved from t(N) and t(RN), and as
//! `ensembles.json` (the rows with the adapter, machine, tool and options), each whole. Steps
//! are untimed per stage (one compute pass a step).

use std::time::Instant;

use crate::backend::Simulation;
use crate::capture::error::BenchError;
use crate::capture::outdir::prepare_out_dir;
use crate::gpu::{GpuBackend, GpuContext, Replica};
use crate::model::Setup;
use crate::run::provenance::{now_rfc3339, AdapterSummary, SystemInfo, ToolInfo};
use crate::run::spec::{resolve, Defaults, Inputs};
use crate::run::RunError;
use crate::stats::format::format_ms;

use super::sweep::BenchConfig;

/// One row of the table: times are ms per step of the whole (R replicas, or one system).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EnsembleRow {
    /// Boids per replica.
    pub boids: usize,
    /// Replicas.
    pub replicas: usize,
    /// The R lone runs' steps, summed over the replicas, per step (ms).
    pub lone_ms: f64,
    /// The ensemble's step (ms).
    pub ensemble_ms: f64,
    /// One system of R·N boids: its step (ms).
    pub one_system_ms: f64,
}

impl EnsembleRow {
    /// Replica-steps per second of the ensemble.
    pub fn ensemble_rate(&self) -> f64 {
        self.replicas as f64 * 1e3 / self.ensemble_ms
    }
    /// Replica-steps per second of the lone runs.
    pub fn lone_rate(&self) -> f64 {
        self.replicas as f64 * 1e3 / self.lone_ms
    }
    /// The launch term L of t(N) = L + b·N (ms), from t(N) and t(RN); `None` for R = 1 (one
    /// count: the two terms are not separable).
    pub fn launch_ms(&self) -> Option<f64> {
        let t1 = self.lone_ms / self.replicas as f64;
        self.per_boid_ms().map(|b| t1 - self.boids as f64 * b)
    }
    /// The per-boid term b of t(N) = L + b·N (ms per boid), from t(N) and t(RN); `None` for
    /// R = 1.
    pub fn per_boid_ms(&self) -> Option<f64> {
        let t1 = self.lone_ms / self.replicas as f64;
        let extra = (self.replicas - 1) * self.boids;
        (extra > 0).then(|| (self.one_system_ms - t1) / extra as f64)
    }
    /// Measured speed-up of the ensemble over the lone runs.
    pub fn speedup(&self) -> f64 {
        self.lone_ms / self.ensemble_ms
    }
    /// The cost model's speed-up: R·t(N) / t(RN).
    pub fn predicted(&self) -> f64 {
        self.lone_ms / self.one_system_ms
    }
}

impl serde::Serialize for EnsembleRow {
    /// The measured times with what the table derives from them (the columns of the CSV).
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        serde_json::json!({
            "boids": self.boids,
            "replicas": self.replicas,
            "lone_ms": self.lone_ms,
            "ensemble_ms": self.ensemble_ms,
            "one_system_ms": self.one_system_ms,
            "launch_ms": self.launch_ms(),
            "per_boid_ms": self.per_boid_ms(),
            "lone_replica_steps_per_s": self.lone_rate(),
            "ensemble_replica_steps_per_s": self.ensemble_rate(),
            "speedup": self.speedup(),
            "predicted_speedup": self.predicted(),
        })
        .serialize(s)
    }
}

/// Measurements of each time (their median is kept).
pub const SITTINGS: usize = 3;

/// The median of `v` (sorted in place).
fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Times `steps` steps of `sim` after `warmup` (ms per step).
fn timed(sim: &mut dyn Simulation, warmup: u32, steps: u32) -> Result<f64, RunError> {
    for _ in 0..warmup {
        sim.step()?;
    }
    sim.finish()?;
    let t = Instant::now();
    for _ in 0..steps {
        sim.step()?;
    }
    sim.finish()?;
    Ok(t.elapsed().as_secs_f64() * 1e3 / f64::from(steps.max(1)))
}

/// The setup of a run of `n` boids with seed `seed` (`None`: the scene's).
fn setup(
    inputs: &Inputs,
    cfg: &BenchConfig,
    n: usize,
    seed: Option<u32>,
) -> Result<Setup, RunError> {
    let mut o = cfg.overrides(n);
    if seed.is_some() {
        o.seed = seed;
    }
    Ok(resolve(inputs, &o, &Defaults::headless(n))?.setup)
}

/// Measures one row.
fn row(
    ctx: &GpuContext,
    inputs: &Inputs,
    cfg: &BenchConfig,
    n: usize,
    r: usize,
) -> Result<EnsembleRow, RunError> {
    let base = setup(inputs, cfg, n, None)?.seed;
    let replicas: Vec<Replica> = (0..r)
        .map(|k| {
            let s = setup(inputs, cfg, n, Some(base.wrapping_add(k as u32)))?;
            Ok(Replica {
                params: s.params,
                seed: s.seed,
                boids: s.boids,
                predators: s.actors.predators,
            })
        })
        .collect::<Result<_, RunError>>()?;
    let first = &replicas[0];
    let mut gpu = GpuBackend::from_state(ctx, &first.params, &first.boids, first.seed)?;
    gpu.set_profiling(false);
    let big = setup(inputs, cfg, n * r, Some(base))?;
    // The one system holds every replica's predators: the ensemble's work.
    let big_predators: Vec<_> = replicas
        .iter()
        .flat_map(|rep| rep.predators.iter().cloned())
        .collect();
    let (mut lone, mut ens, mut one) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..SITTINGS {
        let mut sum = 0.0;
        for rep in &replicas {
            gpu.reset(&rep.params, &rep.boids, rep.seed)?;
            gpu.set_predators(&rep.predators)?;
            sum += timed(&mut gpu, cfg.warmup, cfg.steps)?;
        }
        lone.push(sum);
        gpu.reset_ensemble(&replicas)?;
        ens.push(timed(&mut gpu, cfg.warmup, cfg.steps)?);
        gpu.reset(&big.params, &big.boids, big.seed)?;
        gpu.set_predators(&big_predators)?;
        one.push(timed(&mut gpu, cfg.warmup, cfg.steps)?);
    }
    Ok(EnsembleRow {
        boids: n,
        replicas: r,
        lone_ms: median(&mut lone),
        ensemble_ms: median(&mut ens),
        one_system_ms: median(&mut one),
    })
}

/// The table's header line.
pub fn header() -> String {
    format!(
        "{:>8} {:>8} {:>10} {:>10} {:>10} {:>10} {:>10} {:>13} {:>13} {:>8} {:>9} {:>6}\n",
        "boids",
        "replicas",
        "lone",
        "ensemble",
        "one system",
        "launch L",
        "b·N",
        "lone rep-st/s",
        "ens. rep-st/s",
        "speed-up",
        "predicted",
        "ratio"
    )
}

/// The table's rows.
pub fn table(rows: &[EnsembleRow]) -> String {
    let mut out = String::new();
    for r in rows {
        out += &format!(
            "{:>8} {:>8} {:>10} {:>10} {:>10} {:>10} {:>10} {:>13.0} {:>13.0} {:>7.2}× {:>8.2}× {:>6.2}\n",
            r.boids,
            r.replicas,
            format_ms(r.lone_ms),
            format_ms(r.ensemble_ms),
            format_ms(r.one_system_ms),
            r.launch_ms().map_or("–".into(), format_ms),
            r.per_boid_ms()
                .map_or("–".into(), |b| format_ms(b * r.boids as f64)),
            r.lone_rate(),
            r.ensemble_rate(),
            r.speedup(),
            r.predicted(),
            r.speedup() / r.predicted()
        );
    }
    out
}

/// A value of the CSV, empty for none.
fn blank(v: Option<f64>) -> String {
    v.map_or(String::new(), |v| v.to_string())
}

/// The table as CSV (the launch and per-boid terms empty for R = 1).
fn csv(rows: &[EnsembleRow]) -> String {
    let mut out = String::from(
        "boids,replicas,lone_ms,ensemble_ms,one_system_ms,launch_ms,per_boid_ms,\
         lone_replica_steps_per_s,ensemble_replica_steps_per_s,speedup,predicted_speedup\n",
    );
    for r in rows {
        out += &format!(
            "{},{},{},{},{},{},{},{},{},{},{}\n",
            r.boids,
            r.replicas,
            r.lone_ms,
            r.ensemble_ms,
            r.one_system_ms,
            blank(r.launch_ms()),
            blank(r.per_boid_ms()),
            r.lone_rate(),
            r.ensemble_rate(),
            r.speedup(),
            r.predicted()
        );
    }
    out
}

/// What `ensembles.json` holds: where and how the table was measured, and its rows.
#[derive(serde::Serialize)]
struct EnsembleCapture<'a> {
    /// [`ENSEMBLES_SCHEMA`].
    schema: &'static str,
    created_utc: String,
    tool: ToolInfo,
    system: SystemInfo,
    adapter: AdapterSummary,
    /// The options: counts, replicas, steps, warm-up, sittings, scene, seed, settings.
    parameters: serde_json::Value,
    rows: &'a [EnsembleRow],
}

/// The schema of `ensembles.json`.
pub const ENSEMBLES_SCHEMA: &str = "boids-ensembles/1";

/// `values` without repeats, in their first order (a count asked for twice is measured once).
fn distinct(values: &[usize]) -> Vec<usize> {
    let mut out: Vec<usize> = Vec::with_capacity(values.len());
    for &v in values {
        if !out.contains(&v) {
            out.push(v);
        }
    }
    out
}

/// Runs the ensemble benchmark for the counts of `cfg` × `replicas` (each once) on `ctx`,
/// printing each row as it is measured, then writes `ensembles.csv` and `ensembles.json` (the
/// adapter, machine, tool and options beside the rows; each whole) into `cfg.out`, prepared as
/// `boids bench` prepares its capture folder.
///
/// # Errors
/// [`BenchError`] for a bad scene or setting, the folder refused, a backend's failure, or a file
/// not written.
pub fn run(
    cfg: &BenchConfig,
    ctx: &GpuContext,
    replicas: &[usize],
) -> Result<Vec<EnsembleRow>, BenchError> {
    if cfg.steps == 0 {
        return Err(BenchError::Config("--steps must be at least 1".into()));
    }
    let inputs = Inputs::load(cfg.scene.as_deref(), None)?;
    let (counts, replicas) = (distinct(&cfg.boids), distinct(replicas));
    // Refused before the folder is made or anything measured.
    for &n in &counts {
        let obstacles = setup(&inputs, cfg, n, None)?.actors.obstacles.len();
        if obstacles > 0 {
            return Err(RunError::Conflict(format!(
                "the scene has {obstacles} obstacles: an ensemble holds none (docs/sweeps.md, \
                 \"What splits an ensemble\"), so --replicas measures scenes without them"
            ))
            .into());
        }
    }
    prepare_out_dir(&cfg.out, cfg.create_out_parents, cfg.force)?;
    let created_utc = now_rfc3339();
    let mut rows = Vec::new();
    print!("{}", header());
    for &n in &counts {
        for &r in &replicas {
            rows.push(row(ctx, &inputs, cfg, n, r)?);
            print!("{}", table(&rows[rows.len() - 1..]));
        }
    }
    if rows
        .iter()
        .any(|r| r.per_boid_ms().is_some_and(|b| b < 0.0))
    {
        println!(
            "note: a negative b·N (one system of R·N boids stepped faster than one of N) is \
             timing noise, not a cost: raise --steps for a fit worth reading"
        );
    }
    let capture = EnsembleCapture {
        schema: ENSEMBLES_SCHEMA,
        created_utc,
        tool: ToolInfo::current(),
        system: SystemInfo::current(),
        adapter: AdapterSummary::of(ctx),
        parameters: serde_json::json!({
            "boids": counts,
            "replicas": replicas,
            "steps": cfg.steps,
            "warmup": cfg.warmup,
            "sittings": SITTINGS,
            "scene": cfg.scene.as_ref().map(|p| p.display().to_string()),
            "seed": cfg.seed,
            "set": cfg.sets.iter().map(|s| format!("{}={}", s.key, s.value)).collect::<Vec<_>>(),
            "keep_world": cfg.keep_world,
        }),
        rows: &rows,
    };
    let json =
        serde_json::to_vec_pretty(&capture).map_err(|e| BenchError::Config(e.to_string()))?;
    for (name, bytes) in [
        ("ensembles.csv", csv(&rows).into_bytes()),
        ("ensembles.json", json),
    ] {
        let path = cfg.out.join(name);
        crate::io::write_atomic(&path, &bytes).map_err(|e| BenchError::File {
            path: path.clone(),
            message: e.to_string(),
        })?;
    }
    println!("capture: {}", cfg.out.display());
    Ok(rows)
}
