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
//! cell by boid id, whatever the order of `count`'s ranks (atomic additions on both backends; the
//! CPU's binning stages run in parallel with rayon): the binning
//! is deterministic on both backends and identical between them, so a step's float sums are added
//! in the same order everywhere, and a run resumed from a saved state is the same run. `rules`
//! writes boid k's next state at index k of the state, so after a step the state is in that order.

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};

use glam::Vec2;
use rayon::prelude::*;

use crate::model::grid::{Grid, ObstacleGrid};
use crate::model::measures::{MeasureContext, MeasureSums};
use crate::model::params::SimParams;
use crate::model::predators::{move_predator, nearest_boid, next_boid, Predator};
use crate::model::rules::{
    accumulate_parts, min_image, obstacle_sums, Nearest, NeighborSums, ObstacleSums,
};
use crate::model::state::Boid;
use crate::model::uniforms::StepUniforms;
use crate::model::FlockMeasures;
use crate::stages::gather_simd::{
    gather_lanes_into, gather_steps_into, simd_applies, steps_of, CandidateRange, GatherPath,
    LaneStep, SortedLanes, SumsLanes, LANES,
};
use crate::stages::integrate_simd::{self, integrate_lanes};

/// Smallest number of items a rayon task of the binning stages handles.
const MIN_TASK: usize = 4096;

/// Sorted items per rayon task of `rules`: consecutive items are neighbouring cells of one row,
/// whose candidates (the rows around it) stay in the cache from one item to the next.
const RULES_TASK: usize = 512;

// The per-item counters and slots are shared by the parallel tasks of `count` and `slots` as
// atomics, which must have the layout of the plain integers (true on every 64-bit target).
const _: () = assert!(std::mem::align_of::<u32>() == std::mem::align_of::<AtomicU32>());
const _: () = assert!(std::mem::align_of::<u64>() == std::mem::align_of::<AtomicU64>());

/// `v` as atomics, so that parallel tasks may add to or store into any entry.
fn atomic_u32(v: &mut [u32]) -> &[AtomicU32] {
    // SAFETY: AtomicU32 has the size of u32 and (asserted above) its alignment, every bit pattern
    // is valid for both, and the exclusive borrow of `v` lasts as long as the returned slice.
    unsafe { &*(v as *mut [u32] as *const [AtomicU32]) }
}

/// `v` as atomics (see [`atomic_u32`]).
fn atomic_u64(v: &mut [u64]) -> &[AtomicU64] {
    // SAFETY: as in `atomic_u32`, for u64 and AtomicU64.
    unsafe { &*(v as *mut [u64] as *const [AtomicU64]) }
}

/// `clear`: sets every cell counter to zero. `cells` has `cell_count + 1` entries.
pub fn clear(cells: &mut [u32]) {
    cells.fill(0);
}

