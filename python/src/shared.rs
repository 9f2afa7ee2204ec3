//! What a `Simulation` and its `Params` share: the backend and what it needs around it, behind
//! one lock, and the rule that a call which panicked fails every later one. Both hold it (an
//! `Arc`), so neither names the other.

use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use sim::gpu::GpuContext;

use crate::errors::no_panic;

/// The process's GPU context, made on first use and shared by every GPU simulation and picture
/// after it: the adapter is opened, and each pipeline compiled (the device's pipeline cache), once
/// per process, so a script that makes many small simulations pays the setup once. A failure is
/// not kept: the next call tries again.
///
/// # Errors
/// No adapter, or no device on it.
pub fn gpu_context() -> Result<GpuContext, sim::gpu::GpuError> {
    static CONTEXT: Mutex<Option<GpuContext>> = Mutex::new(None);
    let mut kept = CONTEXT.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(c) = kept.as_ref() {
        return Ok(c.clone());
    }
    let c = GpuContext::new()?;
    *kept = Some(c.clone());
    Ok(c)
}

/// The simulation and what it needs around it.
pub struct Inner {
    /// The backend.
    pub sim: Box<dyn sim::simulation::Simulation>,
    /// The GPU context: the GPU backend's, or one made for the first picture.
    pub gpu: Option<GpuContext>,
    /// The seed of the run (checkpoints keep it).
    pub seed: u32,
    /// The obstacle points (wu), from the scene or checkpoint.
    pub obstacles: Vec<[f32; 2]>,
    /// Set when a call panicked: the state may be half-changed, so every later call is refused.
    pub failed: Option<String>,
}

/// The simulation behind its lock.
pub struct Shared {
    inner: Mutex<Inner>,
}

impl Shared {
    /// `inner` behind a new lock.
    pub fn new(inner: Inner) -> Arc<Shared> {
        Arc::new(Shared {
            inner: Mutex::new(inner),
        })
    }

    /// Runs `f` on the simulation, holding its lock; refused when an earlier call panicked; a
    /// panic inside becomes a RuntimeError and marks the simulation failed.
    pub fn with<T>(&self, f: impl FnOnce(&mut Inner) -> PyResult<T>) -> PyResult<T> {
        let mut inner = self.lock();
        if let Some(why) = &inner.failed {
            return Err(PyRuntimeError::new_err(format!(
                "this simulation failed earlier ({why}); create a new one"
            )));
        }
        match no_panic(|| f(&mut inner)) {
            Ok(r) => r,
            Err(why) => {
                inner.failed = Some(why.clone());
                Err(PyRuntimeError::new_err(format!(
                    "internal error in the simulator: {why}"
                )))
            }
        }
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }
}
