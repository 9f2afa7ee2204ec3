//! The panel's model selector and parameter widgets, generated from the parameter table
//! ([`SimParams::specs`]) and the model table
//! ([`ModelDesc::uses`](crate::model::models::ModelDesc::uses)): only the parameters the running
//! model uses, grouped ([`GROUPS`]: the model's own first, then motion, colour, world and
//! predators), each labelled with its name, symbol and unit and its documentation on hover. A
//! parameter with named values (boundary, the Vicsek update, …) is a combo box; a number is a
//! slider whose range comes from the table's limits cut to a sensible range around the value the
//! scene started with ([`slider_range`]). A change is an [`Action::SetParam`] (checked by
//! `SimParams::set` and `validate`, then the simulation's `set_params`), a model an
//! [`Action::SetModel`]. A new parameter in the table appears here without code.

use egui::RichText;

use crate::app::action::Action;
use crate::app::state::AppState;
use crate::app::ui::shared::{labelled, section, UiOut};
use crate::model::models::Model;
use crate::model::param_table::{ParamGroup, ParamSpec, ParamValue, Range};
use crate::model::SimParams;

/// Parameters with no widget of their own: the model (the selector), the world's size (set by
/// the boid count or a scene, shown as text) and the step (shown as text).
pub const NOT_SLIDERS: [&str; 4] = ["model", "world_width", "world_height", "dt"];

/// A rule placing a shared parameter in a group of the panel.
pub type GroupRule = fn(&str) -> bool;

/// The panel's groups of shared parameters, in order: a key goes to the first group whose rule
/// takes it (the last takes the rest). The model's own parameters come before them, under the
/// model's name.
pub const GROUPS: [(&str, GroupRule); 4] = [
    ("Colour", |k| k.starts_with("hue_") || k == "max_hue_speed"),
    ("World", |k| k == "boundary" || k.starts_with("wall_")),
    ("Predators", |k| {
        k.starts_with("predator_") || k == "catch_radius"
    }),
    ("Motion", |_| true),
];

/// The order the groups are shown in, after the model's own.
const SHOWN: [&str; 4] = ["Motion", "Colour", "World", "Predators"];

/// The group of a shared parameter.
pub fn group_of(key: &str) -> &'static str {
    GROUPS
        .iter()
        .find(|(_, rule)| rule(key))
        .map_or("Motion", |(g, _)| g)
}

/// Whether the panel shows a widget for `spec` under `model`: the model uses it, it is not one
/// of [`NOT_SLIDERS`], and it is not derived (the perception radius of a model that sums within
/// per-rule radii follows the largest of them).
pub fn shown(spec: &ParamSpec, model: Model) -> bool {
    let m = model.desc();
    m.uses(spec.key)
        && !NOT_SLIDERS.contains(&spec.key)
        && !(spec.key == "perception_radius" && m.radii.perception_follows())
}

/// Whether the panel shows a widget for `spec` under the running parameters `p`: [`shown`] for
/// `p`'s model, and used by `p`'s neighbourhood (no radii but separation's, and no cap, in the
/// topological one; no `topological_k` in the metric one:
/// [`SimParams::check_neighborhood_uses`]).
pub fn shown_now(spec: &ParamSpec, p: &SimParams) -> bool {
    shown(spec, p.model) && p.check_neighborhood_uses(spec.key).is_ok()
}

/// The running model's parameters with a widget, by group: its own first (titled with its name;
/// left out when it has none), then the groups of [`GROUPS`] in the order Motion, Colour, World,
/// Predators (each left out when empty).
pub fn groups(model: Model) -> Vec<(String, Vec<&'static ParamSpec>)> {
    let own: Vec<&'static ParamSpec> = model
        .desc()
        .own_params
        .iter()
        .filter(|s| shown(s, model))
        .collect();
    let mut out = vec![(model.name().to_string(), own)];
    for g in SHOWN {
        let specs = SimParams::specs()
            .iter()
            .copied()
            .filter(|s| shown(s, model))
            .filter(|s| !model.desc().own_params.iter().any(|o| o.key == s.key))
            .filter(|s| group_of(s.key) == g)
            .collect();
        out.push((g.to_string(), specs));
    }
    out.retain(|(_, s)| !s.is_empty());
    out
}

