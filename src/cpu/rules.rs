//! The `rules` stage of the CPU backend: the reference twin's sums and rule
//! ([`crate::stages::twins::rules()`]), fast — in parallel with rayon over runs of consecutive
//! sorted items, each run's candidate ranges cached from one item to the next ([`Candidates`]),
//! the neighbour sums gathered 8 candidates at a time ([`crate::cpu::gather_simd`]) and the boids
//! model's rule computed for 8 boids at once ([`crate::cpu::integrate_simd`]), the whole loop
//! compiled for the widest vector instructions the CPU has. Every boid's result depends on the
//! sorted arrays only, not on the tasks. Tested against the reference in
//! `tests/it/cpu_gather_simd.rs`, `tests/it/cpu_integrate_simd.rs` and `tests/it/cpu_backend.rs`.

use glam::Vec2;
use rayon::prelude::*;

use crate::cpu::gather_simd::{
    gather_lanes_into, gather_steps_into, simd_applies, steps_of, GatherPath, LaneStep,
    SortedLanes, SumsLanes, LANES,
};
use crate::cpu::integrate_simd::{self, integrate_lanes};
use crate::cpu::topological::{
    fast_search_available, topological_nearest_small, topological_sums_small, Block, SMALL_K,
};
use crate::model::grid::{Grid, ObstacleGrid};
use crate::model::models::ModelUniforms;
use crate::model::predators::{next_boid, Predator};
use crate::model::rules::{next_image, obstacle_sums, NeighborSums, ObstacleSums, TopoNearest};
use crate::model::state::Boid;
use crate::model::uniforms::StepUniforms;
use crate::model::voronoi::{VoronoiCell, VORONOI_EDGES_MAX};
use crate::stages::twins::rules::{gather_over, record_ids, topological_nearest, topological_sums};
use crate::stages::twins::voronoi::{record_voronoi_ids, voronoi_cell, voronoi_sums};
use crate::stages::twins::{CandidateRange, SortedRef, StateMut};

/// Sorted items per rayon task of `rules`: consecutive items are neighbouring cells of one row,
/// whose candidates (the rows around it) stay in the cache from one item to the next.
const RULES_TASK: usize = 512;

/// The rayon tasks (at least) the rules pass of a step of `n` boids splits into: one step of 400
/// boids is one task, so a sweep runs such points side by side to fill the cores
/// (`crate::sweep::run`).
pub fn step_tasks(n: usize) -> usize {
    n.div_ceil(RULES_TASK).max(1)
}

/// Lane steps a [`Candidates`] keeps (4 per block row of a 5 × 5 block, and room to spare).
pub const STEPS: usize = 48;

/// The candidate ranges of an item in cell `(cx, cy)`: for each block row up to three ranges of
/// sorted items (left padding, real cells, right padding), each with the row's whole-world
/// vertical shift (candidates of the row are compared against `(p.x, p.y − y_shift)`); at most 15,
/// the empty ones left out: the reference's
/// [`candidate_ranges`](crate::stages::twins::rules::candidate_ranges), without an allocation and
/// with their lane steps. The same for every item of a cell; [`Candidates::set_cell`] keeps the
/// block rows while the row of cells stays the same.
#[derive(Clone, Copy, Debug)]
pub struct Candidates {
    ranges: [CandidateRange; 15],
    len: usize,
    /// The ranges' lane steps ([`steps_of`]), while they fit (`steps_len ≤ STEPS`); else
    /// `steps_len` is `usize::MAX`.
    steps: [LaneStep; STEPS + 1],
    steps_len: usize,
    /// The cell the ranges are for (`u32::MAX` before the first).
    cell: (u32, u32),
    /// The block rows of row `cell.1`: `(row, y_shift)`.
    rows: [(u32, f32); 5],
    rows_len: usize,
}

