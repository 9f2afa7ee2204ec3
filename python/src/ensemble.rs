//! `boids.Ensemble`: R replicas of one run stepped together (the simulator's
//! `run::ensemble::Ensemble`: one GPU ensemble, or one CPU backend per replica in parallel), each
//! with its own seed and the values of `params` given per replica, its measures as numpy arrays
//! of shape (R, …).

use std::path::PathBuf;
use std::sync::{Mutex, PoisonError};

use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray1, PyArray2};
use pyo3::exceptions::{PyIndexError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};
use sim::backend::BackendKind;
use sim::gpu::Replica;
use sim::model::measures::{MeasureId, MEASURES};
use sim::model::{Boid, FlockMeasures};
use sim::run::args::Set;
use sim::run::ensemble::Ensemble as Replicas;
use sim::run::{resolve, Defaults, Inputs, Overrides};

use crate::convert::{self, Column};
use crate::errors::{no_panic, run_error, sim_error};
use crate::shared::gpu_context;
use crate::simulation::DEFAULT_BOIDS;

/// Steps run between two checks for Ctrl-C (KeyboardInterrupt).
const SIGNAL_STEPS: u32 = 16;

/// R replicas of one run stepped together: on the GPU by the same dispatches (one ensemble), on
/// the CPU one backend per replica in parallel. Each replica's state and measures are those of
/// the same run made alone (boids.Simulation with its seed and parameters), bit for bit.
///
/// Arguments (all optional but replicas):
///
/// - replicas (int, 1 ..= 64): how many.
/// - scene, boids, keep_world: as boids.Simulation's; every replica has the same count.
/// - backend (str): "gpu" (the default) or "cpu".
/// - seed (int): replica r runs from seed + r (default: the scene's, else 1).
/// - params (dict): a parameter's values, one per replica: {"vicsek_eta": numpy.linspace(0, 3,
///   16)}; a single value is every replica's.
/// - any other keyword: a parameter every replica has, as boids.Simulation's.
///
/// Replicas must share the model and the neighbourhood (and whether a field of view is in use);
/// obstacles are not allowed. Raises ValueError for a bad value (naming the key, value, replica and
/// allowed range), RuntimeError when the backend fails.
#[pyclass(module = "boids", name = "Ensemble", frozen)]
pub struct Ensemble {
    replicas: Mutex<Replicas>,
    kind: BackendKind,
}

/// A parameter's value for each of `r` replicas: a sequence of `r` values or one value.
fn per_replica(key: &str, value: &Bound<'_, PyAny>, r: usize) -> PyResult<Vec<String>> {
    if value.is_instance_of::<PyString>() || value.len().is_err() {
        return Ok(vec![convert::value_text(key, value)?; r]);
    }
    let n = value.len()?;
    if n != r {
        return Err(PyValueError::new_err(format!(
            "params[{key:?}]: {n} values for {r} replicas (one per replica, or one for all)"
        )));
    }
    (0..n)
        .map(|k| convert::value_text(key, &value.get_item(k)?))
        .collect()
}

/// The replicas asked for, resolved by the run layer as boids.Simulation resolves one.
fn replicas_of(
    inputs: &Inputs,
    boids: Option<usize>,
    seed: Option<u32>,
    keep_world: bool,
    sets: &[Vec<Set>],
) -> Result<Vec<Replica>, String> {
    let mut base = seed;
    let mut out = Vec::with_capacity(sets.len());
    for (r, sets) in sets.iter().enumerate() {
        let o = Overrides {
            boids,
            seed: base.map(|s| s.wrapping_add(r as u32)),
            sets,
            keep_world,
        };
        let spec = resolve(inputs, &o, &Defaults::headless(DEFAULT_BOIDS))
            .map_err(|e| format!("replica {r}: {e}"))?;
        if !spec.setup.actors.obstacles.is_empty() {
            return Err(format!(
                "replica {r}: obstacles: an ensemble holds none (a lone run's)"
            ));
        }
        // Replica 0's seed, resolved, is the base of the others'.
        base.get_or_insert(spec.setup.seed);
        out.push(Replica {
            params: spec.setup.params,
            seed: spec.setup.seed,
            boids: spec.setup.boids,
            predators: spec.setup.actors.predators,
        });
    }
    Ok(out)
}

