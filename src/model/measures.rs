//! The measure table and the flock measures (docs/model.md §12): every measure a run reports —
//! polarization, milling, mean speed, mean neighbour count, the Vicsek order parameter v_a, the
//! predators' catches and the flock census (counted in [`crate::model::census`]) — described once in [`MEASURES`] (name, symbol, unit,
//! range, what it needs and how it is finished), so that the headless summary and its `--stats`
//! columns, benchmark captures, sweep columns and plot labels all come from it.
//!
//! Every entry says how it is *finished* ([`Finish`]): the averages over the boids from one row
//! of sums ([`MeasureSums`]: the columns of `sum_columns!`, summed by `shaders/measures.wgsl`'s
//! reduction on the GPU in f32 and by [`MeasureSums::of_state`] on the CPU in f64), the catches
//! from the backend's counters, the flock measures from the census, the order parameter's
//! statistics from its moments over a run. The values of one state are
//! [`crate::model::flock_measures::FlockMeasures`].
//!
//! **Adding a measure** touches this file (its line in `measure_table!` with its finisher) and,
//! for an average of a new per-boid quantity, `shaders/measures.wgsl` (its column in
//! `sum_columns!` here and in [`MeasureSums::add_boid`], the same sum on the GPU, whose column
//! constants are generated from the list here); plus its test and its line in docs/model.md §12.

use crate::model::census::FlockCensus;
use crate::model::world::World;
use crate::stats::{Estimate, OrderParameterMoments};