/// The label of a widget: the key in words (without the model's prefix), its symbol and its
/// unit: `eta η (rad)`, `separation weight w_s`.
pub fn label(spec: &ParamSpec, model: Model) -> String {
    let prefix = format!("{}_", model.name());
    let name = spec
        .key
        .strip_prefix(prefix.as_str())
        .unwrap_or(spec.key)
        .replace('_', " ");
    let mut out = name;
    // The symbol, unless the name already ends with it (`topological k`, not `topological k k`).
    let said = out.rsplit(' ').next() == Some(spec.symbol);
    if !spec.symbol.is_empty() && !said {
        out.push(' ');
        out.push_str(spec.symbol);
    }
    if !spec.unit.is_empty() {
        out.push_str(&format!(" ({})", spec.unit));
    }
    out
}

/// The smallest of 1, 2, 5 × 10^k at least `x` (> 0).
pub fn nice_up(x: f64) -> f64 {
    if x.is_nan() || x <= 0.0 || !x.is_finite() {
        return 1.0;
    }
    let p = 10f64.powf(x.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * p)
        .find(|v| *v >= x * (1.0 - 1e-9))
        .unwrap_or(10.0 * p)
}

/// A number of the table as f64 (`None` for a name).
fn number(v: Option<ParamValue>) -> Option<f64> {
    match v {
        Some(ParamValue::Number(x)) => Some(x),
        _ => None,
    }
}

/// The slider range of a number parameter: from the table's minimum to its maximum when that is
/// at most ten times the parameter's scale (or, for a whole number, at most 64 steps), else to a
/// round number five times the scale. The scale is the value the scene started with, else the
/// built-in default, else (both 0) the perception radius for a length and 1 otherwise. A current
/// value beyond the range (a scene's, a script's `set`) widens it to hold the value; the range
/// does not follow a value being dragged (the start and the default do not move).
///
/// `upper` is the current value of the parameter bounding a [`Range::UpTo`] one.
pub fn slider_range(
    spec: &ParamSpec,
    start: f64,
    default: f64,
    current: f64,
    upper: Option<f64>,
    perception: f64,
) -> (f64, f64) {
    let (min, max, whole) = match spec.range {
        Range::Number { min, max } => (min, max, false),
        Range::Integer { min, max } => (min as f64, max as f64, max - min <= 64),
        Range::UpTo { min, .. } => (min, upper.unwrap_or(min + 1.0), true),
        Range::Choice(_) => return (0.0, 1.0),
    };
    let scale = [start, default]
        .into_iter()
        .find(|v| *v > 0.0)
        .unwrap_or(if spec.unit == "wu" { perception } else { 1.0 });
    let mut hi = if whole || max - min <= 10.0 * scale {
        max
    } else {
        nice_up(5.0 * scale).min(max)
    };
    if current > hi {
        hi = nice_up(current * 1.25).min(max);
    }
    (min, hi.max(min))
}

/// The model selector: one button per model of the table, its title on hover.
fn selector(ui: &mut egui::Ui, st: &AppState, out: &mut UiOut) {
    let running = st.run.sim.params().model;
    ui.horizontal_wrapped(|ui| {
        ui.label("model");
        for m in Model::all() {
            let b = ui.selectable_label(m == running, m.name());
            out.widgets.push((format!("model:{}", m.name()), b.rect));
            if b.on_hover_text(m.desc().title).clicked() && m != running {
                out.actions.push(Action::SetModel(m));
            }
        }
    });
    ui.label(RichText::new(running.desc().title).small().weak());
}

