//! Errors of benchmark captures.

use std::path::PathBuf;

/// What can stop a benchmark or a capture from being written.
#[derive(Debug, thiserror::Error)]
pub enum BenchError {
    /// An invalid option (count, backend list, `--render` size, scene, …). Reported before any
    /// run starts.
    #[error("{0}")]
    Config(String),
    /// The output folder cannot be used (see [`crate::capture::outdir`] for the rule). Reported
    /// before any run starts.
    #[error("output folder {}: {reason}", path.display())]
    OutputDir {
        /// The folder.
        path: PathBuf,
        /// Why it cannot be used, and what to do.
        reason: String,
    },
    /// A capture file could not be written or read.
    #[error("{}: {message}", path.display())]
    File {
        /// The file.
        path: PathBuf,
        /// The I/O, CSV or JSON error.
        message: String,
    },
    /// The setup of a run cannot be resolved (scene, `--set`, a point outside a world). Reported
    /// before any run starts.
    #[error(transparent)]
    Setup(#[from] crate::run::RunError),
    /// A plot could not be drawn.
    #[error("plot {name}: {source}")]
    Plot {
        /// The plot file name.
        name: String,
        /// plotters' or the encoder's error.
        source: crate::plot::PlotError,
    },
}
