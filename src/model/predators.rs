//! Predators (docs/model.md §18): moving repulsive points that boids flee, either *straight*
//! (constant velocity) or *hunting* (steering toward the nearest boid in sight, and optionally
//! catching boids, which then respawn elsewhere).
//!
//! Written once here and line for line in `shaders/predators_common.wgsl` (what a boid feels:
//! [`predator_accel`], [`caught_by_predator`], [`respawn`]) and `shaders/predators.wgsl` (how a
//! predator moves: [`search_rows`], [`nearest_boid`], [`move_predator`]). All arithmetic is f32,
//! as on the GPU.

use glam::Vec2;
use serde::{Deserialize, Serialize};

use crate::model::grid::Grid;
use crate::model::rng;
use crate::model::rules::{apply_boundary, clamp_len, min_image, COINCIDENT_EPS2, STEER_EPS2};
use crate::model::state::Boid;
use crate::model::uniforms::StepUniforms;

/// Most predators a world may hold: every boid looks at every predator each step (O(N·P)), so
/// the count is kept small.
pub const MAX_PREDATORS: usize = 256;

/// Most grid cells a hunting predator's search reaches on each side of its own cell (per axis):
/// a sight radius wider than this many cells is cut to it (docs/model.md §18.3).
pub const SEARCH_REACH_MAX: u32 = 1024;

/// Most candidates (sorted items, in search order) a hunting predator looks at in one step: a
/// workgroup of [`SEARCH_GROUP`] invocations visits at most 32 768 each, within the 65 535 loop
/// iterations a driver may allow one invocation (docs/model.md §18.3).
pub const SEARCH_CANDIDATES_MAX: u32 = 1 << 23;

/// Invocations of the workgroup that searches for one predator's nearest boid.
pub const SEARCH_GROUP: u32 = 256;

/// [`Predator::target`] of a predator that sees no boid (or is straight).
pub const NO_TARGET: u32 = u32::MAX;

/// How a predator moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PredatorKind {
    /// Moves at its constant velocity (the course page's predator), through the world's boundary
    /// like a boid (wrapping, or turned back at an edge).
    #[default]
    Straight,
    /// Steers toward the nearest boid within `predator_sight_radius` (Reynolds' seek, with its own
    /// `predator_max_speed` and `predator_max_force`) and catches boids within `catch_radius`.
    Hunting,
}

impl PredatorKind {
    /// The code in [`Predator::kind`]: straight 0, hunting 1.
    pub fn code(self) -> u32 {
        match self {
            PredatorKind::Straight => 0,
            PredatorKind::Hunting => 1,
        }
    }

    /// The kind of a code (anything but 1 is straight).
    pub fn from_code(code: u32) -> PredatorKind {
        if code == 1 {
            PredatorKind::Hunting
        } else {
            PredatorKind::Straight
        }
    }

    /// Lower-case name, as written in scene files.
    pub fn name(self) -> &'static str {
        match self {
            PredatorKind::Straight => "straight",
            PredatorKind::Hunting => "hunting",
        }
    }
}

/// One predator as the backends store it (32 bytes, the WGSL struct `Predator` of
/// `shaders/predators_common.wgsl`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct Predator {
    /// Position (wu), inside the world.
    pub position: [f32; 2],
    /// Velocity (wu/s).
    pub velocity: [f32; 2],
    /// [`PredatorKind::code`].
    pub kind: u32,
    /// Id of the boid a hunting predator steered toward in its last move, or [`NO_TARGET`].
    pub target: u32,
    /// Padding (always 0).
    pub _pad: [u32; 2],
}

impl Predator {
    /// A predator at `position` (wu) moving at `velocity` (wu/s).
    pub fn new(position: Vec2, velocity: Vec2, kind: PredatorKind) -> Predator {
        Predator {
            position: position.into(),
            velocity: velocity.into(),
            kind: kind.code(),
            target: NO_TARGET,
            _pad: [0; 2],
        }
    }

    /// Position (wu).
    pub fn pos(&self) -> Vec2 {
        Vec2::from(self.position)
    }

    /// Velocity (wu/s).
    pub fn vel(&self) -> Vec2 {
        Vec2::from(self.velocity)
    }

    /// Its kind.
    pub fn kind(&self) -> PredatorKind {
        PredatorKind::from_code(self.kind)
    }

    /// Whether it hunts.
    pub fn is_hunting(&self) -> bool {
        self.kind == PredatorKind::Hunting.code()
    }

    /// Whether position and velocity are finite.
    pub fn is_finite(&self) -> bool {
        self.position
            .iter()
            .chain(&self.velocity)
            .all(|x| x.is_finite())
    }
}

