//! Errors of the model layer: parameter validation and scene files.

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
    /// `field` is `value`, outside the range `min ..= max` it has in `context` (e.g.
    /// `vicsek_eta` with `vicsek_noise = vectorial`).
    #[error("{field} = {value} is out of range for {context}: allowed {min} ..= {max}")]
    OutOfRangeFor {
        /// Name of the field.
        field: &'static str,
        /// The rejected value.
        value: f64,
        /// Smallest allowed value.
        min: f64,
        /// Largest allowed value.
        max: f64,
        /// What sets the range (`vicsek_noise = vectorial`).
        context: &'static str,
    },
    /// `field` is set where it does not apply (e.g. `max_neighbors` in the topological
    /// neighbourhood).
    #[error("{field} = {value} does not apply with {context}: {message}")]
    Inapplicable {
        /// Name of the field.
        field: &'static str,
        /// Its value.
        value: String,
        /// The setting it conflicts with (`neighborhood = topological`).
        context: &'static str,
        /// What to do.
        message: &'static str,
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
    let text = did_you_mean(&s);
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
            | ParamError::OutOfRangeFor { field, .. }
            | ParamError::Inapplicable { field, .. }
            | ParamError::RadiusAbovePerception { field, .. }
            | ParamError::BadValue { field, .. } => field,
            ParamError::UnknownKey { key, .. } | ParamError::UnusedByModel { key, .. } => key,
        }
    }
}

/// An initial state that does not fit the world of its run.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SetupError {
    /// A parameter or the boid count is out of range.
    #[error(transparent)]
    Param(#[from] ParamError),
    /// An obstacle point or a predator of a scene lies outside the world of the run
    /// (`Scene::check_inside`).
    #[error("{place}: {key} = [{x}, {y}] is outside the world [0, {width}) × [0, {height}){note}")]
    PointOutsideWorld {
        /// Where it was written: `scene file FILE, line L`.
        place: String,
        /// The key: `obstacles[3]`, `predators[0].position`.
        key: String,
        /// The point (wu).
        x: f32,
        /// The point (wu).
        y: f32,
        /// World width (wu).
        width: f32,
        /// World height (wu).
        height: f32,
        /// Why the world has that size, when the scene does not fix it (else empty).
        note: String,
    },
    /// A boid of a given state lies outside the world.
    #[error("boid {id} at ({x}, {y}) is outside the world [0, {width}) × [0, {height})")]
    OutsideWorld {
        /// The boid's id.
        id: u32,
        /// Its position (wu).
        x: f32,
        /// Its position (wu).
        y: f32,
        /// World width (wu).
        width: f32,
        /// World height (wu).
        height: f32,
    },
    /// An ensemble that cannot be stepped by one set of dispatches (docs/sweeps.md, "Ensembles"):
    /// its replicas differ in what splits one, there are none or too many, or a lone run's
    /// operation was asked of it. The message names the replica, the field and its values.
    #[error("ensemble: {0}")]
    Ensemble(String),
}

/// "did you mean `a` or `b`?", or "" when there is no suggestion.
pub fn did_you_mean(suggestions: &[&str]) -> String {
    match suggestions {
        [] => String::new(),
        [one] => format!("did you mean `{one}`?"),
        [init @ .., last] => format!(
            "did you mean {} or `{last}`?",
            init.iter()
                .map(|s| format!("`{s}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}
