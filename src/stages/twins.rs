//! The CPU twins of the compute stages, one function per stage with the stage's name:
//! `clear` → `count` → `scan` → `slots` → `scatter` → `predators` → `rules`, and `measures`. Each is the reference
//! definition of its stage: the GPU stage of the same name (`shaders/<name>.wgsl`, described in
//! [`crate::stages::STAGES`]) is tested against it on seeded random input, and the CPU backend runs
//! them, through the `<name>_step` adapters on a [`CpuStep`], in the table's order.
//!
//! **Items.** Every boid is an item of its cell; in a wrapping world a boid within `pad` columns of
//! the left or right edge is a second item, its *ghost*, in the padding at the other end of its row
//! (see [`Grid`]). Rank `i < N` is boid `i`'s, rank `N + i` its ghost's (when it has one), so the
//! per-item arrays (`rank`, `slot_ids`, `sorted_*`) hold up to 2·N entries in a wrapping world. The
//! real cells come before the padding cells, so the first N sorted items are the boids and the
//! ghosts follow.
//!
//! **Canonical order.** After `scatter` the sorted arrays hold the items cell by cell, and within a
//! cell by boid id, whatever the order of `count`'s ranks (an `atomicAdd` on the GPU): the binning
//! is deterministic on both backends and identical between them, so a step's float sums are added
//! in the same order everywhere, and a run resumed from a saved state is the same run. `rules`
//! writes boid k's next state at index k of the state, so after a step the state is in that order.

use glam::Vec2;
use rayon::prelude::*;

use crate::model::grid::{Grid, ObstacleGrid};
use crate::model::params::SimParams;
use crate::model::predators::{move_predator, nearest_boid, next_boid, Predator};
use crate::model::rules::{accumulate_parts, min_image, obstacle_sums, Nearest, NeighborSums};
use crate::model::state::Boid;
use crate::model::uniforms::StepUniforms;
use crate::model::{flock_measures, FlockMeasures};

/// Smallest number of items a rayon task handles.
const MIN_TASK: usize = 1024;

/// `clear`: sets every cell counter to zero. `cells` has `cell_count + 1` entries.
pub fn clear(cells: &mut [u32]) {
    cells.fill(0);
}

/// `count`: bins each boid, and its ghost if it has one: `rank[i]` = the rank of boid `i` among
/// the items of its cell, `rank[n + i]` that of its ghost, and `cells[c]` = number of items in cell
/// c. Here ranks follow boid order (the GPU's come from `atomicAdd`, in any order: `scatter` does
/// not depend on them). `rank` has `n` entries, or `2·n` when the grid wraps.
pub fn count(pos_vel: &[[f32; 4]], grid: &Grid, cells: &mut [u32], rank: &mut [u32]) {
    let n = pos_vel.len();
    for (i, pv) in pos_vel.iter().enumerate() {
        let (cx, cy) = grid.cell_xy(Vec2::new(pv[0], pv[1]));
        let slot = &mut cells[grid.index(cx, cy) as usize];
        rank[i] = *slot;
        *slot += 1;
        if let Some((g, _)) = grid.ghost(cx, cy) {
            let slot = &mut cells[g as usize];
            rank[n + i] = *slot;
            *slot += 1;
        }
    }
}

/// `scan`: exclusive prefix sum in place: `data[i]` ← Σ_{k<i} `data[k]`. Returns the total.
/// With `data` = cell counts followed by one 0, the last entry becomes the number of items, so
/// `data[c] .. data[c + 1]` is the range of cell c.
pub fn scan(data: &mut [u32]) -> u32 {
    let mut sum = 0u32;
    for x in data.iter_mut() {
        let v = *x;
        *x = sum;
        sum = sum.wrapping_add(v);
    }
    sum
}

/// `slots`: writes each item's boid id at its counted place, `slots[start(cell) + rank] = id`, so
/// each cell's range of `slots` lists the ids of its items (in rank order).
pub fn slots(
    pos_vel: &[[f32; 4]],
    id: &[u32],
    grid: &Grid,
    cells: &[u32],
    rank: &[u32],
    slots: &mut [u32],
) {
    let n = pos_vel.len();
    for (i, pv) in pos_vel.iter().enumerate() {
        let (cx, cy) = grid.cell_xy(Vec2::new(pv[0], pv[1]));
        slots[(cells[grid.index(cx, cy) as usize] + rank[i]) as usize] = id[i];
        if let Some((g, _)) = grid.ghost(cx, cy) {
            slots[(cells[g as usize] + rank[n + i]) as usize] = id[i];
        }
    }
}

