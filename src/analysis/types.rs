//! What every analysis shares: the states it is given ([`Frame`]), its settings ([`Settings`]),
//! what it returns ([`Curve`]: a curve with its axes, and its scalar summaries), its entry in the
//! table ([`AnalysisDesc`]) and its errors ([`AnalysisError`]).

use crate::model::{Boid, World};

/// One state an analysis is given: the boids (any order; the time analyses sort them by id), the
/// world and the time (in the model's unit of time: s, or steps for the Vicsek model).
#[derive(Clone, Copy, Debug)]
pub struct Frame<'a> {
    /// The boids.
    pub boids: &'a [Boid],
    /// The world they live in.
    pub world: World,
    /// The time of the state (s; steps for the Vicsek model).
    pub time: f64,
}

/// An axis of a curve: its symbol, what it is, its unit (`""` when dimensionless).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Axis {
    /// The symbol (`r`, `C(r)`).
    pub symbol: &'static str,
    /// What it is, in words.
    pub name: &'static str,
    /// Its unit (`wu`, `1/wu`, `s`); `""` when dimensionless; `"time"` for the model's unit of
    /// time (s, or steps for the Vicsek model), which [`Settings::time_unit`] names.
    pub unit: &'static str,
}

/// The structure factor's mesh without a setting: cells along the world's longer side.
pub const DEFAULT_MESH: u32 = 256;

/// The settings of the analyses of a run (each reads those it uses). A setting that cannot be
/// honoured is refused by the analysis's `make` before the run, naming the limit.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// The largest separation of the pair analyses, g(r) and C(r) (wu). `None`: each analysis's
    /// [`Reach`].
    pub r_max: Option<f64>,
    /// The width of their bins (wu). `None`: r_max / 50.
    pub bin: Option<f64>,
    /// The mesh of the structure factor: cells along the world's longer side (a power of two
    /// is fastest), 16 ..= 4096.
    pub mesh: u32,
    /// The side of the boxes of the local-density histogram and the width of the density
    /// profile's slabs (wu). `None`: two perception radii, at most a quarter of the world's
    /// shorter side.
    pub box_side: Option<f64>,
    /// The radius linking boids into clusters (wu): the perception radius unless given.
    pub link_radius: f64,
    /// The perception radius of the run (wu), from which the defaults above follow.
    pub perception_radius: f64,
    /// States the time analyses will be given (the run's reads); their lags reach at most
    /// `states − 1` reads.
    pub states: u64,
    /// The time between two states (the model's unit of time).
    pub interval: f64,
    /// The model's unit of time (`s`, or `steps`).
    pub time_unit: &'static str,
}

impl Settings {
    /// The defaults for a run of perception radius `r_p` (wu) read `states` times, `interval`
    /// apart, in `time_unit`.
    pub fn new(r_p: f64, states: u64, interval: f64, time_unit: &'static str) -> Settings {
        Settings {
            r_max: None,
            bin: None,
            mesh: DEFAULT_MESH,
            box_side: None,
            link_radius: r_p,
            perception_radius: r_p,
            states,
            interval,
            time_unit,
        }
    }

    /// The pair analyses' r_max and bin for `world`, checked: r_max ≤ half the shorter side in a
    /// wrapping world (the minimum image reaches no further) or ≤ the shorter side, and at least
    /// 1 bin of a positive width.
    ///
    /// # Errors
    /// [`AnalysisError::Setting`] naming the limit.
    pub fn pair_range(
        &self,
        analysis: &'static str,
        world: World,
        reach: Reach,
    ) -> Result<(f64, f64), AnalysisError> {
        let short = world.width.min(world.height) as f64;
        let limit = if world.wrap { short / 2.0 } else { short };
        let r_max = self.r_max.unwrap_or(match reach {
            Reach::Neighbourhood => (short / 4.0).min(10.0 * self.perception_radius),
            Reach::World => short / 2.0,
        });
        if !(r_max > 0.0 && r_max <= limit) {
            return Err(AnalysisError::Setting {
                analysis,
                field: "r_max",
                value: r_max,
                allowed: format!(
                    "0 < r_max ≤ {} wu ({} the world's shorter side, {} wu)",
                    shown(limit),
                    if world.wrap { "half" } else { "at most" },
                    shown(short)
                ),
            });
        }
        let bin = self.bin.unwrap_or(r_max / 50.0);
        if !(bin > 0.0 && bin <= r_max && r_max / bin <= MAX_BINS as f64) {
            return Err(AnalysisError::Setting {
                analysis,
                field: "bin",
                value: bin,
                allowed: format!(
                    "r_max / {MAX_BINS} = {} ≤ bin ≤ r_max = {} wu (at most {MAX_BINS} bins)",
                    shown(r_max / MAX_BINS as f64),
                    shown(r_max)
                ),
            });
        }
        Ok((r_max, bin))
    }
}

