//! The interactive app (SPEC §7, issue 4) and its offscreen twin `boids snapshot`.
//!
//! - [`render`]: the instanced spearhead [`render::Renderer`] and the [`render::Offscreen`] target,
//!   shared by the window, snapshots and benchmark captures.
//! - [`camera`]: pan and zoom (world units ↔ physical pixels).
//! - [`sim`]: the running simulation, GPU or CPU, switchable live.
//! - [`snapshot`]: `boids snapshot` and the image comparator of the snapshot tests.

pub mod camera;
pub mod render;
pub mod sim;
pub mod snapshot;

use crate::model::{Scene, SimParams, DEFAULT_DENSITY};

/// What a run starts from: parameters, boid count, seed and obstacle points.
#[derive(Clone, Debug)]
pub struct ViewSetup {
    /// Parameters (world sized to the view unless the scene fixes it).
    pub params: SimParams,
    /// Boid count.
    pub boids: usize,
    /// Seed.
    pub seed: u32,
    /// Obstacle points (wu).
    pub obstacles: Vec<[f32; 2]>,
}

/// `params` with a world of aspect ratio `aspect` (width / height) holding `boids` boids at
/// `density` boids/wu² (each side at least 3 perception radii).
pub fn world_for_view(mut params: SimParams, boids: usize, aspect: f32, density: f32) -> SimParams {
    let aspect = if aspect.is_finite() && aspect > 0.0 {
        aspect.clamp(0.1, 10.0)
    } else {
        1.0
    };
    let area = boids.max(1) as f32 / density;
    let min_side = 3.0 * params.perception_radius;
    params.world_width = (area * aspect).sqrt().clamp(min_side, 1.0e6);
    params.world_height = (area / aspect).sqrt().clamp(min_side, 1.0e6);
    params
}

/// Resolves a run from an optional scene and command-line overrides (`boids`, `seed`, falling back
/// to `default_boids` and seed 1): the world gets the view's aspect ratio at the default density
/// unless the scene fixes its size.
pub fn resolve_view_setup(
    scene: Option<&Scene>,
    boids: Option<usize>,
    seed: Option<u32>,
    default_boids: usize,
    aspect: f32,
) -> ViewSetup {
    let n = boids
        .or(scene.and_then(|s| s.boids))
        .unwrap_or(default_boids);
    let seed = seed.or(scene.and_then(|s| s.seed)).unwrap_or(1);
    let (mut params, fixed, obstacles) = match scene {
        Some(s) => (s.params.clone(), s.world_is_fixed(), s.obstacles.clone()),
        None => (SimParams::default(), false, Vec::new()),
    };
    if !fixed {
        params = world_for_view(params, n, aspect, DEFAULT_DENSITY);
    }
    ViewSetup {
        params,
        boids: n,
        seed,
        obstacles,
    }
}