impl Candidates {
    /// The ranges of cell `(cx, cy)` (cell starts `cells`, after `scan`).
    #[inline]
    pub fn of_cell(cx: u32, cy: u32, cells: &[u32], grid: &Grid, u: &StepUniforms) -> Candidates {
        let mut c = Candidates::new();
        c.set_cell(cx, cy, cells, grid, u);
        c
    }

    /// No ranges, for no cell yet.
    pub fn new() -> Candidates {
        Candidates {
            ranges: [CandidateRange::default(); 15],
            len: 0,
            steps: [LaneStep::default(); STEPS + 1],
            steps_len: 0,
            cell: (u32::MAX, u32::MAX),
            rows: [(0, 0.0); 5],
            rows_len: 0,
        }
    }

    /// Makes these the ranges of cell `(cx, cy)` (nothing to do when they are).
    #[inline]
    pub fn set_cell(&mut self, cx: u32, cy: u32, cells: &[u32], grid: &Grid, u: &StepUniforms) {
        if self.cell == (cx, cy) {
            return;
        }
        if self.cell.1 != cy {
            let (rows, n) = grid.block_rows(cy);
            for (out, &(row, shift)) in self.rows.iter_mut().zip(&rows[..n]) {
                *out = (row, shift as f32 * u.world_height);
            }
            self.rows_len = n;
        }
        self.cell = (cx, cy);
        self.len = 0;
        // The columns of the block, the same for every row: `Grid::row_ranges` for all rows at
        // once — left padding slots, real columns, right padding slots.
        let (lo, hi) = (
            cx as i32 - grid.block_x as i32,
            cx as i32 + grid.block_x as i32,
        );
        let cols = grid.cols as i32;
        let pad = grid.pad as i32;
        let real = (lo.max(0) as usize, hi.min(cols - 1) as usize);
        let left = (grid.wrap && lo < 0).then_some(((pad + lo) as usize, pad as usize - 1));
        let right = (grid.wrap && hi >= cols).then_some((pad as usize, (pad + hi - cols) as usize));
        let (cols, pad_base, pads) = (
            grid.cols as usize,
            grid.real_cells() as usize,
            2 * grid.pad as usize,
        );
        for &(row, y_shift) in &self.rows[..self.rows_len] {
            let row = row as usize;
            let mut push = |first: usize, last: usize| {
                let (a, b) = (cells[first], cells[last + 1]);
                if a < b {
                    self.ranges[self.len] = CandidateRange {
                        start: a,
                        end: b,
                        y_shift,
                    };
                    self.len += 1;
                }
            };
            let padding = pad_base + row * pads;
            if let Some((a, b)) = left {
                push(padding + a, padding + b);
            }
            push(row * cols + real.0, row * cols + real.1);
            if let Some((a, b)) = right {
                push(padding + a, padding + b);
            }
        }
        // The lane steps: one or two per range without a branch on its length (the second
        // written always, counted when the range has more than 8 items); longer ranges, rare,
        // step by step.
        const L: u32 = LANES as u32;
        let mut n = 0;
        for r in &self.ranges[..self.len] {
            let len = r.end - r.start;
            if len <= 2 * L && n + 2 <= STEPS {
                self.steps[n] = LaneStep {
                    start: r.start,
                    live: len.min(L),
                    y_shift: r.y_shift,
                };
                self.steps[n + 1] = LaneStep {
                    start: r.start + L,
                    live: len.saturating_sub(L),
                    y_shift: r.y_shift,
                };
                n += 1 + (len > L) as usize;
            } else {
                for t in steps_of(std::slice::from_ref(r)) {
                    if n == STEPS {
                        self.steps_len = usize::MAX;
                        return;
                    }
                    self.steps[n] = t;
                    n += 1;
                }
            }
        }
        self.steps_len = n;
    }

    /// The lane steps of the ranges, in order ([`steps_of`]), when there are at most [`STEPS`].
    #[inline]
    pub fn steps(&self) -> Option<&[LaneStep]> {
        self.steps.get(..self.steps_len)
    }

