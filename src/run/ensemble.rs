//! [`Ensemble`]: R independent systems (replicas) stepped together, on either backend
//! (docs/sweeps.md, "Ensembles"): on the GPU one [`GpuBackend::ensemble`] (the same dispatches
//! for every replica), on the CPU one backend per replica, stepped in parallel (rayon: a small
//! replica's step is one or two tasks, so the replicas fill the cores). Each replica's state and
//! measures are those of its lone run on the same backend, bit for bit. The Python module's
//! `boids.Ensemble` is this.

use rayon::prelude::*;

use crate::backend::{BackendKind, Simulation};
use crate::cpu::CpuBackend;
use crate::gpu::{GpuBackend, GpuContext, Replica};
use crate::model::{Boid, FlockMeasures};
use crate::simulation::SimError;

/// Replicas stepped together.
pub enum Ensemble {
    /// One GPU ensemble.
    Gpu(Box<GpuBackend>),
    /// One CPU backend per replica.
    Cpu(Vec<CpuBackend>),
}

impl Ensemble {
    /// The ensemble of `replicas` on backend `kind` (`ctx`: the GPU context, for `gpu`).
    ///
    /// # Errors
    /// As [`GpuBackend::ensemble`] (what splits an ensemble, too many replicas, a limit) and
    /// [`CpuBackend::from_state`]; on the CPU too, replicas must share the model and
    /// neighbourhood ([`crate::gpu::backend::check_ensemble`]), so that a script behaves the same
    /// on both backends.
    pub fn new(
        kind: BackendKind,
        replicas: &[Replica],
        ctx: Option<&GpuContext>,
    ) -> Result<Ensemble, SimError> {
        crate::gpu::backend::check_ensemble(replicas)?;
        match (kind, ctx) {
            (BackendKind::Gpu, Some(ctx)) => {
                let mut b = GpuBackend::ensemble(ctx, replicas)?;
                b.set_profiling(false);
                Ok(Ensemble::Gpu(Box::new(b)))
            }
            (BackendKind::Gpu, None) => {
                Err(SimError::Gpu(crate::simulation::GpuError::NoAdapter {
                    detail: " (an ensemble on the GPU needs its context)".into(),
                }))
            }
            (kind, _) => {
                let sims = replicas
                    .iter()
                    .map(|r| {
                        let mut s =
                            CpuBackend::from_state(kind, &r.params, r.boids.clone(), r.seed)?;
                        s.set_predators(&r.predators)?;
                        Ok(s)
                    })
                    .collect::<Result<Vec<_>, SimError>>()?;
                Ok(Ensemble::Cpu(sims))
            }
        }
    }

    /// Replicas held.
    pub fn len(&self) -> usize {
        match self {
            Ensemble::Gpu(b) => b.replica_count(),
            Ensemble::Cpu(s) => s.len(),
        }
    }

    /// Whether it holds no replica (never: an ensemble has at least one).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Runs `n` steps of every replica. Only the last stores the neighbour counts
    /// ([`Simulation::step_storing_counts`]): nothing reads the others'.
    ///
    /// # Errors
    /// The backend's.
    pub fn step(&mut self, n: u32) -> Result<(), SimError> {
        match self {
            Ensemble::Gpu(b) => {
                for k in 0..n {
                    b.step_storing_counts(k + 1 == n)?;
                }
                b.finish()
            }
            Ensemble::Cpu(sims) => sims.par_iter_mut().try_for_each(|s| {
                for k in 0..n {
                    s.step_storing_counts(k + 1 == n)?;
                }
                Ok(())
            }),
        }
    }

    /// Runs `n` steps of every replica, each followed by its measures: `[replica][step]`.
    ///
    /// # Errors
    /// The backend's.
    pub fn run_measured(&mut self, n: u32) -> Result<Vec<Vec<FlockMeasures>>, SimError> {
        match self {
            Ensemble::Gpu(b) => b.run_measured_replicas(n, &mut || {}),
            Ensemble::Cpu(sims) => sims
                .par_iter_mut()
                .map(|s| s.run_measured(n, &mut || {}))
                .collect(),
        }
    }

    /// Every replica's measures of its current state, with its catches.
    ///
    /// # Errors
    /// The backend's.
    pub fn measures(&mut self) -> Result<Vec<FlockMeasures>, SimError> {
        match self {
            Ensemble::Gpu(b) => b.replica_measures(),
            Ensemble::Cpu(sims) => sims.par_iter_mut().map(|s| s.measures()).collect(),
        }
    }

    /// Replica `r`'s boids.
    ///
    /// # Errors
    /// A replica not held ([`crate::model::SetupError::Ensemble`]); the backend's.
    pub fn state(&mut self, r: usize) -> Result<Vec<Boid>, SimError> {
        match self {
            Ensemble::Gpu(b) => b.replica_state(r),
            Ensemble::Cpu(sims) => {
                let held = sims.len();
                match sims.get_mut(r) {
                    Some(s) => s.read_state(),
                    None => Err(SimError::Setup(crate::model::SetupError::Ensemble(
                        format!("replica {r}: this ensemble holds {held} (0 .. {held})"),
                    ))),
                }
            }
        }
    }
}
