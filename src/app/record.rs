//! Live capture of a session: F9 (or the script line `key f9`) starts
//! recording; every presented frame becomes a row of `frames.csv` (wall ms = time since the
//! previous presented frame, i.e. simulate + render + present, and the backend's per-stage times
//! when it has them); F9 again writes the same files as `boids bench` into
//! `captures/<UTC timestamp>/` (source `live`, present mode of the window).
//!
//! Rows are grouped into runs by (backend, boid count), so switching the backend or changing the
//! count while recording gives one run each, side by side in the summary and the plots.

use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::backend::BackendKind;
use crate::bench::capture::{CaptureMeta, CaptureRecorder, FrameRow, RunInfo};
use crate::bench::summary::StageTiming;
use crate::gpu::GpuContext;
use crate::model::{FlockMeasures, SimParams};

/// A recording in progress.
pub struct LiveRecording {
    recorder: CaptureRecorder,
    last: Option<Instant>,
    frames: u64,
    runs: Vec<(BackendKind, usize, StageTiming)>,
    params: SimParams,
}

impl LiveRecording {
    /// Starts recording on the window's adapter (`present_mode` as wgpu names it).
    pub fn start(ctx: &GpuContext, present_mode: &str, params: &SimParams) -> LiveRecording {
        let meta = CaptureMeta::collect(
            "live",
            present_mode,
            Some(ctx),
            serde_json::json!({ "params": params, "recorded": "interactive session" }),
        );
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
    pub fn frame(
        &mut self,
        backend: BackendKind,
        boids: usize,
        step: u64,
        stages: &[(String, f64)],
        timestamps: bool,
        params: &SimParams,
    ) {
        let now = Instant::now();
        let Some(last) = self.last.replace(now) else {
            return;
        };
        let mut row = FrameRow::new(
            backend.name(),
            boids,
            step,
            (now - last).as_secs_f64() * 1e3,
        );
        for (name, ms) in stages {
            row.set_stage(name, *ms);
        }
        self.recorder.push(row);
        self.frames += 1;
        let timing = match backend {
            BackendKind::Gpu if timestamps => StageTiming::GpuTimestamps,
            BackendKind::Gpu => StageTiming::None,
            _ => StageTiming::CpuWall,
        };
        if !self
            .runs
            .iter()
            .any(|(b, n, _)| *b == backend && *n == boids)
        {
            self.runs.push((backend, boids, timing));
        }
        self.params = params.clone();
    }

    /// Stops and writes the capture into a new folder `root/<UTC timestamp>/` (created with its
    /// parents). Returns the folder.
    ///
    /// # Errors
    /// A message naming the folder or file that could not be written.
    pub fn finish(
        mut self,
        root: &Path,
        measures: Option<FlockMeasures>,
    ) -> Result<PathBuf, String> {
        if self.frames == 0 {
            return Err("nothing recorded (no frame was presented)".into());
        }
        for (backend, boids, timing) in &self.runs {
            self.recorder.set_run_info(
                backend.name(),
                *boids,
                RunInfo {
                    stage_timing: *timing,
                    params: Some(self.params.clone()),
                    final_measures: measures,
                    complete: true,
                },
            );
        }
        // A new folder each time: two captures within one second get `-2`, `-3`, ….
        let stamp = crate::bench::sysinfo::now_folder_timestamp();
        let mut dir = root.join(&stamp);
        let mut k = 2;
        while dir.exists() {
            dir = root.join(format!("{stamp}-{k}"));
            k += 1;
        }
        crate::bench::outdir::prepare_out_dir(&dir, true).map_err(|e| e.to_string())?;
        self.recorder.write(&dir).map_err(|e| e.to_string())?;
        Ok(dir)
    }
}
