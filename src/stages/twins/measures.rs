//! `measures` (`shaders/measures.wgsl`, run on request): the flock measures of a state.

use crate::model::measures::{MeasureContext, MeasureSums};
use crate::model::uniforms::StepUniforms;
use crate::model::FlockMeasures;
use crate::model::World;

/// The reduction's sums in f64 ([`MeasureSums::of_state`]), finished by the measure table
/// ([`FlockMeasures::from_sums`]), in the world of `u` (a periodic milling centre when it wraps),
/// with v_a taken at the model's constant speed when it has one. `neighbors_counted`: whether
/// `neighbors` come from a step.
pub fn measures(
    pos_vel: &[[f32; 4]],
    neighbors: &[u32],
    u: &StepUniforms,
    neighbors_counted: bool,
) -> FlockMeasures {
    let world = World {
        width: u.world_width,
        height: u.world_height,
        wrap: u.boundary == 0,
    };
    let sums = MeasureSums::of_state(pos_vel, neighbors, world);
    FlockMeasures::from_sums(
        &sums,
        &MeasureContext {
            n: pos_vel.len(),
            v0: crate::model::models::constant_speed_of(u),
            neighbors_counted,
        },
    )
}
