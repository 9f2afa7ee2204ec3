//! Boids and predators as trajectories in GSD files of the HOOMD schema, as read by HOOMD-blue,
//! OVITO, freud, VMD's GSD plugin and the `gsd` Python package: [`TrajectoryWriter`],
//! [`TrajectoryReader`], [`TrajectoryFrame`], and a frame as the initial state of a run
//! (`--init FILE.gsd[:FRAME]`: [`frame_ref`], [`read_frame_state`]). The GSD file layer and the
//! HOOMD schema's rules are the workspace's `gsd` crate (`crates/gsd`), which knows nothing of
//! boids; every error is its [`GsdError`], naming the file and what is wrong.
//!
//! # Frames written
//!
//! Frame 0 holds every chunk below. A later frame leaves out, as the HOOMD schema allows, the
//! chunks equal to frame 0's — `configuration/dimensions` always; `particles/types` and
//! `particles/typeid` while the counts of boids and predators are frame 0's; both id chunks while
//! the ids are frame 0's (the same boids, in id order); `log/particles/predator_kind` while the
//! kinds are — and readers (the `gsd` package, HOOMD, OVITO, [`TrajectoryReader`]) take them from
//! frame 0. Frames appended to a file written before ([`TrajectoryWriter::append`]) hold every
//! chunk. `log/boids/run` is in frame 0 only. N = boids + predators; the boids come first,
//! **in id order** (row i of every frame is the same boid, HOOMD's row = particle tag, the way
//! freud, OVITO and MDAnalysis pair rows across frames), then the predators. W × H is the world,
//! `[0, W) × [0, H)` in the simulation's coordinates.
//!
//! | chunk | type | shape | content |
//! |---|---|---|---|
//! | `configuration/step` | uint64 | 1 × 1 | simulation step |
//! | `configuration/dimensions` | uint8 | 1 × 1 | 2 |
//! | `configuration/box` | float32 | 6 × 1 | `[W, H, 0, 0, 0, 0]`: Lx, Ly, Lz = 0 (a 2D box, as HOOMD ≥ 3, `gsd` and freud take it), tilts xy, xz, yz |
//! | `particles/N` | uint32 | 1 × 1 | N |
//! | `particles/types` | int8 | NT × M | `boid`, and `predator` when the frame has predators: 0-terminated, M = longest + 1 |
//! | `particles/typeid` | uint32 | N × 1 | 0 for a boid, 1 for a predator |
//! | `particles/position` | float32 | N × 3 | `(x − W/2, y − H/2, 0)` (wu): the box centred on the origin, as HOOMD expects |
//! | `particles/orientation` | float32 | N × 4 | `(cos θ/2, 0, 0, sin θ/2)`, θ = atan2(vy, vx): the heading as a rotation about z (θ = 0 at rest) |
//! | `particles/velocity` | float32 | N × 3 | `(vx, vy, 0)`: wu/s (wu per step in the Vicsek model, whose time unit is the step) |
//! | `particles/image` | int32 | N × 3 | `(ix, iy, 0)`: the image counts (docs/model.md §2.4): `position + image · (W, H, 0)` is the unwrapped path; 0 for predators; absent in older files (read as 0; `boids analyse` refuses msd on such a file) |
//! | `log/particles/id` | uint32 | N × 1 | boid id; the k-th predator (from 0) has `u32::MAX − k` ([`predator_id`]) |
//! | `log/particles/Particle Identifier` | uint32 | N × 1 | the same ids, under the name of OVITO's particle-identifier property |
//! | `log/particles/hue` | float32 | N × 2 | hue vector (unit); `(0, 0)` for predators |
//! | `log/particles/hue_velocity` | float32 | N × 2 | hue velocity (1/s); `(0, 0)` for predators |
//! | `log/particles/world_position` | float32 | N × 2 | `(x, y)` (wu), uncentred |
//! | `log/particles/predator_kind` | uint8 | N × 1 | 0 straight, 1 hunting ([`crate::model::PredatorKind::code`]); 0 for boids |
//! | `log/boids/run` | int8 | 1 × L | frame 0 only, when the writer was given it: the run as JSON (program, version, seed, `--every`, every parameter) |
//!
//! The header names the application `boids <version>`, the schema `hoomd` and its version 1.4.
//!
//! **Why `world_position`.** Centring rounds: `x − W/2` in float32 loses the low bits of an `x`
//! below W/4 (float32 is finer near 0 than near W/2), so the centred position alone cannot give
//! the simulation's position back bit for bit. The reader takes `world_position` when it is the
//! position the centred one was computed from (`world_position − W/2 == position`, in float32) and
//! otherwise `position + W/2` — so a file whose `particles/position` was edited (e.g. with the
//! `gsd` package) is read as edited.
//!
//! **Size.** Frame 0 of N particles takes 89·N bytes of data (position 12, orientation 16,
//! velocity 12, image 12, typeid 4, id 4, particle identifier 4, hue 8, hue velocity 8, world
//! position 8, predator kind 1), 42 bytes of small chunks (55 with predators) and 16 index entries
//! of 32 bytes; a later frame of the same boids and predators 76·N bytes (no typeid, ids or
//! predator kind), 36 of small chunks (step, box, N) and 10 index entries. The entries go to room
//! set aside in the index. When the index is full it is written anew, twice as large, at the end
//! of the file; these copies add less than 4 × 32 bytes per entry over the file (each copy twice
//! the one before, the last less than twice the entries). Frame 0 also holds the run's
//! description (a few kB of JSON).
//!
//! # Frames read
//!
//! [`TrajectoryReader`] reads files of the `hoomd` schema 1.x and 2.x (2.0 is what the `gsd`
//! package writes since its version 4, allowing float64 values) from any writer (the `gsd`
//! package, HOOMD-blue), following the schema's rule for chunks left out: a chunk absent from
//! frame i takes frame 0's value (for per-particle chunks only when frame 0 has as many rows),
//! else the schema default: step 0, dimensions 3, box `[1, 1, 1, 0, 0, 0]`, N 0, types `["A"]`,
//! type id, position and velocity 0. Then:
//!
//! - `configuration/dimensions` must be 2, the box rectangular (tilts 0) with Lx, Ly finite and
//!   positive: W = Lx, H = Ly. Lz and the z components are ignored; so is `orientation`.
//! - Each particle's type must be `boid` or `predator`, in any order, with at most
//!   [`crate::model::MAX_BOIDS`] boids and [`crate::model::MAX_PREDATORS`] predators.
//! - Boids need `log/particles/hue` and `log/particles/hue_velocity`; `log/particles/id` is
//!   optional (by default a boid's id is its rank among the frame's boids) and ids must be
//!   unique; `log/particles/predator_kind` is optional (straight by default); predators' ids,
//!   hues and hue velocities are not read.
//! - Floats may be float32 or float64 (rounded to float32), integers of any integer type that
//!   holds the value.
//! - Positions must lie in the box, `−W/2 ≤ x < W/2` (HOOMD's rule), and every value must be
//!   finite. A position read as `x + W/2` that rounds up to W becomes the float just below W.
//! - Speeds and hue lengths are not checked against the parameters; that is the caller's part,
//!   as for state files ([`crate::model::loaded`]).
//!
//! A run killed while writing leaves every frame it ended. A file cut short (a copy interrupted,
//! a disk full) reads up to its last whole frame, [`TrajectoryReader::cut_short`] saying where it
//! ends — unless the cut falls before the index in use, which loses every frame (see
//! the `gsd` crate's container). A file that is not GSD, of another file-layer version or another schema, or
//! that breaks a rule above, gives a [`GsdError`] naming the file, the frame and the chunk. No
//! input makes the reader panic.

