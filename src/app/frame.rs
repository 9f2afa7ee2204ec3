//! One frame of the window: UI → tools → step → acquire → render (boids, then egui) → present,
//! plus scripted captures and the frame counters of the run report.

use std::path::PathBuf;
use std::time::Instant;

use crate::app::record::LiveRecording;
use crate::app::snapshot::write_png;
use crate::app::ui::{self, Hud};
use crate::app::window::Gfx;
use crate::gpu::GpuContext;
use crate::render::{read_texture, Offscreen, Renderer};

/// Presented frames ignored by the average fps (start-up, shader compilation).
pub const WARMUP_FRAMES: u64 = 10;

/// Frame counters and per-frame helpers.
pub(crate) struct Frame {
    /// Frame ticks (including ticks with nothing drawn).
    pub ticks: u64,
    /// Frames presented.
    pub presented: u64,
    /// Ticks skipped because the surface had zero size.
    pub skipped_zero_size: u64,
    /// Ticks skipped because the window was occluded.
    pub skipped_occluded: u64,
    /// Ticks whose surface texture could not be acquired (timeout, occluded, outdated, lost).
    pub skipped_acquire: u64,
    /// Surface (re)configurations.
    pub surface_configures: u32,
    /// Lost surfaces recreated.
    pub surfaces_recreated: u32,
    /// Captures requested by the script.
    pub captures: Vec<PathBuf>,
    /// Window screenshots requested by the script.
    pub screenshots: Vec<PathBuf>,
    /// Samples per pixel of the window.
    pub samples: u32,
    /// Present mode in use.
    pub present_mode: wgpu::PresentMode,
    /// Adapter line of the HUD.
    pub adapter: String,
    /// When the warm-up ended (presented == WARMUP_FRAMES).
    pub measure_start: Option<Instant>,
    /// Last presented frame.
    pub measure_end: Option<Instant>,
    last: Option<Instant>,
    fps_smooth: f32,
    capture_renderer: Option<Renderer>,
}

impl Frame {
    pub fn new(
        ctx: &GpuContext,
        samples: u32,
        present_mode: wgpu::PresentMode,
        software: bool,
    ) -> Frame {
        Frame {
            ticks: 0,
            presented: 0,
            skipped_zero_size: 0,
            skipped_occluded: 0,
            skipped_acquire: 0,
            surface_configures: 0,
            surfaces_recreated: 0,
            captures: Vec::new(),
            screenshots: Vec::new(),
            samples,
            present_mode,
            adapter: format!(
                "{} ({:?}{})",
                ctx.info.name,
                ctx.info.backend,
                if software { ", software" } else { "" }
            ),
            measure_start: None,
            measure_end: None,
            last: None,
            fps_smooth: 0.0,
            capture_renderer: None,
        }
    }

    /// Average presented frames per second after the warm-up (None before two measured frames).
    pub fn average_fps(&self) -> Option<f64> {
        let (a, b) = (self.measure_start?, self.measure_end?);
        let n = self.presented.checked_sub(WARMUP_FRAMES)?;
        let s = (b - a).as_secs_f64();
        (n > 0 && s > 0.0).then(|| n as f64 / s)
    }

    fn on_present(&mut self) {
        let now = Instant::now();
        self.presented += 1;
        if let Some(last) = self.last {
            let dt = (now - last).as_secs_f32().max(1e-6);
            let fps = 1.0 / dt;
            self.fps_smooth = if self.fps_smooth == 0.0 {
                fps
            } else {
                self.fps_smooth * 0.9 + fps * 0.1
            };
        }
        self.last = Some(now);
        if self.presented == WARMUP_FRAMES {
            self.measure_start = Some(now);
        }
        self.measure_end = Some(now);
    }
}

/// Renders the current view offscreen with the same renderer code and writes it as a PNG.
fn capture(g: &mut Gfx, path: &std::path::Path) -> Result<(), String> {
    let samples = g.frame.samples;
    let r = g
        .frame
        .capture_renderer
        .get_or_insert_with(|| Renderer::new(&g.ctx.device, Offscreen::FORMAT, samples));
    r.set_actors(&g.ctx.queue, g.st.sim.actors());
    let vp = g.st.camera.viewport;
    let target = Offscreen::new(&g.ctx.device, vp.x as u32, vp.y as u32);
    let mut enc = g
        .ctx
        .device
        .create_command_encoder(&wgpu::CommandEncoderDescriptor {
            label: Some("capture"),
        });
    let state = g.st.sim.state_buffers();
    let n = g.st.sim.len() as u32;
    r.record(
        &mut enc,
        target.view(),
        &g.ctx.queue,
        &state,
        n,
        &g.st.camera,
        &g.st.style,
    );
    g.ctx.queue.submit([enc.finish()]);
    let img = target
        .read(&g.ctx.device, &g.ctx.queue)
        .map_err(|e| e.to_string())?;
    write_png(path, &img)
}

