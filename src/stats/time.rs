//! Summary statistics of frame times (ms): mean, median, percentiles, max, fps and 1 % low.

use serde::{Deserialize, Deserializer, Serialize};

/// Percentile `q` ∈ [0, 100] of `sorted` (ascending) by linear interpolation between closest ranks
/// (the "C = 1" definition used by numpy's default). NaN for an empty slice.
pub fn percentile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let pos = (q / 100.0).clamp(0.0, 1.0) * (sorted.len() - 1) as f64;
    let lo = pos.floor() as usize;
    let hi = pos.ceil() as usize;
    sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo as f64)
}

/// Rounds a duration in milliseconds to whole nanoseconds (6 decimals). Captures store and
/// summarise rounded values, so statistics recomputed from `frames.csv` equal the summary's.
pub fn round_ms(ms: f64) -> f64 {
    (ms * 1e6).round() / 1e6
}

/// NaN: the value of a statistic a summary does not hold (written by an older version).
fn nan() -> f64 {
    f64::NAN
}

/// Reads a number that `serde_json` may have written as `null` (it writes NaN so) back as NaN.
pub(crate) fn nan_if_null<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
    Ok(Option::<f64>::deserialize(d)?.unwrap_or(f64::NAN))
}

/// Summary of a series of step (or frame) times in milliseconds.
///
/// In JSON the fields are written flat with these names; NaN (no samples) is written as `null`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TimeStats {
    /// Number of samples.
    pub samples: usize,
    /// Arithmetic mean (ms).
    #[serde(deserialize_with = "nan_if_null")]
    pub mean_ms: f64,
    /// Median (ms): [`percentile`] 50.
    #[serde(deserialize_with = "nan_if_null")]
    pub median_ms: f64,
    /// Lower quartile (ms): [`percentile`] 25. With `p75_ms`, the interquartile range: the
    /// spread `boids bench --compare` judges a difference by. NaN when a summary lacks it.
    #[serde(default = "nan", deserialize_with = "nan_if_null")]
    pub p25_ms: f64,
    /// Upper quartile (ms): [`percentile`] 75. NaN when a summary lacks it.
    #[serde(default = "nan", deserialize_with = "nan_if_null")]
    pub p75_ms: f64,
    /// 95th percentile (ms), by [`percentile`].
    #[serde(deserialize_with = "nan_if_null")]
    pub p95_ms: f64,
    /// 99th percentile (ms), by [`percentile`].
    #[serde(deserialize_with = "nan_if_null")]
    pub p99_ms: f64,
    /// Largest (ms).
    #[serde(deserialize_with = "nan_if_null")]
    pub max_ms: f64,
    /// Frames per second from the mean: 1000 / mean_ms.
    #[serde(deserialize_with = "nan_if_null")]
    pub fps: f64,
    /// 1 % low fps: 1000 / (mean of the slowest 1 % of samples, rounded up, at least one sample).
    #[serde(deserialize_with = "nan_if_null")]
    pub low_1pct_fps: f64,
}

impl TimeStats {
    /// Statistics of `ms` (any order; non-finite values are ignored). All fields NaN (samples 0)
    /// when empty.
    pub fn from_ms(ms: &[f64]) -> TimeStats {
        let mut v: Vec<f64> = ms.iter().copied().filter(|x| x.is_finite()).collect();
        v.sort_by(|a, b| a.total_cmp(b));
        let n = v.len();
        if n == 0 {
            return TimeStats {
                samples: 0,
                mean_ms: f64::NAN,
                median_ms: f64::NAN,
                p25_ms: f64::NAN,
                p75_ms: f64::NAN,
                p95_ms: f64::NAN,
                p99_ms: f64::NAN,
                max_ms: f64::NAN,
                fps: f64::NAN,
                low_1pct_fps: f64::NAN,
            };
        }
        let mean = v.iter().sum::<f64>() / n as f64;
        let worst = n.div_ceil(100).max(1);
        let worst_mean = v[n - worst..].iter().sum::<f64>() / worst as f64;
        TimeStats {
            samples: n,
            mean_ms: mean,
            median_ms: percentile(&v, 50.0),
            p25_ms: percentile(&v, 25.0),
            p75_ms: percentile(&v, 75.0),
            p95_ms: percentile(&v, 95.0),
            p99_ms: percentile(&v, 99.0),
            max_ms: v[n - 1],
            fps: 1000.0 / mean,
            low_1pct_fps: 1000.0 / worst_mean,
        }
    }

    /// Boid-steps per second for `boids` boids: `boids × 1000 / mean_ms`.
    pub fn boid_steps_per_s(&self, boids: usize) -> f64 {
        boids as f64 * 1000.0 / self.mean_ms
    }
}
