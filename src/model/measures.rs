//! The measure table and the flock measures (docs/model.md §12): every measure a run reports —
//! polarization, milling, mean speed, mean neighbour count, the Vicsek order parameter v_a, the
//! predators' catches and the flock census (counted in [`crate::model::census`]) — described once in [`MEASURES`] (name, symbol, unit,
//! range, what it needs and how it is finished), so that the headless summary and its `--stats`
//! columns, benchmark captures, sweep columns and plot labels all come from it.
//!
//! The measures that are averages over the boids are *finished* from one row of sums
//! ([`MeasureSums`]: the same 16 columns in `shaders/measures.wgsl`'s reduction on the GPU, in
//! f32, and in [`MeasureSums::of_state`] on the CPU, in f64): a backend fills the row, and
//! [`FlockMeasures::from_sums`] turns it into the measures. **Adding a measure** touches two
//! files: this one (its line in `measure_table!`, its columns in [`MeasureSums::add_boid`] and
//! its finishing function) and `shaders/measures.wgsl` (the same columns on the GPU), plus its test
//! and its line in docs/model.md §12.

use serde::{Deserialize, Serialize};

use crate::model::census::FlockCensus;
use crate::model::state::Boid;
use crate::model::world::World;

/// Floats in one row of the measures reduction (`Row` of `shaders/measures.wgsl`: 4 × vec4).
pub const SUMS: usize = 16;

/// Column of Σ v̂ (x; y at +1): unit velocities, 0 for a stopped boid.
pub const COL_UNIT_VELOCITY: usize = 0;
/// Column of Σ |v|.
pub const COL_SPEED: usize = 2;
/// Column of Σ neighbour counts.
pub const COL_NEIGHBORS: usize = 3;
/// Column of Σ p (x; y at +1), for the milling centre of a closed world.
pub const COL_POSITION: usize = 4;
/// Column of Σ r̂ × v̂ about the centre (the second pass).
pub const COL_MILLING: usize = 6;
/// Columns of Σ cos θx, Σ sin θx, Σ cos θy, Σ sin θy (θx = 2π·x/W, θy = 2π·y/H), for the
/// periodic centre of a wrapping world.
pub const COL_TRIG: usize = 8;
/// Column of Σ v (x; y at +1), for v_a.
pub const COL_VELOCITY: usize = 12;
/// Column of Σ e^{2iθ} (cos 2θ; sin 2θ at +1) of the headings θ, for the nematic order (0 for a
/// stopped boid).
pub const COL_NEMATIC: usize = 14;

/// One row of the measures reduction: per-boid quantities summed over the state (docs/model.md
/// §12.5). Columns as in `shaders/measures.wgsl` (`COL_*`); 7 is unused.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MeasureSums {
    /// The sums.
    pub cols: [f64; SUMS],
}

/// What finishing the sums needs besides them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MeasureContext {
    /// Number of boids N.
    pub n: usize,
    /// The model's constant speed v0 (the Vicsek model), or `None`: v_a then divides by Σ |v|.
    pub v0: Option<f32>,
    /// Whether the neighbour counts are those of a step (`false` before the first step of a
    /// state: the mean neighbour count is then not computed).
    pub neighbors_counted: bool,
}

/// What a measure is computed from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Needs {
    /// The sums of the reduction ([`MeasureSums`]): every backend computes it, on request.
    Sums,
    /// The sums, with neighbour counts from a step.
    SumsAndNeighbors,
    /// The backend's catch counters.
    Catches,
    /// The flock census ([`flock_census`](crate::model::census::flock_census)): a read-back of the state and a CPU pass, on request.
    Census,
    /// The series of the model's order parameter φ over a run's measured steps (its moments and
    /// cumulants: `crate::stats::order_parameter_moments`), not one state.
    Series,
}

/// The unit of a measure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    /// Dimensionless.
    None,
    /// The model's speed unit (wu/s; wu per step for the Vicsek model).
    Speed,
    /// A count (of boids, neighbours or flocks).
    Count,
}

