//! [`CaptureRecorder`]: collects per-frame rows (from `boids bench` or a live app session) and
//! writes a capture folder:
//!
//! | file | content |
//! |---|---|
//! | `frames.csv` | one row per measured frame: [`csv_header`] |
//! | `summary.json` | [`Summary`]: machine, adapter, parameters, per-run statistics, skipped runs |
//! | `trace.json` | Chrome trace of the GPU passes of the last [`TRACE_FRAMES_PER_RUN`] frames of each GPU run |
//! | `scaling.svg`, `scaling.png` | `boids bench`: median time against boid count, log-log, one line per backend |
//! | `frametimes.svg` | every frame's time in capture order |
//! | `frametimes.png`, `frametime_histogram.svg`, `frametime_histogram.png` | live captures: the frame times over the session as PNG too, and their histogram |
//!
//! A `boids bench` capture writes [`FILES`]; a live one ([`CaptureMeta::source`] `live`) writes
//! [`LIVE_FILES`]: a session has one count per run, so a scaling plot would be a point per run,
//! while its frame times over the session and their distribution are what it measured.
//!
//! Every file is written whole (temporary name, then rename), `summary.json` last, so a folder
//! whose summary is there holds a consistent capture. Run statistics are computed from the same
//! rounded values written to `frames.csv` (see [`round_ms`]).
//!
//! A live session records like this (one row per frame; a change of backend or count starts a new
//! run in the summary):
//!
//! ```no_run
//! use boids::capture::recorder::{CaptureMeta, CaptureRecorder, FrameRow};
//! # fn frame() -> f64 { 16.0 }
//! let meta = CaptureMeta::collect("live", "Immediate", None, serde_json::json!({"scene": null}));
//! let mut rec = CaptureRecorder::new(meta);
//! for step in 0..100u64 {
//!     let mut row = FrameRow::new("gpu", 20_000, step, frame());
//!     row.set_stage("rules", 1.25); // per-pass times, when known
//!     rec.push(row);
//! }
//! rec.write(std::path::Path::new("captures/live-1")).unwrap();
//! ```

use std::path::{Path, PathBuf};

use crate::capture::error::BenchError;
use crate::capture::plot::{self, FrameRun, FrametimesPlot, ScalingLine, ScalingPlot};
use crate::capture::summary::{
    CaptureStatus, GpuTiming, RunSummary, SkippedRun, StageTiming, Summary, SCHEMA,
};
use crate::capture::trace::{trace_json, TraceFrame};
use crate::gpu::GpuContext;
use crate::model::{FlockMeasures, SimParams};
use crate::plot::PlotError;
use crate::run::provenance::{now_rfc3339, AdapterSummary, SystemInfo, ToolInfo};
use crate::stats::time::{round_ms, TimeStats};

/// The timed columns after the stages: the render pass (`boids bench --render`: recorded and
/// waited for; live captures: encoded and submitted), then, in live captures only, where the
/// rest of the frame's CPU time went: the egui pass (`ui`), the frame's steps (`step_cpu`) and
/// acquire + present (`present`); see [`crate::app::record`].
pub const FRAME_COLUMNS: [&str; 4] = ["render", "ui", "step_cpu", "present"];

/// Number of timed columns: every stage of [`crate::stages::STAGES`], then [`FRAME_COLUMNS`].
pub const TIMED: usize = crate::stages::STAGE_COUNT + FRAME_COLUMNS.len();

/// The timed columns of `frames.csv`, in order: every stage of [`crate::stages::STAGES`] (the
/// step's stages, then the flock measures), then [`FRAME_COLUMNS`].
pub fn timed_columns() -> [&'static str; TIMED] {
    let mut names = ["render"; TIMED];
    let stages = crate::stages::STAGES.iter().map(|s| s.name);
    for (n, s) in names.iter_mut().zip(stages.chain(FRAME_COLUMNS)) {
        *n = s;
    }
    names
}

/// Columns of `frames.csv`: `backend` (the backend name), `boids` (the count), `step` (the
/// backend's step index), `wall_ms` (the frame's wall time on the CPU side: step submitted and
/// finished, plus the render when rendering), then `<name>_ms` for each of [`timed_columns`] —
/// GPU timestamp queries on the GPU, wall time per stage on the CPU — empty when not measured.
pub fn csv_header() -> Vec<String> {
    ["backend", "boids", "step", "wall_ms"]
        .into_iter()
        .map(str::to_string)
        .chain(timed_columns().iter().map(|s| format!("{s}_ms")))
        .collect()
}

