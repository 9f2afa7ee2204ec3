//! The boids model's rule ([`next_state`](crate::model::models::boids::next_state)) for 8 boids
//! at once: the same operations on each lane in the same order (IEEE single precision, no fused
//! multiply-add; `if` as a select of both branches), so each lane is bit for bit the scalar
//! `integrate` of its boid — the CPU backend's `rules` stage uses it for whole groups of 8 sorted
//! items, and `tests/it/cpu_integrate_simd.rs` holds it to the scalar function on random and extreme
//! inputs in every boundary mode.
//!
//! The steering of docs/model.md §5 (four Reynolds steers, each a square root and two divisions),
//! the speed clamp and the hue rule of §8 are computed on the lanes, where a compiler turns them
//! into vector instructions: they are most of a step's divisions and square roots. The parts that
//! are cheap or branchy — wall steering (§6.2), rotational diffusion (§7), the boundary (§6) —
//! call the scalar model functions lane by lane, so they are the model's own code. When the
//! pointer tool is active, with predators, or in another model ([`lanes_apply`] is false) the
//! scalar step serves every boid.

use std::ops::{Add, Div, Mul, Sub};

use glam::Vec2;

use crate::cpu::gather_simd::SumsLanes;
use crate::model::models::boids::BoidsUniforms;
use crate::model::models::ModelUniforms;
use crate::model::rng::standard_normal;
use crate::model::rules::{
    apply_boundary, rotate, wall_force, ObstacleSums, HEADING_EPS2, SPEED_EPS2, STEER_EPS2,
};
use crate::model::uniforms::StepUniforms;

/// Boids per group.
pub const LANES: usize = 8;

/// Whether [`integrate_lanes`] computes the step of `u`: the boids model (docs/model.md §9; the
/// Vicsek and fish-school models integrate one boid at a time after the same vectorised gather)
/// without the pointer tool or predators (docs/model.md §18: with predators every boid takes the
/// scalar path).
pub fn lanes_apply(u: &StepUniforms) -> bool {
    u.model == crate::model::Model::BOIDS.code()
        && !(u.pointer_radius > 0.0 && u.pointer_weight != 0.0)
        && u.predator_count == 0
}

/// 8 floats, one per boid.
#[derive(Clone, Copy, Debug)]
struct F([f32; LANES]);

/// 8 conditions.
#[derive(Clone, Copy, Debug)]
struct M([bool; LANES]);

/// `F` from `f(i)` for each lane (a plain loop: the compiler vectorises it, and inlines it where
/// `std::array::from_fn`'s closures may stay calls).
macro_rules! lanes {
    (|$i:ident| $e:expr) => {{
        let mut out = [Default::default(); LANES];
        for $i in 0..LANES {
            out[$i] = $e;
        }
        out
    }};
}

impl F {
    #[inline(always)]
    fn splat(x: f32) -> F {
        F([x; LANES])
    }
    #[inline(always)]
    fn sqrt(self) -> F {
        F(lanes!(|i| self.0[i].sqrt()))
    }
    #[inline(always)]
    fn lt(self, o: F) -> M {
        M(lanes!(|i| self.0[i] < o.0[i]))
    }
    #[inline(always)]
    fn gt(self, o: F) -> M {
        M(lanes!(|i| self.0[i] > o.0[i]))
    }
    /// `f32::clamp`: below `lo` → `lo`, then above `hi` → `hi`.
    #[inline(always)]
    fn clamp(self, lo: f32, hi: f32) -> F {
        F(lanes!(|i| {
            let mut x = self.0[i];
            if x < lo {
                x = lo;
            }
            if x > hi {
                x = hi;
            }
            x
        }))
    }
}

impl M {
    #[inline(always)]
    fn and(self, o: M) -> M {
        M(lanes!(|i| self.0[i] & o.0[i]))
    }
    /// `if self { a } else { b }`, lane by lane.
    #[inline(always)]
    fn select(self, a: F, b: F) -> F {
        F(lanes!(|i| if self.0[i] { a.0[i] } else { b.0[i] }))
    }
    #[inline(always)]
    fn select2(self, a: V, b: V) -> V {
        V {
            x: self.select(a.x, b.x),
            y: self.select(a.y, b.y),
        }
    }
}

macro_rules! lane_op {
    ($tr:ident, $f:ident, $op:tt) => {
        impl $tr for F {
            type Output = F;
            #[inline(always)]
            fn $f(self, o: F) -> F {
                F(lanes!(|i| self.0[i] $op o.0[i]))
            }
        }
    };
}
lane_op!(Add, add, +);
lane_op!(Sub, sub, -);
lane_op!(Mul, mul, *);
lane_op!(Div, div, /);

/// 8 `Vec2`s, with glam's component-wise semantics.
#[derive(Clone, Copy, Debug)]
struct V {
    x: F,
    y: F,
}

