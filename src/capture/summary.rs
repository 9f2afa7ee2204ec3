//! The layout of `summary.json` (serde types, also read back by `boids bench --compare`).
//!
//! Times are milliseconds, rates per second. NaN values (a statistic of no samples) are written as
//! `null`. The layout is versioned by [`SCHEMA`].

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::model::FlockMeasures;
use crate::run::provenance::{AdapterSummary, SystemInfo, ToolInfo};
use crate::stats::time::{nan_if_null, TimeStats};

/// The `schema` field of every summary this version writes.
pub const SCHEMA: &str = "boids-bench-capture/1";

/// Where a run's per-stage times (the `*_ms` stage columns of `frames.csv`) come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum StageTiming {
    /// GPU timestamp queries (wgpu-profiler scopes around each compute pass).
    GpuTimestamps,
    /// CPU wall time around each stage (CPU backends).
    CpuWall,
    /// None: the stage columns are empty (a GPU without timestamp queries).
    None,
}

/// How the GPU runs of a capture were timed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum GpuTiming {
    /// Per-pass times from timestamp queries, and wall time on the CPU side.
    TimestampQueries,
    /// Only CPU-side wall time (the adapter has no timestamp queries).
    CpuSideOnly,
    /// No GPU was used.
    NoGpu,
}

/// Whether the capture is finished.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CaptureStatus {
    /// Written after a run while the sweep goes on (what a crash would leave).
    InProgress,
    /// Every planned run was done or skipped.
    Complete,
    /// Stopped early (Ctrl-C): the runs listed are those that finished (the last may be partial,
    /// `complete: false`); the others are in `skipped` with kind `interrupted`.
    Interrupted,
}

/// Why a run was not done (or not finished).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SkipKind {
    /// The estimated work is above the limit (the brute-force backend; see `reason`).
    TooSlow,
    /// The count does not fit the adapter's limits (`reason` names the limit).
    OverLimit,
    /// A GPU run with no usable adapter.
    NoAdapter,
    /// Not started, or stopped during warm-up, because the sweep was interrupted.
    Interrupted,
    /// The backend failed (`reason` holds the error); rows measured before remain.
    Failed,
}

/// A run that was not done, and why.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SkippedRun {
    /// Backend name (`gpu`, `cpu`, `cpu-naive`).
    pub backend: String,
    /// Boid count.
    pub boids: usize,
    /// Category.
    pub kind: SkipKind,
    /// Human-readable reason.
    pub reason: String,
}

/// Statistics of one run: every row of `frames.csv` with this backend and boid count.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunSummary {
    /// Backend name.
    pub backend: String,
    /// Boid count.
    pub boids: usize,
    /// Whether every planned measured step was done (false: interrupted or failed).
    pub complete: bool,
    /// Statistics of the `wall_ms` column: samples, mean/median/quartiles/p95/p99/max ms, fps, 1 % low fps.
    #[serde(flatten)]
    pub stats: TimeStats,
    /// Boids × steps per second at the mean step time.
    #[serde(deserialize_with = "nan_if_null")]
    pub boid_steps_per_s: f64,
    /// Source of the stage columns.
    pub stage_timing: StageTiming,
    /// Median of each non-empty stage column (ms), by stage name (`clear`, …, `render`).
    pub stage_median_ms: BTreeMap<String, f64>,
    /// The simulation parameters of the run (the world is sized to the count unless the scene
    /// fixes it), when known.
    pub params: Option<serde_json::Value>,
    /// Flock measures after the last measured step, when known.
    pub final_measures: Option<FlockMeasures>,
    /// Where a GPU run's wall time went: its setup (adapter for the first GPU run, pipelines,
    /// buffers, upload), its steps and read-backs, ms ([`crate::backend::Costs`]); absent for the
    /// CPU backends and in the app's captures.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub costs: Option<crate::backend::Costs>,
}

/// The whole `summary.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// [`SCHEMA`].
    pub schema: String,
    /// When the capture started (RFC 3339, UTC).
    pub created_utc: String,
    /// `sweep` (`boids bench`) or `live` (recorded in the app).
    pub source: String,
    /// Whether the capture is finished.
    pub status: CaptureStatus,
    /// The program (version, git commit).
    pub tool: ToolInfo,
    /// The machine (OS, CPU model).
    pub system: SystemInfo,
    /// The GPU adapter, when one was used.
    pub adapter: Option<AdapterSummary>,
    /// Why no adapter could be used, when GPU runs were asked for and none was found.
    pub adapter_error: Option<String>,
    /// How frames reached the screen: `offscreen` for `boids bench` (no surface, so vsync never
    /// caps it), else the wgpu present mode of the window (e.g. `Immediate`).
    pub present_mode: String,
    /// How GPU runs were timed.
    pub gpu_timing: GpuTiming,
    /// Every option of the capture (backends, counts, steps, warm-up, seed, scene, limits, …).
    pub parameters: serde_json::Value,
    /// How each figure was timed, by column, where a capture says more than the documented
    /// meaning of the columns (live captures: see `crate::app::record`). Absent when empty.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub timing_notes: BTreeMap<String, String>,
    /// The files of the capture, relative to its folder.
    pub files: Vec<String>,
    /// One entry per (backend, boids) with rows, in the order first measured.
    pub runs: Vec<RunSummary>,
    /// Runs not done, with reasons.
    pub skipped: Vec<SkippedRun>,
}

impl Summary {
    /// The run of `backend` at `boids`, if any.
    pub fn run(&self, backend: &str, boids: usize) -> Option<&RunSummary> {
        self.runs
            .iter()
            .find(|r| r.backend == backend && r.boids == boids)
    }
}
