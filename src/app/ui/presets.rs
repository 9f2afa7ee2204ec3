//! The preset gallery of the panel: per scene of `scenes/` ([`crate::app::presets::Preset`], in
//! the gallery's order) its thumbnail, name and description; a click on either loads it as the
//! Load button loads a scene file.

use egui::RichText;

use crate::app::action::Action;
use crate::app::presets::Preset;
use crate::app::state::AppState;
use crate::app::ui::shared::UiOut;

/// Width of a thumbnail in the gallery (points; 16:9 as the images).
const THUMB_W: f32 = 96.0;

/// The gallery: per preset its thumbnail and name (either loads it), and its description in
/// plain words; the loaded preset marked.
pub fn gallery(ui: &mut egui::Ui, st: &AppState, out: &mut UiOut) {
    for p in Preset::gallery() {
        let on = st.scenes.preset.as_deref() == Some(p.name);
        let tip = format!("Load {}", p.path().display());
        ui.horizontal(|ui| {
            let mut load = false;
            if let Some(tex) = thumbnail(ui.ctx(), &p) {
                let size = egui::vec2(THUMB_W, THUMB_W * 9.0 / 16.0);
                let image = egui::Image::new(&tex).fit_to_exact_size(size);
                load |= ui
                    .add(egui::Button::image(image).selected(on))
                    .on_hover_text(&tip)
                    .clicked();
            }
            ui.vertical(|ui| {
                let name = ui.selectable_label(on, RichText::new(p.name).strong());
                out.widgets.push((format!("preset:{}", p.name), name.rect));
                load |= name.on_hover_text(&tip).clicked();
                ui.label(RichText::new(p.description()).small());
            });
            if load {
                out.actions.push(Action::LoadPreset(p.name.to_string()));
            }
        });
    }
}

/// The texture of `p`'s thumbnail, decoded and uploaded the first time the gallery shows it and
/// kept in egui's memory after; `None` for a scene without one.
fn thumbnail(ctx: &egui::Context, p: &Preset) -> Option<egui::TextureHandle> {
    let id = egui::Id::unique(("preset thumbnail", p.name));
    if let Some(t) = ctx.data(|d| d.get_temp::<egui::TextureHandle>(id)) {
        return Some(t);
    }
    let img = image::load_from_memory(p.thumbnail()?).ok()?.to_rgba8();
    let size = [img.width() as usize, img.height() as usize];
    let colour = egui::ColorImage::from_rgba_unmultiplied(size, img.as_raw());
    let t = ctx.load_texture(
        format!("preset {}", p.name),
        colour,
        egui::TextureOptions::LINEAR,
    );
    ctx.data_mut(|d| d.insert_temp(id, t.clone()));
    Some(t)
}
