//! One curve y(x) as a figure: the analyses' plots (`boids headless --analyse`, `boids analyse`),
//! its axes named with their symbols and units, a zero line where y changes sign.

use plotters::coord::ranged1d::{AsRangedCoord, ValueFormatter};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::plot::{figure_mesh, log_range, log_ticks, png_of, titled, PlotError, TEXT};

/// A curve to draw.
pub struct CurvePlot<'a> {
    /// The title.
    pub title: &'a str,
    /// The subtitle (the run).
    pub subtitle: &'a str,
    /// The x axis's name, symbol and unit (`separation r (wu)`).
    pub x_name: &'a str,
    /// The y axis's.
    pub y_name: &'a str,
    /// The points (non-finite ones are left out).
    pub points: &'a [(f64, f64)],
    /// A logarithmic x axis (lags); points at x ≤ 0 are then left out.
    pub log_x: bool,
    /// A logarithmic y axis (power laws); points at y ≤ 0 are then left out.
    pub log_y: bool,
    /// Whether a line joins the points (else markers alone).
    pub joined: bool,
    /// Vertical lines at these abscissae, each labelled (`xi = 165.4 wu`): the scalar summaries
    /// measured in the x axis's unit.
    pub marks: &'a [(String, f64)],
}

/// A tick label: six significant figures at most, in the shortest form (`50`, not `50.0`;
/// `0.16667`).
pub fn tick_text(v: f64) -> String {
    let r: f64 = format!("{v:.5e}").parse().unwrap_or(v);
    if r == 0.0 {
        "0".into()
    } else {
        r.to_string()
    }
}

/// The figure as PNG bytes.
///
/// # Errors
/// [`PlotError`] when it cannot be drawn (no finite point).
pub fn curve_png(p: &CurvePlot) -> Result<Vec<u8>, PlotError> {
    crate::plot::register_font()?;
    let pts: Vec<(f64, f64)> = p
        .points
        .iter()
        .copied()
        .filter(|(x, y)| {
            x.is_finite() && y.is_finite() && (!p.log_x || *x > 0.0) && (!p.log_y || *y > 0.0)
        })
        .collect();
    if pts.is_empty() {
        return Err(PlotError::from(
            "no finite point to plot (positive on a log axis)",
        ));
    }
    let (mut x0, mut x1) = pts.iter().fold((f64::MAX, f64::MIN), |(a, b), (x, _)| {
        (a.min(*x), b.max(*x))
    });
    let (mut y0, mut y1) = pts.iter().fold((f64::MAX, f64::MIN), |(a, b), (_, y)| {
        (a.min(*y), b.max(*y))
    });
    if x1 <= x0 {
        x1 = x0 + 1.0;
    }
    let pad = (y1 - y0).max(1e-12) * 0.06;
    y0 -= pad;
    y1 += pad;
    if p.log_x {
        (x0, x1) = log_range(x0, x1, 1.05);
    }
    if p.log_y {
        (y0, y1) = log_range(y0 + pad, y1 - pad, 1.1);
    }
    png_of(|root| {
        let body = titled(root, p.title, p.subtitle)?;
        let xl = (x0..x1).log_scale().with_key_points(log_ticks(x0, x1));
        let yl = (y0..y1).log_scale().with_key_points(log_ticks(y0, y1));
        let span = [(x0, x1), (y0, y1)];
        match (p.log_x, p.log_y) {
            (false, false) => chart(&body, x0..x1, y0..y1, span, p, &pts),
            (true, false) => chart(&body, xl, y0..y1, span, p, &pts),
            (false, true) => chart(&body, x0..x1, yl, span, p, &pts),
            (true, true) => chart(&body, xl, yl, span, p, &pts),
        }
    })
}

