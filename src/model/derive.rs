//! The step's uniform block and the grids derived from the parameters: [`StepUniforms::new`],
//! [`Grid::new`] and [`ObstacleGrid::new`]. Here, not beside their types, because deriving them
//! needs the parameters and the model table (the radii of a model's sums, its spawn speeds), which build on those types.

use crate::model::grid::{Grid, GridFor, ObstacleGrid};
use crate::model::models::{Band, Radii};
use crate::model::params::{Boundary, Neighborhood, SimParams};
use crate::model::uniforms::{Interaction, StepUniforms};

impl StepUniforms {
    /// Derives the block for `params`, `boid_count` boids, step `step`, seed `seed`, the pointer
    /// and obstacle settings of `ia`, and no obstacle points (see [`StepUniforms::with_obstacles`]),
    /// on the CPU's grid ([`StepUniforms::new_for`] with [`GridFor::Cpu`]).
    pub fn new(
        params: &SimParams,
        boid_count: u32,
        step: u32,
        seed: u32,
        ia: &Interaction,
    ) -> Self {
        Self::new_for(params, boid_count, step, seed, ia, GridFor::Cpu)
    }

    /// [`StepUniforms::new`] on the grid of backend `on` ([`Grid::new_for`]).
    pub fn new_for(
        params: &SimParams,
        boid_count: u32,
        step: u32,
        seed: u32,
        ia: &Interaction,
        on: GridFor,
    ) -> Self {
        let grid = Grid::new_for(params, boid_count as usize, on);
        // The radii of the model's neighbour sums, its own parameters, its spawn speeds.
        let radii = match params.model.desc().radii {
            Radii::PerRule => [
                params.separation_radius,
                params.alignment_radius,
                params.cohesion_radius,
                params.hue_radius,
            ],
            Radii::AlignmentWithinPerception => {
                [0.0, params.perception_radius, 0.0, params.hue_radius]
            }
            Radii::Own => {
                let own = params.models.group(params.model).rule_radii();
                let r = own.map_or([0.0; 3], |r| r.map(|(_, r)| r));
                [r[0], r[1], r[2], params.hue_radius]
            }
        };
        let desc = params.model.desc();
        let terms = desc.pair_terms;
        // The topological neighbourhood (docs/model.md §19.3): every one of the k nearest is a
        // neighbour, whatever the distance, of alignment, cohesion and the colour rule;
        // separation keeps its radius among them. "Whatever the distance" is a squared radius
        // no squared distance in a world of at most 1e6 wu reaches (the largest finite f32).
        let topological = params.neighborhood.reaches_any_distance();
        let sq = |r: f32| r * r;
        let (perception_r2, radii2) = if desc.radii == Radii::Own {
            // Zones: the neighbours are those within the outermost radius (of the k nearest, in
            // the topological neighbourhood), so that every neighbour lies in one zone.
            let outer = radii[0].max(radii[1]).max(radii[2]);
            let r2 = radii.map(sq);
            (sq(outer), r2)
        } else if topological {
            let any = f32::MAX;
            (any, [sq(radii[0]), any, any, any])
        } else {
            (
                sq(params.perception_radius),
                [sq(radii[0]), sq(radii[1]), sq(radii[2]), sq(radii[3])],
            )
        };
        let spawn = params.spawn_speeds();
        // The field of view: its half angle's cosine, squared, and which test it takes.
        let view = if params.view_angle >= 360.0 {
            (0, 1.0)
        } else {
            // cos(π/2) rounds to 6e-17, not 0: at 180° a neighbour exactly at the side is at α/2
            // and seen, as docs/model.md §4.6 says.
            let c = (f64::from(params.view_angle).to_radians() / 2.0).cos();
            let c = if c.abs() < 1e-12 { 0.0 } else { c };
            (if c >= 0.0 { 1 } else { 2 }, (c * c) as f32)
        };
        StepUniforms {
            world_width: params.world_width,
            world_height: params.world_height,
            inv_world_width: 1.0 / params.world_width,
            inv_world_height: 1.0 / params.world_height,
            x_max: params.world_width * (1.0 - 1e-6),
            y_max: params.world_height * (1.0 - 1e-6),
            dt: params.dt,
            boundary: params.boundary.code(),
            boid_count,
            step,
            seed,
            grid_cols: grid.cols,
            grid_rows: grid.rows,
            grid_pad: grid.pad,
            block_x: grid.block_x,
            block_y: grid.block_y,
            cell_count: grid.cells(),
            inv_cell_x: grid.inv_cell_x,
            inv_cell_y: grid.inv_cell_y,
            max_groups_per_dim: 65_535,
            perception_r2,
            separation_r2: radii2[0],
            alignment_r2: radii2[1],
            cohesion_r2: radii2[2],
            hue_r2: radii2[3],
            separation_weight: terms.separation as u32,
            cohesion_weight: terms.cohesion as u32,
            alignment_inner_r2: match terms.alignment {
                Band::Disc => 0.0,
                Band::Annulus => radii2[0],
            },
            cohesion_inner_r2: match terms.cohesion_band {
                Band::Disc => 0.0,
                Band::Annulus => radii2[1],
            },
            max_neighbors: params.max_neighbors,
            topological_k: if params.neighborhood == Neighborhood::Topological {
                params.topological_k
            } else {
                0
            },
            voronoi: (params.neighborhood == Neighborhood::Voronoi) as u32,
            record_neighbors: 0,
            view_mode: view.0,
            view_cos2: view.1,
            hue_cohesion_weight: params.hue_cohesion_weight,
            hue_alignment_weight: params.hue_alignment_weight,
            max_hue_speed: params.max_hue_speed,
            wall_distance: params.wall_distance,
            wall_weight: params.wall_weight,
            heading_sd: (2.0 * params.rotational_diffusion * params.dt).sqrt(),
            pointer_x: ia.pointer[0],
            pointer_y: ia.pointer[1],
            pointer_radius: ia.pointer_radius,
            pointer_weight: ia.pointer_weight,
            obstacle_count: 0,
            obstacle_cols: 1,
            obstacle_rows: 1,
            obstacle_inv_cell_x: 1.0 / params.world_width,
            obstacle_inv_cell_y: 1.0 / params.world_height,
            obstacle_radius: ia.obstacle_radius,
            obstacle_weight: ia.obstacle_weight,
            obstacle_bounce_radius: ia.obstacle_bounce_radius,
            model: params.model.code(),
            spawn_speed_min: spawn.0,
            spawn_speed_max: spawn.1,
            predator_count: 0,
            predator_r2: sq(params.predator_radius),
            predator_weight: params.predator_weight,
            predator_sight_r2: sq(params.predator_sight_radius),
            predator_max_speed: params.predator_max_speed,
            predator_max_force: params.predator_max_force,
            catch_r2: sq(params.catch_radius),
            predator_reach_x: reach(params.predator_sight_radius, grid.inv_cell_x),
            predator_reach_y: reach(params.predator_sight_radius, grid.inv_cell_y),
            // A lone run: replica 0 of 1, its padding cells after its real ones.
            replica_count: 1,
            replica: 0,
            boid_base: 0,
            cell_base: 0,
            pad_base: grid.real_cells(),
            group_base: 0,
            total_boids: boid_count,
            total_cells: grid.cells(),
            predator_base: 0,
            predators_at: 0,
            cells_known: 0,
            skip_neighbor_counts: 0,
        }
    }
}

