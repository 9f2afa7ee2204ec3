//! The plots of a capture, drawn with plotters' `ChartBuilder` on log coordinates
//! (`(a..b).log_scale()`), with its mesh, tick labels, legend and text:
//!
//! - `scaling.svg` / `scaling.png` ([`scaling_svg`], [`scaling_png`]): median step time against
//!   boid count, log-log, one line per backend with a marker and a time label at each point;
//! - `frametimes.svg` ([`frametimes_svg`]; live captures also `frametimes.png`,
//!   [`frametimes_png`]): every frame's time in capture order (log time axis), one line per run,
//!   each labelled with its boid count at its start;
//! - `frametime_histogram.svg` / `.png` (live captures: [`histogram_svg`], [`histogram_png`]):
//!   how many frames took each time, in [`HISTOGRAM_BINS`] bins of equal width on a log time
//!   axis, one bar series per (backend, count) in its backend's colour (a later one in front
//!   where two share a bin).
//!
//! The plots take plain data ([`ScalingPlot`], [`FrametimesPlot`]); `capture` builds it.
//!
//! Colours: [`backend_color`] (gpu blue, cpu orange, cpu-naive green). In the SVG each data line
//! is one `<polyline>` whose `stroke` is [`backend_color_hex`] of its backend and grid lines are
//! grey; legend swatches are `<rect>`s, so the backend-coloured polylines are exactly the data
//! lines. Every text is a `<text>` element: titles, axis titles, tick labels (`text-anchor="end"`
//! on the time axis), legend entries and point labels (filled with their backend's colour).
//!
//! Times are written by [`format_ms`] (3 significant digits with a unit), counts by
//! [`format_count`]. Tick values are chosen here and given to plotters with `with_key_points`
//! ([`log_ticks`]): plotters 0.3.7's own log key points are only the powers of ten inside the
//! range — none at all for a range within one decade (e.g. 0.18 µs .. 0.88 µs) — and, for a range
//! under two decades, 2× … 10× of each power, repeating the next power of ten (two ticks `10`).
//!
//! Text uses plotters' `ab_glyph` font backend with the bundled DejaVu Sans subset
//! (`font/DejaVuSans-subset.ttf`: printable ASCII and `µ × ² – — ≈ ≤ ≥ … · −`; licence in
//! `font/LICENSE-DejaVu.txt`) registered as `sans-serif` ([`register_font`]), so no system font
//! is needed. The SVG names the family `sans-serif`; a viewer draws it with its own font.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::plot::{
    centre_note, draw_legend, log_range, log_ticks, png_of, register_font, text_style, titled,
    PlotError, GRID, PLOT_SIZE, TEXT,
};
use crate::stats::format::{format_count, format_ms};

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
                .fold(0usize, |a, b| a.wrapping_mul(31).wrapping_add(b as usize));
            palette[h % palette.len()]
        }
    }
}

/// [`backend_color`] as the SVG writes it: `#RRGGBB`, upper case.
pub fn backend_color_hex(name: &str) -> String {
    let (r, g, b) = backend_color(name);
    format!("#{r:02X}{g:02X}{b:02X}")
}

fn rgb(name: &str) -> RGBColor {
    let (r, g, b) = backend_color(name);
    RGBColor(r, g, b)
}

/// One backend's line of the scaling plot.
#[derive(Clone, Debug, PartialEq)]
pub struct ScalingLine {
    /// Backend name (sets the colour and the legend entry).
    pub backend: String,
    /// (boid count, median step time in ms), any order; points whose time is not a positive
    /// finite number are left out.
    pub points: Vec<(usize, f64)>,
}

/// Everything `scaling.svg`/`.png` show.
#[derive(Clone, Debug, PartialEq)]
pub struct ScalingPlot {
    /// First title line.
    pub title: String,
    /// Second title line (machine, adapter, commit).
    pub subtitle: String,
    /// What the points are, the y axis's label: "median step time", or a frame's for a capture
    /// of rendered frames.
    pub quantity: String,
    /// One line per backend, in legend order.
    pub lines: Vec<ScalingLine>,
}

