//! The Voronoi cell of one boid, cut out of a rectangle by half-planes (docs/model.md §19.5): the
//! geometry of the Voronoi neighbourhood, shared by the CPU twin's search
//! (`crate::stages::twins::voronoi`) and mirrored by `shaders/voronoi.wgsl`.
//!
//! The cell is kept in coordinates centred on the boid (offsets, wu): a convex polygon whose
//! vertices run counter-clockwise, each with the owner of the edge that leaves it — the sorted
//! index of the boid whose perpendicular bisector the edge lies on, or [`NO_OWNER`] for an edge of
//! the starting rectangle. Each candidate at offset `d` keeps the points `x` with
//! `x·d ≤ |d|²/2` (those at least as near the boid as the candidate). Once every candidate that
//! can cut the cell has been offered, the owners of its edges are the boid's Voronoi neighbours.

use glam::Vec2;

/// Owner of an edge of the starting rectangle (no boid).
pub const NO_OWNER: u32 = u32::MAX;

/// The number of neighbour ids recorded a boid (the lowest of a cell with more).
pub const VORONOI_EDGES_MAX: usize = 32;

/// Most edges of a cell in the GPU's plain search (`shaders/voronoi.wgsl`, one invocation a boid,
/// the polygon in twelve slots, four to a vector, held in registers: no cut indexes an array; on
/// lavapipe its step took 27–31 % less time with twelve slots than with sixteen, 35–48 % less
/// CPU time, docs/performance.md). A cell with more is the GPU's heavy search's (a workgroup a
/// boid, the polygon in shared memory); in a uniform flock a cell has 6 edges on average, and 13
/// or more a few times in 10⁵ for boids at random.
pub const VORONOI_PLAIN_EDGES: usize = 12;

/// Relative margin on the squared reach of a cell (`4·r²`, r its farthest vertex): rounding of
/// the vertices (a few ulps) never lets a boid beyond the margin cut the cell.
pub const REACH_MARGIN: f32 = 1.0 + 1.0 / 65536.0;

/// One boid's Voronoi cell, as cut so far (offsets from the boid, wu).
#[derive(Clone, Debug, Default)]
pub struct VoronoiCell {
    /// Vertices, counter-clockwise.
    pub vertices: Vec<Vec2>,
    /// The owner of the edge from vertex `i` to vertex `i + 1` (the last to the first): a sorted
    /// index, or [`NO_OWNER`].
    pub owners: Vec<u32>,
    /// The largest squared distance of a vertex from the boid (wu²).
    pub r2: f32,
    /// Scratch for [`VoronoiCell::cut`].
    next_vertices: Vec<Vec2>,
    next_owners: Vec<u32>,
    sides: Vec<f32>,
}

impl VoronoiCell {
    /// An empty cell (call [`VoronoiCell::reset`] before use).
    pub fn new() -> Self {
        Self::default()
    }

    /// The rectangle `lo ..= hi` (offsets from the boid, wu; `lo ≤ 0 ≤ hi` on each axis), every
    /// edge without owner.
    pub fn reset(&mut self, lo: Vec2, hi: Vec2) {
        self.vertices.clear();
        self.owners.clear();
        self.vertices
            .extend([lo, Vec2::new(hi.x, lo.y), hi, Vec2::new(lo.x, hi.y)]);
        self.owners.extend([NO_OWNER; 4]);
        self.r2 = self.farthest2();
    }

    /// The largest squared distance of a vertex from the boid (wu²).
    fn farthest2(&self) -> f32 {
        self.vertices.iter().map(|v| cell_d2(*v)).fold(0.0, larger)
    }

    /// Whether a candidate at squared distance `d2` may cut the cell: `d2 < 4·r²` (with
    /// [`REACH_MARGIN`]). A candidate farther keeps every vertex (`x·d ≤ |x||d| ≤ r|d| ≤ |d|²/2`).
    #[inline]
    pub fn reaches(&self, d2: f32) -> bool {
        d2 < 4.0 * self.r2 * REACH_MARGIN
    }

    /// Whether every boid farther than `sqrt(bound2)` leaves the cell as it is (`4·r² < bound2`,
    /// with [`REACH_MARGIN`]).
    #[inline]
    pub fn certain_within(&self, bound2: f32) -> bool {
        4.0 * self.r2 * REACH_MARGIN < bound2
    }

