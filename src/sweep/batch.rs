//! A batch of a sweep's GPU runs stepped as one ensemble (docs/sweeps.md, "Ensembles"): the runs
//! are resolved and checked one by one as [`run_one`] resolves them, their states become the
//! replicas of one [`crate::gpu::GpuBackend::ensemble`], and each run's samples are its
//! replica's measures — the bits its lone run gives, so the folder is the same as unbatched.
//!
//! With `--analyse` each replica's analyses take its states where a lone run's take them (every
//! replica's read back at once). Each replica has its own predators; a run whose final state is
//! saved (a hysteresis chain's) has its replica's saved as its lone run saves it.
//!
//! Within a batch, each stretch of consecutive runs with the same pipelines
//! ([`crate::gpu::backend::check_ensemble`]: model, neighbourhood search, field of view) and step
//! index is one ensemble; a run with obstacles or catches carried from a checkpoint runs alone, as
//! do all the batch's runs when one fails to resolve (it then fails as it would alone). An
//! ensemble that fails as a whole (an adapter's limit) is split in halves, down to lone runs (a
//! run that fails alone says why). The results are the same bits either way. The stop flag
//! (Ctrl-C) is polled between steps: an ensemble stopped before its end leaves its runs not done.

use std::time::Instant;

use crate::analysis::Analyses;
use crate::backend::BackendKind;
use crate::gpu::pipelines::Variant;
use crate::gpu::GpuBackend;
use crate::gpu::Replica;
use crate::model::loaded::Checkpoint;
use crate::model::{FlockMeasures, PredatorSpec};
use crate::run::analyses::give_boids;
use crate::run::checkpoint::save_checkpoint;
use crate::run::driver::{Device, WaveRun};
use crate::run::steps::Stop;
use crate::run::RunError;
use crate::stages::MAX_REPLICAS;
use crate::sweep::engine::{
    prepare, run_one, run_prepared, sample_of, sampled_ids, Prepared, RunOutput, RunRequest,
};
use crate::sweep::plan::AnalysisPlan;

/// Measured steps of an ensemble between two polls of the stop flag (and reads of its
/// measures).
const STOP_STEPS: u32 = 256;

/// Most boids of all the runs of one automatic batch: past a million, one run's step is no
/// longer bound by its launches, and batching gains nothing.
pub const AUTO_BATCH_BOIDS: usize = 1 << 20;

/// `--batch`: how many consecutive GPU runs are stepped as one ensemble.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Batch {
    /// As many as fit [`MAX_REPLICAS`] replicas and [`AUTO_BATCH_BOIDS`] boids.
    #[default]
    Auto,
    /// At most this many (1: one run at a time).
    Runs(u32),
}

impl Batch {
    /// Parses `auto` or a count 1 ..= [`MAX_REPLICAS`].
    ///
    /// # Errors
    /// The value and what is allowed.
    pub fn parse(text: &str) -> Result<Batch, String> {
        if text == "auto" {
            return Ok(Batch::Auto);
        }
        match text.parse::<u32>() {
            Ok(n) if (1..=MAX_REPLICAS).contains(&n) => Ok(Batch::Runs(n)),
            _ => Err(format!(
                "--batch {text}: allowed auto or a whole number 1 ..= {MAX_REPLICAS} (the most \
                 replicas of one ensemble)"
            )),
        }
    }

    /// What `summary.json` records of it (`method.batch`): the option and what it means.
    pub fn describe(self) -> String {
        match self {
            Batch::Auto => format!(
                "auto: consecutive GPU runs stepped as one ensemble, up to {MAX_REPLICAS} \
                 replicas and {AUTO_BATCH_BOIDS} boids"
            ),
            Batch::Runs(1) => "1: one GPU run at a time".into(),
            Batch::Runs(n) => format!("{n}: up to {n} consecutive GPU runs as one ensemble"),
        }
    }

    /// How many of the next runs, of `boids` boids each, go in one batch (at least 1).
    pub fn size(self, boids: impl Iterator<Item = usize>) -> usize {
        let most = match self {
            Batch::Auto => MAX_REPLICAS as usize,
            Batch::Runs(n) => n as usize,
        };
        let mut total = 0;
        let mut k = 0;
        for n in boids.take(most) {
            total += n;
            if k > 0 && self == Batch::Auto && total > AUTO_BATCH_BOIDS {
                break;
            }
            k += 1;
        }
        k.max(1)
    }
}

