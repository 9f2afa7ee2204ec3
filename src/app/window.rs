//! The window: the winit event loop and the frame loop (script → UI → tools → step → render →
//! present; the frame itself is [`crate::app::frame`], the window's graphics `Gfx`).
//! Robustness: a zero-size surface pauses rendering and stepping, resize reconfigures,
//! `Outdated`/`Lost`/`Timeout`/`Occluded` frames are skipped with the matching recovery, the
//! present mode is picked from what the surface offers, and closing exits cleanly.

use std::time::Duration;

use web_time::Instant;

use glam::Vec2;
use winit::application::ApplicationHandler;
use winit::dpi::PhysicalSize;
use winit::event::{ElementState, MouseButton, MouseScrollDelta, TouchPhase, WindowEvent};
use winit::event_loop::{ActiveEventLoop, ControlFlow, EventLoop};
use winit::window::WindowId;

use crate::app::args::RunArgs;
use crate::app::error::AppError;
use crate::app::gfx::Gfx;
use crate::app::input::{Button, InputEvent};
use crate::app::report::RunReport;
use crate::app::script::Script;
use crate::app::script_cmd::ScriptCmd;
use crate::formats::scene::Scene;

struct App {
    args: RunArgs,
    scene: Option<Scene>,
    script: Option<Script>,
    gfx: Option<Gfx>,
    error: Option<AppError>,
    /// The finger that acts as the left button while it touches.
    touch: Option<u64>,
    /// In a browser tab: the page, and the device on its way.
    #[cfg(target_arch = "wasm32")]
    page: crate::app::web::Page,
}

impl App {
    fn fail(&mut self, el: &ActiveEventLoop, e: AppError) {
        #[cfg(target_arch = "wasm32")]
        self.page.fail(&e);
        if self.error.is_none() {
            self.error = Some(e);
        }
        el.exit();
    }

    /// The window's graphics are ready: said once, the script's counts clamped, a recording
    /// asked for started.
    fn opened(&mut self, el: &ActiveEventLoop, mut g: Gfx) {
        eprintln!(
            "boids: {} boids on {}, drawing on {} ({:?}, {} sample(s) per pixel)",
            g.st.run.sim.len(),
            g.st.run.sim.kind().name(),
            g.ctx.describe(),
            g.config.present_mode,
            g.frame.samples
        );
        if let Some(s) = self.script.as_mut() {
            for w in s.clamp_boid_counts(g.st.run.max_boids) {
                eprintln!("warning: {w}");
            }
        }
        if let Some(dir) = &self.args.record {
            let limit = self.args.record_frames;
            if let Err(e) = crate::app::frame_captures::start_video(&mut g, dir, limit) {
                return self.fail(el, e.into());
            }
            if let Some(rec) = g.st.captures.video.active.as_mut() {
                rec.exit_when_done = limit.is_some();
            }
        }
        self.gfx = Some(g);
    }

