//! The GSD container, file layer 2.x: header, index, name list and data chunks, written frame by
//! frame and read back — schema-free (the HOOMD schema's rules are in [`crate::hoomd`]).
//!
//! # Layout
//!
//! All integers are little-endian (GSD stores the writer's native order; every platform this
//! crate builds for is little-endian, as are the files of the reference implementation in
//! practice).
//!
//! | block | where | content |
//! |---|---|---|
//! | header | bytes 0 ..256 | [`Header`]: magic `0x65DF65DF65DF65DF`, index and name-list locations and sizes, versions, application and schema names |
//! | index | `index_location`, `index_allocated_entries` × 32 bytes | [`IndexEntry`]s sorted by (frame, name id); the first entry whose location is 0 ends the list |
//! | name list | `namelist_location`, `namelist_allocated_entries` × 64 bytes | chunk names, each ended by a 0 byte; an empty name ends the list |
//! | data | anywhere after the header | each chunk's N × M values, row-major (M is the fast index) |
//!
//! A new file holds the header, an index of 128 empty entries and a 1024-byte name list, as the
//! reference implementation writes it. The index and the name list grow by being written again,
//! twice as large, at the end of the file; the header then points to the new copy.
//!
//! # Writing a frame, and what a killed run leaves
//!
//! [`GsdWriter::write_chunk`] only buffers; [`GsdWriter::end_frame`] writes the frame: (1) names
//! not yet in the file, into the name list; (2) all the frame's data, at the end of the file,
//! then `fsync`; (3) when the index is full, a larger copy of it at the end of the file, synced
//! before the header points to it; (4) the frame's index entries, in one write, after the entries
//! already there. A frame becomes visible only in step (4), after its data is on disk, so a run
//! killed at any point leaves a file whose whole frames all read back and whose half-written
//! frame is ignored (its data are unreferenced bytes at the end, which a later
//! [`GsdWriter::append`] leaves in place and writes after). The index entries are not synced
//! after step (4): after a power loss the last frames may be missing, never half present.
//!
//! # Reading a damaged file
//!
//! [`GsdReader::open`] checks every index entry as the reference implementation does (a known
//! type, data inside the file, a known name, flags 0, frames in order) and stops at the first
//! one that fails — a file cut short, or bytes changed. The frame that entry belongs to, and
//! everything after it, are dropped: [`GsdReader::frames`] counts only whole frames and
//! [`GsdReader::cut_short`] says why the file ended early. (The reference implementation refuses
//! such a file altogether.) A file whose header is wrong is an error: [`GsdError::NotGsd`] or
//! [`GsdError::Version`]. No input makes the reader panic or allocate more than the file's size.
//!
//! Where a cut falls matters because of where the index is. While it has room it stays where it
//! is, before the frames written since, so a cut among those frames keeps every frame before the
//! cut. But the index in use is the copy made when it last grew, at what was then the end of the
//! file: a cut before that copy removes the index, and with it every frame, though their data are
//! still there (the older copies are not searched). A killed run never cuts anything.

use std::collections::HashMap;
use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use crate::error::{clip, show_path, GsdError};

/// The magic number that starts every GSD file.
pub const MAGIC: u64 = 0x65DF_65DF_65DF_65DF;
/// Size of the header block (bytes).
pub const HEADER_BYTES: usize = 256;
/// Size of one index entry (bytes).
pub const INDEX_ENTRY_BYTES: usize = 32;
/// The name list is allocated in blocks of this many bytes.
pub const NAME_BLOCK_BYTES: u64 = 64;
/// Index entries allocated in a new file.
pub const INITIAL_INDEX_ENTRIES: u64 = 128;
/// Name-list bytes allocated in a new file.
pub const INITIAL_NAMELIST_BYTES: u64 = 1024;
/// Most distinct chunk names a file can hold (name ids are 16-bit; 65535 is no name).
pub const MAX_NAMES: usize = u16::MAX as usize;
/// The file-layer version written: 2.1.
pub const FILE_VERSION: u32 = make_version(2, 1);

/// Index entries read from the file at a time.
const INDEX_READ_BLOCK: u64 = 4096;

/// A GSD version number: `major` in the high 16 bits, `minor` in the low 16.
pub const fn make_version(major: u16, minor: u16) -> u32 {
    ((major as u32) << 16) | minor as u32
}

/// The (major, minor) of a GSD version number.
pub const fn split_version(version: u32) -> (u32, u32) {
    (version >> 16, version & 0xffff)
}

/// The element type of a chunk (the `type` byte of an index entry).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ChunkType {
    /// `uint8` (code 1).
    U8,
    /// `uint16` (code 2).
    U16,
    /// `uint32` (code 3).
    U32,
    /// `uint64` (code 4).
    U64,
    /// `int8` (code 5).
    I8,
    /// `int16` (code 6).
    I16,
    /// `int32` (code 7).
    I32,
    /// `int64` (code 8).
    I64,
    /// `float32` (code 9).
    F32,
    /// `float64` (code 10).
    F64,
    /// UTF-8 text, one byte per element (code 11, file layer 2.1).
    Char,
}

impl ChunkType {
    /// Every type, in code order.
    pub const ALL: [ChunkType; 11] = [
        ChunkType::U8,
        ChunkType::U16,
        ChunkType::U32,
        ChunkType::U64,
        ChunkType::I8,
        ChunkType::I16,
        ChunkType::I32,
        ChunkType::I64,
        ChunkType::F32,
        ChunkType::F64,
        ChunkType::Char,
    ];

    /// The code stored in an index entry.
    pub fn code(self) -> u8 {
        match self {
            ChunkType::U8 => 1,
            ChunkType::U16 => 2,
            ChunkType::U32 => 3,
            ChunkType::U64 => 4,
            ChunkType::I8 => 5,
            ChunkType::I16 => 6,
            ChunkType::I32 => 7,
            ChunkType::I64 => 8,
            ChunkType::F32 => 9,
            ChunkType::F64 => 10,
            ChunkType::Char => 11,
        }
    }

    /// The type of a code, or `None` for an unknown code.
    pub fn from_code(code: u8) -> Option<ChunkType> {
        ChunkType::ALL.into_iter().find(|t| t.code() == code)
    }

    /// Bytes per element.
    pub fn size(self) -> u64 {
        match self {
            ChunkType::U8 | ChunkType::I8 | ChunkType::Char => 1,
            ChunkType::U16 | ChunkType::I16 => 2,
            ChunkType::U32 | ChunkType::I32 | ChunkType::F32 => 4,
            ChunkType::U64 | ChunkType::I64 | ChunkType::F64 => 8,
        }
    }

    /// The NumPy name of the type (`"float32"`, …), for messages.
    pub fn name(self) -> &'static str {
        match self {
            ChunkType::U8 => "uint8",
            ChunkType::U16 => "uint16",
            ChunkType::U32 => "uint32",
            ChunkType::U64 => "uint64",
            ChunkType::I8 => "int8",
            ChunkType::I16 => "int16",
            ChunkType::I32 => "int32",
            ChunkType::I64 => "int64",
            ChunkType::F32 => "float32",
            ChunkType::F64 => "float64",
            ChunkType::Char => "char",
        }
    }
}

