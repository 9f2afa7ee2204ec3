//! The counting-sort grid finds exactly the neighbours brute force finds, and the CPU twins of the
//! binning stages behave as documented.

use crate::support;
use std::collections::{BTreeMap, BTreeSet};

use boids::model::rules::min_image;
use boids::model::{Boid, Boundary, SimParams, StepUniforms};
use boids::stages::twins::{scan, CpuStep};

/// Bins `boids` with the CPU twins (clear → count → scan → slots → scatter).
fn bin(boids: &[Boid], p: &SimParams, u: &StepUniforms) -> CpuStep {
    let mut c = CpuStep::new(boids, p);
    c.prepare(*u);
    for stage in boids::stages::step_stages().take_while(|s| s.name != "rules") {
        (stage.twin)(&mut c);
    }
    c
}

/// Neighbour id sets within the perception radius, via the grid's block rows (each at most three
/// ranges of sorted items — padding, real cells, padding — with the row's vertical shift). Fails
/// when an item is visited twice with the same shift for one boid, or when one boid is found twice
/// within the radius (as two images).
fn grid_neighbors(boids: &[Boid], p: &SimParams, u: &StepUniforms) -> Vec<(u32, BTreeSet<u32>)> {
    let c = bin(boids, p, u);
    let grid = u.grid();
    let n = boids.len();
    // The first n sorted items are the boids, the ghosts follow.
    let real: BTreeSet<u32> = c.sorted_id[..n].iter().copied().collect();
    assert_eq!(real.len(), n, "each boid once among the first n items");
    let mut out = Vec::new();
    for s in 0..n {
        let me = c.sorted_pos_vel[s];
        assert!(
            me[0] >= 0.0 && me[0] < p.world_width,
            "a real item in the world"
        );
        let pos = glam::Vec2::new(me[0], me[1]);
        let (cx, cy) = grid.cell_xy(pos);
        let mut seen = BTreeSet::new();
        let mut near: BTreeMap<u32, u32> = BTreeMap::new();
        let my_id = c.sorted_id[s];
        grid.for_each_block_row(cy, |row, k| {
            for (first, last) in grid.row_ranges(row, cx).into_iter().flatten() {
                for j in c.cells[first as usize]..c.cells[last as usize + 1] {
                    // The same item may come back as another image (a block row that wraps onto a
                    // row already visited, shifted by a world height), never twice as the same one.
                    assert!(
                        seen.insert((j, k)),
                        "item {j} visited twice for boid {my_id}"
                    );
                    let o = c.sorted_pos_vel[j as usize];
                    let d =
                        glam::Vec2::new(o[0] - me[0], o[1] - (me[1] - k as f32 * p.world_height));
                    if j as usize != s && d.dot(d) < u.perception_r2 {
                        *near.entry(c.sorted_id[j as usize]).or_default() += 1;
                    }
                }
            }
        });
        for (id, times) in &near {
            assert_eq!(*times, 1, "boid {id} found {times} times near boid {my_id}");
        }
        out.push((my_id, near.into_keys().collect()));
    }
    out.sort_by_key(|x| x.0);
    out
}

fn brute_neighbors(boids: &[Boid], u: &StepUniforms) -> Vec<(u32, BTreeSet<u32>)> {
    let mut out: Vec<(u32, BTreeSet<u32>)> = boids
        .iter()
        .enumerate()
        .map(|(i, me)| {
            let near = boids
                .iter()
                .enumerate()
                .filter(|(j, o)| {
                    let d = min_image(o.pos() - me.pos(), u);
                    *j != i && d.dot(d) < u.perception_r2
                })
                .map(|(_, o)| o.id)
                .collect();
            (me.id, near)
        })
        .collect();
    out.sort_by_key(|x| x.0);
    out
}

