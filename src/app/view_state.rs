//! The view's share of the app's state ([`ViewState`]): the camera, how the boids look, the
//! window's scale factor and whether the user moved the view; with the actions that are the
//! view's alone (theme, colour, trails, streaks, fitting the world again).

use glam::Vec2;

use crate::app::action::Action;
use crate::model::SimParams;
use crate::render::{Camera, Edge, RenderStyle};

/// What the view holds between frames.
#[derive(Clone, Debug)]
pub struct ViewState {
    /// The camera (pan and zoom).
    pub camera: Camera,
    /// How boids look (min sizes already multiplied by the scale factor).
    pub style: RenderStyle,
    /// Window scale factor (physical px per logical px).
    pub scale_factor: f32,
    /// The user panned or zoomed since the view last fitted the world: resizes keep the view
    /// rather than fitting the world again.
    pub moved: bool,
}

impl ViewState {
    /// A view through `camera` drawing boids `boid_length` wu long, at scale factor 1.
    pub fn new(camera: Camera, boid_length: f32) -> ViewState {
        ViewState {
            camera,
            style: RenderStyle {
                boid_length,
                ..RenderStyle::default()
            },
            scale_factor: 1.0,
            moved: false,
        }
    }

    /// Applies an action of the view's (theme, colour, trails, streaks, reset view); the app's
    /// reducer sends it no other.
    pub fn apply(&mut self, action: Action) {
        match action {
            Action::SetTheme(t) => self.style.theme = t,
            Action::SetColour(m) => self.style.colour = m,
            Action::SetTrails(on) => self.style.trails = on,
            Action::SetStreaks(on) => self.style.streaks = on,
            Action::ResetView => self.fit(),
            // Not the view's: the reducer routes each action to its owner.
            _ => {}
        }
    }

    /// Sets the scale factor (HiDPI): on-screen minimum sizes follow it (a factor that is not
    /// finite and positive is taken as 1).
    pub fn set_scale_factor(&mut self, scale: f32) {
        let scale = if scale.is_finite() && scale > 0.0 {
            scale
        } else {
            1.0
        };
        let base = RenderStyle::default();
        self.scale_factor = scale;
        self.style.min_length_px = base.min_length_px * scale;
        self.style.max_length_px = base.max_length_px * scale;
        self.style.dot_min_px = base.dot_min_px * scale;
        self.style.streak_px = base.streak_px * scale;
        self.style.edge_px = base.edge_px * scale;
        self.style.obstacle_min_px = base.obstacle_min_px * scale;
    }

    /// The style to draw `params` with: [`ViewState::style`] with the edge of its boundary mode
    /// and the speed colour map over the model's spawn speeds (from 0 for a constant speed).
    pub fn render_style(&self, params: &SimParams) -> RenderStyle {
        RenderStyle {
            edge: Edge::of(params.boundary),
            speed_range: RenderStyle::speed_range_of(params),
            ..self.style
        }
    }

    /// Fits the whole world in the view again and forgets that the user moved it.
    pub fn fit(&mut self) {
        self.camera.reset();
        self.moved = false;
    }

    /// The world of `params` is the camera's: a view the user has not moved fits it again.
    pub fn set_world(&mut self, params: &SimParams) {
        self.camera
            .set_world(Vec2::new(params.world_width, params.world_height));
        if !self.moved {
            self.camera.reset();
        }
    }
}
