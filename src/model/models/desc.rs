//! What an entry of the model table is ([`ModelDesc`]) and what a model's parameter group provides
//! ([`ModelGroup`]). Nothing here knows the table or [`crate::model::SimParams`]: the models' own
//! files build on it, the table (`models/mod.rs`) gathers them, and the parameters hold the table's
//! groups.

use bytemuck::Pod;
use encase::internal::WriteInto;
use encase::{ShaderSize, ShaderType};
use glam::Vec2;

use crate::model::error::ParamError;
use crate::model::param_table::ParamSpec;
use crate::model::rules::{NeighborSums, ObstacleSums};
use crate::model::state::Boid;
use crate::model::uniforms::StepUniforms;

/// Bytes of the `model_params` uniform buffer: room for the typed uniforms of any model.
pub const MODEL_UNIFORMS_BYTES: usize = 64;

/// A model's typed uniforms: its GPU parameters as a named struct of `f32` and `u32` fields, the
/// same-named WGSL struct in its shader (`struct VicsekUniforms { eta: f32, … }`, bound as
/// `model_params` by the stages that hold the model's rule; `tests/it/shaders.rs` holds the two to
/// the same members, offsets and types). `ShaderType` lays it out for the GPU (a uniform, or an
/// element of a storage array); `Pod` lets the CPU rule read the same bytes as the struct.
pub trait ModelUniform: ShaderType + ShaderSize + WriteInto + Pod {}

impl<T: ShaderType + ShaderSize + WriteInto + Pod> ModelUniform for T {}

/// The `model_params` buffer of a step: one model's typed uniforms ([`ModelUniform`]) as the
/// bytes encase lays out for WGSL, which the GPU uploads and the model's CPU rule reads back as
/// its struct ([`ModelUniforms::get`]), without a copy.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C, align(16))]
pub struct ModelUniforms {
    bytes: [u8; MODEL_UNIFORMS_BYTES],
}

impl Default for ModelUniforms {
    fn default() -> Self {
        ModelUniforms {
            bytes: [0; MODEL_UNIFORMS_BYTES],
        }
    }
}

impl ModelUniforms {
    /// The block holding `t`.
    ///
    /// # Panics
    /// When `T` is larger than [`MODEL_UNIFORMS_BYTES`], or its Rust layout is not its WGSL one
    /// (a field that WGSL aligns differently, such as a `vec3`): programming errors of a model's
    /// file, which `tests/it/model_table.rs` finds for every model.
    pub fn new<T: ModelUniform>(t: &T) -> ModelUniforms {
        let size = T::SHADER_SIZE.get() as usize;
        assert!(
            size <= MODEL_UNIFORMS_BYTES,
            "a model's uniforms take {size} bytes, more than MODEL_UNIFORMS_BYTES"
        );
        let mut out = ModelUniforms::default();
        let mut buf = encase::UniformBuffer::new(&mut out.bytes[..]);
        buf.write(t)
            .expect("the block has room for the uniforms (checked above)");
        let rust = bytemuck::bytes_of(t);
        assert_eq!(
            rust,
            &out.bytes[..rust.len()],
            "a model's uniforms must have the same layout in Rust as in WGSL (f32 and u32 fields)"
        );
        out
    }

    /// The uniforms as the struct `T` they were made from.
    #[inline]
    pub fn get<T: ModelUniform>(&self) -> &T {
        bytemuck::from_bytes(&self.bytes[..std::mem::size_of::<T>()])
    }

    /// The bytes of the WGSL uniform.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes
    }
}

/// A model's rule: the next state of a boid from its neighbour sums, its obstacle sums and the
/// predators' acceleration on it (wu/s²), under the uniforms of the step and the model's own.
pub type NextState =
    fn(&Boid, &NeighborSums, &ObstacleSums, Vec2, &StepUniforms, &ModelUniforms) -> Boid;

