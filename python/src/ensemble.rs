//! `boids.Ensemble`: R replicas of one run stepped together (the simulator's
//! `run::ensemble::Ensemble`: one GPU ensemble, or one CPU backend per replica in parallel), each
//! with its own seed and the values of `params` given per replica, its measures as numpy arrays
//! of shape (R, …).

use std::path::PathBuf;
use std::sync::{Mutex, PoisonError};

use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray1, PyArray2};
use pyo3::exceptions::{PyIndexError, PyMemoryError, PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};
use sim::backend::BackendKind;
use sim::gpu::Replica;
use sim::model::measures::{MeasureId, Needs, MEASURES};
use sim::model::{Boid, FlockMeasures};
use sim::run::args::Set;
use sim::run::ensemble::Ensemble as Replicas;
use sim::run::{resolve, Defaults, Inputs, Overrides, RunError};

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
/// - seed (int): replica r runs from seed + r, modulo 2^32 (default: the scene's, else 1).
/// - params (dict): a parameter's values, one per replica: {"vicsek_eta": numpy.linspace(0, 3,
///   16)}; a single value is every replica's. numpy's integers stay whole.
/// - any other keyword: a parameter every replica has, as boids.Simulation's.
///
/// Replicas must share the model and the neighbourhood (and whether a field of view is in use);
/// obstacles are not allowed. Raises ValueError for a bad value (naming the key and value, the
/// replica when it is one replica's, and the allowed range), RuntimeError when the backend fails.
#[pyclass(module = "boids", name = "Ensemble", frozen)]
pub struct Ensemble {
    replicas: Mutex<Replicas>,
    kind: BackendKind,
    /// Whether each replica has predators (its catches are NaN without).
    predators: Vec<bool>,
}

/// Steps of `run` made between two checks for Ctrl-C, their measures read back together.
const RUN_CHUNK: u32 = 1024;

/// Parameters whose values, varied, would need other pipelines: one ensemble cannot hold them.
const PIPELINE_KEYS: [&str; 2] = ["model", "neighborhood"];

/// A parameter's values in `params`: one for every replica (a number or a name), or one per
/// replica (a list, tuple or numpy array of `r`).
enum Values {
    /// The same for every replica: a setting they share.
    Shared(String),
    /// Replica r's at index r.
    Each(Vec<String>),
}

/// A parameter's value for each of `r` replicas: a sequence of `r` values or one value (a
/// sequence of `r` equal values is one value).
fn per_replica(key: &str, value: &Bound<'_, PyAny>, r: usize) -> PyResult<Values> {
    let type_name = value.get_type().name()?.to_string();
    let sequence = value.is_instance_of::<PyList>()
        || value.is_instance_of::<PyTuple>()
        || type_name == "ndarray";
    if !sequence {
        return match convert::value_text(key, value) {
            Ok(v) => Ok(Values::Shared(v)),
            Err(_) => Err(PyTypeError::new_err(format!(
                "params[{key:?}]: expected a number, a name, or one per replica (a list, tuple or \
                 numpy array of {r}), got {type_name}"
            ))),
        };
    }
    let n = value.len()?;
    if n != r {
        return Err(PyValueError::new_err(format!(
            "params[{key:?}]: {n} values for {r} replicas (one per replica, or one for all)"
        )));
    }
    let values = (0..n)
        .map(|k| convert::value_text(key, &value.get_item(k)?))
        .collect::<PyResult<Vec<String>>>()?;
    Ok(match values.iter().position(|v| v != &values[0]) {
        None => Values::Shared(values[0].clone()),
        Some(other) if PIPELINE_KEYS.contains(&key) => {
            // A value that is no model or neighbourhood says so first.
            for v in &values {
                sim::model::SimParams::default()
                    .set(key, v)
                    .map_err(|e| PyValueError::new_err(format!("params[{key:?}]: {e}")))?;
            }
            return Err(PyValueError::new_err(format!(
                "params[{key:?}]: {} and {} differ, but the replicas of one ensemble share the \
                 model and the neighbourhood (the same pipelines step them all); make one \
                 ensemble per value",
                values[0], values[other]
            )));
        }
        Some(_) => Values::Each(values),
    })
}

