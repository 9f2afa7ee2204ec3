//! The HUD (top-left corner): a compact line by default (fps, speed, boids, predators), the
//! details on demand (I: where the frame's time went, the step times on each backend, the world,
//! the clock, the adapter), H hides it. It stays in the top-left quarter and left of the panel.

use egui::{Align2, Color32, RichText};

use crate::app::action::Action;
use crate::app::clock::{speed_label, Pace};
use crate::app::state::AppState;
use crate::app::ui::shared::{Hud, UiOut, MARGIN};
use crate::backend::BackendKind;

fn ms(v: Option<f64>) -> String {
    v.map_or("–".to_string(), crate::stats::format::format_ms)
}

/// A count for the compact HUD: `950`, `20k`, `1.5k`, `1.2M`.
pub fn short_count(n: usize) -> String {
    match n {
        0..=9_999 => n.to_string(),
        10_000..=999_999 => format!("{}k", (n as f64 / 1e3).round()),
        _ => format!("{:.1}M", n as f64 / 1e6),
    }
}

/// A count with narrow spaces between digit groups: `1 234 567`.
pub fn thousands(n: usize) -> String {
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

/// The HUD's frame rate: whole fps from 10 up, one decimal below (`0.4 fps`, not `0 fps`), `—`
/// before the first frames are timed.
pub fn fps_text(fps: f64) -> String {
    if !fps.is_finite() || fps <= 0.0 {
        "— fps".into()
    } else if fps >= 9.95 {
        format!("{fps:.0} fps")
    } else {
        format!("{fps:.1} fps")
    }
}

/// The speed part of the HUD's line: `1×`, `paused`, `2× · slowed to 0.4× real time`.
pub fn speed_text(st: &AppState) -> String {
    if st.run.paused {
        return "paused".into();
    }
    let asked = speed_label(st.run.clock.speed);
    match st.run.clock.slowed_to() {
        Some(a) => format!("{asked} · slowed to {} real time", speed_label(a)),
        None if st.run.clock.pace == Pace::PerFrame => {
            format!(
                "{asked} ({})",
                crate::app::clock::per_frame_label(st.run.clock.speed)
            )
        }
        None => asked,
    }
}

/// A small filled circle in `color`, as tall as the text (the recording mark: the default fonts
/// have no "●").
pub fn dot(ui: &mut egui::Ui, color: Color32) {
    let h = ui.text_style_height(&egui::TextStyle::Body);
    let (rect, _) = ui.allocate_exact_size(egui::vec2(h * 0.8, h), egui::Sense::hover());
    ui.painter().circle_filled(rect.center(), h * 0.3, color);
}

/// The recording mark's colour.
pub const REC: Color32 = Color32::from_rgb(220, 60, 60);

/// Draws the HUD; `right` is the rightmost x (points) it may reach (the panel's left edge when
/// the panel is open).
pub fn hud(ctx: &egui::Context, st: &AppState, info: &Hud, right: f32, out: &mut UiOut) {
    let screen = ctx.content_rect();
    // The frame's inner margins (6, 3) and stroke come on top of the content.
    let max_w = ((screen.width() * 0.5).min(right) - MARGIN - 14.0).max(40.0);
    let max_h = (screen.height() * 0.5 - MARGIN - 8.0).max(20.0);
    let frame = egui::Frame::popup(&ctx.global_style())
        .multiply_with_opacity(0.85)
        .inner_margin(egui::Margin::symmetric(6, 3));
    let r = egui::Area::new(egui::Id::unique("hud"))
        .anchor(Align2::LEFT_TOP, [MARGIN, MARGIN])
        .order(egui::Order::Foreground)
        .show(ctx, |ui| {
            frame.show(ui, |ui| {
                ui.set_max_width(max_w);
                ui.spacing_mut().item_spacing = egui::vec2(6.0, 2.0);
                // The compact line: as many of its parts as fit the corner's width, most
                // important first (a 160-px window shows the fps and the speed).
                let speed = RichText::new(speed_text(st));
                let speed = if st.run.paused || st.run.clock.slowed_to().is_some() {
                    speed.strong()
                } else {
                    speed
                };
                let (more, tip) = if st.ui.hud_details {
                    ("less", "Hide the details (I)")
                } else {
                    ("more", "Frame budget, adapter, world (I)")
                };
                let mut parts = vec![
                    RichText::new(fps_text(info.fps as f64)).strong(),
                    speed,
                    RichText::new(format!("{} boids", short_count(st.run.sim.len()))),
                ];
                let predators = st.run.sim.predator_count();
                if predators > 0 {
                    parts.push(RichText::new(format!(
                        "{predators} predator{}",
                        if predators == 1 { "" } else { "s" }
                    )));
                }
                let gap = ui.spacing().item_spacing.x;
                let width = |t: &RichText| {
                    egui::WidgetText::from(t.clone())
                        .into_galley(
                            ui,
                            Some(egui::TextWrapMode::Extend),
                            f32::INFINITY,
                            egui::TextStyle::Body,
                        )
                        .size()
                        .x
                };
                let button = width(&RichText::new(more)) + 2.0 * ui.spacing().button_padding.x;
                let mut used = 0.0;
                let mut shown = Vec::new();
                for p in parts {
                    let w = width(&p) + if shown.is_empty() { 0.0 } else { gap };
                    if !shown.is_empty() && used + w > max_w {
                        break;
                    }
                    used += w;
                    shown.push(p);
                }
                ui.horizontal(|ui| {
                    for p in shown {
                        ui.add(egui::Label::new(p).truncate());
                    }
                    if used + gap + button <= max_w
                        && ui.small_button(more).on_hover_text(tip).clicked()
                    {
                        out.actions.push(Action::SetHudDetails(!st.ui.hud_details));
                    }
                });
                if st.ui.hud_details {
                    // As many lines as fit in the corner (an Area's scroll area could not grow).
                    let line = ui.text_style_height(&egui::TextStyle::Small) + 2.0;
                    let room = ((max_h - ui.min_rect().height()) / line).floor().max(0.0);
                    for text in details(st, info).into_iter().take(room as usize) {
                        ui.add(egui::Label::new(text).truncate());
                    }
                }
            });
        });
    out.areas.push(("hud", r.response.rect));
}

/// The HUD's detail lines, most useful first (a small window shows the first few).
fn details(st: &AppState, info: &Hud) -> Vec<RichText> {
    let small = |s: String| RichText::new(s).small();
    let t = &info.times;
    let running = st.run.sim.kind();
    // On the GPU backend the frame's step time is what the CPU spends submitting the steps; on
    // the CPU backend it is the steps themselves.
    let cpu_side = if running == BackendKind::Gpu {
        "steps (CPU submit)"
    } else {
        "steps (CPU)"
    };
    let mut lines = vec![small(format!(
        "frame {} = UI {} · {cpu_side} {} · render {} · present {}",
        ms(t.frame_ms),
        ms(t.ui_ms),
        ms(t.step_ms),
        ms(t.render_ms),
        ms(t.present_ms)
    ))];
    let step = |k: BackendKind, v: Option<f64>| {
        let mark = if k == running { "" } else { ", idle" };
        format!(
            "step ({}{mark}) {}",
            if k == BackendKind::Gpu { "GPU" } else { "CPU" },
            ms(v)
        )
    };
    lines.push(small(format!(
        "{} · {} · {} step(s) last frame",
        step(BackendKind::Gpu, st.run.sim.step_ms_gpu()),
        step(BackendKind::Cpu, st.run.sim.step_ms_cpu()),
        info.steps_last_frame
    )));
    if let Some(g) = info.gpu_passes_ms {
        lines.push(small(format!(
            "GPU passes {} (timestamp queries)",
            ms(Some(g))
        )));
    }
    let p = st.run.sim.params();
    lines.push(small(format!(
        "{} boids · {} · {} · {:.0}×{:.0} wu · dt {}",
        thousands(st.run.sim.len()),
        p.model.name(),
        p.boundary.name(),
        p.world_width,
        p.world_height,
        ms(Some(p.dt as f64 * 1e3))
    )));
    lines.push(small(format!(
        "clock: {} · simulated {:.1} s · tool: {}",
        match st.run.clock.pace {
            Pace::RealTime => "real time",
            Pace::PerFrame => "one step per frame",
        },
        st.run.clock.sim_time(),
        st.tools.tool.label()
    )));
    lines.push(small(info.adapter.clone()).weak());
    let msaa = if info.msaa > 1 {
        format!("{}× MSAA", info.msaa)
    } else {
        "no MSAA".to_string()
    };
    lines.push(small(msaa).weak());
    if let Some(note) = &st.note {
        lines.push(small(note.clone()).weak().italics());
    }
    if running != BackendKind::Gpu {
        return lines;
    }
    let gpu_step = if st.run.sim.step_timed_by_timestamps() {
        "step (GPU): the newest step's timestamp queries, a frame or more late, never waited for"
    } else {
        "step (GPU): one step in 30 frames timed by the wall clock, queue drained"
    };
    lines.push(
        small(format!(
            "{gpu_step}; the frame's times are CPU side (the GPU's work shows where the CPU \
             waits for it: present)"
        ))
        .weak(),
    );
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slow_frame_rates_keep_a_decimal() {
        assert_eq!(fps_text(0.42), "0.4 fps");
        assert_eq!(fps_text(4.26), "4.3 fps");
        assert_eq!(fps_text(38.4), "38 fps");
        assert_eq!(fps_text(0.0), "— fps");
        assert_eq!(fps_text(f64::NAN), "— fps");
    }

    #[test]
    fn counts_are_short() {
        assert_eq!(short_count(950), "950");
        assert_eq!(short_count(20_000), "20k");
        assert_eq!(short_count(100_000), "100k");
        assert_eq!(short_count(1_500_000), "1.5M");
        assert_eq!(thousands(1_234_567), "1\u{202f}234\u{202f}567");
    }
}