/// What a model's parameter group provides besides its parameters.
pub trait ModelGroup {
    /// The group as the model's typed uniforms (the `model_params` its rules read), for steps of
    /// `dt` seconds (a model may derive a constant of the step from it once, on the CPU).
    fn uniforms(&self, dt: f32) -> ModelUniforms;
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
    /// The radii of the separation, alignment and cohesion sums (wu), each with the key of the
    /// parameter that sets it (for messages), of a model whose radii are its own
    /// ([`Radii::Own`]); `None` for the others.
    fn rule_radii(&self) -> Option<[(&'static str, f32); 3]> {
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

/// A named group of shared parameters that a model's rules read together: a model lists its
/// groups ([`ModelDesc::shared`]), not their keys one by one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SharedGroup {
    /// Its name, for docs and messages.
    pub name: &'static str,
    /// The keys of [`crate::model::SimParams`]'s own parameters in it.
    pub keys: &'static [&'static str],
}

/// The world: its size, step and boundary (docs/model.md §3.1, §6).
pub const WORLD: SharedGroup = SharedGroup {
    name: "world",
    keys: &["world_width", "world_height", "dt", "boundary"],
};

/// The neighbourhood: the perception radius (the grid's), the metric cap, the topological k and
/// the field of view (docs/model.md §4, §19).
pub const NEIGHBORHOOD: SharedGroup = SharedGroup {
    name: "neighbourhood",
    keys: &[
        "perception_radius",
        "max_neighbors",
        "neighborhood",
        "topological_k",
        "view_angle",
    ],
};

/// The radii of the three steering sums: separation, alignment, cohesion (docs/model.md §4.1).
pub const STEERING_RADII: SharedGroup = SharedGroup {
    name: "steering radii",
    keys: &["separation_radius", "alignment_radius", "cohesion_radius"],
};

/// The hue-vector rule: its radius, weights and largest hue speed (docs/model.md §8).
pub const COLOUR: SharedGroup = SharedGroup {
    name: "colour",
    keys: &[
        "hue_radius",
        "hue_cohesion_weight",
        "hue_alignment_weight",
        "max_hue_speed",
    ],
};

/// The soft walls of the `walls` boundary (docs/model.md §6.2).
pub const WALLS: SharedGroup = SharedGroup {
    name: "walls",
    keys: &["wall_distance", "wall_weight"],
};

/// Rotational diffusion (docs/model.md §7).
pub const ROTATIONAL_NOISE: SharedGroup = SharedGroup {
    name: "rotational noise",
    keys: &["rotational_diffusion"],
};

/// The predators' push on a boid (docs/model.md §18.1).
pub const PREDATOR_PUSH: SharedGroup = SharedGroup {
    name: "predator push",
    keys: &["predator_radius", "predator_weight"],
};

/// Hunting predators: their sight, speed, steering and catch (docs/model.md §18.3, §18.4).
pub const HUNTING: SharedGroup = SharedGroup {
    name: "hunting",
    keys: &[
        "predator_sight_radius",
        "predator_max_speed",
        "predator_max_force",
        "catch_radius",
    ],
};

/// Every group of shared parameters.
pub const SHARED_GROUPS: &[SharedGroup] = &[
    WORLD,
    NEIGHBORHOOD,
    STEERING_RADII,
    COLOUR,
    WALLS,
    ROTATIONAL_NOISE,
    PREDATOR_PUSH,
    HUNTING,
];

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

    /// The time after `steps` steps of `dt` seconds, in this unit. `dt` is taken as the decimal
    /// it was written as (its shortest round-trip form: 1/60 stored in f32 counts as
    /// 0.016666668 s, not 0.01666666753590107), so times print as the step count times that.
    pub fn after(self, steps: u32, dt: f32) -> f64 {
        match self {
            TimeUnit::Seconds => {
                let dt: f64 = dt.to_string().parse().unwrap_or(dt as f64);
                steps as f64 * dt
            }
            TimeUnit::Steps => steps as f64,
        }
    }

