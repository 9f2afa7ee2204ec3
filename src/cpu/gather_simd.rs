//! The vectorised neighbour gather of the CPU backend's `rules` stage, for the uncapped model
//! (`max_neighbors == 0`, see [`simd_applies`]): the same sums as the scalar reference
//! [`gather`](crate::stages::twins::gather) (docs/model.md §4–§5), eight candidates at a time.
//!
//! **Lanes.** The candidates of a sorted item are at most 15 contiguous ranges of sorted items
//! (three per block row: left padding, real cells, right padding). Each range is walked in steps
//! of 8: candidate `k + l` goes to lane `l`, lanes past the range's end and the item itself are
//! masked off, and each lane tests the perception radius and the per-rule radii exactly as
//! [`accumulate_parts`](crate::model::rules::accumulate_parts) does (separation within its radius
//! and beyond [`COINCIDENT_EPS2`], alignment, cohesion and hue within theirs), adding into its own
//! accumulators. At the end each accumulator's 8 lanes are added in one fixed order,
//! `((l0 + l1) + (l2 + l3)) + ((l4 + l5) + (l6 + l7))`. The separation term is `d · (1/d²)` (one
//! division per 8 candidates) rather than the reference's `d / d²`.
//!
//! **Same bits on every path.** The lanes' arithmetic is IEEE single precision in a fixed order
//! with no fused multiply-add, so the portable path ([`GatherPath::Portable`], plain Rust, any
//! target) and the x86-64 paths chosen at run time ([`GatherPath::Sse2`], [`GatherPath::Avx2`],
//! [`GatherPath::Avx512`], when the CPU has them) give the same bits: a run is the same run on
//! any machine, and every path is tested against the portable one for equality. The order of the additions depends only on
//! the sorted order (canonical: cell, then id), never on threads. Against the scalar reference the
//! sums differ by the summation order only (a few ulp of the sum of the terms' magnitudes).
//!
//! **Data.** The lanes load 8 consecutive values of a field at once, so the sorted items are
//! transposed first into [`SortedLanes`] (one array per field, structure of arrays) from the
//! `sorted_pos_vel` and `sorted_hue` buffers the stage binds; the transposition is part of the
//! CPU `rules` stage, so `rules` reads exactly its bindings (whatever wrote them).
//!
//! **Dispatch.** The released binary targets plain x86-64, where the compiler keeps the portable
//! 8-lane loop scalar (and slower than the scalar reference, as measured below), so the
//! choice is made at run time with the standard library only (`is_x86_feature_detected!`, cached,
//! and `#[target_feature]` functions; no crate needed). The whole `rules` loop of the CPU backend
//! (gather and the 8-boid integrate inlined) is compiled for the baseline target, for AVX2 and for
//! AVX-512F + AVX-512VL, and [`GatherPath::best`] takes the widest path the CPU has: AVX-512, else
//! AVX2, else SSE2 intrinsics (part of every x86-64 CPU, so the baseline binary vectorises too),
//! and the portable code only on other architectures. No fused multiply-add on any path (it would
//! change the bits from machine to machine): every path gives the portable path's bits, so a run
//! is the same run on every machine. The scalar reference serves the capped model
//! ([`simd_applies`]) and the tests. Rayon splits `rules` into tasks of 512 consecutive sorted
//! items, i.e. runs of cells in row order.
//!
//! Measured on a 2-core AMD EPYC with AVX-512 (the machine's other work paused): the minimum wall
//! time of the `rules` stage per path over repeated steps of the default scene (density 0.01
//! boids/wu²), and the median whole step of `boids bench --backends cpu --boids
//! 10000,100000,1000000` (the AVX-512 path, the one chosen there):
//!
//! | boids | scalar | portable | SSE2 | AVX2 | AVX-512 | whole step, median |
//! |------:|-------:|---------:|-----:|-----:|--------:|-------------------:|
//! | 100 000 | 16.7 ms | 20.9 ms | 10.1 ms | 6.4 ms | 5.4 ms | 8.7 ms |
//! | 1 000 000 | 169 ms | 208 ms | 103 ms | 57 ms | 53 ms | 87 ms |

use glam::Vec2;
use rayon::prelude::*;

use crate::model::models::PairWeight;
use crate::model::rules::{has_direction, NeighborSums, COINCIDENT_EPS2};
use crate::model::uniforms::StepUniforms;
use crate::stages::twins::CandidateRange;

/// Lanes of the vectorised gather.
pub const LANES: usize = 8;

/// Whether the vectorised gather computes the model of `u`: the uncapped neighbourhood
/// (`max_neighbors == 0`), with or without a field of view. The neighbour cap, whose selection
/// of the nearest is sequential, uses the scalar [`gather`](crate::stages::twins::gather).
pub fn simd_applies(u: &StepUniforms) -> bool {
    u.max_neighbors == 0
}

/// An implementation of the neighbour gather of the CPU backend's `rules` stage.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GatherPath {
    /// The scalar reference [`gather`](crate::stages::twins::gather), one candidate at a time in
    /// range order.
    Scalar,
    /// The 8-lane gather in plain Rust (any target; what the compiler makes of it).
    Portable,
    /// The 8-lane gather with SSE2 intrinsics, as two 4-lane halves (every x86-64 CPU).
    Sse2,
    /// The 8-lane gather with AVX2 intrinsics (x86-64 CPUs with AVX2).
    Avx2,
    /// The 8-lane gather with AVX-512 mask registers on 256-bit vectors (x86-64 CPUs with
    /// AVX-512F and AVX-512VL).
    Avx512,
}

impl GatherPath {
    /// Every path, available or not.
    pub const ALL: [GatherPath; 5] = [
        GatherPath::Scalar,
        GatherPath::Portable,
        GatherPath::Sse2,
        GatherPath::Avx2,
        GatherPath::Avx512,
    ];

    /// Its name (`scalar`, `portable`, `avx2`, `avx512`).
    pub fn name(self) -> &'static str {
        match self {
            GatherPath::Scalar => "scalar",
            GatherPath::Portable => "portable",
            GatherPath::Sse2 => "sse2",
            GatherPath::Avx2 => "avx2",
            GatherPath::Avx512 => "avx512",
        }
    }

    /// Whether this CPU can run the path (detected at run time; cached by the standard library).
    pub fn is_available(self) -> bool {
        match self {
            GatherPath::Scalar | GatherPath::Portable => true,
            #[cfg(target_arch = "x86_64")]
            GatherPath::Sse2 => true,
            #[cfg(target_arch = "x86_64")]
            GatherPath::Avx2 => {
                std::is_x86_feature_detected!("avx2")
            }
            #[cfg(target_arch = "x86_64")]
            GatherPath::Avx512 => {
                std::is_x86_feature_detected!("avx512f")
                    && std::is_x86_feature_detected!("avx512vl")
            }
            #[cfg(not(target_arch = "x86_64"))]
            GatherPath::Sse2 | GatherPath::Avx2 | GatherPath::Avx512 => false,
        }
    }

    /// The fastest vectorised path this CPU runs (they all give the same bits).
    pub fn best() -> GatherPath {
        [GatherPath::Avx512, GatherPath::Avx2, GatherPath::Sse2]
            .into_iter()
            .find(|p| p.is_available())
            .unwrap_or(GatherPath::Portable)
    }

    /// The paths this CPU runs.
    pub fn available() -> impl Iterator<Item = GatherPath> {
        GatherPath::ALL.into_iter().filter(|p| p.is_available())
    }
}

