//! What the app shows besides the world ([`UiFlags`]): the panel, the pause menu, the help or
//! start screen, the HUD and its details, immersion; with the actions that are theirs alone.

use crate::app::action::Action;

/// Which parts of the interface are shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UiFlags {
    /// Control panel shown.
    pub panel_open: bool,
    /// Pause menu shown.
    pub menu_open: bool,
    /// Fullscreen immersion (HUD and panel hidden).
    pub immersive: bool,
    /// Help overlay shown.
    pub help_open: bool,
    /// The help overlay is the start screen (Start, Settings, Quit) until first closed.
    pub start_screen: bool,
    /// HUD shown.
    pub hud_visible: bool,
    /// HUD with details (frame budget, adapter, world) rather than compact.
    pub hud_details: bool,
}

impl Default for UiFlags {
    /// The HUD alone, compact.
    fn default() -> Self {
        UiFlags {
            panel_open: false,
            menu_open: false,
            immersive: false,
            help_open: false,
            start_screen: false,
            hud_visible: true,
            hud_details: false,
        }
    }
}

impl UiFlags {
    /// Applies an action of the interface's alone (panel, help, HUD and its details); the app's
    /// reducer sends it no other (the pause menu and immersion also pause or resume, so the
    /// reducer does those).
    pub fn apply(&mut self, action: Action) {
        match action {
            Action::SetPanel(open) => self.panel_open = open,
            Action::SetHelp(open) => {
                self.help_open = open;
                if !open {
                    self.start_screen = false;
                }
            }
            Action::SetHud(on) => self.hud_visible = on,
            Action::SetHudDetails(on) => self.hud_details = on,
            // Not the interface's: the reducer routes each action to its owner.
            _ => {}
        }
    }
}
