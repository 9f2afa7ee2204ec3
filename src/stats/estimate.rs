//! A value with its standard error and the kind of error it is.

use std::fmt;

/// Which standard error an [`Estimate`] carries. Its `Display` is the phrase a table or plot
/// caption prints ("across 3 repeats", "batch means within the run", …).
///
/// The kinds are not interchangeable. An error **across repeats** comes from the scatter of K
/// independent runs and includes everything that differs between them (initial conditions, a run
/// stuck in another state); an error **within the run** comes from the fluctuations of one time
/// series and only says how well that run's own time average is known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// sd/√K of the K per-repeat values (sample sd, divisor K − 1); see
    /// [`combine_repeats`](super::combine_repeats).
    AcrossRepeats {
        /// The number K of independent repeats.
        repeats: usize,
    },
    /// Non-overlapping batch means of one time series; see
    /// [`series_stats`](super::series_stats).
    BatchMeansWithinRun,
    /// Delete-one-block jackknife over the batches of one time series; see
    /// [`block_jackknife`](super::block_jackknife).
    BlockJackknifeWithinRun,
    /// Sokal's error of an integrated autocorrelation time, τ·√(2(2M + 1)/n) for its window M;
    /// see [`integrated_autocorrelation_time`](super::integrated_autocorrelation_time).
    SokalWithinRun,
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErrorKind::AcrossRepeats { repeats } => write!(f, "across {repeats} repeats"),
            ErrorKind::BatchMeansWithinRun => f.write_str("batch means within the run"),
            ErrorKind::BlockJackknifeWithinRun => f.write_str("block jackknife within the run"),
            ErrorKind::SokalWithinRun => f.write_str("Sokal's windowing within the run"),
        }
    }
}

/// A measured value, its standard error and which error that is.
///
/// `error` is one standard error of `value` (a 68 % interval if the estimate is normally
/// distributed), in the units of `value`. It is NaN where it cannot be formed (too few samples or
/// repeats; see the function that made the estimate). An error of a time average is honest only
/// when the run is long compared with the integrated autocorrelation time of the measure: samples
/// of consecutive steps are correlated, and every within-run error here is built to account for
/// that (batches or blocks much longer than the correlation time), not by the naive sd/√n.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// The estimate.
    pub value: f64,
    /// Its standard error (same units; NaN when it cannot be formed).
    pub error: f64,
    /// How `error` was obtained.
    pub kind: ErrorKind,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_kind_phrases() {
        assert_eq!(
            ErrorKind::AcrossRepeats { repeats: 3 }.to_string(),
            "across 3 repeats"
        );
        assert_eq!(
            ErrorKind::BatchMeansWithinRun.to_string(),
            "batch means within the run"
        );
        assert_eq!(
            ErrorKind::BlockJackknifeWithinRun.to_string(),
            "block jackknife within the run"
        );
    }
}
