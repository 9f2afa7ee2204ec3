//! File formats: what a run reads and writes, each one file, none knowing another.
//!
//! - [`scene`]: scene files (TOML: parameters, count, seed, obstacles, predators).
//! - [`checkpoint`]: state CSVs and checkpoints (a CSV of boids, optionally after everything
//!   needed to resume it).
//! - [`gsd`]: trajectories in GSD files of the HOOMD schema, and a frame as a state (the GSD file
//!   layer and the schema's rules are the workspace's `gsd` crate).
//!
//! A state read from any of them is a [`LoadedState`] of the model, format-neutral: the boids and
//! what else the file holds, brought into its run by [`LoadedState::conform`]. [`STATE_FORMATS`]
//! is the table of the formats that hold a state: [`read_state`] (`--init`) asks each in turn
//! whether a file is its own, [`save_state`] (`--save`) writes by the file's extension. **Adding a
//! format** is its file here and its line in the table.

pub mod checkpoint;
pub mod desc;
pub mod gsd;
pub mod scene;

use std::path::Path;

pub use desc::{ReadError, StateFormat};

use crate::model::loaded::{Checkpoint, LoadedState};

/// Every format that holds a state, the more particular first: a file is read by the first that
/// owns it, and the last (the state CSV) takes any other file.
pub static STATE_FORMATS: &[StateFormat] = &[gsd::FORMAT, checkpoint::FORMAT];

/// The state in `path`, read by its format ([`STATE_FORMATS`]).
///
/// # Errors
/// [`ReadError`] naming the file and the line, frame or chunk at fault.
pub fn read_state(path: &Path) -> Result<LoadedState, ReadError> {
    STATE_FORMATS
        .iter()
        .find_map(|f| (f.read)(path))
        .expect("the last state format reads any file")
}

/// The format that writes `path`: the first whose extensions hold its extension, else the last.
pub fn format_for(path: &Path) -> &'static StateFormat {
    let ext = path
        .extension()
        .map(|e| e.to_string_lossy().to_lowercase())
        .unwrap_or_default();
    STATE_FORMATS
        .iter()
        .find(|f| f.extensions.contains(&ext.as_str()))
        .unwrap_or(&STATE_FORMATS[STATE_FORMATS.len() - 1])
}

/// Writes the state `cp` to `path` whole, in the format its extension names ([`format_for`]).
///
/// # Errors
/// The I/O error, or [`std::io::ErrorKind::InvalidInput`] naming the path and a state that would
/// not load back.
pub fn save_state(path: &Path, cp: &Checkpoint) -> std::io::Result<()> {
    (format_for(path).write)(path, cp)
}
