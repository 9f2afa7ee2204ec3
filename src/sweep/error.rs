//! [`SweepError`]: why a sweep or a merge of shards could not be planned, run or written.

use std::path::PathBuf;

use crate::plot::PlotError;
use crate::run::RunError;

/// What can stop `boids sweep` (or `boids sweep merge`). Every message names the option, value,
/// point, folder or file (and line) at fault.
#[derive(Debug, thiserror::Error)]
pub enum SweepError {
    /// Options that cannot make a plan: bad `--values`, no parameter or more than two, the same
    /// parameter twice, 0 repeats, `--steps`/`--discard` leaving too few measured steps, or too
    /// many points. Reported before the folder is touched.
    #[error("{0}")]
    Plan(String),
    /// The run layer refused the setup (scene, `--set`, a parameter or count out of range, no
    /// adapter), reported before any run.
    #[error(transparent)]
    Run(#[from] RunError),
    /// The run layer refused the setup of one point of the plan, reported before any run.
    #[error("sweep point {point}: {source}")]
    Point {
        /// The point: its swept names and values (`rotational_diffusion = 0.5, boids = 400`).
        point: String,
        /// Why its setup is refused (boxed: a run error is large).
        source: Box<RunError>,
    },
    /// A point failed while the sweep ran. The folder holds the points done before it (status
    /// `failed`, this error in `summary.json`).
    #[error("sweep point {point}: {source}\nthe points done before it are in {}", dir.display())]
    Failed {
        /// The point: its number, values and repeat (`3 (rotational_diffusion = 0.5, repeat 1 of
        /// 2)`).
        point: String,
        /// The backend's or the run layer's error (boxed: a run error is large).
        source: Box<RunError>,
        /// The sweep folder.
        dir: PathBuf,
    },
    /// The output folder cannot be used (see [`crate::sweep::output`] for the rule).
    #[error("output folder {}: {why}", path.display())]
    Folder {
        /// The folder.
        path: PathBuf,
        /// Why not, and what to do.
        why: String,
    },
    /// A folder that cannot be created.
    #[error("{}: {source}", path.display())]
    Io {
        /// The folder or file.
        path: PathBuf,
        /// The OS error.
        source: std::io::Error,
    },
    /// A file that cannot be written whole ([`crate::io::write_atomic`], whose error names the
    /// path already).
    #[error("{source}")]
    Write {
        /// The file.
        path: PathBuf,
        /// The OS error or the refusal, with the path in its message.
        source: std::io::Error,
    },
    /// A folder without a readable `summary.json`: not a sweep folder.
    #[error("{}: cannot read summary.json ({source}); is it a sweep folder?", dir.display())]
    NotSweep {
        /// The folder.
        dir: PathBuf,
        /// The OS error.
        source: std::io::Error,
    },
    /// A file of a sweep folder that is not what a sweep writes: a summary of another schema, a
    /// `sweep.csv` with another header or a field that is not a number, a series with a field
    /// that is not a number.
    #[error(
        "{}{}: {why}",
        path.display(),
        line.map_or(String::new(), |l| format!(", line {l}"))
    )]
    File {
        /// The file.
        path: PathBuf,
        /// The line (from 1), when the fault is on one.
        line: Option<u64>,
        /// What is wrong.
        why: String,
    },
    /// A CSV file (`sweep.csv`, `points.csv`, a series) that cannot be written or read.
    #[error("{}: {source}", path.display())]
    Csv {
        /// The file (its name alone when written in memory).
        path: PathBuf,
        /// The CSV library's error (an I/O error included).
        source: csv::Error,
    },
    /// `summary.json` that cannot be written or is not JSON of a sweep summary.
    #[error("{}: {source}", path.display())]
    Json {
        /// The file (its name alone when written in memory).
        path: PathBuf,
        /// The JSON error (with its line and column when reading).
        source: serde_json::Error,
    },
    /// Shard folders that cannot be merged (a shard not complete, of another plan, split
    /// differently, given twice or missing, or changed after the run); the message names the
    /// folder and shard and what to do.
    #[error("{0}")]
    Merge(String),
    /// A file a shard's summary lists that cannot be read: the folder was changed after the run.
    #[error("{shard}: cannot read {file} ({source}); the folder was changed after the run")]
    ShardFile {
        /// The shard's folder (and shard).
        shard: String,
        /// The file, relative to the folder.
        file: String,
        /// The OS error.
        source: std::io::Error,
    },
    /// A plot that could not be drawn or encoded.
    #[error("{file}: {source}")]
    Plot {
        /// The plot's file name (`polarization.svg`).
        file: String,
        /// plotters' or the PNG encoder's error.
        source: PlotError,
    },
}