/// A value that can be stored in a chunk.
pub trait Element: Copy {
    /// Its chunk type.
    const TYPE: ChunkType;
    /// Appends its little-endian bytes to `out`.
    fn put(self, out: &mut Vec<u8>);
}

macro_rules! element {
    ($($t:ty => $v:ident),*) => {$(
        impl Element for $t {
            const TYPE: ChunkType = ChunkType::$v;
            fn put(self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_le_bytes());
            }
        }
    )*};
}
element!(u8 => U8, u16 => U16, u32 => U32, u64 => U64, i8 => I8, i16 => I16, i32 => I32,
    i64 => I64, f32 => F32, f64 => F64);

/// The 256-byte file header.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// Byte offset of the index.
    pub index_location: u64,
    /// Entries the index has room for.
    pub index_allocated_entries: u64,
    /// Byte offset of the name list.
    pub namelist_location: u64,
    /// Size of the name list, in 64-byte blocks.
    pub namelist_allocated_entries: u64,
    /// Version of the schema ([`make_version`]).
    pub schema_version: u32,
    /// Version of the file layer ([`make_version`]).
    pub gsd_version: u32,
    /// Name of the application that created the file (at most 63 bytes).
    pub application: String,
    /// Name of the schema (at most 63 bytes), e.g. `hoomd`.
    pub schema: String,
}

impl Header {
    /// The header's bytes.
    pub fn encode(&self) -> [u8; HEADER_BYTES] {
        let mut b = [0u8; HEADER_BYTES];
        b[0..8].copy_from_slice(&MAGIC.to_le_bytes());
        b[8..16].copy_from_slice(&self.index_location.to_le_bytes());
        b[16..24].copy_from_slice(&self.index_allocated_entries.to_le_bytes());
        b[24..32].copy_from_slice(&self.namelist_location.to_le_bytes());
        b[32..40].copy_from_slice(&self.namelist_allocated_entries.to_le_bytes());
        b[40..44].copy_from_slice(&self.schema_version.to_le_bytes());
        b[44..48].copy_from_slice(&self.gsd_version.to_le_bytes());
        put_c_string(&mut b[48..112], &self.application);
        put_c_string(&mut b[112..176], &self.schema);
        b
    }

    /// The header in `b`, and whether `b` starts with [`MAGIC`].
    pub fn decode(b: &[u8; HEADER_BYTES]) -> (Header, bool) {
        let header = Header {
            index_location: u64_at(b, 8),
            index_allocated_entries: u64_at(b, 16),
            namelist_location: u64_at(b, 24),
            namelist_allocated_entries: u64_at(b, 32),
            schema_version: u32_at(b, 40),
            gsd_version: u32_at(b, 44),
            application: c_string(&b[48..112]),
            schema: c_string(&b[112..176]),
        };
        (header, u64_at(b, 0) == MAGIC)
    }
}

/// One index entry: where a chunk of one frame lies and what it holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IndexEntry {
    /// The frame the chunk belongs to.
    pub frame: u64,
    /// Rows.
    pub n: u64,
    /// Byte offset of the data.
    pub location: u64,
    /// Columns.
    pub m: u32,
    /// Index of the chunk's name in the name list.
    pub id: u16,
    /// Element type.
    pub chunk_type: ChunkType,
}

impl IndexEntry {
    /// Bytes of data (N × M × element size; checked when the entry was read or written).
    pub fn data_bytes(&self) -> u64 {
        self.n * self.m as u64 * self.chunk_type.size()
    }

    /// The entry's 32 bytes.
    pub fn encode(&self) -> [u8; INDEX_ENTRY_BYTES] {
        let mut b = [0u8; INDEX_ENTRY_BYTES];
        b[0..8].copy_from_slice(&self.frame.to_le_bytes());
        b[8..16].copy_from_slice(&self.n.to_le_bytes());
        b[16..24].copy_from_slice(&self.location.to_le_bytes());
        b[24..28].copy_from_slice(&self.m.to_le_bytes());
        b[28..30].copy_from_slice(&self.id.to_le_bytes());
        b[30] = self.chunk_type.code();
        b[31] = 0;
        b
    }
}

/// An index entry as stored, before it is checked.
struct RawEntry {
    frame: u64,
    n: u64,
    location: u64,
    m: u32,
    id: u16,
    type_code: u8,
    flags: u8,
}

impl RawEntry {
    fn decode(b: &[u8]) -> RawEntry {
        RawEntry {
            frame: u64_at(b, 0),
            n: u64_at(b, 8),
            location: u64_at(b, 16),
            m: u32_at(b, 24),
            id: u16::from_le_bytes([b[28], b[29]]),
            type_code: b[30],
            flags: b[31],
        }
    }

    /// The entry, or why it cannot be one of a readable file. The error is the text of a
    /// [`GsdError::Damaged`] (which adds the file and the entry's index): a damaged index is
    /// refused whatever the fault, so a message is all a caller needs.
    fn check(
        &self,
        file_len: u64,
        names: &[String],
        allocated: u64,
        prev: Option<&IndexEntry>,
    ) -> Result<IndexEntry, String> {
        let name = names
            .get(self.id as usize)
            .map(|n| format!("chunk '{}'", clip(n)))
            .unwrap_or_else(|| format!("name id {}", self.id));
        let Some(chunk_type) = ChunkType::from_code(self.type_code) else {
            return Err(format!(
                "frame {}, {name}: unknown type code {}",
                self.frame, self.type_code
            ));
        };
        if self.flags != 0 {
            return Err(format!(
                "frame {}, {name}: flags {} (must be 0)",
                self.frame, self.flags
            ));
        }
        if self.id as usize >= names.len() {
            return Err(format!(
                "frame {}: name id {} but the name list holds {} name(s)",
                self.frame,
                self.id,
                names.len()
            ));
        }
        let bytes = self
            .n
            .checked_mul(self.m as u64)
            .and_then(|e| e.checked_mul(chunk_type.size()));
        let end = bytes.and_then(|b| self.location.checked_add(b));
        match end {
            Some(end) if end <= file_len => {}
            _ => {
                return Err(format!(
                    "frame {}, {name}: its {} × {} {} values at byte {} run past the end of the \
                     file ({file_len} bytes)",
                    self.frame,
                    self.n,
                    self.m,
                    chunk_type.name(),
                    self.location
                ))
            }
        }
        if self.frame >= allocated {
            return Err(format!(
                "frame {} is beyond the index's {allocated} entries",
                self.frame
            ));
        }
        if let Some(p) = prev {
            if self.frame < p.frame || (self.frame == p.frame && self.id <= p.id) {
                return Err(format!(
                    "frame {}, {name} is out of order after frame {}, name id {}",
                    self.frame, p.frame, p.id
                ));
            }
        }
        Ok(IndexEntry {
            frame: self.frame,
            n: self.n,
            location: self.location,
            m: self.m,
            id: self.id,
            chunk_type,
        })
    }
}