/// Every measure of `m` (NaN where it has none), in the measure table's order.
fn measure_values(m: &FlockMeasures) -> Vec<f64> {
    MEASURES
        .iter()
        .map(|d| {
            let id = MeasureId::by_name(d.name).expect("a measure of the table");
            m.get(id).unwrap_or(f64::NAN)
        })
        .collect()
}

impl Ensemble {
    fn with<T>(
        &self,
        py: Python<'_>,
        f: impl FnOnce(&mut Replicas) -> PyResult<T> + Send,
    ) -> PyResult<T>
    where
        T: Send,
    {
        py.detach(|| {
            let mut e = self.replicas.lock().unwrap_or_else(PoisonError::into_inner);
            no_panic(|| f(&mut e)).map_err(|why| {
                PyRuntimeError::new_err(format!("internal error in the simulator: {why}"))
            })?
        })
    }

    fn boids(&self, py: Python<'_>, r: usize) -> PyResult<Vec<Boid>> {
        self.with(py, |e| {
            if r >= e.len() {
                return Err(PyIndexError::new_err(format!(
                    "replica {r}: this ensemble holds {} (0 .. {})",
                    e.len(),
                    e.len()
                )));
            }
            e.state(r).map_err(sim_error)
        })
    }
}

#[pymethods]
impl Ensemble {
    #[new]
    #[pyo3(signature = (replicas, scene=None, backend="gpu", seed=None, boids=None, keep_world=false, params=None, **fixed))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        replicas: usize,
        scene: Option<PathBuf>,
        backend: &str,
        seed: Option<u32>,
        boids: Option<Bound<'_, PyAny>>,
        keep_world: bool,
        params: Option<Bound<'_, PyDict>>,
        fixed: Option<Bound<'_, PyDict>>,
    ) -> PyResult<Ensemble> {
        let max = sim::stages::MAX_REPLICAS as usize;
        if !(1..=max).contains(&replicas) {
            return Err(PyValueError::new_err(format!(
                "replicas = {replicas}: allowed 1 ..= {max}"
            )));
        }
        let kind = match backend {
            "gpu" => BackendKind::Gpu,
            "cpu" => BackendKind::Cpu,
            _ => {
                return Err(PyValueError::new_err(format!(
                    "backend = {backend:?}: one of \"gpu\", \"cpu\""
                )))
            }
        };
        let boids = boids.map(|b| convert::count(&b)).transpose()?;
        let common = convert::keyword_sets(fixed.as_ref())?;
        let mut sets = vec![common; replicas];
        if let Some(d) = params {
            for (k, v) in d.iter() {
                let key: String = k.extract()?;
                for (r, value) in per_replica(&key, &v, replicas)?.into_iter().enumerate() {
                    sets[r].push(Set {
                        key: key.clone(),
                        value,
                    });
                }
            }
        }
        let made = py.detach(|| {
            no_panic(|| -> PyResult<Replicas> {
                let inputs = Inputs::load(scene.as_deref(), None).map_err(run_error)?;
                let reps = replicas_of(&inputs, boids, seed, keep_world, &sets)
                    .map_err(PyValueError::new_err)?;
                let ctx = match kind {
                    BackendKind::Gpu => Some(gpu_context().map_err(|e| sim_error(e.into()))?),
                    _ => None,
                };
                Replicas::new(kind, &reps, ctx.as_ref()).map_err(sim_error)
            })
        });
        let replicas = made.map_err(|why| {
            PyRuntimeError::new_err(format!("internal error in the simulator: {why}"))
        })??;
        Ok(Ensemble {
            replicas: Mutex::new(replicas),
            kind,
        })
    }

    /// The number of replicas.
    fn __len__(&self, py: Python<'_>) -> PyResult<usize> {
        self.with(py, |e| Ok(e.len()))
    }

    /// The backend: "gpu" or "cpu".
    #[getter]
    fn backend(&self) -> &'static str {
        self.kind.name()
    }

    /// step(n=1)
    ///
    /// Runs n steps (n ≥ 0) of every replica with the interpreter's lock released; Ctrl-C stops
    /// it between steps (every 16), the steps done kept.
    #[pyo3(signature = (n=1))]
    fn step(&self, py: Python<'_>, n: i128) -> PyResult<()> {
        let n = convert::steps(n)?;
        let mut done = 0u64;
        while done < n {
            let k = (n - done).min(u64::from(SIGNAL_STEPS)) as u32;
            self.with(py, |e| e.step(k).map_err(sim_error))?;
            done += u64::from(k);
            py.check_signals()?;
        }
        Ok(())
    }

    /// run(n) -> dict
    ///
    /// Runs n steps (1 ≤ n) of every replica, each followed by its measures: a dict of the
    /// measure table's names (docs/model.md §12) to float64 arrays of shape (R, n), NaN where a
    /// measure has no value. Ctrl-C is checked when it returns.
    fn run<'py>(&self, py: Python<'py>, n: i128) -> PyResult<Bound<'py, PyDict>> {
        let n = convert::steps(n)?;
        let n = u32::try_from(n)
            .map_err(|_| PyValueError::new_err(format!("n = {n}: at most {}", u32::MAX)))?;
        let rows = self.with(py, |e| e.run_measured(n).map_err(sim_error))?;
        let r = rows.len();
        let names = MEASURES.len();
        // [measure][replica][step]
        let mut cols = vec![Array2::<f64>::zeros((r, n as usize)); names];
        for (k, replica) in rows.iter().enumerate() {
            for (s, m) in replica.iter().enumerate() {
                for (c, v) in measure_values(m).into_iter().enumerate() {
                    cols[c][[k, s]] = v;
                }
            }
        }
        let d = PyDict::new(py);
        for (desc, a) in MEASURES.iter().zip(cols) {
            d.set_item(desc.name, a.into_pyarray(py))?;
        }
        py.check_signals()?;
        Ok(d)
    }

    /// measures() -> dict
    ///
    /// Every replica's measures of its current state: a dict of the measure table's names to
    /// float64 arrays of shape (R,), NaN where a measure has no value.
    fn measures<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let ms = self.with(py, |e| e.measures().map_err(sim_error))?;
        let d = PyDict::new(py);
        for (c, desc) in MEASURES.iter().enumerate() {
            let v: Vec<f64> = ms.iter().map(|m| measure_values(m)[c]).collect();
            d.set_item(desc.name, v.into_pyarray(py))?;
        }
        Ok(d)
    }

    /// positions(r) -> float32 array (N, 2): replica r's boid positions (wu), a copy, rows in the
    /// order of ids(r).
    fn positions<'py>(&self, py: Python<'py>, r: usize) -> PyResult<Bound<'py, PyArray2<f32>>> {
        let b = self.boids(py, r)?;
        Ok(convert::column(py, &b, Column::Position))
    }

    /// velocities(r) -> float32 array (N, 2): replica r's boid velocities (wu/s; wu per step in
    /// the Vicsek model), a copy.
    fn velocities<'py>(&self, py: Python<'py>, r: usize) -> PyResult<Bound<'py, PyArray2<f32>>> {
        let b = self.boids(py, r)?;
        Ok(convert::column(py, &b, Column::Velocity))
    }

    /// ids(r) -> uint32 array (N,): replica r's boid ids, in the order of its state arrays.
    fn ids<'py>(&self, py: Python<'py>, r: usize) -> PyResult<Bound<'py, PyArray1<u32>>> {
        let b = self.boids(py, r)?;
        Ok(convert::ids(py, &b))
    }
}
