//! The control panel (right side, inside the window at any size, scrolling when taller): the
//! model and its parameters ([`crate::app::ui::params`]), the preset gallery, the live plot, the
//! flock (count, boid size, backend), the tools (radii in pixels, weights, obstacles), the
//! predator tool, the scene file, view and sound. Every section's header is recorded
//! ([`crate::app::ui::shared::Section`]) so the run report can say where it is and whether it is
//! open.

use egui::{Align2, RichText};

use crate::app::action::Action;
use crate::app::state::AppState;
use crate::app::tools::Tool;
use crate::app::ui::params::param_sections;
use crate::app::ui::plot::live_plot;
use crate::app::ui::presets::gallery;
use crate::app::ui::shared::{
    labelled, section, slider, Hud, UiOut, FOLDED_TOOLBAR_PT, MARGIN, PANEL_PT, TOOLBAR_PT,
};
use crate::app::ui::toolbar::compact;
use crate::backend::BackendKind;
use crate::model::PredatorKind;
use crate::render::{ColourMode, Theme};

/// The panel's width (points) in a window `screen_width` points wide.
pub fn panel_width(screen_width: f32) -> f32 {
    (screen_width - 2.0 * MARGIN).clamp(40.0, PANEL_PT)
}

fn flock(ui: &mut egui::Ui, st: &AppState, out: &mut UiOut) {
    let mut n = st.run.sim.len();
    let r = labelled(
        ui,
        egui::Slider::new(&mut n, 1..=st.run.max_boids.max(2)).logarithmic(true),
        "boids",
        None,
    );
    out.widgets.push(("boids".to_string(), r.rect));
    if r.changed() && n != st.run.sim.len() {
        out.actions.push(Action::SetBoidCount(n));
    }
    let mut size = st.view.style.boid_length;
    // Up to a twentieth of the world, or four times the size that suits its parameters.
    let p = st.run.sim.params();
    let suits = crate::render::boid_length_for(p, st.run.sim.len());
    let side = p.world_width.min(p.world_height);
    let top = crate::app::ui::params::nice_up((side / 20.0).max(4.0 * suits) as f64) as f32;
    slider(ui, &mut size, (top / 1000.0)..=top, "boid size (wu)");
    if size != st.view.style.boid_length {
        out.actions.push(Action::SetBoidSize(size));
    }
    ui.horizontal(|ui| {
        ui.label("backend");
        let mut b = st.run.sim.kind();
        ui.selectable_value(&mut b, BackendKind::Gpu, "GPU");
        ui.selectable_value(&mut b, BackendKind::Cpu, "CPU reference");
        if b != st.run.sim.kind() {
            out.actions.push(Action::SetBackend(b));
        }
    });
}

fn tools(ui: &mut egui::Ui, st: &AppState, out: &mut UiOut) {
    let mut rate = st.tools.add_rate as f32;
    slider(ui, &mut rate, 1.0..=200.0, "boids added per frame");
    if rate.round() as usize != st.tools.add_rate {
        out.actions.push(Action::SetAddRate(rate.round() as usize));
    }
    for t in Tool::all() {
        let (Some(px), Some(wu)) = (st.tool_radius_px(t), st.tool_radius_wu(t)) else {
            continue;
        };
        let mut v = px;
        slider(
            ui,
            &mut v,
            2.0..=400.0,
            &format!("{} radius (px; {wu:.3} wu)", t.short().to_lowercase()),
        );
        if v != px {
            out.actions.push(Action::SetToolRadius { tool: t, px: v });
        }
    }
    let mut weight = st.tools.pointer_weight;
    slider(ui, &mut weight, 0.0..=20.0, "attract/repel weight");
    if weight != st.tools.pointer_weight {
        out.actions.push(Action::SetPointerWeight(weight));
    }
    let mut ia = *st.run.sim.interaction();
    let ia_before = ia;
    slider(
        ui,
        &mut ia.obstacle_radius,
        0.0..=150.0,
        "obstacle radius (wu)",
    );
    slider(ui, &mut ia.obstacle_weight, 0.0..=20.0, "obstacle weight");
    slider(
        ui,
        &mut ia.obstacle_bounce_radius,
        0.0..=50.0,
        "obstacle bounce radius (wu)",
    );
    if ia != ia_before {
        out.actions.push(Action::SetInteraction(ia));
    }
    ui.horizontal(|ui| {
        ui.label(format!(
            "{} obstacle points",
            st.run.sim.actors().obstacles.len()
        ));
        if ui.button("Clear (Delete)").clicked() {
            out.actions.push(Action::ClearObstacles);
        }
    });
}

/// The predator tool's settings (under the Predators parameters).
fn predator_tool(ui: &mut egui::Ui, st: &AppState, out: &mut UiOut) {
    ui.horizontal(|ui| {
        ui.label("tool places");
        let mut k = st.tools.predator_kind;
        ui.selectable_value(&mut k, PredatorKind::Hunting, "hunting");
        ui.selectable_value(&mut k, PredatorKind::Straight, "straight");
        if k != st.tools.predator_kind {
            out.actions.push(Action::SetPredatorKind(k));
        }
    });
    ui.horizontal(|ui| {
        ui.label(format!("{} predators", st.run.sim.predator_count()));
        if ui.button("Remove all").clicked() {
            out.actions.push(Action::ClearPredators);
        }
    });
}