    /// In a tab: opens the app once its device has arrived.
    #[cfg(target_arch = "wasm32")]
    fn take_opened(&mut self, el: &ActiveEventLoop) {
        if self.gfx.is_some() {
            return;
        }
        match self.page.take_opened(&self.args, self.scene.as_ref()) {
            Some(Ok(g)) => self.opened(el, g),
            Some(Err(e)) => self.fail(el, e),
            None => {}
        }
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
        if !cmds.is_empty() {
            g.ui_layer.invalidate();
        }
        for cmd in cmds {
            match cmd {
                ScriptCmd::Input(ev) => scripted_input(g, ev),
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
                    let sim = &mut g.st.run.sim;
                    let saved = sim
                        .read_state()
                        .and_then(|boids| Ok((boids, sim.live_actors()?, sim.measures()?)))
                        .map_err(AppError::StateRead)
                        .and_then(|(boids, actors, m)| {
                            let cp = crate::model::loaded::Checkpoint {
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
                            // save_checkpoint's error already names the file.
                            crate::formats::save_state(&p, &cp).map_err(AppError::StateWrite)
                        });
                    if let Err(e) = saved {
                        return self.fail(el, e);
                    }
                }
                ScriptCmd::Report(p) => {
                    let written = RunReport::collect(g)
                        .map_err(AppError::from)
                        .and_then(|r| r.write(&p));
                    if let Err(e) = written {
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
        #[cfg(target_arch = "wasm32")]
        {
            for (name, text) in crate::app::web::take_offered_scenes() {
                g.st.load_scene_text(std::path::Path::new(&name), &text);
                g.ui_layer.invalidate();
            }
            self.page.publish(g);
        }
        if let Err(e) = g.ctx.take_error() {
            return self.fail(el, AppError::GpuFault(e));
        }
        let frames_done = self.args.frames.is_some_and(|n| tick >= n);
        if g.st.quit || frames_done {
            // A window screenshot is of a presented frame; one asked for since the last (the
            // window minimised or occluded) is said, not silently dropped.
            for p in std::mem::take(&mut g.frame.screenshots) {
                eprintln!(
                    "boids: screenshot {} not taken: the app left before another frame was \
                     presented",
                    crate::io::show_path(&p)
                );
            }
            el.exit();
        }
    }
}

/// A scripted input event, handled as the window handles the real one: a pointer event goes to
/// egui first (as an event of its next pass, at the position in points) and reaches the app as
/// the real one does — moves and releases always, a press or the wheel only where egui does not
/// want the pointer (over a panel, the tool bar or a window it does; egui's own test with the
/// scripted position); keys go to the app.
fn scripted_input(g: &mut Gfx, ev: InputEvent) {
    let ppp = g.egui_ctx.pixels_per_point();
    let at = |p: Vec2| egui::pos2(p.x / ppp, p.y / ppp);
    let pointer = g.st.pointer.map(at).unwrap_or(egui::Pos2::ZERO);
    // What egui would say of a pointer at `pos`: over one of its (interactable) areas, or using it.
    let egui_wants = |g: &Gfx, pos: egui::Pos2| {
        g.egui_ctx.egui_is_using_pointer()
            || g.egui_ctx
                .layer_id_at(pos)
                .is_some_and(|l| l.order != egui::Order::Background)
    };
    let events = &mut g.egui_state.egui_input_mut().events;
    match ev {
        InputEvent::PointerMoved(p) => {
            events.push(egui::Event::PointerMoved(at(p)));
            g.st.input(ev);
        }
        InputEvent::PointerLeft => {
            events.push(egui::Event::PointerGone);
            g.st.input(ev);
        }
        InputEvent::Button { button, pressed } => {
            events.push(egui::Event::PointerButton {
                pos: pointer,
                button: match button {
                    Button::Left => egui::PointerButton::Primary,
                    Button::Middle => egui::PointerButton::Middle,
                    Button::Right => egui::PointerButton::Secondary,
                },
                pressed,
                modifiers: egui::Modifiers::default(),
            });
            // A press on the UI stays with the UI; releases always reach the app.
            if !pressed || !egui_wants(g, pointer) {
                g.st.input(ev);
            }
        }
        InputEvent::Wheel(lines) => {
            events.push(egui::Event::MouseWheel {
                unit: egui::MouseWheelUnit::Line,
                delta: egui::vec2(0.0, lines),
                phase: egui::TouchPhase::Move,
                source: egui::MouseWheelSource::Unknown,
                modifiers: egui::Modifiers::default(),
            });
            if !egui_wants(g, pointer) {
                g.st.input(ev);
            }
        }
        InputEvent::Key(_) => g.st.input(ev),
    }
}

impl ApplicationHandler for App {
    fn resumed(&mut self, el: &ActiveEventLoop) {
        if self.gfx.is_some() || self.error.is_some() {
            return;
        }
        #[cfg(not(target_arch = "wasm32"))]
        match Gfx::open(el, &self.args, self.scene.as_ref()) {
            Ok(g) => self.opened(el, g),
            Err(e) => self.fail(el, e),
        }
        // In a tab the device comes later: the app opens on the first event after it does.
        #[cfg(target_arch = "wasm32")]
        if let Err(e) = self.page.open(el, &self.args) {
            self.fail(el, e);
        }
    }

    fn window_event(&mut self, el: &ActiveEventLoop, _id: WindowId, event: WindowEvent) {
        #[cfg(target_arch = "wasm32")]
        self.take_opened(el);
        let Some(g) = self.gfx.as_mut() else { return };
        let response = g.egui_state.on_window_event(&g.window, &event);
        // The UI is drawn again after input; a pointer moving elsewhere than over it (or off it)
        // changes nothing it shows.
        let ui_input = match event {
            WindowEvent::RedrawRequested => false,
            WindowEvent::CursorMoved { .. } => g.egui_ctx.is_pointer_over_egui(),
            _ => response.repaint,
        };
        if ui_input {
            g.ui_layer.invalidate();
        }
        // Over one of egui's areas where the pointer is now, even before egui has run a pass with
        // it there (a press right after a move: a driven browser, a fast click).
        let ppp = g.egui_ctx.pixels_per_point();
        let over_ui = g.st.pointer.is_some_and(|p| {
            g.egui_ctx
                .layer_id_at(egui::pos2(p.x / ppp, p.y / ppp))
                .is_some_and(|l| l.order != egui::Order::Background)
        });
        let egui_pointer = response.consumed || g.egui_ctx.egui_wants_pointer_input() || over_ui;
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
            // One finger is the left button (tools; a drag with the tool that pans); a second
            // finger is left to egui.
            WindowEvent::Touch(t) if self.touch.is_none_or(|id| id == t.id) => {
                let at = Vec2::new(t.location.x as f32, t.location.y as f32);
                let left = |pressed| InputEvent::Button {
                    button: Button::Left,
                    pressed,
                };
                match t.phase {
                    TouchPhase::Started => {
                        self.touch = Some(t.id);
                        g.st.input(InputEvent::PointerMoved(at));
                        // Over egui where the finger is (the pointer seen before is elsewhere).
                        let on_ui = g
                            .egui_ctx
                            .layer_id_at(egui::pos2(at.x / ppp, at.y / ppp))
                            .is_some_and(|l| l.order != egui::Order::Background);
                        if !egui_pointer && !on_ui {
                            g.st.input(left(true));
                        }
                    }
                    TouchPhase::Moved => g.st.input(InputEvent::PointerMoved(at)),
                    TouchPhase::Ended | TouchPhase::Cancelled => {
                        self.touch = None;
                        g.st.input(left(false));
                        g.st.input(InputEvent::PointerLeft);
                    }
                }
            }
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
        #[cfg(target_arch = "wasm32")]
        self.take_opened(el);
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
/// [`AppError::NoDisplay`] (its message suggests `boids headless` / `boids bench` /
/// `boids snapshot`), no adapter, a bad scene, script or `--set`, or a GPU error.
#[cfg(not(target_arch = "wasm32"))]
pub fn run(args: RunArgs) -> Result<RunReport, AppError> {
    let scene = match &args.setup.scene {
        Some(p) => Some(Scene::load(p)?),
        None => None,
    };
    let script = match &args.script {
        Some(p) => Some(Script::load(p)?),
        None => None,
    };
    // Every --set checked before a window opens (the window's size only changes the world's).
    let mut p = match &scene {
        Some(s) => s.params.clone(),
        None => crate::app::presets::default_scene()?.params,
    };
    crate::run::spec::apply_sets(&mut p, &args.setup.set)?;
    let event_loop = EventLoop::new().map_err(|e| AppError::NoDisplay {
        message: crate::app::gfx::without_source_location(&e.to_string()),
    })?;
    let mut app = App {
        args,
        scene,
        script,
        gfx: None,
        error: None,
        touch: None,
    };
    event_loop.run_app(&mut app).map_err(AppError::EventLoop)?;
    if let Some(e) = app.error.take() {
        return Err(e);
    }
    let g = app.gfx.as_mut().ok_or(AppError::NeverOpened)?;
    if g.st.captures.live.is_some() {
        // Leaving while recording keeps the capture: written as if F9 had been pressed.
        crate::app::frame_captures::toggle_recording(g);
    }
    // A video in progress is finished (its frames written, its MP4 encoded) before the app ends.
    for m in g.st.captures.video.wait_all() {
        eprintln!("boids: {m}");
    }
    let report = RunReport::collect(g)?;
    if let Some(path) = app
        .args
        .report
        .as_ref()
        .filter(|_| !app.args.report_to_stdout())
    {
        report.write(path)?;
    }
    Ok(report)
}

/// Starts the app in a browser tab, drawing into `canvas`, from `scene` (a built-in preset, or
/// the default scene) and `args` (what the page's URL parameters asked for, read as the command
/// line's); returns at once, the app running on the page's event loop. What it does on the page
/// and what a tab cannot do: `crate::app::web`.
///
/// # Errors
/// A `--set` the scene refuses (checked before anything opens), or no event loop.
#[cfg(target_arch = "wasm32")]
pub fn start_web(
    args: RunArgs,
    scene: Option<Scene>,
    canvas: web_sys::HtmlCanvasElement,
) -> Result<(), AppError> {
    use winit::platform::web::EventLoopExtWebSys;
    let mut p = match &scene {
        Some(s) => s.params.clone(),
        None => crate::app::presets::default_scene()?.params,
    };
    crate::run::spec::apply_sets(&mut p, &args.setup.set)?;
    let event_loop = EventLoop::new().map_err(|e| AppError::NoDisplay {
        message: e.to_string(),
    })?;
    event_loop.spawn_app(App {
        args,
        scene,
        script: None,
        gfx: None,
        error: None,
        touch: None,
        page: crate::app::web::Page::new(canvas),
    });
    Ok(())
}