/// Frames of each GPU run kept for `trace.json` (the last ones).
pub const TRACE_FRAMES_PER_RUN: usize = 3;

/// The file names of a capture, in the order written (`summary.json` last).
pub const FILES: [&str; 6] = [
    "frames.csv",
    "trace.json",
    "scaling.svg",
    "scaling.png",
    "frametimes.svg",
    "summary.json",
];

/// The file names of a live capture (the app's F9), in the order written (`summary.json` last).
pub const LIVE_FILES: [&str; 7] = [
    "frames.csv",
    "trace.json",
    "frametimes.svg",
    "frametimes.png",
    "frametime_histogram.svg",
    "frametime_histogram.png",
    "summary.json",
];

/// The files a capture from `source` writes: [`LIVE_FILES`] for `live`, else [`FILES`].
pub fn files_of(source: &str) -> &'static [&'static str] {
    if source == "live" {
        &LIVE_FILES
    } else {
        &FILES
    }
}

/// One measured frame.
#[derive(Clone, Debug, PartialEq)]
pub struct FrameRow {
    /// Backend name (`gpu`, `cpu`, `cpu-naive`).
    pub backend: String,
    /// Boid count.
    pub boids: usize,
    /// Step index of the backend after this frame's step.
    pub step: u64,
    /// Wall time of the frame (ms), rounded by [`round_ms`].
    pub wall_ms: f64,
    /// Time of each of [`timed_columns`] (ms, rounded), `None` when not measured.
    pub stage_ms: [Option<f64>; TIMED],
}

impl FrameRow {
    /// A row with no stage times.
    pub fn new(backend: &str, boids: usize, step: u64, wall_ms: f64) -> FrameRow {
        FrameRow {
            backend: backend.to_string(),
            boids,
            step,
            wall_ms: round_ms(wall_ms),
            stage_ms: [None; TIMED],
        }
    }

    /// Sets the time of stage `name` (one of [`timed_columns`]); returns false (and sets nothing) for
    /// another name.
    pub fn set_stage(&mut self, name: &str, ms: f64) -> bool {
        match timed_columns().iter().position(|s| *s == name) {
            Some(i) => {
                self.stage_ms[i] = Some(round_ms(ms));
                true
            }
            None => false,
        }
    }

    /// The time of stage `name`, when measured.
    pub fn stage(&self, name: &str) -> Option<f64> {
        timed_columns()
            .iter()
            .position(|s| *s == name)
            .and_then(|i| self.stage_ms[i])
    }
}

/// What the caller knows about a run besides its rows.
#[derive(Clone, Debug, PartialEq)]
pub struct RunInfo {
    /// Source of the stage columns.
    pub stage_timing: StageTiming,
    /// The parameters of the run.
    pub params: Option<SimParams>,
    /// Flock measures after the last frame.
    pub final_measures: Option<FlockMeasures>,
    /// Whether every planned frame was measured.
    pub complete: bool,
    /// Where a GPU run's wall time went (setup, steps, read-backs), when known.
    pub costs: Option<crate::backend::Costs>,
}

/// Everything in `summary.json` that is not per run.
#[derive(Clone, Debug, PartialEq)]
pub struct CaptureMeta {
    /// Start time (RFC 3339 UTC).
    pub created_utc: String,
    /// `sweep` or `live`.
    pub source: String,
    /// The program.
    pub tool: ToolInfo,
    /// The machine.
    pub system: SystemInfo,
    /// The adapter, when a GPU is used.
    pub adapter: Option<AdapterSummary>,
    /// Why no adapter could be used, if GPU runs were asked for.
    pub adapter_error: Option<String>,
    /// `offscreen`, or the window's present mode.
    pub present_mode: String,
    /// Every option of the capture.
    pub parameters: serde_json::Value,
    /// How each figure was timed, by column (`summary.json`'s `timing_notes`; empty: the
    /// documented meaning of [`csv_header`]).
    pub timing_notes: std::collections::BTreeMap<String, String>,
}

