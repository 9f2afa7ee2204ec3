//! A multiple-tau correlator over states read at equal intervals (Ramírez, Sukumaran, Vorselaars
//! and Likhtman, J. Chem. Phys. 133, 154103 (2010), with decimation rather than block averages, so
//! each lag's value is exact): level l keeps the last [`P`] states read every 2^l reads; a new
//! state at level l is paired with those j = 1 … P − 1 back (level 0) or P/2 … P − 1 back (higher
//! levels), lags j · 2^l reads apart. The lags grow geometrically to the run's length, and the
//! memory is levels × P states, not the run. Each pair of states gives Σ over the boids of a
//! kernel (|r_i(t) − r_i(t')|² for the MSD, e_i(t)·e_i(t') for the heading autocorrelation).

use std::collections::VecDeque;

/// States kept per level.
pub const P: usize = 16;

/// Per-boid values of one state (an unwrapped position, a unit heading).
pub type Sample = Vec<[f64; 2]>;

/// The correlator: its levels and, per lag (in reads), Σ kernel and the pairs of states behind it.
pub struct MultiTau {
    kernel: fn(&[f64; 2], &[f64; 2]) -> f64,
    levels: Vec<VecDeque<Sample>>,
    max_lag: u64,
    reads: u64,
    /// (lag in reads, Σ over pairs of Σ over boids of the kernel, pairs).
    sums: Vec<(u64, f64, u64)>,
}

impl MultiTau {
    /// A correlator of lags up to `max_lag` reads (1 or more) with `kernel`.
    pub fn new(max_lag: u64, kernel: fn(&[f64; 2], &[f64; 2]) -> f64) -> MultiTau {
        let max_lag = max_lag.max(1);
        // Lags at level l reach (P − 1) · 2^l.
        let mut levels = 1;
        while ((P as u64 - 1) << (levels - 1)) < max_lag {
            levels += 1;
        }
        let mut lags = Vec::new();
        for l in 0..levels {
            let first = if l == 0 { 1 } else { P / 2 };
            for j in first..P {
                let lag = (j as u64) << l;
                if lag <= max_lag {
                    lags.push((lag, 0.0, 0));
                }
            }
        }
        MultiTau {
            kernel,
            levels: vec![VecDeque::with_capacity(P); levels],
            max_lag,
            reads: 0,
            sums: lags,
        }
    }

    /// Adds the next state read.
    pub fn add(&mut self, sample: Sample) {
        let t = self.reads;
        self.reads += 1;
        for l in 0..self.levels.len() {
            let spacing = 1u64 << l;
            if !t.is_multiple_of(spacing) {
                break;
            }
            let first = if l == 0 { 1 } else { P / 2 };
            let ring = &self.levels[l];
            for j in first..=ring.len().min(P - 1) {
                let lag = (j as u64) << l;
                if lag > self.max_lag {
                    break;
                }
                let then = &ring[ring.len() - j];
                let s: f64 = sample
                    .iter()
                    .zip(then)
                    .map(|(a, b)| (self.kernel)(a, b))
                    .sum();
                if let Some(e) = self.sums.iter_mut().find(|e| e.0 == lag) {
                    e.1 += s;
                    e.2 += 1;
                }
            }
            let ring = &mut self.levels[l];
            if ring.len() == P {
                ring.pop_front();
            }
            ring.push_back(sample.clone());
        }
    }

    /// The lags measured (in reads, increasing), the mean of the kernel per boid at each, and the
    /// pairs of states behind it; lags not yet reached are left out.
    pub fn means(&self, boids: usize) -> Vec<(u64, f64, u64)> {
        let mut out: Vec<(u64, f64, u64)> = self
            .sums
            .iter()
            .filter(|e| e.2 > 0)
            .map(|&(lag, s, n)| (lag, s / (n as f64 * boids.max(1) as f64), n))
            .collect();
        out.sort_by_key(|e| e.0);
        out
    }

    /// States read so far.
    pub fn reads(&self) -> u64 {
        self.reads
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every lag's value is the exact mean over the pairs of states it pairs: a drift of one per
    /// read gives a squared displacement of lag² at every lag measured, and the lags cover 1 …
    /// max_lag with no gap wider than an octave.
    #[test]
    fn lags_are_exact_and_cover_the_run() {
        let mut c = MultiTau::new(500, |a, b| (a[0] - b[0]).powi(2));
        for t in 0..1000 {
            c.add(vec![[t as f64, 0.0]; 3]);
        }
        let m = c.means(3);
        assert_eq!(m[0].0, 1);
        assert!(m.last().unwrap().0 <= 500 && m.last().unwrap().0 > 250);
        for w in m.windows(2) {
            assert!(w[1].0 <= 2 * w[0].0, "{:?}", w);
        }
        for (lag, v, n) in &m {
            assert!((v - (*lag as f64).powi(2)).abs() < 1e-9, "{lag}: {v}");
            assert!(*n > 0);
        }
    }
}
