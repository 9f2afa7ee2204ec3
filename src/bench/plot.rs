//! The plots of a capture: `scaling.svg`/`scaling.png` (median step time against boid count,
//! log-log, one line per backend, each point labelled with its time) and `frametimes.svg` (every
//! frame's time in capture order, one line segment per run).
//!
//! Both are drawn by [`crate::bench::chart`], so the SVG and the PNG are the same picture. In the
//! SVG each data line is one `<polyline>` whose `stroke` is [`backend_color_hex`] of its backend;
//! grid lines and ticks are grey or black polylines; legend swatches are `<rect>`s; text is
//! `<text>`.

use crate::bench::capture::FrameRow;
use crate::bench::chart::{
    linear_ticks, log_range, log_ticks, render_png, render_svg, tick_label, Axis, Chart, Note,
    Series,
};
use crate::bench::summary::Summary;

/// Size of every plot (px).
pub const PLOT_SIZE: (u32, u32) = (1000, 640);

/// The colour of a backend's line (RGB): gpu blue, cpu orange, cpu-naive green, others from a
/// fixed palette by name.
pub fn backend_color(name: &str) -> (u8, u8, u8) {
    match name {
        "gpu" => (31, 119, 180),
        "cpu" => (255, 127, 14),
        "cpu-naive" => (44, 160, 44),
        other => {
            let palette = [
                (214, 39, 40),
                (148, 103, 189),
                (140, 86, 75),
                (227, 119, 194),
            ];
            let h = other
                .bytes()
                .fold(0usize, |a, b| a.wrapping_mul(31) + b as usize);
            palette[h % palette.len()]
        }
    }
}

/// [`backend_color`] as the SVG writes it: `#RRGGBB`, upper case.
pub fn backend_color_hex(name: &str) -> String {
    let (r, g, b) = backend_color(name);
    format!("#{r:02X}{g:02X}{b:02X}")
}

/// An axis: range, scale and labelled ticks.
fn device_line(s: &Summary) -> String {
    let mut parts = Vec::new();
    if let Some(a) = &s.adapter {
        parts.push(format!(
            "gpu: {} ({}, {})",
            a.name, a.backend, a.device_type
        ));
    }
    let cpu = s
        .system
        .cpu_model
        .clone()
        .unwrap_or_else(|| "unknown CPU".into());
    parts.push(format!("cpu: {cpu}, {} threads", s.system.rayon_threads));
    if let Some(c) = &s.tool.git_commit {
        parts.push(format!("commit {}", &c[..c.len().min(10)]));
    }
    parts.join("  ·  ")
}

fn scaling_chart(s: &Summary) -> Chart {
    let mut backends: Vec<&str> = Vec::new();
    for r in &s.runs {
        if !backends.contains(&r.backend.as_str()) {
            backends.push(&r.backend);
        }
    }
    let ok = |v: f64| v.is_finite() && v > 0.0;
    let pts = |b: &str| -> Vec<(f64, f64)> {
        let mut v: Vec<(f64, f64)> = s
            .runs
            .iter()
            .filter(|r| r.backend == b && ok(r.stats.median_ms))
            .map(|r| (r.boids as f64, r.stats.median_ms))
            .collect();
        v.sort_by(|a, b| a.0.total_cmp(&b.0));
        v
    };
    let all: Vec<(f64, f64)> = backends.iter().flat_map(|b| pts(b)).collect();
    let fold = |f: fn(f64, f64) -> f64, init: f64, sel: fn(&(f64, f64)) -> f64| {
        all.iter().map(sel).fold(init, f)
    };
    let (x0, x1) = log_range(
        fold(f64::min, f64::INFINITY, |p| p.0),
        fold(f64::max, 0.0, |p| p.0),
        1.6,
    );
    let (y0, y1) = log_range(
        fold(f64::min, f64::INFINITY, |p| p.1),
        fold(f64::max, 0.0, |p| p.1),
        2.2,
    );
    let mut series = Vec::new();
    let mut legend = Vec::new();
    let mut notes = Vec::new();
    for b in &backends {
        let p = pts(b);
        if p.is_empty() {
            continue;
        }
        let color = backend_color(b);
        for q in &p {
            notes.push(Note {
                at: *q,
                text: format!("{} ms", tick_label_ms(q.1)),
                color,
            });
        }
        series.push(Series {
            color,
            points: p,
            width: 3,
            markers: true,
        });
        legend.push((b.to_string(), color));
    }
    let steps = s.parameters.get("steps").and_then(|v| v.as_u64());
    Chart {
        title: match steps {
            Some(n) => format!("Step time against boid count (median of {n} steps, log-log)"),
            None => "Step time against boid count (median, log-log)".into(),
        },
        subtitle: device_line(s),
        x: Axis {
            lo: x0,
            hi: x1,
            log: true,
            ticks: log_ticks(x0, x1, true),
            title: "boids".into(),
        },
        y: Axis {
            lo: y0,
            hi: y1,
            log: true,
            ticks: log_ticks(y0, y1, false),
            title: "step time (ms)".into(),
        },
        series,
        legend,
        notes,
        empty: all.is_empty().then(|| "no runs measured".to_string()),
    }
}

