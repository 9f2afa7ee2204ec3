//! The flock drawn in the page's canvas: the default scene's parameters, stepped by the GPU
//! backend and drawn by the native app's renderer (instanced spearheads), one step and one
//! frame each time the page calls [`View::frame`] (from `requestAnimationFrame`); [`View::done`]
//! resolves when the GPU has done that work (so a frame rate counts frames drawn, not frames
//! queued), and [`View::picture`] draws the flock into a texture of its own and reads it back as a
//! PNG (a WebGPU canvas does not keep its pixels for `toBlob`). Not yet the app: no panel, tools
//! or input. `web/view.html` runs it and reports its frame rate.

use boids::backend::Simulation;
use boids::gpu::context::GpuContext;
use boids::gpu::GpuBackend;
use boids::model::{initial_state, DEFAULT_DENSITY};
use boids::render::{boid_length_for, Camera, Edge, RenderStyle, Renderer};
use glam::Vec2;
use wasm_bindgen::prelude::*;

/// A flock in a canvas.
#[wasm_bindgen]
pub struct View {
    ctx: GpuContext,
    /// The canvas's surface, None when drawing offscreen.
    surface: Option<(wgpu::Surface<'static>, wgpu::SurfaceConfiguration)>,
    sim: GpuBackend,
    /// The canvas's renderer.
    renderer: Renderer,
    /// A texture of the canvas's size and its renderer: the pictures, and every frame offscreen.
    offscreen: (wgpu::Texture, Renderer),
    camera: Camera,
    style: RenderStyle,
    frames: u32,
}

/// The pictures' format (8-bit RGBA, as a PNG holds it).
const PICTURE_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8Unorm;

/// A `width` × `height` texture to draw pictures into and read them back from.
fn picture_texture(device: &wgpu::Device, width: u32, height: u32) -> wgpu::Texture {
    device.create_texture(&wgpu::TextureDescriptor {
        label: Some("page picture"),
        size: wgpu::Extent3d {
            width,
            height,
            depth_or_array_layers: 1,
        },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: PICTURE_FORMAT,
        usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
        view_formats: &[],
    })
}

fn js(e: impl std::fmt::Display) -> JsValue {
    JsValue::from_str(&e.to_string())
}

/// Starts `boids` boids of the default scene in `canvas` (its size in pixels is the canvas's
/// `width` × `height`; the world takes its aspect at the default density); with `offscreen`, each
/// frame is drawn into a texture of that size instead (headless Chromium cannot present a WebGPU
/// canvas on its software adapter here: "Could not find SharedImageBackingFactory").
///
/// # Errors
/// No WebGPU adapter, no device, a canvas the adapter cannot draw to, or the backend's error.
#[wasm_bindgen]
pub async fn start_view(
    canvas: web_sys::HtmlCanvasElement,
    boids: u32,
    offscreen: bool,
) -> Result<View, JsValue> {
    crate::log_panics();
    let (width, height) = (canvas.width().max(1), canvas.height().max(1));
    let instance = wgpu::Instance::new(wgpu::InstanceDescriptor {
        backends: wgpu::Backends::BROWSER_WEBGPU,
        ..wgpu::InstanceDescriptor::new_without_display_handle()
    });
    let surface = if offscreen {
        None
    } else {
        Some(
            instance
                .create_surface(wgpu::SurfaceTarget::Canvas(canvas))
                .map_err(js)?,
        )
    };
    let adapter = instance
        .request_adapter(&wgpu::RequestAdapterOptions {
            compatible_surface: surface.as_ref(),
            ..Default::default()
        })
        .await
        .map_err(|e| js(format!("no WebGPU adapter in this browser ({e})")))?;
    let format = match &surface {
        Some(s) => *s
            .get_capabilities(&adapter)
            .formats
            .first()
            .ok_or_else(|| js("the canvas offers no format"))?,
        None => PICTURE_FORMAT,
    };
    let ctx = GpuContext::from_adapter_async(instance, adapter)
        .await
        .map_err(js)?;
    let surface = match surface {
        Some(s) => {
            let mut config = s
                .get_default_config(&ctx.adapter, width, height)
                .ok_or_else(|| js("the canvas cannot be drawn to by this adapter"))?;
            config.format = format;
            config.present_mode = wgpu::PresentMode::Fifo;
            s.configure(&ctx.device, &config);
            Some((s, config))
        }
        None => None,
    };
    let scene = boids::app::presets::default_scene().map_err(js)?;
    let n = boids as usize;
    let params =
        scene
            .params
            .with_world_for_aspect(n, DEFAULT_DENSITY, width as f32 / height as f32);
    let seed = scene.seed.unwrap_or(1);
    let state = initial_state(seed, n, &params);
    let sim = GpuBackend::from_state(&ctx, &params, &state, seed).map_err(js)?;
    let renderer = Renderer::new(&ctx.device, format, 1);
    let offscreen = (
        picture_texture(&ctx.device, width, height),
        Renderer::new(&ctx.device, PICTURE_FORMAT, 1),
    );
    let camera = Camera::fit(
        Vec2::new(params.world_width, params.world_height),
        Vec2::new(width as f32, height as f32),
    );
    let style = RenderStyle {
        boid_length: boid_length_for(&params, n),
        edge: Edge::of(params.boundary),
        speed_range: RenderStyle::speed_range_of(&params),
        ..RenderStyle::default()
    };
    Ok(View {
        ctx,
        surface,
        sim,
        renderer,
        offscreen,
        camera,
        style,
        frames: 0,
    })
}

#[wasm_bindgen]
impl View {
    /// One step and one frame drawn.
    ///
    /// # Errors
    /// The backend's error, or a GPU error while drawing.
    pub fn frame(&mut self) -> Result<(), JsValue> {
        self.sim.step().map_err(js)?;
        let state = self
            .sim
            .gpu_state()
            .ok_or_else(|| js("the GPU backend has no state buffers"))?;
        let count = self.sim.len() as u32;
        let mut enc = self.ctx.device.create_command_encoder(&Default::default());
        let Some((surface, config)) = &self.surface else {
            let view = self.offscreen.0.create_view(&Default::default());
            self.offscreen.1.record(
                &mut enc,
                &view,
                &self.ctx.queue,
                &state,
                count,
                &self.camera,
                &self.style,
            );
            self.ctx.queue.submit([enc.finish()]);
            self.frames += 1;
            return self.ctx.take_error().map_err(js);
        };
        let texture = match surface.get_current_texture() {
            wgpu::CurrentSurfaceTexture::Success(t)
            | wgpu::CurrentSurfaceTexture::Suboptimal(t) => t,
            wgpu::CurrentSurfaceTexture::Outdated | wgpu::CurrentSurfaceTexture::Lost => {
                surface.configure(&self.ctx.device, config);
                return Ok(());
            }
            _ => return Ok(()),
        };
        let view = texture.texture.create_view(&Default::default());
        self.renderer.record(
            &mut enc,
            &view,
            &self.ctx.queue,
            &state,
            count,
            &self.camera,
            &self.style,
        );
        self.ctx.queue.submit([enc.finish()]);
        self.ctx.queue.present(texture);
        self.frames += 1;
        self.ctx.take_error().map_err(js)
    }

