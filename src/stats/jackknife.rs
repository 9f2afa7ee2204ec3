//! Errors of nonlinear functions of time averages by the delete-one-block jackknife.
//!
//! A quantity such as the Binder cumulant 1 − ⟨φ⁴⟩/(3⟨φ²⟩²) or the susceptibility
//! N(⟨φ²⟩ − ⟨φ⟩²) is a nonlinear function f(⟨a⟩, ⟨b⟩, …) of time averages of correlated series,
//! so neither the naive error nor batch means of one series gives its error. The jackknife does
//! (Quenouille, "Notes on bias in estimation", Biometrika 43, 353–360, 1956; Tukey, "Bias and confidence in not-quite large samples",
//! Annals of Mathematical Statistics 29, 614, 1958; Efron,
//! "The Jackknife, the Bootstrap and Other Resampling Plans", SIAM CBMS-NSF 38, 1982, ch. 2–3),
//! and deleting whole blocks of consecutive samples instead of single samples keeps it valid for
//! correlated series once a block is much longer than the correlation time (Carlstein, "The use of
//! subseries values for estimating the variance of a general statistic from a stationary
//! sequence", Annals of Statistics 14(3), 1171–1179, 1986; Künsch, "The jackknife and the
//! bootstrap for general stationary observations", Annals of Statistics 17(3), 1217–1241, 1989;
//! for Monte Carlo practice, Berg, "Markov Chain Monte Carlo Simulations and Their Statistical
//! Analysis", World Scientific 2004).
//!
//! The blocks are exactly the B batches of the batch means ([`series_stats`](super::series_stats):
//! B = min(20, ⌊n/2⌋) consecutive blocks of ⌊n/B⌋ samples, the earliest left-over samples left
//! out). With θ_j = f of the averages over all blocks but block j and θ̄ their mean,
//!
//! error² = (B − 1)/B · Σ_j (θ_j − θ̄)².
//!
//! For a linear f this is exactly the batch-means error; for a smooth f it is the delta-method
//! error with the batch-means covariance of the averages, without needing the derivatives. Like
//! batch means it is honest only when a block (n/20 samples) is several times longer than the
//! integrated autocorrelation time, and it is itself uncertain by about ±16 % (19 degrees of
//! freedom).

use super::batch_means::Batches;

/// A function of time averages, its block-jackknife standard error and bias.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Jackknife {
    /// f of the averages over all n samples (NaN for empty series).
    pub value: f64,
    /// Block-jackknife standard error of `value`, units of f (NaN below
    /// [`MIN_SAMPLES`](super::MIN_SAMPLES) samples).
    pub error: f64,
    /// Jackknife estimate of the bias of f at this run length, (B − 1)(θ̄ − θ_B) with θ_B = f of
    /// the averages over the B blocks; `value − bias` is the bias-corrected estimate. The bias of a
    /// nonlinear f falls as 1/n; it is worth reporting only when comparable with `error`.
    pub bias: f64,
}

/// The delete-one-block jackknife of `f` applied to the time averages of `observables`.
///
/// `observables` are time series of the same length n (oldest first, one sample per measured step,
/// e.g. φ, φ², φ⁴ of each step); `f` receives their averages in the same order (a slice of
/// `observables.len()` values) and returns the statistic. Returns NaN for the value when n = 0 or
/// there are no observables, and NaN for the error and bias below
/// [`MIN_SAMPLES`](super::MIN_SAMPLES) samples.
///
/// # Panics
///
/// When the observables differ in length.
pub fn block_jackknife<F>(observables: &[&[f64]], f: F) -> Jackknife
where
    F: Fn(&[f64]) -> f64,
{
    let nan = Jackknife {
        value: f64::NAN,
        error: f64::NAN,
        bias: f64::NAN,
    };
    let Some(first) = observables.first() else {
        return nan;
    };
    let n = first.len();
    assert!(
        observables.iter().all(|o| o.len() == n),
        "block_jackknife: observables of different lengths"
    );
    if n == 0 {
        return nan;
    }
    let full: Vec<f64> = observables
        .iter()
        .map(|o| o.iter().sum::<f64>() / n as f64)
        .collect();
    let value = f(&full);
    let Some(batches) = Batches::of(n) else {
        return Jackknife { value, ..nan };
    };
    let b = batches.count as f64;
    // Block means per observable, and their mean (the average over the blocked samples).
    let block_means: Vec<Vec<f64>> = observables.iter().map(|o| batches.means(o)).collect();
    let blocked: Vec<f64> = block_means
        .iter()
        .map(|m| m.iter().sum::<f64>() / b)
        .collect();
    let mut args = vec![0.0; observables.len()];
    let deleted: Vec<f64> = (0..batches.count)
        .map(|j| {
            for (a, (m, all)) in args.iter_mut().zip(block_means.iter().zip(&blocked)) {
                *a = (b * all - m[j]) / (b - 1.0);
            }
            f(&args)
        })
        .collect();
    let mean_deleted = deleted.iter().sum::<f64>() / b;
    let ss: f64 = deleted.iter().map(|t| (t - mean_deleted).powi(2)).sum();
    Jackknife {
        value,
        error: ((b - 1.0) / b * ss).sqrt(),
        bias: (b - 1.0) * (mean_deleted - f(&blocked)),
    }
}

