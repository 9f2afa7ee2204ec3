//! `count` (`shaders/count.wgsl`): each item counted in its cell.

use crate::model::grid::Grid;

/// Bins each boid, and its ghost if it has one: `cells[c]` becomes the number of items in cell
/// `c`, `rank[i]` the rank of boid `i` among the items of its cell and `rank[n + i]` that of its
/// ghost. Boids are taken in order, so the ranks are the order of arrival; on the GPU they come
/// from atomic additions in no fixed order, and nothing after `slots` depends on them.
/// `rank` has `n` entries, or `2·n` when the grid wraps.
pub fn count(pos_vel: &[[f32; 4]], grid: &Grid, cells: &mut [u32], rank: &mut [u32]) {
    let n = pos_vel.len();
    for (i, p) in pos_vel.iter().enumerate() {
        let (cx, cy) = grid.cell_xy(glam::Vec2::new(p[0], p[1]));
        let cell = grid.index(cx, cy) as usize;
        rank[i] = cells[cell];
        cells[cell] += 1;
        if let Some((ghost_cell, _)) = grid.ghost(cx, cy) {
            rank[n + i] = cells[ghost_cell as usize];
            cells[ghost_cell as usize] += 1;
        }
    }
}
