//! Live capture of a session: F9 (or the script line `key f9`) starts
//! recording; every presented frame becomes a row of `frames.csv`; F9 again writes the files of
//! `boids bench` into `captures/<UTC timestamp>/` (source `live`, present mode of the window),
//! with the frame times over the session and their histogram, as SVG and PNG, in place of the
//! scaling plot ([`crate::capture::recorder::LIVE_FILES`]).
//!
//! What each figure is, and how it was timed (also written into `summary.json` as
//! `timing_notes`, column by column):
//! - `wall_ms`: time between consecutive presented frames (CPU wall clock).
//! - `ui_ms`, `step_cpu_ms`, `render_ms`, `present_ms`: where that frame's CPU time went
//!   ([`crate::app::frame_times::FrameTimes`]); the GPU's own work shows up where the CPU waits for
//!   it, mostly in `present_ms`.
//! - The stage columns (`clear_ms` … `rules_ms`, `measures_ms`): on the GPU backend, GPU
//!   timestamp queries of the newest step whose timer scopes came back during that frame
//!   (`Simulation::take_timer_results`), empty on frames where none did — a reading is never
//!   repeated; on the CPU backend, wall time per stage of the frame's last step, empty on frames
//!   without a step (paused). A run's `stage_timing` is `gpu-timestamps` only when some scope
//!   came back. On a software adapter (lavapipe) the GPU columns stay empty: its timestamps do
//!   not bracket the passes while the window pipelines frames (rules 0.07 ms live against 23.8 ms
//!   in `boids bench` at 20 000 boids), and `boids bench` gives the per-pass times.
//! - `trace.json`: those timer scopes (the last frames of each run that had any); `args.step`
//!   is the app's step count when they came back (the steps they timed were submitted up to a
//!   few frames earlier).
//!
//! Rows are grouped into runs by (backend, boid count), so switching the backend or changing the
//! count while recording gives one run each, side by side in the summary and the plots.

use std::path::{Path, PathBuf};
use web_time::Instant;

use wgpu_profiler::GpuTimerQueryResult;

use crate::app::error::AppError;
use crate::app::frame_times::FrameTimes;
use crate::backend::BackendKind;
use crate::capture::recorder::{CaptureMeta, CaptureRecorder, FrameRow, RunInfo};
use crate::capture::summary::StageTiming;
use crate::capture::trace::TraceFrame;
use crate::gpu::GpuContext;
use crate::model::{FlockMeasures, SimParams};

/// What one presented frame gives the recording.
#[derive(Debug)]
pub struct FrameSample {
    /// Running backend.
    pub backend: BackendKind,
    /// Boid count.
    pub boids: usize,
    /// Steps taken so far by the app.
    pub step: u64,
    /// Steps this frame took.
    pub steps: u32,
    /// CPU backend: wall time per stage of this frame's last step (None without a step).
    pub cpu_stages: Option<Vec<(String, f64)>>,
    /// GPU backend: timer scopes that came back during this frame (top-level, passes nested).
    pub scopes: Vec<GpuTimerQueryResult>,
    /// Where the frame's CPU time went.
    pub times: FrameTimes,
}

/// One run of the recording: (backend, count, whether any GPU scope came back).
type LiveRun = (BackendKind, usize, bool);

/// A recording in progress.
pub struct LiveRecording {
    recorder: CaptureRecorder,
    last: Option<Instant>,
    frames: u64,
    runs: Vec<LiveRun>,
    params: SimParams,
}

/// What `summary.json`'s `timing_notes` says of each column of a live capture.
pub fn timing_notes(software: bool) -> Vec<(&'static str, String)> {
    let cpu = "CPU backend: wall time per stage of the frame's last step, empty on frames without \
               a step";
    let (stages, trace) = if software {
        (
            format!(
                "GPU backend: empty: this software adapter's timestamp queries do not bracket \
                 the passes while the window pipelines frames (lavapipe at 20 000 boids: rules \
                 0.07 ms live against 23.8 ms in `boids bench`), so none are recorded; \
                 `boids bench` gives per-pass times. {cpu}"
            ),
            "empty: this software adapter's timestamp scopes are not recorded in the window \
             (see timing_notes)"
                .to_string(),
        )
    } else {
        (
            format!(
                "GPU backend: GPU timestamp queries of the newest step whose timer scopes came \
                 back during the frame, empty when none did (never repeated). {cpu}"
            ),
            "the timer scopes that came back, by frame; args.step is the app's step count when \
             they came back"
                .to_string(),
        )
    };
    vec![
        (
            "wall_ms",
            "time between consecutive presented frames (CPU wall clock)".into(),
        ),
        ("ui_ms", "CPU: the egui pass and its tessellation".into()),
        (
            "step_cpu_ms",
            "CPU: recording and submitting the frame's steps (GPU backend, which runs them \
             asynchronously), or running them (CPU backend)"
                .into(),
        ),
        (
            "render_ms",
            "CPU: encoding and submitting the frame's draw and UI (the GPU draws asynchronously)"
                .into(),
        ),
        (
            "present_ms",
            "CPU: acquiring the surface texture and presenting it; includes waiting for the GPU \
             and for vsync"
                .into(),
        ),
        ("stage columns", stages),
        ("trace.json", trace),
    ]
}

