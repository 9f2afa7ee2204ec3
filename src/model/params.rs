//! Simulation parameters ([`SimParams`]) with units, defaults and validated ranges.
//!
//! Every field is documented with its unit: world units (wu), seconds (s), wu/s for speeds,
//! wu/s² for accelerations. The rules that use them are described in docs/model.md §3–§9 and
//! implemented once in [`crate::model::rules`].

use serde::{Deserialize, Serialize};

use crate::model::error::ParamError;
use crate::model::models::{Model, ModelParams, ModelUniforms, OnLoad, Radii};
use crate::model::param_table::{
    check_number, number, ParamField, ParamGroup, ParamSpec, ParamValue, Range,
};

/// What happens at the edges of the world rectangle `[0, W) × [0, H)` (docs/model.md §6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Boundary {
    /// Torus: positions are taken modulo W and H; neighbour offsets are minimum-image offsets and the
    /// uniform grid wraps too.
    #[default]
    Wrap,
    /// Soft repulsion within `wall_distance` of an edge, growing linearly to `wall_weight` at the edge,
    /// with a turn toward the inside while a boid moves outward, plus a hard clamp that keeps every
    /// boid inside the world and turns its outward velocity component inward (docs/model.md §6.2).
    Walls,
    /// Reflect the velocity component and mirror the position back inside.
    Bounce,
}

impl Boundary {
    /// The code used in the GPU parameter block: wrap 0, walls 1, bounce 2.
    pub fn code(self) -> u32 {
        match self {
            Boundary::Wrap => 0,
            Boundary::Walls => 1,
            Boundary::Bounce => 2,
        }
    }

    /// Lower-case name, as written in scene files and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Boundary::Wrap => "wrap",
            Boundary::Walls => "walls",
            Boundary::Bounce => "bounce",
        }
    }
}

/// Which boids are a boid's neighbours (docs/model.md §4, §19).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Neighborhood {
    /// The metric neighbourhood: every other boid within the perception radius (each rule within
    /// its own radius), optionally capped to the `max_neighbors` nearest (docs/model.md §4.2, §4.4).
    #[default]
    Metric,
    /// The topological neighbourhood: the `topological_k` nearest other boids by minimum-image
    /// distance whatever the distance, ties by id (Ballerini et al., PNAS 105, 1232 (2008);
    /// docs/model.md §19).
    Topological,
    /// The Voronoi neighbourhood: the other boids whose Voronoi cells share an edge with the
    /// boid's own (its Delaunay neighbours), symmetric and free of parameters (Ginelli & Chaté,
    /// PRL 105, 168103 (2010); docs/model.md §19.5). In a wrapping world the cells are those of
    /// the minimum images (the 3 × 3 periodic images); in a walled or bouncing world each cell is
    /// clipped to the world's rectangle, and two boids are neighbours when their clipped cells
    /// share an edge.
    Voronoi,
}

impl Neighborhood {
    /// Lower-case name, as written in scene files and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Neighborhood::Metric => "metric",
            Neighborhood::Topological => "topological",
            Neighborhood::Voronoi => "voronoi",
        }
    }

    /// Whether the neighbours are found whatever their distance (the topological and Voronoi
    /// neighbourhoods): no perception radius bounds them, and only separation (and a model's own
    /// zones) keeps its radius among them (docs/model.md §19.3).
    pub fn reaches_any_distance(self) -> bool {
        self != Neighborhood::Metric
    }
}

impl ParamField for Neighborhood {
    fn param_value(&self) -> ParamValue {
        ParamValue::Name(self.name())
    }
}

pub use crate::model::rules::TOPOLOGICAL_K_MAX;

/// Default number of boids per square world unit, used to size a world for a boid count
/// (see [`SimParams::with_world_for`]). With the default radii this gives about 12 boids inside a
/// perception disc before the flock forms.
pub const DEFAULT_DENSITY: f32 = 0.01;