fn check(boids: &[Boid], params: &SimParams, what: &str) {
    let u = StepUniforms::new(params, boids.len() as u32, 0, 1, &Default::default());
    let g = grid_neighbors(boids, params, &u);
    let b = brute_neighbors(boids, &u);
    assert_eq!(g.len(), b.len());
    for (x, y) in g.iter().zip(&b) {
        assert_eq!(x, y, "{what}: neighbour sets of boid {} differ", x.0);
    }
}

fn params(w: f32, h: f32, r: f32, boundary: Boundary) -> SimParams {
    SimParams {
        world_width: w,
        world_height: h,
        perception_radius: r,
        separation_radius: r * 0.4,
        alignment_radius: r,
        cohesion_radius: r,
        hue_radius: r,
        boundary,
        ..SimParams::default()
    }
}

#[test]
fn grid_neighbors_equal_brute_force_on_random_states() {
    for boundary in [Boundary::Wrap, Boundary::Walls, Boundary::Bounce] {
        for (k, n) in [1usize, 2, 3, 17, 256, 1000, 5000].into_iter().enumerate() {
            let p = params(400.0, 300.0, 20.0, boundary).with_world_for(n, 0.02);
            let boids = support::test_state(k as u32 + 11, n, &p, true);
            check(&boids, &p, &format!("{boundary:?} n={n}"));
        }
    }
}

#[test]
fn wrap_seam_and_corners() {
    // Dense along the four edges and in the corners, where the block wraps.
    let p = params(200.0, 120.0, 10.0, Boundary::Wrap);
    let mut boids = boids::model::initial_state(3, 2000, &p);
    for (k, b) in boids.iter_mut().enumerate() {
        let t = b.position;
        b.position = match k % 4 {
            0 => [t[0] % 6.0, t[1]],
            1 => [p.world_width - 1e-3 - (t[0] % 6.0), t[1]],
            2 => [t[0], t[1] % 6.0],
            _ => [
                t[0] % 6.0 + if k % 8 == 3 { 194.0 } else { 0.0 },
                p.world_height - 1e-3 - (t[1] % 6.0),
            ],
        };
    }
    check(&boids, &p, "seam");
}

#[test]
fn radius_equal_to_two_cells() {
    // 300 / 15 = 20 cells exactly: the radius is exactly two cells.
    let p = params(300.0, 300.0, 30.0, Boundary::Wrap);
    assert_eq!(boids::model::Grid::new(&p, 3000).cols, 20);
    let boids = boids::model::initial_state(5, 3000, &p);
    check(&boids, &p, "radius = cell");
}

#[test]
fn all_boids_in_one_cell() {
    let p = params(500.0, 500.0, 25.0, Boundary::Walls);
    let mut boids = boids::model::initial_state(9, 1500, &p);
    for b in &mut boids {
        b.position = [100.0 + b.position[0] % 20.0, 100.0 + b.position[1] % 20.0];
    }
    check(&boids, &p, "one cell");
}

#[test]
fn boids_exactly_on_cell_borders() {
    let p = params(400.0, 400.0, 20.0, Boundary::Wrap);
    let mut boids = boids::model::initial_state(13, 2000, &p);
    for (k, b) in boids.iter_mut().enumerate() {
        // Multiples of the cell size (20) and half-cells: exactly on the lines, and between.
        b.position = [((k % 20) * 20) as f32, ((k / 20 % 40) * 10) as f32];
    }
    check(&boids, &p, "cell borders");
}

#[test]
fn narrow_worlds_find_each_neighbour_once() {
    // Worlds two or three radii across: few columns and rows, ghosts on both sides, blocks that
    // wrap onto themselves vertically.
    for (w, h) in [
        (30.0, 30.0),
        (35.0, 70.0),
        (70.0, 35.0),
        (45.0, 200.0),
        (30.0, 31.0),
    ] {
        let p = params(w, h, 15.0, Boundary::Wrap);
        let boids = boids::model::initial_state(21, 300, &p);
        check(&boids, &p, &format!("narrow {w}x{h}"));
    }
}