/// A predator as a scene file writes it (`[[predators]]`): position, velocity and kind.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PredatorSpec {
    /// Position (wu): exactly two numbers `[x, y]`, inside the world `[0, W) × [0, H)` (checked
    /// when a run is set up: `Scene::check_inside` (`crate::formats::scene`)).
    #[serde(deserialize_with = "crate::model::point::point")]
    pub position: [f32; 2],
    /// Velocity (wu/s), exactly two numbers; `[0, 0]` when not written.
    #[serde(default, deserialize_with = "crate::model::point::point")]
    pub velocity: [f32; 2],
    /// `straight` (the default) or `hunting`.
    #[serde(default)]
    pub kind: PredatorKind,
}

impl PredatorSpec {
    /// The predator it describes.
    pub fn predator(&self) -> Predator {
        Predator::new(
            Vec2::from(self.position),
            Vec2::from(self.velocity),
            self.kind,
        )
    }

    /// The spec of a predator as it is now (its target is not kept).
    pub fn of(p: &Predator) -> PredatorSpec {
        PredatorSpec {
            position: p.position,
            velocity: p.velocity,
            kind: p.kind(),
        }
    }
}

/// The predators' acceleration on a boid at `p` (docs/model.md §18.1, wu/s²): the sum over every
/// predator b_k within `predator_radius` (strictly; minimum image) of
/// `B · e / |e|^1.5`, e = p − b_k, B = `predator_weight`. A predator closer than 1e-4 wu
/// (|e|² ≤ 1e-8 wu²) adds nothing, as coincident boids do in separation. Added to the boid's
/// acceleration as it is (not steered, not bounded by `max_force`). Only the first
/// `u.predator_count` predators act.
#[inline]
pub fn predator_accel(p: Vec2, predators: &[Predator], u: &StepUniforms) -> Vec2 {
    let mut a = Vec2::ZERO;
    for pr in predators.iter().take(u.predator_count as usize) {
        let e = min_image(p - pr.pos(), u);
        let d2 = e.dot(e);
        if d2 < u.predator_r2 && d2 > COINCIDENT_EPS2 {
            let d = d2.sqrt();
            a += e * (u.predator_weight / (d * d.sqrt()));
        }
    }
    a
}

/// Whether a boid at `p` is caught this step: a hunting predator lies within `catch_radius` of
/// it (strictly; minimum image). Never when `catch_radius` is 0.
#[inline]
pub fn caught_by_predator(p: Vec2, predators: &[Predator], u: &StepUniforms) -> bool {
    let mut caught = false;
    for pr in predators.iter().take(u.predator_count as usize) {
        let e = min_image(p - pr.pos(), u);
        if pr.is_hunting() && e.dot(e) < u.catch_r2 {
            caught = true;
        }
    }
    caught
}

/// A caught boid, respawned (docs/model.md §18.4): a position uniform in the world, a heading
/// uniform in [−π, π) and a speed uniform in the model's spawn range
/// ([`crate::model::SimParams::spawn_speeds`]: [min_speed, max_speed) for boids, v0 for Vicsek
/// particles), from the counter-based random numbers of (seed, id, step) on streams
/// [`rng::STREAM_RESPAWN_X`] … [`rng::STREAM_RESPAWN_SPEED`]; its id, hue and hue velocity are
/// kept.
#[inline]
pub fn respawn(me: &Boid, u: &StepUniforms) -> Boid {
    let ux = rng::uniform01(u.seed, me.id, u.step, rng::STREAM_RESPAWN_X);
    let uy = rng::uniform01(u.seed, me.id, u.step, rng::STREAM_RESPAWN_Y);
    let uh = rng::uniform01(u.seed, me.id, u.step, rng::STREAM_RESPAWN_HEADING);
    let us = rng::uniform01(u.seed, me.id, u.step, rng::STREAM_RESPAWN_SPEED);
    let p = Vec2::new(
        (ux * u.world_width).min(u.x_max),
        (uy * u.world_height).min(u.y_max),
    );
    let phi = std::f32::consts::PI * (2.0 * uh - 1.0);
    let speed = u.spawn_speed_min + us * (u.spawn_speed_max - u.spawn_speed_min);
    Boid {
        position: p.into(),
        velocity: [speed * phi.cos(), speed * phi.sin()],
        hue: me.hue,
        hue_velocity: me.hue_velocity,
        id: me.id,
        image: me.image,
    }
}