crate::param_group! {
    /// Every parameter of one simulation step (docs/model.md §3): the parameters every model
    /// shares, and each model's own group in [`SimParams::models`]. Scene files and checkpoints
    /// write every key flat in `[params]`; [`SimParams::specs`] is the table of them all (key,
    /// symbol, unit, range, documentation).
    ///
    /// The defaults follow the interactive app of the JavaFX boids report in SI-like units (a boid
    /// at the default `max_speed` crosses a perception radius in 0.2 s), tuned so that flocks stay
    /// loose — they split and merge, and do not harden into one evenly spaced sheet marching in one
    /// direction — and take one hue per flock: some rotational noise (D_r = 0.8 rad²/s),
    /// separation within 6 wu at weight 5, cohesion 0.8, and a strong colour rule (cohesion 100,
    /// alignment 20, hue speed up to 10/s). Measured over 5 minutes of simulated time at 20 000
    /// boids (`boids headless --boids 20000 --steps 18000 --stats F --stats-every 60 --flocks`):
    /// polarization stays between 0.64 and 0.76 after the first minute and the number of flocks
    /// changes 276 times (12 to 35 flocks). Use [`SimParams::validate`] before handing the
    /// parameters to a backend; both backends refuse invalid parameters.
    pub struct SimParams {
        /// World width W (wu). Range 1 ..= 1e6.
        world_width: f32 = 1000.0, key: "world_width", symbol: "W", unit: "wu",
            range: number(1.0, 1.0e6);
        /// World height H (wu). Range 1 ..= 1e6.
        world_height: f32 = 1000.0, key: "world_height", symbol: "H", unit: "wu",
            range: number(1.0, 1.0e6);
        /// Fixed simulation step (s). Range 1e-4 ..= 0.1.
        dt: f32 = 1.0 / 60.0, key: "dt", symbol: "Δt", unit: "s", range: number(1.0e-4, 0.1);
        /// Edge behaviour.
        boundary: Boundary = Boundary::Wrap, key: "boundary", symbol: "", unit: "",
            range: Range::Choice(&["wrap", "walls", "bounce"]);
        /// Uniform-grid cell size and neighbour radius for the neighbour count and cap (wu).
        /// Must be at least every rule radius of a model that uses them. Range 0.01 ..= 1e5.
        perception_radius: f32 = 20.0, key: "perception_radius", symbol: "r", unit: "wu",
            range: number(0.01, 1.0e5);
        /// Radius of separation (wu). Range 0 ..= perception_radius.
        separation_radius: f32 = 6.0, key: "separation_radius", symbol: "r_s", unit: "wu",
            range: number(0.0, 1.0e5);
        /// Radius of alignment (wu). Range 0 ..= perception_radius.
        alignment_radius: f32 = 20.0, key: "alignment_radius", symbol: "r_a", unit: "wu",
            range: number(0.0, 1.0e5);
        /// Radius of cohesion (wu). Range 0 ..= perception_radius.
        cohesion_radius: f32 = 20.0, key: "cohesion_radius", symbol: "r_c", unit: "wu",
            range: number(0.0, 1.0e5);
        /// Radius of the hue rules (wu). Range 0 ..= perception_radius.
        hue_radius: f32 = 20.0, key: "hue_radius", symbol: "r_h", unit: "wu",
            range: number(0.0, 1.0e5);
        /// Neighbour cap: each boid uses only its `max_neighbors` nearest neighbours (ties by id:
        /// the topological neighbourhood of Ballerini et al. 2008; docs/model.md §4.4); 0 = every
        /// neighbour within the radii. Range 0 ..= 16.
        max_neighbors: u32 = 0, key: "max_neighbors", symbol: "k_max", unit: "",
            range: Range::Integer { min: 0, max: crate::model::rules::MAX_NEIGHBORS_CAP as u64 };
        /// Which boids are neighbours: `metric` (every boid within the radii, the default) or
        /// `topological` (the `topological_k` nearest whatever the distance; docs/model.md §19) or
        /// `voronoi` (the boids whose Voronoi cells share an edge with the boid's; docs/model.md
        /// §19.5).
        neighborhood: Neighborhood = Neighborhood::Metric, key: "neighborhood", symbol: "",
            unit: "", range: Range::Choice(&["metric", "topological", "voronoi"]);
        /// Number k of neighbours in the topological neighbourhood: each boid interacts with its
        /// k nearest others by minimum-image distance, ties by id (Ballerini et al. 2008 measured
        /// about 6–7 in starling flocks; docs/model.md §19). Used only when `neighborhood =
        /// "topological"`. Range 1 ..= 64.
        topological_k: u32 = 7, key: "topological_k", symbol: "k", unit: "",
            range: Range::Integer { min: 1, max: TOPOLOGICAL_K_MAX as u64 };
        /// Field of view α (degrees): a boid sees, and so counts as a neighbour, only another
        /// within ±α/2 of its heading (Reynolds 1987's field of view; a blind zone of 360° − α
        /// behind it; docs/model.md §4.6), in every neighbourhood and every model; 360 (the
        /// default) sees all around. Range 1 ..= 360.
        view_angle: f32 = 360.0, key: "view_angle", symbol: "α", unit: "°",
            range: number(1.0, 360.0);
        /// Weight of colour cohesion (1/s²). Range 0 ..= 1000 (the default, 100, lies inside).
        hue_cohesion_weight: f32 = 100.0, key: "hue_cohesion_weight", symbol: "w_hc", unit: "1/s²",
            range: number(0.0, 1000.0);
        /// Weight of colour alignment (1/s). Range 0 ..= 100.
        hue_alignment_weight: f32 = 20.0, key: "hue_alignment_weight", symbol: "w_ha",
            unit: "1/s", range: number(0.0, 100.0);
        /// Largest hue velocity |u| (1/s). Range 0 ..= 100.
        max_hue_speed: f32 = 10.0, key: "max_hue_speed", symbol: "u_max", unit: "1/s",
            range: number(0.0, 100.0);
        /// Distance from an edge where wall repulsion starts (wu, `walls` mode). Range 0 ..= 1e5.
        wall_distance: f32 = 20.0, key: "wall_distance", symbol: "d_w", unit: "wu",
            range: number(0.0, 1.0e5);
        /// Wall repulsion at the edge itself (wu/s², `walls` mode). Range 0 ..= 1e6.
        wall_weight: f32 = 300.0, key: "wall_weight", symbol: "w_w", unit: "wu/s²",
            range: number(0.0, 1.0e6);
        /// Rotational diffusion coefficient D_r (rad²/s): the heading performs a random walk whose
        /// variance grows by 2·D_r per second whatever `dt` (each step turns the velocity by
        /// sqrt(2·D_r·dt)·ξ, ξ standard normal; docs/model.md §7). 0 = no noise. Range 0 ..= 100.
        /// The noise of the boids and fish-school models.
        rotational_diffusion: f32 = 0.8, key: "rotational_diffusion", symbol: "D_r",
            unit: "rad²/s", range: number(0.0, 100.0);
        /// The model simulated: an entry of the model table ([`crate::model::models::MODELS`]:
        /// `boids`, the default; `vicsek`; `fish`).
        model: Model = Model::BOIDS, key: "model", symbol: "", unit: "",
            range: Range::Choice(crate::model::models::MODEL_NAMES);
        /// Range of a predator's repulsion (wu; docs/model.md §18.1): boids closer than this to a
        /// predator are pushed away. Range 0 ..= 1e5.
        predator_radius: f32 = 80.0, key: "predator_radius", symbol: "r_p", unit: "wu",
            range: number(0.0, 1.0e5);
        /// Strength B of a predator's repulsion B·e/|e|^1.5 (wu^1.5/s², so that the push is an
        /// acceleration in wu/s²: B/√d at distance d; docs/model.md §18.1). Range 0 ..= 1e7.
        predator_weight: f32 = 1500.0, key: "predator_weight", symbol: "B", unit: "wu^1.5/s²",
            range: number(0.0, 1.0e7);
        /// How far a hunting predator sees boids to chase (wu; docs/model.md §18.3).
        /// Range 0 ..= 1e5.
        predator_sight_radius: f32 = 150.0, key: "predator_sight_radius", symbol: "r_sight",
            unit: "wu", range: number(0.0, 1.0e5);
        /// Highest speed of a hunting predator (wu/s). Range 0 ..= 1e5.
        predator_max_speed: f32 = 110.0, key: "predator_max_speed", symbol: "v_p", unit: "wu/s",
            range: number(0.0, 1.0e5);
        /// Largest steering force of a hunting predator (wu/s²). Range 0 ..= 1e6.
        predator_max_force: f32 = 200.0, key: "predator_max_force", symbol: "F_p",
            unit: "wu/s²", range: number(0.0, 1.0e6);
        /// A boid closer than this to a hunting predator is caught and respawns elsewhere (wu;
        /// docs/model.md §18.4); 0 = hunting predators never catch. Range 0 ..= 1e4.
        catch_radius: f32 = 0.0, key: "catch_radius", symbol: "r_catch", unit: "wu",
            range: number(0.0, 1.0e4);
    }
    groups {
        /// Each model's own parameters (docs/model.md §3.1, §16, §17).
        models: ModelParams,
    }
}

