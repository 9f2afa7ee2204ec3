//! Time averages of a measure and their errors by non-overlapping batch means.
//!
//! The measures of consecutive steps are strongly correlated (a flock turns over many steps), so
//! the naive standard error sd/√n understates the uncertainty of a time average by about √(2τ),
//! τ being the integrated autocorrelation time of the measure in steps (τ = 1/2 + Σ_{t≥1} ρ(t),
//! ρ the autocorrelation function; Sokal, "Monte Carlo methods in statistical mechanics: foundations
//! and new algorithms", Cargèse lectures 1996). The standard error here is by **non-overlapping batch means**
//! (Schmeiser, "Batch size effects in the analysis of simulation output", Operations Research
//! 30(3), 556–568, 1982; Flegal & Jones, "Batch means and spectral variance estimators in Markov
//! chain Monte Carlo", Annals of Statistics 38(2), 1034–1070, 2010): the n samples are cut into
//! B = min(20, ⌊n/2⌋) consecutive batches of b = ⌊n/B⌋ samples (the earliest n − B·b samples,
//! closest to the discarded transient, are left out of the batches), and
//!
//! se = sd(batch means) / √B, with sd the sample standard deviation (divisor B − 1).
//!
//! B is fixed (Schmeiser finds 10–30 batches a good trade-off), so each batch grows with the run:
//! the estimate is honest once a batch (n/20 steps) is several times longer than τ; shorter runs
//! give too small an error. With B − 1 = 19 degrees of freedom the error is itself uncertain by
//! about ±16 % (relative sd 1/√(2·19)); for i.i.d. samples it agrees with sd/√n within that.
//!
//! The same batches are the blocks of the jackknife ([`block_jackknife`](super::block_jackknife)).

use super::estimate::{ErrorKind, Estimate};

/// Number of batches of the batch-means standard error (fewer when there are under 40 samples).
pub const BATCHES: usize = 20;

/// Fewest samples for a standard error: two batches of two.
pub const MIN_SAMPLES: usize = 4;

/// Time average, fluctuation and standard error of one measure over one run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SeriesStats {
    /// Mean over all samples (units of the measure).
    pub mean: f64,
    /// Sample standard deviation over time (divisor n − 1; 0 for one sample): the fluctuation of
    /// the measure, not an error.
    pub sd: f64,
    /// Standard error of `mean` by batch means (NaN below [`MIN_SAMPLES`] samples).
    pub se: f64,
}

/// Number of batches used for `n` samples: min(20, ⌊n/2⌋).
pub fn batch_count(n: usize) -> usize {
    (n / 2).min(BATCHES)
}

/// The batches of a series of length n: `count` consecutive batches of `len` samples each, the
/// first starting at `start` = n − count·len (the earliest samples are left out).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Batches {
    pub start: usize,
    pub len: usize,
    pub count: usize,
}

impl Batches {
    /// The batches of `n` samples, or `None` below [`MIN_SAMPLES`] samples.
    pub fn of(n: usize) -> Option<Batches> {
        let count = batch_count(n);
        if n < MIN_SAMPLES || count < 2 {
            return None;
        }
        let len = n / count;
        Some(Batches {
            start: n - count * len,
            len,
            count,
        })
    }

    /// The mean of each batch of `xs` (whose length is the n of [`Batches::of`]).
    pub fn means(&self, xs: &[f64]) -> Vec<f64> {
        xs[self.start..]
            .chunks_exact(self.len)
            .map(|c| c.iter().sum::<f64>() / self.len as f64)
            .collect()
    }
}

/// Mean and sample standard deviation (divisor n − 1; 0 for one value) of `xs`.
pub(super) fn mean_sd(xs: &[f64]) -> (f64, f64) {
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    let sd = if xs.len() > 1 {
        (xs.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1.0)).sqrt()
    } else {
        0.0
    };
    (mean, sd)
}

/// The statistics of `xs` (a time series of one measure, one sample per measured step, oldest
/// first). An empty series gives NaN everywhere.
pub fn series_stats(xs: &[f64]) -> SeriesStats {
    if xs.is_empty() {
        return SeriesStats {
            mean: f64::NAN,
            sd: f64::NAN,
            se: f64::NAN,
        };
    }
    let (mean, sd) = mean_sd(xs);
    let se = match Batches::of(xs.len()) {
        None => f64::NAN,
        Some(batches) => mean_sd(&batches.means(xs)).1 / (batches.count as f64).sqrt(),
    };
    SeriesStats { mean, sd, se }
}

