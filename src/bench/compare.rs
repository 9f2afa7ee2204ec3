//! Text tables of captures: the scaling table of one summary (median step time per backend per
//! count, with the gpu/cpu ratio) and `boids bench --compare A B` (two captures side by side with
//! ratios, each run's spread, and a mark on ratios within the noise). Times are written by
//! [`format_ms`]; a missing value is `—`.

use std::path::{Path, PathBuf};

use crate::capture::error::BenchError;
use crate::capture::summary::{Summary, SCHEMA};
use crate::stats::format::format_ms;
use crate::stats::time::TimeStats;

/// Reads a `summary.json` (or the `summary.json` inside a capture folder).
///
/// # Errors
/// [`BenchError::File`] when it cannot be read, is not JSON of this layout, or has another
/// `schema` than [`SCHEMA`].
pub fn load_summary(path: &Path) -> Result<Summary, BenchError> {
    let path: PathBuf = if path.is_dir() {
        path.join("summary.json")
    } else {
        path.to_path_buf()
    };
    let err = |message: String| BenchError::File {
        path: path.clone(),
        message,
    };
    let text = std::fs::read_to_string(&path).map_err(|e| err(e.to_string()))?;
    let v: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| err(format!("not JSON: {e}")))?;
    let schema = v.get("schema").and_then(|s| s.as_str()).unwrap_or("none");
    if schema != SCHEMA {
        return Err(err(format!(
            "schema {schema:?}, this version reads {SCHEMA:?}"
        )));
    }
    serde_json::from_value(v).map_err(|e| err(format!("not a capture summary: {e}")))
}

/// A time (ms) by [`format_ms`]; `—` when missing.
fn ms(v: Option<f64>) -> String {
    v.map_or("—".into(), format_ms)
}

/// Frames per second with one decimal; `—` when missing or not a number (a run without samples).
pub fn format_fps(fps: f64) -> String {
    if fps.is_finite() {
        format!("{fps:.1}")
    } else {
        "—".into()
    }
}

fn ratio(a: Option<f64>, b: Option<f64>) -> String {
    match (a, b) {
        (Some(a), Some(b)) if a.is_finite() && b.is_finite() && a > 0.0 => format!("{:.2}", b / a),
        _ => "—".into(),
    }
}

/// The interquartile range p75 − p25 (ms) of a run, when its summary has the quartiles.
fn iqr(t: &TimeStats) -> Option<f64> {
    let w = t.p75_ms - t.p25_ms;
    w.is_finite().then_some(w)
}

/// Whether two runs' interquartile ranges overlap: their medians differ by less than the
/// step-to-step spread of either, so the ratio is within the noise. False when either lacks
/// quartiles.
pub fn within_noise(a: &TimeStats, b: &TimeStats) -> bool {
    [a.p25_ms, a.p75_ms, b.p25_ms, b.p75_ms]
        .iter()
        .all(|v| v.is_finite())
        && a.p25_ms <= b.p75_ms
        && b.p25_ms <= a.p75_ms
}

/// The mark after a `B/A` ratio whose runs are [`within_noise`].
pub const NOISE_MARK: &str = "~";

fn backends_of(s: &Summary) -> Vec<String> {
    let mut v: Vec<String> = Vec::new();
    for r in &s.runs {
        if !v.contains(&r.backend) {
            v.push(r.backend.clone());
        }
    }
    v
}

fn counts_of<'a>(summaries: impl Iterator<Item = &'a Summary>) -> Vec<usize> {
    let mut v: Vec<usize> = summaries
        .flat_map(|s| s.runs.iter().map(|r| r.boids))
        .collect();
    v.sort_unstable();
    v.dedup();
    v
}

/// Renders rows as a text table with aligned columns (first column left, others right).
fn table(rows: &[Vec<String>]) -> String {
    let cols = rows.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..cols)
        .map(|c| {
            rows.iter()
                .filter_map(|r| r.get(c))
                .map(|s| s.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for r in rows {
        let cells: Vec<String> = r
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let pad = widths[i].saturating_sub(s.chars().count());
                if i == 0 {
                    format!("{s}{}", " ".repeat(pad))
                } else {
                    format!("{}{s}", " ".repeat(pad))
                }
            })
            .collect();
        out += cells.join("  ").trim_end();
        out.push('\n');
    }
    out
}