impl CaptureMeta {
    /// The metadata of a capture starting now: tool, system and (when `gpu` is given) adapter.
    pub fn collect(
        source: &str,
        present_mode: &str,
        gpu: Option<&GpuContext>,
        parameters: serde_json::Value,
    ) -> CaptureMeta {
        CaptureMeta {
            created_utc: now_rfc3339(),
            source: source.to_string(),
            tool: ToolInfo::current(),
            system: SystemInfo::current(),
            adapter: gpu.map(AdapterSummary::of),
            adapter_error: None,
            present_mode: present_mode.to_string(),
            parameters,
            timing_notes: Default::default(),
        }
    }
}

/// Collects a capture and writes its files. See the module documentation.
#[derive(Debug)]
pub struct CaptureRecorder {
    meta: CaptureMeta,
    rows: Vec<FrameRow>,
    info: Vec<(String, usize, RunInfo)>,
    skipped: Vec<SkippedRun>,
    traces: Vec<TraceFrame>,
    status: CaptureStatus,
}

impl CaptureRecorder {
    /// An empty capture (status [`CaptureStatus::Complete`] unless changed).
    pub fn new(meta: CaptureMeta) -> CaptureRecorder {
        CaptureRecorder {
            meta,
            rows: Vec::new(),
            info: Vec::new(),
            skipped: Vec::new(),
            traces: Vec::new(),
            status: CaptureStatus::Complete,
        }
    }

    /// Appends a measured frame.
    pub fn push(&mut self, row: FrameRow) {
        self.rows.push(row);
    }

    /// The frames so far.
    pub fn rows(&self) -> &[FrameRow] {
        &self.rows
    }

    /// Records (or replaces) what is known of the run of `backend` at `boids`.
    pub fn set_run_info(&mut self, backend: &str, boids: usize, info: RunInfo) {
        match self
            .info
            .iter_mut()
            .find(|(b, n, _)| b == backend && *n == boids)
        {
            Some(slot) => slot.2 = info,
            None => self.info.push((backend.to_string(), boids, info)),
        }
    }

    /// Records a run that was not done.
    pub fn skip(&mut self, skipped: SkippedRun) {
        self.skipped.push(skipped);
    }

    /// The runs not done so far.
    pub fn skipped(&self) -> &[SkippedRun] {
        &self.skipped
    }

    /// Keeps a frame's GPU timer scopes for `trace.json` (the last [`TRACE_FRAMES_PER_RUN`] of
    /// each run are kept).
    pub fn push_trace(&mut self, frame: TraceFrame) {
        let same: Vec<usize> = (0..self.traces.len())
            .filter(|&i| {
                self.traces[i].backend == frame.backend && self.traces[i].boids == frame.boids
            })
            .collect();
        if same.len() >= TRACE_FRAMES_PER_RUN {
            self.traces.remove(same[0]);
        }
        self.traces.push(frame);
    }

    /// Sets the status written in the summary.
    pub fn set_status(&mut self, status: CaptureStatus) {
        self.status = status;
    }

    /// The metadata (e.g. to fill in `adapter_error`).
    pub fn meta_mut(&mut self) -> &mut CaptureMeta {
        &mut self.meta
    }

