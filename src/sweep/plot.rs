//! The plots of a sweep, for a talk: one per average measure and one per statistic of the order
//! parameter (the Binder cumulant G and the susceptibility χ), against the first swept
//! parameter, with ±1 standard-error bars, one line per value of the second parameter when there
//! is one: `<measure>.svg` and `<measure>.png` ([`plotted`]).
//!
//! Each point is its repeats combined (`crate::sweep::points`): with K ≥ 2 repeats the mean of
//! the repeat values and the standard error of their spread, else the run's own error; the
//! subtitle says which error the bars are, with the model, N, the density ρ, the steps and the
//! repeats. Axis labels are the parameter's and the measure's symbols and units from their tables
//! (`η (rad)`, `N`, `ρ (wu⁻²)`, `v_a`, `G`, `χ`); a bounded measure (polarization, v_a, S:
//! 0 ..= 1) is drawn on its whole range, the others on their data's. The x axis is logarithmic
//! when every value is positive and they span a factor of 100 or more, or as `--log` says; the
//! y axis when `--log` asks for it.
//!
//! Drawn with plotters (a cartesian chart, error bars as segments with caps), the SVG and the PNG
//! from the same code; text through the bundled font ([`crate::plot::register_font`]).

use plotters::coord::Shift;
use plotters::prelude::*;

use crate::model::measures::Measure;
use crate::model::param_table::ParamGroup;
use crate::plot::{
    draw_legend, figure_mesh, log_ticks, png_of, register_font, text_style, titled, PlotError,
    PLOT_SIZE,
};
use crate::stats::Estimate;
use crate::sweep::points::PointSummary;
use crate::sweep::summary::{SweepStatus, SweepSummary};

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

/// What a plot shows: an average measure (index in [`crate::sweep::measures`]) or a statistic of
/// the order parameter (index in [`crate::sweep::order_statistics`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Plotted {
    /// An average measure.
    Measure(usize),
    /// A statistic of the order parameter.
    Order(usize),
}

impl Plotted {
    /// Its entry in the measure table.
    pub fn measure(self) -> &'static Measure {
        match self {
            Plotted::Measure(k) => crate::sweep::measures()[k],
            Plotted::Order(k) => crate::sweep::order_statistics()[k],
        }
    }

    /// Its value and error at a point.
    fn at(self, p: &PointSummary) -> Estimate {
        match self {
            Plotted::Measure(k) => p.measures[k],
            Plotted::Order(k) => p.order[k],
        }
    }
}

/// Every plot a sweep can draw, in order: each average measure, then the order parameter's
/// statistics the measure table plots (the Binder cumulant and the susceptibility; ⟨φ²⟩ and ⟨φ⁴⟩
/// are in the tables only).
pub fn plottable() -> Vec<Plotted> {
    let averages = (0..crate::sweep::measures().len()).map(Plotted::Measure);
    let order = crate::sweep::order_statistics()
        .iter()
        .enumerate()
        .filter(|(_, m)| m.sweep_plot != crate::model::measures::SweepPlot::No)
        .map(|(k, _)| Plotted::Order(k))
        .collect::<Vec<_>>();
    averages.chain(order).collect()
}

/// The plots of a sweep: [`plottable`] as the measure table's `sweep_plot` says for the model's
/// speed, read from the sweep's parameters (the mean speed of a model whose speed is constant is
/// a flat line; v_a of a model without one is not defined).
pub fn plotted(s: &SweepSummary) -> Vec<Plotted> {
    let params: Option<crate::model::SimParams> =
        serde_json::from_value(s.base_params.clone()).ok();
    let constant = params.as_ref().map(|p| p.constant_speed().is_some());
    plottable()
        .into_iter()
        .filter(|p| p.measure().sweep_plot.drawn(constant))
        .collect()
}

/// A line: its second-parameter value and its (x, mean, se) points sorted by x.
type Line = (Option<f64>, Vec<(f64, f64, f64)>);