/// One run of the frame-time plot.
#[derive(Clone, Debug, PartialEq)]
pub struct FrameRun {
    /// Backend name (sets the colour).
    pub backend: String,
    /// Boid count (the run's label).
    pub boids: usize,
    /// Each frame's time (ms), in capture order. Times that are not positive (a frame under the
    /// 1 ns resolution) are drawn at the bottom of the axis.
    pub frame_ms: Vec<f64>,
}

/// Everything `frametimes.svg` shows.
#[derive(Clone, Debug, PartialEq)]
pub struct FrametimesPlot {
    /// Second title line (machine, adapter, commit).
    pub subtitle: String,
    /// The runs in capture order.
    pub runs: Vec<FrameRun>,
}

/// A box in backend pixels: left, top, right, bottom.
type PxBox = (i32, i32, i32, i32);

fn overlaps(a: PxBox, b: PxBox) -> bool {
    a.0 < b.2 && b.0 < a.2 && a.1 < b.3 && b.1 < a.3
}

/// Whether the segment `p`–`q` passes through `b` (sampled every pixel).
fn crosses(p: (i32, i32), q: (i32, i32), b: PxBox) -> bool {
    let n = (p.0 - q.0).abs().max((p.1 - q.1).abs()).max(1);
    (0..=n).any(|i| {
        let x = p.0 + (q.0 - p.0) * i / n;
        let y = p.1 + (q.1 - p.1) * i / n;
        x >= b.0 && x < b.2 && y >= b.1 && y < b.3
    })
}

/// Places one label box of `size` per point of `points` (backend pixels), each beside its point:
/// the first of upper-left, lower-right, upper-right, lower-left, above, below that stays inside
/// `area` and clears the labels already placed, every marker and every line segment of
/// `lines`; when none is clear, the one with the fewest clashes. Upper-left and lower-right come
/// first because a rising line (time grows with the count) leaves those free.
fn place_labels(
    points: &[(i32, i32)],
    sizes: &[(i32, i32)],
    lines: &[Vec<(i32, i32)>],
    area: PxBox,
) -> Vec<PxBox> {
    const GAP: i32 = 7;
    const MARK: i32 = 6;
    let mut order: Vec<usize> = (0..points.len()).collect();
    order.sort_by_key(|&i| points[i]);
    let mut placed: Vec<Option<PxBox>> = vec![None; points.len()];
    for i in order {
        let ((x, y), (w, h)) = (points[i], sizes[i]);
        let candidates = [
            (x - GAP - w, y - GAP - h),
            (x + GAP, y + GAP),
            (x + GAP, y - GAP - h),
            (x - GAP - w, y + GAP),
            (x - w / 2, y - MARK - GAP - h),
            (x - w / 2, y + MARK + GAP),
        ];
        let cost = |b: PxBox| -> u32 {
            let outside = b.0 < area.0 || b.1 < area.1 || b.2 > area.2 || b.3 > area.3;
            let labels = placed.iter().flatten().filter(|p| overlaps(b, **p)).count();
            let marks = points
                .iter()
                .filter(|m| overlaps(b, (m.0 - MARK, m.1 - MARK, m.0 + MARK, m.1 + MARK)))
                .count();
            let segments = lines
                .iter()
                .flat_map(|l| l.windows(2))
                .filter(|s| crosses(s[0], s[1], b))
                .count();
            u32::from(outside) * 1000 + (labels * 100 + marks * 50 + segments * 10) as u32
        };
        placed[i] = candidates
            .iter()
            .map(|&(x0, y0)| (x0, y0, x0 + w, y0 + h))
            .enumerate()
            .min_by_key(|&(k, b)| (cost(b), k))
            .map(|(_, b)| b);
    }
    placed.into_iter().flatten().collect()
}

