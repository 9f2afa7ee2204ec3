//! `boids.Simulation`: a run set up by the run layer (scene < state file < keyword arguments,
//! as `boids headless`), on the backend factory's CPU or GPU backend, stepped with the
//! interpreter's lock released, its state read and set as numpy arrays.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use numpy::ndarray::Array3;
use numpy::{IntoPyArray, PyArray1, PyArray2, PyArray3};
use pyo3::exceptions::{PyOSError, PyRuntimeError, PyUserWarning, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};
use sim::backend::{self, BackendKind};
use sim::formats::checkpoint::{check_checkpoint, Checkpoint};
use sim::model::census::FLOCK_MIN_BOIDS;
use sim::model::measures::MEASURES;
use sim::model::{flock_census, Actors, Boid, PredatorSpec, Setup, World};
use sim::render::Sim as PictureSim;
use sim::render::Theme;
use sim::render::{render_sim, PictureStyle};
use sim::run::args::Set;
use sim::run::{resolve, Defaults, Inputs, Overrides, RunError};
use sim::simulation::SimError;

use crate::convert::{self, Column};
use crate::errors::{no_panic, picture_error, run_error, sim_error};
use crate::params::Params;
use crate::shared::{gpu_context, Inner, Shared};

/// The boid count when neither a scene nor a state file gives one (as `boids headless`).
pub const DEFAULT_BOIDS: usize = 20_000;

/// Steps run between two checks for Ctrl-C (KeyboardInterrupt) are at most this long.
const SIGNAL_CHECK: Duration = Duration::from_millis(100);

/// A flocking simulation: a scene, a state file or the defaults, on the CPU or the GPU.
///
/// Arguments (all optional, combined as `boids headless` combines its options: built-in defaults
/// < scene < state file < these arguments):
///
/// - scene (str or path): a scene file (TOML): parameters, boid count, seed, obstacles,
///   predators.
/// - backend (str): "cpu" (the fast CPU backend, the default), "gpu" (wgpu compute shaders; a
///   RuntimeError when there is no adapter) or "cpu-naive" (the brute-force reference).
/// - seed (int, 0 ..= 2**32 - 1): the random seed (default: the state file's, the scene's,
///   else 1).
/// - boids (int, or a str such as "10k" or "1M"): the boid count (default: the state file's,
///   the scene's, else 20000). With a scene that fixes its world, another count scales the world
///   to keep the scene's density, unless keep_world is true.
/// - init (str or path): the initial state: a checkpoint written by save() or `boids headless
///   --save` (resumes it whole: parameters, seed, step index, obstacles, predators), a plain
///   state CSV (id,x,y,vx,vy,hx,hy,hvx,hvy: the boids only), or a frame of a GSD trajectory,
///   "FILE.gsd" (its last frame) or "FILE.gsd:FRAME" (from 0): the boids, the step index and the
///   predators, the world having to be the frame's box.
/// - keep_world (bool): keep a scene's fixed world when `boids` differs from its count.
///   Without a scene: ValueError.
/// - any other keyword: a parameter of the parameter table (docs/model.md §3.1), as
///   `--set KEY=VALUE`: `vicsek_eta=2.0`, `boundary="walls"`, `model="fish"`; applied last, in
///   order, each checked against its range and the model.
///
/// Raises ValueError for a bad value (the message names the key, value and allowed range, or the
/// file and line), OSError for a file that cannot be read, RuntimeError when the backend fails.
///
/// The state arrays are copies in the backend's storage order, which may change from step to
/// step: match rows by `ids`. Units: positions in wu (world units, [0, W) × [0, H)), velocities
/// in wu/s (wu per step in the Vicsek model), hue velocities in 1/s.
#[pyclass(module = "boids", name = "Simulation", frozen)]
pub struct Simulation {
    shared: Arc<Shared>,
    kind: BackendKind,
}

impl Simulation {
    /// Runs `f` on the simulation, holding its lock; a panic inside becomes a RuntimeError and
    /// marks the simulation failed.
    pub fn with<T>(&self, f: impl FnOnce(&mut Inner) -> PyResult<T>) -> PyResult<T> {
        self.shared.with(f)
    }
}

/// What the constructor was given, besides the backend.
struct Request {
    scene: Option<PathBuf>,
    init: Option<PathBuf>,
    boids: Option<usize>,
    seed: Option<u32>,
    keep_world: bool,
    sets: Vec<Set>,
}

