//! `boids.analyse`: an analysis of the table (docs/model.md §12.11) of states given as numpy
//! arrays — a `Simulation.state()` dict, or a list of them in time order — returning the curve as
//! numpy arrays with its scalar summaries. The computation is the command line's
//! (`sim::analysis`), run with the interpreter's lock released.

use numpy::IntoPyArray;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};
use sim::analysis::{by_name, Frame, Settings};
use sim::model::{Boid, World};
use sim::run::analyses::AnalysisOptions;

use crate::convert::{self, Column};
use crate::errors::no_panic;

/// The boids of one state mapping: its "positions" and "velocities" ((N, 2)), and its "ids"
/// ((N,); default 0 … N − 1) and "images" ((N, 2); default 0) when it has them.
fn state_boids(state: &Bound<'_, PyAny>, k: usize) -> PyResult<Vec<Boid>> {
    let get = |key: &str| -> PyResult<Option<Bound<'_, PyAny>>> {
        match state.get_item(key) {
            Ok(v) if !v.is_none() => Ok(Some(v)),
            _ => Ok(None),
        }
    };
    let positions = get("positions")?.ok_or_else(|| {
        PyValueError::new_err(format!(
            "state {k}: no \"positions\" (give Simulation.state() dicts, or mappings with \
             \"positions\" and \"velocities\" of shape (N, 2))"
        ))
    })?;
    // The shapes first, so that a wrong one is named as such.
    let shape = |key: &str, a: &Bound<'_, PyAny>| -> PyResult<Vec<usize>> {
        a.py()
            .import("numpy")?
            .call_method1("shape", (a,))?
            .extract::<Vec<usize>>()
            .map_err(|_| PyValueError::new_err(format!("state {k}: {key}: not an array")))
    };
    let n = match shape("positions", &positions)?.as_slice() {
        [n, 2] => *n,
        s => {
            return Err(PyValueError::new_err(format!(
                "state {k}: positions has shape {s:?}; expected (N, 2)"
            )))
        }
    };
    let mut boids: Vec<Boid> = (0..n)
        .map(|i| Boid::from_parts([0.0; 4], [1.0, 0.0, 0.0, 0.0], i as u32))
        .collect();
    convert::set_column(&positions, &mut boids, Column::Position)
        .map_err(|e| in_state(k, e, state.py()))?;
    let velocities = get("velocities")?
        .ok_or_else(|| PyValueError::new_err(format!("state {k}: no \"velocities\"")))?;
    let vs = shape("velocities", &velocities)?;
    if vs != [n, 2] {
        return Err(PyValueError::new_err(format!(
            "state {k}: velocities has shape {vs:?}; expected ({n}, 2), as the positions"
        )));
    }
    convert::set_column(&velocities, &mut boids, Column::Velocity)
        .map_err(|e| in_state(k, e, state.py()))?;
    if let Some(ids) = get("ids")? {
        convert::set_ids(&ids, &mut boids).map_err(|e| in_state(k, e, state.py()))?;
    }
    if let Some(images) = get("images")? {
        convert::set_images(&images, &mut boids).map_err(|e| in_state(k, e, state.py()))?;
    }
    Ok(boids)
}

/// `e` (a ValueError of the state's arrays) with the state's number before its message.
fn in_state(k: usize, e: PyErr, py: Python<'_>) -> PyErr {
    PyValueError::new_err(format!("state {k}: {}", e.value(py)))
}

/// Refuses a state the analyses cannot read: a position outside the world (or not finite), a
/// velocity not finite, two boids with one id.
fn check_state(boids: &[Boid], world: World, k: usize) -> PyResult<()> {
    let size = [world.width, world.height];
    for (i, b) in boids.iter().enumerate() {
        let p = b.position;
        if !(0..2).all(|a| p[a].is_finite() && p[a] >= 0.0 && p[a] < size[a]) {
            return Err(PyValueError::new_err(format!(
                "state {k}: boid {i} is at ({}, {}), outside the world [0, {}) × [0, {}) wu \
                 (positions as Simulation.state() gives them: from the world's corner)",
                p[0], p[1], size[0], size[1]
            )));
        }
        if !(b.velocity[0].is_finite() && b.velocity[1].is_finite()) {
            return Err(PyValueError::new_err(format!(
                "state {k}: boid {i} has velocity ({}, {}): not finite",
                b.velocity[0], b.velocity[1]
            )));
        }
    }
    let mut ids: Vec<u32> = boids.iter().map(|b| b.id).collect();
    ids.sort_unstable();
    if let Some(w) = ids.windows(2).find(|w| w[0] == w[1]) {
        return Err(PyValueError::new_err(format!(
            "state {k}: two boids have id {}; ids name one boid each",
            w[0]
        )));
    }
    Ok(())
}

/// Refuses a setting that is not a finite positive number, naming it.
fn positive(name: &str, v: f64) -> PyResult<()> {
    if v.is_finite() && v > 0.0 {
        Ok(())
    } else {
        Err(PyValueError::new_err(format!(
            "{name} = {v}: a finite number above 0"
        )))
    }
}