/// One measure, described (an entry of [`MEASURES`]).
#[derive(Clone, Copy, Debug)]
pub struct Measure {
    /// Its column name in `--stats` files, `sweep.csv` and summaries (`polarization`).
    pub name: &'static str,
    /// Its symbol in docs/model.md and plots (`φ`).
    pub symbol: &'static str,
    /// Its name in words, for summaries and plot titles.
    pub title: &'static str,
    /// Its unit.
    pub unit: Unit,
    /// Its range, when bounded (`[0, 1]`).
    pub range: Option<(f64, f64)>,
    /// What it is computed from.
    pub needs: Needs,
    /// Its value from the sums (measures that need them).
    pub finish: Option<fn(&MeasureSums, &MeasureContext) -> f64>,
    /// Its section of docs/model.md.
    pub doc: &'static str,
}

/// How far past its range rounding may carry a bounded measure finished from the sums: the sums
/// are f32 (on the GPU, in workgroup trees), so a perfectly ordered flock's |Σ v̂|/N can come out
/// a few ulp above 1 (1.0000000073 seen at N = 400). A value within this of its range is put on
/// the range's edge ([`Measure::within_range`]); one farther out is left as it is, so a real
/// fault still shows.
pub const RANGE_ROUNDING: f64 = 1e-4;

impl Measure {
    /// `v` clamped to this measure's range where rounding put it outside, by at most
    /// [`RANGE_ROUNDING`]; otherwise `v` (also a NaN, or a value farther outside).
    pub fn within_range(&self, v: f64) -> f64 {
        match self.range {
            Some((_, hi)) if v > hi && v <= hi + RANGE_ROUNDING => hi,
            Some((lo, _)) if v < lo && v >= lo - RANGE_ROUNDING => lo,
            _ => v,
        }
    }

    /// Whether it is an average over the boids, finished from the sums (what sweeps record).
    pub fn from_sums(&self) -> bool {
        matches!(self.needs, Needs::Sums | Needs::SumsAndNeighbors)
    }

    /// Its unit as text for a model whose speeds are in `speed_unit` ("" when dimensionless).
    pub fn unit_text(&self, speed_unit: &'static str) -> &'static str {
        match self.unit {
            Unit::None | Unit::Count => "",
            Unit::Speed => speed_unit,
        }
    }

    /// A value for a summary: counts whole, fractions to 4 decimals, the rest to 3, with the unit.
    pub fn format(&self, v: f64, speed_unit: &'static str) -> String {
        let text = match (self.needs, self.unit) {
            (Needs::Catches | Needs::Census, Unit::Count) => format!("{v:.0}"),
            (_, Unit::None) => format!("{v:.4}"),
            _ => format!("{v:.3}"),
        };
        match self.unit_text(speed_unit) {
            "" => text,
            u => format!("{text} {u}"),
        }
    }

    /// The axis label of a plot: the symbol (or the title) and the unit, `⟨|v|⟩ (wu/s)`.
    pub fn label(&self, speed_unit: &'static str) -> String {
        let name = if self.symbol.is_empty() {
            self.title
        } else {
            self.symbol
        };
        match self.unit_text(speed_unit) {
            "" => name.to_string(),
            u => format!("{name} ({u})"),
        }
    }
}

/// A measure's index in [`MEASURES`] (`MeasureId::POLARIZATION`, …).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MeasureId(pub usize);

impl MeasureId {
    /// Its entry in the table.
    pub fn desc(self) -> &'static Measure {
        &MEASURES[self.0]
    }

    /// The measure named `name`.
    pub fn by_name(name: &str) -> Option<MeasureId> {
        MEASURES.iter().position(|m| m.name == name).map(MeasureId)
    }

    /// Every measure, in table order.
    pub fn all() -> impl Iterator<Item = MeasureId> {
        (0..MEASURES.len()).map(MeasureId)
    }
}