/// The points of the chart: one line per value of the second axis (one line without one).
fn lines(s: &SweepSummary, points: &[PointSummary], what: Plotted) -> Vec<Line> {
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
            let mut pts: Vec<(f64, f64, f64)> = points
                .iter()
                .filter(|p| !two || Some(p.values[1]) == key)
                .map(|p| {
                    let e = what.at(p);
                    (p.values[0], e.value, e.error)
                })
                .filter(|(_, mean, _)| mean.is_finite())
                .collect();
            pts.sort_by(|a, b| a.0.total_cmp(&b.0));
            (key, pts)
        })
        .collect()
}

fn short(v: f64) -> String {
    crate::stats::format::trimmed(v, 4)
}

/// The axis label of a swept name: the parameter's symbol and unit under the sweep's settings
/// `base` ([`crate::model::SimParams::label_of`]: η of vectorial noise has no unit), `N` for the
/// boid count, `ρ (wu⁻²)` for the density.
pub fn axis_label(name: &str, base: &crate::model::SimParams) -> String {
    match name {
        "boids" => "N".into(),
        "density" => "ρ (wu⁻²)".into(),
        other => base.label_of(other).unwrap_or_else(|| other.to_string()),
    }
}

/// The sweep's settings (every parameter but the swept ones, as the first run had them).
fn base_params(s: &SweepSummary) -> crate::model::SimParams {
    serde_json::from_value(s.base_params.clone()).unwrap_or_default()
}

/// The symbol of a swept name in a legend or title (`η`, `N`, `ρ`; the key when it has none).
pub(crate) fn symbol(name: &str) -> String {
    match name {
        "boids" => "N".into(),
        "density" => "ρ".into(),
        other => crate::model::SimParams::spec(other)
            .filter(|s| !s.symbol.is_empty())
            .map_or(other.to_string(), |s| s.symbol.to_string()),
    }
}

/// A drawn line: legend label, colour, points (x, mean, se).
type PlotLine = (Option<String>, RGBColor, Vec<(f64, f64, f64)>);

/// What one plot shows, in data coordinates.
struct MeasurePlot {
    title: String,
    subtitle: String,
    x_name: String,
    /// A categorical first parameter's value names, drawn at x = 0, 1, … (empty: numbers).
    x_labels: Vec<String>,
    y_name: String,
    x: (f64, f64),
    xlog: bool,
    y: (f64, f64),
    ylog: bool,
    lines: Vec<PlotLine>,
}

/// The subtitle of a sweep's plots for its run rows `rows` (see [`subtitle`]),
/// without what the error bars are (a plot without bars).
pub(crate) fn subtitle_of(s: &SweepSummary, rows: &[crate::sweep::table::RunRow]) -> String {
    subtitle(s, &crate::sweep::points::summarise(rows), false)
}

/// The subtitle of a sweep's plots: the model, N, ρ, steps, repeats, what the bars are, the
/// backend (and the status when not complete).
fn subtitle(s: &SweepSummary, points: &[PointSummary], bars: bool) -> String {
    let p = &s.plan;
    let model = s
        .base_params
        .get("model")
        .and_then(|m| m.as_str())
        .unwrap_or("boids");
    let mut sub = vec![format!("model {model}")];
    sub.extend(settings(s));
    let first = points.first();
    let same = |f: &dyn Fn(&PointSummary) -> f64| {
        first.filter(|a| {
            points
                .iter()
                .all(|b| (f(b) - f(a)).abs() <= 1e-9 * f(a).abs())
        })
    };
    match same(&|q| q.boids as f64) {
        Some(q) => sub.push(format!("N = {}", q.boids)),
        None => sub.push("N per line".into()),
    }
    let width = |q: &PointSummary| q.world[0] as f64;
    let height = |q: &PointSummary| q.world[1] as f64;
    if let (Some(q), Some(_)) = (same(&width), same(&height)) {
        let side = |v: f32| crate::stats::format::significant(v as f64, 4);
        sub.push(format!("{} × {} wu", side(q.world[0]), side(q.world[1])));
    }
    let rho = |q: &PointSummary| crate::sweep::table::density(q.boids, q.world);
    if let Some(q) = same(&rho) {
        sub.push(format!(
            "ρ = {} wu⁻²",
            crate::stats::format::significant(rho(q), 4)
        ));
    }
    if p.protocol == crate::sweep::plan::Protocol::Hysteresis {
        sub.push("hysteresis: up then down, each run from the one before".into());
    } else if p.start == crate::sweep::plan::Start::Ordered {
        sub.push("ordered start".into());
    }
    if p.start == crate::sweep::plan::Start::Group {
        sub.push("one group at the start".into());
    }
    sub.push(format!("{} steps, first {} discarded", p.steps, p.discard));
    let kind = first.map_or(crate::stats::ErrorKind::BatchMeansWithinRun, |q| {
        q.error_kind()
    });
    sub.push(match (p.repeats > 1, bars) {
        (true, true) => format!("{} repeats; bars ±1 se {kind}", p.repeats),
        (true, false) => format!("{} repeats pooled", p.repeats),
        (false, true) => "bars ±1 se within the run".into(),
        (false, false) => "1 repeat".into(),
    });
    sub.push(format!("backend {}", p.backend));
    if s.status != SweepStatus::Complete {
        sub.push(format!(
            "{} ({} of {} runs)",
            s.status.name(),
            s.runs_done,
            s.runs.len()
        ));
    }
    crate::plot::wrap_parts(&sub, crate::plot::SUBTITLE_LINE_CHARS)
}

