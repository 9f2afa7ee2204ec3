//! Trajectories in GSD files of the HOOMD schema, as read by HOOMD-blue, OVITO, freud, VMD's GSD
//! plugin and the `gsd` Python package.
//!
//! The format is the GSD specification of the Glotzer group (University of Michigan): the *file
//! layer*, version 2.x (documented as "File layer" in the `gsd` package's documentation, with the
//! reference C implementation `gsd/gsd.c` of the glotzerlab/gsd repository), and the *HOOMD
//! schema* ("HOOMD Schema" there), version 1.4 written, 1.x and 2.x read. Written here from that
//! specification: no crate for it exists on crates.io (the crate named `gsd` there is
//! unrelated).
//!
//! - [`container`]: the container — header, index, name list, chunks written frame by frame
//!   ([`GsdWriter`]) and read back ([`GsdReader`]); its docs give the byte layout and what a
//!   killed run leaves.
//! - [`hoomd`]: boids and predators as HOOMD frames ([`TrajectoryWriter`],
//!   [`TrajectoryReader`], [`TrajectoryFrame`]).
//! - [`initial`]: a frame as the initial state of a run (`--init FILE.gsd[:FRAME]`).
//! - [`GsdError`]: every error, naming the file and what is wrong.
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
//! | `particles/image` | int32 | N × 3 | `(ix, iy, 0)`: the image counts (docs/model.md §2.4): `position + image · (W, H, 0)` is the unwrapped path; 0 for predators; absent in older files (read as 0) |
//! | `log/particles/id` | uint32 | N × 1 | boid id; the k-th predator (from 0) has `u32::MAX − k` ([`hoomd::predator_id`]) |
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
//!   as for state files ([`crate::model::state_csv`]).
//!
//! A run killed while writing leaves every frame it ended. A file cut short (a copy interrupted,
//! a disk full) reads up to its last whole frame, [`TrajectoryReader::cut_short`] saying where it
//! ends — unless the cut falls before the index in use, which loses every frame (see
//! [`container`]). A file that is not GSD, of another file-layer version or another schema, or
//! that breaks a rule above, gives a [`GsdError`] naming the file, the frame and the chunk. No
//! input makes the reader panic.

pub mod container;
pub mod error;
pub mod hoomd;
pub mod initial;

pub use container::{ChunkType, GsdReader, GsdWriter};
pub use error::GsdError;
pub use hoomd::{TrajectoryFrame, TrajectoryReader, TrajectoryWriter};