fn draw_scaling<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    p: &ScalingPlot,
) -> Result<(), PlotError>
where
    DB::ErrorType: 'static,
{
    register_font()?;
    let body = titled(root, &p.title, &p.subtitle)?;
    let ok = |v: f64| v.is_finite() && v > 0.0;
    let lines: Vec<(&str, Vec<(f64, f64)>)> = p
        .lines
        .iter()
        .map(|l| {
            let mut pts: Vec<(f64, f64)> = l
                .points
                .iter()
                .filter(|(_, ms)| ok(*ms))
                .map(|(n, ms)| (*n as f64, *ms))
                .collect();
            pts.sort_by(|a, b| a.0.total_cmp(&b.0));
            (l.backend.as_str(), pts)
        })
        .filter(|(_, pts)| !pts.is_empty())
        .collect();
    let all: Vec<(f64, f64)> = lines.iter().flat_map(|l| l.1.iter().copied()).collect();
    let min = |f: fn(&(f64, f64)) -> f64| all.iter().map(f).fold(f64::INFINITY, f64::min);
    let max = |f: fn(&(f64, f64)) -> f64| all.iter().map(f).fold(0.0, f64::max);
    let (x0, x1) = log_range(min(|p| p.0), max(|p| p.0), 1.6);
    let (y0, y1) = log_range(min(|p| p.1), max(|p| p.1), 2.5);
    // Boid counts are whole: no tick below one boid.
    let x_ticks: Vec<f64> = log_ticks(x0, x1)
        .into_iter()
        .filter(|v| *v >= 1.0)
        .collect();
    let mut chart = ChartBuilder::on(&body)
        .margin_left(16)
        .margin_right(36)
        .margin_bottom(12)
        .x_label_area_size(58)
        .y_label_area_size(96)
        .build_cartesian_2d(
            (x0..x1).log_scale().with_key_points(x_ticks),
            (y0..y1).log_scale().with_key_points(log_ticks(y0, y1)),
        )?;
    chart
        .configure_mesh()
        .x_desc("boids")
        .y_desc(p.quantity.as_str())
        .x_label_formatter(&|v| format_count(*v))
        .y_label_formatter(&|v| format_ms(*v))
        .label_style(text_style(15.0))
        .axis_desc_style(text_style(17.0))
        .bold_line_style(GRID)
        .axis_style(TEXT)
        .draw()?;
    let label_style = text_style(14.0);
    // Point labels, in backend pixels: (point, text, colour).
    let mut labels: Vec<((i32, i32), String, RGBColor)> = Vec::new();
    let mut line_px: Vec<Vec<(i32, i32)>> = Vec::new();
    for (backend, pts) in &lines {
        let color = rgb(backend);
        chart
            .draw_series(LineSeries::new(pts.iter().copied(), color.stroke_width(3)))?
            .label(*backend)
            .legend(move |(x, y)| Rectangle::new([(x, y - 3), (x + 24, y + 3)], color.filled()));
        chart.draw_series(pts.iter().map(|p| Circle::new(*p, 5, color.filled())))?;
        line_px.push(pts.iter().map(|p| chart.backend_coord(p)).collect());
        for p in pts {
            labels.push((chart.backend_coord(p), format_ms(p.1), color));
        }
    }
    let plot_area = chart.plotting_area().get_pixel_range();
    let sizes: Vec<(i32, i32)> = labels
        .iter()
        .map(|l| {
            root.estimate_text_size(&l.1, &label_style)
                .map_or((60, 12), |(w, h)| (w as i32 + 4, h as i32 + 4))
        })
        .collect();
    let points: Vec<(i32, i32)> = labels.iter().map(|l| l.0).collect();
    let (xr, yr) = &plot_area;
    let boxes = place_labels(
        &points,
        &sizes,
        &line_px,
        (xr.start, yr.start, xr.end, yr.end),
    );
    for ((_, text, color), b) in labels.iter().zip(boxes) {
        // A light backing keeps the label readable where a line still crosses it. Drawn on
        // `root`: the boxes are backend pixels (`backend_coord`), and `body` starts below the
        // title.
        root.draw(&Rectangle::new(
            [(b.0, b.1), (b.2, b.3)],
            WHITE.mix(0.85).filled(),
        ))?;
        root.draw(&Text::new(
            text.clone(),
            (b.0 + 2, b.1 + 2),
            label_style
                .color(color)
                .pos(Pos::new(HPos::Left, VPos::Top)),
        ))?;
    }
    if all.is_empty() {
        centre_note(root, plot_area, "no runs measured")?;
    } else {
        draw_legend(&mut chart, SeriesLabelPosition::UpperLeft)?;
    }
    root.present()?;
    Ok(())
}

