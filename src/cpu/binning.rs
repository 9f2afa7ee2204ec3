//! The binning stages of the CPU backend — `count`, `slots` and `scatter` — in parallel with
//! rayon. They produce what the reference twins of `crate::stages::twins` produce (the counts,
//! the cell starts, each cell's ids and the sorted arrays in the canonical order, bit for bit),
//! tested in `tests/it/cpu_backend.rs`: `count` ranks with atomic additions in whatever order the
//! tasks run, as the GPU does, and `slots` also writes each item's sort key, so that `scatter`
//! orders a cell by sorting its keys instead of counting smaller ids.

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};

use glam::Vec2;
use rayon::prelude::*;

use crate::model::grid::Grid;
use crate::stages::twins::Sorted;

/// Smallest number of items a rayon task of the binning stages handles.
const MIN_TASK: usize = 4096;

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

/// `count` (the twin: [`crate::stages::twins::count()`]): bins each boid, and its ghost if it has
/// one: `rank[i]` = the rank of boid `i` among the items of its cell, `rank[n + i]` that of its
/// ghost, and `cells[c]` = number of items in cell c. Unlike the twin (and the GPU), it neither
/// marks a boid with a ghost in its rank nor writes each item's cell: this backend's [`slots`]
/// finds the cell from the position, which it reads from memory already in cache. In parallel: as on the GPU, ranks come from
/// atomic additions in whatever order the tasks run (`scatter` does not depend on them). `rank` has
/// `n` entries, or `2·n` when the grid wraps.
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

/// `slots` (the twin: [`crate::stages::twins::slots()`]): writes each item's boid id at its counted
/// place, `slots[start(cell) + rank] = id` (the cell from the boid's position, the ranks of this
/// backend's [`count`]), so each cell's range of `slots` lists the ids of its
/// items (in rank order). In parallel. `keys` (CPU only) receives `id · 2³² + item` at the same
/// place, where item `i < n` is boid `i` and item `n + i` its ghost: what `scatter` sorts each cell
/// by.
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

/// `scatter` (the twin: [`crate::stages::twins::scatter()`]): copies each item's state to its place
/// in cell order — cell `c`'s items at `start(c) ..`, within a cell by boid id (then by item,
/// should ids repeat) — shifting ghosts by ±W; the ids come from the keys. Each cell's range of
/// `keys` (written by [`slots`]) is sorted on the way, and `slots` rewritten from it (so each
/// cell's ids are in order). In parallel over ranges of cells.
#[allow(clippy::too_many_arguments)]
pub fn scatter(
    pos_vel: &[[f32; 4]],
    hue: &[[f32; 4]],
    image: &[[i32; 2]],
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
        image,
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
        image: &mut out.image[..total],
    };
    scatter_cells(&from, 0, cells.len() - 1, part);
}

/// What `scatter` reads.
struct Sources<'a> {
    pos_vel: &'a [[f32; 4]],
    hue: &'a [[f32; 4]],
    image: &'a [[i32; 2]],
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
    image: &'a mut [[i32; 2]],
}

impl<'a> Part<'a> {
    fn split_at(self, k: usize) -> (Part<'a>, Part<'a>) {
        let (s0, s1) = self.slots.split_at_mut(k);
        let (k0, k1) = self.keys.split_at_mut(k);
        let (p0, p1) = self.pos_vel.split_at_mut(k);
        let (h0, h1) = self.hue.split_at_mut(k);
        let (i0, i1) = self.id.split_at_mut(k);
        let (m0, m1) = self.image.split_at_mut(k);
        (
            Part {
                slots: s0,
                keys: k0,
                pos_vel: p0,
                hue: h0,
                id: i0,
                image: m0,
            },
            Part {
                slots: s1,
                keys: k1,
                pos_vel: p1,
                hue: h1,
                id: i1,
                image: m1,
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
            // A boid's image counts (a ghost has none, as on the GPU).
            if item < n {
                out.image[k] = from.image[i];
            }
        }
    }
}
