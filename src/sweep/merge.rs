//! `boids sweep merge OUT DIR…`: combines shard folders into one sweep folder whose `sweep.csv`
//! and `points.csv` are byte for byte the ones an unsharded run writes, with a summary of the
//! same layout (shard `null`, every point, status `complete`, `merged_from` listing the shards),
//! the plots, and the shards' `series/` files and chain `states/` when they were written.
//!
//! Refused, with a message naming the folder and its shard: a folder that is not a sweep, a shard
//! whose status is not `complete`, shards of different plans (fingerprints differ; the differing
//! options are named), shards split differently (I/N with different N), a shard given twice, a
//! missing shard, and a `sweep.csv` whose rows are not the shard's runs. An unsharded sweep
//! folder counts as shard 1/1.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::run::provenance::{now_rfc3339, SystemInfo, ToolInfo};
use crate::sweep::chain::STATES_DIR;
use crate::sweep::error::SweepError;
use crate::sweep::output::{prepare_dir, read_summary, run_files as run_files_of, write_outputs};
use crate::sweep::series::SERIES_DIR;
use crate::sweep::shard::Shard;
use crate::sweep::summary::{MergedShard, SweepStatus, SweepSummary};
use crate::sweep::table::{read_csv, RunRow, CSV};

/// What a merge produced.
#[derive(Debug)]
pub struct MergeOutcome {
    /// The merged folder.
    pub dir: PathBuf,
    /// Its summary.
    pub summary: SweepSummary,
    /// Its rows.
    pub rows: Vec<RunRow>,
}