use std::path::{Path, PathBuf};

use gsd::container::{GsdReader, GsdWriter};
use gsd::hoomd::{
    check_schema, heading_quaternion, HoomdReader, BOX, DEFAULT_BOX, DIMENSIONS, IMAGE, N,
    ORIENTATION, POSITION, SCHEMA, SCHEMA_VERSION, STEP, TYPEID, TYPES, VELOCITY,
};
pub use gsd::GsdError;

use crate::formats::desc::{ReadError, StateFormat};
use crate::io::{clip, show_path};
use crate::model::loaded::{
    check_checkpoint, Checkpoint, FrameOrigin, LoadedState, StateFileError,
};
use crate::model::params::MAX_BOIDS;
use crate::model::predators::{Predator, PredatorKind, MAX_PREDATORS};
use crate::model::state::Boid;

/// The application, as schema errors name it.
const READER: &str = "boids";

/// The GSD trajectory's entry in the table of state formats: it reads a frame of a file whose
/// name ends in `.gsd` or that starts with GSD's magic number, `FILE.gsd:FRAME` for frame FRAME
/// ([`frame_ref`]), and writes `.gsd` as a trajectory of one frame ([`save_frame`]).
pub const FORMAT: StateFormat = StateFormat {
    name: "GSD trajectory",
    extensions: &["gsd"],
    read: |path| match frame_ref(path) {
        Err(e) => Some(Err(e.into())),
        Ok(None) => None,
        Ok(Some(r)) => Some(read_frame_state(&r)),
    },
    write: save_frame,
};

/// Writes the state `cp` to `path` as a GSD trajectory of one frame (step, box, boids, predators;
/// the seed, parameters, obstacles and catches in `log/boids/run`), whole: the frame is made in
/// a temporary file, then written as every output is ([`crate::io::write_atomic`]: a temporary
/// name beside the target, renamed over it). `--init FILE.gsd` starts a run from it as from any
/// frame: the boids, the step and the predators (the parameters come from the scene, the
/// defaults and `--set`).
///
/// # Errors
/// [`std::io::ErrorKind::InvalidInput`] naming the path and a state that would not load back
/// ([`check_checkpoint`]); the I/O error.
pub fn save_frame(path: &Path, cp: &Checkpoint) -> std::io::Result<()> {
    check_checkpoint(cp).map_err(|m| {
        std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!(
                "{}: not saved, it would not load back: {m}",
                show_path(path)
            ),
        )
    })?;
    let run = serde_json::json!({
        "program": "boids",
        "version": env!("CARGO_PKG_VERSION"),
        "seed": cp.seed,
        "step": cp.step,
        "catches_total": cp.catches_total,
        "obstacles": cp.obstacles,
        "params": cp.params,
    });
    let predators: Vec<Predator> = cp.predators.iter().map(|p| p.predator()).collect();
    let world = [cp.params.world_width, cp.params.world_height];
    let temp = tempfile::Builder::new().suffix(".gsd").tempfile()?;
    TrajectoryWriter::create(temp.path())
        .and_then(|mut w| {
            w.set_run(run.to_string());
            w.write_frame(cp.step as u64, world, &cp.boids, &predators)
        })
        .map_err(|e| std::io::Error::other(e.to_string()))?;
    crate::io::write_atomic(path, &std::fs::read(temp.path())?)
}

