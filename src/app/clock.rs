//! The simulation clock of the window: how many fixed-`dt` steps each frame takes.
//!
//! **Real time** ([`Pace::RealTime`], the interactive default): a fixed-timestep accumulator
//! ("Fix Your Timestep!", Glenn Fiedler, 2004). Each frame adds the real time since the previous
//! frame × the speed (½×, 1×, 2×) to what the simulation owes, and takes as many steps of `dt` as
//! fit, at most [`MAX_STEPS_PER_FRAME`], and at most as many as keep the frame within
//! [`FRAME_BUDGET_S`] (10 fps): the budget less the rest of the frame (the time between frames
//! less the previous frame's steps at their measured cost, smoothed), or a quarter of that rest
//! when it is larger ([`REST_SHARE`]), divided by the measured step cost — always at least one
//! step. When a cap cuts the steps short, the rest is dropped rather than
//! carried (carrying it would only make later frames slower still), and the HUD says
//! "slowed to 0.4× real time". A frame gap above [`MAX_FRAME_GAP_S`] (a stall, a dragged window)
//! counts as that much.
//!
//! **One step per frame** ([`Pace::PerFrame`]): the frame time is taken to be `dt` whatever the
//! wall clock says, so at 1× every frame takes exactly one step (½×: every other frame, 2×: two),
//! and a run is a pure function of its frame count. This is the default when `--script` or
//! `--frames` is given (tests, scripted captures, fps measurements), and `--clock` chooses either.

use serde::Serialize;

/// Most steps one frame takes.
pub const MAX_STEPS_PER_FRAME: u32 = 4;
/// The frame time the steps may fill up to (s): more steps would push the frame rate below 10 fps,
/// so the simulation runs slower than asked instead (with one step per frame at least).
pub const FRAME_BUDGET_S: f64 = 0.100;
/// A frame already slower than [`FRAME_BUDGET_S`] without its steps may still grow by this share
/// for them (cheap steps beside a slow picture).
pub const REST_SHARE: f64 = 0.25;
/// Longest frame gap counted (s).
pub const MAX_FRAME_GAP_S: f64 = 0.25;
/// The speeds of the speed control (× real time).
pub const SPEEDS: [f64; 3] = [0.5, 1.0, 2.0];
/// Time constant of the achieved-speed average (s).
const SMOOTHING_S: f64 = 1.0;

/// How simulated time follows the frames.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, clap::ValueEnum, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Pace {
    /// Steps follow real time (capped per frame).
    #[default]
    RealTime,
    /// One step per frame at 1× (deterministic).
    PerFrame,
}

/// The accumulator and what it achieved.
#[derive(Clone, Debug)]
pub struct SimClock {
    /// The pace.
    pub pace: Pace,
    /// Speed (× real time): one of [`SPEEDS`].
    pub speed: f64,
    owed: f64,
    /// Simulated time so far (s).
    sim_time: f64,
    /// Smoothed achieved speed (simulated s per real s), None before the first running frame.
    achieved: Option<f64>,
    /// Whether a cap cut the last running frame short.
    capped: bool,
    /// Steps of the previous frame (their cost is part of this frame's gap).
    last_steps: u32,
    /// Smoothed time of a frame apart from its steps (s).
    rest_s: Option<f64>,
}

impl SimClock {
    /// A clock at 1×.
    pub fn new(pace: Pace) -> SimClock {
        SimClock {
            pace,
            speed: 1.0,
            owed: 0.0,
            sim_time: 0.0,
            achieved: None,
            capped: false,
            last_steps: 0,
            rest_s: None,
        }
    }

    /// The steps to take this frame, `frame_s` real seconds after the previous one, for steps of
    /// `dt` s whose measured cost is `step_cost_s` (None: not measured yet). Call [`SimClock::ran`]
    /// with the steps actually taken.
    pub fn plan(&mut self, frame_s: f64, dt: f64, step_cost_s: Option<f64>) -> u32 {
        let dt = dt.max(1e-6);
        let frame_s = match self.pace {
            Pace::RealTime => frame_s.clamp(0.0, MAX_FRAME_GAP_S),
            Pace::PerFrame => dt,
        };
        self.owed += frame_s * self.speed;
        let want = (self.owed / dt + 1e-9).floor().max(0.0) as u64;
        let cap = match (self.pace, step_cost_s) {
            (Pace::RealTime, Some(c)) if c > 0.0 => {
                let rest = (frame_s - self.last_steps as f64 * c).max(0.0);
                let rest = match self.rest_s {
                    None => rest,
                    Some(r) => r + 0.2 * (rest - r),
                };
                self.rest_s = Some(rest);
                let room = (FRAME_BUDGET_S - rest).max(REST_SHARE * rest);
                // 5 % slack: a step that just fits is taken.
                ((room / c + 0.05).floor().max(1.0) as u32).min(MAX_STEPS_PER_FRAME)
            }
            _ => MAX_STEPS_PER_FRAME,
        };
        let n = want.min(cap as u64) as u32;
        self.last_steps = n;
        self.owed -= n as f64 * dt;
        self.capped = want > n as u64;
        if self.capped {
            // Drop the backlog: a slow machine runs slower, it does not try to catch up.
            self.owed = self.owed.min(dt);
        }
        let achieved = if frame_s > 0.0 {
            n as f64 * dt / frame_s
        } else {
            self.speed
        };
        let a = 1.0 - (-frame_s / SMOOTHING_S).exp();
        self.achieved = Some(match self.achieved {
            None => achieved,
            Some(prev) => prev + a * (achieved - prev),
        });
        n
    }

