//! One plot per measure against the first swept parameter, with ±1 standard-error bars, one line
//! per value of the second parameter when there is one: `<measure>.svg` and `<measure>.png`.
//!
//! Drawn with the capture plots' engine ([`crate::bench::chart`]: plotters as the drawing
//! surface, text as SVG `<text>` and, in the PNG, rasterised from the bundled DejaVu Sans subset),
//! so both files are the same picture with real text. plotters' own `ab_glyph` font feature is
//! not used: it would make every plotters user in the build (criterion's reports included) fail
//! without a registered font.
//!
//! A point with repeats is drawn at the mean of its repeats' time averages with the combined
//! error √(Σ seₖ²)/K ([`crate::sweep::stats::combine`]). Polarization and milling are drawn on
//! 0 ..= 1; the other measures on their data's range. The x axis is logarithmic when every value
//! is positive and they span a factor of 100 or more (boid counts, densities).

use crate::bench::chart::{linear_ticks, log_ticks, Axis, Chart, Series};
use crate::sweep::output::PointRow;
use crate::sweep::stats::combine;
use crate::sweep::summary::{SweepStatus, SweepSummary};
use crate::sweep::MEASURES;

/// Line colours, one per value of the second parameter (Tableau 10).
const PALETTE: [(u8, u8, u8); 10] = [
    (31, 119, 180),
    (255, 127, 14),
    (44, 160, 44),
    (214, 39, 40),
    (148, 103, 189),
    (140, 86, 75),
    (227, 119, 194),
    (127, 127, 127),
    (188, 189, 34),
    (23, 190, 207),
];

/// Axis title of each measure, in [`MEASURES`] order.
const TITLES: [&str; 4] = [
    "polarization (order parameter)",
    "milling",
    "mean speed (wu/s)",
    "mean neighbours",
];

/// A line: its second-parameter value and its (x, mean, se) points sorted by x.
type Line = (Option<f64>, Vec<(f64, f64, f64)>);

/// The points of the chart: one line per value of the second axis (one line without one).
fn lines(s: &SweepSummary, rows: &[PointRow], m: usize) -> Vec<Line> {
    let two = s.plan.axes.len() > 1;
    let mut keys: Vec<Option<f64>> = Vec::new();
    if two {
        keys.extend(s.plan.axes[1].values.iter().map(|v| Some(*v)));
    } else {
        keys.push(None);
    }
    keys.dedup();
    keys.into_iter()
        .map(|key| {
            let mut pts: Vec<(f64, f64, f64)> = Vec::new();
            let mut xs: Vec<f64> = s.plan.axes[0].values.clone();
            xs.sort_by(f64::total_cmp);
            xs.dedup();
            for x in xs {
                let runs: Vec<(f64, f64)> = rows
                    .iter()
                    .filter(|r| r.values[0] == x && (!two || Some(r.values[1]) == key))
                    .map(|r| (r.stats[m].mean, r.stats[m].se))
                    .filter(|(mean, _)| mean.is_finite())
                    .collect();
                if !runs.is_empty() {
                    let (mean, se) = combine(&runs);
                    pts.push((x, mean, se));
                }
            }
            (key, pts)
        })
        .collect()
}

fn short(v: f64) -> String {
    let s = format!("{v:.4}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s.is_empty() || s == "-" {
        "0".into()
    } else {
        s.to_string()
    }
}