/// The particle type of boids (type id 0 in files written here).
pub const BOID_TYPE: &str = "boid";
/// The particle type of predators (type id 1 in files written here).
pub const PREDATOR_TYPE: &str = "predator";

/// `log/particles/id`: uint32, N × 1.
pub const ID: &str = "log/particles/id";
/// `log/particles/Particle Identifier`: uint32, N × 1, the ids again under the name of OVITO's
/// particle-identifier property (OVITO reads a `log/particles/NAME` chunk as the property NAME).
pub const PARTICLE_IDENTIFIER: &str = "log/particles/Particle Identifier";
/// `log/boids/run`: int8, 1 × L, a JSON text describing the run (program, version, seed,
/// parameters, the steps between frames), in frame 0 only.
pub const RUN: &str = "log/boids/run";
/// `log/particles/hue`: float32, N × 2.
pub const HUE: &str = "log/particles/hue";
/// `log/particles/hue_velocity`: float32, N × 2.
pub const HUE_VELOCITY: &str = "log/particles/hue_velocity";
/// `log/particles/world_position`: float32, N × 2, in the world's own coordinates.
pub const WORLD_POSITION: &str = "log/particles/world_position";
/// `log/particles/predator_kind`: uint8, N × 1.
pub const PREDATOR_KIND: &str = "log/particles/predator_kind";

/// The id written for the `k`-th predator (`u32::MAX − k`): predators have no boid id, and these
/// never meet a boid's (ids stay below [`MAX_BOIDS`]).
pub fn predator_id(k: usize) -> u32 {
    u32::MAX - k as u32
}

/// One frame: what [`TrajectoryWriter::write_frame`] takes and [`TrajectoryReader::read_frame`]
/// gives back.
#[derive(Clone, Debug, PartialEq)]
pub struct TrajectoryFrame {
    /// Simulation step.
    pub step: u64,
    /// World size `[W, H]` (wu): the box's `Lx`, `Ly`.
    pub world: [f32; 2],
    /// The boids, in file order, positions in `[0, W) × [0, H)`.
    pub boids: Vec<Boid>,
    /// The predators, in file order (their `target` is
    /// [`NO_TARGET`](crate::model::predators::NO_TARGET): it is not stored).
    pub predators: Vec<Predator>,
}

/// Writes boids and predators as HOOMD frames appended to a GSD file.
#[derive(Debug)]
pub struct TrajectoryWriter {
    gsd: GsdWriter,
    /// The run's description, written into the next frame 0 ([`TrajectoryWriter::set_run`]).
    run: Option<String>,
    /// What this writer wrote in frame 0 of the chunks that rarely change; a later frame leaves
    /// out those equal to it (readers take them from frame 0). `None` when appending to a file
    /// written before: every chunk is then written.
    first: Option<FirstFrame>,
}

/// The chunks of frame 0 that later frames leave out when they equal them.
#[derive(Debug)]
struct FirstFrame {
    /// Boids and predators: `particles/types` and `particles/typeid` follow from them.
    counts: (usize, usize),
    /// `log/particles/id` and `log/particles/Particle Identifier`.
    ids: Vec<u32>,
    /// `log/particles/predator_kind`.
    kinds: Vec<u8>,
}

impl TrajectoryWriter {
    /// Creates (or empties) `path` as a HOOMD-schema GSD file with no frame.
    ///
    /// # Errors
    /// [`GsdError::Io`] when it cannot be created, locked or written.
    pub fn create(path: &Path) -> Result<TrajectoryWriter, GsdError> {
        let application = format!("boids {}", env!("CARGO_PKG_VERSION"));
        let gsd = GsdWriter::create(path, &application, SCHEMA, SCHEMA_VERSION)?;
        Ok(TrajectoryWriter {
            gsd,
            run: None,
            first: None,
        })
    }

    /// Opens the existing HOOMD-schema file `path` to write frames after its last one.
    ///
    /// # Errors
    /// As [`GsdWriter::append`]; [`GsdError::Schema`] when it is not a `hoomd` 1.x file.
    pub fn append(path: &Path) -> Result<TrajectoryWriter, GsdError> {
        let gsd = GsdWriter::append(path)?;
        check_schema(
            gsd.shown_path(),
            &gsd.header().schema,
            gsd.header().schema_version,
            READER,
        )?;
        Ok(TrajectoryWriter {
            gsd,
            run: None,
            first: None,
        })
    }