/// The simulation `r` asks for on backend `kind`, resolved by the run layer as `boids headless`
/// resolves its options, with the run layer's warnings.
fn create(kind: BackendKind, r: Request) -> Result<(Inner, Vec<String>), RunError> {
    let inputs = Inputs::load(r.scene.as_deref(), r.init.as_deref())?;
    let o = Overrides {
        boids: r.boids,
        seed: r.seed,
        sets: &r.sets,
        keep_world: r.keep_world,
    };
    let spec = resolve(&inputs, &o, &Defaults::headless(DEFAULT_BOIDS))?;
    let gpu = match kind {
        BackendKind::Gpu => Some(gpu_context()?),
        _ => None,
    };
    let mut sim = backend::create(kind, &spec.setup, gpu.as_ref())?;
    if spec.catches_total > 0 {
        sim.set_catches_total(spec.catches_total)?;
    }
    Ok((
        Inner {
            sim,
            gpu,
            seed: spec.setup.seed,
            obstacles: spec.setup.actors.obstacles.clone(),
            failed: None,
        },
        spec.warnings,
    ))
}

#[pymethods]
impl Simulation {
    #[new]
    #[pyo3(signature = (scene=None, backend="cpu", seed=None, boids=None, init=None, keep_world=false, **params))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        scene: Option<PathBuf>,
        backend: &str,
        seed: Option<i128>,
        boids: Option<Bound<'_, PyAny>>,
        init: Option<PathBuf>,
        keep_world: bool,
        params: Option<Bound<'_, PyDict>>,
    ) -> PyResult<Simulation> {
        let kind = BackendKind::parse(backend).ok_or_else(|| {
            PyValueError::new_err(format!(
                "backend = {backend:?}: one of \"cpu\", \"gpu\", \"cpu-naive\""
            ))
        })?;
        let boids = boids.map(|b| convert::count(&b)).transpose()?;
        let seed = convert::seed(seed)?;
        let sets = convert::keyword_sets(params.as_ref(), convert::Callee::Simulation)?;
        let request = Request {
            scene,
            init,
            boids,
            seed,
            keep_world,
            sets,
        };
        let made = py.detach(|| no_panic(|| create(kind, request)));
        let (inner, warnings) = made
            .map_err(|why| {
                PyRuntimeError::new_err(format!("internal error in the simulator: {why}"))
            })?
            .map_err(run_error)?;
        for w in warnings {
            PyErr::warn(
                py,
                &py.get_type::<PyUserWarning>(),
                &std::ffi::CString::new(w)?,
                1,
            )?;
        }
        Ok(Simulation {
            shared: Shared::new(inner),
            kind,
        })
    }

    /// step(n=1)
    ///
    /// Runs n steps (n ≥ 0) with the interpreter's lock released, so other Python threads run
    /// meanwhile. Ctrl-C (KeyboardInterrupt) stops it between steps, the steps done kept. Every
    /// step stores its neighbour counts (another thread's measures() may come between any two).
    /// Raises ValueError for a negative n, RuntimeError when the backend fails.
    #[pyo3(signature = (n=1))]
    fn step(&self, py: Python<'_>, n: i128) -> PyResult<()> {
        let n = convert::steps(n)?;
        let mut done = 0;
        while done < n {
            let ran = py.detach(|| {
                self.with(|inner| {
                    let start = Instant::now();
                    let mut k = 0;
                    while done + k < n && (k == 0 || start.elapsed() < SIGNAL_CHECK) {
                        inner.sim.step().map_err(sim_error)?;
                        k += 1;
                    }
                    inner.sim.finish().map_err(sim_error)?;
                    Ok(k)
                })
            })?;
            done += ran;
            py.check_signals()?;
        }
        Ok(())
    }

    /// Boid positions (wu), float32 array of shape (N, 2), a copy, in [0, W) × [0, H).
    #[getter]
    fn positions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<f32>>> {
        let b = self.read_boids()?;
        Ok(convert::column(py, &b, Column::Position))
    }

    /// Boid velocities (wu/s; wu per step in the Vicsek model), float32 array (N, 2), a copy.
    #[getter]
    fn velocities<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<f32>>> {
        let b = self.read_boids()?;
        Ok(convert::column(py, &b, Column::Velocity))
    }

    /// Hue vectors (unit length: the boid's colour as an angle), float32 array (N, 2), a copy.
    #[getter]
    fn hues<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<f32>>> {
        let b = self.read_boids()?;
        Ok(convert::column(py, &b, Column::Hue))
    }

    /// Hue velocities (1/s), float32 array (N, 2), a copy.
    #[getter]
    fn hue_velocities<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<f32>>> {
        let b = self.read_boids()?;
        Ok(convert::column(py, &b, Column::HueVelocity))
    }

    /// Boid ids, uint32 array of shape (N,), a copy: row i of every state array is boid ids[i].
    #[getter]
    fn ids<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<u32>>> {
        let b = self.read_boids()?;
        Ok(convert::ids(py, &b))
    }

    /// Image counts, int32 array of shape (N, 2), a copy: the box sizes each boid has crossed
    /// in x and y since the run began, counted by the step itself (docs/model.md §2.4), so
    /// positions + images * world is the unwrapped path.
    #[getter]
    fn images<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<i32>>> {
        let b = self.read_boids()?;
        Ok(convert::images(py, &b))
    }

    /// state() -> dict
    ///
    /// The whole state read once: "positions", "velocities", "hues", "hue_velocities" (float32,
    /// (N, 2)), "ids" (uint32, (N,)) and "images" (int32, (N, 2)), rows matching.
    fn state<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let b = self.read_boids()?;
        let d = PyDict::new(py);
        for c in [
            Column::Position,
            Column::Velocity,
            Column::Hue,
            Column::HueVelocity,
        ] {
            d.set_item(c.name(), convert::column(py, &b, c))?;
        }
        d.set_item("ids", convert::ids(py, &b))?;
        d.set_item("images", convert::images(py, &b))?;
        Ok(d)
    }

    /// set_state(positions=None, velocities=None, hues=None, hue_velocities=None, ids=None,
    ///           images=None)
    ///
    /// Replaces the columns given (array-likes of shape (N, 2), ids (N,), images (N, 2) whole
    /// numbers in the int32 range, N the current count;
    /// rows in the order of the state arrays), keeping the others. Positions must be finite and
    /// inside the world [0, W) × [0, H), values finite, hue vectors not (0, 0) (they are
    /// normalised to length 1), ids unique. Speeds are brought within the model's bounds by the
    /// next step. Raises ValueError naming the boid and the fault; nothing changes then.
    #[pyo3(signature = (positions=None, velocities=None, hues=None, hue_velocities=None, ids=None, images=None))]
    fn set_state(
        &self,
        positions: Option<Bound<'_, PyAny>>,
        velocities: Option<Bound<'_, PyAny>>,
        hues: Option<Bound<'_, PyAny>>,
        hue_velocities: Option<Bound<'_, PyAny>>,
        ids: Option<Bound<'_, PyAny>>,
        images: Option<Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        // One turn of the lock: no other thread's step falls between reading and writing.
        self.with(|inner| {
            let mut boids = inner.sim.read_state().map_err(sim_error)?;
            for (v, c) in [
                (positions, Column::Position),
                (velocities, Column::Velocity),
                (hues, Column::Hue),
                (hue_velocities, Column::HueVelocity),
            ] {
                if let Some(v) = v {
                    convert::set_column(&v, &mut boids, c)?;
                }
            }
            if let Some(v) = ids {
                convert::set_ids(&v, &mut boids)?;
            }
            if let Some(v) = images {
                convert::set_images(&v, &mut boids)?;
            }
            for b in &mut boids {
                let l = (b.hue[0] as f64).hypot(b.hue[1] as f64);
                if l.is_finite() && l > 0.0 {
                    b.hue = [(b.hue[0] as f64 / l) as f32, (b.hue[1] as f64 / l) as f32];
                }
            }
            let cp = checkpoint(inner, boids)?;
            check_checkpoint(&cp).map_err(|e| PyValueError::new_err(format!("set_state: {e}")))?;
            inner.sim.set_state(&cp.boids).map_err(sim_error)
        })
    }

    /// measures(flocks=False) -> dict
    ///
    /// Every measure of the measure table (docs/model.md §12) by name: polarization, milling,
    /// mean_speed, mean_neighbors, va, nematic, catches, catches_total, phi2, phi4, binder,
    /// susceptibility, tau_int, flocks, largest_flock, flocked_fraction, hue_coherence,
    /// flock_polarization. A float, or None where one state does not give it: mean_neighbors
    /// before the first step; catches without predators; the moments, Binder cumulant,
    /// susceptibility and autocorrelation time of the order parameter, which are statistics of a
    /// time series (collect va over steps); the flock census unless
    /// flocks=True (connected components of at least 10 boids within the perception radius).
    #[pyo3(signature = (flocks=false))]
    fn measures<'py>(&self, py: Python<'py>, flocks: bool) -> PyResult<Bound<'py, PyDict>> {
        let m = self.with(|inner| {
            let mut m = inner.sim.measures().map_err(sim_error)?;
            if flocks {
                let p = inner.sim.params().clone();
                let state = inner.sim.read_state().map_err(sim_error)?;
                let census =
                    flock_census(&state, p.perception_radius, World::of(&p), FLOCK_MIN_BOIDS);
                m = m.with_census(&census);
            }
            let predators = inner.sim.predator_count() > 0;
            Ok(MEASURES
                .iter()
                .map(|d| {
                    let id = sim::model::measures::MeasureId::by_name(d.name)
                        .expect("a measure of the table");
                    let v = match d.needs() {
                        sim::model::measures::Needs::Catches if !predators => None,
                        _ => m.get(id),
                    };
                    (d.name, v)
                })
                .collect::<Vec<_>>())
        })?;
        let d = PyDict::new(py);
        for (k, v) in m {
            d.set_item(k, v)?;
        }
        Ok(d)
    }

    /// The parameters, a mapping: `sim.params["vicsek_eta"]` reads one, `sim.params["vicsek_eta"]
    /// = 3.0` sets it (checked against its range and the model: ValueError with the message;
    /// an unknown key is a KeyError naming the nearest ones), `keys()` the model's parameters.
    #[getter]
    fn params(&self) -> PyResult<Params> {
        Ok(Params::new(Arc::clone(&self.shared)))
    }

    /// The step index: steps taken since the run began (a resumed run counts on).
    #[getter]
    fn step_index(&self) -> PyResult<u32> {
        self.with(|inner| Ok(inner.sim.step_index()))
    }

    /// The world's size (W, H) in wu.
    #[getter]
    fn world(&self) -> PyResult<(f32, f32)> {
        self.with(|inner| {
            let p = inner.sim.params();
            Ok((p.world_width, p.world_height))
        })
    }

    /// The backend's name: "cpu", "gpu" or "cpu-naive".
    #[getter]
    fn backend(&self) -> &'static str {
        self.kind.name()
    }

    /// The run's random seed.
    #[getter]
    fn seed(&self) -> PyResult<u32> {
        self.with(|inner| Ok(inner.seed))
    }

    /// The model's name: "boids", "vicsek" or "fish".
    #[getter]
    fn model(&self) -> PyResult<&'static str> {
        self.with(|inner| Ok(inner.sim.params().model.desc().name))
    }

    /// save(path)
    ///
    /// Writes the state as `boids headless --save` does (by the name's extension): a checkpoint
    /// (the state CSV with its metadata: parameters, seed, step index, obstacles, predators),
    /// whole (a temporary file renamed), which `Simulation(init=path)` and `boids headless --init
    /// path` resume bit for bit; for a name ending in .gsd, a GSD trajectory of that one frame
    /// (its boids, step and predators start a run with the scene's parameters). Raises OSError
    /// when it cannot be written.
    fn save(&self, path: PathBuf) -> PyResult<()> {
        self.with(|inner| {
            let boids = inner.sim.read_state().map_err(sim_error)?;
            let cp = checkpoint(inner, boids)?;
            sim::formats::save_state(&path, &cp).map_err(|e| {
                PyOSError::new_err(format!(
                    "cannot write state {}: {e}",
                    sim::io::show_path(&path)
                ))
            })
        })
    }

    /// render(width=800, height=600, theme="dark", boid_size=None, msaa=4) -> numpy.ndarray
    ///
    /// A picture of the current state drawn by the app's offscreen renderer (as `boids
    /// snapshot`): uint8 array of shape (height, width, 4), RGBA, row 0 at the top; the world
    /// fitted to the picture. theme: "dark" or "light"; boid_size: the boid length in wu
    /// (0.01 ..= 10000; default from the separation radius); msaa: samples per pixel (1 = off).
    /// Needs a GPU adapter (a software one such as lavapipe will do) whatever the backend:
    /// RuntimeError without one, ValueError for a size out of range (1 ..= 16384 px and the
    /// adapter's limits).
    #[pyo3(signature = (width=800, height=600, theme="dark", boid_size=None, msaa=4))]
    fn render<'py>(
        &self,
        py: Python<'py>,
        width: u32,
        height: u32,
        theme: &str,
        boid_size: Option<f32>,
        msaa: u32,
    ) -> PyResult<Bound<'py, PyArray3<u8>>> {
        let theme = match theme {
            "dark" => Theme::Dark,
            "light" => Theme::Light,
            t => {
                return Err(PyValueError::new_err(format!(
                    "theme = {t:?}: \"dark\" or \"light\""
                )))
            }
        };
        let style = PictureStyle {
            width,
            height,
            theme,
            boid_size,
            msaa,
            colour: sim::render::ColourMode::Hue,
            rasteriser: sim::render::Rasteriser::Auto,
            streaks: true,
        };
        let pixels = py.detach(|| self.with(|inner| picture(inner, &style)))?;
        let a = Array3::from_shape_vec((height as usize, width as usize, 4), pixels)
            .expect("RGBA pixels of the picture's size");
        Ok(a.into_pyarray(py))
    }

    fn __len__(&self) -> PyResult<usize> {
        self.with(|inner| Ok(inner.sim.len()))
    }

    fn __repr__(&self) -> PyResult<String> {
        self.with(|inner| {
            let p = inner.sim.params();
            Ok(format!(
                "<boids.Simulation backend={:?} model={:?} boids={} world={} × {} wu step_index={}>",
                self.kind.name(),
                p.model.desc().name,
                inner.sim.len(),
                p.world_width,
                p.world_height,
                inner.sim.step_index()
            ))
        })
    }

    /// Pickling is not supported: save() a checkpoint and pass it as init=.
    fn __reduce__(&self) -> PyResult<Bound<'_, PyTuple>> {
        Err(PyRuntimeError::new_err(
            "a Simulation cannot be pickled: save() a checkpoint and start a new one with init=",
        ))
    }
}

