//! What a run starts from, resolved once for every command ([`resolve`]): the parameters, the boid
//! count, the seed, the step index, the initial boids and the actors, from built-in defaults <
//! scene < checkpoint < command line ([`PRECEDENCE`]).

use std::path::{Path, PathBuf};

use crate::formats::read_state;
use crate::formats::scene::Scene;
use crate::io::show_path;
use crate::model::loaded::LoadedState;
use crate::model::param_table::decimal;
use crate::model::{validate_boid_count, Actors, Setup, SimParams, DEFAULT_DENSITY};
use crate::run::error::RunError;

/// How the sources of a run combine (`boids headless --help` prints it).
pub const PRECEDENCE: &str = "\
Where a run's setup comes from: built-in defaults < scene < checkpoint < command line.
- The scene (--scene) replaces the defaults: parameters, boid count, seed, obstacles, predators.
- A checkpoint (--init FILE written by --save or the app's script `state`) replaces the scene:
  it resumes as saved (parameters, world size, seed, step index, obstacles, predators, boids),
  so a scene given with it is not used (a warning says so). A plain state CSV (no metadata)
  gives only the boids: everything else comes from the scene or the defaults.
- A frame of a GSD trajectory (--init FILE.gsd for its last frame, FILE.gsd:FRAME for frame
  FRAME, from 0) gives the boids, the step index and the predators (they replace the scene's);
  like a plain state CSV it holds no parameters, and the run's world must be the frame's box.
  A scene's world is scaled to a frame's or a plain state CSV's count as to --boids below.
- The command line replaces everything: --seed, --boids (with a state file it must equal the
  file's count), then each --set KEY=VALUE in order.
Unless a checkpoint or the scene fixes the world (world_width or world_height written), the
world is sized to the boid count at the default density (0.01 boids/wu²). When the scene fixes
the world and gives a count, a --boids that differs keeps the scene's density: the world's sides,
obstacle points and predator positions are scaled by √(N/N_scene) (--keep-world keeps the world
as written, and the density changes). A --set of the world's size wins over both.";

pub use crate::model::spawn::Spawn;

/// The files of a run, read once (a sweep resolves every point from the same ones).
#[derive(Clone, Debug, Default)]
pub struct Inputs {
    /// The scene, when one is given.
    pub scene: Option<Scene>,
    /// The state file (a checkpoint, a plain state CSV or a frame of a GSD trajectory), when one
    /// is given.
    pub state: Option<LoadedState>,
}

impl Inputs {
    /// Reads the scene and the state file, in its format (`crate::formats::read_state`): a frame
    /// of a GSD trajectory when `init` ends in `.gsd` (its last frame) or is `FILE.gsd:FRAME`
    /// (frame FRAME, from 0), else a state CSV.
    ///
    /// # Errors
    /// [`RunError::Scene`] or [`RunError::State`] naming the file, line (frame) and key at fault.
    pub fn load(scene: Option<&Path>, init: Option<&Path>) -> Result<Inputs, RunError> {
        Ok(Inputs {
            scene: scene.map(Scene::load).transpose()?,
            state: init.map(read_state).transpose()?,
        })
    }

    /// Only a scene (already parsed).
    pub fn of_scene(scene: Option<&Scene>) -> Inputs {
        Inputs {
            scene: scene.cloned(),
            state: None,
        }
    }
}

/// The colour mode a scene's `[view]` asks for (`None` when it names none).
///
/// # Errors
/// [`RunError::Scene`] naming the file, line, value and the allowed names when it is not one.
pub fn scene_colour(scene: &Scene) -> Result<Option<crate::render::ColourMode>, RunError> {
    let Some(name) = &scene.view.colour else {
        return Ok(None);
    };
    match crate::render::ColourMode::parse(name) {
        Some(m) => Ok(Some(m)),
        None => {
            let origin = scene.origin.clone().unwrap_or_default();
            Err(RunError::Scene(crate::formats::scene::SceneError::Parse {
                path: origin.path,
                line: origin.view_colour_line,
                column: 1,
                message: format!(
                    "[view] colour = \"{}\" is not a colour mode: allowed {}",
                    crate::io::clip(name),
                    crate::render::ColourMode::names()
                ),
            }))
        }
    }
}

/// One `--set KEY=VALUE` (parsed by [`crate::run::args::parse_set`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Set {
    /// The parameter's key.
    pub key: String,
    /// Its value, as written (a number, or a name such as `walls`).
    pub value: String,
}

/// What the command line sets, over the files.
#[derive(Clone, Copy, Debug, Default)]
pub struct Overrides<'a> {
    /// `--boids`.
    pub boids: Option<usize>,
    /// `--seed`.
    pub seed: Option<u32>,
    /// `--set KEY=VALUE`, in order.
    pub sets: &'a [Set],
    /// `--keep-world`: a scene's fixed world is kept as written when `--boids` differs from its
    /// count (else it is scaled to keep the scene's density).
    pub keep_world: bool,
}

/// What the command itself decides when nothing else does.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Defaults {
    /// Boid count.
    pub boids: usize,
    /// Width / height of a world sized to the count (the app's window; 1 elsewhere).
    pub aspect: f32,
    /// How boids are spawned.
    pub spawn: Spawn,
    /// Smallest side of a world sized to the count (the app: 400 wu; 0 = none).
    pub min_world_side: f32,
}

