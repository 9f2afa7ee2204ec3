//! Python values to the simulator's and back: boid columns as numpy arrays, parameter values as
//! the text `--set` reads, boid counts.

use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray1, PyArray2, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyString};
use sim::model::param_table::ParamValue;
use sim::model::Boid;

/// One `(N, 2)` column of the boids.
#[derive(Clone, Copy, Debug)]
pub enum Column {
    /// Positions (wu).
    Position,
    /// Velocities (wu/s; wu per step in the Vicsek model).
    Velocity,
    /// Hue vectors (unit).
    Hue,
    /// Hue velocities (1/s).
    HueVelocity,
}

impl Column {
    /// The column's keyword (`positions`, …).
    pub fn name(self) -> &'static str {
        match self {
            Column::Position => "positions",
            Column::Velocity => "velocities",
            Column::Hue => "hues",
            Column::HueVelocity => "hue_velocities",
        }
    }

    fn get(self, b: &Boid) -> [f32; 2] {
        match self {
            Column::Position => b.position,
            Column::Velocity => b.velocity,
            Column::Hue => b.hue,
            Column::HueVelocity => b.hue_velocity,
        }
    }

    fn set(self, b: &mut Boid, v: [f32; 2]) {
        match self {
            Column::Position => b.position = v,
            Column::Velocity => b.velocity = v,
            Column::Hue => b.hue = v,
            Column::HueVelocity => b.hue_velocity = v,
        }
    }
}

/// `column` of `boids` as a new float32 array of shape `(N, 2)`.
pub fn column<'py>(py: Python<'py>, boids: &[Boid], column: Column) -> Bound<'py, PyArray2<f32>> {
    let flat: Vec<f32> = boids.iter().flat_map(|b| column.get(b)).collect();
    Array2::from_shape_vec((boids.len(), 2), flat)
        .expect("two values per boid")
        .into_pyarray(py)
}

/// The ids of `boids` as a new uint32 array of shape `(N,)`.
pub fn ids<'py>(py: Python<'py>, boids: &[Boid]) -> Bound<'py, PyArray1<u32>> {
    boids
        .iter()
        .map(|b| b.id)
        .collect::<Vec<_>>()
        .into_pyarray(py)
}

/// The image counts of `boids` as a new int32 array of shape `(N, 2)`: the box sizes each boid
/// has crossed in x and y (docs/model.md §2.4).
pub fn images<'py>(py: Python<'py>, boids: &[Boid]) -> Bound<'py, PyArray2<i32>> {
    let flat: Vec<i32> = boids.iter().flat_map(|b| b.image).collect();
    Array2::from_shape_vec((boids.len(), 2), flat)
        .expect("two counts per boid")
        .into_pyarray(py)
}

/// Writes the array-like `value` (shape `(N, 2)`, whole numbers in the int32 range) as the image
/// counts of `boids`.
///
/// # Errors
/// `ValueError` for a wrong shape or a value that is not an int32.
pub fn set_images(value: &Bound<'_, PyAny>, boids: &mut [Boid]) -> PyResult<()> {
    let range = (i128::from(i32::MIN), i128::from(i32::MAX));
    let a = whole_numbers(value, "images", range, "int32", "image counts are int32")?;
    let shape: Vec<usize> = a.getattr("shape")?.extract()?;
    if shape != [boids.len(), 2] {
        return Err(PyValueError::new_err(format!(
            "images: expected an array of shape ({}, 2), got {shape:?}",
            boids.len()
        )));
    }
    let a = a
        .cast_into::<PyArray2<i32>>()
        .map_err(|_| PyValueError::new_err("images: expected a two-dimensional array"))?;
    let ro = a.readonly();
    let v = ro.as_array();
    for (i, b) in boids.iter_mut().enumerate() {
        b.image = [v[[i, 0]], v[[i, 1]]];
    }
    Ok(())
}