/// The settings that tell sibling sweeps apart, unless swept: the Vicsek model's kind of noise,
/// η and v₀; a model with zones of its own (Couzin's) its own parameters; the neighbourhood — its
/// perception radius r when metric (not for a model with its own zones: there it is only the
/// grid's), its k when topological; a field of view narrower than 360°.
fn settings(s: &SweepSummary) -> Vec<String> {
    let base = base_params(s);
    let swept = |key: &str| s.plan.axes.iter().any(|a| a.name == key);
    let value = |key: &str| {
        let v = base.get(key).map_or_else(String::new, |v| v.to_string());
        let symbol = crate::model::SimParams::spec(key).map_or(key, |p| p.symbol);
        match base.unit_of(key).unwrap_or("") {
            "" => format!("{symbol} = {v}"),
            "°" => format!("{symbol} = {v}°"),
            unit => format!("{symbol} = {v} {unit}"),
        }
    };
    let mut out = Vec::new();
    if base.model.desc().name == "vicsek" {
        if !swept("vicsek_noise") {
            out.push(format!("{} noise", base.models.vicsek.noise.name()));
        }
        out.extend(
            ["vicsek_eta", "vicsek_speed"]
                .into_iter()
                .filter(|k| !swept(k))
                .map(value),
        );
    }
    if swept("neighborhood") {
        // Both kinds are drawn: the radius of the one and the k of the other.
        out.extend(
            ["perception_radius", "topological_k"]
                .into_iter()
                .filter(|k| !swept(k))
                .map(value),
        );
        if base.view_angle < 360.0 && !swept("view_angle") {
            out.push(format!("field of view {}", value("view_angle")));
        }
        return out;
    }
    let own_radii = base.model.desc().radii == crate::model::models::Radii::Own;
    if own_radii {
        // A model with zones of its own (Couzin's): its own settings, not the grid's radius.
        out.extend(
            base.model
                .desc()
                .own_params
                .iter()
                .map(|p| p.key)
                .filter(|k| !swept(k))
                .map(value),
        );
    }
    match base.neighborhood {
        crate::model::Neighborhood::Metric if !swept("perception_radius") && !own_radii => {
            out.push(format!("metric, {}", value("perception_radius")));
        }
        crate::model::Neighborhood::Topological if !swept("topological_k") => {
            out.push(format!("topological, {}", value("topological_k")));
        }
        crate::model::Neighborhood::Metric => out.push("metric".into()),
        crate::model::Neighborhood::Topological => out.push("topological".into()),
        crate::model::Neighborhood::Voronoi => out.push("Voronoi".into()),
    }
    if base.view_angle < 360.0 && !swept("view_angle") {
        out.push(format!("field of view {}", value("view_angle")));
    }
    out
}

