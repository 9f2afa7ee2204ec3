//! [`Setup`]: what a backend starts from — parameters, seed, step index, the initial boids and the
//! [`Actors`]. The run layer resolves it (`crate::run::spec::resolve`: defaults < scene <
//! checkpoint < command line) for the window, snapshots, headless runs, benchmarks and sweeps
//! alike; `crate::backend::create` makes a backend holding it.

use crate::model::actors::Actors;
use crate::model::params::SimParams;
use crate::model::state::Boid;

/// What a run starts from.
#[derive(Clone, Debug, PartialEq)]
pub struct Setup {
    /// Parameters (validated).
    pub params: SimParams,
    /// Seed of the counter-based random numbers.
    pub seed: u32,
    /// Step index of the first step (0 for a new flock; a resumed run continues its count).
    pub step: u32,
    /// The initial boids (ids unique).
    pub boids: Vec<Boid>,
    /// Obstacles and other actors.
    pub actors: Actors,
}
