//! What every model's rule shares (docs/model.md §4–§8), written once and shared by the CPU grid
//! backend, the CPU naive backend and (line for line) `shaders/rules_common.wgsl`: the neighbour
//! sums and how a neighbour adds to them, the k-nearest selection, Reynolds steering, walls,
//! obstacles, the hue-vector rule and the boundary.
//!
//! A step for boid i is: gather neighbours into a [`NeighborSums`] with [`accumulate`] (in any
//! neighbour order), then the model's rule (`next_state` of its entry in
//! [`crate::model::models::MODELS`]) turns the sums into the next state.
//! All arithmetic is f32, as on the GPU.

use glam::Vec2;

use crate::model::state::Boid;
use crate::model::uniforms::StepUniforms;

/// Below this squared distance (wu²) two boids count as coincident: they add nothing to
/// separation (so there is never a division by ~0).
pub const COINCIDENT_EPS2: f32 = 1e-8;
/// Below this squared length a steering target counts as zero (the steer is then zero).
pub const STEER_EPS2: f32 = 1e-12;
/// Below this squared speed ((wu/s)²) a boid counts as stopped and keeps its previous heading.
pub const SPEED_EPS2: f32 = 1e-12;
/// Above this squared speed ((wu/s)²) a velocity still has a heading (normalising it is exact
/// enough in f32, far from subnormals that a GPU may flush to zero).
pub const HEADING_EPS2: f32 = 1e-30;

/// The heading of velocity `v` as a unit vector: +x for one too slow to have a heading
/// ([`HEADING_EPS2`]). Mirrors `heading` in `shaders/rules_common.wgsl`.
pub fn heading(v: Vec2) -> Vec2 {
    let v2 = v.dot(v);
    if v2 > HEADING_EPS2 {
        v / v2.sqrt()
    } else {
        Vec2::new(1.0, 0.0)
    }
}

/// Sums over the neighbours of one boid (docs/model.md §5). Zero-initialised with `Default`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct NeighborSums {
    /// Σ (p_i − p_j)/|p_i − p_j|² over neighbours within separation_radius (1/wu).
    pub separation: Vec2,
    /// Σ v_j within alignment_radius (wu/s).
    pub alignment: Vec2,
    /// Count for alignment.
    pub alignment_n: u32,
    /// Σ d_ij within cohesion_radius (wu).
    pub cohesion: Vec2,
    /// Count for cohesion.
    pub cohesion_n: u32,
    /// Σ h_j within hue_radius.
    pub hue: Vec2,
    /// Σ u_j within hue_radius (1/s).
    pub hue_velocity: Vec2,
    /// Count for the hue rules.
    pub hue_n: u32,
    /// Neighbours within perception_radius (the count the neighbour cap applies to).
    pub neighbors: u32,
}

/// Minimum-image offset: in wrap mode each component is brought into [−W/2, W/2].
#[inline]
pub fn min_image(d: Vec2, u: &StepUniforms) -> Vec2 {
    let mut r = d;
    if u.boundary == 0 {
        if r.x > 0.5 * u.world_width {
            r.x -= u.world_width;
        } else if r.x < -0.5 * u.world_width {
            r.x += u.world_width;
        }
        if r.y > 0.5 * u.world_height {
            r.y -= u.world_height;
        } else if r.y < -0.5 * u.world_height {
            r.y += u.world_height;
        }
    }
    r
}

/// `v` shortened to at most `max` (unchanged when shorter).
#[inline]
pub fn clamp_len(v: Vec2, max: f32) -> Vec2 {
    let l2 = v.dot(v);
    if l2 > max * max {
        v * (max / l2.sqrt())
    } else {
        v
    }
}

/// `v` turned by `angle` (rad, counter-clockwise); the length is kept (to rounding).
#[inline]
pub fn rotate(v: Vec2, angle: f32) -> Vec2 {
    let (sn, cs) = angle.sin_cos();
    Vec2::new(cs * v.x - sn * v.y, sn * v.x + cs * v.y)
}

