//! The window's graphics (`Gfx`): the window, its wgpu surface (format and present mode picked
//! from what it offers, resized, reconfigured, recreated when lost), the renderers, egui, and the
//! app state drawn into it; opened once the event loop runs.

use std::sync::Arc;
use web_time::Instant;

use glam::Vec2;
use winit::dpi::PhysicalSize;
use winit::event_loop::ActiveEventLoop;
use winit::window::{Fullscreen, Window, WindowAttributes};

use crate::app::args::{RunArgs, DEFAULT_BOIDS_GPU, DEFAULT_BOIDS_SOFTWARE};
use crate::app::error::AppError;
use crate::app::frame_state::Frame;
use crate::app::sound::Sound;
use crate::app::state::AppState;
use crate::formats::scene::Scene;
use crate::gpu::GpuContext;
use crate::render::{supported_samples, Camera, Renderer};

/// Everything that exists once the window is open (fields shared with `window`, `frame` and
/// `report`).
pub(crate) struct Gfx {
    /// The window.
    pub window: Arc<Window>,
    pub surface: wgpu::Surface<'static>,
    pub config: wgpu::SurfaceConfiguration,
    pub ctx: GpuContext,
    pub renderer: Renderer,
    pub egui_ctx: egui::Context,
    pub egui_state: egui_winit::State,
    pub egui_renderer: egui_wgpu::Renderer,
    /// The UI's own layer, redrawn when it can have changed.
    pub ui_layer: crate::app::ui_layer::UiLayer,
    pub st: AppState,
    pub frame: Frame,
    pub software: bool,
    /// The last size seen was 0 in a dimension (minimised): nothing is drawn or stepped.
    pub zero_size: bool,
    /// The window reported itself fully hidden (`WindowEvent::Occluded(true)`).
    pub occluded: bool,
    /// The surface must be configured before the next frame (resize, suboptimal).
    pub needs_configure: bool,
    /// The actors version the renderer last uploaded.
    pub renderer_actors_version: u64,
    /// Where F9 writes live captures (and V its video folders).
    pub capture_dir: std::path::PathBuf,
    /// Frames per simulated second of video recordings.
    pub record_fps: f64,
    /// The ambient sound.
    pub sound: Sound,
    /// When a minimised or hidden window ticks next.
    pub next_idle_tick: Instant,
    fullscreen_applied: bool,
}

fn present_mode(caps: &wgpu::SurfaceCapabilities, vsync: bool) -> wgpu::PresentMode {
    use wgpu::PresentMode as P;
    let wanted: &[P] = if vsync {
        &[P::Fifo, P::FifoRelaxed]
    } else {
        &[P::Mailbox, P::Immediate, P::FifoRelaxed, P::Fifo]
    };
    wanted
        .iter()
        .copied()
        .find(|m| caps.present_modes.contains(m))
        .or_else(|| caps.present_modes.first().copied())
        .unwrap_or(P::Fifo)
}

fn surface_format(caps: &wgpu::SurfaceCapabilities) -> Option<wgpu::TextureFormat> {
    // egui and the render shader write sRGB-encoded values: prefer a non-sRGB 8-bit format.
    use wgpu::TextureFormat as F;
    [F::Bgra8Unorm, F::Rgba8Unorm]
        .into_iter()
        .find(|f| caps.formats.contains(f))
        .or_else(|| caps.formats.first().copied())
}

fn make_instance(el: &ActiveEventLoop) -> wgpu::Instance {
    let mut desc = wgpu::InstanceDescriptor::new_with_display_handle_from_env(Box::new(
        el.owned_display_handle(),
    ));
    if cfg!(target_arch = "wasm32") {
        desc.backends = wgpu::Backends::BROWSER_WEBGPU;
    } else if std::env::var_os("WGPU_BACKEND").is_none() {
        desc.backends = wgpu::Backends::all();
    }
    wgpu::Instance::new(desc)
}

impl Gfx {
    /// The window's attributes: its title and `--width` × `--height` (in a page, the canvas's
    /// size is the page's to set).
    pub(crate) fn attributes(args: &RunArgs) -> WindowAttributes {
        let attrs = Window::default_attributes().with_title("boids");
        if cfg!(target_arch = "wasm32") {
            attrs
        } else {
            attrs.with_inner_size(PhysicalSize::new(args.width.max(1), args.height.max(1)))
        }
    }

    /// Creates the window of `attrs`, a wgpu instance and the window's surface.
    ///
    /// # Errors
    /// [`AppError::Window`], [`AppError::Surface`].
    pub(crate) fn window(
        el: &ActiveEventLoop,
        attrs: WindowAttributes,
    ) -> Result<(Arc<Window>, wgpu::Instance, wgpu::Surface<'static>), AppError> {
        let window = Arc::new(el.create_window(attrs).map_err(|e| AppError::Window {
            message: without_source_location(&e.to_string()),
        })?);
        let instance = make_instance(el);
        let surface = instance
            .create_surface(window.clone())
            .map_err(AppError::Surface)?;
        Ok((window, instance, surface))
    }

