//! The predator tool: a click places a predator; a drag gives it a velocity.

use glam::Vec2;

use crate::app::tools::desc::{ToolDesc, ToolHost, NO_TOOL};

/// A click places a predator (of the kind chosen in the panel) where the button went down;
/// dragging gives it the velocity that covers the drag in one second (drawn as an arrow while
/// dragging). Its reach is the radius predators are drawn with.
pub const TOOL: ToolDesc = ToolDesc {
    name: "predator",
    short: "Predator",
    label: "Place predators (drag: velocity)",
    help: "tool: predator (click; drag for its velocity)",
    reach_wu: Some(|host| host.predator_radius_wu()),
    press,
    release,
    overlay,
    ..NO_TOOL
};

fn press(host: &mut dyn ToolHost, at: Vec2) {
    *host.gesture() = Some(at);
}

fn release(host: &mut dyn ToolHost, to: Option<Vec2>) {
    if let (Some(from), Some(to)) = (host.gesture().take(), to) {
        let still = host.still_wu();
        host.place_predator(from, drag_velocity(from, to, still));
    }
}

/// The drag in progress: the velocity the predator will get (the drag per second), an arrow
/// from where the button went down to the pointer at `to` (points).
fn overlay(host: &dyn ToolHost, painter: &egui::Painter, to: egui::Pos2, stroke: egui::Stroke) {
    if let Some(from) = host.gesture_at() {
        let ppp = painter.ctx().pixels_per_point();
        let a = host.to_screen(from) / ppp;
        let a = egui::pos2(a.x, a.y);
        painter.arrow(a, to - a, stroke);
    }
}

/// The velocity (wu/s) of a predator placed by pressing at `from` and releasing at `to` (wu): the
/// drag is covered in one second; a drag shorter than `still` wu (a click) gives none.
pub fn drag_velocity(from: Vec2, to: Vec2, still: f32) -> Vec2 {
    let d = to - from;
    if d.is_finite() && d.length() >= still {
        d
    } else {
        Vec2::ZERO
    }
}

/// Largest predator radius as a fraction of the world's shorter side: a predator drawn at
/// `predator_scale` boid lengths stays a small disc in a small world (a Vicsek box 31.6 wu wide).
pub const PREDATOR_WORLD_FRACTION: f32 = 1.0 / 40.0;

/// The drawn radius of a predator (wu): `scale` boid lengths of `boid_length`, at most
/// [`PREDATOR_WORLD_FRACTION`] of the world's shorter side `short_side`.
pub fn predator_radius(scale: f32, boid_length: f32, short_side: f32) -> f32 {
    (scale * boid_length).min(PREDATOR_WORLD_FRACTION * short_side)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn predators_are_sized_to_small_worlds() {
        // The default world: 1.25 boid lengths of 6 wu.
        assert_eq!(predator_radius(1.25, 6.0, 1060.0), 7.5);
        // A 31.6 wu box: at most a fortieth of its side.
        assert!((predator_radius(1.25, 6.0, 31.6) - 0.79).abs() < 1e-6);
    }

    #[test]
    fn a_click_gives_no_velocity_and_a_drag_covers_itself_in_a_second() {
        let from = Vec2::new(10.0, 10.0);
        assert_eq!(drag_velocity(from, Vec2::new(10.5, 10.0), 1.0), Vec2::ZERO);
        assert_eq!(
            drag_velocity(from, Vec2::new(40.0, 50.0), 1.0),
            Vec2::new(30.0, 40.0)
        );
    }
}
