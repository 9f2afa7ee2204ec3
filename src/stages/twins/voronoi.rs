//! The Voronoi neighbourhood's search of `rules` (`shaders/voronoi.wgsl`; docs/model.md §19.5):
//! a boid's Voronoi cell cut out by the boids around it, in a block of the uniform grid's cells
//! grown from the boid's own cell on the sides the cell may still reach past, until no boid
//! outside the block can cut it. Timed alone by `cargo bench --bench voronoi_search`.

use glam::Vec2;

use crate::model::grid::Grid;
use crate::model::grid_block::{block_frame, block_gaps, grow_block, OWN_CELL};
use crate::model::rules::{accumulate_parts, in_view, min_image, NeighborSums};
use crate::model::uniforms::StepUniforms;
use crate::model::voronoi::{VoronoiCell, VORONOI_EDGES_MAX};

use super::scatter::SortedRef;

/// The rectangle a cell starts from, as offsets from the boid at `p` (wu): in a wrapping world
/// the half-planes of the boid's own nearest images, `±W/2 × ±H/2`; in a walled or bouncing world
/// the world itself (the cell clipped to it).
pub fn starting_rectangle(p: Vec2, u: &StepUniforms) -> (Vec2, Vec2) {
    let (w, h) = (u.world_width, u.world_height);
    if u.boundary == 0 {
        (Vec2::new(-0.5 * w, -0.5 * h), Vec2::new(0.5 * w, 0.5 * h))
    } else {
        (
            Vec2::new(-p.x.max(0.0), -p.y.max(0.0)),
            Vec2::new((w - p.x).max(0.0), (h - p.y).max(0.0)),
        )
    }
}

/// The squared distance within which only minimum images lie (wu²): in a wrapping world another
/// image of a boid is at least half the world's smaller side away, so a cell whose reach
/// ([`VoronoiCell::certain_within`]) is inside it is cut by minimum images alone; in a walled or
/// bouncing world every offset is the only one (`f32::MAX`).
pub fn images_bound2(u: &StepUniforms) -> f32 {
    if u.boundary == 0 {
        let half = 0.5 * u.world_width.min(u.world_height);
        half * half * (1.0 - 1.0 / 1_048_576.0)
    } else {
        f32::MAX
    }
}

/// The Voronoi cell of sorted item `s` into `cell` (reset first): a block of cells grown from the
/// item's own cell ([`block_frame`]: each boid once, in its own real cell, at its minimum-image
/// offset; the nearest first, so that the cell is small early and most later candidates are too
/// far to cut it), each round one cell wider on every side the cell may still reach past
/// ([`VoronoiCell::side_reach`] against [`block_gaps`]), until no side may or every cell has been
/// searched. A cell that other images of a boid may still cut (twice its farthest vertex past
/// half the world's smaller side, [`images_bound2`]) grows on every side to the whole grid, and
/// then every boid's 8 other images of the 3 × 3 are offered ([`other_images`]; a world of few
/// boids).
pub fn voronoi_cell(
    s: usize,
    sorted: SortedRef<'_>,
    cells: &[u32],
    grid: &Grid,
    u: &StepUniforms,
    cell: &mut VoronoiCell,
) {
    let me = sorted.pos_vel[s];
    let p = Vec2::new(me[0], me[1]);
    let (lo, hi) = starting_rectangle(p, u);
    cell.reset(lo, hi);
    let c = grid.cell_xy(p);
    let images2 = images_bound2(u);
    let wh = (u.world_width, u.world_height);
    let sides = (wh.0 / grid.cols as f32, wh.1 / grid.rows as f32);
    let (mut block, mut searched) = (OWN_CELL, None);
    loop {
        let f = block_frame(c.0, c.1, block, searched);
        for t in 0..f.rows() {
            grid.for_each_frame_range(&f, t, |first, last| {
                for j in cells[first as usize]..cells[last as usize + 1] {
                    if j as usize == s {
                        continue;
                    }
                    let o = sorted.pos_vel[j as usize];
                    cell.cut(min_image(Vec2::new(o[0], o[1]) - p, u), j);
                }
            });
        }
        let gaps = block_gaps(grid, p, c, block, wh, sides);
        let grow = if cell.certain_within(images2) {
            let reach = cell.side_reach();
            std::array::from_fn(|k| gaps[k] != f32::MAX && reach[k] >= gaps[k])
        } else {
            gaps.map(|g| g != f32::MAX)
        };
        if !grow.contains(&true) {
            break;
        }
        searched = Some(block);
        block = grow_block(grid, c, block, grow);
    }
    if !cell.certain_within(images2) {
        other_images(s, p, sorted, u, cell);
    }
}

