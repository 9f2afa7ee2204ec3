//! The Vicsek model (T. Vicsek, A. Czirók, E. Ben-Jacob, I. Cohen, O. Shochet, "Novel type of phase
//! transition in a system of self-driven particles", Phys. Rev. Lett. 75, 1226 (1995);
//! docs/model.md §16): particles at constant speed v0 whose heading becomes, every step, the
//! direction of the summed velocities of all particles within r — itself included — turned by a
//! noise uniform in [−η/2, η/2). The step is the model's unit of time (Δt = 1). Mirrored line for
//! line by `shaders/vicsek.wgsl`.

use glam::Vec2;
use serde::{Deserialize, Serialize};

use crate::model::error::ParamError;
use crate::model::models::desc::{
    ModelDesc, ModelGroup, ModelUniforms, OnLoad, PairTerms, Radii, SpeedRule, TimeUnit,
    UniformsDesc, COLOUR, HUNTING, NEIGHBORHOOD, WORLD,
};
use crate::model::param_table::{number, ParamField, ParamValue, Range};
use crate::model::rng::uniform_turn;
use crate::model::rules::{apply_boundary, hue_rule, rotate, NeighborSums, ObstacleSums};
use crate::model::rules::{heading, STEER_EPS2};
use crate::model::state::Boid;
use crate::model::uniforms::StepUniforms;

/// Which velocity moves a Vicsek particle in its step (docs/model.md §16.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum VicsekUpdate {
    /// x(t+1) = x(t) + v(t+1)·Δt: the new heading moves the particle, as Vicsek's own simulations
    /// do (the default).
    #[default]
    New,
    /// x(t+1) = x(t) + v(t)·Δt: the velocity of the start of the step moves it, as eq. (1) of the
    /// paper reads literally.
    Old,
}

impl VicsekUpdate {
    /// The code in the model's uniforms: new 0, old 1.
    pub fn code(self) -> u32 {
        match self {
            VicsekUpdate::New => 0,
            VicsekUpdate::Old => 1,
        }
    }

    /// Lower-case name, as written in scene files.
    pub fn name(self) -> &'static str {
        match self {
            VicsekUpdate::New => "new",
            VicsekUpdate::Old => "old",
        }
    }
}

impl ParamField for VicsekUpdate {
    fn param_value(&self) -> ParamValue {
        ParamValue::Name(self.name())
    }
}

/// The kind of noise of the Vicsek model (docs/model.md §16.3, §20).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum VicsekNoise {
    /// Angular (or intrinsic) noise: the new heading is the neighbours' mean direction turned by
    /// ξ uniform in [−η/2, η/2) (Vicsek et al. 1995; the default), η in 0 ..= 2π.
    #[default]
    Angular,
    /// Vectorial (or extrinsic) noise: a random unit vector of weight η·n_i is added to the sum of
    /// the n_i headings before its direction is taken, θ_i(t+1) = arg[Σ_j e^{iθ_j} + η·n_i·e^{iξ_i}],
    /// ξ_i uniform in [−π, π) (Grégoire & Chaté, PRL 92, 025702 (2004)), η in 0 ..= 1.
    Vectorial,
}

impl VicsekNoise {
    /// The code in the model's uniforms: angular 0, vectorial 1.
    pub fn code(self) -> u32 {
        match self {
            VicsekNoise::Angular => 0,
            VicsekNoise::Vectorial => 1,
        }
    }

    /// Lower-case name, as written in scene files.
    pub fn name(self) -> &'static str {
        match self {
            VicsekNoise::Angular => "angular",
            VicsekNoise::Vectorial => "vectorial",
        }
    }

    /// The kind named `name` (`angular`, `vectorial`).
    pub fn by_name(name: &str) -> Option<VicsekNoise> {
        [VicsekNoise::Angular, VicsekNoise::Vectorial]
            .into_iter()
            .find(|k| k.name() == name)
    }

    /// η moved from the range of kind `from` to the same place in this kind's range (η = 2 rad
    /// of angular noise is 2/2π ≈ 0.32 of vectorial noise): what a switch of the kind keeps.
    pub fn eta_from(self, eta: f32, from: VicsekNoise) -> f32 {
        let ((a0, a1), (b0, b1)) = (from.eta_range(), self.eta_range());
        (b0 + (eta as f64 - a0) / (a1 - a0) * (b1 - b0)) as f32
    }

    /// The range of η for this kind of noise: 0 ..= 2π (rad) for angular noise, 0 ..= 1 (the
    /// weight of the random vector against the mean heading) for vectorial noise.
    pub fn eta_range(self) -> (f64, f64) {
        match self {
            VicsekNoise::Angular => (0.0, std::f64::consts::TAU),
            VicsekNoise::Vectorial => (0.0, 1.0),
        }
    }
}