/// The next state of a boid from its sums (docs/model.md §9): respawned when a hunting predator
/// catches it (its image counts kept: docs/model.md §2.3), else the model's rule
/// ([`crate::model::models::next_state`]) with the predators' acceleration and the image counts
/// of the move ([`crate::model::rules::next_image`]). Returns the new boid and whether it was
/// caught.
#[inline]
pub fn next_boid(
    me: &Boid,
    s: &crate::model::rules::NeighborSums,
    ob: &crate::model::rules::ObstacleSums,
    predators: &[Predator],
    u: &StepUniforms,
    m: &crate::model::models::ModelUniforms,
) -> (Boid, bool) {
    if caught_by_predator(me.pos(), predators, u) {
        return (respawn(me, u), true);
    }
    let pa = predator_accel(me.pos(), predators, u);
    let next = crate::model::models::next_state(me, s, ob, pa, u, m);
    let image = crate::model::rules::next_image(me.image, me.pos(), next.pos(), u);
    (next.with_image(image), false)
}

/// The rows of grid cells a hunting predator in cell row `cy` searches (docs/model.md §18.3):
/// `(first, count)` where the t-th row (t < count) is `(first + t) mod rows` — rows `cy − reach_y`
/// … `cy + reach_y`, wrapped in a wrapping world and clipped otherwise; every row once when the
/// span covers the grid.
#[inline]
pub fn search_rows(cy: u32, grid: &Grid, reach_y: u32) -> (u32, u32) {
    let rows = grid.rows;
    if grid.wrap {
        if 2 * reach_y + 1 >= rows {
            return (0, rows);
        }
        return ((cy + rows - reach_y) % rows, 2 * reach_y + 1);
    }
    let lo = cy.saturating_sub(reach_y);
    let hi = (cy + reach_y).min(rows - 1);
    (lo, hi - lo + 1)
}

/// The column ranges (inclusive, at most two) a predator in cell column `cx` searches in each of
/// its rows: `cx − reach_x … cx + reach_x`, split at the seam in a wrapping world (left part
/// first), clipped otherwise; every column once when the span covers the grid. The second range is
/// `None` when there is one.
#[inline]
pub fn search_cols(cx: u32, grid: &Grid, reach_x: u32) -> [Option<(u32, u32)>; 2] {
    let cols = grid.cols as i64;
    let (lo, hi) = (cx as i64 - reach_x as i64, cx as i64 + reach_x as i64);
    if grid.wrap {
        if 2 * reach_x as i64 + 1 >= cols {
            return [Some((0, cols as u32 - 1)), None];
        }
        if lo < 0 {
            return [
                Some(((cols + lo) as u32, cols as u32 - 1)),
                Some((0, hi as u32)),
            ];
        }
        if hi >= cols {
            return [
                Some((lo as u32, cols as u32 - 1)),
                Some((0, (hi - cols) as u32)),
            ];
        }
        return [Some((lo as u32, hi as u32)), None];
    }
    [Some((lo.max(0) as u32, hi.min(cols - 1) as u32)), None]
}

/// The nearest boid a hunting predator at `p` sees (docs/model.md §18.3): among the first
/// [`SEARCH_CANDIDATES_MAX`] candidates of its search — the sorted items of the real cells of
/// [`search_rows`] × [`search_cols`], row by row, range by range — the boid with the smallest
/// (squared minimum-image distance, id) within `predator_sight_radius` (strictly). Returns its id
/// and offset from the predator (wu). `sorted_pos` holds the sorted items' `[x, y, vx, vy]`,
/// `cells` the cell starts after the scan.
pub fn nearest_boid(
    p: Vec2,
    sorted_pos_vel: &[[f32; 4]],
    sorted_id: &[u32],
    cells: &[u32],
    u: &StepUniforms,
) -> Option<(u32, Vec2)> {
    let grid = u.grid();
    let (cx, cy) = grid.cell_xy(p);
    let (first, count) = search_rows(cy, &grid, u.predator_reach_y);
    let pieces = search_cols(cx, &grid, u.predator_reach_x);
    let mut best: Option<(f32, u32, Vec2)> = None;
    let mut base = 0u64;
    for t in 0..count {
        let row = (first + t) % grid.rows;
        for (c0, c1) in pieces.into_iter().flatten() {
            let a = cells[(row * grid.cols + c0) as usize] as u64;
            let b = cells[(row * grid.cols + c1 + 1) as usize] as u64;
            let end = (b - a).min((SEARCH_CANDIDATES_MAX as u64).saturating_sub(base));
            for j in a..a + end {
                let o = sorted_pos_vel[j as usize];
                let d = min_image(Vec2::new(o[0], o[1]) - p, u);
                let d2 = d.dot(d);
                let id = sorted_id[j as usize];
                if d2 < u.predator_sight_r2
                    && best.is_none_or(|(bd2, bid, _)| d2 < bd2 || (d2 == bd2 && id < bid))
                {
                    best = Some((d2, id, d));
                }
            }
            base += b - a;
        }
    }
    best.map(|(_, id, d)| (id, d))
}

