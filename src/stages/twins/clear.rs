//! `clear` (`shaders/clear.wgsl`): the cell counters start the step at zero.

/// Sets every cell counter to zero. `cells` has `cell_count + 1` entries (the last receives the
/// number of items in `scan`).
pub fn clear(cells: &mut [u32]) {
    cells.fill(0);
}
