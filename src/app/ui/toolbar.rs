//! The tool bar (bottom centre): the tools, the selected tool's reach (its radius in pixels and
//! what that is in the world), pause, speed, step, help and the panel. It folds into one button
//! (bottom left) opening the same buttons in a column when the window is narrower than the bar
//! as measured (or shorter than [`SHORT_PT`]): never clipped.

use egui::{Align2, RichText};

use crate::app::action::Action;
use crate::app::clock::{speed_label, SPEEDS};
use crate::app::keys::{self, AppKey};
use crate::app::state::AppState;
use crate::app::tools::Tool;
use crate::app::ui::shared::{UiOut, MARGIN};

/// Heights below this (points) get the one-button tool bar.
pub const SHORT_PT: f32 = 300.0;

/// Where the one-row bar's measured width (points) is kept between passes.
fn width_id() -> egui::Id {
    egui::Id::unique("toolbar row width")
}

/// The one-row bar's width (points) as last laid out, frame included.
pub fn row_width(ctx: &egui::Context) -> Option<f32> {
    ctx.data(|d| d.get_temp::<f32>(width_id()))
}

/// Whether the window is too small for the one-row tool bar: narrower than the bar as measured
/// plus the margins, or shorter than [`SHORT_PT`].
pub fn compact(ctx: &egui::Context) -> bool {
    let screen = ctx.content_rect();
    let needed = row_width(ctx).unwrap_or(f32::INFINITY) + 2.0 * MARGIN;
    screen.width() < needed || screen.height() < SHORT_PT
}

/// The selected tool's reach as the tool bar shows it: `r 100 px = 147 wu`, or for a predator
/// the world radius it is drawn with; `None` for a tool without one.
pub fn reach_text(st: &AppState) -> Option<String> {
    let wu = st.tool_radius_wu(st.tools.tool)?;
    let world = if wu >= 10.0 {
        format!("{wu:.0}")
    } else {
        format!("{wu:.2}")
    };
    Some(match st.tool_radius_px(st.tools.tool) {
        Some(px) => format!("r {px:.0} px = {world} wu"),
        None => format!("r {world} wu"),
    })
}

/// The widest text [`reach_text`] gives in practice (radii below 1000 px and 10 000 wu): the
/// width of the reach's slot.
const REACH_WIDEST: &str = "r 888 px = 8888 wu";

/// The tool bar's buttons, laid out by `ui` (a row, or a column in the popup).
fn buttons(ui: &mut egui::Ui, st: &AppState, out: &mut UiOut) {
    for t in Tool::all() {
        let keys = keys::keys_of(AppKey::Tool(t));
        if ui
            .selectable_label(st.tools.tool == t, t.short())
            .on_hover_text(format!("{} ({keys})", t.label()))
            .clicked()
        {
            out.actions.push(Action::SetTool(t));
        }
    }
    // The reach sits in a slot as wide as its widest text (or empty, for a tool without one), and
    // the pause button keeps its label (lit while paused), so that no button moves when the tool
    // or the pause changes.
    let slot = egui::WidgetText::from(RichText::new(REACH_WIDEST).weak())
        .into_galley(
            ui,
            Some(egui::TextWrapMode::Extend),
            f32::INFINITY,
            egui::TextStyle::Body,
        )
        .size();
    let reach = reach_text(st).unwrap_or_default();
    ui.add_sized(
        slot,
        egui::Label::new(RichText::new(reach).weak()).truncate(),
    )
    .on_hover_text("The tool's radius on screen and in the world (set in the panel's Tools)");
    ui.separator();
    let tip = if st.run.paused {
        "Paused: resume (Space)"
    } else {
        "Pause (Space)"
    };
    if ui
        .selectable_label(st.run.paused, "Pause")
        .on_hover_text(tip)
        .clicked()
    {
        out.actions.push(Action::SetPaused(!st.run.paused));
    }
    for s in SPEEDS {
        let on = (st.run.clock.speed - s).abs() < 1e-9;
        if ui
            .selectable_label(on, speed_label(s))
            .on_hover_text("Simulation speed, × real time (- and =)")
            .clicked()
        {
            out.actions.push(Action::SetSpeed(s));
            if st.run.paused {
                out.actions.push(Action::SetPaused(false));
            }
        }
    }
    if ui
        .button("Step")
        .on_hover_text("One step, then stay paused (.)")
        .clicked()
    {
        out.actions.push(Action::StepOnce);
    }
    ui.separator();
    if ui
        .selectable_label(st.ui.help_open, "Help")
        .on_hover_text("Every key and what it does (F1 or ?)")
        .clicked()
    {
        out.actions.push(Action::SetHelp(!st.ui.help_open));
    }
    if ui
        .selectable_label(st.ui.panel_open, "Controls")
        .on_hover_text("Model, presets, rules, tools and view settings (Tab)")
        .clicked()
    {
        out.actions.push(Action::SetPanel(!st.ui.panel_open));
    }
}

