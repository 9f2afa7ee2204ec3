//! Boids and predators as frames of the HOOMD schema (schema `hoomd`, version 1.4), on the GSD
//! container of [`super::container`]. The chunk table, the centring and the rules for reading
//! are in the [module docs](super).

use std::path::Path;

use super::container::{make_version, split_version, Chunk, GsdReader, GsdWriter};
use super::GsdError;
use crate::model::params::MAX_BOIDS;
use crate::model::predators::{Predator, PredatorKind, MAX_PREDATORS};
use crate::model::state::Boid;

/// The schema name in the header.
pub const SCHEMA: &str = "hoomd";
/// The schema version written: 1.4, the version that defines the `log/` chunks, read by every
/// `gsd` release since 2.x (the gsd 4 and later packages write 2.0, which also allows float64
/// values). Files of versions 1.x and 2.x are read and appended to.
pub const SCHEMA_VERSION: u32 = make_version(1, 4);
/// The particle type of boids (type id 0 in files written here).
pub const BOID_TYPE: &str = "boid";
/// The particle type of predators (type id 1 in files written here).
pub const PREDATOR_TYPE: &str = "predator";

/// `configuration/step`: uint64, 1 × 1.
pub const STEP: &str = "configuration/step";
/// `configuration/dimensions`: uint8, 1 × 1, always 2.
pub const DIMENSIONS: &str = "configuration/dimensions";
/// `configuration/box`: float32, 6 × 1: `[W, H, 0, 0, 0, 0]` (Lz = 0: a 2D box, as HOOMD ≥ 3,
/// `gsd` and freud take it; files with Lz = 1, written before, read the same).
pub const BOX: &str = "configuration/box";
/// `particles/N`: uint32, 1 × 1.
pub const N: &str = "particles/N";
/// `particles/types`: int8, NT × M, 0-terminated names.
pub const TYPES: &str = "particles/types";
/// `particles/typeid`: uint32, N × 1.
pub const TYPEID: &str = "particles/typeid";
/// `particles/position`: float32, N × 3, centred on the origin.
pub const POSITION: &str = "particles/position";
/// `particles/orientation`: float32, N × 4, the heading as a quaternion.
pub const ORIENTATION: &str = "particles/orientation";
/// `particles/velocity`: float32, N × 3.
pub const VELOCITY: &str = "particles/velocity";
/// `particles/image`: int32, N × 3 — `(ix, iy, 0)`, the image counts (docs/model.md §2.4), so
/// `position + image · L` is the unwrapped path.
pub const IMAGE: &str = "particles/image";
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

