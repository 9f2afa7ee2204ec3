//! Whether a picture fits its adapter, asked before anything is allocated: the bytes a picture of
//! a size and multisampling allocates ([`picture_bytes`]), the check against the adapter's
//! largest allocation and, on a software adapter, the system memory available ([`check_memory`]),
//! and the error that says what it needs and the largest size that fits ([`PictureMemoryError`]).

use crate::gpu::GpuContext;

/// Bytes a `width` × `height` px picture with `samples` samples per pixel allocates on the GPU:
/// (the image target, the multisampled target (0 without MSAA), the readback buffer with its rows
/// padded to wgpu's copy alignment).
pub fn picture_bytes(width: u32, height: u32, samples: u32) -> (u64, u64, u64) {
    let px = width as u64 * height as u64;
    let image = px * 4;
    let msaa = if samples > 1 {
        image * samples as u64
    } else {
        0
    };
    let row = (width as u64 * 4).next_multiple_of(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT as u64);
    (image, msaa, row * height as u64)
}

/// System memory available now (bytes), from `/proc/meminfo` where there is one.
fn available_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// Refuses, before allocating anything, a picture the adapter cannot hold: any one allocation
/// above `max_buffer_size` (wgpu's bound on one buffer, which on Vulkan follows the driver's
/// largest allocation, and which we take for textures too), or, on a software adapter (which
/// draws in system memory), all of them together above the memory available. The error holds
/// what it needs and the way out (`--msaa 1`, a smaller size).
///
/// # Errors
/// The sizes, the limit passed and the largest size that fits.
pub fn check_memory(
    ctx: &GpuContext,
    width: u32,
    height: u32,
    samples: u32,
) -> Result<(), PictureMemoryError> {
    let available = (ctx.info.device_type == wgpu::DeviceType::Cpu)
        .then(available_memory)
        .flatten();
    check_memory_against(
        width,
        height,
        samples,
        ctx.device.limits().max_buffer_size,
        available,
        &ctx.describe(),
    )
}

/// [`check_memory`] against given limits: `max_alloc` bytes per allocation and, when known,
/// `available` bytes in all.
///
/// # Errors
/// As [`check_memory`].
pub fn check_memory_against(
    width: u32,
    height: u32,
    samples: u32,
    max_alloc: u64,
    available: Option<u64>,
    adapter: &str,
) -> Result<(), PictureMemoryError> {
    let (image, msaa, readback) = picture_bytes(width, height, samples);
    let total = image + msaa + readback;
    let largest = image.max(msaa).max(readback);
    let over_alloc = largest > max_alloc;
    let over_total = available.is_some_and(|a| total > a);
    if !over_alloc && !over_total {
        return Ok(());
    }
    // The largest size of this aspect ratio that fits, and whether dropping MSAA would do.
    let fits = |w: u32, h: u32, s: u32| {
        let (i, m, r) = picture_bytes(w, h, s);
        i.max(m).max(r) <= max_alloc && available.is_none_or(|a| i + m + r <= a)
    };
    let mut k = 1.0f64;
    while k > 0.01
        && !fits(
            (width as f64 * k) as u32,
            (height as f64 * k) as u32,
            samples,
        )
    {
        k *= 0.95;
    }
    let limit = if over_alloc {
        MemoryLimit::Allocation {
            adapter: adapter.to_string(),
            max: max_alloc,
        }
    } else {
        MemoryLimit::Available {
            bytes: available.unwrap_or(0),
        }
    };
    Err(PictureMemoryError {
        width,
        height,
        samples,
        bytes: (image, msaa, readback),
        limit,
        fits: ((width as f64 * k) as u32, (height as f64 * k) as u32),
        fits_without_msaa: samples > 1 && fits(width, height, 1),
    })
}

/// A picture the adapter cannot hold (refused before anything is allocated): its sizes, the
/// limit it passes, and the largest size of the same aspect ratio that fits.
#[derive(Clone, Debug, PartialEq)]
pub struct PictureMemoryError {
    /// Width asked for (px).
    pub width: u32,
    /// Height asked for (px).
    pub height: u32,
    /// Samples per pixel.
    pub samples: u32,
    /// Bytes of the image target, of the multisampled target (0 without MSAA) and of the
    /// readback buffer.
    pub bytes: (u64, u64, u64),
    /// The limit passed.
    pub limit: MemoryLimit,
    /// The largest size of this aspect ratio that fits (px).
    pub fits: (u32, u32),
    /// Whether the size asked for fits without MSAA.
    pub fits_without_msaa: bool,
}

