//! The pointer tools' share of the app's state ([`ToolState`]): which tool is selected, each
//! tool's radius, the pointer force's weight, the add tool's rate, the predator tool's kind and
//! the gesture in progress. The tools themselves are the table of [`crate::app::tools`].

use glam::Vec2;

use crate::app::action::Action;
use crate::app::tools::Tool;
use crate::model::PredatorKind;

/// The tools' defaults (their radii are [`Tool::default_radius_px`]).
pub mod defaults {
    /// Attract/repel weight (steering weight, like the rule weights).
    pub const POINTER_WEIGHT: f32 = 3.0;
    /// Largest distance between consecutive points of a drawn obstacle (wu).
    pub const OBSTACLE_SPACING: f32 = 4.0;
    /// Boids added per frame while the add tool is held.
    pub const ADD_RATE: usize = 12;
    /// A predator-tool drag shorter than this (physical px at scale factor 1) is a click: the
    /// predator gets no velocity.
    pub const STILL_PX: f32 = 4.0;
}

/// What the pointer tools hold between frames.
#[derive(Clone, Debug)]
pub struct ToolState {
    /// Selected tool.
    pub tool: Tool,
    /// Each tool's radius on screen (logical px), by [`Tool::index`] (0 for a tool without one).
    pub tool_px: Vec<f32>,
    /// Attract/repel weight (> 0; the sign comes from the tool).
    pub pointer_weight: f32,
    /// Boids added per frame while the add tool is held.
    pub add_rate: usize,
    /// Largest spacing of drawn obstacle points (wu).
    pub obstacle_spacing: f32,
    /// The kind of predator the predator tool places.
    pub predator_kind: PredatorKind,
    /// The tool's gesture while the button is held ([`crate::app::tools::ToolHost::gesture`]):
    /// the obstacle stroke's last point, where the predator drag started (wu).
    pub gesture: Option<Vec2>,
}

impl Default for ToolState {
    fn default() -> Self {
        ToolState {
            tool: Tool::default(),
            tool_px: Tool::all()
                .map(|t| t.default_radius_px().unwrap_or(0.0))
                .collect(),
            pointer_weight: defaults::POINTER_WEIGHT,
            add_rate: defaults::ADD_RATE,
            obstacle_spacing: defaults::OBSTACLE_SPACING,
            predator_kind: PredatorKind::Hunting,
            gesture: None,
        }
    }
}

impl ToolState {
    /// A tool's radius on screen (logical px), for a tool with one.
    pub fn radius_px(&self, tool: Tool) -> Option<f32> {
        tool.default_radius_px().map(|_| self.tool_px[tool.index()])
    }
}

impl ToolState {
    /// Applies an action of the tools' (the tool, a radius, the weight, the add rate, the predator
    /// kind); the app's reducer sends them no other. A radius is kept within 1 ..= 2000 logical
    /// px, the weight within 0 ..= 100, the rate within 1 ..= 10 000 boids a frame.
    ///
    /// # Errors
    /// What to tell the user when the selected tool has no radius to set.
    pub fn apply(&mut self, action: Action) -> Result<(), String> {
        match action {
            Action::SetTool(t) => {
                self.tool = t;
                self.gesture = None;
            }
            Action::SetToolRadius { tool, px } if tool.default_radius_px().is_some() => {
                self.tool_px[tool.index()] = if px.is_finite() {
                    px.clamp(1.0, 2000.0)
                } else {
                    1.0
                };
            }
            Action::SetSelectedToolRadius(px) => {
                let tool = self.tool;
                if tool.default_radius_px().is_none() {
                    return Err(format!("the {} tool has no radius", tool.name()));
                }
                return self.apply(Action::SetToolRadius { tool, px });
            }
            Action::SetPointerWeight(w) => self.pointer_weight = w.clamp(0.0, 100.0),
            Action::SetAddRate(r) => self.add_rate = r.clamp(1, 10_000),
            Action::SetPredatorKind(k) => self.predator_kind = k,
            // A radius for a tool without one, or not the tools': the reducer routes each action
            // to its owner.
            _ => {}
        }
        Ok(())
    }
}
