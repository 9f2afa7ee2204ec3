//! The fish-school model of the computational-physics course page on flocking and fish schools
//! and its C program (docs/model.md §17): per-step velocity increments — weighted alignment
//! v ← (1 − M)·v + M·mean(v_j), a spring toward the neighbours' centre (itself included, divided by
//! the box side L), separation ∝ d/|d|² (divided by L), a Gaussian barrier near the edges, and
//! slowing of fish in crowds — then the move p ← p + v·Δt. Mirrored line for line by
//! `shaders/fish.wgsl`.

use glam::Vec2;

use crate::model::rng::standard_normal;
use crate::model::rules::{apply_boundary, hue_rule, rotate, NeighborSums, ObstacleSums};
use crate::model::state::Boid;
use crate::model::uniforms::StepUniforms;

/// The inward velocity increment of the edge barrier at `p` (wu/s per step; docs/model.md §17.3):
/// a·exp(−(x/E)²) away from the edge x = 0 and a·exp(−((W − x)/E)²) away from x = W, the same in y;
/// all four terms summed everywhere.
#[inline]
pub fn fish_barrier(p: Vec2, u: &StepUniforms) -> Vec2 {
    let k = u.fish_inv_barrier_width;
    let g = |d: f32| {
        let q = d * k;
        (-(q * q)).exp()
    };
    let a = u.fish_barrier;
    Vec2::new(
        a * (g(p.x) - g(u.world_width - p.x)),
        a * (g(p.y) - g(u.world_height - p.y)),
    )
}

/// The factor that slows a fish with `crowd` = n_c + n_a (its cohesion count, itself included,
/// plus its alignment count) among `n` fish: the program's bands (docs/model.md §17.4). Exact
/// integer comparisons, so both backends choose the same band.
#[inline]
pub fn fish_slowing(crowd: u32, n: u32) -> f32 {
    let (c10, n) = (crowd as u64 * 10, n as u64);
    if c10 > 5 * n {
        0.85
    } else if c10 > 4 * n {
        0.90
    } else if c10 > 3 * n {
        0.93
    } else if c10 > 2 * n {
        0.97
    } else {
        1.0
    }
}

/// The next state of fish `me` (docs/model.md §17.5).
pub fn fish_integrate(
    me: &Boid,
    s: &NeighborSums,
    ob: &ObstacleSums,
    predator: Vec2,
    u: &StepUniforms,
) -> Boid {
    let p = me.pos();
    let v = me.vel();
    let bounce_normal = ob.bounce_normal;
    let mut v_new = v;
    if bounce_normal.dot(bounce_normal) > 0.0 && v.dot(bounce_normal) < 0.0 {
        // Bounce off the obstacle: reflect about its normal, no other increment this step.
        v_new = v - 2.0 * v.dot(bounce_normal) * bounce_normal;
    } else {
        // Alignment: a weighted mean with the neighbours' mean velocity, with more than one.
        if s.alignment_n > 1 {
            let mean = s.alignment / s.alignment_n as f32;
            v_new = (1.0 - u.fish_alignment) * v_new + u.fish_alignment * mean;
        }
        // Cohesion: a spring toward the centre of the fish within R, itself included, over L.
        if s.cohesion_n > 0 {
            let to_centre = s.cohesion / (s.cohesion_n + 1) as f32;
            v_new += (u.fish_cohesion * u.inv_world_width) * to_centre;
        }
        // Separation: S/L · Σ (p_i − p_j)/|p_i − p_j|² within r_s.
        v_new += (u.fish_separation * u.inv_world_width) * s.separation;
        // The edge barrier.
        v_new += fish_barrier(p, u);
        // The predators' push (an acceleration, wu/s²), over the move's Δt (docs/model.md §18).
        v_new += predator * u.dt;
        // Slowing in a crowd, while faster than the slow speed.
        if v_new.dot(v_new) > u.fish_slow_speed * u.fish_slow_speed {
            v_new *= fish_slowing(s.cohesion_n + 1 + s.alignment_n, u.boid_count);
        }
    }
    // Noise: rotational diffusion as in the boids model (docs/model.md §7).
    if u.heading_sd > 0.0 {
        v_new = rotate(v_new, u.heading_sd * standard_normal(u.seed, me.id, u.step));
    }
    let (p_new, v_new) = apply_boundary(p + v_new * u.dt, v_new, u);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slowing_bands_follow_the_program() {
        // n = 500: bands above 100, 150, 200 and 250 of cont + kont.
        assert_eq!(fish_slowing(100, 500), 1.0);
        assert_eq!(fish_slowing(101, 500), 0.97);
        assert_eq!(fish_slowing(151, 500), 0.93);
        assert_eq!(fish_slowing(201, 500), 0.90);
        assert_eq!(fish_slowing(250, 500), 0.90);
        assert_eq!(fish_slowing(251, 500), 0.85);
    }
}
