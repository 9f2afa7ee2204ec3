//! `boids snapshot`: the app's picture rendered offscreen (same [`Renderer`] code path as the
//! window) after a number of steps, written in the format its file extension names (PNG or JPEG:
//! [`crate::io::write_picture`], as the app's `capture` and `screenshot`); and the image
//! comparator of the snapshot tests.

use std::path::PathBuf;

use glam::Vec2;

use crate::app::args::AppBackend;
use crate::app::error::{AppError, MemoryLimit, SnapshotMemoryError};
use crate::app::sim::Sim;
use crate::app::start::{app_setup, Spawn};
use crate::formats::scene::Scene;
use crate::gpu::GpuContext;
use crate::io::{picture_format, write_picture};
use crate::render::{
    boid_length_for, supported_samples, Camera, ColourMode, Edge, Offscreen, Rasteriser,
    RenderStyle, Renderer, Theme,
};
use crate::run::args::SetupArgs;

/// Options of `boids snapshot`.
#[derive(Clone, Debug, clap::Args)]
pub struct SnapshotArgs {
    /// Picture to write, in the format its extension names: .png, or .jpg / .jpeg (JPEG, quality
    /// 90); any other extension is refused.
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
    /// The scene, the seed and `--set KEY=VALUE`.
    #[command(flatten)]
    pub setup: SetupArgs,
    /// Initial state, as `boids headless --init`: a checkpoint (drawn as saved, its world and
    /// predators), a plain state CSV, or a frame of a GSD trajectory (FILE.gsd for its last frame,
    /// FILE.gsd:FRAME from 0); with --steps 0 the picture is the state itself.
    #[arg(long)]
    pub init: Option<PathBuf>,
    /// Number of boids (default: the scene's, else 20000; k and M suffixes allowed). The world is
    /// sized to the image at the default density unless the scene fixes it.
    #[arg(long, value_parser = crate::run::args::parse_count)]
    pub boids: Option<usize>,
    /// Backend that computes the steps (the picture is always drawn on the GPU).
    #[arg(long, value_enum, default_value = "gpu")]
    pub backend: AppBackend,
    /// How the boids start: `flocks` (a few formed flocks, apart) or `uniform` (spread evenly).
    /// Default: the scene's `spawn` key (the default scene's is flocks), else uniform.
    #[arg(long, value_enum, conflicts_with = "init")]
    pub spawn: Option<Spawn>,
    /// Colour theme.
    #[arg(long, value_enum, default_value = "dark")]
    pub theme: Theme,
    /// Boid length (wu, 0.01 ..= 10000; default: the scene's separation radius).
    #[arg(long)]
    pub boid_size: Option<f32>,
    /// Multisampling (1 = off; clamped to what the adapter offers).
    #[arg(long, default_value_t = 4)]
    pub msaa: u32,
    /// What the boids' colour shows, as the app's --colour: the hue vector, the heading, the
    /// speed or the neighbour count (of the last step: `neighbours` needs --steps 1 or more).
    /// Default: the scene's `[view] colour`, else `hue`.
    #[arg(long, value_enum)]
    pub colour: Option<ColourMode>,
    /// How boids are drawn: `auto` (the compute rasteriser for many small boids — 20 000 or more,
    /// as density dots or spearheads up to 6 px — the instanced draw otherwise), `instanced` (the
    /// design card's instanced spearheads), `compute` (the compute rasteriser).
    #[arg(long, value_enum, default_value = "auto")]
    pub rasteriser: Rasteriser,
    /// Draw density dots (boids zoomed out below 4 px) as square dots, without the motion streak
    /// behind each along its heading.
    #[arg(long)]
    pub no_streaks: bool,
}

impl SnapshotArgs {
    /// Options for `out` with every other option at its default.
    pub fn new(out: PathBuf) -> Self {
        SnapshotArgs {
            out,
            width: 1280,
            height: 720,
            steps: 120,
            setup: SetupArgs::default(),
            init: None,
            boids: None,
            backend: AppBackend::Gpu,
            spawn: None,
            theme: Theme::Dark,
            boid_size: None,
            msaa: 4,
            colour: None,
            rasteriser: Rasteriser::Auto,
            no_streaks: false,
        }
    }
}

