//! The zonal model of Couzin, Krause, James, Ruxton & Franks ("Collective memory and spatial
//! sorting in animal groups", J. theor. Biol. 218, 1 (2002); docs/model.md §21), in its 2D form:
//! each animal moves at a constant speed s and turns, at most θ·Δt a step, toward a desired
//! direction — away from the neighbours in its zone of repulsion (radius r_r) when there are any,
//! else toward the mean heading of those in its zone of orientation (r_r … r_r + Δr_o) and the
//! directions of those in its zone of attraction (… + Δr_a) — turned by a Gaussian error of
//! standard deviation σ. The field of perception α is the shared `view_angle` (the paper's 270°:
//! a blind zone of 360° − α behind the animal). Its neighbour sums are declared pair terms (unit
//! vectors over nested annuli). Mirrored line for line by `shaders/couzin.wgsl`.

use glam::Vec2;

use crate::model::error::ParamError;
use crate::model::models::desc::{
    Band, ModelDesc, ModelGroup, ModelUniforms, OnLoad, PairTerms, PairWeight, Radii, SpeedRule,
    TimeUnit, UniformsDesc, COLOUR, HUNTING, NEIGHBORHOOD, WORLD,
};
use crate::model::param_table::number;
use crate::model::rng::standard_normal;
use crate::model::rules::{apply_boundary, hue_rule, rotate, NeighborSums, ObstacleSums};
use crate::model::rules::{heading, STEER_EPS2};
use crate::model::state::Boid;
use crate::model::uniforms::StepUniforms;

crate::param_group! {
    /// Couzin's zonal model's own parameters (docs/model.md §21), the paper's symbols.
    pub struct CouzinParams {
        /// Radius r_r of the zone of repulsion (wu): a neighbour nearer than r_r makes the
        /// animal turn away from it, overriding orientation and attraction. Range 0.001 ..= 1e4.
        repulsion_radius: f32 = 1.0, key: "couzin_repulsion_radius", symbol: "r_r", unit: "wu",
            range: number(0.001, 1.0e4);
        /// Width Δr_o of the zone of orientation (wu): neighbours from r_r to r_r + Δr_o are
        /// aligned with. Range 0 ..= 1e4.
        orientation_width: f32 = 6.0, key: "couzin_orientation_width", symbol: "Δr_o",
            unit: "wu", range: number(0.0, 1.0e4);
        /// Width Δr_a of the zone of attraction (wu): neighbours from r_r + Δr_o to
        /// r_r + Δr_o + Δr_a are moved toward. Range 0 ..= 1e4.
        attraction_width: f32 = 12.0, key: "couzin_attraction_width", symbol: "Δr_a",
            unit: "wu", range: number(0.0, 1.0e4);
        /// Largest turning rate θ (rad/s): a step turns the heading by at most θ·Δt. The paper's
        /// 40°/s. Range 0 ..= 1000.
        turn_rate: f32 = 0.6981317, key: "couzin_turn_rate", symbol: "θ", unit: "rad/s",
            range: number(0.0, 1.0e3);
        /// Speed s (wu/s), the same for every animal at every step. Range 1e-6 ..= 1e5.
        speed: f32 = 3.0, key: "couzin_speed", symbol: "s", unit: "wu/s",
            range: number(1.0e-6, 1.0e5);
        /// Standard deviation σ of the Gaussian error turning the desired direction each step
        /// (rad). Range 0 ..= 2π.
        noise: f32 = 0.05, key: "couzin_noise", symbol: "σ", unit: "rad",
            range: number(0.0, std::f64::consts::TAU);
    }
}

/// Couzin's zonal model's entry in the model table.
pub const MODEL: ModelDesc = ModelDesc {
    name: "couzin",
    title: "Couzin's zones: repulsion first, else orientation and attraction, a blind zone, a largest turning rate (Couzin et al. 2002)",
    doc: "§21",
    own_params: CouzinParams::OWN_SPECS,
    shared: &[WORLD, NEIGHBORHOOD, COLOUR, HUNTING],
    speed: SpeedRule {
        unit: "wu/s",
        range_keys: "couzin_speed",
        on_load: OnLoad::Constant,
        time: TimeUnit::Seconds,
    },
    order_parameter: "polarization",
    radii: Radii::Own,
    // d_r = −Σ d/|d| within r_r; Σ v_j over the zone of orientation; d_a = Σ d/|d| over the zone
    // of attraction.
    pair_terms: PairTerms {
        separation: PairWeight::Unit,
        alignment: Band::Annulus,
        cohesion: PairWeight::Unit,
        cohesion_band: Band::Annulus,
    },
    next_state,
    wgsl: ("couzin.wgsl", include_str!("../../../shaders/couzin.wgsl")),
    uniforms: UniformsDesc::of::<CouzinUniforms>("CouzinUniforms"),
};

/// Couzin's zonal model's uniforms: the struct of the same name in `shaders/couzin.wgsl`.
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
pub struct CouzinUniforms {
    /// Speed s (wu/s).
    pub speed: f32,
    /// Standard deviation σ of the error (rad).
    pub noise: f32,
    /// cos(θ·Δt) of the largest turn a step ([`turn_limit`]); −1 when θ·Δt ≥ π (no limit).
    pub turn_cos: f32,
    /// sin(θ·Δt), 0 when θ·Δt ≥ π.
    pub turn_sin: f32,
}