    /// Opens the window and its device, then [`Gfx::assemble`] (waiting for the adapter: a
    /// browser tab asks for it without waiting, `crate::app::web`).
    #[cfg(not(target_arch = "wasm32"))]
    pub(crate) fn open(
        el: &ActiveEventLoop,
        args: &RunArgs,
        scene: Option<&Scene>,
    ) -> Result<Gfx, AppError> {
        let (window, instance, surface) = Self::window(el, Self::attributes(args))?;
        let adapter = crate::gpu::context::pick_adapter(&instance, Some(&surface))?;
        let ctx = GpuContext::from_adapter(instance, adapter)?;
        Self::assemble(window, surface, ctx, args, scene)
    }

    /// Everything drawn into an open window with its device: the surface configured, the
    /// simulation started, the renderers and egui.
    ///
    /// # Errors
    /// No surface format, a surface the adapter cannot draw to, a bad scene or setup, the
    /// simulation's error.
    pub(crate) fn assemble(
        window: Arc<Window>,
        surface: wgpu::Surface<'static>,
        ctx: GpuContext,
        args: &RunArgs,
        scene: Option<&Scene>,
    ) -> Result<Gfx, AppError> {
        let software = ctx.info.device_type == wgpu::DeviceType::Cpu;
        let caps = surface.get_capabilities(&ctx.adapter);
        let format = surface_format(&caps).ok_or_else(|| AppError::NoSurfaceFormat {
            adapter: ctx.describe(),
        })?;
        let size = window.inner_size();
        let mut config = surface
            .get_default_config(&ctx.adapter, size.width.max(1), size.height.max(1))
            .ok_or_else(|| AppError::SurfaceUnsupported {
                adapter: ctx.describe(),
            })?;
        config.format = format;
        // Window screenshots (script `screenshot`) copy the surface texture when allowed.
        if caps.usages.contains(wgpu::TextureUsages::COPY_SRC) {
            config.usage |= wgpu::TextureUsages::COPY_SRC;
        }
        config.view_formats = vec![];
        config.present_mode = present_mode(&caps, !args.no_vsync);
        config.desired_maximum_frame_latency = 2;
        if let Some(m) = caps.alpha_modes.first() {
            config.alpha_mode = *m;
        }

        let viewport = Vec2::new(size.width.max(1) as f32, size.height.max(1) as f32);
        let default_boids = if software {
            DEFAULT_BOIDS_SOFTWARE
        } else {
            DEFAULT_BOIDS_GPU
        };
        let (setup, spawn) = crate::app::start::app_setup(
            scene,
            &args.setup.overrides(args.boids),
            default_boids,
            viewport.x / viewport.y,
            args.spawn,
        )?;
        let cpu_default = crate::gpu::context::cpu_backend_by_default(ctx.info.device_type);
        let kind = match args.backend {
            Some(b) => b.kind(),
            None if cpu_default => crate::backend::BackendKind::Cpu,
            None => crate::backend::BackendKind::Gpu,
        };
        let mut sim = crate::render::Sim::new(&ctx, kind, &setup)?;
        // A warm-up's neighbour counts are stored only by its last step, whose state is drawn.
        for k in 0..args.warmup {
            sim.store_neighbor_counts(k + 1 == args.warmup);
            sim.step().map_err(AppError::Step)?;
        }
        sim.finish()?;
        let camera = Camera::fit(
            Vec2::new(setup.params.world_width, setup.params.world_height),
            viewport,
        );
        let cap = crate::gpu::buffers::max_boids(&ctx) as usize;
        let max_boids = if software { 500_000 } else { 4_000_000 }
            .min(cap)
            .max(setup.boids.len());
        let default_count = args.boids.is_none() && scene.and_then(|s| s.boids).is_none();
        let mut st = AppState::new(sim, camera, setup, max_boids, spawn, args.pace());
        st.set_scale_factor(window.scale_factor() as f32);
        if let Some(p) = &args.setup.scene {
            st.scenes.path = p.display().to_string();
        }
        st.view.style.theme = args.theme;
        st.view.style.rasteriser = args.rasteriser;
        let scene_colour = match scene {
            Some(s) => crate::run::spec::scene_colour(s)?,
            None => None,
        };
        st.view.style.colour = args.colour.or(scene_colour).unwrap_or_default();
        st.view.style.trails = args.trails;
        st.ui.panel_open = args.panel;
        st.ui.help_open = args.start_screen();
        st.ui.start_screen = st.ui.help_open;
        let wanted = args.msaa.unwrap_or(if software { 1 } else { 4 });
        if software {
            // What was chosen for speed on this adapter, each with the way to ask otherwise; the
            // choices a user made are not repeated.
            let mut chosen = Vec::new();
            if args.backend.is_none() && cpu_default {
                chosen.push("the CPU backend by default (--backend gpu to ask)".to_string());
            }
            if default_count {
                chosen.push(format!(
                    "{DEFAULT_BOIDS_SOFTWARE} boids by default ({DEFAULT_BOIDS_GPU} on a GPU)"
                ));
            }
            if args.msaa.is_none() {
                chosen.push("no MSAA (--msaa 4 to ask)".to_string());
            }
            st.note = Some(if chosen.is_empty() {
                "software adapter".to_string()
            } else {
                format!("software adapter, fastest defaults: {}", chosen.join(", "))
            });
        }

        let samples = supported_samples(&ctx.adapter, format, wanted);
        let mut renderer = Renderer::new(&ctx.device, format, samples);
        renderer.set_actors(&ctx.queue, st.run.sim.actors());
        let egui_ctx = egui::Context::default();
        egui_ctx.set_theme(crate::app::ui::egui_theme(args.theme));
        // A tab on a software adapter draws a frame a second or slower, and egui times a press
        // by its passes: a short press whose release came a pass later was not a click (0.8 s).
        #[cfg(target_arch = "wasm32")]
        egui_ctx.options_mut(|o| o.input_options.max_click_duration = 3.0);
        let egui_state = egui_winit::State::new(
            egui_ctx.clone(),
            egui::ViewportId::ROOT,
            &window,
            Some(window.scale_factor() as f32),
            window.theme(),
            Some(ctx.device.limits().max_texture_dimension_2d as usize),
        );
        let egui_renderer =
            egui_wgpu::Renderer::new(&ctx.device, format, egui_wgpu::RendererOptions::default());
        let frame = Frame::new(&ctx, samples, config.present_mode, software);
        let ui_layer = crate::app::ui_layer::UiLayer::new(&ctx.device, format);
        let mut g = Gfx {
            window,
            surface,
            config,
            ctx,
            renderer,
            egui_ctx,
            egui_state,
            egui_renderer,
            ui_layer,
            st,
            frame,
            software,
            zero_size: false,
            occluded: false,
            needs_configure: true,
            renderer_actors_version: 0,
            capture_dir: args.capture_dir.clone(),
            record_fps: args.record_fps,
            sound: Sound::new(),
            fullscreen_applied: false,
            next_idle_tick: Instant::now(),
        };
        g.resize(size);
        Ok(g)
    }

