//! GSD files: the General Simulation Data format of the Glotzer group (University of Michigan),
//! as read by HOOMD-blue, OVITO, freud, VMD's GSD plugin and the `gsd` Python package.
//!
//! The format is the GSD specification: the *file layer*, version 2.x (documented as "File
//! layer" in the `gsd` package's documentation, with the reference C implementation `gsd/gsd.c`
//! of the glotzerlab/gsd repository), and the *HOOMD schema* ("HOOMD Schema" there), version 1.4
//! written, 1.x and 2.x read. Written from that specification; it depends on no simulation (no
//! crate for the format exists on crates.io: the crate named `gsd` there is unrelated).
//!
//! - [`container`]: the container — header, index, name list, chunks written frame by frame
//!   ([`GsdWriter`]) and read back ([`GsdReader`]); its docs give the byte layout and what a
//!   killed run leaves.
//! - [`hoomd`]: the HOOMD schema's chunk names, its check, and [`HoomdReader`], which reads a
//!   frame's chunks by the schema's rule for chunks left out.
//! - [`GsdError`]: every error, naming the file and what is wrong. No input makes a reader panic.

pub mod container;
pub mod error;
pub mod hoomd;

pub use container::{ChunkType, GsdReader, GsdWriter};
pub use error::GsdError;
pub use hoomd::HoomdReader;
