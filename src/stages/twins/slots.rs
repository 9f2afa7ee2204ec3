//! `slots` (`shaders/slots.wgsl`): each cell's range lists the ids of its items.

use crate::model::grid::Grid;

/// Writes each item's boid id at its counted place, `slot_ids[start(cell) + rank] = id` (the
/// ghost of boid `i` with rank `rank[n + i]`), so each cell's range of `slot_ids` holds the ids
/// of its items, in rank order.
pub fn slots(
    pos_vel: &[[f32; 4]],
    id: &[u32],
    grid: &Grid,
    cells: &[u32],
    rank: &[u32],
    slot_ids: &mut [u32],
) {
    let n = pos_vel.len();
    for (i, p) in pos_vel.iter().enumerate() {
        let (cx, cy) = grid.cell_xy(glam::Vec2::new(p[0], p[1]));
        let start = cells[grid.index(cx, cy) as usize];
        slot_ids[(start + rank[i]) as usize] = id[i];
        if let Some((ghost_cell, _)) = grid.ghost(cx, cy) {
            let start = cells[ghost_cell as usize];
            slot_ids[(start + rank[n + i]) as usize] = id[i];
        }
    }
}
