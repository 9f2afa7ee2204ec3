//! The egui layer: the HUD (top-left corner: compact line by default, details on demand, H hides
//! it), the tool bar (bottom: tools, speed control, help, controls; one button in small windows),
//! the control panel (live sliders for every weight, radius and speed, boid size and count,
//! boundary mode, backend, tool settings, theme, sound; it scrolls inside the window at any size),
//! the help overlay (every key of [`crate::app::keys::KEYS`]; also the start screen), the Esc
//! pause menu, messages and the tool cursor. Every change is returned as an [`Action`] for
//! [`AppState::apply`].
//!
//! Every area has a fixed name (see [`UiOut::areas`]) so the run report can say where it was
//! drawn, and tests can check that nothing runs off the window or covers more than a corner.

use egui::{Align2, Color32, RichText};

use crate::app::clock::{speed_label, Pace, SPEEDS};
use crate::app::frame_times::FrameTimes;
use crate::app::keys::{self, AppKey};
use crate::app::state::{Action, AppState};
use crate::app::tools::Tool;
use crate::backend::BackendKind;
use crate::model::rules::MAX_NEIGHBORS_CAP;
use crate::model::{Boundary, PredatorKind, SimParams};
use crate::render::Theme;

/// Figures the HUD shows that the state does not hold.
#[derive(Clone, Debug, Default)]
pub struct Hud {
    /// Frames per second (smoothed).
    pub fps: f32,
    /// Adapter name and kind.
    pub adapter: String,
    /// Where the frame's time went (smoothed, CPU side).
    pub times: FrameTimes,
    /// Steps taken by the last frame.
    pub steps_last_frame: u32,
    /// GPU time of the last step whose timestamp scopes came back (sum of its passes, ms).
    pub gpu_passes_ms: Option<f64>,
    /// Samples per pixel of the window.
    pub msaa: u32,
    /// Whether the adapter is a software rasteriser.
    pub software: bool,
    /// What the sound is doing (None: off and never tried).
    pub sound: Option<String>,
}

