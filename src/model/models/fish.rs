//! The fish-school model of the wiki page "Grupo - BOIDS" of the Física Computacional course of
//! UFRGS (fiscomp.if.ufrgs.br; Á. Essinger and P. Widniczck, 2018) and its C program
//! (docs/model.md §17): per-step velocity increments — weighted alignment
//! v ← (1 − M)·v + M·mean(v_j), a spring toward the neighbours' centre (itself included, divided by
//! the box side L), separation ∝ d/|d|² (divided by L), a Gaussian barrier near the edges, and
//! slowing of fish in crowds — then the move p ← p + v·Δt. Mirrored line for line by
//! `shaders/fish.wgsl`.

use glam::Vec2;

use crate::model::models::desc::{
    ModelDesc, ModelGroup, ModelUniforms, OnLoad, PairTerms, Radii, SpeedRule, TimeUnit,
    UniformsDesc, COLOUR, HUNTING, NEIGHBORHOOD, PREDATOR_PUSH, ROTATIONAL_NOISE, STEERING_RADII,
    WORLD,
};
use crate::model::param_table::number;
use crate::model::rng::standard_normal;
use crate::model::rules::{apply_boundary, hue_rule, rotate, NeighborSums, ObstacleSums};
use crate::model::state::Boid;
use crate::model::uniforms::StepUniforms;

crate::param_group! {
    /// The fish-school model's own parameters (docs/model.md §17), the page's symbols.
    pub struct FishParams {
        /// Alignment weight M (the page's "mean term"): v ← (1 − M)·v + M·mean(v_j) per step
        /// (docs/model.md §17). Range 0 ..= 1.
        alignment: f32 = 0.15, key: "fish_alignment", symbol: "M", unit: "",
            range: number(0.0, 1.0);
        /// Cohesion constant C: v += (C/L)·(centre − p) per step (docs/model.md §17).
        /// Range 0 ..= 100.
        cohesion: f32 = 0.05, key: "fish_cohesion", symbol: "C", unit: "",
            range: number(0.0, 100.0);
        /// Separation constant S: v += (S/L)·Σ d/|d|² per step (docs/model.md §17).
        /// Range 0 ..= 100.
        separation: f32 = 0.3, key: "fish_separation", symbol: "S", unit: "",
            range: number(0.0, 100.0);
        /// Amplitude a of the edge barrier (wu/s added per step at an edge; docs/model.md §17.3).
        /// 0 = no barrier. Range 0 ..= 1000.
        barrier: f32 = 0.01, key: "fish_barrier", symbol: "a", unit: "wu/s",
            range: number(0.0, 1.0e3);
        /// Width E of the edge barrier's Gaussian (wu). Range 0.01 ..= 1e5.
        barrier_width: f32 = 10.0, key: "fish_barrier_width", symbol: "E", unit: "wu",
            range: number(0.01, 1.0e5);
        /// A fish in a crowd is slowed only while faster than this (wu/s; the program's 0.5·ini;
        /// docs/model.md §17.4). Range 0 ..= 1e5.
        slow_speed: f32 = 1.0, key: "fish_slow_speed", symbol: "v_slow", unit: "wu/s",
            range: number(0.0, 1.0e5);
        /// Largest speed of a new fish (wu/s): a fish of the initial school, added by the app or
        /// respawned after a catch moves at a speed uniform in [0, fish_spawn_speed] (the
        /// program draws each component in [−2, 2]: 2√2; docs/model.md §17.6). Range 0 ..= 1e5.
        spawn_speed: f32 = 2.828427, key: "fish_spawn_speed", symbol: "v_spawn", unit: "wu/s",
            range: number(0.0, 1.0e5);
    }
}

