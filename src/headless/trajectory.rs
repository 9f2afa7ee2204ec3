//! `boids headless --trajectory FILE.gsd --every K`: the run as a GSD trajectory of the HOOMD
//! schema ([`crate::model::gsd`]), frame 0 the initial state, then one frame every K steps, each
//! appended and flushed to disk before the next step, so a killed run leaves a file readable up to
//! its last whole frame.

use std::path::Path;

use crate::model::gsd::TrajectoryWriter;
use crate::run::steps::Observer;
use crate::run::RunError;
use crate::simulation::Simulation;

/// Writes a frame of the simulation every `every` steps. It counts the steps reported to
/// [`Observer::stepped`], so its schedule must report each step (timed, or not measuring every
/// step: see [`crate::run::steps::Schedule`]), as `boids headless`'s does.
#[derive(Debug)]
pub struct Trajectory {
    writer: TrajectoryWriter,
    every: u32,
}

impl Trajectory {
    /// Creates (or empties) `path` and writes the current state of `sim` as frame 0.
    ///
    /// # Errors
    /// [`RunError::Conflict`] for `every` 0; [`RunError::Trajectory`] when the file cannot be
    /// created or written; [`RunError::Sim`] when the state cannot be read back.
    pub fn start(path: &Path, every: u32, sim: &mut dyn Simulation) -> Result<Self, RunError> {
        if every == 0 {
            return Err(RunError::Conflict(
                "--every 0: give the steps between two trajectory frames, 1 or more".into(),
            ));
        }
        let mut t = Trajectory {
            writer: TrajectoryWriter::create(path)?,
            every,
        };
        t.write(sim)?;
        Ok(t)
    }

    /// Frames written so far.
    pub fn frames(&self) -> u64 {
        self.writer.frames()
    }

    /// The file's size (bytes) after the last frame.
    pub fn file_len(&self) -> u64 {
        self.writer.file_len()
    }

    /// Appends the current state of `sim` (storage order, the predators after the boids).
    fn write(&mut self, sim: &mut dyn Simulation) -> Result<(), RunError> {
        let boids = sim.read_state()?;
        let predators = sim.read_predators()?;
        let p = sim.params();
        let world = [p.world_width, p.world_height];
        self.writer
            .write_frame(u64::from(sim.step_index()), world, &boids, &predators)?;
        Ok(())
    }
}

impl Observer for Trajectory {
    fn stepped(
        &mut self,
        k: u32,
        _wall_ms: Option<f64>,
        sim: &mut dyn Simulation,
    ) -> Result<(), RunError> {
        if k.is_multiple_of(self.every) {
            self.write(sim)?;
        }
        Ok(())
    }
}