impl Grid {
    /// The CPU's grid for `params` and `boids` boids ([`Grid::new_for`] with [`GridFor::Cpu`]).
    pub fn new(params: &SimParams, boids: usize) -> Grid {
        Grid::new_for(params, boids, GridFor::Cpu)
    }

    /// The grid of backend `on` for `params` and `boids` boids ([`Grid::for_world`] of its world
    /// and [`grid_radius`]).
    pub fn new_for(params: &SimParams, boids: usize, on: GridFor) -> Grid {
        Grid::for_world(
            params.world_width,
            params.world_height,
            params.boundary == Boundary::Wrap,
            grid_radius(params, boids, on),
            boids,
        )
    }
}

/// How far beyond the typical distance of the k-th nearest the topological neighbourhood's grid
/// is built ([`grid_radius`]; docs/model.md §19.2): cells of 1.3·r_k/2, so the first step's
/// 5 × 5 block reaches at least 1.3·r_k from a boid on every side. In a uniform flock with k = 7
/// it then holds the k nearest of all but 2 % of boids (5 % at a cell's corner), where with cells
/// of r_k/2 three in ten needed a further ring, for 24 candidates instead of 14. Measured the
/// fastest of 1.0 … 2.0 on both backends (docs/performance.md, "Extremes and neighbourhoods").
pub const TOPOLOGICAL_GRID_SCALE: f64 = 1.3;