/// The scaling table of a summary: one row per count, the median step time of each backend, and
/// `gpu/cpu` (median gpu ÷ median cpu; below 1 means the GPU is faster) when both ran.
pub fn scaling_table(s: &Summary) -> String {
    let backends = backends_of(s);
    let mut head = vec!["boids".to_string()];
    head.extend(backends.iter().cloned());
    let has_ratio = backends.iter().any(|b| b == "gpu") && backends.iter().any(|b| b == "cpu");
    if has_ratio {
        head.push("gpu/cpu".into());
    }
    let mut rows = vec![head];
    for n in counts_of(std::iter::once(s)) {
        let med = |b: &str| s.run(b, n).map(|r| r.stats.median_ms);
        let mut row = vec![n.to_string()];
        row.extend(backends.iter().map(|b| ms(med(b))));
        if has_ratio {
            row.push(ratio(med("cpu"), med("gpu")));
        }
        rows.push(row);
    }
    table(&rows)
}

fn identity(tag: &str, path: &Path, s: &Summary) -> String {
    let adapter = s.adapter.as_ref().map_or("no GPU".to_string(), |a| {
        format!("{} ({}, {})", a.name, a.backend, a.driver)
    });
    format!(
        "{tag}: {}\n   {} · {} · cpu {} · boids {} {} · steps {} · {}\n",
        path.display(),
        s.created_utc,
        adapter,
        s.system.cpu_model.as_deref().unwrap_or("?"),
        s.tool.version,
        s.tool
            .git_commit
            .as_deref()
            .map_or("(no commit)", |c| &c[..c.len().min(10)]),
        s.parameters
            .get("steps")
            .map_or("?".into(), |v| v.to_string()),
        match s.status {
            crate::capture::summary::CaptureStatus::Complete => "complete",
            crate::capture::summary::CaptureStatus::InProgress => "in progress",
            crate::capture::summary::CaptureStatus::Interrupted => "interrupted",
        }
    )
}

/// The `--compare` report of captures `a` and `b`: their identities, then one row per (backend,
/// count) found in either: median, interquartile range (p75 − p25 of the step times: the run's
/// spread), p95 and fps of each, and `B/A` = median B ÷ median A (above 1: B is slower), marked
/// [`NOISE_MARK`] when the two runs' interquartile ranges overlap ([`within_noise`]: the
/// difference is within the step-to-step noise). Runs missing from one side show `—`; skipped
/// runs are listed after.
pub fn compare_table(a_path: &Path, a: &Summary, b_path: &Path, b: &Summary) -> String {
    let mut out = identity("A", a_path, a);
    out += &identity("B", b_path, b);
    out.push('\n');
    let mut backends = backends_of(a);
    for x in backends_of(b) {
        if !backends.contains(&x) {
            backends.push(x);
        }
    }
    let mut rows = vec![[
        "backend", "boids", "A median", "A IQR", "B median", "B IQR", "B/A", "A p95", "B p95",
        "A fps", "B fps",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect::<Vec<_>>()];
    for be in &backends {
        for n in counts_of([a, b].into_iter()) {
            let (ra, rb) = (a.run(be, n), b.run(be, n));
            if ra.is_none() && rb.is_none() {
                continue;
            }
            let f = |r: Option<&crate::capture::summary::RunSummary>,
                     g: fn(&crate::stats::time::TimeStats) -> f64| {
                r.map(|r| g(&r.stats))
            };
            let spread =
                |r: Option<&crate::capture::summary::RunSummary>| ms(r.and_then(|r| iqr(&r.stats)));
            let mut b_over_a = ratio(f(ra, |t| t.median_ms), f(rb, |t| t.median_ms));
            if let (Some(x), Some(y)) = (ra, rb) {
                if b_over_a != "—" && within_noise(&x.stats, &y.stats) {
                    b_over_a = format!("{b_over_a} {NOISE_MARK}");
                }
            }
            rows.push(vec![
                be.clone(),
                n.to_string(),
                ms(f(ra, |t| t.median_ms)),
                spread(ra),
                ms(f(rb, |t| t.median_ms)),
                spread(rb),
                b_over_a,
                ms(f(ra, |t| t.p95_ms)),
                ms(f(rb, |t| t.p95_ms)),
                f(ra, |t| t.fps).map_or("—".into(), format_fps),
                f(rb, |t| t.fps).map_or("—".into(), format_fps),
            ]);
        }
    }
    out += &format!(
        "step time; B/A = median B / median A (above 1: B slower); IQR = p75 - p25 of a run's \
         step times\n{NOISE_MARK}: within the noise: the two runs' interquartile ranges overlap\n"
    );
    out += &table(&rows);
    for (tag, s) in [("A", a), ("B", b)] {
        for k in &s.skipped {
            out += &format!("{tag} skipped {} {}: {}\n", k.backend, k.boids, k.reason);
        }
    }
    out
}
