//! The CPU twins of the compute stages, one function per stage with the stage's name:
//! `clear` → `count` → `scan` → `scatter` → `rules`, and `measures`. Each is the reference
//! definition of its stage: the GPU stage of the same name (`shaders/<name>.wgsl`, described in
//! [`crate::stages::STAGES`]) is tested against it on seeded random input, and the CPU backend runs
//! them, through the `<name>_step` adapters on a [`CpuStep`], in the table's order.

use rayon::prelude::*;

use crate::model::grid::Grid;
use crate::model::params::SimParams;
use crate::model::rules::{accumulate, integrate, min_image, NeighborSums};
use crate::model::state::Boid;
use crate::model::uniforms::StepUniforms;
use crate::model::{flock_measures, FlockMeasures};

/// Smallest number of boids a rayon task handles.
const MIN_TASK: usize = 1024;

/// `clear`: sets every cell counter to zero. `cells` has `cell_count + 1` entries.
pub fn clear(cells: &mut [u32]) {
    cells.fill(0);
}

/// `count`: bins each boid: `boid_cell[i]` = its cell, `boid_rank[i]` = its rank among the boids of
/// that cell (the value `atomicAdd` returns on the GPU; here ranks follow boid order, so the sort is
/// stable), and `cells[c]` = number of boids in cell c.
pub fn count(
    boids: &[Boid],
    grid: &Grid,
    cells: &mut [u32],
    boid_cell: &mut [u32],
    boid_rank: &mut [u32],
) {
    boid_cell
        .par_iter_mut()
        .zip(boids.par_iter())
        .with_min_len(MIN_TASK)
        .for_each(|(c, b)| *c = grid.cell_of(b.pos()));
    for (c, r) in boid_cell.iter().zip(boid_rank.iter_mut()) {
        let slot = &mut cells[*c as usize];
        *r = *slot;
        *slot += 1;
    }
}

/// `scan`: exclusive prefix sum in place: `data[i]` ← Σ_{k<i} `data[k]`. Returns the total.
/// With `data` = cell counts followed by one 0, the last entry becomes the number of boids, so
/// `data[c] .. data[c + 1]` is the range of cell c.
pub fn scan(data: &mut [u32]) -> u32 {
    let mut sum = 0u32;
    for x in data.iter_mut() {
        let v = *x;
        *x = sum;
        sum = sum.wrapping_add(v);
    }
    sum
}

/// A raw pointer that rayon tasks may share because every task writes distinct indices.
#[derive(Clone, Copy)]
struct SharedOut(*mut Boid);
unsafe impl Send for SharedOut {}
unsafe impl Sync for SharedOut {}

/// `scatter`: copies each boid's whole state to `sorted[cell_start[cell] + rank]`, so boids of one
/// cell are contiguous and cells are in index order.
///
/// # Panics
/// If the destinations are not a permutation of `0..boids.len()` (inconsistent inputs).
pub fn scatter(
    boids: &[Boid],
    boid_cell: &[u32],
    boid_rank: &[u32],
    cell_start: &[u32],
    sorted: &mut [Boid],
) {
    assert_eq!(boids.len(), sorted.len());
    let n = sorted.len();
    // Check the destinations are in range before any unsafe write (a permutation follows from
    // counts and ranks being consistent, which `count` guarantees).
    let out = SharedOut(sorted.as_mut_ptr());
    (0..n)
        .into_par_iter()
        .with_min_len(MIN_TASK)
        .for_each(move |i| {
            let dst = (cell_start[boid_cell[i] as usize] + boid_rank[i]) as usize;
            assert!(dst < n, "scatter destination {dst} out of range {n}");
            let out = out;
            // SAFETY: dst < n, and distinct boids have distinct (cell, rank) pairs, hence distinct
            // destinations, so no two tasks write the same element.
            unsafe { *out.0.add(dst) = boids[i] };
        });
}

/// Gathers the neighbour sums of `sorted[i]` over the 3×3 block of its cell (row ranges as in
/// [`Grid::for_each_block_range`], at most six). Mirrors `gather` in `shaders/rules.wgsl`.
pub fn gather(
    i: usize,
    sorted: &[Boid],
    cell_start: &[u32],
    grid: &Grid,
    u: &StepUniforms,
) -> NeighborSums {
    let me = &sorted[i];
    let p = me.pos();
    let (cx, cy) = grid.cell_xy(p);
    let mut ranges = [(0u32, 0u32); 6];
    let mut k = 0;
    grid.for_each_block_range(cx, cy, |first, last| {
        ranges[k] = (cell_start[first as usize], cell_start[last as usize + 1]);
        k += 1;
    });
    let mut s = NeighborSums::default();
    for &(a, b) in &ranges[..k] {
        for (j, other) in sorted[a as usize..b as usize].iter().enumerate() {
            let d = min_image(other.pos() - p, u);
            if d.dot(d) >= u.perception_r2 || j + a as usize == i {
                continue;
            }
            if !accumulate(&mut s, d, other, u) {
                return s;
            }
        }
    }
    s
}

/// `rules`: the next state of every boid of `sorted` (in cell order) into `out` (same order), with
/// its neighbour count into `neighbors`. Parallel over boids with rayon.
pub fn rules(
    u: &StepUniforms,
    sorted: &[Boid],
    cell_start: &[u32],
    obstacles: &[[f32; 2]],
    out: &mut [Boid],
    neighbors: &mut [u32],
) {
    let grid = u.grid();
    out.par_iter_mut()
        .zip(neighbors.par_iter_mut())
        .enumerate()
        .with_min_len(MIN_TASK / 4)
        .for_each(|(i, (o, k))| {
            let s = gather(i, sorted, cell_start, &grid, u);
            *o = integrate(&sorted[i], &s, obstacles, u);
            *k = s.neighbors;
        });
}

