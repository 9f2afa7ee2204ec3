//! The attract tool: boids near the pointer seek it while the button is held.

use crate::app::tools::desc::{ToolDesc, NO_TOOL};

/// Boids within the tool's radius seek the pointer (the pointer force of docs/model.md §6.4, at
/// the panel's weight).
pub const TOOL: ToolDesc = ToolDesc {
    name: "attract",
    short: "Attract",
    label: "Attract",
    help: "tool: attract",
    radius_px: Some(100.0),
    pointer_force: 1.0,
    ..NO_TOOL
};