    /// The decimals a time of [`TimeUnit::after`] is written with: 4, or more for a small `dt`,
    /// so that the rounding is at most 1 % of a step (`dt` = 0.00015 s: 6, not 0.0001 for
    /// 0.00015).
    pub fn decimals(self, dt: f32) -> usize {
        match self {
            TimeUnit::Seconds if dt > 0.0 => {
                let needed = (-(f64::from(dt)).log10()).ceil() as i64 + 2;
                needed.clamp(4, 12) as usize
            }
            _ => 4,
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
    /// The model's own radii ([`ModelGroup::rule_radii`]: Couzin's zones), each at most the
    /// perception radius (the grid's); the neighbours are those within the largest, in both
    /// neighbourhoods (in the topological one, the k nearest within it: docs/model.md §19.3).
    Own,
}

impl Radii {
    /// Whether the perception radius (the grid's) is derived from the rule radii (it follows
    /// the largest in the app, and the panel hides it): per-rule and own radii, not the Vicsek
    /// model's single radius.
    pub fn perception_follows(self) -> bool {
        self != Radii::AlignmentWithinPerception
    }
}

/// How a neighbour at offset d weighs in one of the gather's two offset sums, separation and
/// cohesion (docs/model.md §4.7). Its code is the one in the uniform block
/// (`separation_weight`, `cohesion_weight`) and in a WGSL source compiled for the model
/// (`SEPARATION_WEIGHT`, `COHESION_WEIGHT`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub enum PairWeight {
    /// d itself (wu): Reynolds' cohesion, a sum toward the neighbours' centre. Every neighbour in
    /// the band counts, a coincident one too.
    Offset = 0,
    /// d/|d| (no unit), the unit vector toward the neighbour: the zones of Couzin et al. (2002).
    /// A coincident neighbour (|d|² ≤ 1e-8 wu²) has no direction: it adds nothing and is not
    /// counted.
    Unit = 1,
    /// d/|d|² (1/wu): Reynolds' separation, stronger the nearer the neighbour. A coincident
    /// neighbour adds nothing and is not counted.
    InverseSquare = 2,
}

/// The radius band of a sum (docs/model.md §4.7): which neighbours add to it, by distance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Band {
    /// |d| below the sum's own radius.
    Disc,
    /// |d| from the radius of the sum before it (alignment: separation's; cohesion: alignment's)
    /// to below its own: nested zones that do not overlap (Couzin's orientation and attraction).
    Annulus,
}

/// What a model's neighbour gather sums: its declared pair terms (docs/model.md §4.7). The gather
/// keeps three vector sums — separation = −Σ w_s(d), alignment = Σ v_j, cohesion = Σ w_c(d) —
/// with their counts, each over its band of distances; a model declares the weights and bands
/// and its rule reads the sums ([`NeighborSums`]). Both backends, each of their gathers (the
/// scalar reference, the CPU's vectorised lanes, the GPU's metric, capped, shared, heavy and
/// topological gathers) take them; the GPU's rules pass is compiled with them as constants, so a
/// model's terms cost nothing to another.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PairTerms {
    /// The weight of the separation sum (its band: below the separation radius).
    pub separation: PairWeight,
    /// The band of the alignment sum.
    pub alignment: Band,
    /// The weight of the cohesion sum.
    pub cohesion: PairWeight,
    /// The band of the cohesion sum.
    pub cohesion_band: Band,
}

impl PairTerms {
    /// Reynolds' sums (docs/model.md §5): separation −Σ d/|d|², alignment Σ v_j and cohesion
    /// Σ d, each over the disc of its radius. The boids, Vicsek and fish models' terms.
    pub const REYNOLDS: PairTerms = PairTerms {
        separation: PairWeight::InverseSquare,
        alignment: Band::Disc,
        cohesion: PairWeight::Offset,
        cohesion_band: Band::Disc,
    };

    /// The terms as the constants of a WGSL source compiled for them (`SEPARATION_WEIGHT`,
    /// `COHESION_WEIGHT`, `ALIGNMENT_ANNULUS`, `COHESION_ANNULUS`).
    pub fn wgsl_constants(&self) -> String {
        format!(
            "const SEPARATION_WEIGHT: u32 = {}u;\nconst COHESION_WEIGHT: u32 = {}u;\n\
             const ALIGNMENT_ANNULUS: bool = {};\nconst COHESION_ANNULUS: bool = {};\n",
            self.separation as u32,
            self.cohesion as u32,
            self.alignment == Band::Annulus,
            self.cohesion_band == Band::Annulus,
        )
    }
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
    /// The groups of shared parameters (of [`crate::model::SimParams`] itself) its rules read.
    pub shared: &'static [SharedGroup],
    /// What its speed means.
    pub speed: SpeedRule,
    /// The name of its order parameter in the measure table (`va`, `polarization`).
    pub order_parameter: &'static str,
    /// The radii of its neighbour sums.
    pub radii: Radii,
    /// What its neighbour sums add up: their weights and bands.
    pub pair_terms: PairTerms,
    /// Its CPU rule (the reference its WGSL rule is tested against).
    pub next_state: NextState,
    /// Its WGSL rule: the file name in `shaders/` and its text, defining `next_state`.
    pub wgsl: (&'static str, &'static str),
    /// Its typed uniforms.
    pub uniforms: UniformsDesc,
}

