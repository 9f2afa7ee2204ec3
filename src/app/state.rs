//! [`AppState`]: everything the interactive app knows apart from the window and the GPU surface —
//! the simulation, camera, style, tool, menus — and the two handlers every change goes through:
//! [`AppState::input`] for pointer/key events (real or scripted) and [`AppState::apply`] for
//! [`Action`]s (from the egui panel, the pause menu, keys or a script).

use web_time::Instant;

use glam::Vec2;

use crate::app::action::Action;
use crate::app::captures::Captures;
use crate::app::clock::Pace;
use crate::app::input::{Button, InputEvent};
use crate::app::keys::AppKey;
use crate::app::run_state::RunState;
use crate::app::scene_state::SceneState;
use crate::app::start::Spawn;
use crate::app::tool_state::ToolState;
use crate::app::tools::{predator_radius, Tool};
use crate::app::ui_flags::UiFlags;
use crate::app::view_state::ViewState;
use crate::model::models::Model;
use crate::model::param_table::{ParamGroup, ParamValue, Range};
use crate::model::{Actors, Predator, Setup, SimParams, MAX_PREDATORS};
use crate::render::Sim;
use crate::render::{boid_length_for, Camera, RenderStyle};

/// The app's state apart from window and surface, by concern: the run, the view, the tools, the
/// interface, the scene files and the captures each own their fields and their actions; what is
/// left here is the pointer, the messages and leaving.
pub struct AppState {
    /// The running simulation and how it steps.
    pub run: RunState,
    /// The camera and how boids look.
    pub view: ViewState,
    /// The pointer tools: the selected one, radii, weights, the gesture in progress.
    pub tools: ToolState,
    /// Which parts of the interface are shown (panel, menu, help, HUD, immersion).
    pub ui: UiFlags,
    /// The panel's scene files: the typed path, the last save or load, the preset.
    pub scenes: SceneState,
    /// The live capture (F9) and the video recordings (V).
    pub captures: Captures,
    /// Ambient sound wanted (the frame loop starts or stops it).
    pub sound_on: bool,
    /// Quit requested.
    pub quit: bool,
    /// Pointer position (physical px), when inside the window.
    pub pointer: Option<Vec2>,
    /// A note shown on the HUD (e.g. fewer boids on a software adapter).
    pub note: Option<String>,
    /// The last message for the user ([`AppState::say`], [`AppState::warn`]).
    pub message: Option<Message>,
    left_down: bool,
    pan_down: bool,
}

impl AppState {
    /// A state around `sim` with `camera`, selecting the defaults of each concern; the flock was
    /// spawned by `spawn`, and steps follow `pace`.
    pub fn new(
        sim: Sim,
        camera: Camera,
        initial: Setup,
        max_boids: usize,
        spawn: Spawn,
        pace: Pace,
    ) -> Self {
        let view = ViewState::new(camera, boid_length_for(sim.params(), sim.len()));
        let mut st = AppState {
            run: RunState::new(sim, initial, spawn, max_boids, pace),
            view,
            tools: ToolState::default(),
            ui: UiFlags::default(),
            scenes: SceneState::default(),
            captures: Captures::default(),
            sound_on: false,
            quit: false,
            pointer: None,
            note: None,
            message: None,
            left_down: false,
            pan_down: false,
        };
        st.fit_predator_size();
        st
    }

    /// Sets the scale factor (HiDPI): on-screen minimum sizes follow it
    /// ([`ViewState::set_scale_factor`]).
    pub fn set_scale_factor(&mut self, scale: f32) {
        self.view.set_scale_factor(scale);
    }

    /// The style to draw with ([`ViewState::render_style`] of the running parameters).
    pub fn render_style(&self) -> RenderStyle {
        self.view.render_style(self.run.sim.params())
    }

    /// Shows `msg` to the user (and on stderr): news, such as a file written or a mode changed.
    pub fn say(&mut self, msg: impl Into<String>) {
        self.tell(msg.into(), false);
    }