/// The table: one line per measure, its constant on [`MeasureId`] and its [`Measure`].
macro_rules! measure_table {
    ($( $(#[doc = $doc:literal])* $CONST:ident => $desc:expr; )*) => {
        #[allow(non_camel_case_types, clippy::upper_case_acronyms)]
        #[repr(usize)]
        enum Index { $( $CONST, )* COUNT }

        impl MeasureId {
            $( $(#[doc = $doc])* pub const $CONST: MeasureId = MeasureId(Index::$CONST as usize); )*
        }

        /// Number of measures in [`MEASURES`].
        pub const MEASURE_COUNT: usize = Index::COUNT as usize;

        /// Every measure, in column order.
        pub static MEASURES: [Measure; MEASURE_COUNT] = [ $( $desc, )* ];
    };
}

/// |(x, y)|.
fn norm(s: &MeasureSums, col: usize) -> f64 {
    s.cols[col].hypot(s.cols[col + 1])
}

measure_table! {
    /// Polarization φ = |Σ v_i/|v_i|| / N (docs/model.md §12.1).
    POLARIZATION => Measure {
        name: "polarization",
        symbol: "φ",
        title: "polarization",
        unit: Unit::None,
        range: Some((0.0, 1.0)),
        needs: Needs::Sums,
        finish: Some(|s, c| norm(s, COL_UNIT_VELOCITY) / c.n as f64),
        doc: "§12.1",
    };
    /// Milling m = |Σ r̂_i × v̂_i| / N (docs/model.md §12.2).
    MILLING => Measure {
        name: "milling",
        symbol: "m",
        title: "milling",
        unit: Unit::None,
        range: Some((0.0, 1.0)),
        needs: Needs::Sums,
        finish: Some(|s, c| s.cols[COL_MILLING].abs() / c.n as f64),
        doc: "§12.2",
    };
    /// Mean speed ⟨|v|⟩ (docs/model.md §12.3).
    MEAN_SPEED => Measure {
        name: "mean_speed",
        symbol: "⟨|v|⟩",
        title: "mean speed",
        unit: Unit::Speed,
        range: None,
        needs: Needs::Sums,
        finish: Some(|s, c| s.cols[COL_SPEED] / c.n as f64),
        doc: "§12.3",
    };
    /// Mean neighbour count ⟨k⟩ within the perception radius (docs/model.md §12.4).
    MEAN_NEIGHBORS => Measure {
        name: "mean_neighbors",
        symbol: "⟨k⟩",
        title: "mean neighbours",
        unit: Unit::Count,
        range: None,
        needs: Needs::SumsAndNeighbors,
        finish: Some(|s, c| s.cols[COL_NEIGHBORS] / c.n as f64),
        doc: "§12.4",
    };
    /// The order parameter v_a = |Σ v_i| / (N·v0) (docs/model.md §12.7).
    VA => Measure {
        name: "va",
        symbol: "v_a",
        title: "v_a",
        unit: Unit::None,
        range: Some((0.0, 1.0)),
        needs: Needs::Sums,
        finish: Some(|s, c| {
            let total = match c.v0 {
                Some(v0) => c.n as f64 * v0 as f64,
                None => s.cols[COL_SPEED],
            };
            if total > 0.0 {
                norm(s, COL_VELOCITY) / total
            } else {
                0.0
            }
        }),
        doc: "§12.7",
    };
    /// Nematic order S = |Σ e^{2iθ_i}| / N of the headings (docs/model.md §12.8): 1 when every
    /// boid moves along one axis, either way (a flock split half and half in opposite directions
    /// has S = 1 and φ = 0).
    NEMATIC => Measure {
        name: "nematic",
        symbol: "S",
        title: "nematic order",
        unit: Unit::None,
        range: Some((0.0, 1.0)),
        needs: Needs::Sums,
        finish: Some(|s, c| norm(s, COL_NEMATIC) / c.n as f64),
        doc: "§12.8",
    };
    /// Boids caught by hunting predators in the last step (docs/model.md §18.4).
    CATCHES => Measure {
        name: "catches",
        symbol: "",
        title: "boids caught in the last step",
        unit: Unit::Count,
        range: None,
        needs: Needs::Catches,
        finish: None,
        doc: "§18.4",
    };
    /// Boids caught since the run began (carried through checkpoints; wraps at 2^32).
    CATCHES_TOTAL => Measure {
        name: "catches_total",
        symbol: "",
        title: "boids caught in the run",
        unit: Unit::Count,
        range: None,
        needs: Needs::Catches,
        finish: None,
        doc: "§18.4",
    };
    /// ⟨φ²⟩ of the model's order parameter φ over a run's measured steps (docs/model.md §12.9).
    ORDER_M2 => Measure {
        name: "phi2",
        symbol: "⟨φ²⟩",
        title: "second moment of the order parameter",
        unit: Unit::None,
        range: Some((0.0, 1.0)),
        needs: Needs::Series,
        finish: None,
        doc: "§12.9",
    };
    /// ⟨φ⁴⟩ of the order parameter over a run's measured steps.
    ORDER_M4 => Measure {
        name: "phi4",
        symbol: "⟨φ⁴⟩",
        title: "fourth moment of the order parameter",
        unit: Unit::None,
        range: Some((0.0, 1.0)),
        needs: Needs::Series,
        finish: None,
        doc: "§12.9",
    };
    /// The Binder cumulant G = 1 − ⟨φ⁴⟩/(3⟨φ²⟩²) (Binder 1981; docs/model.md §12.9): 2/3 in
    /// perfect order, 1/3 + 1/(3N) for independent random headings.
    BINDER => Measure {
        name: "binder",
        symbol: "G",
        title: "Binder cumulant",
        unit: Unit::None,
        range: None,
        needs: Needs::Series,
        finish: None,
        doc: "§12.9",
    };
    /// The susceptibility χ = N(⟨φ²⟩ − ⟨φ⟩²) (docs/model.md §12.9): 0 in perfect order, 1 − π/4
    /// for independent random headings.
    SUSCEPTIBILITY => Measure {
        name: "susceptibility",
        symbol: "χ",
        title: "susceptibility",
        unit: Unit::None,
        range: None,
        needs: Needs::Series,
        finish: None,
        doc: "§12.9",
    };
    /// Flocks: connected components of at least [`FLOCK_MIN_BOIDS`](crate::model::census::FLOCK_MIN_BOIDS) boids (docs/model.md §12.6).
    FLOCKS => Measure {
        name: "flocks",
        symbol: "",
        title: "flocks",
        unit: Unit::Count,
        range: None,
        needs: Needs::Census,
        finish: None,
        doc: "§12.6",
    };
    /// Boids in the largest component.
    LARGEST_FLOCK => Measure {
        name: "largest_flock",
        symbol: "",
        title: "largest flock",
        unit: Unit::Count,
        range: None,
        needs: Needs::Census,
        finish: None,
        doc: "§12.6",
    };
    /// Fraction of the boids in a flock.
    FLOCKED_FRACTION => Measure {
        name: "flocked_fraction",
        symbol: "",
        title: "fraction in flocks",
        unit: Unit::None,
        range: Some((0.0, 1.0)),
        needs: Needs::Census,
        finish: None,
        doc: "§12.6",
    };
    /// Hue coherence of the flocks (1 = one hue per flock).
    HUE_COHERENCE => Measure {
        name: "hue_coherence",
        symbol: "",
        title: "hue coherence",
        unit: Unit::None,
        range: Some((0.0, 1.0)),
        needs: Needs::Census,
        finish: None,
        doc: "§12.6",
    };
}

impl MeasureSums {
    /// The row of the GPU's reduction (16 f32 in column order).
    ///
    /// # Panics
    /// If `row` holds fewer than [`SUMS`] floats.
    pub fn from_row(row: &[f32]) -> MeasureSums {
        let mut cols = [0.0; SUMS];
        for (c, r) in cols.iter_mut().zip(&row[..SUMS]) {
            *c = *r as f64;
        }
        MeasureSums { cols }
    }

    /// Adds one boid's columns of the first pass (all but milling): its unit velocity, speed,
    /// neighbour count, position, the periodic-centre terms (in a world that wraps), velocity and
    /// doubled-angle heading.
    /// `shaders/measures.wgsl` (`measures_partial`) adds the same.
    #[inline]
    pub fn add_boid(&mut self, pos_vel: [f32; 4], neighbors: u32, world: World) {
        let c = &mut self.cols;
        let (vx, vy) = (pos_vel[2] as f64, pos_vel[3] as f64);
        let (ux, uy) = unit(vx, vy);
        c[COL_UNIT_VELOCITY] += ux;
        c[COL_UNIT_VELOCITY + 1] += uy;
        c[COL_SPEED] += vx.hypot(vy);
        c[COL_NEIGHBORS] += neighbors as f64;
        let (px, py) = (pos_vel[0] as f64, pos_vel[1] as f64);
        c[COL_POSITION] += px;
        c[COL_POSITION + 1] += py;
        if world.wrap {
            let tau = std::f64::consts::TAU;
            let (tx, ty) = (
                tau * px / world.width as f64,
                tau * py / world.height as f64,
            );
            c[COL_TRIG] += tx.cos();
            c[COL_TRIG + 1] += tx.sin();
            c[COL_TRIG + 2] += ty.cos();
            c[COL_TRIG + 3] += ty.sin();
        }
        c[COL_VELOCITY] += vx;
        c[COL_VELOCITY + 1] += vy;
        // e^{2iθ} = (cos²θ − sin²θ, 2 sinθ cosθ) from the unit velocity.
        c[COL_NEMATIC] += ux * ux - uy * uy;
        c[COL_NEMATIC + 1] += 2.0 * ux * uy;
    }

    /// The milling centre of `n` boids (docs/model.md §12.2): the periodic mean per axis in a
    /// world that wraps, else the mean position.
    pub fn centre(&self, n: usize, world: World) -> (f64, f64) {
        let c = &self.cols;
        if world.wrap {
            (
                circular_mean(c[COL_TRIG], c[COL_TRIG + 1], world.width as f64),
                circular_mean(c[COL_TRIG + 2], c[COL_TRIG + 3], world.height as f64),
            )
        } else {
            let nf = n.max(1) as f64;
            (c[COL_POSITION] / nf, c[COL_POSITION + 1] / nf)
        }
    }

    /// Adds one boid's milling term r̂ × v̂ about `centre` (the second pass; minimum-image offsets
    /// in a world that wraps; within [`MILLING_NEAR`] of the world's larger side of the centre a
    /// boid has no direction from it). `shaders/measures.wgsl` (`milling_partial`) adds the same.
    #[inline]
    pub fn add_milling(&mut self, pos_vel: [f32; 4], centre: (f64, f64), world: World) {
        let (w, h) = (world.width as f64, world.height as f64);
        let offset = |d: f64, len: f64| match world.wrap {
            true => d - len * (d / len).round(),
            false => d,
        };
        let near2 = (MILLING_NEAR * w.max(h)).powi(2);
        let (dx, dy) = (
            offset(pos_vel[0] as f64 - centre.0, w),
            offset(pos_vel[1] as f64 - centre.1, h),
        );
        let (rx, ry) = if dx * dx + dy * dy > near2 {
            unit(dx, dy)
        } else {
            (0.0, 0.0)
        };
        let (ux, uy) = unit(pos_vel[2] as f64, pos_vel[3] as f64);
        self.cols[COL_MILLING] += rx * uy - ry * ux;
    }

    /// The sums of a state in f64 (the CPU twin of the `measures` stage): both passes.
    pub fn of_state(pos_vel: &[[f32; 4]], neighbors: &[u32], world: World) -> MeasureSums {
        let mut s = MeasureSums::default();
        for (i, pv) in pos_vel.iter().enumerate() {
            s.add_boid(*pv, neighbors.get(i).copied().unwrap_or(0), world);
        }
        let centre = s.centre(pos_vel.len(), world);
        for pv in pos_vel {
            s.add_milling(*pv, centre, world);
        }
        s
    }
}

/// The unit vector of (x, y), or 0 for a vector shorter than 1e-12.
fn unit(x: f64, y: f64) -> (f64, f64) {
    let l = (x * x + y * y).sqrt();
    if l > 1e-12 {
        (x / l, y / l)
    } else {
        (0.0, 0.0)
    }
}

/// The measures of one state: a value for each measure of [`MEASURES`] that was computed
/// (`None` for the others: the census when not asked for, catches where nothing counts them, the
/// mean neighbour count before the first step).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FlockMeasures {
    values: [Option<f64>; MEASURE_COUNT],
}

impl FlockMeasures {
    /// The measures finished from `sums` (every measure of the table that has a `finish`; the
    /// mean neighbour count only when `ctx.neighbors_counted`).
    pub fn from_sums(sums: &MeasureSums, ctx: &MeasureContext) -> FlockMeasures {
        let mut out = FlockMeasures::default();
        if ctx.n == 0 {
            return out;
        }
        for (k, m) in MEASURES.iter().enumerate() {
            let Some(finish) = m.finish else { continue };
            if m.needs == Needs::SumsAndNeighbors && !ctx.neighbors_counted {
                continue;
            }
            out.values[k] = Some(m.within_range(finish(sums, ctx)));
        }
        out
    }

    /// The value of measure `m`, when computed.
    pub fn get(&self, m: MeasureId) -> Option<f64> {
        self.values[m.0]
    }

    /// Sets measure `m`.
    pub fn set(&mut self, m: MeasureId, value: f64) {
        self.values[m.0] = Some(value);
    }

    /// These measures with the catch counters (this step, since the run began).
    pub fn with_catches(mut self, step: u32, total: u32) -> FlockMeasures {
        self.set(MeasureId::CATCHES, step as f64);
        self.set(MeasureId::CATCHES_TOTAL, total as f64);
        self
    }

    /// These measures with the flock census.
    pub fn with_census(mut self, c: &FlockCensus) -> FlockMeasures {
        self.set(MeasureId::FLOCKS, c.flocks as f64);
        self.set(MeasureId::LARGEST_FLOCK, c.largest as f64);
        self.set(MeasureId::FLOCKED_FRACTION, c.flocked_fraction as f64);
        self.set(MeasureId::HUE_COHERENCE, c.hue_coherence as f64);
        self
    }

    /// Every computed measure with its value, in table order.
    pub fn iter(&self) -> impl Iterator<Item = (&'static Measure, f64)> + '_ {
        MEASURES
            .iter()
            .zip(&self.values)
            .filter_map(|(m, v)| v.map(|v| (m, v)))
    }

    /// A measure's value, or NaN when it was not computed.
    fn or_nan(&self, m: MeasureId) -> f64 {
        self.get(m).unwrap_or(f64::NAN)
    }

    /// Polarization φ (NaN when not computed).
    pub fn polarization(&self) -> f64 {
        self.or_nan(MeasureId::POLARIZATION)
    }

    /// Milling m (NaN when not computed).
    pub fn milling(&self) -> f64 {
        self.or_nan(MeasureId::MILLING)
    }

    /// Mean speed (NaN when not computed).
    pub fn mean_speed(&self) -> f64 {
        self.or_nan(MeasureId::MEAN_SPEED)
    }

    /// Mean neighbour count (NaN when not computed, e.g. before the first step).
    pub fn mean_neighbors(&self) -> f64 {
        self.or_nan(MeasureId::MEAN_NEIGHBORS)
    }

    /// The order parameter v_a (NaN when not computed).
    pub fn va(&self) -> f64 {
        self.or_nan(MeasureId::VA)
    }

    /// The nematic order S = |⟨e^{2iθ}⟩| of the headings (NaN when not computed).
    pub fn nematic(&self) -> f64 {
        self.or_nan(MeasureId::NEMATIC)
    }

    /// Boids caught in the last step (0 when not counted).
    pub fn catches(&self) -> u32 {
        self.get(MeasureId::CATCHES).unwrap_or(0.0) as u32
    }

    /// Boids caught since the run began (0 when not counted).
    pub fn catches_total(&self) -> u32 {
        self.get(MeasureId::CATCHES_TOTAL).unwrap_or(0.0) as u32
    }
}

impl Serialize for FlockMeasures {
    /// A map of the computed measures by name.
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = s.serialize_map(None)?;
        for (m, v) in self.iter() {
            map.serialize_entry(m.name, &v)?;
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for FlockMeasures {
    /// The map [`Serialize`] writes; names not in the table are left out.
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let map = std::collections::BTreeMap::<String, f64>::deserialize(d)?;
        let mut out = FlockMeasures::default();
        for (name, v) in map {
            if let Some(m) = MeasureId::by_name(&name) {
                out.set(m, v);
            }
        }
        Ok(out)
    }
}

/// Below this fraction of the world's larger side, a boid's distance from the milling centre counts
/// as 0 (it then adds nothing to the milling): the GPU's f32 centre is uncertain by about 1e-6 of
/// the world.
pub const MILLING_NEAR: f64 = 1e-5;

/// The periodic mean of coordinates x on a circle of length `len` (docs/model.md §12.2), from the
/// sums of cos θ and sin θ over them, θ = 2π·x/len: atan2(Σ sin θ, Σ cos θ)·len/2π, in
/// [−len/2, len/2]. 0 when the sums vanish (points spread evenly round the circle).
pub fn circular_mean(sum_cos: f64, sum_sin: f64, len: f64) -> f64 {
    sum_sin.atan2(sum_cos) * len / std::f64::consts::TAU
}

/// Reference computation of the measures in f64 (the CPU twin of the `measures` GPU stage).
/// `neighbors[i]` is the neighbour count of `boids[i]` from the last rules pass; in a `world` that
/// wraps, the milling centre is the periodic mean. v_a is taken with v0 = the mean speed (see
/// [`flock_measures_at_speed`]).
pub fn flock_measures(boids: &[Boid], neighbors: &[u32], world: World) -> FlockMeasures {
    flock_measures_at_speed(boids, neighbors, world, None)
}

/// [`flock_measures`] with v_a = |Σ v_i| / (N·v0) for the constant speed `v0` (wu per step) of the
/// Vicsek model, or, for `None`, v0 = the mean speed (docs/model.md §12.7).
pub fn flock_measures_at_speed(
    boids: &[Boid],
    neighbors: &[u32],
    world: World,
    v0: Option<f32>,
) -> FlockMeasures {
    let pos_vel: Vec<[f32; 4]> = boids.iter().map(Boid::pos_vel).collect();
    let sums = MeasureSums::of_state(&pos_vel, neighbors, world);
    FlockMeasures::from_sums(
        &sums,
        &MeasureContext {
            n: boids.len(),
            v0,
            neighbors_counted: true,
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fraction a few ulp above 1 (what f32 sums of a perfectly ordered flock give) is put on
    /// its range's edge; a value farther out, a NaN and a measure without a range are left alone.
    #[test]
    fn rounding_past_a_range_is_clamped_and_nothing_else() {
        let n = 400;
        let mut sums = MeasureSums { cols: [0.0; SUMS] };
        // Σ v̂ of 400 aligned unit headings, 1.0000000073 × N as the f32 sums gave.
        sums.cols[COL_UNIT_VELOCITY] = n as f64 * 1.000_000_007_3;
        let ctx = MeasureContext {
            n,
            v0: None,
            neighbors_counted: false,
        };
        let m = FlockMeasures::from_sums(&sums, &ctx);
        assert_eq!(m.get(MeasureId::POLARIZATION), Some(1.0));
        let phi = MeasureId::POLARIZATION.desc();
        assert_eq!(
            phi.within_range(1.0 + 1e-3),
            1.0 + 1e-3,
            "a real fault shows"
        );
        assert_eq!(phi.within_range(-1e-9), 0.0);
        assert!(phi.within_range(f64::NAN).is_nan());
        assert_eq!(phi.within_range(0.5), 0.5);
        let speed = MeasureId::by_name("mean_speed").unwrap().desc();
        assert_eq!(speed.range, None);
        assert_eq!(speed.within_range(7.0), 7.0);
    }

    /// `n` boids on a circle of radius `r` around `centre` (positions taken modulo the world
    /// `w` × `h`), each flying along the circle counter-clockwise at 50 wu/s.
    fn ring(n: u32, r: f32, centre: [f32; 2], w: f32, h: f32) -> Vec<Boid> {
        (0..n)
            .map(|i| {
                let a = i as f32 / n as f32 * std::f32::consts::TAU;
                let (s, c) = a.sin_cos();
                Boid {
                    position: [
                        (centre[0] + r * c).rem_euclid(w),
                        (centre[1] + r * s).rem_euclid(h),
                    ],
                    velocity: [-50.0 * s, 50.0 * c],
                    hue: [1.0, 0.0],
                    hue_velocity: [0.0, 0.0],
                    id: i,
                    image: [0; 2],
                }
            })
            .collect()
    }

    /// The measure table's nematic order (sums of cos 2θ, sin 2θ from the velocity's components,
    /// no angles) equals the statistics module's independent one (`stats::nematic_order`) on
    /// random headings and speeds, some boids stopped; and a planted change of one heading is seen.
    #[test]
    fn the_nematic_measure_equals_the_independent_nematic_order() {
        let mut rng = crate::stats::test_rng::TestRng::new(7);
        for n in [1usize, 2, 17, 400] {
            let boids: Vec<Boid> = (0..n)
                .map(|i| {
                    let a = rng.angle() as f32;
                    let v = if i % 7 == 3 {
                        0.0
                    } else {
                        (0.1 + 99.0 * rng.uniform()) as f32
                    };
                    let (s, c) = a.sin_cos();
                    Boid {
                        position: [rng.uniform() as f32 * 100.0, rng.uniform() as f32 * 100.0],
                        velocity: [v * c, v * s],
                        hue: [1.0, 0.0],
                        hue_velocity: [0.0, 0.0],
                        id: i as u32,
                        image: [0; 2],
                    }
                })
                .collect();
            let w = World {
                width: 100.0,
                height: 100.0,
                wrap: true,
            };
            let k = vec![0; n];
            let ours = flock_measures(&boids, &k, w).nematic();
            let vels: Vec<[f32; 2]> = boids.iter().map(|b| b.velocity).collect();
            let reference = crate::stats::nematic_order(&vels);
            assert!(
                (ours - reference).abs() < 1e-5,
                "N = {n}: {ours} vs {reference}"
            );
            if n == 17 {
                let mut turned = boids.clone();
                turned[0].velocity = [turned[0].velocity[1], -turned[0].velocity[0]];
                let t = flock_measures(&turned, &k, w).nematic();
                assert!(
                    (t - reference).abs() > 1e-3,
                    "a quarter turn of one boid is seen"
                );
            }
        }
    }

    #[test]
    fn a_mill_on_the_seam_mills_as_one_in_the_middle() {
        let (w, h) = (1000.0, 600.0);
        let k = vec![0; 400];
        let torus = World {
            width: w,
            height: h,
            wrap: true,
        };
        let middle = flock_measures(&ring(400, 100.0, [500.0, 300.0], w, h), &k, torus);
        for centre in [[0.0, 300.0], [500.0, 0.0], [0.0, 0.0], [990.0, 595.0]] {
            let boids = ring(400, 100.0, centre, w, h);
            let m = flock_measures(&boids, &k, torus);
            assert!(
                m.milling() > 0.99 && (m.milling() - middle.milling()).abs() < 1e-3,
                "centre {centre:?}: {m:?} vs {middle:?}"
            );
            // Without the periodic centre (a world that does not wrap) the same positions mill
            // less: the plain mean lies away from the ring's centre.
            let plain = flock_measures(
                &boids,
                &k,
                World {
                    wrap: false,
                    ..torus
                },
            );
            assert!(plain.milling() < 0.9, "centre {centre:?}: {plain:?}");
        }
        assert!(middle.milling() > 0.99, "{middle:?}");
    }

    #[test]
    fn circular_mean_of_points_across_the_seam() {
        let len = 1000.0f64;
        let (mut c, mut s) = (0.0, 0.0);
        for x in [990.0f64, 995.0, 5.0, 10.0] {
            let t = std::f64::consts::TAU * x / len;
            c += t.cos();
            s += t.sin();
        }
        assert!(circular_mean(c, s, len).abs() < 1e-9);
        let t = std::f64::consts::TAU * 250.0 / len;
        assert!((circular_mean(t.cos(), t.sin(), len) - 250.0).abs() < 1e-9);
    }
}