crate::param_group_serde!(SimParams);

impl ParamField for Boundary {
    fn param_value(&self) -> ParamValue {
        ParamValue::Name(self.name())
    }
}

impl SimParams {
    /// These parameters with a square world sized so that `boids` boids fill it at `density`
    /// boids/wu² (side = sqrt(boids / density), at least [`SimParams::smallest_sized_side`]).
    pub fn with_world_for(self, boids: usize, density: f32) -> Self {
        self.with_world_for_aspect(boids, density, 1.0)
    }

    /// The smallest side (wu) a world sized to a boid count and a density gets: three of the
    /// radii the neighbourhood uses — the perception radius in the metric neighbourhood; in the
    /// topological one, which reaches any distance, the separation radius of a model that keeps
    /// it (boids, fish: docs/model.md §19.1), and 1 wu for the Vicsek model, which uses no radius
    /// there. So a density sweep of the topological neighbourhood is not bounded by a perception
    /// radius it does not use.
    pub fn smallest_sized_side(&self) -> f32 {
        let r = match (self.neighborhood, self.model.desc().radii) {
            (Neighborhood::Metric, _) => self.perception_radius,
            (_, Radii::PerRule) => self.separation_radius,
            (_, Radii::AlignmentWithinPerception) => 1.0 / 3.0,
            (_, Radii::Own) => self.largest_rule_radius(),
        };
        (3.0 * r).clamp(1.0, 1.0e6)
    }