impl LiveRecording {
    /// Starts recording on the window's adapter (`present_mode` as wgpu names it; `software`:
    /// whether it is a software rasteriser, which the timing notes mention).
    pub fn start(
        ctx: &GpuContext,
        present_mode: &str,
        params: &SimParams,
        software: bool,
    ) -> LiveRecording {
        let mut meta = CaptureMeta::collect(
            "live",
            present_mode,
            Some(ctx),
            serde_json::json!({ "params": params, "recorded": "interactive session" }),
        );
        meta.timing_notes = timing_notes(software)
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect();
        LiveRecording {
            recorder: CaptureRecorder::new(meta),
            last: None,
            frames: 0,
            runs: Vec::new(),
            params: params.clone(),
        }
    }

    /// Frames recorded so far.
    pub fn frames(&self) -> u64 {
        self.frames
    }

    /// Records one presented frame. The first call only starts the clock.
    pub fn frame(&mut self, f: FrameSample, params: &SimParams) {
        let now = Instant::now();
        let Some(last) = self.last.replace(now) else {
            return;
        };
        let name = f.backend.name();
        let mut row = FrameRow::new(name, f.boids, f.step, (now - last).as_secs_f64() * 1e3);
        let t = &f.times;
        for (col, v) in [
            ("ui", t.ui_ms),
            ("step_cpu", t.step_ms),
            ("render", t.render_ms),
            ("present", t.present_ms),
        ] {
            if let Some(ms) = v {
                row.set_stage(col, ms);
            }
        }
        for (stage, ms) in f.cpu_stages.iter().flatten() {
            row.set_stage(stage, *ms);
        }
        // The newest scope of each name wins (a frame can bring back several steps).
        for q in f.scopes.iter().rev() {
            for pass in std::iter::once(q).chain(q.nested_queries.iter()) {
                if let Some(tm) = &pass.time {
                    if row.stage(&pass.label).is_none() {
                        row.set_stage(&pass.label, (tm.end - tm.start) * 1e3);
                    }
                }
            }
        }
        let any_scope = !f.scopes.is_empty();
        if any_scope {
            self.recorder.push_trace(TraceFrame {
                backend: name.into(),
                boids: f.boids,
                step: f.step,
                scopes: f.scopes,
            });
        }
        self.recorder.push(row);
        self.frames += 1;
        match self
            .runs
            .iter_mut()
            .find(|(b, n, _)| *b == f.backend && *n == f.boids)
        {
            Some(run) => run.2 |= any_scope,
            None => self.runs.push((f.backend, f.boids, any_scope)),
        }
        self.params = params.clone();
    }

    /// Stops and writes the capture into a new folder `root/<UTC timestamp>/` (created with its
    /// parents). Returns the folder.
    ///
    /// # Errors
    /// [`AppError::NothingRecorded`], or [`AppError::Capture`] naming the folder or file that
    /// could not be written.
    pub fn finish(
        mut self,
        root: &Path,
        measures: Option<FlockMeasures>,
    ) -> Result<PathBuf, AppError> {
        if self.frames == 0 {
            return Err(AppError::NothingRecorded);
        }
        for (backend, boids, scopes) in &self.runs {
            let timing = match backend {
                BackendKind::Gpu if *scopes => StageTiming::GpuTimestamps,
                BackendKind::Gpu => StageTiming::None,
                _ => StageTiming::CpuWall,
            };
            self.recorder.set_run_info(
                backend.name(),
                *boids,
                RunInfo {
                    stage_timing: timing,
                    params: Some(self.params.clone()),
                    final_measures: measures,
                    complete: true,
                    costs: None,
                },
            );
        }
        // A new folder each time: two captures within one second get `-2`, `-3`, ….
        let stamp = crate::run::provenance::now_folder_timestamp();
        let mut dir = root.join(&stamp);
        let mut k = 2;
        while dir.exists() {
            dir = root.join(format!("{stamp}-{k}"));
            k += 1;
        }
        crate::capture::outdir::prepare_out_dir(&dir, true, false)?;
        self.recorder.write(&dir)?;
        Ok(dir)
    }
}
