//! A block of grid cells grown side by side (the Voronoi search, docs/model.md §19.5): where the
//! topological search widens its block by whole rings, the Voronoi search widens only the sides
//! its cell may still reach past. Mirrored by the `GBlock` functions of `shaders/voronoi.wgsl`.

use glam::Vec2;

use super::grid::{Frame, Grid};

/// The cells of a block about cell `(cx, cy)`: column offsets `x.0 ..= x.1` and row offsets
/// `y.0 ..= y.1` (`x.0, y.0 ≤ 0 ≤ x.1, y.1`), each distinct cell once (in a wrapping grid at most
/// `cols` columns and `rows` rows; in a walled one within the grid).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GridBlock {
    /// Column offsets, lowest and highest.
    pub x: (i32, i32),
    /// Row offsets, lowest and highest.
    pub y: (i32, i32),
}

/// The block of the cell itself.
pub const OWN_CELL: GridBlock = GridBlock {
    x: (0, 0),
    y: (0, 0),
};

/// The sides of a block, in the order of [`block_gaps`] and [`grow_block`]: towards −x, +x, −y,
/// +y.
pub const SIDES: usize = 4;

/// The frame of the cells of `outer` not in `inner` (all of `outer` when `inner` is `None`), for
/// [`Grid::for_each_frame_range`]: `inner` must lie within `outer`.
pub fn block_frame(cx: u32, cy: u32, outer: GridBlock, inner: Option<GridBlock>) -> Frame {
    let none = (1, 0);
    Frame {
        cx,
        cy,
        x_out: outer.x,
        y_out: outer.y,
        x_in: inner.map_or(none, |b| b.x),
        y_in: inner.map_or(none, |b| b.y),
    }
}

/// The distance (wu) from a boid at `p` in cell `(cx, cy)` to each side of block `b` (−x, +x, −y,
/// +y), less a margin of 1e-6 of the world's larger side (as `block_bound2`: more than the
/// rounding of the binning and of the offsets), so that every boid outside the block lies at
/// least this far beyond one of its sides; `f32::MAX` for a side that cannot grow (a walled
/// grid's edge; an axis of a wrapping grid whose every column or row is in the block). `cells`
/// are the cells' sides `(W / cols, H / rows)`, `wh` the world's `(W, H)`.
#[inline(always)]
pub fn block_gaps(
    grid: &Grid,
    p: Vec2,
    (cx, cy): (u32, u32),
    b: GridBlock,
    (w, h): (f32, f32),
    (cell_w, cell_h): (f32, f32),
) -> [f32; SIDES] {
    let margin = 1e-6 * w.max(h);
    let axis = |c: u32, n: u32, (lo, hi): (i32, i32), pos: f32, cell: f32| -> (f32, f32) {
        let (lo_all, hi_all) = if grid.wrap {
            let all = hi - lo + 1 >= n as i32;
            (all, all)
        } else {
            (c as i32 + lo <= 0, c as i32 + hi >= n as i32 - 1)
        };
        let gap = |all: bool, g: f32| if all { f32::MAX } else { (g - margin).max(0.0) };
        (
            gap(lo_all, pos - (c as f32 + lo as f32) * cell),
            gap(hi_all, (c as f32 + hi as f32 + 1.0) * cell - pos),
        )
    };
    let (left, right) = axis(cx, grid.cols, b.x, p.x, cell_w);
    let (below, above) = axis(cy, grid.rows, b.y, p.y, cell_h);
    [left, right, below, above]
}

/// Block `b` with each side whose `grow` is set one cell wider where the grid has cells left
/// (in a wrapping axis the lower side first when only one column or row is left).
#[inline(always)]
pub fn grow_block(
    grid: &Grid,
    (cx, cy): (u32, u32),
    b: GridBlock,
    grow: [bool; SIDES],
) -> GridBlock {
    let axis = |c: u32, n: u32, (mut lo, mut hi): (i32, i32), g_lo: bool, g_hi: bool| {
        let n = n as i32;
        if grid.wrap {
            if g_lo && hi - lo + 1 < n {
                lo -= 1;
            }
            if g_hi && hi - lo + 1 < n {
                hi += 1;
            }
        } else {
            if g_lo && c as i32 + lo > 0 {
                lo -= 1;
            }
            if g_hi && c as i32 + hi < n - 1 {
                hi += 1;
            }
        }
        (lo, hi)
    };
    GridBlock {
        x: axis(cx, grid.cols, b.x, grow[0], grow[1]),
        y: axis(cy, grid.rows, b.y, grow[2], grow[3]),
    }
}
