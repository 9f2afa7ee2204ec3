//! The steps of a video's frames ([`FrameSchedule`]): while recording, each frame advances the
//! simulation by one frame interval, `speed / fps` simulated seconds, so that frame k shows it at
//! k × speed / fps s whatever the display's rate ([`crate::app::recording`]).

/// The closest fraction p/q (q ≤ `max_q`) to `x` ≥ 0, when it is within `tol` relative of it
/// (continued fractions): 2 for 1.99999992, 10/3 for 3.333333.
fn near_fraction(x: f64, max_q: u64, tol: f64) -> Option<(u64, u64)> {
    let (mut p0, mut q0, mut p1, mut q1) = (0u64, 1u64, 1u64, 0u64);
    let mut r = x;
    for _ in 0..40 {
        let a = r.floor();
        if a > 1e12 {
            break;
        }
        let a = a as u64;
        let (p2, q2) = (a * p1 + p0, a * q1 + q0);
        if q2 > max_q {
            break;
        }
        (p0, q0, p1, q1) = (p1, q1, p2, q2);
        if (p1 as f64 / q1 as f64 - x).abs() <= tol * x.max(1e-300) {
            return Some((p1, q1));
        }
        let frac = r - a as f64;
        if frac < 1e-12 {
            break;
        }
        r = 1.0 / frac;
    }
    None
}

/// How many steps of Δt each recorded frame takes so that frame k shows the simulation at
/// k × speed / fps simulated seconds: `floor(k · r)` steps in all for r = speed / (fps · Δt), frame
/// by frame. A ratio within 1e-6 of a fraction with a denominator up to 100 is taken as that
/// fraction (Δt is an f32: 1/60 s is 0.016666668, and 1/30 s would otherwise drift to one step in
/// 12 million short), so 2 steps a frame stays 2 for ever.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FrameSchedule {
    /// Steps per frame as a fraction p/q (exact), or as a float when no near fraction exists.
    ratio: Ratio,
    /// Frames scheduled so far.
    frames: u64,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Ratio {
    Exact(u64, u64),
    Float(f64),
}

impl FrameSchedule {
    /// The schedule of frames every `speed / fps` simulated seconds for steps of `dt` s.
    pub fn new(dt: f64, fps: f64, speed: f64) -> FrameSchedule {
        let r = (speed / (fps * dt.max(1e-9))).max(0.0);
        let ratio = match near_fraction(r, 100, 1e-6) {
            Some((p, q)) => Ratio::Exact(p, q),
            None => Ratio::Float(r),
        };
        FrameSchedule { ratio, frames: 0 }
    }

    /// Steps taken before frame `k` in all.
    fn total(&self, k: u64) -> u64 {
        match self.ratio {
            Ratio::Exact(p, q) => (k as u128 * p as u128 / q as u128) as u64,
            Ratio::Float(r) => (k as f64 * r + 1e-9).floor() as u64,
        }
    }

    /// The steps to take before the next frame (0 when frames come faster than steps).
    pub fn next_steps(&mut self) -> u32 {
        let before = self.total(self.frames);
        self.frames += 1;
        (self.total(self.frames) - before).min(u32::MAX as u64) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn steps(dt: f64, fps: f64, speed: f64, frames: usize) -> Vec<u32> {
        let mut s = FrameSchedule::new(dt, fps, speed);
        (0..frames).map(|_| s.next_steps()).collect()
    }

    /// Each frame k shows the simulation at k × speed / fps simulated seconds: the steps per frame
    /// at various Δt, rates and speeds, with Δt as the f32 the parameters hold.
    #[test]
    fn the_schedule_keeps_a_fixed_simulated_rate() {
        let f32dt = |x: f64| x as f32 as f64;
        // Δt = 1/60 s (0.016666668 as an f32): 30 fps is 2 steps every frame, for ever.
        assert!(steps(f32dt(1.0 / 60.0), 30.0, 1.0, 100_000)
            .iter()
            .all(|n| *n == 2));
        assert!(steps(f32dt(1.0 / 60.0), 60.0, 1.0, 1000)
            .iter()
            .all(|n| *n == 1));
        // 24 fps: 2.5 steps a frame, alternating.
        assert_eq!(steps(f32dt(1.0 / 60.0), 24.0, 1.0, 4), [2, 3, 2, 3]);
        // Frames faster than steps: a step every other frame.
        assert_eq!(steps(f32dt(1.0 / 30.0), 60.0, 1.0, 4), [0, 1, 0, 1]);
        // Δt = 0.016 s at 30 fps: 25 steps every 12 frames, each frame 2 or 3.
        let s = steps(f32dt(0.016), 30.0, 1.0, 120);
        assert_eq!(s.iter().sum::<u32>(), 250);
        assert!(s.iter().all(|n| *n == 2 || *n == 3));
        for k in 1..=120usize {
            let taken: u32 = s[..k].iter().sum();
            let due = k as f64 / 30.0 / 0.016;
            assert!(
                (taken as f64 - due).abs() < 1.0,
                "frame {k}: {taken} vs {due}"
            );
        }
        // Speed ½× and 2× halve and double the steps per frame.
        assert!(steps(f32dt(1.0 / 60.0), 30.0, 2.0, 50)
            .iter()
            .all(|n| *n == 4));
        assert!(steps(f32dt(1.0 / 60.0), 30.0, 0.5, 50)
            .iter()
            .all(|n| *n == 1));
        // A ratio with no near fraction (the golden ratio's are the farthest) keeps its rate.
        let r = (1.0 + 5f64.sqrt()) / 2.0;
        assert_eq!(near_fraction(r, 100, 1e-6), None);
        let s = steps(1.0 / (30.0 * r), 30.0, 1.0, 1000);
        assert!(s.iter().all(|n| *n == 1 || *n == 2));
        let total: u32 = s.iter().sum();
        assert!((total as f64 - 1000.0 * r).abs() < 1.0, "{total}");
    }

    #[test]
    fn near_fractions() {
        assert_eq!(near_fraction(1.999_999_92, 1000, 1e-6), Some((2, 1)));
        assert_eq!(near_fraction(10.0 / 3.0, 1000, 1e-6), Some((10, 3)));
        assert_eq!(near_fraction(0.5, 1000, 1e-6), Some((1, 2)));
        assert_eq!(near_fraction(std::f64::consts::PI, 1000, 1e-9), None);
        assert_eq!(near_fraction(0.0, 1000, 1e-6), Some((0, 1)));
    }
}
