//! The window: winit event loop, wgpu surface and the frame loop (script → UI → tools → step →
//! render → present). Robustness: a zero-size surface pauses rendering and stepping, resize
//! reconfigures, `Outdated`/`Lost`/`Timeout`/`Occluded` frames are skipped with the matching
//! recovery, the present mode is picked from what the surface offers, and closing exits cleanly.

use std::sync::Arc;
use std::time::{Duration, Instant};

use glam::Vec2;
use winit::application::ApplicationHandler;
use winit::dpi::PhysicalSize;
use winit::event::{ElementState, MouseButton, MouseScrollDelta, WindowEvent};
use winit::event_loop::{ActiveEventLoop, ControlFlow, EventLoop};
use winit::window::{Fullscreen, Window, WindowId};

use crate::app::args::{RunArgs, DEFAULT_BOIDS_GPU, DEFAULT_BOIDS_SOFTWARE};
use crate::app::frame::Frame;
use crate::app::input::{Button, InputEvent};
use crate::app::report::RunReport;
use crate::app::script::{Script, ScriptCmd};
use crate::app::sound::Sound;
use crate::app::state::AppState;
use crate::gpu::context::pick_adapter;
use crate::gpu::GpuContext;
use crate::model::Scene;
use crate::render::{supported_samples, Camera, Renderer};

/// Everything that exists once the window is open (fields shared with `frame` and `report`).
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
    /// Where F9 writes live captures.
    pub capture_dir: std::path::PathBuf,
    /// The ambient sound.
    pub sound: Sound,
    fullscreen_applied: bool,
    next_idle_tick: Instant,
}

struct App {
    args: RunArgs,
    scene: Option<Scene>,
    script: Option<Script>,
    gfx: Option<Gfx>,
    error: Option<String>,
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
    if std::env::var_os("WGPU_BACKEND").is_none() {
        desc.backends = wgpu::Backends::all();
    }
    wgpu::Instance::new(desc)
}

impl Gfx {
    fn open(el: &ActiveEventLoop, args: &RunArgs, scene: Option<&Scene>) -> Result<Gfx, String> {
        let attrs = Window::default_attributes()
            .with_title("boids")
            .with_inner_size(PhysicalSize::new(args.width.max(1), args.height.max(1)));
        let window = Arc::new(el.create_window(attrs).map_err(|e| {
            format!(
                "cannot open a window: {}",
                without_source_location(&e.to_string())
            )
        })?);
        let instance = make_instance(el);
        let surface = instance
            .create_surface(window.clone())
            .map_err(|e| format!("cannot create a drawing surface: {e}"))?;
        let adapter = pick_adapter(&instance, Some(&surface)).map_err(|e| e.to_string())?;
        let ctx = GpuContext::from_adapter(instance, adapter).map_err(|e| e.to_string())?;
        let software = ctx.info.device_type == wgpu::DeviceType::Cpu;
        let caps = surface.get_capabilities(&ctx.adapter);
        let format = surface_format(&caps)
            .ok_or_else(|| format!("the surface offers no format on {}", ctx.describe()))?;
        let size = window.inner_size();
        let mut config = surface
            .get_default_config(&ctx.adapter, size.width.max(1), size.height.max(1))
            .ok_or_else(|| format!("the window surface is not supported by {}", ctx.describe()))?;
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
            args.boids,
            args.seed,
            default_boids,
            viewport.x / viewport.y,
            args.spawn,
        )
        .map_err(|e| e.to_string())?;
        let mut sim = crate::app::sim::Sim::new(&ctx, args.backend.kind(), &setup)
            .map_err(|e| e.to_string())?;
        for _ in 0..args.warmup {
            sim.step().map_err(|e| e.to_string())?;
        }
        sim.finish().map_err(|e| e.to_string())?;
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
        if let Some(p) = &args.scene {
            st.scene_path = p.display().to_string();
        }
        st.style.theme = args.theme;
        st.panel_open = args.panel;
        st.help_open = args.start_screen();
        st.start_screen = st.help_open;
        let wanted = args.msaa.unwrap_or(if software { 1 } else { 4 });
        if software {
            let count = if default_count {
                format!(
                    "{DEFAULT_BOIDS_SOFTWARE} boids by default ({DEFAULT_BOIDS_GPU} on a GPU), "
                )
            } else {
                String::new()
            };
            let msaa = if args.msaa.is_none() {
                "no MSAA (--msaa 4 to ask)"
            } else {
                "MSAA as asked"
            };
            st.note = Some(format!(
                "software adapter: {count}{msaa}, what is fastest there"
            ));
        }

