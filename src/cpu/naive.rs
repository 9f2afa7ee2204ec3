//! The brute-force O(N²) rules of the `cpu-naive` backend, also the tests' oracle for the grid:
//! every other boid is a candidate, by minimum image, in array order (docs/model.md §13.4).

use glam::Vec2;
use rayon::prelude::*;

use crate::model::grid::ObstacleGrid;
use crate::model::models::ModelUniforms;
use crate::model::predators::{next_boid, Predator};
use crate::model::rules::{
    accumulate, in_view, min_image, obstacle_sums, topo_d2, topo_key, Nearest, NeighborSums,
    TopoNearest,
};
use crate::model::state::Boid;
use crate::model::uniforms::StepUniforms;
use crate::model::voronoi::VoronoiCell;
use crate::stages::twins::rules::record_ids;
use crate::stages::twins::voronoi::{images_bound2, starting_rectangle, OTHER_IMAGES};

/// The brute-force O(N²) rules (`cpu-naive` backend and test oracle): every other boid is a
/// candidate, by minimum image, in array order; output in input order.
/// Predators act as in `rules` (their motion is the `predators` stage's). Returns the number of
/// boids caught.
///
/// In the topological and Voronoi neighbourhoods the ids of each boid's neighbours are written to
/// `neighbor_ids` (`topological_k` per boid nearest first, or 32 ascending, in array order) for
/// the boids it has room for.
// The two uniform blocks, the state and the buffers `rules` writes, as the GPU stage binds them.
#[allow(clippy::too_many_arguments)]
pub fn rules_naive(
    u: &StepUniforms,
    m: &ModelUniforms,
    boids: &[Boid],
    obstacles: &ObstacleGrid,
    predators: &[Predator],
    out: &mut [Boid],
    neighbors: &mut [u32],
    neighbor_ids: &mut [u32],
) -> u32 {
    let kk = u.recorded_width() as usize;
    let mut ids: Vec<&mut [u32]> = if kk > 0 {
        neighbor_ids.chunks_mut(kk).collect()
    } else {
        Vec::new()
    };
    ids.resize_with(out.len(), Default::default);
    out.par_iter_mut()
        .zip(neighbors.par_iter_mut())
        .zip(ids.into_par_iter())
        .enumerate()
        .with_min_len(64)
        .map(|(i, ((o, k), slots))| {
            let s = if u.voronoi != 0 {
                let cell = voronoi_naive(i, boids, u);
                let (p, v) = (boids[i].pos(), boids[i].vel());
                let mut s = NeighborSums::default();
                let mut seen = Vec::new();
                for j in cell.neighbors() {
                    let d = min_image(boids[j as usize].pos() - p, u);
                    if in_view(d, v, u) {
                        accumulate(&mut s, d, &boids[j as usize], u);
                        seen.push(boids[j as usize].id);
                    }
                }
                if slots.len() == kk {
                    seen.sort_unstable();
                    for (t, slot) in slots.iter_mut().enumerate() {
                        *slot = seen.get(t).copied().unwrap_or(u32::MAX);
                    }
                }
                s
            } else if kk > 0 {
                let near = topological_naive(i, boids, u);
                if slots.len() == kk {
                    record_ids(&near, slots);
                }
                let mut s = NeighborSums::default();
                for (_, _, j) in near.selected() {
                    let d = min_image(boids[j as usize].pos() - boids[i].pos(), u);
                    accumulate(&mut s, d, &boids[j as usize], u);
                }
                s
            } else {
                gather_naive(i, boids, u)
            };
            let ob = obstacle_sums(boids[i].pos(), obstacles, u);
            let (next, caught) = next_boid(&boids[i], &s, &ob, predators, u, m);
            *o = next;
            *k = s.neighbors;
            caught as u32
        })
        .sum()
}

/// The Voronoi cell of `boids[i]` by brute force (docs/model.md §19.5): cut by every other boid's
/// minimum image, in array order, then, when the cell may still reach another image (a wrapping
/// world of few boids), by every other boid's 8 other images of the 3 × 3, image by image. Its
/// edges' owners are indices of `boids`.
pub fn voronoi_naive(i: usize, boids: &[Boid], u: &StepUniforms) -> VoronoiCell {
    let p = boids[i].pos();
    let (lo, hi) = starting_rectangle(p, u);
    let mut cell = VoronoiCell::new();
    cell.reset(lo, hi);
    for (j, other) in boids.iter().enumerate() {
        if j != i {
            cell.cut(min_image(other.pos() - p, u), j as u32);
        }
    }
    if !cell.certain_within(images_bound2(u)) {
        for (a, b) in OTHER_IMAGES {
            let shift = Vec2::new(a as f32 * u.world_width, b as f32 * u.world_height);
            for (j, other) in boids.iter().enumerate() {
                if j != i {
                    let d = min_image(other.pos() - p, u);
                    cell.cut(Vec2::new(d.x + shift.x, d.y + shift.y), j as u32);
                }
            }
        }
    }
    cell
}

/// The topological neighbours of `boids[i]` by brute force: the `topological_k` nearest other
/// boids by minimum-image distance, ordered by (squared distance, id) (docs/model.md §19).
pub fn topological_naive(i: usize, boids: &[Boid], u: &StepUniforms) -> TopoNearest {
    let (p, v) = (boids[i].pos(), boids[i].vel());
    let mut near = TopoNearest::new(u.topological_k.max(1) as usize);
    for (j, other) in boids.iter().enumerate() {
        if j != i {
            let d = min_image(other.pos() - p, u);
            if in_view(d, v, u) {
                near.offer(topo_key(topo_d2(d), other.id), j as u32);
            }
        }
    }
    near
}

/// Neighbour sums of `boids[i]` over every other boid (brute force; with a cap, the
/// `max_neighbors` nearest by squared distance then id).
pub fn gather_naive(i: usize, boids: &[Boid], u: &StepUniforms) -> NeighborSums {
    let (p, v) = (boids[i].pos(), boids[i].vel());
    let mut s = NeighborSums::default();
    if u.max_neighbors == 0 {
        for (j, other) in boids.iter().enumerate() {
            let d = min_image(other.pos() - p, u);
            if j != i && in_view(d, v, u) {
                accumulate(&mut s, d, other, u);
            }
        }
        return s;
    }
    let mut near = Nearest::new(u.max_neighbors as usize);
    for (j, other) in boids.iter().enumerate() {
        if j != i {
            let d = min_image(other.pos() - p, u);
            let d2 = d.dot(d);
            if d2 < u.perception_r2 && in_view(d, v, u) {
                near.offer(d, d2, other.id, j as u32);
            }
        }
    }
    for &(_, _, j, d) in near.selected() {
        accumulate(&mut s, d, &boids[j as usize], u);
    }
    s
}