    /// The non-empty ranges, in block order.
    #[inline]
    pub fn ranges(&self) -> &[CandidateRange] {
        &self.ranges[..self.len]
    }
}

impl Default for Candidates {
    fn default() -> Self {
        Candidates::new()
    }
}

/// How `rules` gathers the neighbour sums.
#[derive(Clone, Copy, Debug)]
pub enum Gather<'a> {
    /// The scalar reference ([`gather_over`], the reference twin's gather).
    Scalar,
    /// A vectorised path over the sorted items transposed into `lanes` (filled from the same
    /// sorted arrays), where [`simd_applies`]; the scalar reference elsewhere.
    Lanes(GatherPath, &'a SortedLanes),
}

/// The neighbour sums of sorted item `s` as `how` gathers them (see
/// [`crate::stages::twins::gather`]; the vectorised paths differ from it by the summation order
/// only: see [`crate::cpu::gather_simd`]).
pub fn gather_with(
    how: Gather<'_>,
    s: usize,
    sorted: SortedRef<'_>,
    cells: &[u32],
    grid: &Grid,
    u: &StepUniforms,
) -> NeighborSums {
    let me = sorted.pos_vel[s];
    let (cx, cy) = grid.cell_xy(Vec2::new(me[0], me[1]));
    gather_in(
        how,
        s,
        sorted,
        &Candidates::of_cell(cx, cy, cells, grid, u),
        u,
    )
}

/// [`gather_with`] over the candidate ranges of item `s`'s cell.
#[inline]
fn gather_in(
    how: Gather<'_>,
    s: usize,
    sorted: SortedRef<'_>,
    cand: &Candidates,
    u: &StepUniforms,
) -> NeighborSums {
    let mut out = NeighborSums::default();
    gather_into(how, s, sorted, cand, u, &mut out);
    out
}

/// [`gather_in`] into `out`.
#[inline(always)]
fn gather_into(
    how: Gather<'_>,
    s: usize,
    sorted: SortedRef<'_>,
    cand: &Candidates,
    u: &StepUniforms,
    out: &mut NeighborSums,
) {
    match how {
        Gather::Lanes(path, lanes) if path != GatherPath::Scalar && simd_applies(u) => {
            let me = sorted.pos_vel[s];
            let p = Vec2::new(me[0], me[1]);
            gather_lanes_into(path, s, p, cand.ranges(), lanes, u, out);
        }
        _ => *out = gather_over(s, sorted, cand.ranges(), u),
    }
}