/// `measures`: the flock measures of a state (f64 reference; see [`flock_measures`]) in the world
/// of `u` (a periodic milling centre when it wraps).
pub fn measures(boids: &[Boid], neighbors: &[u32], u: &StepUniforms) -> FlockMeasures {
    let world = crate::model::measures::World {
        width: u.world_width,
        height: u.world_height,
        wrap: u.boundary == 0,
    };
    flock_measures(boids, neighbors, world)
}

/// The brute-force O(N²) rules (`cpu-naive` backend and test oracle): every other boid is a
/// candidate, in array order; output in input order.
pub fn rules_naive(
    u: &StepUniforms,
    boids: &[Boid],
    obstacles: &[[f32; 2]],
    out: &mut [Boid],
    neighbors: &mut [u32],
) {
    out.par_iter_mut()
        .zip(neighbors.par_iter_mut())
        .enumerate()
        .with_min_len(64)
        .for_each(|(i, (o, k))| {
            let s = gather_naive(i, boids, u);
            *o = integrate(&boids[i], &s, obstacles, u);
            *k = s.neighbors;
        });
}

/// Neighbour sums of `boids[i]` over every other boid (brute force).
pub fn gather_naive(i: usize, boids: &[Boid], u: &StepUniforms) -> NeighborSums {
    let p = boids[i].pos();
    let mut s = NeighborSums::default();
    for (j, other) in boids.iter().enumerate() {
        if j == i {
            continue;
        }
        if !accumulate(&mut s, min_image(other.pos() - p, u), other, u) {
            break;
        }
    }
    s
}

/// The CPU backend's buffers, named as the GPU buffers of [`crate::stages::BUFFERS`], plus the
/// step's uniforms: what the `<stage>_step` adapters of [`crate::stages::STAGES`] run on.
pub struct CpuStep {
    /// The uniform block of the step being computed.
    pub params: StepUniforms,
    /// Obstacle points (wu).
    pub obstacles: Vec<[f32; 2]>,
    /// The boid state (in cell order after a step): `state → scatter → sorted → rules → state`.
    pub state: Vec<Boid>,
    /// The scattered copy (the other half of the ping-pong pair).
    pub sorted: Vec<Boid>,
    /// Cell counts, then (after `scan`) cell starts; `cell_count + 1` entries.
    pub cells: Vec<u32>,
    /// Cell of each boid of `state`.
    pub boid_cell: Vec<u32>,
    /// Rank of each boid of `state` within its cell.
    pub boid_rank: Vec<u32>,
    /// Neighbour count of each boid after `rules` (aligned with `state`).
    pub neighbors: Vec<u32>,
    /// The result of `measures`.
    pub measures: FlockMeasures,
}

impl CpuStep {
    /// Buffers holding `boids`, sized for them and for the grid of `params`.
    pub fn new(boids: Vec<Boid>, params: &SimParams) -> CpuStep {
        let mut s = CpuStep {
            params: StepUniforms::new(params, 0, 0, 0, 0, &Default::default()),
            obstacles: Vec::new(),
            state: Vec::new(),
            sorted: Vec::new(),
            cells: Vec::new(),
            boid_cell: Vec::new(),
            boid_rank: Vec::new(),
            neighbors: Vec::new(),
            measures: FlockMeasures::default(),
        };
        s.set_state(boids);
        s.resize_cells(params);
        s
    }

    /// Replaces the boids (count may change); neighbour counts restart at 0.
    pub fn set_state(&mut self, boids: Vec<Boid>) {
        let n = boids.len();
        self.state = boids;
        self.sorted = vec![bytemuck::Zeroable::zeroed(); n];
        self.boid_cell = vec![0; n];
        self.boid_rank = vec![0; n];
        self.neighbors = vec![0; n];
    }

    /// Sizes the cell counters for the grid of `params`.
    pub fn resize_cells(&mut self, params: &SimParams) {
        self.cells.resize(Grid::new(params).cells() as usize + 1, 0);
    }
}

/// `clear` on a [`CpuStep`].
pub fn clear_step(s: &mut CpuStep) {
    clear(&mut s.cells);
}

/// `count` on a [`CpuStep`].
pub fn count_step(s: &mut CpuStep) {
    let grid = s.params.grid();
    count(
        &s.state,
        &grid,
        &mut s.cells,
        &mut s.boid_cell,
        &mut s.boid_rank,
    );
}

/// `scan` on a [`CpuStep`].
pub fn scan_step(s: &mut CpuStep) {
    scan(&mut s.cells);
}

/// `scatter` on a [`CpuStep`].
pub fn scatter_step(s: &mut CpuStep) {
    scatter(
        &s.state,
        &s.boid_cell,
        &s.boid_rank,
        &s.cells,
        &mut s.sorted,
    );
}

/// `rules` on a [`CpuStep`]: `sorted` → `state`.
pub fn rules_step(s: &mut CpuStep) {
    rules(
        &s.params,
        &s.sorted,
        &s.cells,
        &s.obstacles,
        &mut s.state,
        &mut s.neighbors,
    );
}

/// `measures` on a [`CpuStep`].
pub fn measures_step(s: &mut CpuStep) {
    s.measures = measures(&s.state, &s.neighbors, &s.params);
}