/// The widget of one parameter.
fn widget(ui: &mut egui::Ui, spec: &'static ParamSpec, st: &AppState, out: &mut UiOut) {
    let p = st.run.sim.params();
    let model = p.model;
    let text = label(spec, model);
    let tip = format!("{}\nkey: {}", spec.doc.trim(), spec.key);
    out.params.push(spec.key);
    if let Range::Choice(names) = spec.range {
        let current = match p.get(spec.key) {
            Some(ParamValue::Name(n)) => n,
            _ => "",
        };
        let mut chosen = current;
        let r = egui::ComboBox::from_label(text)
            .selected_text(current)
            .show_ui(ui, |ui| {
                for n in names {
                    ui.selectable_value(&mut chosen, *n, *n);
                }
            })
            .response;
        out.widgets.push((format!("param:{}", spec.key), r.rect));
        r.on_hover_text(tip);
        if chosen != current {
            out.actions.push(Action::SetParam {
                key: spec.key.to_string(),
                value: chosen.to_string(),
            });
        }
        return;
    }
    let current = number(p.get(spec.key)).unwrap_or(0.0);
    let start = number(st.run.initial.params.get(spec.key)).unwrap_or(current);
    let default = number(SimParams::default().get(spec.key)).unwrap_or(current);
    let upper = match spec.range {
        Range::UpTo { key, .. } => number(p.get(key)),
        _ => None,
    };
    let (lo, mut hi) = slider_range(
        spec,
        start,
        default,
        current,
        upper,
        p.perception_radius as f64,
    );
    if let Some((_, top)) = p.range_of(spec.key) {
        // The range under the model's settings (η of vectorial noise: 0 ..= 1).
        hi = hi.min(top).max(current.min(top));
    }
    let integer = matches!(spec.range, Range::Integer { .. });
    let mut v = current;
    let mut s = egui::Slider::new(&mut v, lo..=hi).clamping(egui::SliderClamping::Edits);
    if integer {
        s = s.integer();
    }
    let r = labelled(ui, s, &text, Some(&tip));
    out.widgets.push((format!("param:{}", spec.key), r.rect));
    if v != current {
        let value = if integer {
            format!("{}", v.round().max(0.0) as u64)
        } else {
            format!("{}", v as f32)
        };
        out.actions.push(Action::SetParam {
            key: spec.key.to_string(),
            value,
        });
    }
}

