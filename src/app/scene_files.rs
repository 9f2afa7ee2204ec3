//! The app's scene files: saving the running scene, loading a scene file or a preset of the
//! gallery, and starting a scene in the running app (the panel's Save and Load, the gallery, the
//! script's `save-scene`, `load-scene` and `preset`). What they keep between frames is
//! [`crate::app::scene_state::SceneState`].

use crate::app::state::AppState;
use crate::formats::scene::Scene;
use crate::model::PredatorSpec;
use crate::render::boid_length_for;

impl AppState {
    /// Saves the scene to [`crate::app::scene_state::SceneState::path`]: parameters (the world size fixed), boid count,
    /// seed, obstacles and the predators where they are now, written whole (temporary file, then
    /// rename).
    pub(crate) fn save_scene(&mut self) {
        let path = std::path::PathBuf::from(self.scenes.path.trim());
        if path.as_os_str().is_empty() {
            self.scenes.status = Some("type a path to save the scene to".into());
            return;
        }
        let actors = self.live_actors();
        let scene = Scene {
            boids: Some(self.run.sim.len()),
            seed: Some(self.run.sim.seed()),
            spawn: Some(self.run.spawn),
            fixed_world: Some(true),
            obstacles: actors.obstacles.clone(),
            params: self.run.sim.params().clone(),
            predators: actors.predators.iter().map(PredatorSpec::of).collect(),
            view: crate::formats::scene::SceneView {
                colour: Some(self.view.style.colour.name().to_string()),
            },
            world_given: true,
            origin: None,
        };
        let text = format!(
            "# A boids scene saved by the app (docs/model.md; docs/cli.md \"Scenes\").\n{}",
            scene.to_toml()
        );
        let shown = crate::io::show_path(&path);
        // In a browser tab the scene is a download named as the path's file.
        #[cfg(target_arch = "wasm32")]
        let written = crate::app::web::download(
            &path
                .file_name()
                .map_or("scene.toml".into(), |n| n.to_string_lossy()),
            text.as_bytes(),
            "application/toml",
        )
        .map_err(std::io::Error::other);
        #[cfg(not(target_arch = "wasm32"))]
        let written = crate::io::write_atomic(&path, text.as_bytes());
        match written {
            Ok(()) => self.say(format!(
                "saved {shown}: {} boids, {} obstacle points, {} predators",
                self.run.sim.len(),
                actors.obstacles.len(),
                actors.predators.len()
            )),
            Err(e) => self.warn(format!("cannot save {shown}: {e}")),
        }
        self.scenes.status = self.message.as_ref().map(|m| m.text.clone());
    }

    /// Loads the scene at [`crate::app::scene_state::SceneState::path`] ([`AppState::start_scene`]). A file that
    /// cannot be read or used changes nothing: the panel and the message say why, with the file
    /// and line.
    pub(crate) fn load_scene(&mut self) {
        // In a browser tab: the page's file picker, whose file arrives as text
        // ([`AppState::load_scene_text`]).
        #[cfg(target_arch = "wasm32")]
        if let Err(e) = crate::app::web::pick_scene_file() {
            self.warn(format!("not loaded: {e}"));
        }
        #[cfg(not(target_arch = "wasm32"))]
        {
            let path = std::path::PathBuf::from(self.scenes.path.trim());
            let loaded = Scene::load(&path);
            self.start_loaded(&path, loaded);
        }
    }

    /// Loads a scene file's `text` (named `path` in its messages) as the panel's Load loads the
    /// file: a file picked or dropped on the web app's page.
    pub fn load_scene_text(&mut self, path: &std::path::Path, text: &str) {
        let loaded = Scene::parse(text, path);
        self.start_loaded(path, loaded);
    }