impl Defaults {
    /// The defaults of the commands without a window: `boids` boids in a square world, spawned
    /// uniformly.
    pub fn headless(boids: usize) -> Defaults {
        Defaults {
            boids,
            aspect: 1.0,
            spawn: Spawn::Uniform,
            min_world_side: 0.0,
        }
    }
}

/// A resolved run.
#[derive(Clone, Debug)]
pub struct RunSpec {
    /// Parameters (validated), seed, step index, initial boids and actors.
    pub setup: Setup,
    /// Boids caught before the run (a checkpoint's running total).
    pub catches_total: u32,
    /// How the boids were made (`None`: read from a state file).
    pub spawn: Option<Spawn>,
    /// Where the world's size came from, for messages.
    pub world_from: String,
    /// What the loader changed in a state file, and sources not used.
    pub warnings: Vec<String>,
}

/// Resolves a run from its files `inputs`, the command line's `o` and the command's defaults `d`
/// ([`PRECEDENCE`]).
///
/// # Errors
/// [`RunError`]: a `--boids` that disagrees with a state file's count, a `--set` that cannot be
/// applied (with the nearest known keys, or the model's parameters), a parameter or count out of
/// range, a scene point outside the world, a state file that does not fit the world, `keep_world`
/// without a scene.
pub fn resolve(inputs: &Inputs, o: &Overrides<'_>, d: &Defaults) -> Result<RunSpec, RunError> {
    let scene = inputs.scene.as_ref();
    let file = inputs.state.as_ref();
    let meta = file.and_then(|f| f.meta.as_ref());
    let frame = file.and_then(|f| f.frame.as_ref());
    let mut warnings = Vec::new();
    if o.keep_world && scene.is_none() {
        // The command line refuses it through clap; Python's keep_world=True comes here.
        return Err(RunError::Conflict(
            "keep_world (--keep-world) keeps a scene's fixed world, and no scene was given: \
             give a scene, or leave keep_world out"
                .into(),
        ));
    }
    let scene_name = || {
        scene
            .and_then(|s| s.origin.as_ref())
            .map_or("the scene".into(), |o| show_path(&o.path))
    };
    if let (Some(_), Some(f)) = (meta, scene) {
        let _ = f;
        warnings.push(format!(
            "{}: not used; the checkpoint {} holds every parameter (use --set to change one)",
            scene_name(),
            show_path(&file.expect("a checkpoint").path)
        ));
    }
    if let Some(s) = scene {
        scene_colour(s)?;
    }
    let file_boids = file.map(|f| f.boids.len());
    if let (Some(n), Some(k), Some(f)) = (o.boids, file_boids, file) {
        if n != k {
            return Err(RunError::Conflict(format!(
                "--boids {n} disagrees with the {k} boids of {}: leave out --boids to use the file's",
                show_path(&f.path)
            )));
        }
    }
    let n = o
        .boids
        .or(file_boids)
        .or(scene.and_then(|s| s.boids))
        .unwrap_or(d.boids);
    // The count first: 0 boids would otherwise size a world of no area and be blamed on it.
    validate_boid_count(n)?;
    let seed = o
        .seed
        .or(meta.map(|m| m.seed))
        .or(scene.and_then(|s| s.seed))
        .unwrap_or(1);
    // A scene that fixes its world and gives a count keeps its density when --boids (or a GSD
    // frame's count) differs, as in the run that wrote the frame.
    let scaled;
    let mut scaled_from = None;
    // The count the scene is scaled to: --boids, or a state file's own count (a GSD frame or a
    // plain state CSV alike: a checkpoint holds its own world).
    let counted = match (file, meta) {
        (None, _) => o.boids,
        (Some(_), None) => Some(n),
        (Some(_), Some(_)) => None,
    };
    let scene_world = scene.map(|s| (s.params.world_width, s.params.world_height));
    let scene = match (meta, scene, counted) {
        (None, Some(s), Some(n)) if s.world_is_fixed() && !o.keep_world => {
            match s.boids.filter(|&k| k != n && k > 0) {
                Some(k) => {
                    scaled = s.scaled((n as f64 / k as f64).sqrt() as f32);
                    scaled_from = Some(k);
                    Some(&scaled)
                }
                None => Some(s),
            }
        }
        _ => scene,
    };
    let (mut params, mut world_from, mut actors) = match (meta, scene) {
        (Some(m), _) => (
            m.params.clone(),
            format!("the metadata of {}", show_path(&file.expect("a file").path)),
            Actors {
                obstacles: m.obstacles.clone(),
                predators: m.predators.iter().map(|p| p.predator()).collect(),
            },
        ),
        (None, Some(s)) => (
            s.params.clone(),
            match scaled_from {
                Some(k) => format!(
                    "the scene {}, scaled by √({n}/{k}) to keep its density",
                    scene_name()
                ),
                None => format!("the scene {}", scene_name()),
            },
            s.actors(),
        ),
        (None, None) => (SimParams::default(), String::new(), Actors::default()),
    };
    let fixed = meta.is_some() || scene.is_some_and(|s| s.world_is_fixed());
    if !fixed {
        params = params.with_world_for_aspect(n, DEFAULT_DENSITY, d.aspect);
        if d.min_world_side > 0.0 {
            raise_sides(&mut params, d.aspect, d.min_world_side);
        }
        let boids = if n == 1 { "boid" } else { "boids" };
        // A few boids get the smallest world (a few perception radii across, or the app's), not
        // a world of the default density.
        let density = n as f32 / (params.world_width * params.world_height);
        world_from = if density < DEFAULT_DENSITY * 0.999 {
            format!(
                "the smallest world: the default density, {DEFAULT_DENSITY} boids/wu², would give \
                 {n} {boids} a smaller one"
            )
        } else {
            format!("the default density for {n} {boids}")
        };
    }
    for s in o.sets {
        params.set(&s.key, &s.value).map_err(|e| set_error(s, e))?;
        if s.key == "world_width" || s.key == "world_height" {
            world_from = "--set".into();
        }
    }
    // A setting the model or the neighbourhood does not use is named first: its value may also
    // make the whole invalid (vectorial noise with the boids model's η), which would hide it.
    for s in o.sets {
        params.check_used(&s.key).map_err(|e| set_error(s, e))?;
    }
    params.validate().map_err(|e| {
        match (o.sets.iter().rfind(|s| s.key == e.key()), scaled_from) {
            (Some(s), _) => set_error(s, e),
            // A world the density scaling pushed out of range says so, and how to keep it.
            (None, Some(k)) if matches!(e.key(), "world_width" | "world_height") => {
                let (w, h) = scene_world.unwrap_or_default();
                RunError::Conflict(format!(
                    "{e}: the scene's {} × {} wu world for {k} boids, scaled by √({n}/{k}) to keep \
                     its density at {n} boid{}; --keep-world keeps the scene's world",
                    decimal(w),
                    decimal(h),
                    if n == 1 { "" } else { "s" }
                ))
            }
            (None, _) => RunError::Param(e),
        }
    })?;
    if let (None, Some(s)) = (meta, scene) {
        s.check_inside(&params)?;
    }
    if let Some(fr) = frame {
        // A frame's predators are where they were at its step: they replace the scene's.
        if !actors.predators.is_empty() {
            warnings.push(format!(
                "{}: its {} predators are not used; frame {} of {} has {}",
                scene_name(),
                actors.predators.len(),
                fr.frame,
                show_path(&file.expect("a frame's file").path),
                fr.predators.len()
            ));
        }
        actors.predators = fr.predators.clone();
    }
    let (boids, spawn) = match file {
        Some(f) => {
            let mut f = f.clone();
            f.conform(&params, &world_from)?;
            warnings.extend(f.warnings());
            (f.boids, None)
        }
        None => (d.spawn.boids(seed, n, &params), Some(d.spawn)),
    };
    Ok(RunSpec {
        setup: Setup {
            params,
            seed,
            step: meta.map(|m| m.step).or(frame.map(|f| f.step)).unwrap_or(0),
            boids,
            actors,
        },
        catches_total: meta.map_or(0, |m| m.catches_total),
        spawn,
        world_from,
        warnings,
    })
}