/// The sorted items as one array per field (`x, y, vx, vy, hx, hy, ux, uy`), each followed by
/// [`LANES`] zeros so that 8 values may be loaded from any item. Filled by [`SortedLanes::fill`];
/// reallocated only when the number of items grows.
#[derive(Clone, Debug, Default)]
pub struct SortedLanes {
    /// Field `f` of item `k` is at `f · stride + k`.
    data: Vec<f32>,
    /// Items per field plus the padding.
    stride: usize,
    /// Items.
    len: usize,
}

/// Items a rayon task transposes at least.
const FILL_TASK: usize = 4096;

impl SortedLanes {
    /// Number of items.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are no items.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Field `f` (0 ..= 7: x, y, vx, vy, hx, hy, ux, uy) of every item, padding included.
    pub fn field(&self, f: usize) -> &[f32] {
        &self.data[f * self.stride..(f + 1) * self.stride]
    }

    /// Transposes the first `pos_vel.len()` sorted items (`[x, y, vx, vy]` and `[hx, hy, ux, uy]`
    /// each) into the fields, in parallel.
    ///
    /// # Panics
    /// If `hue` is shorter than `pos_vel`.
    pub fn fill(&mut self, pos_vel: &[[f32; 4]], hue: &[[f32; 4]]) {
        let n = pos_vel.len();
        let hue = &hue[..n];
        let stride = n + LANES;
        if self.stride != stride {
            self.stride = stride;
            self.data.clear();
            self.data.resize(8 * stride, 0.0);
        }
        self.len = n;
        let (pos, hues) = self.data.split_at_mut(4 * stride);
        for (fields, src) in [(pos, pos_vel), (hues, hue)] {
            let (f0, rest) = fields.split_at_mut(stride);
            let (f1, rest) = rest.split_at_mut(stride);
            let (f2, f3) = rest.split_at_mut(stride);
            src.par_chunks(FILL_TASK)
                .zip(f0[..n].par_chunks_mut(FILL_TASK))
                .zip(f1[..n].par_chunks_mut(FILL_TASK))
                .zip(f2[..n].par_chunks_mut(FILL_TASK))
                .zip(f3[..n].par_chunks_mut(FILL_TASK))
                .for_each(|((((s, a), b), c), d)| {
                    for (k, v) in s.iter().enumerate() {
                        a[k] = v[0];
                        b[k] = v[1];
                        c[k] = v[2];
                        d[k] = v[3];
                    }
                });
        }
    }
}

/// One step of the 8 lanes: sorted items `start .. start + live` (`live` ≤ 8) in lanes `0 ..
/// live`, compared against `(p.x, p.y − y_shift)`. A range of candidates is walked in steps from
/// its start, 8 items each but the last ([`steps_of`]).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct LaneStep {
    /// First item.
    pub start: u32,
    /// Items (1 ..= 8).
    pub live: u32,
    /// Vertical shift of the block row (wu).
    pub y_shift: f32,
}

/// The steps of `ranges`, in order.
#[inline(always)]
pub fn steps_of(ranges: &[CandidateRange]) -> impl Iterator<Item = LaneStep> + '_ {
    ranges.iter().flat_map(|r| {
        (r.start..r.end).step_by(LANES).map(move |k| LaneStep {
            start: k,
            live: (r.end - k).min(LANES as u32),
            y_shift: r.y_shift,
        })
    })
}

/// The constants every lane compares against, and the field of view of the boid gathered.
#[derive(Clone, Copy)]
struct Radii {
    perception_r2: f32,
    separation_r2: f32,
    alignment_r2: f32,
    cohesion_r2: f32,
    hue_r2: f32,
    /// The model's declared pair terms (docs/model.md §4.7): the separation and cohesion
    /// weights' codes and the alignment and cohesion bands' inner edges, squared; `terms` is
    /// whether they differ from Reynolds' (then the kernels compiled with `TERMS` run).
    separation_weight: u32,
    cohesion_weight: u32,
    alignment_inner_r2: f32,
    cohesion_inner_r2: f32,
    terms: bool,
    /// `view_mode` of the uniforms (0: every direction, no test).
    view_mode: u32,
    /// cos²(α/2).
    view_cos2: f32,
    /// The boid's velocity, and its squared length (as `topo_d2` rounds it).
    heading: Vec2,
    heading2: f32,
}

impl Radii {
    fn new(u: &StepUniforms, heading: Vec2) -> Radii {
        Radii {
            perception_r2: u.perception_r2,
            separation_r2: u.separation_r2,
            alignment_r2: u.alignment_r2,
            cohesion_r2: u.cohesion_r2,
            hue_r2: u.hue_r2,
            separation_weight: u.separation_weight,
            cohesion_weight: u.cohesion_weight,
            alignment_inner_r2: u.alignment_inner_r2,
            cohesion_inner_r2: u.cohesion_inner_r2,
            terms: u.separation_weight != PairWeight::InverseSquare as u32
                || u.cohesion_weight != PairWeight::Offset as u32
                || u.alignment_inner_r2 > 0.0
                || u.cohesion_inner_r2 > 0.0,
            view_mode: u.view_mode,
            view_cos2: u.view_cos2,
            heading,
            heading2: crate::model::rules::topo_d2(heading),
        }
    }

    /// Whether the candidate at (dx, dy), squared distance `d2`, is in view (the test of
    /// [`crate::model::rules::in_view`]).
    #[inline(always)]
    fn in_view(&self, dx: f32, dy: f32, d2: f32) -> bool {
        crate::model::rules::in_view_of(
            Vec2::new(dx, dy),
            d2,
            self.heading,
            self.heading2,
            self.view_mode,
            self.view_cos2,
        )
    }
}

/// The lanes' sums before the final reduction: `f[0..10]` = separation x, y, alignment x, y,
/// cohesion x, y, hue x, y, hue velocity x, y; and the four counts (order-free integers).
struct LaneSums {
    f: [[f32; LANES]; 10],
    alignment_n: u32,
    cohesion_n: u32,
    hue_n: u32,
    neighbors: u32,
}

/// The fixed reduction order of one accumulator's lanes.
#[inline(always)]
fn reduce(l: &[f32; LANES]) -> f32 {
    ((l[0] + l[1]) + (l[2] + l[3])) + ((l[4] + l[5]) + (l[6] + l[7]))
}

impl LaneSums {
    fn write(self, out: &mut impl SumsOut) {
        let r: [f32; 10] = std::array::from_fn(|k| reduce(&self.f[k]));
        let n = [
            self.neighbors,
            self.alignment_n,
            self.cohesion_n,
            self.hue_n,
        ];
        out.put(&r, n);
    }
}