    /// The description of the run (a JSON text: program, version, seed, parameters), written as
    /// the `log/boids/run` chunk of frame 0 when frame 0 is still to be written (an appended
    /// file keeps the description it has).
    pub fn set_run(&mut self, json: String) {
        self.run = Some(json);
    }

    /// Whole frames in the file (the number the next frame gets).
    pub fn frames(&self) -> u64 {
        self.gsd.frames()
    }

    /// The file's size in bytes after the last frame.
    pub fn file_len(&self) -> u64 {
        self.gsd.file_len()
    }

    /// The underlying GSD writer.
    pub fn gsd(&self) -> &GsdWriter {
        &self.gsd
    }

    fn error(&self, message: String) -> GsdError {
        GsdError::Write {
            path: self.gsd.shown_path().to_string(),
            message,
        }
    }

    /// Appends one frame — the chunks of the table in the module docs, leaving out in frames after
    /// 0 those equal to frame 0's (dimensions, types and type ids, ids, predator kinds), which
    /// readers take from frame 0 — and makes it durable before it becomes visible (see
    /// [`GsdWriter::end_frame`]). `world` is `[W, H]` (wu). The
    /// boids are written in id order whatever order they come in (HOOMD's convention: row i of
    /// every frame is the same particle, as freud, OVITO and MDAnalysis pair them), the predators
    /// after them.
    ///
    /// # Errors
    /// [`GsdError::Write`] for a world size that is not finite and positive, more than
    /// [`MAX_BOIDS`] boids or [`MAX_PREDATORS`] predators, or a boid or predator with a
    /// non-finite value or a position outside `[0, W) × [0, H)` (nothing of the frame is then
    /// written); [`GsdError::Io`] when writing fails.
    pub fn write_frame(
        &mut self,
        step: u64,
        world: [f32; 2],
        boids: &[Boid],
        predators: &[Predator],
    ) -> Result<(), GsdError> {
        let [w, h] = world;
        if !(w.is_finite() && h.is_finite() && w > 0.0 && h > 0.0) {
            return Err(self.error(format!("world size {w} × {h} is not finite and positive")));
        }
        if boids.len() > MAX_BOIDS || predators.len() > MAX_PREDATORS {
            return Err(self.error(format!(
                "{} boids and {} predators: at most {MAX_BOIDS} and {MAX_PREDATORS}",
                boids.len(),
                predators.len()
            )));
        }
        let inside = |p: [f32; 2]| p[0] >= 0.0 && p[0] < w && p[1] >= 0.0 && p[1] < h;
        if let Some((i, b)) = boids
            .iter()
            .enumerate()
            .find(|(_, b)| !b.is_finite() || !inside(b.position))
        {
            return Err(self.error(format!(
                "frame {}: boid {i} (id {}) has position {:?}, velocity {:?}, hue {:?}, hue \
                 velocity {:?}: not finite or outside the world [0, {w}) × [0, {h})",
                self.gsd.frames(),
                b.id,
                b.position,
                b.velocity,
                b.hue,
                b.hue_velocity
            )));
        }
        if let Some((i, p)) = predators
            .iter()
            .enumerate()
            .find(|(_, p)| !p.is_finite() || !inside(p.position))
        {
            return Err(self.error(format!(
                "frame {}: predator {i} has position {:?}, velocity {:?}: not finite or outside \
                 the world [0, {w}) × [0, {h})",
                self.gsd.frames(),
                p.position,
                p.velocity
            )));
        }

        // Rows in id order: the backends reorder their storage every step. (A step does not
        // depend on the storage order it starts from — both backends order each cell's boids
        // themselves — so a run resumed from a frame is still the straight run, bit for bit.)
        let sorted;
        let boids = if boids.is_sorted_by_key(|b| b.id) {
            boids
        } else {
            let mut v = boids.to_vec();
            v.sort_unstable_by_key(|b| b.id);
            sorted = v;
            &sorted
        };
        let written = self.write_chunks(step, world, boids, predators);
        if written.is_err() {
            self.gsd.discard_frame();
        }
        written
    }