/// The plot of `what` for a sweep's points.
fn measure_plot(s: &SweepSummary, points: &[PointSummary], what: Plotted) -> MeasurePlot {
    let lines = lines(s, points, what);
    let all: Vec<(f64, f64, f64)> = lines.iter().flat_map(|l| l.1.clone()).collect();
    let xs: Vec<f64> = s.plan.axes[0].values.clone();
    let (xmin, xmax) = xs
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
            (a.min(*v), b.max(*v))
        });
    let categorical = s.plan.axes[0].is_categorical();
    let xlog = !categorical && xmin > 0.0 && s.log.x.unwrap_or(xmax / xmin >= 100.0);
    let (x0, x1) = if categorical {
        // The values' names at 0, 1, …, half a step of room on each side.
        (xmin - 0.5, xmax + 0.5)
    } else if xlog {
        (xmin / 1.3, xmax * 1.3)
    } else {
        let pad = if xmax > xmin {
            (xmax - xmin) * 0.05
        } else {
            0.5f64.max(xmin.abs() * 0.1)
        };
        (xmin - pad, xmax + pad)
    };
    let measure = what.measure();
    let err_of = |p: &(f64, f64, f64)| if p.2.is_finite() { p.2 } else { 0.0 };
    let positive: Vec<f64> = all.iter().map(|p| p.1).filter(|v| *v > 0.0).collect();
    let ylog = s.log.y && !positive.is_empty();
    let (y0, y1) = if ylog {
        let lo = positive.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = all.iter().map(|p| p.1 + err_of(p)).fold(lo, f64::max);
        crate::plot::log_range(lo, hi, 1.3)
    } else if let Some((lo, hi)) = measure.range {
        // A bounded measure (polarization, v_a, S: [0, 1]) is drawn on its whole range.
        (lo, lo + (hi - lo) * 1.05)
    } else {
        let lo = all
            .iter()
            .map(|p| p.1 - err_of(p))
            .fold(f64::INFINITY, f64::min);
        let hi = all
            .iter()
            .map(|p| p.1 + err_of(p))
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
    // The speed unit of the sweep's model (wu per step in the Vicsek model).
    let speed_unit = s.model().desc().speed.unit;
    let p = &s.plan;
    let x_symbol = symbol(&p.axes[0].name);
    MeasurePlot {
        // "Binder cumulant G against η"; a measure whose title is its symbol (v_a) once.
        title: if measure.title == measure.symbol || measure.symbol.is_empty() {
            format!("{} against {x_symbol}", measure.title)
        } else {
            format!(
                "{} {} against {x_symbol}",
                capitalise(measure.title),
                measure.symbol
            )
        },
        subtitle: subtitle(s, points, true),
        x_name: axis_label(&p.axes[0].name, &base_params(s)),
        x_labels: p.axes[0].labels.clone(),
        y_name: measure.label(speed_unit),
        x: (x0, x1),
        xlog,
        y: (y0, y1),
        ylog,
        lines: lines
            .into_iter()
            .enumerate()
            .map(|(k, (key, pts))| {
                let (r, g, b) = PALETTE[k % PALETTE.len()];
                let label = key.map(|v| {
                    let a = &p.axes[1];
                    let v = if a.is_categorical() {
                        a.text(v)
                    } else {
                        short(v)
                    };
                    format!("{} = {v}", symbol(&a.name))
                });
                (label, RGBColor(r, g, b), pts)
            })
            .collect(),
    }
}

/// Draws the lines and error bars of `p` on a chart whose x coordinate is `X`.
fn draw_lines<'a, DB: DrawingBackend + 'a, X: Ranged<ValueType = f64>, Y: Ranged<ValueType = f64>>(
    chart: &mut ChartContext<'a, DB, Cartesian2d<X, Y>>,
    p: &MeasurePlot,
    cap: impl Fn(f64, f64) -> f64,
) -> Result<(), PlotError>
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
                    chart.draw_series(std::iter::once(PathElement::new(seg.to_vec(), color)))?;
                }
            }
        }
        let line: Vec<(f64, f64)> = pts.iter().map(|p| (p.0, p.1)).collect();
        let series =
            chart.draw_series(LineSeries::new(line.iter().copied(), color.stroke_width(2)))?;
        if let Some(l) = label {
            series.label(l.as_str()).legend(move |(x, y)| {
                Rectangle::new([(x, y - 3), (x + 24, y + 3)], color.filled())
            });
        }
        chart.draw_series(line.iter().map(|&pt| Circle::new(pt, 4, color.filled())))?;
    }
    if p.lines.iter().any(|l| l.0.is_some()) {
        draw_legend(chart, legend_corner(p))?;
    }
    Ok(())
}

