//! The one step loop of every command ([`run_steps`]): warm-up steps, then measured steps, timed
//! or not, with the flock measures on a cadence, a progress bar ([`Progress`]) and Ctrl-C,
//! SIGTERM and SIGHUP stopping it after the current step ([`Stop`]). What each command records is
//! its [`Observer`].

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::model::FlockMeasures;
use crate::run::error::RunError;
use crate::simulation::Simulation;

/// A flag set by Ctrl-C, SIGTERM (a scheduler cancelling the job) or SIGHUP: the loop stops after
/// the current step (or point) and the command still writes what it has; a second signal quits at
/// once, removing the temporary file of a write in progress (exit status 130).
#[derive(Clone, Debug, Default)]
pub struct Stop {
    flag: Arc<AtomicBool>,
    /// Once set, a signal quits at once (the loop is over: the command is writing its files).
    immediate: Arc<AtomicBool>,
}

impl Stop {
    /// Installs the handler; `after` says where the command stops ("the current step"). When a
    /// handler is already installed (one per process), the flag is never set and the signals keep
    /// their meaning.
    pub fn install(after: &'static str) -> Stop {
        let stop = Stop::default();
        #[cfg(not(target_arch = "wasm32"))]
        {
            let (flag, immediate) = (stop.flag.clone(), stop.immediate.clone());
            let _ = ctrlc::set_handler(move || {
                if immediate.load(Ordering::SeqCst) || flag.swap(true, Ordering::SeqCst) {
                    eprintln!("\ninterrupted: quitting now");
                    crate::io::exit_interrupted();
                }
                eprintln!("\nCtrl-C: stopping after {after} (again to quit at once)");
            });
        }
        // No signals in a browser tab: the flag is never set there.
        #[cfg(target_arch = "wasm32")]
        let _ = after;
        stop
    }

    /// Whether a stop was asked for.
    pub fn is_set(&self) -> bool {
        self.flag.load(Ordering::SeqCst)
    }

    /// Asks for a stop (tests, and a command stopping itself).
    pub fn set(&self) {
        self.flag.store(true, Ordering::SeqCst);
    }

    /// From now on a signal quits at once, removing the temporary file of a write in progress
    /// (exit status 130): a command whose loop is over calls it before writing its files.
    pub fn quit_on_signal(&self) {
        self.immediate.store(true, Ordering::SeqCst);
    }
}

/// A progress bar on stderr (hidden with `--quiet`), and the lines printed around it.
pub struct Progress {
    bar: ProgressBar,
    quiet: bool,
}

impl Progress {
    /// A bar counting `what` (`steps`, `points`), hidden when `quiet`.
    pub fn new(quiet: bool, what: &str) -> Progress {
        let bar = if quiet {
            ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden())
        } else {
            ProgressBar::new(0)
        };
        let template =
            format!("{{msg:22}} [{{bar:32.cyan/blue}}] {{pos}}/{{len}} {what}  {{elapsed_precise}} (eta {{eta}})");
        if let Ok(style) = ProgressStyle::with_template(&template) {
            bar.set_style(style.progress_chars("=> "));
        }
        Progress { bar, quiet }
    }

    /// Sets the total.
    pub fn set_length(&self, n: u64) {
        self.bar.set_length(n);
    }

    /// Sets the message before the bar.
    pub fn set_message(&self, m: String) {
        self.bar.set_message(m);
    }

    /// Advances by `n`.
    pub fn inc(&self, n: u64) {
        self.bar.inc(n);
    }

    /// Prints a line above the bar (not with `--quiet`).
    pub fn say(&self, s: &str) {
        if !self.quiet {
            self.bar.suspend(|| eprintln!("{s}"));
        }
    }

    /// Prints a line above the bar even with `--quiet` (it hides progress only).
    pub fn warn(&self, s: &str) {
        self.bar.suspend(|| eprintln!("{s}"));
    }

    /// Removes the bar.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

