//! A state read from a file, whatever its format ([`LoadedState`]: the boids, and what else the
//! file holds — a checkpoint's parameters and resume data, or a trajectory frame's step, box and
//! predators), and the physics of loading it into a run ([`LoadedState::conform`]): each model's
//! speed rule and the world check (docs/model.md §11.3). The formats that read states are in
//! `crate::formats`; none of them knows another.
//!
//! Lengths are computed in f64 (no overflow for any finite f32) and a value is changed only when
//! it is off by more than a relative [`TOLERANCE`] (1e-4; speeds also by more than [`SLACK`],
//! 1e-18), so states written by the simulation (speeds and hue lengths within float rounding of
//! their bounds) load back unchanged.

use std::path::{Path, PathBuf};

use crate::io::show_path;
use crate::model::actors::inside_world;
use crate::model::error::ParamError;
use crate::model::params::{validate_boid_count, SimParams, MAX_BOIDS};
use crate::model::predators::{Predator, PredatorSpec};
use crate::model::state::Boid;

/// Relative tolerance of the speed, hue-length and hue-speed bounds on load.
pub const TOLERANCE: f64 = 1e-4;

/// Absolute slack of the speed and hue-speed bounds on load (wu/s, 1/s): the step's own clamp
/// squares lengths in f32, so it leaves lengths below about 1e-19 alone even when the bound is 0.
pub const SLACK: f64 = 1e-18;

/// A state file that cannot be read or does not fit its run (any format: the file, and the
/// line or the frame at fault).
#[derive(Debug, thiserror::Error)]
pub enum StateFileError {
    /// The file could not be opened or read.
    #[error("cannot read state file {path}: {message}")]
    Io {
        /// The file.
        path: String,
        /// What went wrong.
        message: String,
    },
    /// A line is malformed or out of bounds.
    #[error("state file {path}, line {line}: {message}")]
    Row {
        /// The file.
        path: String,
        /// 1-based line.
        line: u64,
        /// What is wrong.
        message: String,
    },
    /// The file as a whole is wrong (e.g. fewer rows than its metadata says).
    #[error("state file {path}: {message}")]
    File {
        /// The file.
        path: String,
        /// What is wrong.
        message: String,
    },
    /// A frame of a trajectory that was read but cannot start this run (no boids, a zero hue
    /// vector, a step past u32, a box that is not the run's world).
    #[error("{kind} {path}, frame {frame}: {message}")]
    Frame {
        /// The kind of file (`GSD file`).
        kind: &'static str,
        /// The file.
        path: String,
        /// The frame (from 0).
        frame: u64,
        /// What is wrong.
        message: String,
    },
}

/// Everything needed to resume a simulation: what a checkpoint file holds.
#[derive(Clone, Debug, PartialEq)]
pub struct Checkpoint {
    /// Every parameter, world size included.
    pub params: SimParams,
    /// Seed of the counter-based random numbers.
    pub seed: u32,
    /// Steps taken (the step index of the noise stream; see
    /// [`crate::backend::Simulation::set_step_index`]).
    pub step: u32,
    /// Obstacle points (wu).
    pub obstacles: Vec<[f32; 2]>,
    /// The predators where they are at `step` (docs/model.md §18).
    pub predators: Vec<PredatorSpec>,
    /// Boids caught by hunting predators since the run began (docs/model.md §18.4); 0 when the
    /// file does not say (optional key `catches_total`).
    pub catches_total: u32,
    /// The boids, in the simulation's storage order.
    pub boids: Vec<Boid>,
}

/// The metadata block of a checkpoint file.
#[derive(Clone, Debug, PartialEq)]
pub struct StateMeta {
    /// Every parameter, world size included.
    pub params: SimParams,
    /// Seed.
    pub seed: u32,
    /// Steps taken.
    pub step: u32,
    /// Obstacle points (wu).
    pub obstacles: Vec<[f32; 2]>,
    /// Predators where they were at `step`.
    pub predators: Vec<PredatorSpec>,
    /// Boids caught since the run began (0 when the file does not say).
    pub catches_total: u32,
    /// Number of boid rows the file says it holds.
    pub boids: usize,
}

/// Values the loader changed, by kind: how many and the first boid (its index in file order).
#[derive(Clone, Debug, Default, PartialEq)]
struct Adjusted {
    count: usize,
    first: usize,
    what: String,
}

