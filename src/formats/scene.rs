//! Scene files: TOML with an optional boid count, seed and a `[params]` table of [`SimParams`]
//! fields, plus obstacle points and predators. Unknown keys are errors (with file, line and
//! column), and so is a point (an obstacle, a predator's position or velocity) that is not
//! exactly two numbers; errors name the key (`params.dt`, `predators[1].kind`, `obstacles[3]`).
//!
//! ```toml
//! boids = 50
//! seed = 4
//! spawn = "flocks"      # how the app starts it: "uniform" (the default), "flocks" or "group"
//! obstacles = [[100.0, 200.0], [110.0, 200.0]]
//! [params]
//! world_width = 800.0
//! boundary = "walls"
//! [[predators]]
//! position = [400.0, 300.0]
//! velocity = [30.0, 0.0]
//! kind = "hunting"      # or "straight" (the default)
//! ```

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::model::actors::{inside_world, Actors};
use crate::model::error::{ParamError, SetupError};
use crate::model::params::SimParams;
use crate::model::predators::PredatorSpec;

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
    /// A parameter the file does not write keeps its default, and the default is out of range
    /// under the file's other settings (vectorial noise with the default η = 2 of angular noise).
    #[error(
        "scene file {path}: {source} — the file does not set {key}, so it has its default; set \
         {key} in [params]",
        key = .source.key()
    )]
    InvalidDefault {
        /// The file.
        path: PathBuf,
        /// The range error, naming the parameter left at its default.
        source: ParamError,
    },
}

/// A scene: parameters, and optionally a boid count, seed, obstacles and predators.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scene {
    /// Boid count (the command line's `--boids` wins when given).
    #[serde(default)]
    pub boids: Option<usize>,
    /// Seed (the command line's `--seed` wins when given).
    #[serde(default)]
    pub seed: Option<u32>,
    /// How the app (`boids run`, its presets and its Load button) places the boids: `uniform`
    /// (the default), `flocks` (a few formed flocks, for scenes about flocks) or `group` (one disc
    /// at the world's centre, Couzin's scenes). The commands
    /// without a window start every scene uniformly, so their measurements stay comparable.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spawn: Option<crate::model::spawn::Spawn>,
    /// Whether the world size in `params` is fixed (true) or should be resized to the boid count at
    /// the default density (false, the default when the scene sets no world size).
    #[serde(default)]
    pub fixed_world: Option<bool>,
    /// Obstacle points (wu), each exactly two numbers `[x, y]`.
    #[serde(default, deserialize_with = "crate::model::point::points")]
    pub obstacles: Vec<[f32; 2]>,
    /// Simulation parameters; missing fields take their defaults.
    #[serde(default)]
    pub params: SimParams,
    /// Predators (docs/model.md §18): `[[predators]]` tables of position, velocity and kind.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub predators: Vec<PredatorSpec>,
    /// How the app draws the scene (`[view]`); the command line and the panel win over it.
    #[serde(default, skip_serializing_if = "SceneView::is_empty")]
    pub view: SceneView,
    /// Whether the file wrote `world_width` or `world_height` (set by [`Scene::parse`]).
    #[serde(skip)]
    pub world_given: bool,
    /// Where the scene was read from (set by [`Scene::parse`]), so that points found outside the
    /// world once a run's world is known ([`Scene::check_inside`]) are named by file and line.
    #[serde(skip)]
    pub origin: Option<SceneOrigin>,
}

/// The `[view]` table of a scene: how the app and `boids snapshot` draw it unless their own
/// options say otherwise. The commands without a picture read it only to refuse a bad value.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SceneView {
    /// What the boids' colour shows: `hue`, `heading`, `speed` or `neighbours` (the names of the
    /// renderer's colour modes, checked where the run is resolved: `crate::run::spec`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub colour: Option<String>,
}

impl SceneView {
    /// Whether the table sets nothing (it is then not written).
    pub fn is_empty(&self) -> bool {
        self.colour.is_none()
    }
}

/// The file a scene was read from and the lines of its points.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SceneOrigin {
    /// The file.
    pub path: PathBuf,
    /// 1-based line of each obstacle point.
    pub obstacle_lines: Vec<usize>,
    /// 1-based line of each predator's `position`.
    pub predator_lines: Vec<usize>,
    /// 1-based line of `[view]`'s `colour` (1 when the file does not write it).
    pub view_colour_line: usize,
}