/// `rules` (the twin: [`crate::stages::twins::rules()`]): the next state of every boid — the first
/// N sorted items; the ghosts after them are candidates only — written at the same index of the
/// state (so the state follows the sort's order), with its id and neighbour count; the neighbour
/// sums gathered as `how` says. A boid a
/// hunting predator catches respawns instead (docs/model.md §18.4); the others feel the predators'
/// push. Parallel with rayon over runs of consecutive sorted items; each boid's result depends on
/// the sorted arrays only, not on the tasks. Returns the number of boids caught.
// The two uniform blocks, the sorted items and the buffers `rules` binds, as the GPU stage.
#[allow(clippy::too_many_arguments)]
pub fn rules(
    u: &StepUniforms,
    m: &ModelUniforms,
    sorted: SortedRef<'_>,
    how: Gather<'_>,
    cells: &[u32],
    obstacles: &ObstacleGrid,
    predators: &[Predator],
    out: StateMut<'_>,
) -> u32 {
    let grid = u.grid();
    let ctx = RulesCtx {
        u,
        m,
        sorted,
        how,
        cells,
        grid: &grid,
        obstacles,
        predators,
    };
    // The recorded neighbour ids of each task's boids (none past the recorded ones).
    let k = u.recorded_width() as usize;
    let tasks = out.pos_vel.len().div_ceil(RULES_TASK);
    let mut ids: Vec<&mut [u32]> = if k > 0 {
        out.neighbor_ids.chunks_mut(RULES_TASK * k).collect()
    } else {
        Vec::new()
    };
    ids.resize_with(tasks, Default::default);
    out.pos_vel
        .par_chunks_mut(RULES_TASK)
        .zip(out.hue.par_chunks_mut(RULES_TASK))
        .zip(out.id.par_chunks_mut(RULES_TASK))
        .zip(out.image.par_chunks_mut(RULES_TASK))
        .zip(out.neighbors.par_chunks_mut(RULES_TASK))
        .zip(ids.into_par_iter())
        .enumerate()
        .map(|(c, (((((pv, hu), id), image), nb), nid))| {
            let part = StateMut {
                pos_vel: pv,
                hue: hu,
                id,
                image,
                neighbors: nb,
                neighbor_ids: nid,
            };
            let path = match how {
                Gather::Lanes(path, _) if path.is_available() => path,
                _ => GatherPath::Scalar,
            };
            // The SIMD paths are x86-64's; elsewhere every task is scalar.
            #[cfg(not(target_arch = "x86_64"))]
            let _ = path;
            #[cfg(target_arch = "x86_64")]
            match path {
                GatherPath::Avx512 => {
                    // SAFETY: `path` is available: the CPU has AVX-512F, AVX-512VL and AVX2.
                    return unsafe { rules_run_avx512(&ctx, c * RULES_TASK, part) };
                }
                GatherPath::Avx2 => {
                    // SAFETY: `path` is available: the CPU has AVX2.
                    return unsafe { rules_run_avx2(&ctx, c * RULES_TASK, part) };
                }
                GatherPath::Scalar | GatherPath::Portable | GatherPath::Sse2 => {}
            }
            rules_run(&ctx, c * RULES_TASK, part)
        })
        .sum()
}

/// What `rules` reads.
struct RulesCtx<'a> {
    u: &'a StepUniforms,
    m: &'a ModelUniforms,
    sorted: SortedRef<'a>,
    how: Gather<'a>,
    cells: &'a [u32],
    grid: &'a Grid,
    obstacles: &'a ObstacleGrid,
    predators: &'a [Predator],
}