    /// The chunks of one frame, then [`GsdWriter::end_frame`].
    fn write_chunks(
        &mut self,
        step: u64,
        [w, h]: [f32; 2],
        boids: &[Boid],
        predators: &[Predator],
    ) -> Result<(), GsdError> {
        let nb = boids.len();
        let n = (nb + predators.len()) as u64;
        let (cx, cy) = (w * 0.5, h * 0.5);
        let positions = || {
            boids
                .iter()
                .map(|b| b.position)
                .chain(predators.iter().map(|p| p.position))
        };
        let velocities = || {
            boids
                .iter()
                .map(|b| b.velocity)
                .chain(predators.iter().map(|p| p.velocity))
        };
        let ids: Vec<u32> = boids
            .iter()
            .map(|b| b.id)
            .chain((0..predators.len()).map(predator_id))
            .collect();
        let kinds: Vec<u8> = boids
            .iter()
            .map(|_| 0u8)
            .chain(predators.iter().map(|p| p.kind().code() as u8))
            .collect();
        // Frame 0 holds every chunk; a later frame of this writer leaves out what equals it.
        let frame0 = self.gsd.frames() == 0;
        let first = if frame0 { None } else { self.first.as_ref() };
        let counts = (nb, predators.len());
        let same_counts = first.is_some_and(|f| f.counts == counts);
        let same_ids = first.is_some_and(|f| f.ids == ids);
        let same_kinds = first.is_some_and(|f| f.kinds == kinds);
        let g = &mut self.gsd;
        g.write_chunk(STEP, 1, &[step])?;
        if first.is_none() {
            g.write_chunk(DIMENSIONS, 1, &[2u8])?;
        }
        g.write_chunk(BOX, 1, &[w, h, 0.0, 0.0, 0.0, 0.0])?;
        g.write_chunk(N, 1, &[n as u32])?;
        if !same_counts {
            let types: &[&str] = if predators.is_empty() {
                &[BOID_TYPE]
            } else {
                &[BOID_TYPE, PREDATOR_TYPE]
            };
            let width = types.iter().map(|t| t.len()).max().unwrap_or(0) + 1;
            let rows = types.iter().flat_map(|t| {
                let mut row = vec![0i8; width];
                for (r, &c) in row.iter_mut().zip(t.as_bytes()) {
                    *r = c as i8;
                }
                row
            });
            g.write_rows(TYPES, types.len() as u64, width as u32, rows)?;
            let typeids = (0..n).map(|i| u32::from(i as usize >= nb));
            g.write_rows(TYPEID, n, 1, typeids)?;
        }
        let pos = positions().flat_map(|p| [p[0] - cx, p[1] - cy, 0.0]);
        g.write_rows(POSITION, n, 3, pos)?;
        g.write_rows(ORIENTATION, n, 4, velocities().flat_map(heading_quaternion))?;
        g.write_rows(VELOCITY, n, 3, velocities().flat_map(|v| [v[0], v[1], 0.0]))?;
        let image = boids
            .iter()
            .flat_map(|b| [b.image[0], b.image[1], 0])
            .chain(predators.iter().flat_map(|_| [0i32; 3]));
        g.write_rows(IMAGE, n, 3, image)?;
        if !same_ids {
            g.write_chunk(ID, 1, &ids)?;
            g.write_chunk(PARTICLE_IDENTIFIER, 1, &ids)?;
        }
        let hue = boids
            .iter()
            .flat_map(|b| b.hue)
            .chain(predators.iter().flat_map(|_| [0.0; 2]));
        g.write_rows(HUE, n, 2, hue)?;
        let hue_velocity = boids
            .iter()
            .flat_map(|b| b.hue_velocity)
            .chain(predators.iter().flat_map(|_| [0.0; 2]));
        g.write_rows(HUE_VELOCITY, n, 2, hue_velocity)?;
        g.write_rows(WORLD_POSITION, n, 2, positions().flatten())?;
        if !same_kinds {
            g.write_chunk(PREDATOR_KIND, 1, &kinds)?;
        }
        if frame0 {
            if let Some(run) = self.run.as_ref().filter(|r| !r.is_empty()) {
                let bytes = run.bytes().map(|b| b as i8);
                g.write_rows(RUN, 1, run.len() as u32, bytes)?;
            }
        }
        g.end_frame()?;
        if frame0 {
            self.first = Some(FirstFrame { counts, ids, kinds });
        }
        Ok(())
    }
}

/// Reads HOOMD frames of boids and predators from a GSD file.
#[derive(Debug)]
pub struct TrajectoryReader {
    hoomd: HoomdReader,
    /// Reading another program's frames for analysis ([`TrajectoryReader::open_foreign`]).
    foreign: bool,
}

impl TrajectoryReader {
    /// Opens `path`: a GSD file of the `hoomd` schema, 1.x or 2.x.
    ///
    /// # Errors
    /// As [`GsdReader::open`]; [`GsdError::Schema`] for another schema.
    pub fn open(path: &Path) -> Result<TrajectoryReader, GsdError> {
        Ok(TrajectoryReader {
            hoomd: HoomdReader::open(path, READER)?,
            foreign: false,
        })
    }

    /// Opens `path` to analyse its frames, which may be another program's: every particle whose
    /// type is not `predator` is read as a boid (HOOMD's default type `A`, or any other), a
    /// boid without `log/particles/hue` or `hue_velocity` gets the hue (1, 0) and no hue
    /// velocity — what the analyses never read — and a particle exactly on the box's upper face
    /// is its periodic image on the lower one. Everything else is checked as by
    /// [`TrajectoryReader::open`]. Not for starting a run from (a state needs its own types).
    ///
    /// # Errors
    /// As [`TrajectoryReader::open`].
    pub fn open_foreign(path: &Path) -> Result<TrajectoryReader, GsdError> {
        Ok(TrajectoryReader {
            foreign: true,
            ..TrajectoryReader::open(path)?
        })
    }