impl Simulation {
    fn read_boids(&self) -> PyResult<Vec<Boid>> {
        self.with(|inner| inner.sim.read_state().map_err(sim_error))
    }
}

/// The checkpoint of `inner` with `boids`.
fn checkpoint(inner: &mut Inner, boids: Vec<Boid>) -> PyResult<Checkpoint> {
    let predators = inner.sim.read_predators().map_err(sim_error)?;
    let catches_total = if predators.is_empty() {
        0
    } else {
        inner.sim.measures().map_err(sim_error)?.catches_total()
    };
    Ok(Checkpoint {
        params: inner.sim.params().clone(),
        seed: inner.seed,
        step: inner.sim.step_index(),
        obstacles: inner.obstacles.clone(),
        predators: predators.iter().map(PredatorSpec::of).collect(),
        catches_total,
        boids,
    })
}

/// The RGBA pixels of the state of `inner` drawn as `style` says.
fn picture(inner: &mut Inner, style: &PictureStyle) -> PyResult<Vec<u8>> {
    if inner.gpu.is_none() {
        inner.gpu = Some(gpu_context().map_err(|e| sim_error(SimError::Gpu(e)))?);
    }
    let ctx = inner.gpu.clone().expect("made above");
    let samples = style.check(&ctx).map_err(picture_error)?;
    let setup = Setup {
        params: inner.sim.params().clone(),
        seed: inner.seed,
        step: inner.sim.step_index(),
        boids: inner.sim.read_state().map_err(sim_error)?,
        actors: Actors {
            obstacles: inner.obstacles.clone(),
            predators: inner.sim.read_predators().map_err(sim_error)?,
        },
    };
    // The picture's own copy of the state, on the CPU backend (nothing is stepped).
    let mut view = PictureSim::new(&ctx, BackendKind::Cpu, &setup).map_err(sim_error)?;
    let img = render_sim(&mut view, style, samples).map_err(|e| sim_error(SimError::Gpu(e)))?;
    Ok(img.into_raw())
}
