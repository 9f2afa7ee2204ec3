//! One frame of the window: UI → tools → steps (as many as the clock asks, or one frame interval's
//! while a video is recorded) → acquire → render (boids, then egui) → present, plus scripted
//! captures, video frames ([`crate::app::recording`]) and F9's live captures. What is kept
//! between frames is `Frame` ([`crate::app::frame_state`]); where each frame's time went,
//! [`FrameTimes`].

use std::time::Instant;

use crate::app::error::AppError;
use crate::app::frame_times::FrameTimes;
use crate::app::gfx::Gfx;
use crate::app::record::{FrameSample, LiveRecording};
use crate::app::recording::VideoRecording;
use crate::app::ui::{self, Hud};
use crate::backend::BackendKind;
use crate::io::write_picture;
use crate::render::{read_texture, Offscreen, Renderer};

fn since_ms(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1e3
}

/// Renders the current view offscreen, `size` px, with the same renderer code (no UI).
fn render_offscreen(g: &mut Gfx, size: (u32, u32)) -> Result<image::RgbaImage, AppError> {
    let samples = g.frame.samples;
    let r = g
        .frame
        .capture_renderer
        .get_or_insert_with(|| Renderer::new(&g.ctx.device, Offscreen::FORMAT, samples));
    r.set_actors(&g.ctx.queue, g.st.run.sim.actors());
    let target = Offscreen::new(&g.ctx.device, size.0, size.1);
    let mut camera = g.st.view.camera;
    camera.set_viewport(target.viewport());
    let mut enc = g
        .ctx
        .device
        .create_command_encoder(&wgpu::CommandEncoderDescriptor {
            label: Some("capture"),
        });
    let state = g.st.run.sim.state_buffers();
    let n = g.st.run.sim.len() as u32;
    let style = g.st.render_style();
    g.st.run.sim.set_renderer_predators(r);
    r.record(
        &mut enc,
        target.view(),
        &g.ctx.queue,
        &state,
        n,
        &camera,
        &style,
    );
    g.ctx.queue.submit([enc.finish()]);
    Ok(target.read(&g.ctx.device, &g.ctx.queue)?)
}

/// Renders the current view offscreen and writes it as a picture.
fn capture(g: &mut Gfx, path: &std::path::Path) -> Result<(), AppError> {
    let vp = g.st.view.camera.viewport;
    let img = render_offscreen(g, (vp.x as u32, vp.y as u32))?;
    Ok(write_picture(path, &img)?)
}

/// Starts a video recording into `dir` (`--record`, or the key's new folder), stopping after
/// `limit` frames when given.
///
/// # Errors
/// [`crate::app::recording::RecordingError`]: the folder cannot be made or holds frames already.
pub(crate) fn start_video(
    g: &mut Gfx,
    dir: &std::path::Path,
    limit: Option<u64>,
) -> Result<(), crate::app::recording::RecordingError> {
    let dt = g.st.run.sim.params().dt as f64;
    let rec = VideoRecording::start(dir, g.record_fps, limit, dt, g.st.run.clock.speed)?;
    let shown = crate::io::show_path(rec.dir());
    g.st.captures.video.active = Some(rec);
    g.st.run.clock.reset();
    g.st.say(format!(
        "recording video frames into {shown} at {} frames per simulated second (V stops)",
        g.record_fps
    ));
    Ok(())
}

/// The key's or a script's start or stop, and the messages of recordings that finished.
fn handle_video_requests(g: &mut Gfx) {
    match g.st.captures.video.request.take() {
        Some(true) if g.st.captures.video.active.is_none() => {
            let stamp = crate::run::provenance::now_folder_timestamp();
            let mut dir = g.capture_dir.join(format!("video-{stamp}"));
            let mut k = 2;
            while dir.exists() {
                dir = g.capture_dir.join(format!("video-{stamp}-{k}"));
                k += 1;
            }
            if let Err(e) = start_video(g, &dir, None) {
                g.st.warn(format!("recording not started: {e}"));
            }
        }
        Some(false) if g.st.captures.video.active.is_some() => {
            g.st.captures.video.stop();
            g.st.run.clock.reset();
            // The overlay says it is writing until it is done (no message of its own).
        }
        _ => {}
    }
    for (m, problem) in g.st.captures.video.poll() {
        if problem {
            g.st.warn(m);
        } else {
            g.st.say(m);
        }
    }
}