    /// How far past the boid, towards −x, +x, −y and +y, a boid may lie and still cut the cell
    /// (wu): the extent of the union of the discs about the vertices through the boid (a boid
    /// cuts the cell only if it lies nearer a vertex than the boid does, `|d − v| < |v|`), each
    /// side's `max(|v| ∓ v.x)` or `max(|v| ∓ v.y)`, plus a margin of 2⁻¹⁴ of the farthest
    /// vertex's distance (more than the rounding of the vertices and of the square roots). Never
    /// more than `2·r`, and mostly less: a block of cells need only grow on the sides whose reach
    /// passes its edge.
    pub fn side_reach(&self) -> [f32; 4] {
        let mut reach = [0.0f32; 4];
        for &v in &self.vertices {
            let r = cell_d2(v).sqrt();
            reach[0] = larger(reach[0], r - v.x);
            reach[1] = larger(reach[1], r + v.x);
            reach[2] = larger(reach[2], r - v.y);
            reach[3] = larger(reach[3], r + v.y);
        }
        let margin = self.r2.sqrt() * (1.0 / 16384.0);
        reach.map(|e| e + margin)
    }

    /// Cuts the cell by the bisector of the candidate `owner` at offset `d`: keeps the points `x`
    /// with `x·d − |d|²/2 ≤ 0`. A candidate at the boid's own position (`d = 0`, no bisector) or
    /// that keeps every vertex changes nothing. Returns whether the cell changed. Each vertex's
    /// side is computed once (kept in `sides`), and the new farthest vertex found from the new
    /// polygon.
    #[inline(always)]
    pub fn cut(&mut self, d: Vec2, owner: u32) -> bool {
        let d2 = cell_d2(d);
        if d2 == 0.0 || !self.reaches(d2) {
            return false;
        }
        self.cut_reached(d, d2, owner)
    }

    /// [`VoronoiCell::cut`] past its test of reach (inlined where candidates are offered: a call
    /// measured ~3 % slower on the CPU backend's step).
    #[inline(always)]
    fn cut_reached(&mut self, d: Vec2, d2: f32, owner: u32) -> bool {
        let c = 0.5 * d2;
        let n = self.vertices.len();
        let (outside, on_line) = self.compute_sides(d, c);
        if outside == 0 && (n <= 64 || !self.sides[64..n].iter().any(|&f| f > 0.0)) {
            return false;
        }
        if n <= 64 && on_line == 0 && self.cut_one_run(outside, owner) {
            return true;
        }
        self.cut_general(owner);
        true
    }

    /// Each vertex's side of the bisector at `x·d − c` (`c = |d|²/2`) into `sides`, and which
    /// vertices lie outside the half-plane (`f > 0`) and which on its line (`f = 0`) as bits (the
    /// vertices past the 64th in neither: such a cell takes [`VoronoiCell::cut_general`]).
    #[inline(always)]
    fn compute_sides(&mut self, d: Vec2, c: f32) -> (u64, u64) {
        let n = self.vertices.len();
        if self.sides.len() < n {
            self.sides.resize(n, 0.0);
        }
        #[cfg(target_arch = "x86_64")]
        let (mut outside, mut on_line, start) =
            sides_by_four(&self.vertices[..n], &mut self.sides[..n], d, c);
        #[cfg(not(target_arch = "x86_64"))]
        let (mut outside, mut on_line, start) = (0u64, 0u64, 0);
        for (i, (f, &v)) in self.sides[start..n]
            .iter_mut()
            .zip(&self.vertices[start..n])
            .enumerate()
        {
            let i = i + start;
            *f = v.x * d.x + v.y * d.y - c;
            let bit = 1u64.wrapping_shl(i as u32) * u64::from(i < 64);
            outside |= bit * u64::from(*f > 0.0);
            on_line |= bit * u64::from(*f == 0.0);
        }
        (outside, on_line)
    }