/// Reynolds steering (docs/model.md §5.1; Reynolds, "Steering Behaviors For Autonomous
/// Characters", 1999): `clamp_len(normalize(target) · max_speed − v, max_force)`, zero
/// when `target` is (near) zero.
#[inline]
pub fn steer(target: Vec2, v: Vec2, max_speed: f32, max_force: f32) -> Vec2 {
    let l2 = target.dot(target);
    if l2 < STEER_EPS2 {
        return Vec2::ZERO;
    }
    clamp_len(target * (max_speed / l2.sqrt()) - v, max_force)
}

/// Adds neighbour `other` at offset `d = p_j − p_i` to `s` when it is within the perception
/// radius. The caller skips the boid itself (and, with a neighbour cap, passes only the selected
/// nearest neighbours: see [`Nearest`]).
///
/// Inside the perception radius the per-rule tests are masks (0 or 1) rather than branches: a
/// neighbour passes some radii and not others unpredictably, and mispredicted branches cost more
/// than the arithmetic. Multiplying by a mask of exactly 1.0 leaves a value unchanged, so the sums
/// equal those of the branching form bit for bit.
#[inline]
pub fn accumulate(s: &mut NeighborSums, d: Vec2, other: &Boid, u: &StepUniforms) {
    accumulate_parts(s, d, other.vel(), [other.hue, other.hue_velocity], u);
}

/// [`accumulate`] from the neighbour's velocity and its (hue vector, hue velocity).
#[inline]
pub fn accumulate_parts(
    s: &mut NeighborSums,
    d: Vec2,
    vel: Vec2,
    hue: [[f32; 2]; 2],
    u: &StepUniforms,
) {
    let d2 = d.dot(d);
    if d2 >= u.perception_r2 {
        return;
    }
    // The model's declared pair terms (docs/model.md §4.7): each offset sum's weight, and the
    // alignment and cohesion bands' inner edges (0 for a disc).
    let sep = (d2 < u.separation_r2 && has_direction(u.separation_weight, d2)) as u32 as f32;
    let ali = (d2 < u.alignment_r2 && d2 >= u.alignment_inner_r2) as u32;
    let coh = (d2 < u.cohesion_r2
        && d2 >= u.cohesion_inner_r2
        && has_direction(u.cohesion_weight, d2)) as u32;
    let hm = (d2 < u.hue_r2) as u32;
    s.separation -= pair_weight(u.separation_weight, d, d2) * sep;
    s.alignment += vel * ali as f32;
    s.alignment_n += ali;
    s.cohesion += pair_weight(u.cohesion_weight, d, d2) * coh as f32;
    s.cohesion_n += coh;
    s.hue += Vec2::from(hue[0]) * hm as f32;
    s.hue_velocity += Vec2::from(hue[1]) * hm as f32;
    s.hue_n += hm;
    s.neighbors += 1;
}

/// Whether a neighbour at squared distance `d2` counts in an offset sum of weight `weight` (a
/// [`crate::model::models::PairWeight`] code): always for d itself, and beyond the coincident
/// distance for d/|d| and d/|d|², which a neighbour at the boid's own place has no direction for.
#[inline(always)]
pub fn has_direction(weight: u32, d2: f32) -> bool {
    weight == 0 || d2 > COINCIDENT_EPS2
}

/// A neighbour's term in an offset sum of weight `weight` (a
/// [`crate::model::models::PairWeight`] code, docs/model.md §4.7): d (0), d/|d| (1) or d/|d|²
/// (2), |d|² taken at least [`COINCIDENT_EPS2`] (the term of a coincident neighbour, which
/// [`has_direction`] leaves out, is finite).
#[inline(always)]
pub fn pair_weight(weight: u32, d: Vec2, d2: f32) -> Vec2 {
    match weight {
        0 => d,
        1 => d / d2.max(COINCIDENT_EPS2).sqrt(),
        _ => d / d2.max(COINCIDENT_EPS2),
    }
}