fn draw_frametimes<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    p: &FrametimesPlot,
) -> Result<(), PlotError>
where
    DB::ErrorType: 'static,
{
    register_font()?;
    let body = titled(
        root,
        "Frame time over the capture (one line per run, labelled with its boid count)",
        &p.subtitle,
    )?;
    let times = p.runs.iter().flat_map(|r| r.frame_ms.iter().copied());
    let lo = times
        .clone()
        .filter(|v| v.is_finite() && *v > 0.0)
        .fold(f64::INFINITY, f64::min);
    let hi = times.filter(|v| v.is_finite()).fold(0.0, f64::max);
    let (y0, y1) = log_range(lo, hi, 2.5);
    let n: usize = p.runs.iter().map(|r| r.frame_ms.len()).sum();
    let mut chart = ChartBuilder::on(&body)
        .margin_left(16)
        .margin_right(36)
        .margin_bottom(12)
        .x_label_area_size(58)
        .y_label_area_size(96)
        .build_cartesian_2d(
            0f64..(n + 1) as f64,
            (y0..y1).log_scale().with_key_points(log_ticks(y0, y1)),
        )?;
    chart
        .configure_mesh()
        .x_desc("frame (capture order)")
        .y_desc("frame time")
        .x_labels(10)
        .x_label_formatter(&|v| format!("{v:.0}"))
        .y_label_formatter(&|v| format_ms(*v))
        .label_style(text_style(15.0))
        .axis_desc_style(text_style(17.0))
        .bold_line_style(GRID)
        .light_line_style(TRANSPARENT)
        .axis_style(TEXT)
        .draw()?;
    let mut first = 1usize;
    let mut legend: Vec<&str> = Vec::new();
    let label_style = text_style(14.0);
    for run in &p.runs {
        let color = rgb(&run.backend);
        let pts: Vec<(f64, f64)> = run
            .frame_ms
            .iter()
            .enumerate()
            .map(|(i, ms)| ((first + i) as f64, if *ms > 0.0 { *ms } else { y0 }))
            .collect();
        first += run.frame_ms.len();
        let Some(top) = pts.iter().map(|p| p.1).reduce(f64::max) else {
            continue;
        };
        let series =
            chart.draw_series(LineSeries::new(pts.iter().copied(), color.stroke_width(2)))?;
        if !legend.contains(&run.backend.as_str()) {
            legend.push(&run.backend);
            series.label(run.backend.as_str()).legend(move |(x, y)| {
                Rectangle::new([(x, y - 3), (x + 24, y + 3)], color.filled())
            });
        }
        chart.draw_series(std::iter::once(Text::new(
            format_count(run.boids as f64),
            (pts[0].0, top),
            label_style
                .color(&color)
                .pos(Pos::new(HPos::Left, VPos::Bottom)),
        )))?;
    }
    if n == 0 {
        centre_note(
            root,
            chart.plotting_area().get_pixel_range(),
            "no frames measured",
        )?;
    } else {
        draw_legend(&mut chart, SeriesLabelPosition::UpperLeft)?;
    }
    root.present()?;
    Ok(())
}

