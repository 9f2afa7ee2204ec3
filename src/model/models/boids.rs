//! Reynolds' boids (C. W. Reynolds, "Flocks, herds and schools: a distributed behavioral model",
//! SIGGRAPH 1987; "Steering Behaviors For Autonomous Characters", GDC 1999; docs/model.md §5–§9):
//! separation, alignment and cohesion as steering forces, walls, obstacles, the pointer and the
//! predators, semi-implicit Euler with the speed clamped into [min_speed, max_speed], rotational
//! diffusion, the boundary, then the hue-vector rule. Mirrored line for line by `shaders/boids.wgsl`.

use glam::Vec2;

use crate::model::models::desc::{
    ModelDesc, ModelGroup, ModelUniforms, OnLoad, PairTerms, Radii, SpeedRule, TimeUnit,
    UniformsDesc, COLOUR, HUNTING, NEIGHBORHOOD, PREDATOR_PUSH, ROTATIONAL_NOISE, STEERING_RADII,
    WALLS, WORLD,
};
use crate::model::param_table::{number, Range};
use crate::model::rng::standard_normal;
use crate::model::rules::{
    apply_boundary, heading, hue_rule, min_image, rotate, steer, wall_force, NeighborSums,
    ObstacleSums, SPEED_EPS2,
};
use crate::model::state::Boid;
use crate::model::uniforms::StepUniforms;

crate::param_group! {
    /// The boids model's own parameters (docs/model.md §3.1, §5): the weights of the three
    /// steering forces, the speed range and the largest steering force.
    pub struct BoidsParams {
        /// Weight of the separation steering force (dimensionless). Range 0 ..= 100.
        separation_weight: f32 = 5.0, key: "separation_weight", symbol: "w_s", unit: "",
            range: number(0.0, 100.0);
        /// Weight of the alignment steering force (dimensionless). Range 0 ..= 100.
        alignment_weight: f32 = 1.2, key: "alignment_weight", symbol: "w_a", unit: "",
            range: number(0.0, 100.0);
        /// Weight of the cohesion steering force (dimensionless). Range 0 ..= 100.
        cohesion_weight: f32 = 0.8, key: "cohesion_weight", symbol: "w_c", unit: "",
            range: number(0.0, 100.0);
        /// Highest speed (wu/s). Range 0.001 ..= 1e5.
        max_speed: f32 = 100.0, key: "max_speed", symbol: "v_max", unit: "wu/s",
            range: number(0.001, 1.0e5);
        /// Lowest speed (wu/s). Range 0 ..= max_speed.
        min_speed: f32 = 40.0, key: "min_speed", symbol: "v_min", unit: "wu/s",
            range: Range::UpTo { min: 0.0, key: "max_speed" };
        /// Largest steering force per rule (wu/s²; Reynolds' max force). Range 0 ..= 1e6.
        max_force: f32 = 150.0, key: "max_force", symbol: "F_max", unit: "wu/s²",
            range: number(0.0, 1.0e6);
    }
}

/// The boids model's entry in the model table.
pub const MODEL: ModelDesc = ModelDesc {
    name: "boids",
    title: "Reynolds' boids: separation, alignment and cohesion as steering forces (Reynolds 1987, 1999)",
    doc: "§5–§9",
    own_params: BoidsParams::OWN_SPECS,
    shared: &[WORLD, NEIGHBORHOOD, STEERING_RADII, COLOUR, WALLS, ROTATIONAL_NOISE, PREDATOR_PUSH, HUNTING],
    speed: SpeedRule {
        unit: "wu/s",
        range_keys: "min_speed, max_speed",
        on_load: OnLoad::Clamp,
        time: TimeUnit::Seconds,
    },
    order_parameter: "polarization",
    radii: Radii::PerRule,
    pair_terms: PairTerms::REYNOLDS,
    next_state,
    wgsl: ("boids.wgsl", include_str!("../../../shaders/boids.wgsl")),
    uniforms: UniformsDesc::of::<BoidsUniforms>("BoidsUniforms"),
};

impl ModelGroup for BoidsParams {
    /// [`BoidsUniforms`].
    fn uniforms(&self, _dt: f32) -> ModelUniforms {
        ModelUniforms::new(&BoidsUniforms {
            separation_weight: self.separation_weight,
            alignment_weight: self.alignment_weight,
            cohesion_weight: self.cohesion_weight,
            min_speed: self.min_speed,
            max_speed: self.max_speed,
            max_force: self.max_force,
        })
    }

    /// Uniform in [min_speed, max_speed].
    fn spawn_speeds(&self) -> (f32, f32) {
        (self.min_speed, self.max_speed)
    }
}

/// The boids model's uniforms: the struct of the same name in `shaders/boids.wgsl`.
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
pub struct BoidsUniforms {
    /// Separation weight.
    pub separation_weight: f32,
    /// Alignment weight.
    pub alignment_weight: f32,
    /// Cohesion weight.
    pub cohesion_weight: f32,
    /// Lowest speed (wu/s).
    pub min_speed: f32,
    /// Highest speed (wu/s).
    pub max_speed: f32,
    /// Largest steering force (wu/s²).
    pub max_force: f32,
}

/// The next state of `me` from its neighbour sums and obstacle sums (docs/model.md §9): steering,
/// walls, pointer, obstacles and the predators' acceleration `predator` (wu/s², from
/// [`crate::model::predators::predator_accel`]), semi-implicit Euler with the speed clamp, noise,
/// boundary, then the hue-vector rule. Returns the new boid (same id).
#[inline]
pub fn next_state(
    me: &Boid,
    s: &NeighborSums,
    ob: &ObstacleSums,
    predator: Vec2,
    u: &StepUniforms,
    m: &ModelUniforms,
) -> Boid {
    let b: &BoidsUniforms = m.get();
    let p = me.pos();
    let v = me.vel();
    let obstacle_push = ob.push;
    let bounce_normal = ob.bounce_normal;
    let steer_to = |target: Vec2| steer(target, v, b.max_speed, b.max_force);

    let mut v_new;
    if bounce_normal.dot(bounce_normal) > 0.0 && v.dot(bounce_normal) < 0.0 {
        // Bounce off the obstacle: reflect about its normal, ignore the other rules this step.
        v_new = v - 2.0 * v.dot(bounce_normal) * bounce_normal;
    } else {
        let mut a = Vec2::ZERO;
        a += b.separation_weight * steer_to(s.separation);
        if s.alignment_n > 0 {
            a += b.alignment_weight * steer_to(s.alignment / s.alignment_n as f32);
        }
        if s.cohesion_n > 0 {
            a += b.cohesion_weight * steer_to(s.cohesion / s.cohesion_n as f32);
        }
        if u.boundary == 1 {
            a += wall_force(p, v, me.id, u);
        }
        a += u.obstacle_weight * steer_to(obstacle_push);
        if u.pointer_radius > 0.0 && u.pointer_weight != 0.0 {
            let d = min_image(Vec2::new(u.pointer_x, u.pointer_y) - p, u);
            if d.dot(d) < u.pointer_radius * u.pointer_radius {
                a += u.pointer_weight.abs() * steer_to(d * u.pointer_weight.signum());
            }
        }
        a += predator;
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
        v_new = heading(v) * b.min_speed;
    } else {
        let speed = speed2.sqrt();
        v_new *= speed.clamp(b.min_speed, b.max_speed) / speed;
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