/// What a frame of a trajectory holds besides its boids, when a [`LoadedState`] was read from
/// one. Like a plain state CSV, a frame carries no parameters.
#[derive(Clone, Debug, PartialEq)]
pub struct FrameOrigin {
    /// The kind of file, for messages (`GSD file`).
    pub kind: &'static str,
    /// Where the file keeps a boid's hue vector, for messages (`log/particles/hue`).
    pub hue_field: &'static str,
    /// The frame read (from 0).
    pub frame: u64,
    /// Whole frames in the file.
    pub frames: u64,
    /// The frame's step (`configuration/step`): the run resumes at this step index.
    pub step: u32,
    /// The frame's box `[Lx, Ly]` (wu): the world the frame was written in, which the run's
    /// world must equal.
    pub world: [f32; 2],
    /// The frame's predators (particles of type `predator`), in file order; their targets are not
    /// stored.
    pub predators: Vec<Predator>,
    /// Where and why the file ends before its last frame was whole (a copy interrupted, a disk
    /// full), when it does: said as a warning ([`LoadedState::warnings`]).
    pub cut_short: Option<String>,
}

/// A state read from a file and checked as far as possible without parameters: its boids, and
/// what the file says besides (a checkpoint's metadata, a trajectory frame's origin).
#[derive(Clone, Debug)]
pub struct LoadedState {
    /// The file.
    pub path: PathBuf,
    /// The checkpoint metadata, when the file has it.
    pub meta: Option<StateMeta>,
    /// The boids, in file order.
    pub boids: Vec<Boid>,
    /// The frame, when the boids come from a trajectory's frame rather than from rows.
    pub frame: Option<FrameOrigin>,
    /// (row index, line) where the line of row `i` stops being the previous one's plus one.
    row_lines: Vec<(usize, u64)>,
    /// The line of each metadata predator's `position`.
    predator_lines: Vec<u64>,
    adjusted: Vec<Adjusted>,
}

impl LoadedState {
    /// An empty state of the file `path`, to which a reader adds the rows it reads
    /// ([`LoadedState::push_row`]).
    pub fn new(path: &std::path::Path) -> LoadedState {
        LoadedState {
            path: path.to_path_buf(),
            meta: None,
            boids: Vec::new(),
            frame: None,
            row_lines: Vec::new(),
            predator_lines: Vec::new(),
            adjusted: Vec::new(),
        }
    }

    /// Sets the checkpoint metadata read, with the file line of each predator's `position`.
    pub fn set_meta(&mut self, meta: StateMeta, predator_lines: Vec<u64>) {
        self.meta = Some(meta);
        self.predator_lines = predator_lines;
    }

    /// Adds the boid of file line `line` (lines only grow).
    pub fn push_row(&mut self, boid: Boid, line: u64) {
        let n = self.boids.len();
        if n == 0 || self.line_of(n - 1) + 1 != line {
            self.row_lines.push((n, line));
        }
        self.boids.push(boid);
    }

    /// The 1-based line of boid `i` (file order).
    pub fn line_of(&self, i: usize) -> u64 {
        let k = self.row_lines.partition_point(|(j, _)| *j <= i);
        let (j, l) = self.row_lines[k.saturating_sub(1)];
        l + (i - j) as u64
    }

    /// Where boid `i` (file order) is, for messages: `line 12` of rows, `boid 3 of frame 2` of a
    /// trajectory's frame.
    pub fn place_of(&self, i: usize) -> String {
        match &self.frame {
            Some(f) => format!("boid {i} of frame {}", f.frame),
            None => format!("line {}", self.line_of(i)),
        }
    }

    /// The error of `line` of the file.
    pub fn line_err(&self, line: u64, message: String) -> StateFileError {
        StateFileError::Row {
            path: show_path(&self.path),
            line,
            message,
        }
    }

    /// The error of boid `i` (file order): a row's line, or the boid of a trajectory's frame
    /// file.
    fn boid_err(&self, i: usize, message: String) -> StateFileError {
        match &self.frame {
            Some(f) => StateFileError::Frame {
                kind: f.kind,
                path: show_path(&self.path),
                frame: f.frame,
                message: format!("boid {i}: {message}"),
            },
            None => self.line_err(self.line_of(i), message),
        }
    }

    /// Counts a value the loader changed (`what`: the change and its bound) at boid `i`, for
    /// [`LoadedState::warnings`].
    pub fn note(&mut self, what: String, i: usize) {
        match self.adjusted.iter_mut().find(|a| a.what == what) {
            Some(a) => a.count += 1,
            None => self.adjusted.push(Adjusted {
                count: 1,
                first: i,
                what,
            }),
        }
    }

