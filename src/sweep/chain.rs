//! A hysteresis sweep's chains (`--protocol hysteresis`): each run saves its final state as a
//! checkpoint, `states/point-PPPPP-repeat-RRR.csv` (point and repeat numbered from 1, as in
//! `sweep.csv`), and the chain's next run starts from it — exactly as `boids headless --init
//! FILE --seed SEED --set NAME=VALUE` with that run's seed and value goes on from it (the step
//! index, the boids in storage order, the predators and catches as saved; the parameters, the
//! noise's seed and the swept value are the run's own). The files stay in the folder: each
//! point's final state, and what `--resume` goes on from after an interruption.
//!
//! Size: a checkpoint row per boid, about 100 bytes (1600 boids: 160 kB a run).

use std::path::Path;

use crate::run::spec::Inputs;
use crate::run::RunError;
use crate::sweep::plan::PlannedRun;

/// The folder of the chains' states in a sweep folder.
pub const STATES_DIR: &str = "states";

/// The file of a run's final state, relative to the sweep folder (point and repeat from 1).
pub fn state_file(point: usize, repeat: u32) -> String {
    format!("{STATES_DIR}/point-{point:05}-repeat-{repeat:03}.csv")
}

/// The file of `run`'s final state (`run` numbered from 0, as planned).
pub fn state_of(run: &PlannedRun) -> String {
    state_file(run.point + 1, run.repeat + 1)
}

/// The inputs of a chain's run after `previous`: the sweep's scene, and the state `previous`
/// saved in `dir`.
///
/// # Errors
/// [`RunError::State`] when the file cannot be read back (naming it).
pub fn inputs_after(base: &Inputs, dir: &Path, previous: &PlannedRun) -> Result<Inputs, RunError> {
    Ok(Inputs {
        scene: base.scene.clone(),
        state: Some(crate::formats::read_state(&dir.join(state_of(previous)))?),
    })
}