/// `rules` for the boids of `out`, from sorted item `s0` on: groups of 8 through
/// [`integrate_lanes`] (the same bits as [`crate::model::rules::integrate`]) where it applies, the
/// rest one by one through [`next_boid`] (with predators every boid goes that way: the lanes know
/// no predators). Returns the number of boids caught.
#[inline(always)]
fn rules_run(ctx: &RulesCtx<'_>, s0: usize, out: StateMut<'_>) -> u32 {
    const L: usize = integrate_simd::LANES;
    let (u, sorted) = (ctx.u, ctx.sorted);
    let n = out.pos_vel.len();
    let lanes = integrate_simd::lanes_apply(u);
    let mut caught = 0;
    let topo_k = u.topological_k as usize;
    // The topological neighbours of one boid (reused from boid to boid: emptied, not zeroed).
    let mut near = TopoNearest::new(topo_k.max(1));
    // The candidates of the topological search's first step around the current cell.
    let mut block = Block::new();
    // The Voronoi cell of one boid (reused from boid to boid).
    let mut vcell = VoronoiCell::new();
    let voronoi = u.voronoi != 0;
    // Consecutive items of one cell share its candidate ranges (and of one row of cells, the
    // block rows).
    let mut cand = Candidates::new();
    let mut k = 0;
    while k < n {
        let s = s0 + k;
        if lanes && n - k >= L {
            let mut sums = SumsLanes::default();
            let mut obs = [ObstacleSums::default(); L];
            let mut near_obstacles = false;
            for (l, ob) in obs.iter_mut().enumerate() {
                let me = sorted.pos_vel[s + l];
                let p = Vec2::new(me[0], me[1]);
                if topo_k == 0 && !voronoi {
                    let (cx, cy) = ctx.grid.cell_xy(p);
                    cand.set_cell(cx, cy, ctx.cells, ctx.grid, u);
                }
                match ctx.how {
                    _ if voronoi => {
                        let n = voronoi_one(ctx, s + l, &mut vcell, out.neighbor_ids, s0);
                        sums.lane(l).set(&n);
                    }
                    _ if topo_k > 0 => {
                        let n = topological_one(
                            ctx,
                            s + l,
                            (&mut near, &mut block),
                            out.neighbor_ids,
                            topo_k,
                            s0,
                        );
                        sums.lane(l).set(&n);
                    }
                    Gather::Lanes(path, lanes) if path != GatherPath::Scalar && simd_applies(u) => {
                        let out = &mut sums.lane(l);
                        match cand.steps() {
                            Some(steps) => gather_steps_into(path, s + l, p, steps, lanes, u, out),
                            None => gather_lanes_into(path, s + l, p, cand.ranges(), lanes, u, out),
                        }
                    }
                    _ => sums
                        .lane(l)
                        .set(&gather_over(s + l, sorted, cand.ranges(), u)),
                }
                if u.obstacle_count > 0 {
                    *ob = obstacle_sums(p, ctx.obstacles, u);
                    near_obstacles |= *ob != ObstacleSums::empty(u);
                }
            }
            integrate_lanes(
                sorted.pos_vel[s..s + L].try_into().expect("8 items"),
                sorted.hue[s..s + L].try_into().expect("8 items"),
                sorted.id[s..s + L].try_into().expect("8 items"),
                &sums,
                near_obstacles.then_some(&obs),
                u,
                ctx.m,
                (&mut out.pos_vel[k..k + L], &mut out.hue[k..k + L]),
            );
            out.id[k..k + L].copy_from_slice(&sorted.id[s..s + L]);
            for l in 0..L {
                let (a, b) = (sorted.pos_vel[s + l], out.pos_vel[k + l]);
                out.image[k + l] = next_image(
                    sorted.image[s + l],
                    Vec2::new(a[0], a[1]),
                    Vec2::new(b[0], b[1]),
                    u,
                );
            }
            out.neighbors[k..k + L].copy_from_slice(&sums.n[0]);
            k += L;
        } else {
            let (mut sums, mut ob) = (NeighborSums::default(), ObstacleSums::default());
            if voronoi {
                sums = voronoi_one(ctx, s, &mut vcell, out.neighbor_ids, s0);
                let me = sorted.pos_vel[s];
                ob = obstacle_sums(Vec2::new(me[0], me[1]), ctx.obstacles, u);
            } else if topo_k > 0 {
                sums = topological_one(
                    ctx,
                    s,
                    (&mut near, &mut block),
                    out.neighbor_ids,
                    topo_k,
                    s0,
                );
                let me = sorted.pos_vel[s];
                ob = obstacle_sums(Vec2::new(me[0], me[1]), ctx.obstacles, u);
            } else {
                gather_one(ctx, s, &mut cand, &mut sums, &mut ob);
            }
            let boid = Boid::from_parts(sorted.pos_vel[s], sorted.hue[s], sorted.id[s])
                .with_image(sorted.image[s]);
            let (next, was_caught) = next_boid(&boid, &sums, &ob, ctx.predators, u, ctx.m);
            caught += was_caught as u32;
            out.pos_vel[k] = next.pos_vel();
            out.hue[k] = next.hue_parts();
            out.id[k] = boid.id;
            out.image[k] = next.image;
            out.neighbors[k] = sums.neighbors;
            k += 1;
        }
    }
    caught
}