/// A setting of the analyses, as an analysis declares it reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SettingName {
    /// `r_max` (`--r-max`).
    RMax,
    /// `bin` (`--bin`).
    Bin,
    /// `mesh` (`--mesh`).
    Mesh,
    /// `box_side` (`--box-side`).
    BoxSide,
    /// `link_radius` (`--link-radius`).
    LinkRadius,
}

impl SettingName {
    /// Its command-line option.
    pub fn option(self) -> &'static str {
        match self {
            SettingName::RMax => "--r-max",
            SettingName::Bin => "--bin",
            SettingName::Mesh => "--mesh",
            SettingName::BoxSide => "--box-side",
            SettingName::LinkRadius => "--link-radius",
        }
    }

    /// Its name as a setting (and Python keyword): `r_max`, `bin`, `mesh`, `box_side`,
    /// `link_radius`.
    pub fn keyword(self) -> &'static str {
        match self {
            SettingName::RMax => "r_max",
            SettingName::Bin => "bin",
            SettingName::Mesh => "mesh",
            SettingName::BoxSide => "box_side",
            SettingName::LinkRadius => "link_radius",
        }
    }
}

/// How far a pair analysis reaches without an r_max setting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reach {
    /// A quarter of the world's shorter side, at most 10 perception radii (g(r): its structure
    /// is a few neighbour shells).
    Neighbourhood,
    /// Half the world's shorter side (C(r): in an ordered flock its first zero ξ is a fixed
    /// fraction of the world, about 0.3 L, which a shorter reach would hide).
    World,
}

/// The most bins of a pair analysis.
pub const MAX_BINS: u64 = 100_000;

/// The most boxes of the local-density histogram.
pub const MAX_BOXES: f64 = 16_777_216.0;

/// What an analysis returns: a curve `y(x)` with the samples behind each point, and its scalar
/// summaries (`None` where one does not exist, as a correlation length of a curve with no zero).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Curve {
    /// The abscissae (bin centres, wave numbers, lags), increasing.
    pub x: Vec<f64>,
    /// The values.
    pub y: Vec<f64>,
    /// The samples averaged into each value (pairs, wave vectors, boxes, clusters, origins).
    pub samples: Vec<u64>,
    /// Scalar summaries: name, value, unit.
    pub scalars: Vec<(&'static str, Option<f64>, &'static str)>,
}

/// An analysis in progress: given states one by one, then asked for its curve.
pub trait Analysis: Send {
    /// Adds one state.
    ///
    /// # Errors
    /// [`AnalysisError`] for a state it cannot take (a time analysis given another set of ids).
    fn add(&mut self, frame: &Frame) -> Result<(), AnalysisError>;

    /// The curve of the states added so far.
    ///
    /// # Errors
    /// [`AnalysisError::TooFew`] when it has not been given enough states.
    fn curve(&self) -> Result<Curve, AnalysisError>;
}

/// The axes of an analysis's plot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scales {
    /// Both linear.
    Linear,
    /// A logarithmic x axis (lags).
    LogX,
    /// Both logarithmic (power laws: the MSD, P(s), S(k)).
    LogLog,
}

/// How an entry makes its analysis for a run's settings and world.
pub type MakeAnalysis = fn(&Settings, World) -> Result<Box<dyn Analysis>, AnalysisError>;

/// An entry of the analysis table: its name, what it computes, its axes, its scalar summaries,
/// whether it needs a series of states of the same boids, and how to make one.
pub struct AnalysisDesc {
    /// The name (`velocity_correlation`), as options and files name it.
    pub name: &'static str,
    /// One line: what it is.
    pub about: &'static str,
    /// The abscissa.
    pub x: Axis,
    /// The ordinate.
    pub y: Axis,
    /// Whether it correlates states in time (then it is given every read state, and the same boids
    /// each time); otherwise it averages over the states it is given.
    pub series: bool,
    /// The axes of its plot.
    pub scales: Scales,
    /// The settings it reads (so one given that no analysis asked for reads is refused).
    pub reads: &'static [SettingName],
    /// Whether its plot joins the points by a line (a function sampled on a grid), or shows them
    /// alone (a distribution over sparse values: the cluster sizes).
    pub joined: bool,
    /// What it reads of a state beyond the positions (which a trajectory from another program
    /// may lack: `boids analyse` refuses it then, rather than reading 0).
    pub needs: &'static [StatePart],
    /// Its scalar summaries, (name, unit), in the order of [`Curve::scalars`] (`xi` in wu): what
    /// `boids sweep --analyse` records per run, as columns of these names.
    pub scalars: &'static [(&'static str, &'static str)],
    /// Makes one for a run of `Settings` in `World`.
    ///
    /// # Errors
    /// [`AnalysisError::Setting`] for a setting it cannot honour, naming the limit.
    pub make: MakeAnalysis,
}

