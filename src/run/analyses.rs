//! The analyses of a run on the command line ([`AnalysisArgs`], shared by `boids headless` and
//! `boids analyse`): which to compute and where their curves go (`--analyse NAME=FILE.csv`,
//! repeated), how often a state is given to them, their settings; and the curves written, each a
//! CSV and its plot beside it ([`write_curves`]).

use std::path::PathBuf;

use crate::analysis::types::{SettingName, DEFAULT_MESH};
use crate::analysis::{
    curve_csv, names, parse_request, plot_path, scalar_text, Analyses, AnalysisDesc, Curve, Frame,
    Request, Scales, Settings,
};
use crate::backend::Simulation;
use crate::model::World;
use crate::plot::curve::{curve_png, CurvePlot};
use crate::run::RunError;

/// The analyses' options of `boids headless` and `boids analyse`: which to compute and where,
/// and their settings.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct AnalysisArgs {
    /// Compute an analysis of the states (docs/model.md §12.11) and write its curve as a CSV,
    /// its plot beside it (the same name ending in .png): NAME=FILE.csv, repeated for more.
    /// NAME: velocity_correlation (C(r) and ξ), structure_factor (S(k)), rdf (g(r)),
    /// local_density, density_profile (bands), cluster_sizes (P(s)), msd,
    /// heading_autocorrelation.
    #[arg(long = "analyse", value_name = "NAME=FILE.csv", value_parser = parse_request)]
    pub analyse: Vec<Request>,
    /// Their settings.
    #[command(flatten)]
    pub options: AnalysisOptions,
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
        self.options.every(default)
    }
}

/// The analyses' settings on the command line (shared by `boids headless`, `boids analyse` and
/// `boids sweep`); written in a sweep's plan, so a resumed sweep is refused when they differ.
#[derive(clap::Args, Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct AnalysisOptions {
    /// Steps between two states given to the analyses (`boids headless` and `boids sweep`: from
    /// the end of --discard, the first the state there; default 10), or frames of the file
    /// (`boids analyse`; default 1, every frame). 1 or more.
    #[arg(long, value_name = "K")]
    pub analyse_every: Option<u32>,
    /// Largest separation of g(r) and C(r) (wu): at most half the world's shorter side when it
    /// wraps, the shorter side with walls. Default: for g(r) a quarter of the shorter side, at
    /// most 10 perception radii; for C(r) half the shorter side (an ordered flock's ξ is about
    /// 0.3 of the world).
    #[arg(long, value_name = "WU", allow_negative_numbers = true)]
    pub r_max: Option<f64>,
    /// Bin width of g(r) and C(r) (wu). Default: r_max / 50.
    #[arg(long, value_name = "WU", allow_negative_numbers = true)]
    pub bin: Option<f64>,
    /// Cells of the structure factor's mesh along the world's longer side (16 ..= 4096; S(k) is
    /// reported up to a quarter of the mesh's wave numbers, π / (2 h)).
    #[arg(long, default_value_t = DEFAULT_MESH, value_name = "CELLS")]
    pub mesh: u32,
    /// Side of the boxes of the local-density histogram and width of the density profile's slabs
    /// (wu). Default: two perception radii, at most a quarter of the world's shorter side.
    #[arg(long, value_name = "WU", allow_negative_numbers = true)]
    pub box_side: Option<f64>,
    /// Radius linking boids into clusters for cluster_sizes (wu). Default: the perception radius.
    #[arg(long, value_name = "WU", allow_negative_numbers = true)]
    pub link_radius: Option<f64>,
}

impl Default for AnalysisOptions {
    /// What the command line gives without any of the options.
    fn default() -> Self {
        AnalysisOptions {
            analyse_every: None,
            r_max: None,
            bin: None,
            mesh: DEFAULT_MESH,
            box_side: None,
            link_radius: None,
        }
    }
}

impl AnalysisOptions {
    /// Refuses a setting given without an analysis to use it (it would do nothing).
    ///
    /// # Errors
    /// [`RunError::Conflict`] naming the settings given.
    pub fn refuse_unused(&self) -> Result<(), RunError> {
        if *self == AnalysisOptions::default() {
            return Ok(());
        }
        Err(RunError::Conflict(
            "an analysis setting (--analyse-every, --r-max, --bin, --mesh, --box-side, \
             --link-radius) without --analyse would do nothing: add the analysis or drop the \
             setting"
                .into(),
        ))
    }

    /// The settings given (each different from its default), by name, with their values.
    pub fn given(&self) -> Vec<(SettingName, String)> {
        let text = |v: Option<f64>| v.map(|v| v.to_string());
        [
            (SettingName::RMax, text(self.r_max)),
            (SettingName::Bin, text(self.bin)),
            (
                SettingName::Mesh,
                (self.mesh != DEFAULT_MESH).then(|| self.mesh.to_string()),
            ),
            (SettingName::BoxSide, text(self.box_side)),
            (SettingName::LinkRadius, text(self.link_radius)),
        ]
        .into_iter()
        .filter_map(|(n, v)| v.map(|v| (n, v)))
        .collect()
    }

