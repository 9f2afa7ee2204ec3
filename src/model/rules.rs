//! The rules of one step for one boid (docs/model.md §4–§9), written once and shared by the CPU grid
//! backend, the CPU naive backend and (line for line) `shaders/rules_common.wgsl`.
//!
//! A step for boid i is: gather neighbours into a [`NeighborSums`] with [`accumulate`] (in any
//! neighbour order), then [`integrate`] turns the sums into the next state.
//! All arithmetic is f32, as on the GPU.

use glam::Vec2;

use crate::model::rng::standard_normal;
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
pub fn steer(target: Vec2, v: Vec2, u: &StepUniforms) -> Vec2 {
    let l2 = target.dot(target);
    if l2 < STEER_EPS2 {
        return Vec2::ZERO;
    }
    clamp_len(target * (u.max_speed / l2.sqrt()) - v, u.max_force)
}

/// Adds neighbour `other` at minimum-image offset `d = p_j − p_i` to `s`. Returns `false` once the
/// neighbour cap is reached (stop gathering). The caller skips the boid itself.
///
/// Inside the perception radius the per-rule tests are masks (0 or 1) rather than branches: a
/// neighbour passes some radii and not others unpredictably, and mispredicted branches cost more
/// than the arithmetic. Multiplying by a mask of exactly 1.0 leaves a value unchanged, so the sums
/// equal those of the branching form bit for bit.
#[inline]
pub fn accumulate(s: &mut NeighborSums, d: Vec2, other: &Boid, u: &StepUniforms) -> bool {
    let d2 = d.dot(d);
    if d2 >= u.perception_r2 {
        return true;
    }
    let sep = (d2 < u.separation_r2 && d2 > COINCIDENT_EPS2) as u32 as f32;
    let ali = (d2 < u.alignment_r2) as u32;
    let coh = (d2 < u.cohesion_r2) as u32;
    let hue = (d2 < u.hue_r2) as u32;
    s.separation -= (d / d2.max(COINCIDENT_EPS2)) * sep;
    s.alignment += other.vel() * ali as f32;
    s.alignment_n += ali;
    s.cohesion += d * coh as f32;
    s.cohesion_n += coh;
    s.hue += other.hue_vec() * hue as f32;
    s.hue_velocity += other.hue_vel() * hue as f32;
    s.hue_n += hue;
    s.neighbors += 1;
    u.max_neighbors == 0 || s.neighbors < u.max_neighbors
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

/// The next state of `me` from its neighbour sums (docs/model.md §9): steering, walls, pointer and
/// obstacles, semi-implicit Euler with the speed clamp, noise, boundary, then the hue-vector rule.
/// `obstacles` are points (wu). Returns the new boid (same id).
pub fn integrate(me: &Boid, s: &NeighborSums, obstacles: &[[f32; 2]], u: &StepUniforms) -> Boid {
    let p = me.pos();
    let v = me.vel();

    // Nearest obstacle inside the bounce radius, and the obstacle push (like separation).
    let mut obstacle_push = Vec2::ZERO;
    let mut bounce_normal = Vec2::ZERO;
    let mut bounce_d2 = u.obstacle_bounce_radius * u.obstacle_bounce_radius;
    let obstacle_r2 = u.obstacle_radius * u.obstacle_radius;
    for o in obstacles.iter().take(u.obstacle_count as usize) {
        let d = min_image(p - Vec2::from(*o), u);
        let d2 = d.dot(d);
        if d2 < obstacle_r2 && d2 > COINCIDENT_EPS2 {
            obstacle_push += d / d2;
        }
        if d2 < bounce_d2 && d2 > COINCIDENT_EPS2 {
            bounce_d2 = d2;
            bounce_normal = d / d2.sqrt();
        }
    }

    let mut v_new;
    if bounce_normal.dot(bounce_normal) > 0.0 && v.dot(bounce_normal) < 0.0 {
        // Bounce off the obstacle: reflect about its normal, ignore the other rules this step.
        v_new = v - 2.0 * v.dot(bounce_normal) * bounce_normal;
    } else {
        let mut a = Vec2::ZERO;
        a += u.separation_weight * steer(s.separation, v, u);
        if s.alignment_n > 0 {
            a += u.alignment_weight * steer(s.alignment / s.alignment_n as f32, v, u);
        }
        if s.cohesion_n > 0 {
            a += u.cohesion_weight * steer(s.cohesion / s.cohesion_n as f32, v, u);
        }
        if u.boundary == 1 {
            a += wall_force(p, v, me.id, u);
        }
        a += u.obstacle_weight * steer(obstacle_push, v, u);
        if u.pointer_radius > 0.0 && u.pointer_weight != 0.0 {
            let d = min_image(Vec2::new(u.pointer_x, u.pointer_y) - p, u);
            if d.dot(d) < u.pointer_radius * u.pointer_radius {
                a += u.pointer_weight.abs() * steer(d * u.pointer_weight.signum(), v, u);
            }
        }
        v_new = v + a * u.dt;
    }

    // Rotational diffusion (docs/model.md §7): turn by sqrt(2·D_r·Δt)·ξ, ξ standard normal
    // (Euler–Maruyama).
    if u.heading_sd > 0.0 {
        v_new = rotate(v_new, u.heading_sd * standard_normal(u.seed, me.id, u.step));
    }

    // Speed clamp into [min_speed, max_speed]; a stopped boid keeps its previous heading.
    let speed2 = v_new.dot(v_new);
    if speed2 < SPEED_EPS2 {
        let v2 = v.dot(v);
        let dir = if v2 > HEADING_EPS2 {
            v / v2.sqrt()
        } else {
            Vec2::new(1.0, 0.0)
        };
        v_new = dir * u.min_speed;
    } else {
        let speed = speed2.sqrt();
        v_new *= speed.clamp(u.min_speed, u.max_speed) / speed;
    }

    let (p_new, v_new) = apply_boundary(p + v_new * u.dt, v_new, u);

    // Hue vector (docs/model.md §8): colour cohesion and colour alignment, no colour separation.
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

    Boid {
        position: p_new.into(),
        velocity: v_new.into(),
        hue: h_new.into(),
        hue_velocity: hv.into(),
        id: me.id,
        _pad: 0,
    }
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
