//! Errors of the model layer: parameter validation and scene files.

use std::path::PathBuf;

/// A parameter (or boid count) outside its documented range.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ParamError {
    /// `field` is `value`, outside `min ..= max` (or NaN).
    #[error("{field} = {value} is out of range: allowed {min} ..= {max}")]
    OutOfRange {
        /// Name of the field, as in [`crate::model::SimParams`] and scene files.
        field: &'static str,
        /// The rejected value.
        value: f64,
        /// Smallest allowed value.
        min: f64,
        /// Largest allowed value.
        max: f64,
    },
    /// A rule radius is larger than `perception_radius` (the grid cell size), so the 3×3 cell
    /// search would miss neighbours.
    #[error(
        "{field} = {value} is out of range: allowed 0 ..= perception_radius ({perception_radius}); \
         raise perception_radius or lower {field} (a radius left out of the scene keeps its \
         default)"
    )]
    RadiusAbovePerception {
        /// Name of the rule radius.
        field: &'static str,
        /// Its value (wu).
        value: f64,
        /// The perception radius (wu).
        perception_radius: f64,
    },
}

/// A scene file that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum SceneError {
    /// The file could not be read.
    #[error("cannot read scene file {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The OS error.
        source: std::io::Error,
    },
    /// The file is not valid TOML or has an unknown key or a value of the wrong type.
    #[error("scene file {path}, line {line}, column {column}: {message}")]
    Parse {
        /// The file.
        path: PathBuf,
        /// 1-based line of the error.
        line: usize,
        /// 1-based column of the error.
        column: usize,
        /// What is wrong, from the TOML parser.
        message: String,
    },
    /// The file parsed but a value is out of range.
    #[error("scene file {path}, line {line}: {source}")]
    Invalid {
        /// The file.
        path: PathBuf,
        /// 1-based line of the offending key.
        line: usize,
        /// The range error.
        source: ParamError,
    },
}
