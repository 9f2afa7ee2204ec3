//! What every figure shares: its size ([`PLOT_SIZE`]), the bundled font and text style, the
//! title lines, log-axis ticks and ranges, PNG rasterising, and the error of drawing
//! ([`PlotError`]); one curve as a figure ([`curve`], the analyses'). The capture plots (`crate::capture::plot`) and the sweep plots
//! (`crate::sweep::plot`) are drawn with plotters on this ground.
//!
//! Text uses plotters' `ab_glyph` font backend with the bundled DejaVu Sans subset
//! (`font/DejaVuSans-subset.ttf`, licence in `font/LICENSE-DejaVu.txt`; made by
//! `scripts/make-font.py`) registered as `sans-serif` ([`register_font`]), so no system font is
//! needed. The SVG names the family `sans-serif`; a viewer draws it with its own font.

pub mod curve;

use std::sync::OnceLock;

use plotters::coord::{CoordTranslate, Shift};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// A figure that could not be drawn or encoded.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{0}")]
pub struct PlotError(pub String);

impl From<String> for PlotError {
    fn from(s: String) -> Self {
        PlotError(s)
    }
}

impl From<&str> for PlotError {
    fn from(s: &str) -> Self {
        PlotError(s.to_string())
    }
}

/// plotters' drawing errors, so a drawing returning [`PlotError`] can use `?` on them.
impl<E: std::error::Error + Send + Sync> From<DrawingAreaErrorKind<E>> for PlotError {
    fn from(e: DrawingAreaErrorKind<E>) -> Self {
        PlotError(e.to_string())
    }
}

/// Size of every plot (px).
pub const PLOT_SIZE: (u32, u32) = (1000, 640);

/// The font family every text of the plots uses (the bundled font is registered under it).
const FAMILY: &str = "sans-serif";

/// The bundled font (see the module documentation).
pub const FONT_BYTES: &[u8] = include_bytes!("font/DejaVuSans-subset.ttf");

pub const TEXT: RGBColor = RGBColor(30, 30, 30);
pub const GRID: RGBColor = RGBColor(221, 221, 221);

/// Registers the bundled font with plotters as `sans-serif` (once per process; later calls
/// return the first result). Every plotters chart in the process needs it, since plotters measures
/// text with its font backend even for SVG — criterion's report plots included.
///
/// # Errors
/// When the bundled font does not parse (a broken build).
pub fn register_font() -> Result<(), PlotError> {
    static DONE: OnceLock<Result<(), PlotError>> = OnceLock::new();
    DONE.get_or_init(|| {
        // On the web plotters draws text with the page's fonts and registers none.
        #[cfg(target_arch = "wasm32")]
        return Ok(());
        #[cfg(not(target_arch = "wasm32"))]
        plotters::style::register_font(FAMILY, FontStyle::Normal, FONT_BYTES)
            .map_err(|_| PlotError::from("the bundled plot font does not parse (a broken build)"))
    })
    .clone()
}

/// Tick values of a log axis over `lo..=hi` (0 < lo < hi): the powers of ten inside when there
/// are at least three, else 1, 2 and 5 × the powers of ten inside; at most 10 (every k-th power
/// kept when there are more). A range of at least one decade (see [`log_range`]) always holds
/// three 1-2-5 values, so an axis never lacks ticks, and distinct 1-2-5 values never share a
/// `crate::stats::format::format_ms` label.
pub fn log_ticks(lo: f64, hi: f64) -> Vec<f64> {
    if !(lo > 0.0 && hi > lo && hi.is_finite()) {
        return Vec::new();
    }
    let (k0, k1) = (lo.log10().floor() as i32, hi.log10().ceil() as i32);
    let pick = |mults: &[f64]| -> Vec<f64> {
        (k0..=k1)
            .flat_map(|k| mults.iter().map(move |m| m * 10f64.powi(k)))
            .filter(|v| *v >= lo * (1.0 - 1e-12) && *v <= hi * (1.0 + 1e-12))
            .collect()
    };
    let mut v = pick(&[1.0]);
    if v.len() < 3 {
        v = pick(&[1.0, 2.0, 5.0]);
    }
    if v.len() > 10 {
        let step = v.len().div_ceil(10);
        v = v.into_iter().step_by(step).collect();
    }
    v
}

/// A log-axis range around data `lo..=hi` (both positive): `pad` times wider on each side, then
/// widened about its geometric centre to at least one decade. `(1, 10)` when there is no data.
pub fn log_range(lo: f64, hi: f64, pad: f64) -> (f64, f64) {
    if !(lo.is_finite() && hi.is_finite() && lo > 0.0 && hi >= lo) {
        return (1.0, 10.0);
    }
    let (a, b) = (lo / pad, hi * pad);
    if b / a >= 10.0 {
        return (a, b);
    }
    let c = (a * b).sqrt();
    (c / 10f64.sqrt(), c * 10f64.sqrt())
}

/// The grid, axes and text of every figure's mesh (labels 15 px, axis names 17 px, a light grey
/// grid on the major ticks only), on `mesh` before its own labels and formatters.
pub fn figure_mesh<'m, 'a, 'b, X, Y, XT, YT, DB>(
    mesh: &'m mut plotters::chart::MeshStyle<'a, 'b, X, Y, DB>,
) -> &'m mut plotters::chart::MeshStyle<'a, 'b, X, Y, DB>
where
    X: plotters::coord::ranged1d::Ranged<ValueType = XT>
        + plotters::coord::ranged1d::ValueFormatter<XT>,
    Y: plotters::coord::ranged1d::Ranged<ValueType = YT>
        + plotters::coord::ranged1d::ValueFormatter<YT>,
    DB: DrawingBackend,
{
    mesh.label_style(text_style(15.0))
        .axis_desc_style(text_style(17.0))
        .bold_line_style(GRID)
        .light_line_style(TRANSPARENT)
        .axis_style(TEXT)
}

