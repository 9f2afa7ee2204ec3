//! What an entry of the model table is ([`ModelDesc`]) and what a model's parameter group provides
//! ([`ModelGroup`]). Nothing here knows the table or [`crate::model::SimParams`]: the models' own
//! files build on it, the table (`models/mod.rs`) gathers them, and the parameters hold the table's
//! groups.

use glam::Vec2;

use crate::model::error::ParamError;
use crate::model::param_table::ParamSpec;
use crate::model::rules::{NeighborSums, ObstacleSums};
use crate::model::state::Boid;
use crate::model::uniforms::StepUniforms;

/// Floats of the uniform block's `model_params` (`array<vec4<f32>, 3>` in WGSL): a model's own
/// parameters as its rules read them, packed by [`ModelGroup::uniforms`].
pub const MODEL_UNIFORMS: usize = 12;

/// A model's rule: the next state of a boid from its neighbour sums, its obstacle sums and the
/// predators' acceleration on it (wu/s²), under the uniforms of the step.
pub type NextState = fn(&Boid, &NeighborSums, &ObstacleSums, Vec2, &StepUniforms) -> Boid;

/// What a model's parameter group provides besides its parameters.
pub trait ModelGroup {
    /// The group packed into the uniform block's `model_params`, in the order the model's WGSL
    /// rule reads them.
    fn uniforms(&self) -> [f32; MODEL_UNIFORMS];
    /// The speeds of a spawned boid: uniform in `lo ..= hi` (a constant when equal) — the initial
    /// flock, the app's add tool, a boid respawned after a catch (the model's unit).
    fn spawn_speeds(&self) -> (f32, f32);
    /// The group's own checks beyond each parameter's range in the table (a range that depends
    /// on another parameter of the group); run for every group whatever the model.
    ///
    /// # Errors
    /// The [`ParamError`] naming the field, its value and the range.
    fn validate(&self) -> Result<(), ParamError> {
        Ok(())
    }
    /// The unit of the group's parameter `key` under the group's settings, where it differs from
    /// the table's (η of vectorial noise has none; the table's `rad` is angular noise's).
    fn unit_of(&self, _key: &str) -> Option<&'static str> {
        None
    }
    /// The range of the group's parameter `key` under the group's settings, where it is
    /// narrower than the table's (η of vectorial noise: 0 ..= 1); what the app's slider spans.
    fn range_of(&self, _key: &str) -> Option<(f64, f64)> {
        None
    }
    /// Brings along the parameters that follow another one after a change from `before` (the
    /// same group before the change): η keeps its place in its range when the kind of noise
    /// changes, so switching the kind is never refused for an η out of the new range. Nothing
    /// changes when nothing they follow changed.
    fn follow(&mut self, _before: &Self)
    where
        Self: Sized,
    {
    }
}

/// What a loaded state's speeds are brought to (docs/model.md §11.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnLoad {
    /// Scaled into the spawn range (the boids model's clamp into [min_speed, max_speed]).
    Clamp,
    /// Set to the model's constant speed (the spawn range's single value) when off by more than
    /// rounding, the heading kept.
    Constant,
    /// Kept as they are (any finite speed is a state of the model).
    Keep,
}

/// What a model's speed means.
#[derive(Clone, Copy, Debug)]
pub struct SpeedRule {
    /// Its unit: `wu/s`, or `wu per step` for a model whose time unit is its step.
    pub unit: &'static str,
    /// The parameters the spawn speeds ([`ModelGroup::spawn_speeds`]) come from, for messages
    /// (`min_speed, max_speed`).
    pub range_keys: &'static str,
    /// What a loaded state's speeds are brought to.
    pub on_load: OnLoad,
    /// The model's unit of time.
    pub time: TimeUnit,
}

/// A model's unit of time: the second (its rules integrate over `dt`) or its step (the Vicsek
/// model, whose update is one step of the map and does not read `dt`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeUnit {
    /// Seconds: the time after k steps is k·dt.
    Seconds,
    /// Steps: the time after k steps is k.
    Steps,
}

impl TimeUnit {
    /// The column of the time in `--stats` files: `time_s` or `time_steps`.
    pub fn column(self) -> &'static str {
        match self {
            TimeUnit::Seconds => "time_s",
            TimeUnit::Steps => "time_steps",
        }
    }

    /// The time after `steps` steps of `dt` seconds, in this unit.
    pub fn after(self, steps: u32, dt: f32) -> f64 {
        match self {
            TimeUnit::Seconds => steps as f64 * dt as f64,
            TimeUnit::Steps => steps as f64,
        }
    }
}

/// The radii of a model's neighbour sums (separation, alignment, cohesion, hue).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Radii {
    /// Each rule's own radius (`separation_radius`, …), each at most the perception radius.
    PerRule,
    /// The alignment sum within the perception radius r (the Vicsek model's Σ v_j), no separation
    /// or cohesion sum, the colour rule within the hue radius (clipped to r by the gather).
    AlignmentWithinPerception,
}

/// One model, described (an entry of the model table).
#[derive(Clone, Copy, Debug)]
pub struct ModelDesc {
    /// Its name in scene files (`model = "vicsek"`) and on the command line.
    pub name: &'static str,
    /// What it is, with its source, in one line.
    pub title: &'static str,
    /// Its section of docs/model.md (`§16`).
    pub doc: &'static str,
    /// Its own parameters (its group in the parameters).
    pub own_params: &'static [ParamSpec],
    /// The shared parameters (of [`crate::model::SimParams`] itself) its rules read.
    pub shared_params: &'static [&'static str],
    /// What its speed means.
    pub speed: SpeedRule,
    /// The name of its order parameter in the measure table (`va`, `polarization`).
    pub order_parameter: &'static str,
    /// The radii of its neighbour sums.
    pub radii: Radii,
    /// Its CPU rule (the reference its WGSL rule is tested against).
    pub next_state: NextState,
    /// Its WGSL rule: the file name in `shaders/` and its text, defining `next_state`.
    pub wgsl: (&'static str, &'static str),
}

impl ModelDesc {
    /// Whether the model's rules use the parameter `key` (its own, a shared one it reads, or
    /// `model` itself).
    pub fn uses(&self, key: &str) -> bool {
        key == "model"
            || self.own_params.iter().any(|s| s.key == key)
            || self.shared_params.contains(&key)
    }

    /// Every parameter key the model uses: the shared ones, then its own.
    pub fn used_keys(&self) -> Vec<&'static str> {
        self.shared_params
            .iter()
            .copied()
            .chain(self.own_params.iter().map(|s| s.key))
            .collect()
    }
}

/// The model parameters of the uniforms `u`, as the rules read them (`model_params` flattened).
#[inline]
pub fn model_uniforms(u: &StepUniforms) -> [f32; MODEL_UNIFORMS] {
    let mut out = [0.0; MODEL_UNIFORMS];
    for (k, v) in u.model_params.iter().enumerate() {
        out[4 * k..4 * k + 4].copy_from_slice(&v.to_array());
    }
    out
}
