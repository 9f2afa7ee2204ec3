//! The layout of a sweep's `summary.json` (serde types, read back by `boids sweep merge`).
//!
//! Times are seconds. The layout is versioned by [`SCHEMA`].

use serde::{Deserialize, Serialize};

use crate::run::provenance::{AdapterSummary, SystemInfo, ToolInfo};
use crate::sweep::plan::PlanSpec;
use crate::sweep::shard::Shard;

/// The `schema` field of every sweep summary this version writes (`/2`: runs, not points, are
/// listed and counted — `runs`, `runs_total`, `runs_done`, each run with its `point`).
pub const SCHEMA: &str = "boids-sweep/2";

/// Whether a sweep (or shard) is finished.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SweepStatus {
    /// Written after every run while the sweep goes on (what a crash or a second Ctrl-C
    /// leaves).
    InProgress,
    /// Every run of the sweep (or shard) is done.
    Complete,
    /// Stopped by Ctrl-C after a run: the runs marked done are in `sweep.csv`.
    Interrupted,
    /// A run failed (`error` says why); the runs done before it are in `sweep.csv`.
    Failed,
}

impl SweepStatus {
    /// The name written in the file.
    pub fn name(self) -> &'static str {
        match self {
            SweepStatus::InProgress => "in-progress",
            SweepStatus::Complete => "complete",
            SweepStatus::Interrupted => "interrupted",
            SweepStatus::Failed => "failed",
        }
    }
}

/// One run of the sweep (or shard) and whether it is done.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunStatus {
    /// Its number in the full plan, from 1 (its index + 1).
    pub run: usize,
    /// The number of its point (combination of values) in the full plan, from 1.
    pub point: usize,
    /// The value of each swept parameter.
    pub values: Vec<f64>,
    /// Repeat, from 1.
    pub repeat: u32,
    /// Seed of the run.
    pub seed: u32,
    /// Whether its row is in `sweep.csv`.
    pub done: bool,
    /// Wall time of the run (backend made, every step and its measures), when done.
    pub seconds: Option<f64>,
    /// Boid count N of the run, when done.
    #[serde(default)]
    pub boids: Option<usize>,
    /// World width and height (wu) of the run, when done.
    #[serde(default)]
    pub world_wu: Option<[f32; 2]>,
    /// Density N/(W·H) (boids/wu²) of the run, when done.
    #[serde(default)]
    pub density: Option<f64>,
    /// Where the wall time of a GPU run went (adapter, pipelines, buffers, upload, steps,
    /// read-backs; [`crate::backend::Costs`]), when done; absent for the CPU backends.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub costs: Option<crate::backend::Costs>,
}

/// A shard folder a merged sweep was made from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MergedShard {
    /// The folder, as given to `boids sweep merge`.
    pub dir: String,
    /// Its shard (None: an unsharded sweep).
    pub shard: Option<Shard>,
    /// When it started (RFC 3339, UTC).
    pub created_utc: String,
    /// The program that ran it.
    pub tool: ToolInfo,
    /// The machine it ran on.
    pub system: SystemInfo,
    /// Its GPU adapter, if one was used.
    pub adapter: Option<AdapterSummary>,
    /// Its total wall time (s).
    pub seconds_total: f64,
}

/// How the numbers were made (constant text and counts, for the reader).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Method {
    /// How GPU runs were grouped into ensembles (`--batch`: `auto`, a count, or `1`), with what
    /// it means (and, for the CPU backends, that they ignore it); absent for a merge. The
    /// results are the same bits whatever it is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub batch: Option<String>,
    /// The measures, in column order.
    pub measures: Vec<String>,
    /// Measured steps per run (steps − discard).
    pub samples_per_run: u32,
    /// Batches of the batch-means standard error.
    pub batches: usize,
    /// How the standard error is computed.
    pub standard_error: String,
    /// How points, runs and seeds are numbered and made.
    pub runs: String,
    /// Which runs a shard runs.
    pub shards: String,
    /// How the world is sized.
    pub world: String,
}

