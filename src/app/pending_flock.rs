//! A change of the flock waiting for its state read ([`PendingFlock`]): what a browser tab,
//! which cannot wait for the GPU to read the state back, keeps until the read is back
//! (`flock_read.rs` finishes it).

use crate::model::SimParams;
use crate::simulation::PendingState;

/// A change of the flock asked for, finished when its state read is back.
pub struct PendingFlock {
    /// The state on its way.
    pub read: Box<dyn PendingState>,
    /// The parameters when it was asked for.
    pub before: SimParams,
    /// The boid count when it was asked for.
    pub len: usize,
    /// What to do with the state.
    pub then: AfterRead,
}

/// What a [`PendingFlock`] does with the state once it is back.
pub enum AfterRead {
    /// Switch to the parameters `after` (another model), the flock kept
    /// (`AppState::switch_model`).
    Model {
        /// The parameters after the switch.
        after: SimParams,
        /// The rule radii lowered to the perception radius (said in the message).
        lowered: Vec<&'static str>,
    },
    /// Keep a uniform random sample of `n` boids (`crate::render::Sim::keep_sample`), drawn
    /// with the step index `step` of the request.
    Sample {
        /// Boids kept.
        n: usize,
        /// The step index when it was asked for.
        step: u32,
    },
}

impl AfterRead {
    /// What the message calls it.
    pub fn what(&self) -> String {
        match self {
            AfterRead::Model { after, .. } => format!("model {}", after.model),
            AfterRead::Sample { n, .. } => format!("boid count {n}"),
        }
    }
}
