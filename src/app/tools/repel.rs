//! The repel tool: boids near the pointer flee it while the button is held.

use crate::app::tools::desc::{ToolDesc, NO_TOOL};

/// Boids within the tool's radius flee the pointer (the pointer force of docs/model.md §6.4, at
/// minus the panel's weight).
pub const TOOL: ToolDesc = ToolDesc {
    name: "repel",
    short: "Repel",
    label: "Repel",
    help: "tool: repel",
    radius_px: Some(100.0),
    pointer_force: -1.0,
    ..NO_TOOL
};
