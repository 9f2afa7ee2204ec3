//! The help overlay (every key of [`crate::app::keys::bindings`] and the mouse; also the start
//! screen) and the Esc pause menu. The help sits between the HUD and the tool bar, never over
//! them.

use egui::{Align2, Color32, RichText};

use crate::app::action::Action;
use crate::app::keys;
use crate::app::state::AppState;
use crate::app::ui::shared::{UiOut, MARGIN};

/// The Esc menu (pauses): resume, settings, help, sound, immersion, reset, quit.
pub fn pause_menu(ctx: &egui::Context, st: &AppState, out: &mut UiOut) {
    // Dim the paused flock behind the menu.
    ctx.layer_painter(egui::LayerId::new(
        egui::Order::Background,
        egui::Id::unique("pause dim"),
    ))
    .rect_filled(ctx.content_rect(), 0.0, Color32::from_black_alpha(110));
    let r = egui::Window::new("Paused")
        .id(egui::Id::unique("menu"))
        .collapsible(false)
        .resizable(false)
        .constrain(true)
        .vscroll(true)
        .max_height((ctx.content_rect().height() - 2.0 * MARGIN).max(40.0))
        .anchor(Align2::CENTER_CENTER, [0.0, 0.0])
        .show(ctx, |ui| {
            ui.set_min_width(160.0_f32.min(ctx.content_rect().width() - 40.0));
            ui.vertical_centered_justified(|ui| {
                let a = &mut out.actions;
                if ui.button("Resume (Esc)").clicked() {
                    a.push(Action::SetMenu(false));
                }
                if ui.button("Settings (Tab)").clicked() {
                    a.push(Action::SetPanel(true));
                }
                if ui.button("Help (F1)").clicked() {
                    a.push(Action::SetHelp(true));
                }
                let sound = if st.sound_on {
                    "Sound: on (M)"
                } else {
                    "Sound: off (M)"
                };
                if ui.button(sound).clicked() {
                    a.push(Action::SetSound(!st.sound_on));
                }
                if ui.button("Immersion (F11)").clicked() {
                    a.push(Action::SetImmersive(true));
                }
                if ui.button("Reset flock").clicked() {
                    a.push(Action::ResetFlock);
                }
                // A tab is closed by the browser: no Quit there.
                if !cfg!(target_arch = "wasm32") && ui.button("Quit").clicked() {
                    a.push(Action::Quit);
                }
            });
        });
    if let Some(r) = r {
        out.areas.push(("menu", r.response.rect));
    }
}

/// What the help overlay says besides the key table.
pub const HELP_INTRO: &str = "Boids steer by separation, alignment and cohesion with their \
neighbours, and take on their neighbours' colour. Pick a tool in the tool bar (or its number key) and use \
it with the left button.";

