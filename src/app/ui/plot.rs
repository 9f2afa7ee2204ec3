//! The panel's live plot: the running model's order parameter (0 … 1) and the flock count over
//! the last minutes ([`crate::app::history::History`]), drawn with egui_plot.

use egui::RichText;
use egui_plot::{Line, Plot};

use crate::app::history::{CENSUS_MAX_BOIDS, SPAN};
use crate::app::state::AppState;
use crate::model::measures::MeasureId;

/// Height of each of the two plots (points).
const PLOT_PT: f32 = 80.0;

/// The two plots, one above the other, sharing the time axis.
pub fn live_plot(ui: &mut egui::Ui, st: &AppState) {
    let h = &st.run.history;
    let order = MeasureId::by_name(h.order_name).map_or(h.order_name.to_string(), |m| {
        let d = m.desc();
        if d.symbol.is_empty() || d.symbol == d.title {
            d.title.to_string()
        } else {
            format!("{} {}", d.title, d.symbol)
        }
    });
    if h.is_empty() {
        ui.label(
            RichText::new("sampling once a second while the panel is open…")
                .small()
                .weak(),
        );
    }
    let link = egui::Id::unique("live plot time");
    let points: Vec<[f64; 2]> = h.samples().map(|s| [s.t, s.order]).collect();
    let last = points.last().map(|p| p[1]);
    ui.label(RichText::new(match last {
        Some(v) => format!("{order}: {v:.3}"),
        None => order.clone(),
    }));
    still_plot("order plot", link)
        .include_y(1.0)
        .show(ui, |p| p.line(Line::new(order, points)));
    let flocks: Vec<[f64; 2]> = h
        .samples()
        .filter_map(|s| s.flocks.map(|f| [s.t, f]))
        .collect();
    let last = flocks.last().map(|p| p[1]);
    ui.label(match last {
        Some(v) => format!("flocks: {v:.0}"),
        None if st.run.sim.len() > CENSUS_MAX_BOIDS => {
            format!("flocks: not counted above {CENSUS_MAX_BOIDS} boids")
        }
        None => "flocks".to_string(),
    });
    still_plot("flocks plot", link)
        .x_axis_label("simulated time (s)")
        .show(ui, |p| p.line(Line::new("flocks", flocks)));
    ui.label(
        RichText::new(format!(
            "sampled once a second while the panel is open; the last {SPAN} samples"
        ))
        .small()
        .weak(),
    );
}

/// A plot of the panel: [`PLOT_PT`] high, y from 0, no dragging, zooming or scrolling, no hover
/// readout of x, its x axis linked to the other plots of `link`.
fn still_plot(id: &str, link: egui::Id) -> Plot<'static> {
    Plot::new(id)
        .height(PLOT_PT)
        .include_y(0.0)
        .allow_drag(false)
        .allow_zoom(false)
        .allow_scroll(false)
        .allow_boxed_zoom(false)
        .allow_double_click_reset(false)
        .show_x(false)
        .link_axis(link, [true, false])
}