/// A time label with about three significant digits.
fn tick_label_ms(v: f64) -> String {
    let decimals = if v >= 100.0 {
        0
    } else if v >= 10.0 {
        1
    } else if v >= 1.0 {
        2
    } else {
        3
    };
    format!("{v:.decimals$}")
}

fn frametimes_chart(s: &Summary, rows: &[FrameRow]) -> Chart {
    let mut series: Vec<Series> = Vec::new();
    let mut notes = Vec::new();
    let mut legend: Vec<(String, (u8, u8, u8))> = Vec::new();
    let mut key: Option<(&str, usize)> = None;
    for (i, r) in rows.iter().enumerate() {
        let p = ((i + 1) as f64, r.wall_ms.max(1e-6));
        if key != Some((r.backend.as_str(), r.boids)) {
            key = Some((r.backend.as_str(), r.boids));
            let color = backend_color(&r.backend);
            if !legend.iter().any(|(b, _)| *b == r.backend) {
                legend.push((r.backend.clone(), color));
            }
            notes.push(Note {
                at: p,
                text: tick_label(r.boids as f64, true),
                color,
            });
            series.push(Series {
                color,
                points: Vec::new(),
                width: 2,
                markers: false,
            });
        }
        if let Some(sr) = series.last_mut() {
            sr.points.push(p);
        }
    }
    let n = rows.len().max(1) as f64;
    let lo = rows
        .iter()
        .map(|r| r.wall_ms)
        .filter(|v| *v > 0.0)
        .fold(f64::INFINITY, f64::min);
    let hi = rows.iter().map(|r| r.wall_ms).fold(0.0, f64::max);
    let (y0, y1) = log_range(lo, hi, 2.5);
    // Notes sit above each run's first point; raise them to the run's top so lines do not cross.
    for (note, sr) in notes.iter_mut().zip(&series) {
        note.at.1 = sr.points.iter().map(|p| p.1).fold(note.at.1, f64::max);
    }
    Chart {
        title: "Frame time over the capture (one segment per run, labelled with its boid count)"
            .into(),
        subtitle: device_line(s),
        x: Axis {
            lo: 0.0,
            hi: n + 1.0,
            log: false,
            ticks: linear_ticks(0.0, n + 1.0),
            title: "frame (capture order)".into(),
        },
        y: Axis {
            lo: y0,
            hi: y1,
            log: true,
            ticks: log_ticks(y0, y1, false),
            title: "frame time (ms)".into(),
        },
        series,
        legend,
        notes,
        empty: rows.is_empty().then(|| "no frames measured".to_string()),
    }
}

/// `scaling.svg` of a summary.
///
/// # Errors
/// plotters' error, as text.
pub fn scaling_svg(s: &Summary) -> Result<String, String> {
    render_svg(&scaling_chart(s))
}

/// `scaling.png` of a summary (the same drawing as [`scaling_svg`]).
///
/// # Errors
/// plotters' or the PNG encoder's error, as text.
pub fn scaling_png(s: &Summary) -> Result<Vec<u8>, String> {
    render_png(&scaling_chart(s))
}

/// `frametimes.svg`: every row's `wall_ms` in capture order.
///
/// # Errors
/// plotters' error, as text.
pub fn frametimes_svg(s: &Summary, rows: &[FrameRow]) -> Result<String, String> {
    render_svg(&frametimes_chart(s, rows))
}