/// The `k` nearest neighbours seen so far (the topological neighbourhood of Ballerini et al.,
/// PNAS 105, 1232, 2008; docs/model.md §4.4, §19): candidates ordered by (squared distance, id),
/// ties broken by the smaller id; `k ≤ C`. [`Nearest`] holds the neighbour cap's (within the
/// perception radius, `k ≤` [`MAX_NEIGHBORS_CAP`]); the topological neighbourhood's is
/// [`TopoNearest`].
#[derive(Clone, Copy, Debug)]
pub struct NearestOf<const C: usize> {
    /// (d², id, candidate index, offset d), sorted ascending by (d², id); `len` valid entries.
    pub items: [(f32, u32, u32, Vec2); C],
    /// Valid entries.
    pub len: usize,
    /// Entries kept (the cap).
    pub k: usize,
}

/// The neighbour cap's selection ([`NearestOf`] of at most [`MAX_NEIGHBORS_CAP`]).
pub type Nearest = NearestOf<MAX_NEIGHBORS_CAP>;

/// Largest `topological_k`: the k nearest are kept in a fixed-size list per boid (also on the
/// GPU).
pub const TOPOLOGICAL_K_MAX: u32 = 64;

/// Largest neighbour cap (`max_neighbors`): the selection of the nearest lives in a fixed-size
/// list per boid (also on the GPU).
pub const MAX_NEIGHBORS_CAP: usize = 16;

/// Whether (d², id) `a` comes before `b`: nearer, or as near with a smaller id.
#[inline(always)]
pub fn nearer(a: (f32, u32), b: (f32, u32)) -> bool {
    a.0 < b.0 || (a.0 == b.0 && a.1 < b.1)
}

impl<const C: usize> NearestOf<C> {
    /// An empty selection keeping `k` (1 ..= `C`).
    pub fn new(k: usize) -> Self {
        NearestOf {
            items: [(0.0, 0, 0, Vec2::ZERO); C],
            len: 0,
            k: k.clamp(1, C),
        }
    }

    /// Empties the selection and makes it keep `k` (1 ..= `C`), without touching the entries.
    #[inline]
    pub fn reset(&mut self, k: usize) {
        self.len = 0;
        self.k = k.clamp(1, C);
    }

    /// Whether `k` entries are held.
    #[inline(always)]
    pub fn is_full(&self) -> bool {
        self.len == self.k
    }

    /// The (d², id) of the last (farthest) entry kept, when full.
    #[inline(always)]
    pub fn last(&self) -> Option<(f32, u32)> {
        self.is_full().then(|| {
            let l = self.items[self.len - 1];
            (l.0, l.1)
        })
    }

    /// Offers candidate `index` with id `id` at offset `d` (squared length `d2`): kept when among
    /// the `k` nearest so far.
    #[inline]
    pub fn offer(&mut self, d: Vec2, d2: f32, id: u32, index: u32) {
        if self.len == self.k {
            let last = self.items[self.len - 1];
            if !nearer((d2, id), (last.0, last.1)) {
                return;
            }
            self.len -= 1;
        }
        let mut at = self.len;
        while at > 0 && nearer((d2, id), (self.items[at - 1].0, self.items[at - 1].1)) {
            self.items[at] = self.items[at - 1];
            at -= 1;
        }
        self.items[at] = (d2, id, index, d);
        self.len += 1;
    }

    /// The selected candidates, nearest first.
    pub fn selected(&self) -> &[(f32, u32, u32, Vec2)] {
        &self.items[..self.len]
    }
}

/// The order of a candidate of the topological neighbourhood as one integer: the bits of its
/// squared distance (a float ≥ 0, whose bits order as it does) above its id, so that comparing
/// keys compares (squared distance, id) — ties go to the smaller id.
#[inline(always)]
pub fn topo_key(d2: f32, id: u32) -> u64 {
    ((d2.to_bits() as u64) << 32) | id as u64
}

/// The topological neighbourhood's selection (docs/model.md §19): the `k` nearest candidates seen
/// so far (`k ≤` [`TOPOLOGICAL_K_MAX`]), ascending by [`topo_key`], with each one's candidate
/// (sorted) index.
#[derive(Clone, Copy, Debug)]
pub struct TopoNearest {
    keys: [u64; TOPOLOGICAL_K_MAX as usize],
    index: [u32; TOPOLOGICAL_K_MAX as usize],
    len: usize,
    k: usize,
}

