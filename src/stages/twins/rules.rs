//! `rules` (`shaders/rules.wgsl`, with `shaders/gather.wgsl`): each boid's next state from the
//! sorted items.

use glam::Vec2;

use crate::model::grid::{block_bound2, search_frame, Grid, ObstacleGrid};
use crate::model::models::ModelUniforms;
use crate::model::predators::{next_boid, Predator};
use crate::model::rules::{
    accumulate_parts, in_view, min_image, obstacle_sums, topo_d2, topo_key, Nearest, NeighborSums,
    TopoNearest,
};
use crate::model::state::Boid;
use crate::model::uniforms::StepUniforms;

use super::scatter::SortedRef;
use super::voronoi::{record_voronoi_ids, voronoi_cell, voronoi_sums};
use crate::model::voronoi::VoronoiCell;

/// One range of candidates: sorted items `start .. end`, compared against the point
/// `(p.x, p.y − y_shift)` (`y_shift` = the block row's whole number of world heights, in wu).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct CandidateRange {
    /// First item.
    pub start: u32,
    /// One past the last item.
    pub end: u32,
    /// Vertical shift of the range's block row (wu).
    pub y_shift: f32,
}

/// The candidates of an item in cell `(cx, cy)` (`cells`: the cell starts after `scan`): for each
/// row of its 5 × 5 block ([`Grid::for_each_block_row`]) up to three ranges of sorted items — left
/// padding, real cells, right padding ([`Grid::for_each_row_range`]) — with the row's vertical
/// shift; the empty ones left out. Ghosts and wrapped rows so carry their true offset.
pub fn candidate_ranges(
    cx: u32,
    cy: u32,
    cells: &[u32],
    grid: &Grid,
    u: &StepUniforms,
) -> Vec<CandidateRange> {
    let mut out = Vec::with_capacity(15);
    grid.for_each_block_row(cy, |row, k| {
        grid.for_each_row_range(row, cx, |_, first, last| {
            let (start, end) = (cells[first as usize], cells[last as usize + 1]);
            if start < end {
                out.push(CandidateRange {
                    start,
                    end,
                    y_shift: k as f32 * u.world_height,
                });
            }
        });
    });
    out
}

/// The neighbour sums of sorted item `s` (docs/model.md §4, §19): every candidate within the
/// perception radius, or with a neighbour cap only the `max_neighbors` nearest (by squared
/// distance, then id), or in the topological neighbourhood the `topological_k` nearest whatever
/// the distance ([`topological_nearest`]), the item itself left out.
pub fn gather(
    s: usize,
    sorted: SortedRef<'_>,
    cells: &[u32],
    grid: &Grid,
    u: &StepUniforms,
) -> NeighborSums {
    if u.voronoi != 0 {
        let mut cell = VoronoiCell::new();
        voronoi_cell(s, sorted, cells, grid, u, &mut cell);
        return voronoi_sums(s, &cell, sorted, u);
    }
    if u.topological_k > 0 {
        let mut near = TopoNearest::new(u.topological_k as usize);
        topological_nearest(s, sorted, cells, grid, u, &mut near);
        return topological_sums(s, &near, sorted, u);
    }
    let me = sorted.pos_vel[s];
    let (cx, cy) = grid.cell_xy(Vec2::new(me[0], me[1]));
    gather_over(s, sorted, &candidate_ranges(cx, cy, cells, grid, u), u)
}

/// [`gather`] over the candidate ranges of item `s`'s cell, one candidate at a time in range
/// order (nearest first with a cap).
#[inline]
pub fn gather_over(
    s: usize,
    sorted: SortedRef<'_>,
    ranges: &[CandidateRange],
    u: &StepUniforms,
) -> NeighborSums {
    let me = sorted.pos_vel[s];
    let add = |sums: &mut NeighborSums, j: usize, d: Vec2| {
        let (o, h) = (sorted.pos_vel[j], sorted.hue[j]);
        let hue = [[h[0], h[1]], [h[2], h[3]]];
        accumulate_parts(sums, d, Vec2::new(o[2], o[3]), hue, u);
    };
    let mut sums = NeighborSums::default();
    let mut near = Nearest::new(u.max_neighbors as usize);
    let v = Vec2::new(me[2], me[3]);
    for r in ranges {
        let q = Vec2::new(me[0], me[1] - r.y_shift);
        for j in r.start as usize..r.end as usize {
            let o = sorted.pos_vel[j];
            let d = Vec2::new(o[0], o[1]) - q;
            let d2 = d.dot(d);
            if j == s || d2 >= u.perception_r2 || !in_view(d, v, u) {
                continue;
            }
            if u.max_neighbors == 0 {
                add(&mut sums, j, d);
            } else {
                near.offer(d, d2, sorted.id[j], j as u32);
            }
        }
    }
    for &(_, _, j, d) in near.selected() {
        add(&mut sums, j as usize, d);
    }
    sums
}