    /// Shows `msg` as a problem: something asked for that did not happen, and why.
    pub fn warn(&mut self, msg: impl Into<String>) {
        self.tell(msg.into(), true);
    }

    fn tell(&mut self, text: String, problem: bool) {
        eprintln!("boids: {text}");
        self.message = Some(Message {
            text,
            at: Instant::now(),
            problem,
        });
    }

    /// The world point under the pointer (wu), clamped into the world `[0, W) × [0, H)` (to
    /// W·(1 − 1e-6) at the far edges, as boids are), so obstacles drawn and predators placed there
    /// are saved in scenes and checkpoints that load back.
    pub fn pointer_world(&self) -> Option<Vec2> {
        self.pointer.map(|p| {
            self.view
                .camera
                .screen_to_world(p)
                .clamp(Vec2::ZERO, self.view.camera.world * (1.0 - 1e-6))
        })
    }

    /// Whether the left button is held (the tool is in use).
    pub fn tool_active(&self) -> bool {
        self.left_down && self.pointer.is_some()
    }

    /// A tool's radius on screen (logical px), for a tool with one.
    pub fn tool_radius_px(&self, tool: Tool) -> Option<f32> {
        self.tools.radius_px(tool)
    }

    /// A tool's radius in the world (wu) at the current zoom: its pixel radius through the
    /// camera, or its own reach in the world ([`crate::app::tools::ToolDesc::reach_wu`]).
    pub fn tool_radius_wu(&self, tool: Tool) -> Option<f32> {
        if let Some(reach) = tool.desc().reach_wu {
            return Some(reach(self));
        }
        self.tool_radius_px(tool)
            .map(|px| px * self.view.scale_factor / self.view.camera.zoom)
    }

    /// The pointer force's radius (wu) at the current zoom: the selected tool's when it has a
    /// pointer force, else the first such tool's (attract).
    pub fn pointer_radius(&self) -> f32 {
        let forced = |t: &Tool| t.desc().pointer_force != 0.0;
        let tool = Some(self.tools.tool)
            .filter(forced)
            .or_else(|| Tool::all().find(forced));
        tool.and_then(|t| self.tool_radius_wu(t)).unwrap_or(0.0)
    }

    /// Sizes predators to the world: [`RenderStyle::predator_scale`] boid lengths, at most a
    /// fraction of the world's shorter side ([`predator_radius`]).
    pub fn fit_predator_size(&mut self) {
        let p = self.run.sim.params();
        let base = RenderStyle::default().predator_scale;
        let len = self.view.style.boid_length.max(1e-6);
        let r = predator_radius(base, len, p.world_width.min(p.world_height));
        self.view.style.predator_scale = r / len;
    }

    /// Replaces the obstacle points (a message says why when the backend refuses them).
    pub(crate) fn set_obstacles(&mut self, points: Vec<[f32; 2]>) {
        match self.run.sim.set_obstacles(points) {
            Ok(()) => self.run.actors_version += 1,
            Err(e) => self.warn(format!("obstacles: {e}")),
        }
    }

    pub(crate) fn set_predators(&mut self, predators: Vec<Predator>) {
        match self.run.sim.set_predators(predators) {
            Ok(()) => self.run.actors_version += 1,
            Err(e) => self.warn(format!("predators: {e}")),
        }
    }

    /// The actors with the predators where they are now (they move on the backend), so that a
    /// change of the predators or a saved scene does not put them back where they started.
    pub(crate) fn live_actors(&mut self) -> Actors {
        match self.run.sim.live_actors() {
            Ok(a) => a,
            Err(e) => {
                self.warn(format!("predators: {e}"));
                self.run.sim.actors().clone()
            }
        }
    }

    /// Places a predator of the chosen kind at `at` (wu) with `velocity` (wu/s).
    pub fn place_predator(&mut self, at: Vec2, velocity: Vec2) {
        let mut predators = self.live_actors().predators;
        if predators.len() >= MAX_PREDATORS {
            self.warn(format!(
                "predators: at most {MAX_PREDATORS}; remove some in the panel first"
            ));
            return;
        }
        predators.push(Predator::new(at, velocity, self.tools.predator_kind));
        self.set_predators(predators);
    }

