//! The brute-force O(N²) rules of the `cpu-naive` backend, also the tests' oracle for the grid:
//! every other boid is a candidate, by minimum image, in array order (docs/model.md §13.4).

use rayon::prelude::*;

use crate::model::grid::ObstacleGrid;
use crate::model::predators::{next_boid, Predator};
use crate::model::rules::{accumulate, min_image, obstacle_sums, Nearest, NeighborSums};
use crate::model::state::Boid;
use crate::model::uniforms::StepUniforms;

/// The brute-force O(N²) rules (`cpu-naive` backend and test oracle): every other boid is a
/// candidate, by minimum image, in array order; output in input order.
/// Predators act as in `rules` (their motion is the `predators` stage's). Returns the number of
/// boids caught.
pub fn rules_naive(
    u: &StepUniforms,
    boids: &[Boid],
    obstacles: &ObstacleGrid,
    predators: &[Predator],
    out: &mut [Boid],
    neighbors: &mut [u32],
) -> u32 {
    out.par_iter_mut()
        .zip(neighbors.par_iter_mut())
        .enumerate()
        .with_min_len(64)
        .map(|(i, (o, k))| {
            let s = gather_naive(i, boids, u);
            let ob = obstacle_sums(boids[i].pos(), obstacles, u);
            let (next, caught) = next_boid(&boids[i], &s, &ob, predators, u);
            *o = next;
            *k = s.neighbors;
            caught as u32
        })
        .sum()
}

/// Neighbour sums of `boids[i]` over every other boid (brute force; with a cap, the
/// `max_neighbors` nearest by squared distance then id).
pub fn gather_naive(i: usize, boids: &[Boid], u: &StepUniforms) -> NeighborSums {
    let p = boids[i].pos();
    let mut s = NeighborSums::default();
    if u.max_neighbors == 0 {
        for (j, other) in boids.iter().enumerate() {
            if j != i {
                accumulate(&mut s, min_image(other.pos() - p, u), other, u);
            }
        }
        return s;
    }
    let mut near = Nearest::new(u.max_neighbors as usize);
    for (j, other) in boids.iter().enumerate() {
        if j != i {
            let d = min_image(other.pos() - p, u);
            let d2 = d.dot(d);
            if d2 < u.perception_r2 {
                near.offer(d, d2, other.id, j as u32);
            }
        }
    }
    for &(_, _, j, d) in near.selected() {
        accumulate(&mut s, d, &boids[j as usize], u);
    }
    s
}