/// Merges the shard folders `dirs` into `out` (folder rule of [`prepare_dir`]; `force` allows a
/// non-empty one).
///
/// # Errors
/// [`SweepError::Merge`] naming the folder and shard at fault (see the module doc),
/// [`SweepError::NotSweep`] for a folder that is not a sweep, [`SweepError::ShardFile`] for a
/// listed file that is gone, [`SweepError::Folder`] for the output folder, or a file error.
pub fn merge(out: &Path, dirs: &[PathBuf], force: bool) -> Result<MergeOutcome, SweepError> {
    let refuse = |why: String| Err(SweepError::Merge(why));
    if dirs.is_empty() {
        return refuse("boids sweep merge OUT DIR…: give the shard folders to merge".into());
    }
    let same = |a: &Path, b: &Path| match (a.canonicalize(), b.canonicalize()) {
        (Ok(x), Ok(y)) => x == y,
        _ => false,
    };
    if let Some(d) = dirs.iter().find(|d| same(d, out)) {
        return refuse(format!(
            "the output folder {} is also a shard folder to merge; merge into another folder",
            d.display()
        ));
    }
    let mut shards: Vec<(PathBuf, SweepSummary)> = Vec::new();
    for d in dirs {
        shards.push((d.clone(), read_summary(d)?));
    }
    for (d, s) in &shards {
        if s.status != SweepStatus::Complete {
            let why = match (&s.status, &s.error) {
                (SweepStatus::Failed, Some(e)) => format!(": {e}"),
                _ => String::new(),
            };
            let rerun = match s.shard {
                Some(sh) => format!("--shard {sh}"),
                None => "the sweep".into(),
            };
            return refuse(format!(
                "{} is {} ({} of {} runs done){why}; finish {rerun} with the same command and \
                 --resume before merging",
                s.label(d),
                s.status.name(),
                s.runs_done,
                s.runs.len()
            ));
        }
    }
    let (d0, s0) = &shards[0];
    for (d, s) in &shards[1..] {
        if s.fingerprint != s0.fingerprint {
            let diff = s0.plan.differences(&s.plan);
            return refuse(format!(
                "{} is from a different plan than {}: {} (fingerprints {} and {})",
                s.label(d),
                s0.label(d0),
                if diff.is_empty() {
                    "their options differ".to_string()
                } else {
                    diff.join("; ")
                },
                &s0.fingerprint[..12.min(s0.fingerprint.len())],
                &s.fingerprint[..12.min(s.fingerprint.len())]
            ));
        }
    }
    let shard_of = |s: &SweepSummary| s.shard.unwrap_or(Shard { index: 1, count: 1 });
    let count = shard_of(s0).count;
    let mut by_index: BTreeMap<u32, &Path> = BTreeMap::new();
    for (d, s) in &shards {
        let sh = shard_of(s);
        if sh.count != count {
            return refuse(format!(
                "{} and {} split the plan differently ({} vs {} shards); merge the shards of one \
                 split",
                s.label(d),
                s0.label(d0),
                sh.count,
                count
            ));
        }
        if let Some(prev) = by_index.insert(sh.index, d) {
            return refuse(format!(
                "shard {sh} is given twice: {} and {}; give each shard once",
                prev.display(),
                d.display()
            ));
        }
    }
    let missing: Vec<String> = (1..=count)
        .filter(|i| !by_index.contains_key(i))
        .map(|i| format!("{i}/{count}"))
        .collect();
    if !missing.is_empty() {
        let given: Vec<String> = by_index
            .iter()
            .map(|(i, d)| format!("{i}/{count} from {}", d.display()))
            .collect();
        return refuse(format!(
            "shard{} {} {} missing (given: {}); run {} and add {} folder{}",
            if missing.len() > 1 { "s" } else { "" },
            missing.join(", "),
            if missing.len() > 1 { "are" } else { "is" },
            given.join(", "),
            missing
                .iter()
                .map(|m| format!("--shard {m}"))
                .collect::<Vec<_>>()
                .join(", "),
            if missing.len() > 1 { "their" } else { "its" },
            if missing.len() > 1 { "s" } else { "" },
        ));
    }

    let axes = s0.plan.axes.clone();
    let mut rows: Vec<RunRow> = Vec::new();
    let mut runs = Vec::new();
    for (d, s) in &shards {
        let mut r = read_csv(&d.join(CSV), &axes, &s0.plan.scalar_columns())?;
        crate::sweep::histogram::attach(d, &axes, &mut r)?;
        let want: Vec<usize> = s.runs.iter().map(|p| p.run).collect();
        let got: Vec<usize> = r.iter().map(|p| p.run).collect();
        // Plan indices from 0; the files number runs from 1.
        let expected: Vec<usize> = s0
            .plan
            .order(Some(shard_of(s)))
            .into_iter()
            .map(|k| k + 1)
            .collect();
        if got != want || want != expected {
            return refuse(format!(
                "{}: {CSV} holds runs {} but the shard's runs are {}; the folder was changed \
                 after the sweep",
                s.label(d),
                brief(&got),
                brief(&expected)
            ));
        }
        rows.extend(r);
        runs.extend(s.runs.iter().cloned());
    }
    // The order one sweep runs them in (plan order, or a hysteresis sweep's chain steps).
    let mut position = vec![0; s0.runs_total];
    for (i, k) in s0.plan.order(None).into_iter().enumerate() {
        position[k] = i;
    }
    rows.sort_by_key(|r| position[r.run - 1]);
    runs.sort_by_key(|p| position[p.run - 1]);
    // Each shard's series files and chain states (its folder, summary and file), every one there
    // before anything is written.
    let run_files: Vec<(&PathBuf, &SweepSummary, &String)> = shards
        .iter()
        .flat_map(|(d, s)| {
            s.files
                .iter()
                .filter(|f| f.starts_with(SERIES_DIR) || f.starts_with(STATES_DIR))
                .map(move |f| (d, s, f))
        })
        .collect();
    for (d, s, f) in &run_files {
        if let Err(source) = std::fs::metadata(d.join(f)) {
            return Err(SweepError::ShardFile {
                shard: s.label(d),
                file: f.to_string(),
                source,
            });
        }
    }
    prepare_dir(out, force)?;
    if force {
        crate::sweep::output::clear_run_files(out)?;
    }
    let mut adapter = s0.adapter.clone();
    if shards
        .iter()
        .any(|(_, s)| s.adapter.as_ref().map(|a| &a.name) != adapter.as_ref().map(|a| &a.name))
    {
        adapter = None;
    }
    let now = now_rfc3339();
    let mut summary = SweepSummary {
        created_utc: now.clone(),
        updated_utc: now,
        status: SweepStatus::Complete,
        error: None,
        tool: ToolInfo::current(),
        system: SystemInfo::current(),
        adapter,
        shard: None,
        runs_done: runs.len(),
        runs,
        seconds_total: shards.iter().map(|(_, s)| s.seconds_total).sum(),
        files: Vec::new(),
        merged_from: shards
            .iter()
            .map(|(d, s)| MergedShard {
                dir: d.display().to_string(),
                shard: s.shard,
                created_utc: s.created_utc.clone(),
                tool: s.tool.clone(),
                system: s.system.clone(),
                adapter: s.adapter.clone(),
                seconds_total: s.seconds_total,
            })
            .collect(),
        ..s0.clone()
    };
    // The run files copied whole.
    let mut copied = std::collections::BTreeSet::new();
    for (d, s, f) in run_files {
        let bytes = std::fs::read(d.join(f)).map_err(|source| SweepError::ShardFile {
            shard: s.label(d),
            file: f.clone(),
            source,
        })?;
        let to = out.join(f);
        if let Some(parent) = to.parent() {
            std::fs::create_dir_all(parent).map_err(|source| SweepError::Io {
                path: parent.to_path_buf(),
                source,
            })?;
        }
        crate::io::write_atomic(&to, &bytes).map_err(|source| SweepError::Write {
            path: to.clone(),
            source,
        })?;
        copied.insert(f.clone());
    }
    // Listed as one sweep lists them: by run, in the order they ran.
    let series: Vec<String> = summary
        .runs
        .iter()
        .flat_map(|r| run_files_of(r.point, r.repeat, true, true))
        .filter(|f| copied.contains(f))
        .collect();
    write_outputs(out, &mut summary, &rows, true, &series)?;
    Ok(MergeOutcome {
        dir: out.to_path_buf(),
        summary,
        rows,
    })
}

/// `1, 4, 7, … (12 runs)` for messages.
fn brief(runs: &[usize]) -> String {
    let head: Vec<String> = runs.iter().take(6).map(|p| p.to_string()).collect();
    let more = if runs.len() > 6 { ", …" } else { "" };
    format!("{}{more} ({} runs)", head.join(", "), runs.len())
}
