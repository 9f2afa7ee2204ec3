//! Scene files: TOML with an optional boid count, seed and a `[params]` table of [`SimParams`]
//! fields, plus obstacle points. Unknown keys are errors (with file, line and column).
//!
//! ```toml
//! boids = 50
//! seed = 4
//! obstacles = [[100.0, 200.0], [110.0, 200.0]]
//! [params]
//! world_width = 800.0
//! boundary = "walls"
//! ```

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::model::error::SceneError;
use crate::model::params::SimParams;

/// A scene: parameters, and optionally a boid count, seed and obstacles.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scene {
    /// Boid count (the command line's `--boids` wins when given).
    #[serde(default)]
    pub boids: Option<usize>,
    /// Seed (the command line's `--seed` wins when given).
    #[serde(default)]
    pub seed: Option<u32>,
    /// Whether the world size in `params` is fixed (true) or should be resized to the boid count at
    /// the default density (false, the default when the scene sets no world size).
    #[serde(default)]
    pub fixed_world: Option<bool>,
    /// Obstacle points (wu).
    #[serde(default)]
    pub obstacles: Vec<[f32; 2]>,
    /// Simulation parameters; missing fields take their defaults.
    #[serde(default)]
    pub params: SimParams,
}

impl Scene {
    /// Parses scene text; `path` is only used in error messages.
    ///
    /// # Errors
    /// [`SceneError::Parse`] with line and column for bad TOML, unknown keys or wrong types;
    /// [`SceneError::Invalid`] for a value out of range.
    pub fn parse(text: &str, path: &Path) -> Result<Scene, SceneError> {
        let scene: Scene = toml::from_str(text).map_err(|e| {
            let (line, column) = e.span().map(|s| line_col(text, s.start)).unwrap_or((1, 1));
            SceneError::Parse {
                path: path.to_path_buf(),
                line,
                column,
                message: e.message().to_string(),
            }
        })?;
        scene
            .params
            .validate()
            .map_err(|source| SceneError::Invalid {
                path: path.to_path_buf(),
                source,
            })?;
        if let Some(n) = scene.boids {
            crate::model::params::validate_boid_count(n).map_err(|source| SceneError::Invalid {
                path: path.to_path_buf(),
                source,
            })?;
        }
        Ok(scene)
    }

    /// Reads and parses a scene file.
    ///
    /// # Errors
    /// [`SceneError::Io`] when the file cannot be read, else as [`Scene::parse`].
    pub fn load(path: &Path) -> Result<Scene, SceneError> {
        let text = std::fs::read_to_string(path).map_err(|source| SceneError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        Scene::parse(&text, path)
    }

    /// Whether the world size is kept as written: `fixed_world` when set, else true when the
    /// scene's text set a world size different from the default.
    pub fn world_is_fixed(&self) -> bool {
        self.fixed_world.unwrap_or_else(|| {
            let d = SimParams::default();
            self.params.world_width != d.world_width || self.params.world_height != d.world_height
        })
    }
}

/// 1-based line and column of byte offset `at` in `text`.
fn line_col(text: &str, at: usize) -> (usize, usize) {
    let before = &text[..at.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.len() - before.rfind('\n').map(|i| i + 1).unwrap_or(0) + 1;
    (line, column)
}