impl TopoNearest {
    /// An empty selection keeping `k` (1 ..= [`TOPOLOGICAL_K_MAX`]).
    pub fn new(k: usize) -> Self {
        TopoNearest {
            keys: [0; TOPOLOGICAL_K_MAX as usize],
            index: [0; TOPOLOGICAL_K_MAX as usize],
            len: 0,
            k: k.clamp(1, TOPOLOGICAL_K_MAX as usize),
        }
    }

    /// Empties the selection and makes it keep `k`, without touching the entries.
    #[inline]
    pub fn reset(&mut self, k: usize) {
        self.len = 0;
        self.k = k.clamp(1, TOPOLOGICAL_K_MAX as usize);
    }

    /// The key of the farthest kept when `k` are held, else `u64::MAX`: a candidate enters only
    /// with a smaller key.
    #[inline(always)]
    pub fn bound(&self) -> u64 {
        if self.len == self.k {
            self.keys[self.len - 1]
        } else {
            u64::MAX
        }
    }

    /// The squared distance of the farthest kept, when `k` are held.
    #[inline(always)]
    pub fn last_d2(&self) -> Option<f32> {
        (self.len == self.k).then(|| f32::from_bits((self.keys[self.len - 1] >> 32) as u32))
    }

    /// Offers candidate `index` of key `key` ([`topo_key`]): kept when among the `k` nearest so
    /// far.
    #[inline(always)]
    pub fn offer(&mut self, key: u64, index: u32) {
        if key >= self.bound() {
            return;
        }
        if self.len == self.k {
            self.len -= 1;
        }
        let mut at = self.len;
        while at > 0 && key < self.keys[at - 1] {
            self.keys[at] = self.keys[at - 1];
            self.index[at] = self.index[at - 1];
            at -= 1;
        }
        self.keys[at] = key;
        self.index[at] = index;
        self.len += 1;
    }

    /// The number held.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether none is held.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The selected candidates, nearest first: (squared distance, id, candidate index).
    pub fn selected(&self) -> impl Iterator<Item = (f32, u32, u32)> + '_ {
        self.keys[..self.len]
            .iter()
            .zip(&self.index[..self.len])
            .map(|(&key, &j)| (f32::from_bits((key >> 32) as u32), key as u32, j))
    }
}

/// The squared length of a topological offset d: `d.x² + d.y²`, each square rounded and then
/// added, as on the GPU (whose `topo_d2` keeps the compiler from fusing the two into a
/// multiply-add), so both backends order the candidates alike bit for bit (docs/model.md §19.2).
#[inline(always)]
pub fn topo_d2(d: Vec2) -> f32 {
    d.x * d.x + d.y * d.y
}

/// Whether another boid at offset `d` lies in the field of view of a boid of velocity `v`
/// (docs/model.md §4.6; `view_mode` and `view_cos2` of [`StepUniforms`]): with a = d·v, seen when
/// a ≥ 0 and a² ≥ cos²(α/2)·|d|²|v|² (α ≤ 180°), or a ≥ 0 or a² ≤ cos²(α/2)·|d|²|v|² (α > 180°);
/// always with α = 360°, and by a boid that does not move (v = 0) or at d = 0. Each product is
/// rounded before the sum it enters (as in `shaders/gather.wgsl`'s `in_view`, where each
/// is used twice so that no compiler fuses it into a multiply-add): the same answer on both
/// backends bit for bit.
#[inline]
pub fn in_view(d: Vec2, v: Vec2, u: &StepUniforms) -> bool {
    in_view_of(d, topo_d2(d), v, topo_d2(v), u.view_mode, u.view_cos2)
}

/// [`in_view`] from the offset `d` and its squared length `d2`, the velocity `v` and its
/// squared length `v2` (each as [`topo_d2`] rounds it), `view_mode` and `view_cos2`: the test
/// the vectorised gather's lanes share.
#[inline(always)]
pub fn in_view_of(d: Vec2, d2: f32, v: Vec2, v2: f32, view_mode: u32, view_cos2: f32) -> bool {
    if view_mode == 0 {
        return true;
    }
    let a = d.x * v.x + d.y * v.y;
    let aa = a * a;
    let q = view_cos2 * (d2 * v2);
    if view_mode == 1 {
        a >= 0.0 && aa >= q
    } else {
        a >= 0.0 || aa <= q
    }
}

