//! The app's reducer: every [`Action`] (from the panel, the tool bar, keys and scripts) routed to
//! the part of the state that owns it — the view, the interface, the tools, the run, the scene
//! files, the captures — and, for the few that change several at once, done here.

use crate::app::action::Action;
use crate::app::pending_flock::AfterRead;
use crate::app::state::AppState;

impl AppState {
    /// Applies one action.
    pub fn apply(&mut self, action: Action) {
        match action {
            a @ (Action::SetTheme(_)
            | Action::SetColour(_)
            | Action::SetTrails(_)
            | Action::SetStreaks(_)
            | Action::ResetView) => self.view.apply(a),
            a @ (Action::SetPanel(_)
            | Action::SetHelp(_)
            | Action::SetHud(_)
            | Action::SetHudDetails(_)) => self.ui.apply(a),
            a @ (Action::SetTool(_)
            | Action::SetToolRadius { .. }
            | Action::SetSelectedToolRadius(_)
            | Action::SetPointerWeight(_)
            | Action::SetAddRate(_)
            | Action::SetPredatorKind(_)) => {
                if let Err(e) = self.tools.apply(a) {
                    self.warn(e);
                }
            }
            a @ (Action::SetPaused(_)
            | Action::SetSpeed(_)
            | Action::StepOnce
            | Action::SetBackend(_)) => {
                if let Err(e) = self.run.apply(a) {
                    self.warn(e);
                }
            }
            a @ Action::SetScenePath(_) => self.scenes.apply(a),
            a @ Action::SetVideo(_) => self.captures.apply(a),
            // The pause menu and immersion pause or resume the run.
            Action::SetMenu(open) => {
                self.ui.menu_open = open;
                self.run.paused = open;
            }
            Action::SetImmersive(on) => {
                self.ui.immersive = on;
                if on {
                    self.ui.menu_open = false;
                    self.run.paused = false;
                }
            }
            Action::ResetFlock => {
                self.run.pending_flock = None;
                self.reset_flock();
            }
            // A tab is closed by the browser; the app in it does not stop itself.
            Action::Quit => self.quit = !cfg!(target_arch = "wasm32"),
            Action::SetBoidCount(n) => {
                let n = n.clamp(1, self.run.max_boids.max(1));
                if cfg!(target_arch = "wasm32") && n < self.run.sim.len() {
                    // A browser tab cannot wait for the state the sample is drawn from: asked
                    // for, and lowered when it is back (the later choice wins).
                    let step = self.run.sim.step_index();
                    self.read_flock_then(AfterRead::Sample { n, step });
                } else {
                    self.run.pending_flock = None;
                    if let Err(e) = self.run.sim.set_count(n) {
                        self.warn(format!("boid count {n}: {e}"));
                    }
                    // The world may have grown to hold them at the default density.
                    self.world_changed();
                }
            }
            Action::SetParams(p) => {
                if let Err(e) = self.run.sim.set_params(&p) {
                    self.warn(format!("parameters: {e}"));
                } else {
                    self.world_changed();
                }
            }
            Action::SetInteraction(ia) => {
                let mut ia = ia;
                let cur = self.run.sim.interaction();
                ia.pointer = cur.pointer;
                ia.pointer_radius = cur.pointer_radius;
                ia.pointer_weight = cur.pointer_weight;
                self.run.sim.set_interaction(&ia);
            }
            Action::SetBoidSize(s) => {
                self.view.style.boid_length = s.clamp(1e-3, 1000.0);
                self.fit_predator_size();
            }
            Action::SetModel(m) => self.switch_model(m),
            Action::SetParam { key, value } => self.set_param(&key, &value),
            Action::LoadPreset(name) => self.load_preset(&name),
            Action::ClearObstacles => self.set_obstacles(Vec::new()),
            Action::ClearPredators => self.set_predators(Vec::new()),
            Action::SaveScene => self.save_scene(),
            Action::LoadScene => self.load_scene(),
            Action::SetSound(on) => self.sound_on = on,
        }
    }

    /// The initial flock, regenerated in the current world (which may have grown), with the
    /// obstacles and predators of the start; the menu closed and the run resumed.
    fn reset_flock(&mut self) {
        let params = self.run.sim.params().clone();
        let (seed, n) = (self.run.initial.seed, self.run.initial.boids.len());
        let boids = self.run.spawn.boids(seed, n, &params);
        if let Err(e) = self.run.sim.set_state(&boids) {
            self.warn(format!("reset: {e}"));
        }
        let actors = self.run.initial.actors.clone();
        self.set_predators(actors.predators);
        self.set_obstacles(actors.obstacles);
        self.ui.menu_open = false;
        self.run.paused = false;
    }
}