/// Where a gather writes its result: a [`NeighborSums`], or one boid's lane of a [`SumsLanes`].
pub trait SumsOut {
    /// Stores the sums `r` (separation x, y, alignment x, y, cohesion x, y, hue x, y, hue
    /// velocity x, y) and the counts `n` (neighbours, alignment, cohesion, hue), field by field:
    /// a caller reads them back field by field, never as a block copied right after piecewise
    /// stores (which stalls the CPU's store forwarding).
    fn put(&mut self, r: &[f32], n: [u32; 4]);
}

impl SumsOut for NeighborSums {
    #[inline(always)]
    fn put(&mut self, r: &[f32], n: [u32; 4]) {
        self.separation.x = r[0];
        self.separation.y = r[1];
        self.alignment.x = r[2];
        self.alignment.y = r[3];
        self.cohesion.x = r[4];
        self.cohesion.y = r[5];
        self.hue.x = r[6];
        self.hue.y = r[7];
        self.hue_velocity.x = r[8];
        self.hue_velocity.y = r[9];
        self.neighbors = n[0];
        self.alignment_n = n[1];
        self.cohesion_n = n[2];
        self.hue_n = n[3];
    }
}

/// The neighbour sums of [`LANES`] boids, one array per field (what the 8-boid
/// [`integrate_lanes`](crate::cpu::integrate_simd::integrate_lanes) reads).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SumsLanes {
    /// Separation x, y, alignment x, y, cohesion x, y, hue x, y, hue velocity x, y; by boid.
    pub f: [[f32; LANES]; 10],
    /// Neighbour, alignment, cohesion and hue counts; by boid.
    pub n: [[u32; LANES]; 4],
}

impl SumsLanes {
    /// Boid `l`'s lane, as a place to gather into.
    #[inline(always)]
    pub fn lane(&mut self, l: usize) -> LaneOf<'_> {
        LaneOf(self, l)
    }

    /// Boid `l`'s sums.
    pub fn get(&self, l: usize) -> NeighborSums {
        let f = |k: usize| self.f[k][l];
        NeighborSums {
            separation: Vec2::new(f(0), f(1)),
            alignment: Vec2::new(f(2), f(3)),
            alignment_n: self.n[1][l],
            cohesion: Vec2::new(f(4), f(5)),
            cohesion_n: self.n[2][l],
            hue: Vec2::new(f(6), f(7)),
            hue_velocity: Vec2::new(f(8), f(9)),
            hue_n: self.n[3][l],
            neighbors: self.n[0][l],
        }
    }
}

/// One boid's lane of a [`SumsLanes`].
pub struct LaneOf<'a>(&'a mut SumsLanes, usize);

impl LaneOf<'_> {
    /// Stores `s` in the lane.
    #[inline(always)]
    pub fn set(&mut self, s: &NeighborSums) {
        let r = [
            s.separation.x,
            s.separation.y,
            s.alignment.x,
            s.alignment.y,
            s.cohesion.x,
            s.cohesion.y,
            s.hue.x,
            s.hue.y,
            s.hue_velocity.x,
            s.hue_velocity.y,
        ];
        self.put(&r, [s.neighbors, s.alignment_n, s.cohesion_n, s.hue_n]);
    }
}

impl SumsOut for LaneOf<'_> {
    #[inline(always)]
    fn put(&mut self, r: &[f32], n: [u32; 4]) {
        let l = self.1;
        for (f, &x) in self.0.f.iter_mut().zip(&r[..10]) {
            f[l] = x;
        }
        for (c, x) in self.0.n.iter_mut().zip(n) {
            c[l] = x;
        }
    }
}

/// The neighbour sums of sorted item `s` at `p` over the candidate `ranges`, on the vectorised
/// `path` ([`GatherPath::Portable`], or an x86-64 path this CPU runs; anything else falls back to
/// the portable path).
///
/// # Panics
/// If a range ends beyond the items of `lanes`.
pub fn gather_lanes(
    path: GatherPath,
    s: usize,
    p: Vec2,
    ranges: &[CandidateRange],
    lanes: &SortedLanes,
    u: &StepUniforms,
) -> NeighborSums {
    let mut out = NeighborSums::default();
    gather_lanes_into(path, s, p, ranges, lanes, u, &mut out);
    out
}

/// [`gather_lanes`] into `out` (every field written).
///
/// # Panics
/// If a range ends beyond the items of `lanes`.
#[inline(always)]
pub fn gather_lanes_into<O: SumsOut>(
    path: GatherPath,
    s: usize,
    p: Vec2,
    ranges: &[CandidateRange],
    lanes: &SortedLanes,
    u: &StepUniforms,
    out: &mut O,
) {
    for r in ranges {
        assert!(
            r.start <= r.end && r.end as usize <= lanes.len,
            "candidate range {}..{} beyond the {} sorted items",
            r.start,
            r.end,
            lanes.len
        );
    }
    // SAFETY: every step of a range lies within the range, so within the items (asserted).
    unsafe { dispatch(path, s, p, steps_of(ranges), lanes, u, out) }
}

/// [`gather_lanes`] over the steps of the candidate ranges (as [`steps_of`] makes them), into
/// `out`.
///
/// # Panics
/// If a step is empty, longer than 8 items or beyond the items of `lanes`.
#[inline(always)]
pub fn gather_steps_into<O: SumsOut>(
    path: GatherPath,
    s: usize,
    p: Vec2,
    steps: &[LaneStep],
    lanes: &SortedLanes,
    u: &StepUniforms,
    out: &mut O,
) {
    for t in steps {
        assert!(
            (1..=LANES as u32).contains(&t.live) && t.start as usize + t.live as usize <= lanes.len,
            "lane step {t:?} beyond the {} sorted items",
            lanes.len
        );
    }
    // SAFETY: every step lies within the items (asserted just above).
    unsafe { dispatch(path, s, p, steps.iter().copied(), lanes, u, out) }
}