#[test]
fn sparse_and_huge_worlds_keep_cells_proportional_to_the_boids() {
    // 10 boids in a 1e6 × 1e6 world: a grid of r/2 cells would have 10^10 cells.
    for (n, w) in [
        (10usize, 1.0e6f32),
        (1000, 1.0e6),
        (1000, 2.0e4),
        (5, 500.0),
    ] {
        let p = params(w, w, 20.0, Boundary::Wrap);
        let grid = boids::model::Grid::new(&p, n);
        assert!(
            (grid.cols as u64 * grid.rows as u64) <= (4 * n as u64).max(4096),
            "{n} boids in {w}²: {grid:?}"
        );
        let boids = boids::model::initial_state(4, n, &p);
        check(&boids, &p, &format!("sparse {n} in {w}"));
    }
}

#[test]
fn grown_cells_past_six_tenths_of_the_radius_become_cells_of_the_radius() {
    // 100 000 boids in a 10 000² world: the 4·N budget grows r/2 cells to 19.5 wu, just under the
    // 20 wu radius, where a 5 × 5 block holds 2.4 times the area of a 3 × 3 block of cells of r.
    let r = 20.0;
    let p = params(10_000.0, 10_000.0, r, Boundary::Wrap);
    let grid = boids::model::Grid::new(&p, 100_000);
    assert_eq!((grid.block_x, grid.block_y), (1, 1), "{grid:?}");
    assert_eq!(grid.cols, 500, "{grid:?}");
    // Ungrown cells keep their 5 × 5 block.
    let dense = params(1000.0, 1000.0, r, Boundary::Wrap);
    let g = boids::model::Grid::new(&dense, 100_000);
    assert_eq!((g.block_x, g.block_y, g.cols), (2, 2, 100), "{g:?}");
    let boids = boids::model::initial_state(8, 3000, &p);
    check(&boids, &p, "cells of r after growth");
}

#[test]
fn sorted_items_are_in_canonical_order_whatever_the_input_order() {
    // Cell by cell, within a cell by id: reversing the input changes nothing.
    let p = params(300.0, 200.0, 10.0, Boundary::Wrap);
    let boids = boids::model::initial_state(8, 4000, &p);
    let u = StepUniforms::new(&p, 4000, 0, 1, &Default::default());
    let a = bin(&boids, &p, &u);
    let mut rev = boids.clone();
    rev.reverse();
    let b = bin(&rev, &p, &u);
    let grid = u.grid();
    let total = a.cells[a.cells.len() - 1] as usize;
    assert!(total > 4000, "ghosts in a wrapping world");
    // The boids first (real cells), the ghosts after them (padding cells).
    assert!(a.cells[grid.real_cells() as usize] == 4000);
    let id_a: Vec<u32> = a.sorted_id[..total].to_vec();
    let id_b: Vec<u32> = b.sorted_id[..total].to_vec();
    assert_eq!(id_a, id_b, "the order does not depend on the input order");
    assert_eq!(a.sorted_pos_vel[..total], b.sorted_pos_vel[..total]);
    for c in 0..grid.cells() as usize {
        let range = a.cells[c] as usize..a.cells[c + 1] as usize;
        for w in id_a[range.clone()].windows(2) {
            assert!(w[0] < w[1], "not ordered by id in cell {c}");
        }
        for k in range {
            let pv = a.sorted_pos_vel[k];
            let me = boids[id_a[k] as usize];
            if pv[0] == me.position[0] {
                assert_eq!(grid.cell_of(me.pos()) as usize, c);
            } else {
                // A ghost: shifted by ±W into the padding of its row.
                let (cx, cy) = grid.cell_xy(me.pos());
                let (gc, shift) = grid.ghost(cx, cy).expect("a ghost");
                assert_eq!(gc as usize, c);
                assert_eq!(pv[0], me.position[0] + shift * p.world_width);
            }
        }
    }
}

#[test]
fn scan_is_exclusive() {
    let mut v = vec![3u32, 0, 5, 1];
    assert_eq!(scan(&mut v), 9);
    assert_eq!(v, vec![0, 3, 3, 8]);
}
