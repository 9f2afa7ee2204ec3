//! The integrated autocorrelation time of a series, with Sokal's automatic windowing (A. D.
//! Sokal, "Monte Carlo methods in statistical mechanics: foundations and new algorithms", 1997,
//! §3; also Madras & Sokal 1988): it says whether a run is long enough, and a batch of the
//! batch-means error long enough, for the error to be honest.
//!
//! With the normalised autocorrelation ρ(t) = C(t)/C(0), C(t) = 1/(n − t) Σ_{i<n−t} (x_i − x̄)
//! (x_{i+t} − x̄), the estimate over a window M is τ(M) = 1/2 + Σ_{t=1}^{M} ρ(t), and the window is
//! the smallest M with M ≥ c·τ(M) (c = [`WINDOW_FACTOR`] = 5): long enough to hold the decay,
//! short enough to keep the noise of the tail out. Its error is τ·√(2(2M + 1)/n). In this
//! convention independent samples have τ = 1/2 and the variance of the mean is 2τ·σ²/n; for an
//! AR(1) series x_{i+1} = φ x_i + noise, τ = (1 + φ)/(2(1 − φ)).

/// Sokal's c: the window is at least this many autocorrelation times.
pub const WINDOW_FACTOR: f64 = 5.0;

/// A run should be at least this many τ_int long for its error to be honest.
pub const RUN_TAUS: f64 = 50.0;

/// A batch of the batch-means error should be at least this many τ_int long.
pub const BATCH_TAUS: f64 = 5.0;

/// The integrated autocorrelation time of a series.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AutocorrelationTime {
    /// τ_int, in samples (steps between measures).
    pub tau: f64,
    /// Its one-standard-error uncertainty.
    pub error: f64,
    /// The window M the sum ran to.
    pub window: usize,
    /// Whether the window fitted the series (M < n/2); when not, τ_int is a lower bound.
    pub converged: bool,
}

/// τ_int of `series` (oldest first) by automatic windowing; None for fewer than 4 samples or a
/// constant series (no fluctuation to correlate).
pub fn integrated_autocorrelation_time(series: &[f64]) -> Option<AutocorrelationTime> {
    let n = series.len();
    if n < 4 {
        return None;
    }
    let mean = series.iter().sum::<f64>() / n as f64;
    let d: Vec<f64> = series.iter().map(|x| x - mean).collect();
    let c = |t: usize| -> f64 {
        d[..n - t]
            .iter()
            .zip(&d[t..])
            .map(|(a, b)| a * b)
            .sum::<f64>()
            / (n - t) as f64
    };
    let c0 = c(0);
    if c0 <= 0.0 || !c0.is_finite() {
        return None;
    }
    let mut tau = 0.5;
    let max = n / 2;
    let mut window = max;
    let mut converged = false;
    for m in 1..=max {
        tau += c(m) / c0;
        if m as f64 >= WINDOW_FACTOR * tau {
            window = m;
            converged = true;
            break;
        }
    }
    let tau = tau.max(0.5);
    Some(AutocorrelationTime {
        tau,
        error: tau * (2.0 * (2 * window + 1) as f64 / n as f64).sqrt(),
        window,
        converged,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::test_rng::TestRng;

    fn ar1(phi: f64, n: usize, seed: u64) -> Vec<f64> {
        TestRng::new(seed).ar1(n, phi)
    }

    #[test]
    fn independent_samples_have_a_half() {
        let t = integrated_autocorrelation_time(&ar1(0.0, 20_000, 3)).unwrap();
        assert!(t.converged);
        assert!((t.tau - 0.5).abs() < 3.0 * t.error + 0.02, "{t:?}");
    }

    #[test]
    fn an_ar1_series_has_its_known_time() {
        for phi in [0.5, 0.9, 0.97] {
            let want = (1.0 + phi) / (2.0 * (1.0 - phi));
            let t = integrated_autocorrelation_time(&ar1(phi, 100_000, 11)).unwrap();
            assert!(t.converged, "{phi}: {t:?}");
            // The window's truncation biases τ low by about e^{-M/τ_exp}: within 5 % here.
            assert!(
                (t.tau - want).abs() < 3.0 * t.error + 0.05 * want,
                "φ = {phi}: τ = {} ± {} against {want}",
                t.tau,
                t.error
            );
        }
    }

    #[test]
    fn a_constant_or_tiny_series_has_none_and_a_short_one_is_not_converged() {
        assert!(integrated_autocorrelation_time(&[1.0; 100]).is_none());
        assert!(integrated_autocorrelation_time(&[1.0, 2.0, 3.0]).is_none());
        // Correlated over far more than the series: the window cannot fit.
        let t = integrated_autocorrelation_time(&ar1(0.999, 200, 5)).unwrap();
        assert!(!t.converged, "{t:?}");
    }
}
