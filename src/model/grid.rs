//! The uniform grid over the world (docs/model.md §4.3): cells of at least half the perception
//! radius, and a block of `2·block_x + 1` × `2·block_y + 1` cells around a boid that holds every
//! neighbour candidate.
//!
//! **Ghost padding.** In a wrapping world each row of cells is padded with `pad = block_x` cells at
//! both ends holding *ghosts*: copies of the boids of the first `pad` columns (shifted by +W, in the
//! right padding) and of the last `pad` columns (shifted by −W, in the left padding), written by the
//! `scatter` stage. The real cells come first in the cell index space (row-major, `cy·cols + cx`)
//! and the padding cells after them (`rows·cols + cy·2·pad + slot`), so after the counting sort the
//! N boids are the first N sorted items (in cell order: the next state is written there, in order)
//! and the ghosts follow. A block row is then at most three contiguous ranges of sorted items — the
//! left padding, the real cells, the right padding; the padding ranges are empty except within
//! `pad` columns of the seam — with no wrap test and no minimum-image offset per candidate: a block
//! row that wraps vertically is the row `(cy + k) mod rows` with every candidate shifted by a whole
//! number of world heights, one offset for the whole row. In the non-wrapping modes there are no
//! padding cells.
//!
//! **Cells follow the boids, not the world.** The cell is half the perception radius (a 5 × 5 block:
//! about 6.25·ρr² candidates per boid at density ρ, against 9·ρr² for cells of r), unless that gives
//! more than `max(4·N, 4096)` cells for N boids: then the cells grow (up to the whole world), so a
//! sparse or huge world costs what its boids cost (clearing and scanning the cell counters is
//! O(cells)). A cell grown past 0.6·r becomes a cell of r with a 3 × 3 block: 9·r² of block area
//! instead of up to 25·c².
//!
//! Ghost copies are exact: every candidate in a block is at its true offset, and in a wrapping world
//! at least twice the perception radius wide and high (which validation requires) at most one image
//! of a boid is within the perception radius.

use glam::Vec2;

/// Largest number of cells a grid may have (2^24): a world much larger than the perception radius
/// gets larger cells instead, which stays correct (the block covers the radius at any cell size).
pub const MAX_CELLS: u32 = 1 << 24;

/// Fewest cells the O(N) rule leaves a grid (small flocks in small worlds keep fine cells).
pub const MIN_CELL_BUDGET: u64 = 4096;

/// The backend a grid is made for. Every grid is the same on both but the Voronoi
/// neighbourhood's, whose cell size is a speed choice each backend makes for itself
/// (`VORONOI_GRID_SCALE_CPU`, `VORONOI_GRID_SCALE_GPU` in `crate::model::derive`): the results
/// differ only by rounding, through the order in which candidates cut a cell (and, where
/// cocircular boids make the Voronoi graph not unique, in which of them shares an edge of length
/// 0).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum GridFor {
    /// The CPU backend and the stages' CPU twins.
    #[default]
    Cpu,
    /// The GPU backend.
    Gpu,
}

/// Uniform grid of `cols × rows` cells over `[0, W) × [0, H)`, each row padded with `pad` ghost
/// cells at both ends in a wrapping world. Cell `(cx, cy)` has index `cy · cols + cx`; the padding
/// cells follow all of them (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Grid {
    /// Number of cell columns (≥ 1), without the padding.
    pub cols: u32,
    /// Number of cell rows (≥ 1).
    pub rows: u32,
    /// Padding cells at each end of a row (= `block_x`; their cells exist only when the grid
    /// wraps).
    pub pad: u32,
    /// Half-width of the block in columns: neighbours of a boid in column `cx` are in columns
    /// `cx − block_x ..= cx + block_x` (1 or 2).
    pub block_x: u32,
    /// Half-height of the block in rows (1 or 2).
    pub block_y: u32,
    /// `cols / W` (1/wu): cell column = floor(x · inv_cell_x). A multiplication, not a division, so
    /// that the CPU and the GPU (whose division is not correctly rounded) bin identically.
    pub inv_cell_x: f32,
    /// `rows / H` (1/wu).
    pub inv_cell_y: f32,
    /// Whether the grid wraps (boundary `wrap`).
    pub wrap: bool,
}

