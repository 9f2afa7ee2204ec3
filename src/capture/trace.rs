//! `trace.json`: the GPU timer scopes of a few frames in the Chrome trace event format (open it in
//! Perfetto, <https://ui.perfetto.dev>, or `chrome://tracing`).
//!
//! Layout: `{"traceEvents": [...], "displayTimeUnit": "ms", "otherData": {"note": ...}}`.
//!
//! - Each traced run (a backend at a boid count) is one process: `pid` = its 1-based order in the
//!   capture, named `"<backend> · <boids> boids"` by a metadata event (`"ph": "M"`,
//!   `"name": "process_name"`).
//! - Every timer scope of a traced frame *that has a time* is a complete event (`"ph": "X"`,
//!   `"cat": "gpu"`, `tid` 0) named by its label, with `ts` and `dur` in microseconds in the GPU's
//!   timestamp domain shifted so each run's first event starts at 0, and `args.step` = the step
//!   index of the frame. Nested scopes become events of their own (the viewer nests them by time).
//! - What that is today, per frame: the compute passes of the step, one per step stage of
//!   [`crate::stages::STAGES`] — `clear`, `count`, `scan`, `slots`, `scatter`, `scatter_heavy`,
//!   `predators`, `rules`, `rules_heavy`, each timed by its own pass timestamps — then
//!   `measures`. The
//!   passes are recorded inside a `step` scope, but that scope only gets a time (and so an
//!   event) where the device records timestamps inside command encoders
//!   (`wgpu::Features::TIMESTAMP_QUERY_INSIDE_ENCODERS`), which the GPU context does not request
//!   now; so no trace contains a `step` event yet.
//! - Without timestamp queries (or without a GPU run) `traceEvents` is empty, and `otherData.note`
//!   says why.
//!
//! The writer is ours, not `wgpu_profiler::chrometrace::write_chrometrace` (wgpu-profiler 0.28),
//! which writes only `"X"` events with `pid`, `tid`, `ts`, `dur`, `name` taken from the results:
//! it has no `"M"` metadata event (so runs cannot be named), no `args` (no step index), no
//! top-level `displayTimeUnit`/`otherData`, and it writes straight into the target with
//! `File::create` (the capture writes every file whole, through [`crate::io::write_atomic`]).

use serde_json::{json, Value};
use wgpu_profiler::GpuTimerQueryResult;

/// The timer scopes of one frame of a run.
#[derive(Clone, Debug)]
pub struct TraceFrame {
    /// Backend name.
    pub backend: String,
    /// Boid count.
    pub boids: usize,
    /// Step index of the frame.
    pub step: u64,
    /// wgpu-profiler results of the frame (top-level scopes, passes nested).
    pub scopes: Vec<GpuTimerQueryResult>,
}

fn earliest(q: &GpuTimerQueryResult) -> f64 {
    let own = q.time.as_ref().map_or(f64::INFINITY, |t| t.start);
    q.nested_queries.iter().map(earliest).fold(own, f64::min)
}

fn push_events(out: &mut Vec<Value>, q: &GpuTimerQueryResult, pid: usize, t0: f64, step: u64) {
    if let Some(t) = &q.time {
        out.push(json!({
            "name": q.label,
            "cat": "gpu",
            "ph": "X",
            "pid": pid,
            "tid": 0,
            "ts": (t.start - t0) * 1e6,
            "dur": (t.end - t.start) * 1e6,
            "args": { "step": step },
        }));
    }
    for n in &q.nested_queries {
        push_events(out, n, pid, t0, step);
    }
}

/// The trace document of `frames` (grouped into runs by backend and count, in order).
pub fn trace_json(frames: &[TraceFrame], note: &str) -> Value {
    let mut events = Vec::new();
    let mut runs: Vec<(&str, usize, f64)> = Vec::new();
    for f in frames {
        let start = f.scopes.iter().map(earliest).fold(f64::INFINITY, f64::min);
        match runs
            .iter_mut()
            .find(|(b, n, _)| *b == f.backend && *n == f.boids)
        {
            Some(run) => run.2 = run.2.min(start),
            None => {
                runs.push((&f.backend, f.boids, start));
                events.push(json!({
                    "name": "process_name",
                    "ph": "M",
                    "pid": runs.len(),
                    "args": { "name": format!("{} · {} boids", f.backend, f.boids) },
                }));
            }
        }
    }
    for f in frames {
        let i = runs
            .iter()
            .position(|(b, n, _)| *b == f.backend && *n == f.boids)
            .unwrap_or(0);
        let t0 = if runs[i].2.is_finite() {
            runs[i].2
        } else {
            0.0
        };
        for q in &f.scopes {
            push_events(&mut events, q, i + 1, t0, f.step);
        }
    }
    json!({
        "traceEvents": events,
        "displayTimeUnit": "ms",
        "otherData": { "note": note },
    })
}
