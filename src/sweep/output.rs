//! The files of a sweep folder and the folder rule.
//!
//! - `sweep.csv`: one row per run (one combination of values × one repeat), in plan order
//!   ([`crate::sweep::table`]: the values, N, the world, the density, each measure's time average
//!   with its standard deviation and batch-means error, and the order parameter's moments, Binder
//!   cumulant and susceptibility with block-jackknife errors). Numbers are written in shortest
//!   round-trip form, so a merge of shards is byte-identical to one run. No timing column: times
//!   differ between runs.
//! - `points.csv`: one row per point, its repeats combined ([`crate::sweep::points`]).
//! - `phi_histogram.csv` and `phi_histogram.png`: P(φ) of each run and point
//!   ([`crate::sweep::histogram`]).
//! - `summary.json`: [`SweepSummary`].
//! - `<name>.svg` and `<name>.png` for each plot ([`crate::sweep::plot::plotted`]).
//! - with `--series`, `series/point-PPPPP-repeat-RRR.csv.gz` for each run
//!   ([`crate::sweep::series`]).
//! - with `--protocol hysteresis`, `states/point-PPPPP-repeat-RRR.csv`: each run's final state
//!   ([`crate::sweep::chain`]).
//!
//! Every file is written whole ([`crate::io::write_atomic`]). The tables and the summary are
//! rewritten after every run (or wave of runs run side by side: `crate::sweep::run`), the plots at
//! the end (also after Ctrl-C).
//!
//! Folder rule: `--out DIR` (default `sweeps/<UTC time>`) is created with its parents when
//! missing; an existing folder must be empty unless `--force` is given (then the sweep's files in
//! it are replaced — an earlier sweep's series and states removed — and other files are left
//! alone).

use std::path::{Path, PathBuf};

use crate::sweep::error::SweepError;
use crate::sweep::points::{points_csv, summarise, POINTS_CSV};
use crate::sweep::summary::SweepSummary;
use crate::sweep::table::{csv_bytes, RunRow};

pub use crate::sweep::table::CSV;
/// File name of the summary.
pub const SUMMARY: &str = "summary.json";

/// Applies the folder rule to `dir`.
///
/// # Errors
/// [`SweepError::Folder`]: a file in the way, a folder that cannot be created or read, or a
/// non-empty folder without `force`.
pub fn prepare_dir(dir: &Path, force: bool) -> Result<(), SweepError> {
    let fail = |why: String| SweepError::Folder {
        path: dir.to_path_buf(),
        why,
    };
    if dir.as_os_str().is_empty() {
        return Err(fail("empty path".into()));
    }
    match std::fs::read_dir(dir) {
        Ok(entries) => {
            let mut names: Vec<String> = entries
                .filter_map(|e| e.ok())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect();
            if !names.is_empty() && !force {
                names.sort();
                let shown: Vec<String> = names.into_iter().take(4).collect();
                return Err(fail(format!(
                    "is not empty (holds {}…); choose another output folder, or add --force to replace \
                     the sweep's files in it",
                    shown.join(", ")
                )));
            }
            Ok(())
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            std::fs::create_dir_all(dir).map_err(|e| fail(format!("cannot be created: {e}")))
        }
        Err(e) if dir.exists() && !dir.is_dir() => {
            Err(fail(format!("exists and is not a folder ({e})")))
        }
        Err(e) => Err(fail(format!("cannot be read: {e}"))),
    }
}

/// The files a run writes beside the tables, in the order `summary.json` lists them: its series
/// (with `--series`), then its final state (a hysteresis sweep's chains); point and repeat from 1.
pub fn run_files(point: usize, repeat: u32, series: bool, chained: bool) -> Vec<String> {
    let mut files = Vec::new();
    if series {
        files.push(crate::sweep::series::series_file(point, repeat));
    }
    if chained {
        files.push(crate::sweep::chain::state_file(point, repeat));
    }
    files
}

/// Removes the runs' files an earlier sweep left in `dir` (`--force`): the files of `series/` and
/// `states/` named as a sweep names them (`point-…`), so none is taken for one of this sweep's;
/// other files are left alone.
///
/// # Errors
/// [`SweepError::Io`] for a file that cannot be removed.
pub fn clear_run_files(dir: &Path) -> Result<(), SweepError> {
    for sub in [
        crate::sweep::series::SERIES_DIR,
        crate::sweep::chain::STATES_DIR,
    ] {
        let Ok(entries) = std::fs::read_dir(dir.join(sub)) else {
            continue;
        };
        for e in entries.filter_map(Result::ok) {
            let name = e.file_name().to_string_lossy().into_owned();
            let ours =
                name.starts_with("point-") && (name.ends_with(".csv") || name.ends_with(".csv.gz"));
            if ours && e.path().is_file() {
                std::fs::remove_file(e.path()).map_err(|source| SweepError::Io {
                    path: e.path(),
                    source,
                })?;
            }
        }
    }
    Ok(())
}