impl Scene {
    /// Parses scene text; `path` is only used in error messages.
    ///
    /// # Errors
    /// [`SceneError::Parse`] with line and column for bad TOML, unknown keys or wrong types;
    /// [`SceneError::Invalid`] for a value out of range (with its line),
    /// [`SceneError::InvalidDefault`] for a default the file's other settings put out of range.
    pub fn parse(text: &str, path: &Path) -> Result<Scene, SceneError> {
        let scene: Scene = toml::from_str(text).map_err(|e| {
            let (line, column, message) = toml_error(text, &e);
            SceneError::Parse {
                path: path.to_path_buf(),
                line,
                column,
                message,
            }
        })?;
        let mut scene = scene;
        let (obstacle_lines, predator_lines) = point_lines(text);
        scene.origin = Some(SceneOrigin {
            path: path.to_path_buf(),
            obstacle_lines,
            predator_lines,
            view_colour_line: key_line(text, "colour"),
        });
        let table: toml::Table = toml::from_str(text).unwrap_or_default();
        scene.world_given = table
            .get("params")
            .and_then(|p| p.as_table())
            .is_some_and(|p| p.contains_key("world_width") || p.contains_key("world_height"));
        scene
            .params
            .validate()
            .map_err(|source| match written_line(text, source.key()) {
                Some(line) => SceneError::Invalid {
                    path: path.to_path_buf(),
                    line,
                    source,
                },
                None => SceneError::InvalidDefault {
                    path: path.to_path_buf(),
                    source,
                },
            })?;
        if let Some(n) = scene.boids {
            crate::model::params::validate_boid_count(n).map_err(|source| SceneError::Invalid {
                path: path.to_path_buf(),
                line: key_line(text, "boids"),
                source,
            })?;
        }
        if scene.predators.len() > crate::model::MAX_PREDATORS {
            return Err(SceneError::Parse {
                path: path.to_path_buf(),
                line: predator_line(text, crate::model::MAX_PREDATORS),
                column: 1,
                message: format!(
                    "{} predators: at most {} are allowed",
                    scene.predators.len(),
                    crate::model::MAX_PREDATORS
                ),
            });
        }
        for (k, p) in scene.predators.iter().enumerate() {
            if !p.position.iter().chain(&p.velocity).all(|x| x.is_finite()) {
                return Err(SceneError::Parse {
                    path: path.to_path_buf(),
                    line: predator_line(text, k),
                    column: 1,
                    message: format!(
                        "predator {k}: position ({}, {}) and velocity ({}, {}) must be finite",
                        p.position[0], p.position[1], p.velocity[0], p.velocity[1]
                    ),
                });
            }
        }
        for (k, o) in scene.obstacles.iter().enumerate() {
            if !(o[0].is_finite() && o[1].is_finite()) {
                return Err(SceneError::Parse {
                    path: path.to_path_buf(),
                    line: key_line(text, "obstacles"),
                    column: 1,
                    message: format!("obstacle point {k} ({}, {}) is not finite", o[0], o[1]),
                });
            }
        }
        Ok(scene)
    }

    /// Reads and parses a scene file of at most [`crate::io::TEXT_FILE_LIMIT`] bytes (16 MiB).
    ///
    /// # Errors
    /// [`SceneError::Io`] when the file cannot be read, is larger than the limit (the message
    /// names it) or is not UTF-8, else as [`Scene::parse`].
    pub fn load(path: &Path) -> Result<Scene, SceneError> {
        let text = crate::io::read_text_limited(path, crate::io::TEXT_FILE_LIMIT, "scene file")
            .map_err(|source| SceneError::Io {
                path: path.to_path_buf(),
                source,
            })?;
        Scene::parse(&text, path)
    }

    /// The scene in a world whose sides are `factor` times its own: the world size, every
    /// obstacle point and predator position scaled (radii, speeds and the count unchanged). A
    /// scene that fixes its world and gives a count, run at another count N, is run scaled by
    /// √(N/N_scene) so that its density stays (`crate::run::spec::resolve`).
    pub fn scaled(&self, factor: f32) -> Scene {
        let mut s = self.clone();
        s.params.world_width *= factor;
        s.params.world_height *= factor;
        for o in &mut s.obstacles {
            *o = o.map(|v| v * factor);
        }
        for p in &mut s.predators {
            p.position = p.position.map(|v| v * factor);
        }
        s
    }

    /// The obstacles and predators of the scene.
    pub fn actors(&self) -> Actors {
        Actors {
            obstacles: self.obstacles.clone(),
            predators: self.predators.iter().map(PredatorSpec::predator).collect(),
        }
    }

    /// The scene as TOML text ([`Scene::parse`] reads it back to the same values, floats bit for
    /// bit; only [`Scene::origin`], where it was read from, is new).
    ///
    /// # Panics
    /// Never for a scene of finite values (TOML has no NaN literal in serde's output).
    pub fn to_toml(&self) -> String {
        toml::to_string(self).expect("a scene serialises")
    }

