//! `boids headless --trajectory FILE.gsd --every K`: the run as a GSD trajectory of the HOOMD
//! schema ([`crate::formats::gsd`]), frame 0 the initial state (with the run's description), then
//! one frame every K steps and one of the last step, each appended and flushed to disk before the
//! next step, so a killed run leaves a file readable up to its last whole frame. An existing file
//! is refused unless `--force` is given.

use std::path::Path;

use crate::formats::gsd::TrajectoryWriter;
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
    /// The step index of the last frame written.
    last: Option<u32>,
}

/// The description of a run written into frame 0 (`log/boids/run`): the program and its version,
/// the seed, the steps between frames, the boid count and every parameter, as JSON.
pub fn run_description(seed: u32, every: u32, sim: &dyn Simulation) -> String {
    serde_json::json!({
        "program": "boids",
        "version": env!("CARGO_PKG_VERSION"),
        "seed": seed,
        "every": every,
        "boids": sim.len(),
        "first_step": sim.step_index(),
        "params": sim.params(),
    })
    .to_string()
}

impl Trajectory {
    /// Creates `path` (replacing an existing file only when `force`) and writes the current
    /// state of `sim` as frame 0, with `run` (see [`run_description`]).
    ///
    /// # Errors
    /// [`RunError::Conflict`] for `every` 0 or an existing file without `force`;
    /// [`RunError::Trajectory`] when the file cannot be created or written; [`RunError::Sim`]
    /// when the state cannot be read back.
    pub fn start(
        path: &Path,
        every: u32,
        force: bool,
        run: String,
        sim: &mut dyn Simulation,
    ) -> Result<Self, RunError> {
        if every == 0 {
            return Err(RunError::Conflict(
                "--every 0: give the steps between two trajectory frames, 1 or more".into(),
            ));
        }
        if std::fs::metadata(path).is_ok_and(|m| m.is_dir()) {
            return Err(RunError::Conflict(format!(
                "--trajectory {}: is a folder; give a file name (FILE.gsd)",
                crate::io::show_path(path)
            )));
        }
        if !force && std::fs::symlink_metadata(path).is_ok() {
            return Err(RunError::Conflict(format!(
                "--trajectory {}: the file exists; give --force to replace it, or another name",
                crate::io::show_path(path)
            )));
        }
        let mut writer = TrajectoryWriter::create(path)?;
        writer.set_run(run);
        let mut t = Trajectory {
            writer,
            every,
            last: None,
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

    /// Writes the last step as a frame when it is not written yet (it fell between two frames,
    /// or the run stopped early).
    ///
    /// # Errors
    /// As [`Trajectory::start`]'s writing.
    pub fn finish(&mut self, sim: &mut dyn Simulation) -> Result<(), RunError> {
        if self.last != Some(sim.step_index()) {
            self.write(sim)?;
        }
        Ok(())
    }

    /// Appends the current state of `sim` (the boids in id order, the predators after them).
    fn write(&mut self, sim: &mut dyn Simulation) -> Result<(), RunError> {
        let boids = sim.read_state()?;
        let predators = sim.read_predators()?;
        let p = sim.params();
        let world = [p.world_width, p.world_height];
        self.writer
            .write_frame(u64::from(sim.step_index()), world, &boids, &predators)?;
        self.last = Some(sim.step_index());
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
