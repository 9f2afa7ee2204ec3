//! What a frame writes besides the window: scripted captures of the view, the frames of a video
//! in progress ([`crate::app::recording`]) and its start and stop, and F9's live capture
//! ([`crate::app::record`]), each drawn offscreen by the window's renderer code (no UI).

use crate::app::error::AppError;
use crate::app::frame_times::FrameTimes;
use crate::app::gfx::Gfx;
use crate::app::record::{FrameSample, LiveRecording};
use crate::app::recording::VideoRecording;
use crate::backend::BackendKind;
use crate::io::write_picture;
use crate::render::{Offscreen, Renderer};

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
pub(crate) fn capture(g: &mut Gfx, path: &std::path::Path) -> Result<(), AppError> {
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
pub(crate) fn handle_video_requests(g: &mut Gfx) {
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
pub(crate) fn record_video_frame(g: &mut Gfx) -> Result<(), AppError> {
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

/// Adds this frame to F9's live capture, when one is recording: its `steps`, the GPU timer
/// `scopes` that came back, its `times` and, on the CPU backend after a step, the stage times.
pub(crate) fn sample_live_capture(
    g: &mut Gfx,
    steps: u32,
    scopes: Vec<wgpu_profiler::GpuTimerQueryResult>,
    times: FrameTimes,
) {
    if g.st.captures.live.is_none() {
        return;
    }
    let kind = g.st.run.sim.kind();
    // CPU stage times are new whenever the frame ran a step; GPU ones come as scopes.
    let cpu_stages = (kind != BackendKind::Gpu && steps > 0).then(|| g.st.run.sim.stage_times());
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