/// The time average of `xs` (oldest first) as an [`Estimate`] with its batch-means standard
/// error (kind [`ErrorKind::BatchMeansWithinRun`]); see [`series_stats`] for the NaN cases.
pub fn time_average(xs: &[f64]) -> Estimate {
    let s = series_stats(xs);
    Estimate {
        value: s.mean,
        error: s.se,
        kind: ErrorKind::BatchMeansWithinRun,
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_rng::TestRng;
    use super::*;

    #[test]
    fn small_series() {
        let s = series_stats(&[1.0, 2.0, 3.0, 4.0]);
        assert_eq!(s.mean, 2.5);
        assert!((s.sd - (5.0f64 / 3.0).sqrt()).abs() < 1e-12);
        // Two batches: means 1.5 and 3.5 → sd √2, se √2/√2 = 1.
        assert!((s.se - 1.0).abs() < 1e-12, "{}", s.se);
        assert!(series_stats(&[1.0, 2.0, 3.0]).se.is_nan());
        assert!(series_stats(&[]).mean.is_nan());
    }

    #[test]
    fn batches_leave_out_the_earliest_samples() {
        // 45 samples: 20 batches of 2, the first 5 samples left out.
        assert_eq!(
            Batches::of(45),
            Some(Batches {
                start: 5,
                len: 2,
                count: 20
            })
        );
        // A spike in the left-out head changes the mean but not the error.
        let mut xs: Vec<f64> = (0..45).map(|i| (i % 3) as f64).collect();
        let se = series_stats(&xs).se;
        xs[0] = 1e6;
        assert_eq!(series_stats(&xs).se, se);
        assert_eq!(Batches::of(3), None);
    }

    /// The mean over `series` independent AR(1) series of `n` samples (coefficient `rho`; i.i.d.
    /// for 0) of se_BM² / (sd²/n), the squared ratio of the batch-means error to the naive one.
    fn mean_squared_ratio(rng: &mut TestRng, series: usize, n: usize, rho: f64) -> f64 {
        let mut sum = 0.0;
        for _ in 0..series {
            let xs = rng.ar1(n, rho);
            let s = series_stats(&xs);
            let naive = s.sd / (n as f64).sqrt();
            sum += (s.se / naive).powi(2);
        }
        sum / series as f64
    }

    // Tolerance of the two tests below: se_BM² is (true variance of the mean)·χ²₁₉/19, relative
    // sd √(2/19) = 0.324 per series; averaged over 64 independent series the relative sd is
    // 0.324/8 = 0.041, and we allow 4 of them (0.16). The bias of batch means for batches of b
    // samples is of order τ/b (below 1 % here) and the naive sd is known to 1/√n, both far
    // inside it.
    const SERIES: usize = 64;
    const N: usize = 40_000;
    const TOL: f64 = 4.0 * 0.0406;

    #[test]
    fn batch_means_on_iid_data_is_the_naive_error() {
        let mut rng = TestRng::new(11);
        let r2 = mean_squared_ratio(&mut rng, SERIES, N, 0.0);
        assert!((r2 - 1.0).abs() < TOL, "se_BM²/(sd²/n) = {r2}, expected 1");
    }

    #[test]
    fn batch_means_on_ar1_is_larger_by_root_two_tau() {
        // AR(1) x_t = ρ x_{t−1} + ε_t has ρ(t) = ρ^t, so 2τ = 1 + 2ρ/(1 − ρ) = (1 + ρ)/(1 − ρ):
        // 19 for ρ = 0.9 (τ = 9.5 steps, batches of 2000 steps).
        let rho = 0.9;
        let two_tau = (1.0 + rho) / (1.0 - rho);
        let mut rng = TestRng::new(12);
        let r2 = mean_squared_ratio(&mut rng, SERIES, N, rho);
        assert!(
            (r2 / two_tau - 1.0).abs() < TOL,
            "se_BM²/(sd²/n) = {r2}, expected 2τ = {two_tau}"
        );
    }

    #[test]
    fn time_average_is_the_series_stats() {
        let xs = [1.0, 2.0, 3.0, 4.0];
        let e = time_average(&xs);
        assert_eq!((e.value, e.error), (2.5, 1.0));
        assert_eq!(e.kind, ErrorKind::BatchMeansWithinRun);
    }
}
