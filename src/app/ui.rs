//! The egui layer: HUD (fps, step time of each backend, boid count, adapter), a corner button and
//! the control panel (hidden by default) with live sliders for every weight, radius and speed, the
//! boid size and count, boundary mode, backend, tool and theme; the Esc pause menu; and the tool
//! cursor. Every change is returned as an [`Action`] for [`AppState::apply`].

use egui::{Align2, Color32, RichText};

use crate::app::state::{Action, AppState};
use crate::app::tools::Tool;
use crate::backend::BackendKind;
use crate::model::{Boundary, SimParams};
use crate::render::Theme;

/// Figures the HUD shows that the state does not hold.
#[derive(Clone, Debug, Default)]
pub struct Hud {
    /// Frames per second (smoothed).
    pub fps: f32,
    /// Adapter name and kind.
    pub adapter: String,
}

fn ms(v: Option<f64>) -> String {
    v.map_or("–".to_string(), |m| format!("{m:.2} ms"))
}

fn thousands(n: usize) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push('\u{202f}');
        }
        out.push(c);
    }
    out
}

fn hud(ctx: &egui::Context, st: &AppState, hud: &Hud) {
    let frame = egui::Frame::popup(&ctx.global_style()).multiply_with_opacity(0.85);
    egui::Area::new(egui::Id::unique("hud"))
        .anchor(Align2::LEFT_TOP, [10.0, 10.0])
        .interactable(false)
        .show(ctx, |ui| {
            frame.show(ui, |ui| {
                let running = st.sim.kind();
                ui.label(
                    RichText::new(format!("{:.0} fps", hud.fps))
                        .strong()
                        .size(16.0),
                );
                ui.horizontal(|ui| {
                    ui.spacing_mut().item_spacing.x = 10.0;
                    ui.label("step");
                    for (k, name, t) in [
                        (BackendKind::Gpu, "GPU", st.sim.step_ms_gpu()),
                        (BackendKind::Cpu, "CPU", st.sim.step_ms_cpu()),
                    ] {
                        let text = RichText::new(format!("{name} {}", ms(t)));
                        ui.label(if k == running {
                            text.strong()
                        } else {
                            text.weak()
                        });
                    }
                });
                let p = st.sim.params();
                ui.label(format!(
                    "{} boids · {} · {:.0}×{:.0} wu",
                    thousands(st.sim.len()),
                    p.boundary.name(),
                    p.world_width,
                    p.world_height
                ));
                ui.label(RichText::new(&hud.adapter).weak());
                ui.label(format!("tool: {} (1–5)", st.tool.label()));
                if let Some(note) = &st.note {
                    ui.label(RichText::new(note).weak().italics());
                }
                if st.paused {
                    ui.label(RichText::new("paused (Space)").strong());
                }
                if let Some(rec) = &st.recording {
                    ui.label(
                        RichText::new(format!("● recording: {} frames (F9 stops)", rec.frames()))
                            .color(Color32::from_rgb(220, 60, 60))
                            .strong(),
                    );
                }
                if let Some(m) = st.recent_message() {
                    ui.label(RichText::new(m).color(Color32::from_rgb(230, 120, 100)));
                }
            });
        });
}

/// A slider whose range bounds what the user can enter, while a value set outside it (by a scene
/// or the command line, within `SimParams`' own ranges) is left as it is.
fn slider(ui: &mut egui::Ui, v: &mut f32, range: std::ops::RangeInclusive<f32>, text: &str) {
    ui.add(
        egui::Slider::new(v, range)
            .clamping(egui::SliderClamping::Edits)
            .text(text),
    );
}