/// The sorted arrays `scatter` writes.
pub struct Sorted<'a> {
    /// `[x, y, vx, vy]` per item (ghosts shifted by ±W).
    pub pos_vel: &'a mut [[f32; 4]],
    /// `[hx, hy, ux, uy]` per item.
    pub hue: &'a mut [[f32; 4]],
    /// The id of each item's boid.
    pub id: &'a mut [u32],
}

/// `scatter`: copies each item's state to its place in cell order — cell `c`'s items at
/// `start(c) ..`, within a cell by boid id (its rank among the ids of its cell's slots) — shifting
/// ghosts by ±W. `slots` is reordered (each cell's range sorted) on the way.
///
/// # Panics
/// If the ids of a cell are not distinct (boid ids must be unique).
#[allow(clippy::too_many_arguments)]
pub fn scatter(
    pos_vel: &[[f32; 4]],
    hue: &[[f32; 4]],
    id: &[u32],
    grid: &Grid,
    world_width: f32,
    cells: &[u32],
    slots: &mut [u32],
    out: Sorted<'_>,
) {
    // Each cell's ids in order: an item's place is then found by binary search.
    let ncells = cells.len() - 1;
    let mut rest: &mut [u32] = slots;
    for c in 0..ncells {
        let len = (cells[c + 1] - cells[c]) as usize;
        let (cell, tail) = rest.split_at_mut(len);
        cell.sort_unstable();
        rest = tail;
    }
    let slots: &[u32] = slots;
    let mut place = |cell: u32, i: usize, shift: f32| {
        let (a, b) = (
            cells[cell as usize] as usize,
            cells[cell as usize + 1] as usize,
        );
        let r = slots[a..b]
            .binary_search(&id[i])
            .expect("an item's id is in its cell's slots");
        let dst = a + r;
        let mut pv = pos_vel[i];
        pv[0] += shift * world_width;
        out.pos_vel[dst] = pv;
        out.hue[dst] = hue[i];
        out.id[dst] = id[i];
    };
    for (i, pv) in pos_vel.iter().enumerate() {
        let (cx, cy) = grid.cell_xy(Vec2::new(pv[0], pv[1]));
        place(grid.index(cx, cy), i, 0.0);
        if let Some((g, shift)) = grid.ghost(cx, cy) {
            place(g, i, shift);
        }
    }
}

/// The sorted arrays `rules` reads.
#[derive(Clone, Copy)]
pub struct SortedRef<'a> {
    /// `[x, y, vx, vy]` per item.
    pub pos_vel: &'a [[f32; 4]],
    /// `[hx, hy, ux, uy]` per item.
    pub hue: &'a [[f32; 4]],
    /// The id of each item's boid.
    pub id: &'a [u32],
}

/// The candidate ranges of an item at `p`: for each block row up to three ranges of sorted items
/// (left padding, real cells, right padding), with the y of `p` moved by the row's whole-world
/// shift (candidates of the row are compared against `(p.x, qy)`); at most 15.
#[inline]
fn candidate_ranges(
    p: Vec2,
    cells: &[u32],
    grid: &Grid,
    u: &StepUniforms,
) -> ([(usize, usize, f32); 15], usize) {
    let (cx, cy) = grid.cell_xy(p);
    let (rows, n) = grid.block_rows(cy);
    let mut out = [(0usize, 0usize, 0.0f32); 15];
    let mut k = 0;
    for &(row, shift) in &rows[..n] {
        let qy = p.y - shift as f32 * u.world_height;
        for (first, last) in grid.row_ranges(row, cx).into_iter().flatten() {
            let (a, b) = (cells[first as usize], cells[last as usize + 1]);
            if a < b {
                out[k] = (a as usize, b as usize, qy);
                k += 1;
            }
        }
    }
    (out, k)
}

