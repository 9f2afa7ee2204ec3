//! `slots` (`shaders/slots.wgsl`): each cell's range lists the ids of its items.

use super::count::{CELL_HAS_GHOST, RANK_HAS_GHOST};

/// Writes each item's boid id at its counted place, `slot_ids[start(cell) + rank] = id`, with the
/// cell and rank `count` gave it (`item_cell`, less its [`CELL_HAS_GHOST`] bit, and `rank`; the
/// ghost of boid `i`, where its rank word says it has one, at `n + i`), so each cell's range of `slot_ids` holds the ids of its items,
/// in rank order.
pub fn slots(id: &[u32], cells: &[u32], rank: &[u32], item_cell: &[u32], slot_ids: &mut [u32]) {
    let n = id.len();
    for (i, &boid) in id.iter().enumerate() {
        let r = rank[i];
        let cell = (item_cell[i] & !CELL_HAS_GHOST) as usize;
        slot_ids[(cells[cell] + (r & !RANK_HAS_GHOST)) as usize] = boid;
        if r & RANK_HAS_GHOST != 0 {
            slot_ids[(cells[item_cell[n + i] as usize] + rank[n + i]) as usize] = boid;
        }
    }
}