fn panel_contents(ui: &mut egui::Ui, st: &AppState, out: &mut Vec<Action>) {
    let mut p: SimParams = st.sim.params().clone();
    let before = p.clone();
    egui::CollapsingHeader::new("Flock")
        .default_open(true)
        .show(ui, |ui| {
            let mut n = st.sim.len();
            let r = ui.add(
                egui::Slider::new(&mut n, 1..=st.max_boids.max(2))
                    .logarithmic(true)
                    .text("boids"),
            );
            if r.changed() && n != st.sim.len() {
                out.push(Action::SetBoidCount(n));
            }
            let mut size = st.style.boid_length;
            slider(ui, &mut size, 1.0..=40.0, "boid size (wu)");
            if size != st.style.boid_length {
                out.push(Action::SetBoidSize(size));
            }
            ui.horizontal(|ui| {
                ui.label("backend");
                let mut b = st.sim.kind();
                ui.selectable_value(&mut b, BackendKind::Gpu, "GPU");
                ui.selectable_value(&mut b, BackendKind::Cpu, "CPU reference");
                if b != st.sim.kind() {
                    out.push(Action::SetBackend(b));
                }
            });
            ui.horizontal(|ui| {
                ui.label("edges");
                for b in [Boundary::Wrap, Boundary::Walls, Boundary::Bounce] {
                    ui.selectable_value(&mut p.boundary, b, b.name());
                }
            });
            if p.boundary == Boundary::Walls {
                slider(ui, &mut p.wall_distance, 0.0..=200.0, "wall distance (wu)");
                slider(ui, &mut p.wall_weight, 0.0..=2000.0, "wall weight (wu/s²)");
            }
        });
    egui::CollapsingHeader::new("Rules")
        .default_open(true)
        .show(ui, |ui| {
            slider(ui, &mut p.separation_weight, 0.0..=5.0, "separation");
            slider(ui, &mut p.alignment_weight, 0.0..=5.0, "alignment");
            slider(ui, &mut p.cohesion_weight, 0.0..=5.0, "cohesion");
            slider(
                ui,
                &mut p.hue_cohesion_weight,
                0.0..=20.0,
                "colour cohesion",
            );
            slider(
                ui,
                &mut p.hue_alignment_weight,
                0.0..=20.0,
                "colour alignment",
            );
            slider(
                ui,
                &mut p.rotational_diffusion,
                0.0..=5.0,
                "rotational diffusion D_r (rad²/s)",
            );
        });
    egui::CollapsingHeader::new("Radii (wu)")
        .default_open(true)
        .show(ui, |ui| {
            slider(ui, &mut p.separation_radius, 1.0..=80.0, "separation");
            slider(ui, &mut p.alignment_radius, 1.0..=80.0, "alignment");
            slider(ui, &mut p.cohesion_radius, 1.0..=80.0, "cohesion");
            slider(ui, &mut p.hue_radius, 1.0..=80.0, "colour");
            let mut k = p.max_neighbors as f32;
            slider(ui, &mut k, 0.0..=256.0, "neighbour cap (0 = none)");
            p.max_neighbors = k.round() as u32;
        });
    egui::CollapsingHeader::new("Speeds")
        .default_open(true)
        .show(ui, |ui| {
            slider(ui, &mut p.max_speed, 1.0..=500.0, "max speed (wu/s)");
            let max = p.max_speed;
            slider(ui, &mut p.min_speed, 0.0..=max, "min speed (wu/s)");
            slider(ui, &mut p.max_force, 0.0..=2000.0, "max force (wu/s²)");
            slider(ui, &mut p.max_hue_speed, 0.0..=5.0, "max hue speed (1/s)");
        });
    let mut p = p.with_perception_following(&before);
    p.min_speed = p.min_speed.min(p.max_speed);
    if p != before {
        out.push(Action::SetParams(Box::new(p)));
    }

    egui::CollapsingHeader::new("Tools")
        .default_open(true)
        .show(ui, |ui| {
            ui.horizontal_wrapped(|ui| {
                for (k, t) in Tool::ALL.into_iter().enumerate() {
                    if ui
                        .selectable_label(st.tool == t, format!("{} {}", k + 1, t.label()))
                        .clicked()
                    {
                        out.push(Action::SetTool(t));
                    }
                }
            });
            let mut rate = st.add_rate as f32;
            slider(ui, &mut rate, 1.0..=200.0, "boids added per frame");
            if rate.round() as usize != st.add_rate {
                out.push(Action::SetAddRate(rate.round() as usize));
            }
            let (mut radius, mut weight) = (st.pointer_radius, st.pointer_weight);
            slider(ui, &mut radius, 10.0..=1000.0, "attract/repel radius (wu)");
            slider(ui, &mut weight, 0.0..=20.0, "attract/repel weight");
            if (radius, weight) != (st.pointer_radius, st.pointer_weight) {
                out.push(Action::SetPointer { radius, weight });
            }
            let mut ia = *st.sim.interaction();
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
                out.push(Action::SetInteraction(ia));
            }
            ui.horizontal(|ui| {
                ui.label(format!(
                    "{} obstacle points",
                    st.sim.actors().obstacles.len()
                ));
                if ui.button("Clear (Del)").clicked() {
                    out.push(Action::ClearObstacles);
                }
            });
        });
    egui::CollapsingHeader::new("View")
        .default_open(true)
        .show(ui, |ui| {
            ui.horizontal(|ui| {
                ui.label("theme");
                let mut t = st.style.theme;
                ui.selectable_value(&mut t, Theme::Dark, "dark");
                ui.selectable_value(&mut t, Theme::Light, "light");
                if t != st.style.theme {
                    out.push(Action::SetTheme(t));
                }
            });
            ui.horizontal(|ui| {
                if ui.button("Reset view (Home)").clicked() {
                    out.push(Action::ResetView);
                }
                if ui.button("Immersion (F11)").clicked() {
                    out.push(Action::SetImmersive(true));
                }
            });
            ui.label(
                RichText::new(
                    "wheel: zoom · right/middle drag: pan · left: tool\n\
                     Space pause · Tab panel · Esc menu",
                )
                .weak()
                .small(),
            );
        });
}