    /// Warnings for the values the loader changed (one line per kind: how many, the bound, and
    /// the first place), e.g. `state.csv: speed scaled into [min_speed, max_speed] = [40, 100]
    /// wu/s for 3 boids, first at line 5` (`first at boid 5 of frame 2` for a frame).
    pub fn warnings(&self) -> Vec<String> {
        let cut = self
            .frame
            .as_ref()
            .and_then(|f| f.cut_short.as_ref().map(|why| (f, why)))
            .map(|(f, why)| {
                format!(
                    "{}: {why}; frame {} of its {} whole frame{} is read",
                    show_path(&self.path),
                    f.frame,
                    f.frames,
                    if f.frames == 1 { "" } else { "s" }
                )
            });
        cut.into_iter()
            .chain(self.adjusted.iter().map(|a| {
                format!(
                    "{}: {} for {} boid{}, first at {}",
                    show_path(&self.path),
                    a.what,
                    a.count,
                    if a.count == 1 { "" } else { "s" },
                    self.place_of(a.first)
                )
            }))
            .collect()
    }

    /// The state of a frame of a trajectory at `path`: its `boids` (file order) and what else
    /// it holds (`origin`). Checks what a reader of rows checks: at least one
    /// boid, at most [`MAX_BOIDS`], finite values, unique ids, hue vectors not (0, 0) (normalised
    /// to length 1 when off by more than [`TOLERANCE`], with a warning). Positions and speeds are
    /// [`LoadedState::conform`]'s part, with the world's size.
    ///
    /// # Errors
    /// [`StateFileError::Frame`] naming the file, the frame and the boid at fault.
    pub fn of_frame(
        path: &Path,
        boids: Vec<Boid>,
        origin: FrameOrigin,
    ) -> Result<LoadedState, StateFileError> {
        let frame_err = |message: String| StateFileError::Frame {
            kind: origin.kind,
            path: show_path(path),
            frame: origin.frame,
            message,
        };
        if boids.is_empty() {
            return Err(frame_err(format!(
                "no boids ({} predators): a run needs at least one boid",
                origin.predators.len()
            )));
        }
        if boids.len() > MAX_BOIDS {
            return Err(frame_err(format!(
                "{} boids: more than {MAX_BOIDS} (the limit of every backend)",
                boids.len()
            )));
        }
        let mut sf = LoadedState {
            path: path.to_path_buf(),
            meta: None,
            boids,
            frame: Some(origin),
            row_lines: Vec::new(),
            predator_lines: Vec::new(),
            adjusted: Vec::new(),
        };
        for i in 0..sf.boids.len() {
            let b = sf.boids[i];
            if !b.is_finite() {
                return Err(sf.boid_err(i, format!("id {} has a value that is not finite", b.id)));
            }
            let hl = len64(b.hue);
            if hl == 0.0 {
                return Err(sf.boid_err(
                    i,
                    format!(
                        "id {}: hue vector (0, 0) has no direction ({} must not be (0, 0) for a \
                         boid)",
                        b.id,
                        sf.frame.as_ref().map_or("the hue", |f| f.hue_field)
                    ),
                ));
            }
            if (hl - 1.0).abs() > TOLERANCE {
                sf.boids[i].hue = scale64(b.hue, 1.0 / hl);
                sf.note("hue vector normalised to length 1".into(), i);
            }
        }
        if let Some(i) = first_duplicate(&sf.boids) {
            let id = sf.boids[i].id;
            return Err(sf.boid_err(i, format!("id {id} appears twice (ids must be unique)")));
        }
        Ok(sf)
    }