/// The topological neighbours of sorted item `s` into `near` (emptied first, keeping
/// `topological_k`): its k nearest other boids by minimum-image distance whatever the distance,
/// ordered by (squared distance, id) (docs/model.md §19). The search takes the block of 5 × 5 cells
/// around the item's cell, then widens ring by ring (each ring the cells one step farther out,
/// [`Grid::frame`], [`search_frame`]; each boid found once, in its own real cell) until the k-th
/// nearest is certain: every boid outside the rings searched is farther than the k-th
/// ([`block_bound2`]), or every cell has been searched.
pub fn topological_nearest(
    s: usize,
    sorted: SortedRef<'_>,
    cells: &[u32],
    grid: &Grid,
    u: &StepUniforms,
    near: &mut TopoNearest,
) {
    near.reset(u.topological_k as usize);
    let me = sorted.pos_vel[s];
    let p = Vec2::new(me[0], me[1]);
    // The boid's velocity: only the boids in its field of view are offered (docs/model.md §4.6).
    let v = Vec2::new(me[2], me[3]);
    let (cx, cy) = grid.cell_xy(p);
    for step in 0.. {
        let (inner, r) = search_frame(step);
        let f = grid.frame(cx, cy, inner, r);
        for t in 0..f.rows() {
            for (first, last) in grid.frame_row(&f, t).into_iter().flatten() {
                for j in cells[first as usize]..cells[last as usize + 1] {
                    let j = j as usize;
                    if j == s {
                        continue;
                    }
                    let o = sorted.pos_vel[j];
                    let d = min_image(Vec2::new(o[0], o[1]) - p, u);
                    if in_view(d, v, u) {
                        near.offer(topo_key(topo_d2(d), sorted.id[j]), j as u32);
                    }
                }
            }
        }
        let bound2 = block_bound2(grid, p, cx, cy, r, u.world_width, u.world_height);
        if bound2 == f32::MAX || near.last_d2().is_some_and(|d2| d2 < bound2) {
            break;
        }
    }
}

/// The neighbour sums of sorted item `s` over its topological neighbours `near`, nearest first
/// (each one's offset the minimum image, as the search computed it).
#[inline(always)]
pub fn topological_sums(
    s: usize,
    near: &TopoNearest,
    sorted: SortedRef<'_>,
    u: &StepUniforms,
) -> NeighborSums {
    let me = sorted.pos_vel[s];
    let p = Vec2::new(me[0], me[1]);
    let mut sums = NeighborSums::default();
    for (_, _, j) in near.selected() {
        let (o, h) = (sorted.pos_vel[j as usize], sorted.hue[j as usize]);
        let d = min_image(Vec2::new(o[0], o[1]) - p, u);
        let hue = [[h[0], h[1]], [h[2], h[3]]];
        accumulate_parts(&mut sums, d, Vec2::new(o[2], o[3]), hue, u);
    }
    sums
}

/// Writes the ids of `near` to the `k` slots of a boid's recorded topological neighbours
/// (`u32::MAX` in the slots past the last, when fewer than k other boids exist).
pub fn record_ids(near: &TopoNearest, slots: &mut [u32]) {
    for (t, slot) in slots.iter_mut().enumerate() {
        *slot = near.selected().nth(t).map_or(u32::MAX, |x| x.1);
    }
}

/// The state arrays `rules` writes.
pub struct StateMut<'a> {
    /// `[x, y, vx, vy]` per boid.
    pub pos_vel: &'a mut [[f32; 4]],
    /// `[hx, hy, ux, uy]` per boid.
    pub hue: &'a mut [[f32; 4]],
    /// Id per boid.
    pub id: &'a mut [u32],
    /// Image counts per boid.
    pub image: &'a mut [[i32; 2]],
    /// Neighbour count per boid (left as it is under `skip_neighbor_counts`).
    pub neighbors: &'a mut [u32],
    /// The recorded topological neighbour ids: `topological_k` per boid for the first
    /// `record_neighbors` boids of these arrays (empty when none are recorded).
    pub neighbor_ids: &'a mut [u32],
}

/// The next state of every boid — the first N sorted items; the ghosts after them are candidates
/// only — written at the same index of the state (so after a step the state is in the sorted
/// order), with its id, image counts ([`crate::model::rules::next_image`]) and neighbour count: the neighbour sums ([`gather`]) and the obstacle
/// sums, then the model's rule with the predators' push ([`next_boid`]); a boid a hunting
/// predator catches respawns instead (docs/model.md §18.4). Returns the number of boids caught.
pub fn rules(
    u: &StepUniforms,
    m: &ModelUniforms,
    sorted: SortedRef<'_>,
    cells: &[u32],
    obstacles: &ObstacleGrid,
    predators: &[Predator],
    out: StateMut<'_>,
) -> u32 {
    let grid = u.grid();
    let mut caught = 0;
    let k = u.topological_k as usize;
    let mut near = TopoNearest::new(k.max(1));
    let mut cell = VoronoiCell::new();
    let width = u.recorded_width() as usize;
    for s in 0..out.pos_vel.len() {
        let boid = Boid::from_parts(sorted.pos_vel[s], sorted.hue[s], sorted.id[s])
            .with_image(sorted.image[s]);
        let sums = if u.voronoi != 0 {
            voronoi_cell(s, sorted, cells, &grid, u, &mut cell);
            if s < u.record_neighbors as usize && (s + 1) * width <= out.neighbor_ids.len() {
                let slots = &mut out.neighbor_ids[s * width..(s + 1) * width];
                record_voronoi_ids(s, &cell, sorted, u, slots);
            }
            voronoi_sums(s, &cell, sorted, u)
        } else if k > 0 {
            topological_nearest(s, sorted, cells, &grid, u, &mut near);
            if s < u.record_neighbors as usize && (s + 1) * k <= out.neighbor_ids.len() {
                record_ids(&near, &mut out.neighbor_ids[s * k..(s + 1) * k]);
            }
            topological_sums(s, &near, sorted, u)
        } else {
            gather(s, sorted, cells, &grid, u)
        };
        let ob = obstacle_sums(boid.pos(), obstacles, u);
        let (next, was_caught) = next_boid(&boid, &sums, &ob, predators, u, m);
        caught += was_caught as u32;
        out.pos_vel[s] = next.pos_vel();
        out.hue[s] = next.hue_parts();
        out.id[s] = boid.id;
        out.image[s] = next.image;
        if u.skip_neighbor_counts == 0 {
            out.neighbors[s] = sums.neighbors;
        }
    }
    caught
}