/// Number of columns and block half-width along one axis of length `len` for cells of at least
/// `cell` wu and a radius `r`.
fn axis(len: f32, cell: f32, r: f32) -> (u32, u32) {
    let cols = ((len / cell).floor() as u64).clamp(1, u32::MAX as u64) as u32;
    let inv = cols as f32 / len;
    let block = ((r * inv).ceil() as u32).clamp(1, 2);
    (cols, block)
}

impl Grid {
    /// The grid of a world `w` × `h` wu (wrapping or not) for perception radius `r` (wu) and
    /// `boids` boids (`Grid::new` derives it from the parameters).
    pub fn for_world(w: f32, h: f32, wrap: bool, r: f32, boids: usize) -> Grid {
        let r = r.max(1e-6);
        let budget = (4 * boids as u64)
            .max(MIN_CELL_BUDGET)
            .min(MAX_CELLS as u64);
        // Cells of r/2, grown (same aspect) until there are at most `budget` of them.
        let mut cell = 0.5 * r;
        loop {
            let (cols, _) = axis(w, cell, r);
            let (rows, _) = axis(h, cell, r);
            if cols as u64 * rows as u64 <= budget {
                break;
            }
            cell *= 1.25;
        }
        // Grown past 0.6·r, a 5 × 5 block of cells c holds 25·c² > 9·r² of area: cells of r and a
        // 3 × 3 block cover the radius with fewer candidates (and fewer cells).
        if cell > 0.6 * r && cell < r {
            cell = r;
        }
        let (mut cols, mut block_x) = axis(w, cell, r);
        let (rows, block_y) = axis(h, cell, r);
        // A boid may have at most one ghost: in a wrapping world the padding must not cover a
        // column from both sides, so cells of at least r (one padding column) when needed.
        if wrap && cols < 2 * block_x {
            let (c, b) = axis(w, cell.max(r), r);
            cols = c;
            block_x = b;
        }
        Grid {
            cols,
            rows,
            pad: block_x,
            block_x,
            block_y,
            inv_cell_x: cols as f32 / w,
            inv_cell_y: rows as f32 / h,
            wrap,
        }
    }

    /// Number of real cells (`cols · rows`); the padding cells start here.
    pub fn real_cells(&self) -> u32 {
        self.cols * self.rows
    }

    /// Number of cells: the real ones, then `2·pad` padding cells per row when the grid wraps.
    pub fn cells(&self) -> u32 {
        self.real_cells()
            + if self.wrap {
                self.rows * 2 * self.pad
            } else {
                0
            }
    }

    /// Column and row of a position (clamped into the grid).
    #[inline]
    pub fn cell_xy(&self, p: Vec2) -> (u32, u32) {
        // For x ≥ 0 the cast truncates, which is floor (and needs no libm call on the baseline
        // x86-64 target); negative values clamp to 0 either way, as on the GPU.
        let cx = ((p.x * self.inv_cell_x).max(0.0) as u32).min(self.cols - 1);
        let cy = ((p.y * self.inv_cell_y).max(0.0) as u32).min(self.rows - 1);
        (cx, cy)
    }

    /// Index of cell `(cx, cy)`.
    #[inline]
    pub fn index(&self, cx: u32, cy: u32) -> u32 {
        cy * self.cols + cx
    }

    /// Cell index of a position.
    #[inline]
    pub fn cell_of(&self, p: Vec2) -> u32 {
        let (cx, cy) = self.cell_xy(p);
        self.index(cx, cy)
    }

    /// Index of padding cell `slot` of row `cy`: slots `0 .. pad` are the left padding (columns
    /// `−pad .. −1`), `pad .. 2·pad` the right (columns `cols .. cols + pad`).
    #[inline]
    pub fn pad_index(&self, cy: u32, slot: u32) -> u32 {
        self.real_cells() + cy * 2 * self.pad + slot
    }