/// The text style of every figure at `size` px.
pub fn text_style(size: f64) -> TextStyle<'static> {
    (FAMILY, size).into_font().color(&TEXT)
}

/// Fills `root` white, writes the title and the subtitle (one line per `\n`, see [`wrap_parts`])
/// at its top, and returns the area below them.
///
/// # Errors
/// plotters' error.
pub fn titled<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
    subtitle: &str,
) -> Result<DrawingArea<DB, Shift>, PlotError> {
    root.fill(&WHITE)?;
    let lines: Vec<&str> = subtitle.lines().collect();
    let (head, body) = root.split_vertically(72 + 19 * lines.len().saturating_sub(1) as u32);
    let x = PLOT_SIZE.0 as i32 / 2;
    let top = Pos::new(HPos::Center, VPos::Top);
    head.draw(&Text::new(title, (x, 12), text_style(22.0).pos(top)))?;
    for (k, line) in lines.iter().enumerate() {
        let y = 44 + 19 * k as i32;
        head.draw(&Text::new(*line, (x, y), text_style(15.0).pos(top)))?;
    }
    Ok(body)
}

/// Most characters of one subtitle line: the figure's width at the subtitle's 15 px font (about
/// 7.5 px a character, with a margin).
pub const SUBTITLE_LINE_CHARS: usize = 120;

/// Parts of a subtitle joined by ` · ` into lines of at most `max_chars` characters each (a part
/// longer than that on a line of its own), one line per `\n`, for [`titled`].
pub fn wrap_parts(parts: &[String], max_chars: usize) -> String {
    let mut lines: Vec<String> = Vec::new();
    for part in parts {
        match lines.last_mut() {
            Some(line) if line.chars().count() + 3 + part.chars().count() <= max_chars => {
                line.push_str(" · ");
                line.push_str(part);
            }
            _ => lines.push(part.clone()),
        }
    }
    lines.join("\n")
}

/// The legend of every figure: its series' labels at `position`, in the figures' font, on a
/// white box with a grey border.
///
/// # Errors
/// plotters' error.
pub fn draw_legend<'a, DB: DrawingBackend + 'a, CT: CoordTranslate>(
    chart: &mut ChartContext<'a, DB, CT>,
    position: SeriesLabelPosition,
) -> Result<(), PlotError>
where
    DB::ErrorType: 'static,
{
    chart
        .configure_series_labels()
        .position(position)
        .margin(14)
        .label_font(text_style(16.0))
        .background_style(WHITE.mix(0.9))
        .border_style(RGBColor(150, 150, 150))
        .draw()?;
    Ok(())
}

/// Writes `note` (e.g. "no runs measured") in the middle of the plotting area `area` (its pixel
/// ranges) of an empty figure.
///
/// # Errors
/// plotters' error.
pub fn centre_note<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    area: (std::ops::Range<i32>, std::ops::Range<i32>),
    note: &str,
) -> Result<(), PlotError>
where
    DB::ErrorType: 'static,
{
    let (xr, yr) = area;
    root.draw(&Text::new(
        note,
        ((xr.start + xr.end) / 2, (yr.start + yr.end) / 2),
        text_style(20.0).pos(Pos::new(HPos::Center, VPos::Center)),
    ))?;
    Ok(())
}

/// A drawing rasterised by plotters into a [`PLOT_SIZE`] PNG. The error is the drawing's own
/// (`E`), into which a [`PlotError`] of the rasterising converts.
///
/// # Errors
/// The drawing's error, or the PNG encoder's.
pub fn png_of<E: From<PlotError>>(
    draw: impl FnOnce(&DrawingArea<BitMapBackend<'_>, Shift>) -> Result<(), E>,
) -> Result<Vec<u8>, E> {
    let (w, h) = PLOT_SIZE;
    let mut buf = vec![255u8; (w * h * 3) as usize];
    draw(&BitMapBackend::with_buffer(&mut buf, PLOT_SIZE).into_drawing_area())?;
    let img = image::RgbImage::from_raw(w, h, buf)
        .ok_or_else(|| PlotError::from("the plot's pixel buffer does not match its size"))?;
    let mut bytes = std::io::Cursor::new(Vec::new());
    img.write_to(&mut bytes, image::ImageFormat::Png)
        .map_err(|e| PlotError(format!("cannot encode the plot as PNG: {e}")))?;
    Ok(bytes.into_inner())
}

#[cfg(test)]
mod tests {
    use super::wrap_parts;

    #[test]
    fn subtitle_parts_wrap_at_the_separator() {
        let parts: Vec<String> = ["model vicsek", "angular noise", "η = 2 rad", "N = 400"]
            .map(String::from)
            .to_vec();
        assert_eq!(
            wrap_parts(&parts, 200),
            "model vicsek · angular noise · η = 2 rad · N = 400"
        );
        // 12 + 3 + 13 = 28 fits in 30; the third part does not.
        assert_eq!(
            wrap_parts(&parts, 30),
            "model vicsek · angular noise\nη = 2 rad · N = 400"
        );
        // A part longer than a line stands alone, not cut.
        assert_eq!(wrap_parts(&parts, 5).lines().count(), 4);
        assert_eq!(wrap_parts(&[], 10), "");
    }
}