    /// Sets the parameter `key` to `value` (text, as `--set` takes it): through
    /// [`SimParams::set`], refused when the running model does not use it; a parameter bounded
    /// by it (`min_speed` by `max_speed`) follows it down; for a model of per-rule radii the
    /// perception radius follows the largest rule radius; the parameters a model says follow
    /// another ([`SimParams::follow`]: Vicsek's η keeps its place in its range when the kind of
    /// noise changes) follow it; then [`SimParams::validate`] and the
    /// simulation's `set_params`. A refusal changes nothing and says why. `model` switches the
    /// model ([`AppState::switch_model`]); the world's size is the boid count's or the scene's.
    pub(crate) fn set_param(&mut self, key: &str, value: &str) {
        if key == "model" {
            match Model::by_name(value.trim().trim_matches('"')) {
                Some(m) => self.switch_model(m),
                None => self.warn(format!(
                    "model = {}: unknown model ({})",
                    crate::io::clip(value),
                    Model::names()
                )),
            }
            return;
        }
        if key == "world_width" || key == "world_height" {
            self.warn(format!(
                "{key}: the world's size follows the boid count, or a scene (load one to change it)"
            ));
            return;
        }
        let before = self.run.sim.params().clone();
        let mut p = before.clone();
        let checked = p
            .set(key, value)
            .and_then(|()| p.check_used(key))
            .map(|()| {
                // A parameter bounded by this one (Range::UpTo) follows it down.
                let bound = match p.get(key) {
                    Some(ParamValue::Number(x)) => Some(x),
                    _ => None,
                };
                for spec in SimParams::specs() {
                    if let (Range::UpTo { key: k, .. }, Some(b)) = (spec.range, bound) {
                        let over = matches!(p.get(spec.key), Some(ParamValue::Number(v)) if v > b);
                        if k == key && over {
                            let _ = p.set(spec.key, &b.to_string());
                        }
                    }
                }
            });
        if let Err(e) = checked {
            self.warn(format!("set {key}: {e}"));
            return;
        }
        p = p.with_perception_following(&before);
        p.follow(&before);
        if let Err(e) = p.validate() {
            self.warn(format!("set {key}: {e}"));
            return;
        }
        match self.run.sim.set_params(&p) {
            Ok(()) => {
                self.fit_predator_size();
                self.world_changed();
            }
            Err(e) => self.warn(format!("set {key}: {e}")),
        }
    }

    /// Handles one input event (from the window or a script).
    pub fn input(&mut self, ev: InputEvent) {
        match ev {
            InputEvent::PointerMoved(p) => {
                if let (Some(last), true) = (self.pointer, self.pan_down) {
                    self.view.camera.pan_px(p - last);
                    self.view.moved = true;
                }
                self.pointer = Some(p);
                if let (true, Some(w)) = (self.left_down, self.pointer_world()) {
                    (self.tools.tool.desc().drag)(self, w);
                }
            }
            InputEvent::PointerLeft => {
                self.pointer = None;
                self.left_down = false;
                self.pan_down = false;
                self.tools.gesture = None;
            }
            InputEvent::Button { button, pressed } => match button {
                Button::Middle | Button::Right => self.pan_down = pressed,
                Button::Left => {
                    let was_down = self.left_down;
                    self.left_down = pressed;
                    if pressed {
                        self.tools.gesture = None;
                        if let Some(w) = self.pointer_world() {
                            (self.tools.tool.desc().press)(self, w);
                        }
                    } else if was_down {
                        let at = self.pointer_world();
                        (self.tools.tool.desc().release)(self, at);
                        self.tools.gesture = None;
                    }
                }
            },
            InputEvent::Wheel(lines) => {
                let at = self.pointer.unwrap_or(self.view.camera.viewport * 0.5);
                self.view.camera.wheel(at, lines);
                self.view.moved = true;
            }
            InputEvent::Key(k) => self.key(k),
        }
    }