/// Writes the array-like `value` (anything `numpy.asarray` takes, of shape `(N, 2)`) into
/// `column` of `boids`, rounded to float32.
///
/// # Errors
/// `ValueError` naming the keyword for a wrong shape or a value that is not a number.
pub fn set_column(value: &Bound<'_, PyAny>, boids: &mut [Boid], column: Column) -> PyResult<()> {
    let a = as_array(value, "float32", column.name())?;
    let a = a.cast_into::<PyArray2<f32>>().map_err(|_| {
        PyValueError::new_err(format!(
            "{}: expected an array of shape ({}, 2), got {} dimension(s)",
            column.name(),
            boids.len(),
            value
                .getattr("ndim")
                .and_then(|d| d.extract::<usize>())
                .unwrap_or(0)
        ))
    })?;
    let shape = a.shape().to_vec();
    if shape != [boids.len(), 2] {
        return Err(PyValueError::new_err(format!(
            "{}: expected an array of shape ({}, 2), got {shape:?} (the count is the \
             simulation's: start a new Simulation for another)",
            column.name(),
            boids.len()
        )));
    }
    let ro = a.readonly();
    let v = ro.as_array();
    for (i, b) in boids.iter_mut().enumerate() {
        column.set(b, [v[[i, 0]], v[[i, 1]]]);
    }
    Ok(())
}

/// Writes the array-like `value` (shape `(N,)`, whole numbers in `0 ..= 2³² − 1`) as the ids of
/// `boids`.
///
/// # Errors
/// `ValueError` for a wrong shape or a value that is not a uint32.
pub fn set_ids(value: &Bound<'_, PyAny>, boids: &mut [Boid]) -> PyResult<()> {
    let range = (0, i128::from(u32::MAX));
    let a = whole_numbers(value, "ids", range, "uint32", "ids are uint32")?;
    let a = a.cast_into::<PyArray1<u32>>().map_err(|_| {
        PyValueError::new_err(format!(
            "ids: expected an array of shape ({},)",
            boids.len()
        ))
    })?;
    if a.len() != boids.len() {
        return Err(PyValueError::new_err(format!(
            "ids: expected an array of shape ({},), got ({},)",
            boids.len(),
            a.len()
        )));
    }
    let ro = a.readonly();
    for (b, &id) in boids.iter_mut().zip(ro.as_array().iter()) {
        b.id = id;
    }
    Ok(())
}

/// The array-like `value` as a contiguous numpy array of `dtype`, after checking that it holds
/// whole numbers within `lo ..= hi` (`why` says whose range that is).
///
/// # Errors
/// `ValueError` naming the keyword `what`: not whole numbers, or the value outside the range.
fn whole_numbers<'py>(
    value: &Bound<'py, PyAny>,
    what: &str,
    (lo, hi): (i128, i128),
    dtype: &str,
    why: &str,
) -> PyResult<Bound<'py, PyAny>> {
    let np = value.py().import("numpy")?;
    let a = np.call_method1("asarray", (value,))?;
    let kind: String = a.getattr("dtype")?.getattr("kind")?.extract()?;
    if !matches!(kind.as_str(), "i" | "u") {
        return Err(PyValueError::new_err(format!(
            "{what}: expected whole numbers, got an array of dtype {}",
            a.getattr("dtype")?.str()?
        )));
    }
    if a.getattr("size")?.extract::<usize>()? > 0 {
        let (min, max): (i128, i128) = (
            a.call_method0("min")?.extract()?,
            a.call_method0("max")?.extract()?,
        );
        if min < lo || max > hi {
            return Err(PyValueError::new_err(format!(
                "{what}: {} is outside {lo} ..= {hi} ({why})",
                if min < lo { min } else { max },
            )));
        }
    }
    as_array(&a, dtype, what)
}

/// `numpy.ascontiguousarray(value, dtype=dtype)`.
fn as_array<'py>(
    value: &Bound<'py, PyAny>,
    dtype: &str,
    what: &str,
) -> PyResult<Bound<'py, PyAny>> {
    let py = value.py();
    let np = py.import("numpy")?;
    let kw = PyDict::new(py);
    kw.set_item("dtype", dtype)?;
    np.call_method("ascontiguousarray", (value,), Some(&kw))
        .map_err(|e| PyValueError::new_err(format!("{what}: not an array of numbers ({e})")))
}

