//! Pointer tools (docs/model.md §6.4–§6.5, §18): add boids while the button is held, draw
//! obstacles, erase obstacles, attract, repel, place predators.

use glam::Vec2;

/// The tool of the left mouse button.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Tool {
    /// Holding the button keeps adding boids at the pointer (random heading, pastel hue).
    #[default]
    Add,
    /// Dragging draws an obstacle stroke.
    Draw,
    /// Dragging erases obstacle points under the pointer.
    Erase,
    /// Boids near the pointer seek it.
    Attract,
    /// Boids near the pointer flee it.
    Repel,
    /// A click places a predator (of the kind chosen in the panel) where the button went down;
    /// dragging gives it the velocity that covers the drag in one second.
    Predator,
}

impl Tool {
    /// Every tool, in the order of their number keys 1–6 and of the tool bar (a new tool goes
    /// here, gets a row in [`crate::app::keys::KEYS`] and a button by itself).
    pub const ALL: [Tool; 6] = [
        Tool::Add,
        Tool::Draw,
        Tool::Erase,
        Tool::Attract,
        Tool::Repel,
        Tool::Predator,
    ];

    /// Name as written in scripts and reports: the tool bar's word in lower case.
    pub fn name(self) -> &'static str {
        match self {
            Tool::Add => "add",
            Tool::Draw => "obstacle",
            Tool::Erase => "eraser",
            Tool::Attract => "attract",
            Tool::Repel => "repel",
            Tool::Predator => "predator",
        }
    }

    /// Older script names still accepted (`draw`, `erase`).
    pub fn alias(self) -> Option<&'static str> {
        match self {
            Tool::Draw => Some("draw"),
            Tool::Erase => Some("erase"),
            _ => None,
        }
    }

    /// The tool's reach on screen: its default radius in logical pixels, or `None` for a tool
    /// without one (the obstacle pen draws where the pointer is; a predator is sized to the
    /// world, [`predator_radius`]).
    pub fn default_radius_px(self) -> Option<f32> {
        match self {
            Tool::Add => Some(12.0),
            Tool::Erase => Some(24.0),
            Tool::Attract | Tool::Repel => Some(100.0),
            Tool::Draw | Tool::Predator => None,
        }
    }

    /// The tool's index in [`Tool::ALL`].
    pub fn index(self) -> usize {
        Tool::ALL.iter().position(|t| *t == self).unwrap_or(0)
    }

    /// Human label.
    pub fn label(self) -> &'static str {
        match self {
            Tool::Add => "Add boids",
            Tool::Draw => "Draw obstacles",
            Tool::Erase => "Erase obstacles",
            Tool::Attract => "Attract",
            Tool::Repel => "Repel",
            Tool::Predator => "Place predators (drag: velocity)",
        }
    }

    /// The tool bar's word for it.
    pub fn short(self) -> &'static str {
        match self {
            Tool::Add => "Add",
            Tool::Draw => "Obstacle",
            Tool::Erase => "Eraser",
            Tool::Attract => "Attract",
            Tool::Repel => "Repel",
            Tool::Predator => "Predator",
        }
    }

    /// Parses a script name ([`Tool::name`], or an [`Tool::alias`]).
    pub fn parse(s: &str) -> Option<Tool> {
        Tool::ALL
            .into_iter()
            .find(|t| t.name() == s || t.alias() == Some(s))
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

    #[test]
    fn names_match_the_tool_bar_and_old_names_still_parse() {
        for t in Tool::ALL {
            assert_eq!(t.name(), t.short().to_lowercase());
            assert_eq!(Tool::parse(t.name()), Some(t));
            assert_eq!(Tool::ALL[t.index()], t);
        }
        assert_eq!(Tool::parse("draw"), Some(Tool::Draw));
        assert_eq!(Tool::parse("erase"), Some(Tool::Erase));
        assert_eq!(Tool::parse("hammer"), None);
    }

    #[test]
    fn predators_are_sized_to_small_worlds() {
        // The default world: 1.25 boid lengths of 6 wu.
        assert_eq!(predator_radius(1.25, 6.0, 1060.0), 7.5);
        // A 31.6 wu box: at most a fortieth of its side.
        assert!((predator_radius(1.25, 6.0, 31.6) - 0.79).abs() < 1e-6);
    }

    #[test]
    fn erase_removes_only_points_in_the_radius() {
        let mut pts = vec![[0.0, 0.0], [5.0, 0.0], [20.0, 0.0]];
        assert_eq!(erase_points(&mut pts, Vec2::new(1.0, 0.0), 6.0), 2);
        assert_eq!(pts, vec![[20.0, 0.0]]);
    }
}