/// The chart of measure `m` (index in [`MEASURES`]) for a sweep's rows.
pub(crate) fn measure_chart(s: &SweepSummary, rows: &[PointRow], m: usize) -> Chart {
    let lines = lines(s, rows, m);
    let all: Vec<(f64, f64, f64)> = lines.iter().flat_map(|l| l.1.clone()).collect();
    let xs: Vec<f64> = s.plan.axes[0].values.clone();
    let (xmin, xmax) = xs
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
            (a.min(*v), b.max(*v))
        });
    let xlog = xmin > 0.0 && xmax / xmin >= 100.0;
    let (x0, x1) = if xlog {
        (xmin / 1.3, xmax * 1.3)
    } else {
        let pad = if xmax > xmin {
            (xmax - xmin) * 0.05
        } else {
            0.5f64.max(xmin.abs() * 0.1)
        };
        (xmin - pad, xmax + pad)
    };
    let (y0, y1) = if m < 2 {
        (0.0, 1.05)
    } else {
        let lo = all
            .iter()
            .map(|p| p.1 - if p.2.is_finite() { p.2 } else { 0.0 })
            .fold(f64::INFINITY, f64::min);
        let hi = all
            .iter()
            .map(|p| p.1 + if p.2.is_finite() { p.2 } else { 0.0 })
            .fold(f64::NEG_INFINITY, f64::max);
        if !lo.is_finite() || !hi.is_finite() {
            (0.0, 1.0)
        } else if hi - lo < 1e-9 {
            (lo - 1.0, hi + 1.0)
        } else {
            let pad = (hi - lo) * 0.08;
            // Measures that cannot be negative keep their axis at 0 or above.
            let y0 = if lo >= 0.0 {
                (lo - pad).max(0.0)
            } else {
                lo - pad
            };
            (y0, hi + pad)
        }
    };
    let cap = |x: f64, sign: f64| {
        if xlog {
            x * (1.0 + sign * 0.012)
        } else {
            x + sign * (x1 - x0) * 0.006
        }
    };
    let mut series = Vec::new();
    let mut legend = Vec::new();
    for (k, (key, pts)) in lines.iter().enumerate() {
        let color = PALETTE[k % PALETTE.len()];
        for &(x, mean, se) in pts {
            if se.is_finite() && se > 0.0 {
                let (a, b) = (mean - se, mean + se);
                for seg in [
                    vec![(x, a), (x, b)],
                    vec![(cap(x, -1.0), a), (cap(x, 1.0), a)],
                    vec![(cap(x, -1.0), b), (cap(x, 1.0), b)],
                ] {
                    series.push(Series {
                        color,
                        points: seg,
                        width: 1,
                        markers: false,
                    });
                }
            }
        }
        series.push(Series {
            color,
            points: pts.iter().map(|p| (p.0, p.1)).collect(),
            width: 2,
            markers: true,
        });
        if let Some(v) = key {
            legend.push((format!("{} = {}", s.plan.axes[1].name, short(*v)), color));
        }
    }
    let p = &s.plan;
    let first_n = rows.first().map(|r| r.boids);
    let same_n = first_n.filter(|n| rows.iter().all(|r| r.boids == *n));
    let mut sub = vec![match same_n {
        Some(n) => format!("{n} boids"),
        None => "boids per point in sweep.csv".to_string(),
    }];
    sub.push(format!("mean of steps {}..{}", p.discard + 1, p.steps));
    sub.push(if p.repeats > 1 {
        format!("bars: standard error (batch means, {} repeats)", p.repeats)
    } else {
        "bars: standard error (batch means)".to_string()
    });
    sub.push(format!("backend {}", p.backend));
    if s.status != SweepStatus::Complete {
        sub.push(format!(
            "{} ({} of {} points)",
            s.status.name(),
            s.points_done,
            s.points.len()
        ));
    }
    let name = MEASURES[m].replace('_', " ");
    Chart {
        title: format!("{} against {}", capitalise(&name), p.axes[0].name),
        subtitle: sub.join("  ·  "),
        x: Axis {
            lo: x0,
            hi: x1,
            log: xlog,
            ticks: no_minus_zero(if xlog {
                log_ticks(x0, x1, true)
            } else {
                linear_ticks(x0, x1)
            }),
            title: p.axes[0].name.clone(),
        },
        y: Axis {
            lo: y0,
            hi: y1,
            log: false,
            ticks: no_minus_zero(linear_ticks(y0, y1)),
            title: TITLES[m].to_string(),
        },
        series,
        legend,
        notes: Vec::new(),
        empty: all.is_empty().then(|| "no points finished".to_string()),
    }
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

/// Tick labels with `-0` (a tick at 0 reached from below) written `0`.
fn no_minus_zero(ticks: Vec<(f64, String)>) -> Vec<(f64, String)> {
    ticks
        .into_iter()
        .map(|(v, l)| if l == "-0" { (v, "0".into()) } else { (v, l) })
        .collect()
}
