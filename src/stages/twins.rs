//! The CPU twins of the compute stages, one function per stage with the stage's name:
//! `clear` → `count` → `scan` → `slots` → `scatter` → `rules`, and `measures`. Each is the reference
//! definition of its stage: the GPU stage of the same name (`shaders/<name>.wgsl`, described in
//! [`crate::stages::STAGES`]) is tested against it on seeded random input, and the CPU backend runs
//! them, through the `<name>_step` adapters on a [`CpuStep`], in the table's order.
//!
//! **Items.** Every boid is an item of its cell; in a wrapping world a boid within `pad` columns of
//! the left or right edge is a second item, its *ghost*, in the padding at the other end of its row
//! (see [`Grid`]). Item `i < N` is boid `i` itself, item `N + i` its ghost (when it has one), so the
//! per-item arrays (`rank`, `slots`, `sorted_*`) hold up to 2·N entries in a wrapping world.
//!
//! **Canonical order.** After `scatter` the sorted arrays hold the items cell by cell, and within a
//! cell by boid id, whatever the order of `count`'s ranks (an `atomicAdd` on the GPU): the binning
//! is deterministic on both backends and identical between them, so a step's float sums are added
//! in the same order everywhere, and a run resumed from a saved state is the same run.

use glam::Vec2;
use rayon::prelude::*;

use crate::model::grid::{Grid, ObstacleGrid};
use crate::model::params::SimParams;
use crate::model::rules::{
    accumulate_parts, integrate, min_image, obstacle_sums, Nearest, NeighborSums,
};
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
    /// The boid index (in the state arrays) of each item.
    pub src: &'a mut [u32],
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
        out.src[dst] = i as u32;
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
    /// Boid index of each item.
    pub src: &'a [u32],
}

/// Whether the item at `x` is a ghost (outside `[0, W)`, where only ghosts are).
#[inline]
pub fn is_ghost(x: f32, u: &StepUniforms) -> bool {
    !(x >= 0.0 && x < u.world_width)
}

/// Calls `f(j, d)` for every candidate `j` of sorted item `s` — the items of the block rows
/// around it, each row one contiguous range — with `d = p_j − p_s` (the true offset: ghosts and
/// vertically wrapped rows carry their shift), the item itself left out.
#[inline]
fn for_each_candidate(
    s: usize,
    sorted: SortedRef<'_>,
    cells: &[u32],
    grid: &Grid,
    u: &StepUniforms,
    mut f: impl FnMut(usize, Vec2),
) {
    let me = sorted.pos_vel[s];
    let p = Vec2::new(me[0], me[1]);
    let (cx, cy) = grid.cell_xy(p);
    grid.for_each_block_row(cy, |row, k| {
        let (first, last) = grid.row_cells(row, cx);
        let (a, b) = (cells[first as usize], cells[last as usize + 1]);
        // Candidates of a row shifted by k world heights: compare against p − (0, k·H).
        let q = Vec2::new(p.x, p.y - k as f32 * u.world_height);
        for j in a as usize..b as usize {
            let o = sorted.pos_vel[j];
            if j != s {
                f(j, Vec2::new(o[0], o[1]) - q);
            }
        }
    });
}

/// Gathers the neighbour sums of sorted item `s` over its block (docs/model.md §4): every
/// candidate within the perception radius, or with a neighbour cap only the `max_neighbors`
/// nearest (by squared distance, then id). Mirrors `gather` in `shaders/rules.wgsl`.
pub fn gather(
    s: usize,
    sorted: SortedRef<'_>,
    ids: &[u32],
    cells: &[u32],
    grid: &Grid,
    u: &StepUniforms,
) -> NeighborSums {
    let mut sums = NeighborSums::default();
    let add = |sums: &mut NeighborSums, j: usize, d: Vec2| {
        // The neighbour's velocity and hue are read only for a neighbour.
        if d.dot(d) >= u.perception_r2 {
            return;
        }
        let (o, h) = (sorted.pos_vel[j], sorted.hue[j]);
        accumulate_parts(
            sums,
            d,
            Vec2::new(o[2], o[3]),
            [[h[0], h[1]], [h[2], h[3]]],
            u,
        );
    };
    if u.max_neighbors == 0 {
        for_each_candidate(s, sorted, cells, grid, u, |j, d| add(&mut sums, j, d));
    } else {
        let mut near = Nearest::new(u.max_neighbors as usize);
        for_each_candidate(s, sorted, cells, grid, u, |j, d| {
            let d2 = d.dot(d);
            if d2 < u.perception_r2 {
                near.offer(d, d2, ids[sorted.src[j] as usize], j as u32);
            }
        });
        // The selected neighbours, nearest first.
        for &(_, _, j, d) in near.selected() {
            add(&mut sums, j as usize, d);
        }
    }
    sums
}

/// A raw pointer that rayon tasks may share because every task writes distinct indices.
#[derive(Clone, Copy)]
struct SharedOut<T>(*mut T);
unsafe impl<T> Send for SharedOut<T> {}
unsafe impl<T> Sync for SharedOut<T> {}