/// Why a chunk's values cannot be read as the type asked for. The caller adds the file, the frame
/// and the chunk (see `GsdError::Schema`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ChunkError {
    /// The chunk's element type is not one the conversion reads.
    #[error("type {found} (expected {expected})")]
    WrongType {
        /// The chunk's type, as the GSD format names it (`float32`, `int8`, …).
        found: &'static str,
        /// What the conversion reads.
        expected: &'static str,
    },
    /// A negative value where an unsigned one is read.
    #[error("negative value {value} at element {element}")]
    Negative {
        /// The value.
        value: i64,
        /// Its 0-based index among the chunk's values.
        element: usize,
    },
    /// A value above `u32::MAX` where a `u32` is read.
    #[error("value {value} at element {element} exceeds u32")]
    AboveU32 {
        /// The value.
        value: u64,
        /// Its 0-based index among the chunk's values.
        element: usize,
    },
    /// Text rows of no column: not even room for their 0 byte.
    #[error("M = 0 columns (text rows need at least their 0 byte)")]
    NoColumns,
    /// A text row that is not UTF-8.
    #[error("row {row} is not UTF-8 text")]
    NotUtf8 {
        /// Its 0-based index.
        row: usize,
    },
}

/// One chunk's data, as read.
#[derive(Clone, Debug, PartialEq)]
pub struct Chunk {
    /// Element type.
    pub chunk_type: ChunkType,
    /// Rows.
    pub n: u64,
    /// Columns.
    pub m: u32,
    /// The N × M values' bytes, little-endian, row-major.
    pub data: Vec<u8>,
}

impl Chunk {
    /// The values as `f32`: `float32` as stored, `float64` rounded to the nearest `f32`.
    ///
    /// # Errors
    /// [`ChunkError::WrongType`] for any other type.
    pub fn to_f32(&self) -> Result<Vec<f32>, ChunkError> {
        match self.chunk_type {
            ChunkType::F32 => Ok(self
                .data
                .chunks_exact(4)
                .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                .collect()),
            ChunkType::F64 => Ok(self
                .data
                .chunks_exact(8)
                .map(|b| f64_at(b, 0) as f32)
                .collect()),
            t => Err(ChunkError::WrongType {
                found: t.name(),
                expected: "float32 or float64",
            }),
        }
    }

    /// The values as `i32`: `int32` as stored (HOOMD's `particles/image`).
    ///
    /// # Errors
    /// [`ChunkError::WrongType`] for any other type.
    pub fn to_i32(&self) -> Result<Vec<i32>, ChunkError> {
        match self.chunk_type {
            ChunkType::I32 => Ok(self
                .data
                .chunks_exact(4)
                .map(|b| u32_at(b, 0) as i32)
                .collect()),
            t => Err(ChunkError::WrongType {
                found: t.name(),
                expected: "int32",
            }),
        }
    }

    /// The values as `u32`, from any integer type.
    ///
    /// # Errors
    /// As [`Chunk::to_u64`], or [`ChunkError::AboveU32`] naming the element.
    pub fn to_u32(&self) -> Result<Vec<u32>, ChunkError> {
        self.to_u64()?
            .into_iter()
            .enumerate()
            .map(|(element, value)| {
                u32::try_from(value).map_err(|_| ChunkError::AboveU32 { value, element })
            })
            .collect()
    }

    /// The values as `u64`, from any integer type.
    ///
    /// # Errors
    /// [`ChunkError::WrongType`] for a float or text type, [`ChunkError::Negative`] naming the
    /// element.
    pub fn to_u64(&self) -> Result<Vec<u64>, ChunkError> {
        let signed = |value: i64, element: usize| {
            u64::try_from(value).map_err(|_| ChunkError::Negative { value, element })
        };
        let d = &self.data;
        match self.chunk_type {
            ChunkType::U8 => Ok(d.iter().map(|&v| v as u64).collect()),
            ChunkType::U16 => Ok(d
                .chunks_exact(2)
                .map(|b| u16::from_le_bytes([b[0], b[1]]) as u64)
                .collect()),
            ChunkType::U32 => Ok(d.chunks_exact(4).map(|b| u32_at(b, 0) as u64).collect()),
            ChunkType::U64 => Ok(d.chunks_exact(8).map(|b| u64_at(b, 0)).collect()),
            ChunkType::I8 => d
                .iter()
                .enumerate()
                .map(|(i, &v)| signed(v as i8 as i64, i))
                .collect(),
            ChunkType::I16 => d
                .chunks_exact(2)
                .enumerate()
                .map(|(i, b)| signed(i16::from_le_bytes([b[0], b[1]]) as i64, i))
                .collect(),
            ChunkType::I32 => d
                .chunks_exact(4)
                .enumerate()
                .map(|(i, b)| signed(u32_at(b, 0) as i32 as i64, i))
                .collect(),
            ChunkType::I64 => d
                .chunks_exact(8)
                .enumerate()
                .map(|(i, b)| signed(u64_at(b, 0) as i64, i))
                .collect(),
            t => Err(ChunkError::WrongType {
                found: t.name(),
                expected: "an integer type",
            }),
        }
    }

    /// Each row as text: its bytes up to the first 0 byte, as UTF-8 (the layout of HOOMD's
    /// `particles/types`).
    ///
    /// # Errors
    /// [`ChunkError::WrongType`] for a type other than `int8`, `uint8` or `char`,
    /// [`ChunkError::NoColumns`], or [`ChunkError::NotUtf8`] naming the row.
    pub fn text_rows(&self) -> Result<Vec<String>, ChunkError> {
        if !matches!(
            self.chunk_type,
            ChunkType::I8 | ChunkType::U8 | ChunkType::Char
        ) {
            return Err(ChunkError::WrongType {
                found: self.chunk_type.name(),
                expected: "int8, uint8 or char text rows",
            });
        }
        if self.m == 0 {
            return Err(ChunkError::NoColumns);
        }
        self.data
            .chunks_exact(self.m as usize)
            .enumerate()
            .map(|(i, row)| {
                let end = row.iter().position(|&c| c == 0).unwrap_or(row.len());
                String::from_utf8(row[..end].to_vec()).map_err(|_| ChunkError::NotUtf8 { row: i })
            })
            .collect()
    }
}

/// What reading the header, name list and index of a file found.
struct Scan {
    header: Header,
    names: Vec<String>,
    /// Bytes of the name list in use (each name and its 0 byte).
    namelist_used: u64,
    index: Vec<IndexEntry>,
    frames: u64,
    cut_short: Option<String>,
    file_len: u64,
}

fn io_err(shown: &str, action: &'static str, e: std::io::Error) -> GsdError {
    GsdError::Io {
        path: shown.to_string(),
        action,
        message: e.to_string(),
    }
}

/// Refuses a path that exists and is not a regular file (a FIFO or device would block or never
/// end; a folder is no GSD file), before opening it.
fn refuse_special(path: &Path, shown: &str) -> Result<(), GsdError> {
    match std::fs::metadata(path) {
        Ok(meta) if !meta.is_file() => Err(GsdError::NotGsd {
            path: shown.to_string(),
            message: "it is not a regular file".into(),
        }),
        _ => Ok(()),
    }
}

/// Reads `len` bytes at `offset`.
fn read_at(file: &mut File, offset: u64, len: u64) -> std::io::Result<Vec<u8>> {
    file.seek(SeekFrom::Start(offset))?;
    let mut buf = vec![0u8; len as usize];
    file.read_exact(&mut buf)?;
    Ok(buf)
}