/// `scaling.svg`.
///
/// # Errors
/// plotters' error.
pub fn scaling_svg(p: &ScalingPlot) -> Result<String, PlotError> {
    let mut out = String::new();
    draw_scaling(
        &SVGBackend::with_string(&mut out, PLOT_SIZE).into_drawing_area(),
        p,
    )?;
    Ok(out)
}

/// `scaling.png`: the same drawing as [`scaling_svg`], rasterised by plotters.
///
/// # Errors
/// plotters' or the PNG encoder's error.
pub fn scaling_png(p: &ScalingPlot) -> Result<Vec<u8>, PlotError> {
    png_of(|area| draw_scaling(area, p))
}

/// `frametimes.svg`.
///
/// # Errors
/// plotters' error.
pub fn frametimes_svg(p: &FrametimesPlot) -> Result<String, PlotError> {
    let mut out = String::new();
    draw_frametimes(
        &SVGBackend::with_string(&mut out, PLOT_SIZE).into_drawing_area(),
        p,
    )?;
    Ok(out)
}

/// `frametimes.png`: the same drawing as [`frametimes_svg`], rasterised by plotters.
///
/// # Errors
/// plotters' or the PNG encoder's error.
pub fn frametimes_png(p: &FrametimesPlot) -> Result<Vec<u8>, PlotError> {
    png_of(|area| draw_frametimes(area, p))
}

/// Bins of the frame-time histogram (equal widths on its log time axis).
pub const HISTOGRAM_BINS: usize = 40;

/// `frametime_histogram.svg`.
///
/// # Errors
/// plotters' error.
pub fn histogram_svg(p: &FrametimesPlot) -> Result<String, PlotError> {
    let mut out = String::new();
    draw_histogram(
        &SVGBackend::with_string(&mut out, PLOT_SIZE).into_drawing_area(),
        p,
    )?;
    Ok(out)
}

/// `frametime_histogram.png`: the same drawing as [`histogram_svg`], rasterised by plotters.
///
/// # Errors
/// plotters' or the PNG encoder's error.
pub fn histogram_png(p: &FrametimesPlot) -> Result<Vec<u8>, PlotError> {
    png_of(|area| draw_histogram(area, p))
}

