//! Time averages of a measure and their errors.
//!
//! The measures of consecutive steps are strongly correlated (a flock turns over many steps), so
//! the naive standard error sd/√n understates the uncertainty of a time average. The standard
//! error here is by **non-overlapping batch means** (Schmeiser, "Batch size effects in the
//! analysis of simulation output", Operations Research 30(3), 1982; Flegal & Jones, "Batch means
//! and spectral variance estimators in Markov chain Monte Carlo", Annals of Statistics 38(2),
//! 2010): the n samples are cut into B = min(20, ⌊n/2⌋) consecutive batches of b = ⌊n/B⌋ samples
//! (the earliest n − B·b samples, closest to the discarded transient, are left out of the
//! batches), and
//!
//! se = sd(batch means) / √B, with sd the sample standard deviation (divisor B − 1).
//!
//! B is fixed (Schmeiser finds 10–30 batches a good trade-off), so each batch grows with the run:
//! the estimate is honest once a batch (n/20 steps) is several times longer than the integrated
//! autocorrelation time of the measure; shorter runs give too small an error. For i.i.d. samples
//! it agrees with sd/√n within its own sampling error (B − 1 = 19 degrees of freedom, about
//! ±16 %).
//!
//! `mean` is over all n samples and `sd` is their sample standard deviation over time (the
//! fluctuation of the measure, not an error).

/// Number of batches of the batch-means standard error (fewer when there are under 40 samples).
pub const BATCHES: usize = 20;

/// Fewest samples (measured steps) a point may have: two batches of two.
pub const MIN_SAMPLES: usize = 4;

/// Time average, fluctuation and standard error of one measure over one run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SeriesStats {
    /// Mean over all samples.
    pub mean: f64,
    /// Sample standard deviation over time (divisor n − 1; 0 for one sample).
    pub sd: f64,
    /// Standard error of `mean` by batch means (NaN below [`MIN_SAMPLES`] samples).
    pub se: f64,
}

/// Number of batches used for `n` samples: min(20, ⌊n/2⌋).
pub fn batch_count(n: usize) -> usize {
    (n / 2).min(BATCHES)
}

fn mean_sd(xs: &[f64]) -> (f64, f64) {
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    let sd = if xs.len() > 1 {
        (xs.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1.0)).sqrt()
    } else {
        0.0
    };
    (mean, sd)
}

/// The statistics of `xs` (a time series, oldest first). An empty series gives NaN everywhere.
pub fn series_stats(xs: &[f64]) -> SeriesStats {
    if xs.is_empty() {
        return SeriesStats {
            mean: f64::NAN,
            sd: f64::NAN,
            se: f64::NAN,
        };
    }
    let (mean, sd) = mean_sd(xs);
    let batches = batch_count(xs.len());
    let se = if xs.len() < MIN_SAMPLES || batches < 2 {
        f64::NAN
    } else {
        let b = xs.len() / batches;
        let tail = &xs[xs.len() - batches * b..];
        let means: Vec<f64> = tail
            .chunks_exact(b)
            .map(|c| c.iter().sum::<f64>() / b as f64)
            .collect();
        mean_sd(&means).1 / (batches as f64).sqrt()
    };
    SeriesStats { mean, sd, se }
}

/// The mean of K independent runs' means and its standard error √(Σ seₖ²)/K (errors of
/// independent estimates add in quadrature). Used for the plots when a point has repeats.
pub fn combine(runs: &[(f64, f64)]) -> (f64, f64) {
    if runs.is_empty() {
        return (f64::NAN, f64::NAN);
    }
    let k = runs.len() as f64;
    let mean = runs.iter().map(|r| r.0).sum::<f64>() / k;
    let se = runs.iter().map(|r| r.1 * r.1).sum::<f64>().sqrt() / k;
    (mean, se)
}

#[cfg(test)]
mod tests {
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
        assert_eq!(combine(&[(1.0, 3.0), (3.0, 4.0)]), (2.0, 2.5));
    }
}
