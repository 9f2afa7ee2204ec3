//! The captures' share of the app's state ([`Captures`]): the live benchmark capture (F9) and the
//! video recordings (V, `--record`); with the action that is theirs (start or stop a video).

use crate::app::action::Action;
use crate::app::record::LiveRecording;
use crate::app::recording::Videos;

/// The live capture and the video recordings.
#[derive(Default)]
pub struct Captures {
    /// F9 was pressed: the frame loop starts or stops the live capture.
    pub toggle: bool,
    /// The live capture being recorded, if any.
    pub live: Option<LiveRecording>,
    /// The video recordings (V, `--record`): the one in progress, and those finishing.
    pub video: Videos,
}

impl Captures {
    /// Applies an action of the captures' (start or stop a video: the frame loop does it); the
    /// app's reducer sends them no other.
    pub fn apply(&mut self, action: Action) {
        if let Action::SetVideo(on) = action {
            self.video.request = Some(on);
        }
    }
}
