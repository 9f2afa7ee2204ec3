//! Simulation parameters ([`SimParams`]) with units, defaults and validated ranges.
//!
//! Every field is documented with its unit: world units (wu), seconds (s), wu/s for speeds,
//! wu/s² for accelerations. The rules that use them are described in docs/model.md §3–§9 and
//! implemented once in [`crate::model::rules`].

use serde::{Deserialize, Serialize};

use crate::model::error::ParamError;
use crate::model::models::{Model, VicsekUpdate};

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

/// Default number of boids per square world unit, used to size a world for a boid count
/// (see [`SimParams::with_world_for`]). With the default radii this gives about 12 boids inside a
/// perception disc before the flock forms.
pub const DEFAULT_DENSITY: f32 = 0.01;

/// Every parameter of one simulation step (docs/model.md §3).
///
/// Defaults follow the interactive app of the JavaFX boids report in SI-like units (a boid at the default `max_speed`
/// crosses a perception radius in 0.2 s), tuned so that flocks align (polarization ≈ 0.7 after 15 s
/// at 20 000 boids, against ≈ 0.5 with equal weights, which packs boids into slowly milling blobs
/// with 2.4× the neighbours) and colour patches form within seconds (hue weights 6 and 3). Use [`SimParams::validate`] before
/// handing the parameters to a backend; both backends refuse invalid parameters.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SimParams {
    /// World width W (wu). Range 1 ..= 1e6.
    pub world_width: f32,
    /// World height H (wu). Range 1 ..= 1e6.
    pub world_height: f32,
    /// Fixed simulation step (s). Range 1e-4 ..= 0.1.
    pub dt: f32,
    /// Edge behaviour.
    pub boundary: Boundary,
    /// Uniform-grid cell size and neighbour radius for the neighbour count and cap (wu).
    /// Must be at least every rule radius. Range 0.01 ..= 1e5.
    pub perception_radius: f32,
    /// Radius of separation (wu). Range 0 ..= perception_radius.
    pub separation_radius: f32,
    /// Radius of alignment (wu). Range 0 ..= perception_radius.
    pub alignment_radius: f32,
    /// Radius of cohesion (wu). Range 0 ..= perception_radius.
    pub cohesion_radius: f32,
    /// Radius of the hue rules (wu). Range 0 ..= perception_radius.
    pub hue_radius: f32,
    /// Weight of the separation steering force (dimensionless). Range 0 ..= 100.
    pub separation_weight: f32,
    /// Weight of the alignment steering force (dimensionless). Range 0 ..= 100.
    pub alignment_weight: f32,
    /// Weight of the cohesion steering force (dimensionless). Range 0 ..= 100.
    pub cohesion_weight: f32,
    /// Lowest speed (wu/s). Range 0 ..= max_speed.
    pub min_speed: f32,
    /// Highest speed (wu/s). Range 0.001 ..= 1e5.
    pub max_speed: f32,
    /// Largest steering force per rule (wu/s²; Reynolds' max force). Range 0 ..= 1e6.
    pub max_force: f32,
    /// Neighbour cap: each boid uses only its `max_neighbors` nearest neighbours (ties by id: the
    /// topological neighbourhood of Ballerini et al. 2008; docs/model.md §4.4); 0 = every neighbour
    /// within the radii. Range 0 ..= 16.
    pub max_neighbors: u32,
    /// Weight of colour cohesion (1/s²). Range 0 ..= 100.
    pub hue_cohesion_weight: f32,
    /// Weight of colour alignment (1/s). Range 0 ..= 100.
    pub hue_alignment_weight: f32,
    /// Largest hue velocity |u| (1/s). Range 0 ..= 100.
    pub max_hue_speed: f32,
    /// Distance from an edge where wall repulsion starts (wu, `walls` mode). Range 0 ..= 1e5.
    pub wall_distance: f32,
    /// Wall repulsion at the edge itself (wu/s², `walls` mode). Range 0 ..= 1e6.
    pub wall_weight: f32,
    /// Rotational diffusion coefficient D_r (rad²/s): the heading performs a random walk whose
    /// variance grows by 2·D_r per second whatever `dt` (each step turns the velocity by
    /// sqrt(2·D_r·dt)·ξ, ξ standard normal; docs/model.md §7). 0 = no noise. Range 0 ..= 100.
    /// Also the noise of the fish-school model (docs/model.md §17).
    pub rotational_diffusion: f32,
    /// The model simulated (docs/model.md §16–§17): `boids` (default), `vicsek` or `fish`.
    pub model: Model,
    /// Vicsek noise amplitude η (rad): each step adds a turn uniform in [−η/2, η/2)
    /// (docs/model.md §16). Range 0 ..= 2π.
    pub vicsek_eta: f32,
    /// Vicsek speed v0 (wu per step; the model's time unit is its step, Δt = 1). Range 1e-6 ..= 1e5.
    pub vicsek_speed: f32,
    /// Which velocity moves a Vicsek particle: `new` (the heading just computed, Vicsek's own
    /// simulations; default) or `old` (the one of the start of the step) (docs/model.md §16.3).
    pub vicsek_update: VicsekUpdate,
    /// Fish-school alignment weight M (the page's "mean term"): v ← (1 − M)·v + M·mean(v_j) per step
    /// (docs/model.md §17). Range 0 ..= 1.
    pub fish_alignment: f32,
    /// Fish-school cohesion constant C: v += (C/L)·(centre − p) per step (docs/model.md §17).
    /// Range 0 ..= 100.
    pub fish_cohesion: f32,
    /// Fish-school separation constant S: v += (S/L)·Σ d/|d|² per step (docs/model.md §17).
    /// Range 0 ..= 100.
    pub fish_separation: f32,
    /// Amplitude a of the fish-school edge barrier (wu/s added per step at an edge; docs/model.md
    /// §17). 0 = no barrier. Range 0 ..= 1000.
    pub fish_barrier: f32,
    /// Width E of the fish-school edge barrier's Gaussian (wu). Range 0.01 ..= 1e5.
    pub fish_barrier_width: f32,
    /// A fish in a crowd is slowed only while faster than this (wu/s; the program's 0.5·ini;
    /// docs/model.md §17). Range 0 ..= 1e5.
    pub fish_slow_speed: f32,
    /// Range of a predator's repulsion (wu; docs/model.md §18.1): boids closer than this to a
    /// predator are pushed away. Range 0 ..= 1e5.
    pub predator_radius: f32,
    /// Strength B of a predator's repulsion B·e/|e|^1.5 (wu^1.5/s², so that the push is an
    /// acceleration in wu/s²: B/√d at distance d; docs/model.md §18.1). Range 0 ..= 1e7.
    pub predator_weight: f32,
    /// How far a hunting predator sees boids to chase (wu; docs/model.md §18.3). Range 0 ..= 1e5.
    pub predator_sight_radius: f32,
    /// Highest speed of a hunting predator (wu/s). Range 0 ..= 1e5.
    pub predator_max_speed: f32,
    /// Largest steering force of a hunting predator (wu/s²). Range 0 ..= 1e6.
    pub predator_max_force: f32,
    /// A boid closer than this to a hunting predator is caught and respawns elsewhere (wu;
    /// docs/model.md §18.4); 0 = hunting predators never catch. Range 0 ..= 1e4.
    pub catch_radius: f32,
}

