//! The add tool: holding the button keeps adding boids at the pointer.

use glam::Vec2;

use crate::app::tools::desc::{ToolDesc, ToolHost, NO_TOOL};

/// Holding the button keeps adding boids at the pointer (random heading, pastel hue), up to the
/// app's limit, spread over the tool's radius.
pub const TOOL: ToolDesc = ToolDesc {
    name: "add",
    short: "Add",
    label: "Add boids",
    help: "tool: add boids",
    radius_px: Some(12.0),
    held,
    ..NO_TOOL
};

fn held(host: &mut dyn ToolHost, at: Vec2) {
    let spread = host.reach_wu();
    host.add_boids(at, spread);
}