/// What one UI pass produced: the actions, and where each named area was drawn (logical points).
#[derive(Debug, Default)]
pub struct UiOut {
    /// Changes requested.
    pub actions: Vec<Action>,
    /// `hud`, `toolbar`, `panel`, `help`, `menu`, `messages`: the rectangles drawn this pass.
    pub areas: Vec<(&'static str, egui::Rect)>,
}

/// Widths below this (points) get the one-button tool bar.
pub const NARROW_PT: f32 = 640.0;
/// Heights below this (points) get the one-button tool bar too.
pub const SHORT_PT: f32 = 300.0;
/// Margin between areas and the window's edge (points).
const MARGIN: f32 = 8.0;
/// Height kept free for the tool bar at the bottom (points).
const TOOLBAR_PT: f32 = 40.0;

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

/// The speed part of the HUD's line: `1×`, `paused`, `2× · slowed to 0.4× real time`.
pub fn speed_text(st: &AppState) -> String {
    if st.paused {
        return "paused".into();
    }
    let asked = speed_label(st.clock.speed);
    match st.clock.slowed_to() {
        Some(a) => format!("{asked} · slowed to {} real time", speed_label(a)),
        None if st.clock.pace == Pace::PerFrame => format!("{asked} (1 step/frame)"),
        None => asked,
    }
}

/// A small filled circle in `color`, as tall as the text (the recording mark: the default fonts
/// have no "●").
fn dot(ui: &mut egui::Ui, color: Color32) {
    let h = ui.text_style_height(&egui::TextStyle::Body);
    let (rect, _) = ui.allocate_exact_size(egui::vec2(h * 0.8, h), egui::Sense::hover());
    ui.painter().circle_filled(rect.center(), h * 0.3, color);
}

const REC: Color32 = Color32::from_rgb(220, 60, 60);

fn hud(ctx: &egui::Context, st: &AppState, info: &Hud, out: &mut UiOut) {
    let screen = ctx.content_rect();
    // The frame's inner margins (6, 3) and stroke come on top of the content.
    let max_w = (screen.width() * 0.5 - MARGIN - 14.0).max(40.0);
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
                let speed = if st.paused || st.clock.slowed_to().is_some() {
                    speed.strong()
                } else {
                    speed
                };
                let (more, tip) = if st.hud_details {
                    ("less", "Hide the details (I)")
                } else {
                    ("more", "Frame budget, adapter, world (I)")
                };
                let mut parts = vec![
                    RichText::new(format!("{:.0} fps", info.fps)).strong(),
                    speed,
                    RichText::new(format!("{} boids", short_count(st.sim.len()))),
                ];
                let predators = st.sim.predator_count();
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
                        out.actions.push(Action::SetHudDetails(!st.hud_details));
                    }
                });
                if st.hud_details {
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
    let mut lines = vec![small(format!(
        "frame {} = UI {} · step {} · render {} · present {}",
        ms(t.frame_ms),
        ms(t.ui_ms),
        ms(t.step_ms),
        ms(t.render_ms),
        ms(t.present_ms)
    ))];
    let running = st.sim.kind();
    let step = |k: BackendKind, v: Option<f64>| {
        let mark = if k == running { "" } else { " (idle)" };
        format!(
            "{}{mark} {}",
            if k == BackendKind::Gpu { "GPU" } else { "CPU" },
            ms(v)
        )
    };
    lines.push(small(format!(
        "step {} · {} · {} step(s) last frame",
        step(BackendKind::Gpu, st.sim.step_ms_gpu()),
        step(BackendKind::Cpu, st.sim.step_ms_cpu()),
        info.steps_last_frame
    )));
    if let Some(g) = info.gpu_passes_ms {
        lines.push(small(format!(
            "GPU passes {} (timestamp queries)",
            ms(Some(g))
        )));
    }
    let p = st.sim.params();
    lines.push(small(format!(
        "{} boids · {} · {:.0}×{:.0} wu · dt {}",
        thousands(st.sim.len()),
        p.boundary.name(),
        p.world_width,
        p.world_height,
        ms(Some(p.dt as f64 * 1e3))
    )));
    lines.push(small(format!(
        "clock: {} · simulated {:.1} s · tool: {}",
        match st.clock.pace {
            Pace::RealTime => "real time",
            Pace::PerFrame => "one step per frame",
        },
        st.clock.sim_time(),
        st.tool.label()
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
    lines.push(
        small(
            "times are CPU side: the GPU's work shows where the CPU waits for it (present)".into(),
        )
        .weak(),
    );
    lines
}

/// The tool bar's buttons, laid out by `ui` (a row, or a column in the popup).
fn toolbar_buttons(ui: &mut egui::Ui, st: &AppState, out: &mut UiOut) {
    for t in Tool::ALL {
        let keys = keys::keys_of(AppKey::Tool(t));
        if ui
            .selectable_label(st.tool == t, t.short())
            .on_hover_text(format!("{} ({keys})", t.label()))
            .clicked()
        {
            out.actions.push(Action::SetTool(t));
        }
    }
    ui.separator();
    let (label, tip) = if st.paused {
        ("Run", "Resume (Space)")
    } else {
        ("Pause", "Pause (Space)")
    };
    if ui
        .selectable_label(st.paused, label)
        .on_hover_text(tip)
        .clicked()
    {
        out.actions.push(Action::SetPaused(!st.paused));
    }
    for s in SPEEDS {
        let on = (st.clock.speed - s).abs() < 1e-9;
        if ui
            .selectable_label(on, speed_label(s))
            .on_hover_text("Simulation speed, × real time (- and =)")
            .clicked()
        {
            out.actions.push(Action::SetSpeed(s));
            if st.paused {
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
        .selectable_label(st.help_open, "Help")
        .on_hover_text("Every key and what it does (F1 or ?)")
        .clicked()
    {
        out.actions.push(Action::SetHelp(!st.help_open));
    }
    if ui
        .selectable_label(st.panel_open, "Controls")
        .on_hover_text("Flock, rules, tools and view settings (Tab)")
        .clicked()
    {
        out.actions.push(Action::SetPanel(!st.panel_open));
    }
}

/// Whether the window is too small for the one-row tool bar.
pub fn compact(screen: egui::Rect) -> bool {
    screen.width() < NARROW_PT || screen.height() < SHORT_PT
}

fn toolbar(ctx: &egui::Context, st: &AppState, out: &mut UiOut) {
    let screen = ctx.content_rect();
    let frame = egui::Frame::popup(&ctx.global_style()).multiply_with_opacity(0.9);
    if !compact(screen) {
        let r = egui::Area::new(egui::Id::unique("toolbar"))
            .anchor(Align2::CENTER_BOTTOM, [0.0, -MARGIN])
            .order(egui::Order::Foreground)
            .show(ctx, |ui| {
                frame.show(ui, |ui| {
                    ui.horizontal(|ui| toolbar_buttons(ui, st, out));
                });
            });
        out.areas.push(("toolbar", r.response.rect));
        return;
    }
    // Small windows: one button (current tool and speed) opening the same buttons in a column.
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
                            ui.vertical(|ui| toolbar_buttons(ui, st, out));
                        });
                }
                let label = format!("{} · {}", st.tool.short(), speed_text(st));
                if ui
                    .selectable_label(open, label)
                    .on_hover_text("Tools and speed")
                    .clicked()
                {
                    open = !open;
                }
            });
        });
    ctx.data_mut(|d| d.insert_temp(id, open));
    out.areas.push(("toolbar", r.response.rect));
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

