//! The analyses researchers compute after the order parameter (docs/model.md §12.11), as a table
//! ([`ANALYSES`]): each one file with its [`AnalysisDesc`] — its name, its curve's axes with
//! symbols and units, whether it correlates states in time — computed on the CPU from states read
//! back (or frames of a trajectory): the velocity-fluctuation correlation C(r) and its length ξ,
//! the structure factor S(k), the pair distribution g(r), the local-density histogram, the
//! density profile along the direction of motion (bands), the cluster-size distribution P(s), the mean-squared displacement and the heading
//! autocorrelation. `boids headless --analyse NAME=FILE.csv` and `boids analyse FILE.gsd` run
//! them; [`Analyses`] is the set a run computes.
//!
//! A new analysis is its own file here with its `DESC`, and its line in [`ANALYSES`].

pub mod cluster_sizes;
pub mod density;
pub mod density_profile;
pub mod heading_autocorrelation;
pub mod mesh;
pub mod msd;
pub mod multi_tau;
pub mod rdf;
pub mod series;
pub mod structure_factor;
pub mod types;
pub mod velocity_correlation;

use std::path::{Path, PathBuf};

pub use types::{Analysis, AnalysisDesc, AnalysisError, Axis, Curve, Frame, Scales, Settings};

use crate::model::World;

/// Every analysis, in the order they are listed and run.
pub const ANALYSES: &[&AnalysisDesc] = &[
    &velocity_correlation::DESC,
    &structure_factor::DESC,
    &rdf::DESC,
    &density::DESC,
    &density_profile::DESC,
    &cluster_sizes::DESC,
    &msd::DESC,
    &heading_autocorrelation::DESC,
];

/// The analysis named `name`.
///
/// # Errors
/// [`AnalysisError::Unknown`] with the names of the table.
pub fn by_name(name: &str) -> Result<&'static AnalysisDesc, AnalysisError> {
    ANALYSES
        .iter()
        .copied()
        .find(|d| d.name == name)
        .ok_or_else(|| AnalysisError::Unknown {
            name: crate::io::clip(name),
            known: names(),
        })
}

/// The names of the table, comma-separated.
pub fn names() -> String {
    ANALYSES
        .iter()
        .map(|d| d.name)
        .collect::<Vec<_>>()
        .join(", ")
}

/// One analysis asked for on the command line: `NAME=FILE.csv`.
#[derive(Clone, Debug, PartialEq)]
pub struct Request {
    /// The analysis.
    pub desc: &'static AnalysisDesc,
    /// Its CSV (its plot beside it, the same name ending in .png).
    pub csv: PathBuf,
}

/// Parses `NAME=FILE.csv` (clap's value parser of `--analyse`).
///
/// # Errors
/// What is wrong, with the table's names.
pub fn parse_request(text: &str) -> Result<Request, String> {
    let (name, file) = text.split_once('=').ok_or_else(|| {
        format!(
            "expected NAME=FILE.csv, found `{}` ({})",
            crate::io::clip(text),
            names()
        )
    })?;
    let desc = by_name(name.trim()).map_err(|e| e.to_string())?;
    if file.trim().is_empty() {
        return Err(format!("{name}=: give the CSV file to write"));
    }
    Ok(Request {
        desc,
        csv: PathBuf::from(file.trim()),
    })
}