        let samples = supported_samples(&ctx.adapter, format, wanted);
        let mut renderer = Renderer::new(&ctx.device, format, samples);
        renderer.set_actors(&ctx.queue, st.sim.actors());
        let egui_ctx = egui::Context::default();
        egui_ctx.set_theme(crate::app::ui::egui_theme(args.theme));
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
        let mut g = Gfx {
            window,
            surface,
            config,
            ctx,
            renderer,
            egui_ctx,
            egui_state,
            egui_renderer,
            st,
            frame,
            software,
            zero_size: false,
            occluded: false,
            needs_configure: true,
            renderer_actors_version: 0,
            capture_dir: args.capture_dir.clone(),
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
        // A surface larger than the largest texture cannot be configured: draw at the limit.
        let max = self.ctx.device.limits().max_texture_dimension_2d;
        self.config.width = size.width.min(max);
        self.config.height = size.height.min(max);
        self.needs_configure = true;
        self.st.camera.set_viewport(Vec2::new(
            self.config.width as f32,
            self.config.height as f32,
        ));
        // A view the user has not moved keeps showing the whole world.
        if !self.st.view_moved {
            self.st.fit_view();
        }
    }

    pub(crate) fn configure(&mut self) {
        self.surface.configure(&self.ctx.device, &self.config);
        self.needs_configure = false;
        self.frame.surface_configures += 1;
    }

    /// Replaces a lost surface with a new one on the same window.
    pub(crate) fn recreate_surface(&mut self) -> Result<(), String> {
        self.surface = self
            .ctx
            .instance
            .create_surface(self.window.clone())
            .map_err(|e| format!("cannot recreate the surface: {e}"))?;
        self.configure();
        Ok(())
    }

    fn apply_fullscreen(&mut self) {
        if self.st.immersive != self.fullscreen_applied {
            self.window
                .set_fullscreen(self.st.immersive.then_some(Fullscreen::Borderless(None)));
            self.fullscreen_applied = self.st.immersive;
        }
    }
}

impl App {
    fn fail(&mut self, el: &ActiveEventLoop, msg: String) {
        if self.error.is_none() {
            self.error = Some(msg);
        }
        el.exit();
    }

