//! The scene files' share of the app's state ([`SceneState`]): the path typed in the panel, what
//! the last save or load did, the preset last loaded; with the action that is theirs alone (the
//! typed path). Saving and loading are [`crate::app::scene_files`].

use crate::app::action::Action;

/// The scene path offered when the app started without `--scene`.
pub const DEFAULT_SCENE_PATH: &str = "scene.toml";

/// What the panel's scene files hold between frames.
#[derive(Clone, Debug)]
pub struct SceneState {
    /// The scene path typed in the panel (saving and loading).
    pub path: String,
    /// What the last save or load did (or why it failed: file and line), shown in the panel.
    pub status: Option<String>,
    /// The preset last loaded (a file stem of `scenes/`).
    pub preset: Option<String>,
}

impl Default for SceneState {
    /// [`DEFAULT_SCENE_PATH`], nothing done yet.
    fn default() -> Self {
        SceneState {
            path: DEFAULT_SCENE_PATH.to_string(),
            status: None,
            preset: None,
        }
    }
}

impl SceneState {
    /// Applies the scene files' own action (the typed path); saving and loading change the whole
    /// state, so the reducer does them (`AppState::save_scene`, `AppState::load_scene` in [`crate::app::scene_files`]).
    pub fn apply(&mut self, action: Action) {
        if let Action::SetScenePath(p) = action {
            self.path = p;
        }
    }
}