/// A parameter's value as the text `--set KEY=VALUE` reads: a number (`int`, `float`), a name
/// (`str`) or a truth value (`bool`: `true`, `false`).
///
/// # Errors
/// `TypeError` for any other type.
pub fn value_text(key: &str, value: &Bound<'_, PyAny>) -> PyResult<String> {
    if value.is_instance_of::<PyBool>() {
        return Ok(if value.extract::<bool>()? {
            "true".into()
        } else {
            "false".into()
        });
    }
    // By value, not repr: numpy's float64 is a float whose repr is `np.float64(0.2)`.
    if value.is_instance_of::<PyInt>() {
        return Ok(value.extract::<i128>()?.to_string());
    }
    if value.is_instance_of::<PyFloat>() {
        return Ok(format!("{:?}", value.extract::<f64>()?));
    }
    if value.is_instance_of::<PyString>() {
        return value.extract();
    }
    // numpy's bool (`numpy.bool`, `numpy.bool_`) is a truth value as Python's bool, not the
    // number its `__float__` gives.
    if matches!(
        value.get_type().name()?.to_string().as_str(),
        "bool" | "bool_"
    ) {
        return Ok(if value.is_truthy()? { "true" } else { "false" }.into());
    }
    // numpy's integers (`int64` from `arange`, …) and other integers stay whole, as whole-number
    // parameters need: read by `__index__`, not as floats.
    if let Ok(i) = value
        .call_method0("__index__")
        .and_then(|i| i.extract::<i128>())
    {
        return Ok(i.to_string());
    }
    // numpy's floats and other numbers.
    if let Ok(x) = value
        .call_method0("__float__")
        .and_then(|f| f.extract::<f64>())
    {
        return Ok(format!("{x:?}"));
    }
    Err(PyTypeError::new_err(format!(
        "{key}: expected a number or a name, got {}",
        value.get_type().name()?
    )))
}

/// A parameter's value as a Python object: a `float` (an `int` for whole-number parameters), or
/// a `str` for a name.
pub fn value_object<'py>(
    py: Python<'py>,
    value: ParamValue,
    integer: bool,
) -> PyResult<Bound<'py, PyAny>> {
    Ok(match value {
        ParamValue::Number(x) if integer => (x as i64).into_pyobject(py)?.into_any(),
        ParamValue::Number(x) => x.into_pyobject(py)?.into_any(),
        ParamValue::Name(s) => s.into_pyobject(py)?.into_any(),
    })
}

/// A boid count: an `int`, or a string with the command line's `k` and `M` suffixes (`"10k"`).
///
/// # Errors
/// `ValueError` for a negative number or a string that is not a count; `TypeError` otherwise.
pub fn count(value: &Bound<'_, PyAny>) -> PyResult<usize> {
    if let Ok(n) = value.extract::<i64>() {
        return usize::try_from(n)
            .map_err(|_| PyValueError::new_err(format!("boids = {n}: a count is 1 or more")));
    }
    if let Ok(s) = value.extract::<String>() {
        return sim::run::parse_count(&s).map_err(|e| PyValueError::new_err(format!("boids: {e}")));
    }
    Err(PyTypeError::new_err(format!(
        "boids: expected an int or a string such as \"10k\", got {}",
        value.get_type().name()?
    )))
}

/// The keywords `Simulation(...)` takes besides the parameters.
pub const KEYWORDS: [&str; 6] = ["scene", "backend", "seed", "boids", "init", "keep_world"];

/// The keywords `Ensemble(...)` takes besides the parameters.
pub const ENSEMBLE_KEYWORDS: [&str; 7] = [
    "replicas",
    "scene",
    "backend",
    "seed",
    "boids",
    "keep_world",
    "params",
];

