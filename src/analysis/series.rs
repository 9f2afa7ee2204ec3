//! What the time analyses share: the boids of each state in id order, the same boids every time
//! (a time analysis compares each boid with itself).

use crate::analysis::multi_tau::MultiTau;
use crate::analysis::types::{need, AnalysisError, Curve, Frame};
use crate::model::Boid;

/// The boids of `frame` in id order, checked against the ids of the first state (`ids`, set from
/// the first state given).
///
/// # Errors
/// [`AnalysisError::OtherBoids`] when the ids differ from the first state's.
pub fn by_id<'a>(
    analysis: &'static str,
    frame: &Frame<'a>,
    ids: &mut Option<Vec<u32>>,
) -> Result<Vec<&'a Boid>, AnalysisError> {
    let mut boids: Vec<&Boid> = frame.boids.iter().collect();
    boids.sort_by_key(|b| b.id);
    let now: Vec<u32> = boids.iter().map(|b| b.id).collect();
    match ids {
        Some(first) if *first != now => return Err(AnalysisError::OtherBoids { analysis }),
        Some(_) => {}
        None => *ids = Some(now),
    }
    Ok(boids)
}

/// The lags (reads) a time analysis can measure from `states` reads: at most `states − 1`.
///
/// # Errors
/// [`AnalysisError::TooFew`] for fewer than 2 states.
pub fn max_lag(analysis: &'static str, states: u64) -> Result<u64, AnalysisError> {
    need(analysis, "states (a lag needs two)", 2, states)?;
    Ok(states - 1)
}

/// The curve of a time analysis: lag × interval against the correlator's means.
///
/// # Errors
/// [`AnalysisError::TooFew`] before two states.
pub fn lag_curve(
    analysis: &'static str,
    c: &MultiTau,
    boids: usize,
    interval: f64,
) -> Result<Curve, AnalysisError> {
    let means = c.means(boids);
    if means.is_empty() {
        need(analysis, "states (a lag needs two)", 2, c.reads().min(1))?;
    }
    Ok(Curve {
        x: means.iter().map(|m| m.0 as f64 * interval).collect(),
        y: means.iter().map(|m| m.1).collect(),
        samples: means.iter().map(|m| m.2).collect(),
        scalars: Vec::new(),
    })
}