/// Offers every other boid's 8 other images of the 3 × 3 periodic images to the cell of sorted
/// item `s` at `p`, image by image ([`OTHER_IMAGES`]), boid by boid in sorted order (a wrapping
/// world of few boids, docs/model.md §19.5; the boid's own images are the starting rectangle's
/// edges).
pub fn other_images(
    s: usize,
    p: Vec2,
    sorted: SortedRef<'_>,
    u: &StepUniforms,
    cell: &mut VoronoiCell,
) {
    let (w, h) = (u.world_width, u.world_height);
    for (a, b) in OTHER_IMAGES {
        let shift = Vec2::new(a as f32 * w, b as f32 * h);
        for j in (0..u.boid_count as usize).filter(|&j| j != s) {
            let o = sorted.pos_vel[j];
            let d = min_image(Vec2::new(o[0], o[1]) - p, u);
            cell.cut(Vec2::new(d.x + shift.x, d.y + shift.y), j as u32);
        }
    }
}

/// The 8 image shifts of the 3 × 3 other than the minimum image, in the order they are offered.
pub const OTHER_IMAGES: [(i32, i32); 8] = [
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];

/// The neighbour sums of sorted item `s` over its Voronoi neighbours (the owners of `cell`'s
/// edges, each once, in edge order) that lie in its field of view, each at its minimum-image
/// offset.
pub fn voronoi_sums(
    s: usize,
    cell: &VoronoiCell,
    sorted: SortedRef<'_>,
    u: &StepUniforms,
) -> NeighborSums {
    let me = sorted.pos_vel[s];
    let p = Vec2::new(me[0], me[1]);
    let v = Vec2::new(me[2], me[3]);
    let mut sums = NeighborSums::default();
    for j in cell.neighbors() {
        let (o, h) = (sorted.pos_vel[j as usize], sorted.hue[j as usize]);
        let d = min_image(Vec2::new(o[0], o[1]) - p, u);
        if !in_view(d, v, u) {
            continue;
        }
        let hue = [[h[0], h[1]], [h[2], h[3]]];
        accumulate_parts(&mut sums, d, Vec2::new(o[2], o[3]), hue, u);
    }
    sums
}

/// Writes the ids of the Voronoi neighbours of sorted item `s` in its field of view (those
/// [`voronoi_sums`] sums) to the [`VORONOI_EDGES_MAX`] slots of a recorded boid, ascending
/// (`u32::MAX` past the last; the lowest ids when more).
pub fn record_voronoi_ids(
    s: usize,
    cell: &VoronoiCell,
    sorted: SortedRef<'_>,
    u: &StepUniforms,
    slots: &mut [u32],
) {
    let me = sorted.pos_vel[s];
    let (p, v) = (Vec2::new(me[0], me[1]), Vec2::new(me[2], me[3]));
    let mut ids: Vec<u32> = cell
        .neighbors()
        .filter(|&j| {
            let o = sorted.pos_vel[j as usize];
            in_view(min_image(Vec2::new(o[0], o[1]) - p, u), v, u)
        })
        .map(|j| sorted.id[j as usize])
        .collect();
    ids.sort_unstable();
    for (t, slot) in slots.iter_mut().take(VORONOI_EDGES_MAX).enumerate() {
        *slot = ids.get(t).copied().unwrap_or(u32::MAX);
    }
}
