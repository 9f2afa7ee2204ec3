//! Finishing what waits for the flock's state in a browser tab
//! ([`crate::app::pending_flock::PendingFlock`]): a tab cannot wait for
//! the GPU to read the state back, so a change that needs the whole flock — switching the model
//! live, lowering the boid count — asks for it without waiting (`Simulation::request_state`) and
//! is finished by `AppState::poll_flock_read`, every frame, when it is back. The native app
//! reads the state waiting and finishes at once; nothing is pending there.

use crate::app::pending_flock::{AfterRead, PendingFlock};
use crate::app::state::AppState;

impl AppState {
    /// Asks for the state without waiting, to `then` once it is back; a request still pending
    /// is replaced (the later choice wins).
    pub(crate) fn read_flock_then(&mut self, then: AfterRead) {
        self.run.pending_flock = None;
        match self.run.sim.request_state() {
            Ok(read) => {
                self.run.pending_flock = Some(PendingFlock {
                    read,
                    before: self.run.sim.params().clone(),
                    len: self.run.sim.len(),
                    then,
                });
            }
            Err(e) => self.warn(format!("{}: {e}", then.what())),
        }
    }

    /// Finishes the pending change once its state read is back (nothing pending: nothing). A
    /// step taken in between is lost to the change (the state is the one asked for); a change
    /// of the flock in between (a reset, another count, a slider) drops it, said.
    pub(crate) fn poll_flock_read(&mut self) {
        let Some(pending) = self.run.pending_flock.as_mut() else {
            return;
        };
        let got = match pending.read.poll() {
            Ok(None) => return,
            Ok(Some(boids)) => Ok(boids),
            Err(e) => Err(e),
        };
        let Some(p) = self.run.pending_flock.take() else {
            return;
        };
        let changed = self.run.sim.params() != &p.before || self.run.sim.len() != p.len;
        if changed {
            self.warn(format!(
                "{}: not done, the flock changed meanwhile (choose it again)",
                p.then.what()
            ));
            return;
        }
        match p.then {
            AfterRead::Model { after, lowered } => {
                self.finish_model_switch(got, &p.before, &after, &lowered);
            }
            AfterRead::Sample { n, step } => {
                let kept = got.and_then(|boids| self.run.sim.keep_sample(boids, n, step));
                if let Err(e) = kept {
                    self.warn(format!("boid count {n}: {e}"));
                }
                self.world_changed();
            }
        }
    }
}
