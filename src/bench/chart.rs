//! A small chart engine for the capture plots: log or linear axes mapped by hand, lines, markers,
//! a legend and text, drawn with plotters as a plain drawing surface so the SVG and the PNG come
//! from the same code. Text goes into the SVG as `<text>` elements placed on their baselines and
//! into the PNG through [`crate::bench::png`] (plotters draws no text on bitmaps without a font
//! backend).

use plotters::coord::Shift;
use plotters::prelude::*;

use crate::bench::plot::PLOT_SIZE;
use crate::bench::png::{self, HAlign, TextItem, VAlign};

pub(crate) struct Axis {
    pub(crate) lo: f64,
    pub(crate) hi: f64,
    pub(crate) log: bool,
    pub(crate) ticks: Vec<(f64, String)>,
    pub(crate) title: String,
}

impl Axis {
    fn frac(&self, v: f64) -> f64 {
        if self.log {
            (v.log10() - self.lo.log10()) / (self.hi.log10() - self.lo.log10())
        } else {
            (v - self.lo) / (self.hi - self.lo)
        }
    }
}

/// A data line (data coordinates), optionally with a marker at each point.
pub(crate) struct Series {
    pub(crate) color: (u8, u8, u8),
    pub(crate) points: Vec<(f64, f64)>,
    pub(crate) width: u32,
    pub(crate) markers: bool,
}

/// A text anchored at a data point.
pub(crate) struct Note {
    pub(crate) at: (f64, f64),
    pub(crate) text: String,
    pub(crate) color: (u8, u8, u8),
}

/// Everything a chart shows.
pub(crate) struct Chart {
    pub(crate) title: String,
    pub(crate) subtitle: String,
    pub(crate) x: Axis,
    pub(crate) y: Axis,
    pub(crate) series: Vec<Series>,
    pub(crate) legend: Vec<(String, (u8, u8, u8))>,
    pub(crate) notes: Vec<Note>,
    pub(crate) empty: Option<String>,
}

const MARGIN: (i32, i32, i32, i32) = (78, 74, 96, 34); // top, bottom, left, right
const GRID: RGBColor = RGBColor(221, 221, 221);
const TEXT: (u8, u8, u8) = (30, 30, 30);

fn rgb(c: (u8, u8, u8)) -> RGBColor {
    RGBColor(c.0, c.1, c.2)
}

fn text(s: impl Into<String>, x: i32, y: i32, size: f32, h: HAlign, v: VAlign) -> TextItem {
    TextItem {
        text: s.into(),
        x,
        y,
        size,
        color: TEXT,
        h,
        v,
        vertical: false,
    }
}