/// The setup of a scene alone (or the defaults) with `boids` and `seed` over it, spawned
/// uniformly, the world sized to the count with aspect `aspect` unless the scene fixes it: what
/// [`resolve`] gives without a state file or settings.
///
/// # Errors
/// As [`resolve`].
pub fn scene_setup(
    scene: Option<&Scene>,
    boids: Option<usize>,
    seed: Option<u32>,
    default_boids: usize,
    aspect: f32,
) -> Result<Setup, RunError> {
    let d = Defaults {
        aspect,
        ..Defaults::headless(default_boids)
    };
    let o = Overrides {
        boids,
        seed,
        sets: &[],
        keep_world: false,
    };
    Ok(resolve(&Inputs::of_scene(scene), &o, &d)?.setup)
}

/// Applies `sets` to `params` in order, then checks that the resulting model uses each key (so
/// `--set model=vicsek --set vicsek_eta=1` works in either order). The ranges are not checked
/// here: call [`SimParams::validate`] after.
///
/// # Errors
/// [`RunError::Set`]: an unknown key (with the nearest known ones), a value of the wrong kind, or
/// a key the model does not use (naming the model's parameters).
pub fn apply_sets(params: &mut SimParams, sets: &[Set]) -> Result<(), RunError> {
    for s in sets {
        params.set(&s.key, &s.value).map_err(|e| set_error(s, e))?;
    }
    for s in sets {
        params.check_used(&s.key).map_err(|e| set_error(s, e))?;
    }
    Ok(())
}

/// A `--set` error naming the setting.
fn set_error(s: &Set, source: crate::model::ParamError) -> RunError {
    RunError::Set {
        key: crate::io::clip(&s.key),
        value: crate::io::clip(&s.value),
        source,
    }
}

/// Raises a world's sides to at least `min` × (`aspect`, 1) (or (1, 1/`aspect`) for a tall one):
/// the app's smallest world, so a window of a few boids is not a few boid lengths across.
fn raise_sides(params: &mut SimParams, aspect: f32, min: f32) {
    if params.world_width.min(params.world_height) >= min {
        return;
    }
    let aspect = if aspect.is_finite() && aspect > 0.0 {
        aspect.clamp(0.1, 10.0)
    } else {
        1.0
    };
    let (w, h) = if aspect >= 1.0 {
        (min * aspect, min)
    } else {
        (min, min / aspect)
    };
    params.world_width = params.world_width.max(w);
    params.world_height = params.world_height.max(h);
}

/// A path for a message (`-` when absent).
pub fn shown(p: Option<&PathBuf>) -> String {
    p.map_or_else(|| "-".into(), |p| show_path(p))
}
