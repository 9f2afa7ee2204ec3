//! What an entry of the table of state formats is ([`StateFormat`]), and [`ReadError`]: a state
//! file that cannot be read, whatever its format. Nothing here knows the table or a format: the
//! formats' own files build on it, the table (`formats/mod.rs`) gathers them.

use std::path::Path;

use crate::model::loaded::{Checkpoint, LoadedState, StateFileError};

/// A format that holds a state, as the table lists it.
#[derive(Clone, Copy, Debug)]
pub struct StateFormat {
    /// Its name, for docs and messages.
    pub name: &'static str,
    /// The file extensions it writes (lower case, without the dot); the first format whose list
    /// holds a path's extension writes it, the last format any other path.
    pub extensions: &'static [&'static str],
    /// The state of `path` when the file is of this format (by its name or its first bytes),
    /// else `None`. A path may carry a suffix of the format's own (`FILE.gsd:FRAME`).
    pub read: fn(&Path) -> Option<Result<LoadedState, ReadError>>,
    /// Writes `cp` whole to `path` (refusing, before writing anything, a state that would not
    /// load back).
    pub write: fn(&Path, &Checkpoint) -> std::io::Result<()>,
}

/// A state file that cannot be read (or does not fit its run), in any format: the error of the
/// state's own checks, or the error of the file layer that holds it.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// The state, or a row or frame of it, is out of bounds (naming the file and the line or
    /// frame).
    #[error(transparent)]
    State(#[from] StateFileError),
    /// A GSD file that cannot be read (the file, frame and chunk named).
    #[error(transparent)]
    Gsd(#[from] gsd::GsdError),
}
