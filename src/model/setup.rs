//! [`Setup`]: what a run starts from — parameters (world sized to the run), seed, step index,
//! the initial boids and the [`Actors`] — resolved once from an optional scene and command-line
//! overrides, for the window, snapshots, headless runs, benchmarks and sweeps alike.

use crate::model::actors::{inside_world, Actors};
use crate::model::error::SetupError;
use crate::model::params::{validate_boid_count, SimParams, DEFAULT_DENSITY};
use crate::model::scene::Scene;
use crate::model::spawn::initial_state;
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
