//! Estimates from K independent repeats of a run (different random seeds, same parameters).
//!
//! For K ≥ 2 the value is the plain mean of the K per-repeat values x_k and its error is their
//! standard error of the mean,
//!
//! x̄ = Σ_k x_k / K,   error = s/√K,   s² = Σ_k (x_k − x̄)² / (K − 1),
//!
//! which needs nothing but the independence of the repeats: it holds whatever the correlations
//! within each run, and it grows when the repeats disagree (a run stuck in another state, a
//! transient not yet over, a too-short run), which errors within one run cannot see. Combining the
//! within-run errors instead (√(Σ se_k²)/K, or weights 1/se_k²) assumes the repeats estimate the
//! same number with those errors; when they disagree by more than that, it understates the error.
//! Each repeat counts equally (no weights by length or error), so one long or quiet repeat cannot
//! dominate a disagreeing set.
//!
//! The error has K − 1 degrees of freedom: with K = 3 it is itself uncertain by about 50 % (s² is
//! σ²·χ²₂/2), and a 95 % interval is ±4.30·error (Student's t with 2 degrees of freedom), not
//! ±1.96·error.
//!
//! For K = 1 there is no spread to take, and the estimate of the one run is returned with its own
//! within-run error (batch means for a time average).

use super::batch_means::{mean_sd, time_average};
use super::estimate::{ErrorKind, Estimate};

/// The mean of K per-repeat estimates and its error.
///
/// K ≥ 2: the mean of the values and s/√K (sample sd s, divisor K − 1), kind
/// [`ErrorKind::AcrossRepeats`]; the within-run errors of the inputs are not used. K = 1: the one
/// estimate unchanged (its value, within-run error and kind). K = 0: NaN value and error, kind
/// `AcrossRepeats { repeats: 0 }`. Units are those of the inputs.
pub fn combine_repeats(per_repeat: &[Estimate]) -> Estimate {
    match per_repeat {
        [] => Estimate {
            value: f64::NAN,
            error: f64::NAN,
            kind: ErrorKind::AcrossRepeats { repeats: 0 },
        },
        [one] => *one,
        many => {
            let values: Vec<f64> = many.iter().map(|e| e.value).collect();
            let (mean, sd) = mean_sd(&values);
            Estimate {
                value: mean,
                error: sd / (many.len() as f64).sqrt(),
                kind: ErrorKind::AcrossRepeats {
                    repeats: many.len(),
                },
            }
        }
    }
}

/// The time average of a measure over K repeats, from each repeat's time series (oldest first;
/// lengths may differ): [`combine_repeats`] of the repeats' [`time_average`]s, so the mean of the
/// K repeat means with error s/√K for K ≥ 2, and the batch-means error of the one run for K = 1.
pub fn mean_over_repeats(series: &[&[f64]]) -> Estimate {
    let per_repeat: Vec<Estimate> = series.iter().map(|s| time_average(s)).collect();
    combine_repeats(&per_repeat)
}

#[cfg(test)]
mod tests {
    use super::super::test_rng::TestRng;
    use super::*;

    #[test]
    fn disagreeing_repeats_take_their_spread() {
        // Three repeats whose series sit at 0.70, 0.80 and 0.95 with within-run noise 0.01 (i.i.d.,
        // 10 000 samples: within-run errors ≈ 1e-4). Their spread is s = 0.1258, s/√3 = 0.0726.
        let mut rng = TestRng::new(31);
        let levels = [0.70, 0.80, 0.95];
        let series: Vec<Vec<f64>> = levels
            .iter()
            .map(|l| (0..10_000).map(|_| l + 0.01 * rng.normal()).collect())
            .collect();
        let refs: Vec<&[f64]> = series.iter().map(|s| s.as_slice()).collect();
        let e = mean_over_repeats(&refs);
        assert_eq!(e.kind, ErrorKind::AcrossRepeats { repeats: 3 });
        assert_eq!(e.kind.to_string(), "across 3 repeats");
        let (mean, sd) = mean_sd(&levels);
        let expected = sd / 3f64.sqrt();
        // The repeat means are off their levels by ~1e-4 (within-run noise), which moves the
        // spread by well under 1 %.
        assert!((e.value - mean).abs() < 1e-3, "{} vs {mean}", e.value);
        assert!(
            (e.error / expected - 1.0).abs() < 0.01,
            "{} vs {expected}",
            e.error
        );
        assert!((expected - 0.0726).abs() < 1e-4);
        // The within-run errors (and their quadrature combination) are two orders smaller.
        let within: Vec<f64> = refs.iter().map(|s| time_average(s).error).collect();
        let quadrature = within.iter().map(|w| w * w).sum::<f64>().sqrt() / 3.0;
        assert!(within.iter().all(|&w| w > 0.0 && w < 3e-4), "{within:?}");
        assert!(e.error > 100.0 * quadrature);
    }

    #[test]
    fn one_repeat_keeps_its_batch_means_error() {
        let xs = TestRng::new(32).ar1(1000, 0.5);
        let e = mean_over_repeats(&[&xs]);
        assert_eq!(e, time_average(&xs));
        assert_eq!(e.kind, ErrorKind::BatchMeansWithinRun);
        assert_eq!(e.kind.to_string(), "batch means within the run");
    }

    #[test]
    fn repeats_from_means_and_errors() {
        let est = |value| Estimate {
            value,
            error: 0.5,
            kind: ErrorKind::BatchMeansWithinRun,
        };
        // Values 1 and 3: mean 2, s = √2, s/√2 = 1 (the within-run errors 0.5 are not used).
        let e = combine_repeats(&[est(1.0), est(3.0)]);
        assert_eq!((e.value, e.error), (2.0, 1.0));
        assert_eq!(e.kind, ErrorKind::AcrossRepeats { repeats: 2 });
        assert_eq!(combine_repeats(&[est(1.0)]), est(1.0));
        let none = combine_repeats(&[]);
        assert!(none.value.is_nan() && none.error.is_nan());
    }
}