/// A model's typed uniforms, described: the name of its struct on both sides, and the struct
/// made from its members by name (what `tests/it/shaders.rs` checks against naga's reflection of
/// the WGSL struct, member by member).
#[derive(Clone, Copy, Debug)]
pub struct UniformsDesc {
    /// The struct's name, in Rust and in the model's WGSL file (`VicsekUniforms`), where
    /// `alias ModelUniforms = VicsekUniforms;` names it for the stages that bind it.
    pub name: &'static str,
    /// The uniforms made from a JSON object of the struct's members by name (numbers); an error
    /// names a missing or unknown member.
    pub from_json: fn(&serde_json::Value) -> Result<ModelUniforms, String>,
}

impl UniformsDesc {
    /// The description of the uniforms struct `T` named `name`.
    pub const fn of<T: ModelUniform + serde::de::DeserializeOwned>(
        name: &'static str,
    ) -> UniformsDesc {
        UniformsDesc {
            name,
            from_json: |v| {
                let t: T = serde_json::from_value(v.clone()).map_err(|e| e.to_string())?;
                Ok(ModelUniforms::new(&t))
            },
        }
    }
}

impl ModelDesc {
    /// Whether the model's rules use the parameter `key` (its own, a shared one it reads, or
    /// `model` itself).
    pub fn uses(&self, key: &str) -> bool {
        key == "model"
            || self.own_params.iter().any(|s| s.key == key)
            || self.shared.iter().any(|g| g.keys.contains(&key))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// f32 then vec2: Rust packs the vec2 at 4, WGSL aligns it to 8.
    #[derive(Clone, Copy, encase::ShaderType, bytemuck::Pod, bytemuck::Zeroable)]
    #[repr(C)]
    struct Misaligned {
        a: f32,
        b: glam::Vec2,
        c: f32,
    }

    /// Seventeen words: more than the buffer holds.
    #[derive(Clone, Copy, encase::ShaderType, bytemuck::Pod, bytemuck::Zeroable)]
    #[repr(C)]
    struct TooLarge {
        a: [glam::UVec4; 4],
        b: f32,
    }

    /// Scalars only: both layouts agree.
    #[derive(
        Clone, Copy, Debug, PartialEq, encase::ShaderType, bytemuck::Pod, bytemuck::Zeroable,
    )]
    #[repr(C)]
    struct Plain {
        a: f32,
        b: u32,
        c: f32,
    }

    #[test]
    fn uniforms_are_read_back_as_made_and_a_struct_that_cannot_be_is_refused() {
        let p = Plain {
            a: 1.5,
            b: 7,
            c: -2.0,
        };
        let u = ModelUniforms::new(&p);
        assert_eq!(*u.get::<Plain>(), p);
        assert_eq!(&u.as_bytes()[4..8], &7u32.to_le_bytes());
        let misaligned = std::panic::catch_unwind(|| {
            ModelUniforms::new(&Misaligned {
                a: 1.0,
                b: glam::Vec2::new(2.0, 3.0),
                c: 4.0,
            })
        });
        let e = misaligned.expect_err("a vec2 after an f32 is refused");
        let e = e.downcast_ref::<String>().cloned().unwrap_or_default();
        assert!(e.contains("same layout"), "{e}");
        let large = std::panic::catch_unwind(|| {
            ModelUniforms::new(&TooLarge {
                a: [glam::UVec4::ONE; 4],
                b: 1.0,
            })
        });
        let e = large.expect_err("17 words are refused");
        let e = e.downcast_ref::<String>().cloned().unwrap_or_default();
        assert!(e.contains("MODEL_UNIFORMS_BYTES"), "{e}");
    }
}