    /// One frame tick: script commands, then (unless the surface has zero size) UI, tools, step,
    /// render and present.
    fn tick(&mut self, el: &ActiveEventLoop) {
        let Some(g) = self.gfx.as_mut() else { return };
        g.frame.ticks += 1;
        let tick = g.frame.ticks;
        let cmds = self
            .script
            .as_mut()
            .map(|s| s.take_due(tick))
            .unwrap_or_default();
        for cmd in cmds {
            match cmd {
                ScriptCmd::Input(ev) => g.st.input(ev),
                ScriptCmd::Action(a) => g.st.apply(a),
                ScriptCmd::Minimize => g.resize(PhysicalSize::new(0, 0)),
                ScriptCmd::Restore => {
                    let s = g.window.inner_size();
                    g.resize(s);
                }
                ScriptCmd::Resize(w, h) => {
                    if let Some(s) = g.window.request_inner_size(PhysicalSize::new(w, h)) {
                        g.resize(s);
                    }
                }
                ScriptCmd::Capture(p) => g.frame.captures.push(p),
                ScriptCmd::Screenshot(p) => g.frame.screenshots.push(p),
                ScriptCmd::State(p) => {
                    let sim = &mut g.st.sim;
                    let saved = sim
                        .read_state()
                        .and_then(|boids| Ok((boids, sim.live_actors()?, sim.measures()?)))
                        .map_err(|e| e.to_string())
                        .and_then(|(boids, actors, m)| {
                            let cp = crate::model::state_csv::Checkpoint {
                                params: sim.params().clone(),
                                seed: sim.seed(),
                                step: sim.step_index(),
                                obstacles: actors.obstacles,
                                predators: actors
                                    .predators
                                    .iter()
                                    .map(crate::model::PredatorSpec::of)
                                    .collect(),
                                catches_total: m.catches_total(),
                                boids,
                            };
                            crate::model::state_csv::save_checkpoint(&p, &cp)
                                .map_err(|e| e.to_string())
                        });
                    if let Err(e) = saved {
                        // save_checkpoint's error already names the file.
                        return self.fail(el, format!("script `state`: {e}"));
                    }
                }
                ScriptCmd::Report(p) => {
                    if let Err(e) = RunReport::collect(g).and_then(|r| r.write(&p)) {
                        return self.fail(el, e);
                    }
                }
            }
        }
        let result = if g.zero_size {
            g.frame.skipped_zero_size += 1;
            Ok(())
        } else if g.occluded {
            g.frame.skipped_occluded += 1;
            Ok(())
        } else {
            crate::app::frame::render_frame(g)
        };
        if let Err(e) = result {
            return self.fail(el, e);
        }
        let g = self.gfx.as_mut().expect("gfx");
        g.apply_fullscreen();
        if let Err(e) = g.ctx.take_error() {
            return self.fail(el, format!("GPU error: {e}"));
        }
        let frames_done = self.args.frames.is_some_and(|n| tick >= n);
        if g.st.quit || frames_done {
            el.exit();
        }
    }
}

impl ApplicationHandler for App {
    fn resumed(&mut self, el: &ActiveEventLoop) {
        if self.gfx.is_some() || self.error.is_some() {
            return;
        }
        match Gfx::open(el, &self.args, self.scene.as_ref()) {
            Ok(g) => {
                eprintln!(
                    "boids: {} boids on {}, drawing on {} ({:?}, {} sample(s) per pixel)",
                    g.st.sim.len(),
                    g.st.sim.kind().name(),
                    g.ctx.describe(),
                    g.config.present_mode,
                    g.frame.samples
                );
                if let Some(s) = self.script.as_mut() {
                    for w in s.clamp_boid_counts(g.st.max_boids) {
                        eprintln!("warning: {w}");
                    }
                }
                self.gfx = Some(g);
            }
            Err(e) => self.fail(el, e),
        }
    }

