//! [`RunError`]: why a run could not be set up or went wrong, for every command that runs one.

use std::path::PathBuf;

use crate::analysis::AnalysisError;
use crate::formats::gsd::GsdError;
use crate::formats::scene::SceneError;
use crate::formats::ReadError;
use crate::model::loaded::StateFileError;
use crate::model::{ParamError, SetupError};
use crate::simulation::SimError;

/// Why a run could not be set up, or failed while running.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// A scene file that cannot be read or used.
    #[error(transparent)]
    Scene(#[from] SceneError),
    /// A state file or checkpoint that cannot be read or used.
    #[error(transparent)]
    State(#[from] ReadError),
    /// A parameter or count out of range.
    #[error(transparent)]
    Param(#[from] ParamError),
    /// A `--set KEY=VALUE` that cannot be applied (unknown key, wrong kind of value, out of range,
    /// or a parameter the model does not use).
    #[error("--set {key}={value}: {source}")]
    Set {
        /// The key given.
        key: String,
        /// The value given (clipped).
        value: String,
        /// Why not.
        source: ParamError,
    },
    /// An initial state or scene point that does not fit the world.
    #[error(transparent)]
    Setup(#[from] SetupError),
    /// The backend failed (no adapter, a limit, a device error).
    #[error(transparent)]
    Sim(#[from] SimError),
    /// A trajectory (GSD) that cannot be written: the file and what failed.
    #[error(transparent)]
    Trajectory(#[from] GsdError),
    /// Options that disagree with each other or with a file.
    #[error("{0}")]
    Conflict(String),
    /// A file could not be written.
    #[error("cannot write {what} {}: {source}", crate::io::show_path(path))]
    Write {
        /// What it is (`measures CSV`, `checkpoint`, …).
        what: &'static str,
        /// The file.
        path: PathBuf,
        /// The OS error.
        source: std::io::Error,
    },
    /// An analysis that cannot be made (a setting it cannot honour) or finished.
    #[error(transparent)]
    Analysis(#[from] AnalysisError),
    /// Analyses that could not be finished at the end of a run whose other files were written.
    #[error(
        "{} (the run's other files were written)",
        .0.iter().map(ToString::to_string).collect::<Vec<_>>().join("; ")
    )]
    Unfinished(Vec<AnalysisError>),
    /// An analysis's plot that cannot be drawn.
    #[error("cannot draw the plot {}: {message}", crate::io::show_path(path))]
    Plot {
        /// The plot's file.
        path: PathBuf,
        /// What went wrong.
        message: String,
    },
}

impl From<StateFileError> for RunError {
    fn from(e: StateFileError) -> Self {
        RunError::State(ReadError::State(e))
    }
}

impl From<crate::simulation::GpuError> for RunError {
    fn from(e: crate::simulation::GpuError) -> Self {
        RunError::Sim(SimError::Gpu(e))
    }
}