/// The chart of `pts` on axes `xs` and `ys` (spanning `span`: x's and y's ends), a zero line
/// where the values change sign, and the marks.
fn chart<DB, X, Y>(
    body: &DrawingArea<DB, Shift>,
    xs: X,
    ys: Y,
    span: [(f64, f64); 2],
    p: &CurvePlot,
    pts: &[(f64, f64)],
) -> Result<(), PlotError>
where
    DB: DrawingBackend,
    DB::ErrorType: 'static,
    X: AsRangedCoord<Value = f64>,
    Y: AsRangedCoord<Value = f64>,
    X::CoordDescType: ValueFormatter<f64>,
    Y::CoordDescType: ValueFormatter<f64>,
{
    let mut b = ChartBuilder::on(body);
    b.margin_left(16)
        .margin_right(36)
        .margin_bottom(12)
        .x_label_area_size(58)
        .y_label_area_size(90);
    let mut chart = b.build_cartesian_2d(xs, ys)?;
    figure_mesh(&mut chart.configure_mesh())
        .x_desc(p.x_name)
        .y_desc(p.y_name)
        .x_label_formatter(&|v| tick_text(*v))
        .y_label_formatter(&|v| tick_text(*v))
        .draw()?;
    let (lo, hi) = pts
        .iter()
        .fold((f64::MAX, f64::MIN), |(a, b), q| (a.min(q.1), b.max(q.1)));
    let (x0, x1) = (pts[0].0, pts[pts.len() - 1].0);
    if !p.log_y && lo < 0.0 && hi > 0.0 {
        chart.draw_series(LineSeries::new([(x0, 0.0), (x1, 0.0)], TEXT.mix(0.5)))?;
    }
    let mark = RGBColor(214, 39, 40);
    let [(x0, x1), (y0, y1)] = span;
    // Where a value sits along an axis, 0 … 1 (on a log axis by its logarithm).
    let along = |v: f64, (a, b): (f64, f64), log: bool| {
        if log {
            (v.ln() - a.ln()) / (b.ln() - a.ln())
        } else {
            (v - a) / (b - a)
        }
    };
    let at = |t: f64, (a, b): (f64, f64), log: bool| {
        if log {
            (a.ln() + t * (b.ln() - a.ln())).exp()
        } else {
            a + t * (b - a)
        }
    };
    for (k, (label, x)) in p.marks.iter().enumerate() {
        if !(x.is_finite() && (!p.log_x || *x > 0.0)) {
            continue;
        }
        chart.draw_series(DashedLineSeries::new(
            [(*x, y0), (*x, y1)],
            6,
            4,
            mark.stroke_width(2),
        ))?;
        // The label beside the line near the top, one row lower per mark; on the left of a line
        // in the right third, so that it stays inside the chart.
        let y = at(0.95 - 0.07 * k as f64, (y0, y1), p.log_y);
        let right = along(*x, (x0, x1), p.log_x) > 0.66;
        let (text, h) = if right {
            (format!("{label} "), HPos::Right)
        } else {
            (format!(" {label}"), HPos::Left)
        };
        let style = crate::plot::text_style(15.0)
            .color(&mark)
            .pos(Pos::new(h, VPos::Top));
        chart.draw_series(std::iter::once(Text::new(text, (*x, y), style)))?;
    }
    let line = RGBColor(31, 119, 180).stroke_width(2);
    if p.joined {
        chart.draw_series(LineSeries::new(pts.iter().copied(), line))?;
    }
    let radius = if p.joined { 3 } else { 4 };
    chart.draw_series(pts.iter().map(|&q| Circle::new(q, radius, line.filled())))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A curve draws to a PNG of the figures' size with more than the background in it; a curve
    /// with no finite point is refused.
    #[test]
    fn a_curve_is_drawn_and_an_empty_one_refused() {
        let pts: Vec<(f64, f64)> = (1..50)
            .map(|i| (i as f64, (i as f64 / 8.0).cos()))
            .collect();
        for (log_x, log_y) in [(false, false), (true, false), (true, true)] {
            let pts: Vec<(f64, f64)> = if log_y {
                pts.iter().map(|q| (q.0, q.1 + 1.5)).collect()
            } else {
                pts.clone()
            };
            let png = curve_png(&CurvePlot {
                title: "C(r)",
                subtitle: "test",
                x_name: "separation r (wu)",
                y_name: "C(r)",
                points: &pts,
                log_x,
                log_y,
                joined: true,
                marks: &[("xi = 12 wu".to_string(), 12.0)],
            })
            .unwrap();
            let img = image::load_from_memory(&png).unwrap().to_rgb8();
            assert_eq!((img.width(), img.height()), crate::plot::PLOT_SIZE);
            let blue = img.pixels().filter(|p| p[2] > 150 && p[0] < 100).count();
            assert!(blue > 500, "the curve is drawn: {blue} blue pixels");
            let red = img
                .pixels()
                .filter(|p| p[0] > 180 && p[1] < 80 && p[2] < 80)
                .count();
            assert!(red > 100, "the mark is drawn: {red} red pixels");
        }
        let nan = [(1.0, f64::NAN)];
        assert!(curve_png(&CurvePlot {
            title: "",
            subtitle: "",
            x_name: "",
            y_name: "",
            points: &nan,
            log_x: false,
            log_y: false,
            joined: true,
            marks: &[],
        })
        .is_err());
        assert_eq!(
            [50.0, 0.2, 0.16666668, 0.0, 2.5e-7, 5000.0].map(tick_text),
            ["50", "0.2", "0.166667", "0", "0.00000025", "5000"]
        );
    }
}