/// Records this frame into the video in progress; stops it at its limit or on a failed write
/// (and leaves the app when it was `--record-frames`'s).
fn record_video_frame(g: &mut Gfx) -> Result<(), AppError> {
    let vp = g.st.view.camera.viewport;
    let Some(size) =
        g.st.captures
            .video
            .active
            .as_ref()
            .map(|r| r.frame_size((vp.x as u32, vp.y as u32)))
    else {
        return Ok(());
    };
    let img = render_offscreen(g, size)?;
    let Some(rec) = g.st.captures.video.active.as_mut() else {
        return Ok(());
    };
    let pushed = rec.push(img);
    let (done, exit) = (rec.done(), rec.exit_when_done);
    if let Err(e) = pushed {
        g.st.captures.video.stop();
        g.st.warn(format!("recording stopped: {e}"));
    } else if done {
        g.st.captures.video.stop();
        g.st.run.clock.reset();
        if exit {
            g.st.quit = true;
        } else {
            g.st.say("recording reached its frame count: writing the MP4");
        }
    }
    Ok(())
}

/// The steps of this frame: the clock's plan (or the single step asked for while paused), each
/// submitted (GPU) or run (CPU); the first is timed by the wall clock one frame in 30.
fn run_steps(g: &mut Gfx) -> Result<u32, AppError> {
    let now = Instant::now();
    let frame_s = g.frame.last_tick.map_or(0.0, |t| (now - t).as_secs_f64());
    g.frame.last_tick = Some(now);
    let dt = g.st.run.sim.params().dt as f64;
    let speed = g.st.run.clock.speed;
    let n = if g.st.run.paused {
        g.st.run.clock.reset();
        u32::from(std::mem::take(&mut g.st.run.step_once))
    } else if let Some(rec) = g.st.captures.video.active.as_mut() {
        // Recording: one frame interval of simulated time per frame, whatever the display's.
        rec.next_steps(dt, speed)
    } else {
        let cost = g.st.run.sim.step_ms().map(|ms| ms / 1e3);
        g.st.run.clock.plan(frame_s, dt, cost)
    };
    for i in 0..n {
        // Without trusted timestamps the GPU step is timed by the wall clock, with a queue
        // drain, on one frame in 30; with them it is never waited for.
        let measure = i == 0
            && !g.st.run.sim.step_timed_by_timestamps()
            && (g.frame.ticks % 30 == 1 || g.st.run.sim.step_ms().is_none());
        g.st.run.sim.step_timed(measure).map_err(AppError::Step)?;
    }
    g.st.run.clock.ran(n, dt);
    // The trails fade by the simulated time the frame advanced.
    let sim_s = (n as f64 * dt) as f32;
    g.renderer.advance(sim_s);
    if let Some(r) = g.frame.capture_renderer.as_mut() {
        r.advance(sim_s);
    }
    Ok(n)
}

/// A sample of the panel's live plot, asked for once a second while the panel is open (nothing
/// is read back while it is closed) and added when it has come back, a frame or more later: the
/// measures and, up to [`crate::app::history::CENSUS_MAX_BOIDS`] boids, the flock census of the
/// state ([`crate::app::sample`]; no queue drain).
fn sample_history(g: &mut Gfx) -> Result<(), crate::simulation::SimError> {
    let now = Instant::now();
    if let Some(p) = g.frame.pending_sample.as_mut() {
        if let Some(sample) = p.poll(&g.st.run.sim)? {
            let same_model = p.order_name == g.st.run.history.order_name;
            g.frame.pending_sample = None;
            if same_model {
                g.st.run.history.push(now, sample);
            }
        }
        return Ok(());
    }
    if !g.st.ui.panel_open || g.st.ui.immersive || !g.st.run.history.due(now) {
        return Ok(());
    }
    let t = g.st.run.clock.sim_time();
    let name = g.st.run.history.order_name;
    g.frame.pending_sample = Some(crate::app::sample::PendingSample::request(
        &mut g.st.run.sim,
        t,
        name,
    )?);
    Ok(())
}

/// What one pass of the UI left to draw: egui's meshes, its texture changes, its scale, and when
/// it wants to be drawn again.
struct UiFrame {
    jobs: Vec<egui::ClippedPrimitive>,
    /// The textures to free once the frame is submitted (new ones are uploaded by the pass).
    free: Vec<egui::TextureId>,
    pixels_per_point: f32,
    repaint: std::time::Duration,
}