/// Runs `path` (or the portable path where this CPU lacks it) over `steps`.
///
/// # Safety
/// Every step must hold 1 to 8 items and lie within the items of `lanes`.
#[inline(always)]
unsafe fn dispatch<O: SumsOut, I: Iterator<Item = LaneStep>>(
    path: GatherPath,
    s: usize,
    p: Vec2,
    steps: I,
    lanes: &SortedLanes,
    u: &StepUniforms,
    out: &mut O,
) {
    // The boid's own velocity (its transposed fields hold every sorted item, the boid too), read
    // only for a field of view.
    let heading = if u.view_mode != 0 {
        Vec2::new(lanes.field(2)[s], lanes.field(3)[s])
    } else {
        Vec2::ZERO
    };
    let radii = Radii::new(u, heading);
    #[cfg(target_arch = "x86_64")]
    {
        // Where the alignment, cohesion and hue radii reach the perception radius (the default)
        // their masks are the perception mask: the kernels then skip three compares and counts.
        let same = radii.alignment_r2 >= radii.perception_r2
            && radii.cohesion_r2 >= radii.perception_r2
            && radii.hue_r2 >= radii.perception_r2
            && !radii.terms;
        // The field of view's test only where there is one (`VIEW`: compiled in or out), and
        // the general pair terms only for a model that declares other terms than Reynolds'
        // (`TERMS`; its bands never equal the perception mask).
        let (view, terms) = (radii.view_mode != 0, radii.terms);
        macro_rules! run {
            ($kernel:ident) => {
                match (same, view, terms) {
                    (true, false, _) => {
                        x86::$kernel::<true, false, false, O, I>(s, p, steps, lanes, radii, out)
                    }
                    (false, false, false) => {
                        x86::$kernel::<false, false, false, O, I>(s, p, steps, lanes, radii, out)
                    }
                    (true, true, _) => {
                        x86::$kernel::<true, true, false, O, I>(s, p, steps, lanes, radii, out)
                    }
                    (false, true, false) => {
                        x86::$kernel::<false, true, false, O, I>(s, p, steps, lanes, radii, out)
                    }
                    (false, false, true) => {
                        x86::$kernel::<false, false, true, O, I>(s, p, steps, lanes, radii, out)
                    }
                    (false, true, true) => {
                        x86::$kernel::<false, true, true, O, I>(s, p, steps, lanes, radii, out)
                    }
                }
            };
        }
        if path == GatherPath::Avx512 && path.is_available() {
            // SAFETY: the CPU has AVX-512F and AVX-512VL (checked just above); the steps lie
            // within the items (this function's contract).
            return unsafe { run!(gather_avx512) };
        }
        if path == GatherPath::Sse2 {
            // SAFETY: every x86-64 CPU has SSE2; the steps lie within the items (this
            // function's contract).
            return unsafe { run!(gather_sse2) };
        }
        if path == GatherPath::Avx2 && path.is_available() {
            // SAFETY: the CPU has AVX2 (checked just above); the steps lie within the items
            // (this function's contract).
            return unsafe { run!(gather_avx2) };
        }
    }
    let _ = path;
    gather_portable(s, p, steps, lanes, radii, out)
}

/// The lanes' factor of an offset term of weight code `weight` (docs/model.md §4.7): 1 (d), 1/|d|
/// (d/|d|) or 1/|d|² (d/|d|²), |d|² taken at least [`COINCIDENT_EPS2`]; the intrinsic paths
/// compute the same correctly rounded divisions and square roots.
#[inline(always)]
fn lane_weight(weight: u32, d2: f32) -> f32 {
    match weight {
        0 => 1.0,
        1 => 1.0 / d2.max(COINCIDENT_EPS2).sqrt(),
        _ => 1.0 / d2.max(COINCIDENT_EPS2),
    }
}