/// Draws everything but text; returns the text to draw.
fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    c: &Chart,
) -> Result<Vec<TextItem>, String> {
    let e = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    let (w, h) = (PLOT_SIZE.0 as i32, PLOT_SIZE.1 as i32);
    let (l, t, r, b) = (MARGIN.2, MARGIN.0, w - MARGIN.3, h - MARGIN.1);
    let px = |(x, y): (f64, f64)| -> (i32, i32) {
        let fx = c.x.frac(x);
        let fy = c.y.frac(y);
        (
            l + (fx * (r - l) as f64).round() as i32,
            b - (fy * (b - t) as f64).round() as i32,
        )
    };
    root.fill(&WHITE).map_err(e)?;
    let mut texts = vec![
        text(&c.title, w / 2, 12, 21.0, HAlign::Center, VAlign::Top),
        text(&c.subtitle, w / 2, 42, 14.0, HAlign::Center, VAlign::Top),
        text(
            &c.x.title,
            (l + r) / 2,
            h - 16,
            16.0,
            HAlign::Center,
            VAlign::Bottom,
        ),
        TextItem {
            vertical: true,
            ..text(
                &c.y.title,
                20,
                (t + b) / 2,
                16.0,
                HAlign::Center,
                VAlign::Center,
            )
        },
    ];
    for (v, label) in &c.x.ticks {
        let (x, _) = px((*v, c.y.lo));
        root.draw(&PathElement::new(vec![(x, t), (x, b)], GRID))
            .map_err(e)?;
        root.draw(&PathElement::new(vec![(x, b), (x, b + 5)], BLACK))
            .map_err(e)?;
        texts.push(text(label, x, b + 9, 14.0, HAlign::Center, VAlign::Top));
    }
    for (v, label) in &c.y.ticks {
        let (_, y) = px((c.x.lo, *v));
        root.draw(&PathElement::new(vec![(l, y), (r, y)], GRID))
            .map_err(e)?;
        root.draw(&PathElement::new(vec![(l - 5, y), (l, y)], BLACK))
            .map_err(e)?;
        texts.push(text(label, l - 9, y, 14.0, HAlign::Right, VAlign::Center));
    }
    root.draw(&Rectangle::new([(l, t), (r, b)], BLACK.stroke_width(1)))
        .map_err(e)?;
    for s in &c.series {
        let pts: Vec<(i32, i32)> = s.points.iter().map(|p| px(*p)).collect();
        let style = rgb(s.color).stroke_width(s.width);
        root.draw(&PathElement::new(pts.clone(), style))
            .map_err(e)?;
        if s.markers {
            for p in pts {
                root.draw(&Circle::new(p, 4, rgb(s.color).filled()))
                    .map_err(e)?;
            }
        }
    }
    // Point labels: sorted by position, each moved down until it clears those already placed.
    let mut notes: Vec<(i32, i32, &Note)> = c
        .notes
        .iter()
        .map(|n| {
            let (x, y) = px(n.at);
            (x, y, n)
        })
        .collect();
    notes.sort_by_key(|(x, y, _)| (*x, *y));
    let mut placed: Vec<(i32, i32)> = Vec::new();
    for (x, mut y, n) in notes {
        while placed
            .iter()
            .any(|(px, py)| (px - x).abs() < 70 && (py - y).abs() < 14)
        {
            y += 14;
        }
        placed.push((x, y));
        // A light backing so the label stays readable where a line crosses it.
        let w = png::text_width(&n.text, 12.0).ceil() as i32;
        root.draw(&Rectangle::new(
            [(x + 4, y - 21), (x + 8 + w, y - 5)],
            WHITE.mix(0.8).filled(),
        ))
        .map_err(e)?;
        texts.push(TextItem {
            color: n.color,
            ..text(&n.text, x + 6, y - 6, 12.0, HAlign::Left, VAlign::Bottom)
        });
    }
    if !c.legend.is_empty() {
        let row = 22;
        let width = 20
            + 34
            + c.legend
                .iter()
                .map(|(s, _)| png::text_width(s, 15.0).ceil() as i32)
                .max()
                .unwrap_or(0);
        let (x0, y0) = (l + 12, t + 12);
        let y1 = y0 + 10 + row * c.legend.len() as i32;
        root.draw(&Rectangle::new(
            [(x0, y0), (x0 + width, y1)],
            WHITE.mix(0.9).filled(),
        ))
        .map_err(e)?;
        root.draw(&Rectangle::new(
            [(x0, y0), (x0 + width, y1)],
            RGBColor(150, 150, 150).stroke_width(1),
        ))
        .map_err(e)?;
        for (k, (label, color)) in c.legend.iter().enumerate() {
            let yc = y0 + 5 + row * k as i32 + row / 2;
            root.draw(&Rectangle::new(
                [(x0 + 10, yc - 2), (x0 + 36, yc + 2)],
                rgb(*color).filled(),
            ))
            .map_err(e)?;
            texts.push(text(label, x0 + 44, yc, 15.0, HAlign::Left, VAlign::Center));
        }
    }
    if let Some(msg) = &c.empty {
        texts.push(text(
            msg,
            (l + r) / 2,
            (t + b) / 2,
            18.0,
            HAlign::Center,
            VAlign::Center,
        ));
    }
    Ok(texts)
}

fn xml_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The SVG: shapes by plotters, then the text as `<text>` elements placed on their baselines
/// (computed with the bundled font's metrics, like the PNG), so no renderer-dependent `dy` is
/// needed.
pub(crate) fn render_svg(c: &Chart) -> Result<String, String> {
    let mut out = String::new();
    let texts = {
        let root = SVGBackend::with_string(&mut out, PLOT_SIZE).into_drawing_area();
        let texts = draw(&root, c)?;
        root.present().map_err(|e| e.to_string())?;
        texts
    };
    let end = out.rfind("</svg>").ok_or("plotters wrote no </svg>")?;
    let mut tail = String::new();
    for t in &texts {
        let (baseline, x) = png::baseline(t);
        let anchor = match (t.vertical, t.h) {
            (true, _) | (false, HAlign::Center) => "middle",
            (false, HAlign::Left) => "start",
            (false, HAlign::Right) => "end",
        };
        let (r, g, b) = t.color;
        let rotate = if t.vertical {
            format!(" transform=\"rotate(-90, {}, {})\"", t.x, t.y)
        } else {
            String::new()
        };
        tail += &format!(
            "<text x=\"{x}\" y=\"{baseline:.1}\" text-anchor=\"{anchor}\" \
             font-family=\"DejaVu Sans, Verdana, sans-serif\" font-size=\"{}\" \
             fill=\"#{r:02X}{g:02X}{b:02X}\"{rotate}>{}</text>\n",
            t.size,
            xml_escape(&t.text)
        );
    }
    out.insert_str(end, &tail);
    // ImageMagick's own SVG renderer fills a polyline that has opacity="1" (the default, which
    // plotters writes anyway) despite fill="none"; dropping the attribute changes nothing else.
    Ok(out.replace(
        "<polyline fill=\"none\" opacity=\"1\" ",
        "<polyline fill=\"none\" ",
    ))
}