/// What a loop runs and measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Schedule {
    /// Steps run first, unmeasured and untimed (a transient, a warm-up).
    pub warmup: u32,
    /// Steps run after them.
    pub steps: u32,
    /// The flock measures after every this many of `steps` (0: never). With 1 and no timing, the
    /// measures of many steps are read back together ([`Simulation::run_measured`]).
    pub measure_every: u32,
    /// Whether each step is waited for and timed (its wall time and the backend's stage times).
    pub timed: bool,
}

/// What a command records of a loop. Every method has a default that does nothing.
pub trait Observer {
    /// Inside the timed region of step `k` (1-based, after the warm-up), after the step was
    /// submitted and before it is waited for (an offscreen render of the frame).
    ///
    /// # Errors
    /// Whatever the observer's work fails with; the loop stops with it.
    fn within_step(&mut self, _k: u32, _sim: &mut dyn Simulation) -> Result<(), RunError> {
        Ok(())
    }

    /// After step `k` (1-based, after the warm-up); `wall_ms` its wall time when timed. Not
    /// called for the steps of a batch (measures every step, untimed: see [`Schedule`]).
    ///
    /// # Errors
    /// As [`Observer::within_step`].
    fn stepped(
        &mut self,
        _k: u32,
        _wall_ms: Option<f64>,
        _sim: &mut dyn Simulation,
    ) -> Result<(), RunError> {
        Ok(())
    }

    /// The measures after step `k`, on the cadence of the schedule.
    ///
    /// # Errors
    /// As [`Observer::within_step`].
    fn measured(
        &mut self,
        _k: u32,
        _m: &FlockMeasures,
        _sim: &mut dyn Simulation,
    ) -> Result<(), RunError> {
        Ok(())
    }
}

/// An observer that records nothing.
pub struct Nothing;

impl Observer for Nothing {}

/// How a loop ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ended {
    /// Every step ran.
    Done,
    /// Stopped by [`Stop`] after this many of the schedule's steps (warm-up included).
    Interrupted(u32),
}

/// Runs `s` on `sim`: the warm-up, then the steps, each reported to `obs`, `tick` called once per
/// step (warm-up included: a progress bar's `inc(1)`), checking `stop` after every step. The
/// warm-up's steps but its last store no neighbour counts
/// ([`Simulation::step_storing_counts`]).
///
/// # Errors
/// The backend's error, or the observer's.
pub fn run_steps(
    sim: &mut dyn Simulation,
    s: &Schedule,
    stop: &Stop,
    tick: &mut dyn FnMut(),
    obs: &mut dyn Observer,
) -> Result<Ended, RunError> {
    // Nothing reads a warm-up step's neighbour counts but the last one's (the state it hands
    // on), so the others store none.
    for k in 0..s.warmup {
        if stop.is_set() {
            sim.finish()?;
            return Ok(Ended::Interrupted(k));
        }
        sim.step_storing_counts(k + 1 == s.warmup)?;
        tick();
    }
    sim.finish()?;
    if s.measure_every == 1 && !s.timed {
        // Batches of measured steps, read back together; the stop flag is checked between them.
        const BATCH: u32 = 256;
        let mut k = 0;
        while k < s.steps {
            if stop.is_set() {
                return Ok(Ended::Interrupted(s.warmup + k));
            }
            let n = BATCH.min(s.steps - k);
            let ms = sim.run_measured(n, tick)?;
            for (j, m) in ms.iter().enumerate() {
                obs.measured(k + j as u32 + 1, m, sim)?;
            }
            k += n;
        }
        return Ok(Ended::Done);
    }
    for k in 1..=s.steps {
        if stop.is_set() {
            sim.finish()?;
            return Ok(Ended::Interrupted(s.warmup + k - 1));
        }
        let wall = if s.timed {
            let t = Instant::now();
            sim.step()?;
            obs.within_step(k, sim)?;
            sim.finish()?;
            Some(t.elapsed().as_secs_f64() * 1e3)
        } else {
            sim.step()?;
            obs.within_step(k, sim)?;
            None
        };
        tick();
        obs.stepped(k, wall, sim)?;
        if s.measure_every > 0 && k % s.measure_every == 0 {
            sim.finish()?;
            let m = sim.measures()?;
            obs.measured(k, &m, sim)?;
        }
    }
    sim.finish()?;
    Ok(Ended::Done)
}
