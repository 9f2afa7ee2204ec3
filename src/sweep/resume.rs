//! `boids sweep … --resume --out DIR`: the runs an interrupted (or failed) sweep in DIR did not
//! finish, and only those. The folder's runs done are kept — their rows of `sweep.csv`, their
//! series files, their statuses in `summary.json` — and the sweep goes on from the first run not
//! done, so the finished folder is byte for byte the one an uninterrupted sweep writes (but for
//! `summary.json`'s times and costs).
//!
//! Refused, before anything is run or written, with what to do: a folder that is not a sweep; a
//! sweep of another plan (every option and the scene's contents: the differing options are named);
//! another shard; `--series` given to one and not the other; a folder whose rows are not its
//! summary's runs done (changed after the run). The summary is written after the tables, so
//! rows past its runs done (a sweep killed between the two) are run again. A complete sweep has
//! nothing to run; its files are written again, the same.

use std::path::Path;

use crate::sweep::error::SweepError;
use crate::sweep::output::{read_summary, run_files};
use crate::sweep::plan::{PlanSpec, Protocol};
use crate::sweep::series::SERIES_DIR;
use crate::sweep::shard::Shard;
use crate::sweep::summary::{SweepStatus, SweepSummary};
use crate::sweep::table::{read_csv, RunRow, CSV};

/// What a folder holds of a sweep to resume.
#[derive(Debug)]
pub struct Resumed {
    /// Its summary.
    pub summary: SweepSummary,
    /// The rows of its runs done, in plan order.
    pub rows: Vec<RunRow>,
    /// The files of its runs done, in the order written: each run's series file (with
    /// `--series`), then its final state (a hysteresis sweep's chains).
    pub files: Vec<String>,
}

/// Reads the sweep in `dir` to resume it with `plan`, `shard` and `series`.
///
/// # Errors
/// [`SweepError::Resume`] (see the module doc), [`SweepError::NotSweep`] for a folder without a
/// summary, or the error reading its files.
pub fn load(
    dir: &Path,
    plan: &PlanSpec,
    shard: Option<Shard>,
    series: bool,
) -> Result<Resumed, SweepError> {
    let refuse = |why: String| Err(SweepError::Resume(format!("{}: {why}", dir.display())));
    let summary = read_summary(dir)?;
    if summary.plan.fingerprint() != summary.fingerprint {
        return refuse(
            "its summary's plan does not match its fingerprint; the folder was changed after \
             the run: run the sweep into a new folder"
                .into(),
        );
    }
    if summary.fingerprint != plan.fingerprint() {
        let diff = summary.plan.differences(plan);
        return refuse(format!(
            "holds a sweep of another plan ({}); resume it with its own options, or run this \
             one into another folder",
            if diff.is_empty() {
                "its fingerprint differs".to_string()
            } else {
                format!("the folder's vs these: {}", diff.join("; "))
            }
        ));
    }
    if summary.shard != shard {
        let name = |s: Option<Shard>| s.map_or("no shard".to_string(), |s| format!("shard {s}"));
        return refuse(format!(
            "holds {} and this is {}: resume it {}",
            name(summary.shard),
            name(shard),
            summary
                .shard
                .map_or("without --shard".to_string(), |s| format!(
                    "with --shard {s}"
                ))
        ));
    }
    let had_series = dir.join(SERIES_DIR).is_dir();
    if had_series != series {
        return refuse(format!(
            "was run {} --series; resume it {0} --series",
            if had_series { "with" } else { "without" }
        ));
    }
    let done = summary.runs.iter().take_while(|r| r.done).count();
    if summary.runs[done..].iter().any(|r| r.done) || done != summary.runs_done {
        return refuse(format!(
            "its summary's runs done ({}) are not the first runs of its plan; the folder was \
             changed after the run",
            summary.runs_done
        ));
    }
    let axes = summary.plan.axes.clone();
    let expected: Vec<usize> = summary.runs[..done].iter().map(|r| r.run).collect();
    let rows = if done == 0 {
        Vec::new()
    } else {
        let mut rows = read_csv(&dir.join(CSV), &axes, &summary.plan.scalar_columns())?;
        // `summary.json` is written last: rows past its runs done are those of a sweep stopped
        // (killed, or interrupted twice) between writing the tables and the summary. They are
        // run again, as the runs the summary does not count as done.
        let numbers: Vec<usize> = rows.iter().map(|r| r.run).collect();
        if numbers.len() > done && numbers[..done] == expected[..] {
            rows.truncate(done);
        }
        crate::sweep::histogram::attach(dir, &axes, &mut rows)?;
        rows
    };
    let numbers: Vec<usize> = rows.iter().map(|r| r.run).collect();
    if numbers != expected {
        return refuse(format!(
            "{CSV} holds runs {numbers:?} where its summary says {expected:?} are done; the \
             folder was changed after the run"
        ));
    }
    // Each row is its run: point, repeat, seed, values and count as the summary has them.
    for (row, st) in rows.iter().zip(&summary.runs) {
        let same = row.point == st.point
            && row.repeat == st.repeat
            && row.seed == st.seed
            && row.values == st.values
            && Some(row.boids) == st.boids
            && row.samples == plan.samples();
        if !same {
            return refuse(format!(
                "row of run {} in {CSV} is not the run its summary describes (point, repeat, \
                 seed, values, count or samples differ); the folder was changed after the run",
                row.run
            ));
        }
    }
    let mut names = Vec::new();
    let chained = plan.protocol == Protocol::Hysteresis;
    for r in &summary.runs[..done] {
        for name in run_files(r.point, r.repeat, series, chained) {
            if !dir.join(&name).is_file() {
                return refuse(format!(
                    "{name} of run {} is missing; the folder was changed after the run: run \
                     the sweep again into a new folder (or this one with --force)",
                    r.run
                ));
            }
            names.push(name);
        }
    }
    if summary.status == SweepStatus::Complete && done < summary.runs.len() {
        return refuse("is complete but not every run is done".into());
    }
    Ok(Resumed {
        summary,
        rows,
        files: names,
    })
}