/// The frame-time histogram: per (backend, count) — runs of the same pair merged — the frames in
/// each of [`HISTOGRAM_BINS`] log-spaced bins over the times' range.
fn draw_histogram<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    p: &FrametimesPlot,
) -> Result<(), PlotError>
where
    DB::ErrorType: 'static,
{
    register_font()?;
    let body = titled(
        root,
        "Frame times of the session (histogram, one colour per backend and count)",
        &p.subtitle,
    )?;
    let ok = |v: &f64| v.is_finite() && *v > 0.0;
    let mut series: Vec<(&str, usize, Vec<f64>)> = Vec::new();
    for run in &p.runs {
        let times = run.frame_ms.iter().copied().filter(ok);
        match series
            .iter_mut()
            .find(|(b, n, _)| *b == run.backend && *n == run.boids)
        {
            Some(s) => s.2.extend(times),
            None => series.push((&run.backend, run.boids, times.collect())),
        }
    }
    let all = series.iter().flat_map(|s| s.2.iter().copied());
    let lo = all.clone().fold(f64::INFINITY, f64::min);
    let hi = all.fold(0.0, f64::max);
    let (x0, x1) = log_range(lo, hi, 1.15);
    let edge = |i: usize| x0 * (x1 / x0).powf(i as f64 / HISTOGRAM_BINS as f64);
    let bin = |v: f64| {
        (((v / x0).ln() / (x1 / x0).ln() * HISTOGRAM_BINS as f64) as usize).min(HISTOGRAM_BINS - 1)
    };
    let counts: Vec<Vec<u64>> = series
        .iter()
        .map(|(_, _, v)| {
            let mut c = vec![0u64; HISTOGRAM_BINS];
            for t in v {
                c[bin(*t)] += 1;
            }
            c
        })
        .collect();
    let top = counts.iter().flatten().copied().max().unwrap_or(0).max(1) as f64 * 1.15;
    let mut chart = ChartBuilder::on(&body)
        .margin_left(16)
        .margin_right(36)
        .margin_bottom(12)
        .x_label_area_size(58)
        .y_label_area_size(96)
        .build_cartesian_2d(
            (x0..x1).log_scale().with_key_points(log_ticks(x0, x1)),
            0f64..top,
        )?;
    chart
        .configure_mesh()
        .x_desc("frame time")
        .y_desc("frames")
        .y_labels(8)
        .x_label_formatter(&|v| format_ms(*v))
        .y_label_formatter(&|v| format!("{v:.0}"))
        .label_style(text_style(15.0))
        .axis_desc_style(text_style(17.0))
        .bold_line_style(GRID)
        .light_line_style(TRANSPARENT)
        .axis_style(TEXT)
        .draw()?;
    for ((backend, boids, _), c) in series.iter().zip(&counts) {
        let color = rgb(backend);
        chart
            .draw_series(c.iter().enumerate().filter(|(_, n)| **n > 0).map(|(i, n)| {
                Rectangle::new([(edge(i), 0.0), (edge(i + 1), *n as f64)], color.filled())
            }))?
            .label(format!("{backend} · {} boids", format_count(*boids as f64)))
            .legend(move |(x, y)| Rectangle::new([(x, y - 3), (x + 24, y + 3)], color.filled()));
    }
    if series.iter().all(|s| s.2.is_empty()) {
        centre_note(
            root,
            chart.plotting_area().get_pixel_range(),
            "no frames measured",
        )?;
    } else {
        draw_legend(&mut chart, SeriesLabelPosition::UpperRight)?;
    }
    root.present()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_ticks_never_empty_repeated_or_zero() {
        // Ranges plotters' own key points get wrong: within a decade (none), under two (repeat).
        for (lo, hi) in [
            (0.00018, 0.00088),
            (0.5, 15.0),
            (312.0, 3200.0),
            (1e-7, 3e-7),
        ] {
            let (a, b) = log_range(lo, hi, 1.0);
            let t = log_ticks(a, b);
            assert!(t.len() >= 3, "{lo}..{hi}: {t:?}");
            assert!(t.iter().all(|v| *v >= a && *v <= b && *v > 0.0), "{t:?}");
            let labels: Vec<String> = t.iter().map(|v| format_ms(*v)).collect();
            let mut d = labels.clone();
            d.dedup();
            assert_eq!(d, labels);
        }
        assert_eq!(log_ticks(500.0, 2e6), [1e3, 1e4, 1e5, 1e6]);
        assert_eq!(log_ticks(0.3, 4.0), [0.5, 1.0, 2.0]);
        assert!(log_ticks(1e-3, 1e12).len() <= 10);
    }

    #[test]
    fn every_character_the_plots_write_is_in_the_bundled_font() {
        use ab_glyph::{Font, FontRef};
        let font = FontRef::try_from_slice(crate::plot::FONT_BYTES).unwrap();
        let mut text = String::from(
            "Step time against boid count (median of 100 steps, log-log) Frame time over the \
             capture (one line per run, labelled with its boid count) median step time boids \
             median frame time (step + render) \
             frame (capture order) no runs measured gpu cpu cpu-naive · —",
        );
        for k in -8..6 {
            text += &format_ms(1.23 * 10f64.powi(k));
        }
        for c in text.chars() {
            assert_ne!(font.glyph_id(c).0, 0, "{c:?} is not in the bundled font");
        }
        assert_eq!(font.glyph_id('\u{4e2d}').0, 0, "the check can fail");
    }
}
