//! What the parts of the egui layer share: the figures the HUD shows ([`Hud`]), what one pass
//! produced ([`UiOut`]), the margins, and the panel's collapsible sections ([`section`]), which
//! record where their headers were drawn and whether they are open.

use crate::app::action::Action;
use crate::app::frame_times::FrameTimes;

/// Margin between areas and the window's edge (points).
pub const MARGIN: f32 = 8.0;
/// Height kept free for the one-row tool bar at the bottom (points).
pub const TOOLBAR_PT: f32 = 40.0;
/// Height kept free for the folded tool bar (one button) at the bottom (points).
pub const FOLDED_TOOLBAR_PT: f32 = 32.0;
/// Widest the control panel gets (points).
pub const PANEL_PT: f32 = 330.0;

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

/// A collapsible section of the panel as drawn: its title, its header's rectangle (points) and
/// whether it is open.
#[derive(Clone, Debug, PartialEq)]
pub struct Section {
    /// The header's text.
    pub title: String,
    /// Where the header was drawn (points).
    pub header: egui::Rect,
    /// Whether the section is open.
    pub open: bool,
}

/// What one UI pass produced: the actions, and where each named area was drawn (logical points).
#[derive(Debug, Default)]
pub struct UiOut {
    /// Changes requested.
    pub actions: Vec<Action>,
    /// `hud`, `toolbar`, `panel`, `help`, `menu`, `messages`: the rectangles drawn this pass.
    pub areas: Vec<(&'static str, egui::Rect)>,
    /// The panel's sections, in order.
    pub sections: Vec<Section>,
    /// The parameter keys the panel drew a widget for.
    pub params: Vec<&'static str>,
    /// Where chosen widgets were drawn, by name: `param:KEY` (a parameter's slider or choice),
    /// `preset:NAME` (a gallery entry's name), `model:NAME` (the model selector's button),
    /// `boids` (the boid count's slider); what a test or the web page's driver clicks.
    pub widgets: Vec<(String, egui::Rect)>,
}

impl UiOut {
    /// The rectangle of area `name`, if drawn this pass.
    pub fn area(&self, name: &str) -> Option<egui::Rect> {
        self.areas.iter().find(|(n, _)| *n == name).map(|(_, r)| *r)
    }
}

/// A collapsible section titled `title` (open at first when `open`), recorded in `out.sections`;
/// `body` draws its contents when open.
pub fn section(
    ui: &mut egui::Ui,
    out: &mut UiOut,
    title: &str,
    open: bool,
    body: impl FnOnce(&mut egui::Ui, &mut UiOut),
) {
    let mut inner = UiOut::default();
    let r = egui::CollapsingHeader::new(title)
        .default_open(open)
        .show(ui, |ui| body(ui, &mut inner));
    out.sections.push(Section {
        title: title.to_string(),
        header: r.header_response.rect,
        open: r.body_returned.is_some(),
    });
    out.actions.append(&mut inner.actions);
    out.sections.append(&mut inner.sections);
    out.params.append(&mut inner.params);
    out.widgets.append(&mut inner.widgets);
}

/// `widget` with its label `text` after it, the label wrapping within the panel's width (a long
/// name, symbol and unit take a second line rather than widen the panel); `tip` on hover.
pub fn labelled(
    ui: &mut egui::Ui,
    widget: impl egui::Widget,
    text: &str,
    tip: Option<&str>,
) -> egui::Response {
    ui.horizontal(|ui| {
        let r = ui.add(widget);
        let l = ui.add(egui::Label::new(text).wrap());
        match tip {
            Some(t) => {
                l.on_hover_text(t);
                r.on_hover_text(t)
            }
            None => r,
        }
    })
    .inner
}

/// A slider whose range bounds what the user can enter, while a value set outside it (by a scene
/// or the command line, within `SimParams`' own ranges) is left as it is; labelled by
/// [`labelled`].
pub fn slider(ui: &mut egui::Ui, v: &mut f32, range: std::ops::RangeInclusive<f32>, text: &str) {
    let s = egui::Slider::new(v, range).clamping(egui::SliderClamping::Edits);
    labelled(ui, s, text, None);
}