/// One drawn frame. Errors are fatal (a lost device, a failed capture write).
pub(crate) fn render_frame(g: &mut Gfx) -> Result<(), String> {
    // UI first: its changes apply to this frame's step.
    let raw = g.egui_state.take_egui_input(&g.window);
    let hud = Hud {
        fps: g.frame.fps_smooth,
        adapter: g.frame.adapter.clone(),
    };
    let mut actions = Vec::new();
    // Every frame: the theme can change from the panel, a key or a script, before or during the pass.
    g.egui_ctx.set_theme(ui::egui_theme(g.st.style.theme));
    let out = g.egui_ctx.run_pass(raw, |ctx| {
        actions = ui::draw(ctx, &g.st, &hud);
    });
    g.egui_state
        .handle_platform_output(&g.window, out.platform_output);
    for a in actions {
        g.st.apply(a);
    }
    if std::mem::take(&mut g.st.record_toggle) {
        toggle_recording(g);
    }

    g.st.update_tools();
    if !g.st.paused {
        // The GPU step is timed (with a queue drain) on one frame in 30.
        let measure = g.frame.ticks % 30 == 1 || g.st.sim.step_ms().is_none();
        g.st.sim
            .step_timed(measure)
            .map_err(|e| format!("simulation step: {e}"))?;
    }
    if g.renderer_actors_version != g.st.actors_version {
        g.renderer.set_actors(&g.ctx.queue, g.st.sim.actors());
        g.renderer_actors_version = g.st.actors_version;
    }

    let captures = std::mem::take(&mut g.frame.captures);
    for p in captures {
        capture(g, &p)?;
    }

    if g.needs_configure {
        g.configure();
    }
    let texture = match g.surface.get_current_texture() {
        wgpu::CurrentSurfaceTexture::Success(t) => t,
        wgpu::CurrentSurfaceTexture::Suboptimal(t) => {
            g.needs_configure = true;
            t
        }
        wgpu::CurrentSurfaceTexture::Timeout
        | wgpu::CurrentSurfaceTexture::Occluded
        | wgpu::CurrentSurfaceTexture::Validation => {
            g.frame.skipped_acquire += 1;
            return Ok(());
        }
        wgpu::CurrentSurfaceTexture::Outdated => {
            g.frame.skipped_acquire += 1;
            g.configure();
            return Ok(());
        }
        wgpu::CurrentSurfaceTexture::Lost => {
            g.frame.skipped_acquire += 1;
            g.frame.surfaces_recreated += 1;
            return g.recreate_surface();
        }
    };
    // The surface texture may lag a resize by a frame: draw at its own size.
    let size = texture.texture.size();
    let mut camera = g.st.camera;
    camera.set_viewport(glam::Vec2::new(size.width as f32, size.height as f32));
    let view = texture.texture.create_view(&Default::default());
    let device = g.ctx.device.clone();
    let queue = g.ctx.queue.clone();
    let mut enc = device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
        label: Some("frame"),
    });
    let state = g.st.sim.state_buffers();
    let n = g.st.sim.len() as u32;
    g.renderer
        .record(&mut enc, &view, &queue, &state, n, &camera, &g.st.style);

    let jobs = g.egui_ctx.tessellate(out.shapes, out.pixels_per_point);
    let screen = egui_wgpu::ScreenDescriptor {
        size_in_pixels: [size.width, size.height],
        pixels_per_point: out.pixels_per_point,
    };
    for (id, deltas) in &out.textures_delta.set {
        for delta in deltas {
            g.egui_renderer.update_texture(&device, &queue, *id, delta);
        }
    }
    let user = g
        .egui_renderer
        .update_buffers(&device, &queue, &mut enc, &jobs, &screen);
    {
        let pass = enc.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("egui"),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view: &view,
                resolve_target: None,
                depth_slice: None,
                ops: wgpu::Operations {
                    load: wgpu::LoadOp::Load,
                    store: wgpu::StoreOp::Store,
                },
            })],
            depth_stencil_attachment: None,
            timestamp_writes: None,
            occlusion_query_set: None,
            multiview_mask: None,
        });
        g.egui_renderer
            .render(&mut pass.forget_lifetime(), &jobs, &screen);
    }
    queue.submit(user.into_iter().chain([enc.finish()]));
    for id in &out.textures_delta.free {
        g.egui_renderer.free_texture(id);
    }
    for p in std::mem::take(&mut g.frame.screenshots) {
        if !g.config.usage.contains(wgpu::TextureUsages::COPY_SRC) {
            return Err(
                "this surface cannot be copied (no COPY_SRC): take screenshots \
                        with an external tool"
                    .into(),
            );
        }
        let img = read_texture(&device, &queue, &texture.texture).map_err(|e| e.to_string())?;
        write_png(&p, &img)?;
    }
    g.window.pre_present_notify();
    queue.present(texture);
    g.frame.on_present();
    if g.st.recording.is_some() {
        let stages = g.st.sim.stage_times();
        let (kind, n, step) = (g.st.sim.kind(), g.st.sim.len(), g.st.sim.steps());
        let timestamps = g.st.sim.has_timestamps();
        let params = g.st.sim.params().clone();
        if let Some(rec) = g.st.recording.as_mut() {
            rec.frame(kind, n, step, &stages, timestamps, &params);
        }
    }
    Ok(())
}

/// F9: starts a live capture, or stops it and writes its files under `capture_dir`.
pub(crate) fn toggle_recording(g: &mut Gfx) {
    match g.st.recording.take() {
        Some(rec) => {
            let frames = rec.frames();
            let measures = g.st.sim.measures().ok();
            match rec.finish(&g.capture_dir, measures) {
                Ok(dir) => g.st.say(format!(
                    "capture of {frames} frames written to {}",
                    dir.display()
                )),
                Err(e) => g.st.say(format!("capture not written: {e}")),
            }
        }
        None => {
            let mode = format!("{:?}", g.frame.present_mode);
            let rec = LiveRecording::start(&g.ctx, &mode, g.st.sim.params());
            g.st.recording = Some(rec);
            g.st.say("recording a live capture: F9 stops and writes it");
        }
    }
}
