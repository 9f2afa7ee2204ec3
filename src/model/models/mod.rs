//! The model table: every model a run can simulate (`SimParams::model`, one per run) is one entry
//! of [`MODELS`] — a [`ModelDesc`] in its own file — and one line of `model_table!` below.
//!
//! The models share the state, the uniform grid, the neighbour gather, the hue-vector rule, the
//! boundary and the predators; each declares the rest: its name, its own parameter group (scene
//! files keep their flat `[params]` keys), which shared parameters it uses, its validation, what its
//! speed means (unit, and the speeds of a loaded state, of a spawned or respawned boid), the radii
//! of its neighbour sums, its typed uniforms (a named struct on both sides: what its rules read of
//! its parameters), its CPU rule and its WGSL rule (a file of `shaders/` defining `next_state`; the GPU's `rules` pass is compiled for
//! the model alone), and its section of docs/model.md.
//!
//! **Adding a model** touches five files: its Rust rule (`src/model/models/<name>.rs`: its
//! parameter group, its `next_state` and its `ModelDesc`), its WGSL rule (`shaders/<name>.wgsl`),
//! its line in `model_table!` here, its section of docs/model.md, and its test file.

pub mod boids;
pub mod couzin;
pub mod desc;
pub mod fish;
pub mod vicsek;

use glam::Vec2;
use serde::{Deserialize, Serialize};

pub use desc::{
    Band, ModelDesc, ModelGroup, ModelUniform, ModelUniforms, NextState, OnLoad, PairTerms,
    PairWeight, Radii, SharedGroup, SpeedRule, TimeUnit, UniformsDesc, MODEL_UNIFORMS_BYTES,
    SHARED_GROUPS,
};

use crate::model::param_table::{ParamField, ParamValue};
use crate::model::rules::{NeighborSums, ObstacleSums};
use crate::model::state::Boid;
use crate::model::uniforms::StepUniforms;

/// Which model a run simulates: an index into [`MODELS`] (`Model::BOIDS`, `Model::VICSEK`, …),
/// written by name in scene files.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Model(u32);

impl Model {
    /// Its entry in the table.
    pub fn desc(self) -> &'static ModelDesc {
        MODELS[self.0 as usize]
    }

    /// Its name, as written in scene files.
    pub fn name(self) -> &'static str {
        self.desc().name
    }

    /// The code in the uniform block (`params.model`): its index in [`MODELS`].
    pub fn code(self) -> u32 {
        self.0
    }

    /// The model of a code (`None` past the table).
    pub fn from_code(code: u32) -> Option<Model> {
        ((code as usize) < MODELS.len()).then_some(Model(code))
    }

    /// The model named `name`.
    pub fn by_name(name: &str) -> Option<Model> {
        MODELS
            .iter()
            .position(|m| m.name == name)
            .map(|i| Model(i as u32))
    }

    /// Every model, in table order.
    pub fn all() -> impl Iterator<Item = Model> {
        (0..MODELS.len() as u32).map(Model)
    }

    /// The names of every model, for messages (`boids, vicsek or fish`).
    pub fn names() -> String {
        let names: Vec<&str> = MODELS.iter().map(|m| m.name).collect();
        match names.split_last() {
            Some((last, init)) if !init.is_empty() => format!("{} or {last}", init.join(", ")),
            _ => names.join(""),
        }
    }
}

impl std::fmt::Display for Model {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl Serialize for Model {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for Model {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = String::deserialize(d)?;
        Model::by_name(&name).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "unknown model `{}`: {}",
                crate::io::clip(&name),
                Model::names()
            ))
        })
    }
}

impl ParamField for Model {
    fn param_value(&self) -> ParamValue {
        ParamValue::Name(self.name())
    }
}