fn pause_menu(ctx: &egui::Context, out: &mut Vec<Action>) {
    // Dim the paused flock behind the menu.
    ctx.layer_painter(egui::LayerId::new(
        egui::Order::Background,
        egui::Id::unique("pause dim"),
    ))
    .rect_filled(ctx.content_rect(), 0.0, Color32::from_black_alpha(110));
    egui::Window::new("Paused")
        .collapsible(false)
        .resizable(false)
        .anchor(Align2::CENTER_CENTER, [0.0, 0.0])
        .show(ctx, |ui| {
            ui.set_min_width(180.0);
            ui.vertical_centered_justified(|ui| {
                if ui.button("Resume").clicked() {
                    out.push(Action::SetMenu(false));
                }
                if ui.button("Settings").clicked() {
                    out.push(Action::SetPanel(true));
                }
                if ui.button("Immersion (F11)").clicked() {
                    out.push(Action::SetImmersive(true));
                }
                if ui.button("Reset flock").clicked() {
                    out.push(Action::ResetFlock);
                }
                if ui.button("Quit").clicked() {
                    out.push(Action::Quit);
                }
            });
        });
}

fn tool_cursor(ctx: &egui::Context, st: &AppState) {
    let (Some(p), false) = (st.pointer, st.immersive) else {
        return;
    };
    if ctx.is_pointer_over_egui() {
        return;
    }
    let ppp = ctx.pixels_per_point();
    let centre = egui::pos2(p.x / ppp, p.y / ppp);
    let r_pts = |wu: f32| wu * st.camera.zoom / ppp;
    let color = match st.style.theme {
        Theme::Dark => Color32::from_white_alpha(110),
        Theme::Light => Color32::from_black_alpha(110),
    };
    let painter = ctx.layer_painter(egui::LayerId::new(
        egui::Order::Foreground,
        egui::Id::unique("tool cursor"),
    ));
    let radius = match st.tool {
        Tool::Add => r_pts(crate::app::state::defaults::ADD_SPREAD),
        Tool::Draw => 3.0,
        Tool::Erase => r_pts(st.eraser_radius()),
        Tool::Attract | Tool::Repel => r_pts(st.pointer_radius),
    };
    let width = if st.tool_active() { 2.0 } else { 1.0 };
    painter.circle_stroke(centre, radius.max(2.0), egui::Stroke::new(width, color));
}

/// Builds the whole UI for one frame; returns the requested changes.
pub fn draw(ctx: &egui::Context, st: &AppState, info: &Hud) -> Vec<Action> {
    let mut out = Vec::new();
    if !st.immersive {
        hud(ctx, st, info);
        egui::Area::new(egui::Id::unique("corner"))
            .anchor(Align2::RIGHT_TOP, [-10.0, 10.0])
            .show(ctx, |ui| {
                let label = if st.panel_open { "Close" } else { "Controls" };
                if ui
                    .button(label)
                    .on_hover_text("Show or hide the controls (Tab)")
                    .clicked()
                {
                    out.push(Action::SetPanel(!st.panel_open));
                }
            });
        if st.panel_open {
            let h = (ctx.content_rect().height() - 100.0).max(120.0);
            egui::Window::new("Controls")
                .anchor(Align2::RIGHT_TOP, [-10.0, 44.0])
                .collapsible(false)
                .resizable(false)
                .fixed_size([330.0, h - 40.0])
                .show(ctx, |ui| {
                    egui::ScrollArea::vertical()
                        .max_height(h - 40.0)
                        .show(ui, |ui| panel_contents(ui, st, &mut out));
                });
        }
    }
    if st.menu_open {
        pause_menu(ctx, &mut out);
    }
    tool_cursor(ctx, st);
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