fn write_at(file: &mut File, offset: u64, bytes: &[u8]) -> std::io::Result<()> {
    file.seek(SeekFrom::Start(offset))?;
    file.write_all(bytes)
}

/// Reads and checks the header, the name list and the index.
fn scan(file: &mut File, shown: &str) -> Result<Scan, GsdError> {
    let meta = file.metadata().map_err(|e| io_err(shown, "read", e))?;
    if !meta.is_file() {
        return Err(GsdError::NotGsd {
            path: shown.to_string(),
            message: "it is not a regular file".into(),
        });
    }
    let file_len = meta.len();
    if file_len < HEADER_BYTES as u64 {
        return Err(GsdError::NotGsd {
            path: shown.to_string(),
            message: format!("it has {file_len} bytes, fewer than the {HEADER_BYTES}-byte header"),
        });
    }
    let raw = read_at(file, 0, HEADER_BYTES as u64).map_err(|e| io_err(shown, "read", e))?;
    let mut hb = [0u8; HEADER_BYTES];
    hb.copy_from_slice(&raw);
    let (header, magic) = Header::decode(&hb);
    if !magic {
        return Err(GsdError::NotGsd {
            path: shown.to_string(),
            message: "it does not start with the GSD magic number 0x65DF65DF65DF65DF".into(),
        });
    }
    let (major, minor) = split_version(header.gsd_version);
    if major != 2 {
        return Err(GsdError::Version {
            path: shown.to_string(),
            major,
            minor,
        });
    }

    let mut cut_short = None;

    // The name list: as much of it as the file holds.
    let list_bytes = header
        .namelist_allocated_entries
        .saturating_mul(NAME_BLOCK_BYTES);
    let available = file_len
        .saturating_sub(header.namelist_location)
        .min(list_bytes);
    if available < list_bytes {
        cut_short = Some(format!(
            "the name list ({list_bytes} bytes at byte {}) runs past the end of the file \
             ({file_len} bytes)",
            header.namelist_location
        ));
    }
    let list = read_at(file, header.namelist_location.min(file_len), available)
        .map_err(|e| io_err(shown, "read", e))?;
    let mut names = Vec::new();
    let mut start = 0usize;
    while start < list.len() && list[start] != 0 && names.len() < MAX_NAMES {
        match list[start..].iter().position(|&c| c == 0) {
            Some(len) => {
                names.push(String::from_utf8_lossy(&list[start..start + len]).into_owned());
                start += len + 1;
            }
            None => break, // a name cut off by the end of the file
        }
    }
    let namelist_used = start as u64;

    // The index: entries up to the first empty one, each checked.
    let allocated = header.index_allocated_entries;
    let present =
        (file_len.saturating_sub(header.index_location) / INDEX_ENTRY_BYTES as u64).min(allocated);
    let mut index: Vec<IndexEntry> = Vec::new();
    let mut invalid: Option<(u64, String)> = None;
    let mut ended = false;
    let mut read = 0u64;
    'blocks: while read < present {
        let count = (present - read).min(INDEX_READ_BLOCK);
        let at = header.index_location + read * INDEX_ENTRY_BYTES as u64;
        let block = read_at(file, at, count * INDEX_ENTRY_BYTES as u64)
            .map_err(|e| io_err(shown, "read", e))?;
        for (k, b) in block.chunks_exact(INDEX_ENTRY_BYTES).enumerate() {
            let raw = RawEntry::decode(b);
            if raw.location == 0 {
                ended = true;
                break 'blocks;
            }
            match raw.check(file_len, &names, allocated, index.last()) {
                Ok(e) => index.push(e),
                Err(msg) => {
                    invalid = Some((raw.frame, format!("index entry {}: {msg}", read + k as u64)));
                    break 'blocks;
                }
            }
        }
        read += count;
    }
    let last_frame = index.last().map(|e| e.frame);
    let frames = match (&invalid, last_frame) {
        (_, None) => 0,
        // The entry that failed starts a later frame: the last frame read is whole.
        (Some((f, _)), Some(last)) if *f > last => last + 1,
        // It may belong to the last frame read, which then is not whole.
        (Some(_), Some(last)) => last,
        // The file ends inside the index: the last frame may have more entries past the end.
        (None, Some(last)) if !ended && present < allocated => last,
        (None, Some(last)) => last + 1,
    };
    if let Some((_, msg)) = invalid {
        cut_short = Some(msg);
    } else if !ended && present < allocated {
        cut_short = Some(format!(
            "the index ({allocated} entries at byte {}) runs past the end of the file \
             ({file_len} bytes)",
            header.index_location
        ));
    }
    index.retain(|e| e.frame < frames);
    Ok(Scan {
        header,
        names,
        namelist_used,
        index,
        frames,
        cut_short,
        file_len,
    })
}

/// A GSD file open for reading.
#[derive(Debug)]
pub struct GsdReader {
    path: PathBuf,
    shown: String,
    file: File,
    header: Header,
    names: Vec<String>,
    ids: HashMap<String, u16>,
    index: Vec<IndexEntry>,
    frames: u64,
    cut_short: Option<String>,
    file_len: u64,
}