    /// A promise resolved when the GPU has done the work submitted so far.
    pub fn done(&self) -> js_sys::Promise {
        let queue = self.ctx.queue.clone();
        js_sys::Promise::new(&mut |resolve, _| {
            queue.on_submitted_work_done(move || {
                let _ = resolve.call0(&JsValue::NULL);
            });
        })
    }

    /// The flock drawn as in the canvas into a texture of its own, copied for reading back:
    /// [`Picture::png`] gives its PNG.
    pub fn picture(&mut self) -> Picture {
        let texture = &self.offscreen.0;
        let (width, height) = (texture.width(), texture.height());
        let device = &self.ctx.device;
        let view = texture.create_view(&Default::default());
        let mut enc = device.create_command_encoder(&Default::default());
        if let Some(state) = self.sim.gpu_state() {
            self.offscreen.1.record(
                &mut enc,
                &view,
                &self.ctx.queue,
                &state,
                self.sim.len() as u32,
                &self.camera,
                &self.style,
            );
        }
        let row = width * 4;
        let padded = row.next_multiple_of(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT);
        let staging = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("page picture readback"),
            size: padded as u64 * height as u64,
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        enc.copy_texture_to_buffer(
            texture.as_image_copy(),
            wgpu::TexelCopyBufferInfo {
                buffer: &staging,
                layout: wgpu::TexelCopyBufferLayout {
                    offset: 0,
                    bytes_per_row: Some(padded),
                    rows_per_image: Some(height),
                },
            },
            texture.size(),
        );
        self.ctx.queue.submit([enc.finish()]);
        Picture {
            staging,
            width,
            height,
            padded,
        }
    }

    /// Frames drawn.
    pub fn frames(&self) -> u32 {
        self.frames
    }

    /// Boids.
    pub fn boids(&self) -> u32 {
        self.sim.len() as u32
    }
}

/// A picture of the flock on its way back from the GPU ([`View::picture`]).
#[wasm_bindgen]
pub struct Picture {
    staging: wgpu::Buffer,
    width: u32,
    height: u32,
    padded: u32,
}

#[wasm_bindgen]
impl Picture {
    /// The picture as PNG bytes, once the GPU has written it.
    ///
    /// # Errors
    /// A mapping that failed or did not complete within 60 s, or the PNG encoder's error.
    pub async fn png(self) -> Result<js_sys::Uint8Array, JsValue> {
        let bytes = crate::check::map_read(&self.staging).await.map_err(js)?;
        let row = (self.width * 4) as usize;
        let mut pixels = Vec::with_capacity(row * self.height as usize);
        for r in 0..self.height as usize {
            let at = r * self.padded as usize;
            pixels.extend_from_slice(&bytes[at..at + row]);
        }
        let img = image::RgbaImage::from_raw(self.width, self.height, pixels)
            .ok_or_else(|| js("the picture's size"))?;
        let mut png = Vec::new();
        img.write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
            .map_err(js)?;
        Ok(js_sys::Uint8Array::from(png.as_slice()))
    }
}
