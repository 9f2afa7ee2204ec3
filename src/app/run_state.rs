//! The simulation's share of the app's state ([`RunState`]): the running [`Sim`], how it steps
//! (paused, the clock, one step asked for), what it started from (for the reset entry), and what
//! the panel and HUD show of it (the plot's history, the backend switches, the actors' version);
//! with the actions that are the run's alone (pause, speed, one step, the backend).

use crate::app::action::Action;
use crate::app::clock::{Pace, SimClock, SPEEDS};
use crate::app::history::History;
use crate::app::start::Spawn;
use crate::model::Setup;
use crate::render::Sim;

/// The running simulation and how it steps.
pub struct RunState {
    /// The running simulation.
    pub sim: Sim,
    /// Simulation paused.
    pub paused: bool,
    /// How many steps each frame takes (pace, speed, what it achieved).
    pub clock: SimClock,
    /// One step was asked for while paused: the next frame takes it.
    pub step_once: bool,
    /// How the flock was spawned (the reset entry spawns it the same way).
    pub spawn: Spawn,
    /// What the run started from (for the reset entry).
    pub initial: Setup,
    /// Largest boid count the add tool and the count slider go to.
    pub max_boids: usize,
    /// Bumped whenever the actors change (the renderer re-uploads them).
    pub actors_version: u64,
    /// Times the backend was switched.
    pub backend_switches: u32,
    /// The panel's live plot: order parameter and flock count.
    pub history: History,
    /// A change of the flock waiting for its state read (a browser tab cannot wait for it;
    /// `flock_read.rs` finishes it).
    pub pending_flock: Option<crate::app::pending_flock::PendingFlock>,
}

impl RunState {
    /// The run of `sim`, started from `initial` spawned by `spawn`, stepping at `pace`, with at
    /// most `max_boids` boids.
    pub fn new(sim: Sim, initial: Setup, spawn: Spawn, max_boids: usize, pace: Pace) -> RunState {
        let history = History::new(sim.params().model.desc().order_parameter);
        RunState {
            sim,
            paused: false,
            clock: SimClock::new(pace),
            step_once: false,
            spawn,
            initial,
            max_boids,
            actors_version: 0,
            backend_switches: 0,
            history,
            pending_flock: None,
        }
    }

    /// Applies an action of the run's (pause, speed, one step, backend); the app's reducer sends
    /// it no other.
    ///
    /// # Errors
    /// What to tell the user when the backend cannot take the flock (the old one keeps running).
    pub fn apply(&mut self, action: Action) -> Result<(), String> {
        match action {
            Action::SetPaused(p) => {
                self.paused = p;
                self.clock.reset();
            }
            Action::SetSpeed(s) => {
                self.clock.speed = SPEEDS
                    .into_iter()
                    .min_by(|a, b| (a - s).abs().total_cmp(&(b - s).abs()))
                    .unwrap_or(1.0);
            }
            Action::StepOnce => {
                self.paused = true;
                self.step_once = true;
                self.clock.reset();
            }
            Action::SetBackend(kind) if kind != self.sim.kind() => {
                self.sim
                    .switch(kind)
                    .map_err(|e| format!("cannot switch to {}: {e}", kind.name()))?;
                self.backend_switches += 1;
            }
            // The running backend already, or not the run's: the reducer routes each action to
            // its owner.
            _ => {}
        }
        Ok(())
    }
}
