//! The preset gallery of the panel: one button per scene of `scenes/`
//! ([`crate::app::presets::Preset`]) with its description; a click loads it as the Load button
//! loads a scene file.

use egui::RichText;

use crate::app::presets::Preset;
use crate::app::state::{Action, AppState};
use crate::app::ui::shared::UiOut;

/// The gallery's buttons, the loaded preset marked.
pub fn gallery(ui: &mut egui::Ui, st: &AppState, out: &mut UiOut) {
    for p in Preset::all() {
        ui.horizontal_wrapped(|ui| {
            let on = st.preset.as_deref() == Some(p.name);
            if ui
                .selectable_label(on, p.name)
                .on_hover_text(format!("Load {}", p.path().display()))
                .clicked()
            {
                out.actions.push(Action::LoadPreset(p.name.to_string()));
            }
            ui.label(RichText::new(p.description()).small());
        });
    }
}
