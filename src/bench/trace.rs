//! `trace.json`: the GPU passes of a few frames in the Chrome trace event format (open it in
//! Perfetto, <https://ui.perfetto.dev>, or `chrome://tracing`).
//!
//! Layout: `{"traceEvents": [...], "displayTimeUnit": "ms", "otherData": {...}}`. Each traced run
//! is one process (`pid` = its 1-based order, named `"<backend> · <boids> boids"` by a metadata
//! event); each frame's timer scopes (the `step` scope with its `clear` … `rules` passes nested,
//! then `measures`) are complete events (`"ph": "X"`) with `ts` and `dur` in microseconds, in the
//! GPU's timestamp domain shifted so each run starts at 0, and `args.step` = the step index. This
//! is the format of `wgpu_profiler::chrometrace`, written whole through [`crate::io::write_atomic`]
//! with process names added.

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