/// The topological neighbour sums of sorted item `s` (its neighbours found into `near`), its
/// neighbour ids recorded into `ids` (the ids of this task's boids, from sorted item `s0` on)
/// when asked for. With the sorted items transposed, k ≤ 8 and AVX2 the search and the sums are
/// [`topological_nearest_small`] and [`topological_sums_small`], else the reference's. Not inlined: the search stays out of the metric gather's loop, whose code it
/// would otherwise share (compiled three times, scalar, AVX2 and AVX-512).
#[inline(never)]
fn topological_one(
    ctx: &RulesCtx<'_>,
    s: usize,
    (near, block): (&mut TopoNearest, &mut Block),
    ids: &mut [u32],
    k: usize,
    s0: usize,
) -> NeighborSums {
    let (u, sorted) = (ctx.u, ctx.sorted);
    let at = (s - s0) * k;
    let record = s < u.record_neighbors as usize && at + k <= ids.len();
    match ctx.how {
        Gather::Lanes(_, lanes) if k <= SMALL_K && u.view_mode == 0 && fast_search_available() => {
            let found =
                topological_nearest_small(s, block, lanes, sorted.id, ctx.cells, ctx.grid, u);
            if record {
                found.record_ids(&mut ids[at..at + k]);
            }
            topological_sums_small(s, &found, sorted, u)
        }
        _ => {
            topological_nearest(s, sorted, ctx.cells, ctx.grid, u, near);
            if record {
                record_ids(near, &mut ids[at..at + k]);
            }
            topological_sums(s, near, sorted, u)
        }
    }
}

/// The Voronoi neighbour sums of sorted item `s` (its cell cut into `cell`, the twin's
/// [`voronoi_cell`]), its neighbour ids recorded into `ids` (the ids of this task's boids, from
/// sorted item `s0` on) when asked for. Not inlined, as [`topological_one`].
#[inline(never)]
fn voronoi_one(
    ctx: &RulesCtx<'_>,
    s: usize,
    cell: &mut VoronoiCell,
    ids: &mut [u32],
    s0: usize,
) -> NeighborSums {
    let (u, sorted) = (ctx.u, ctx.sorted);
    voronoi_cell(s, sorted, ctx.cells, ctx.grid, u, cell);
    let k = VORONOI_EDGES_MAX;
    let at = (s - s0) * k;
    if s < u.record_neighbors as usize && at + k <= ids.len() {
        record_voronoi_ids(s, cell, sorted, u, &mut ids[at..at + k]);
    }
    voronoi_sums(s, cell, sorted, u)
}

/// The neighbour sums and obstacle sums of sorted item `s` into `sums` and `ob` (`cand` moved to
/// its cell).
#[inline(always)]
fn gather_one(
    ctx: &RulesCtx<'_>,
    s: usize,
    cand: &mut Candidates,
    sums: &mut NeighborSums,
    ob: &mut ObstacleSums,
) {
    let (u, sorted) = (ctx.u, ctx.sorted);
    let me = sorted.pos_vel[s];
    let p = Vec2::new(me[0], me[1]);
    let (cx, cy) = ctx.grid.cell_xy(p);
    cand.set_cell(cx, cy, ctx.cells, ctx.grid, u);
    gather_into(ctx.how, s, sorted, cand, u, sums);
    *ob = obstacle_sums(p, ctx.obstacles, u);
}

/// [`rules_run`] compiled for AVX2: the same operations (IEEE single precision, no fused
/// multiply-add), so the same bits, with the CPU's vector and rounding instructions and the AVX2
/// gather inlined.
///
/// # Safety
/// The CPU must have AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn rules_run_avx2(ctx: &RulesCtx<'_>, s0: usize, out: StateMut<'_>) -> u32 {
    rules_run(ctx, s0, out)
}

/// [`rules_run`] compiled for AVX-512 (see [`rules_run_avx2`]), with the AVX-512 gather inlined.
///
/// # Safety
/// The CPU must have AVX-512F, AVX-512VL and AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512vl,avx2")]
unsafe fn rules_run_avx512(ctx: &RulesCtx<'_>, s0: usize, out: StateMut<'_>) -> u32 {
    rules_run(ctx, s0, out)
}