/// The plot files of a sweep, in order: `<name>.svg` and `<name>.png` for each of
/// [`crate::sweep::plot::plotted`], then P(φ)'s `phi_histogram.png`.
pub fn plot_files(summary: &SweepSummary) -> Vec<String> {
    let mut files: Vec<String> = crate::sweep::plot::plotted(summary)
        .iter()
        .flat_map(|p| {
            let m = p.measure().name;
            [format!("{m}.svg"), format!("{m}.png")]
        })
        .collect();
    files.push(crate::sweep::histogram::PNG.to_string());
    files
}

/// Writes `sweep.csv`, `points.csv` and `summary.json` into `dir` (and the plots when `plots`),
/// each whole. `summary.files` is set to what the folder holds (with the runs' files `series`
/// written so far: series and chain states).
///
/// # Errors
/// [`SweepError::Write`] for a file that cannot be written, [`SweepError::Csv`],
/// [`SweepError::Json`] or [`SweepError::Plot`] for one that cannot be made.
pub fn write_outputs(
    dir: &Path,
    summary: &mut SweepSummary,
    rows: &[RunRow],
    plots: bool,
    series: &[String],
) -> Result<(), SweepError> {
    let axes = summary.plan.axes.clone();
    let write = |name: &str, bytes: &[u8]| -> Result<PathBuf, SweepError> {
        let p = dir.join(name);
        crate::io::write_atomic(&p, bytes).map_err(|source| SweepError::Write {
            path: p.clone(),
            source,
        })?;
        Ok(p)
    };
    let plot = |file: String| move |source| SweepError::Plot { file, source };
    let scalars = summary.plan.scalar_columns();
    write(CSV, &csv_bytes(&axes, &scalars, rows)?)?;
    let points = summarise(rows);
    write(POINTS_CSV, &points_csv(&axes, &scalars, &points)?)?;
    write(
        crate::sweep::histogram::CSV,
        &crate::sweep::histogram::csv_bytes(&axes, rows)?,
    )?;
    let mut files = vec![
        CSV.to_string(),
        POINTS_CSV.to_string(),
        crate::sweep::histogram::CSV.to_string(),
        SUMMARY.to_string(),
    ];
    if plots {
        let png = crate::sweep::histogram::histogram_png(summary, rows)
            .map_err(plot(crate::sweep::histogram::PNG.into()))?;
        write(crate::sweep::histogram::PNG, &png)?;
        for what in crate::sweep::plot::plotted(summary) {
            let name = what.measure().name;
            let svg = crate::sweep::plot::measure_svg(summary, &points, what)
                .map_err(plot(format!("{name}.svg")))?;
            write(&format!("{name}.svg"), svg.as_bytes())?;
            let png = crate::sweep::plot::measure_png(summary, &points, what)
                .map_err(plot(format!("{name}.png")))?;
            write(&format!("{name}.png"), &png)?;
        }
        files.extend(plot_files(summary));
    } else {
        files.extend(
            plot_files(summary)
                .into_iter()
                .filter(|f| dir.join(f).is_file()),
        );
    }
    files.extend(series.iter().cloned());
    summary.files = files;
    summary.updated_utc = crate::run::provenance::now_rfc3339();
    let json = serde_json::to_vec_pretty(summary).map_err(|source| SweepError::Json {
        path: SUMMARY.into(),
        source,
    })?;
    write(SUMMARY, &json)?;
    Ok(())
}

/// Reads a folder's `summary.json`.
///
/// # Errors
/// [`SweepError::NotSweep`]: missing or unreadable; [`SweepError::Json`]: not JSON or not a
/// sweep summary's fields; [`SweepError::File`]: a summary of another schema.
pub fn read_summary(dir: &Path) -> Result<SweepSummary, SweepError> {
    let p = dir.join(SUMMARY);
    let text = std::fs::read_to_string(&p).map_err(|source| SweepError::NotSweep {
        dir: dir.to_path_buf(),
        source,
    })?;
    let json = |source| SweepError::Json {
        path: p.clone(),
        source,
    };
    let v: serde_json::Value = serde_json::from_str(&text).map_err(json)?;
    if v.get("schema").and_then(|s| s.as_str()) != Some(crate::sweep::summary::SCHEMA) {
        return Err(SweepError::File {
            path: p.clone(),
            line: None,
            why: format!(
                "not a sweep summary (schema {}, expected {})",
                v.get("schema").map_or("missing".into(), |s| s.to_string()),
                crate::sweep::summary::SCHEMA
            ),
        });
    }
    serde_json::from_value(v).map_err(json)
}