    /// The ghost of a boid in column `cx` of row `cy`, when the world wraps and the column is
    /// within `pad` of an edge: `(padding cell, x shift in units of W)` — the right padding (+1) for
    /// the first columns, the left padding (−1) for the last ones.
    #[inline]
    pub fn ghost(&self, cx: u32, cy: u32) -> Option<(u32, f32)> {
        if !self.wrap {
            None
        } else if cx < self.pad {
            Some((self.pad_index(cy, self.pad + cx), 1.0))
        } else if cx + self.pad >= self.cols {
            Some((self.pad_index(cy, cx + self.pad - self.cols), -1.0))
        } else {
            None
        }
    }

    /// The rows of the block around row `cy`, in order: `(row, k)` where the candidates of `row`
    /// are at `y + k·H` (k = 0 except where the block wraps vertically). Rows outside a
    /// non-wrapping world are left out.
    #[inline]
    pub fn for_each_block_row(&self, cy: u32, mut f: impl FnMut(u32, i32)) {
        let (rows, n) = self.block_rows(cy);
        for &(row, k) in &rows[..n] {
            f(row, k);
        }
    }

    /// The rows of [`Grid::for_each_block_row`] as an array, and how many there are (at most 5).
    #[inline]
    pub fn block_rows(&self, cy: u32) -> ([(u32, i32); 5], usize) {
        let rows = self.rows as i32;
        let b = self.block_y as i32;
        let mut out = [(0u32, 0i32); 5];
        let mut n = 0;
        for dy in -b..=b {
            let y = cy as i32 + dy;
            if self.wrap {
                // y.rem_euclid(rows) and y.div_euclid(rows) without a division: |dy| ≤ 2, so y is
                // at most two grids outside.
                let (mut row, mut k) = (y, 0);
                while row < 0 {
                    row += rows;
                    k -= 1;
                }
                while row >= rows {
                    row -= rows;
                    k += 1;
                }
                out[n] = (row as u32, k);
                n += 1;
            } else if (0..rows).contains(&y) {
                out[n] = (y as u32, 0);
                n += 1;
            }
        }
        (out, n)
    }

    /// The cell ranges of block row `row` around column `cx`, in column order: the left padding,
    /// the real cells, the right padding, each `(first, last)` inclusive or `None` when the block
    /// does not reach it (the padding exists only when the grid wraps).
    #[inline]
    pub fn row_ranges(&self, row: u32, cx: u32) -> [Option<(u32, u32)>; 3] {
        let mut out = [None; 3];
        self.for_each_row_range(row, cx, |k, first, last| out[k] = Some((first, last)));
        out
    }

    /// Calls `f(k, first, last)` for each cell range of [`Grid::row_ranges`] that the block
    /// reaches, in order (`k` = 0 left padding, 1 real cells, 2 right padding; `first ..= last`).
    #[inline(always)]
    pub fn for_each_row_range(&self, row: u32, cx: u32, mut f: impl FnMut(usize, u32, u32)) {
        let (lo, hi) = (
            cx as i32 - self.block_x as i32,
            cx as i32 + self.block_x as i32,
        );
        let cols = self.cols as i32;
        if self.wrap && lo < 0 {
            // Columns lo ..= −1 are slots pad + lo ..= pad − 1.
            let pad = self.pad as i32;
            f(
                0,
                self.pad_index(row, (pad + lo) as u32),
                self.pad_index(row, self.pad - 1),
            );
        }
        f(
            1,
            self.index(lo.max(0) as u32, row),
            self.index(hi.min(cols - 1) as u32, row),
        );
        if self.wrap && hi >= cols {
            // Columns cols ..= hi are slots pad ..= pad + hi − cols.
            f(
                2,
                self.pad_index(row, self.pad),
                self.pad_index(row, self.pad + (hi - cols) as u32),
            );
        }
    }
}

/// The cells of one axis a block of half-width `r` around cell `c` covers, as offsets from `c`:
/// `lo ..= hi`, each distinct cell once (docs/model.md §19.2). In a wrapping axis of `n` cells the
/// offsets `−r ..= r`, or, once `2r + 1 ≥ n`, a window of all `n` cells as even about `c` as can
/// be (`−⌊(n − 1)/2⌋ ..= ⌈(n − 1)/2⌉`, so that the windows of growing blocks are nested); in a
/// non-wrapping axis the offsets clipped to the grid.
#[inline(always)]
pub fn axis_window(c: u32, r: u32, n: u32, wrap: bool) -> (i32, i32) {
    let (c, r, n) = (c as i64, r as i64, n as i64);
    let (lo, hi) = if wrap {
        if 2 * r + 1 >= n {
            let lo = -((n - 1) / 2);
            (lo, lo + n - 1)
        } else {
            (-r, r)
        }
    } else {
        ((-r).max(-c), r.min(n - 1 - c))
    };
    (lo as i32, hi as i32)
}

