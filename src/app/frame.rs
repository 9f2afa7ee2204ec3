//! One frame of the window, as named steps: the UI ([`crate::app::frame_ui`]) → the captures'
//! and sound's requests → tools and steps (as many as the clock asks, or one frame interval's
//! while a video is recorded) → what follows a step (the plot's sample, the actors, the GPU
//! timers) → scripted captures and video frames ([`crate::app::frame_captures`]) → acquire →
//! draw (boids, then the UI layer) → screenshots → present → F9's live capture. What is kept
//! between frames is `Frame` ([`crate::app::frame_state`]); where each frame's time went,
//! [`FrameTimes`].

use web_time::Instant;

use crate::app::error::AppError;
use crate::app::frame_captures::{
    capture, handle_video_requests, record_video_frame, sample_live_capture, toggle_recording,
};
use crate::app::frame_times::FrameTimes;
use crate::app::frame_ui::{draw_ui, ui_pass, UiFrame};
use crate::app::gfx::Gfx;
use crate::io::write_picture;
use crate::render::read_texture;

fn since_ms(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1e3
}

/// One drawn frame, as its named steps. Errors are fatal (a lost device, a failed capture write).
pub(crate) fn render_frame(g: &mut Gfx) -> Result<(), AppError> {
    let mut times = FrameTimes::default();
    // UI first: its changes apply to this frame's step.
    let t = Instant::now();
    let ui = ui_if_due(g);
    times.ui_ms = Some(since_ms(t));
    take_requests(g);
    // A change of the flock whose state read came back (only a browser tab has one pending).
    if g.st.run.pending_flock.is_some() {
        g.st.poll_flock_read();
        g.ui_layer.invalidate();
    }

    let t = Instant::now();
    g.st.update_tools();
    let video_frame = g.st.captures.video.active.is_some() && !g.st.run.paused;
    let steps = run_steps(g)?;
    g.frame.steps_last_frame = steps;
    times.step_ms = Some(since_ms(t));
    sample_history(g).map_err(AppError::Step)?;
    upload_actors(g);
    let scopes = take_gpu_scopes(g);

    for p in std::mem::take(&mut g.frame.captures) {
        capture(g, &p)?;
    }
    if video_frame {
        record_video_frame(g)?;
    }

    let t = Instant::now();
    let Some(texture) = acquire(g)? else {
        return Ok(());
    };
    let acquire_ms = since_ms(t);
    let t = Instant::now();
    draw(g, &texture, ui.as_ref());
    times.render_ms = Some(since_ms(t));
    take_screenshots(g, &texture)?;
    let t = Instant::now();
    g.window.pre_present_notify();
    g.ctx.queue.present(texture);
    times.present_ms = Some(acquire_ms + since_ms(t));
    times.frame_ms = g.frame.on_present();
    g.frame.times.smooth(&times);
    sample_live_capture(g, steps, scopes, times);
    Ok(())
}

/// One pass of the UI, only when it can have changed (input, a resize, egui's own repaint, else
/// twice a second for the HUD): the last drawing stays in the UI layer, composited every frame.
fn ui_if_due(g: &mut Gfx) -> Option<UiFrame> {
    let size = (g.config.width, g.config.height);
    g.ui_layer.due(Instant::now(), size).then(|| ui_pass(g))
}

/// What the UI, keys and scripts asked of the frame loop: F9's live capture started or stopped,
/// a video started or stopped, the ambient sound on or off (and why it cannot play).
fn take_requests(g: &mut Gfx) {
    if std::mem::take(&mut g.st.captures.toggle) {
        toggle_recording(g);
    }
    handle_video_requests(g);
    g.sound.set_on(g.st.sound_on, g.st.ui.immersive);
    if let Some(m) = g.sound.take_message() {
        g.st.warn(m);
    }
}

/// The obstacles and predators given to the renderer again when they changed.
fn upload_actors(g: &mut Gfx) {
    if g.renderer_actors_version != g.st.run.actors_version {
        g.renderer.set_actors(&g.ctx.queue, g.st.run.sim.actors());
        g.renderer_actors_version = g.st.run.actors_version;
    }
}

/// GPU timer scopes that came back since the last frame (never a stale repeat), the last one's
/// time kept for the HUD. A software adapter's are taken and dropped: while the window pipelines
/// frames they do not bracket the passes (lavapipe: rules 0.07 ms here against 23.8 ms in `boids
/// bench`, 20 000 boids).
fn take_gpu_scopes(g: &mut Gfx) -> Vec<wgpu_profiler::GpuTimerQueryResult> {
    let scopes = g.st.run.sim.take_timer_results();
    let scopes = if g.software { Vec::new() } else { scopes };
    if let Some(ms) = scopes.iter().rev().find_map(crate::render::sim::scope_ms) {
        g.frame.gpu_passes_ms = Some(ms);
    }
    scopes
}

/// The surface's next texture, or `None` when this frame is given up (timed out, occluded,
/// outdated: reconfigured; lost: the surface made again), counted in the frame's report.
fn acquire(g: &mut Gfx) -> Result<Option<wgpu::SurfaceTexture>, AppError> {
    if g.needs_configure {
        g.configure();
    }
    match g.surface.get_current_texture() {
        wgpu::CurrentSurfaceTexture::Success(t) => Ok(Some(t)),
        wgpu::CurrentSurfaceTexture::Suboptimal(t) => {
            g.needs_configure = true;
            Ok(Some(t))
        }
        wgpu::CurrentSurfaceTexture::Timeout
        | wgpu::CurrentSurfaceTexture::Occluded
        | wgpu::CurrentSurfaceTexture::Validation => {
            g.frame.skipped_acquire += 1;
            Ok(None)
        }
        wgpu::CurrentSurfaceTexture::Outdated => {
            g.frame.skipped_acquire += 1;
            g.configure();
            Ok(None)
        }
        wgpu::CurrentSurfaceTexture::Lost => {
            g.frame.skipped_acquire += 1;
            g.frame.surfaces_recreated += 1;
            g.recreate_surface().map(|()| None)
        }
    }
}

/// Draws the world into `texture` (at the texture's own size, which may lag a resize by a
/// frame), then the UI pass when there was one into the UI layer, then composites the layer; one
/// submission.
fn draw(g: &mut Gfx, texture: &wgpu::SurfaceTexture, ui: Option<&UiFrame>) {
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
    if let Some(ui) = ui {
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
    if let Some(ui) = ui {
        for id in &ui.free {
            g.egui_renderer.free_texture(id);
        }
    }
}

/// The script's window screenshots of this frame, read from `texture` (UI included).
fn take_screenshots(g: &mut Gfx, texture: &wgpu::SurfaceTexture) -> Result<(), AppError> {
    for p in std::mem::take(&mut g.frame.screenshots) {
        if !g.config.usage.contains(wgpu::TextureUsages::COPY_SRC) {
            return Err(AppError::NoScreenshotCopy);
        }
        let img = read_texture(&g.ctx.device, &g.ctx.queue, &texture.texture)?;
        write_picture(&p, &img)?;
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
        // Only the frame's last step's neighbour counts are drawn or sampled.
        g.st.run.sim.store_neighbor_counts(i + 1 == n);
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
