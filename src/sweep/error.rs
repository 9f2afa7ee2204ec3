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
    /// A run failed while the sweep ran. The folder holds the runs done before it (status
    /// `failed`, this error in `summary.json`).
    #[error("sweep run {run}: {source}\nthe runs done before it are in {}", dir.display())]
    Failed {
        /// The run: its number, its point's values and its repeat (`3 (point 2:
        /// rotational_diffusion = 0.5, repeat 1 of 2)`).
        run: String,
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
    /// A folder that cannot be resumed (another plan, shard or `--series`, or changed after the
    /// run); the message names the folder, what differs and what to do.
    #[error("--resume {0}")]
    Resume(String),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sweep::output::{prepare_dir, read_summary};
    use crate::sweep::table::{header, read_csv};

    #[test]
    fn a_non_empty_output_folder_is_a_folder_error_naming_it() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("keep.txt"), "x").unwrap();
        match prepare_dir(dir.path(), false) {
            Err(SweepError::Folder { path, why }) => {
                assert_eq!(path, dir.path());
                assert!(why.contains("is not empty (holds keep.txt"), "{why}");
            }
            other => panic!("expected a Folder error, got {other:?}"),
        }
        assert!(prepare_dir(dir.path(), true).is_ok());
        let e = prepare_dir(&dir.path().join("keep.txt"), false).unwrap_err();
        assert!(matches!(e, SweepError::Folder { .. }), "{e:?}");
        assert!(
            e.to_string().starts_with("output folder ") && e.to_string().contains("not a folder"),
            "{e}"
        );
    }

    #[test]
    fn bad_values_are_plan_errors_naming_the_parameter() {
        #[derive(clap::Parser)]
        struct Cli {
            #[command(flatten)]
            args: crate::sweep::args::SweepArgs,
        }
        let cli = <Cli as clap::Parser>::try_parse_from([
            "sweep",
            "--param",
            "rotational_diffusion",
            "--values",
            "0:1:0",
        ])
        .unwrap();
        let e = crate::sweep::cli::config(&cli.args).unwrap_err();
        assert!(matches!(e, SweepError::Plan(_)), "{e:?}");
        assert_eq!(
            e.to_string(),
            "--param rotational_diffusion: --values \"0:1:0\": the step must not be 0"
        );
    }

    #[test]
    fn a_foreign_csv_is_a_file_error_with_its_line() {
        let dir = tempfile::tempdir().unwrap();
        let axes = vec![crate::sweep::plan::Axis::numeric(
            "rotational_diffusion",
            vec![0.0],
        )];
        let p = dir.path().join("sweep.csv");
        std::fs::write(&p, "a,b\n1,2\n").unwrap();
        match read_csv(&p, &axes, &[]) {
            Err(SweepError::File { path, line, why }) => {
                assert_eq!((path.as_path(), line), (p.as_path(), Some(1)));
                assert!(why.contains("is not the sweep's"), "{why}");
            }
            other => panic!("expected a File error, got {other:?}"),
        }
        // The right header, then a row whose seed is not a whole number: line 2, named.
        let h = header(&crate::sweep::plan::axis_names(&axes), &[]);
        let mut row = vec!["1"; h.len()];
        row[3] = "x";
        std::fs::write(&p, format!("{}\n{}\n", h.join(","), row.join(","))).unwrap();
        let e = read_csv(&p, &axes, &[]).unwrap_err();
        assert!(
            matches!(&e, SweepError::File { line: Some(2), why, .. } if why.contains("seed = \"x\"")),
            "{e:?}"
        );
        assert!(
            e.to_string()
                .ends_with("sweep.csv, line 2: seed = \"x\" is not a whole number"),
            "{e}"
        );
    }

    #[test]
    fn a_folder_without_a_summary_is_not_a_sweep_and_another_schema_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let e = read_summary(dir.path()).unwrap_err();
        assert!(matches!(e, SweepError::NotSweep { .. }), "{e:?}");
        assert!(
            e.to_string().contains("cannot read summary.json (")
                && e.to_string().contains("is it a sweep folder?"),
            "{e}"
        );
        std::fs::write(dir.path().join("summary.json"), r#"{"schema": "other"}"#).unwrap();
        let e = read_summary(dir.path()).unwrap_err();
        assert!(matches!(&e, SweepError::File { line: None, .. }), "{e:?}");
        assert!(
            e.to_string()
                .contains("summary.json: not a sweep summary (schema \"other\""),
            "{e}"
        );
        std::fs::write(dir.path().join("summary.json"), "{").unwrap();
        let e = read_summary(dir.path()).unwrap_err();
        assert!(matches!(e, SweepError::Json { .. }), "{e:?}");
    }

    #[test]
    fn a_failed_run_says_where_the_runs_done_are() {
        let e = SweepError::Failed {
            run: "3 (point 2: rotational_diffusion = 0.5, repeat 1 of 2)".into(),
            source: Box::new(RunError::Conflict("the device was lost".into())),
            dir: PathBuf::from("sweeps/x"),
        };
        assert_eq!(
            e.to_string(),
            "sweep run 3 (point 2: rotational_diffusion = 0.5, repeat 1 of 2): the device was \
             lost\nthe runs done before it are in sweeps/x"
        );
        assert!(std::error::Error::source(&e).is_some());
    }
}
