//! `scatter` (`shaders/scatter.wgsl`): the items copied into the canonical order — cell by cell,
//! within a cell by boid id, with their image counts.

use crate::model::grid::Grid;

/// The sorted arrays `scatter` writes.
pub struct Sorted<'a> {
    /// `[x, y, vx, vy]` per item (ghosts shifted by ±W).
    pub pos_vel: &'a mut [[f32; 4]],
    /// `[hx, hy, ux, uy]` per item.
    pub hue: &'a mut [[f32; 4]],
    /// The id of each item's boid.
    pub id: &'a mut [u32],
    /// The image counts of each item's boid.
    pub image: &'a mut [[i32; 2]],
}

/// The sorted arrays as `predators` and `rules` read them.
#[derive(Clone, Copy)]
pub struct SortedRef<'a> {
    /// `[x, y, vx, vy]` per item.
    pub pos_vel: &'a [[f32; 4]],
    /// `[hx, hy, ux, uy]` per item.
    pub hue: &'a [[f32; 4]],
    /// The id of each item's boid.
    pub id: &'a [u32],
    /// The image counts of each item's boid.
    pub image: &'a [[i32; 2]],
}

/// Copies each item to its place: `start(cell)` plus the number of ids in its cell's range of
/// `slot_ids` smaller than its own — its rank by id, whatever order `count` ranked the cell in —
/// with a ghost's x shifted by its padding's ±W, and a boid's image counts (a ghost's place in
/// `out.image` is not written). Ids are unique, so every place is taken once.
#[allow(clippy::too_many_arguments)]
pub fn scatter(
    pos_vel: &[[f32; 4]],
    hue: &[[f32; 4]],
    id: &[u32],
    image: &[[i32; 2]],
    grid: &Grid,
    world_width: f32,
    cells: &[u32],
    slot_ids: &[u32],
    out: Sorted<'_>,
) {
    // Each cell's ids in increasing order: an item's rank by id is where its id falls among them
    // (the GPU counts the smaller ids one by one).
    let mut ids_by_cell = slot_ids[..cells[cells.len() - 1] as usize].to_vec();
    for c in 0..cells.len() - 1 {
        ids_by_cell[cells[c] as usize..cells[c + 1] as usize].sort_unstable();
    }
    let mut place = |cell: u32, i: usize, shift: f32| {
        let (a, b) = (
            cells[cell as usize] as usize,
            cells[cell as usize + 1] as usize,
        );
        let k = a + ids_by_cell[a..b].partition_point(|&other| other < id[i]);
        let mut pv = pos_vel[i];
        pv[0] += shift * world_width;
        out.pos_vel[k] = pv;
        out.hue[k] = hue[i];
        out.id[k] = id[i];
        // A boid's image counts (its place is among the first N); a ghost has none.
        if shift == 0.0 {
            out.image[k] = image[i];
        }
    };
    for (i, p) in pos_vel.iter().enumerate() {
        let (cx, cy) = grid.cell_xy(glam::Vec2::new(p[0], p[1]));
        place(grid.index(cx, cy), i, 0.0);
        if let Some((ghost_cell, shift)) = grid.ghost(cx, cy) {
            place(ghost_cell, i, shift);
        }
    }
}