/// The model section (selector and the model's own parameters), then one section per group of
/// shared parameters (Motion open at first); `extra` adds what else belongs in a group (the
/// predator tool's settings under Predators), called with the group's title.
pub fn param_sections(
    ui: &mut egui::Ui,
    st: &AppState,
    out: &mut UiOut,
    mut extra: impl FnMut(&str, &mut egui::Ui, &mut UiOut),
) {
    let model = st.run.sim.params().model;
    let mut groups = groups(model).into_iter();
    let own = match model.desc().own_params.is_empty() {
        true => Vec::new(),
        false => groups.next().map(|(_, s)| s).unwrap_or_default(),
    };
    section(ui, out, "Model", true, |ui, out| {
        selector(ui, st, out);
        for s in own.iter().filter(|s| shown_now(s, st.run.sim.params())) {
            widget(ui, s, st, out);
        }
    });
    for (title, specs) in groups {
        let open = title == "Motion";
        section(ui, out, &title, open, |ui, out| {
            if title == "World" {
                let p = st.run.sim.params();
                ui.label(
                    RichText::new(format!(
                        "{:.1} × {:.1} wu (sized by the boid count or the scene) · Δt {} s",
                        p.world_width, p.world_height, p.dt
                    ))
                    .small(),
                );
            }
            for s in specs.iter().filter(|s| shown_now(s, st.run.sim.params())) {
                widget(ui, s, st, out);
            }
            extra(&title, ui, out);
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(model: Model) -> Vec<&'static str> {
        groups(model)
            .into_iter()
            .flat_map(|(_, s)| s.into_iter().map(|s| s.key))
            .collect()
    }

    /// Vicsek's panel has η, v0 and its update but no boids weights; the boids panel the
    /// opposite; each shows exactly what its model uses (less the selector, world and step).
    #[test]
    fn each_model_shows_only_its_parameters() {
        let v = keys(Model::VICSEK);
        for k in [
            "vicsek_eta",
            "vicsek_speed",
            "vicsek_update",
            "perception_radius",
        ] {
            assert!(v.contains(&k), "{k} in {v:?}");
        }
        for k in [
            "separation_weight",
            "max_speed",
            "fish_alignment",
            "wall_weight",
        ] {
            assert!(!v.contains(&k), "{k} in {v:?}");
        }
        let b = keys(Model::BOIDS);
        assert!(b.contains(&"separation_weight") && !b.contains(&"vicsek_eta"));
        assert!(!b.contains(&"perception_radius"), "derived for boids");
        for m in Model::all() {
            let shown = keys(m);
            for s in SimParams::specs() {
                let expect = m.desc().uses(s.key)
                    && !NOT_SLIDERS.contains(&s.key)
                    && !(s.key == "perception_radius" && m.desc().radii.perception_follows());
                assert_eq!(shown.contains(&s.key), expect, "{m}: {}", s.key);
            }
            // The model's own come first.
            let own: Vec<&str> = m.desc().own_params.iter().map(|s| s.key).collect();
            assert_eq!(&shown[..own.len()], &own[..], "{m}");
        }
    }

    /// The panel follows the neighbourhood: the topological one shows k and the separation
    /// radius but not the other radii nor the cap; the metric one the opposite (the Voronoi one:
    /// tests/it/voronoi.rs).
    #[test]
    fn the_panel_follows_the_neighbourhood() {
        for m in [Model::BOIDS, Model::VICSEK, Model::FISH] {
            let mut p = SimParams::default();
            p.set("model", m.name()).unwrap();
            let now = |p: &SimParams| -> Vec<&str> {
                groups(m)
                    .into_iter()
                    .flat_map(|(_, s)| s.into_iter())
                    .filter(|s| shown_now(s, p))
                    .map(|s| s.key)
                    .collect()
            };
            let metric = now(&p);
            assert!(metric.contains(&"neighborhood") && !metric.contains(&"topological_k"));
            p.set("neighborhood", "topological").unwrap();
            let topo = now(&p);
            assert!(topo.contains(&"topological_k"), "{m}: {topo:?}");
            for k in [
                "perception_radius",
                "alignment_radius",
                "cohesion_radius",
                "max_neighbors",
            ] {
                assert!(!topo.contains(&k), "{m}: {k} in {topo:?}");
            }
            if m.desc().uses("separation_radius") {
                assert!(topo.contains(&"separation_radius"), "{m}: {topo:?}");
            }
            if m == Model::VICSEK {
                assert!(topo.contains(&"vicsek_noise") && topo.contains(&"vicsek_eta"));
            }
        }
    }

    #[test]
    fn labels_carry_symbol_and_unit() {
        let eta = SimParams::spec("vicsek_eta").unwrap();
        assert_eq!(label(eta, Model::VICSEK), "eta η (rad)");
        let k = SimParams::spec("topological_k").unwrap();
        assert_eq!(label(k, Model::VICSEK), "topological k");
        let w = SimParams::spec("separation_weight").unwrap();
        assert_eq!(label(w, Model::BOIDS), "separation weight w_s");
        assert_eq!(group_of("hue_radius"), "Colour");
        assert_eq!(group_of("wall_weight"), "World");
        assert_eq!(group_of("catch_radius"), "Predators");
        assert_eq!(group_of("rotational_diffusion"), "Motion");
        assert_eq!(group_of("a_new_parameter"), "Motion");
    }

    /// Every character of the labels, titles and choices the panel takes from the tables (η, v₀,
    /// ², …) is in egui's default fonts.
    #[test]
    fn every_table_character_has_a_glyph() {
        let ctx = egui::Context::default();
        let mut o = ctx.run_pass(Default::default(), |_| {});
        o.textures_delta.clear();
        let font = egui::FontId::proportional(14.0);
        let mut missing = Vec::new();
        for m in Model::all() {
            let mut texts = vec![m.desc().title.to_string()];
            for s in SimParams::specs() {
                texts.push(label(s, m));
                if let Range::Choice(names) = s.range {
                    texts.extend(names.iter().map(|n| n.to_string()));
                }
            }
            for c in texts.concat().chars() {
                if !ctx.fonts_mut(|f| f.has_glyph(&font, c)) && !missing.contains(&c) {
                    missing.push(c);
                }
            }
        }
        assert!(missing.is_empty(), "no glyph for {missing:?}");
    }

    #[test]
    fn round_numbers() {
        assert_eq!(nice_up(4.0), 5.0);
        assert_eq!(nice_up(25.0), 50.0);
        assert_eq!(nice_up(100.0), 100.0);
        assert_eq!(nice_up(0.15), 0.2);
        assert_eq!(nice_up(7500.0), 10_000.0);
    }

    /// Every slider's range holds its default inside: above the minimum (unless the default is
    /// the table's minimum, e.g. 0 = off) and strictly below the maximum (unless the default is
    /// the table's maximum and the slider reaches it, e.g. a 360° field of view), with the built-in
    /// defaults as the start; and the table's own maxima lie above the defaults.
    #[test]
    fn every_slider_range_holds_its_default_inside() {
        let d = SimParams::default();
        for s in SimParams::specs() {
            if matches!(s.range, Range::Choice(_)) || NOT_SLIDERS.contains(&s.key) {
                continue;
            }
            let v = number(d.get(s.key)).unwrap();
            let upper = match s.range {
                Range::UpTo { key, .. } => number(d.get(key)),
                _ => None,
            };
            let (lo, hi) = slider_range(s, v, v, v, upper, d.perception_radius as f64);
            let (table_min, table_max) = match s.range {
                Range::Number { min, max } => (min, max),
                Range::UpTo { min, .. } => (min, f64::INFINITY),
                Range::Integer { min, max } => (min as f64, max as f64),
                Range::Choice(_) => unreachable!(),
            };
            // A default at the table's own maximum (the field of view's full circle) tops it.
            assert!(
                v < hi || (v == table_max && hi == table_max),
                "{}: default {v} at the top of {lo} ..= {hi}",
                s.key
            );
            assert!(
                v > lo || v == table_min,
                "{}: default {v} at the bottom of {lo} ..= {hi}",
                s.key
            );
        }
    }

    /// A scene's own scale sets the range (the Vicsek box's r = 1 is not lost at the bottom of a
    /// range made for r = 20), and a value beyond the range widens it.
    #[test]
    fn ranges_follow_the_scene_and_hold_the_value() {
        let r = SimParams::spec("perception_radius").unwrap();
        let (lo, hi) = slider_range(r, 1.0, 20.0, 1.0, None, 1.0);
        assert!(lo < 1.0 && hi <= 5.0, "{lo} ..= {hi}");
        let (_, hi) = slider_range(r, 1.0, 20.0, 12.0, None, 1.0);
        assert!(hi >= 12.0, "{hi}");
        let c = SimParams::spec("catch_radius").unwrap();
        let (_, hi) = slider_range(c, 0.0, 0.0, 0.0, None, 20.0);
        assert_eq!(
            hi, 100.0,
            "a length of default 0 scales with the perception radius"
        );
        let m = SimParams::spec("min_speed").unwrap();
        assert_eq!(
            slider_range(m, 40.0, 40.0, 40.0, Some(100.0), 20.0),
            (0.0, 100.0)
        );
    }
}