/// Lays the one-row bar out where nothing is drawn or clicked (an invisible area off the
/// window), only to measure it.
fn measure(ctx: &egui::Context, st: &AppState, frame: egui::Frame) {
    let r = egui::Area::new(egui::Id::unique("toolbar measure"))
        .fixed_pos(egui::pos2(-100_000.0, -100_000.0))
        .constrain(false)
        .interactable(false)
        .show(ctx, |ui| {
            ui.disable();
            ui.set_invisible();
            frame.show(ui, |ui| {
                ui.horizontal(|ui| buttons(ui, st, &mut UiOut::default()));
            });
        });
    let w = r.response.rect.width();
    ctx.data_mut(|d| d.insert_temp(width_id(), w));
}

/// Draws the tool bar: one row at the bottom centre, or folded into one button at the bottom
/// left when it does not fit ([`compact`]).
pub fn toolbar(ctx: &egui::Context, st: &AppState, out: &mut UiOut) {
    let screen = ctx.content_rect();
    let frame = egui::Frame::popup(&ctx.global_style()).multiply_with_opacity(0.9);
    if row_width(ctx).is_none() {
        measure(ctx, st, frame);
    }
    if !compact(ctx) {
        let r = egui::Area::new(egui::Id::unique("toolbar"))
            .anchor(Align2::CENTER_BOTTOM, [0.0, -MARGIN])
            .order(egui::Order::Foreground)
            .show(ctx, |ui| {
                frame.show(ui, |ui| {
                    ui.horizontal(|ui| buttons(ui, st, out));
                });
            });
        ctx.data_mut(|d| d.insert_temp(width_id(), r.response.rect.width()));
        out.areas.push(("toolbar", r.response.rect));
        return;
    }
    // Folded: keep the row's width current (the reach and pause labels change it), then one
    // button (current tool and speed) opening the same buttons in a column.
    measure(ctx, st, frame);
    let id = egui::Id::unique("toolbar open");
    let mut open = ctx.data(|d| d.get_temp::<bool>(id).unwrap_or(false));
    let r = egui::Area::new(egui::Id::unique("toolbar"))
        .anchor(Align2::LEFT_BOTTOM, [MARGIN / 2.0, -MARGIN / 2.0])
        .order(egui::Order::Foreground)
        .show(ctx, |ui| {
            frame.show(ui, |ui| {
                if open {
                    egui::ScrollArea::vertical()
                        .max_height((screen.height() - 3.0 * MARGIN - 24.0).max(20.0))
                        .show(ui, |ui| {
                            ui.vertical(|ui| buttons(ui, st, out));
                        });
                }
                // The speed alone (the HUD says how the clock takes it): the button stays short.
                let speed = if st.run.paused {
                    "paused".to_string()
                } else {
                    speed_label(st.run.clock.speed)
                };
                let label = format!("{} · {speed}", st.tools.tool.short());
                // One line: never wrapped mid-phrase (the short label fits a 160 px window).
                let button =
                    egui::Button::selectable(open, label).wrap_mode(egui::TextWrapMode::Extend);
                if ui.add(button).on_hover_text("Tools and speed").clicked() {
                    open = !open;
                }
            });
        });
    ctx.data_mut(|d| d.insert_temp(id, open));
    out.areas.push(("toolbar", r.response.rect));
}
