//! `Simulation.params`: the parameters as a mapping, read by key and set through the parameter
//! table's checks (its range, the other parameters, the model), then applied to the backend.

use std::sync::Arc;

use pyo3::exceptions::{PyKeyError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use sim::model::param_table::{unknown_key_message, ParamGroup, Range};
use sim::model::{ParamError, SimParams};

use crate::convert;
use crate::errors::sim_error;
use crate::shared::Shared;

/// The parameters of a Simulation, a mapping from key to value (docs/model.md §3.1).
///
/// `params[key]` reads a parameter of the table (a float, an int for whole-number parameters, a
/// str for names such as boundary or model); KeyError for an unknown key, naming the nearest
/// ones. `params[key] = value` sets it as `--set key=value` would: checked against its range, the
/// other parameters (e.g. min_speed ≤ max_speed) and the model (a parameter the model does not
/// use is refused), ValueError with the message otherwise, and the simulation unchanged; the
/// next step uses it. keys() lists the parameters of the current model ("model" first), as do
/// len(), iteration and `in`; to_dict() gives them with their values.
#[pyclass(module = "boids", name = "Params", mapping, frozen)]
pub struct Params {
    shared: Arc<Shared>,
}

impl Params {
    /// The parameters of the simulation `shared`.
    pub fn new(shared: Arc<Shared>) -> Params {
        Params { shared }
    }

    fn current(&self) -> PyResult<SimParams> {
        self.shared.with(|inner| Ok(inner.sim.params().clone()))
    }
}

/// The keys of the model of `p`: "model", then the shared parameters it uses, then its own.
fn model_keys(p: &SimParams) -> Vec<&'static str> {
    let mut keys = vec!["model"];
    keys.extend(SimParams::keys_used_by(p.model));
    keys
}

/// A parameter error as the exception Python code expects: KeyError for an unknown key,
/// ValueError otherwise.
fn param_error(e: ParamError) -> PyErr {
    match e {
        ParamError::UnknownKey { .. } => PyKeyError::new_err(e.to_string()),
        _ => PyValueError::new_err(e.to_string()),
    }
}

#[pymethods]
impl Params {
    fn __getitem__<'py>(&self, py: Python<'py>, key: &str) -> PyResult<Bound<'py, PyAny>> {
        let p = self.current()?;
        let value = ParamGroup::get(&p, key)
            .ok_or_else(|| PyKeyError::new_err(unknown_key_message::<SimParams>(key)))?;
        let integer =
            SimParams::spec(key).is_some_and(|s| matches!(s.range, Range::Integer { .. }));
        convert::value_object(py, value, integer)
    }

    fn __setitem__(&self, key: &str, value: Bound<'_, PyAny>) -> PyResult<()> {
        let text = convert::value_text(key, &value)?;
        self.shared.with(|inner| {
            let mut p = inner.sim.params().clone();
            p.set(key, &text).map_err(param_error)?;
            p.check_used(key).map_err(param_error)?;
            p.validate().map_err(|e| {
                if e.key() == key {
                    param_error(e)
                } else {
                    // Another parameter's bound moved (e.g. max_speed below min_speed).
                    PyValueError::new_err(format!("{key} = {}: {e}", sim::io::clip(&text)))
                }
            })?;
            inner.sim.set_params(&p).map_err(sim_error)
        })
    }

    fn __contains__(&self, key: &str) -> PyResult<bool> {
        Ok(model_keys(&self.current()?).contains(&key))
    }

    fn __len__(&self) -> PyResult<usize> {
        Ok(model_keys(&self.current()?).len())
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.keys(py)?.try_iter().map(Bound::into_any)
    }

    /// keys() -> list: the parameters of the current model ("model" first).
    fn keys<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        PyList::new(py, model_keys(&self.current()?))
    }

    /// get(key, default=None): params[key], or default for an unknown key.
    #[pyo3(signature = (key, default=None))]
    fn get<'py>(
        &self,
        py: Python<'py>,
        key: &str,
        default: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        match self.__getitem__(py, key) {
            Err(e) if e.is_instance_of::<PyKeyError>(py) => {
                Ok(default.unwrap_or_else(|| py.None().into_bound(py)))
            }
            r => r,
        }
    }

    /// to_dict() -> dict: every parameter of the current model with its value.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for k in model_keys(&self.current()?) {
            d.set_item(k, self.__getitem__(py, k)?)?;
        }
        Ok(d)
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!("<boids.Params {}>", self.to_dict(py)?.repr()?))
    }
}