    /// The rebuild of [`VoronoiCell::cut_reached`] for any signs of `sides` (of which one at least
    /// is positive): edge by edge, as docs/model.md §19.5 gives it. Not inlined: the run of
    /// [`VoronoiCell::cut_one_run`] takes nearly every cut.
    #[inline(never)]
    fn cut_general(&mut self, owner: u32) {
        // Each edge gives at most two vertices (a convex polygon cut by a line keeps at most one
        // vertex more than it had, but rounding can give the sides of vertices nearly on the
        // bisector signs no convex polygon has): the new polygon is pushed into scratch emptied
        // but keeping its capacity (not zero-filled each cut), then swapped in.
        let n = self.vertices.len();
        self.next_vertices.clear();
        self.next_owners.clear();
        self.next_vertices.reserve(2 * n);
        self.next_owners.reserve(2 * n);
        let (verts, owners, sides) = (&self.vertices[..n], &self.owners[..n], &self.sides[..n]);
        let (next_v, next_o) = (&mut self.next_vertices, &mut self.next_owners);
        let mut r2 = 0.0f32;
        let mut push = |v: Vec2, o: u32| {
            r2 = larger(r2, cell_d2(v));
            next_v.push(v);
            next_o.push(o);
        };
        for i in 0..n {
            let j = if i + 1 == n { 0 } else { i + 1 };
            let (a, b) = (verts[i], verts[j]);
            let (fa, fb) = (sides[i], sides[j]);
            if fa == 0.0 && fb > 0.0 {
                // Leaves the half-plane at a itself: the new edge starts at a (no edge of length
                // 0 kept for edge i's owner).
                push(a, owner);
            } else if fa <= 0.0 {
                push(a, owners[i]);
                if fb > 0.0 {
                    // Leaves the half-plane: the new edge along the bisector starts here.
                    push(crossing(a, b, fa, fb), owner);
                }
            } else if fb < 0.0 {
                // Comes back: the rest of edge i. (Coming back at b itself, fb = 0, b follows
                // as the next edge's vertex: no edge of length 0 for edge i's owner.)
                push(crossing(a, b, fa, fb), owners[i]);
            }
        }
        std::mem::swap(&mut self.vertices, &mut self.next_vertices);
        std::mem::swap(&mut self.owners, &mut self.next_owners);
        self.r2 = r2;
    }

    /// The rebuild of [`VoronoiCell::cut_reached`] where no vertex lies on the bisector and the
    /// vertices outside it (the bits of `outside`, of `n ≤ 64` vertices) are one run, as in every
    /// cut of a convex polygon away from rounding: the run is replaced in place by the two
    /// crossings, and the result is [`VoronoiCell::cut_general`]'s (the same vertices in the same
    /// order with the same owners, each crossing computed from the same values) without a branch
    /// on each vertex's side or a rebuild in scratch (one insertion, or one move of kept
    /// vertices). Returns `false`, changing nothing, for any other pattern.
    #[inline(always)]
    fn cut_one_run(&mut self, outside: u64, owner: u32) -> bool {
        let n = self.vertices.len();
        let all = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
        // The run that does not hold vertex 0: outside when vertex 0 is inside, else inside.
        let run = if outside & 1 == 0 {
            outside
        } else {
            !outside & all
        };
        if run == 0 {
            return false;
        }
        let first = run.trailing_zeros() as usize;
        if (run >> first) & ((run >> first) + 1) != 0 {
            return false;
        }
        let last = first + run.count_ones() as usize - 1;
        let (verts, sides) = (&self.vertices[..n], &self.sides[..n]);
        let edge = |i: usize| {
            let j = if i + 1 == n { 0 } else { i + 1 };
            crossing(verts[i], verts[j], sides[i], sides[j])
        };
        // Where edge first − 1 and edge last cross the bisector.
        let (at_first, at_last) = (edge(first - 1), edge(last));
        let (v, o) = (&mut self.vertices, &mut self.owners);
        if outside & 1 == 0 {
            // Vertices 0 ..= first − 1 stay, the bisector's edge runs from where edge first − 1
            // leaves to where edge last comes back (keeping edge last's owner), and vertices
            // last + 1 .. n stay: the run of outside vertices becomes the two crossings.
            if first == last {
                v.insert(first, at_first);
                o.insert(first, owner);
                v[first + 1] = at_last;
            } else {
                v[first] = at_first;
                o[first] = owner;
                v[first + 1] = at_last;
                o[first + 1] = o[last];
                v.drain(first + 2..=last);
                o.drain(first + 2..=last);
            }
        } else {
            // Edge first − 1 comes back (keeping its owner), vertices first ..= last stay, and
            // the bisector's edge starts where edge last leaves.
            let back = o[first - 1];
            let kept = last - first + 1;
            v.copy_within(first..=last, 1);
            o.copy_within(first..=last, 1);
            v.truncate(kept + 1);
            o.truncate(kept + 1);
            v[0] = at_first;
            o[0] = back;
            v.push(at_last);
            o.push(owner);
        }
        self.r2 = self.farthest2();
        true
    }