/// The `params` every replica shares (appended to `fixed`, the keyword parameters) and each
/// replica's own `--set`s (keys checked: parameters of the table, not also given as keywords).
fn params_sets(
    params: Option<&Bound<'_, PyDict>>,
    fixed: &mut Vec<Set>,
    replicas: usize,
) -> PyResult<Vec<Vec<Set>>> {
    let mut own = vec![Vec::new(); replicas];
    let Some(d) = params else {
        return Ok(own);
    };
    for (k, v) in d.iter() {
        let key: String = k.extract()?;
        if sim::model::SimParams::spec(&key).is_none() {
            return Err(PyValueError::new_err(format!(
                "params: {key:?} is not a parameter (docs/model.md §3.1){}",
                convert::nearest_hint(&key, &[])
            )));
        }
        if fixed.iter().any(|s| s.key == key) {
            return Err(PyValueError::new_err(format!(
                "{key}: given both as a keyword and in params; give it once"
            )));
        }
        match per_replica(&key, &v, replicas)? {
            Values::Shared(value) => fixed.push(Set { key, value }),
            Values::Each(values) => {
                for (r, value) in values.into_iter().enumerate() {
                    own[r].push(Set {
                        key: key.clone(),
                        value,
                    });
                }
            }
        }
    }
    Ok(own)
}

/// A replica's own parameter values that cannot be used: a ValueError naming the replica and
/// them.
fn replica_error(r: usize, own: &[Set], e: RunError) -> PyErr {
    let why = match &e {
        RunError::Set { source, .. } => source.to_string(),
        _ => e.to_string(),
    };
    let values: Vec<String> = own
        .iter()
        .map(|s| format!("{}={}", s.key, s.value))
        .collect();
    PyValueError::new_err(format!("replica {r} ({}): {why}", values.join(", ")))
}

/// The replicas asked for, resolved by the run layer as boids.Simulation resolves one: first
/// with what every replica shares (the scene, count, seed and keywords: an error there is the
/// ensemble's, raised as Simulation's), then each replica with its own values of `params`.
fn replicas_of(
    inputs: &Inputs,
    boids: Option<usize>,
    seed: Option<u32>,
    keep_world: bool,
    fixed: &[Set],
    own: &[Vec<Set>],
) -> PyResult<Vec<Replica>> {
    let defaults = Defaults::headless(DEFAULT_BOIDS);
    let shared = Overrides {
        boids,
        seed,
        sets: fixed,
        keep_world,
    };
    let mut shared = Some(resolve(inputs, &shared, &defaults).map_err(run_error)?);
    let first = shared.as_ref().expect("resolved above");
    let obstacles = first.setup.actors.obstacles.len();
    if obstacles > 0 {
        return Err(PyValueError::new_err(format!(
            "obstacles: the scene has {obstacles}, an ensemble holds none (run it as \
             boids.Simulation)"
        )));
    }
    // A parameter the replicas vary that the model does not use is the ensemble's fault.
    for set in own.iter().flatten() {
        first
            .setup
            .params
            .check_used(&set.key)
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
    }
    // The shared seed, resolved, is replica 0's and the base of the others'.
    let base = first.setup.seed;
    let mut out = Vec::with_capacity(own.len());
    for (r, mine) in own.iter().enumerate() {
        let spec = match shared.take() {
            // Replica 0 without values of its own is the shared run.
            Some(spec) if mine.is_empty() => spec,
            _ => {
                let sets: Vec<Set> = fixed.iter().chain(mine).cloned().collect();
                let o = Overrides {
                    boids,
                    seed: Some(base.wrapping_add(r as u32)),
                    sets: &sets,
                    keep_world,
                };
                resolve(inputs, &o, &defaults).map_err(|e| replica_error(r, mine, e))?
            }
        };
        out.push(Replica {
            params: spec.setup.params,
            seed: spec.setup.seed,
            boids: spec.setup.boids,
            predators: spec.setup.actors.predators,
        });
    }
    Ok(out)
}

/// The measure table's ids and whether each is a catch counter, in its order (looked up once a
/// call, not per sample).
fn measure_ids() -> Vec<(MeasureId, bool)> {
    MEASURES
        .iter()
        .map(|d| {
            let id = MeasureId::by_name(d.name).expect("a measure of the table");
            (id, d.needs() == Needs::Catches)
        })
        .collect()
}

