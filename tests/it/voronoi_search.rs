//! The Voronoi search's parts (docs/model.md §19.5): a cell's side reach is where boids stop
//! cutting it (no boid beyond it cuts; one just inside the farthest disc does), and a block of
//! grid cells grown side by side offers every cell once, within the grid, and reports as open
//! exactly the sides that can still grow, at the distance of their edge; a cut of a polygon whose
//! vertices' sides have signs no convex polygon has (as rounding can give vertices nearly on the
//! bisector) keeps every piece, edge by edge.

use boids::model::grid::Grid;
use boids::model::grid_block::{block_frame, block_gaps, grow_block, GridBlock, OWN_CELL, SIDES};
use boids::model::rng::uniform01;
use boids::model::voronoi::VoronoiCell;
use glam::Vec2;

/// A cell cut out of a 40 × 40 square by 12 random boids within 6 wu of the boid (case `seed`).
fn random_cell(seed: u32) -> VoronoiCell {
    let mut cell = VoronoiCell::new();
    cell.reset(Vec2::splat(-20.0), Vec2::splat(20.0));
    for j in 0..12 {
        let d = Vec2::new(
            12.0 * uniform01(seed, j, 0, 0) - 6.0,
            12.0 * uniform01(seed, j, 0, 1) - 6.0,
        );
        cell.cut(d, j);
    }
    cell
}

/// The unit vector of side `k` (−x, +x, −y, +y).
fn side_dir(k: usize) -> Vec2 {
    [Vec2::NEG_X, Vec2::X, Vec2::NEG_Y, Vec2::Y][k]
}

#[test]
fn no_boid_beyond_a_cells_side_reach_cuts_it_and_one_just_inside_does() {
    for seed in 0..200 {
        let cell = random_cell(seed);
        let reach = cell.side_reach();
        let r = cell.r2.sqrt();
        for (k, &e) in reach.iter().enumerate() {
            let n = side_dir(k);
            let t = n.perp();
            assert!(
                e <= 2.0 * r * 1.001,
                "case {seed} side {k}: reach {e} past 2r = {}",
                2.0 * r
            );
            // Beyond the reach, anywhere across: never a cut.
            for i in 0..64 {
                let along = e * (1.0 + 1e-3) + 3.0 * uniform01(seed, i, 1, k as u32);
                let across = 8.0 * r * (uniform01(seed, i, 2, k as u32) - 0.5);
                let mut c = cell.clone();
                assert!(
                    !c.cut(n * along + t * across, 99),
                    "case {seed} side {k}: a boid {along} past the boid cut a cell of reach {e}"
                );
            }
            // Just inside the disc about the vertex that sets the reach: a cut.
            let v = *cell
                .vertices
                .iter()
                .max_by(|a, b| (a.length() + a.dot(n)).total_cmp(&(b.length() + b.dot(n))))
                .unwrap();
            let q = v + n * v.length() * (1.0 - 1e-3);
            let mut c = cell.clone();
            assert!(
                c.cut(q, 99),
                "case {seed} side {k}: a boid at {q} inside the disc about {v} did not cut"
            );
            assert!(
                q.dot(n) > 0.99 * e,
                "case {seed} side {k}: the farthest disc reaches {} against a reach of {e}",
                q.dot(n)
            );
        }
    }
}

fn grid(cols: u32, rows: u32, wrap: bool) -> Grid {
    Grid {
        cols,
        rows,
        pad: 0,
        block_x: 1,
        block_y: 1,
        inv_cell_x: cols as f32 / (cols as f32 * 10.0),
        inv_cell_y: rows as f32 / (rows as f32 * 10.0),
        wrap,
    }
}

/// Grows a block from cell `c` with the sides of `pattern` (one bit a side, a pattern a round),
/// (every open side when none of a round's is) until no side is open, visiting the frames;
/// returns how often each cell was offered and the final block.
fn grow_and_visit(g: &Grid, c: (u32, u32), pattern: &[u8]) -> (Vec<u32>, GridBlock) {
    let mut seen = vec![0u32; (g.cols * g.rows) as usize];
    let (mut block, mut searched) = (OWN_CELL, None);
    for round in 0.. {
        let f = block_frame(c.0, c.1, block, searched);
        for t in 0..f.rows() {
            g.for_each_frame_range(&f, t, |first, last| {
                for cell in first..=last {
                    seen[cell as usize] += 1;
                }
            });
        }
        let bits = pattern[round % pattern.len()];
        let p = Vec2::new((c.0 as f32 + 0.5) * 10.0, (c.1 as f32 + 0.5) * 10.0);
        let gaps = block_gaps(
            g,
            p,
            c,
            block,
            (g.cols as f32 * 10.0, g.rows as f32 * 10.0),
            (10.0, 10.0),
        );
        let open: [bool; SIDES] = std::array::from_fn(|k| gaps[k] != f32::MAX);
        if !open.contains(&true) {
            break;
        }
        // The pattern's sides that are open; every open one when none of them is.
        let mut grow: [bool; SIDES] = std::array::from_fn(|k| open[k] && bits & (1 << k) != 0);
        if !grow.contains(&true) {
            grow = open;
        }
        searched = Some(block);
        block = grow_block(g, c, block, grow);
        assert_ne!(Some(block), searched, "an open side did not grow");
    }
    (seen, block)
}