/// `count`: bins each boid, and its ghost if it has one: `rank[i]` = the rank of boid `i` among
/// the items of its cell, `rank[n + i]` that of its ghost, and `cells[c]` = number of items in cell
/// c. In parallel: as on the GPU, ranks come from atomic additions in whatever order the tasks run
/// (`scatter` does not depend on them). `rank` has `n` entries, or `2·n` when the grid wraps.
pub fn count(pos_vel: &[[f32; 4]], grid: &Grid, cells: &mut [u32], rank: &mut [u32]) {
    let n = pos_vel.len();
    let counters = atomic_u32(cells);
    let (real, ghost) = rank.split_at_mut(n);
    let bin = |pv: &[[f32; 4]], real: &mut [u32], mut ghost: Option<&mut [u32]>| {
        for (k, p) in pv.iter().enumerate() {
            let (cx, cy) = grid.cell_xy(Vec2::new(p[0], p[1]));
            real[k] = counters[grid.index(cx, cy) as usize].fetch_add(1, Ordering::Relaxed);
            if let Some((g, _)) = grid.ghost(cx, cy) {
                let ghost = ghost.as_deref_mut().expect("a wrapping grid ranks ghosts");
                ghost[k] = counters[g as usize].fetch_add(1, Ordering::Relaxed);
            }
        }
    };
    if ghost.is_empty() {
        pos_vel
            .par_chunks(MIN_TASK)
            .zip(real.par_chunks_mut(MIN_TASK))
            .for_each(|(pv, r)| bin(pv, r, None));
    } else {
        pos_vel
            .par_chunks(MIN_TASK)
            .zip(real.par_chunks_mut(MIN_TASK))
            .zip(ghost[..n].par_chunks_mut(MIN_TASK))
            .for_each(|((pv, r), g)| bin(pv, r, Some(g)));
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
/// each cell's range of `slots` lists the ids of its items (in rank order). In parallel. `keys`
/// (CPU only) receives `id · 2³² + item` at the same place, where item `i < n` is boid `i` and
/// item `n + i` its ghost: what `scatter` sorts each cell by.
pub fn slots(
    pos_vel: &[[f32; 4]],
    id: &[u32],
    grid: &Grid,
    cells: &[u32],
    rank: &[u32],
    slots: &mut [u32],
    keys: &mut [u64],
) {
    let n = pos_vel.len();
    let (slots, keys) = (atomic_u32(slots), atomic_u64(keys));
    let put = |place: u32, id: u32, item: usize| {
        slots[place as usize].store(id, Ordering::Relaxed);
        keys[place as usize].store(((id as u64) << 32) | item as u64, Ordering::Relaxed);
    };
    pos_vel
        .par_chunks(MIN_TASK)
        .enumerate()
        .for_each(|(c, pv)| {
            let i0 = c * MIN_TASK;
            for (k, p) in pv.iter().enumerate() {
                let i = i0 + k;
                let (cx, cy) = grid.cell_xy(Vec2::new(p[0], p[1]));
                put(cells[grid.index(cx, cy) as usize] + rank[i], id[i], i);
                if let Some((g, _)) = grid.ghost(cx, cy) {
                    put(cells[g as usize] + rank[n + i], id[i], n + i);
                }
            }
        });
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
/// `start(c) ..`, within a cell by boid id (then by item, should ids repeat) — shifting ghosts by
/// ±W; the ids come from the keys. Each cell's range of `keys` (written by [`slots`]) is sorted on the way, and `slots`
/// rewritten from it (so each cell's ids are in order). In parallel over ranges of cells.
#[allow(clippy::too_many_arguments)]
pub fn scatter(
    pos_vel: &[[f32; 4]],
    hue: &[[f32; 4]],
    grid: &Grid,
    world_width: f32,
    cells: &[u32],
    slots: &mut [u32],
    keys: &mut [u64],
    out: Sorted<'_>,
) {
    let total = cells[cells.len() - 1] as usize;
    let from = Sources {
        pos_vel,
        hue,
        grid,
        world_width,
        cells,
    };
    let part = Part {
        slots: &mut slots[..total],
        keys: &mut keys[..total],
        pos_vel: &mut out.pos_vel[..total],
        hue: &mut out.hue[..total],
        id: &mut out.id[..total],
    };
    scatter_cells(&from, 0, cells.len() - 1, part);
}

/// What `scatter` reads.
struct Sources<'a> {
    pos_vel: &'a [[f32; 4]],
    hue: &'a [[f32; 4]],
    grid: &'a Grid,
    world_width: f32,
    cells: &'a [u32],
}

/// The part of `scatter`'s per-item outputs that belongs to a range of cells.
struct Part<'a> {
    slots: &'a mut [u32],
    keys: &'a mut [u64],
    pos_vel: &'a mut [[f32; 4]],
    hue: &'a mut [[f32; 4]],
    id: &'a mut [u32],
}

impl<'a> Part<'a> {
    fn split_at(self, k: usize) -> (Part<'a>, Part<'a>) {
        let (s0, s1) = self.slots.split_at_mut(k);
        let (k0, k1) = self.keys.split_at_mut(k);
        let (p0, p1) = self.pos_vel.split_at_mut(k);
        let (h0, h1) = self.hue.split_at_mut(k);
        let (i0, i1) = self.id.split_at_mut(k);
        (
            Part {
                slots: s0,
                keys: k0,
                pos_vel: p0,
                hue: h0,
                id: i0,
            },
            Part {
                slots: s1,
                keys: k1,
                pos_vel: p1,
                hue: h1,
                id: i1,
            },
        )
    }
}

/// `scatter` for cells `c0 .. c1`, whose items are `out` (from item `cells[c0]`): halves of about
/// equal items in parallel down to [`MIN_TASK`] items.
fn scatter_cells(from: &Sources<'_>, c0: usize, c1: usize, out: Part<'_>) {
    let cells = from.cells;
    let base = cells[c0] as usize;
    let items = cells[c1] as usize - base;
    if items > MIN_TASK && c1 - c0 > 1 {
        // The first cell whose items start past the middle (a cell boundary strictly inside).
        let half = (base + items / 2) as u32;
        let cm = (c0 + 1 + cells[c0 + 1..c1].partition_point(|&x| x <= half)).min(c1 - 1);
        let (lo, hi) = out.split_at(cells[cm] as usize - base);
        rayon::join(
            || scatter_cells(from, c0, cm, lo),
            || scatter_cells(from, cm, c1, hi),
        );
        return;
    }
    let n = from.pos_vel.len();
    let grid = from.grid;
    let real = grid.real_cells() as usize;
    for c in c0..c1 {
        let (a, b) = (cells[c] as usize - base, cells[c + 1] as usize - base);
        if b - a > 1 {
            out.keys[a..b].sort_unstable();
        }
        // Padding slots 0 .. pad are the left padding (ghosts shifted by −W), the others the
        // right padding (+W).
        let shift = if c < real {
            0.0
        } else if ((c - real) as u32 % (2 * grid.pad)) < grid.pad {
            -from.world_width
        } else {
            from.world_width
        };
        for k in a..b {
            let key = out.keys[k];
            let (bid, item) = ((key >> 32) as u32, (key & 0xffff_ffff) as usize);
            let i = if item < n { item } else { item - n };
            let mut pv = from.pos_vel[i];
            pv[0] += shift;
            out.slots[k] = bid;
            out.pos_vel[k] = pv;
            out.hue[k] = from.hue[i];
            out.id[k] = bid;
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

/// Lane steps a [`Candidates`] keeps (4 per block row of a 5 × 5 block, and room to spare).
pub const STEPS: usize = 48;

/// The candidate ranges of an item in cell `(cx, cy)`: for each block row up to three ranges of
/// sorted items (left padding, real cells, right padding), each with the row's whole-world
/// vertical shift (candidates of the row are compared against `(p.x, p.y − y_shift)`); at most 15,
/// the empty ones left out. The same for every item of a cell; [`Candidates::set_cell`] keeps the
/// block rows while the row of cells stays the same.
#[derive(Clone, Copy, Debug)]
pub struct Candidates {
    ranges: [CandidateRange; 15],
    len: usize,
    /// The ranges' lane steps ([`steps_of`]), while they fit (`steps_len ≤ STEPS`); else
    /// `steps_len` is `usize::MAX`.
    steps: [LaneStep; STEPS + 1],
    steps_len: usize,
    /// The cell the ranges are for (`u32::MAX` before the first).
    cell: (u32, u32),
    /// The block rows of row `cell.1`: `(row, y_shift)`.
    rows: [(u32, f32); 5],
    rows_len: usize,
}

impl Candidates {
    /// The ranges of cell `(cx, cy)` (cell starts `cells`, after `scan`).
    #[inline]
    pub fn of_cell(cx: u32, cy: u32, cells: &[u32], grid: &Grid, u: &StepUniforms) -> Candidates {
        let mut c = Candidates::new();
        c.set_cell(cx, cy, cells, grid, u);
        c
    }

    /// No ranges, for no cell yet.
    pub fn new() -> Candidates {
        Candidates {
            ranges: [CandidateRange::default(); 15],
            len: 0,
            steps: [LaneStep::default(); STEPS + 1],
            steps_len: 0,
            cell: (u32::MAX, u32::MAX),
            rows: [(0, 0.0); 5],
            rows_len: 0,
        }
    }

    /// Makes these the ranges of cell `(cx, cy)` (nothing to do when they are).
    #[inline]
    pub fn set_cell(&mut self, cx: u32, cy: u32, cells: &[u32], grid: &Grid, u: &StepUniforms) {
        if self.cell == (cx, cy) {
            return;
        }
        if self.cell.1 != cy {
            let (rows, n) = grid.block_rows(cy);
            for (out, &(row, shift)) in self.rows.iter_mut().zip(&rows[..n]) {
                *out = (row, shift as f32 * u.world_height);
            }
            self.rows_len = n;
        }
        self.cell = (cx, cy);
        self.len = 0;
        // The columns of the block, the same for every row: `Grid::row_ranges` for all rows at
        // once — left padding slots, real columns, right padding slots.
        let (lo, hi) = (
            cx as i32 - grid.block_x as i32,
            cx as i32 + grid.block_x as i32,
        );
        let cols = grid.cols as i32;
        let pad = grid.pad as i32;
        let real = (lo.max(0) as usize, hi.min(cols - 1) as usize);
        let left = (grid.wrap && lo < 0).then_some(((pad + lo) as usize, pad as usize - 1));
        let right = (grid.wrap && hi >= cols).then_some((pad as usize, (pad + hi - cols) as usize));
        let (cols, pad_base, pads) = (
            grid.cols as usize,
            grid.real_cells() as usize,
            2 * grid.pad as usize,
        );
        for &(row, y_shift) in &self.rows[..self.rows_len] {
            let row = row as usize;
            let mut push = |first: usize, last: usize| {
                let (a, b) = (cells[first], cells[last + 1]);
                if a < b {
                    self.ranges[self.len] = CandidateRange {
                        start: a,
                        end: b,
                        y_shift,
                    };
                    self.len += 1;
                }
            };
            let padding = pad_base + row * pads;
            if let Some((a, b)) = left {
                push(padding + a, padding + b);
            }
            push(row * cols + real.0, row * cols + real.1);
            if let Some((a, b)) = right {
                push(padding + a, padding + b);
            }
        }
        // The lane steps: one or two per range without a branch on its length (the second
        // written always, counted when the range has more than 8 items); longer ranges, rare,
        // step by step.
        const L: u32 = LANES as u32;
        let mut n = 0;
        for r in &self.ranges[..self.len] {
            let len = r.end - r.start;
            if len <= 2 * L && n + 2 <= STEPS {
                self.steps[n] = LaneStep {
                    start: r.start,
                    live: len.min(L),
                    y_shift: r.y_shift,
                };
                self.steps[n + 1] = LaneStep {
                    start: r.start + L,
                    live: len.saturating_sub(L),
                    y_shift: r.y_shift,
                };
                n += 1 + (len > L) as usize;
            } else {
                for t in steps_of(std::slice::from_ref(r)) {
                    if n == STEPS {
                        self.steps_len = usize::MAX;
                        return;
                    }
                    self.steps[n] = t;
                    n += 1;
                }
            }
        }
        self.steps_len = n;
    }

    /// The lane steps of the ranges, in order ([`steps_of`]), when there are at most [`STEPS`].
    #[inline]
    pub fn steps(&self) -> Option<&[LaneStep]> {
        self.steps.get(..self.steps_len)
    }

    /// The non-empty ranges, in block order.
    #[inline]
    pub fn ranges(&self) -> &[CandidateRange] {
        &self.ranges[..self.len]
    }
}

impl Default for Candidates {
    fn default() -> Self {
        Candidates::new()
    }
}

/// Gathers the neighbour sums of sorted item `s` over its block (docs/model.md §4): every
/// candidate within the perception radius, or with a neighbour cap only the `max_neighbors`
/// nearest (by squared distance, then id). Candidates are the items of the block rows around it —
/// each row at most three contiguous ranges, with the row's vertical shift: ghosts and wrapped rows
/// carry their true offset `d = p_j − p_s` — the item itself left out. Mirrors `gather` in
/// `shaders/gather.wgsl`. The scalar reference; [`gather_with`] chooses a vectorised path.
pub fn gather(
    s: usize,
    sorted: SortedRef<'_>,
    cells: &[u32],
    grid: &Grid,
    u: &StepUniforms,
) -> NeighborSums {
    let me = sorted.pos_vel[s];
    let (cx, cy) = grid.cell_xy(Vec2::new(me[0], me[1]));
    gather_scalar(s, sorted, &Candidates::of_cell(cx, cy, cells, grid, u), u)
}

/// [`gather`] over the candidate ranges `cand` of item `s`'s cell.
fn gather_scalar(
    s: usize,
    sorted: SortedRef<'_>,
    cand: &Candidates,
    u: &StepUniforms,
) -> NeighborSums {
    let me = sorted.pos_vel[s];
    let mut sums = NeighborSums::default();
    if u.max_neighbors == 0 {
        for r in cand.ranges() {
            let qy = me[1] - r.y_shift;
            for j in r.start as usize..r.end as usize {
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
    for r in cand.ranges() {
        let qy = me[1] - r.y_shift;
        for j in r.start as usize..r.end as usize {
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

/// How `rules` gathers the neighbour sums.
#[derive(Clone, Copy, Debug)]
pub enum Gather<'a> {
    /// The scalar reference [`gather`].
    Scalar,
    /// A vectorised path over the sorted items transposed into `lanes` (filled from the same
    /// sorted arrays), where [`simd_applies`]; the scalar reference elsewhere.
    Lanes(GatherPath, &'a SortedLanes),
}

/// The neighbour sums of sorted item `s` as `how` gathers them (see [`gather`]; the vectorised
/// paths differ from it by the summation order only: see [`crate::stages::gather_simd`]).
pub fn gather_with(
    how: Gather<'_>,
    s: usize,
    sorted: SortedRef<'_>,
    cells: &[u32],
    grid: &Grid,
    u: &StepUniforms,
) -> NeighborSums {
    let me = sorted.pos_vel[s];
    let (cx, cy) = grid.cell_xy(Vec2::new(me[0], me[1]));
    gather_in(
        how,
        s,
        sorted,
        &Candidates::of_cell(cx, cy, cells, grid, u),
        u,
    )
}

/// [`gather_with`] over the candidate ranges of item `s`'s cell.
#[inline]
fn gather_in(
    how: Gather<'_>,
    s: usize,
    sorted: SortedRef<'_>,
    cand: &Candidates,
    u: &StepUniforms,
) -> NeighborSums {
    let mut out = NeighborSums::default();
    gather_into(how, s, sorted, cand, u, &mut out);
    out
}

/// [`gather_in`] into `out`.
#[inline(always)]
fn gather_into(
    how: Gather<'_>,
    s: usize,
    sorted: SortedRef<'_>,
    cand: &Candidates,
    u: &StepUniforms,
    out: &mut NeighborSums,
) {
    match how {
        Gather::Lanes(path, lanes) if path != GatherPath::Scalar && simd_applies(u) => {
            let me = sorted.pos_vel[s];
            let p = Vec2::new(me[0], me[1]);
            gather_lanes_into(path, s, p, cand.ranges(), lanes, u, out);
        }
        _ => *out = gather_scalar(s, sorted, cand, u),
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
    /// Neighbour count per boid.
    pub neighbors: &'a mut [u32],
}

/// `rules`: the next state of every boid — the first N sorted items; the ghosts after them are
/// candidates only — written at the same index of the state (so the state follows the sort's
/// order), with its id and neighbour count; the neighbour sums gathered as `how` says. A boid a
/// hunting predator catches respawns instead (docs/model.md §18.4); the others feel the predators'
/// push. Parallel with rayon over runs of consecutive sorted items; each boid's result depends on
/// the sorted arrays only, not on the tasks. Returns the number of boids caught.
pub fn rules(
    u: &StepUniforms,
    sorted: SortedRef<'_>,
    how: Gather<'_>,
    cells: &[u32],
    obstacles: &ObstacleGrid,
    predators: &[Predator],
    out: StateMut<'_>,
) -> u32 {
    let grid = u.grid();
    let ctx = RulesCtx {
        u,
        sorted,
        how,
        cells,
        grid: &grid,
        obstacles,
        predators,
    };
    out.pos_vel
        .par_chunks_mut(RULES_TASK)
        .zip(out.hue.par_chunks_mut(RULES_TASK))
        .zip(out.id.par_chunks_mut(RULES_TASK))
        .zip(out.neighbors.par_chunks_mut(RULES_TASK))
        .enumerate()
        .map(|(c, (((pv, hu), id), nb))| {
            let part = StateMut {
                pos_vel: pv,
                hue: hu,
                id,
                neighbors: nb,
            };
            let path = match how {
                Gather::Lanes(path, _) if path.is_available() => path,
                _ => GatherPath::Scalar,
            };
            #[cfg(target_arch = "x86_64")]
            match path {
                GatherPath::Avx512 => {
                    // SAFETY: `path` is available: the CPU has AVX-512F, AVX-512VL and AVX2.
                    return unsafe { rules_run_avx512(&ctx, c * RULES_TASK, part) };
                }
                GatherPath::Avx2 => {
                    // SAFETY: `path` is available: the CPU has AVX2.
                    return unsafe { rules_run_avx2(&ctx, c * RULES_TASK, part) };
                }
                GatherPath::Scalar | GatherPath::Portable | GatherPath::Sse2 => {}
            }
            rules_run(&ctx, c * RULES_TASK, part)
        })
        .sum()
}

/// `predators`: each predator's next state (docs/model.md §18.2–§18.3) from the step's sorted
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

/// What `rules` reads.
struct RulesCtx<'a> {
    u: &'a StepUniforms,
    sorted: SortedRef<'a>,
    how: Gather<'a>,
    cells: &'a [u32],
    grid: &'a Grid,
    obstacles: &'a ObstacleGrid,
    predators: &'a [Predator],
}

/// `rules` for the boids of `out`, from sorted item `s0` on: groups of 8 through
/// [`integrate_lanes`] (the same bits as [`crate::model::rules::integrate`]) where it applies, the
/// rest one by one through [`next_boid`] (with predators every boid goes that way: the lanes know
/// no predators). Returns the number of boids caught.
#[inline(always)]
fn rules_run(ctx: &RulesCtx<'_>, s0: usize, out: StateMut<'_>) -> u32 {
    const L: usize = integrate_simd::LANES;
    let (u, sorted) = (ctx.u, ctx.sorted);
    let n = out.pos_vel.len();
    let lanes = integrate_simd::lanes_apply(u);
    let mut caught = 0;
    // Consecutive items of one cell share its candidate ranges (and of one row of cells, the
    // block rows).
    let mut cand = Candidates::new();
    let mut k = 0;
    while k < n {
        let s = s0 + k;
        if lanes && n - k >= L {
            let mut sums = SumsLanes::default();
            let mut obs = [ObstacleSums::default(); L];
            let mut near_obstacles = false;
            for (l, ob) in obs.iter_mut().enumerate() {
                let me = sorted.pos_vel[s + l];
                let p = Vec2::new(me[0], me[1]);
                let (cx, cy) = ctx.grid.cell_xy(p);
                cand.set_cell(cx, cy, ctx.cells, ctx.grid, u);
                match ctx.how {
                    Gather::Lanes(path, lanes) if path != GatherPath::Scalar && simd_applies(u) => {
                        let out = &mut sums.lane(l);
                        match cand.steps() {
                            Some(steps) => gather_steps_into(path, s + l, p, steps, lanes, u, out),
                            None => gather_lanes_into(path, s + l, p, cand.ranges(), lanes, u, out),
                        }
                    }
                    _ => sums.lane(l).set(&gather_scalar(s + l, sorted, &cand, u)),
                }
                if u.obstacle_count > 0 {
                    *ob = obstacle_sums(p, ctx.obstacles, u);
                    near_obstacles |= *ob != ObstacleSums::empty(u);
                }
            }
            integrate_lanes(
                sorted.pos_vel[s..s + L].try_into().expect("8 items"),
                sorted.hue[s..s + L].try_into().expect("8 items"),
                sorted.id[s..s + L].try_into().expect("8 items"),
                &sums,
                near_obstacles.then_some(&obs),
                u,
                (&mut out.pos_vel[k..k + L], &mut out.hue[k..k + L]),
            );
            out.id[k..k + L].copy_from_slice(&sorted.id[s..s + L]);
            out.neighbors[k..k + L].copy_from_slice(&sums.n[0]);
            k += L;
        } else {
            let (mut sums, mut ob) = (NeighborSums::default(), ObstacleSums::default());
            gather_one(ctx, s, &mut cand, &mut sums, &mut ob);
            let boid = Boid::from_parts(sorted.pos_vel[s], sorted.hue[s], sorted.id[s]);
            let (next, was_caught) = next_boid(&boid, &sums, &ob, ctx.predators, u);
            caught += was_caught as u32;
            out.pos_vel[k] = next.pos_vel();
            out.hue[k] = next.hue_parts();
            out.id[k] = boid.id;
            out.neighbors[k] = sums.neighbors;
            k += 1;
        }
    }
    caught
}

/// The neighbour sums and obstacle sums of sorted item `s` into `sums` and `ob` (`cand` moved to
/// its cell).
#[inline(always)]
fn gather_one(
    ctx: &RulesCtx<'_>,
    s: usize,
    cand: &mut Candidates,
    sums: &mut NeighborSums,
    ob: &mut ObstacleSums,
) {
    let (u, sorted) = (ctx.u, ctx.sorted);
    let me = sorted.pos_vel[s];
    let p = Vec2::new(me[0], me[1]);
    let (cx, cy) = ctx.grid.cell_xy(p);
    cand.set_cell(cx, cy, ctx.cells, ctx.grid, u);
    gather_into(ctx.how, s, sorted, cand, u, sums);
    *ob = obstacle_sums(p, ctx.obstacles, u);
}

/// [`rules_run`] compiled for AVX2: the same operations (IEEE single precision, no fused
/// multiply-add), so the same bits, with the CPU's vector and rounding instructions and the AVX2
/// gather inlined.
///
/// # Safety
/// The CPU must have AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn rules_run_avx2(ctx: &RulesCtx<'_>, s0: usize, out: StateMut<'_>) -> u32 {
    rules_run(ctx, s0, out)
}

/// [`rules_run`] compiled for AVX-512 (see [`rules_run_avx2`]), with the AVX-512 gather inlined.
///
/// # Safety
/// The CPU must have AVX-512F, AVX-512VL and AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512vl,avx2")]
unsafe fn rules_run_avx512(ctx: &RulesCtx<'_>, s0: usize, out: StateMut<'_>) -> u32 {
    rules_run(ctx, s0, out)
}

/// `measures`: the flock measures of a state — the reduction's sums in f64
/// ([`MeasureSums::of_state`]), finished by the measure table ([`FlockMeasures::from_sums`]) — in
/// the world of `u` (a periodic milling centre when it wraps), with v_a taken at the model's
/// constant speed when it has one. `neighbors_counted`: whether `neighbors` come from a step.
pub fn measures(
    pos_vel: &[[f32; 4]],
    neighbors: &[u32],
    u: &StepUniforms,
    neighbors_counted: bool,
) -> FlockMeasures {
    let world = crate::model::measures::World {
        width: u.world_width,
        height: u.world_height,
        wrap: u.boundary == 0,
    };
    let sums = MeasureSums::of_state(pos_vel, neighbors, world);
    FlockMeasures::from_sums(
        &sums,
        &MeasureContext {
            n: pos_vel.len(),
            v0: crate::model::models::constant_speed_of(u),
            neighbors_counted,
        },
    )
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
    /// `id · 2³² + item` of each cell's items (CPU only: what `scatter` sorts a cell by).
    pub slot_keys: Vec<u64>,
    /// Sorted `[x, y, vx, vy]` per item.
    pub sorted_pos_vel: Vec<[f32; 4]>,
    /// Sorted `[hx, hy, ux, uy]` per item.
    pub sorted_hue: Vec<[f32; 4]>,
    /// Id of each sorted item's boid.
    pub sorted_id: Vec<u32>,
    /// Neighbour count of each boid after `rules`.
    pub neighbors: Vec<u32>,
    /// Whether `neighbors` were counted by a step of the current state (not since
    /// [`CpuStep::set_state`]).
    pub neighbors_counted: bool,
    /// The result of `measures`.
    pub measures: FlockMeasures,
    /// How `rules` gathers the neighbour sums: by default the fastest vectorised path of this
    /// CPU ([`GatherPath::best`]; every vectorised path gives the same bits), or the scalar
    /// reference.
    pub gather_path: GatherPath,
    /// The sorted items transposed for the vectorised gather (CPU only; filled by `rules`).
    pub lanes: SortedLanes,
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
            slot_keys: Vec::new(),
            sorted_pos_vel: Vec::new(),
            sorted_hue: Vec::new(),
            sorted_id: Vec::new(),
            neighbors: Vec::new(),
            neighbors_counted: false,
            measures: FlockMeasures::default(),
            gather_path: GatherPath::best(),
            lanes: SortedLanes::default(),
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
        self.neighbors_counted = false;
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
        self.slot_keys.resize(items, 0);
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
    slots(
        &s.pos_vel,
        &s.id,
        &grid,
        &s.cells,
        &s.rank,
        &mut s.slot_ids,
        &mut s.slot_keys,
    );
}

/// `scatter` on a [`CpuStep`].
pub fn scatter_step(s: &mut CpuStep) {
    let grid = s.params.grid();
    scatter(
        &s.pos_vel,
        &s.hue,
        &grid,
        s.params.world_width,
        &s.cells,
        &mut s.slot_ids,
        &mut s.slot_keys,
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

/// `rules` on a [`CpuStep`]: sorted items → state. On a vectorised [`CpuStep::gather_path`] the
/// sorted items are first transposed into [`CpuStep::lanes`] (when [`simd_applies`]). Counts the
/// catches.
pub fn rules_step(s: &mut CpuStep) {
    let total = s.cells[s.cells.len() - 1] as usize;
    let sorted = SortedRef {
        pos_vel: &s.sorted_pos_vel,
        hue: &s.sorted_hue,
        id: &s.sorted_id,
    };
    let how = if s.gather_path != GatherPath::Scalar && simd_applies(&s.params) {
        s.lanes
            .fill(&s.sorted_pos_vel[..total], &s.sorted_hue[..total]);
        Gather::Lanes(s.gather_path, &s.lanes)
    } else {
        Gather::Scalar
    };
    let caught = rules(
        &s.params,
        sorted,
        how,
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
    s.neighbors_counted = true;
}

/// `measures` on a [`CpuStep`] (with the catch counters).
pub fn measures_step(s: &mut CpuStep) {
    s.measures = measures(&s.pos_vel, &s.neighbors, &s.params, s.neighbors_counted)
        .with_catches(s.catches[0], s.catches[1]);
}

/// `scatter_heavy` on a [`CpuStep`]: nothing. On the GPU, `scatter` defers the items of crowded
/// cells to `scatter_heavy` (to bound the work of one invocation); the CPU twin `scatter` places
/// every item itself, so the pair `scatter` + `scatter_heavy` is tested against `scatter`.
pub fn scatter_heavy_step(_: &mut CpuStep) {}

/// `rules_heavy` on a [`CpuStep`]: nothing. On the GPU, `rules` defers boids with very many
/// candidates or nearby obstacle points to `rules_heavy`; the CPU twin `rules` steps every boid
/// itself, so the pair `rules` + `rules_heavy` is tested against `rules`.
pub fn rules_heavy_step(_: &mut CpuStep) {}