impl GsdReader {
    /// Opens `path` and reads its header, name list and index (not the data).
    ///
    /// # Errors
    /// [`GsdError::Io`] when it cannot be opened or read, [`GsdError::NotGsd`] for a file that
    /// is not GSD (or not a regular file), [`GsdError::Version`] for a file layer other than 2.x.
    /// A file cut short is not an error: see [`GsdReader::cut_short`].
    pub fn open(path: &Path) -> Result<GsdReader, GsdError> {
        let shown = show_path(path);
        refuse_special(path, &shown)?;
        let mut file = File::open(path).map_err(|e| io_err(&shown, "open", e))?;
        let s = scan(&mut file, &shown)?;
        let mut ids = HashMap::new();
        for (i, n) in s.names.iter().enumerate() {
            ids.entry(n.clone()).or_insert(i as u16);
        }
        Ok(GsdReader {
            path: path.to_path_buf(),
            shown,
            file,
            header: s.header,
            names: s.names,
            ids,
            index: s.index,
            frames: s.frames,
            cut_short: s.cut_short,
            file_len: s.file_len,
        })
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The path as error messages show it.
    pub fn shown_path(&self) -> &str {
        &self.shown
    }

    /// The header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// Number of whole frames.
    pub fn frames(&self) -> u64 {
        self.frames
    }

    /// Why the file ends before its index does (cut short or damaged), or `None` for a file
    /// whose index reads to its end.
    pub fn cut_short(&self) -> Option<&str> {
        self.cut_short.as_deref()
    }

    /// Every chunk name in the file, in name-id order.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// The index entries of the whole frames, sorted by (frame, name id).
    pub fn entries(&self) -> &[IndexEntry] {
        &self.index
    }

    /// The names of the chunks present in `frame`, in name-id order.
    pub fn chunk_names(&self, frame: u64) -> Vec<&str> {
        let start = self.index.partition_point(|e| e.frame < frame);
        self.index[start..]
            .iter()
            .take_while(|e| e.frame == frame)
            .map(|e| self.names[e.id as usize].as_str())
            .collect()
    }

    /// The entry of chunk `name` in `frame`, if that frame has one.
    pub fn find(&self, frame: u64, name: &str) -> Option<IndexEntry> {
        let id = *self.ids.get(name)?;
        self.index
            .binary_search_by_key(&(frame, id), |e| (e.frame, e.id))
            .ok()
            .map(|i| self.index[i])
    }

    /// The data of `entry`.
    ///
    /// # Errors
    /// [`GsdError::Io`], or [`GsdError::Damaged`] when the file has shrunk since it was opened.
    pub fn read(&mut self, entry: &IndexEntry) -> Result<Chunk, GsdError> {
        let bytes = entry.data_bytes();
        if entry.location.saturating_add(bytes) > self.file_len {
            return Err(GsdError::Damaged {
                path: self.shown.clone(),
                message: format!("a chunk of frame {} lies past its end", entry.frame),
            });
        }
        let data = if bytes == 0 {
            Vec::new()
        } else {
            read_at(&mut self.file, entry.location, bytes).map_err(|e| {
                if e.kind() == std::io::ErrorKind::UnexpectedEof {
                    GsdError::Damaged {
                        path: self.shown.clone(),
                        message: "it became shorter while being read".into(),
                    }
                } else {
                    io_err(&self.shown, "read", e)
                }
            })?
        };
        Ok(Chunk {
            chunk_type: entry.chunk_type,
            n: entry.n,
            m: entry.m,
            data,
        })
    }

    /// The data of chunk `name` in `frame`, or `None` when that frame has no such chunk.
    ///
    /// # Errors
    /// As [`GsdReader::read`].
    pub fn read_chunk(&mut self, frame: u64, name: &str) -> Result<Option<Chunk>, GsdError> {
        match self.find(frame, name) {
            Some(e) => self.read(&e).map(Some),
            None => Ok(None),
        }
    }
}

/// A chunk of the frame being written: where its data lies in the frame buffer.
#[derive(Debug)]
struct Pending {
    id: u16,
    chunk_type: ChunkType,
    n: u64,
    m: u32,
    offset: u64,
}

/// A GSD file open for writing frames at its end.
#[derive(Debug)]
pub struct GsdWriter {
    path: PathBuf,
    shown: String,
    file: File,
    header: Header,
    ids: HashMap<String, u16>,
    /// Names in the file's name list and this frame's (the next name's id).
    n_names: usize,
    /// The name list's bytes in use (names and their 0 bytes), including names of this frame.
    names_bytes: Vec<u8>,
    /// How many bytes of `names_bytes` are in the file.
    names_written: usize,
    /// Entries in the file's index.
    index_entries: u64,
    /// The number of the frame being written.
    frame: u64,
    pending: Vec<Pending>,
    data: Vec<u8>,
    file_len: u64,
    /// Why an earlier write failed (the file may then hold a partial frame; nothing more is
    /// written).
    failed: Option<String>,
}

/// Takes the exclusive advisory lock on `file`, so two writers never append to one file.
fn lock(file: &File, shown: &str) -> Result<(), GsdError> {
    match file.try_lock() {
        Ok(()) => Ok(()),
        Err(TryLockError::WouldBlock) => Err(GsdError::Io {
            path: shown.to_string(),
            action: "lock",
            message: "another writer has it open".into(),
        }),
        Err(TryLockError::Error(e)) if e.kind() == std::io::ErrorKind::Unsupported => Ok(()),
        Err(TryLockError::Error(e)) => Err(io_err(shown, "lock", e)),
    }
}

impl GsdWriter {
    /// Creates (or empties) `path` as a GSD file with no frame: the header, an empty index and
    /// an empty name list, synced. `application` and `schema` are cut to 63 bytes.
    ///
    /// # Errors
    /// [`GsdError::Io`] when the file cannot be created, locked or written (a path that exists
    /// but is not a regular file is refused, not opened).
    pub fn create(
        path: &Path,
        application: &str,
        schema: &str,
        schema_version: u32,
    ) -> Result<GsdWriter, GsdError> {
        let shown = show_path(path);
        if let Ok(meta) = std::fs::metadata(path) {
            if !meta.is_file() {
                return Err(GsdError::Io {
                    path: shown,
                    action: "create",
                    message: "it exists and is not a regular file".into(),
                });
            }
        }
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
            .map_err(|e| io_err(&shown, "create", e))?;
        lock(&file, &shown)?;
        let header = Header {
            index_location: HEADER_BYTES as u64,
            index_allocated_entries: INITIAL_INDEX_ENTRIES,
            namelist_location: HEADER_BYTES as u64
                + INITIAL_INDEX_ENTRIES * INDEX_ENTRY_BYTES as u64,
            namelist_allocated_entries: INITIAL_NAMELIST_BYTES / NAME_BLOCK_BYTES,
            schema_version,
            gsd_version: FILE_VERSION,
            application: application.to_string(),
            schema: schema.to_string(),
        };
        let file_len = header.namelist_location + INITIAL_NAMELIST_BYTES;
        let mut bytes = vec![0u8; file_len as usize];
        bytes[..HEADER_BYTES].copy_from_slice(&header.encode());
        let header = Header::decode(&header.encode()).0; // the names as stored (cut to 63 bytes)
        (|| {
            file.set_len(0)?;
            write_at(&mut file, 0, &bytes)?;
            file.sync_all()
        })()
        .map_err(|e| io_err(&shown, "write", e))?;
        Ok(GsdWriter {
            path: path.to_path_buf(),
            shown,
            file,
            header,
            ids: HashMap::new(),
            n_names: 0,
            names_bytes: Vec::new(),
            names_written: 0,
            index_entries: 0,
            frame: 0,
            pending: Vec::new(),
            data: Vec::new(),
            file_len,
            failed: None,
        })
    }