    /// Number of whole frames.
    pub fn frames(&self) -> u64 {
        self.hoomd.frames()
    }

    /// Why the file ends early (cut short or damaged), if it does: see [`GsdReader::cut_short`].
    pub fn cut_short(&self) -> Option<&str> {
        self.hoomd.cut_short()
    }

    /// Whether frame `frame` has the particles' velocities (`particles/velocity`, in the frame
    /// or in frame 0, as HOOMD's rule for absent chunks reads it). Another program's file may
    /// lack them; [`TrajectoryReader::read_frame`] then reads 0.
    pub fn has_velocities(&mut self, frame: u64) -> bool {
        self.has_chunk(frame, VELOCITY)
    }

    /// Whether frame `frame` has the periodic image counts (`particles/image`, in the frame or
    /// in frame 0), which unwrap the paths; [`TrajectoryReader::read_frame`] reads 0 without.
    pub fn has_images(&mut self, frame: u64) -> bool {
        self.has_chunk(frame, IMAGE)
    }

    fn has_chunk(&mut self, frame: u64, name: &str) -> bool {
        let g = self.hoomd.gsd();
        g.find(frame, name).is_some() || g.find(0, name).is_some()
    }

    /// The underlying GSD reader (the raw chunks).
    pub fn gsd(&mut self) -> &mut GsdReader {
        self.hoomd.gsd()
    }

    /// The last whole frame.
    ///
    /// # Errors
    /// [`GsdError::NoSuchFrame`] for a file without a whole frame; otherwise as
    /// [`TrajectoryReader::read_frame`].
    pub fn read_last(&mut self) -> Result<TrajectoryFrame, GsdError> {
        self.read_frame(self.frames().saturating_sub(1))
    }