    /// Handles one key of [`crate::app::keys::bindings`].
    pub fn key(&mut self, k: AppKey) {
        match k {
            AppKey::Help => self.apply(Action::SetHelp(!self.ui.help_open)),
            AppKey::Escape => {
                if self.ui.help_open {
                    self.apply(Action::SetHelp(false));
                } else if self.ui.immersive {
                    self.apply(Action::SetImmersive(false));
                } else {
                    let open = !self.ui.menu_open;
                    self.apply(Action::SetMenu(open));
                }
            }
            AppKey::Immersion => self.apply(Action::SetImmersive(!self.ui.immersive)),
            AppKey::TogglePanel => self.apply(Action::SetPanel(!self.ui.panel_open)),
            AppKey::ResetView => self.apply(Action::ResetView),
            AppKey::Pause => self.apply(Action::SetPaused(!self.run.paused)),
            AppKey::StepOnce => self.apply(Action::StepOnce),
            AppKey::Slower | AppKey::Faster => {
                let mut c = self.run.clock.clone();
                c.step_speed(k == AppKey::Faster);
                self.apply(Action::SetSpeed(c.speed));
            }
            AppKey::Tool(t) => self.apply(Action::SetTool(t)),
            AppKey::ClearObstacles => self.apply(Action::ClearObstacles),
            AppKey::Record => self.captures.toggle = !self.captures.toggle,
            AppKey::ToggleHud => self.apply(Action::SetHud(!self.ui.hud_visible)),
            AppKey::HudDetails => {
                // Details of a hidden HUD show it.
                let details = !(self.ui.hud_details && self.ui.hud_visible);
                self.apply(Action::SetHud(true));
                self.apply(Action::SetHudDetails(details));
            }
            AppKey::Sound => self.apply(Action::SetSound(!self.sound_on)),
            AppKey::Colour => {
                let next = self.view.style.colour.next();
                self.apply(Action::SetColour(next));
                self.say(format!("colour: {}", next.description()));
            }
            AppKey::Trails => self.apply(Action::SetTrails(!self.view.style.trails)),
            AppKey::Video => self.apply(Action::SetVideo(self.captures.video.active.is_none())),
        }
    }

    /// The world changed size: a view the user has not moved fits it again, and predators are
    /// sized to it.
    pub(crate) fn world_changed(&mut self) {
        self.view.set_world(self.run.sim.params());
        self.fit_predator_size();
    }

    /// Per-frame tool work before the step: the pointer force of a tool with one (attract, repel;
    /// off when the button is up), and the held tool's own work (the add tool adds boids).
    pub fn update_tools(&mut self) {
        let active = self.tool_active() && !self.ui.menu_open;
        let mut ia = *self.run.sim.interaction();
        let force = self.tools.tool.desc().pointer_force;
        let (radius, weight) = if active && force != 0.0 {
            (self.pointer_radius(), force * self.tools.pointer_weight)
        } else {
            (0.0, 0.0)
        };
        let pointer: [f32; 2] = self.pointer_world().unwrap_or_default().into();
        if ia.pointer_radius != radius || ia.pointer_weight != weight || ia.pointer != pointer {
            ia.pointer = pointer;
            ia.pointer_radius = radius;
            ia.pointer_weight = weight;
            self.run.sim.set_interaction(&ia);
        }
        if let (true, Some(at)) = (active, self.pointer_world()) {
            (self.tools.tool.desc().held)(self, at);
        }
    }

    /// The message to show, if set in the last 6 s.
    pub fn recent_message(&self) -> Option<&Message> {
        self.message
            .as_ref()
            .filter(|m| m.at.elapsed().as_secs_f32() < 6.0)
    }
}

/// A message for the user: its text, when it was set, and whether it reports a problem (drawn in
/// the warning colour) rather than news.
#[derive(Clone, Debug)]
pub struct Message {
    /// The text.
    pub text: String,
    /// When it was set.
    pub at: Instant,
    /// Whether it reports a problem ([`AppState::warn`]) rather than news ([`AppState::say`]).
    pub problem: bool,
}