/// The analyses of a run: each made once (its settings checked), given the same states.
pub struct Analyses {
    runs: Vec<(&'static AnalysisDesc, Box<dyn Analysis>)>,
}

impl Analyses {
    /// Makes each of `descs` for `settings` in `world`, refusing any setting one cannot honour
    /// before anything runs.
    ///
    /// # Errors
    /// The first analysis's [`AnalysisError`].
    pub fn new(
        descs: &[&'static AnalysisDesc],
        settings: &Settings,
        world: World,
    ) -> Result<Analyses, AnalysisError> {
        let mut runs = Vec::new();
        for d in descs {
            runs.push((*d, (d.make)(settings, world)?));
        }
        Ok(Analyses { runs })
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.runs.is_empty()
    }

    /// Gives every analysis one state.
    ///
    /// # Errors
    /// The first analysis's [`AnalysisError`].
    pub fn add(&mut self, frame: &Frame) -> Result<(), AnalysisError> {
        for (_, a) in &mut self.runs {
            a.add(frame)?;
        }
        Ok(())
    }

    /// Gives one state to the analyses that are not of time (the time analyses take evenly
    /// spaced states only: a trajectory's last frame, closer to the one before, is left out of
    /// them).
    ///
    /// # Errors
    /// The first analysis's [`AnalysisError`].
    pub fn add_untimed(&mut self, frame: &Frame) -> Result<(), AnalysisError> {
        for (d, a) in &mut self.runs {
            if !d.series {
                a.add(frame)?;
            }
        }
        Ok(())
    }

    /// Each analysis's curve, in the order made.
    ///
    /// # Errors
    /// The first analysis's [`AnalysisError`].
    pub fn curves(&self) -> Result<Vec<Curve>, AnalysisError> {
        self.each_curve().into_iter().collect()
    }

    /// Each analysis's curve or why it cannot be finished (too few states whose velocities
    /// fluctuate, …), in the order made: one that fails loses nothing of the others.
    pub fn each_curve(&self) -> Vec<Result<Curve, AnalysisError>> {
        self.runs.iter().map(|(_, a)| a.curve()).collect()
    }

    /// The scalar summaries of every analysis, in the order made (a sweep's scalar columns), and
    /// the errors of those that cannot be finished, whose summaries are `None`.
    pub fn scalars(&self) -> (Vec<Option<f64>>, Vec<AnalysisError>) {
        let mut values = Vec::new();
        let mut errors = Vec::new();
        for ((desc, _), curve) in self.runs.iter().zip(self.each_curve()) {
            match curve {
                Ok(c) => values.extend(c.scalars.iter().map(|s| s.1)),
                Err(e) => {
                    values.extend(desc.scalars.iter().map(|_| None));
                    errors.push(e);
                }
            }
        }
        (values, errors)
    }
}

/// Each of `requests` beside its curve, and the errors of those that cannot be finished, from
/// `curves` in the order of `requests` (as [`Analyses::each_curve`] gives them for
/// [`descs`]`(requests)`).
pub fn finished_curves(
    requests: &[Request],
    curves: Vec<Result<Curve, AnalysisError>>,
) -> (Vec<(Request, Curve)>, Vec<AnalysisError>) {
    let mut finished = Vec::new();
    let mut unfinished = Vec::new();
    for (r, c) in requests.iter().zip(curves) {
        match c {
            Ok(c) => finished.push((r.clone(), c)),
            Err(e) => unfinished.push(e),
        }
    }
    (finished, unfinished)
}

/// The descriptions of `requests`, in order.
pub fn descs(requests: &[Request]) -> Vec<&'static AnalysisDesc> {
    requests.iter().map(|r| r.desc).collect()
}

/// The CSV of a curve: a comment line per scalar summary in shortest round-trip form (`# xi =
/// 12.53125 wu`, `none` when it does not exist), then the header `x,y,samples` named by the axes (`r_wu,C(r),pairs`) and a row per
/// point (the abscissa to 12 significant figures: [`abscissa`]).
pub fn curve_csv(desc: &AnalysisDesc, curve: &Curve, time_unit: &str) -> String {
    let mut out = format!("# {}: {}\n", desc.name, desc.about);
    for (name, value, unit) in &curve.scalars {
        // Every digit (shortest round-trip form), as the curve's values.
        let v = value.map_or_else(|| "none".to_string(), |v| v.to_string());
        match *unit {
            "" => out.push_str(&format!("# {name} = {v}\n")),
            u => out.push_str(&format!("# {name} = {v} {u}\n")),
        }
    }
    let col = |a: &Axis| {
        let unit = if a.unit == "time" { time_unit } else { a.unit };
        if unit.is_empty() {
            a.symbol.to_string()
        } else {
            format!("{}_{}", a.symbol, unit)
        }
    };
    out.push_str(&format!("{},{},samples\n", col(&desc.x), col(&desc.y)));
    for i in 0..curve.x.len() {
        out.push_str(&format!(
            "{},{},{}\n",
            abscissa(curve.x[i]),
            curve.y[i],
            curve.samples[i]
        ));
    }
    out
}

/// An abscissa as written: 12 significant figures, then its shortest form, so that a lag of 10
/// steps of 0.016666668 s reads 0.16666668, not 0.16666667999999998 (the f64 product's last
/// bits); the abscissae are made from settings, not measured, and lose nothing real.
pub fn abscissa(x: f64) -> f64 {
    format!("{x:.11e}").parse().unwrap_or(x)
}

/// The plot's path beside `csv`: the same name ending in .png.
pub fn plot_path(csv: &Path) -> PathBuf {
    csv.with_extension("png")
}

/// One line per curve for a run's summary: its name, the states behind it (`states_of` its
/// description), its scalar summaries and its CSV (`velocity_correlation over 11 states: xi =
/// 12.5 wu → c.csv`).
pub fn summary_lines(
    curves: &[(Request, Curve)],
    states_of: impl Fn(&AnalysisDesc) -> u64,
) -> Vec<String> {
    curves
        .iter()
        .map(|(r, c)| {
            let states = states_of(r.desc);
            let scalars: Vec<String> = c
                .scalars
                .iter()
                .map(|(n, v, u)| format!("{n} = {}", scalar_text(*v, u)))
                .collect();
            let scalars = if scalars.is_empty() {
                String::new()
            } else {
                format!(": {}", scalars.join(", "))
            };
            format!(
                "{} over {states} state{}{scalars} → {} (and .png)",
                r.desc.name,
                if states == 1 { "" } else { "s" },
                crate::io::show_path(&r.csv)
            )
        })
        .collect()
}

/// A scalar summary as text: a whole number as one (`20000 boids`), else four significant
/// figures (`12.35 wu`); `none` where it does not exist.
pub fn scalar_text(value: Option<f64>, unit: &str) -> String {
    let v = match value {
        None => return "none".into(),
        Some(v) => v,
    };
    let num = if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{v:.0}")
    } else {
        let digits = (3 - v.abs().log10().floor() as i32).max(0) as usize;
        format!("{v:.digits$}")
    };
    if unit.is_empty() {
        num
    } else {
        format!("{num} {unit}")
    }
}
