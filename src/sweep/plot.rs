//! One plot per measure against the first swept parameter, with ±1 standard-error bars, one line
//! per value of the second parameter when there is one: `<measure>.svg` and `<measure>.png`.
//!
//! Drawn with plotters (a cartesian chart, log x axis for wide positive ranges, error bars as
//! segments with caps), the SVG and the PNG from the same code; text through the bundled font
//! registered by [`crate::plot::register_font`].
//!
//! A point with repeats is drawn at the mean of its repeats' time averages with the combined
//! error √(Σ seₖ²)/K ([`crate::sweep::stats::combine`]). A measure with a range in the measure
//! table (polarization, milling, v_a: 0 ..= 1) is drawn on it; the others on their data's range.
//! Titles and axis labels come from the measure table. The x axis is logarithmic when every value
//! is positive and they span a factor of 100 or more (boid counts, densities).

use plotters::coord::Shift;
use plotters::prelude::*;

use crate::plot::{
    err, log_ticks, png_of, register_font, text_style, titled, GRID, PLOT_SIZE, TEXT,
};
use crate::sweep::stats::combine;
use crate::sweep::summary::{SweepStatus, SweepSummary};
use crate::sweep::table::PointRow;

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

/// A drawn line: legend label, colour, points (x, mean, se).
type PlotLine = (Option<String>, RGBColor, Vec<(f64, f64, f64)>);

/// What one measure's plot shows, in data coordinates.
struct MeasurePlot {
    title: String,
    subtitle: String,
    x_name: String,
    y_name: String,
    x: (f64, f64),
    xlog: bool,
    y: (f64, f64),
    lines: Vec<PlotLine>,
}

/// The plot of measure `m` (index in [`crate::sweep::measures`]) for a sweep's rows.
fn measure_plot(s: &SweepSummary, rows: &[PointRow], m: usize) -> MeasurePlot {
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
    let measure = crate::sweep::measures()[m];
    // A bounded measure (polarization, milling, v_a: [0, 1]) is drawn on its whole range.
    let (y0, y1) = if let Some((lo, hi)) = measure.range {
        (lo, lo + (hi - lo) * 1.05)
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
    let name = capitalise(measure.title);
    // The speed unit of the sweep's model (wu per step in the Vicsek model).
    let speed_unit = s
        .base_params
        .get("model")
        .and_then(|m| m.as_str())
        .and_then(crate::model::Model::by_name)
        .unwrap_or_default()
        .desc()
        .speed
        .unit;
    MeasurePlot {
        title: format!("{name} against {}", p.axes[0].name),
        subtitle: sub.join("  ·  "),
        x_name: p.axes[0].name.clone(),
        y_name: measure.label(speed_unit),
        x: (x0, x1),
        xlog,
        y: (y0, y1),
        lines: lines
            .into_iter()
            .enumerate()
            .map(|(k, (key, pts))| {
                let (r, g, b) = PALETTE[k % PALETTE.len()];
                let label = key.map(|v| format!("{} = {}", s.plan.axes[1].name, short(v)));
                (label, RGBColor(r, g, b), pts)
            })
            .collect(),
    }
}

/// Draws the lines and error bars of `p` on a chart whose x coordinate is `X`.
fn draw_lines<'a, DB: DrawingBackend + 'a, X: Ranged<ValueType = f64>>(
    chart: &mut ChartContext<'a, DB, Cartesian2d<X, plotters::coord::types::RangedCoordf64>>,
    p: &MeasurePlot,
    cap: impl Fn(f64, f64) -> f64,
) -> Result<(), String>
where
    DB::ErrorType: 'static,
{
    for (label, color, pts) in &p.lines {
        let color = *color;
        for &(x, mean, se) in pts {
            if se.is_finite() && se > 0.0 {
                let (a, b) = (mean - se, mean + se);
                for seg in [
                    [(x, a), (x, b)],
                    [(cap(x, -1.0), a), (cap(x, 1.0), a)],
                    [(cap(x, -1.0), b), (cap(x, 1.0), b)],
                ] {
                    chart
                        .draw_series(std::iter::once(PathElement::new(seg.to_vec(), color)))
                        .map_err(err)?;
                }
            }
        }
        let line: Vec<(f64, f64)> = pts.iter().map(|p| (p.0, p.1)).collect();
        let series = chart
            .draw_series(LineSeries::new(line.iter().copied(), color.stroke_width(2)))
            .map_err(err)?;
        if let Some(l) = label {
            series.label(l.as_str()).legend(move |(x, y)| {
                Rectangle::new([(x, y - 3), (x + 24, y + 3)], color.filled())
            });
        }
        chart
            .draw_series(line.iter().map(|&pt| Circle::new(pt, 4, color.filled())))
            .map_err(err)?;
    }
    if p.lines.iter().any(|l| l.0.is_some()) {
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .margin(14)
            .label_font(text_style(16.0))
            .background_style(WHITE.mix(0.9))
            .border_style(RGBColor(150, 150, 150))
            .draw()
            .map_err(err)?;
    }
    Ok(())
}

fn draw<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, p: &MeasurePlot) -> Result<(), String>
where
    DB::ErrorType: 'static,
{
    register_font()?;
    let body = titled(root, &p.title, &p.subtitle)?;
    let builder = |b: &mut ChartBuilder<'_, '_, DB>| {
        b.margin_left(16)
            .margin_right(36)
            .margin_bottom(12)
            .x_label_area_size(58)
            .y_label_area_size(80);
    };
    let mut b = ChartBuilder::on(&body);
    builder(&mut b);
    let (x0, x1) = p.x;
    let (y0, y1) = p.y;
    if p.xlog {
        let mut chart = b
            .build_cartesian_2d(
                (x0..x1).log_scale().with_key_points(log_ticks(x0, x1)),
                y0..y1,
            )
            .map_err(err)?;
        mesh(&mut chart, p)?;
        draw_lines(&mut chart, p, |x, sign| x * (1.0 + sign * 0.012))?;
    } else {
        let mut chart = b.build_cartesian_2d(x0..x1, y0..y1).map_err(err)?;
        mesh(&mut chart, p)?;
        draw_lines(&mut chart, p, |x, sign| x + sign * (x1 - x0) * 0.006)?;
    }
    if p.lines.iter().all(|l| l.2.is_empty()) {
        let (w, h) = PLOT_SIZE;
        root.draw(&Text::new(
            "no points finished",
            (w as i32 / 2, h as i32 / 2),
            text_style(20.0).pos(plotters::style::text_anchor::Pos::new(
                plotters::style::text_anchor::HPos::Center,
                plotters::style::text_anchor::VPos::Center,
            )),
        ))
        .map_err(err)?;
    }
    root.present().map_err(err)
}