impl ParamField for VicsekNoise {
    fn param_value(&self) -> ParamValue {
        ParamValue::Name(self.name())
    }
}

crate::param_group! {
    /// The Vicsek model's own parameters (docs/model.md §16).
    pub struct VicsekParams {
        /// Noise amplitude η: with angular noise (rad) each step adds a turn uniform in
        /// [−η/2, η/2), range 0 ..= 2π; with vectorial noise (no unit) the weight of the random
        /// unit vector against the sum of the n headings, η·n, range 0 ..= 1 (docs/model.md §16.3,
        /// §20).
        eta: f32 = 2.0, key: "vicsek_eta", symbol: "η", unit: "rad",
            range: number(0.0, std::f64::consts::TAU);
        /// Speed v0 (wu per step; the model's time unit is its step, Δt = 1). Range 1e-6 ..= 1e5.
        speed: f32 = 0.03, key: "vicsek_speed", symbol: "v₀", unit: "wu per step",
            range: number(1.0e-6, 1.0e5);
        /// Which velocity moves a particle: `new` (the heading just computed, Vicsek's own
        /// simulations; default) or `old` (the one of the start of the step) (docs/model.md §16.3).
        update: VicsekUpdate = VicsekUpdate::New, key: "vicsek_update", symbol: "", unit: "",
            range: Range::Choice(&["new", "old"]);
        /// The kind of noise: `angular` (a turn of the mean heading, Vicsek et al. 1995; default)
        /// or `vectorial` (a random vector added to the sum of the headings, Grégoire & Chaté
        /// 2004) (docs/model.md §20).
        noise: VicsekNoise = VicsekNoise::Angular, key: "vicsek_noise", symbol: "", unit: "",
            range: Range::Choice(&["angular", "vectorial"]);
    }
}

/// The Vicsek model's entry in the model table.
pub const MODEL: ModelDesc = ModelDesc {
    name: "vicsek",
    title: "the Vicsek model: constant speed, the heading of the neighbours' summed velocities plus noise (Vicsek et al. 1995)",
    doc: "§16",
    own_params: VicsekParams::OWN_SPECS,
    shared: &[WORLD, NEIGHBORHOOD, COLOUR, HUNTING],
    speed: SpeedRule {
        unit: "wu per step",
        range_keys: "vicsek_speed",
        on_load: OnLoad::Constant,
        time: TimeUnit::Steps,
    },
    order_parameter: "va",
    radii: Radii::AlignmentWithinPerception,
    pair_terms: PairTerms::REYNOLDS,
    next_state,
    wgsl: ("vicsek.wgsl", include_str!("../../../shaders/vicsek.wgsl")),
    uniforms: UniformsDesc::of::<VicsekUniforms>("VicsekUniforms"),
};

/// The Vicsek model's uniforms: the struct of the same name in `shaders/vicsek.wgsl`.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    encase::ShaderType,
    bytemuck::Pod,
    bytemuck::Zeroable,
    Serialize,
    Deserialize,
)]
#[repr(C)]
#[serde(deny_unknown_fields)]
pub struct VicsekUniforms {
    /// Noise amplitude η (rad for angular noise; a weight for vectorial noise).
    pub eta: f32,
    /// Speed v0 (wu per step).
    pub speed: f32,
    /// Which velocity moves a particle ([`VicsekUpdate::code`]: new 0, old 1).
    pub update: u32,
    /// The kind of noise ([`VicsekNoise::code`]: angular 0, vectorial 1).
    pub noise: u32,
}

impl ModelGroup for VicsekParams {
    /// [`VicsekUniforms`].
    fn uniforms(&self, _dt: f32) -> ModelUniforms {
        ModelUniforms::new(&VicsekUniforms {
            eta: self.eta,
            speed: self.speed,
            update: self.update.code(),
            noise: self.noise.code(),
        })
    }

