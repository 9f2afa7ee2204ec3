//! The uniform grid over the world (docs/model.md §4.3): cell size ≥ perception radius, so the 3×3 block
//! of cells around a boid holds every neighbour candidate.

use glam::Vec2;

use crate::model::params::{Boundary, SimParams};

/// Largest number of cells a grid may have (2^24): a world much larger than the perception radius
/// gets larger cells instead, which stays correct (cells only need to be at least the radius).
pub const MAX_CELLS: u32 = 1 << 24;

/// Uniform grid of `cols × rows` cells over `[0, W) × [0, H)`; cell `(cx, cy)` has index
/// `cy * cols + cx` (row-major), so the three cells of one row of a 3×3 block are contiguous.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Grid {
    /// Number of cell columns (≥ 1).
    pub cols: u32,
    /// Number of cell rows (≥ 1).
    pub rows: u32,
    /// `cols / W` (1/wu): cell column = floor(x · inv_cell_x). Multiplication, not division, so
    /// that the CPU and the GPU (whose division is not correctly rounded) bin identically.
    pub inv_cell_x: f32,
    /// `rows / H` (1/wu).
    pub inv_cell_y: f32,
    /// Whether the grid wraps (boundary `wrap`).
    pub wrap: bool,
}

impl Grid {
    /// The grid for `params` (cell size = perception radius, rounded up so cells tile the world).
    pub fn new(params: &SimParams) -> Grid {
        let r = params.perception_radius.max(1e-6);
        let mut cols = ((params.world_width / r).floor() as u64).max(1);
        let mut rows = ((params.world_height / r).floor() as u64).max(1);
        while cols * rows > MAX_CELLS as u64 {
            cols = (cols / 2).max(1);
            rows = (rows / 2).max(1);
        }
        Grid {
            cols: cols as u32,
            rows: rows as u32,
            inv_cell_x: cols as f32 / params.world_width,
            inv_cell_y: rows as f32 / params.world_height,
            wrap: params.boundary == Boundary::Wrap,
        }
    }

    /// Number of cells.
    pub fn cells(&self) -> u32 {
        self.cols * self.rows
    }

    /// Column and row of a position (clamped into the grid).
    #[inline]
    pub fn cell_xy(&self, p: Vec2) -> (u32, u32) {
        let cx = ((p.x * self.inv_cell_x).floor().max(0.0) as u32).min(self.cols - 1);
        let cy = ((p.y * self.inv_cell_y).floor().max(0.0) as u32).min(self.rows - 1);
        (cx, cy)
    }

    /// Cell index of a position (`cy * cols + cx`).
    #[inline]
    pub fn cell_of(&self, p: Vec2) -> u32 {
        let (cx, cy) = self.cell_xy(p);
        cy * self.cols + cx
    }

    /// The ranges of cell indices to scan for the 3×3 block around cell `(cx, cy)`: up to three rows,
    /// each one or two contiguous ranges `[first, last]` (inclusive) of cells. A row range is split in
    /// two where the block wraps across the seam; a grid narrower than 3 cells is scanned whole, so no
    /// cell is visited twice. `f` gets `(first_cell, last_cell)`.
    ///
    /// Mirrors `gather` in `shaders/rules.wgsl`, which walks the same ranges.
    #[inline]
    pub fn for_each_block_range(&self, cx: u32, cy: u32, mut f: impl FnMut(u32, u32)) {
        let (cols, rows) = (self.cols as i32, self.rows as i32);
        let (cx, cy) = (cx as i32, cy as i32);
        // Rows: three around cy, or all of them when fewer than three exist.
        let (row_lo, row_hi) = if rows < 3 {
            (0, rows - 1)
        } else {
            (cy - 1, cy + 1)
        };
        for ry in row_lo..=row_hi {
            let mut row = ry;
            if self.wrap {
                if row < 0 {
                    row += rows;
                } else if row >= rows {
                    row -= rows;
                }
            } else if row < 0 || row >= rows {
                continue;
            }
            let base = (row * cols) as u32;
            if cols < 3 {
                f(base, base + cols as u32 - 1);
                continue;
            }
            let lo = cx - 1;
            let hi = cx + 1;
            if !self.wrap {
                f(base + lo.max(0) as u32, base + hi.min(cols - 1) as u32);
            } else if lo < 0 {
                f(base + (cols - 1) as u32, base + (cols - 1) as u32);
                f(base, base + hi as u32);
            } else if hi >= cols {
                f(base + lo as u32, base + (cols - 1) as u32);
                f(base, base);
            } else {
                f(base + lo as u32, base + hi as u32);
            }
        }
    }
}