/// The corner of the plot for its legend: of the four, the one whose box (the legend's size: a
/// third of the width, a line of 7 % of the height per labelled line) covers the fewest points
/// with their error bars — upper right, then upper left, lower right, lower left on a tie — so
/// the legend does not hide the last point of a rising line.
fn legend_corner(p: &MeasurePlot) -> SeriesLabelPosition {
    let fraction = |v: f64, (lo, hi): (f64, f64), log: bool| {
        if log {
            (v.max(f64::MIN_POSITIVE).ln() - lo.ln()) / (hi.ln() - lo.ln())
        } else {
            (v - lo) / (hi - lo)
        }
    };
    let labelled = p.lines.iter().filter(|l| l.0.is_some()).count();
    let (w, h) = (0.36, (0.07 * labelled as f64 + 0.06).min(0.9));
    let corners = [
        (SeriesLabelPosition::UpperRight, true, true),
        (SeriesLabelPosition::UpperLeft, false, true),
        (SeriesLabelPosition::LowerRight, true, false),
        (SeriesLabelPosition::LowerLeft, false, false),
    ];
    let covered = |right: bool, upper: bool| {
        p.lines
            .iter()
            .flat_map(|l| l.2.iter())
            .filter(|&&(x, mean, se)| {
                let fx = fraction(x, p.x, p.xlog);
                let se = if se.is_finite() { se } else { 0.0 };
                let (lo, hi) = (
                    fraction(mean - se, p.y, p.ylog),
                    fraction(mean + se, p.y, p.ylog),
                );
                let in_x = if right { fx >= 1.0 - w } else { fx <= w };
                let in_y = if upper { hi >= 1.0 - h } else { lo <= h };
                in_x && in_y
            })
            .count()
    };
    corners
        .into_iter()
        .min_by_key(|&(_, right, upper)| covered(right, upper))
        .map_or(SeriesLabelPosition::UpperRight, |c| c.0)
}

fn draw<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, p: &MeasurePlot) -> Result<(), PlotError>
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
    let log_cap = |x: f64, sign: f64| x * (1.0 + sign * 0.012);
    let linear_cap = |x: f64, sign: f64| x + sign * (x1 - x0) * 0.006;
    let xs = (x0..x1).log_scale().with_key_points(log_ticks(x0, x1));
    let ys = (y0..y1).log_scale().with_key_points(log_ticks(y0, y1));
    match (p.xlog, p.ylog) {
        (true, true) => {
            let mut chart = b.build_cartesian_2d(xs, ys)?;
            mesh(&mut chart, p)?;
            draw_lines(&mut chart, p, log_cap)?;
        }
        (true, false) => {
            let mut chart = b.build_cartesian_2d(xs, y0..y1)?;
            mesh(&mut chart, p)?;
            draw_lines(&mut chart, p, log_cap)?;
        }
        (false, true) => {
            let mut chart = b.build_cartesian_2d(x0..x1, ys)?;
            mesh(&mut chart, p)?;
            draw_lines(&mut chart, p, linear_cap)?;
        }
        (false, false) => {
            let mut chart = b.build_cartesian_2d(x0..x1, y0..y1)?;
            mesh(&mut chart, p)?;
            draw_lines(&mut chart, p, linear_cap)?;
        }
    }
    if p.lines.iter().all(|l| l.2.is_empty()) {
        let (w, h) = PLOT_SIZE;
        root.draw(&Text::new(
            "no finite value to draw (no run finished, or the value is undefined)",
            (w as i32 / 2, h as i32 / 2),
            text_style(20.0).pos(plotters::style::text_anchor::Pos::new(
                plotters::style::text_anchor::HPos::Center,
                plotters::style::text_anchor::VPos::Center,
            )),
        ))?;
    }
    root.present()?;
    Ok(())
}