/// The defaults are tuned so that flocks stay loose — they split and merge, and do not harden into
/// one evenly spaced sheet marching in one direction — and take one hue per flock: some rotational
/// noise (D_r = 0.8 rad²/s), separation within 6 wu at weight 5, cohesion 0.8, and a strong colour
/// rule (cohesion 100, alignment 20, hue speed up to 10/s). Measured over 5 minutes of simulated
/// time at 20 000 boids (`boids headless --boids 20000 --steps 18000 --stats F --stats-every 60
/// --flocks`): polarization stays between 0.64 and 0.76 after the first minute and the number of
/// flocks changes 276 times (12 to 35 flocks), where the previous defaults reached 0.985 with 2
/// flocks; see the README.
impl Default for SimParams {
    fn default() -> Self {
        SimParams {
            world_width: 1000.0,
            world_height: 1000.0,
            dt: 1.0 / 60.0,
            boundary: Boundary::Wrap,
            perception_radius: 20.0,
            separation_radius: 6.0,
            alignment_radius: 20.0,
            cohesion_radius: 20.0,
            hue_radius: 20.0,
            separation_weight: 5.0,
            alignment_weight: 1.2,
            cohesion_weight: 0.8,
            min_speed: 40.0,
            max_speed: 100.0,
            max_force: 150.0,
            max_neighbors: 0,
            hue_cohesion_weight: 100.0,
            hue_alignment_weight: 20.0,
            max_hue_speed: 10.0,
            wall_distance: 20.0,
            wall_weight: 300.0,
            rotational_diffusion: 0.8,
            model: Model::Boids,
            vicsek_eta: 2.0,
            vicsek_speed: 0.03,
            vicsek_update: VicsekUpdate::New,
            fish_alignment: 0.15,
            fish_cohesion: 0.05,
            fish_separation: 0.3,
            fish_barrier: 0.01,
            fish_barrier_width: 10.0,
            fish_slow_speed: 1.0,
            predator_radius: 80.0,
            predator_weight: 1500.0,
            predator_sight_radius: 150.0,
            predator_max_speed: 110.0,
            predator_max_force: 200.0,
            catch_radius: 0.0,
        }
    }
}

