//! Summary statistics of frame times (ms): mean, median, percentiles, max, fps and 1 % low.

use serde::Serialize;

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

/// Summary of a series of step (or frame) times in milliseconds.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TimeStats {
    /// Number of samples.
    pub samples: usize,
    /// Arithmetic mean (ms).
    pub mean_ms: f64,
    /// Median (ms).
    pub median_ms: f64,
    /// 95th percentile (ms).
    pub p95_ms: f64,
    /// 99th percentile (ms).
    pub p99_ms: f64,
    /// Largest (ms).
    pub max_ms: f64,
    /// Frames per second from the mean: 1000 / mean_ms.
    pub fps: f64,
    /// 1 % low fps: 1000 / (mean of the slowest 1 % of samples, at least one sample).
    pub low_1pct_fps: f64,
}

impl TimeStats {
    /// Statistics of `ms` (any order). All fields NaN (samples 0) when empty.
    pub fn from_ms(ms: &[f64]) -> TimeStats {
        let mut v: Vec<f64> = ms.iter().copied().filter(|x| x.is_finite()).collect();
        v.sort_by(|a, b| a.total_cmp(b));
        let n = v.len();
        if n == 0 {
            return TimeStats {
                samples: 0,
                mean_ms: f64::NAN,
                median_ms: f64::NAN,
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
            p95_ms: percentile(&v, 95.0),
            p99_ms: percentile(&v, 99.0),
            max_ms: v[n - 1],
            fps: 1000.0 / mean,
            low_1pct_fps: 1000.0 / worst_mean,
        }
    }
}