    /// These parameters with a world of aspect ratio `aspect` (width / height, clamped to
    /// 0.1 ..= 10; 1 when not finite) and area `boids / density` wu², each side at least
    /// [`SimParams::smallest_sized_side`] and at most 1e6 wu.
    pub fn with_world_for_aspect(mut self, boids: usize, density: f32, aspect: f32) -> Self {
        let aspect = if aspect.is_finite() && aspect > 0.0 {
            aspect.clamp(0.1, 10.0)
        } else {
            1.0
        };
        let area = boids.max(1) as f32 / density;
        let min_side = self.smallest_sized_side();
        self.world_width = (area * aspect).sqrt().clamp(min_side, 1.0e6);
        self.world_height = (area / aspect).sqrt().clamp(min_side, 1.0e6);
        self
    }

    /// Checks every parameter against its range in the table ([`SimParams::specs`], in table
    /// order, every model's group whatever the model), each model group's own checks
    /// ([`crate::model::models::ModelGroup::validate`]), and in the metric neighbourhood that a
    /// wrapping world is at least two perception radii across and, for a model that sums within
    /// per-rule radii, that each is at most the perception radius (the topological neighbourhood
    /// reaches any distance: docs/model.md §19.3).
    ///
    /// # Errors
    /// [`ParamError::OutOfRange`] naming the first offending field, its value and the allowed range
    /// (NaN is always out of range), [`ParamError::OutOfRangeFor`] for a value outside the range of
    /// its kind (`vicsek_eta` of vectorial noise), [`ParamError::Inapplicable`] for a neighbour cap
    /// in the topological neighbourhood, or [`ParamError::RadiusAbovePerception`] when a rule
    /// radius of a model that sums within per-rule radii ([`Radii::PerRule`]) exceeds
    /// `perception_radius`.
    pub fn validate(&self) -> Result<(), ParamError> {
        // Each model's own checks first (every group, whatever the model): a range that depends
        // on another setting (η of vectorial noise, 0 ..= 1) is named with it, not as the table's
        // widest range.
        for m in crate::model::models::Model::all() {
            self.models.group(m).validate()?;
        }
        for spec in Self::specs() {
            let Some(ParamValue::Number(value)) = self.get(spec.key) else {
                continue;
            };
            let upper = match spec.range {
                Range::UpTo { key, .. } => match self.get(key) {
                    Some(ParamValue::Number(x)) => Some(x),
                    _ => None,
                },
                _ => None,
            };
            check_number(spec, value, upper)?;
        }
        let metric = self.neighborhood == Neighborhood::Metric;
        if !metric && self.max_neighbors > 0 {
            // The topological neighbourhood is already the k nearest: a second cap would be a
            // second, different k; the Voronoi neighbourhood is free of parameters.
            let (context, message) = match self.neighborhood {
                Neighborhood::Voronoi => (
                    "neighborhood = voronoi",
                    "the Voronoi neighbourhood is every boid whose Voronoi cell shares an edge \
                     with the boid's; set max_neighbors = 0",
                ),
                _ => (
                    "neighborhood = topological",
                    "the topological neighbourhood is the topological_k nearest; set \
                     max_neighbors = 0",
                ),
            };
            return Err(ParamError::Inapplicable {
                field: "max_neighbors",
                value: self.max_neighbors.to_string(),
                context,
                message,
            });
        }
        // The minimum image is unique only when the world is at least two radii across: the
        // perception radius in the metric neighbourhood, a model's outermost zone in both.
        let own = self.model.desc().radii == Radii::Own;
        let reach = match (metric, own) {
            (true, _) => Some((
                self.perception_radius,
                "a wrapping world two perception radii across",
            )),
            (false, true) => Some((
                self.largest_rule_radius(),
                "a wrapping world two of the model's outermost zones across",
            )),
            (false, false) => None,
        };
        if let (Some((r, context)), Boundary::Wrap) = (reach, self.boundary) {
            for (field, side) in [
                ("world_width", self.world_width),
                ("world_height", self.world_height),
            ] {
                if side < 2.0 * r {
                    return Err(ParamError::OutOfRangeFor {
                        field,
                        value: decimal(side),
                        min: decimal(2.0 * r),
                        max: 1.0e6,
                        context,
                    });
                }
            }
        }
        // A model that sums within radii of its rules needs each within the grid's search reach.
        if metric {
            // Outermost first for a model's own (nested) zones: the error names the radius that
            // must fit.
            let mut radii = self.rule_radii();
            if own {
                radii.reverse();
            }
            for (field, r) in radii {
                if r > self.perception_radius {
                    return Err(ParamError::RadiusAbovePerception {
                        field,
                        value: decimal(r),
                        perception_radius: decimal(self.perception_radius),
                    });
                }
            }
        }
        Ok(())
    }