/// The columns of the row of sums, declared once: each column's constant (its first float) and
/// width, in row order. The constants, the row's length ([`SUMS`]) and the WGSL constants of
/// `shaders/measures.wgsl` ([`wgsl_columns`]) are generated from this list.
macro_rules! sum_columns {
    ($( $(#[doc = $doc:literal])* $COL:ident: $width:literal; )*) => {
        #[allow(non_camel_case_types, clippy::upper_case_acronyms)]
        #[repr(usize)]
        enum Column { $( $COL, )* }

        /// `(name, width)` of every column, in row order.
        const COLUMNS: &[(&str, usize)] = &[ $( (stringify!($COL), $width), )* ];

        $( $(#[doc = $doc])* pub const $COL: usize = column_start(Column::$COL as usize); )*
    };
}

/// The first float of column `k` of [`COLUMNS`]: the widths of the columns before it.
const fn column_start(k: usize) -> usize {
    let mut at = 0;
    let mut i = 0;
    while i < k {
        at += COLUMNS[i].1;
        i += 1;
    }
    at
}

sum_columns! {
    /// Column of Σ v̂ (x; y at +1): unit velocities, 0 for a stopped boid.
    COL_UNIT_VELOCITY: 2;
    /// Column of Σ |v|.
    COL_SPEED: 1;
    /// Column of Σ neighbour counts.
    COL_NEIGHBORS: 1;
    /// Column of Σ p (x; y at +1), for the milling centre of a closed world.
    COL_POSITION: 2;
    /// Column of Σ r̂ × v̂ about the centre (the second pass).
    COL_MILLING: 1;
    /// Columns of Σ cos θx, Σ sin θx, Σ cos θy, Σ sin θy (θx = 2π·x/W, θy = 2π·y/H), for the
    /// periodic centre of a wrapping world.
    COL_TRIG: 4;
    /// Column of Σ v (x; y at +1), for v_a.
    COL_VELOCITY: 2;
    /// Column of Σ e^{2iθ} (cos 2θ; sin 2θ at +1) of the headings θ, for the nematic order (0 for
    /// a stopped boid).
    COL_NEMATIC: 2;
}

/// Floats of the columns of one row of the measures reduction.
pub const SUMS: usize = column_start(COLUMNS.len());

/// `vec4<f32>`s of one row as the GPU stores it (`Row` of `shaders/measures.wgsl`): the columns,
/// padded to a whole vector.
pub const ROW_VEC4S: usize = SUMS.div_ceil(4);

const _: () = assert!(SUMS <= 4 * ROW_VEC4S);

/// The WGSL constants of the columns (`const COL_SPEED: u32 = 2u;`, …) and of the row's length
/// in vectors (`ROW_VEC4S`), and `row_sum` (two rows added, unrolled), composed into
/// `shaders/measures.wgsl`'s source before it (the stage table's generated file
/// `measure_columns.wgsl`).
pub fn wgsl_columns() -> String {
    let mut out = String::from(
        "// Generated from the column list of src/model/measures.rs (sum_columns!).\n",
    );
    for (k, (name, _)) in COLUMNS.iter().enumerate() {
        out.push_str(&format!("const {name}: u32 = {}u;\n", column_start(k)));
    }
    out.push_str(&format!("const ROW_VEC4S: u32 = {ROW_VEC4S}u;\n"));
    // The sum of two rows, vector by vector, unrolled (a loop over the vectors of a row in
    // workgroup memory cost the reduction 4 % on lavapipe).
    let sums: Vec<String> = (0..ROW_VEC4S)
        .map(|k| format!("x.v[{k}] + y.v[{k}]"))
        .collect();
    out.push_str(&format!(
        "fn row_sum(x: Row, y: Row) -> Row {{\n    return Row(array<vec4<f32>, ROW_VEC4S>({}));\n}}\n",
        sums.join(", ")
    ));
    out
}

/// One row of the measures reduction: per-boid quantities summed over the state (docs/model.md
/// §12.5). Columns as in `shaders/measures.wgsl` (`COL_*`, generated from the same list).
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
    /// state, or after a step that stored none: the mean neighbour count is then not computed).
    pub neighbors_counted: bool,
}

/// How a measure is finished: from what, by which function. Every entry of [`MEASURES`] has one.
#[derive(Clone, Copy, Debug)]
pub enum Finish {
    /// From the row of sums ([`MeasureSums`]) that every backend computes on request.
    Sums(fn(&MeasureSums, &MeasureContext) -> f64),
    /// From the row of sums, with neighbour counts from a step (none before the first).
    SumsAndNeighbors(fn(&MeasureSums, &MeasureContext) -> f64),
    /// From the backend's catch counters `[this step, since the run began]`.
    Counter(fn(&[u32; 2]) -> f64),
    /// From the flock census ([`crate::model::census::flock_census`]).
    Census(fn(&FlockCensus) -> f64),
    /// From the moments of the model's order parameter φ over a run's measured steps
    /// ([`crate::stats::order_parameter_moments`]), with its error.
    Series(fn(&OrderParameterMoments) -> Estimate),
}

/// Whether a sweep draws a measure's plot (it always writes its columns).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SweepPlot {
    /// Always.
    Yes,
    /// Never (a column of the tables only).
    No,
    /// Unless the model's speed is constant (the mean speed: a flat line there).
    UnlessSpeedConstant,
    /// Only when the model's speed is constant (v_a: defined with the constant speed v0).
    IfSpeedConstant,
}

impl SweepPlot {
    /// Whether the plot is drawn for a model whose speed is constant (`Some(true)`), varies
    /// (`Some(false)`) or is not known (`None`: drawn).
    pub fn drawn(self, constant_speed: Option<bool>) -> bool {
        !matches!(
            (self, constant_speed),
            (SweepPlot::No, _)
                | (SweepPlot::UnlessSpeedConstant, Some(true))
                | (SweepPlot::IfSpeedConstant, Some(false))
        )
    }
}

/// What a measure is computed from (the kind of its [`Finish`]).
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
    /// Steps of the simulation.
    Steps,
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
    /// How it is finished.
    pub finish: Finish,
    /// Whether a sweep plots it against the swept parameter.
    pub sweep_plot: SweepPlot,
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

    /// What it is computed from.
    pub fn needs(&self) -> Needs {
        match self.finish {
            Finish::Sums(_) => Needs::Sums,
            Finish::SumsAndNeighbors(_) => Needs::SumsAndNeighbors,
            Finish::Counter(_) => Needs::Catches,
            Finish::Census(_) => Needs::Census,
            Finish::Series(_) => Needs::Series,
        }
    }

    /// Whether it is an average over the boids, finished from the sums (what sweeps record).
    pub fn from_sums(&self) -> bool {
        matches!(self.needs(), Needs::Sums | Needs::SumsAndNeighbors)
    }

    /// Its unit as text for a model whose speeds are in `speed_unit` ("" when dimensionless).
    pub fn unit_text(&self, speed_unit: &'static str) -> &'static str {
        match self.unit {
            Unit::None | Unit::Count => "",
            Unit::Speed => speed_unit,
            Unit::Steps => "steps",
        }
    }

    /// A value for a summary: counts whole, fractions to 4 decimals, the rest to 3, with the unit.
    pub fn format(&self, v: f64, speed_unit: &'static str) -> String {
        let text = match (self.needs(), self.unit) {
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
        finish: Finish::Sums(|s, c| norm(s, COL_UNIT_VELOCITY) / c.n as f64),
        sweep_plot: SweepPlot::Yes,
        doc: "§12.1",
    };
    /// Milling m = |Σ r̂_i × v̂_i| / N (docs/model.md §12.2).
    MILLING => Measure {
        name: "milling",
        symbol: "m",
        title: "milling",
        unit: Unit::None,
        range: Some((0.0, 1.0)),
        finish: Finish::Sums(|s, c| s.cols[COL_MILLING].abs() / c.n as f64),
        sweep_plot: SweepPlot::Yes,
        doc: "§12.2",
    };
    /// Mean speed ⟨|v|⟩ (docs/model.md §12.3).
    MEAN_SPEED => Measure {
        name: "mean_speed",
        symbol: "⟨|v|⟩",
        title: "mean speed",
        unit: Unit::Speed,
        range: None,
        finish: Finish::Sums(|s, c| s.cols[COL_SPEED] / c.n as f64),
        sweep_plot: SweepPlot::UnlessSpeedConstant,
        doc: "§12.3",
    };
    /// Mean neighbour count ⟨k⟩ within the perception radius (docs/model.md §12.4).
    MEAN_NEIGHBORS => Measure {
        name: "mean_neighbors",
        symbol: "⟨k⟩",
        title: "mean neighbours",
        unit: Unit::Count,
        range: None,
        finish: Finish::SumsAndNeighbors(|s, c| s.cols[COL_NEIGHBORS] / c.n as f64),
        sweep_plot: SweepPlot::Yes,
        doc: "§12.4",
    };
    /// The order parameter v_a = |Σ v_i| / (N·v0) (docs/model.md §12.7).
    VA => Measure {
        name: "va",
        symbol: "v_a",
        title: "v_a",
        unit: Unit::None,
        range: Some((0.0, 1.0)),
        finish: Finish::Sums(|s, c| {
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
        sweep_plot: SweepPlot::IfSpeedConstant,
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
        finish: Finish::Sums(|s, c| norm(s, COL_NEMATIC) / c.n as f64),
        sweep_plot: SweepPlot::Yes,
        doc: "§12.8",
    };
    /// Boids caught by hunting predators in the last step (docs/model.md §18.4).
    CATCHES => Measure {
        name: "catches",
        symbol: "",
        title: "boids caught in the last step",
        unit: Unit::Count,
        range: None,
        finish: Finish::Counter(|c| c[0] as f64),
        sweep_plot: SweepPlot::No,
        doc: "§18.4",
    };
    /// Boids caught since the run began (carried through checkpoints; wraps at 2^32).
    CATCHES_TOTAL => Measure {
        name: "catches_total",
        symbol: "",
        title: "boids caught in the run",
        unit: Unit::Count,
        range: None,
        finish: Finish::Counter(|c| c[1] as f64),
        sweep_plot: SweepPlot::No,
        doc: "§18.4",
    };
    /// ⟨φ²⟩ of the model's order parameter φ over a run's measured steps (docs/model.md §12.9).
    ORDER_M2 => Measure {
        name: "phi2",
        symbol: "⟨φ²⟩",
        title: "second moment of the order parameter",
        unit: Unit::None,
        range: Some((0.0, 1.0)),
        finish: Finish::Series(|m| m.second_moment),
        sweep_plot: SweepPlot::No,
        doc: "§12.9",
    };
    /// ⟨φ⁴⟩ of the order parameter over a run's measured steps.
    ORDER_M4 => Measure {
        name: "phi4",
        symbol: "⟨φ⁴⟩",
        title: "fourth moment of the order parameter",
        unit: Unit::None,
        range: Some((0.0, 1.0)),
        finish: Finish::Series(|m| m.fourth_moment),
        sweep_plot: SweepPlot::No,
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
        finish: Finish::Series(|m| m.binder_cumulant),
        sweep_plot: SweepPlot::Yes,
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
        finish: Finish::Series(|m| m.susceptibility),
        sweep_plot: SweepPlot::Yes,
        doc: "§12.9",
    };
    /// The integrated autocorrelation time τ_int of the order parameter over a run's measured
    /// steps, by Sokal's automatic windowing (docs/model.md §12.9): whether the run (≥ 50 τ_int)
    /// and a batch of its errors (≥ 5 τ_int) are long enough for the errors to be honest. 1/2 for
    /// independent samples; in steps.
    TAU_INT => Measure {
        name: "tau_int",
        symbol: "τ_int",
        title: "integrated autocorrelation time of φ",
        unit: Unit::Steps,
        range: None,
        finish: Finish::Series(|m| m.autocorrelation_time),
        sweep_plot: SweepPlot::Yes,
        doc: "§12.9",
    };
    /// Flocks: connected components of at least [`FLOCK_MIN_BOIDS`](crate::model::census::FLOCK_MIN_BOIDS) boids (docs/model.md §12.6).
    FLOCKS => Measure {
        name: "flocks",
        symbol: "",
        title: "flocks",
        unit: Unit::Count,
        range: None,
        finish: Finish::Census(|c| c.flocks as f64),
        sweep_plot: SweepPlot::No,
        doc: "§12.6",
    };
    /// Boids in the largest component, a flock or not (1 when every boid is alone: the title
    /// says cluster, so that "flocks: 0" beside it reads right; the column keeps its name).
    LARGEST_FLOCK => Measure {
        name: "largest_flock",
        symbol: "",
        title: "largest cluster",
        unit: Unit::Count,
        range: None,
        finish: Finish::Census(|c| c.largest as f64),
        sweep_plot: SweepPlot::No,
        doc: "§12.6",
    };
    /// Fraction of the boids in a flock.
    FLOCKED_FRACTION => Measure {
        name: "flocked_fraction",
        symbol: "",
        title: "fraction in flocks",
        unit: Unit::None,
        range: Some((0.0, 1.0)),
        finish: Finish::Census(|c| c.flocked_fraction as f64),
        sweep_plot: SweepPlot::No,
        doc: "§12.6",
    };
    /// Hue coherence of the flocks (1 = one hue per flock).
    HUE_COHERENCE => Measure {
        name: "hue_coherence",
        symbol: "",
        title: "hue coherence",
        unit: Unit::None,
        range: Some((0.0, 1.0)),
        finish: Finish::Census(|c| c.hue_coherence as f64),
        sweep_plot: SweepPlot::No,
        doc: "§12.6",
    };
    /// Polarization within flocks (1 = every flock moves as one, whatever their directions).
    FLOCK_POLARIZATION => Measure {
        name: "flock_polarization",
        symbol: "φ_f",
        title: "polarization within flocks",
        unit: Unit::None,
        range: Some((0.0, 1.0)),
        finish: Finish::Census(|c| c.polarization as f64),
        sweep_plot: SweepPlot::No,
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The columns follow one another without overlap, fill the row, and the WGSL constants are
    /// the Rust ones.
    #[test]
    fn the_columns_are_generated_in_order_for_both_sides() {
        let wgsl = wgsl_columns();
        for (k, (name, width)) in COLUMNS.iter().enumerate() {
            assert!(*width > 0, "{name}");
            let start = column_start(k);
            assert_eq!(column_start(k + 1), start + width, "{name}");
            assert!(
                wgsl.contains(&format!("const {name}: u32 = {start}u;")),
                "{name}: {wgsl}"
            );
        }
        assert_eq!(column_start(COLUMNS.len()), SUMS);
        assert_eq!((COL_UNIT_VELOCITY, COL_SPEED, COL_NEMATIC), (0, 2, 13));
        assert!(
            wgsl.contains(&format!("const ROW_VEC4S: u32 = {ROW_VEC4S}u;")),
            "{wgsl}"
        );
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
