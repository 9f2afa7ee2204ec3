//! [`Actors`]: everything in the world that is not a boid — obstacle points and predators — and
//! the rule that places points inside the world ([`inside_world`]).

use crate::model::error::ParamError;
use crate::model::predators::Predator;

/// Everything in the world that is not a boid: the obstacle points and the predators. Backends
/// and the renderer receive it whole, through one path, whenever it changes (never per frame).
/// Predators then move on the backend (a GPU buffer on the GPU backend): what a backend was given
/// is where they started, and [`crate::simulation::Simulation::read_predators`] says where they
/// are.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Actors {
    /// Obstacle points (wu). Boids within `obstacle_radius` are pushed away; within
    /// `obstacle_bounce_radius` they bounce (docs/model.md).
    pub obstacles: Vec<[f32; 2]>,
    /// Predators (docs/model.md §18), at most [`crate::model::MAX_PREDATORS`].
    pub predators: Vec<Predator>,
}

impl Actors {
    /// Whether there is no actor at all.
    pub fn is_empty(&self) -> bool {
        self.obstacles.is_empty() && self.predators.is_empty()
    }

    /// Checks the predators: at most [`crate::model::MAX_PREDATORS`], finite.
    ///
    /// # Errors
    /// [`ParamError::OutOfRange`] for field `predators` (too many) or `predator` (a non-finite
    /// position or velocity; the value is its index).
    pub fn validate(&self) -> Result<(), ParamError> {
        let max = crate::model::MAX_PREDATORS;
        if self.predators.len() > max {
            return Err(ParamError::OutOfRange {
                field: "predators",
                value: self.predators.len() as f64,
                min: 0.0,
                max: max as f64,
            });
        }
        if let Some(k) = self.predators.iter().position(|p| !p.is_finite()) {
            return Err(ParamError::OutOfRange {
                field: "predator (index of one with a non-finite position or velocity)",
                value: k as f64,
                min: 0.0,
                max: 0.0,
            });
        }
        Ok(())
    }
}

/// Whether `p` lies inside the world `[0, w) × [0, h)` (the rule for boids, obstacle points and
/// predators alike; NaN is outside).
pub fn inside_world(p: [f32; 2], w: f32, h: f32) -> bool {
    (0.0..w).contains(&p[0]) && (0.0..h).contains(&p[1])
}
