//! The heading autocorrelation ⟨cos(θ_i(t₀ + t) − θ_i(t₀))⟩ = ⟨ê_i(t₀ + t) · ê_i(t₀)⟩ over the
//! boids and the time origins (docs/model.md §12.11), by the multiple-tau correlator over the
//! states read. For lone boids turned by rotational diffusion D_r alone it is exp(−D_r t); a
//! stopped boid's heading counts as 0.

use crate::analysis::multi_tau::MultiTau;
use crate::analysis::series::{by_id, lag_curve, max_lag};
use crate::analysis::types::{
    Analysis, AnalysisDesc, AnalysisError, Axis, Curve, Frame, Scales, Settings, StatePart, LAG,
};
use crate::model::World;

/// The table's entry.
pub const DESC: AnalysisDesc = AnalysisDesc {
    name: "heading_autocorrelation",
    about: "heading autocorrelation ⟨cos(θ(t₀+t) − θ(t₀))⟩ against the lag",
    x: LAG,
    y: Axis {
        symbol: "⟨cos Δθ⟩",
        name: "heading autocorrelation",
        unit: "",
    },
    series: true,
    scales: Scales::LogX,
    reads: &[],
    joined: true,
    needs: &[StatePart::Velocity],
    scalars: &[],
    make,
};

fn make(s: &Settings, _world: World) -> Result<Box<dyn Analysis>, AnalysisError> {
    let lag = max_lag(DESC.name, s.states)?;
    Ok(Box::new(HeadingAutocorrelation {
        correlator: MultiTau::new(lag, |a, b| a[0] * b[0] + a[1] * b[1]),
        interval: s.interval,
        ids: None,
        boids: 0,
    }))
}

/// The autocorrelation in progress.
struct HeadingAutocorrelation {
    correlator: MultiTau,
    interval: f64,
    ids: Option<Vec<u32>>,
    boids: usize,
}

impl Analysis for HeadingAutocorrelation {
    fn add(&mut self, frame: &Frame) -> Result<(), AnalysisError> {
        let boids = by_id(DESC.name, frame, &mut self.ids)?;
        self.boids = boids.len();
        self.correlator.add(
            boids
                .iter()
                .map(|b| {
                    let (x, y) = (b.velocity[0] as f64, b.velocity[1] as f64);
                    let s = (x * x + y * y).sqrt();
                    if s > 1e-12 {
                        [x / s, y / s]
                    } else {
                        [0.0, 0.0]
                    }
                })
                .collect(),
        );
        Ok(())
    }

    fn curve(&self) -> Result<Curve, AnalysisError> {
        lag_curve(DESC.name, &self.correlator, self.boids, self.interval)
    }
}