    /// Frame `frame` (0-based) as boids and predators.
    ///
    /// Chunks left out of the frame take frame 0's value, else the schema's default (see the
    /// module docs); positions are shifted back into `[0, W) × [0, H)`.
    ///
    /// # Errors
    /// [`GsdError::NoSuchFrame`] for a frame past the whole frames; [`GsdError::Schema`] for a
    /// chunk of the wrong shape or type, a 3D or tilted box, a particle type other than `boid`
    /// and `predator`, boids without `log/particles/hue` and `log/particles/hue_velocity`, a
    /// non-finite value, a particle outside the box, or two boids with one id; [`GsdError::Io`]
    /// or [`GsdError::Damaged`] when reading fails.
    pub fn read_frame(&mut self, frame: u64) -> Result<TrajectoryFrame, GsdError> {
        self.hoomd.check_frame(frame)?;
        let h5 = &mut self.hoomd;
        let f = frame;
        let step = h5.integers(f, STEP, None, 1)?.map_or(0, |v| v[0]);
        let dims = h5.integers(f, DIMENSIONS, None, 1)?.map_or(3, |v| v[0]);
        if dims != 2 {
            return Err(h5.schema_error(
                f,
                DIMENSIONS,
                format!("{dims} dimensions; boids reads 2D frames (dimensions = 2)"),
            ));
        }
        let bx = h5.floats(f, BOX, None, 6)?.unwrap_or(DEFAULT_BOX.to_vec());
        let (w, h) = (bx[0], bx[1]);
        if !(w.is_finite() && h.is_finite() && w > 0.0 && h > 0.0) {
            return Err(h5.schema_error(
                f,
                BOX,
                format!("Lx = {w}, Ly = {h}: not finite and positive"),
            ));
        }
        if bx[3..].iter().any(|&t| t != 0.0) {
            return Err(h5.schema_error(
                f,
                BOX,
                format!(
                    "tilt factors xy, xz, yz = {:?}; boids reads rectangular boxes (all 0)",
                    &bx[3..]
                ),
            ));
        }
        let n = h5.integers(f, N, None, 1)?.map_or(0, |v| v[0]);
        let most = (MAX_BOIDS + MAX_PREDATORS) as u64;
        if n > most {
            return Err(h5.schema_error(
                f,
                N,
                format!("{n} particles; at most {most} (boids and predators) are read"),
            ));
        }
        let types = h5.type_names(f)?;
        let rows = Some(n);
        let typeid = h5.integers(f, TYPEID, rows, 1)?;
        let position = h5.floats(f, POSITION, rows, 3)?;
        let velocity = h5.floats(f, VELOCITY, rows, 3)?;
        let image = h5.signed(f, IMAGE, rows, 3)?;
        let ids = h5.integers(f, ID, rows, 1)?;
        let hue = h5.floats(f, HUE, rows, 2)?;
        let hue_velocity = h5.floats(f, HUE_VELOCITY, rows, 2)?;
        let world_position = h5.floats(f, WORLD_POSITION, rows, 2)?;
        let kinds = h5.integers(f, PREDATOR_KIND, rows, 1)?;

        // Which particles are boids.
        let foreign = self.foreign;
        let kind_of = |t: u64| -> Option<bool> {
            match types.get(t as usize).map(String::as_str) {
                Some(BOID_TYPE) => Some(true),
                Some(PREDATOR_TYPE) => Some(false),
                Some(_) if foreign => Some(true),
                _ => None,
            }
        };
        let mut is_boid = Vec::with_capacity(n as usize);
        for i in 0..n as usize {
            let t = typeid.as_ref().map_or(0, |v| v[i]);
            match kind_of(t) {
                Some(b) => is_boid.push(b),
                None => {
                    let name = types
                        .get(t as usize)
                        .map(|s| format!("'{}'", clip(s)))
                        .unwrap_or_else(|| "none".to_string());
                    return Err(h5.schema_error(
                        f,
                        TYPEID,
                        format!(
                            "particle {i} has type id {t} (type {name}; the types are {types:?}); \
                             boids reads the types '{BOID_TYPE}' and '{PREDATOR_TYPE}'"
                        ),
                    ));
                }
            }
        }
        let n_boids = is_boid.iter().filter(|&&b| b).count();
        let n_predators = n as usize - n_boids;
        if n_predators > MAX_PREDATORS {
            return Err(h5.schema_error(
                f,
                TYPEID,
                format!("{n_predators} predators; at most {MAX_PREDATORS}"),
            ));
        }
        if n_boids > MAX_BOIDS {
            return Err(h5.schema_error(
                f,
                TYPEID,
                format!("{n_boids} boids; at most {MAX_BOIDS}"),
            ));
        }
        if n_boids > 0 && !foreign {
            for (name, present) in [(HUE, hue.is_some()), (HUE_VELOCITY, hue_velocity.is_some())] {
                if !present {
                    return Err(h5.schema_error(
                        f,
                        name,
                        "missing: boids need their hue vector and hue velocity (float32, N × 2)",
                    ));
                }
            }
        }

        let half = [w * 0.5, h * 0.5];
        let world = [w, h];
        let mut boids = Vec::with_capacity(n_boids);
        let mut predators = Vec::with_capacity(n_predators);
        for (i, &boid) in is_boid.iter().enumerate() {
            let mut p = [0.0f32; 2];
            // Images added by moving a particle to its periodic image.
            let mut shifted = [0i32; 2];
            for a in 0..2 {
                let mut centred = position.as_ref().map_or(0.0, |v| v[3 * i + a]);
                // Another program's particle exactly on the box's upper face (float32 rounding
                // puts them there) is the periodic image of one on the lower face, one box on
                // (so its unwrapped path does not jump).
                if foreign && centred == half[a] {
                    centred = -half[a];
                    shifted[a] = 1;
                }
                if !(centred.is_finite() && centred >= -half[a] && centred < half[a]) {
                    return Err(h5.schema_error(
                        f,
                        POSITION,
                        format!(
                            "particle {i} has {} = {centred}, outside the box [{}, {})",
                            ["x", "y"][a],
                            -half[a],
                            half[a]
                        ),
                    ));
                }
                // The exact world position when it is the one this position was made from.
                let exact = world_position
                    .as_ref()
                    .map(|v| v[2 * i + a])
                    .filter(|&x| x >= 0.0 && x < world[a] && x - half[a] == centred);
                p[a] = exact.unwrap_or_else(|| {
                    let x = centred + half[a];
                    if x >= world[a] {
                        world[a].next_down()
                    } else {
                        x
                    }
                });
            }
            let v = velocity
                .as_ref()
                .map_or([0.0; 2], |v| [v[3 * i], v[3 * i + 1]]);
            if !(v[0].is_finite() && v[1].is_finite()) {
                return Err(h5.schema_error(
                    f,
                    VELOCITY,
                    format!("particle {i} has velocity {v:?}: not finite"),
                ));
            }
            if boid {
                let pair = |c: &Option<Vec<f32>>, or: [f32; 2]| {
                    c.as_ref().map_or(or, |v| [v[2 * i], v[2 * i + 1]])
                };
                let (hh, hv) = (pair(&hue, [1.0, 0.0]), pair(&hue_velocity, [0.0; 2]));
                for (name, x) in [(HUE, hh), (HUE_VELOCITY, hv)] {
                    if !(x[0].is_finite() && x[1].is_finite()) {
                        return Err(h5.schema_error(
                            f,
                            name,
                            format!("particle {i} has {x:?}: not finite"),
                        ));
                    }
                }
                let id = match &ids {
                    Some(v) => u32::try_from(v[i]).map_err(|_| {
                        h5.schema_error(f, ID, format!("particle {i} has id {}, above u32", v[i]))
                    })?,
                    None => boids.len() as u32,
                };
                boids.push(Boid {
                    position: p,
                    velocity: v,
                    hue: hh,
                    hue_velocity: hv,
                    id,
                    image: image.as_ref().map_or(shifted, |m| {
                        [
                            m[3 * i].saturating_add(shifted[0]),
                            m[3 * i + 1].saturating_add(shifted[1]),
                        ]
                    }),
                });
            } else {
                let kind = kinds.as_ref().map_or(0, |v| v[i]);
                let kind = match kind {
                    0 => PredatorKind::Straight,
                    1 => PredatorKind::Hunting,
                    k => {
                        return Err(h5.schema_error(
                            f,
                            PREDATOR_KIND,
                            format!("particle {i} has kind {k}; 0 (straight) or 1 (hunting)"),
                        ))
                    }
                };
                predators.push(Predator::new(p.into(), v.into(), kind));
            }
        }
        let mut sorted: Vec<u32> = boids.iter().map(|b| b.id).collect();
        sorted.sort_unstable();
        if let Some(d) = sorted.windows(2).find(|w| w[0] == w[1]) {
            return Err(h5.schema_error(f, ID, format!("two boids have id {}", d[0])));
        }
        Ok(TrajectoryFrame {
            step,
            world,
            boids,
            predators,
        })
    }
}