/// One pass of the UI (the HUD, panel, tool bar, help, messages): its actions applied, its areas
/// kept for reports, its meshes tessellated.
fn ui_pass(g: &mut Gfx) -> UiFrame {
    let raw = g.egui_state.take_egui_input(&g.window);
    let hud = Hud {
        fps: g.frame.fps_smooth,
        adapter: g.frame.adapter.clone(),
        times: g.frame.times,
        steps_last_frame: g.frame.steps_last_frame,
        gpu_passes_ms: g.frame.gpu_passes_ms,
        msaa: g.frame.samples,
        software: g.software,
        sound: g.sound.status(),
    };
    let mut ui_out = ui::UiOut::default();
    // Every pass: the theme can change from the panel, a key or a script, before or during it.
    g.egui_ctx.set_theme(ui::egui_theme(g.st.view.style.theme));
    let out = g.egui_ctx.run_pass(raw, |ctx| {
        ui_out = ui::draw(ctx, &g.st, &hud);
    });
    g.egui_state
        .handle_platform_output(&g.window, out.platform_output);
    let ppp = out.pixels_per_point;
    let px = |r: &egui::Rect| [r.min.x * ppp, r.min.y * ppp, r.max.x * ppp, r.max.y * ppp];
    g.frame.ui_areas = ui_out.areas.iter().map(|(n, r)| (*n, px(r))).collect();
    g.frame.ui_sections = ui_out
        .sections
        .iter()
        .map(|s| (s.title.clone(), px(&s.header), s.open))
        .collect();
    g.frame.ui_params = std::mem::take(&mut ui_out.params);
    let repaint = out
        .viewport_output
        .get(&egui::ViewportId::ROOT)
        .map_or(std::time::Duration::MAX, |v| v.repaint_delay);
    let jobs = g.egui_ctx.tessellate(out.shapes, ppp);
    // Texture changes at once, so that a frame given up later (no surface texture) loses none.
    for (id, deltas) in &out.textures_delta.set {
        for delta in deltas {
            g.egui_renderer
                .update_texture(&g.ctx.device, &g.ctx.queue, *id, delta);
        }
    }
    for a in ui_out.actions {
        g.st.apply(a);
    }
    UiFrame {
        jobs,
        free: out.textures_delta.free.iter().copied().collect(),
        pixels_per_point: ppp,
        repaint,
    }
}

/// Draws `ui` into the UI layer (`size` px) with `enc`, cleared first, and notes its tiles.
fn draw_ui(g: &mut Gfx, enc: &mut wgpu::CommandEncoder, ui: &UiFrame, size: (u32, u32)) {
    let device = g.ctx.device.clone();
    let queue = g.ctx.queue.clone();
    let screen = egui_wgpu::ScreenDescriptor {
        size_in_pixels: [size.0, size.1],
        pixels_per_point: ui.pixels_per_point,
    };
    let user = g
        .egui_renderer
        .update_buffers(&device, &queue, enc, &ui.jobs, &screen);
    queue.submit(user);
    let view = g.ui_layer.view(&device, size).clone();
    {
        let pass = enc.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("egui"),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view: &view,
                resolve_target: None,
                depth_slice: None,
                ops: wgpu::Operations {
                    load: wgpu::LoadOp::Clear(wgpu::Color::TRANSPARENT),
                    store: wgpu::StoreOp::Store,
                },
            })],
            depth_stencil_attachment: None,
            timestamp_writes: None,
            occlusion_query_set: None,
            multiview_mask: None,
        });
        g.egui_renderer
            .render(&mut pass.forget_lifetime(), &ui.jobs, &screen);
    }
    g.ui_layer.drawn(
        &device,
        &queue,
        &ui.jobs,
        ui.pixels_per_point,
        Instant::now(),
        ui.repaint,
    );
}