    /// Records `n` steps of `dt` taken (by [`SimClock::plan`] or a single step while paused).
    pub fn ran(&mut self, n: u32, dt: f64) {
        self.sim_time += n as f64 * dt;
    }

    /// Forgets what is owed (pausing, resuming): the next frame starts afresh.
    pub fn reset(&mut self) {
        self.owed = 0.0;
        self.capped = false;
        self.last_steps = 0;
    }

    /// Simulated time so far (s).
    pub fn sim_time(&self) -> f64 {
        self.sim_time
    }

    /// The smoothed achieved speed (× real time), None before the first running frame.
    pub fn achieved(&self) -> Option<f64> {
        self.achieved
    }

    /// The achieved speed when a cap holds the simulation below the speed asked for (what the HUD
    /// shows as "slowed to …× real time"); None when it keeps up, and always with
    /// [`Pace::PerFrame`] (whose speed is per frame, not per second).
    pub fn slowed_to(&self) -> Option<f64> {
        match (self.pace, self.achieved) {
            (Pace::RealTime, Some(a)) if self.capped && a < 0.95 * self.speed => Some(a),
            _ => None,
        }
    }

    /// The next speed of [`SPEEDS`] up (`faster`) or down, staying at the ends.
    pub fn step_speed(&mut self, faster: bool) {
        let i = SPEEDS
            .iter()
            .position(|s| (*s - self.speed).abs() < 1e-9)
            .unwrap_or(1);
        let j = if faster {
            (i + 1).min(SPEEDS.len() - 1)
        } else {
            i.saturating_sub(1)
        };
        self.speed = SPEEDS[j];
    }
}

/// A speed as the HUD and tool bar write it: `½×`, `1×`, `2×`, else with two significant digits.
pub fn speed_label(s: f64) -> String {
    if (s - 0.5).abs() < 1e-9 {
        "½×".into()
    } else if s >= 0.995 {
        format!("{s:.0}×")
    } else if s >= 0.095 {
        format!("{s:.1}×")
    } else {
        format!("{s:.2}×")
    }
}

