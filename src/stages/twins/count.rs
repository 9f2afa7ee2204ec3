//! `count` (`shaders/count.wgsl`): each item counted in its cell.

use crate::model::grid::Grid;

/// The bit of a boid's rank word (`rank`, written by `count`) that says the boid has a ghost
/// item, so that `slots` needs neither its position nor the grid (`RANK_HAS_GHOST` in
/// `shaders/common.wgsl`; a rank in a cell is below 2³¹).
pub const RANK_HAS_GHOST: u32 = 1 << 31;

/// The bit of a boid's cell word (`item_cell`) that says the boid has a ghost item, whose cell is
/// the word `n + i` (`CELL_HAS_GHOST` in `shaders/common.wgsl`; a cell index is below 2³¹).
pub const CELL_HAS_GHOST: u32 = 1 << 31;

/// The cell words of a boid at `p` (wu): its own, with [`CELL_HAS_GHOST`] set when it has a
/// ghost, and its ghost's cell. What `count` writes from a position and the previous step's
/// `rules` from the position it wrote ([`cell_words`]).
pub fn cell_word(grid: &Grid, p: [f32; 4]) -> (u32, Option<u32>) {
    let (cx, cy) = grid.cell_xy(glam::Vec2::new(p[0], p[1]));
    let ghost = grid.ghost(cx, cy).map(|(cell, _)| cell);
    let flag = if ghost.is_some() { CELL_HAS_GHOST } else { 0 };
    (grid.index(cx, cy) | flag, ghost)
}

/// Writes every boid's cell words into `item_cell` (boid `i`'s at `i`, its ghost's at `n + i`),
/// as `rules` does on the GPU for the next step's `count`.
pub fn cell_words(pos_vel: &[[f32; 4]], grid: &Grid, item_cell: &mut [u32]) {
    let n = pos_vel.len();
    for (i, &p) in pos_vel.iter().enumerate() {
        let (w, ghost) = cell_word(grid, p);
        item_cell[i] = w;
        if let Some(g) = ghost {
            item_cell[n + i] = g;
        }
    }
}

/// Bins each boid, and its ghost if it has one: `cells[c]` becomes the number of items in cell
/// `c`, `rank[i]` the rank of boid `i` among the items of its cell (with [`RANK_HAS_GHOST`] set
/// when it has a ghost) and `rank[n + i]` that of its ghost; `item_cell` the cell word of each
/// item at the same index ([`cell_word`]). With `cells_known` the cell words are already in
/// `item_cell` (the previous step's `rules` wrote them) and are read instead of found from the
/// positions. Boids are taken in order, so the ranks are the order of arrival; on the GPU they
/// come from atomic additions in no fixed order, and nothing after `slots` depends on them.
/// `rank` and `item_cell` have `n` entries, or `2·n` when the grid wraps.
pub fn count(
    pos_vel: &[[f32; 4]],
    grid: &Grid,
    cells_known: bool,
    cells: &mut [u32],
    rank: &mut [u32],
    item_cell: &mut [u32],
) {
    let n = pos_vel.len();
    if !cells_known {
        cell_words(pos_vel, grid, item_cell);
    }
    for i in 0..n {
        let w = item_cell[i];
        let cell = (w & !CELL_HAS_GHOST) as usize;
        let has_ghost = w & CELL_HAS_GHOST != 0;
        rank[i] = cells[cell] | if has_ghost { RANK_HAS_GHOST } else { 0 };
        cells[cell] += 1;
        if has_ghost {
            let ghost_cell = item_cell[n + i] as usize;
            rank[n + i] = cells[ghost_cell];
            cells[ghost_cell] += 1;
        }
    }
}