/// A frame of the topological search around cell `(cx, cy)` (docs/model.md §19.2): the cells of
/// the block of half-width `outer` that are not in the block of half-width `inner − 1` (none when
/// `inner` is 0) — the ring `r` is the frame `inner = outer = r`. Each cell of the grid is in at
/// most one ring: a boid is found once, by its own (real) cell; ghost padding is not used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Frame {
    /// The cell searched around.
    pub cx: u32,
    /// The cell searched around.
    pub cy: u32,
    /// Column offsets of the outer block.
    pub x_out: (i32, i32),
    /// Row offsets of the outer block.
    pub y_out: (i32, i32),
    /// Column offsets of the inner block (empty, `(1, 0)`, when `inner` is 0).
    pub x_in: (i32, i32),
    /// Row offsets of the inner block (empty when `inner` is 0).
    pub y_in: (i32, i32),
}

impl Frame {
    /// The number of rows of the outer block (`y_out.1 − y_out.0 + 1`).
    #[inline]
    pub fn rows(&self) -> u32 {
        (self.y_out.1 - self.y_out.0 + 1) as u32
    }
}

/// Rings the topological search takes in its first step: the block of 5 × 5 cells around a boid's
/// cell (rings 0 ..= 2; its rows are contiguous runs of cells), which holds the k nearest of most
/// boids with the grid's cells (docs/model.md §19.2); each later step adds one ring.
pub const FIRST_RINGS: u32 = 2;

/// The frame of step `step` of the topological search: `(inner, outer)` for [`Grid::frame`] — the
/// block of rings `0 ..= FIRST_RINGS` first, then one ring at a time.
#[inline(always)]
pub fn search_frame(step: u32) -> (u32, u32) {
    if step == 0 {
        (0, FIRST_RINGS)
    } else {
        (FIRST_RINGS + step, FIRST_RINGS + step)
    }
}

/// The largest squared distance the topological search may stop at (docs/model.md §19.2): every
/// boid outside the block of half-width `r` around cell `(cx, cy)` of a boid at `p` is farther
/// than this (by minimum image). It is the squared distance from `p` to the block's nearest edge,
/// less a margin of 1e-6 of the world's larger side and a relative 2⁻²⁰ (more than the rounding of
/// the binning, of the offsets and of their squares, so that no boid outside is ever nearer in
/// f32 than this bound says); `f32::MAX` when the block covers the whole grid (every boid was
/// seen). Mirrored by `block_bound2` in `shaders/gather.wgsl`.
#[inline(always)]
pub fn block_bound2(grid: &Grid, p: Vec2, cx: u32, cy: u32, r: u32, w: f32, h: f32) -> f32 {
    let cells = (w / grid.cols as f32, h / grid.rows as f32);
    block_bound2_with(grid, p, (cx, cy), r, (w, h), cells)
}

/// [`block_bound2`] with the cells' sides `(W / cols, H / rows)` (wu) given, for a caller that
/// computes them once (no division per call); the same value.
#[inline(always)]
pub fn block_bound2_with(
    grid: &Grid,
    p: Vec2,
    (cx, cy): (u32, u32),
    r: u32,
    (w, h): (f32, f32),
    (cell_w, cell_h): (f32, f32),
) -> f32 {
    let side = |c: u32, n: u32, pos: f32, cell: f32| -> f32 {
        let (lo_all, hi_all) = if grid.wrap {
            let all = 2 * r as u64 + 1 >= n as u64;
            (all, all)
        } else {
            (r >= c, c as u64 + r as u64 >= n as u64 - 1)
        };
        let mut g = f32::MAX;
        if !lo_all {
            g = g.min(pos - (c as f32 - r as f32) * cell);
        }
        if !hi_all {
            g = g.min((c as f32 + r as f32 + 1.0) * cell - pos);
        }
        g
    };
    let g = side(cx, grid.cols, p.x, cell_w).min(side(cy, grid.rows, p.y, cell_h));
    if g == f32::MAX {
        return f32::MAX;
    }
    let m = (g - 1e-6 * w.max(h)).max(0.0);
    m * m * (1.0 - 1.0 / 1_048_576.0)
}