/// The heading quaternion `(cos θ/2, 0, 0, sin θ/2)` of θ = atan2(vy, vx); `(1, 0, 0, 0)` at rest
/// (also for −0.0 components, where atan2 would give ±π).
pub fn heading_quaternion(velocity: [f32; 2]) -> [f32; 4] {
    if velocity[0] == 0.0 && velocity[1] == 0.0 {
        return [1.0, 0.0, 0.0, 0.0];
    }
    let half = velocity[1].atan2(velocity[0]) * 0.5;
    let (s, c) = half.sin_cos();
    [c, 0.0, 0.0, s]
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

fn check_schema(shown: &str, schema: &str, version: u32) -> Result<(), GsdError> {
    let (major, minor) = split_version(version);
    if schema != SCHEMA || !(1..=2).contains(&major) {
        return Err(GsdError::Schema {
            path: shown.to_string(),
            message: format!(
                "its schema is '{}' version {major}.{minor}; boids reads and appends to the \
                 '{SCHEMA}' schema, versions 1.x and 2.x",
                crate::io::clip(schema)
            ),
        });
    }
    Ok(())
}

/// Reads HOOMD frames of boids and predators from a GSD file.
#[derive(Debug)]
pub struct TrajectoryReader {
    gsd: GsdReader,
}

impl TrajectoryReader {
    /// Opens `path`: a GSD file of the `hoomd` schema, 1.x or 2.x.
    ///
    /// # Errors
    /// As [`GsdReader::open`]; [`GsdError::Schema`] for another schema.
    pub fn open(path: &Path) -> Result<TrajectoryReader, GsdError> {
        let gsd = GsdReader::open(path)?;
        check_schema(
            gsd.shown_path(),
            &gsd.header().schema,
            gsd.header().schema_version,
        )?;
        Ok(TrajectoryReader { gsd })
    }

    /// Number of whole frames.
    pub fn frames(&self) -> u64 {
        self.gsd.frames()
    }

    /// Why the file ends early (cut short or damaged), if it does: see [`GsdReader::cut_short`].
    pub fn cut_short(&self) -> Option<&str> {
        self.gsd.cut_short()
    }

    /// The underlying GSD reader (the raw chunks).
    pub fn gsd(&mut self) -> &mut GsdReader {
        &mut self.gsd
    }

    /// The last whole frame.
    ///
    /// # Errors
    /// [`GsdError::NoSuchFrame`] for a file without a whole frame; otherwise as
    /// [`TrajectoryReader::read_frame`].
    pub fn read_last(&mut self) -> Result<TrajectoryFrame, GsdError> {
        self.read_frame(self.frames().saturating_sub(1))
    }

    fn schema_error(&self, frame: u64, chunk: &str, message: impl std::fmt::Display) -> GsdError {
        GsdError::Schema {
            path: self.gsd.shown_path().to_string(),
            message: format!("frame {frame}, chunk '{chunk}': {message}"),
        }
    }

    /// Chunk `name` of `frame`, else of frame 0 (the schema's rule for a chunk left out), else
    /// `None`. With `rows`, a chunk of frame 0 with another row count counts as absent (the
    /// schema's default applies), and the chunk must have `rows` × `m` values.
    fn chunk(
        &mut self,
        frame: u64,
        name: &str,
        rows: Option<u64>,
        m: u32,
    ) -> Result<Option<Chunk>, GsdError> {
        let (chunk, from) = match self.gsd.read_chunk(frame, name)? {
            Some(c) => (c, frame),
            None if frame != 0 => match self.gsd.read_chunk(0, name)? {
                Some(c) => (c, 0),
                None => return Ok(None),
            },
            None => return Ok(None),
        };
        if let Some(n) = rows {
            if from != frame && chunk.n != n {
                return Ok(None);
            }
            if chunk.n != n || chunk.m != m {
                return Err(self.schema_error(
                    frame,
                    name,
                    format!("{} × {} values, expected {n} × {m}", chunk.n, chunk.m),
                ));
            }
        } else if chunk.n.saturating_mul(chunk.m as u64) != m as u64 {
            return Err(self.schema_error(
                frame,
                name,
                format!("{} × {} values, expected {m}", chunk.n, chunk.m),
            ));
        }
        Ok(Some(chunk))
    }

    fn floats(&mut self, frame: u64, name: &str, rows: Option<u64>, m: u32) -> Floats {
        let chunk = self.chunk(frame, name, rows, m)?;
        chunk
            .map(|c| c.to_f32().map_err(|e| self.schema_error(frame, name, e)))
            .transpose()
    }

    fn integers(&mut self, frame: u64, name: &str, rows: Option<u64>, m: u32) -> Integers {
        let chunk = self.chunk(frame, name, rows, m)?;
        chunk
            .map(|c| c.to_u64().map_err(|e| self.schema_error(frame, name, e)))
            .transpose()
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
        if frame >= self.frames() {
            return Err(GsdError::NoSuchFrame {
                path: self.gsd.shown_path().to_string(),
                frame,
                frames: self.frames(),
                note: match self.cut_short() {
                    Some(why) => format!(" (the file ends early: {why})"),
                    None => String::new(),
                },
            });
        }
        let f = frame;
        let step = self.integers(f, STEP, None, 1)?.map_or(0, |v| v[0]);
        let dims = self.integers(f, DIMENSIONS, None, 1)?.map_or(3, |v| v[0]);
        if dims != 2 {
            return Err(self.schema_error(
                f,
                DIMENSIONS,
                format!("{dims} dimensions; boids reads 2D frames (dimensions = 2)"),
            ));
        }
        let bx = self
            .floats(f, BOX, None, 6)?
            .unwrap_or(vec![1.0, 1.0, 1.0, 0.0, 0.0, 0.0]);
        let (w, h) = (bx[0], bx[1]);
        if !(w.is_finite() && h.is_finite() && w > 0.0 && h > 0.0) {
            return Err(self.schema_error(
                f,
                BOX,
                format!("Lx = {w}, Ly = {h}: not finite and positive"),
            ));
        }
        if bx[3..].iter().any(|&t| t != 0.0) {
            return Err(self.schema_error(
                f,
                BOX,
                format!(
                    "tilt factors xy, xz, yz = {:?}; boids reads rectangular boxes (all 0)",
                    &bx[3..]
                ),
            ));
        }
        let n = self.integers(f, N, None, 1)?.map_or(0, |v| v[0]);
        let most = (MAX_BOIDS + MAX_PREDATORS) as u64;
        if n > most {
            return Err(self.schema_error(
                f,
                N,
                format!("{n} particles; at most {most} (boids and predators) are read"),
            ));
        }
        let types = self.type_names(f)?;
        let rows = Some(n);
        let typeid = self.integers(f, TYPEID, rows, 1)?;
        let position = self.floats(f, POSITION, rows, 3)?;
        let velocity = self.floats(f, VELOCITY, rows, 3)?;
        let image = match self.chunk(f, IMAGE, rows, 3)? {
            Some(c) => Some(c.to_i32().map_err(|e| self.schema_error(f, IMAGE, e))?),
            None => None,
        };
        let ids = self.integers(f, ID, rows, 1)?;
        let hue = self.floats(f, HUE, rows, 2)?;
        let hue_velocity = self.floats(f, HUE_VELOCITY, rows, 2)?;
        let world_position = self.floats(f, WORLD_POSITION, rows, 2)?;
        let kinds = self.integers(f, PREDATOR_KIND, rows, 1)?;

        // Which particles are boids.
        let kind_of = |t: u64| -> Option<bool> {
            match types.get(t as usize).map(String::as_str) {
                Some(BOID_TYPE) => Some(true),
                Some(PREDATOR_TYPE) => Some(false),
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
                        .map(|s| format!("'{}'", crate::io::clip(s)))
                        .unwrap_or_else(|| "none".to_string());
                    return Err(self.schema_error(
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
            return Err(self.schema_error(
                f,
                TYPEID,
                format!("{n_predators} predators; at most {MAX_PREDATORS}"),
            ));
        }
        if n_boids > MAX_BOIDS {
            return Err(self.schema_error(
                f,
                TYPEID,
                format!("{n_boids} boids; at most {MAX_BOIDS}"),
            ));
        }
        if n_boids > 0 {
            for (name, present) in [(HUE, hue.is_some()), (HUE_VELOCITY, hue_velocity.is_some())] {
                if !present {
                    return Err(self.schema_error(
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
            for a in 0..2 {
                let centred = position.as_ref().map_or(0.0, |v| v[3 * i + a]);
                if !(centred.is_finite() && centred >= -half[a] && centred < half[a]) {
                    return Err(self.schema_error(
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
                return Err(self.schema_error(
                    f,
                    VELOCITY,
                    format!("particle {i} has velocity {v:?}: not finite"),
                ));
            }
            if boid {
                let pair = |c: &Option<Vec<f32>>| {
                    c.as_ref().map_or([0.0; 2], |v| [v[2 * i], v[2 * i + 1]])
                };
                let (hh, hv) = (pair(&hue), pair(&hue_velocity));
                for (name, x) in [(HUE, hh), (HUE_VELOCITY, hv)] {
                    if !(x[0].is_finite() && x[1].is_finite()) {
                        return Err(self.schema_error(
                            f,
                            name,
                            format!("particle {i} has {x:?}: not finite"),
                        ));
                    }
                }
                let id = match &ids {
                    Some(v) => u32::try_from(v[i]).map_err(|_| {
                        self.schema_error(f, ID, format!("particle {i} has id {}, above u32", v[i]))
                    })?,
                    None => boids.len() as u32,
                };
                boids.push(Boid {
                    position: p,
                    velocity: v,
                    hue: hh,
                    hue_velocity: hv,
                    id,
                    image: image.as_ref().map_or([0; 2], |m| [m[3 * i], m[3 * i + 1]]),
                });
            } else {
                let kind = kinds.as_ref().map_or(0, |v| v[i]);
                let kind = match kind {
                    0 => PredatorKind::Straight,
                    1 => PredatorKind::Hunting,
                    k => {
                        return Err(self.schema_error(
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
            return Err(self.schema_error(f, ID, format!("two boids have id {}", d[0])));
        }
        Ok(TrajectoryFrame {
            step,
            world,
            boids,
            predators,
        })
    }

    /// The particle type names of `frame` (frame 0's when left out; `["A"]` by default).
    fn type_names(&mut self, frame: u64) -> Result<Vec<String>, GsdError> {
        let chunk = match self.gsd.read_chunk(frame, TYPES)? {
            Some(c) => Some(c),
            None if frame != 0 => self.gsd.read_chunk(0, TYPES)?,
            None => None,
        };
        match chunk {
            None => Ok(vec!["A".to_string()]),
            Some(c) => c
                .text_rows()
                .map_err(|e| self.schema_error(frame, TYPES, e)),
        }
    }
}

type Floats = Result<Option<Vec<f32>>, GsdError>;
type Integers = Result<Option<Vec<u64>>, GsdError>;
