//! The model shared by every backend: parameters, state, the uniform grid, the rules, the
//! counter-based random numbers, the flock measures, the setup of a run and a state loaded into
//! it ([`loaded`]) (docs/model.md). File formats are `crate::formats`.

pub mod actors;
pub mod census;
pub mod derive;
pub mod error;
pub mod flock_measures;
pub mod grid;
pub mod grid_block;
pub mod loaded;
pub mod measures;
pub mod models;
pub mod pairs;
pub mod param_table;
pub mod params;
pub mod point;
pub mod predators;
pub mod rng;
pub mod rules;
pub mod setup;
pub mod spawn;
pub mod state;
pub mod uniforms;
pub mod voronoi;
pub mod world;

pub use actors::Actors;
pub use census::{flock_census, FlockCensus, FLOCK_MIN_BOIDS};
pub use error::ParamError;
pub use error::SetupError;
pub use flock_measures::{flock_measures, flock_measures_at_speed, FlockMeasures};
pub use grid::{Grid, GridFor, ObstacleGrid};
pub use models::vicsek::{VicsekNoise, VicsekUpdate};
pub use models::{Model, ModelParams, MODELS};
pub use params::{
    validate_boid_count, Boundary, Neighborhood, SimParams, DEFAULT_DENSITY, MAX_BOIDS,
    TOPOLOGICAL_K_MAX,
};
pub use predators::{Predator, PredatorKind, PredatorSpec, MAX_PREDATORS};
pub use setup::Setup;
pub use spawn::{group_state, initial_state, spawn_boid, spawn_boid_at};
pub use state::{join_state, split_state, Boid};
pub use uniforms::{Interaction, ReplicaPlace, StepUniforms, STEP_UNIFORMS_BYTES};
pub use world::World;