impl V {
    #[inline(always)]
    fn splat(x: f32, y: f32) -> V {
        V {
            x: F::splat(x),
            y: F::splat(y),
        }
    }
    /// `Vec2::dot`: `(x·x') + (y·y')`.
    #[inline(always)]
    fn dot(self, o: V) -> F {
        self.x * o.x + self.y * o.y
    }
    /// `Vec2 * f32` (and `f32 * Vec2`).
    #[inline(always)]
    fn scale(self, k: F) -> V {
        V {
            x: self.x * k,
            y: self.y * k,
        }
    }
    /// `Vec2 / f32`.
    #[inline(always)]
    fn div(self, k: F) -> V {
        V {
            x: self.x / k,
            y: self.y / k,
        }
    }
    #[inline(always)]
    fn add(self, o: V) -> V {
        V {
            x: self.x + o.x,
            y: self.y + o.y,
        }
    }
    #[inline(always)]
    fn sub(self, o: V) -> V {
        V {
            x: self.x - o.x,
            y: self.y - o.y,
        }
    }
    #[inline(always)]
    fn lane(self, i: usize) -> Vec2 {
        Vec2::new(self.x.0[i], self.y.0[i])
    }
    #[inline(always)]
    fn set_lane(&mut self, i: usize, v: Vec2) {
        self.x.0[i] = v.x;
        self.y.0[i] = v.y;
    }
}

/// `clamp_len` lane by lane.
#[inline(always)]
fn clamp_len(v: V, max: f32) -> V {
    let l2 = v.dot(v);
    let over = l2.gt(F::splat(max * max));
    over.select2(v.scale(F::splat(max) / l2.sqrt()), v)
}

/// `steer` lane by lane.
#[inline(always)]
fn steer(target: V, v: V, b: &BoidsUniforms) -> V {
    let l2 = target.dot(target);
    let zero = l2.lt(F::splat(STEER_EPS2));
    let s = clamp_len(
        target.scale(F::splat(b.max_speed) / l2.sqrt()).sub(v),
        b.max_force,
    );
    zero.select2(V::splat(0.0, 0.0), s)
}

