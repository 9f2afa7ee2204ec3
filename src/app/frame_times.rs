//! Where a frame's time went, CPU side ([`FrameTimes`]): measured by the frame loop
//! ([`crate::app::frame`]), shown smoothed by the HUD ([`crate::app::ui`]), recorded frame by
//! frame in live captures ([`crate::app::record`]).

/// Where one frame's time went, CPU side (ms): `frame` is the time between presents; `ui` the egui
/// pass and its tessellation; `step` recording and submitting the frame's steps (GPU backend) or
/// running them (CPU backend); `render` encoding and submitting the draw; `present` acquiring
/// the surface texture and presenting it, which includes waiting for the GPU and for vsync.
/// The HUD shows a smoothed copy; live captures record each frame's.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FrameTimes {
    /// Between presents.
    pub frame_ms: Option<f64>,
    /// egui pass and tessellation.
    pub ui_ms: Option<f64>,
    /// The frame's steps (submit on the GPU, run on the CPU).
    pub step_ms: Option<f64>,
    /// Encoding and submitting the draw.
    pub render_ms: Option<f64>,
    /// Acquire and present.
    pub present_ms: Option<f64>,
}

impl FrameTimes {
    /// Moves each figure a tenth of the way to `new`'s (takes `new`'s where there was none).
    pub fn smooth(&mut self, new: &FrameTimes) {
        let mix = |old: &mut Option<f64>, new: Option<f64>| {
            if let Some(n) = new {
                *old = Some(old.map_or(n, |o| o + 0.1 * (n - o)));
            }
        };
        mix(&mut self.frame_ms, new.frame_ms);
        mix(&mut self.ui_ms, new.ui_ms);
        mix(&mut self.step_ms, new.step_ms);
        mix(&mut self.render_ms, new.render_ms);
        mix(&mut self.present_ms, new.present_ms);
    }
}