/// `x` modulo `n` for `x` in `−n .. 2n` (every cell offset of a frame: its windows are at most `n`
/// cells about a cell of the grid), by one addition or subtraction: no integer division, which has
/// no vector instruction (a software GPU runs the shader's copy of this on the CPU).
#[inline(always)]
fn wrap_once(x: i32, n: i32) -> i32 {
    if x < 0 {
        x + n
    } else if x >= n {
        x - n
    } else {
        x
    }
}

impl Grid {
    /// The frame of the blocks of half-widths `inner − 1` and `outer` around cell `(cx, cy)`
    /// (`inner ≤ outer`).
    #[inline(always)]
    pub fn frame(&self, cx: u32, cy: u32, inner: u32, outer: u32) -> Frame {
        let none = (1, 0);
        let (x_in, y_in) = if inner == 0 {
            (none, none)
        } else {
            (
                axis_window(cx, inner - 1, self.cols, self.wrap),
                axis_window(cy, inner - 1, self.rows, self.wrap),
            )
        };
        Frame {
            cx,
            cy,
            x_out: axis_window(cx, outer, self.cols, self.wrap),
            y_out: axis_window(cy, outer, self.rows, self.wrap),
            x_in,
            y_in,
        }
    }

    /// Calls `f(first, last)` for each run of cells of [`Grid::frame_row`] `t`, in order.
    #[inline(always)]
    pub fn for_each_frame_range(&self, f: &Frame, t: u32, mut visit: impl FnMut(u32, u32)) {
        let dy = f.y_out.0 + t as i32;
        let row = if self.wrap {
            wrap_once(f.cy as i32 + dy, self.rows as i32) as u32
        } else {
            (f.cy as i32 + dy) as u32
        };
        let inside = f.y_in.0 <= dy && dy <= f.y_in.1;
        let segments = if inside {
            [(f.x_out.0, f.x_in.0 - 1), (f.x_in.1 + 1, f.x_out.1)]
        } else {
            [(f.x_out.0, f.x_out.1), (1, 0)]
        };
        let cols = self.cols as i32;
        let base = row * self.cols;
        for (a, b) in segments {
            if a > b {
                continue;
            }
            let (x0, x1) = (f.cx as i32 + a, f.cx as i32 + b);
            if !self.wrap {
                visit(base + x0 as u32, base + x1 as u32);
                continue;
            }
            let (w0, w1) = (wrap_once(x0, cols), wrap_once(x1, cols));
            if w0 <= w1 {
                visit(base + w0 as u32, base + w1 as u32);
            } else {
                visit(base + w0 as u32, base + self.cols - 1);
                visit(base, base + w1 as u32);
            }
        }
    }

    /// The cell ranges of row `t` (0 ..= `frame.rows() − 1`, from the lowest offset) of a frame:
    /// up to four `(first, last)` runs of consecutive real cells of one grid row (inclusive), in
    /// column order, then `None` — one column segment for a row outside the inner block, two
    /// (left and right of it) for a row inside, each split in two where it crosses the seam of a
    /// wrapping grid. Mirrored by `frame_row` in `shaders/topological.wgsl`.
    #[inline(always)]
    pub fn frame_row(&self, f: &Frame, t: u32) -> [Option<(u32, u32)>; 4] {
        let mut out = [None; 4];
        let mut k = 0;
        self.for_each_frame_range(f, t, |first, last| {
            out[k] = Some((first, last));
            k += 1;
        });
        out
    }
}

