//! The machine-readable report of a window run (`boids run`): written with `--report FILE` (or
//! printed as one line `boids-report: {json}` with `--report -`) and by the script's `report`,
//! so tests and captures can check what happened (frames, boid count, zoom, finite state, surface
//! events, average fps, the model, the panel's sections and parameters).

use serde::Serialize;

use crate::app::error::AppError;
use crate::app::frame_state::WARMUP_FRAMES;
use crate::app::gfx::Gfx;
use crate::simulation::SimError;

/// What a window run did, read at exit.
#[derive(Clone, Debug, Serialize)]
pub struct RunReport {
    /// Frame ticks (drawn or not).
    pub frames: u64,
    /// Frames presented.
    pub presented: u64,
    /// Ticks skipped for a zero-size surface (minimised).
    pub skipped_zero_size: u64,
    /// Ticks skipped while the window was occluded (fully hidden).
    pub skipped_occluded: u64,
    /// Ticks whose surface texture could not be acquired.
    pub skipped_acquire: u64,
    /// Surface configurations (first one included).
    pub surface_configures: u32,
    /// Lost surfaces recreated.
    pub surfaces_recreated: u32,
    /// Average frames per second (simulate + render + present) after the first
    /// 10 presented frames (start-up, shader compilation); None for shorter runs.
    pub avg_fps: Option<f64>,
    /// Surface size at exit (physical px).
    pub surface: [u32; 2],
    /// Simulation steps taken.
    pub steps: u64,
    /// Boids at exit.
    pub boids: usize,
    /// Backend at exit.
    pub backend: String,
    /// Backend switches.
    pub backend_switches: u32,
    /// Whether every boid's position, velocity and hue are finite (state read back once at exit).
    pub finite: bool,
    /// Whether every boid lies inside the world rectangle.
    pub inside_world: bool,
    /// Obstacle points.
    pub obstacles: usize,
    /// The predators where they are now (one readback).
    pub predators: Vec<crate::model::PredatorSpec>,
    /// Boids caught by predators since the backend was made (one readback).
    pub catches_total: u32,
    /// The seed of the running flock.
    pub seed: u32,
    /// The scene path typed in the panel.
    pub scene_path: String,
    /// What the last scene save or load did, or why it failed.
    pub scene_status: Option<String>,
    /// Camera zoom (px per wu) and the zoom that fits the world.
    pub zoom: f32,
    /// The zoom showing the whole world.
    pub fit_zoom: f32,
    /// Camera centre (wu).
    pub center: [f32; 2],
    /// World size (wu).
    pub world: [f32; 2],
    /// The simulation parameters in use.
    pub params: crate::model::SimParams,
    /// World point under the pointer (wu), when the pointer is in the window.
    pub pointer_world: Option<[f32; 2]>,
    /// Window scale factor (physical px per logical px).
    pub scale_factor: f32,
    /// The pointer force's radius (wu) at the current zoom (repel's when selected, else
    /// attract's).
    pub pointer_radius: f32,
    /// Each tool's radius on screen (logical px), by tool name (the tools that have one).
    pub tool_radius_px: std::collections::BTreeMap<String, f32>,
    /// The selected tool's radius in the world (wu) at the current zoom (a predator's: the
    /// radius predators are drawn with).
    pub tool_radius_wu: Option<f32>,
    /// The model running.
    pub model: String,
    /// The preset last loaded (a file stem of `scenes/`).
    pub preset: Option<String>,
    /// The parameters the panel drew a widget for (last drawn frame; empty when closed).
    pub panel_params: Vec<String>,
    /// The panel's sections (last drawn frame): title → header [x0, y0, x1, y1] (physical px)
    /// and whether open.
    pub panel_sections: std::collections::BTreeMap<String, PanelSection>,
    /// Samples of the panel's live plot.
    pub plot_samples: usize,
    /// The newest sample's flock count (`None` before the first sample, or above the census's
    /// boid limit).
    pub plot_flocks: Option<f64>,
    /// The last message for the user, if any.
    pub message: Option<String>,
    /// Whether that message reports a problem (drawn in the warning colour) rather than news.
    pub message_problem: bool,
    /// Boid length (wu) and predator radius (wu) the renderer draws with.
    pub boid_length: f32,
    /// Predator radius (wu) the renderer draws with.
    pub predator_draw_radius: f32,
    /// Attract/repel weight.
    pub pointer_weight: f32,
    /// Selected tool.
    pub tool: String,
    /// Theme.
    pub theme: String,
    /// Panel shown.
    pub panel_open: bool,
    /// Immersion on.
    pub immersive: bool,
    /// Paused.
    pub paused: bool,
    /// Adapter.
    pub adapter: String,
    /// Whether it is a software adapter.
    pub software: bool,
    /// Present mode.
    pub present_mode: String,
    /// Samples per pixel.
    pub msaa: u32,
    /// Last GPU step time (ms): its timestamp queries on a hardware adapter that has them, else
    /// the wall clock from submit to completion, queue drained first.
    pub step_ms_gpu: Option<f64>,
    /// Last CPU step time (ms).
    pub step_ms_cpu: Option<f64>,
    /// Simulated time so far (s): the steps the clock took × dt.
    pub sim_time_s: f64,
    /// Wall time since the window opened (s).
    pub wall_time_s: f64,
    /// The clock's pace (`real-time` or `per-frame`).
    pub clock: crate::app::clock::Pace,
    /// The speed asked for (× real time).
    pub speed: f64,
    /// The smoothed achieved speed (× real time), once a frame ran.
    pub achieved_speed: Option<f64>,
    /// The speed the HUD reports as "slowed to", when the caps hold the simulation back.
    pub slowed_to: Option<f64>,
    /// How the flock was spawned.
    pub spawn: crate::app::start::Spawn,
    /// Whether the user panned or zoomed since the view last fitted the world.
    pub view_moved: bool,
    /// Help overlay shown.
    pub help_open: bool,
    /// HUD shown.
    pub hud_visible: bool,
    /// HUD details shown.
    pub hud_details: bool,
    /// Ambient sound wanted.
    pub sound_on: bool,
    /// What the sound does (playing, or why not), once tried.
    pub sound: Option<String>,
    /// The UI areas of the last drawn frame: name → [x0, y0, x1, y1] (physical px).
    pub ui_areas: std::collections::BTreeMap<String, [f32; 4]>,
    /// Whether boids are drawn as density dots at the current zoom.
    pub density_dots: bool,
    /// What draws the boids at this zoom and count: `compute` (the compute rasteriser) or
    /// `instanced` (the instanced spearhead draw).
    pub drawn_by: String,
    /// What the boids' colour shows ([`crate::render::ColourMode::name`]).
    pub colour: String,
    /// Whether trails are drawn.
    pub trails: bool,
    /// Whether density dots are drawn with motion streaks.
    pub streaks: bool,
    /// Frames of the video recording in progress, if one is.
    pub video_frames: Option<u64>,
}

