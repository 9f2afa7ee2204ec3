//! The simulator's errors as Python exceptions: `ValueError` for input that cannot be used (a
//! parameter, count, scene value, state file or frame), `OSError` for a file that cannot be read
//! or written, `RuntimeError` for a backend that fails (no GPU adapter, a device error) and for a
//! panic caught at the boundary. The message is the simulator's own, naming the file, line, key,
//! value or range at fault.

use std::panic::{catch_unwind, AssertUnwindSafe};

use pyo3::exceptions::{PyOSError, PyRuntimeError, PyValueError};
use pyo3::PyErr;
use sim::formats::gsd::GsdError;
use sim::formats::scene::SceneError;
use sim::formats::ReadError;
use sim::model::loaded::StateFileError;
use sim::render::PictureSizeError;
use sim::run::RunError;
use sim::simulation::SimError;

/// A run that cannot be set up or failed.
pub fn run_error(e: RunError) -> PyErr {
    let text = e.to_string();
    match e {
        RunError::Scene(SceneError::Io { .. }) => PyOSError::new_err(text),
        RunError::State(s) => state_error(s),
        RunError::Trajectory(g) => gsd_error(g),
        RunError::Sim(s) => sim_error(s),
        RunError::Write { .. } => PyOSError::new_err(text),
        // A keyword argument is not a command line's `--set`: the parameter's own message
        // (`vicsek_eta = 9 is out of range: allowed 0 ..= 6.28`).
        RunError::Set { source, .. } => PyValueError::new_err(source.to_string()),
        _ => PyValueError::new_err(text),
    }
}

/// A state file, checkpoint or GSD frame that cannot be read or used.
pub fn state_error(e: ReadError) -> PyErr {
    match e {
        ReadError::State(StateFileError::Io { .. }) => PyOSError::new_err(e.to_string()),
        ReadError::State(_) => PyValueError::new_err(e.to_string()),
        ReadError::Gsd(g) => gsd_error(g),
    }
}

/// A GSD file that cannot be read or written.
pub fn gsd_error(e: GsdError) -> PyErr {
    match e {
        GsdError::Io { .. } => PyOSError::new_err(e.to_string()),
        _ => PyValueError::new_err(e.to_string()),
    }
}

/// A backend's error: out-of-range input is a `ValueError`, the GPU's failures `RuntimeError`.
pub fn sim_error(e: SimError) -> PyErr {
    match e {
        SimError::Param(_) | SimError::Setup(_) => PyValueError::new_err(e.to_string()),
        SimError::Gpu(_) => PyRuntimeError::new_err(e.to_string()),
    }
}

/// A picture that cannot be drawn: a size or boid length out of range, or one the adapter cannot
/// hold, is a `ValueError`.
pub fn picture_error(e: PictureSizeError) -> PyErr {
    match e {
        // The command line's message names its flags; these are the arguments of render().
        PictureSizeError::Size { width, height } => PyValueError::new_err(format!(
            "width = {width}, height = {height}: each must be 1 ..= 16384 px"
        )),
        PictureSizeError::BoidSize { value } => PyValueError::new_err(format!(
            "boid_size = {value} is out of range: allowed 0.01 ..= 10000 (wu)"
        )),
        PictureSizeError::TextureLimit { width, height, max } => PyValueError::new_err(format!(
            "width = {width}, height = {height}: this adapter's largest picture side \
             (max_texture_dimension_2d) is {max} px"
        )),
        PictureSizeError::Memory(_) => PyValueError::new_err(e.to_string()),
    }
}

/// Runs `f`, turning a panic into `Err` with its message, so that no panic unwinds into the
/// interpreter (the simulation that panicked is then refused: see `Inner::failed`).
pub fn no_panic<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|p| {
        p.downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| p.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic without a message".to_string())
    })
}