    /// The distinct owners of the cell's edges (the boid's Voronoi neighbours, as sorted indices),
    /// in edge order from vertex 0, without [`NO_OWNER`].
    pub fn neighbors(&self) -> impl Iterator<Item = u32> + '_ {
        self.owners
            .iter()
            .enumerate()
            .filter(|&(i, &o)| o != NO_OWNER && !self.owners[..i].contains(&o))
            .map(|(_, &o)| o)
    }
}

/// The sides `x·d − c` of the first `4·⌊n/4⌋` vertices into `sides`, four at a time (SSE, part
/// of every x86-64 CPU), with their bits of the outside and on-line masks as
/// [`VoronoiCell::compute_sides`] makes them: the same operations in the same order, so the same
/// bits. Returns the masks and how many vertices were done (the rest are the caller's). On the
/// CPU's grid it took the search about 8 % less time than the loop alone (`cargo bench --bench
/// voronoi_search`; docs/performance.md).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn sides_by_four(verts: &[Vec2], sides: &mut [f32], d: Vec2, c: f32) -> (u64, u64, usize) {
    use std::arch::x86_64::{
        _mm_add_ps, _mm_cmpeq_ps, _mm_cmpgt_ps, _mm_loadu_ps, _mm_movemask_ps, _mm_mul_ps,
        _mm_set1_ps, _mm_setzero_ps, _mm_shuffle_ps, _mm_storeu_ps, _mm_sub_ps,
    };
    const { assert!(std::mem::size_of::<Vec2>() == 8) };
    let done = verts.len().min(sides.len()) & !3;
    let (mut outside, mut on_line) = (0u64, 0u64);
    // SAFETY: SSE is enabled on every x86-64 target. A `Vec2` is two f32, x then y (`repr(C)`,
    // 8 bytes): each load reads the eight f32 of vertices i .. i + 4, and each store writes sides
    // i .. i + 4, with i + 4 ≤ done.
    unsafe {
        let (dx, dy) = (_mm_set1_ps(d.x), _mm_set1_ps(d.y));
        let (cc, zero) = (_mm_set1_ps(c), _mm_setzero_ps());
        let (p, q) = (verts.as_ptr().cast::<f32>(), sides.as_mut_ptr());
        for i in (0..done).step_by(4) {
            let a = _mm_loadu_ps(p.add(2 * i));
            let b = _mm_loadu_ps(p.add(2 * i + 4));
            // Vertices i .. i + 4 as [x0 x1 x2 x3] and [y0 y1 y2 y3].
            let xs = _mm_shuffle_ps::<0b10_00_10_00>(a, b);
            let ys = _mm_shuffle_ps::<0b11_01_11_01>(a, b);
            let f = _mm_sub_ps(_mm_add_ps(_mm_mul_ps(xs, dx), _mm_mul_ps(ys, dy)), cc);
            _mm_storeu_ps(q.add(i), f);
            if i < 64 {
                outside |= (_mm_movemask_ps(_mm_cmpgt_ps(f, zero)) as u64) << i;
                on_line |= (_mm_movemask_ps(_mm_cmpeq_ps(f, zero)) as u64) << i;
            }
        }
    }
    (outside, on_line, done)
}

/// The squared length of a cell offset, each square rounded, then added (no fused multiply-add:
/// the GPU's `topo_d2`, which adds the larger square to the smaller, gives the same bits, as
/// addition commutes).
#[inline(always)]
pub fn cell_d2(d: Vec2) -> f32 {
    d.x * d.x + d.y * d.y
}

/// The larger of two values that are not NaN (one compare: `f32::max` also handles NaN).
#[inline(always)]
fn larger(a: f32, b: f32) -> f32 {
    if b > a {
        b
    } else {
        a
    }
}