/// What [`Pace::PerFrame`] takes at `speed`: `1 step/frame`, `2 steps/frame` (at most
/// [`MAX_STEPS_PER_FRAME`]), `1 step every 2 frames`.
pub fn per_frame_label(speed: f64) -> String {
    if speed >= 1.0 - 1e-9 {
        let n = (speed + 1e-9).floor().min(MAX_STEPS_PER_FRAME as f64) as u32;
        if n == 1 {
            "1 step/frame".into()
        } else {
            format!("{n} steps/frame")
        }
    } else {
        format!("1 step every {} frames", (1.0 / speed).round() as u32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DT: f64 = 1.0 / 60.0;

    /// Runs `frames` frames of `frame_s` each and returns (steps, simulated s).
    fn run(c: &mut SimClock, frames: u32, frame_s: f64, cost: Option<f64>) -> (u32, f64) {
        let mut steps = 0;
        for _ in 0..frames {
            let n = c.plan(frame_s, DT, cost);
            c.ran(n, DT);
            steps += n;
        }
        (steps, c.sim_time())
    }

    #[test]
    fn real_time_follows_the_wall_clock_at_any_frame_rate_it_can_keep_up_with() {
        for fps in [30.0, 45.0, 60.0, 144.0, 250.0] {
            let mut c = SimClock::new(Pace::RealTime);
            let (_, sim) = run(&mut c, (fps * 10.0) as u32, 1.0 / fps, Some(0.001));
            assert!((sim - 10.0).abs() <= DT + 1e-9, "{fps} fps: {sim} s");
            assert_eq!(c.slowed_to(), None);
        }
    }

    #[test]
    fn speeds_scale_simulated_time() {
        for (speed, expect) in [(0.5, 5.0), (2.0, 20.0)] {
            let mut c = SimClock::new(Pace::RealTime);
            c.speed = speed;
            let (_, sim) = run(&mut c, 600, 1.0 / 60.0, Some(0.001));
            assert!((sim - expect).abs() <= DT + 1e-9, "{speed}×: {sim}");
        }
    }

    /// At 18 fps one step per frame is 0.3× real time; the accumulator takes up to 4 steps a
    /// frame (here 3 or 4), so real time is kept.
    #[test]
    fn a_slow_frame_rate_takes_several_steps_per_frame() {
        let mut c = SimClock::new(Pace::RealTime);
        let (steps, sim) = run(&mut c, 180, 1.0 / 18.0, Some(0.002));
        assert!((sim - 10.0).abs() <= DT + 1e-9, "{sim}");
        assert_eq!(steps, 600);
    }

    /// The caps: 4 steps per frame at most, and the frame budget; what is cut is dropped and
    /// reported.
    #[test]
    fn caps_slow_the_simulation_down_and_say_so() {
        let mut c = SimClock::new(Pace::RealTime);
        let (steps, _) = run(&mut c, 100, 0.2, Some(0.001));
        assert_eq!(steps, 400);
        let slowed = c.slowed_to().expect("slowed");
        assert!((slowed - 4.0 * DT / 0.2).abs() < 0.01, "{slowed}");

        // lavapipe at 20 000 boids: 25 ms steps and 50 ms of drawing a frame. Two steps fill
        // the 100 ms budget: 10 fps at 2 × 1/60 s per 100 ms ≈ 0.33× real time.
        let mut c = SimClock::new(Pace::RealTime);
        let mut steps = Vec::new();
        let mut frame_s = 0.075;
        for _ in 0..100 {
            let n = c.plan(frame_s, DT, Some(0.025));
            c.ran(n, DT);
            steps.push(n);
            frame_s = 0.050 + n as f64 * 0.025;
        }
        assert!(steps[20..].iter().all(|n| *n == 2), "{steps:?}");
        let slowed = c.slowed_to().expect("slowed");
        assert!((slowed - 2.0 * DT / 0.1).abs() < 0.01, "{slowed}");

        // A step that alone exceeds the budget: still one step a frame.
        let mut c = SimClock::new(Pace::RealTime);
        let (steps, _) = run(&mut c, 100, 0.15, Some(0.120));
        assert_eq!(steps, 100);
        assert!((c.slowed_to().unwrap() - DT / 0.15).abs() < 0.01);
        // Once frames are fast again, no backlog is replayed and the note goes.
        let n = c.plan(DT, DT, Some(0.001));
        assert!(n <= 2, "{n}");
        run(&mut c, 300, DT, Some(0.001));
        assert_eq!(c.slowed_to(), None);
    }

    #[test]
    fn a_long_gap_counts_as_a_quarter_second() {
        let mut c = SimClock::new(Pace::RealTime);
        assert_eq!(c.plan(10.0, DT, None), MAX_STEPS_PER_FRAME);
        c.reset();
        let mut c = SimClock::new(Pace::RealTime);
        c.speed = 0.5;
        // 0.25 s × ½ = 7.5 steps owed, 4 taken.
        assert_eq!(c.plan(10.0, DT, Some(0.001)), 4);
    }

    #[test]
    fn the_per_frame_label_says_the_steps_the_plan_takes() {
        for speed in [0.5, 1.0, 2.0, 4.0, 8.0] {
            let mut c = SimClock::new(Pace::PerFrame);
            c.speed = speed;
            let steps: u32 = (0..4).map(|_| c.plan(0.3, DT, None)).sum();
            let label = per_frame_label(speed);
            let expected = match steps {
                2 => "1 step every 2 frames".to_string(),
                4 => "1 step/frame".to_string(),
                k => format!("{} steps/frame", k / 4),
            };
            assert_eq!(label, expected, "{speed}× took {steps} steps in 4 frames");
        }
    }

    #[test]
    fn per_frame_pace_is_one_step_per_frame_whatever_the_wall_clock() {
        let mut c = SimClock::new(Pace::PerFrame);
        for frame_s in [0.001, 0.5, 3.0] {
            assert_eq!(c.plan(frame_s, DT, Some(1.0)), 1);
        }
        c.speed = 0.5;
        let steps: Vec<u32> = (0..6).map(|_| c.plan(0.3, DT, None)).collect();
        assert_eq!(steps.iter().sum::<u32>(), 3, "{steps:?}");
        c.speed = 2.0;
        assert_eq!(c.plan(0.3, DT, None), 2);
        assert_eq!(c.slowed_to(), None);
    }

    #[test]
    fn speed_steps_stay_in_range() {
        let mut c = SimClock::new(Pace::RealTime);
        c.step_speed(true);
        assert_eq!(c.speed, 2.0);
        c.step_speed(true);
        assert_eq!(c.speed, 2.0);
        c.step_speed(false);
        c.step_speed(false);
        c.step_speed(false);
        assert_eq!(c.speed, 0.5);
        assert_eq!(speed_label(0.5), "½×");
        assert_eq!(speed_label(2.0), "2×");
        assert_eq!(speed_label(0.43), "0.4×");
    }
}