    /// The speeds of a spawned boid in the model of these parameters: uniform in `lo ..= hi`
    /// (docs/model.md §3.1: [min_speed, max_speed] for boids, v0 for Vicsek particles,
    /// [0, fish_spawn_speed] for fish).
    pub fn spawn_speeds(&self) -> (f32, f32) {
        self.models.group(self.model).spawn_speeds()
    }

    /// The speed of a spawned boid for a uniform number `u` in [0, 1).
    pub fn spawn_speed(&self, u: f32) -> f32 {
        let (lo, hi) = self.spawn_speeds();
        if lo == hi {
            lo
        } else {
            lo + u * (hi - lo)
        }
    }

    /// The model's constant speed (wu per step or wu/s), when its speeds are one value (the
    /// Vicsek model's v0, for v_a).
    pub fn constant_speed(&self) -> Option<f32> {
        match self.model.desc().speed.on_load {
            OnLoad::Constant => Some(self.spawn_speeds().0),
            _ => None,
        }
    }

    /// The model's typed uniforms: the `model_params` buffer its rules read.
    pub fn model_uniforms(&self) -> ModelUniforms {
        self.models.group(self.model).uniforms(self.dt)
    }

    /// Every parameter: the shared ones, then each model's group (the parameter table).
    pub fn specs() -> &'static [&'static ParamSpec] {
        static SPECS: std::sync::LazyLock<Vec<&'static ParamSpec>> =
            std::sync::LazyLock::new(<SimParams as ParamGroup>::specs);
        &SPECS
    }

    /// The parameter `key` of the table.
    pub fn spec(key: &str) -> Option<&'static ParamSpec> {
        Self::specs().iter().copied().find(|s| s.key == key)
    }

    /// The unit of parameter `key` under these settings: the table's, unless a model group says
    /// otherwise ([`ModelGroup::unit_of`](crate::model::models::ModelGroup::unit_of): η of
    /// vectorial noise has no unit). `None` for an unknown key.
    pub fn unit_of(&self, key: &str) -> Option<&'static str> {
        let spec = Self::spec(key)?;
        Some(
            Model::all()
                .find_map(|m| self.models.group(m).unit_of(key))
                .unwrap_or(spec.unit),
        )
    }

    /// The range of parameter `key` under these settings where a model group narrows the
    /// table's ([`ModelGroup::range_of`](crate::model::models::ModelGroup::range_of): η of
    /// vectorial noise is 0 ..= 1); `None` where the table's range holds.
    pub fn range_of(&self, key: &str) -> Option<(f64, f64)> {
        Model::all().find_map(|m| self.models.group(m).range_of(key))
    }

    /// Brings along, after a change from `before`, the parameters that follow another one
    /// ([`ModelGroup::follow`](crate::model::models::ModelGroup::follow): Vicsek's η keeps its
    /// place in its range when the kind of noise changes).
    pub fn follow(&mut self, before: &SimParams) {
        self.models.follow(&before.models);
    }

    /// The axis label of parameter `key` under these settings: its symbol (else its key) and
    /// its unit ([`SimParams::unit_of`]), `η (rad)`, or `η` for vectorial noise.
    pub fn label_of(&self, key: &str) -> Option<String> {
        Some(Self::spec(key)?.label_in(self.unit_of(key)?))
    }

    /// Sets the parameter `key` from its text as written after `--set key=` or in a scene file
    /// (`0.5`, `walls`, `"walls"`), without validating the whole set (call
    /// [`SimParams::validate`] after the last one).
    ///
    /// # Errors
    /// [`ParamError::UnknownKey`] with the nearest known keys, or [`ParamError::BadValue`] for a
    /// value of the wrong kind.
    pub fn set(&mut self, key: &str, text: &str) -> Result<(), ParamError> {
        let value = crate::model::param_table::parse_value(text);
        match ParamGroup::set_value(self, key, &value) {
            Some(Ok(())) => Ok(()),
            Some(Err(message)) => Err(ParamError::BadValue {
                field: Self::spec(key).map_or("?", |s| s.key),
                value: crate::io::clip(text.trim()),
                message,
            }),
            None => Err(ParamError::UnknownKey {
                key: crate::io::clip(key),
                suggestions: crate::model::param_table::nearest_keys::<SimParams>(key)
                    .into_iter()
                    .map(str::to_string)
                    .collect(),
            }),
        }
    }

    /// Every parameter key `model` uses: the shared ones of its groups in the table's order, then
    /// its own.
    pub fn keys_used_by(model: Model) -> Vec<&'static str> {
        let m = model.desc();
        Self::OWN_SPECS
            .iter()
            .map(|s| s.key)
            .filter(|k| *k != "model" && m.uses(k))
            .chain(m.own_params.iter().map(|s| s.key))
            .collect()
    }

    /// Checks that the model of these parameters uses `key` (its own parameters and the shared
    /// ones its rules read), and so does its neighbourhood ([`SimParams::check_neighborhood_uses`]).
    ///
    /// # Errors
    /// [`ParamError::UnusedByModel`] naming the model and the parameters it uses, or
    /// [`ParamError::Inapplicable`] for a parameter of another neighbourhood.
    pub fn check_used(&self, key: &str) -> Result<(), ParamError> {
        // No cap is the topological neighbourhood's own value: setting it says nothing else.
        if key == "max_neighbors" && self.max_neighbors == 0 {
            return Ok(());
        }
        let m = self.model.desc();
        if m.uses(key) {
            return self.check_neighborhood_uses(key);
        }
        Err(ParamError::UnusedByModel {
            key: crate::io::clip(key),
            model: m.name,
            uses: Self::keys_used_by(self.model).join(", "),
        })
    }

    /// Checks that the neighbourhood of these parameters uses `key`: `topological_k` only the
    /// topological one; the perception radius, the alignment, cohesion and hue radii and the
    /// neighbour cap only the metric one (docs/model.md §19.3).
    ///
    /// # Errors
    /// [`ParamError::Inapplicable`] naming the neighbourhood and what to set instead.
    pub fn check_neighborhood_uses(&self, key: &str) -> Result<(), ParamError> {
        let message = match (self.neighborhood, key) {
            (Neighborhood::Metric | Neighborhood::Voronoi, "topological_k") => {
                "topological_k is the number of neighbours of the topological neighbourhood; set \
                 neighborhood = topological"
            }
            (
                Neighborhood::Voronoi,
                "perception_radius" | "alignment_radius" | "cohesion_radius" | "hue_radius"
                | "max_neighbors",
            ) => {
                "the Voronoi neighbourhood is every boid whose Voronoi cell shares an edge with \
                 the boid's, whatever the distance (only separation keeps its radius among them, \
                 and a model's own zones theirs)"
            }
            (
                Neighborhood::Topological,
                "perception_radius" | "alignment_radius" | "cohesion_radius" | "hue_radius"
                | "max_neighbors",
            ) => {
                "the topological neighbourhood is the topological_k nearest whatever the \
                 distance (only separation keeps its radius among them, and a model's own zones \
                 theirs)"
            }
            _ => return Ok(()),
        };
        let field = Self::spec(key).map_or("?", |s| s.key);
        Err(ParamError::Inapplicable {
            field,
            value: self.get(key).map_or(String::new(), |v| v.to_string()),
            context: match self.neighborhood {
                Neighborhood::Metric => "neighborhood = metric",
                Neighborhood::Topological => "neighborhood = topological",
                Neighborhood::Voronoi => "neighborhood = voronoi",
            },
            message,
        })
    }

    /// The radii of the model's rules, each named by the parameter that sets it, that must lie
    /// within the perception radius (wu): separation, alignment, cohesion and hue for a model
    /// with per-rule radii ([`Radii::PerRule`]), the model's own for one with its own
    /// ([`Radii::Own`], whose colour rule is clipped to the outermost), none for the Vicsek
    /// model (whose radius is the perception radius).
    pub fn rule_radii(&self) -> Vec<(&'static str, f32)> {
        match self.model.desc().radii {
            Radii::PerRule => vec![
                ("separation_radius", self.separation_radius),
                ("alignment_radius", self.alignment_radius),
                ("cohesion_radius", self.cohesion_radius),
                ("hue_radius", self.hue_radius),
            ],
            Radii::Own => self
                .models
                .group(self.model)
                .rule_radii()
                .map_or(Vec::new(), |r| r.to_vec()),
            Radii::AlignmentWithinPerception => Vec::new(),
        }
    }

    /// The largest of the rule radii ([`SimParams::rule_radii`]; 0 for none) (wu).
    pub fn largest_rule_radius(&self) -> f32 {
        self.rule_radii()
            .into_iter()
            .fold(0.0, |m, (_, r)| m.max(r))
    }

    /// These parameters after a live edit from `before`: when a rule radius changed, the
    /// perception radius (the uniform grid's cell size) follows the largest rule radius, so the
    /// grid stays as fine as the rules allow (at least 0.01 wu, its smallest valid value).
    pub fn with_perception_following(mut self, before: &SimParams) -> Self {
        let radii = |q: &SimParams| q.rule_radii();
        if self.model.desc().radii.perception_follows() && radii(&self) != radii(before) {
            self.perception_radius = self.largest_rule_radius().max(0.01);
        }
        self
    }
}

pub(crate) use crate::model::param_table::decimal;

/// Largest boid count any backend accepts (2^26 ≈ 67 M); the GPU backend may refuse fewer when the
/// adapter's storage-buffer limit is lower.
pub const MAX_BOIDS: usize = 1 << 26;

/// Checks a boid count: 1 ..= [`MAX_BOIDS`].
///
/// # Errors
/// [`ParamError::OutOfRange`] for field `boids`.
pub fn validate_boid_count(n: usize) -> Result<(), ParamError> {
    if n == 0 || n > MAX_BOIDS {
        return Err(ParamError::OutOfRange {
            field: "boids",
            value: n as f64,
            min: 1.0,
            max: MAX_BOIDS as f64,
        });
    }
    Ok(())
}
