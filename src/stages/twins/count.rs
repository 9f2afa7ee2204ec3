//! `count` (`shaders/count.wgsl`): each item counted in its cell.

use crate::model::grid::Grid;

/// The bit of a boid's rank word (`rank`, written by `count`) that says the boid has a ghost
/// item, so that `slots` needs neither its position nor the grid (`RANK_HAS_GHOST` in
/// `shaders/count.wgsl`; a rank in a cell is below 2³¹).
pub const RANK_HAS_GHOST: u32 = 1 << 31;

/// Bins each boid, and its ghost if it has one: `cells[c]` becomes the number of items in cell
/// `c`, `rank[i]` the rank of boid `i` among the items of its cell (with [`RANK_HAS_GHOST`] set
/// when it has a ghost) and `rank[n + i]` that of its ghost; `item_cell` the cell of each item at
/// the same index. Boids are taken in order, so the ranks are the order of arrival; on the GPU they
/// come from atomic additions in no fixed order, and nothing after `slots` depends on them.
/// `rank` and `item_cell` have `n` entries, or `2·n` when the grid wraps.
pub fn count(
    pos_vel: &[[f32; 4]],
    grid: &Grid,
    cells: &mut [u32],
    rank: &mut [u32],
    item_cell: &mut [u32],
) {
    let n = pos_vel.len();
    for (i, p) in pos_vel.iter().enumerate() {
        let (cx, cy) = grid.cell_xy(glam::Vec2::new(p[0], p[1]));
        let cell = grid.index(cx, cy);
        let ghost = grid.ghost(cx, cy);
        rank[i] = cells[cell as usize] | if ghost.is_some() { RANK_HAS_GHOST } else { 0 };
        item_cell[i] = cell;
        cells[cell as usize] += 1;
        if let Some((ghost_cell, _)) = ghost {
            rank[n + i] = cells[ghost_cell as usize];
            item_cell[n + i] = ghost_cell;
            cells[ghost_cell as usize] += 1;
        }
    }
}