    fn start_loaded(
        &mut self,
        path: &std::path::Path,
        loaded: Result<Scene, crate::formats::scene::SceneError>,
    ) {
        match loaded {
            Ok(scene) => {
                if self.start_scene(&scene, &crate::io::show_path(path)) {
                    self.scenes.preset = None;
                }
            }
            Err(e) => {
                let msg = format!("not loaded: {e}");
                self.warn(msg.clone());
                self.scenes.status = Some(msg);
            }
        }
    }

    /// Loads the preset `name` of the gallery ([`crate::app::presets`]) as [`AppState::load_scene`]
    /// loads a file.
    pub(crate) fn load_preset(&mut self, name: &str) {
        let Some(preset) = crate::app::presets::Preset::find(name) else {
            let msg = format!(
                "no preset `{}`: {}",
                crate::io::clip(name),
                crate::app::presets::Preset::names()
            );
            self.warn(msg.clone());
            self.scenes.status = Some(msg);
            return;
        };
        match preset.scene() {
            Ok(scene) => {
                if self.start_scene(&scene, &format!("preset {name}")) {
                    self.scenes.preset = Some(name.to_string());
                }
            }
            Err(e) => {
                let msg = format!("not loaded: {e}");
                self.warn(msg.clone());
                self.scenes.status = Some(msg);
            }
        }
    }

    /// Starts `scene` (named `shown` in messages) as `boids run --scene` would start it, through
    /// the run layer: a new flock of its count (at most the app's limit; the running count when
    /// it gives none) and seed, placed as it says (`spawn`; uniformly by default); its world, or
    /// one of the current aspect sized to the count; its obstacles and predators; on the running
    /// backend. Returns whether it started; when not, nothing changed and the panel and the
    /// message say why.
    pub fn start_scene(&mut self, scene: &Scene, shown: &str) -> bool {
        // A model switch still waiting for its state would apply to the old flock.
        self.run.pending_flock = None;
        let mut n = scene.boids.unwrap_or(self.run.sim.len());
        let mut note = String::new();
        if n > self.run.max_boids {
            note = format!(" ({n} boids in the file, {} here)", self.run.max_boids);
            n = self.run.max_boids;
        }
        let p = self.run.sim.params();
        let aspect = p.world_width / p.world_height;
        let spawn = crate::app::start::default_spawn(Some(scene));
        let loaded = crate::app::start::app_setup(
            Some(scene),
            &crate::run::spec::Overrides {
                boids: Some(n),
                ..Default::default()
            },
            n,
            aspect,
            Some(spawn),
        )
        .map_err(|e| e.to_string())
        .and_then(|(setup, _)| {
            let sim = crate::render::Sim::new(self.run.sim.context(), self.run.sim.kind(), &setup)
                .map_err(|e| e.to_string())?;
            Ok((setup, sim))
        });
        match loaded {
            Ok((setup, sim)) => {
                let ia = *self.run.sim.interaction();
                self.run.sim = sim;
                self.run.sim.set_interaction(&ia);
                self.run.initial = setup;
                self.run.spawn = spawn;
                self.run.actors_version += 1;
                self.tools.gesture = None;
                self.view.style.boid_length =
                    boid_length_for(self.run.sim.params(), self.run.sim.len());
                // Validated with the run; a scene without `[view] colour` keeps the current one.
                if let Ok(Some(c)) = crate::run::spec::scene_colour(scene) {
                    self.view.style.colour = c;
                }
                self.run
                    .history
                    .restart(self.run.sim.params().model.desc().order_parameter);
                self.world_changed();
                let status = format!(
                    "loaded {shown}: {} boids{note}, {} obstacle points, {} predators",
                    self.run.sim.len(),
                    self.run.sim.actors().obstacles.len(),
                    self.run.sim.predator_count()
                );
                self.say(status.clone());
                self.scenes.status = Some(status);
                true
            }
            Err(e) => {
                let msg = format!("not loaded: {shown}: {e}");
                self.warn(msg.clone());
                self.scenes.status = Some(msg);
                false
            }
        }
    }
}
