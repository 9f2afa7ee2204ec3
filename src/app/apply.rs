//! The app's reducer: every [`Action`] (from the panel, the tool bar, keys and scripts) applied to
//! the app's state in one place.

use crate::app::state::{Action, AppState};

impl AppState {
    /// Applies one action.
    pub fn apply(&mut self, action: Action) {
        match action {
            Action::SetTool(t) => {
                self.tools.tool = t;
                self.tools.gesture = None;
            }
            Action::SetBackend(kind) => {
                if kind != self.sim.kind() {
                    match self.sim.switch(kind) {
                        Ok(()) => self.backend_switches += 1,
                        Err(e) => self.warn(format!("cannot switch to {}: {e}", kind.name())),
                    }
                }
            }
            Action::SetTheme(t) => self.style.theme = t,
            Action::SetPanel(open) => self.ui.panel_open = open,
            Action::SetMenu(open) => {
                self.ui.menu_open = open;
                self.paused = open;
            }
            Action::SetPaused(p) => {
                self.paused = p;
                self.clock.reset();
            }
            Action::SetImmersive(on) => {
                self.ui.immersive = on;
                if on {
                    self.ui.menu_open = false;
                    self.paused = false;
                }
            }
            Action::ResetView => self.fit_view(),
            Action::ResetFlock => {
                // The initial flock, regenerated in the current world (which may have grown).
                let params = self.sim.params().clone();
                let boids = self
                    .spawn
                    .boids(self.initial.seed, self.initial.boids.len(), &params);
                if let Err(e) = self.sim.set_state(&boids) {
                    self.warn(format!("reset: {e}"));
                }
                let actors = self.initial.actors.clone();
                self.set_predators(actors.predators);
                self.set_obstacles(actors.obstacles);
                self.ui.menu_open = false;
                self.paused = false;
            }
            Action::Quit => self.quit = true,
            Action::SetBoidCount(n) => {
                let n = n.clamp(1, self.max_boids.max(1));
                if let Err(e) = self.sim.set_count(n) {
                    self.warn(format!("boid count {n}: {e}"));
                }
                // The world may have grown to hold them at the default density.
                self.world_changed();
            }
            Action::SetParams(p) => {
                if let Err(e) = self.sim.set_params(&p) {
                    self.warn(format!("parameters: {e}"));
                } else {
                    self.world_changed();
                }
            }
            Action::SetInteraction(ia) => {
                let mut ia = ia;
                let cur = self.sim.interaction();
                ia.pointer = cur.pointer;
                ia.pointer_radius = cur.pointer_radius;
                ia.pointer_weight = cur.pointer_weight;
                self.sim.set_interaction(&ia);
            }
            Action::SetBoidSize(s) => {
                self.style.boid_length = s.clamp(1e-3, 1000.0);
                self.fit_predator_size();
            }
            Action::SetAddRate(r) => self.tools.add_rate = r.clamp(1, 10_000),
            Action::SetToolRadius { tool, px } => {
                if tool.default_radius_px().is_some() {
                    self.tools.tool_px[tool.index()] = if px.is_finite() {
                        px.clamp(1.0, 2000.0)
                    } else {
                        1.0
                    };
                }
            }
            Action::SetSelectedToolRadius(px) => {
                let tool = self.tools.tool;
                if tool.default_radius_px().is_some() {
                    self.apply(Action::SetToolRadius { tool, px });
                } else {
                    self.warn(format!("the {} tool has no radius", tool.name()));
                }
            }
            Action::SetPointerWeight(w) => self.tools.pointer_weight = w.clamp(0.0, 100.0),
            Action::SetModel(m) => self.switch_model(m),
            Action::SetParam { key, value } => self.set_param(&key, &value),
            Action::LoadPreset(name) => self.load_preset(&name),
            Action::ClearObstacles => self.set_obstacles(Vec::new()),
            Action::SetPredatorKind(k) => self.tools.predator_kind = k,
            Action::ClearPredators => self.set_predators(Vec::new()),
            Action::SetScenePath(p) => self.scene_path = p,
            Action::SaveScene => self.save_scene(),
            Action::LoadScene => self.load_scene(),
            Action::SetSpeed(s) => {
                self.clock.speed = crate::app::clock::SPEEDS
                    .into_iter()
                    .min_by(|a, b| (a - s).abs().total_cmp(&(b - s).abs()))
                    .unwrap_or(1.0);
            }
            Action::StepOnce => {
                self.paused = true;
                self.step_once = true;
                self.clock.reset();
            }
            Action::SetHelp(open) => {
                self.ui.help_open = open;
                if !open {
                    self.ui.start_screen = false;
                }
            }
            Action::SetHud(on) => self.ui.hud_visible = on,
            Action::SetHudDetails(on) => self.ui.hud_details = on,
            Action::SetSound(on) => self.sound_on = on,
            Action::SetColour(m) => self.style.colour = m,
            Action::SetTrails(on) => self.style.trails = on,
            Action::SetStreaks(on) => self.style.streaks = on,
            Action::SetVideo(on) => self.video.request = Some(on),
        }
    }
}
