//! Pictures of a simulation, drawn offscreen by the same [`Renderer`] as the app's window: how a
//! picture is drawn ([`PictureStyle`]), its bounds checked against the adapter before anything is
//! allocated ([`PictureStyle::check`]), and the drawing itself ([`render_sim`]). `boids snapshot`
//! and the Python module's pictures come here (the app's window and its `capture` draw the
//! camera's view with the same renderer).

use glam::Vec2;

use crate::gpu::{GpuContext, GpuError};
use crate::render::picture_memory::{check_memory, PictureMemoryError};
use crate::render::sim::Sim;
use crate::render::{
    boid_length_for, supported_samples, Camera, ColourMode, Edge, Offscreen, Rasteriser,
    RenderStyle, Renderer, Theme,
};

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
    /// Checks the picture against its bounds and the adapter of `ctx` before anything is
    /// allocated; gives the samples per pixel to draw with.
    ///
    /// # Errors
    /// [`PictureSizeError`] for a size or length out of range.
    pub fn check(&self, ctx: &GpuContext) -> Result<u32, PictureSizeError> {
        let (width, height) = (self.width, self.height);
        if width == 0 || height == 0 || width > 16384 || height > 16384 {
            return Err(PictureSizeError::Size { width, height });
        }
        if let Some(value) = self.boid_size {
            if !(0.01..=10_000.0).contains(&value) {
                return Err(PictureSizeError::BoidSize { value });
            }
        }
        let max = ctx.device.limits().max_texture_dimension_2d;
        if width > max || height > max {
            return Err(PictureSizeError::TextureLimit { width, height, max });
        }
        let samples = supported_samples(&ctx.adapter, Offscreen::FORMAT, self.msaa);
        check_memory(ctx, width, height, samples)?;
        Ok(samples)
    }
}

/// A picture whose size or boid length is out of range, or that the adapter cannot hold. The
/// messages name the options of `boids snapshot`, which these fields are.
#[derive(Debug, thiserror::Error)]
pub enum PictureSizeError {
    /// `boids snapshot --width/--height` outside 1 ..= 16384 px.
    #[error("--width and --height must be 1..=16384 px (got {width}×{height})")]
    Size {
        /// The width asked for (px).
        width: u32,
        /// The height asked for (px).
        height: u32,
    },
    /// `--boid-size` outside 0.01 ..= 10000 wu.
    #[error("--boid-size = {value} is out of range: allowed 0.01 ..= 10000 (wu)")]
    BoidSize {
        /// The length asked for (wu).
        value: f32,
    },
    /// A picture wider or taller than the adapter's largest texture.
    #[error(
        "{width}×{height} px exceeds this adapter's max_texture_dimension_2d ({max} px): use \
         --width and --height of at most {max}"
    )]
    TextureLimit {
        /// The width asked for (px).
        width: u32,
        /// The height asked for (px).
        height: u32,
        /// The adapter's largest texture side (px).
        max: u32,
    },
    /// A picture that needs more memory than the adapter has.
    #[error(transparent)]
    Memory(#[from] PictureMemoryError),
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
) -> Result<image::RgbaImage, GpuError> {
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
            label: Some("picture"),
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
    ctx.take_error()?;
    Ok(img)
}