/// cos and sin of the largest turn of a step, θ·Δt (rad), computed in f64 and rounded once, so
/// both backends turn by the same rotation; θ·Δt ≥ π is no limit (cos −1, sin 0).
pub fn turn_limit(turn_rate: f32, dt: f32) -> (f32, f32) {
    let a = turn_rate as f64 * dt as f64;
    if a >= std::f64::consts::PI {
        (-1.0, 0.0)
    } else {
        (a.cos() as f32, a.sin() as f32)
    }
}

impl ModelGroup for CouzinParams {
    /// [`CouzinUniforms`], the largest turn of a step of `dt` as its cosine and sine.
    fn uniforms(&self, dt: f32) -> ModelUniforms {
        let (turn_cos, turn_sin) = turn_limit(self.turn_rate, dt);
        ModelUniforms::new(&CouzinUniforms {
            speed: self.speed,
            noise: self.noise,
            turn_cos,
            turn_sin,
        })
    }

    /// Every animal moves at s.
    fn spawn_speeds(&self) -> (f32, f32) {
        (self.speed, self.speed)
    }

    /// The zones' outer radii: r_r, r_r + Δr_o, r_r + Δr_o + Δr_a (docs/model.md §21.1).
    fn rule_radii(&self) -> Option<[(&'static str, f32); 3]> {
        let r_o = self.repulsion_radius + self.orientation_width;
        Some([
            ("couzin_repulsion_radius", self.repulsion_radius),
            ("couzin_repulsion_radius + couzin_orientation_width", r_o),
            (
                "couzin_repulsion_radius + couzin_orientation_width + couzin_attraction_width",
                r_o + self.attraction_width,
            ),
        ])
    }

    /// The table's ranges suffice: every zone may be empty but repulsion's.
    fn validate(&self) -> Result<(), ParamError> {
        Ok(())
    }
}

/// The number of neighbours in the zone of repulsion: those of the neighbourhood (within the
/// outermost zone, in view) in neither the zone of orientation nor that of attraction — the zones
/// part the disc, so no sum of its own is needed (a coincident neighbour, which has no direction
/// to turn from, counts here too).
#[inline]
pub fn repulsion_count(s: &NeighborSums) -> u32 {
    s.neighbors - s.alignment_n - s.cohesion_n
}

/// The next state of animal `me` (docs/model.md §21.2). `s` holds the model's pair terms: in
/// `separation` −Σ d/|d| over the zone of repulsion, in `alignment` Σ v_j over the zone of
/// orientation, in `cohesion` Σ d/|d| over the zone of attraction (others only, in view).
/// Predators do not push the animals (`_predator`), and the obstacles' push does not apply; an
/// animal heading into an obstacle point within the bounce radius desires the reflected heading
/// (and turns toward it at its largest rate).
pub fn next_state(
    me: &Boid,
    s: &NeighborSums,
    ob: &ObstacleSums,
    _predator: Vec2,
    u: &StepUniforms,
    m: &ModelUniforms,
) -> Boid {
    let m: &CouzinUniforms = m.get();
    let p = me.pos();
    let v = me.vel();
    // The animal's heading (+x for one that does not move).
    let own = heading(v);
    let unit = |w: Vec2| {
        let l2 = w.dot(w);
        (l2 > STEER_EPS2).then(|| w / l2.sqrt())
    };
    let bounce_normal = ob.bounce_normal;
    // The desired direction: the heading kept where nothing gives one.
    let desired = if bounce_normal.dot(bounce_normal) > 0.0 && v.dot(bounce_normal) < 0.0 {
        Some(own - 2.0 * own.dot(bounce_normal) * bounce_normal)
    } else if repulsion_count(s) > 0 {
        // Repulsion first: away from the neighbours within r_r, the others ignored.
        unit(s.separation)
    } else {
        // Orientation (the zone's mean heading: every speed is s) and attraction, each a unit
        // vector, averaged where both zones hold neighbours.
        let o = if s.alignment_n > 0 {
            unit(s.alignment)
        } else {
            None
        };
        let a = if s.cohesion_n > 0 {
            unit(s.cohesion)
        } else {
            None
        };
        match (o, a) {
            (Some(o), Some(a)) => unit(0.5 * (o + a)),
            (o, a) => o.or(a),
        }
    };
    let mut dir = desired.unwrap_or(own);
    // The error: the desired direction turned by a Gaussian angle of standard deviation σ.
    if m.noise > 0.0 {
        dir = rotate(dir, m.noise * standard_normal(u.seed, me.id, u.step));
    }
    // The turn: at most θ·Δt toward it (cos, sin of the limit from the uniforms).
    let c = own.dot(dir);
    let heading = if c >= m.turn_cos {
        dir
    } else {
        let cross = own.x * dir.y - own.y * dir.x;
        let sn = if cross >= 0.0 {
            m.turn_sin
        } else {
            -m.turn_sin
        };
        Vec2::new(
            m.turn_cos * own.x - sn * own.y,
            sn * own.x + m.turn_cos * own.y,
        )
    };
    let v_new = heading * m.speed;
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