/// How a picture of a simulation is drawn: its size, colours, boid length and multisampling.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PictureStyle {
    /// Image width (px), 1 ..= 16384 and at most the adapter's largest texture.
    pub width: u32,
    /// Image height (px), 1 ..= 16384 and at most the adapter's largest texture.
    pub height: u32,
    /// Colour theme.
    pub theme: Theme,
    /// Boid length (wu, 0.01 ..= 10000); `None`: from the parameters ([`boid_length_for`]).
    pub boid_size: Option<f32>,
    /// Multisampling (1 = off; clamped to what the adapter offers).
    pub msaa: u32,
    /// What the boids' colour shows.
    pub colour: ColourMode,
    /// How boids are drawn.
    pub rasteriser: Rasteriser,
    /// Motion streaks on density dots ([`RenderStyle::streaks`]).
    pub streaks: bool,
}

impl PictureStyle {
    /// The picture `boids snapshot` draws with `args`.
    pub fn of(args: &SnapshotArgs) -> PictureStyle {
        PictureStyle {
            width: args.width,
            height: args.height,
            theme: args.theme,
            boid_size: args.boid_size,
            msaa: args.msaa,
            colour: args.colour.unwrap_or_default(),
            rasteriser: args.rasteriser,
            streaks: !args.no_streaks,
        }
    }

    /// Checks the picture against its bounds and the adapter of `ctx` before anything is
    /// allocated; gives the samples per pixel to draw with.
    ///
    /// # Errors
    /// [`AppError::SnapshotSize`], [`AppError::BoidSize`], [`AppError::TextureLimit`] or
    /// [`AppError::Memory`] for a size or length out of range.
    pub fn check(&self, ctx: &GpuContext) -> Result<u32, AppError> {
        let (width, height) = (self.width, self.height);
        if width == 0 || height == 0 || width > 16384 || height > 16384 {
            return Err(AppError::SnapshotSize { width, height });
        }
        if let Some(value) = self.boid_size {
            if !(0.01..=10_000.0).contains(&value) {
                return Err(AppError::BoidSize { value });
            }
        }
        let max = ctx.device.limits().max_texture_dimension_2d;
        if width > max || height > max {
            return Err(AppError::TextureLimit { width, height, max });
        }
        let samples = supported_samples(&ctx.adapter, Offscreen::FORMAT, self.msaa);
        check_memory(ctx, width, height, samples)?;
        Ok(samples)
    }
}

/// Renders the picture described by `args` on `ctx` (nothing is written).
///
/// # Errors
/// [`AppError::SnapshotSize`], [`AppError::BoidSize`], [`AppError::TextureLimit`] or
/// [`AppError::Memory`] for a size or length out of range; a scene, setup, simulation or GPU
/// error.
pub fn render_snapshot(
    ctx: &GpuContext,
    args: &SnapshotArgs,
) -> Result<image::RgbaImage, AppError> {
    let scene = match &args.setup.scene {
        Some(p) => Some(Scene::load(p)?),
        None => None,
    };
    let scene_colour = match &scene {
        Some(s) => crate::run::spec::scene_colour(s)?,
        None => None,
    };
    let mut style = PictureStyle::of(args);
    style.colour = args.colour.or(scene_colour).unwrap_or_default();
    if style.colour == ColourMode::Neighbours && args.steps == 0 {
        // The counts are those of the last step: before one, every boid would show 0.
        return Err(AppError::Setup(crate::run::RunError::Conflict(
            "--colour neighbours --steps 0: the neighbour counts are those of the last step; give \
             --steps 1 or more"
                .into(),
        )));
    }
    let samples = style.check(ctx)?;
    let aspect = args.width as f32 / args.height as f32;
    let setup = match &args.init {
        // A saved state: resolved as `boids headless --init` resolves it.
        Some(init) => {
            let inputs = crate::run::spec::Inputs::load(args.setup.scene.as_deref(), Some(init))?;
            let defaults = crate::run::spec::Defaults {
                aspect,
                ..crate::run::spec::Defaults::headless(20_000)
            };
            crate::run::spec::resolve(&inputs, &args.setup.overrides(args.boids), &defaults)?.setup
        }
        None => {
            app_setup(
                scene.as_ref(),
                &args.setup.overrides(args.boids),
                20_000,
                aspect,
                args.spawn,
            )?
            .0
        }
    };
    let mut sim = Sim::new(ctx, args.backend.kind(), &setup)?;
    for _ in 0..args.steps {
        sim.step().map_err(AppError::Step)?;
    }
    sim.finish()?;
    render_sim(&mut sim, &style, samples)
}