/// A predator after one step (docs/model.md §18.2), given the nearest boid it sees (`target`: its
/// id and offset, for a hunting predator): a hunting predator steers toward it with
/// `clamp_len(normalize(d)·v_pmax − v, F_pmax)` (Reynolds' seek), and its speed is clamped to
/// `predator_max_speed` (it coasts when it sees no boid); a straight one keeps its velocity. Then
/// p' = p + v'·Δt and the boundary rule of the boids (§6.1–§6.3).
#[inline]
pub fn move_predator(pr: &Predator, target: Option<(u32, Vec2)>, u: &StepUniforms) -> Predator {
    let p = pr.pos();
    let mut v = pr.vel();
    let mut target_id = NO_TARGET;
    if pr.is_hunting() {
        if let Some((id, d)) = target {
            target_id = id;
            let l2 = d.dot(d);
            if l2 >= STEER_EPS2 {
                let steer = clamp_len(
                    d * (u.predator_max_speed / l2.sqrt()) - v,
                    u.predator_max_force,
                );
                v += steer * u.dt;
            }
        }
        v = clamp_len(v, u.predator_max_speed);
    }
    let (p_new, v_new) = apply_boundary(p + v * u.dt, v, u);
    Predator {
        position: p_new.into(),
        velocity: v_new.into(),
        kind: pr.kind,
        target: target_id,
        _pad: [0; 2],
    }
}

/// Brings a predator placed outside the world inside it, as the boundary rule would (a scene or
/// a saved world resized since): wrapped in a wrapping world, else clamped.
pub fn place_inside(pr: &Predator, u: &StepUniforms) -> Predator {
    let (p, v) = apply_boundary(pr.pos(), pr.vel(), u);
    let mut p = p;
    p = p.clamp(Vec2::ZERO, Vec2::new(u.x_max, u.y_max));
    Predator {
        position: p.into(),
        velocity: v.into(),
        ..*pr
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Interaction, SimParams};

    fn uniforms(p: &SimParams, predators: usize) -> StepUniforms {
        StepUniforms::new(p, 100, 0, 1, &Interaction::default()).with_predators(predators)
    }

    #[test]
    fn the_push_is_b_over_the_square_root_of_the_distance_away_from_the_predator() {
        let p = SimParams {
            predator_radius: 50.0,
            predator_weight: 400.0,
            ..SimParams::default()
        };
        let u = uniforms(&p, 1);
        let pr = [Predator::new(
            Vec2::new(500.0, 500.0),
            Vec2::ZERO,
            PredatorKind::Straight,
        )];
        let a = predator_accel(Vec2::new(525.0, 500.0), &pr, &u);
        // |a| = B / sqrt(25) = 80, pointing away (+x).
        assert!((a - Vec2::new(80.0, 0.0)).length() < 1e-3, "{a}");
        // Beyond the radius, or coincident: nothing.
        assert_eq!(predator_accel(Vec2::new(551.0, 500.0), &pr, &u), Vec2::ZERO);
        assert_eq!(predator_accel(Vec2::new(500.0, 500.0), &pr, &u), Vec2::ZERO);
    }

    #[test]
    fn search_columns_split_at_the_seam_and_cover_the_row_once() {
        let g = Grid {
            cols: 10,
            rows: 10,
            pad: 1,
            block_x: 1,
            block_y: 1,
            inv_cell_x: 1.0,
            inv_cell_y: 1.0,
            wrap: true,
        };
        assert_eq!(search_cols(1, &g, 3), [Some((8, 9)), Some((0, 4))]);
        assert_eq!(search_cols(8, &g, 3), [Some((5, 9)), Some((0, 1))]);
        assert_eq!(search_cols(5, &g, 3), [Some((2, 8)), None]);
        assert_eq!(search_cols(5, &g, 5), [Some((0, 9)), None]);
        assert_eq!(search_rows(1, &g, 3), (8, 7));
        assert_eq!(search_rows(1, &g, 7), (0, 10));
        let walls = Grid { wrap: false, ..g };
        assert_eq!(search_cols(1, &walls, 3), [Some((0, 4)), None]);
        assert_eq!(search_rows(8, &walls, 3), (5, 5));
    }
}