/// One run of a batch: its output and its seconds (a run of an ensemble: its share of the
/// ensemble's time), or `None` when it was not run to its end because the sweep was stopped
/// (Ctrl-C): it is not done, and `--resume` runs it again.
pub type BatchRun = WaveRun<Result<RunOutput, RunError>>;

/// Runs `reqs` (consecutive runs of one sweep, none starting from another's end) on the GPU:
/// each stretch of consecutive runs that can be one ensemble as one, the others one by one;
/// `on_step` is called after every step, `stop` polled between steps. One result per request,
/// in order.
///
/// An ensemble that fails as a whole (a limit of the adapter, a device error) is split in
/// halves, each run again, down to lone runs: a run that fails alone says why (the limit by
/// name), and the others' results are those of their lone runs either way.
pub fn run_batch(
    reqs: &[RunRequest<'_>],
    device: &mut Device,
    stop: &Stop,
    on_step: &mut dyn FnMut(),
) -> Vec<BatchRun> {
    if reqs.len() > MAX_REPLICAS as usize
        || reqs
            .iter()
            .any(|r| r.backend != BackendKind::Gpu || r.steps == 0)
    {
        return one_by_one(reqs, device, stop, on_step);
    }
    // A run that fails to resolve fails as it would alone.
    let Ok(prepared) = reqs
        .iter()
        .map(|r| prepare(r, device))
        .collect::<Result<Vec<Prepared>, _>>()
    else {
        return one_by_one(reqs, device, stop, on_step);
    };
    let keys: Vec<Option<(Variant, u32)>> = prepared.iter().map(key).collect();
    let mut prepared = prepared.into_iter();
    let mut outs = Vec::with_capacity(reqs.len());
    let mut i = 0;
    while i < reqs.len() {
        let mut j = i + 1;
        while j < reqs.len() && keys[i].is_some() && keys[j] == keys[i] {
            j += 1;
        }
        let group: Vec<Prepared> = prepared.by_ref().take(j - i).collect();
        if stop.is_set() {
            outs.extend((i..j).map(|_| None));
        } else if j - i == 1 {
            let p = group.into_iter().next().expect("one run");
            let t = Instant::now();
            let out = run_prepared(&reqs[i], p, device, on_step);
            outs.push(Some((out, t.elapsed().as_secs_f64())));
        } else {
            let t = Instant::now();
            match run_ensemble(&reqs[i..j], group, device, stop, on_step) {
                Ok(Some(o)) => {
                    let each = t.elapsed().as_secs_f64() / (j - i) as f64;
                    outs.extend(o.into_iter().map(|o| Some((Ok(o), each))));
                }
                Ok(None) => outs.extend((i..j).map(|_| None)),
                // Failed as a whole (a limit, a device error): its halves again.
                Err(_) => {
                    let half = i + (j - i) / 2;
                    outs.extend(run_batch(&reqs[i..half], device, stop, on_step));
                    outs.extend(run_batch(&reqs[half..j], device, stop, on_step));
                }
            }
        }
        i = j;
    }
    outs
}

fn one_by_one(
    reqs: &[RunRequest<'_>],
    device: &mut Device,
    stop: &Stop,
    on_step: &mut dyn FnMut(),
) -> Vec<BatchRun> {
    reqs.iter()
        .map(|r| {
            (!stop.is_set()).then(|| {
                let t = Instant::now();
                let out = run_one(r, device, on_step);
                (out, t.elapsed().as_secs_f64())
            })
        })
        .collect()
}

/// What consecutive runs must share to be one ensemble — their pipelines and step index — or
/// `None` for a run that must run alone (obstacles, catches carried from a checkpoint).
fn key(p: &Prepared) -> Option<(Variant, u32)> {
    let s = &p.spec.setup;
    (s.actors.obstacles.is_empty() && p.spec.catches_total == 0)
        .then(|| (Variant::of(&s.params, false), s.step))
}

fn replica_of(p: &Prepared) -> Replica {
    let s = &p.spec.setup;
    Replica {
        params: s.params.clone(),
        seed: s.seed,
        boids: s.boids.clone(),
        predators: s.actors.predators.clone(),
    }
}

/// Steps the prepared runs as one ensemble: the discarded steps, then the measured ones with
/// every replica's measures read back in batches; `None` when `stop` was set before the last
/// step (polled between steps: each step of an ensemble is every replica's).
fn run_ensemble(
    reqs: &[RunRequest<'_>],
    mut prepared: Vec<Prepared>,
    device: &mut Device,
    stop: &Stop,
    on_step: &mut dyn FnMut(),
) -> Result<Option<Vec<RunOutput>>, RunError> {
    let replicas: Vec<Replica> = prepared.iter().map(replica_of).collect();
    let step = prepared[0].spec.setup.step;
    let adapter_ms = device.take_adapter_ms();
    let sim = device.ensemble(&replicas)?;
    drop(replicas);
    use crate::backend::Simulation;
    sim.set_step_index(step);
    let (steps, discard) = (reqs[0].steps, reqs[0].discard.min(reqs[0].steps));
    // The discarded steps store no neighbour counts but the last (run_steps' warm-up does the same).
    for k in 0..discard {
        if stop.is_set() {
            return Ok(None);
        }
        sim.step_storing_counts(k + 1 == discard)?;
        on_step();
    }
    sim.finish()?;
    // The measured steps in groups that end where the analyses take a state (as a lone run's):
    // at the end of the discarded steps and after every whole `--analyse-every` steps.
    let mut analyses: Vec<Option<Analyses>> =
        prepared.iter_mut().map(|p| p.analyses.take()).collect();
    let measured_steps = steps - discard;
    let every = reqs[0]
        .analyses
        .map_or(measured_steps, AnalysisPlan::every)
        .max(1);
    let give = |sim: &mut GpuBackend, analyses: &mut [Option<Analyses>]| -> Result<(), RunError> {
        if analyses.iter().all(Option::is_none) {
            return Ok(());
        }
        let step = sim.step_index();
        for (k, state) in sim.replica_states()?.iter().enumerate() {
            if let Some(a) = &mut analyses[k] {
                let p = sim.replica_params(k).expect("a replica held");
                give_boids(a, p, state, step)?;
            }
        }
        Ok(())
    };
    give(sim, &mut analyses)?;
    let mut measured: Vec<Vec<FlockMeasures>> = vec![Vec::new(); prepared.len()];
    let mut done = 0;
    while done < measured_steps {
        if stop.is_set() {
            return Ok(None);
        }
        // The measures are read back in groups of at most STOP_STEPS steps, the stop flag
        // polled between them.
        let n = (every - done % every)
            .min(measured_steps - done)
            .min(STOP_STEPS);
        let more = sim.run_measured_replicas(n, on_step)?;
        for (all, more) in measured.iter_mut().zip(more) {
            all.extend(more);
        }
        done += n;
        if done % every == 0 {
            give(sim, &mut analyses)?;
        }
    }
    let mut costs = sim.take_costs().unwrap_or_default();
    costs.adapter_ms = adapter_ms;
    let ids = sampled_ids();
    let mut outs = Vec::with_capacity(prepared.len());
    for (k, (p, ms)) in prepared.into_iter().zip(measured).enumerate() {
        if let Some(path) = &reqs[k].save {
            // As a lone run saves its final state (`save_final`), its catches as it counted
            // them: the last measured step's.
            let cp = Checkpoint {
                params: sim.replica_params(k).expect("a replica held").clone(),
                seed: p.spec.setup.seed,
                step: sim.step_index(),
                obstacles: Vec::new(),
                predators: sim
                    .replica_predators(k)?
                    .iter()
                    .map(PredatorSpec::of)
                    .collect(),
                catches_total: ms.last().map_or(0, FlockMeasures::catches_total),
                boids: sim.replica_state(k)?,
            };
            save_checkpoint(path, &cp)?;
        }
        let mut out = p.out;
        out.samples = ms.iter().map(|m| sample_of(&ids, m)).collect();
        if let Some(a) = &analyses[k] {
            (out.scalars, out.analysis_errors) = a.scalars();
        }
        // The batch's costs are its first run's (the others' steps were in the same dispatches).
        out.costs = (k == 0).then_some(costs);
        outs.push(out);
    }
    Ok(Some(outs))
}