    /// Whether the world size is kept as written: `fixed_world` when set, else whether the file
    /// wrote `world_width` or `world_height`.
    pub fn world_is_fixed(&self) -> bool {
        self.fixed_world.unwrap_or(self.world_given)
    }

    /// Checks that every obstacle point and predator lies inside the world of `params`,
    /// `[0, W) × [0, H)` as for boids: a run's world is known only once it is set up (a scene
    /// without a world size gets one sized to the boid count, or to the app's window), so every
    /// set-up calls this with its final parameters.
    ///
    /// # Errors
    /// [`SetupError::PointOutsideWorld`] for the first point outside, naming the scene file, the
    /// line, the key (`obstacles[3]`, `predators[0].position`), the point and the world's size.
    pub fn check_inside(&self, params: &SimParams) -> Result<(), SetupError> {
        let (w, h) = (params.world_width, params.world_height);
        let origin = self.origin.as_ref();
        let place = |line: Option<usize>| match (origin, line) {
            (Some(o), Some(l)) => format!("scene file {}, line {l}", crate::io::show_path(&o.path)),
            (Some(o), None) => format!("scene file {}", crate::io::show_path(&o.path)),
            (None, _) => "the scene".to_string(),
        };
        let note = if self.world_is_fixed() {
            String::new()
        } else if self.world_given {
            " (fixed_world = false, so the world is sized to the run: the boid count at the \
             default density, or the app's window; drop it to keep the world as written)"
                .to_string()
        } else {
            " (the scene writes no world size, so the world is sized to the run: the boid count \
             at the default density, or the app's window; write world_width and world_height \
             under [params] to fix it)"
                .to_string()
        };
        let outside =
            |key: String, line: Option<usize>, p: [f32; 2]| SetupError::PointOutsideWorld {
                place: place(line),
                key,
                x: p[0],
                y: p[1],
                width: w,
                height: h,
                note: note.clone(),
            };
        if let Some((k, o)) = self
            .obstacles
            .iter()
            .enumerate()
            .find(|(_, o)| !inside_world(**o, w, h))
        {
            let line = origin.and_then(|o| o.obstacle_lines.get(k).copied());
            return Err(outside(format!("obstacles[{k}]"), line, *o));
        }
        if let Some((k, p)) = self
            .predators
            .iter()
            .enumerate()
            .find(|(_, p)| !inside_world(p.position, w, h))
        {
            let line = origin.and_then(|o| o.predator_lines.get(k).copied());
            return Err(outside(
                format!("predators[{k}].position"),
                line,
                p.position,
            ));
        }
        Ok(())
    }
}

/// 1-based lines, in the TOML document `text`, of each point of `obstacles` and of each
/// predator's `position` (of the predator's table when it has none); empty when `text` does not
/// parse.
pub(crate) fn point_lines(text: &str) -> (Vec<usize>, Vec<usize>) {
    use toml::de::{DeTable, DeValue};
    let Ok(doc) = DeTable::parse(text) else {
        return (Vec::new(), Vec::new());
    };
    let line = |at: usize| line_col(text, at).0;
    let items = |key: &str| -> Vec<&toml::Spanned<DeValue<'_>>> {
        match doc.get_ref().get(key).map(|v| v.get_ref()) {
            Some(DeValue::Array(a)) => a.iter().collect(),
            _ => Vec::new(),
        }
    };
    let obstacles = items("obstacles")
        .into_iter()
        .map(|v| line(v.span().start))
        .collect();
    let predators = items("predators")
        .into_iter()
        .map(|v| match v.get_ref() {
            DeValue::Table(t) => t.get("position").map_or(v.span().start, |p| p.span().start),
            _ => v.span().start,
        })
        .map(line)
        .collect();
    (obstacles, predators)
}

/// 1-based line of the `k`-th `[[predators]]` table header in `text` (1 when not found).
fn predator_line(text: &str, k: usize) -> usize {
    text.lines()
        .enumerate()
        .filter(|(_, l)| l.trim_start().starts_with("[[predators]]"))
        .nth(k)
        .map_or(1, |(i, _)| i + 1)
}

/// 1-based line where `key = …` is written in `text` (1 when not found).
pub(crate) fn key_line(text: &str, key: &str) -> usize {
    written_line(text, key).unwrap_or(1)
}

/// 1-based line where `key = …` is written in `text`, `None` when the text does not write it.
fn written_line(text: &str, key: &str) -> Option<usize> {
    text.lines()
        .position(|l| {
            l.trim_start()
                .strip_prefix(key)
                .is_some_and(|rest| rest.trim_start().starts_with('='))
        })
        .map(|i| i + 1)
}