/// A part of a state that an analysis may need beyond the positions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StatePart {
    /// The velocities (a GSD file's `particles/velocity`).
    Velocity,
    /// The periodic image counts, which unwrap the paths (a GSD file's `particles/image`).
    Image,
}

/// Why an analysis cannot be made or finished.
#[derive(Clone, Debug, thiserror::Error, PartialEq)]
pub enum AnalysisError {
    /// A setting it cannot honour.
    #[error("{analysis}: {field} = {value} cannot be honoured: allowed {allowed}")]
    Setting {
        /// The analysis.
        analysis: &'static str,
        /// The setting.
        field: &'static str,
        /// Its value.
        value: f64,
        /// What is allowed.
        allowed: String,
    },
    /// Too few states (or boids) to compute it.
    #[error("{analysis}: needs at least {needed} {what}, got {got}")]
    TooFew {
        /// The analysis.
        analysis: &'static str,
        /// What is counted (`states`, `boids`).
        what: &'static str,
        /// How many it needs.
        needed: u64,
        /// How many it got.
        got: u64,
    },
    /// A time analysis given states of other boids than its first.
    #[error(
        "{analysis}: the states are not of the same boids (ids differ from the first state's)"
    )]
    OtherBoids {
        /// The analysis.
        analysis: &'static str,
    },
    /// An analysis of wrapping worlds given a walled or bouncing one.
    #[error("{analysis}: needs a wrapping world (boundary = \"wrap\"): {why}")]
    NeedsWrap {
        /// The analysis.
        analysis: &'static str,
        /// Why.
        why: &'static str,
    },
    /// A state of another world than the first state's.
    #[error(
        "{analysis}: the states are not of the same world ({width} × {height} wu against the \
         first state's {first_width} × {first_height})"
    )]
    OtherWorld {
        /// The analysis.
        analysis: &'static str,
        /// The state's world's width (wu).
        width: f32,
        /// Its height (wu).
        height: f32,
        /// The first state's world's width (wu).
        first_width: f32,
        /// Its height (wu).
        first_height: f32,
    },
    /// No analysis of this name.
    #[error("no analysis `{name}`: {known}")]
    Unknown {
        /// The name asked for.
        name: String,
        /// The names of the table.
        known: String,
    },
}

/// The middle of bin `b` of width `bin` below `r_max` (the last bin may be cut short by it).
pub fn bin_centre(b: usize, bin: f64, r_max: f64) -> f64 {
    let lo = b as f64 * bin;
    let hi = ((b + 1) as f64 * bin).min(r_max);
    0.5 * (lo + hi)
}

impl std::fmt::Debug for AnalysisDesc {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "AnalysisDesc({})", self.name)
    }
}

impl PartialEq for AnalysisDesc {
    /// Entries are equal when their names are (names are unique in the table).
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
    }
}

/// `x` to 4 decimals at most, for messages (`353.5534`, `40`; `2.795e-5` below 0.001).
pub fn shown(x: f64) -> String {
    if x != 0.0 && x.abs() < 1e-3 {
        return format!("{x:.3e}");
    }
    let r = (x * 1e4).round() / 1e4;
    format!("{r}")
}

/// Refuses a curve of fewer than `needed` states (or pairs of states) of the kind `what`
/// (singular when `needed` is 1: "needs at least 1 state with boids").
///
/// # Errors
/// [`AnalysisError::TooFew`] when `got < needed`.
pub fn need(
    analysis: &'static str,
    what: &'static str,
    needed: u64,
    got: u64,
) -> Result<(), AnalysisError> {
    if got < needed {
        return Err(AnalysisError::TooFew {
            analysis,
            what,
            needed,
            got,
        });
    }
    Ok(())
}

/// The abscissa of the pair analyses: the separation r (wu).
pub const SEPARATION: Axis = Axis {
    symbol: "r",
    name: "separation",
    unit: "wu",
};

/// The abscissa of the time analyses: the lag t (the model's unit of time).
pub const LAG: Axis = Axis {
    symbol: "t",
    name: "lag",
    unit: "time",
};