/// The next state of 8 boids (`[x, y, vx, vy]`, `[hx, hy, ux, uy]` and id each) from their
/// neighbour sums `s` and obstacle sums `ob` (`None`: no obstacle near any of them, the sums of
/// [`ObstacleSums::empty`]), written to `out` (`[x, y, vx, vy]`, `[hx, hy, ux, uy]`): lane `i` is
/// the boids model's `next_state` of boid `i` bit for bit, where [`lanes_apply`] holds (the pointer tool inactive;
/// with it active the pointer's steering is left out — callers use the scalar `integrate` then).
///
/// # Panics
/// If an output slice does not hold 8 entries.
// The state, sums and both uniform blocks of one group, as the scalar rule takes them.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub fn integrate_lanes(
    pos_vel: &[[f32; 4]; LANES],
    hue: &[[f32; 4]; LANES],
    id: &[u32; LANES],
    s: &SumsLanes,
    ob: Option<&[ObstacleSums; LANES]>,
    u: &StepUniforms,
    m: &ModelUniforms,
    out: (&mut [[f32; 4]], &mut [[f32; 4]]),
) {
    let p = V {
        x: F(lanes!(|i| pos_vel[i][0])),
        y: F(lanes!(|i| pos_vel[i][1])),
    };
    let v = V {
        x: F(lanes!(|i| pos_vel[i][2])),
        y: F(lanes!(|i| pos_vel[i][3])),
    };
    let b: &BoidsUniforms = m.get();
    let sum = |k: usize| F(s.f[k]);
    let count = |k: usize| F(lanes!(|i| s.n[k][i] as f32));
    let zero = F::splat(0.0);

    // Steering (docs/model.md §5).
    let sep = V {
        x: sum(0),
        y: sum(1),
    };
    let mut a = V::splat(0.0, 0.0).add(steer(sep, v, b).scale(F::splat(b.separation_weight)));
    let ali_n = count(1);
    let ali = V {
        x: sum(2),
        y: sum(3),
    };
    let with = a.add(steer(ali.div(ali_n), v, b).scale(F::splat(b.alignment_weight)));
    a = ali_n.gt(zero).select2(with, a);
    let coh_n = count(2);
    let coh = V {
        x: sum(4),
        y: sum(5),
    };
    let with = a.add(steer(coh.div(coh_n), v, b).scale(F::splat(b.cohesion_weight)));
    a = coh_n.gt(zero).select2(with, a);
    if u.boundary == 1 {
        let mut w = V::splat(0.0, 0.0);
        for (i, &b) in id.iter().enumerate() {
            w.set_lane(i, wall_force(p.lane(i), v.lane(i), b, u));
        }
        a = a.add(w);
    }
    let mut v_new = match ob {
        Some(ob) => {
            let push = V {
                x: F(lanes!(|i| ob[i].push.x)),
                y: F(lanes!(|i| ob[i].push.y)),
            };
            let normal = V {
                x: F(lanes!(|i| ob[i].bounce_normal.x)),
                y: F(lanes!(|i| ob[i].bounce_normal.y)),
            };
            a = a.add(steer(push, v, b).scale(F::splat(u.obstacle_weight)));
            // Bounce off an obstacle: reflect about its normal (the other rules left out).
            let vn_dot = v.dot(normal);
            let bounce = normal.dot(normal).gt(zero).and(vn_dot.lt(zero));
            let reflected = v.sub(normal.scale(F::splat(2.0) * vn_dot));
            bounce.select2(reflected, v.add(a.scale(F::splat(u.dt))))
        }
        None => {
            // The steer of a zero push is zero: `a + obstacle_weight · 0`, and no bounce.
            let none = F::splat(u.obstacle_weight * 0.0);
            a = a.add(V { x: none, y: none });
            v.add(a.scale(F::splat(u.dt)))
        }
    };

    // Rotational diffusion (docs/model.md §7), lane by lane.
    if u.heading_sd > 0.0 {
        for (i, &b) in id.iter().enumerate() {
            let turned = rotate(
                v_new.lane(i),
                u.heading_sd * standard_normal(u.seed, b, u.step),
            );
            v_new.set_lane(i, turned);
        }
    }

    // Speed clamp; a stopped boid keeps its previous heading.
    let speed2 = v_new.dot(v_new);
    let v2 = v.dot(v);
    let dir = v2
        .gt(F::splat(HEADING_EPS2))
        .select2(v.div(v2.sqrt()), V::splat(1.0, 0.0));
    let stopped = dir.scale(F::splat(b.min_speed));
    let speed = speed2.sqrt();
    let moving = v_new.scale(speed.clamp(b.min_speed, b.max_speed) / speed);
    let v_new = speed2.lt(F::splat(SPEED_EPS2)).select2(stopped, moving);
    let p_next = p.add(v_new.scale(F::splat(u.dt)));

    // Hue vector (docs/model.md §8).
    let h = V {
        x: F(lanes!(|i| hue[i][0])),
        y: F(lanes!(|i| hue[i][1])),
    };
    let hv0 = V {
        x: F(lanes!(|i| hue[i][2])),
        y: F(lanes!(|i| hue[i][3])),
    };
    let hue_n = count(3);
    let hue_sum = V {
        x: sum(6),
        y: sum(7),
    };
    let hue_vel_sum = V {
        x: sum(8),
        y: sum(9),
    };
    let c = hue_sum.div(hue_n).sub(h);
    let k = hue_vel_sum.div(hue_n).sub(hv0);
    let pulled = hv0.add(
        c.scale(F::splat(u.hue_cohesion_weight))
            .add(k.scale(F::splat(u.hue_alignment_weight)))
            .scale(F::splat(u.dt)),
    );
    let hv = clamp_len(hue_n.gt(zero).select2(pulled, hv0), u.max_hue_speed);
    let h2 = h.add(hv.scale(F::splat(u.dt)));
    let l2 = h2.dot(h2);
    let h_new = l2.gt(F::splat(STEER_EPS2)).select2(h2.div(l2.sqrt()), h);

    let (out_pv, out_hue) = out;
    let (p_out, v_out) = if u.boundary == 0 {
        (wrap(p_next, u), v_new)
    } else {
        let (mut p_out, mut v_out) = (p_next, v_new);
        for i in 0..LANES {
            let (pb, vb) = apply_boundary(p_next.lane(i), v_new.lane(i), u);
            p_out.set_lane(i, pb);
            v_out.set_lane(i, vb);
        }
        (p_out, v_out)
    };
    for i in 0..LANES {
        out_pv[i] = [p_out.x.0[i], p_out.y.0[i], v_out.x.0[i], v_out.y.0[i]];
        out_hue[i] = [h_new.x.0[i], h_new.y.0[i], hv.x.0[i], hv.y.0[i]];
    }
}

/// `apply_boundary` of a wrapping world (its `boundary == 0` branch, which leaves the velocity
/// as it is) lane by lane: the position brought into `[0, W) × [0, H)`.
#[inline(always)]
fn wrap(p: V, u: &StepUniforms) -> V {
    let axis = |x: F, inv: f32, len: f32| {
        let floor = F(lanes!(|i| (x.0[i] * inv).floor()));
        let x = x - floor * F::splat(len);
        // Rounding can land exactly on the length (or a hair below 0): that is the seam, 0.
        let inside = M(lanes!(|i| x.0[i] < len && x.0[i] >= 0.0));
        inside.select(x, F::splat(0.0))
    };
    V {
        x: axis(p.x, u.inv_world_width, u.world_width),
        y: axis(p.y, u.inv_world_height, u.world_height),
    }
}
