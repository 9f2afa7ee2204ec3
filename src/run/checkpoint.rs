//! A run's final state saved as a checkpoint ([`save_final`]): what `boids headless --save` writes
//! and a hysteresis sweep's chain hands to its next run, and what `--init` resumes as saved.

use std::path::Path;

use crate::backend::Simulation;
use crate::model::loaded::Checkpoint;
use crate::model::PredatorSpec;
use crate::run::RunError;

/// Saves `sim`'s state at its current step to `path` (whole: [`crate::formats::save_state`],
/// in its format by the name), with the run's `seed`, `obstacles` (points, wu) and `catches_total`. The boids
/// go in storage order, not sorted: a resumed backend then visits them in the same order.
///
/// # Errors
/// The backend's read-back error, or [`RunError::Write`] naming the file.
pub fn save_final(
    path: &Path,
    sim: &mut dyn Simulation,
    seed: u32,
    obstacles: Vec<[f32; 2]>,
    catches_total: u32,
) -> Result<(), RunError> {
    let cp = Checkpoint {
        params: sim.params().clone(),
        seed,
        step: sim.step_index(),
        obstacles,
        predators: sim.read_predators()?.iter().map(PredatorSpec::of).collect(),
        catches_total,
        boids: sim.read_state()?,
    };
    save_checkpoint(path, &cp)
}

/// Saves the checkpoint `cp` to `path` (whole, in its format by the name): [`save_final`] for a
/// state already read back (an ensemble's replica).
///
/// # Errors
/// [`RunError::Write`] naming the file.
pub fn save_checkpoint(path: &Path, cp: &Checkpoint) -> Result<(), RunError> {
    crate::formats::save_state(path, cp).map_err(|source| RunError::Write {
        what: "state",
        path: path.to_path_buf(),
        source,
    })
}
