//! [`Setup`]: what a run starts from — parameters (world sized to the run), seed, step index,
//! the initial boids and the [`Actors`] — resolved once from an optional scene and command-line
//! overrides, for the window, snapshots, headless runs, benchmarks and sweeps alike.

use crate::model::error::ParamError;
use crate::model::params::{validate_boid_count, SimParams, DEFAULT_DENSITY};
use crate::model::predators::Predator;
use crate::model::scene::Scene;
use crate::model::state::{initial_state, Boid};

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

/// An initial state that does not fit the world of its run.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SetupError {
    /// A parameter or the boid count is out of range.
    #[error(transparent)]
    Param(#[from] ParamError),
    /// An obstacle point or a predator of a scene lies outside the world of the run
    /// ([`Scene::check_inside`]).
    #[error("{place}: {key} = [{x}, {y}] is outside the world [0, {width}) × [0, {height}){note}")]
    PointOutsideWorld {
        /// Where it was written: `scene file FILE, line L`.
        place: String,
        /// The key: `obstacles[3]`, `predators[0].position`.
        key: String,
        /// The point (wu).
        x: f32,
        /// The point (wu).
        y: f32,
        /// World width (wu).
        width: f32,
        /// World height (wu).
        height: f32,
        /// Why the world has that size, when the scene does not fix it (else empty).
        note: String,
    },
    /// A boid of a given state lies outside the world.
    #[error("boid {id} at ({x}, {y}) is outside the world [0, {width}) × [0, {height})")]
    OutsideWorld {
        /// The boid's id.
        id: u32,
        /// Its position (wu).
        x: f32,
        /// Its position (wu).
        y: f32,
        /// World width (wu).
        width: f32,
        /// World height (wu).
        height: f32,
    },
}

impl Setup {
    /// Resolves a run: the boid count is `boids`, else the scene's, else `default_boids`; the seed
    /// `seed`, else the scene's, else 1. Unless the scene fixes the world size, the world gets
    /// aspect ratio `aspect` (width / height) and the count's area at the default density
    /// ([`DEFAULT_DENSITY`]). The boids are the seeded initial flock ([`initial_state`]).
    ///
    /// # Errors
    /// [`SetupError::Param`] for parameters or a count out of range;
    /// [`SetupError::PointOutsideWorld`] for a scene's obstacle point or predator outside the
    /// world ([`Scene::check_inside`]).
    pub fn resolve(
        scene: Option<&Scene>,
        boids: Option<usize>,
        seed: Option<u32>,
        default_boids: usize,
        aspect: f32,
    ) -> Result<Setup, SetupError> {
        let (params, n, seed, actors) =
            Self::resolve_params(scene, boids, seed, default_boids, aspect);
        params.validate()?;
        validate_boid_count(n)?;
        if let Some(s) = scene {
            s.check_inside(&params)?;
        }
        Ok(Setup {
            boids: initial_state(seed, n, &params),
            params,
            seed,
            step: 0,
            actors,
        })
    }

    /// What [`Setup::resolve`] resolves before making the flock, unvalidated: (parameters with the
    /// world sized, boid count, seed, actors). A caller that changes the world afterwards checks
    /// the scene's points against its final world ([`Scene::check_inside`]).
    pub fn resolve_params(
        scene: Option<&Scene>,
        boids: Option<usize>,
        seed: Option<u32>,
        default_boids: usize,
        aspect: f32,
    ) -> (SimParams, usize, u32, Actors) {
        let n = boids
            .or(scene.and_then(|s| s.boids))
            .unwrap_or(default_boids);
        let seed = seed.or(scene.and_then(|s| s.seed)).unwrap_or(1);
        let (mut params, fixed, actors) = match scene {
            Some(s) => (s.params.clone(), s.world_is_fixed(), s.actors()),
            None => (SimParams::default(), false, Actors::default()),
        };
        if !fixed {
            params = params.with_world_for_aspect(n, DEFAULT_DENSITY, aspect);
        }
        (params, n, seed, actors)
    }

    /// This setup starting from `boids` instead of the seeded flock.
    ///
    /// # Errors
    /// [`SetupError::Param`] for a count out of range; [`SetupError::OutsideWorld`] for the first
    /// boid outside the world.
    pub fn with_boids(mut self, boids: Vec<Boid>) -> Result<Setup, SetupError> {
        validate_boid_count(boids.len())?;
        let (w, h) = (self.params.world_width, self.params.world_height);
        if let Some(b) = boids.iter().find(|b| !inside_world(b.position, w, h)) {
            return Err(SetupError::OutsideWorld {
                id: b.id,
                x: b.position[0],
                y: b.position[1],
                width: w,
                height: h,
            });
        }
        self.boids = boids;
        Ok(self)
    }
}