/// The table: one line per model — its constant on [`Model`], its field of [`ModelParams`] with
/// the parameter group's type, and its [`ModelDesc`].
macro_rules! model_table {
    ($( $(#[doc = $doc:literal])* $CONST:ident => $field:ident : $ty:ty = $desc:expr; )*) => {
        #[allow(non_camel_case_types, clippy::upper_case_acronyms)]
        #[repr(u32)]
        enum Index { $( $CONST, )* }

        impl Model {
            $( $(#[doc = $doc])* pub const $CONST: Model = Model(Index::$CONST as u32); )*
        }

        /// Every model, in the order of their codes.
        pub static MODELS: &[&ModelDesc] = &[ $( &$desc, )* ];

        /// The name of every model, in the order of their codes (the `model` key's choices).
        pub const MODEL_NAMES: &[&str] = &[ $( $desc.name, )* ];

        crate::param_group! {
            /// The parameters of every model, one group each (docs/model.md §3.1). Scene files
            /// write their keys flat in `[params]`; every group is validated whatever model runs
            /// (a scene or the app may switch models).
            pub struct ModelParams {}
            groups {
                $( $(#[doc = $doc])* $field: $ty, )*
            }
        }

        impl ModelParams {
            /// Every group's parameters that follow another's change from `before`
            /// ([`ModelGroup::follow`]).
            pub fn follow(&mut self, before: &ModelParams) {
                $( self.$field.follow(&before.$field); )*
            }

            /// The group of `model`.
            pub fn group(&self, model: Model) -> &dyn ModelGroup {
                match model {
                    $( Model::$CONST => &self.$field, )*
                    _ => unreachable!("a model's code is an index of the table"),
                }
            }
        }
    };
}

model_table! {
    /// Reynolds' boids (docs/model.md §5–§9).
    BOIDS => boids: boids::BoidsParams = boids::MODEL;
    /// The Vicsek model (docs/model.md §16).
    VICSEK => vicsek: vicsek::VicsekParams = vicsek::MODEL;
    /// The fish school (docs/model.md §17).
    FISH => fish: fish::FishParams = fish::MODEL;
    /// Couzin's zonal model (docs/model.md §21).
    COUZIN => couzin: couzin::CouzinParams = couzin::MODEL;
}

/// The constant speed of the model of `u` (its spawn speed, when its speeds are one value): v0 of
/// the Vicsek model, for v_a.
pub fn constant_speed_of(u: &StepUniforms) -> Option<f32> {
    match MODELS[u.model as usize].speed.on_load {
        OnLoad::Constant => Some(u.spawn_speed_min),
        _ => None,
    }
}

/// The next state of `me` under the model of `u` with its uniforms `m` (its entry's CPU rule).
#[inline]
pub fn next_state(
    me: &Boid,
    s: &NeighborSums,
    ob: &ObstacleSums,
    predator: Vec2,
    u: &StepUniforms,
    m: &ModelUniforms,
) -> Boid {
    (MODELS[u.model as usize].next_state)(me, s, ob, predator, u, m)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::param_table::ParamGroup;

    #[test]
    fn every_model_is_found_by_its_name_and_code() {
        for m in Model::all() {
            assert_eq!(Model::by_name(m.name()), Some(m));
            assert_eq!(Model::from_code(m.code()), Some(m));
        }
        assert_eq!(Model::by_name("nope"), None);
        assert_eq!(Model::from_code(MODELS.len() as u32), None);
        let names = Model::names();
        assert!(names.starts_with("boids, vicsek"), "{names}");
        let last = MODELS[MODELS.len() - 1].name;
        assert!(names.ends_with(&format!(" or {last}")), "{names}");
        assert!(MODELS.iter().all(|m| names.contains(m.name)), "{names}");
        assert_eq!(MODEL_NAMES.len(), MODELS.len());
    }

    #[test]
    fn each_model_uses_its_own_parameters_and_no_other_models() {
        let all_own: Vec<&str> = MODELS
            .iter()
            .flat_map(|m| m.own_params.iter().map(|s| s.key))
            .collect();
        for m in MODELS {
            for key in &all_own {
                let own = m.own_params.iter().any(|s| s.key == *key);
                assert_eq!(m.uses(key), own, "{} and {key}", m.name);
            }
            for g in m.shared {
                assert!(SHARED_GROUPS.contains(g), "{}: group {}", m.name, g.name);
            }
        }
        // Every shared parameter is in one group, and a group holds only shared parameters.
        let own: Vec<&str> = crate::model::SimParams::OWN_SPECS
            .iter()
            .map(|s| s.key)
            .filter(|k| *k != "model")
            .collect();
        let grouped: Vec<&str> = SHARED_GROUPS.iter().flat_map(|g| g.keys.to_vec()).collect();
        for key in &own {
            let n = grouped.iter().filter(|k| *k == key).count();
            assert_eq!(n, 1, "{key} is in {n} groups");
        }
        assert_eq!(grouped.len(), own.len(), "{grouped:?}");
        // The groups of ModelParams are the models' own parameters, in table order.
        let grouped: Vec<&str> = ModelParams::specs().iter().map(|s| s.key).collect();
        assert_eq!(grouped, all_own);
    }
}
