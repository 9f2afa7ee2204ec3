//! What a pointer tool is ([`ToolDesc`]) and what it may do to the app ([`ToolHost`], which the
//! app's state implements): the tools' files read this module, not the app's state, so the tool
//! table and the state do not import each other.

use glam::Vec2;

/// What a tool may read and change of the app: the operations of the tools of the table.
pub trait ToolHost {
    /// The selected tool's reach in the world (wu; 0 for a tool without one).
    fn reach_wu(&self) -> f32;
    /// The obstacle points (wu).
    fn obstacles(&self) -> Vec<[f32; 2]>;
    /// Replaces the obstacle points (a message says why when the backend refuses them).
    fn set_obstacles(&mut self, points: Vec<[f32; 2]>);
    /// Largest spacing of drawn obstacle points (wu).
    fn obstacle_spacing(&self) -> f32;
    /// Where the tool's gesture started or last reached (wu), while the button is held: the
    /// obstacle stroke's last point, the predator drag's start; cleared when the tool changes or
    /// the pointer leaves.
    fn gesture(&mut self) -> &mut Option<Vec2>;
    /// The gesture's point without changing it.
    fn gesture_at(&self) -> Option<Vec2>;
    /// Adds the boids of one frame of the add tool at `at` (wu) spread over `spread` wu (the
    /// panel's rate, up to the app's limit).
    fn add_boids(&mut self, at: Vec2, spread: f32);
    /// Places a predator of the chosen kind at `at` (wu) with `velocity` (wu/s).
    fn place_predator(&mut self, at: Vec2, velocity: Vec2);
    /// A drag shorter than this (wu) at the current zoom is a click.
    fn still_wu(&self) -> f32;
    /// The radius predators are drawn with (wu).
    fn predator_radius_wu(&self) -> f32;
    /// A world point (wu) on screen (physical px from the window's top-left).
    fn to_screen(&self, at: Vec2) -> Vec2;
}

/// One pointer tool: what it is called and what the left button does with it.
pub struct ToolDesc {
    /// Name in scripts and reports: the tool bar's word in lower case.
    pub name: &'static str,
    /// An older script name still accepted (`draw`, `erase`).
    pub alias: Option<&'static str>,
    /// The tool bar's word.
    pub short: &'static str,
    /// Human label (the tool bar's hover text).
    pub label: &'static str,
    /// What the help says its number key does.
    pub help: &'static str,
    /// Its default radius on screen (logical px), for a tool whose reach the user sets (a slider
    /// in the panel, the script's `tool-radius`); `None` for one without.
    pub radius_px: Option<f32>,
    /// Its reach in the world when it is not a radius on screen (wu; the predator tool: the
    /// radius predators are drawn with).
    pub reach_wu: Option<fn(&dyn ToolHost) -> f32>,
    /// The pointer force while the button is held (docs/model.md §6.4): +1 draws boids to the
    /// pointer, −1 drives them away, 0 none; its radius is the tool's.
    pub pointer_force: f32,
    /// The button goes down over the world at this point (wu).
    pub press: fn(&mut dyn ToolHost, Vec2),
    /// The pointer moves to this point (wu) with the button held.
    pub drag: fn(&mut dyn ToolHost, Vec2),
    /// The button goes up, over the world at this point (wu) or off it.
    pub release: fn(&mut dyn ToolHost, Option<Vec2>),
    /// Each frame the button is held over the world at this point (wu), before the step.
    pub held: fn(&mut dyn ToolHost, Vec2),
    /// Draws what the tool shows beside its reach (the pointer at this position, points).
    pub overlay: fn(&dyn ToolHost, &egui::Painter, egui::Pos2, egui::Stroke),
}

/// A tool that does nothing: the base every tool's [`ToolDesc`] fills in (`..NO_TOOL`).
pub const NO_TOOL: ToolDesc = ToolDesc {
    name: "",
    alias: None,
    short: "",
    label: "",
    help: "",
    radius_px: None,
    reach_wu: None,
    pointer_force: 0.0,
    press: |_, _| {},
    drag: |_, _| {},
    release: |_, _| {},
    held: |_, _| {},
    overlay: |_, _, _, _| {},
};