/// Gathers the neighbour sums of sorted item `s` over its block (docs/model.md §4): every
/// candidate within the perception radius, or with a neighbour cap only the `max_neighbors`
/// nearest (by squared distance, then id). Candidates are the items of the block rows around it —
/// each row at most three contiguous ranges, with the row's vertical shift: ghosts and wrapped rows
/// carry their true offset `d = p_j − p_s` — the item itself left out. Mirrors `gather` in
/// `shaders/gather.wgsl`.
pub fn gather(
    s: usize,
    sorted: SortedRef<'_>,
    cells: &[u32],
    grid: &Grid,
    u: &StepUniforms,
) -> NeighborSums {
    let me = sorted.pos_vel[s];
    let (ranges, n) = candidate_ranges(Vec2::new(me[0], me[1]), cells, grid, u);
    let mut sums = NeighborSums::default();
    if u.max_neighbors == 0 {
        for &(a, b, qy) in &ranges[..n] {
            for j in a..b {
                let o = sorted.pos_vel[j];
                let d = Vec2::new(o[0] - me[0], o[1] - qy);
                // The neighbour's velocity and hue are read only for a neighbour.
                if j == s || d.dot(d) >= u.perception_r2 {
                    continue;
                }
                let h = sorted.hue[j];
                accumulate_parts(
                    &mut sums,
                    d,
                    Vec2::new(o[2], o[3]),
                    [[h[0], h[1]], [h[2], h[3]]],
                    u,
                );
            }
        }
        return sums;
    }
    let mut near = Nearest::new(u.max_neighbors as usize);
    for &(a, b, qy) in &ranges[..n] {
        for j in a..b {
            let o = sorted.pos_vel[j];
            let d = Vec2::new(o[0] - me[0], o[1] - qy);
            let d2 = d.dot(d);
            if j != s && d2 < u.perception_r2 {
                near.offer(d, d2, sorted.id[j], j as u32);
            }
        }
    }
    // The selected neighbours, nearest first.
    for &(_, _, j, d) in near.selected() {
        let (o, h) = (sorted.pos_vel[j as usize], sorted.hue[j as usize]);
        accumulate_parts(
            &mut sums,
            d,
            Vec2::new(o[2], o[3]),
            [[h[0], h[1]], [h[2], h[3]]],
            u,
        );
    }
    sums
}

/// The state arrays `rules` writes.
pub struct StateMut<'a> {
    /// `[x, y, vx, vy]` per boid.
    pub pos_vel: &'a mut [[f32; 4]],
    /// `[hx, hy, ux, uy]` per boid.
    pub hue: &'a mut [[f32; 4]],
    /// Id per boid.
    pub id: &'a mut [u32],
    /// Neighbour count per boid.
    pub neighbors: &'a mut [u32],
}

/// `rules`: the next state of every boid — the first N sorted items; the ghosts after them are
/// candidates only — written at the same index of the state (so the state follows the sort's
/// order), with its id and neighbour count. A boid a hunting predator catches respawns instead
/// (docs/model.md §16.4); the others feel the predators' push. Parallel with rayon. Returns the
/// number of boids caught.
pub fn rules(
    u: &StepUniforms,
    sorted: SortedRef<'_>,
    cells: &[u32],
    obstacles: &ObstacleGrid,
    predators: &[Predator],
    out: StateMut<'_>,
) -> u32 {
    let grid = u.grid();
    out.pos_vel
        .par_iter_mut()
        .zip(out.hue.par_iter_mut())
        .zip(out.id.par_iter_mut())
        .zip(out.neighbors.par_iter_mut())
        .enumerate()
        .with_min_len(MIN_TASK / 4)
        .map(|(s, (((pv, hu), id), nb))| {
            let sums = gather(s, sorted, cells, &grid, u);
            let boid = Boid::from_parts(sorted.pos_vel[s], sorted.hue[s], sorted.id[s]);
            let ob = obstacle_sums(boid.pos(), obstacles, u);
            let (next, caught) = next_boid(&boid, &sums, &ob, predators, u);
            *pv = next.pos_vel();
            *hu = next.hue_parts();
            *id = boid.id;
            *nb = sums.neighbors;
            caught as u32
        })
        .sum()
}

/// `predators`: each predator's next state (docs/model.md §16.2–§16.3) from the step's sorted
/// items — a hunting predator steers toward the nearest boid it sees — and the step's catch
/// counter (`catches[0]`) set to 0 (`rules` counts into it and into the total, `catches[1]`).
pub fn predators(
    u: &StepUniforms,
    sorted: SortedRef<'_>,
    cells: &[u32],
    predators: &mut [Predator],
    catches: &mut [u32; 2],
) {
    catches[0] = 0;
    let n = (u.predator_count as usize).min(predators.len());
    predators[..n].par_iter_mut().for_each(|pr| {
        let target = if pr.is_hunting() {
            nearest_boid(pr.pos(), sorted.pos_vel, sorted.id, cells, u)
        } else {
            None
        };
        *pr = move_predator(pr, target, u);
    });
}

