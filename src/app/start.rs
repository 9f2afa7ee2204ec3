//! What the window and `boids snapshot` start from: the [`Setup`] of the app, with the flock
//! spawned as a few flocks by default ([`Spawn`]) and a world no smaller than [`MIN_WORLD_SIDE`].
//!
//! Decisions (the app's, not the model's: `model::initial_state`, which tests, benchmarks and
//! headless runs use, is unchanged):
//! - Without a scene the boids start as [`Spawn::Flocks`]: a uniform spray of thousands of boids
//!   reads as noise until they have flocked; with a scene they start as the scene says (its
//!   `spawn` key: the scenes about flocks start as flocks), else as its uniform flock
//!   ([`Spawn::Uniform`]). `--spawn` chooses either.
//! - Without a scene, the world's short side is at least [`MIN_WORLD_SIDE`] wu: a world sized for
//!   one boid at the default density is 60 wu across, where a boid of 10 wu fills a sixth of the
//!   window. A scene's world is sized as the model sizes it (its own, or for its count).

use crate::formats::scene::Scene;
use crate::model::Setup;
use crate::run::spec::{resolve, Defaults, Inputs, Overrides};
use crate::run::RunError;

/// Smallest side of a world the app sizes (wu).
pub const MIN_WORLD_SIDE: f32 = 400.0;

pub use crate::model::spawn::Spawn;

/// The default spawn: flocks without a scene; with one, what the scene says (its `spawn`),
/// else uniform.
pub fn default_spawn(scene: Option<&Scene>) -> Spawn {
    match scene {
        Some(s) => s.spawn.unwrap_or(Spawn::Uniform),
        None => Spawn::Flocks,
    }
}

/// The app's setup, through the run layer ([`crate::run::spec::resolve`]: the scene — without one,
/// the app's default scene ([`crate::app::presets::default_scene`]) — then the command line's `o`
/// (`--boids`, `--seed`, every `--set`, `--keep-world`) over the defaults, the world sized to
/// `aspect` at the default density unless the scene fixes it), without a scene the world's sides
/// raised to at least [`MIN_WORLD_SIDE`] × (`aspect`, 1) (or (1, 1/`aspect`) for a tall window),
/// and the boids placed by `spawn` (default [`default_spawn`] for the scene).
///
/// # Errors
/// [`RunError`] for parameters, settings or a count out of range, or a scene's obstacle point or
/// predator outside the world.
pub fn app_setup(
    scene: Option<&Scene>,
    o: &Overrides<'_>,
    default_boids: usize,
    aspect: f32,
    spawn: Option<Spawn>,
) -> Result<(Setup, Spawn), RunError> {
    let spawn = spawn.unwrap_or(default_spawn(scene));
    // A scene given keeps its world as it says; the default scene's is at least MIN_WORLD_SIDE.
    let (default, min_world_side) = match scene {
        Some(_) => (None, 0.0),
        None => (Some(crate::app::presets::default_scene()?), MIN_WORLD_SIDE),
    };
    let spec = resolve(
        &Inputs::of_scene(scene.or(default.as_ref())),
        o,
        &Defaults {
            boids: default_boids,
            aspect,
            spawn,
            min_world_side,
        },
    )?;
    Ok((spec.setup, spawn))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::initial_state;
    use crate::model::spawn::flocks_state;

    fn count(n: usize) -> Overrides<'static> {
        Overrides {
            boids: Some(n),
            ..Overrides::default()
        }
    }

    #[test]
    fn one_boid_gets_a_world_of_at_least_the_minimum_side() {
        let (s, spawn) = app_setup(None, &count(1), 20_000, 16.0 / 9.0, None).unwrap();
        assert_eq!(spawn, Spawn::Flocks);
        // Without a scene: the default scene's weights, not the built-in defaults.
        let own = crate::app::presets::default_scene().unwrap().params;
        assert_eq!(s.params.models, own.models);
        assert_ne!(s.params.models, crate::model::SimParams::default().models);
        assert_eq!(s.params.rotational_diffusion, own.rotational_diffusion);
        assert_eq!(s.boids.len(), 1);
        assert!((s.params.world_height - MIN_WORLD_SIDE).abs() < 1e-3);
        assert!((s.params.world_width / s.params.world_height - 16.0 / 9.0).abs() < 1e-3);
        // A large count is left at the default density.
        let (s, _) = app_setup(None, &count(20_000), 1, 16.0 / 9.0, None).unwrap();
        let area = s.params.world_width * s.params.world_height;
        assert!((area - 2.0e6).abs() / 2.0e6 < 1e-3, "{area}");
    }

    #[test]
    fn a_scene_keeps_its_fixed_world_and_uniform_spawn() {
        let scene = Scene::parse(
            "boids = 50\n[params]\nworld_width = 100.0\nworld_height = 80.0\n",
            std::path::Path::new("test.toml"),
        )
        .unwrap();
        let (s, spawn) = app_setup(Some(&scene), &Overrides::default(), 1, 1.0, None).unwrap();
        assert_eq!(spawn, Spawn::Uniform);
        assert_eq!((s.params.world_width, s.params.world_height), (100.0, 80.0));
        assert_eq!(s.boids, initial_state(1, 50, &s.params));
        let (s, _) = app_setup(
            Some(&scene),
            &Overrides::default(),
            1,
            1.0,
            Some(Spawn::Flocks),
        )
        .unwrap();
        assert_eq!(s.boids, flocks_state(1, 50, &s.params));
    }
}
