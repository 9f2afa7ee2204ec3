//! The HOOMD schema (schema `hoomd`, written as version 1.4, read as 1.x and 2.x) on the GSD
//! container of [`crate::container`]: the standard chunk names, the schema check, and
//! [`HoomdReader`], which reads a frame's chunks by the schema's rule for chunks left out (a chunk
//! absent from frame i takes frame 0's value, for per-particle chunks only when frame 0 has as
//! many rows; else the schema's default, which the caller supplies).
//!
//! What particles are, which types there are and which `log/` chunks they carry is the
//! application's; this module knows only the schema.

use std::path::Path;

use crate::container::{make_version, split_version, Chunk, GsdReader};
use crate::error::{clip, GsdError};

/// The schema name in the header.
pub const SCHEMA: &str = "hoomd";
/// The schema version written: 1.4, the version that defines the `log/` chunks, read by every
/// `gsd` release since 2.x (the gsd 4 and later packages write 2.0, which also allows float64
/// values). Files of versions 1.x and 2.x are read and appended to.
pub const SCHEMA_VERSION: u32 = make_version(1, 4);

/// `configuration/step`: uint64, 1 × 1 (default 0).
pub const STEP: &str = "configuration/step";
/// `configuration/dimensions`: uint8, 1 × 1 (default 3).
pub const DIMENSIONS: &str = "configuration/dimensions";
/// `configuration/box`: float32, 6 × 1: `[Lx, Ly, Lz, xy, xz, yz]` (default `[1, 1, 1, 0, 0, 0]`;
/// Lz = 0 is a 2D box, as HOOMD ≥ 3, `gsd` and freud take it).
pub const BOX: &str = "configuration/box";
/// `particles/N`: uint32, 1 × 1 (default 0).
pub const N: &str = "particles/N";
/// `particles/types`: int8, NT × M, 0-terminated names (default `["A"]`).
pub const TYPES: &str = "particles/types";
/// `particles/typeid`: uint32, N × 1 (default 0).
pub const TYPEID: &str = "particles/typeid";
/// `particles/position`: float32, N × 3, in the box centred on the origin (default 0).
pub const POSITION: &str = "particles/position";
/// `particles/orientation`: float32, N × 4, a quaternion (default `(1, 0, 0, 0)`).
pub const ORIENTATION: &str = "particles/orientation";
/// `particles/velocity`: float32, N × 3 (default 0).
pub const VELOCITY: &str = "particles/velocity";
/// `particles/image`: int32, N × 3, the box images crossed, so `position + image · L` is the
/// unwrapped path (default 0).
pub const IMAGE: &str = "particles/image";

/// The box of the schema's default.
pub const DEFAULT_BOX: [f32; 6] = [1.0, 1.0, 1.0, 0.0, 0.0, 0.0];

/// The quaternion `(cos θ/2, 0, 0, sin θ/2)` of a 2D heading θ = atan2(vy, vx) (a rotation about
/// z); `(1, 0, 0, 0)` at rest (also for −0.0 components, where atan2 would give ±π).
pub fn heading_quaternion(velocity: [f32; 2]) -> [f32; 4] {
    if velocity[0] == 0.0 && velocity[1] == 0.0 {
        return [1.0, 0.0, 0.0, 0.0];
    }
    let half = velocity[1].atan2(velocity[0]) * 0.5;
    let (s, c) = half.sin_cos();
    [c, 0.0, 0.0, s]
}

/// Checks that a file's `schema` and `version` are the HOOMD schema 1.x or 2.x, which `reader`
/// (the application, for the message) reads and appends to.
///
/// # Errors
/// [`GsdError::Schema`] naming the file (`shown`), its schema and version.
pub fn check_schema(shown: &str, schema: &str, version: u32, reader: &str) -> Result<(), GsdError> {
    let (major, minor) = split_version(version);
    if schema != SCHEMA || !(1..=2).contains(&major) {
        return Err(GsdError::Schema {
            path: shown.to_string(),
            message: format!(
                "its schema is '{}' version {major}.{minor}; {reader} reads and appends to the \
                 '{SCHEMA}' schema, versions 1.x and 2.x",
                clip(schema)
            ),
        });
    }
    Ok(())
}

/// Reads frames of the HOOMD schema chunk by chunk, by the schema's rule for chunks left out.
#[derive(Debug)]
pub struct HoomdReader {
    gsd: GsdReader,
}

/// Values of a chunk, when present.
pub type Values<T> = Result<Option<Vec<T>>, GsdError>;