/// One drawn frame. Errors are fatal (a lost device, a failed capture write).
pub(crate) fn render_frame(g: &mut Gfx) -> Result<(), AppError> {
    let mut times = FrameTimes::default();
    // UI first: its changes apply to this frame's step. Only when it can have changed (input, a
    // resize, egui's own repaint, else twice a second for the HUD): the last drawing stays in the
    // UI layer, composited every frame.
    let t = Instant::now();
    let ui_size = (g.config.width, g.config.height);
    let ui = if g.ui_layer.due(t, ui_size) {
        Some(ui_pass(g))
    } else {
        None
    };
    times.ui_ms = Some(since_ms(t));
    if std::mem::take(&mut g.st.captures.toggle) {
        toggle_recording(g);
    }
    handle_video_requests(g);
    g.sound.set_on(g.st.sound_on, g.st.ui.immersive);
    if let Some(m) = g.sound.take_message() {
        g.st.warn(m);
    }

    let t = Instant::now();
    g.st.update_tools();
    let video_frame = g.st.captures.video.active.is_some() && !g.st.run.paused;
    let steps = run_steps(g)?;
    g.frame.steps_last_frame = steps;
    times.step_ms = Some(since_ms(t));
    sample_history(g).map_err(AppError::Step)?;
    if g.renderer_actors_version != g.st.run.actors_version {
        g.renderer.set_actors(&g.ctx.queue, g.st.run.sim.actors());
        g.renderer_actors_version = g.st.run.actors_version;
    }
    // GPU timer scopes that came back since the last frame (never a stale repeat). A software
    // adapter's are taken and dropped: while the window pipelines frames they do not bracket the
    // passes (lavapipe: rules 0.07 ms here against 23.8 ms in `boids bench`, 20 000 boids).
    let scopes = g.st.run.sim.take_timer_results();
    let scopes = if g.software { Vec::new() } else { scopes };
    if let Some(ms) = scopes.iter().rev().find_map(crate::render::sim::scope_ms) {
        g.frame.gpu_passes_ms = Some(ms);
    }

    let captures = std::mem::take(&mut g.frame.captures);
    for p in captures {
        capture(g, &p)?;
    }
    if video_frame {
        record_video_frame(g)?;
    }

    let t = Instant::now();
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
    let mut present_ms = since_ms(t);

    let t = Instant::now();
    // The surface texture may lag a resize by a frame: draw at its own size.
    let size = texture.texture.size();
    let mut camera = g.st.view.camera;
    camera.set_viewport(glam::Vec2::new(size.width as f32, size.height as f32));
    let view = texture.texture.create_view(&Default::default());
    let device = g.ctx.device.clone();
    let queue = g.ctx.queue.clone();
    let mut enc = device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
        label: Some("frame"),
    });
    let state = g.st.run.sim.state_buffers();
    let n = g.st.run.sim.len() as u32;
    let style = g.st.render_style();
    g.st.run.sim.set_renderer_predators(&mut g.renderer);
    g.renderer
        .record(&mut enc, &view, &queue, &state, n, &camera, &style);

    if let Some(ui) = &ui {
        draw_ui(g, &mut enc, ui, (size.width, size.height));
    }
    {
        let mut pass = enc.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("ui layer"),
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
        g.ui_layer.composite(&mut pass);
    }
    queue.submit([enc.finish()]);
    if let Some(ui) = &ui {
        for id in &ui.free {
            g.egui_renderer.free_texture(id);
        }
    }
    times.render_ms = Some(since_ms(t));
    for p in std::mem::take(&mut g.frame.screenshots) {
        if !g.config.usage.contains(wgpu::TextureUsages::COPY_SRC) {
            return Err(AppError::NoScreenshotCopy);
        }
        let img = read_texture(&device, &queue, &texture.texture)?;
        write_picture(&p, &img)?;
    }
    let t = Instant::now();
    g.window.pre_present_notify();
    queue.present(texture);
    present_ms += since_ms(t);
    times.present_ms = Some(present_ms);
    times.frame_ms = g.frame.on_present();
    g.frame.times.smooth(&times);
    if g.st.captures.live.is_some() {
        let kind = g.st.run.sim.kind();
        // CPU stage times are new whenever the frame ran a step; GPU ones come as scopes.
        let cpu_stages =
            (kind != BackendKind::Gpu && steps > 0).then(|| g.st.run.sim.stage_times());
        let sample = FrameSample {
            backend: kind,
            boids: g.st.run.sim.len(),
            step: g.st.run.sim.steps(),
            steps,
            cpu_stages,
            scopes,
            times,
        };
        let params = g.st.run.sim.params().clone();
        if let Some(rec) = g.st.captures.live.as_mut() {
            rec.frame(sample, &params);
        }
    }
    Ok(())
}

/// F9: starts a live capture, or stops it and writes its files under `capture_dir`.
pub(crate) fn toggle_recording(g: &mut Gfx) {
    match g.st.captures.live.take() {
        Some(rec) => {
            let frames = rec.frames();
            let measures = g.st.run.sim.measures().ok();
            match rec.finish(&g.capture_dir, measures) {
                Ok(dir) => g.st.say(format!(
                    "capture of {frames} frames written to {}",
                    dir.display()
                )),
                Err(e) => g.st.warn(format!("capture not written: {e}")),
            }
        }
        None => {
            let mode = format!("{:?}", g.frame.present_mode);
            let rec = LiveRecording::start(&g.ctx, &mode, g.st.run.sim.params(), g.software);
            g.st.captures.live = Some(rec);
            g.st.say("recording a live capture: F9 stops and writes it");
        }
    }
}
