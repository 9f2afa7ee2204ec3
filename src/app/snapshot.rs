//! `boids snapshot`: the app's picture rendered offscreen (same [`Renderer`] code path as the
//! window) after a number of steps, written as a PNG; and the image comparator of the snapshot
//! tests.

use std::path::PathBuf;

use glam::Vec2;

use crate::app::sim::Sim;
use crate::backend::BackendKind;
use crate::gpu::GpuContext;
use crate::model::{Scene, Setup};
use crate::render::{
    boid_length_for, supported_samples, Camera, Offscreen, RenderStyle, Renderer, Theme,
};

/// Options of `boids snapshot`.
#[derive(Clone, Debug, clap::Args)]
pub struct SnapshotArgs {
    /// PNG file to write.
    #[arg(long)]
    pub out: PathBuf,
    /// Image width (px).
    #[arg(long, default_value_t = 1280)]
    pub width: u32,
    /// Image height (px).
    #[arg(long, default_value_t = 720)]
    pub height: u32,
    /// Simulation steps before the picture.
    #[arg(long, default_value_t = 120)]
    pub steps: u32,
    /// Scene file (TOML).
    #[arg(long)]
    pub scene: Option<PathBuf>,
    /// Number of boids (default: the scene's, else 20000). The world is sized to the image at the
    /// default density unless the scene fixes it.
    #[arg(long)]
    pub boids: Option<usize>,
    /// Random seed (default: the scene's, else 1).
    #[arg(long)]
    pub seed: Option<u32>,
    /// Backend that computes the steps (the picture is always drawn on the GPU).
    #[arg(long, value_enum, default_value = "gpu")]
    pub backend: BackendKind,
    /// Colour theme.
    #[arg(long, value_enum, default_value = "dark")]
    pub theme: Theme,
    /// Boid length (wu, 0.01 ..= 10000; default: the scene's separation radius).
    #[arg(long)]
    pub boid_size: Option<f32>,
    /// Multisampling (1 = off; clamped to what the adapter offers).
    #[arg(long, default_value_t = 4)]
    pub msaa: u32,
}

impl SnapshotArgs {
    /// Options for `out` with every other option at its default.
    pub fn new(out: PathBuf) -> Self {
        SnapshotArgs {
            out,
            width: 1280,
            height: 720,
            steps: 120,
            scene: None,
            boids: None,
            seed: None,
            backend: BackendKind::Gpu,
            theme: Theme::Dark,
            boid_size: None,
            msaa: 4,
        }
    }
}

/// Renders the picture described by `args` on `ctx` (nothing is written).
///
/// # Errors
/// A message naming the scene file, parameter, limit or device error at fault.
pub fn render_snapshot(ctx: &GpuContext, args: &SnapshotArgs) -> Result<image::RgbaImage, String> {
    if args.width == 0 || args.height == 0 || args.width > 16384 || args.height > 16384 {
        return Err(format!(
            "--width and --height must be 1..=16384 px (got {}×{})",
            args.width, args.height
        ));
    }
    if let Some(s) = args.boid_size {
        if !(0.01..=10_000.0).contains(&s) {
            return Err(format!(
                "--boid-size = {s} is out of range: allowed 0.01 ..= 10000 (wu)"
            ));
        }
    }
    let max = ctx.device.limits().max_texture_dimension_2d;
    if args.width > max || args.height > max {
        return Err(format!(
            "{}×{} px exceeds this adapter's max_texture_dimension_2d ({max} px)",
            args.width, args.height
        ));
    }
    let scene = match &args.scene {
        Some(p) => Some(Scene::load(p).map_err(|e| e.to_string())?),
        None => None,
    };
    let aspect = args.width as f32 / args.height as f32;
    let setup = Setup::resolve(scene.as_ref(), args.boids, args.seed, 20_000, aspect)
        .map_err(|e| e.to_string())?;
    let mut sim = Sim::new(ctx, args.backend, &setup).map_err(|e| e.to_string())?;
    for _ in 0..args.steps {
        sim.step().map_err(|e| e.to_string())?;
    }
    sim.finish().map_err(|e| e.to_string())?;

    let samples = supported_samples(&ctx.adapter, Offscreen::FORMAT, args.msaa);
    let mut renderer = Renderer::new(&ctx.device, Offscreen::FORMAT, samples);
    renderer.set_actors(&ctx.queue, sim.actors());
    let target = Offscreen::new(&ctx.device, args.width, args.height);
    let camera = Camera::fit(
        Vec2::new(setup.params.world_width, setup.params.world_height),
        target.viewport(),
    );
    let style = RenderStyle {
        theme: args.theme,
        boid_length: args
            .boid_size
            .unwrap_or_else(|| boid_length_for(&setup.params)),
        ..RenderStyle::default()
    };
    let count = sim.len() as u32;
    let mut enc = ctx
        .device
        .create_command_encoder(&wgpu::CommandEncoderDescriptor {
            label: Some("snapshot"),
        });
    let state = sim.state_buffers();
    renderer.record(
        &mut enc,
        target.view(),
        &ctx.queue,
        &state,
        count,
        &camera,
        &style,
    );
    ctx.queue.submit([enc.finish()]);
    let img = target
        .read(&ctx.device, &ctx.queue)
        .map_err(|e| e.to_string())?;
    ctx.take_error().map_err(|e| e.to_string())?;
    Ok(img)
}

/// Encodes an image as PNG bytes.
///
/// # Errors
/// The encoder's message.
pub fn png_bytes(img: &image::RgbaImage) -> Result<Vec<u8>, String> {
    let mut out = std::io::Cursor::new(Vec::new());
    img.write_to(&mut out, image::ImageFormat::Png)
        .map_err(|e| e.to_string())?;
    Ok(out.into_inner())
}

/// Writes `img` as a PNG at `path`, whole (temporary file then rename).
///
/// # Errors
/// The encoder's or the file system's message, with the path.
pub fn write_png(path: &std::path::Path, img: &image::RgbaImage) -> Result<(), String> {
    crate::io::write_atomic(path, &png_bytes(img)?).map_err(|e| e.to_string())
}

/// `boids snapshot`: renders on a fresh default GPU context and writes the PNG.
///
/// # Errors
/// As [`render_snapshot`], plus the write error.
pub fn run(args: &SnapshotArgs) -> Result<(), String> {
    let ctx = GpuContext::new().map_err(|e| e.to_string())?;
    let img = render_snapshot(&ctx, args)?;
    write_png(&args.out, &img)?;
    println!(
        "wrote {} ({}×{} px, adapter {})",
        args.out.display(),
        img.width(),
        img.height(),
        ctx.describe()
    );
    Ok(())
}

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

/// Compares `actual` with `expected` pixel by pixel.
///
/// # Errors
/// When the sizes differ.
pub fn compare_images(
    actual: &image::RgbaImage,
    expected: &image::RgbaImage,
    tol: &Tolerance,
) -> Result<ImageDiff, String> {
    if actual.dimensions() != expected.dimensions() {
        return Err(format!(
            "image sizes differ: actual {:?}, expected {:?}",
            actual.dimensions(),
            expected.dimensions()
        ));
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
