//! The models a run can simulate (`SimParams::model`, one per run): the boids model
//! (docs/model.md §4–§9), the Vicsek model (§16, [`crate::model::vicsek`]) and the fish-school model
//! (§17, [`crate::model::fish`]). They share the state, the uniform grid and the neighbour gather
//! (the grid stages are the same); only the rule that turns a boid's neighbour sums into its next
//! state differs: [`next_state`] picks it by a uniform branch, as `next_state` in
//! `shaders/models.wgsl` does on the GPU.

use serde::{Deserialize, Serialize};

use crate::model::error::ParamError;
use crate::model::params::SimParams;
use crate::model::rules::{integrate, NeighborSums, ObstacleSums};
use crate::model::state::Boid;
use crate::model::uniforms::StepUniforms;
use glam::Vec2;

/// Which model a run simulates (docs/model.md §16–§17).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Model {
    /// Reynolds steering with separation, alignment and cohesion (docs/model.md §5–§9).
    #[default]
    Boids,
    /// Vicsek et al. 1995: constant speed, each heading becomes that of the summed velocities within
    /// r (itself included) plus uniform noise (docs/model.md §16).
    Vicsek,
    /// The fish school of the computational-physics course page: weighted alignment, spring
    /// cohesion, separation ∝ d/|d|², a Gaussian edge barrier and slowing in crowds, as per-step
    /// velocity increments (docs/model.md §17).
    Fish,
}

/// Model code in the uniform block (`params.model` in WGSL).
pub const MODEL_BOIDS: u32 = 0;
/// See [`MODEL_BOIDS`].
pub const MODEL_VICSEK: u32 = 1;
/// See [`MODEL_BOIDS`].
pub const MODEL_FISH: u32 = 2;

impl Model {
    /// The code used in the GPU parameter block: boids 0, vicsek 1, fish 2.
    pub fn code(self) -> u32 {
        match self {
            Model::Boids => MODEL_BOIDS,
            Model::Vicsek => MODEL_VICSEK,
            Model::Fish => MODEL_FISH,
        }
    }

    /// Lower-case name, as written in scene files.
    pub fn name(self) -> &'static str {
        match self {
            Model::Boids => "boids",
            Model::Vicsek => "vicsek",
            Model::Fish => "fish",
        }
    }
}

/// Which velocity moves a Vicsek particle in its step (docs/model.md §16.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum VicsekUpdate {
    /// x(t+1) = x(t) + v(t+1)·Δt: the new heading moves the particle, as Vicsek's own simulations
    /// do (the default).
    #[default]
    New,
    /// x(t+1) = x(t) + v(t)·Δt: the velocity of the start of the step moves it, as eq. (1) of the
    /// paper reads literally.
    Old,
}

impl VicsekUpdate {
    /// The code used in the GPU parameter block: new 0, old 1.
    pub fn code(self) -> u32 {
        match self {
            VicsekUpdate::New => 0,
            VicsekUpdate::Old => 1,
        }
    }
}

/// The next state of `me` under the model of `u` (docs/model.md §9, §16, §17), from its neighbour
/// sums and obstacle sums.
#[inline]
pub fn next_state(
    me: &Boid,
    s: &NeighborSums,
    ob: &ObstacleSums,
    predator: Vec2,
    u: &StepUniforms,
) -> Boid {
    match u.model {
        // A Vicsek particle turns only with its neighbours: predators do not push it.
        MODEL_VICSEK => crate::model::vicsek::vicsek_integrate(me, s, ob, u),
        MODEL_FISH => crate::model::fish::fish_integrate(me, s, ob, predator, u),
        _ => integrate(me, s, ob, predator, u),
    }
}

/// Checks the parameters of the Vicsek and fish-school models against their documented ranges
/// (docs/model.md §16.2, §17.2), whatever the model (a scene may switch models).
///
/// # Errors
/// [`ParamError::OutOfRange`] naming the first offending field, its value and the allowed range.
pub fn validate_model_params(p: &SimParams) -> Result<(), ParamError> {
    let checks: [(&'static str, f32, f32, f32); 8] = [
        ("vicsek_eta", p.vicsek_eta, 0.0, std::f32::consts::TAU),
        ("vicsek_speed", p.vicsek_speed, 1.0e-6, 1.0e5),
        ("fish_alignment", p.fish_alignment, 0.0, 1.0),
        ("fish_cohesion", p.fish_cohesion, 0.0, 100.0),
        ("fish_separation", p.fish_separation, 0.0, 100.0),
        ("fish_barrier", p.fish_barrier, 0.0, 1.0e3),
        ("fish_barrier_width", p.fish_barrier_width, 0.01, 1.0e5),
        ("fish_slow_speed", p.fish_slow_speed, 0.0, 1.0e5),
    ];
    for (field, value, min, max) in checks {
        // `!(a <= b)` is also true for NaN.
        if !(value >= min && value <= max) {
            return Err(ParamError::OutOfRange {
                field,
                value: crate::model::params::decimal(value),
                min: crate::model::params::decimal(min),
                max: crate::model::params::decimal(max),
            });
        }
    }
    Ok(())
}