/// The radius the grid's cells are made for on backend `on` (wu; docs/model.md §4.3, §19.2):
/// the perception radius in the metric neighbourhood; in the topological one, whose neighbours
/// may be at any distance, [`TOPOLOGICAL_GRID_SCALE`] × [`kth_nearest_radius`], so that the block
/// of cells around a boid holds its k nearest nearly always; in the Voronoi one
/// [`voronoi_grid_scale`] mean spacings, the one radius that differs between the backends. The
/// topological and Voronoi radii are at most half the world's smaller side.
pub fn grid_radius(params: &SimParams, boids: usize, on: GridFor) -> f32 {
    let (w, h) = (params.world_width as f64, params.world_height as f64);
    let r = match params.neighborhood {
        Neighborhood::Metric => return params.perception_radius,
        Neighborhood::Topological => {
            TOPOLOGICAL_GRID_SCALE * kth_nearest_radius(params, boids) as f64
        }
        Neighborhood::Voronoi => voronoi_grid_scale(on) * (w * h / boids.max(1) as f64).sqrt(),
    };
    r.min(0.5 * w.min(h)) as f32
}

/// The Voronoi neighbourhood's grid radius on backend `on`, in mean spacings a = √(W·H/N)
/// ([`grid_radius`]; docs/model.md §19.5; cells of half of it):
/// [`VORONOI_GRID_SCALE_CPU`] or [`VORONOI_GRID_SCALE_GPU`].
pub fn voronoi_grid_scale(on: GridFor) -> f64 {
    match on {
        GridFor::Cpu => VORONOI_GRID_SCALE_CPU,
        GridFor::Gpu => VORONOI_GRID_SCALE_GPU,
    }
}

/// The CPU's Voronoi grid radius in mean spacings ([`voronoi_grid_scale`]): cells of side a. The
/// search's block grows from the boid's own cell, one cell wider on each side the cell may still
/// reach past, and the CPU pays per candidate offered: its step rose with larger cells past 2.0
/// (20 000 boids at the default density: 8.1–8.5 ms at 2.0, 8.4–8.6 at 2.5, 9.9 at 3.5, boids
/// model; docs/performance.md). Earlier, when the block grew by whole rings, 1.0, 1.3 and 2.0
/// gave 11.9, 10.8–11.5 and 10.2 ms.
pub const VORONOI_GRID_SCALE_CPU: f64 = 2.0;

/// The GPU's Voronoi grid radius in mean spacings ([`voronoi_grid_scale`]): cells of side 2a.
/// On lavapipe the step fell with larger cells up to 3.5–4.0 (fewer rounds of growth, each a loop
/// that the 8 lanes of a group run in lock step, every lane waiting for the group's longest):
/// 32 ms at 2.0, 28 at 2.5, 25 at 3.5–4.0 (the same flock). A speed choice: the backends' cells
/// then differ, and so does the order in which candidates cut a cell, which changes results
/// only by rounding (a CPU backend may take the GPU's grid to cut in its order, as the tests of
/// cocircular boids do).
pub const VORONOI_GRID_SCALE_GPU: f64 = 4.0;

/// The typical distance of the k-th nearest boid in the topological neighbourhood (wu): the
/// radius of the disc holding k = `topological_k` boids at the mean density ρ = N/(W·H),
/// √(k/(π·ρ)), at most half the world's smaller side.
pub fn kth_nearest_radius(params: &SimParams, boids: usize) -> f32 {
    let (w, h) = (params.world_width as f64, params.world_height as f64);
    let k = params.topological_k.max(1) as f64;
    let r = (k * w * h / (std::f64::consts::PI * boids.max(1) as f64)).sqrt();
    r.min(0.5 * w.min(h)) as f32
}

impl ObstacleGrid {
    /// Bins `points` for obstacles acting within `radius` wu in the world of `params`
    /// ([`ObstacleGrid::for_world`]).
    pub fn new(points: &[[f32; 2]], radius: f32, params: &SimParams) -> ObstacleGrid {
        ObstacleGrid::for_world(points, radius, params.world_width, params.world_height)
    }
}

/// Cells a search of radius `r` (wu) must reach on each side of its own cell, for cells of
/// `1/inv_cell` wu: ⌊r · inv_cell⌋ + 1, at most [`crate::model::predators::SEARCH_REACH_MAX`].
fn reach(r: f32, inv_cell: f32) -> u32 {
    let cells = (r * inv_cell).floor();
    let max = crate::model::predators::SEARCH_REACH_MAX;
    if cells.is_finite() && cells < max as f32 {
        (cells as u32 + 1).min(max)
    } else {
        max
    }
}
