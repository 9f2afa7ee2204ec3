//! The mean-squared displacement MSD(t) = ⟨|r_i(t₀ + t) − r_i(t₀)|²⟩ over the boids and the time
//! origins (docs/model.md §12.11), from the unwrapped paths (a wrapping world's positions plus its
//! image counts times the world's size), by a multiple-tau correlator ([`crate::analysis::multi_tau`])
//! over the states read, so no trajectory file is needed. Ballistic motion gives v²t²; a random
//! walk of steps v Δt (the Vicsek gas at η = 2π) gives v² Δt · t.

use crate::analysis::multi_tau::MultiTau;
use crate::analysis::series::{by_id, lag_curve, max_lag};
use crate::analysis::types::{
    Analysis, AnalysisDesc, AnalysisError, Axis, Curve, Frame, Scales, Settings, StatePart, LAG,
};
use crate::model::World;

/// The table's entry.
pub const DESC: AnalysisDesc = AnalysisDesc {
    name: "msd",
    about: "mean-squared displacement of the unwrapped paths against the lag",
    x: LAG,
    y: Axis {
        symbol: "MSD",
        name: "mean-squared displacement",
        unit: "wu²",
    },
    series: true,
    scales: Scales::LogLog,
    reads: &[],
    joined: true,
    needs: &[StatePart::Image],
    scalars: &[],
    make,
};

fn make(s: &Settings, _world: World) -> Result<Box<dyn Analysis>, AnalysisError> {
    let lag = max_lag(DESC.name, s.states)?;
    Ok(Box::new(Msd {
        correlator: MultiTau::new(lag, |a, b| (a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2)),
        interval: s.interval,
        ids: None,
        boids: 0,
    }))
}

/// The MSD in progress.
struct Msd {
    correlator: MultiTau,
    interval: f64,
    ids: Option<Vec<u32>>,
    boids: usize,
}

impl Analysis for Msd {
    fn add(&mut self, frame: &Frame) -> Result<(), AnalysisError> {
        let boids = by_id(DESC.name, frame, &mut self.ids)?;
        let (w, h) = (frame.world.width as f64, frame.world.height as f64);
        self.boids = boids.len();
        self.correlator.add(
            boids
                .iter()
                .map(|b| {
                    [
                        b.position[0] as f64 + b.image[0] as f64 * w,
                        b.position[1] as f64 + b.image[1] as f64 * h,
                    ]
                })
                .collect(),
        );
        Ok(())
    }

    fn curve(&self) -> Result<Curve, AnalysisError> {
        lag_curve(DESC.name, &self.correlator, self.boids, self.interval)
    }
}