    fn window_event(&mut self, el: &ActiveEventLoop, _id: WindowId, event: WindowEvent) {
        let Some(g) = self.gfx.as_mut() else { return };
        let response = g.egui_state.on_window_event(&g.window, &event);
        let egui_pointer = response.consumed || g.egui_ctx.egui_wants_pointer_input();
        match event {
            WindowEvent::CloseRequested | WindowEvent::Destroyed => el.exit(),
            WindowEvent::Resized(size) => g.resize(size),
            WindowEvent::Occluded(hidden) => g.occluded = hidden,
            WindowEvent::ScaleFactorChanged { scale_factor, .. } => {
                g.st.set_scale_factor(scale_factor as f32);
            }
            WindowEvent::CursorMoved { position, .. } => g.st.input(InputEvent::PointerMoved(
                Vec2::new(position.x as f32, position.y as f32),
            )),
            WindowEvent::CursorLeft { .. } => g.st.input(InputEvent::PointerLeft),
            WindowEvent::MouseInput { state, button, .. } => {
                let button = match button {
                    MouseButton::Left => Button::Left,
                    MouseButton::Middle => Button::Middle,
                    MouseButton::Right => Button::Right,
                    _ => return,
                };
                let pressed = state == ElementState::Pressed;
                // A press on the UI stays with the UI; releases always reach the app.
                if !pressed || !egui_pointer {
                    g.st.input(InputEvent::Button { button, pressed });
                }
            }
            WindowEvent::MouseWheel { delta, .. } if !egui_pointer => {
                let lines = match delta {
                    MouseScrollDelta::LineDelta(_, y) => y,
                    MouseScrollDelta::PixelDelta(p) => p.y as f32 / 40.0,
                };
                g.st.input(InputEvent::Wheel(lines));
            }
            WindowEvent::KeyboardInput { event, .. } => {
                let typing = g.egui_ctx.egui_wants_keyboard_input();
                if event.state == ElementState::Pressed && !event.repeat && !typing {
                    if let Some(k) = crate::app::keys::lookup(&event.logical_key) {
                        g.st.input(InputEvent::Key(k));
                    }
                }
            }
            WindowEvent::RedrawRequested => self.tick(el),
            _ => {}
        }
    }

    fn about_to_wait(&mut self, el: &ActiveEventLoop) {
        let Some(g) = self.gfx.as_mut() else { return };
        if g.zero_size || g.occluded {
            // Minimised or hidden: nothing is drawn or stepped; ticks continue slowly so scripts and
            // `--frames` still advance, without spinning the CPU.
            let now = Instant::now();
            if now >= g.next_idle_tick {
                g.next_idle_tick = now + Duration::from_millis(16);
                self.tick(el);
            }
            if let Some(g) = self.gfx.as_ref() {
                el.set_control_flow(ControlFlow::WaitUntil(g.next_idle_tick));
            }
        } else {
            el.set_control_flow(ControlFlow::Poll);
            g.window.request_redraw();
        }
    }
}

/// Opens the app and runs it until the window closes, Quit, or `--frames`; prints (and with
/// `--report` writes) the run report.
///
/// # Errors
/// A message for the user: no display (suggesting `boids headless` / `boids bench`), no adapter,
/// a bad scene or script, or a GPU error.
pub fn run(args: RunArgs) -> Result<RunReport, String> {
    let scene = match &args.scene {
        Some(p) => Some(Scene::load(p).map_err(|e| e.to_string())?),
        None => None,
    };
    let script = match &args.script {
        Some(p) => Some(Script::load(p)?),
        None => None,
    };
    let event_loop = EventLoop::new().map_err(|e| {
        format!(
            "cannot open a window: {}\nThe interactive app needs a display (X11 or Wayland). \
             Without one, use `boids headless` (simulation only), `boids bench` (benchmark \
             captures) or `boids snapshot --out FILE.png` (an offscreen picture).",
            without_source_location(&e.to_string())
        )
    })?;
    let mut app = App {
        args,
        scene,
        script,
        gfx: None,
        error: None,
    };
    event_loop
        .run_app(&mut app)
        .map_err(|e| format!("event loop: {e}"))?;
    if let Some(e) = app.error.take() {
        return Err(e);
    }
    let g = app
        .gfx
        .as_mut()
        .ok_or("the window never opened (no display event received)")?;
    if g.st.recording.is_some() {
        // Leaving while recording keeps the capture: written as if F9 had been pressed.
        crate::app::frame::toggle_recording(g);
    }
    let report = RunReport::collect(g)?;
    if let Some(path) = &app.args.report {
        report.write(path)?;
    }
    Ok(report)
}

/// winit's OS errors read `os error at <source file>:<line>: <message>`: the user needs the message.
fn without_source_location(msg: &str) -> String {
    msg.strip_prefix("os error at ")
        .and_then(|rest| rest.split_once(": "))
        .map_or_else(|| msg.to_string(), |(_, m)| m.to_string())
}