/// Every measure of `m` in the order of `ids` (NaN where it has none, and for the catches of a
/// replica without predators).
fn measure_values<'a>(
    ids: &'a [(MeasureId, bool)],
    m: &'a FlockMeasures,
    predators: bool,
) -> impl Iterator<Item = f64> + 'a {
    ids.iter().map(move |&(id, catches)| {
        if catches && !predators {
            f64::NAN
        } else {
            m.get(id).unwrap_or(f64::NAN)
        }
    })
}

/// Replica `r` of `len`, counted from the end when negative (as a Python sequence's index).
fn replica_index(r: i128, len: usize) -> PyResult<usize> {
    let at = if r < 0 { r + len as i128 } else { r };
    usize::try_from(at)
        .ok()
        .filter(|&at| at < len)
        .ok_or_else(|| {
            PyIndexError::new_err(format!(
                "replica {r}: this ensemble holds {len} (0 .. {len}, or -{len} .. -1 from the end)"
            ))
        })
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

    fn boids(&self, py: Python<'_>, r: i128) -> PyResult<Vec<Boid>> {
        let r = replica_index(r, self.predators.len())?;
        self.with(py, |e| e.state(r).map_err(sim_error))
    }
}

#[pymethods]
impl Ensemble {
    #[new]
    #[pyo3(signature = (replicas, scene=None, backend="gpu", seed=None, boids=None, keep_world=false, params=None, **fixed))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        replicas: i128,
        scene: Option<PathBuf>,
        backend: &str,
        seed: Option<i128>,
        boids: Option<Bound<'_, PyAny>>,
        keep_world: bool,
        params: Option<Bound<'_, PyDict>>,
        fixed: Option<Bound<'_, PyDict>>,
    ) -> PyResult<Ensemble> {
        let max = i128::from(sim::stages::MAX_REPLICAS);
        let replicas: usize = convert::whole("replicas", replicas, 1, max)?;
        let seed = convert::seed(seed)?;
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
        let mut fixed = convert::keyword_sets(fixed.as_ref(), convert::Callee::Ensemble)?;
        let own = params_sets(params.as_ref(), &mut fixed, replicas)?;
        let made = py.detach(|| {
            no_panic(|| -> PyResult<(Replicas, Vec<bool>)> {
                let inputs = Inputs::load(scene.as_deref(), None).map_err(run_error)?;
                let reps = replicas_of(&inputs, boids, seed, keep_world, &fixed, &own)?;
                let ctx = match kind {
                    BackendKind::Gpu => Some(gpu_context().map_err(|e| sim_error(e.into()))?),
                    _ => None,
                };
                let predators = reps.iter().map(|r| !r.predators.is_empty()).collect();
                let replicas = Replicas::new(kind, &reps, ctx.as_ref()).map_err(sim_error)?;
                Ok((replicas, predators))
            })
        });
        let (replicas, predators) = made.map_err(|why| {
            PyRuntimeError::new_err(format!("internal error in the simulator: {why}"))
        })??;
        Ok(Ensemble {
            replicas: Mutex::new(replicas),
            kind,
            predators,
        })
    }

    /// The number of replicas.
    fn __len__(&self) -> usize {
        self.predators.len()
    }

    /// The backend: "gpu" or "cpu".
    #[getter]
    fn backend(&self) -> &'static str {
        self.kind.name()
    }

    /// step(n=1)
    ///
    /// Runs n steps (n ≥ 0) of every replica with the interpreter's lock released; Ctrl-C stops
    /// it between steps (every 16), the steps done kept. Of each group of 16 (and of the
    /// last, shorter one), only the last step stores the neighbour counts, so the state between
    /// groups always has its own.
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
    /// Runs n steps (0 ≤ n ≤ 2^32 − 1) of every replica, each followed by its measures: a dict
    /// of the measure table's names (docs/model.md §12) to float64 arrays of shape (R, n), NaN
    /// where a measure has no value (the catches of a replica without predators). The measures
    /// are read back 1024 steps at a time; Ctrl-C stops it between those, the steps done kept
    /// (their measures dropped). MemoryError, before any step, when the arrays would take more
    /// than half the memory available.
    fn run<'py>(&self, py: Python<'py>, n: i128) -> PyResult<Bound<'py, PyDict>> {
        let n: u32 = convert::whole("n", n, 0, i128::from(u32::MAX))?;
        let reps = self.predators.len();
        let (len, steps) = (reps * n as usize, n as usize);
        // [measure][replica * n + step], held before any step is run: refused when more than the
        // memory the system has available (a reservation alone would succeed on an
        // overcommitting system and the process be killed while filling it).
        let bytes = (len * MEASURES.len() * 8) as u64;
        let too_large = |more: String| {
            PyMemoryError::new_err(format!(
                "run({n}): {reps} replicas × {n} steps × {} measures need {:.1} GiB{more}",
                MEASURES.len(),
                bytes as f64 / f64::from(1u32 << 30)
            ))
        };
        if let Some(free) = convert::available_memory().filter(|&free| bytes > free / 2) {
            return Err(too_large(format!(
                ", more than half the {:.1} GiB available: run fewer steps a call",
                free as f64 / f64::from(1u32 << 30)
            )));
        }
        let mut cols: Vec<Vec<f64>> = Vec::with_capacity(MEASURES.len());
        for _ in MEASURES.iter() {
            let mut col = Vec::new();
            col.try_reserve_exact(len)
                .map_err(|_| too_large(String::new()))?;
            col.resize(len, f64::NAN);
            cols.push(col);
        }
        let ids = measure_ids();
        let mut done = 0u32;
        while done < n {
            let k = (n - done).min(RUN_CHUNK);
            let rows = self.with(py, |e| e.run_measured(k).map_err(sim_error))?;
            for (r, replica) in rows.iter().enumerate() {
                for (s, m) in replica.iter().enumerate() {
                    let at = r * steps + done as usize + s;
                    for (c, v) in measure_values(&ids, m, self.predators[r]).enumerate() {
                        cols[c][at] = v;
                    }
                }
            }
            done += k;
            py.check_signals()?;
        }
        let d = PyDict::new(py);
        for (desc, col) in MEASURES.iter().zip(cols) {
            let a = Array2::from_shape_vec((reps, steps), col).expect("R × n values");
            d.set_item(desc.name, a.into_pyarray(py))?;
        }
        Ok(d)
    }

    /// measures() -> dict
    ///
    /// Every replica's measures of its current state: a dict of the measure table's names to
    /// float64 arrays of shape (R,), NaN where a measure has no value (the catches of a replica
    /// without predators).
    fn measures<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let ms = self.with(py, |e| e.measures().map_err(sim_error))?;
        let ids = measure_ids();
        let values: Vec<Vec<f64>> = ms
            .iter()
            .zip(&self.predators)
            .map(|(m, &p)| measure_values(&ids, m, p).collect())
            .collect();
        let d = PyDict::new(py);
        for (c, desc) in MEASURES.iter().enumerate() {
            let v: Vec<f64> = values.iter().map(|m| m[c]).collect();
            d.set_item(desc.name, v.into_pyarray(py))?;
        }
        Ok(d)
    }

    /// positions(r) -> float32 array (N, 2): replica r's boid positions (wu), a copy, rows in the
    /// order of ids(r); r < 0 counts from the end. IndexError for a replica not held.
    fn positions<'py>(&self, py: Python<'py>, r: i128) -> PyResult<Bound<'py, PyArray2<f32>>> {
        let b = self.boids(py, r)?;
        Ok(convert::column(py, &b, Column::Position))
    }

    /// velocities(r) -> float32 array (N, 2): replica r's boid velocities (wu/s; wu per step in
    /// the Vicsek model), a copy.
    fn velocities<'py>(&self, py: Python<'py>, r: i128) -> PyResult<Bound<'py, PyArray2<f32>>> {
        let b = self.boids(py, r)?;
        Ok(convert::column(py, &b, Column::Velocity))
    }

    /// ids(r) -> uint32 array (N,): replica r's boid ids, in the order of its state arrays.
    fn ids<'py>(&self, py: Python<'py>, r: i128) -> PyResult<Bound<'py, PyArray1<u32>>> {
        let b = self.boids(py, r)?;
        Ok(convert::ids(py, &b))
    }
}
