//! The eraser: dragging erases the obstacle points under the pointer.

use glam::Vec2;

use crate::app::tools::desc::{ToolDesc, ToolHost, NO_TOOL};

/// Dragging erases the obstacle points within the tool's radius of the pointer.
pub const TOOL: ToolDesc = ToolDesc {
    name: "eraser",
    alias: Some("erase"),
    short: "Eraser",
    label: "Erase obstacles",
    help: "tool: eraser",
    radius_px: Some(24.0),
    press: erase_at,
    drag: erase_at,
    ..NO_TOOL
};

fn erase_at(host: &mut dyn ToolHost, at: Vec2) {
    let mut pts = host.obstacles();
    if erase_points(&mut pts, at, host.reach_wu()) > 0 {
        host.set_obstacles(pts);
    }
}

/// Removes the obstacle points within `radius` (wu) of `at`; returns how many were removed.
pub fn erase_points(points: &mut Vec<[f32; 2]>, at: Vec2, radius: f32) -> usize {
    let before = points.len();
    let r2 = radius * radius;
    points.retain(|p| Vec2::from(*p).distance_squared(at) > r2);
    before - points.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn erase_removes_only_points_in_the_radius() {
        let mut pts = vec![[0.0, 0.0], [5.0, 0.0], [20.0, 0.0]];
        assert_eq!(erase_points(&mut pts, Vec2::new(1.0, 0.0), 6.0), 2);
        assert_eq!(pts, vec![[20.0, 0.0]]);
    }
}
