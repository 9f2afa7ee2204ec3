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
use boids::model::{initial_state, validate_boid_count, ParamError, DEFAULT_DENSITY, MAX_BOIDS};
use boids::render::{boid_length_for, Camera, Edge, Offscreen, RenderStyle, Renderer, TextureCopy};
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
    /// A target of the canvas's size and its renderer: the pictures, and every frame offscreen.
    offscreen: (Offscreen, Renderer),
    camera: Camera,
    style: RenderStyle,
    frames: u32,
}

fn js(e: impl std::fmt::Display) -> JsValue {
    JsValue::from_str(&e.to_string())
}

/// Starts `boids` boids (a whole number, 1 to [`MAX_BOIDS`]) of the default scene in `canvas` (its size in pixels is the canvas's
/// `width` × `height`; the world takes its aspect at the default density); with `offscreen`, each
/// frame is drawn into a texture of that size instead (headless Chromium cannot present a WebGPU
/// canvas on its software adapter here: "Could not find SharedImageBackingFactory").
///
/// # Errors
/// No WebGPU adapter, no device, a canvas the adapter cannot draw to, or the backend's error.
#[wasm_bindgen]
pub async fn start_view(
    canvas: web_sys::HtmlCanvasElement,
    boids: f64,
    offscreen: bool,
) -> Result<View, JsValue> {
    crate::log_panics();
    // The URL's count, refused as the command line refuses `--boids` (field, value, range).
    let n = boids as usize;
    if !(boids.is_finite() && boids.fract() == 0.0)
        || n as f64 != boids
        || validate_boid_count(n).is_err()
    {
        let e = ParamError::OutOfRange {
            field: "boids",
            value: boids,
            min: 1.0,
            max: MAX_BOIDS as f64,
        };
        return Err(js(format!("URL parameter {e} (a whole number)")));
    }
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
        .map_err(|e| js(crate::no_adapter(e)))?;
    let format = match &surface {
        Some(s) => *s
            .get_capabilities(&adapter)
            .formats
            .first()
            .ok_or_else(|| js("the canvas offers no format"))?,
        None => Offscreen::FORMAT,
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
    let params =
        scene
            .params
            .with_world_for_aspect(n, DEFAULT_DENSITY, width as f32 / height as f32);
    let seed = scene.seed.unwrap_or(1);
    let state = initial_state(seed, n, &params);
    let sim = GpuBackend::from_state(&ctx, &params, &state, seed).map_err(js)?;
    let renderer = Renderer::new(&ctx.device, format, 1);
    let offscreen = (
        Offscreen::new(&ctx.device, width, height),
        Renderer::new(&ctx.device, Offscreen::FORMAT, 1),
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
        let texture = match &self.surface {
            None => None,
            Some((surface, config)) => match surface.get_current_texture() {
                wgpu::CurrentSurfaceTexture::Success(t)
                | wgpu::CurrentSurfaceTexture::Suboptimal(t) => Some(t),
                wgpu::CurrentSurfaceTexture::Outdated | wgpu::CurrentSurfaceTexture::Lost => {
                    surface.configure(&self.ctx.device, config);
                    return Ok(());
                }
                _ => return Ok(()),
            },
        };
        let target = texture
            .as_ref()
            .map(|t| t.texture.create_view(&Default::default()));
        self.draw(target.as_ref())?;
        if let Some(t) = texture {
            self.ctx.queue.present(t);
        }
        self.frames += 1;
        self.ctx.take_error().map_err(js)
    }

    /// Draws the flock into `target` with the canvas's renderer, or into the offscreen target.
    fn draw(&mut self, target: Option<&wgpu::TextureView>) -> Result<(), JsValue> {
        let state = self
            .sim
            .gpu_state()
            .ok_or_else(|| js("the GPU backend has no state buffers"))?;
        let (view, renderer) = match target {
            Some(v) => (v, &mut self.renderer),
            None => (self.offscreen.0.view(), &mut self.offscreen.1),
        };
        let mut enc = self.ctx.device.create_command_encoder(&Default::default());
        renderer.record(
            &mut enc,
            view,
            &self.ctx.queue,
            &state,
            self.sim.len() as u32,
            &self.camera,
            &self.style,
        );
        self.ctx.queue.submit([enc.finish()]);
        Ok(())
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

    /// The flock drawn as in the canvas into the offscreen target, copied for reading back:
    /// [`Picture::png`] gives its PNG.
    ///
    /// # Errors
    /// A GPU error while drawing.
    pub fn picture(&mut self) -> Result<Picture, JsValue> {
        self.draw(None)?;
        let copy = TextureCopy::record(
            &self.ctx.device,
            &self.ctx.queue,
            self.offscreen.0.texture(),
        )
        .map_err(js)?;
        Ok(Picture { copy })
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
    copy: TextureCopy,
}

#[wasm_bindgen]
impl Picture {
    /// The picture as PNG bytes, once the GPU has written it.
    ///
    /// # Errors
    /// A mapping that failed or did not complete within 60 s, or the PNG encoder's error.
    pub async fn png(self) -> Result<js_sys::Uint8Array, JsValue> {
        let bytes = crate::check::map_read(&self.copy.staging)
            .await
            .map_err(js)?;
        let img = self.copy.image(&bytes).map_err(js)?;
        let mut png = Vec::new();
        img.write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
            .map_err(js)?;
        Ok(js_sys::Uint8Array::from(png.as_slice()))
    }
}