/// The help overlay: the mouse, then every row of [`keys::help_rows`]; on the start screen
/// (`start`) with Start, Settings and Quit, and `note` (what was chosen for this machine). It is centred in `band` (points: the window less the
/// HUD above and the tool bar below; the whole window when `None`) and scrolls inside it.
/// Returns the actions and the rectangle drawn.
pub fn help_window(
    ctx: &egui::Context,
    start: bool,
    note: Option<&str>,
    band: Option<egui::Rect>,
    out: &mut Vec<Action>,
) -> Option<egui::Rect> {
    let screen = ctx.content_rect();
    let band = band.unwrap_or(screen.shrink(MARGIN));
    let title = if start { "boids" } else { "Help" };
    // Rows of about 20 points plus the title, buttons and introduction: where that does not fit
    // the window scrolls inside the band. The title bar and frame take about 40 points.
    let rows = keys::help_rows().len() + keys::MOUSE.len();
    let needed = 20.0 * rows as f32 + 130.0;
    let room = (band.height() - 40.0).max(40.0);
    let offset = band.center() - screen.center();
    let window = egui::Window::new(title)
        .id(egui::Id::unique("help"))
        .collapsible(false)
        .resizable(false)
        .constrain(true)
        .anchor(Align2::CENTER_CENTER, offset)
        .max_width((band.width() - 16.0).clamp(60.0, 460.0))
        .max_height(room);
    let narrow = band.width() < 440.0;
    let window = if needed > room || narrow {
        window
            .scroll([narrow, needed > room])
            .min_height(room.min(needed))
    } else {
        window
    };
    let r = window.show(ctx, |ui| {
        ui.horizontal_wrapped(|ui| {
            let first = if start { "Start" } else { "Close (F1)" };
            if ui.button(first).clicked() {
                out.push(Action::SetHelp(false));
            }
            if start {
                if ui.button("Settings").clicked() {
                    out.push(Action::SetHelp(false));
                    out.push(Action::SetPanel(true));
                }
                if !cfg!(target_arch = "wasm32") && ui.button("Quit").clicked() {
                    out.push(Action::Quit);
                }
            }
        });
        ui.label(RichText::new(HELP_INTRO).small());
        // The start screen says what was chosen for this machine (the software adapter's defaults).
        if let Some(note) = note.filter(|_| start) {
            ui.label(RichText::new(note).small().italics());
        }
        ui.add_space(4.0);
        egui::Grid::new("help keys")
            .num_columns(2)
            .spacing([12.0, 2.0])
            .striped(true)
            .show(ui, |ui| {
                for (what, does) in keys::MOUSE {
                    ui.label(RichText::new(*what).strong());
                    ui.label(*does);
                    ui.end_row();
                }
                for (k, does) in keys::help_rows() {
                    ui.label(RichText::new(k).strong().monospace());
                    ui.label(does);
                    ui.end_row();
                }
            });
    });
    r.map(|r| r.response.rect)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs one egui pass of `size` points with `build`, returning every text drawn.
    fn texts_of(size: egui::Vec2, build: impl FnMut(&egui::Context)) -> Vec<String> {
        let ctx = egui::Context::default();
        let input = egui::RawInput {
            screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, size)),
            ..Default::default()
        };
        let mut build = build;
        // Two passes: windows size themselves on the first.
        let mut o = ctx.run_pass(input.clone(), &mut build);
        o.textures_delta.clear();
        let mut o = ctx.run_pass(input, &mut build);
        o.textures_delta.clear();
        let mut texts = Vec::new();
        for clipped in &o.shapes {
            collect_text(&clipped.shape, &mut texts);
        }
        texts
    }

    fn collect_text(shape: &egui::Shape, out: &mut Vec<String>) {
        match shape {
            egui::Shape::Text(t) => out.push(t.galley.text().to_string()),
            egui::Shape::Vec(v) => v.iter().for_each(|s| collect_text(s, out)),
            _ => {}
        }
    }

    /// The help overlay, as drawn, lists every key of the key table (label and what it does) and
    /// every mouse action; the start screen adds Start, Settings and Quit.
    #[test]
    fn the_help_overlay_lists_every_bound_key() {
        for start in [false, true] {
            let texts = texts_of(egui::vec2(900.0, 1400.0), |ctx| {
                help_window(ctx, start, None, None, &mut Vec::new());
            });
            for b in keys::bindings() {
                let row = texts
                    .iter()
                    .position(|t| t.split(", ").any(|k| k == b.label))
                    .unwrap_or_else(|| panic!("key {} not in the help: {texts:?}", b.label));
                assert!(
                    texts[row + 1] == b.help,
                    "{}: {:?} follows, not {:?}",
                    b.label,
                    texts[row + 1],
                    b.help
                );
            }
            for (what, does) in keys::MOUSE {
                assert!(texts.iter().any(|t| t == what), "{what}");
                assert!(texts.iter().any(|t| t == does), "{does}");
            }
            for b in ["Start", "Settings", "Quit"] {
                assert_eq!(texts.iter().any(|t| t == b), start, "{b}");
            }
        }
    }

    /// A key missing from the drawn help is noticed: the check above is run against a help that
    /// leaves the last row out.
    #[test]
    fn a_help_without_a_key_is_caught() {
        let texts = texts_of(egui::vec2(900.0, 1400.0), |ctx| {
            egui::Window::new("Help").show(ctx, |ui| {
                let rows = keys::help_rows();
                for (k, does) in &rows[..rows.len() - 1] {
                    ui.label(k.as_str());
                    ui.label(*does);
                }
            });
        });
        let missing: Vec<&str> = keys::bindings()
            .filter(|b| !texts.iter().any(|t| t.split(", ").any(|k| k == b.label)))
            .map(|b| b.label)
            .collect();
        assert_eq!(missing, vec!["F11"]);
    }

    /// Every character the UI's text uses (in this file, the key table and the clock's labels)
    /// is in egui's default fonts, so none shows as a missing-glyph box (the "●" did).
    #[test]
    fn every_ui_character_has_a_glyph() {
        let ctx = egui::Context::default();
        let mut o = ctx.run_pass(Default::default(), |_| {});
        o.textures_delta.clear();
        let sources = [
            include_str!("help.rs"),
            include_str!("hud.rs"),
            include_str!("toolbar.rs"),
            include_str!("panel.rs"),
            include_str!("params.rs"),
            include_str!("plot.rs"),
            include_str!("presets.rs"),
            include_str!("overlay.rs"),
            include_str!("../keys.rs"),
            include_str!("../clock.rs"),
        ];
        // The tool table's words, whatever file a tool is in.
        let tools: Vec<String> = crate::app::tools::TOOLS
            .iter()
            .map(|t| [t.short, t.label, t.help].join(" "))
            .collect();
        let mut missing = Vec::new();
        for src in sources.into_iter().chain(tools.iter().map(String::as_str)) {
            for line in src.lines().filter(|l| !l.trim_start().starts_with("//")) {
                for c in line.chars().filter(|c| !c.is_ascii()) {
                    let font = egui::FontId::proportional(14.0);
                    if !ctx.fonts_mut(|f| f.has_glyph(&font, c)) && !missing.contains(&c) {
                        missing.push(c);
                    }
                }
            }
        }
        // And what the code writes by escape or borrows: the digit-group space of `thousands`,
        // the micro sign of `format_ms`.
        for c in ['\u{202f}', 'µ', '—'] {
            let font = egui::FontId::proportional(14.0);
            if !ctx.fonts_mut(|f| f.has_glyph(&font, c)) {
                missing.push(c);
            }
        }
        assert!(missing.is_empty(), "no glyph for {missing:?}");
        // The check can fail: the old recording mark has no glyph.
        let font = egui::FontId::proportional(14.0);
        assert!(!ctx.fonts_mut(|f| f.has_glyph(&font, '\u{25CF}')));
    }
}
