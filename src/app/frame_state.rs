//! What the frame loop keeps from one frame to the next (`Frame`): the counters of the run
//! report, the fps and frame budget of the HUD, the script's pending captures and screenshots,
//! and the offscreen renderer captures use.

use std::path::PathBuf;
use web_time::Instant;

use crate::app::frame_times::FrameTimes;
use crate::gpu::GpuContext;
use crate::render::Renderer;

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
    /// When the window opened (the run report's wall time counts from here).
    pub opened: Instant,
    /// Smoothed frame budget (HUD).
    pub times: FrameTimes,
    /// Steps the last frame took.
    pub steps_last_frame: u32,
    /// GPU time of the newest step whose timestamp scopes came back (ms).
    pub gpu_passes_ms: Option<f64>,
    /// The panel's live-plot sample in flight (read without waiting).
    pub pending_sample: Option<crate::app::sample::PendingSample>,
    /// The UI areas of the last frame: name and [x0, y0, x1, y1] in physical px.
    pub ui_areas: Vec<(&'static str, [f32; 4])>,
    /// The panel's sections of the last frame: title, header [x0, y0, x1, y1] (physical px), open.
    pub ui_sections: Vec<(String, [f32; 4], bool)>,
    /// The parameters the panel drew a widget for in the last frame.
    pub ui_params: Vec<&'static str>,
    /// Where the panel's named widgets were in the last frame (`UiOut::widgets`), physical px.
    pub ui_widgets: Vec<(String, [f32; 4])>,
    /// When the last frame ticked with a drawable surface (the clock's frame time).
    pub last_tick: Option<Instant>,
    /// When the warm-up ended (presented == WARMUP_FRAMES).
    pub measure_start: Option<Instant>,
    /// Last presented frame.
    pub measure_end: Option<Instant>,
    /// Presented frames per second, smoothed (HUD).
    pub fps_smooth: f32,
    /// The renderer of scripted captures (offscreen format), made at the first.
    pub capture_renderer: Option<Renderer>,
    last: Option<Instant>,
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
            opened: Instant::now(),
            times: FrameTimes::default(),
            steps_last_frame: 0,
            gpu_passes_ms: None,
            pending_sample: None,
            ui_areas: Vec::new(),
            ui_sections: Vec::new(),
            ui_params: Vec::new(),
            ui_widgets: Vec::new(),
            last_tick: None,
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

    /// Counts a presented frame; returns the time since the previous one (ms).
    pub fn on_present(&mut self) -> Option<f64> {
        let now = Instant::now();
        self.presented += 1;
        let since = self.last.map(|l| (now - l).as_secs_f64() * 1e3);
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
        since
    }
}