/// The limit a picture passes.
#[derive(Clone, Debug, PartialEq)]
pub enum MemoryLimit {
    /// One allocation above the adapter's `max_buffer_size`.
    Allocation {
        /// The adapter, described.
        adapter: String,
        /// Its `max_buffer_size` (bytes).
        max: u64,
    },
    /// A software adapter (drawing in system memory) with less memory available than all the
    /// allocations together.
    Available {
        /// Bytes available.
        bytes: u64,
    },
}

fn gib(bytes: u64) -> String {
    format!("{:.2} GiB", bytes as f64 / (1u64 << 30) as f64)
}

impl std::fmt::Display for PictureMemoryError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (image, msaa, readback) = self.bytes;
        let (width, height, samples) = (self.width, self.height, self.samples);
        write!(
            f,
            "a {width}×{height} px snapshot needs {}",
            gib(image + msaa + readback)
        )?;
        if samples > 1 {
            write!(
                f,
                " with {samples}× MSAA (multisampled target {}, image {}, readback {})",
                gib(msaa),
                gib(image),
                gib(readback)
            )?;
        } else {
            write!(f, " (image {}, readback {})", gib(image), gib(readback))?;
        }
        match &self.limit {
            MemoryLimit::Allocation { adapter, max } => write!(
                f,
                ", but its largest allocation, {}, is above {adapter}'s max_buffer_size ({})",
                gib(image.max(msaa).max(readback)),
                gib(*max)
            )?,
            MemoryLimit::Available { bytes } => write!(
                f,
                ", but this software adapter draws in system memory, of which {} is available",
                gib(*bytes)
            )?,
        }
        let smaller = format!("{}×{} px", self.fits.0, self.fits.1);
        if self.fits_without_msaa {
            write!(
                f,
                ": use --msaa 1 (same size), or --width/--height of at most {smaller}"
            )
        } else {
            write!(f, ": use --width/--height of at most {smaller}")
        }
    }
}

impl std::error::Error for PictureMemoryError {}

#[cfg(test)]
mod tests {
    use super::*;

    const GIB: u64 = 1 << 30;

    /// 16384² with 4× MSAA on an adapter whose largest allocation is 2 GiB (lavapipe's) is
    /// refused with the memory it needs and the way out; without MSAA it fits.
    #[test]
    fn a_huge_multisampled_snapshot_is_refused_up_front() {
        let err = check_memory_against(16384, 16384, 4, 2 * GIB - 1, None, "llvmpipe").unwrap_err();
        assert!(err.fits_without_msaa, "{err:?}");
        assert!(
            matches!(&err.limit, MemoryLimit::Allocation { adapter, .. } if adapter == "llvmpipe"),
            "{err:?}"
        );
        let e = err.to_string();
        for needle in [
            "16384×16384 px",
            "needs 6.00 GiB",
            "4× MSAA",
            "multisampled target 4.00 GiB",
            "max_buffer_size (2.00 GiB)",
            "--msaa 1",
        ] {
            assert!(e.contains(needle), "{e:?} lacks {needle:?}");
        }
        assert!(check_memory_against(16384, 16384, 1, 2 * GIB - 1, None, "x").is_ok());
        assert!(check_memory_against(1280, 720, 4, 2 * GIB - 1, None, "x").is_ok());
    }

    /// Where memory in all is short, the message names it and suggests a size that fits.
    #[test]
    fn a_snapshot_above_the_available_memory_is_refused_with_a_size_that_fits() {
        let err = check_memory_against(8192, 8192, 1, 4 * GIB, Some(GIB / 4), "x").unwrap_err();
        assert_eq!(err.limit, MemoryLimit::Available { bytes: GIB / 4 });
        let e = err.to_string();
        assert!(e.contains("0.25 GiB is available"), "{e}");
        let at_most = e.rsplit("at most ").next().unwrap();
        let (w, h) = at_most.trim_end_matches(" px").split_once('×').unwrap();
        let (w, h): (u32, u32) = (w.parse().unwrap(), h.parse().unwrap());
        assert!(check_memory_against(w, h, 1, 4 * GIB, Some(GIB / 4), "x").is_ok());
        assert!(w > 5000, "the suggestion is not needlessly small: {w}");
        assert_eq!(
            err.fits,
            (w, h),
            "the message says the size the error holds"
        );
    }

    #[test]
    fn bytes_count_padding_and_samples() {
        assert_eq!(picture_bytes(10, 2, 1), (80, 0, 512));
        assert_eq!(picture_bytes(64, 1, 4), (256, 1024, 256));
    }
}