impl SimParams {
    /// These parameters with a square world sized so that `boids` boids fill it at `density`
    /// boids/wu² (side = sqrt(boids / density), at least 3 perception radii).
    pub fn with_world_for(self, boids: usize, density: f32) -> Self {
        self.with_world_for_aspect(boids, density, 1.0)
    }

    /// These parameters with a world of aspect ratio `aspect` (width / height, clamped to
    /// 0.1 ..= 10; 1 when not finite) and area `boids / density` wu², each side at least 3
    /// perception radii and at most 1e6 wu.
    pub fn with_world_for_aspect(mut self, boids: usize, density: f32, aspect: f32) -> Self {
        let aspect = if aspect.is_finite() && aspect > 0.0 {
            aspect.clamp(0.1, 10.0)
        } else {
            1.0
        };
        let area = boids.max(1) as f32 / density;
        let min_side = (3.0 * self.perception_radius).min(1.0e6);
        self.world_width = (area * aspect).sqrt().clamp(min_side, 1.0e6);
        self.world_height = (area / aspect).sqrt().clamp(min_side, 1.0e6);
        self
    }

    /// Checks every field against its documented range.
    ///
    /// # Errors
    /// [`ParamError::OutOfRange`] naming the first offending field, its value and the allowed range
    /// (NaN is always out of range), or [`ParamError::RadiusAbovePerception`] when a rule radius
    /// exceeds `perception_radius`.
    pub fn validate(&self) -> Result<(), ParamError> {
        let p = self;
        let checks: [(&'static str, f32, f32, f32); 27] = [
            ("world_width", p.world_width, 1.0, 1.0e6),
            ("world_height", p.world_height, 1.0, 1.0e6),
            ("dt", p.dt, 1.0e-4, 0.1),
            ("perception_radius", p.perception_radius, 0.01, 1.0e5),
            ("separation_radius", p.separation_radius, 0.0, 1.0e5),
            ("alignment_radius", p.alignment_radius, 0.0, 1.0e5),
            ("cohesion_radius", p.cohesion_radius, 0.0, 1.0e5),
            ("hue_radius", p.hue_radius, 0.0, 1.0e5),
            ("separation_weight", p.separation_weight, 0.0, 100.0),
            ("alignment_weight", p.alignment_weight, 0.0, 100.0),
            ("cohesion_weight", p.cohesion_weight, 0.0, 100.0),
            ("max_speed", p.max_speed, 0.001, 1.0e5),
            ("min_speed", p.min_speed, 0.0, p.max_speed),
            ("max_force", p.max_force, 0.0, 1.0e6),
            ("hue_cohesion_weight", p.hue_cohesion_weight, 0.0, 100.0),
            ("hue_alignment_weight", p.hue_alignment_weight, 0.0, 100.0),
            ("max_hue_speed", p.max_hue_speed, 0.0, 100.0),
            ("wall_distance", p.wall_distance, 0.0, 1.0e5),
            ("wall_weight", p.wall_weight, 0.0, 1.0e6),
            ("rotational_diffusion", p.rotational_diffusion, 0.0, 100.0),
            ("predator_radius", p.predator_radius, 0.0, 1.0e5),
            ("predator_weight", p.predator_weight, 0.0, 1.0e7),
            ("predator_sight_radius", p.predator_sight_radius, 0.0, 1.0e5),
            ("predator_max_speed", p.predator_max_speed, 0.0, 1.0e5),
            ("predator_max_force", p.predator_max_force, 0.0, 1.0e6),
            ("catch_radius", p.catch_radius, 0.0, 1.0e4),
            (
                "max_neighbors",
                p.max_neighbors as f32,
                0.0,
                crate::model::rules::MAX_NEIGHBORS_CAP as f32,
            ),
        ];
        for (field, value, min, max) in checks {
            // `!(a <= b)` is also true for NaN.
            if !(value >= min && value <= max) {
                return Err(ParamError::OutOfRange {
                    field,
                    value: decimal(value),
                    min: decimal(min),
                    max: decimal(max),
                });
            }
        }
        crate::model::models::validate_model_params(p)?;
        if p.boundary == Boundary::Wrap {
            // The minimum image is unique only when the world is at least two radii across.
            for (field, side) in [
                ("world_width", p.world_width),
                ("world_height", p.world_height),
            ] {
                if side < 2.0 * p.perception_radius {
                    return Err(ParamError::OutOfRange {
                        field,
                        value: decimal(side),
                        min: decimal(2.0 * p.perception_radius),
                        max: 1.0e6,
                    });
                }
            }
        }
        for (field, r) in [
            ("separation_radius", p.separation_radius),
            ("alignment_radius", p.alignment_radius),
            ("cohesion_radius", p.cohesion_radius),
            ("hue_radius", p.hue_radius),
        ] {
            // The Vicsek model interacts within the perception radius alone (docs/model.md §16.2).
            if r > p.perception_radius && p.model != Model::Vicsek {
                return Err(ParamError::RadiusAbovePerception {
                    field,
                    value: decimal(r),
                    perception_radius: decimal(p.perception_radius),
                });
            }
        }
        Ok(())
    }

    /// The largest of the rule radii (separation, alignment, cohesion, hue) (wu).
    pub fn largest_rule_radius(&self) -> f32 {
        [
            self.separation_radius,
            self.alignment_radius,
            self.cohesion_radius,
            self.hue_radius,
        ]
        .into_iter()
        .fold(0.0, f32::max)
    }

    /// These parameters after a live edit from `before`: when a rule radius changed, the
    /// perception radius (the uniform grid's cell size) follows the largest rule radius, so the
    /// grid stays as fine as the rules allow (at least 0.01 wu, its smallest valid value).
    pub fn with_perception_following(mut self, before: &SimParams) -> Self {
        let radii = |q: &SimParams| {
            [
                q.separation_radius,
                q.alignment_radius,
                q.cohesion_radius,
                q.hue_radius,
            ]
        };
        if radii(&self) != radii(before) {
            self.perception_radius = self.largest_rule_radius().max(0.01);
        }
        self
    }
}

/// `x` as the f64 of its shortest decimal form, so messages say `0.1`, not `0.10000000149011612`.
pub(crate) fn decimal(x: f32) -> f64 {
    x.to_string().parse().unwrap_or(x as f64)
}

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