    /// The surface-size handler (window resizes, and the script's minimise/restore).
    pub(crate) fn resize(&mut self, size: PhysicalSize<u32>) {
        if size.width == 0 || size.height == 0 {
            self.zero_size = true;
            return;
        }
        self.zero_size = false;
        self.ui_layer.invalidate();
        // A surface larger than the largest texture cannot be configured: draw at the limit.
        let max = self.ctx.device.limits().max_texture_dimension_2d;
        self.config.width = size.width.min(max);
        self.config.height = size.height.min(max);
        self.needs_configure = true;
        self.st.view.camera.set_viewport(Vec2::new(
            self.config.width as f32,
            self.config.height as f32,
        ));
        // A view the user has not moved keeps showing the whole world.
        if !self.st.view.moved {
            self.st.view.fit();
        }
    }

    pub(crate) fn configure(&mut self) {
        self.surface.configure(&self.ctx.device, &self.config);
        self.needs_configure = false;
        self.frame.surface_configures += 1;
    }

    /// Replaces a lost surface with a new one on the same window.
    pub(crate) fn recreate_surface(&mut self) -> Result<(), AppError> {
        self.surface = self
            .ctx
            .instance
            .create_surface(self.window.clone())
            .map_err(AppError::SurfaceLost)?;
        self.configure();
        Ok(())
    }

    /// Enters or leaves borderless fullscreen as immersion asks.
    pub(crate) fn apply_fullscreen(&mut self) {
        if self.st.ui.immersive != self.fullscreen_applied {
            self.window
                .set_fullscreen(self.st.ui.immersive.then_some(Fullscreen::Borderless(None)));
            self.fullscreen_applied = self.st.ui.immersive;
        }
    }
}

/// winit's OS errors read `os error at <source file>:<line>: <message>`: the user needs the message.
pub(crate) fn without_source_location(msg: &str) -> String {
    msg.strip_prefix("os error at ")
        .and_then(|rest| rest.split_once(": "))
        .map_or_else(|| msg.to_string(), |(_, m)| m.to_string())
}