pub(crate) fn render_png(c: &Chart) -> Result<Vec<u8>, String> {
    let (w, h) = PLOT_SIZE;
    let mut buf = vec![255u8; (w * h * 3) as usize];
    let texts = {
        let root = BitMapBackend::with_buffer(&mut buf, PLOT_SIZE).into_drawing_area();
        let texts = draw(&root, c)?;
        root.present().map_err(|e| e.to_string())?;
        texts
    };
    for t in &texts {
        png::draw_text(&mut buf, w, h, t);
    }
    let img = image::RgbImage::from_raw(w, h, buf).ok_or("bad image buffer")?;
    let mut bytes = std::io::Cursor::new(Vec::new());
    img.write_to(&mut bytes, image::ImageFormat::Png)
        .map_err(|e| e.to_string())?;
    Ok(bytes.into_inner())
}

/// Formats a tick value: `1k`, `10k`, `1M` style when `si`, else a plain number with the decimals
/// its magnitude needs.
pub(crate) fn tick_label(v: f64, si: bool) -> String {
    if si && v >= 1000.0 {
        let (d, s) = if v >= 1e6 { (1e6, "M") } else { (1e3, "k") };
        return format!("{}{s}", trim(v / d, 3));
    }
    trim(v, 3)
}

fn trim(v: f64, max_decimals: usize) -> String {
    let s = format!("{v:.max_decimals$}");
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

/// Log-axis ticks: powers of ten inside [lo, hi], plus 2× and 5× when fewer than three.
pub(crate) fn log_ticks(lo: f64, hi: f64, si: bool) -> Vec<(f64, String)> {
    let (k0, k1) = (lo.log10().floor() as i32, hi.log10().ceil() as i32);
    let pick = |mults: &[f64]| -> Vec<f64> {
        (k0..=k1)
            .flat_map(|k| mults.iter().map(move |m| m * 10f64.powi(k)))
            .filter(|v| *v >= lo && *v <= hi)
            .collect()
    };
    let mut v = pick(&[1.0]);
    if v.len() < 3 {
        v = pick(&[1.0, 2.0, 5.0]);
    }
    v.into_iter().map(|x| (x, tick_label(x, si))).collect()
}

/// Linear-axis ticks at a 1-2-5 step giving about eight ticks.
pub(crate) fn linear_ticks(lo: f64, hi: f64) -> Vec<(f64, String)> {
    let raw = (hi - lo).max(1e-9) / 8.0;
    let p = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * p)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * p);
    let mut out = Vec::new();
    let mut v = (lo / step).ceil() * step;
    while v <= hi + 1e-9 {
        out.push((v, tick_label(v, false)));
        v += step;
    }
    out
}

/// A log range around `lo..=hi` with `pad` times margin on each side.
pub(crate) fn log_range(lo: f64, hi: f64, pad: f64) -> (f64, f64) {
    if lo.is_finite() && hi.is_finite() && lo > 0.0 {
        (lo / pad, hi * pad)
    } else {
        (1.0, 10.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks() {
        let t: Vec<String> = log_ticks(500.0, 2e6, true)
            .into_iter()
            .map(|t| t.1)
            .collect();
        assert_eq!(t, ["1k", "10k", "100k", "1M"]);
        let t: Vec<String> = log_ticks(0.3, 4.0, false)
            .into_iter()
            .map(|t| t.1)
            .collect();
        assert_eq!(t, ["0.5", "1", "2"]);
        let t: Vec<f64> = linear_ticks(0.0, 81.0).into_iter().map(|t| t.0).collect();
        assert_eq!(t, [0.0, 20.0, 40.0, 60.0, 80.0]);
    }
}