/// analyse(name, states, world, wrap=True, interval=1.0, perception_radius=20.0, r_max=None,
///         bin=None, mesh=256, box_side=None, link_radius=None) -> dict
///
/// The analysis `name` (velocity_correlation, structure_factor, rdf, local_density,
/// density_profile, cluster_sizes, msd, heading_autocorrelation; docs/model.md §12.11) of `states`: one mapping
/// with "positions" and "velocities" ((N, 2) arrays, as Simulation.state() gives, with its "ids"
/// and "images" when present), or a list (or tuple) of them in time order, `interval` apart (the time
/// analyses pair each boid with itself by id and unwrap its path with its images). `world` is
/// (W, H) in wu (a tuple, list or array of two numbers); `wrap` whether it is periodic. The settings are the command line's
/// (`--r-max`, `--bin`, `--mesh`, `--box-side`, `--link-radius`; defaults from
/// `perception_radius`); one the analysis does not read (`mesh` for rdf) is refused. Returns {"x", "y", "samples"} (numpy arrays: the abscissae, the values,
/// the samples behind each) plus each scalar summary by name (a float, or None where it does not
/// exist: "xi" of a C(r) with no zero). ValueError for an unknown name, a setting it cannot honour
/// (with the limit), a world, interval or perception radius that is not a positive number, or a
/// malformed state (a position outside [0, W) × [0, H), a velocity not finite, two boids with one
/// id, arrays of the wrong shape).
#[pyfunction]
#[pyo3(signature = (name, states, world, wrap=true, interval=1.0, perception_radius=20.0,
    r_max=None, bin=None, mesh=256, box_side=None, link_radius=None))]
#[allow(clippy::too_many_arguments)]
pub fn analyse<'py>(
    py: Python<'py>,
    name: &str,
    states: &Bound<'py, PyAny>,
    world: Vec<f32>,
    wrap: bool,
    interval: f64,
    perception_radius: f64,
    r_max: Option<f64>,
    bin: Option<f64>,
    mesh: i64,
    box_side: Option<f64>,
    link_radius: Option<f64>,
) -> PyResult<Bound<'py, PyDict>> {
    let desc = by_name(name).map_err(|e| PyValueError::new_err(e.to_string()))?;
    let world = match world[..] {
        [w, h] => (w, h),
        _ => {
            return Err(PyValueError::new_err(format!(
                "world has {} values; give (W, H) in wu",
                world.len()
            )))
        }
    };
    for (n, v) in [
        ("world width", world.0 as f64),
        ("world height", world.1 as f64),
    ] {
        positive(n, v)?;
    }
    positive("interval", interval)?;
    positive("perception_radius", perception_radius)?;
    let mesh = u32::try_from(mesh)
        .map_err(|_| PyValueError::new_err(format!("mesh = {mesh}: allowed 16 ..= 4096 cells")))?;
    // One state (a mapping), or a sequence of them (list or tuple) in time order.
    let list: Vec<Bound<'py, PyAny>> =
        if states.cast::<PyList>().is_ok() || states.cast::<PyTuple>().is_ok() {
            states.try_iter()?.collect::<PyResult<_>>()?
        } else {
            vec![states.clone()]
        };
    if list.is_empty() {
        return Err(PyValueError::new_err(
            "states is empty: give a state (a Simulation.state() dict) or a list of them",
        ));
    }
    let w = World {
        width: world.0,
        height: world.1,
        wrap,
    };
    let frames: Vec<Vec<Boid>> = list
        .iter()
        .enumerate()
        .map(|(k, s)| {
            let b = state_boids(s, k)?;
            check_state(&b, w, k)?;
            Ok(b)
        })
        .collect::<PyResult<_>>()?;
    let given = AnalysisOptions {
        analyse_every: None,
        r_max,
        bin,
        mesh,
        box_side,
        link_radius,
    };
    if let Some((setting, value, readers)) = given.unread(&[desc]) {
        return Err(PyValueError::new_err(format!(
            "{} = {value}: {name} does not read it (it is read by {}); drop it",
            setting.keyword(),
            readers.join(", ")
        )));
    }
    let mut settings = Settings::new(perception_radius, frames.len() as u64, interval, "time");
    settings.r_max = r_max;
    settings.bin = bin;
    settings.mesh = mesh;
    settings.box_side = box_side;
    if let Some(r) = link_radius {
        settings.link_radius = r;
    }
    let curve = py
        .detach(|| {
            no_panic(|| -> Result<_, String> {
                let mut a = (desc.make)(&settings, w).map_err(|e| e.to_string())?;
                for (k, boids) in frames.iter().enumerate() {
                    a.add(&Frame {
                        boids,
                        world: w,
                        time: k as f64 * interval,
                    })
                    .map_err(|e| e.to_string())?;
                }
                a.curve().map_err(|e| e.to_string())
            })
        })
        .map_err(|p| PyRuntimeError::new_err(format!("internal error in the analysis: {p}")))?
        .map_err(PyValueError::new_err)?;
    let d = PyDict::new(py);
    d.set_item("x", curve.x.into_pyarray(py))?;
    d.set_item("y", curve.y.into_pyarray(py))?;
    d.set_item("samples", curve.samples.into_pyarray(py))?;
    for (name, value, _) in curve.scalars {
        d.set_item(name, value)?;
    }
    Ok(d)
}