/// Who takes keyword arguments that are parameters: `Simulation(...)` or `Ensemble(...)`.
#[derive(Clone, Copy, Debug)]
pub enum Callee {
    /// `boids.Simulation`.
    Simulation,
    /// `boids.Ensemble`.
    Ensemble,
}

impl Callee {
    fn name(self) -> &'static str {
        match self {
            Callee::Simulation => "Simulation",
            Callee::Ensemble => "Ensemble",
        }
    }

    fn keywords(self) -> &'static [&'static str] {
        match self {
            Callee::Simulation => &KEYWORDS,
            Callee::Ensemble => &ENSEMBLE_KEYWORDS,
        }
    }
}

/// Checks that a keyword argument of `callee` names a parameter of the table.
///
/// # Errors
/// `ValueError` (as for every parameter that cannot be used) naming the keyword and the nearest
/// arguments and parameters — `Simulation(boid=5)`: did you mean `boids`?
pub fn check_keyword(key: &str, callee: Callee) -> PyResult<()> {
    if sim::model::SimParams::spec(key).is_some() {
        return Ok(());
    }
    let (name, keywords) = (callee.name(), callee.keywords());
    let hint = match nearest_hint(key, keywords) {
        h if h.is_empty() => format!(
            "; {name} takes {} and the parameters of docs/model.md §3.1",
            keywords.join(", ")
        ),
        h => h,
    };
    Err(PyValueError::new_err(format!(
        "{name}() got an unexpected keyword argument {key:?}: it is neither an argument nor a \
         parameter{hint}"
    )))
}

/// `; did you mean …` naming the parameters and `keywords` nearest to `key`, or empty when none
/// is near.
pub fn nearest_hint(key: &str, keywords: &[&str]) -> String {
    let known = keywords
        .iter()
        .copied()
        .chain(sim::model::SimParams::specs().iter().map(|s| s.key));
    let near = sim::model::param_table::nearest(key, known);
    match sim::model::param_table::did_you_mean(&near) {
        h if h.is_empty() => h,
        h => format!("; {h}"),
    }
}

/// A step count from Python: any int, refused when negative or above 2^64 − 1 with a
/// `ValueError` naming it (not the bare `OverflowError` of a conversion).
pub fn steps(n: i128) -> PyResult<u64> {
    u64::try_from(n).map_err(|_| {
        PyValueError::new_err(format!(
            "n = {n}: the number of steps is 0 ..= {}",
            u64::MAX
        ))
    })
}

/// A whole-number argument `name` in `lo ..= hi`, refused otherwise with a `ValueError` naming
/// it and the range (not the bare `OverflowError` of a conversion).
pub fn whole<T: TryFrom<i128>>(name: &str, v: i128, lo: i128, hi: i128) -> PyResult<T> {
    (lo..=hi)
        .contains(&v)
        .then(|| T::try_from(v).ok())
        .flatten()
        .ok_or_else(|| PyValueError::new_err(format!("{name} = {v}: allowed {lo} ..= {hi}")))
}

/// A seed from Python: 0 ..= 2^32 − 1.
pub fn seed(v: Option<i128>) -> PyResult<Option<u32>> {
    v.map(|v| whole("seed", v, 0, i128::from(u32::MAX)))
        .transpose()
}

/// Bytes of memory the system says are available (Linux: `MemAvailable` of /proc/meminfo),
/// `None` where unknown.
pub fn available_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// The keyword arguments of `callee` that are parameters (`vicsek_eta=2.0`) as `--set`s, in
/// order, each key checked as a keyword and its value read as text.
///
/// # Errors
/// As [`check_keyword`] and [`value_text`].
pub fn keyword_sets(
    d: Option<&Bound<'_, PyDict>>,
    callee: Callee,
) -> PyResult<Vec<sim::run::args::Set>> {
    let Some(d) = d else {
        return Ok(Vec::new());
    };
    d.iter()
        .map(|(k, v)| {
            let key: String = k.extract()?;
            check_keyword(&key, callee)?;
            let value = value_text(&key, &v)?;
            Ok(sim::run::args::Set { key, value })
        })
        .collect()
}