    /// Brings the boids within the bounds of `params` (module documentation): speeds as the
    /// model's speed rule says ([`crate::model::models::OnLoad`]: into `[min_speed, max_speed]` for
    /// boids, to v0 for Vicsek particles, kept for fish), hue velocities to at most
    /// `max_hue_speed` (each only when off by more than [`TOLERANCE`]; counted for
    /// [`LoadedState::warnings`], in the model's speed unit), and checks that every position — of
    /// the boids and of the metadata's predators — is inside the world. `source` says where the
    /// parameters came from, for the error.
    ///
    /// A frame's box must be the world itself (`W = Lx`, `H = Ly`): its positions were
    /// written in that world.
    ///
    /// # Errors
    /// [`StateFileError::Row`] for the first predator or boid outside the world;
    /// [`StateFileError::Frame`] for a frame whose box is not the world (naming both).
    pub fn conform(&mut self, params: &SimParams, source: &str) -> Result<(), StateFileError> {
        use crate::model::models::OnLoad;
        let (w, h) = (params.world_width, params.world_height);
        if let Some(f) = &self.frame {
            if f.world != [w, h] {
                return Err(StateFileError::Frame {
                    kind: f.kind,
                    path: show_path(&self.path),
                    frame: f.frame,
                    message: format!(
                        "its box is {} × {} wu but the run's world is {w} × {h} wu (world size \
                         from {source}): give the --scene, --set (and --keep-world) of the run \
                         that wrote it, which made its world",
                        f.world[0], f.world[1]
                    ),
                });
            }
        }
        if let Some(m) = &self.meta {
            if let Some((k, p)) = m
                .predators
                .iter()
                .enumerate()
                .find(|(_, p)| !inside_world(p.position, w, h))
            {
                let line = self.predator_lines.get(k).copied().unwrap_or(1);
                return Err(self.line_err(
                    line,
                    format!(
                        "metadata: {} (world size from {source})",
                        outside(&format!("predators[{k}].position"), p.position, w, h)
                    ),
                ));
            }
        }
        let model = params.model.desc();
        let (lo, hi) = params.spawn_speeds();
        let (lo, hi) = (lo as f64, hi as f64);
        let max_hue = params.max_hue_speed as f64;
        for i in 0..self.boids.len() {
            let b = self.boids[i];
            let [x, y] = b.position;
            if !((0.0..w).contains(&x) && (0.0..h).contains(&y)) {
                return Err(self.boid_err(
                    i,
                    format!(
                        "boid {} at ({x}, {y}) is outside the world [0, {w}) × [0, {h}) \
                         (world size from {source})",
                        b.id
                    ),
                ));
            }
            let speed = len64(b.velocity);
            let above = speed > hi * (1.0 + TOLERANCE) + SLACK;
            let below = speed < lo * (1.0 - TOLERANCE) - SLACK;
            let target = match model.speed.on_load {
                OnLoad::Keep => None,
                OnLoad::Clamp | OnLoad::Constant if above => Some(hi),
                OnLoad::Clamp | OnLoad::Constant if below => Some(lo),
                OnLoad::Clamp | OnLoad::Constant => None,
            };
            if let Some(s) = target {
                self.boids[i].velocity = if speed > 0.0 {
                    scale64(b.velocity, s / speed)
                } else {
                    [s as f32, 0.0]
                };
                let what = match model.speed.on_load {
                    OnLoad::Constant => format!(
                        "speed set to the {} model's constant speed {} = {} {}",
                        model.name, model.speed.range_keys, lo, model.speed.unit
                    ),
                    _ => format!(
                        "speed scaled into [{}] = [{lo}, {hi}] {} (the {} model's speed range)",
                        model.speed.range_keys, model.speed.unit, model.name
                    ),
                };
                self.note(what, i);
            }
            let hs = len64(b.hue_velocity);
            if hs > max_hue * (1.0 + TOLERANCE) + SLACK {
                self.boids[i].hue_velocity = scale64(b.hue_velocity, max_hue / hs);
                let what = format!(
                    "hue velocity scaled down to max_hue_speed = {} 1/s",
                    params.max_hue_speed
                );
                self.note(what, i);
            }
        }
        Ok(())
    }

    /// The checkpoint this file holds, when it has metadata (the boids as read; call
    /// [`LoadedState::conform`] first).
    pub fn into_checkpoint(self) -> Option<Checkpoint> {
        let m = self.meta?;
        Some(Checkpoint {
            params: m.params,
            seed: m.seed,
            step: m.step,
            obstacles: m.obstacles,
            predators: m.predators,
            catches_total: m.catches_total,
            boids: self.boids,
        })
    }
}

/// Length of an f32 vector, in f64 (no overflow).
pub fn len64(v: [f32; 2]) -> f64 {
    (v[0] as f64).hypot(v[1] as f64)
}

/// `v · k`, computed in f64.
pub fn scale64(v: [f32; 2], k: f64) -> [f32; 2] {
    [(v[0] as f64 * k) as f32, (v[1] as f64 * k) as f32]
}

/// The index of the second occurrence of the first id that appears twice (in file order of that
/// second occurrence), if any.
pub fn first_duplicate(boids: &[Boid]) -> Option<usize> {
    let mut ids: Vec<u32> = boids.iter().map(|b| b.id).collect();
    ids.sort_unstable();
    let dups: std::collections::HashSet<u32> = ids
        .windows(2)
        .filter(|w| w[0] == w[1])
        .map(|w| w[0])
        .collect();
    if dups.is_empty() {
        return None;
    }
    let mut seen = std::collections::HashSet::new();
    boids
        .iter()
        .position(|b| dups.contains(&b.id) && !seen.insert(b.id))
}

