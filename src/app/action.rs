//! [`Action`]: a change of the app's state requested by the panel, the tool bar, the pause menu, a
//! key or a script. The app's reducer ([`crate::app::state::AppState::apply`]) routes each to the
//! part of the state that owns it.

use crate::app::tools::Tool;
use crate::backend::BackendKind;
use crate::model::models::Model;
use crate::model::{Interaction, PredatorKind, SimParams};
use crate::render::{ColourMode, Theme};

/// A change requested by the UI, a key or a script.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// Selects the pointer tool.
    SetTool(Tool),
    /// Switches the backend live, keeping the flock.
    SetBackend(BackendKind),
    /// Dark or light theme.
    SetTheme(Theme),
    /// Shows or hides the control panel.
    SetPanel(bool),
    /// Opens or closes the pause menu (opening pauses).
    SetMenu(bool),
    /// Pauses or resumes the simulation.
    SetPaused(bool),
    /// Enters or leaves fullscreen immersion (hides HUD and panel).
    SetImmersive(bool),
    /// Shows the whole world again.
    ResetView,
    /// Restarts the flock from its initial state (count, seed, obstacles of the start).
    ResetFlock,
    /// Leaves the app.
    Quit,
    /// Sets the boid count.
    SetBoidCount(usize),
    /// Replaces the simulation parameters.
    SetParams(Box<SimParams>),
    /// Replaces the pointer/obstacle settings (the pointer position itself is the app's).
    SetInteraction(Interaction),
    /// Sets the boid length (wu).
    SetBoidSize(f32),
    /// Sets how many boids the add tool adds per frame.
    SetAddRate(usize),
    /// Sets a tool's radius on screen (logical px; a tool with a radius, see
    /// [`Tool::default_radius_px`]).
    SetToolRadius {
        /// The tool.
        tool: Tool,
        /// Its radius (logical px).
        px: f32,
    },
    /// Sets the selected tool's radius on screen (logical px), when it has one.
    SetSelectedToolRadius(f32),
    /// Sets the attract/repel weight (> 0; the sign comes from the tool).
    SetPointerWeight(f32),
    /// Switches the model, keeping the boids where they are (their speeds brought to the new
    /// model's) and the world.
    SetModel(Model),
    /// Sets one parameter from its text (`SimParams::set`), checked with the others before the
    /// simulation takes it; `model` switches the model.
    SetParam {
        /// The parameter's key.
        key: String,
        /// Its value as text (`0.5`, `walls`).
        value: String,
    },
    /// Loads a preset of the gallery by name (a file stem of `scenes/`).
    LoadPreset(String),
    /// Removes every obstacle.
    ClearObstacles,
    /// The kind of predator the predator tool places.
    SetPredatorKind(PredatorKind),
    /// Removes every predator.
    ClearPredators,
    /// Sets the path typed in the panel for saving and loading scenes.
    SetScenePath(String),
    /// Saves the scene (parameters, world, obstacles, predators, count, seed) to the typed path.
    SaveScene,
    /// Loads the scene at the typed path: a new flock of its count and seed in its world, with its
    /// obstacles and predators.
    LoadScene,
    /// Sets the simulation speed (× real time; one of [`crate::app::clock::SPEEDS`]).
    SetSpeed(f64),
    /// Runs one step and stays paused.
    StepOnce,
    /// Shows or hides the help overlay.
    SetHelp(bool),
    /// Shows or hides the HUD.
    SetHud(bool),
    /// Compact HUD (false) or with details (true).
    SetHudDetails(bool),
    /// Ambient sound on or off.
    SetSound(bool),
    /// What the boids' colour shows.
    SetColour(ColourMode),
    /// Fading trails on or off.
    SetTrails(bool),
    /// Motion streaks on density dots on or off.
    SetStreaks(bool),
    /// Starts (true) or stops (false) a video recording (the frame loop does it).
    SetVideo(bool),
}
