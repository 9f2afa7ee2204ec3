//! The egui layer, one part a file: the HUD ([`hud`], top left), the tool bar ([`toolbar`],
//! bottom; folded into one button when the window is narrower than the bar), the control panel
//! ([`panel`], right: the model and its parameters ([`params`]), presets ([`presets`]), the live
//! plot ([`plot`]), the flock, tools, scene file, view and sound), the help overlay and pause
//! menu ([`help`]), and the messages and tool cursor ([`overlay`]); what they share is
//! [`shared`]. Every change is returned as an [`Action`](crate::app::action::Action) for
//! `AppState::apply`.
//!
//! Every area has a fixed name (see [`UiOut::areas`]) so the run report can say where it was
//! drawn, and tests can check that nothing runs off the window or over another area.

pub mod help;
pub mod hud;
pub mod overlay;
pub mod panel;
pub mod params;
pub mod plot;
pub mod presets;
pub mod shared;
pub mod toolbar;

pub use help::{help_window, HELP_INTRO};
pub use hud::{short_count, speed_text};
pub use shared::{Hud, Section, UiOut};
pub use toolbar::{compact, SHORT_PT};

use crate::app::state::AppState;
use crate::render::Theme;
use shared::MARGIN;

/// Builds the whole UI for one frame; returns the requested changes and the areas drawn.
pub fn draw(ctx: &egui::Context, st: &AppState, info: &Hud) -> UiOut {
    let mut out = UiOut::default();
    let screen = ctx.content_rect();
    if !st.ui.immersive {
        // The HUD stays left of the panel.
        let panel_left = screen.right() - MARGIN - panel::panel_width(screen.width());
        let right = if st.ui.panel_open {
            panel_left - MARGIN
        } else {
            screen.right()
        };
        if st.ui.hud_visible {
            hud::hud(ctx, st, info, right, &mut out);
        }
        toolbar::toolbar(ctx, st, &mut out);
        if st.ui.panel_open {
            panel::panel(ctx, st, info, &mut out);
        }
        overlay::messages(ctx, st, out.area("hud"), out.area("panel"), &mut out);
    }
    if st.ui.menu_open {
        help::pause_menu(ctx, st, &mut out);
    }
    if st.ui.help_open {
        // Below the HUD and the message, above the tool bar, and left of the panel where that
        // leaves room for it.
        let top = ["hud", "messages"]
            .iter()
            .filter_map(|n| out.area(n))
            .map(|r| r.bottom())
            .fold(screen.top(), f32::max);
        let bottom = out.area("toolbar").map_or(screen.bottom(), |r| r.top());
        let right = out
            .area("panel")
            .map(|p| p.left())
            .filter(|l| l - screen.left() - 2.0 * MARGIN >= 300.0)
            .unwrap_or(screen.right());
        let band = egui::Rect::from_min_max(
            egui::pos2(screen.left() + MARGIN, top + MARGIN),
            egui::pos2(right - MARGIN, (bottom - MARGIN).max(top + 2.0 * MARGIN)),
        );
        if let Some(r) = help::help_window(
            ctx,
            st.ui.start_screen,
            st.note.as_deref(),
            Some(band),
            &mut out.actions,
        ) {
            out.areas.push(("help", r));
        }
    }
    overlay::tool_cursor(ctx, st);
    out
}

/// The egui theme for an app theme. Set as egui's theme preference (not as visuals of the current
/// theme, which egui-winit would swap back to the system's dark or light style).
pub fn egui_theme(theme: Theme) -> egui::Theme {
    match theme {
        Theme::Dark => egui::Theme::Dark,
        Theme::Light => egui::Theme::Light,
    }
}