/// `measures`: the flock measures of a state (f64 reference; see [`flock_measures`]) in the world
/// of `u` (a periodic milling centre when it wraps).
pub fn measures(pos_vel: &[[f32; 4]], neighbors: &[u32], u: &StepUniforms) -> FlockMeasures {
    let boids: Vec<Boid> = pos_vel
        .iter()
        .map(|pv| Boid::from_parts(*pv, [1.0, 0.0, 0.0, 0.0], 0))
        .collect();
    let world = crate::model::measures::World {
        width: u.world_width,
        height: u.world_height,
        wrap: u.boundary == 0,
    };
    flock_measures(&boids, neighbors, world)
}

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
                crate::model::rules::accumulate(&mut s, min_image(other.pos() - p, u), other, u);
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
        crate::model::rules::accumulate(&mut s, d, &boids[j as usize], u);
    }
    s
}

/// The CPU backend's buffers, named as the GPU buffers of [`crate::stages::BUFFERS`], plus the
/// step's uniforms and the obstacle grid: what the `<stage>_step` adapters of
/// [`crate::stages::STAGES`] run on.
pub struct CpuStep {
    /// The uniform block of the step being computed.
    pub params: StepUniforms,
    /// The binned obstacle points.
    pub obstacles: ObstacleGrid,
    /// The predators (the `predators` stage moves them).
    pub predators: Vec<Predator>,
    /// Boids caught in the last step, and in every step since the buffers were made (wrapping).
    pub catches: [u32; 2],
    /// `[x, y, vx, vy]` per boid (the state; `rules` writes it).
    pub pos_vel: Vec<[f32; 4]>,
    /// `[hx, hy, ux, uy]` per boid.
    pub hue: Vec<[f32; 4]>,
    /// Id per boid.
    pub id: Vec<u32>,
    /// Cell counts, then (after `scan`) cell starts; `cell_count + 1` entries.
    pub cells: Vec<u32>,
    /// Rank of each item within its cell (`2·N` entries in a wrapping world).
    pub rank: Vec<u32>,
    /// Ids of each cell's items.
    pub slot_ids: Vec<u32>,
    /// Sorted `[x, y, vx, vy]` per item.
    pub sorted_pos_vel: Vec<[f32; 4]>,
    /// Sorted `[hx, hy, ux, uy]` per item.
    pub sorted_hue: Vec<[f32; 4]>,
    /// Id of each sorted item's boid.
    pub sorted_id: Vec<u32>,
    /// Neighbour count of each boid after `rules`.
    pub neighbors: Vec<u32>,
    /// The result of `measures`.
    pub measures: FlockMeasures,
}

impl CpuStep {
    /// Buffers holding `boids`, sized for them and for the grid of `params`.
    pub fn new(boids: &[Boid], params: &SimParams) -> CpuStep {
        let mut s = CpuStep {
            params: StepUniforms::new(params, boids.len() as u32, 0, 0, &Default::default()),
            obstacles: ObstacleGrid::new(&[], 1.0, params),
            predators: Vec::new(),
            catches: [0; 2],
            pos_vel: Vec::new(),
            hue: Vec::new(),
            id: Vec::new(),
            cells: Vec::new(),
            rank: Vec::new(),
            slot_ids: Vec::new(),
            sorted_pos_vel: Vec::new(),
            sorted_hue: Vec::new(),
            sorted_id: Vec::new(),
            neighbors: Vec::new(),
            measures: FlockMeasures::default(),
        };
        s.set_state(boids);
        s
    }

    /// Number of boids.
    pub fn len(&self) -> usize {
        self.pos_vel.len()
    }

    /// Whether there are no boids.
    pub fn is_empty(&self) -> bool {
        self.pos_vel.is_empty()
    }

    /// Replaces the boids (count may change); neighbour counts restart at 0.
    pub fn set_state(&mut self, boids: &[Boid]) {
        let (pv, hu, id) = crate::model::split_state(boids);
        self.pos_vel = pv;
        self.hue = hu;
        self.id = id;
        self.neighbors = vec![0; boids.len()];
    }