/// The soft wall push (docs/model.md §6.2): inside `wall_distance` of an edge, an acceleration away
/// from it growing linearly from 0 to `wall_weight` at the edge (wu/s²); the four edges add.
#[inline]
pub fn wall_push(p: Vec2, u: &StepUniforms) -> Vec2 {
    let mut a = Vec2::ZERO;
    if u.wall_distance <= 0.0 {
        return a;
    }
    let k = u.wall_weight / u.wall_distance;
    if p.x < u.wall_distance {
        a.x += k * (u.wall_distance - p.x);
    }
    if u.world_width - p.x < u.wall_distance {
        a.x -= k * (u.wall_distance - (u.world_width - p.x));
    }
    if p.y < u.wall_distance {
        a.y += k * (u.wall_distance - p.y);
    }
    if u.world_height - p.y < u.wall_distance {
        a.y -= k * (u.wall_distance - (u.world_height - p.y));
    }
    a
}

/// The wall acceleration of a boid at `p` with velocity `v` and id `id` (docs/model.md §6.2, wu/s²):
/// the push `w` of [`wall_push`] plus, while the boid moves outward (`v·w < 0`), a turn: the part
/// of the push that opposes the velocity, `|v·w|/|v|`, applied again at 90° to `v` on the inside
/// (the side of `w`). A push straight against the velocity has no inside: the side is then +90°
/// for an even id and −90° for an odd one. The speed clamp cannot undo a turn (it only rescales),
/// so every boid turns back whatever its angle of incidence.
#[inline]
pub fn wall_force(p: Vec2, v: Vec2, id: u32, u: &StepUniforms) -> Vec2 {
    let w = wall_push(p, u);
    let vw = v.dot(w);
    let v2 = v.dot(v);
    if vw < 0.0 && v2 > HEADING_EPS2 {
        let side_dir = Vec2::new(-v.y, v.x);
        let side = side_dir.dot(w);
        let mut s = if id & 1 == 0 { 1.0 } else { -1.0 };
        if side > 0.0 {
            s = 1.0;
        } else if side < 0.0 {
            s = -1.0;
        }
        return w + side_dir * (s * (-vw / v2));
    }
    w
}

/// Obstacle sums of one boid (docs/model.md §6.4): the push Σ d/|d|² over obstacle points
/// within `obstacle_radius`, and the unit normal from the nearest point within
/// `obstacle_bounce_radius` (zero when none; the first in visiting order among equally near ones).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ObstacleSums {
    /// Σ d/|d|² (1/wu), d = p − o by minimum image.
    pub push: Vec2,
    /// Unit vector from the nearest point within the bounce radius to the boid, or zero.
    pub bounce_normal: Vec2,
    /// Squared distance of that point (wu²), or the squared bounce radius when none.
    pub bounce_d2: f32,
}

impl ObstacleSums {
    /// No obstacle seen yet.
    pub fn empty(u: &StepUniforms) -> Self {
        ObstacleSums {
            push: Vec2::ZERO,
            bounce_normal: Vec2::ZERO,
            bounce_d2: u.obstacle_bounce_radius * u.obstacle_bounce_radius,
        }
    }

    /// Adds obstacle point `o` seen from position `p`.
    #[inline]
    pub fn add(&mut self, p: Vec2, o: [f32; 2], u: &StepUniforms) {
        let d = min_image(p - Vec2::from(o), u);
        let d2 = d.dot(d);
        if d2 < u.obstacle_radius * u.obstacle_radius && d2 > COINCIDENT_EPS2 {
            self.push += d / d2;
        }
        if d2 < self.bounce_d2 && d2 > COINCIDENT_EPS2 {
            self.bounce_d2 = d2;
            self.bounce_normal = d / d2.sqrt();
        }
    }
}