#[test]
fn a_grown_block_offers_each_cell_once_within_the_grid_and_its_open_sides_are_its_edges() {
    for wrap in [true, false] {
        for (cols, rows) in [(7, 5), (1, 4), (2, 2), (9, 9)] {
            let g = grid(cols, rows, wrap);
            for cx in 0..cols {
                for cy in 0..rows {
                    for pattern in [
                        &[0b1111u8][..],
                        &[0b0001, 0b1000, 0b0110],
                        &[0b0010, 0b0100],
                    ] {
                        let (seen, block) = grow_and_visit(&g, (cx, cy), pattern);
                        let what = format!(
                            "{cols} × {rows} wrap {wrap} cell ({cx}, {cy}) {pattern:?} {block:?}"
                        );
                        assert!(
                            seen.iter().all(|&s| s <= 1),
                            "a cell offered twice: {what} {seen:?}"
                        );
                        // Every round ended with an open side grown until none was open: the
                        // whole grid, each cell once.
                        assert!(
                            seen.iter().all(|&s| s == 1),
                            "a cell never offered: {what} {seen:?}"
                        );
                    }
                }
            }
        }
    }
    // An open side's gap is the distance to its edge, less the margin; a closed one is f32::MAX.
    let g = grid(9, 9, false);
    let p = Vec2::new(43.0, 47.5);
    let b = GridBlock {
        x: (-1, 2),
        y: (-4, 1),
    };
    let gaps = block_gaps(&g, p, (4, 4), b, (90.0, 90.0), (10.0, 10.0));
    let margin = 1e-6 * 90.0;
    assert!((gaps[0] - (13.0 - margin)).abs() < 1e-4, "{gaps:?}");
    assert!((gaps[1] - (27.0 - margin)).abs() < 1e-4, "{gaps:?}");
    assert_eq!(
        gaps[2],
        f32::MAX,
        "the grid's lowest row is in the block: {gaps:?}"
    );
    assert!((gaps[3] - (12.5 - margin)).abs() < 1e-4, "{gaps:?}");
    let wrapping = grid(5, 9, true);
    let full = GridBlock {
        x: (-2, 2),
        y: (0, 0),
    };
    let gaps = block_gaps(&wrapping, p, (4, 4), full, (50.0, 90.0), (10.0, 10.0));
    assert_eq!(
        (gaps[0], gaps[1]),
        (f32::MAX, f32::MAX),
        "every column in the block: {gaps:?}"
    );
    assert!(gaps[2] < f32::MAX && gaps[3] < f32::MAX, "{gaps:?}");
}

#[test]
fn a_cut_where_the_polygon_leaves_the_half_plane_twice_keeps_every_piece() {
    // Vertices 2 and 4 outside, 3 between them inside (a dent no convex polygon has): each edge
    // gives its piece, 7 vertices from 5, the new edges owned by the candidate (7). All values
    // are exact in binary.
    let mut cell = VoronoiCell::new();
    cell.reset(Vec2::splat(-1.0), Vec2::splat(1.0));
    cell.vertices = vec![
        Vec2::new(-1.0, -1.0),
        Vec2::new(1.0, -1.0),
        Vec2::new(1.0, 1.0),
        Vec2::new(0.0, 0.5),
        Vec2::new(-1.0, 1.0),
    ];
    cell.owners = vec![10, 11, 12, 13, 14];
    cell.r2 = 2.0;
    assert!(cell.cut(Vec2::new(0.0, 1.5), 7));
    let want = [
        ((-1.0, -1.0), 10),
        ((1.0, -1.0), 11),
        ((1.0, 0.75), 7),
        ((0.5, 0.75), 12),
        ((0.0, 0.5), 13),
        ((-0.5, 0.75), 7),
        ((-1.0, 0.75), 14),
    ];
    let got: Vec<_> = cell
        .vertices
        .iter()
        .zip(&cell.owners)
        .map(|(v, &o)| ((v.x, v.y), o))
        .collect();
    assert_eq!(got, want);
    assert_eq!(cell.r2, 2.0);
}
