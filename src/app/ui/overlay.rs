//! What is drawn over the flock besides the HUD, tool bar and windows: the recording mark and the
//! last message (top, between the HUD and the panel, or below the HUD where that is too narrow),
//! kept short ([`brief`]: the offending key, the line and the nearest known names, not a list of
//! every field; the panel's scene status keeps the whole message), and the tool cursor (the
//! tool's reach around the pointer).

use egui::{Color32, RichText};

use crate::app::state::AppState;
use crate::app::ui::hud::{dot, REC};
use crate::app::ui::shared::{UiOut, MARGIN};
use crate::render::Theme;

/// Longest message the overlay shows (characters); the rest is cut with an ellipsis, but a
/// command the message ends with (in backticks) is kept whole.
pub const BRIEF_CHARS: usize = 160;

/// The colour of a message that reports a problem (news is drawn in the theme's strong text).
pub const PROBLEM: Color32 = Color32::from_rgb(230, 120, 100);

/// What the overlay says while stopped recordings are still being written.
pub fn video_writing_text(n: usize) -> String {
    if n == 1 {
        "writing the recording's last frames and its video…".into()
    } else {
        format!("writing {n} recordings' last frames and videos…")
    }
}

/// `message` made short for the overlay: an "expected one of `a`, `b`, …" list of more than three
/// names becomes the (at most three) names nearest the offending one (the name quoted first in the
/// message); then at most [`BRIEF_CHARS`] characters.
pub fn brief(message: &str) -> String {
    let mut text = message.to_string();
    if let Some(at) = text.find("expected one of ") {
        let list = &text[at + "expected one of ".len()..];
        let names: Vec<&str> = list
            .split(", ")
            .map(|n| n.trim().trim_matches('`'))
            .take_while(|n| !n.is_empty() && !n.contains(' '))
            .collect();
        if names.len() > 3 {
            let wrong = text[..at].split('`').nth(1).unwrap_or("");
            let near = crate::model::param_table::nearest(wrong, names.iter().copied());
            let hint = crate::model::param_table::did_you_mean(&near);
            let hint = if hint.is_empty() {
                format!("{} names are allowed", names.len())
            } else {
                hint
            };
            let end = list
                .find('\n')
                .map_or(text.len(), |e| at + "expected one of ".len() + e);
            text = format!("{}{hint}{}", &text[..at], &text[end..]);
        }
    }
    // A command at the end (`…`) is kept whole, so that it can be copied from stderr's copy of
    // the message and read here; the prose before it is cut instead.
    let (prose, command) = match text.strip_suffix('`').and_then(|t| t.rfind('`')) {
        Some(open) if text.len() - open > 2 => (text[..open].to_string(), text[open..].to_string()),
        _ => (text.clone(), String::new()),
    };
    // The prose keeps at least 100 characters (a failure's reason comes first in it).
    let room = BRIEF_CHARS.saturating_sub(command.chars().count()).max(100);
    if prose.chars().count() > room {
        let cut: String = prose.chars().take(room - 1).collect();
        text = if command.is_empty() {
            format!("{cut}…")
        } else {
            format!("{cut}… {command}")
        };
    }
    text
}

/// The recording mark and the last message, at the top between the HUD (`hud`, when drawn) and
/// the panel (`panel`, when drawn), or under the HUD when that gap is narrower than 220 points.
pub fn messages(
    ctx: &egui::Context,
    st: &AppState,
    hud: Option<egui::Rect>,
    panel: Option<egui::Rect>,
    out: &mut UiOut,
) {
    let recording = st.captures.live.as_ref().map(|r| r.frames());
    let video = st.captures.video.active.as_ref().map(|r| r.frames());
    let writing = st.captures.video.writing();
    let message = st.recent_message().map(|m| (brief(&m.text), m.problem));
    if recording.is_none() && video.is_none() && writing == 0 && message.is_none() {
        return;
    }
    let screen = ctx.content_rect();
    let right = panel.map_or(screen.right(), |p| p.left()) - MARGIN;
    let beside = hud.map_or(screen.left(), |h| h.right()) + MARGIN;
    let (left, top) = if right - beside >= 220.0 {
        (beside, screen.top() + MARGIN)
    } else {
        (
            screen.left() + MARGIN,
            hud.map_or(screen.top(), |h| h.bottom()) + MARGIN,
        )
    };
    // The frame's margins and stroke come on top of the text.
    let width = (right - left - 16.0).max(60.0);
    let frame = egui::Frame::popup(&ctx.global_style()).multiply_with_opacity(0.85);
    let r = egui::Area::new(egui::Id::unique("messages"))
        .fixed_pos(egui::pos2(left, top))
        .order(egui::Order::Foreground)
        .interactable(false)
        .show(ctx, |ui| {
            frame.show(ui, |ui| {
                ui.set_max_width(width);
                if let Some(n) = recording {
                    ui.horizontal(|ui| {
                        dot(ui, REC);
                        ui.label(
                            RichText::new(format!("recording: {n} frames (F9 stops)"))
                                .color(REC)
                                .strong(),
                        );
                    });
                }
                if let Some(n) = video {
                    ui.horizontal(|ui| {
                        dot(ui, REC);
                        ui.label(
                            RichText::new(format!("recording video: {n} frames (V stops)"))
                                .color(REC)
                                .strong(),
                        );
                    });
                }
                if writing > 0 {
                    ui.label(RichText::new(video_writing_text(writing)).italics().weak());
                }
                if let Some((m, problem)) = message {
                    let text = RichText::new(m);
                    ui.label(if problem {
                        text.color(PROBLEM)
                    } else {
                        text.strong()
                    });
                }
            });
        });
    out.areas.push(("messages", r.response.rect));
}

