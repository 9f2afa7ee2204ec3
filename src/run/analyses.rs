//! The analyses of a run on the command line ([`AnalysisArgs`], shared by `boids headless` and
//! `boids analyse`): which to compute and where their curves go (`--analyse NAME=FILE.csv`,
//! repeated), how often a state is given to them, their settings; and the curves written, each a
//! CSV and its plot beside it ([`write_curves`]).

use std::path::PathBuf;

use crate::analysis::{
    curve_csv, names, parse_request, plot_path, scalar_text, Curve, Request, Scales, Settings,
};
use crate::plot::curve::{curve_png, CurvePlot};
use crate::run::RunError;

/// The analyses' options.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct AnalysisArgs {
    /// Compute an analysis of the states (docs/model.md §12.11) and write its curve as a CSV,
    /// its plot beside it (the same name ending in .png): NAME=FILE.csv, repeated for more.
    /// NAME: velocity_correlation (C(r) and ξ), structure_factor (S(k)), rdf (g(r)),
    /// local_density, cluster_sizes (P(s)), msd, heading_autocorrelation.
    #[arg(long = "analyse", value_name = "NAME=FILE.csv", value_parser = parse_request)]
    pub analyse: Vec<Request>,
    /// Steps between two states given to the analyses (`boids headless`: from the end of
    /// --discard, the first the state there; default 10), or frames of the file (`boids analyse`;
    /// default 1, every frame). 1 or more.
    #[arg(long, value_name = "K")]
    pub analyse_every: Option<u32>,
    /// Largest separation of g(r) and C(r) (wu): at most half the world's shorter side when it
    /// wraps, the shorter side with walls. Default: a quarter of the shorter side, at most 10
    /// perception radii.
    #[arg(long, value_name = "WU")]
    pub r_max: Option<f64>,
    /// Bin width of g(r) and C(r) (wu). Default: r_max / 50.
    #[arg(long, value_name = "WU")]
    pub bin: Option<f64>,
    /// Cells of the structure factor's mesh along the world's longer side (16 ..= 4096; S(k) is
    /// reported up to a quarter of the mesh's wave numbers, π / (2 h)).
    #[arg(long, default_value_t = 256, value_name = "CELLS")]
    pub mesh: u32,
    /// Side of the boxes of the local-density histogram (wu). Default: two perception radii.
    #[arg(long, value_name = "WU")]
    pub box_side: Option<f64>,
    /// Radius linking boids into clusters for cluster_sizes (wu). Default: the perception radius.
    #[arg(long, value_name = "WU")]
    pub link_radius: Option<f64>,
}

impl AnalysisArgs {
    /// Whether any analysis is asked for.
    pub fn any(&self) -> bool {
        !self.analyse.is_empty()
    }

    /// `--analyse-every`, or `default` without it.
    ///
    /// # Errors
    /// [`RunError::Conflict`] for `--analyse-every 0`.
    pub fn every(&self, default: u32) -> Result<u32, RunError> {
        match self.analyse_every {
            Some(0) => Err(RunError::Conflict(format!(
                "--analyse-every 0: give the steps (or frames) between two states of the \
                 analyses, 1 or more (analyses: {})",
                names()
            ))),
            Some(k) => Ok(k),
            None => Ok(default),
        }
    }

    /// The settings for a run of perception radius `r_p` (wu) giving the analyses `states` states,
    /// `interval` apart in `time_unit`.
    ///
    /// # Errors
    /// [`RunError::Conflict`] for `--analyse-every 0`.
    pub fn settings(
        &self,
        r_p: f64,
        states: u64,
        interval: f64,
        time_unit: &'static str,
    ) -> Result<Settings, RunError> {
        self.every(1)?;
        let mut s = Settings::new(r_p, states, interval, time_unit);
        s.r_max = self.r_max;
        s.bin = self.bin;
        s.mesh = self.mesh;
        s.box_side = self.box_side;
        if let Some(r) = self.link_radius {
            s.link_radius = r;
        }
        Ok(s)
    }
}

/// Writes each curve as its CSV (whole: temporary file, then rename) and its plot beside it,
/// titled by the analysis and `subtitle`; returns the files written.
///
/// # Errors
/// [`RunError::Write`] for a file that cannot be written, [`RunError::Plot`] for a plot that
/// cannot be drawn (a curve with no finite point).
pub fn write_curves(
    curves: &[(Request, Curve)],
    subtitle: &str,
    time_unit: &str,
) -> Result<Vec<PathBuf>, RunError> {
    let mut written = Vec::new();
    for (r, c) in curves {
        let text = curve_csv(r.desc, c, time_unit);
        crate::io::write_atomic(&r.csv, text.as_bytes()).map_err(|source| RunError::Write {
            what: "analysis CSV",
            path: r.csv.clone(),
            source,
        })?;
        written.push(r.csv.clone());
        let label = |a: &crate::analysis::Axis| {
            let unit = if a.unit == "time" { time_unit } else { a.unit };
            if unit.is_empty() {
                format!("{} {}", a.name, a.symbol)
            } else {
                format!("{} {} ({unit})", a.name, a.symbol)
            }
        };
        let mut sub = subtitle.to_string();
        for (name, value, unit) in &c.scalars {
            sub.push_str(&format!(" · {name} = {}", scalar_text(*value, unit)));
        }
        let points: Vec<(f64, f64)> = c.x.iter().copied().zip(c.y.iter().copied()).collect();
        let png = plot_path(&r.csv);
        let bytes = curve_png(&CurvePlot {
            title: r.desc.about,
            subtitle: &sub,
            x_name: &label(&r.desc.x),
            y_name: &label(&r.desc.y),
            points: &points,
            log_x: r.desc.scales != Scales::Linear,
            log_y: r.desc.scales == Scales::LogLog,
        })
        .map_err(|e| RunError::Plot {
            path: png.clone(),
            message: e.to_string(),
        })?;
        crate::io::write_atomic(&png, &bytes).map_err(|source| RunError::Write {
            what: "analysis plot",
            path: png.clone(),
            source,
        })?;
        written.push(png);
    }
    Ok(written)
}

/// The unit of time of a model's analyses: `s`, or `steps` for the Vicsek model.
pub fn time_unit(t: crate::model::models::TimeUnit) -> &'static str {
    match t {
        crate::model::models::TimeUnit::Seconds => "s",
        crate::model::models::TimeUnit::Steps => "steps",
    }
}