impl HoomdReader {
    /// Opens `path`: a GSD file of the `hoomd` schema, 1.x or 2.x (`reader` names the application
    /// in the error).
    ///
    /// # Errors
    /// As [`GsdReader::open`]; [`GsdError::Schema`] for another schema.
    pub fn open(path: &Path, reader: &str) -> Result<HoomdReader, GsdError> {
        let gsd = GsdReader::open(path)?;
        check_schema(
            gsd.shown_path(),
            &gsd.header().schema,
            gsd.header().schema_version,
            reader,
        )?;
        Ok(HoomdReader { gsd })
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

    /// The file as messages show it.
    pub fn shown_path(&self) -> &str {
        self.gsd.shown_path()
    }

    /// The error of `chunk` of `frame`.
    pub fn schema_error(
        &self,
        frame: u64,
        chunk: &str,
        message: impl std::fmt::Display,
    ) -> GsdError {
        GsdError::Schema {
            path: self.gsd.shown_path().to_string(),
            message: format!("frame {frame}, chunk '{chunk}': {message}"),
        }
    }

    /// Checks that `frame` is a whole frame of the file.
    ///
    /// # Errors
    /// [`GsdError::NoSuchFrame`], saying why the file ends early when it does.
    pub fn check_frame(&self, frame: u64) -> Result<(), GsdError> {
        if frame < self.frames() {
            return Ok(());
        }
        Err(GsdError::NoSuchFrame {
            path: self.gsd.shown_path().to_string(),
            frame,
            frames: self.frames(),
            note: match self.cut_short() {
                Some(why) => format!(" (the file ends early: {why})"),
                None => String::new(),
            },
        })
    }

    /// Chunk `name` of `frame`, else of frame 0 (the schema's rule for a chunk left out), else
    /// `None`. With `rows`, a chunk of frame 0 with another row count counts as absent (the
    /// schema's default applies), and the chunk must have `rows` × `m` values; without, `m`
    /// values in all.
    ///
    /// # Errors
    /// [`GsdError::Schema`] for a chunk of another shape; as [`GsdReader::read_chunk`].
    pub fn chunk(
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

    /// [`HoomdReader::chunk`] as float32 values (float64 rounded).
    ///
    /// # Errors
    /// As [`HoomdReader::chunk`]; [`GsdError::Schema`] for values of another type.
    pub fn floats(&mut self, frame: u64, name: &str, rows: Option<u64>, m: u32) -> Values<f32> {
        let chunk = self.chunk(frame, name, rows, m)?;
        chunk
            .map(|c| c.to_f32().map_err(|e| self.schema_error(frame, name, e)))
            .transpose()
    }

    /// [`HoomdReader::chunk`] as unsigned integers of any integer type that holds them.
    ///
    /// # Errors
    /// As [`HoomdReader::floats`].
    pub fn integers(&mut self, frame: u64, name: &str, rows: Option<u64>, m: u32) -> Values<u64> {
        let chunk = self.chunk(frame, name, rows, m)?;
        chunk
            .map(|c| c.to_u64().map_err(|e| self.schema_error(frame, name, e)))
            .transpose()
    }

    /// [`HoomdReader::chunk`] as int32 values.
    ///
    /// # Errors
    /// As [`HoomdReader::floats`].
    pub fn signed(&mut self, frame: u64, name: &str, rows: Option<u64>, m: u32) -> Values<i32> {
        let chunk = self.chunk(frame, name, rows, m)?;
        chunk
            .map(|c| c.to_i32().map_err(|e| self.schema_error(frame, name, e)))
            .transpose()
    }

    /// The particle type names of `frame` (frame 0's when left out; `["A"]` by default).
    ///
    /// # Errors
    /// [`GsdError::Schema`] for a chunk that is not text rows; as [`GsdReader::read_chunk`].
    pub fn type_names(&mut self, frame: u64) -> Result<Vec<String>, GsdError> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headings_at_rest_and_about_z() {
        assert_eq!(heading_quaternion([0.0, 0.0]), [1.0, 0.0, 0.0, 0.0]);
        assert_eq!(heading_quaternion([-0.0, 0.0]), [1.0, 0.0, 0.0, 0.0]);
        let q = heading_quaternion([0.0, 2.0]);
        let h = std::f32::consts::FRAC_PI_4;
        assert!(
            (q[0] - h.cos()).abs() < 1e-6 && (q[3] - h.sin()).abs() < 1e-6,
            "{q:?}"
        );
    }

    #[test]
    fn only_the_hoomd_schema_1_and_2_is_read() {
        assert!(check_schema("f", SCHEMA, make_version(1, 4), "app").is_ok());
        assert!(check_schema("f", SCHEMA, make_version(2, 0), "app").is_ok());
        let e = check_schema("f", SCHEMA, make_version(3, 0), "app").unwrap_err();
        assert!(e.to_string().contains("version 3.0; app reads"), "{e}");
        let e = check_schema("f", "raw", make_version(1, 0), "app").unwrap_err();
        assert!(e.to_string().contains("its schema is 'raw'"), "{e}");
    }
}