/// The 8-lane gather in plain Rust: the definition the intrinsic paths reproduce bit for bit.
fn gather_portable<O: SumsOut>(
    s: usize,
    p: Vec2,
    steps: impl Iterator<Item = LaneStep>,
    lanes: &SortedLanes,
    r: Radii,
    out: &mut O,
) {
    let fields: [&[f32]; 8] = std::array::from_fn(|f| lanes.field(f));
    let mut acc = LaneSums {
        f: [[0.0; LANES]; 10],
        alignment_n: 0,
        cohesion_n: 0,
        hue_n: 0,
        neighbors: 0,
    };
    for step in steps {
        let qy = p.y - step.y_shift;
        let (k, live) = (step.start as usize, step.live as usize);
        for l in 0..live {
            let j = k + l;
            if j == s {
                continue;
            }
            let dx = fields[0][j] - p.x;
            let dy = fields[1][j] - qy;
            let d2 = dx * dx + dy * dy;
            // A NaN distance is outside too (as the compare of the intrinsic paths says).
            let inside = d2 < r.perception_r2;
            if !inside || !r.in_view(dx, dy, d2) {
                continue;
            }
            acc.neighbors += 1;
            if !r.terms {
                if d2 < r.separation_r2 && d2 > COINCIDENT_EPS2 {
                    let inv = 1.0 / d2.max(COINCIDENT_EPS2);
                    acc.f[0][l] -= dx * inv;
                    acc.f[1][l] -= dy * inv;
                }
                if d2 < r.alignment_r2 {
                    acc.alignment_n += 1;
                    acc.f[2][l] += fields[2][j];
                    acc.f[3][l] += fields[3][j];
                }
                if d2 < r.cohesion_r2 {
                    acc.cohesion_n += 1;
                    acc.f[4][l] += dx;
                    acc.f[5][l] += dy;
                }
            } else {
                // The model's declared terms: each offset sum's term d · w, w = 1, 1/|d| or
                // 1/|d|² ([`lane_weight`]), and the bands' inner edges.
                if d2 < r.separation_r2 && has_direction(r.separation_weight, d2) {
                    let w = lane_weight(r.separation_weight, d2);
                    acc.f[0][l] -= dx * w;
                    acc.f[1][l] -= dy * w;
                }
                if d2 < r.alignment_r2 && d2 >= r.alignment_inner_r2 {
                    acc.alignment_n += 1;
                    acc.f[2][l] += fields[2][j];
                    acc.f[3][l] += fields[3][j];
                }
                if d2 < r.cohesion_r2
                    && d2 >= r.cohesion_inner_r2
                    && has_direction(r.cohesion_weight, d2)
                {
                    let w = lane_weight(r.cohesion_weight, d2);
                    acc.cohesion_n += 1;
                    acc.f[4][l] += dx * w;
                    acc.f[5][l] += dy * w;
                }
            }
            if d2 < r.hue_r2 {
                acc.hue_n += 1;
                acc.f[6][l] += fields[4][j];
                acc.f[7][l] += fields[5][j];
                acc.f[8][l] += fields[6][j];
                acc.f[9][l] += fields[7][j];
            }
        }
    }
    acc.write(out);
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    //! The x86-64 paths. Masked-off lanes add +0.0 (AVX2: the term and-ed with the mask) or keep
    //! their accumulator (AVX-512: masked add): the same bits, since an accumulator that starts at
    //! +0.0 and only adds and subtracts in round-to-nearest never holds −0.0, and x + (+0.0) = x
    //! for every other x.

    use std::arch::x86_64::*;

    use glam::Vec2;

    use crate::cpu::gather_simd::{LaneStep, LaneSums, Radii, SortedLanes, SumsOut, LANES};
    use crate::model::rules::COINCIDENT_EPS2;

    /// Lane masks by number of live lanes: `LIVE[n]` has lanes `0 .. n` set.
    static LIVE: [[i32; 8]; 9] = {
        let mut t = [[0i32; 8]; 9];
        let mut n = 0;
        while n <= 8 {
            let mut l = 0;
            while l < n {
                t[n][l] = -1;
                l += 1;
            }
            n += 1;
        }
        t
    };

    /// `ONE[l]` has lane `l` set.
    static ONE: [[i32; 8]; 8] = {
        let mut t = [[0i32; 8]; 8];
        let mut l = 0;
        while l < 8 {
            t[l][l] = -1;
            l += 1;
        }
        t
    };

    /// The neighbour sums from the lanes' accumulators (`acc` in the order of
    /// [`LaneSums::f`]) and per-lane counts `[neighbours, alignment, cohesion, hue]`: each
    /// accumulator's lanes added as `((l0 + l1) + (l2 + l3)) + ((l4 + l5) + (l6 + l7))`, like
    /// [`LaneSums::write`], by horizontal additions of 8 accumulators at once.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn sums_of<O: SumsOut>(acc: &[__m256; 10], cnt: &[__m256i; 4], out: &mut O) {
        // The counts: integers, in any order. hadd(a, b) = [a0+a1, a2+a3, b0+b1, b2+b3 | …].
        let c01 = _mm256_hadd_epi32(cnt[0], cnt[1]);
        let c23 = _mm256_hadd_epi32(cnt[2], cnt[3]);
        let c = _mm256_hadd_epi32(c01, c23);
        let c = _mm_add_epi32(_mm256_castsi256_si128(c), _mm256_extracti128_si256::<1>(c));
        let mut n = [0u32; 4];
        // SAFETY: `n` holds 4 u32, the 16 bytes an unaligned store writes.
        unsafe { _mm_storeu_si128(n.as_mut_ptr().cast(), c) };
        // hadd(a, b) = [a0+a1, a2+a3, b0+b1, b2+b3 | a4+a5, a6+a7, b4+b5, b6+b7]; a second level
        // gives (a0+a1)+(a2+a3) in lane 0 and (a4+a5)+(a6+a7) in lane 4, and the two halves added
        // give each accumulator's total.
        let t0 = _mm256_hadd_ps(acc[0], acc[1]);
        let t1 = _mm256_hadd_ps(acc[2], acc[3]);
        let t2 = _mm256_hadd_ps(acc[4], acc[5]);
        let t3 = _mm256_hadd_ps(acc[6], acc[7]);
        let t4 = _mm256_hadd_ps(acc[8], acc[9]);
        let u0 = _mm256_hadd_ps(t0, t1);
        let u1 = _mm256_hadd_ps(t2, t3);
        let u2 = _mm256_hadd_ps(t4, t4);
        let w0 = _mm_add_ps(_mm256_castps256_ps128(u0), _mm256_extractf128_ps::<1>(u0));
        let w1 = _mm_add_ps(_mm256_castps256_ps128(u1), _mm256_extractf128_ps::<1>(u1));
        let w2 = _mm_add_ps(_mm256_castps256_ps128(u2), _mm256_extractf128_ps::<1>(u2));
        let mut r = [0.0f32; 12];
        // SAFETY: `r` holds 12 f32; each unaligned store writes 4 of them.
        unsafe {
            _mm_storeu_ps(r.as_mut_ptr(), w0);
            _mm_storeu_ps(r.as_mut_ptr().add(4), w1);
            _mm_storeu_ps(r.as_mut_ptr().add(8), w2);
        }
        out.put(&r, n);
    }

    /// Base pointers of the 8 fields.
    #[inline(always)]
    fn field_ptrs(lanes: &SortedLanes) -> [*const f32; 8] {
        let (base, st) = (lanes.data.as_ptr(), lanes.stride);
        let at = |f: usize| base.wrapping_add(f * st);
        [at(0), at(1), at(2), at(3), at(4), at(5), at(6), at(7)]
    }

    /// SSE2 path of [`super::gather_lanes`] (every x86-64 CPU): the 8 lanes as two 4-lane
    /// halves, each with the AVX2 path's operations; a half with no live lane is skipped (it
    /// would add +0.0 only). The lanes are then reduced like [`LaneSums::write`](super::LaneSums).
    ///
    /// # Safety
    /// Every step must hold 1 to 8 items within `lanes.len()`.
    #[inline(always)]
    pub(super) unsafe fn gather_sse2<
        const SAME: bool,
        const VIEW: bool,
        const TERMS: bool,
        O: SumsOut,
        I: Iterator<Item = LaneStep>,
    >(
        s: usize,
        p: Vec2,
        steps: I,
        lanes: &SortedLanes,
        r: Radii,
        out: &mut O,
    ) {
        let f = field_ptrs(lanes);
        let pr2 = _mm_set1_ps(r.perception_r2);
        let sr2 = _mm_set1_ps(r.separation_r2);
        let ar2 = _mm_set1_ps(r.alignment_r2);
        let cr2 = _mm_set1_ps(r.cohesion_r2);
        let hr2 = _mm_set1_ps(r.hue_r2);
        let eps = _mm_set1_ps(COINCIDENT_EPS2);
        let one = _mm_set1_ps(1.0);
        let px = _mm_set1_ps(p.x);
        let (hvx, hvy) = (_mm_set1_ps(r.heading.x), _mm_set1_ps(r.heading.y));
        let (hv2, vc2) = (_mm_set1_ps(r.heading2), _mm_set1_ps(r.view_cos2));
        // Accumulators in the order of `LaneSums::f`, by half (lanes 0–3, 4–7).
        let mut acc = [[_mm_setzero_ps(); 2]; 10];
        // Per-lane counts [neighbours, alignment, cohesion, hue], by half.
        let mut cnt = [[_mm_setzero_si128(); 2]; 4];
        for step in steps {
            let qy = _mm_set1_ps(p.y - step.y_shift);
            let (k, live) = (step.start as usize, step.live as usize);
            let me = s.wrapping_sub(k);
            for h in 0..2 {
                let o = 4 * h;
                if live <= o {
                    break;
                }
                // SAFETY: a row of LIVE is 8 i32; the 16 bytes from lane o (0 or 4) are in it.
                let mut valid = unsafe { _mm_loadu_si128(LIVE[live].as_ptr().add(o).cast()) };
                if me < LANES {
                    // SAFETY: as above, for a row of ONE.
                    let one_lane = unsafe { _mm_loadu_si128(ONE[me].as_ptr().add(o).cast()) };
                    valid = _mm_andnot_si128(one_lane, valid);
                }
                // SAFETY: k < lanes.len() (the steps lie within the items), and each field
                // holds len + 8 values, so the 4 values from k + o (o ≤ 4) are within it.
                let ld = |x: usize| unsafe { _mm_loadu_ps(f[x].add(k + o)) };
                let dx = _mm_sub_ps(ld(0), px);
                let dy = _mm_sub_ps(ld(1), qy);
                let d2 = _mm_add_ps(_mm_mul_ps(dx, dx), _mm_mul_ps(dy, dy));
                let mut inside = _mm_and_ps(_mm_cmplt_ps(d2, pr2), _mm_castsi128_ps(valid));
                if VIEW {
                    // The field of view (Radii::in_view): a = d·v, a² against cos²(α/2)·|d|²|v|².
                    let a = _mm_add_ps(_mm_mul_ps(dx, hvx), _mm_mul_ps(dy, hvy));
                    let (aa, q) = (_mm_mul_ps(a, a), _mm_mul_ps(vc2, _mm_mul_ps(d2, hv2)));
                    let front = _mm_cmpge_ps(a, _mm_setzero_ps());
                    let seen = if r.view_mode == 1 {
                        _mm_and_ps(front, _mm_cmpge_ps(aa, q))
                    } else {
                        _mm_or_ps(front, _mm_cmple_ps(aa, q))
                    };
                    inside = _mm_and_ps(inside, seen);
                }
                let c = &mut cnt;
                c[0][h] = _mm_sub_epi32(c[0][h], _mm_castps_si128(inside));
                let far = _mm_cmpgt_ps(d2, eps);
                // The declared terms' weights (`lane_weight`) and directions (`has_direction`).
                let weight = |w: u32| match w {
                    0 => one,
                    1 => _mm_div_ps(one, _mm_sqrt_ps(_mm_max_ps(d2, eps))),
                    _ => _mm_div_ps(one, _mm_max_ps(d2, eps)),
                };
                let direction = |w: u32| {
                    if w == 0 {
                        _mm_castsi128_ps(_mm_set1_epi32(-1))
                    } else {
                        far
                    }
                };
                let (sep_dir, inv) = if TERMS {
                    (direction(r.separation_weight), weight(r.separation_weight))
                } else {
                    (far, _mm_div_ps(one, _mm_max_ps(d2, eps)))
                };
                let sep = _mm_and_ps(_mm_and_ps(_mm_cmplt_ps(d2, sr2), sep_dir), inside);
                let a = &mut acc;
                a[0][h] = _mm_sub_ps(a[0][h], _mm_and_ps(_mm_mul_ps(dx, inv), sep));
                a[1][h] = _mm_sub_ps(a[1][h], _mm_and_ps(_mm_mul_ps(dy, inv), sep));
                let (mut cdx, mut cdy) = (dx, dy);
                let (ali, coh, hm) = if TERMS {
                    let m = |r2| _mm_and_ps(_mm_cmplt_ps(d2, r2), inside);
                    let ali =
                        _mm_and_ps(m(ar2), _mm_cmpge_ps(d2, _mm_set1_ps(r.alignment_inner_r2)));
                    let coh = _mm_and_ps(
                        _mm_and_ps(m(cr2), _mm_cmpge_ps(d2, _mm_set1_ps(r.cohesion_inner_r2))),
                        direction(r.cohesion_weight),
                    );
                    if r.cohesion_weight != 0 {
                        let w = weight(r.cohesion_weight);
                        (cdx, cdy) = (_mm_mul_ps(dx, w), _mm_mul_ps(dy, w));
                    }
                    let hm = m(hr2);
                    c[1][h] = _mm_sub_epi32(c[1][h], _mm_castps_si128(ali));
                    c[2][h] = _mm_sub_epi32(c[2][h], _mm_castps_si128(coh));
                    c[3][h] = _mm_sub_epi32(c[3][h], _mm_castps_si128(hm));
                    (ali, coh, hm)
                } else if SAME {
                    (inside, inside, inside)
                } else {
                    let m = |r2| _mm_and_ps(_mm_cmplt_ps(d2, r2), inside);
                    let (ali, coh, hm) = (m(ar2), m(cr2), m(hr2));
                    c[1][h] = _mm_sub_epi32(c[1][h], _mm_castps_si128(ali));
                    c[2][h] = _mm_sub_epi32(c[2][h], _mm_castps_si128(coh));
                    c[3][h] = _mm_sub_epi32(c[3][h], _mm_castps_si128(hm));
                    (ali, coh, hm)
                };
                a[2][h] = _mm_add_ps(a[2][h], _mm_and_ps(ld(2), ali));
                a[3][h] = _mm_add_ps(a[3][h], _mm_and_ps(ld(3), ali));
                a[4][h] = _mm_add_ps(a[4][h], _mm_and_ps(cdx, coh));
                a[5][h] = _mm_add_ps(a[5][h], _mm_and_ps(cdy, coh));
                a[6][h] = _mm_add_ps(a[6][h], _mm_and_ps(ld(4), hm));
                a[7][h] = _mm_add_ps(a[7][h], _mm_and_ps(ld(5), hm));
                a[8][h] = _mm_add_ps(a[8][h], _mm_and_ps(ld(6), hm));
                a[9][h] = _mm_add_ps(a[9][h], _mm_and_ps(ld(7), hm));
            }
        }
        let mut sums = LaneSums {
            f: [[0.0; LANES]; 10],
            alignment_n: 0,
            cohesion_n: 0,
            hue_n: 0,
            neighbors: 0,
        };
        for (dst, [lo, hi]) in sums.f.iter_mut().zip(acc) {
            // SAFETY: `dst` holds 8 f32; each unaligned store writes 4 of them.
            unsafe {
                _mm_storeu_ps(dst.as_mut_ptr(), lo);
                _mm_storeu_ps(dst.as_mut_ptr().add(4), hi);
            }
        }
        let n: [u32; 4] = std::array::from_fn(|i| {
            let c = if SAME { cnt[0] } else { cnt[i] };
            let mut l = [0u32; 4];
            // SAFETY: `l` holds 4 u32, the 16 bytes an unaligned store writes.
            unsafe { _mm_storeu_si128(l.as_mut_ptr().cast(), _mm_add_epi32(c[0], c[1])) };
            l.iter().sum()
        });
        sums.neighbors = n[0];
        sums.alignment_n = n[1];
        sums.cohesion_n = n[2];
        sums.hue_n = n[3];
        sums.write(out)
    }

    /// AVX2 path of [`super::gather_lanes`].
    ///
    /// # Safety
    /// The CPU must have AVX2, and every step must hold 1 to 8 items within `lanes.len()`.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn gather_avx2<
        const SAME: bool,
        const VIEW: bool,
        const TERMS: bool,
        O: SumsOut,
        I: Iterator<Item = LaneStep>,
    >(
        s: usize,
        p: Vec2,
        steps: I,
        lanes: &SortedLanes,
        r: Radii,
        out: &mut O,
    ) {
        let f = field_ptrs(lanes);
        let pr2 = _mm256_set1_ps(r.perception_r2);
        let sr2 = _mm256_set1_ps(r.separation_r2);
        let ar2 = _mm256_set1_ps(r.alignment_r2);
        let cr2 = _mm256_set1_ps(r.cohesion_r2);
        let hr2 = _mm256_set1_ps(r.hue_r2);
        let eps = _mm256_set1_ps(COINCIDENT_EPS2);
        let one = _mm256_set1_ps(1.0);
        let px = _mm256_set1_ps(p.x);
        let (hvx, hvy) = (_mm256_set1_ps(r.heading.x), _mm256_set1_ps(r.heading.y));
        let (hv2, vc2) = (_mm256_set1_ps(r.heading2), _mm256_set1_ps(r.view_cos2));
        let mut acc = [_mm256_setzero_ps(); 10];
        // Per-lane counts [neighbours, alignment, cohesion, hue]: a mask (−1 per set lane)
        // subtracted.
        let mut cnt = [_mm256_setzero_si256(); 4];
        for step in steps {
            let qy = _mm256_set1_ps(p.y - step.y_shift);
            let (k, live) = (step.start as usize, step.live as usize);
            // SAFETY: a row of LIVE is 8 i32, the 32 bytes an unaligned load reads.
            let mut valid = unsafe { _mm256_loadu_si256(LIVE[live].as_ptr().cast()) };
            let me = s.wrapping_sub(k);
            if me < LANES {
                // SAFETY: a row of ONE is 8 i32, the 32 bytes an unaligned load reads.
                let one_lane = unsafe { _mm256_loadu_si256(ONE[me].as_ptr().cast()) };
                valid = _mm256_andnot_si256(one_lane, valid);
            }
            // SAFETY: k < lanes.len() (the steps lie within the items), and each field
            // holds len + 8 values, so the 8 values from k are within the field.
            let (x, y, vx, vy, hx, hy, ux, uy) = unsafe {
                (
                    _mm256_loadu_ps(f[0].add(k)),
                    _mm256_loadu_ps(f[1].add(k)),
                    _mm256_loadu_ps(f[2].add(k)),
                    _mm256_loadu_ps(f[3].add(k)),
                    _mm256_loadu_ps(f[4].add(k)),
                    _mm256_loadu_ps(f[5].add(k)),
                    _mm256_loadu_ps(f[6].add(k)),
                    _mm256_loadu_ps(f[7].add(k)),
                )
            };
            let dx = _mm256_sub_ps(x, px);
            let dy = _mm256_sub_ps(y, qy);
            let d2 = _mm256_add_ps(_mm256_mul_ps(dx, dx), _mm256_mul_ps(dy, dy));
            let mut inside = _mm256_and_ps(
                _mm256_cmp_ps::<_CMP_LT_OQ>(d2, pr2),
                _mm256_castsi256_ps(valid),
            );
            if VIEW {
                // The field of view (Radii::in_view): a = d·v, a² against cos²(α/2)·|d|²|v|².
                let a = _mm256_add_ps(_mm256_mul_ps(dx, hvx), _mm256_mul_ps(dy, hvy));
                let (aa, q) = (
                    _mm256_mul_ps(a, a),
                    _mm256_mul_ps(vc2, _mm256_mul_ps(d2, hv2)),
                );
                let front = _mm256_cmp_ps::<_CMP_GE_OQ>(a, _mm256_setzero_ps());
                let seen = if r.view_mode == 1 {
                    _mm256_and_ps(front, _mm256_cmp_ps::<_CMP_GE_OQ>(aa, q))
                } else {
                    _mm256_or_ps(front, _mm256_cmp_ps::<_CMP_LE_OQ>(aa, q))
                };
                inside = _mm256_and_ps(inside, seen);
            }
            cnt[0] = _mm256_sub_epi32(cnt[0], _mm256_castps_si256(inside));
            let far = _mm256_cmp_ps::<_CMP_GT_OQ>(d2, eps);
            // The declared terms' weights (`lane_weight`) and directions (`has_direction`).
            let weight = |w: u32| match w {
                0 => one,
                1 => _mm256_div_ps(one, _mm256_sqrt_ps(_mm256_max_ps(d2, eps))),
                _ => _mm256_div_ps(one, _mm256_max_ps(d2, eps)),
            };
            let direction = |w: u32| {
                if w == 0 {
                    _mm256_castsi256_ps(_mm256_set1_epi32(-1))
                } else {
                    far
                }
            };
            let (sep_dir, inv) = if TERMS {
                (direction(r.separation_weight), weight(r.separation_weight))
            } else {
                (far, _mm256_div_ps(one, _mm256_max_ps(d2, eps)))
            };
            let sep = _mm256_and_ps(
                _mm256_and_ps(_mm256_cmp_ps::<_CMP_LT_OQ>(d2, sr2), sep_dir),
                inside,
            );
            acc[0] = _mm256_sub_ps(acc[0], _mm256_and_ps(_mm256_mul_ps(dx, inv), sep));
            acc[1] = _mm256_sub_ps(acc[1], _mm256_and_ps(_mm256_mul_ps(dy, inv), sep));
            let (mut cdx, mut cdy) = (dx, dy);
            let (ali, coh, hm) = if TERMS {
                let m = |r2| _mm256_and_ps(_mm256_cmp_ps::<_CMP_LT_OQ>(d2, r2), inside);
                let from = |r2: f32| _mm256_cmp_ps::<_CMP_GE_OQ>(d2, _mm256_set1_ps(r2));
                let ali = _mm256_and_ps(m(ar2), from(r.alignment_inner_r2));
                let coh = _mm256_and_ps(
                    _mm256_and_ps(m(cr2), from(r.cohesion_inner_r2)),
                    direction(r.cohesion_weight),
                );
                if r.cohesion_weight != 0 {
                    let w = weight(r.cohesion_weight);
                    (cdx, cdy) = (_mm256_mul_ps(dx, w), _mm256_mul_ps(dy, w));
                }
                let hm = m(hr2);
                cnt[1] = _mm256_sub_epi32(cnt[1], _mm256_castps_si256(ali));
                cnt[2] = _mm256_sub_epi32(cnt[2], _mm256_castps_si256(coh));
                cnt[3] = _mm256_sub_epi32(cnt[3], _mm256_castps_si256(hm));
                (ali, coh, hm)
            } else if SAME {
                (inside, inside, inside)
            } else {
                let m = |r2| _mm256_and_ps(_mm256_cmp_ps::<_CMP_LT_OQ>(d2, r2), inside);
                let (ali, coh, hm) = (m(ar2), m(cr2), m(hr2));
                cnt[1] = _mm256_sub_epi32(cnt[1], _mm256_castps_si256(ali));
                cnt[2] = _mm256_sub_epi32(cnt[2], _mm256_castps_si256(coh));
                cnt[3] = _mm256_sub_epi32(cnt[3], _mm256_castps_si256(hm));
                (ali, coh, hm)
            };
            acc[2] = _mm256_add_ps(acc[2], _mm256_and_ps(vx, ali));
            acc[3] = _mm256_add_ps(acc[3], _mm256_and_ps(vy, ali));
            acc[4] = _mm256_add_ps(acc[4], _mm256_and_ps(cdx, coh));
            acc[5] = _mm256_add_ps(acc[5], _mm256_and_ps(cdy, coh));
            acc[6] = _mm256_add_ps(acc[6], _mm256_and_ps(hx, hm));
            acc[7] = _mm256_add_ps(acc[7], _mm256_and_ps(hy, hm));
            acc[8] = _mm256_add_ps(acc[8], _mm256_and_ps(ux, hm));
            acc[9] = _mm256_add_ps(acc[9], _mm256_and_ps(uy, hm));
        }
        if SAME {
            cnt[1] = cnt[0];
            cnt[2] = cnt[0];
            cnt[3] = cnt[0];
        }
        sums_of(&acc, &cnt, out)
    }

    /// AVX-512 path of [`super::gather_lanes`]: the AVX2 path's lanes with mask registers (masked
    /// compares and adds instead of and-ed terms).
    ///
    /// # Safety
    /// The CPU must have AVX-512F and AVX-512VL, and every step must hold 1 to 8 items within
    /// `lanes.len()`.
    #[inline]
    #[target_feature(enable = "avx512f,avx512vl,avx2")]
    pub(super) unsafe fn gather_avx512<
        const SAME: bool,
        const VIEW: bool,
        const TERMS: bool,
        O: SumsOut,
        I: Iterator<Item = LaneStep>,
    >(
        s: usize,
        p: Vec2,
        steps: I,
        lanes: &SortedLanes,
        r: Radii,
        out: &mut O,
    ) {
        let f = field_ptrs(lanes);
        let pr2 = _mm256_set1_ps(r.perception_r2);
        let sr2 = _mm256_set1_ps(r.separation_r2);
        let ar2 = _mm256_set1_ps(r.alignment_r2);
        let cr2 = _mm256_set1_ps(r.cohesion_r2);
        let hr2 = _mm256_set1_ps(r.hue_r2);
        let eps = _mm256_set1_ps(COINCIDENT_EPS2);
        let one = _mm256_set1_ps(1.0);
        let px = _mm256_set1_ps(p.x);
        let (hvx, hvy) = (_mm256_set1_ps(r.heading.x), _mm256_set1_ps(r.heading.y));
        let (hv2, vc2) = (_mm256_set1_ps(r.heading2), _mm256_set1_ps(r.view_cos2));
        let mut acc = [_mm256_setzero_ps(); 10];
        // Per-lane counts [neighbours, alignment, cohesion, hue].
        let mut cnt = [_mm256_setzero_si256(); 4];
        let one_i = _mm256_set1_epi32(1);
        for step in steps {
            let qy = _mm256_set1_ps(p.y - step.y_shift);
            let (k, live) = (step.start as usize, step.live as usize);
            let mut valid: __mmask8 = (0xffu32 >> (LANES - live)) as u8;
            let me = s.wrapping_sub(k);
            if me < LANES {
                valid &= !(1u8 << me);
            }
            // SAFETY: k < lanes.len() (the steps lie within the items), and each field
            // holds len + 8 values, so the 8 values from k are within the field.
            let (x, y) = unsafe { (_mm256_loadu_ps(f[0].add(k)), _mm256_loadu_ps(f[1].add(k))) };
            let dx = _mm256_sub_ps(x, px);
            let dy = _mm256_sub_ps(y, qy);
            let d2 = _mm256_add_ps(_mm256_mul_ps(dx, dx), _mm256_mul_ps(dy, dy));
            let mut inside = _mm256_mask_cmp_ps_mask::<_CMP_LT_OQ>(valid, d2, pr2);
            if VIEW {
                // The field of view (Radii::in_view): a = d·v, a² against cos²(α/2)·|d|²|v|².
                let a = _mm256_add_ps(_mm256_mul_ps(dx, hvx), _mm256_mul_ps(dy, hvy));
                let (aa, q) = (
                    _mm256_mul_ps(a, a),
                    _mm256_mul_ps(vc2, _mm256_mul_ps(d2, hv2)),
                );
                let front = _mm256_cmp_ps_mask::<_CMP_GE_OQ>(a, _mm256_setzero_ps());
                inside &= if r.view_mode == 1 {
                    front & _mm256_cmp_ps_mask::<_CMP_GE_OQ>(aa, q)
                } else {
                    front | _mm256_cmp_ps_mask::<_CMP_LE_OQ>(aa, q)
                };
            }
            cnt[0] = _mm256_mask_add_epi32(cnt[0], inside, cnt[0], one_i);
            // SAFETY: as above.
            let (vx, vy, hx, hy, ux, uy) = unsafe {
                (
                    _mm256_loadu_ps(f[2].add(k)),
                    _mm256_loadu_ps(f[3].add(k)),
                    _mm256_loadu_ps(f[4].add(k)),
                    _mm256_loadu_ps(f[5].add(k)),
                    _mm256_loadu_ps(f[6].add(k)),
                    _mm256_loadu_ps(f[7].add(k)),
                )
            };
            // The declared terms' weights (`lane_weight`) and directions (`has_direction`).
            let weight = |w: u32| match w {
                0 => one,
                1 => _mm256_div_ps(one, _mm256_sqrt_ps(_mm256_max_ps(d2, eps))),
                _ => _mm256_div_ps(one, _mm256_max_ps(d2, eps)),
            };
            let direction = |w: u32, m: __mmask8| {
                if w == 0 {
                    m
                } else {
                    _mm256_mask_cmp_ps_mask::<_CMP_GT_OQ>(m, d2, eps)
                }
            };
            let within_sep = _mm256_mask_cmp_ps_mask::<_CMP_LT_OQ>(inside, d2, sr2);
            let (sep, inv) = if TERMS {
                (
                    direction(r.separation_weight, within_sep),
                    weight(r.separation_weight),
                )
            } else {
                (
                    _mm256_mask_cmp_ps_mask::<_CMP_GT_OQ>(within_sep, d2, eps),
                    _mm256_div_ps(one, _mm256_max_ps(d2, eps)),
                )
            };
            acc[0] = _mm256_mask_sub_ps(acc[0], sep, acc[0], _mm256_mul_ps(dx, inv));
            acc[1] = _mm256_mask_sub_ps(acc[1], sep, acc[1], _mm256_mul_ps(dy, inv));
            let (mut cdx, mut cdy) = (dx, dy);
            let (ali, coh, hm) = if TERMS {
                let m = |r2| _mm256_mask_cmp_ps_mask::<_CMP_LT_OQ>(inside, d2, r2);
                let from = |m: __mmask8, r2: f32| {
                    _mm256_mask_cmp_ps_mask::<_CMP_GE_OQ>(m, d2, _mm256_set1_ps(r2))
                };
                let ali = from(m(ar2), r.alignment_inner_r2);
                let coh = direction(r.cohesion_weight, from(m(cr2), r.cohesion_inner_r2));
                if r.cohesion_weight != 0 {
                    let w = weight(r.cohesion_weight);
                    (cdx, cdy) = (_mm256_mul_ps(dx, w), _mm256_mul_ps(dy, w));
                }
                let hm = m(hr2);
                cnt[1] = _mm256_mask_add_epi32(cnt[1], ali, cnt[1], one_i);
                cnt[2] = _mm256_mask_add_epi32(cnt[2], coh, cnt[2], one_i);
                cnt[3] = _mm256_mask_add_epi32(cnt[3], hm, cnt[3], one_i);
                (ali, coh, hm)
            } else if SAME {
                (inside, inside, inside)
            } else {
                let m = |r2| _mm256_mask_cmp_ps_mask::<_CMP_LT_OQ>(inside, d2, r2);
                let (ali, coh, hm) = (m(ar2), m(cr2), m(hr2));
                cnt[1] = _mm256_mask_add_epi32(cnt[1], ali, cnt[1], one_i);
                cnt[2] = _mm256_mask_add_epi32(cnt[2], coh, cnt[2], one_i);
                cnt[3] = _mm256_mask_add_epi32(cnt[3], hm, cnt[3], one_i);
                (ali, coh, hm)
            };
            acc[2] = _mm256_mask_add_ps(acc[2], ali, acc[2], vx);
            acc[3] = _mm256_mask_add_ps(acc[3], ali, acc[3], vy);
            acc[4] = _mm256_mask_add_ps(acc[4], coh, acc[4], cdx);
            acc[5] = _mm256_mask_add_ps(acc[5], coh, acc[5], cdy);
            acc[6] = _mm256_mask_add_ps(acc[6], hm, acc[6], hx);
            acc[7] = _mm256_mask_add_ps(acc[7], hm, acc[7], hy);
            acc[8] = _mm256_mask_add_ps(acc[8], hm, acc[8], ux);
            acc[9] = _mm256_mask_add_ps(acc[9], hm, acc[9], uy);
        }
        if SAME {
            cnt[1] = cnt[0];
            cnt[2] = cnt[0];
            cnt[3] = cnt[0];
        }
        sums_of(&acc, &cnt, out)
    }
}
