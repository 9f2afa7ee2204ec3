//! The 2D camera: which part of the world (wu) the viewport (physical px) shows.
//!
//! Screen y grows downwards and so does world y, so a world point maps to the screen by
//! `screen = (p − center) · zoom + viewport / 2`. Pointer positions from winit are physical pixels
//! (already multiplied by the window's scale factor), so they map through the camera directly.

use glam::Vec2;

/// Smallest zoom relative to the zoom that fits the world (zooming out past the whole world).
pub const MIN_ZOOM_OF_FIT: f32 = 0.5;
/// Largest zoom relative to the zoom that fits the world.
pub const MAX_ZOOM_OF_FIT: f32 = 64.0;
/// Zoom factor of one wheel line (notch).
pub const WHEEL_STEP: f32 = 1.15;

/// What the viewport shows: centre, zoom, viewport size and the world it may move over.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Camera {
    /// World point at the centre of the viewport (wu).
    pub center: Vec2,
    /// Scale (px per wu).
    pub zoom: f32,
    /// Viewport size (physical px); both components > 0.
    pub viewport: Vec2,
    /// World size W × H (wu).
    pub world: Vec2,
}

impl Camera {
    /// A camera showing the whole world `world` (wu) centred in a `viewport` (px). Zero viewport
    /// components are taken as 1 px.
    pub fn fit(world: Vec2, viewport: Vec2) -> Camera {
        let mut c = Camera {
            center: world * 0.5,
            zoom: 1.0,
            viewport: viewport.max(Vec2::ONE),
            world: world.max(Vec2::splat(1e-3)),
        };
        c.zoom = c.fit_zoom();
        c
    }

    /// The zoom (px per wu) at which the whole world just fits the viewport.
    pub fn fit_zoom(&self) -> f32 {
        (self.viewport.x / self.world.x).min(self.viewport.y / self.world.y)
    }

    /// Zoom limits (px per wu): [`MIN_ZOOM_OF_FIT`] and [`MAX_ZOOM_OF_FIT`] times the fit zoom.
    pub fn zoom_limits(&self) -> (f32, f32) {
        let f = self.fit_zoom();
        (f * MIN_ZOOM_OF_FIT, f * MAX_ZOOM_OF_FIT)
    }

    /// Shows the whole world again (the reset-view key).
    pub fn reset(&mut self) {
        *self = Camera::fit(self.world, self.viewport);
    }

    /// Changes the viewport size (px), keeping centre and zoom; ignored when either side is 0
    /// (a minimised window keeps its last view).
    pub fn set_viewport(&mut self, viewport: Vec2) {
        if viewport.x >= 1.0 && viewport.y >= 1.0 {
            self.viewport = viewport;
            self.clamp();
        }
    }

    /// Changes the world size (wu), keeping the view clamped to it.
    pub fn set_world(&mut self, world: Vec2) {
        self.world = world.max(Vec2::splat(1e-3));
        self.clamp();
    }

    /// Screen position (px) of world point `p` (wu).
    pub fn world_to_screen(&self, p: Vec2) -> Vec2 {
        (p - self.center) * self.zoom + self.viewport * 0.5
    }

    /// World point (wu) under screen position `s` (px).
    pub fn screen_to_world(&self, s: Vec2) -> Vec2 {
        (s - self.viewport * 0.5) / self.zoom + self.center
    }

    /// Moves the view with a drag of `delta` px (the world follows the pointer).
    pub fn pan_px(&mut self, delta: Vec2) {
        self.center -= delta / self.zoom;
        self.clamp();
    }

    /// Multiplies the zoom by `factor` (clamped to [`Camera::zoom_limits`]) keeping the world point
    /// under `cursor` (px) fixed on screen.
    pub fn zoom_at(&mut self, cursor: Vec2, factor: f32) {
        if !factor.is_finite() || factor <= 0.0 {
            return;
        }
        let anchor = self.screen_to_world(cursor);
        let (lo, hi) = self.zoom_limits();
        self.zoom = (self.zoom * factor).clamp(lo, hi);
        // Keep `anchor` under the cursor: cursor = (anchor − center)·zoom + viewport/2.
        self.center = anchor - (cursor - self.viewport * 0.5) / self.zoom;
        self.clamp();
    }

    /// Zooms by `lines` wheel notches (positive zooms in) about `cursor` (px).
    pub fn wheel(&mut self, cursor: Vec2, lines: f32) {
        self.zoom_at(cursor, WHEEL_STEP.powf(lines.clamp(-20.0, 20.0)));
    }

    /// Keeps the zoom inside its limits and the centre inside the world rectangle.
    pub fn clamp(&mut self) {
        let (lo, hi) = self.zoom_limits();
        if !self.zoom.is_finite() {
            self.zoom = self.fit_zoom();
        }
        self.zoom = self.zoom.clamp(lo, hi);
        if !self.center.is_finite() {
            self.center = self.world * 0.5;
        }
        self.center = self.center.clamp(Vec2::ZERO, self.world);
    }

    /// The world rectangle visible in the viewport: (min corner, max corner) in wu.
    pub fn visible_world(&self) -> (Vec2, Vec2) {
        let half = self.viewport * 0.5 / self.zoom;
        (self.center - half, self.center + half)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zoom_keeps_the_point_under_the_cursor() {
        let mut c = Camera::fit(Vec2::new(1000.0, 500.0), Vec2::new(800.0, 600.0));
        let cursor = Vec2::new(600.0, 200.0);
        let before = c.screen_to_world(cursor);
        c.wheel(cursor, 3.0);
        assert!(c.zoom > c.fit_zoom());
        let after = c.screen_to_world(cursor);
        assert!((before - after).length() < 1e-3, "{before} vs {after}");
    }

    #[test]
    fn zoom_is_clamped() {
        let mut c = Camera::fit(Vec2::new(1000.0, 1000.0), Vec2::new(500.0, 500.0));
        c.wheel(Vec2::splat(250.0), -20.0);
        assert!((c.zoom - c.fit_zoom() * MIN_ZOOM_OF_FIT).abs() < 1e-6);
        for _ in 0..10 {
            c.wheel(Vec2::splat(250.0), 20.0);
        }
        assert!((c.zoom - c.fit_zoom() * MAX_ZOOM_OF_FIT).abs() < 1e-4);
    }

    #[test]
    fn pan_moves_the_world_with_the_pointer_and_stays_in_the_world() {
        let mut c = Camera::fit(Vec2::new(1000.0, 1000.0), Vec2::new(500.0, 500.0));
        c.zoom_at(Vec2::splat(250.0), 4.0);
        let p = c.screen_to_world(Vec2::new(100.0, 100.0));
        c.pan_px(Vec2::new(30.0, -20.0));
        let s = c.world_to_screen(p);
        assert!((s - Vec2::new(130.0, 80.0)).length() < 1e-3);
        c.pan_px(Vec2::new(1e7, 1e7));
        assert_eq!(c.center, Vec2::ZERO);
    }

    #[test]
    fn zero_viewport_is_ignored() {
        let mut c = Camera::fit(Vec2::new(100.0, 100.0), Vec2::new(200.0, 100.0));
        let before = c;
        c.set_viewport(Vec2::ZERO);
        assert_eq!(c, before);
        c.set_viewport(Vec2::new(400.0, 100.0));
        assert_eq!(c.viewport, Vec2::new(400.0, 100.0));
    }
}
