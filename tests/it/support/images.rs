//! The image comparator of the picture tests: how many pixels of two images differ by more than a
//! tolerance, with a picture of where (test code, not the product's).

/// How different two images may be: a pixel differs when any channel differs by more than
/// `channel`; the images match when at most `max_fraction` of the pixels differ.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tolerance {
    /// Largest per-channel difference (0..255) of a pixel that still counts as equal.
    pub channel: u8,
    /// Largest fraction (0..1) of differing pixels.
    pub max_fraction: f64,
}

/// The result of [`compare_images`].
#[derive(Clone, Debug)]
pub struct ImageDiff {
    /// Pixels whose largest channel difference exceeds the tolerance.
    pub differing: u64,
    /// Pixels compared.
    pub total: u64,
    /// Largest channel difference seen (0..255).
    pub max_channel_diff: u8,
    /// Black where equal, red (brightness = difference) where a pixel differs, grey where it
    /// differs within the tolerance.
    pub diff_image: image::RgbaImage,
}

impl ImageDiff {
    /// Fraction of differing pixels.
    pub fn fraction(&self) -> f64 {
        self.differing as f64 / self.total.max(1) as f64
    }
    /// Whether the images match under `tol`.
    pub fn passes(&self, tol: &Tolerance) -> bool {
        self.fraction() <= tol.max_fraction
    }
}

/// Two images of different sizes given to [`compare_images`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("image sizes differ: actual {actual:?}, expected {expected:?}")]
pub struct SizeMismatch {
    /// Width and height of the actual image (px).
    pub actual: (u32, u32),
    /// Width and height of the expected image (px).
    pub expected: (u32, u32),
}

/// Compares `actual` with `expected` pixel by pixel.
///
/// # Errors
/// When the sizes differ.
pub fn compare_images(
    actual: &image::RgbaImage,
    expected: &image::RgbaImage,
    tol: &Tolerance,
) -> Result<ImageDiff, SizeMismatch> {
    if actual.dimensions() != expected.dimensions() {
        return Err(SizeMismatch {
            actual: actual.dimensions(),
            expected: expected.dimensions(),
        });
    }
    let (w, h) = actual.dimensions();
    let mut diff = image::RgbaImage::new(w, h);
    let mut differing = 0;
    let mut max_channel_diff = 0u8;
    for ((a, e), d) in actual
        .pixels()
        .zip(expected.pixels())
        .zip(diff.pixels_mut())
    {
        let m = (0..4).map(|c| a[c].abs_diff(e[c])).max().unwrap_or(0);
        max_channel_diff = max_channel_diff.max(m);
        *d = if m > tol.channel {
            differing += 1;
            image::Rgba([128 + m / 2, 0, 0, 255])
        } else if m > 0 {
            image::Rgba([40, 40, 40, 255])
        } else {
            image::Rgba([0, 0, 0, 255])
        };
    }
    Ok(ImageDiff {
        differing,
        total: w as u64 * h as u64,
        max_channel_diff,
        diff_image: diff,
    })
}