    /// η of vectorial noise is a weight, without a unit (the table's `rad` is angular noise's).
    fn unit_of(&self, key: &str) -> Option<&'static str> {
        (key == "vicsek_eta" && self.noise == VicsekNoise::Vectorial).then_some("")
    }

    /// η's range for the kind of noise: 0 ..= 2π angular, 0 ..= 1 vectorial.
    fn range_of(&self, key: &str) -> Option<(f64, f64)> {
        (key == "vicsek_eta").then(|| self.noise.eta_range())
    }

    /// η keeps its place in its range when the kind of noise changes
    /// ([`VicsekNoise::eta_from`]).
    fn follow(&mut self, before: &Self) {
        if self.noise != before.noise {
            self.eta = self.noise.eta_from(self.eta, before.noise);
        }
    }

    /// η within the range of vectorial noise (the table's 0 ..= 2π is the angular one, which
    /// the table checks).
    fn validate(&self) -> Result<(), ParamError> {
        if self.noise == VicsekNoise::Angular {
            return Ok(());
        }
        let (min, max) = self.noise.eta_range();
        let v = self.eta;
        // In f32, as every range check (`!(a <= b)` is also true for NaN).
        if !(v >= min as f32 && v <= max as f32) {
            return Err(ParamError::OutOfRangeFor {
                field: "vicsek_eta",
                value: crate::model::param_table::decimal(v),
                min,
                max,
                context: match self.noise {
                    VicsekNoise::Angular => "vicsek_noise = angular",
                    VicsekNoise::Vectorial => "vicsek_noise = vectorial",
                },
            });
        }
        Ok(())
    }

    /// Every particle moves at v0.
    fn spawn_speeds(&self) -> (f32, f32) {
        (self.speed, self.speed)
    }
}

/// The next state of particle `me` (docs/model.md §16.3). `s.alignment` must hold Σ v_j over the
/// other particles within r (the model's radii set the alignment radius to r). Predators do not
/// push a Vicsek particle (`_predator` is left out): its heading follows its neighbours alone.
pub fn next_state(
    me: &Boid,
    s: &NeighborSums,
    ob: &ObstacleSums,
    _predator: Vec2,
    u: &StepUniforms,
    m: &ModelUniforms,
) -> Boid {
    let m: &VicsekUniforms = m.get();
    let (eta, v0) = (m.eta, m.speed);
    let update_old = m.update == VicsekUpdate::Old.code();
    let vectorial = m.noise == VicsekNoise::Vectorial.code();
    let p = me.pos();
    let v = me.vel();
    // The particle's own heading: kept when the summed velocities cancel exactly.
    let own = heading(v);
    let bounce_normal = ob.bounce_normal;
    let mut dir;
    let (base, n);
    if bounce_normal.dot(bounce_normal) > 0.0 && v.dot(bounce_normal) < 0.0 {
        // Bounce off the obstacle: the heading is reflected about its normal instead.
        dir = own - 2.0 * own.dot(bounce_normal) * bounce_normal;
        (base, n) = (dir * v0, 1.0);
    } else {
        // The direction of Σ v_j within r, the particle itself included.
        let sum = s.alignment + v;
        let l2 = sum.dot(sum);
        dir = own;
        if l2 > STEER_EPS2 * v0 * v0 {
            dir = sum / l2.sqrt();
        }
        (base, n) = (sum, (s.alignment_n + 1) as f32);
    }
    if !vectorial {
        // Angular noise: a turn uniform in [−η/2, η/2) (stream 6 of the counter-based generator).
        dir = rotate(dir, uniform_turn(u.seed, me.id, u.step, eta));
    } else if eta > 0.0 {
        // Vectorial noise: η·n·v0·e^{iξ}, ξ uniform in [−π, π) (stream 6), added to the sum of the
        // n velocities (itself included; a bouncing particle's reflected velocity alone, n = 1)
        // before its direction is taken. At η = 0 nothing is added: the mean direction, as with
        // angular noise at η = 0.
        let xi = uniform_turn(u.seed, me.id, u.step, std::f32::consts::TAU);
        let w = base + rotate(Vec2::new(eta * n * v0, 0.0), xi);
        let l2 = w.dot(w);
        if l2 > STEER_EPS2 * v0 * v0 {
            dir = w / l2.sqrt();
        }
    }
    let v_new = dir * v0;
    // Δt = 1: the new velocity moves the particle (update `new`), or the old one (`old`).
    let moved = if update_old { v } else { v_new };
    let (p_new, v_new) = apply_boundary(p + moved, v_new, u);
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