fn scene_file(ui: &mut egui::Ui, st: &AppState, out: &mut UiOut) {
    let mut path = st.scenes.path.clone();
    ui.add(
        egui::TextEdit::singleline(&mut path)
            .hint_text("path/to/scene.toml")
            .desired_width(f32::INFINITY),
    );
    if path != st.scenes.path {
        out.actions.push(Action::SetScenePath(path));
    }
    ui.horizontal(|ui| {
        if ui
            .button("Save")
            .on_hover_text(if cfg!(target_arch = "wasm32") {
                "Parameters, world, obstacles, predators, count and seed: downloaded as the \
                 path's file name"
            } else {
                "Parameters, world, obstacles, predators, count and seed"
            })
            .clicked()
        {
            out.actions.push(Action::SaveScene);
        }
        if ui
            .button("Load")
            .on_hover_text(if cfg!(target_arch = "wasm32") {
                "A new flock from a scene file you pick (or drop one on the page): its world, \
                 count, seed and actors"
            } else {
                "A new flock from the scene: its world, count, seed and actors"
            })
            .clicked()
        {
            out.actions.push(Action::LoadScene);
        }
    });
    if let Some(s) = &st.scenes.status {
        ui.add(egui::Label::new(RichText::new(s).small()).wrap());
    }
}

fn view(ui: &mut egui::Ui, st: &AppState, info: &Hud, out: &mut UiOut) {
    ui.horizontal(|ui| {
        ui.label("theme");
        let mut t = st.view.style.theme;
        ui.selectable_value(&mut t, Theme::Dark, "dark");
        ui.selectable_value(&mut t, Theme::Light, "light");
        if t != st.view.style.theme {
            out.actions.push(Action::SetTheme(t));
        }
    });
    ui.horizontal_wrapped(|ui| {
        ui.label("colour (C)");
        let mut c = st.view.style.colour;
        for m in ColourMode::ALL {
            ui.selectable_value(&mut c, m, m.name())
                .on_hover_text(m.description());
        }
        if c != st.view.style.colour {
            out.actions.push(Action::SetColour(c));
        }
    });
    let mut trails = st.view.style.trails;
    if ui.checkbox(&mut trails, "Trails (T)").changed() {
        out.actions.push(Action::SetTrails(trails));
    }
    let mut streaks = st.view.style.streaks;
    if ui
        .checkbox(&mut streaks, "Streaks when zoomed out")
        .on_hover_text("Each density dot drawn with a short streak behind it along its heading")
        .changed()
    {
        out.actions.push(Action::SetStreaks(streaks));
    }
    ui.horizontal_wrapped(|ui| {
        if ui.button("Reset view (Home)").clicked() {
            out.actions.push(Action::ResetView);
        }
        if ui.button("Immersion (F11)").clicked() {
            out.actions.push(Action::SetImmersive(true));
        }
    });
    ui.horizontal_wrapped(|ui| {
        let mut hud = st.ui.hud_visible;
        if ui.checkbox(&mut hud, "HUD (H)").changed() {
            out.actions.push(Action::SetHud(hud));
        }
        let mut details = st.ui.hud_details;
        if ui.checkbox(&mut details, "details (I)").changed() {
            out.actions.push(Action::SetHudDetails(details));
        }
    });
    let mut sound = st.sound_on;
    if ui.checkbox(&mut sound, "Ambient sound (M)").changed() {
        out.actions.push(Action::SetSound(sound));
    }
    if let Some(s) = &info.sound {
        ui.label(RichText::new(s).weak().small());
    }
}

/// Every section of the panel, in order.
pub fn contents(ui: &mut egui::Ui, st: &AppState, info: &Hud, out: &mut UiOut) {
    param_sections(ui, st, out, |title, ui, out| {
        if title == "Predators" {
            predator_tool(ui, st, out);
        }
    });
    section(ui, out, "Presets", false, |ui, out| gallery(ui, st, out));
    section(ui, out, "Order and flocks", true, |ui, _| live_plot(ui, st));
    section(ui, out, "Flock", true, |ui, out| flock(ui, st, out));
    section(ui, out, "Tools", false, |ui, out| tools(ui, st, out));
    section(ui, out, "Scene file", false, |ui, out| {
        scene_file(ui, st, out)
    });
    section(ui, out, "View and sound", false, |ui, out| {
        view(ui, st, info, out)
    });
}

/// The control panel: right side, inside the window at any size, scrolling when taller, above
/// the tool bar.
pub fn panel(ctx: &egui::Context, st: &AppState, info: &Hud, out: &mut UiOut) {
    let screen = ctx.content_rect();
    let width = panel_width(screen.width());
    let bottom = if compact(ctx) {
        FOLDED_TOOLBAR_PT
    } else {
        TOOLBAR_PT
    };
    let height = (screen.height() - 2.0 * MARGIN - bottom).max(40.0);
    let r = egui::Window::new("Controls")
        .id(egui::Id::unique("panel"))
        .anchor(Align2::RIGHT_TOP, [-MARGIN, MARGIN])
        .collapsible(false)
        .resizable(false)
        .constrain(true)
        .fixed_size([width - 16.0, height - 40.0])
        // Narrower than its sliders, the panel scrolls sideways too rather than grow off-screen.
        .scroll([width < PANEL_PT, true])
        .show(ctx, |ui| {
            contents(ui, st, info, out);
        });
    if let Some(r) = r {
        out.areas.push(("panel", r.response.rect));
    }
}