    /// The boids, in state order.
    pub fn boids(&self) -> Vec<Boid> {
        crate::model::join_state(&self.pos_vel, &self.hue, &self.id)
    }

    /// Sizes every per-item and per-cell buffer for the uniforms `u` (no allocation when the sizes
    /// are unchanged).
    pub fn prepare(&mut self, u: StepUniforms) {
        let items = self.len() * if u.boundary == 0 { 2 } else { 1 };
        self.params = u;
        self.cells.resize(u.cell_count as usize + 1, 0);
        self.rank.resize(items, 0);
        self.slot_ids.resize(items, 0);
        self.sorted_pos_vel.resize(items, [0.0; 4]);
        self.sorted_hue.resize(items, [0.0; 4]);
        self.sorted_id.resize(items, 0);
    }
}

/// `clear` on a [`CpuStep`].
pub fn clear_step(s: &mut CpuStep) {
    clear(&mut s.cells);
}

/// `count` on a [`CpuStep`].
pub fn count_step(s: &mut CpuStep) {
    let grid = s.params.grid();
    count(&s.pos_vel, &grid, &mut s.cells, &mut s.rank);
}

/// `scan` on a [`CpuStep`].
pub fn scan_step(s: &mut CpuStep) {
    scan(&mut s.cells);
}

/// `slots` on a [`CpuStep`].
pub fn slots_step(s: &mut CpuStep) {
    let grid = s.params.grid();
    slots(&s.pos_vel, &s.id, &grid, &s.cells, &s.rank, &mut s.slot_ids);
}

/// `scatter` on a [`CpuStep`].
pub fn scatter_step(s: &mut CpuStep) {
    let grid = s.params.grid();
    scatter(
        &s.pos_vel,
        &s.hue,
        &s.id,
        &grid,
        s.params.world_width,
        &s.cells,
        &mut s.slot_ids,
        Sorted {
            pos_vel: &mut s.sorted_pos_vel,
            hue: &mut s.sorted_hue,
            id: &mut s.sorted_id,
        },
    );
}

/// `predators` on a [`CpuStep`]: sorted items → predators.
pub fn predators_step(s: &mut CpuStep) {
    predators(
        &s.params,
        SortedRef {
            pos_vel: &s.sorted_pos_vel,
            hue: &s.sorted_hue,
            id: &s.sorted_id,
        },
        &s.cells,
        &mut s.predators,
        &mut s.catches,
    );
}

/// `rules` on a [`CpuStep`]: sorted items → state; counts the catches.
pub fn rules_step(s: &mut CpuStep) {
    let caught = rules(
        &s.params,
        SortedRef {
            pos_vel: &s.sorted_pos_vel,
            hue: &s.sorted_hue,
            id: &s.sorted_id,
        },
        &s.cells,
        &s.obstacles,
        &s.predators,
        StateMut {
            pos_vel: &mut s.pos_vel,
            hue: &mut s.hue,
            id: &mut s.id,
            neighbors: &mut s.neighbors,
        },
    );
    s.catches[0] = s.catches[0].wrapping_add(caught);
    s.catches[1] = s.catches[1].wrapping_add(caught);
}

/// `measures` on a [`CpuStep`] (with the catch counters).
pub fn measures_step(s: &mut CpuStep) {
    s.measures = measures(&s.pos_vel, &s.neighbors, &s.params);
    s.measures.catches = s.catches[0];
    s.measures.catches_total = s.catches[1];
}

/// `scatter_heavy` on a [`CpuStep`]: nothing. On the GPU, `scatter` defers the items of crowded
/// cells to `scatter_heavy` (to bound the work of one invocation); the CPU twin `scatter` places
/// every item itself, so the pair `scatter` + `scatter_heavy` is tested against `scatter`.
pub fn scatter_heavy_step(_: &mut CpuStep) {}

/// `rules_heavy` on a [`CpuStep`]: nothing. On the GPU, `rules` defers boids with very many
/// candidates or nearby obstacle points to `rules_heavy`; the CPU twin `rules` steps every boid
/// itself, so the pair `rules` + `rules_heavy` is tested against `rules`.
pub fn rules_heavy_step(_: &mut CpuStep) {}