/// The state arrays `rules` writes.
pub struct StateMut<'a> {
    /// `[x, y, vx, vy]` per boid.
    pub pos_vel: &'a mut [[f32; 4]],
    /// `[hx, hy, ux, uy]` per boid.
    pub hue: &'a mut [[f32; 4]],
    /// Neighbour count per boid.
    pub neighbors: &'a mut [u32],
}

/// `rules`: the next state of every boid, from the sorted items (ghosts are candidates only),
/// written at the boid's own index (`src`), with its neighbour count. Parallel with rayon.
///
/// # Panics
/// If a `src` index is out of range (inconsistent inputs).
pub fn rules(
    u: &StepUniforms,
    sorted: SortedRef<'_>,
    ids: &[u32],
    cells: &[u32],
    obstacles: &ObstacleGrid,
    out: StateMut<'_>,
) {
    let grid = u.grid();
    let n = out.pos_vel.len();
    let total = cells[cells.len() - 1] as usize;
    let pv = SharedOut(out.pos_vel.as_mut_ptr());
    let hu = SharedOut(out.hue.as_mut_ptr());
    let nb = SharedOut(out.neighbors.as_mut_ptr());
    (0..total)
        .into_par_iter()
        .with_min_len(MIN_TASK / 4)
        .for_each(move |s| {
            let me = sorted.pos_vel[s];
            if is_ghost(me[0], u) {
                return;
            }
            let i = sorted.src[s] as usize;
            assert!(i < n, "rules: boid index {i} out of range {n}");
            let sums = gather(s, sorted, ids, cells, &grid, u);
            let boid = Boid::from_parts(me, sorted.hue[s], ids[i]);
            let ob = obstacle_sums(boid.pos(), obstacles, u);
            let next = integrate(&boid, &sums, &ob, u);
            let (pv, hu, nb) = (pv, hu, nb);
            // SAFETY: i < n, and every boid has exactly one non-ghost item, so no two tasks write
            // the same index.
            unsafe {
                *pv.0.add(i) = next.pos_vel();
                *hu.0.add(i) = next.hue_parts();
                *nb.0.add(i) = sums.neighbors;
            }
        });
}

/// `measures`: the flock measures of a state (f64 reference; see [`flock_measures`]).
pub fn measures(pos_vel: &[[f32; 4]], neighbors: &[u32]) -> FlockMeasures {
    let boids: Vec<Boid> = pos_vel
        .iter()
        .map(|pv| Boid::from_parts(*pv, [1.0, 0.0, 0.0, 0.0], 0))
        .collect();
    flock_measures(&boids, neighbors)
}

/// The brute-force O(N²) rules (`cpu-naive` backend and test oracle): every other boid is a
/// candidate, by minimum image, in array order; output in input order.
pub fn rules_naive(
    u: &StepUniforms,
    boids: &[Boid],
    obstacles: &ObstacleGrid,
    out: &mut [Boid],
    neighbors: &mut [u32],
) {
    out.par_iter_mut()
        .zip(neighbors.par_iter_mut())
        .enumerate()
        .with_min_len(64)
        .for_each(|(i, (o, k))| {
            let s = gather_naive(i, boids, u);
            let ob = obstacle_sums(boids[i].pos(), obstacles, u);
            *o = integrate(&boids[i], &s, &ob, u);
            *k = s.neighbors;
        });
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
    /// Boid index of each sorted item.
    pub sorted_src: Vec<u32>,
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
            pos_vel: Vec::new(),
            hue: Vec::new(),
            id: Vec::new(),
            cells: Vec::new(),
            rank: Vec::new(),
            slot_ids: Vec::new(),
            sorted_pos_vel: Vec::new(),
            sorted_hue: Vec::new(),
            sorted_src: Vec::new(),
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
        self.sorted_src.resize(items, 0);
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
            src: &mut s.sorted_src,
        },
    );
}

/// `rules` on a [`CpuStep`]: sorted items → state.
pub fn rules_step(s: &mut CpuStep) {
    rules(
        &s.params,
        SortedRef {
            pos_vel: &s.sorted_pos_vel,
            hue: &s.sorted_hue,
            src: &s.sorted_src,
        },
        &s.id,
        &s.cells,
        &s.obstacles,
        StateMut {
            pos_vel: &mut s.pos_vel,
            hue: &mut s.hue,
            neighbors: &mut s.neighbors,
        },
    );
}

/// `measures` on a [`CpuStep`].
pub fn measures_step(s: &mut CpuStep) {
    s.measures = measures(&s.pos_vel, &s.neighbors);
}

/// `scatter_heavy` on a [`CpuStep`]: nothing. On the GPU, `scatter` defers the items of crowded
/// cells to `scatter_heavy` (to bound the work of one invocation); the CPU twin `scatter` places
/// every item itself, so the pair `scatter` + `scatter_heavy` is tested against `scatter`.
pub fn scatter_heavy_step(_: &mut CpuStep) {}

/// `rules_heavy` on a [`CpuStep`]: nothing. On the GPU, `rules` defers boids with very many
/// candidates or nearby obstacle points to `rules_heavy`; the CPU twin `rules` steps every boid
/// itself, so the pair `rules` + `rules_heavy` is tested against `rules`.
pub fn rules_heavy_step(_: &mut CpuStep) {}