    /// Opens the existing GSD file `path` to write frames after its last one.
    ///
    /// # Errors
    /// As [`GsdReader::open`]; [`GsdError::Damaged`] when the file is cut short or damaged
    /// ([`GsdReader::cut_short`]): appending after a damaged index would leave frames no reader
    /// can reach. Bytes after the last whole frame (the half-written frame of a killed run) are
    /// left in place and written after.
    pub fn append(path: &Path) -> Result<GsdWriter, GsdError> {
        let shown = show_path(path);
        refuse_special(path, &shown)?;
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .open(path)
            .map_err(|e| io_err(&shown, "open", e))?;
        lock(&file, &shown)?;
        let s = scan(&mut file, &shown)?;
        if let Some(why) = s.cut_short {
            return Err(GsdError::Damaged {
                path: shown,
                message: format!("cannot append: {why}"),
            });
        }
        let mut ids = HashMap::new();
        for (i, n) in s.names.iter().enumerate() {
            ids.entry(n.clone()).or_insert(i as u16);
        }
        let names_bytes = read_at(&mut file, s.header.namelist_location, s.namelist_used)
            .map_err(|e| io_err(&shown, "read", e))?;
        Ok(GsdWriter {
            path: path.to_path_buf(),
            shown,
            file,
            header: s.header,
            ids,
            n_names: s.names.len(),
            names_written: names_bytes.len(),
            names_bytes,
            index_entries: s.index.len() as u64,
            frame: s.frames,
            pending: Vec::new(),
            data: Vec::new(),
            file_len: s.file_len,
            failed: None,
        })
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The path as error messages show it.
    pub fn shown_path(&self) -> &str {
        &self.shown
    }

    /// The header as last written.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The number of the frame being written: the number of whole frames in the file.
    pub fn frames(&self) -> u64 {
        self.frame
    }

    /// The file's size in bytes (after the last [`GsdWriter::end_frame`]).
    pub fn file_len(&self) -> u64 {
        self.file_len
    }

    fn write_error(&self, message: String) -> GsdError {
        GsdError::Write {
            path: self.shown.clone(),
            message,
        }
    }

    fn check_usable(&self) -> Result<(), GsdError> {
        match &self.failed {
            Some(why) => Err(self.write_error(format!("an earlier write failed ({why})"))),
            None => Ok(()),
        }
    }

    /// Adds chunk `name` to the frame being written: `values` as `values.len() / m` rows of `m`
    /// columns. Nothing reaches the file before [`GsdWriter::end_frame`].
    ///
    /// # Errors
    /// [`GsdError::Write`] for an empty name or one with a 0 byte, `m` = 0 or not dividing the
    /// length, a name already written in this frame, a 65 536th name, or a writer whose earlier
    /// write failed.
    pub fn write_chunk<T: Element>(
        &mut self,
        name: &str,
        m: u32,
        values: &[T],
    ) -> Result<(), GsdError> {
        if m == 0 || !values.len().is_multiple_of(m as usize) {
            return Err(self.write_error(format!(
                "chunk '{name}': {} values do not make rows of {m}",
                values.len()
            )));
        }
        let n = (values.len() / m as usize) as u64;
        self.write_rows(name, n, m, values.iter().copied())
    }

    /// [`GsdWriter::write_chunk`] from an iterator: `n` rows of `m` columns, taken from `values`,
    /// which must yield exactly `n × m` values (no temporary copy of them is made).
    ///
    /// # Errors
    /// As [`GsdWriter::write_chunk`], and a count other than `n × m` (the chunk is then not
    /// added).
    pub fn write_rows<T: Element, I: IntoIterator<Item = T>>(
        &mut self,
        name: &str,
        n: u64,
        m: u32,
        values: I,
    ) -> Result<(), GsdError> {
        self.check_usable()?;
        if name.is_empty() || name.contains('\0') {
            return Err(self.write_error(format!(
                "chunk name {:?} is empty or holds a 0 byte",
                clip(name)
            )));
        }
        if m == 0 {
            return Err(self.write_error(format!("chunk '{name}' has 0 columns")));
        }
        let known = self.ids.get(name).copied();
        if let Some(id) = known {
            if self.pending.iter().any(|p| p.id == id) {
                return Err(self.write_error(format!(
                    "chunk '{name}' is written twice in frame {}",
                    self.frame
                )));
            }
        } else if self.n_names >= MAX_NAMES {
            return Err(self.write_error(format!(
                "chunk '{name}': the file already holds the most names GSD allows ({MAX_NAMES})"
            )));
        }
        let offset = self.data.len();
        let mut count = 0u64;
        for v in values {
            v.put(&mut self.data);
            count += 1;
        }
        if Some(count) != n.checked_mul(m as u64) {
            self.data.truncate(offset);
            return Err(self.write_error(format!(
                "chunk '{name}': {count} values given for {n} rows of {m}"
            )));
        }
        let id = match known {
            Some(id) => id,
            None => {
                let id = self.n_names as u16;
                self.n_names += 1;
                self.ids.insert(name.to_string(), id);
                self.names_bytes.extend_from_slice(name.as_bytes());
                self.names_bytes.push(0);
                id
            }
        };
        self.pending.push(Pending {
            id,
            chunk_type: T::TYPE,
            n,
            m,
            offset: offset as u64,
        });
        Ok(())
    }

    /// Drops the chunks added since the last [`GsdWriter::end_frame`] (names they introduced stay
    /// in the name list).
    pub fn discard_frame(&mut self) {
        self.pending.clear();
        self.data.clear();
    }

    /// Writes the frame (names, data, sync, index entries: see the module docs) and starts the
    /// next one.
    ///
    /// # Errors
    /// [`GsdError::Write`] for a frame without chunks; [`GsdError::Io`] when a write fails, after
    /// which the writer refuses further frames (the file keeps every frame ended before).
    pub fn end_frame(&mut self) -> Result<(), GsdError> {
        self.check_usable()?;
        if self.pending.is_empty() {
            return Err(self.write_error(format!("frame {} has no chunk", self.frame)));
        }
        match self.commit() {
            Ok(()) => {
                self.frame += 1;
                self.pending.clear();
                self.data.clear();
                Ok(())
            }
            Err(e) => {
                self.failed = Some(e.to_string());
                Err(io_err(&self.shown, "write", e))
            }
        }
    }

    fn commit(&mut self) -> std::io::Result<()> {
        // (1) New names.
        if self.names_bytes.len() > self.names_written {
            let room = self.header.namelist_allocated_entries * NAME_BLOCK_BYTES;
            if self.names_bytes.len() as u64 <= room {
                let at = self.header.namelist_location + self.names_written as u64;
                write_at(&mut self.file, at, &self.names_bytes[self.names_written..])?;
            } else {
                let mut size = room.max(NAME_BLOCK_BYTES);
                while size <= self.names_bytes.len() as u64 {
                    size *= 2;
                }
                let mut list = self.names_bytes.clone();
                list.resize(size as usize, 0);
                let at = self.file_len;
                write_at(&mut self.file, at, &list)?;
                self.file.sync_data()?;
                self.file_len += size;
                self.header.namelist_location = at;
                self.header.namelist_allocated_entries = size / NAME_BLOCK_BYTES;
                write_at(&mut self.file, 0, &self.header.encode())?;
                self.file.sync_data()?;
            }
            self.names_written = self.names_bytes.len();
        }

        // (2) Data, then sync: no index entry may point at data not on disk.
        let data_at = self.file_len;
        write_at(&mut self.file, data_at, &self.data)?;
        self.file_len += self.data.len() as u64;
        self.file.sync_data()?;

        // (3) Room in the index.
        let needed = self.index_entries + self.pending.len() as u64;
        if needed > self.header.index_allocated_entries {
            // As the reference implementation: double until it holds more than needed.
            let mut size = self.header.index_allocated_entries.max(1).saturating_mul(2);
            while size <= needed {
                size = size.saturating_mul(2);
            }
            let new_at = self.file_len;
            self.file
                .set_len(new_at + size * INDEX_ENTRY_BYTES as u64)?;
            let used = self.index_entries * INDEX_ENTRY_BYTES as u64;
            let block = INDEX_READ_BLOCK * INDEX_ENTRY_BYTES as u64;
            let mut done = 0;
            while done < used {
                let count = (used - done).min(block);
                let bytes = read_at(&mut self.file, self.header.index_location + done, count)?;
                write_at(&mut self.file, new_at + done, &bytes)?;
                done += count;
            }
            self.file.sync_data()?;
            self.header.index_location = new_at;
            self.header.index_allocated_entries = size;
            write_at(&mut self.file, 0, &self.header.encode())?;
            self.file.sync_data()?;
            self.file_len = new_at + size * INDEX_ENTRY_BYTES as u64;
        }

        // (4) The frame's entries, sorted by name id, in one write.
        self.pending.sort_by_key(|p| p.id);
        let mut entries = Vec::with_capacity(self.pending.len() * INDEX_ENTRY_BYTES);
        for p in &self.pending {
            let e = IndexEntry {
                frame: self.frame,
                n: p.n,
                location: data_at + p.offset,
                m: p.m,
                id: p.id,
                chunk_type: p.chunk_type,
            };
            entries.extend_from_slice(&e.encode());
        }
        let at = self.header.index_location + self.index_entries * INDEX_ENTRY_BYTES as u64;
        write_at(&mut self.file, at, &entries)?;
        self.file.flush()?;
        self.index_entries = needed;
        Ok(())
    }
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    let mut a = [0u8; 8];
    a.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(a)
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    let mut a = [0u8; 4];
    a.copy_from_slice(&b[at..at + 4]);
    u32::from_le_bytes(a)
}

fn f64_at(b: &[u8], at: usize) -> f64 {
    f64::from_bits(u64_at(b, at))
}

/// The text of a 0-terminated field (all of it when no 0 byte), lossily as UTF-8.
fn c_string(b: &[u8]) -> String {
    let end = b.iter().position(|&c| c == 0).unwrap_or(b.len());
    String::from_utf8_lossy(&b[..end]).into_owned()
}

/// Stores `s` in `field` with a 0 byte after it, cut (at a character boundary) to fit.
fn put_c_string(field: &mut [u8], s: &str) {
    let mut end = s.len().min(field.len() - 1);
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    field[..end].copy_from_slice(&s.as_bytes()[..end]);
    field[end..].fill(0);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp() -> tempfile::TempDir {
        tempfile::tempdir().expect("temporary folder")
    }

    #[test]
    fn header_bytes_round_trip_and_names_are_cut_to_63_bytes() {
        let long = "é".repeat(40); // 80 bytes: cut to 62 (a character boundary below 63)
        let h = Header {
            index_location: 1,
            index_allocated_entries: 2,
            namelist_location: 3,
            namelist_allocated_entries: 4,
            schema_version: make_version(1, 4),
            gsd_version: FILE_VERSION,
            application: long.clone(),
            schema: "hoomd".into(),
        };
        let b = h.encode();
        assert_eq!(&b[..8], &MAGIC.to_le_bytes());
        let (back, magic) = Header::decode(&b);
        assert!(magic);
        assert_eq!(back.application, "é".repeat(31));
        assert_eq!(
            back,
            Header {
                application: "é".repeat(31),
                ..h
            }
        );
        assert_eq!(split_version(make_version(2, 1)), (2, 1));
        assert_eq!(make_version(2, 1), 0x0002_0001);
    }

    #[test]
    fn chunks_of_every_type_read_back_over_several_frames() {
        let dir = temp();
        let path = dir.path().join("t.gsd");
        let mut w = GsdWriter::create(&path, "test", "raw", make_version(1, 0)).unwrap();
        for f in 0..4u8 {
            w.write_chunk("u8", 2, &[f, 2, 3, 4]).unwrap();
            w.write_chunk("u16", 1, &[u16::MAX - f as u16]).unwrap();
            w.write_chunk("u32", 1, &[7u32 + f as u32]).unwrap();
            w.write_chunk("u64", 1, &[u64::MAX - f as u64]).unwrap();
            w.write_chunk("i8", 1, &[-(f as i8)]).unwrap();
            w.write_chunk("i16", 1, &[-300i16]).unwrap();
            w.write_chunk("i32", 1, &[-70_000i32]).unwrap();
            w.write_chunk("i64", 1, &[i64::MIN]).unwrap();
            w.write_chunk("f32", 3, &[-0.0f32, f32::MIN_POSITIVE, 1.5 + f as f32])
                .unwrap();
            w.write_chunk("f64", 1, &[0.1f64]).unwrap();
            if f % 2 == 1 {
                w.write_chunk("odd", 1, &[f as u32]).unwrap(); // a name first seen in frame 1
            }
            w.write_chunk::<f32>("empty", 3, &[]).unwrap();
            w.end_frame().unwrap();
        }
        assert_eq!(w.frames(), 4);
        drop(w);
        let mut r = GsdReader::open(&path).unwrap();
        assert_eq!(r.frames(), 4);
        assert_eq!(r.cut_short(), None);
        assert_eq!(r.header().schema, "raw");
        assert_eq!(r.header().application, "test");
        assert_eq!(r.header().gsd_version, FILE_VERSION);
        for f in 0..4u8 {
            let c = r.read_chunk(f as u64, "u8").unwrap().unwrap();
            assert_eq!((c.chunk_type, c.n, c.m), (ChunkType::U8, 2, 2));
            assert_eq!(c.data, vec![f, 2, 3, 4]);
            let get =
                |r: &mut GsdReader, name: &str| r.read_chunk(f as u64, name).unwrap().unwrap();
            assert_eq!(
                get(&mut r, "u16").to_u64().unwrap(),
                vec![u16::MAX as u64 - f as u64]
            );
            assert_eq!(get(&mut r, "u32").to_u32().unwrap(), vec![7 + f as u32]);
            assert_eq!(
                get(&mut r, "u64").to_u64().unwrap(),
                vec![u64::MAX - f as u64]
            );
            assert_eq!(get(&mut r, "u64").chunk_type, ChunkType::U64);
            let i8c = get(&mut r, "i8");
            assert_eq!(i8c.chunk_type, ChunkType::I8);
            if f == 0 {
                assert_eq!(i8c.to_u64().unwrap(), vec![0]);
            } else {
                let e = i8c.to_u64().unwrap_err();
                assert_eq!(
                    e,
                    ChunkError::Negative {
                        value: -(f as i64),
                        element: 0
                    }
                );
                assert!(e.to_string().contains("negative value"));
            }
            assert_eq!(get(&mut r, "i16").data, (-300i16).to_le_bytes());
            assert_eq!(get(&mut r, "i32").data, (-70_000i32).to_le_bytes());
            assert_eq!(get(&mut r, "i64").data, i64::MIN.to_le_bytes());
            let floats = get(&mut r, "f32").to_f32().unwrap();
            let bits: Vec<u32> = floats.iter().map(|x| x.to_bits()).collect();
            let want = [-0.0f32, f32::MIN_POSITIVE, 1.5 + f as f32].map(f32::to_bits);
            assert_eq!(bits, want);
            assert_eq!(get(&mut r, "f64").to_f32().unwrap(), vec![0.1f64 as f32]);
            assert!(get(&mut r, "f64").to_u64().is_err());
            let empty = get(&mut r, "empty");
            assert_eq!((empty.n, empty.m, empty.data.len()), (0, 3, 0));
            assert_eq!(r.find(f as u64, "odd").is_some(), f % 2 == 1);
        }
        assert_eq!(
            r.chunk_names(1),
            // Name-id order: "odd" got its id in frame 1, after "empty" in frame 0.
            vec![
                "u8", "u16", "u32", "u64", "i8", "i16", "i32", "i64", "f32", "f64", "empty", "odd"
            ]
        );
        assert!(!r.chunk_names(0).contains(&"odd"));
        assert_eq!(r.find(4, "u8"), None);
        assert_eq!(r.find(0, "no such chunk"), None);
    }

    #[test]
    fn index_and_name_list_grow_past_their_first_allocation() {
        let dir = temp();
        let path = dir.path().join("grow.gsd");
        let mut w = GsdWriter::create(&path, "test", "raw", 0).unwrap();
        // 40 names of 40 bytes: 1640 bytes, past the 1024-byte name list; 50 frames × 41 chunks:
        // 2050 entries, past the 128-entry index several times.
        let names: Vec<String> = (0..40).map(|i| format!("{i:0>40}")).collect();
        for f in 0..50u32 {
            for (i, n) in names.iter().enumerate() {
                w.write_chunk(n, 1, &[f * 100 + i as u32]).unwrap();
            }
            w.write_chunk("frame", 1, &[f]).unwrap();
            w.end_frame().unwrap();
        }
        let h = w.header().clone();
        drop(w);
        assert!(h.index_allocated_entries > 2050, "{h:?}");
        assert!(h.index_location > HEADER_BYTES as u64, "{h:?}");
        assert!(
            h.namelist_allocated_entries * NAME_BLOCK_BYTES > 1640,
            "{h:?}"
        );
        let mut r = GsdReader::open(&path).unwrap();
        assert_eq!(r.frames(), 50);
        assert_eq!(r.names().len(), 41);
        assert_eq!(r.cut_short(), None);
        for f in 0..50u32 {
            for (i, n) in names.iter().enumerate() {
                let c = r.read_chunk(f as u64, n).unwrap().unwrap();
                assert_eq!(c.to_u32().unwrap(), vec![f * 100 + i as u32]);
            }
        }
    }

    #[test]
    fn append_continues_after_the_last_frame_and_after_a_killed_frame() {
        let dir = temp();
        let path = dir.path().join("a.gsd");
        let mut w = GsdWriter::create(&path, "test", "raw", 0).unwrap();
        for f in 0..3u64 {
            w.write_chunk("f", 1, &[f]).unwrap();
            w.end_frame().unwrap();
        }
        drop(w);
        // What a run killed in the middle of a frame leaves: data at the end, no index entry.
        let mut file = OpenOptions::new().append(true).open(&path).unwrap();
        file.write_all(&[0xAB; 1000]).unwrap();
        drop(file);
        assert_eq!(GsdReader::open(&path).unwrap().frames(), 3);
        let mut w = GsdWriter::append(&path).unwrap();
        assert_eq!(w.frames(), 3);
        for f in 3..200u64 {
            w.write_chunk("f", 1, &[f]).unwrap();
            if f == 150 {
                w.write_chunk("late name", 1, &[1u8]).unwrap();
            }
            w.end_frame().unwrap();
        }
        drop(w);
        let mut r = GsdReader::open(&path).unwrap();
        assert_eq!(r.frames(), 200);
        for f in 0..200u64 {
            assert_eq!(
                r.read_chunk(f, "f").unwrap().unwrap().to_u64().unwrap(),
                vec![f]
            );
        }
        assert!(r.find(150, "late name").is_some());
    }

    #[test]
    fn a_second_writer_is_refused_while_one_has_the_file() {
        let dir = temp();
        let path = dir.path().join("locked.gsd");
        let w = GsdWriter::create(&path, "test", "raw", 0).unwrap();
        let e = GsdWriter::append(&path).unwrap_err();
        assert!(matches!(e, GsdError::Io { action: "lock", .. }), "{e}");
        let e = GsdWriter::create(&path, "test", "raw", 0).unwrap_err();
        assert!(matches!(e, GsdError::Io { action: "lock", .. }), "{e}");
        drop(w);
        GsdWriter::append(&path).unwrap();
    }

    #[test]
    fn bad_chunks_are_refused_and_leave_the_frame_usable() {
        let dir = temp();
        let path = dir.path().join("bad.gsd");
        let mut w = GsdWriter::create(&path, "test", "raw", 0).unwrap();
        let e = w.end_frame().unwrap_err();
        assert!(e.to_string().contains("frame 0 has no chunk"), "{e}");
        for (name, m, values, says) in [
            ("", 1, vec![1u32], "empty"),
            ("a\0b", 1, vec![1], "0 byte"),
            ("x", 0, vec![1], "rows of 0"),
            ("x", 2, vec![1, 2, 3], "do not make rows of 2"),
        ] {
            let e = w.write_chunk(name, m, &values).unwrap_err();
            assert!(e.to_string().contains(says), "{e}");
            assert!(e.to_string().contains("bad.gsd"), "{e}");
        }
        let e = w.write_rows("x", 2, 2, [1u32, 2, 3]).unwrap_err();
        assert!(
            e.to_string().contains("3 values given for 2 rows of 2"),
            "{e}"
        );
        w.write_chunk("dropped", 1, &[9u8]).unwrap();
        w.discard_frame();
        w.write_chunk("x", 1, &[1u32]).unwrap();
        let e = w.write_chunk("x", 1, &[2u32]).unwrap_err();
        assert!(e.to_string().contains("written twice in frame 0"), "{e}");
        w.end_frame().unwrap();
        drop(w);
        let mut r = GsdReader::open(&path).unwrap();
        assert_eq!(r.frames(), 1);
        assert_eq!(r.names(), ["dropped", "x"]);
        assert_eq!(r.chunk_names(0), ["x"]);
        assert_eq!(
            r.read_chunk(0, "x").unwrap().unwrap().to_u32().unwrap(),
            vec![1]
        );
    }

    #[test]
    fn a_huge_header_allocates_nothing_and_reads_no_frame() {
        let dir = temp();
        let path = dir.path().join("huge.gsd");
        let h = Header {
            index_location: 256,
            index_allocated_entries: u64::MAX,
            namelist_location: 300,
            namelist_allocated_entries: u64::MAX,
            schema_version: 0,
            gsd_version: FILE_VERSION,
            application: String::new(),
            schema: String::new(),
        };
        let mut bytes = h.encode().to_vec();
        bytes.extend_from_slice(&[0xFF; 200]);
        std::fs::write(&path, &bytes).unwrap();
        let r = GsdReader::open(&path).unwrap();
        assert_eq!(r.frames(), 0);
        assert!(r.cut_short().is_some());
    }

    #[test]
    fn text_rows_stop_at_the_first_zero_byte() {
        let c = Chunk {
            chunk_type: ChunkType::I8,
            n: 2,
            m: 4,
            data: b"boidab\0z".to_vec(), // a full-width row has no 0 byte
        };
        assert_eq!(c.text_rows().unwrap(), vec!["boid", "ab"]);
        let bad = Chunk {
            m: 0,
            data: vec![],
            ..c.clone()
        };
        assert!(bad.text_rows().is_err());
        let float = Chunk {
            chunk_type: ChunkType::F32,
            ..c
        };
        let e = float.text_rows().unwrap_err();
        assert!(
            matches!(
                e,
                ChunkError::WrongType {
                    found: "float32",
                    ..
                }
            ),
            "{e:?}"
        );
        assert!(e.to_string().contains("float32"));
    }
}