/// Which frame of a GSD file an `--init` names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FrameRef {
    /// The GSD file.
    pub path: PathBuf,
    /// The frame (from 0); `None`: the last whole frame.
    pub frame: Option<u64>,
}

/// Whether `init` names a GSD file: a path ending in `.gsd` (any case) or an existing file that
/// starts with GSD's magic number (whatever its name: `t:1` opens the file `t:1` when it exists),
/// or `FILE:FRAME` of such a file. `None` for anything else (a state CSV).
///
/// # Errors
/// [`StateFileError::File`] for `FILE.gsd:FRAME` whose FRAME is not a whole number from 0.
pub fn frame_ref(init: &Path) -> Result<Option<FrameRef>, StateFileError> {
    // A `.gsd` name, or an existing file that starts with GSD's magic number whatever its name
    // (so `run:1`, a file named with a colon, opens as itself when it exists).
    let is_gsd = |p: &Path| {
        p.extension()
            .is_some_and(|e| e.to_string_lossy().eq_ignore_ascii_case("gsd"))
            || starts_with_magic(p)
    };
    if is_gsd(init) {
        return Ok(Some(FrameRef {
            path: init.to_path_buf(),
            frame: None,
        }));
    }
    let text = init.to_string_lossy();
    let Some((file, frame)) = text.rsplit_once(':') else {
        return Ok(None);
    };
    let file = Path::new(file);
    if !is_gsd(file) {
        return Ok(None);
    }
    match frame.parse::<u64>() {
        Ok(k) if !frame.starts_with('+') => Ok(Some(FrameRef {
            path: file.to_path_buf(),
            frame: Some(k),
        })),
        _ => Err(StateFileError::File {
            path: show_path(init),
            message: format!(
                "frame {:?} is not a frame number: write FILE.gsd:FRAME with FRAME a whole number \
                 from 0 (FILE.gsd alone: its last frame)",
                clip(frame)
            ),
        }),
    }
}

/// Whether `p` is a file whose first 8 bytes are GSD's magic number.
fn starts_with_magic(p: &Path) -> bool {
    use std::io::Read;
    let mut b = [0u8; 8];
    std::fs::File::open(p)
        .and_then(|mut f| f.read_exact(&mut b))
        .is_ok_and(|()| u64::from_le_bytes(b) == gsd::container::MAGIC)
}

/// The state of frame `r` (the last whole frame when it names none).
///
/// # Errors
/// [`ReadError::Gsd`] when the file cannot be read or the frame does not exist (naming the
/// file and how many whole frames it has) or breaks the schema; [`StateFileError::Frame`] for a
/// frame without boids, with a zero hue vector or a duplicated id, or whose step is past u32.
pub fn read_frame_state(r: &FrameRef) -> Result<LoadedState, ReadError> {
    let mut reader = TrajectoryReader::open(&r.path)?;
    let frames = reader.frames();
    let frame = r.frame.unwrap_or(frames.saturating_sub(1));
    let f = reader.read_frame(frame)?;
    let step = u32::try_from(f.step).map_err(|_| StateFileError::Frame {
        kind: "GSD file",
        path: show_path(&r.path),
        frame,
        message: format!(
            "configuration/step = {}: above the largest step index, {}",
            f.step,
            u32::MAX
        ),
    })?;
    Ok(LoadedState::of_frame(
        &r.path,
        f.boids,
        FrameOrigin {
            kind: "GSD file",
            hue_field: HUE,
            frame,
            frames,
            step,
            world: f.world,
            predators: f.predators,
            cut_short: reader.cut_short().map(String::from),
        },
    )?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn init_names_a_gsd_file_and_maybe_a_frame() {
        let r = |s: &str| frame_ref(Path::new(s));
        assert_eq!(r("state.csv").unwrap(), None);
        assert_eq!(r("a:b.csv").unwrap(), None);
        assert_eq!(
            r("t.gsd").unwrap(),
            Some(FrameRef {
                path: "t.gsd".into(),
                frame: None
            })
        );
        assert_eq!(
            r("dir/T.GSD:12").unwrap(),
            Some(FrameRef {
                path: "dir/T.GSD".into(),
                frame: Some(12)
            })
        );
        for bad in ["t.gsd:", "t.gsd:-1", "t.gsd:x", "t.gsd:+3", "t.gsd:1.5"] {
            let e = r(bad).unwrap_err().to_string();
            assert!(e.contains("whole number from 0"), "{bad}: {e}");
        }
    }
}