fn panel_contents(ui: &mut egui::Ui, st: &AppState, info: &Hud, out: &mut Vec<Action>) {
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
            slider(
                ui,
                &mut p.models.boids.separation_weight,
                0.0..=5.0,
                "separation",
            );
            slider(
                ui,
                &mut p.models.boids.alignment_weight,
                0.0..=5.0,
                "alignment",
            );
            slider(
                ui,
                &mut p.models.boids.cohesion_weight,
                0.0..=5.0,
                "cohesion",
            );
            slider(
                ui,
                &mut p.hue_cohesion_weight,
                0.0..=100.0,
                "colour cohesion",
            );
            slider(
                ui,
                &mut p.hue_alignment_weight,
                0.0..=100.0,
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
        .default_open(false)
        .show(ui, |ui| {
            slider(ui, &mut p.separation_radius, 1.0..=80.0, "separation");
            slider(ui, &mut p.alignment_radius, 1.0..=80.0, "alignment");
            slider(ui, &mut p.cohesion_radius, 1.0..=80.0, "cohesion");
            slider(ui, &mut p.hue_radius, 1.0..=80.0, "colour");
            let mut k = p.max_neighbors as f32;
            slider(
                ui,
                &mut k,
                0.0..=MAX_NEIGHBORS_CAP as f32,
                "neighbour cap (0 = none)",
            );
            p.max_neighbors = k.round() as u32;
        });
    egui::CollapsingHeader::new("Speeds")
        .default_open(false)
        .show(ui, |ui| {
            slider(
                ui,
                &mut p.models.boids.max_speed,
                1.0..=500.0,
                "max speed (wu/s)",
            );
            let max = p.models.boids.max_speed;
            slider(
                ui,
                &mut p.models.boids.min_speed,
                0.0..=max,
                "min speed (wu/s)",
            );
            slider(
                ui,
                &mut p.models.boids.max_force,
                0.0..=2000.0,
                "max force (wu/s²)",
            );
            slider(ui, &mut p.max_hue_speed, 0.0..=20.0, "max hue speed (1/s)");
        });
    let mut p = p.with_perception_following(&before);
    p.models.boids.min_speed = p.models.boids.min_speed.min(p.models.boids.max_speed);
    if p != before {
        out.push(Action::SetParams(Box::new(p)));
    }

    egui::CollapsingHeader::new("Tools")
        .default_open(false)
        .show(ui, |ui| {
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
                if ui.button("Clear (Delete)").clicked() {
                    out.push(Action::ClearObstacles);
                }
            });
        });
    egui::CollapsingHeader::new("Predators")
        .default_open(false)
        .show(ui, |ui| {
            ui.horizontal(|ui| {
                ui.label("tool places");
                let mut k = st.predator_kind;
                ui.selectable_value(&mut k, PredatorKind::Hunting, "hunting");
                ui.selectable_value(&mut k, PredatorKind::Straight, "straight");
                if k != st.predator_kind {
                    out.push(Action::SetPredatorKind(k));
                }
            });
            let mut q = st.sim.params().clone();
            let q_before = q.clone();
            slider(ui, &mut q.predator_radius, 0.0..=400.0, "push radius (wu)");
            slider(
                ui,
                &mut q.predator_weight,
                0.0..=10000.0,
                "push B (wu^1.5/s²)",
            );
            slider(
                ui,
                &mut q.predator_sight_radius,
                0.0..=1000.0,
                "hunter sight (wu)",
            );
            slider(
                ui,
                &mut q.predator_max_speed,
                0.0..=500.0,
                "hunter max speed (wu/s)",
            );
            slider(
                ui,
                &mut q.predator_max_force,
                0.0..=2000.0,
                "hunter max force (wu/s²)",
            );
            slider(ui, &mut q.catch_radius, 0.0..=50.0, "catch radius (wu)");
            if q != q_before {
                out.push(Action::SetParams(Box::new(q)));
            }
            ui.horizontal(|ui| {
                ui.label(format!("{} predators", st.sim.predator_count()));
                if ui.button("Remove all").clicked() {
                    out.push(Action::ClearPredators);
                }
            });
        });
    egui::CollapsingHeader::new("Scene file")
        .default_open(false)
        .show(ui, |ui| {
            let mut path = st.scene_path.clone();
            ui.add(
                egui::TextEdit::singleline(&mut path)
                    .hint_text("path/to/scene.toml")
                    .desired_width(f32::INFINITY),
            );
            if path != st.scene_path {
                out.push(Action::SetScenePath(path));
            }
            ui.horizontal(|ui| {
                if ui
                    .button("Save")
                    .on_hover_text("Parameters, world, obstacles, predators, count and seed")
                    .clicked()
                {
                    out.push(Action::SaveScene);
                }
                if ui
                    .button("Load")
                    .on_hover_text("A new flock from the scene: its world, count, seed and actors")
                    .clicked()
                {
                    out.push(Action::LoadScene);
                }
            });
            if let Some(s) = &st.scene_status {
                ui.add(egui::Label::new(RichText::new(s).small()).wrap());
            }
        });
    egui::CollapsingHeader::new("View and sound")
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
            ui.horizontal_wrapped(|ui| {
                if ui.button("Reset view (Home)").clicked() {
                    out.push(Action::ResetView);
                }
                if ui.button("Immersion (F11)").clicked() {
                    out.push(Action::SetImmersive(true));
                }
            });
            ui.horizontal_wrapped(|ui| {
                let mut hud = st.hud_visible;
                if ui.checkbox(&mut hud, "HUD (H)").changed() {
                    out.push(Action::SetHud(hud));
                }
                let mut details = st.hud_details;
                if ui.checkbox(&mut details, "details (I)").changed() {
                    out.push(Action::SetHudDetails(details));
                }
            });
            let mut sound = st.sound_on;
            if ui.checkbox(&mut sound, "Ambient sound (M)").changed() {
                out.push(Action::SetSound(sound));
            }
            if let Some(s) = &info.sound {
                ui.label(RichText::new(s).weak().small());
            }
        });
}

