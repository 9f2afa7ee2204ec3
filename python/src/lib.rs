//! The `boids` Python module: the flocking simulator from Python (`pip install ./python`).
//!
//! - [`simulation`]: `boids.Simulation`, set up by the run layer as `boids headless` is, stepped
//!   with the interpreter's lock released, its state as numpy arrays, its measures, checkpoints
//!   and pictures.
//! - [`ensemble`]: `boids.Ensemble`, R replicas of one run stepped together, its measures as
//!   numpy arrays of shape (R, …).
//! - [`params`]: `Simulation.params`, the parameters as a checked mapping.
//! - [`shared`]: the backend behind its lock, which a Simulation and its Params share.
//! - [`trajectory`]: `boids.Trajectory`, GSD trajectories written frame by frame.
//! - [`analysis`]: `boids.analyse`, the analyses of states given as numpy arrays.
//! - [`convert`]: numpy arrays and Python values to the simulator's types.
//! - [`errors`]: the simulator's errors as Python exceptions; no panic reaches the interpreter.
//!
//! The reference is docs/python.md.

use pyo3::prelude::*;

pub mod analysis;
pub mod convert;
pub mod ensemble;
pub mod errors;
pub mod params;
pub mod shared;
pub mod simulation;
pub mod trajectory;

/// A 2D flocking simulator (boids, Vicsek, fish) whose simulation runs in wgpu compute shaders or
/// on the CPU.
///
/// Simulation: a run (scene, state file, parameters), stepped, read and set as numpy arrays.
/// Ensemble: R replicas of a run stepped together, their measures as arrays of shape (R, …).
/// Trajectory: a GSD trajectory (HOOMD schema) written frame by frame.
/// analyse: an analysis (C(r), S(k), g(r), P(s), MSD, …) of states as numpy arrays.
/// help(boids.Simulation) lists every argument; docs/python.md in the repository is the
/// reference.
#[pymodule]
fn boids(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<simulation::Simulation>()?;
    m.add_class::<ensemble::Ensemble>()?;
    m.add_class::<params::Params>()?;
    m.add_class::<trajectory::Trajectory>()?;
    m.add_function(wrap_pyfunction!(analysis::analyse, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("DEFAULT_BOIDS", simulation::DEFAULT_BOIDS)?;
    Ok(())
}
