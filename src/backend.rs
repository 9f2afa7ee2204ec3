//! The interface every backend implements ([`Simulation`]) and the backend names.

use crate::model::{Boid, FlockMeasures, Interaction, ParamError, SimParams};

/// Which backend computes the steps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, clap::ValueEnum, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum BackendKind {
    /// wgpu compute shaders (SPEC §6).
    Gpu,
    /// CPU reference: uniform grid by counting sort, rules in parallel with rayon.
    Cpu,
    /// CPU brute force O(N²): the test oracle and seed 000's baseline.
    CpuNaive,
}

impl BackendKind {
    /// The name used on the command line and in captures.
    pub fn name(self) -> &'static str {
        match self {
            BackendKind::Gpu => "gpu",
            BackendKind::Cpu => "cpu",
            BackendKind::CpuNaive => "cpu-naive",
        }
    }

    /// Parses a command-line name.
    pub fn parse(s: &str) -> Option<BackendKind> {
        match s.trim() {
            "gpu" => Some(BackendKind::Gpu),
            "cpu" => Some(BackendKind::Cpu),
            "cpu-naive" | "naive" => Some(BackendKind::CpuNaive),
            _ => None,
        }
    }
}

/// Errors a backend reports to its caller.
#[derive(Debug, thiserror::Error)]
pub enum SimError {
    /// A parameter or boid count out of range.
    #[error(transparent)]
    Param(#[from] ParamError),
    /// A GPU problem (no adapter, a limit, a device error).
    #[error(transparent)]
    Gpu(#[from] crate::gpu::GpuError),
}

/// A flock simulation that can be stepped and inspected. Both the CPU backends and the GPU backend
/// implement it with the same meaning, so captures and tests can treat them alike.
pub trait Simulation {
    /// Which backend this is.
    fn kind(&self) -> BackendKind;
    /// Number of boids.
    fn len(&self) -> usize;
    /// Whether there are no boids (never true for a valid simulation).
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Steps taken so far (the counter of the counter-based noise; kept across `set_state`).
    fn step_index(&self) -> u32;
    /// Sets the step counter (so a flock moved to another backend keeps drawing the same noise).
    fn set_step_index(&mut self, step: u32);
    /// The parameters in use.
    fn params(&self) -> &SimParams;
    /// Replaces the parameters (live; the state is kept).
    ///
    /// # Errors
    /// [`SimError::Param`] when invalid; the old parameters stay.
    fn set_params(&mut self, params: &SimParams) -> Result<(), SimError>;
    /// Sets the pointer tool and obstacle settings.
    fn set_interaction(&mut self, ia: &Interaction);
    /// Replaces the obstacle points (wu).
    ///
    /// # Errors
    /// [`SimError::Gpu`] when the GPU cannot hold them.
    fn set_obstacles(&mut self, points: &[[f32; 2]]) -> Result<(), SimError>;
    /// Advances one step of `dt`. The GPU backend only submits the work; call [`Simulation::finish`]
    /// to wait for it.
    ///
    /// # Errors
    /// [`SimError::Gpu`] on a device error.
    fn step(&mut self) -> Result<(), SimError>;
    /// Waits until every submitted step has completed (no-op on the CPU).
    ///
    /// # Errors
    /// [`SimError::Gpu`] on a device error.
    fn finish(&mut self) -> Result<(), SimError>;
    /// Copies the state out (order unspecified; sort by `id` to compare).
    ///
    /// # Errors
    /// [`SimError::Gpu`] on a readback failure.
    fn read_state(&mut self) -> Result<Vec<Boid>, SimError>;
    /// Replaces the whole state (count may change). Ids must be unique.
    ///
    /// # Errors
    /// [`SimError::Param`] for 0 boids or too many; [`SimError::Gpu`] when they do not fit.
    fn set_state(&mut self, boids: &[Boid]) -> Result<(), SimError>;
    /// Flock measures of the current state (neighbour counts from the last step).
    ///
    /// # Errors
    /// [`SimError::Gpu`] on a readback failure.
    fn measures(&mut self) -> Result<FlockMeasures, SimError>;
    /// Per-stage times of the last finished step, `(stage name, ms)`, when the backend measures them
    /// (GPU timestamp queries, or CPU wall time per stage).
    fn stage_times(&mut self) -> Vec<(String, f64)>;
}