/// The control panel: right side, inside the window at any size, scrolling when taller.
fn panel(ctx: &egui::Context, st: &AppState, info: &Hud, out: &mut UiOut) {
    let screen = ctx.content_rect();
    let width = (screen.width() - 2.0 * MARGIN).clamp(40.0, 330.0);
    let bottom = if compact(screen) { 32.0 } else { TOOLBAR_PT };
    let height = (screen.height() - 2.0 * MARGIN - bottom).max(40.0);
    let r = egui::Window::new("Controls")
        .id(egui::Id::unique("panel"))
        .anchor(Align2::RIGHT_TOP, [-MARGIN, MARGIN])
        .collapsible(false)
        .resizable(false)
        .constrain(true)
        .fixed_size([width - 16.0, height - 40.0])
        // Narrower than its sliders, the panel scrolls sideways too rather than grow off-screen.
        .scroll([width < 330.0, true])
        .show(ctx, |ui| {
            panel_contents(ui, st, info, &mut out.actions);
        });
    if let Some(r) = r {
        out.areas.push(("panel", r.response.rect));
    }
}

fn pause_menu(ctx: &egui::Context, st: &AppState, out: &mut UiOut) {
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
                if ui.button("Quit").clicked() {
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
neighbours, and take on their neighbours' colour. Pick a tool in the tool bar (or 1–6) and use \
it with the left button.";

/// The help overlay: the mouse, then every row of [`keys::help_rows`]; on the start screen
/// (`start`) with Start, Settings and Quit. Returns the actions and the rectangle drawn.
pub fn help_window(ctx: &egui::Context, start: bool, out: &mut Vec<Action>) -> Option<egui::Rect> {
    let screen = ctx.content_rect();
    let title = if start { "boids" } else { "Help" };
    // Rows of about 20 points plus the title, buttons and introduction: where that does not fit
    // the window scrolls inside the screen.
    let rows = keys::help_rows().len() + keys::MOUSE.len();
    let needed = 20.0 * rows as f32 + 130.0;
    let room = (screen.height() - 2.0 * MARGIN).max(40.0);
    let window = egui::Window::new(title)
        .id(egui::Id::unique("help"))
        .collapsible(false)
        .resizable(false)
        .constrain(true)
        .anchor(Align2::CENTER_CENTER, [0.0, 0.0])
        .max_width((screen.width() - 2.0 * MARGIN).clamp(60.0, 460.0))
        .max_height(room);
    let narrow = screen.width() - 2.0 * MARGIN < 440.0;
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
                if ui.button("Quit").clicked() {
                    out.push(Action::Quit);
                }
            }
        });
        ui.label(RichText::new(HELP_INTRO).small());
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