fn mesh<
    'a,
    DB: DrawingBackend + 'a,
    X: Ranged<ValueType = f64> + plotters::coord::ranged1d::ValueFormatter<f64>,
    Y: Ranged<ValueType = f64> + plotters::coord::ranged1d::ValueFormatter<f64>,
>(
    chart: &mut ChartContext<'a, DB, Cartesian2d<X, Y>>,
    p: &MeasurePlot,
) -> Result<(), PlotError>
where
    DB::ErrorType: 'static,
{
    figure_mesh(&mut chart.configure_mesh())
        .x_desc(p.x_name.as_str())
        .y_desc(p.y_name.as_str())
        .x_label_formatter(&|v| {
            if p.x_labels.is_empty() {
                short(*v)
            } else if (v - v.round()).abs() < 1e-9 && v.round() >= 0.0 {
                // A categorical value's name at its index (the other ticks unlabelled).
                p.x_labels
                    .get(v.round() as usize)
                    .cloned()
                    .unwrap_or_default()
            } else {
                String::new()
            }
        })
        .y_label_formatter(&|v| short(*v))
        .draw()?;
    Ok(())
}

/// `<name>.svg` of `what` for the sweep's points.
///
/// # Errors
/// plotters' error.
pub(crate) fn measure_svg(
    s: &SweepSummary,
    points: &[PointSummary],
    what: Plotted,
) -> Result<String, PlotError> {
    let p = measure_plot(s, points, what);
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
/// plotters' or the PNG encoder's error.
pub(crate) fn measure_png(
    s: &SweepSummary,
    points: &[PointSummary],
    what: Plotted,
) -> Result<Vec<u8>, PlotError> {
    let p = measure_plot(s, points, what);
    png_of(|area| draw(area, &p))
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plot_of(lines: Vec<PlotLine>) -> MeasurePlot {
        MeasurePlot {
            title: String::new(),
            subtitle: String::new(),
            x_name: String::new(),
            x_labels: Vec::new(),
            y_name: String::new(),
            x: (0.0, 10.0),
            xlog: false,
            y: (0.0, 1.0),
            ylog: false,
            lines,
        }
    }

    #[test]
    fn the_legend_goes_where_it_hides_no_point() {
        let line = |label: &str, pts: Vec<(f64, f64, f64)>| {
            (Some(label.to_string()), RGBColor(0, 0, 0), pts)
        };
        // Rising lines end at the upper right: the legend goes upper left.
        let rising = |k: f64| {
            (0..=10)
                .map(|i| (i as f64, 0.08 * i as f64 + k, 0.01))
                .collect()
        };
        let p = plot_of(vec![line("a", rising(0.0)), line("b", rising(0.1))]);
        assert_eq!(legend_corner(&p), SeriesLabelPosition::UpperLeft);
        // A falling line from the upper left to the lower right: upper right is free.
        let falling = (0..=10)
            .map(|i| (i as f64, 1.0 - 0.09 * i as f64, 0.0))
            .collect();
        let p = plot_of(vec![line("a", falling)]);
        assert_eq!(legend_corner(&p), SeriesLabelPosition::UpperRight);
        // A line along the top, points in every upper corner: a lower corner.
        let top = (0..=10).map(|i| (i as f64, 0.95, 0.02)).collect();
        let p = plot_of(vec![line("a", top)]);
        assert_eq!(legend_corner(&p), SeriesLabelPosition::LowerRight);
    }

    #[test]
    fn vectorial_eta_has_no_unit_on_the_axis() {
        let mut p = crate::model::SimParams::default();
        p.set("model", "vicsek").unwrap();
        assert_eq!(axis_label("vicsek_eta", &p), "η (rad)");
        p.set("vicsek_noise", "vectorial").unwrap();
        assert_eq!(axis_label("vicsek_eta", &p), "η");
        assert_eq!(axis_label("perception_radius", &p), "r (wu)");
        assert_eq!(axis_label("density", &p), "ρ (wu⁻²)");
    }
}