/// The whole `summary.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SweepSummary {
    /// [`SCHEMA`].
    pub schema: String,
    /// When the sweep started (RFC 3339, UTC); for a merge, when it was merged.
    pub created_utc: String,
    /// When this file was last written (RFC 3339, UTC).
    pub updated_utc: String,
    /// Whether the sweep is finished.
    pub status: SweepStatus,
    /// Why it failed, when `status` is `failed`.
    pub error: Option<String>,
    /// The program (version, git commit).
    pub tool: ToolInfo,
    /// The machine (OS, CPU model, threads).
    pub system: SystemInfo,
    /// The GPU adapter, when the backend is `gpu`.
    pub adapter: Option<AdapterSummary>,
    /// Every option that defines the results.
    pub plan: PlanSpec,
    /// SHA-256 of `plan` without the scene's path (see [`PlanSpec::fingerprint`]).
    pub fingerprint: String,
    /// Runs in the full plan.
    pub runs_total: usize,
    /// This folder's shard (None: the whole plan).
    pub shard: Option<Shard>,
    /// The simulation parameters before the swept ones are set (the scene's, with the world
    /// sized for the first run's count unless the scene fixes it).
    pub base_params: serde_json::Value,
    /// How the numbers were made.
    pub method: Method,
    /// Runs of this folder that are done.
    pub runs_done: usize,
    /// Every run of this folder (the shard's, or all), in plan order.
    pub runs: Vec<RunStatus>,
    /// Wall time of the whole sweep so far (s; a resumed sweep adds its sessions); for a merge,
    /// the sum over the shards.
    pub seconds_total: f64,
    /// The files of the folder, relative to it.
    pub files: Vec<String>,
    /// The shard folders this sweep was merged from (empty for a run).
    pub merged_from: Vec<MergedShard>,
    /// Which plot axes are logarithmic (`--log`).
    #[serde(default)]
    pub log: LogAxes,
}

/// Which axes of a sweep's plots are logarithmic: `--log x`, `y` or `xy`. Without `--log` the x
/// axis is logarithmic when its values are positive and span a factor of 100 or more, and the y
/// axis is linear.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LogAxes {
    /// The x axis: `Some` when `--log` says, `None` for the automatic rule.
    pub x: Option<bool>,
    /// The y axis (points at or below 0 are not drawn on it).
    pub y: bool,
}

impl LogAxes {
    /// Parses `--log`: `x`, `y`, `xy` (or `yx`), or `none` (both linear).
    ///
    /// # Errors
    /// The value and what is allowed.
    // A String, not a SweepError: clap's value parser (`--log`) shows it as the option's error.
    pub fn parse(s: &str) -> Result<LogAxes, String> {
        match s {
            "x" => Ok(LogAxes {
                x: Some(true),
                y: false,
            }),
            "y" => Ok(LogAxes {
                x: Some(false),
                y: true,
            }),
            "xy" | "yx" => Ok(LogAxes {
                x: Some(true),
                y: true,
            }),
            "none" => Ok(LogAxes {
                x: Some(false),
                y: false,
            }),
            other => Err(format!(
                "--log {other:?}: expected x, y, xy or none (the axes drawn logarithmic)"
            )),
        }
    }
}

impl SweepSummary {
    /// The sweep's model (from its base parameters; the default model where they do not name
    /// one).
    pub fn model(&self) -> crate::model::Model {
        self.base_params
            .get("model")
            .and_then(|m| m.as_str())
            .and_then(crate::model::Model::by_name)
            .unwrap_or_default()
    }

    /// `DIR (shard I/N)` or `DIR` for messages.
    pub fn label(&self, dir: &std::path::Path) -> String {
        match self.shard {
            Some(s) => format!("{} (shard {s})", dir.display()),
            None => dir.display().to_string(),
        }
    }
}
