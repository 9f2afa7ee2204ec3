//! The app-level input events that real window events and scripted test input are both turned
//! into ([`crate::app::window`] and [`crate::app::script`]), handled in one place
//! ([`crate::app::state::AppState::input`]).

use glam::Vec2;

use crate::app::keys::AppKey;

/// A mouse button the app uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Button {
    /// Uses the selected tool.
    Left,
    /// Pans the view.
    Middle,
    /// Pans the view.
    Right,
}

impl Button {
    /// Parses `left`, `middle` or `right`.
    pub fn parse(s: &str) -> Option<Button> {
        match s {
            "left" => Some(Button::Left),
            "middle" => Some(Button::Middle),
            "right" => Some(Button::Right),
            _ => None,
        }
    }
}

/// An input event as the app sees it. Real winit events and scripted events both become these and
/// go through the same handler ([`crate::app::state::AppState::input`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum InputEvent {
    /// The pointer moved to this position (physical px from the window's top-left corner).
    PointerMoved(Vec2),
    /// The pointer left the window.
    PointerLeft,
    /// A button went down or up.
    Button {
        /// Which.
        button: Button,
        /// Down (true) or up.
        pressed: bool,
    },
    /// Wheel notches at the pointer (positive zooms in).
    Wheel(f32),
    /// A key press.
    Key(AppKey),
}