#[cfg(test)]
mod tests {
    use super::super::batch_means::series_stats;
    use super::super::test_rng::TestRng;
    use super::*;

    #[test]
    fn jackknife_of_the_mean_is_the_batch_means_error() {
        // 1003 samples: 20 blocks of 50, the first 3 left out by both estimators.
        let xs = TestRng::new(21).ar1(1003, 0.5);
        let s = series_stats(&xs);
        let j = block_jackknife(&[&xs], |m| m[0]);
        assert_eq!(j.value, s.mean);
        // Equal algebraically; rounding of sums of 1000 O(1) numbers is far below 1e-12.
        assert!(
            (j.error / s.se - 1.0).abs() < 1e-12,
            "{} vs {}",
            j.error,
            s.se
        );
        // A linear statistic has no bias.
        assert!(j.bias.abs() < 1e-12 * s.se, "bias {}", j.bias);
    }

    #[test]
    fn jackknife_bias_of_squared_mean_is_the_variance_of_the_mean() {
        // For f = ⟨x⟩², θ_j = (m̄ − (m_j − m̄)/(B − 1))², so (B − 1)(θ̄ − m̄²) = Σ(m_j − m̄)²/(B(B − 1))
        // = se_BM² exactly: the known bias E[⟨x⟩²] − E[x]² = Var⟨x⟩.
        let xs: Vec<f64> = TestRng::new(22)
            .ar1(2000, 0.3)
            .iter()
            .map(|x| x + 3.0)
            .collect();
        let se = series_stats(&xs).se;
        let j = block_jackknife(&[&xs], |m| m[0] * m[0]);
        assert!(
            (j.bias / (se * se) - 1.0).abs() < 1e-9,
            "{} vs {}",
            j.bias,
            se * se
        );
    }

    #[test]
    fn jackknife_of_a_smooth_function_is_the_delta_method() {
        // f = ln⟨x⟩ with ⟨x⟩ ≈ 5: the delta method gives se_BM/⟨x⟩. The two differ by terms of
        // relative order se/⟨x⟩ ≈ 1e-3; 1e-2 allows that ten times over.
        let xs: Vec<f64> = TestRng::new(23)
            .ar1(10_000, 0.5)
            .iter()
            .map(|x| x + 5.0)
            .collect();
        let s = series_stats(&xs);
        let j = block_jackknife(&[&xs], |m| m[0].ln());
        assert!((j.value - s.mean.ln()).abs() < 1e-15);
        let delta = s.se / s.mean;
        assert!(
            (j.error / delta - 1.0).abs() < 1e-2,
            "{} vs {delta}",
            j.error
        );
    }

    #[test]
    fn short_and_empty_series() {
        let j = block_jackknife(&[&[1.0, 3.0, 5.0]], |m| m[0]);
        assert_eq!(j.value, 3.0);
        assert!(j.error.is_nan() && j.bias.is_nan());
        assert!(block_jackknife(&[&[]], |m| m[0]).value.is_nan());
        assert!(block_jackknife(&[], |_| 1.0).value.is_nan());
    }

    #[test]
    #[should_panic(expected = "different lengths")]
    fn observables_of_different_lengths_panic() {
        block_jackknife(&[&[1.0, 2.0], &[1.0]], |m| m[0]);
    }
}