/// Line, column and a short message for a TOML error in `text`: the message names the key at
/// the error (`params.dt: …`, `predators[1].kind: …`, `obstacles[3]: …`), and quotes at most
/// [`crate::io::QUOTE_CHARS`] characters of any value ([`crate::io::clip_message`]).
pub(crate) fn toml_error(text: &str, e: &toml::de::Error) -> (usize, usize, String) {
    let at = e.span().map(|s| s.start);
    let (mut line, mut column) = at.map(|a| line_col(text, a)).unwrap_or((1, 1));
    let message = crate::io::clip_message(e.message());
    // An unknown parameter is reported at its table; point at the key's own line.
    let unknown = message
        .strip_prefix("unknown parameter `")
        .and_then(|r| r.split('`').next());
    if let Some(k) = unknown {
        // A long key is clipped in the message ("abc… (N characters)"): find it by its prefix.
        let prefix = k.split('…').next().unwrap_or(k);
        if let Some(i) = text
            .lines()
            .position(|l| l.trim_start().starts_with(prefix))
        {
            (line, column) = (i + 1, 1);
        }
    }
    let key = at.and_then(|a| key_path_at(text, a).or_else(|| key_at(text, a)));
    let message = match key {
        // An unknown key is named by the message itself.
        Some(k) if !message.starts_with("unknown field") && unknown.is_none() => {
            format!("{}: {message}", crate::io::clip(&k))
        }
        // The per-step noise angle of earlier versions became a rate (docs/model.md §7.2).
        _ if unknown == Some("noise") => format!(
            "{message}. `noise` (a per-step angle η, rad) was replaced by `rotational_diffusion` \
             (D_r, rad²/s); the same diffusion at step dt is D_r = η² / (24·dt)"
        ),
        _ => message,
    };
    (line, column, message)
}

/// The dotted key written on the line holding byte offset `at` (`params.dt`), when that line is
/// `key = value` (the table is the last `[table]` or `[[table]]` header above it): for text that
/// does not parse as TOML, where [`key_path_at`] finds nothing.
fn key_at(text: &str, at: usize) -> Option<String> {
    let at = at.min(text.len());
    let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let end = text[start..].find('\n').map_or(text.len(), |i| start + i);
    let (key, _) = text[start..end].split_once('=')?;
    let key = key.trim();
    let bare = |k: &str| {
        !k.is_empty()
            && k.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '.')
    };
    if !bare(key) {
        return None;
    }
    let table = text[..start]
        .lines()
        .rev()
        .map(str::trim)
        .find(|l| l.starts_with('['))
        .and_then(|l| {
            l.strip_prefix("[[")
                .and_then(|t| t.strip_suffix("]]"))
                .or_else(|| l.strip_prefix('[')?.strip_suffix(']'))
        })
        .map(str::trim)
        .filter(|t| bare(t));
    Some(match table {
        Some(t) => format!("{t}.{key}"),
        None => key.to_string(),
    })
}

/// 1-based line and column of byte offset `at` in `text`.
pub(crate) fn line_col(text: &str, at: usize) -> (usize, usize) {
    let before = &text[..at.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.len() - before.rfind('\n').map(|i| i + 1).unwrap_or(0) + 1;
    (line, column)
}

/// The path of the innermost key or array element whose value holds byte offset `at` of the TOML
/// document `text`: `params.dt`, `predators[1].kind` (the second `[[predators]]` table),
/// `obstacles[3]`. From toml's spanned parse of the document, so it holds across tables, arrays of
/// tables, inline tables and arrays written over several lines. None when `text` does not parse
/// or `at` lies in no value.
pub(crate) fn key_path_at(text: &str, at: usize) -> Option<String> {
    use toml::de::{DeTable, DeValue};
    use toml::Spanned;
    fn in_value(v: &Spanned<DeValue<'_>>, at: usize, path: String) -> Option<String> {
        let inner = match v.get_ref() {
            DeValue::Table(t) => in_table(t, at, &path),
            DeValue::Array(a) => a
                .iter()
                .enumerate()
                .find_map(|(i, e)| in_value(e, at, format!("{path}[{i}]"))),
            _ => None,
        };
        inner.or_else(|| v.span().contains(&at).then_some(path))
    }
    fn in_table(t: &DeTable<'_>, at: usize, prefix: &str) -> Option<String> {
        t.iter().find_map(|(k, v)| {
            let path = if prefix.is_empty() {
                k.get_ref().to_string()
            } else {
                format!("{prefix}.{}", k.get_ref())
            };
            if k.span().contains(&at) {
                return Some(path);
            }
            in_value(v, at, path)
        })
    }
    let doc = DeTable::parse(text).ok()?;
    in_table(doc.get_ref(), at, "")
}