/// Recording mark and messages, top centre (shown with or without the HUD).
fn messages(ctx: &egui::Context, st: &AppState, out: &mut UiOut) {
    let recording = st.recording.as_ref().map(|r| r.frames());
    let message = st.recent_message();
    if recording.is_none() && message.is_none() {
        return;
    }
    let screen = ctx.content_rect();
    let frame = egui::Frame::popup(&ctx.global_style()).multiply_with_opacity(0.85);
    let r = egui::Area::new(egui::Id::unique("messages"))
        .anchor(Align2::CENTER_TOP, [0.0, MARGIN])
        .order(egui::Order::Foreground)
        .interactable(false)
        .show(ctx, |ui| {
            frame.show(ui, |ui| {
                ui.set_max_width((screen.width() * 0.6).max(60.0));
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
                if let Some(m) = message {
                    ui.label(RichText::new(m).color(Color32::from_rgb(230, 120, 100)));
                }
            });
        });
    out.areas.push(("messages", r.response.rect));
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
        Tool::Predator => r_pts(st.style.predator_scale * st.style.boid_length),
    };
    let width = if st.tool_active() { 2.0 } else { 1.0 };
    painter.circle_stroke(centre, radius.max(2.0), egui::Stroke::new(width, color));
    // The predator tool's drag: the velocity the predator will get (the drag per second).
    if let (Tool::Predator, Some(from)) = (st.tool, st.predator_drag) {
        let a = st.camera.world_to_screen(from);
        painter.arrow(
            egui::pos2(a.x / ppp, a.y / ppp),
            centre - egui::pos2(a.x / ppp, a.y / ppp),
            egui::Stroke::new(2.0, color),
        );
    }
}

/// Builds the whole UI for one frame; returns the requested changes and the areas drawn.
pub fn draw(ctx: &egui::Context, st: &AppState, info: &Hud) -> UiOut {
    let mut out = UiOut::default();
    if !st.immersive {
        if st.hud_visible {
            hud(ctx, st, info, &mut out);
        }
        toolbar(ctx, st, &mut out);
        if st.panel_open {
            panel(ctx, st, info, &mut out);
        }
        messages(ctx, st, &mut out);
    }
    if st.menu_open {
        pause_menu(ctx, st, &mut out);
    }
    if st.help_open {
        if let Some(r) = help_window(ctx, st.start_screen, &mut out.actions) {
            out.areas.push(("help", r));
        }
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
                help_window(ctx, start, &mut Vec::new());
            });
            for b in keys::KEYS {
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
        let missing: Vec<&str> = keys::KEYS
            .iter()
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
            include_str!("ui.rs"),
            include_str!("keys.rs"),
            include_str!("clock.rs"),
            include_str!("tools.rs"),
        ];
        let mut missing = Vec::new();
        for src in sources {
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

    #[test]
    fn counts_are_short() {
        assert_eq!(short_count(950), "950");
        assert_eq!(short_count(20_000), "20k");
        assert_eq!(short_count(100_000), "100k");
        assert_eq!(short_count(1_500_000), "1.5M");
        assert_eq!(thousands(1_234_567), "1\u{202f}234\u{202f}567");
    }
}