    /// The summary of the rows so far: one run per (backend, boids) in order of first row.
    pub fn summary(&self) -> Summary {
        let mut keys: Vec<(&str, usize)> = Vec::new();
        for r in &self.rows {
            if !keys.contains(&(r.backend.as_str(), r.boids)) {
                keys.push((&r.backend, r.boids));
            }
        }
        let runs = keys
            .into_iter()
            .map(|(backend, boids)| {
                let rows: Vec<&FrameRow> = self
                    .rows
                    .iter()
                    .filter(|r| r.backend == backend && r.boids == boids)
                    .collect();
                let wall: Vec<f64> = rows.iter().map(|r| r.wall_ms).collect();
                let stats = TimeStats::from_ms(&wall);
                let stage_median_ms = timed_columns()
                    .iter()
                    .enumerate()
                    .filter_map(|(i, name)| {
                        let v: Vec<f64> = rows.iter().filter_map(|r| r.stage_ms[i]).collect();
                        (!v.is_empty())
                            .then(|| (name.to_string(), TimeStats::from_ms(&v).median_ms))
                    })
                    .collect();
                let info = self
                    .info
                    .iter()
                    .find(|(b, n, _)| b == backend && *n == boids)
                    .map(|x| &x.2);
                RunSummary {
                    backend: backend.to_string(),
                    boids,
                    complete: info.is_none_or(|i| i.complete),
                    boid_steps_per_s: stats.boid_steps_per_s(boids),
                    stats,
                    stage_timing: info.map_or(StageTiming::None, |i| i.stage_timing),
                    stage_median_ms,
                    params: info
                        .and_then(|i| i.params.as_ref())
                        .and_then(|p| serde_json::to_value(p).ok()),
                    final_measures: info.and_then(|i| i.final_measures),
                    costs: info.and_then(|i| i.costs),
                }
            })
            .collect();
        let m = &self.meta;
        Summary {
            schema: SCHEMA.to_string(),
            created_utc: m.created_utc.clone(),
            source: m.source.clone(),
            status: self.status,
            tool: m.tool.clone(),
            system: m.system.clone(),
            adapter: m.adapter.clone(),
            adapter_error: m.adapter_error.clone(),
            present_mode: m.present_mode.clone(),
            gpu_timing: match &m.adapter {
                Some(a) if a.timestamp_queries => GpuTiming::TimestampQueries,
                Some(_) => GpuTiming::CpuSideOnly,
                None => GpuTiming::NoGpu,
            },
            parameters: m.parameters.clone(),
            timing_notes: m.timing_notes.clone(),
            files: files_of(&m.source).iter().map(|s| s.to_string()).collect(),
            runs,
            skipped: self.skipped.clone(),
        }
    }

    /// The `frames.csv` text.
    ///
    /// # Errors
    /// The CSV writer's error.
    pub fn frames_csv(&self) -> Result<Vec<u8>, csv::Error> {
        let mut w = csv::Writer::from_writer(Vec::new());
        w.write_record(csv_header())?;
        let cell = |v: Option<f64>| v.map_or(String::new(), |x| x.to_string());
        for r in &self.rows {
            let mut rec = vec![
                r.backend.clone(),
                r.boids.to_string(),
                r.step.to_string(),
                r.wall_ms.to_string(),
            ];
            rec.extend(r.stage_ms.iter().map(|v| cell(*v)));
            w.write_record(&rec)?;
        }
        w.into_inner().map_err(|e| e.into_error().into())
    }

    /// Writes every file of [`files_of`] its source ([`FILES`], or [`LIVE_FILES`] for a live
    /// capture) into `dir` (which must exist), `summary.json` last. Returns the paths written.
    ///
    /// # Errors
    /// [`BenchError::File`] or [`BenchError::Plot`].
    pub fn write(&self, dir: &Path) -> Result<Vec<PathBuf>, BenchError> {
        let summary = self.summary();
        let file_err = |name: &str, message: String| BenchError::File {
            path: dir.join(name),
            message,
        };
        let plot_err = |name: &str, source: PlotError| BenchError::Plot {
            name: name.to_string(),
            source,
        };
        let note = match summary.gpu_timing {
            GpuTiming::TimestampQueries if self.traces.is_empty() => self
                .meta
                .timing_notes
                .get("trace.json")
                .filter(|n| n.starts_with("empty"))
                .cloned()
                .unwrap_or_else(|| "empty: no GPU timer scope came back while recording".into()),
            GpuTiming::TimestampQueries => format!(
                "GPU timestamp scopes of the last {TRACE_FRAMES_PER_RUN} measured frames of each GPU run"
            ),
            GpuTiming::CpuSideOnly => {
                "empty: the adapter has no timestamp queries (times are CPU-side only)".into()
            }
            GpuTiming::NoGpu => "empty: no GPU run".into(),
        };
        let trace = serde_json::to_vec_pretty(&trace_json(&self.traces, &note))
            .map_err(|e| file_err("trace.json", e.to_string()))?;
        let summary_json = serde_json::to_vec_pretty(&summary)
            .map_err(|e| file_err("summary.json", e.to_string()))?;
        let frametimes = frametimes_plot(&summary, &self.rows);
        let mut contents: Vec<(&str, Vec<u8>)> = vec![
            (
                "frames.csv",
                self.frames_csv()
                    .map_err(|e| file_err("frames.csv", e.to_string()))?,
            ),
            ("trace.json", trace),
        ];
        if summary.source == "live" {
            contents.extend([
                (
                    "frametimes.svg",
                    plot::frametimes_svg(&frametimes)
                        .map_err(|e| plot_err("frametimes.svg", e))?
                        .into_bytes(),
                ),
                (
                    "frametimes.png",
                    plot::frametimes_png(&frametimes).map_err(|e| plot_err("frametimes.png", e))?,
                ),
                (
                    "frametime_histogram.svg",
                    plot::histogram_svg(&frametimes)
                        .map_err(|e| plot_err("frametime_histogram.svg", e))?
                        .into_bytes(),
                ),
                (
                    "frametime_histogram.png",
                    plot::histogram_png(&frametimes)
                        .map_err(|e| plot_err("frametime_histogram.png", e))?,
                ),
            ]);
        } else {
            let scaling = scaling_plot(&summary);
            contents.extend([
                (
                    "scaling.svg",
                    plot::scaling_svg(&scaling)
                        .map_err(|e| plot_err("scaling.svg", e))?
                        .into_bytes(),
                ),
                (
                    "scaling.png",
                    plot::scaling_png(&scaling).map_err(|e| plot_err("scaling.png", e))?,
                ),
                (
                    "frametimes.svg",
                    plot::frametimes_svg(&frametimes)
                        .map_err(|e| plot_err("frametimes.svg", e))?
                        .into_bytes(),
                ),
            ]);
        }
        contents.push(("summary.json", summary_json));
        debug_assert_eq!(
            contents.iter().map(|c| c.0).collect::<Vec<_>>(),
            files_of(&summary.source)
        );
        let mut written = Vec::new();
        for (name, bytes) in contents {
            let path = dir.join(name);
            crate::io::write_atomic(&path, &bytes).map_err(|e| file_err(name, e.to_string()))?;
            written.push(path);
        }
        Ok(written)
    }
}