/// A section of the panel in the run report.
#[derive(Clone, Debug, Serialize)]
pub struct PanelSection {
    /// Its header (physical px): [x0, y0, x1, y1].
    pub header: [f32; 4],
    /// Whether it is open.
    pub open: bool,
}

impl RunReport {
    /// Reads the report from a finished run (one state readback).
    ///
    /// # Errors
    /// When the state cannot be read back.
    pub(crate) fn collect(g: &mut Gfx) -> Result<RunReport, SimError> {
        // The clocks first, at one instant: the read-backs below can wait for the adapter, and
        // the frame after catches the simulated time up for that wait.
        let wall_time_s = g.frame.opened.elapsed().as_secs_f64();
        let sim_time_s = g.st.run.clock.sim_time();
        let st = &mut g.st;
        let boids = st.run.sim.read_state()?;
        let predators = st.run.sim.live_actors()?.predators;
        let catches_total = st.run.sim.measures()?.catches_total();
        let w = st.view.camera.world;
        Ok(RunReport {
            frames: g.frame.ticks,
            presented: g.frame.presented,
            skipped_zero_size: g.frame.skipped_zero_size,
            skipped_occluded: g.frame.skipped_occluded,
            skipped_acquire: g.frame.skipped_acquire,
            surface_configures: g.frame.surface_configures,
            surfaces_recreated: g.frame.surfaces_recreated,
            avg_fps: g.frame.average_fps(),
            surface: [g.config.width, g.config.height],
            steps: st.run.sim.steps(),
            boids: st.run.sim.len(),
            backend: st.run.sim.kind().name().to_string(),
            backend_switches: st.run.backend_switches,
            finite: boids.iter().all(|b| b.is_finite()),
            inside_world: boids.iter().all(|b| {
                (0.0..=w.x).contains(&b.position[0]) && (0.0..=w.y).contains(&b.position[1])
            }),
            obstacles: st.run.sim.actors().obstacles.len(),
            predators: predators
                .iter()
                .map(crate::model::PredatorSpec::of)
                .collect(),
            catches_total,
            seed: st.run.sim.seed(),
            scene_path: st.scenes.path.clone(),
            scene_status: st.scenes.status.clone(),
            zoom: st.view.camera.zoom,
            fit_zoom: st.view.camera.fit_zoom(),
            center: st.view.camera.center.into(),
            world: w.into(),
            params: st.run.sim.params().clone(),
            pointer_world: st.pointer_world().map(Into::into),
            scale_factor: st.view.scale_factor,
            pointer_radius: st.pointer_radius(),
            tool_radius_px: crate::app::tools::Tool::all()
                .filter_map(|t| Some((t.name().to_string(), st.tool_radius_px(t)?)))
                .collect(),
            tool_radius_wu: st.tool_radius_wu(st.tools.tool),
            model: st.run.sim.params().model.name().to_string(),
            preset: st.scenes.preset.clone(),
            panel_params: g.frame.ui_params.iter().map(|k| k.to_string()).collect(),
            panel_sections: g
                .frame
                .ui_sections
                .iter()
                .map(|(t, r, open)| {
                    (
                        t.clone(),
                        PanelSection {
                            header: *r,
                            open: *open,
                        },
                    )
                })
                .collect(),
            plot_samples: st.run.history.len(),
            plot_flocks: st.run.history.samples().last().and_then(|s| s.flocks),
            message: st.message.as_ref().map(|m| m.text.clone()),
            message_problem: st.message.as_ref().is_some_and(|m| m.problem),
            boid_length: st.view.style.boid_length,
            predator_draw_radius: st.view.style.predator_scale * st.view.style.boid_length,
            pointer_weight: st.tools.pointer_weight,
            tool: st.tools.tool.name().to_string(),
            theme: st.view.style.theme.name().to_string(),
            panel_open: st.ui.panel_open,
            immersive: st.ui.immersive,
            paused: st.run.paused,
            adapter: g.ctx.describe(),
            software: g.software,
            present_mode: format!("{:?}", g.frame.present_mode),
            msaa: g.frame.samples,
            step_ms_gpu: st.run.sim.step_ms_gpu(),
            step_ms_cpu: st.run.sim.step_ms_cpu(),
            sim_time_s,
            wall_time_s,
            clock: st.run.clock.pace,
            speed: st.run.clock.speed,
            achieved_speed: st.run.clock.achieved(),
            slowed_to: st.run.clock.slowed_to(),
            spawn: st.run.spawn,
            view_moved: st.view.moved,
            help_open: st.ui.help_open,
            hud_visible: st.ui.hud_visible,
            hud_details: st.ui.hud_details,
            sound_on: st.sound_on,
            sound: g.sound.status(),
            ui_areas: g
                .frame
                .ui_areas
                .iter()
                .map(|(n, r)| (n.to_string(), *r))
                .collect(),
            density_dots: st.render_style().dots_at(st.view.camera.zoom),
            drawn_by: if g.renderer.draws_compute(
                &st.render_style(),
                st.view.camera.zoom,
                st.run.sim.len() as u32,
                (g.config.width, g.config.height),
            ) {
                "compute"
            } else {
                "instanced"
            }
            .to_string(),
            colour: st.view.style.colour.name().to_string(),
            trails: st.view.style.trails,
            streaks: st.view.style.streaks,
            video_frames: st.captures.video.active.as_ref().map(|r| r.frames()),
        })
    }

    /// Writes the report as pretty JSON, whole.
    ///
    /// # Errors
    /// [`AppError::Report`] naming the path, or [`AppError::ReportJson`].
    pub fn write(&self, path: &std::path::Path) -> Result<(), AppError> {
        let json = serde_json::to_vec_pretty(self).map_err(AppError::ReportJson)?;
        crate::io::write_atomic(path, &json).map_err(|source| AppError::Report {
            path: path.to_path_buf(),
            source,
        })
    }

    /// One human line: frames and average fps.
    pub fn summary(&self) -> String {
        let fps = self
            .avg_fps
            .map_or("n/a (run too short)".to_string(), |f| format!("{f:.1} fps"));
        format!(
            "{} frames ({} presented) at {}×{} px, {} boids on {}: average {} \
             (simulate + render, after {} warm-up frames)",
            self.frames,
            self.presented,
            self.surface[0],
            self.surface[1],
            self.boids,
            self.backend,
            fps,
            WARMUP_FRAMES
        )
    }
}