/// The obstacle grid: obstacle points binned (by the CPU, whenever they change) into cells of at
/// least the larger obstacle radius, so a boid visits only the 3 × 3 cells around it and its cost
/// follows the obstacles near it, not their total (docs/model.md §6.4). At most `max(4·points,
/// 64)` cells. Visited with the minimum image per point; in a wrapping grid narrower than 3 cells a
/// row or column is visited once.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct ObstacleGrid {
    /// Cell columns (≥ 1).
    pub cols: u32,
    /// Cell rows (≥ 1).
    pub rows: u32,
    /// `cols / W` (1/wu).
    pub inv_cell_x: f32,
    /// `rows / H` (1/wu).
    pub inv_cell_y: f32,
    /// Start of each cell's points in `points`, plus the total: `cols·rows + 1` entries.
    pub starts: Vec<u32>,
    /// The points (wu), cell by cell (row-major), in input order within a cell.
    pub points: Vec<[f32; 2]>,
}

/// Cells an obstacle grid may have whatever its points: its cell budget is 4 per point, at least
/// this many.
pub const OBSTACLE_CELLS_MIN_BUDGET: u32 = 64;

impl ObstacleGrid {
    /// Bins `points` for obstacles acting within `radius` wu in a world `w` × `h` wu
    /// (`ObstacleGrid::new` takes them from the parameters).
    pub fn for_world(points: &[[f32; 2]], radius: f32, w: f32, h: f32) -> ObstacleGrid {
        let budget = (4 * points.len() as u64).max(OBSTACLE_CELLS_MIN_BUDGET as u64);
        let mut cell = radius.max(1e-3).max(w.max(h) / 65_536.0);
        let (mut cols, mut rows);
        loop {
            cols = ((w / cell).floor() as u32).max(1);
            rows = ((h / cell).floor() as u32).max(1);
            if cols as u64 * rows as u64 <= budget {
                break;
            }
            cell *= 1.5;
        }
        let inv_cell_x = cols as f32 / w;
        let inv_cell_y = rows as f32 / h;
        let cell_of = |p: &[f32; 2]| {
            let cx = ((p[0] * inv_cell_x).floor().max(0.0) as u32).min(cols - 1);
            let cy = ((p[1] * inv_cell_y).floor().max(0.0) as u32).min(rows - 1);
            (cy * cols + cx) as usize
        };
        let n = (cols * rows) as usize;
        let mut starts = vec![0u32; n + 1];
        for p in points {
            starts[cell_of(p) + 1] += 1;
        }
        for k in 0..n {
            starts[k + 1] += starts[k];
        }
        let mut next = starts.clone();
        let mut binned = vec![[0.0f32; 2]; points.len()];
        for p in points {
            let c = cell_of(p);
            binned[next[c] as usize] = *p;
            next[c] += 1;
        }
        ObstacleGrid {
            cols,
            rows,
            inv_cell_x,
            inv_cell_y,
            starts,
            points: binned,
        }
    }

    /// Number of cells.
    pub fn cells(&self) -> u32 {
        self.cols * self.rows
    }

    /// The cells to visit around position `p`: 3 × 3 (wrapping when `wrap`; each row and column
    /// once in a grid narrower than 3), as cell indices.
    pub fn for_each_cell(&self, p: Vec2, wrap: bool, mut f: impl FnMut(u32)) {
        let cx = ((p.x * self.inv_cell_x).floor().max(0.0) as i32).min(self.cols as i32 - 1);
        let cy = ((p.y * self.inv_cell_y).floor().max(0.0) as i32).min(self.rows as i32 - 1);
        let span = |c: i32, n: i32| -> (i32, i32) {
            if wrap && n < 3 {
                (0, n - 1)
            } else {
                (c - 1, c + 1)
            }
        };
        let (y0, y1) = span(cy, self.rows as i32);
        let (x0, x1) = span(cx, self.cols as i32);
        for y in y0..=y1 {
            let row = if wrap {
                y.rem_euclid(self.rows as i32)
            } else if (0..self.rows as i32).contains(&y) {
                y
            } else {
                continue;
            };
            for x in x0..=x1 {
                let col = if wrap {
                    x.rem_euclid(self.cols as i32)
                } else if (0..self.cols as i32).contains(&x) {
                    x
                } else {
                    continue;
                };
                f(row as u32 * self.cols + col as u32);
            }
        }
    }
}