/// Renders the current state of `sim` as `style` says, with `samples` samples per pixel (from
/// [`PictureStyle::check`]): the world fitted to the picture, the boids, obstacles and predators
/// drawn by the app's [`Renderer`]. Returns the image, `height` rows of `width` RGBA pixels.
///
/// # Errors
/// A GPU error while drawing or reading the picture back.
pub fn render_sim(
    sim: &mut Sim,
    style: &PictureStyle,
    samples: u32,
) -> Result<image::RgbaImage, AppError> {
    let ctx = sim.context().clone();
    let params = sim.params().clone();
    let mut renderer = Renderer::new(&ctx.device, Offscreen::FORMAT, samples);
    renderer.set_actors(&ctx.queue, sim.actors());
    let target = Offscreen::new(&ctx.device, style.width, style.height);
    let camera = Camera::fit(
        Vec2::new(params.world_width, params.world_height),
        target.viewport(),
    );
    let render_style = RenderStyle {
        theme: style.theme,
        boid_length: style
            .boid_size
            .unwrap_or_else(|| boid_length_for(&params, sim.len())),
        edge: Edge::of(params.boundary),
        colour: style.colour,
        speed_range: RenderStyle::speed_range_of(&params),
        rasteriser: style.rasteriser,
        streaks: style.streaks,
        ..RenderStyle::default()
    };
    let count = sim.len() as u32;
    let mut enc = ctx
        .device
        .create_command_encoder(&wgpu::CommandEncoderDescriptor {
            label: Some("snapshot"),
        });
    let state = sim.state_buffers();
    sim.set_renderer_predators(&mut renderer);
    renderer.record(
        &mut enc,
        target.view(),
        &ctx.queue,
        &state,
        count,
        &camera,
        &render_style,
    );
    ctx.queue.submit([enc.finish()]);
    let img = target.read(&ctx.device, &ctx.queue)?;
    ctx.take_error().map_err(AppError::GpuFault)?;
    Ok(img)
}

/// Bytes a `width` × `height` px snapshot with `samples` samples per pixel allocates on the GPU:
/// (the image target, the multisampled target (0 without MSAA), the readback buffer with its rows
/// padded to wgpu's copy alignment).
pub fn snapshot_bytes(width: u32, height: u32, samples: u32) -> (u64, u64, u64) {
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

/// Refuses, before allocating anything, a snapshot the adapter cannot hold: any one allocation
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
) -> Result<(), SnapshotMemoryError> {
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
) -> Result<(), SnapshotMemoryError> {
    let (image, msaa, readback) = snapshot_bytes(width, height, samples);
    let total = image + msaa + readback;
    let largest = image.max(msaa).max(readback);
    let over_alloc = largest > max_alloc;
    let over_total = available.is_some_and(|a| total > a);
    if !over_alloc && !over_total {
        return Ok(());
    }
    // The largest size of this aspect ratio that fits, and whether dropping MSAA would do.
    let fits = |w: u32, h: u32, s: u32| {
        let (i, m, r) = snapshot_bytes(w, h, s);
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
    Err(SnapshotMemoryError {
        width,
        height,
        samples,
        bytes: (image, msaa, readback),
        limit,
        fits: ((width as f64 * k) as u32, (height as f64 * k) as u32),
        fits_without_msaa: samples > 1 && fits(width, height, 1),
    })
}

/// `boids snapshot`: renders on a fresh default GPU context and writes the picture (its format
/// checked first, so a wrong extension costs no rendering).
///
/// # Errors
/// As [`render_snapshot`], plus [`AppError::Picture`] for an unsupported extension (before
/// anything else) or a failed write, and [`AppError::Gpu`] when there is no adapter.
pub fn run(args: &SnapshotArgs) -> Result<(), AppError> {
    picture_format(&args.out)?;
    let ctx = GpuContext::new()?;
    let img = render_snapshot(&ctx, args)?;
    write_picture(&args.out, &img)?;
    println!(
        "wrote {} ({}×{} px, adapter {})",
        args.out.display(),
        img.width(),
        img.height(),
        ctx.describe()
    );
    Ok(())
}

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
        assert_eq!(snapshot_bytes(10, 2, 1), (80, 0, 512));
        assert_eq!(snapshot_bytes(64, 1, 4), (256, 1024, 256));
    }
}
