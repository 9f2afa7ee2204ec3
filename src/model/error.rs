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
    /// No parameter has this key.
    #[error("unknown parameter `{key}`{}", hint(suggestions))]
    UnknownKey {
        /// The key given (clipped).
        key: String,
        /// The nearest known keys, most similar first.
        suggestions: Vec<String>,
    },
    /// A value of the wrong kind for its parameter (a name for a number, …).
    #[error("{field} = {value}: {message}")]
    BadValue {
        /// The parameter.
        field: &'static str,
        /// The value given (clipped).
        value: String,
        /// What is wrong, from the parser.
        message: String,
    },
    /// A parameter the model of the run does not use (set or swept, it would change nothing).
    #[error("{key} is not used by the {model} model, whose parameters are: {uses}")]
    UnusedByModel {
        /// The parameter.
        key: String,
        /// The model's name.
        model: &'static str,
        /// The keys it uses, comma-separated.
        uses: String,
    },
}

/// ": did you mean `a`?" for the suggestions of an unknown key, or "" when there is none.
fn hint(suggestions: &[String]) -> String {
    let s: Vec<&str> = suggestions.iter().map(String::as_str).collect();
    let text = crate::model::param_table::did_you_mean(&s);
    if text.is_empty() {
        " (docs/model.md §3.1 lists every parameter)".to_string()
    } else {
        format!(": {text}")
    }
}

impl ParamError {
    /// The key of the parameter at fault.
    pub fn key(&self) -> &str {
        match self {
            ParamError::OutOfRange { field, .. }
            | ParamError::RadiusAbovePerception { field, .. }
            | ParamError::BadValue { field, .. } => field,
            ParamError::UnknownKey { key, .. } | ParamError::UnusedByModel { key, .. } => key,
        }
    }
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