fn mesh<
    'a,
    DB: DrawingBackend + 'a,
    X: Ranged<ValueType = f64> + plotters::coord::ranged1d::ValueFormatter<f64>,
>(
    chart: &mut ChartContext<'a, DB, Cartesian2d<X, plotters::coord::types::RangedCoordf64>>,
    p: &MeasurePlot,
) -> Result<(), String>
where
    DB::ErrorType: 'static,
{
    chart
        .configure_mesh()
        .x_desc(p.x_name.as_str())
        .y_desc(p.y_name.as_str())
        .x_label_formatter(&|v| short(*v))
        .y_label_formatter(&|v| short(*v))
        .label_style(text_style(15.0))
        .axis_desc_style(text_style(17.0))
        .bold_line_style(GRID)
        .light_line_style(TRANSPARENT)
        .axis_style(TEXT)
        .draw()
        .map_err(err)
}

/// `<measure>.svg` for measure `m` (index in [`crate::sweep::measures`]).
///
/// # Errors
/// plotters' error, as text.
pub(crate) fn measure_svg(s: &SweepSummary, rows: &[PointRow], m: usize) -> Result<String, String> {
    let p = measure_plot(s, rows, m);
    let mut out = String::new();
    draw(
        &SVGBackend::with_string(&mut out, PLOT_SIZE).into_drawing_area(),
        &p,
    )?;
    Ok(out)
}

/// `<measure>.png`: the same drawing as [`measure_svg`], rasterised by plotters.
///
/// # Errors
/// plotters' or the PNG encoder's error, as text.
pub(crate) fn measure_png(
    s: &SweepSummary,
    rows: &[PointRow],
    m: usize,
) -> Result<Vec<u8>, String> {
    let p = measure_plot(s, rows, m);
    png_of(|area| draw(area, &p))
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}