/// `KEY = [x, y] is outside the world [0, W) × [0, H)`.
pub fn outside(key: &str, p: [f32; 2], w: f32, h: f32) -> String {
    format!(
        "{key} = [{}, {}] is outside the world [0, {w}) × [0, {h})",
        p[0], p[1]
    )
}

/// What [`check_checkpoint`] refuses: a checkpoint that would not load back.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum CheckpointError {
    /// A parameter or the boid count is out of range.
    #[error(transparent)]
    Param(#[from] ParamError),
    /// An obstacle point that is not finite.
    #[error("obstacle point {index} ({x}, {y}) is not finite")]
    NonFiniteObstacle {
        /// Its index among the obstacle points.
        index: usize,
        /// The point (wu).
        x: f32,
        /// The point (wu).
        y: f32,
    },
    /// An obstacle point or a predator outside the world.
    #[error("{key} = [{x}, {y}] is outside the world [0, {width}) × [0, {height})")]
    PointOutsideWorld {
        /// The key: `obstacles[3]`, `predators[0].position`.
        key: String,
        /// The point (wu).
        x: f32,
        /// The point (wu).
        y: f32,
        /// World width (wu).
        width: f32,
        /// World height (wu).
        height: f32,
    },
    /// A boid with a value that is not finite.
    #[error("boid {} has a non-finite value: {boid:?}", boid.id)]
    NonFiniteBoid {
        /// The boid.
        boid: Boid,
    },
    /// A boid whose hue vector has no direction.
    #[error("boid {id} has the hue vector (0, 0)")]
    ZeroHue {
        /// The boid's id.
        id: u32,
    },
    /// A boid outside the world.
    #[error("boid {id} at ({x}, {y}) is outside the world [0, {width}) × [0, {height})")]
    BoidOutsideWorld {
        /// The boid's id.
        id: u32,
        /// Its position (wu).
        x: f32,
        /// Its position (wu).
        y: f32,
        /// World width (wu).
        width: f32,
        /// World height (wu).
        height: f32,
    },
    /// Two boids with the same id (ids seed the random numbers).
    #[error("id {id} appears twice")]
    DuplicateId {
        /// The id.
        id: u32,
    },
}

/// Checks that `cp` will load back: valid parameters, 1 ..= [`MAX_BOIDS`] boids with unique ids,
/// finite values, non-zero hue vectors, positions inside the world, finite obstacles and
/// predators inside the world.
///
/// # Errors
/// The first fault found, naming the boid id, obstacle or predator.
pub fn check_checkpoint(cp: &Checkpoint) -> Result<(), CheckpointError> {
    cp.params.validate()?;
    validate_boid_count(cp.boids.len())?;
    if let Some((index, o)) = cp
        .obstacles
        .iter()
        .enumerate()
        .find(|(_, o)| !(o[0].is_finite() && o[1].is_finite()))
    {
        return Err(CheckpointError::NonFiniteObstacle {
            index,
            x: o[0],
            y: o[1],
        });
    }
    let (width, height) = (cp.params.world_width, cp.params.world_height);
    let point_outside = |key: String, [x, y]: [f32; 2]| CheckpointError::PointOutsideWorld {
        key,
        x,
        y,
        width,
        height,
    };
    if let Some((k, o)) = cp
        .obstacles
        .iter()
        .enumerate()
        .find(|(_, o)| !inside_world(**o, width, height))
    {
        return Err(point_outside(format!("obstacles[{k}]"), *o));
    }
    if let Some((k, p)) = cp
        .predators
        .iter()
        .enumerate()
        .find(|(_, p)| !inside_world(p.position, width, height))
    {
        return Err(point_outside(
            format!("predators[{k}].position"),
            p.position,
        ));
    }
    for b in &cp.boids {
        if !b.is_finite() {
            return Err(CheckpointError::NonFiniteBoid { boid: *b });
        }
        if b.hue == [0.0, 0.0] {
            return Err(CheckpointError::ZeroHue { id: b.id });
        }
        let [x, y] = b.position;
        if !((0.0..width).contains(&x) && (0.0..height).contains(&y)) {
            return Err(CheckpointError::BoidOutsideWorld {
                id: b.id,
                x,
                y,
                width,
                height,
            });
        }
    }
    if let Some(i) = first_duplicate(&cp.boids) {
        return Err(CheckpointError::DuplicateId { id: cp.boids[i].id });
    }
    Ok(())
}
