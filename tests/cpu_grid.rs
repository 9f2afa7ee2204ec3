//! The counting-sort grid finds exactly the neighbours brute force finds, and the CPU twins of the
//! binning stages behave as documented.

mod common;

use std::collections::BTreeSet;

use boids::model::rules::min_image;
use boids::model::{Boid, Boundary, SimParams, StepUniforms};
use boids::stages::twins::{clear, count, scan, scatter};

/// Sorts `boids` into cell order with the CPU stages; returns (sorted, cell starts).
fn bin(boids: &[Boid], u: &StepUniforms) -> (Vec<Boid>, Vec<u32>) {
    let grid = u.grid();
    let n = boids.len();
    let mut cells = vec![7u32; grid.cells() as usize + 1];
    let mut cell = vec![0; n];
    let mut rank = vec![0; n];
    let mut sorted = vec![bytemuck::Zeroable::zeroed(); n];
    clear(&mut cells);
    count(boids, &grid, &mut cells, &mut cell, &mut rank);
    let total = scan(&mut cells);
    assert_eq!(total as usize, n);
    scatter(boids, &cell, &rank, &cells, &mut sorted);
    (sorted, cells)
}

/// Neighbour id sets within the perception radius, via the grid's 3×3 block ranges. Fails on a
/// candidate visited twice.
fn grid_neighbors(boids: &[Boid], u: &StepUniforms) -> Vec<(u32, BTreeSet<u32>)> {
    let (sorted, starts) = bin(boids, u);
    let grid = u.grid();
    let mut out = Vec::new();
    for (i, me) in sorted.iter().enumerate() {
        let (cx, cy) = grid.cell_xy(me.pos());
        let mut seen = BTreeSet::new();
        let mut near = BTreeSet::new();
        grid.for_each_block_range(cx, cy, |first, last| {
            for j in starts[first as usize]..starts[last as usize + 1] {
                assert!(
                    seen.insert(j),
                    "candidate {j} visited twice for boid {}",
                    me.id
                );
                let other = &sorted[j as usize];
                let d = min_image(other.pos() - me.pos(), u);
                if j as usize != i && d.dot(d) < u.perception_r2 {
                    near.insert(other.id);
                }
            }
        });
        out.push((me.id, near));
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
    let u = StepUniforms::new(params, boids.len() as u32, 0, 1, 0, &Default::default());
    let g = grid_neighbors(boids, &u);
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
            let boids = common::test_state(k as u32 + 11, n, &p, true);
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
fn radius_equal_to_the_cell() {
    // 300 / 30 = 10 cells exactly: the cell size equals the radius.
    let p = params(300.0, 300.0, 30.0, Boundary::Wrap);
    assert_eq!(boids::model::Grid::new(&p).cols, 10);
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
fn narrow_worlds_do_not_visit_cells_twice() {
    // One and two columns/rows: the 3×3 block must not repeat a cell.
    for (w, h) in [(15.0, 15.0), (35.0, 70.0), (70.0, 35.0), (45.0, 200.0)] {
        let p = params(w, h, 15.0, Boundary::Wrap);
        let boids = boids::model::initial_state(21, 300, &p);
        check(&boids, &p, &format!("narrow {w}x{h}"));
    }
}

#[test]
fn counting_sort_is_a_stable_permutation_in_cell_order() {
    let p = params(300.0, 200.0, 10.0, Boundary::Wrap);
    let boids = boids::model::initial_state(8, 4000, &p);
    let u = StepUniforms::new(&p, 4000, 0, 1, 0, &Default::default());
    let (sorted, starts) = bin(&boids, &u);
    let grid = u.grid();
    let ids: BTreeSet<u32> = sorted.iter().map(|b| b.id).collect();
    assert_eq!(ids.len(), 4000);
    for c in 0..grid.cells() as usize {
        let range = &sorted[starts[c] as usize..starts[c + 1] as usize];
        for w in range.windows(2) {
            assert!(w[0].id < w[1].id, "not stable in cell {c}");
        }
        for b in range {
            assert_eq!(grid.cell_of(b.pos()) as usize, c);
        }
    }
}

#[test]
fn scan_is_exclusive() {
    let mut v = vec![3u32, 0, 5, 1];
    assert_eq!(scan(&mut v), 9);
    assert_eq!(v, vec![0, 3, 3, 8]);
}
