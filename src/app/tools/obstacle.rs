//! The obstacle tool: dragging draws a stroke of obstacle points.

use glam::Vec2;

use crate::app::tools::desc::{ToolDesc, ToolHost, NO_TOOL};

/// Dragging draws an obstacle stroke, its points at most the obstacle spacing apart.
pub const TOOL: ToolDesc = ToolDesc {
    name: "obstacle",
    alias: Some("draw"),
    short: "Obstacle",
    label: "Draw obstacles",
    help: "tool: obstacle",
    press: draw_to,
    drag: draw_to,
    ..NO_TOOL
};

/// Extends the stroke in progress to `to` (wu), or starts one there.
fn draw_to(host: &mut dyn ToolHost, to: Vec2) {
    let mut pts = host.obstacles();
    match host.gesture_at() {
        None => pts.push(to.into()),
        Some(last) => {
            let new = resample_stroke(last, to, host.obstacle_spacing());
            if new.is_empty() {
                return;
            }
            pts.extend(new.iter().map(|p| <[f32; 2]>::from(*p)));
        }
    }
    *host.gesture() = pts.last().map(|p| Vec2::from(*p));
    host.set_obstacles(pts);
}

/// The points to append to a stroke whose last point is `last` when the pointer reaches `to`
/// (wu): evenly spaced so that consecutive points are never farther apart than `spacing`, ending
/// at `to`. Empty when `to` is closer than `spacing` to `last` (the stroke waits for the pointer).
pub fn resample_stroke(last: Vec2, to: Vec2, spacing: f32) -> Vec<Vec2> {
    let d = to - last;
    let len = d.length();
    if !(len.is_finite()) || spacing <= 0.0 || len < spacing {
        return Vec::new();
    }
    let n = (len / spacing).ceil().min(100_000.0) as usize;
    (1..=n).map(|k| last + d * (k as f32 / n as f32)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stroke_points_are_never_farther_apart_than_the_spacing() {
        let mut last = Vec2::new(0.0, 0.0);
        let mut all = vec![last];
        for to in [
            Vec2::new(1.0, 0.0),
            Vec2::new(37.5, 12.0),
            Vec2::new(-100.0, 80.0),
            Vec2::new(-100.5, 80.0),
        ] {
            let pts = resample_stroke(last, to, 4.0);
            if let Some(p) = pts.last() {
                assert!((*p - to).length() < 1e-3);
                last = *p;
            }
            all.extend(pts);
        }
        for w in all.windows(2) {
            assert!(w[0].distance(w[1]) <= 4.0 + 1e-3, "{:?}", w);
        }
        assert!(all.len() > 40);
    }
}