    /// The first setting given that none of the analyses `descs` reads (it would do nothing:
    /// `--mesh` with only rdf asked for): its name, its value, and the analyses that read it.
    pub fn unread(
        &self,
        descs: &[&'static AnalysisDesc],
    ) -> Option<(SettingName, String, Vec<&'static str>)> {
        let (name, value) = self
            .given()
            .into_iter()
            .find(|(n, _)| !descs.iter().any(|d| d.reads.contains(n)))?;
        let readers = crate::analysis::ANALYSES
            .iter()
            .filter(|d| d.reads.contains(&name))
            .map(|d| d.name)
            .collect();
        Some((name, value, readers))
    }

    /// Refuses a setting that none of the analyses `descs` reads ([`Self::unread`]), naming the
    /// analyses that read it.
    ///
    /// # Errors
    /// [`RunError::Conflict`] naming the setting, its value, the analyses asked for and those
    /// that read it.
    pub fn refuse_unread(&self, descs: &[&'static AnalysisDesc]) -> Result<(), RunError> {
        self.refuse_unread_among(descs, crate::analysis::ANALYSES, "here")
    }

    /// [`Self::refuse_unread`] for a command that offers only the analyses `offered`: the readers
    /// named are among them, and when none is, the message says no analysis `offered_by` reads
    /// the setting (`a sweep records`).
    ///
    /// # Errors
    /// As [`Self::refuse_unread`].
    pub fn refuse_unread_among(
        &self,
        descs: &[&'static AnalysisDesc],
        offered: &[&'static AnalysisDesc],
        offered_by: &str,
    ) -> Result<(), RunError> {
        let Some((name, value, readers)) = self.unread(descs) else {
            return Ok(());
        };
        let readers: Vec<&str> = readers
            .into_iter()
            .filter(|r| offered.iter().any(|d| d.name == *r))
            .collect();
        let asked: Vec<&str> = descs.iter().map(|d| d.name).collect();
        Err(RunError::Conflict(format!(
            "{} {value}: none of the analyses asked for ({}) reads it; {}",
            name.option(),
            asked.join(", "),
            if readers.is_empty() {
                format!("no analysis {offered_by} reads it: drop the setting")
            } else {
                format!(
                    "it is read by {}: add one of them or drop the setting",
                    readers.join(", ")
                )
            }
        )))
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

    /// The settings of the analyses `descs` for a run of perception radius `r_p` (wu) giving them
    /// `states` states, `interval` apart in `time_unit`.
    ///
    /// # Errors
    /// [`RunError::Conflict`] for `--analyse-every 0`, or a setting none of `descs` reads.
    pub fn settings(
        &self,
        descs: &[&'static AnalysisDesc],
        r_p: f64,
        states: u64,
        interval: f64,
        time_unit: &'static str,
    ) -> Result<Settings, RunError> {
        self.every(1)?;
        self.refuse_unread(descs)?;
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

/// The analyses `descs` for a run of `params` of `steps` steps whose first `discard` are
/// discarded, given its state at the end of the discarded steps and every `every` steps after
/// it, with the settings `options`; checked before any step.
///
/// # Errors
/// [`RunError::Conflict`] for `--analyse-every 0`; an analysis's refusal of a setting.
pub fn run_analyses(
    descs: &[&'static crate::analysis::AnalysisDesc],
    options: &AnalysisOptions,
    params: &crate::model::SimParams,
    steps: u32,
    discard: u32,
    every: u32,
) -> Result<Analyses, RunError> {
    let time = params.model.desc().speed.time;
    let states = u64::from(steps.saturating_sub(discard) / every.max(1)) + 1;
    let settings = options.settings(
        descs,
        params.perception_radius as f64,
        states,
        time.after(every, params.dt),
        time_unit(time),
    )?;
    Ok(Analyses::new(descs, &settings, World::of(params))?)
}

/// Gives the analyses the current state of `sim` (read back), at its step's time.
///
/// # Errors
/// The read-back's error, or the first analysis's.
pub fn give_state(a: &mut Analyses, sim: &mut dyn Simulation) -> Result<(), RunError> {
    let p = sim.params().clone();
    let boids = sim.read_state()?;
    give_boids(a, &p, &boids, sim.step_index())
}

/// Gives the analyses `boids`, the state of a run of `p` at step `step` (an ensemble's replica,
/// read back with the others).
///
/// # Errors
/// The first analysis's.
pub fn give_boids(
    a: &mut Analyses,
    p: &crate::model::SimParams,
    boids: &[crate::model::Boid],
    step: u32,
) -> Result<(), RunError> {
    let time = p.model.desc().speed.time.after(step, p.dt);
    a.add(&Frame {
        boids,
        world: World::of(p),
        time,
    })?;
    Ok(())
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
        // The scalars measured along the x axis (ξ on the separations, the mean cluster size on
        // the sizes) are marked on it.
        let marks: Vec<(String, f64)> = c
            .scalars
            .iter()
            .filter(|(_, _, unit)| *unit == r.desc.x.unit)
            .filter_map(|(name, v, unit)| {
                v.map(|x| (format!("{name} = {}", scalar_text(*v, unit)), x))
            })
            .collect();
        let png = plot_path(&r.csv);
        let bytes = curve_png(&CurvePlot {
            title: r.desc.about,
            subtitle: &sub,
            x_name: &label(&r.desc.x),
            y_name: &label(&r.desc.y),
            points: &points,
            log_x: r.desc.scales != Scales::Linear,
            log_y: r.desc.scales == Scales::LogLog,
            joined: r.desc.joined,
            marks: &marks,
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