/// The fish-school model's entry in the model table.
pub const MODEL: ModelDesc = ModelDesc {
    name: "fish",
    title: "the fish school of the UFRGS course page: weighted alignment, spring cohesion, d/|d|² separation, an edge barrier, slowing in crowds",
    doc: "§17",
    own_params: FishParams::OWN_SPECS,
    shared: &[WORLD, NEIGHBORHOOD, STEERING_RADII, COLOUR, ROTATIONAL_NOISE, PREDATOR_PUSH, HUNTING],
    speed: SpeedRule {
        unit: "wu/s",
        range_keys: "fish_spawn_speed",
        on_load: OnLoad::Keep,
        time: TimeUnit::Seconds,
    },
    order_parameter: "polarization",
    radii: Radii::PerRule,
    pair_terms: PairTerms::REYNOLDS,
    next_state,
    wgsl: ("fish.wgsl", include_str!("../../../shaders/fish.wgsl")),
    uniforms: UniformsDesc::of::<FishUniforms>("FishUniforms"),
};

impl ModelGroup for FishParams {
    /// [`FishUniforms`] (1/E computed once here).
    fn uniforms(&self, _dt: f32) -> ModelUniforms {
        ModelUniforms::new(&FishUniforms {
            alignment: self.alignment,
            cohesion: self.cohesion,
            separation: self.separation,
            barrier: self.barrier,
            inv_barrier_width: 1.0 / self.barrier_width,
            slow_speed: self.slow_speed,
        })
    }

    /// Uniform in [0, fish_spawn_speed].
    fn spawn_speeds(&self) -> (f32, f32) {
        (0.0, self.spawn_speed)
    }
}

/// The fish-school model's uniforms: the struct of the same name in `shaders/fish.wgsl`.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    encase::ShaderType,
    bytemuck::Pod,
    bytemuck::Zeroable,
    serde::Serialize,
    serde::Deserialize,
)]
#[repr(C)]
#[serde(deny_unknown_fields)]
pub struct FishUniforms {
    /// Alignment weight M.
    pub alignment: f32,
    /// Cohesion constant C.
    pub cohesion: f32,
    /// Separation constant S.
    pub separation: f32,
    /// Barrier amplitude a (wu/s per step).
    pub barrier: f32,
    /// 1 / E (1/wu).
    pub inv_barrier_width: f32,
    /// Speed above which a fish in a crowd is slowed (wu/s).
    pub slow_speed: f32,
}

/// The inward velocity increment of the edge barrier at `p` (wu/s per step; docs/model.md §17.3):
/// a·exp(−(x/E)²) away from the edge x = 0 and a·exp(−((W − x)/E)²) away from x = W, the same in y;
/// all four terms summed everywhere.
#[inline]
pub fn fish_barrier(p: Vec2, f: &FishUniforms, u: &StepUniforms) -> Vec2 {
    let k = f.inv_barrier_width;
    let g = |d: f32| {
        let q = d * k;
        (-(q * q)).exp()
    };
    let a = f.barrier;
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
pub fn next_state(
    me: &Boid,
    s: &NeighborSums,
    ob: &ObstacleSums,
    predator: Vec2,
    u: &StepUniforms,
    m: &ModelUniforms,
) -> Boid {
    let f: &FishUniforms = m.get();
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
            v_new = (1.0 - f.alignment) * v_new + f.alignment * mean;
        }
        // Cohesion: a spring toward the centre of the fish within R, itself included, over L.
        if s.cohesion_n > 0 {
            let to_centre = s.cohesion / (s.cohesion_n + 1) as f32;
            v_new += (f.cohesion * u.inv_world_width) * to_centre;
        }
        // Separation: S/L · Σ (p_i − p_j)/|p_i − p_j|² within r_s.
        v_new += (f.separation * u.inv_world_width) * s.separation;
        // The edge barrier.
        v_new += fish_barrier(p, f, u);
        // The predators' push (an acceleration, wu/s²), over the move's Δt (docs/model.md §18).
        v_new += predator * u.dt;
        // Slowing in a crowd, while faster than the slow speed.
        if v_new.dot(v_new) > f.slow_speed * f.slow_speed {
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
        image: me.image,
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
