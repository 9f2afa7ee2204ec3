//! The Vicsek model (T. Vicsek, A. Czirók, E. Ben-Jacob, I. Cohen, O. Shochet, "Novel type of phase
//! transition in a system of self-driven particles", Phys. Rev. Lett. 75, 1226 (1995);
//! docs/model.md §16): particles at constant speed v0 whose heading becomes, every step, the
//! direction of the summed velocities of all particles within r — itself included — turned by a
//! noise uniform in [−η/2, η/2). The step is the model's unit of time (Δt = 1). Mirrored line for
//! line by `shaders/vicsek.wgsl`.

use glam::Vec2;

use crate::model::rng::uniform_turn;
use crate::model::rules::{apply_boundary, hue_rule, rotate, NeighborSums, ObstacleSums};
use crate::model::rules::{HEADING_EPS2, STEER_EPS2};
use crate::model::state::Boid;
use crate::model::uniforms::StepUniforms;

/// The next state of particle `me` (docs/model.md §16.3). `s.alignment` must hold Σ v_j over the
/// other particles within r (the uniform block sets the alignment radius to r in this model).
pub fn vicsek_integrate(me: &Boid, s: &NeighborSums, ob: &ObstacleSums, u: &StepUniforms) -> Boid {
    let p = me.pos();
    let v = me.vel();
    let v2 = v.dot(v);
    // The particle's own heading: kept when the summed velocities cancel exactly.
    let own = if v2 > HEADING_EPS2 {
        v / v2.sqrt()
    } else {
        Vec2::new(1.0, 0.0)
    };
    let bounce_normal = ob.bounce_normal;
    let mut dir;
    if bounce_normal.dot(bounce_normal) > 0.0 && v.dot(bounce_normal) < 0.0 {
        // Bounce off the obstacle: the heading is reflected about its normal instead.
        dir = own - 2.0 * own.dot(bounce_normal) * bounce_normal;
    } else {
        // The direction of Σ v_j within r, the particle itself included.
        let sum = s.alignment + v;
        let l2 = sum.dot(sum);
        dir = own;
        if l2 > STEER_EPS2 * u.vicsek_speed * u.vicsek_speed {
            dir = sum / l2.sqrt();
        }
    }
    // Noise: a turn uniform in [−η/2, η/2) (stream 6 of the counter-based generator).
    dir = rotate(dir, uniform_turn(u.seed, me.id, u.step, u.vicsek_eta));
    let v_new = dir * u.vicsek_speed;
    // Δt = 1: the new velocity moves the particle (update `new`), or the old one (`old`).
    let moved = if u.vicsek_update == 0 { v_new } else { v };
    let (p_new, v_new) = apply_boundary(p + moved, v_new, u);
    let (h_new, hv) = hue_rule(me, s, u);
    Boid {
        position: p_new.into(),
        velocity: v_new.into(),
        hue: h_new.into(),
        hue_velocity: hv.into(),
        id: me.id,
        _pad: 0,
    }
}
