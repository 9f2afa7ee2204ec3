//! Text for the PNG plots. plotters draws no text on bitmaps without a font backend, and its font
//! backends either need system fonts (`ttf`) or a registered font in every process that plots —
//! criterion's included (`ab_glyph`). So the charts are drawn by plotters without text, then the
//! text is rasterised here with `ab_glyph` from a bundled 14 KB ASCII subset of DejaVu Sans
//! (`font/`, Bitstream Vera licence) and blended into the RGB buffer.

use ab_glyph::{point, Font, FontRef, PxScale, ScaleFont};

/// The bundled font (printable ASCII, plus µ × ² – — ≈ ≤ ≥ … · −).
const FONT_BYTES: &[u8] = include_bytes!("font/DejaVuSans-subset.ttf");

/// Horizontal anchor of a [`TextItem`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HAlign {
    /// `x` is the left edge.
    Left,
    /// `x` is the centre.
    Center,
    /// `x` is the right edge.
    Right,
}

/// Vertical anchor of a [`TextItem`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VAlign {
    /// `y` is the top of the line box.
    Top,
    /// `y` is the middle of the line box.
    Center,
    /// `y` is the bottom of the line box.
    Bottom,
}

/// One line of text at a pixel position.
#[derive(Clone, Debug, PartialEq)]
pub struct TextItem {
    /// The text (characters outside the bundled subset are skipped).
    pub text: String,
    /// Anchor x (px).
    pub x: i32,
    /// Anchor y (px).
    pub y: i32,
    /// Font size (px per em).
    pub size: f32,
    /// Colour (RGB).
    pub color: (u8, u8, u8),
    /// Horizontal anchor (ignored when `vertical`: the text is centred on (x, y)).
    pub h: HAlign,
    /// Vertical anchor (ignored when `vertical`).
    pub v: VAlign,
    /// Rotated a quarter turn anticlockwise (reads bottom to top), for a y-axis title.
    pub vertical: bool,
}

fn font() -> FontRef<'static> {
    FontRef::try_from_slice(FONT_BYTES).expect("the bundled font parses")
}

/// Rasterises `item` into an alpha canvas: (width, height, coverage row-major).
fn rasterise(item: &TextItem) -> (usize, usize, Vec<f32>) {
    let font = font();
    let scaled = font.as_scaled(PxScale::from(item.size));
    let ascent = scaled.ascent();
    let height = (ascent - scaled.descent()).ceil().max(1.0) as usize;
    let mut glyphs = Vec::new();
    let mut x = 0.0f32;
    let mut prev = None;
    for c in item.text.chars() {
        let id = font.glyph_id(c);
        if id.0 == 0 && c != ' ' {
            continue;
        }
        if let Some(p) = prev {
            x += scaled.kern(p, id);
        }
        glyphs.push(id.with_scale_and_position(item.size, point(x, ascent)));
        x += scaled.h_advance(id);
        prev = Some(id);
    }
    let width = x.ceil().max(1.0) as usize;
    let mut alpha = vec![0.0f32; width * height];
    for g in glyphs {
        if let Some(outlined) = font.outline_glyph(g) {
            let b = outlined.px_bounds();
            outlined.draw(|gx, gy, cov| {
                let px = b.min.x as i32 + gx as i32;
                let py = b.min.y as i32 + gy as i32;
                if px >= 0 && py >= 0 && (px as usize) < width && (py as usize) < height {
                    let a = &mut alpha[py as usize * width + px as usize];
                    *a = (*a + cov).min(1.0);
                }
            });
        }
    }
    (width, height, alpha)
}

/// The baseline y (px) of a horizontal `item` — or, for a vertical one, of the text before its
/// rotation about (x, y) — and its anchor x. The line box is the font's ascent to descent.
pub fn baseline(item: &TextItem) -> (f32, i32) {
    let font = font();
    let scaled = font.as_scaled(PxScale::from(item.size));
    let (ascent, descent) = (scaled.ascent(), scaled.descent());
    let height = ascent - descent;
    let top = if item.vertical {
        item.y as f32 - height / 2.0
    } else {
        match item.v {
            VAlign::Top => item.y as f32,
            VAlign::Center => item.y as f32 - height / 2.0,
            VAlign::Bottom => item.y as f32 - height,
        }
    };
    (top + ascent, item.x)
}

/// Width of `text` at `size` px, in px (for layout).
pub fn text_width(text: &str, size: f32) -> f32 {
    let font = font();
    let scaled = font.as_scaled(PxScale::from(size));
    let mut w = 0.0;
    let mut prev = None;
    for c in text.chars() {
        let id = font.glyph_id(c);
        if let Some(p) = prev {
            w += scaled.kern(p, id);
        }
        w += scaled.h_advance(id);
        prev = Some(id);
    }
    w
}

/// Draws `item` into `rgb` (`w × h` pixels, 3 bytes each, row-major), blending by coverage.
/// Pixels outside the image are dropped.
pub fn draw_text(rgb: &mut [u8], w: u32, h: u32, item: &TextItem) {
    let (tw, th, alpha) = rasterise(item);
    let (w, h) = (w as i32, h as i32);
    let mut put = |x: i32, y: i32, a: f32| {
        if a <= 0.0 || x < 0 || y < 0 || x >= w || y >= h {
            return;
        }
        let i = (y * w + x) as usize * 3;
        let c = [item.color.0, item.color.1, item.color.2];
        for k in 0..3 {
            let d = rgb[i + k] as f32;
            rgb[i + k] = (d + (c[k] as f32 - d) * a).round() as u8;
        }
    };
    let (tw_i, th_i) = (tw as i32, th as i32);
    if item.vertical {
        // Canvas (cx, cy) → (x0 + cy, y0 − cx): a quarter turn anticlockwise, centred on (x, y).
        let x0 = item.x - th_i / 2;
        let y0 = item.y + tw_i / 2;
        for cy in 0..th {
            for cx in 0..tw {
                put(x0 + cy as i32, y0 - cx as i32, alpha[cy * tw + cx]);
            }
        }
        return;
    }
    let left = match item.h {
        HAlign::Left => item.x,
        HAlign::Center => item.x - tw_i / 2,
        HAlign::Right => item.x - tw_i,
    };
    let top = match item.v {
        VAlign::Top => item.y,
        VAlign::Center => item.y - th_i / 2,
        VAlign::Bottom => item.y - th_i,
    };
    for cy in 0..th {
        for cx in 0..tw {
            put(left + cx as i32, top + cy as i32, alpha[cy * tw + cx]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_marks_pixels_inside_its_box() {
        let (w, h) = (120u32, 40u32);
        let mut rgb = vec![255u8; (w * h * 3) as usize];
        let item = TextItem {
            text: "10k ms".into(),
            x: 60,
            y: 20,
            size: 16.0,
            color: (0, 0, 0),
            h: HAlign::Center,
            v: VAlign::Center,
            vertical: false,
        };
        draw_text(&mut rgb, w, h, &item);
        let dark: Vec<(u32, u32)> = (0..w * h)
            .filter(|i| rgb[*i as usize * 3] < 128)
            .map(|i| (i % w, i / w))
            .collect();
        assert!(dark.len() > 30, "too few text pixels: {}", dark.len());
        let tw = text_width("10k ms", 16.0);
        for (x, y) in dark {
            assert!((x as f32 - 60.0).abs() <= tw / 2.0 + 2.0, "x {x}");
            assert!((y as i32 - 20).abs() <= 12, "y {y}");
        }
    }
}