/// Where the edge `a → b` crosses a bisector, from the values `fa < 0 < fb` (or `fa > 0 > fb`) of
/// its side function at the ends. (The GPU writes each sum as max + min of its terms, so that no
/// compiler fuses the product into a multiply-add: the same operations; its division may round
/// differently, within 2.5 ulp.)
#[inline(always)]
fn crossing(a: Vec2, b: Vec2, fa: f32, fb: f32) -> Vec2 {
    let t = fa / (fa - fb);
    Vec2::new(a.x + t * (b.x - a.x), a.y + t * (b.y - a.y))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::rng::uniform01;

    /// The cell after `cuts` random candidates within ±30 wu (of a boid in a ±100 wu square), and
    /// the next candidate.
    fn random_cell(seed: u32, cuts: u32) -> (VoronoiCell, Vec2) {
        let mut cell = VoronoiCell::new();
        cell.reset(Vec2::splat(-100.0), Vec2::splat(100.0));
        let at = |k: u32| {
            let r = |s: u32| 60.0 * uniform01(seed, k, 0, s) - 30.0;
            Vec2::new(r(0), r(1))
        };
        for k in 0..cuts {
            cell.cut(at(k), k);
        }
        (cell, at(cuts))
    }

    #[test]
    fn the_run_rebuild_gives_the_general_rebuilds_polygon() {
        // Every cut that takes the run rebuild, made again by the general rebuild from the same
        // sides: the same vertices (bit for bit), owners and farthest distance. Counted: runs
        // with vertex 0 inside and outside, of one vertex and of several.
        let (mut runs, mut zero_outside, mut single, mut several) = (0, 0, 0, 0);
        // Runs of one vertex: outside with vertex 0 inside (an insertion), inside with vertex 0
        // outside (a triangle).
        let (mut one_out, mut one_in) = (0, 0);
        for seed in 1..400u32 {
            for cuts in [0, 1, 2, 4, 8, 16, 30] {
                let (cell, d) = random_cell(seed, cuts);
                let d2 = cell_d2(d);
                let (mut fast, mut general) = (cell.clone(), cell.clone());
                let (outside, on_line) = fast.compute_sides(d, 0.5 * d2);
                general.compute_sides(d, 0.5 * d2);
                if outside == 0 || on_line != 0 || !fast.cut_one_run(outside, 9999) {
                    continue;
                }
                general.cut_general(9999);
                let bits = |c: &VoronoiCell| {
                    c.vertices
                        .iter()
                        .map(|v| (v.x.to_bits(), v.y.to_bits()))
                        .collect::<Vec<_>>()
                };
                assert_eq!(bits(&fast), bits(&general), "seed {seed}, {cuts} cuts");
                assert_eq!(fast.owners, general.owners, "seed {seed}, {cuts} cuts");
                assert_eq!(fast.r2.to_bits(), general.r2.to_bits());
                runs += 1;
                zero_outside += (outside & 1) as usize;
                let (out, n) = (outside.count_ones(), cell.vertices.len() as u32);
                single += usize::from(out == 1);
                several += usize::from(out > 1 && out + 1 < n);
                one_out += usize::from(outside & 1 == 0 && out == 1);
                one_in += usize::from(outside & 1 == 1 && out + 1 == n);
            }
        }
        assert!(runs > 800, "only {runs} cuts took the run rebuild");
        assert!(
            zero_outside > 50 && runs - zero_outside > 50,
            "{zero_outside} of {runs}"
        );
        assert!(
            single > 50 && several > 50,
            "runs of one {single}, of several {several}"
        );
        assert!(
            one_out > 20 && one_in > 20,
            "one outside {one_out}, one inside {one_in}"
        );
    }

    /// A regular `n`-gon on the unit circle, vertex k at angle 2π(k + `turn`)/n, owner k.
    fn regular(n: usize, turn: f64) -> VoronoiCell {
        let mut cell = VoronoiCell::new();
        for k in 0..n {
            let a = std::f64::consts::TAU * (k as f64 + turn) / n as f64;
            cell.vertices
                .push(Vec2::new(a.cos() as f32, a.sin() as f32));
            cell.owners.push(k as u32);
        }
        cell.r2 = cell.farthest2();
        cell
    }

    /// `cell` cut by the candidate at `d` through [`VoronoiCell::cut`], and through the general
    /// rebuild from the same sides.
    fn both_ways(cell: &VoronoiCell, d: Vec2) -> (VoronoiCell, VoronoiCell) {
        let (mut cut, mut general) = (cell.clone(), cell.clone());
        assert!(cut.cut(d, 9999), "the candidate at {d} cuts");
        general.compute_sides(d, 0.5 * cell_d2(d));
        general.cut_general(9999);
        (cut, general)
    }

    #[test]
    fn cells_of_64_vertices_take_the_run_and_of_65_the_general_rebuild() {
        // 64 vertices: every bit of the masks in use, the run wrapping past vertex 0 (outside
        // x = 0.75) or not (outside x = −0.75), the same polygon as the general rebuild.
        let cell = regular(64, 0.0);
        for d in [Vec2::new(1.5, 0.0), Vec2::new(-1.5, 0.0)] {
            let (mut fast, general) = (cell.clone(), cell.clone());
            let (outside, on_line) = fast.compute_sides(d, 0.5 * cell_d2(d));
            assert_eq!((outside.count_ones(), on_line), (15, 0), "{d}");
            assert!(fast.cut_one_run(outside, 9999));
            let (cut, general) = both_ways(&general, d);
            assert_eq!(fast.vertices, general.vertices);
            assert_eq!(fast.owners, general.owners);
            assert_eq!(cut.vertices, general.vertices);
            assert_eq!(fast.vertices.len(), 64 - 15 + 2);
        }
        // 65 vertices, only the 65th outside (beyond the masks): cut, by the general rebuild.
        let cell = regular(65, 1.0);
        let d = Vec2::new(2.0 * 0.998, 0.0);
        let (cut, general) = both_ways(&cell, d);
        assert_eq!(cut.vertices, general.vertices);
        assert_eq!(cut.owners, general.owners);
        assert_eq!(cut.vertices.len(), 66);
        assert_eq!(cut.owners[64..], [9999, 64]);
    }

    #[test]
    fn the_run_rebuild_refuses_what_is_not_one_run() {
        // Two runs outside (0b0101 of a square), and every vertex outside: no change.
        let mut cell = VoronoiCell::new();
        cell.reset(Vec2::splat(-1.0), Vec2::splat(1.0));
        let before = cell.vertices.clone();
        assert!(!cell.cut_one_run(0b0101, 7));
        assert!(!cell.cut_one_run(0b1111, 7));
        assert_eq!(cell.vertices, before);
        // One run (vertices 1 and 2, beyond x = 0.75): the square's right side cut off.
        let (outside, on_line) = cell.compute_sides(Vec2::new(1.5, 0.0), 0.5 * 2.25);
        assert_eq!((outside, on_line), (0b0110, 0));
        assert!(cell.cut_one_run(outside, 7));
        let xy = [(-1.0, -1.0), (0.75, -1.0), (0.75, 1.0), (-1.0, 1.0)];
        assert_eq!(cell.vertices, xy.map(|(x, y)| Vec2::new(x, y)));
        assert_eq!(cell.owners, [NO_OWNER, 7, NO_OWNER, NO_OWNER]);
    }

    /// Each vertex's side and the two masks as the plain loop makes them, one vertex at a time:
    /// the sides' bits, the outside mask and the on-line mask.
    fn sides_one_by_one(cell: &VoronoiCell, d: Vec2, c: f32) -> (Vec<u32>, u64, u64) {
        let (mut sides, mut outside, mut on_line) = (Vec::new(), 0u64, 0u64);
        for (i, v) in cell.vertices.iter().enumerate() {
            let f = v.x * d.x + v.y * d.y - c;
            if i < 64 {
                outside |= u64::from(f > 0.0) << i;
                on_line |= u64::from(f == 0.0) << i;
            }
            sides.push(f.to_bits());
        }
        (sides, outside, on_line)
    }

    #[test]
    fn the_sides_are_those_of_the_loop_one_vertex_at_a_time() {
        // `compute_sides` (four vertices at a time on x86-64, the rest one by one) against the
        // plain loop, bit for bit: regular cells of 3 to 80 vertices (past the masks' 64), some
        // vertices exactly on the bisector (a vertex at (±1, 0) against a candidate at (±2, 0)),
        // and random cells with their next candidate.
        let check = |cell: &VoronoiCell, d: Vec2| {
            let mut fast = cell.clone();
            let c = 0.5 * cell_d2(d);
            let (outside, on_line) = fast.compute_sides(d, c);
            let n = cell.vertices.len();
            let got: Vec<u32> = fast.sides[..n].iter().map(|f| f.to_bits()).collect();
            let (sides, o, l) = sides_one_by_one(cell, d, c);
            assert_eq!(got, sides, "{n} vertices, candidate at {d}");
            assert_eq!((outside, on_line), (o, l), "{n} vertices, candidate at {d}");
            (outside.count_ones(), on_line.count_ones())
        };
        let (mut outside, mut on_line) = (0, 0);
        for n in 3..=80 {
            for turn in [0.0, 0.3] {
                let cell = regular(n, turn);
                for d in [(2.0, 0.0), (-2.0, 0.0), (0.5, 1.5), (1.2, -0.7)] {
                    let (o, l) = check(&cell, Vec2::new(d.0, d.1));
                    outside += o;
                    on_line += l;
                }
            }
        }
        for seed in 1..200u32 {
            for cuts in [0, 3, 8, 20] {
                let (cell, d) = random_cell(seed, cuts);
                check(&cell, d);
            }
        }
        assert!(
            outside > 1000 && on_line > 100,
            "{outside} outside, {on_line} on the line"
        );
    }
}