/// The second title line of the plots: adapter, CPU and threads, commit.
fn device_line(s: &Summary) -> String {
    let mut parts = Vec::new();
    if let Some(a) = &s.adapter {
        parts.push(format!(
            "gpu: {} ({}, {})",
            a.name, a.backend, a.device_type
        ));
    }
    let cpu = s.system.cpu_model.as_deref().unwrap_or("unknown CPU");
    parts.push(format!("cpu: {cpu}, {} threads", s.system.rayon_threads));
    if let Some(c) = &s.tool.git_commit {
        let dirty = if s.tool.git_dirty == Some(true) {
            " (modified)"
        } else {
            ""
        };
        parts.push(format!("commit {}{dirty}", &c[..c.len().min(10)]));
    }
    parts.join("  ·  ")
}

/// The data of `scaling.svg`/`.png`: each backend's median step time per count (a frame's, the
/// step then its render, for `bench --render`).
fn scaling_plot(s: &Summary) -> ScalingPlot {
    let mut lines: Vec<ScalingLine> = Vec::new();
    for r in &s.runs {
        let point = (r.boids, r.stats.median_ms);
        match lines.iter_mut().find(|l| l.backend == r.backend) {
            Some(l) => l.points.push(point),
            None => lines.push(ScalingLine {
                backend: r.backend.clone(),
                points: vec![point],
            }),
        }
    }
    let steps = s.parameters.get("steps").and_then(|v| v.as_u64());
    let rendered = s.parameters.get("render").is_some_and(|v| v.is_string());
    let (what, unit, quantity) = match rendered {
        true => ("Frame", "frames", "median frame time (step + render)"),
        false => ("Step", "steps", "median step time"),
    };
    ScalingPlot {
        title: match steps {
            Some(n) => format!("{what} time against boid count (median of {n} {unit}, log-log)"),
            None => format!("{what} time against boid count (median, log-log)"),
        },
        subtitle: device_line(s),
        quantity: quantity.into(),
        lines,
    }
}

/// The data of `frametimes.svg`: the rows' wall times, one run per change of backend or count.
fn frametimes_plot(s: &Summary, rows: &[FrameRow]) -> FrametimesPlot {
    let mut runs: Vec<FrameRun> = Vec::new();
    for r in rows {
        match runs.last_mut() {
            Some(run) if run.backend == r.backend && run.boids == r.boids => {
                run.frame_ms.push(r.wall_ms)
            }
            _ => runs.push(FrameRun {
                backend: r.backend.clone(),
                boids: r.boids,
                frame_ms: vec![r.wall_ms],
            }),
        }
    }
    FrametimesPlot {
        subtitle: device_line(s),
        runs,
    }
}