/// The tool's reach around the pointer (not over the UI, not in immersion), and the predator
/// tool's drag as an arrow.
pub fn tool_cursor(ctx: &egui::Context, st: &AppState) {
    let (Some(p), false) = (st.pointer, st.ui.immersive) else {
        return;
    };
    if ctx.is_pointer_over_egui() {
        return;
    }
    let ppp = ctx.pixels_per_point();
    let centre = egui::pos2(p.x / ppp, p.y / ppp);
    let color = match st.view.style.theme {
        Theme::Dark => Color32::from_white_alpha(110),
        Theme::Light => Color32::from_black_alpha(110),
    };
    let painter = ctx.layer_painter(egui::LayerId::new(
        egui::Order::Foreground,
        egui::Id::unique("tool cursor"),
    ));
    // The reach in points: wu × (physical px per wu) / (physical px per point).
    let radius = st
        .tool_radius_wu(st.tools.tool)
        .map_or(3.0, |wu| wu * st.view.camera.zoom / ppp);
    let width = if st.tool_active() { 2.0 } else { 1.0 };
    painter.circle_stroke(centre, radius.max(2.0), egui::Stroke::new(width, color));
    // What the tool shows beside its reach (the predator tool: its drag's velocity).
    (st.tools.tool.desc().overlay)(st, &painter, centre, egui::Stroke::new(2.0, color));
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A list of every allowed name gives way to the nearest; long messages are cut.
    #[test]
    fn overlay_messages_are_brief() {
        let names: Vec<String> = crate::model::SimParams::specs()
            .iter()
            .map(|s| format!("`{}`", s.key))
            .collect();
        let long = format!(
            "not loaded: scene file s.toml, line 3, column 1: unknown field `seperation_weight`, \
             expected one of {}",
            names.join(", ")
        );
        let b = brief(&long);
        assert!(b.contains("line 3"), "{b}");
        assert!(b.contains("`separation_weight`"), "{b}");
        assert!(!b.contains("fish_barrier_width"), "{b}");
        assert!(b.chars().count() <= BRIEF_CHARS, "{b}");
        // A short list stays as it is.
        let short =
            "params.boundary: unknown variant `torus`, expected one of `wrap`, `walls`, `bounce`";
        assert_eq!(brief(short), short);
        let cut = brief(&"x".repeat(500));
        assert_eq!(cut.chars().count(), BRIEF_CHARS);
        assert!(cut.ends_with('…'));
    }

    /// A message that ends with a command (the ffmpeg hint) keeps the command whole.
    #[test]
    fn a_trailing_command_is_never_cut() {
        let cmd = "`ffmpeg -framerate 30 -i /home/someone/captures/video-20261204-101010/\
                   frame-%06d.png -c:v libx264 -pix_fmt yuv420p -vf 'pad=ceil(iw/2)*2:\
                   ceil(ih/2)*2' /home/someone/captures/video-20261204-101010/recording.mp4`";
        let m = format!(
            "recorded 180 frames at 30 fps in /home/someone/captures/video-20261204-101010; \
             ffmpeg was not found on the PATH, so no MP4: to encode them later, {cmd}"
        );
        let b = brief(&m);
        assert!(b.ends_with(cmd), "{b}");
        assert!(b.starts_with("recorded 180 frames"), "{b}");
        assert!(b.contains('…'), "{b}");
    }
}
