//! `boids.Trajectory`: a GSD trajectory (HOOMD schema) written from Python, one frame per
//! `append(sim)`, with the same writer and chunks as `boids headless --trajectory`.

use std::path::PathBuf;
use std::sync::Mutex;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use sim::formats::gsd::TrajectoryWriter;

use crate::errors::{gsd_error, sim_error};
use crate::simulation::Simulation;

/// A GSD trajectory written frame by frame.
///
/// A GSD file of the HOOMD schema, read by the `gsd` package (`gsd.hoomd.open(path)`), OVITO
/// or freud: append(sim) writes the state of sim as a frame (step, box, positions centred on the
/// origin, velocities, heading quaternions, ids and hue vectors: docs/python.md lists the
/// chunks) and flushes it to disk, so a killed script leaves every whole frame. append=False
/// creates (or empties) the file; append=True writes after the frames of an existing HOOMD file.
/// Usable as a context manager; close() (or the end of the `with`) releases the file.
/// Raises OSError when the file cannot be created or written, ValueError for a file that is not
/// a HOOMD-schema GSD file.
#[pyclass(module = "boids", name = "Trajectory", frozen)]
pub struct Trajectory {
    writer: Mutex<Option<TrajectoryWriter>>,
    path: PathBuf,
}

#[pymethods]
impl Trajectory {
    #[new]
    #[pyo3(signature = (path, append=false))]
    fn new(path: PathBuf, append: bool) -> PyResult<Trajectory> {
        let writer = if append {
            TrajectoryWriter::append(&path)
        } else {
            TrajectoryWriter::create(&path)
        }
        .map_err(gsd_error)?;
        Ok(Trajectory {
            writer: Mutex::new(Some(writer)),
            path,
        })
    }

    /// append(sim)
    ///
    /// Writes the current state of sim (its boids in storage order, then its predators) as the
    /// next frame, flushed to disk before it returns.
    fn append(&self, sim: &Simulation) -> PyResult<()> {
        let (step, world, boids, predators) = sim.with(|inner| {
            let p = inner.sim.params();
            let world = [p.world_width, p.world_height];
            let step = u64::from(inner.sim.step_index());
            let boids = inner.sim.read_state().map_err(sim_error)?;
            let predators = inner.sim.read_predators().map_err(sim_error)?;
            Ok((step, world, boids, predators))
        })?;
        let mut w = self.writer.lock().unwrap_or_else(|p| p.into_inner());
        let w = w.as_mut().ok_or_else(|| {
            PyValueError::new_err(format!(
                "trajectory {} is closed",
                sim::io::show_path(&self.path)
            ))
        })?;
        w.write_frame(step, world, &boids, &predators)
            .map_err(gsd_error)
    }

    /// Whole frames in the file.
    #[getter]
    fn frames(&self) -> u64 {
        let w = self.writer.lock().unwrap_or_else(|p| p.into_inner());
        w.as_ref().map_or(0, |w| w.frames())
    }

    /// close(): releases the file (every frame is already on disk).
    fn close(&self) {
        self.writer.lock().unwrap_or_else(|p| p.into_inner()).take();
    }

    fn __enter__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    fn __exit__(
        &self,
        _kind: Option<Bound<'_, PyAny>>,
        _value: Option<Bound<'_, PyAny>>,
        _traceback: Option<Bound<'_, PyAny>>,
    ) -> bool {
        self.close();
        false
    }
}