/// The obstacle sums of a boid at `p` over the binned obstacle points near it (the 3 × 3 cells of
/// the obstacle grid around `p`, in cell order, then in point order within a cell).
#[inline]
pub fn obstacle_sums(
    p: Vec2,
    grid: &crate::model::grid::ObstacleGrid,
    u: &StepUniforms,
) -> ObstacleSums {
    let mut o = ObstacleSums::empty(u);
    if u.obstacle_count > 0 {
        grid.for_each_cell(p, u.boundary == 0, |c| {
            let (a, b) = (grid.starts[c as usize], grid.starts[c as usize + 1]);
            for q in &grid.points[a as usize..b as usize] {
                o.add(p, *q, u);
            }
        });
    }
    o
}

/// The hue-vector rule (docs/model.md §8), shared by every model: colour cohesion and colour
/// alignment, no colour separation. Returns the new (hue vector, hue velocity).
#[inline]
pub fn hue_rule(me: &Boid, s: &NeighborSums, u: &StepUniforms) -> (Vec2, Vec2) {
    let h = me.hue_vec();
    let mut hv = me.hue_vel();
    if s.hue_n > 0 {
        let n = s.hue_n as f32;
        let c = s.hue / n - h;
        let k = s.hue_velocity / n - hv;
        hv += (u.hue_cohesion_weight * c + u.hue_alignment_weight * k) * u.dt;
    }
    hv = clamp_len(hv, u.max_hue_speed);
    let h2 = h + hv * u.dt;
    let l2 = h2.dot(h2);
    let h_new = if l2 > STEER_EPS2 { h2 / l2.sqrt() } else { h };
    (h_new, hv)
}

/// The image counts of a boid that moved from `old` to `new` (both inside the world) in one step
/// with image counts `image` (docs/model.md §2.3): in a wrapping world each axis gains the whole
/// number of world sizes the wrap took off, `⌊(old − new)/W + ½⌋` — +1 for a crossing of the
/// right (top) edge, −1 of the left (bottom) — which is exact while a boid moves less than half
/// the world per step; elsewhere they are unchanged. The GPU computes the same in
/// `shaders/rules_common.wgsl` (`next_image`).
#[inline]
pub fn next_image(image: [i32; 2], old: Vec2, new: Vec2, u: &StepUniforms) -> [i32; 2] {
    if u.boundary != 0 {
        return image;
    }
    let kx = ((old.x - new.x) * u.inv_world_width + 0.5).floor() as i32;
    let ky = ((old.y - new.y) * u.inv_world_height + 0.5).floor() as i32;
    [image[0].wrapping_add(kx), image[1].wrapping_add(ky)]
}

/// Applies the boundary mode to a new position and velocity (docs/model.md §6.1–§6.3).
#[inline]
pub fn apply_boundary(p: Vec2, v: Vec2, u: &StepUniforms) -> (Vec2, Vec2) {
    let mut p = p;
    let mut v = v;
    if u.boundary == 0 {
        p.x -= (p.x * u.inv_world_width).floor() * u.world_width;
        p.y -= (p.y * u.inv_world_height).floor() * u.world_height;
        // Rounding can land exactly on W (or a hair below 0): that is the seam, i.e. 0.
        if !(p.x < u.world_width && p.x >= 0.0) {
            p.x = 0.0;
        }
        if !(p.y < u.world_height && p.y >= 0.0) {
            p.y = 0.0;
        }
        return (p, v);
    }
    if u.boundary == 2 {
        if p.x < 0.0 {
            p.x = -p.x;
            v.x = v.x.abs();
        } else if p.x > u.world_width {
            p.x = 2.0 * u.world_width - p.x;
            v.x = -v.x.abs();
        }
        if p.y < 0.0 {
            p.y = -p.y;
            v.y = v.y.abs();
        } else if p.y > u.world_height {
            p.y = 2.0 * u.world_height - p.y;
            v.y = -v.y.abs();
        }
    }
    // Hard clamp (walls, and bounce after a step longer than the world); a clamped boid's velocity
    // component along that axis is turned inward, so no boid keeps pressing against an edge.
    if p.x < 0.0 {
        p.x = 0.0;
        v.x = v.x.abs();
    } else if p.x > u.x_max {
        p.x = u.x_max;
        v.x = -v.x.abs();
    }
    if p.y < 0.0 {
        p.y = 0.0;
        v.y = v.y.abs();
    } else if p.y > u.y_max {
        p.y = u.y_max;
        v.y = -v.y.abs();
    }
    (p, v)
}
