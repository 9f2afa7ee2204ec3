//! What the panel's live plot shows ([`History`]): the running model's order parameter and the
//! flock count, sampled about once a second of wall time while the panel is open (each sample
//! reads the measures back, and the flock census reads the state: nothing is read back while the
//! panel is closed), over the last [`SPAN`] samples.

use std::collections::VecDeque;
use std::time::Duration;
use web_time::Instant;

/// Samples kept: five minutes at one a second.
pub const SPAN: usize = 300;
/// Wall time between samples.
pub const PERIOD: Duration = Duration::from_secs(1);
/// Above this many boids the flock census (a state readback and a CPU pass) is left out.
pub const CENSUS_MAX_BOIDS: usize = 100_000;

/// One sample.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    /// Simulated time (s; steps for a model whose time unit is its step and Δt = 1).
    pub t: f64,
    /// The model's order parameter.
    pub order: f64,
    /// Flocks found by the census (`None` above [`CENSUS_MAX_BOIDS`]).
    pub flocks: Option<f64>,
}

/// The samples of the live plot, with the order parameter's name.
#[derive(Clone, Debug, Default)]
pub struct History {
    samples: VecDeque<Sample>,
    last: Option<Instant>,
    /// The measure the order parameter is (`polarization`, `va`).
    pub order_name: &'static str,
}

impl History {
    /// An empty history of the order parameter `order_name`.
    pub fn new(order_name: &'static str) -> History {
        History {
            order_name,
            ..History::default()
        }
    }

    /// Whether a sample is due at `now`.
    pub fn due(&self, now: Instant) -> bool {
        self.last.is_none_or(|l| now.duration_since(l) >= PERIOD)
    }

    /// Adds a sample taken at `now`, dropping the oldest beyond [`SPAN`].
    pub fn push(&mut self, now: Instant, s: Sample) {
        self.last = Some(now);
        if self.samples.len() == SPAN {
            self.samples.pop_front();
        }
        self.samples.push_back(s);
    }

    /// Starts again for the order parameter `order_name` (a new model or scene).
    pub fn restart(&mut self, order_name: &'static str) {
        *self = History::new(order_name);
    }

    /// The samples, oldest first.
    pub fn samples(&self) -> impl Iterator<Item = &Sample> {
        self.samples.iter()
    }

    /// Number of samples.
    pub fn len(&self) -> usize {
        self.samples.len()
    }

    /// Whether there is no sample yet.
    pub fn is_empty(&self) -> bool {
        self.samples.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_last_span_at_one_a_second() {
        let mut h = History::new("polarization");
        let t0 = Instant::now();
        assert!(h.due(t0));
        for k in 0..SPAN + 5 {
            let s = Sample {
                t: k as f64,
                order: 0.5,
                flocks: Some(3.0),
            };
            h.push(t0 + PERIOD * k as u32, s);
        }
        assert_eq!(h.len(), SPAN);
        assert_eq!(h.samples().next().unwrap().t, 5.0);
        let last = t0 + PERIOD * (SPAN as u32 + 4);
        assert!(!h.due(last + PERIOD / 2));
        assert!(h.due(last + PERIOD));
        h.restart("va");
        assert!(h.is_empty() && h.order_name == "va");
    }
}
