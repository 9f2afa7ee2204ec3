//! State files: a flock as a CSV of boids, optionally preceded by everything needed to resume it
//! (a *checkpoint*).
//!
//! # Format
//!
//! ```text
//! # boids-state 1
//! # # Checkpoint metadata: TOML, each line prefixed by "# "; the boids follow as CSV.
//! # seed = 4
//! # step = 1200
//! # boids = 3
//! # obstacles = [
//! #   [100.0, 200.0],
//! # ]
//! # predators = [
//! #   { position = [50.0, 60.0], velocity = [30.0, 0.0], kind = "hunting" },
//! # ]
//! #
//! # [params]
//! # world_width = 320.0
//! # …every SimParams field…
//! id,x,y,vx,vy,hx,hy,hvx,hvy,ix,iy
//! 0,12.5,80.25,40.1,-3.5,0.6,0.8,-0.08,0.06,0,0
//! …
//! ```
//!
//! - **Metadata** (optional): when the first line is `# boids-state 1`, the following lines that
//!   start with `#` hold a TOML document (each line without its `# ` prefix) with the keys `seed`
//!   (u32), `step` (u32: steps taken, the counter of the noise stream), `boids` (the row count, so
//!   a file cut short is detected), `obstacles` (points in wu, optional), `predators` (where they
//!   were at `step`, optional: docs/model.md §18; at most [`crate::model::MAX_PREDATORS`]),
//!   `catches_total` (u32, boids caught since the run began, optional, 0 when absent) and a
//!   `[params]` table of
//!   [`SimParams`] (missing fields take their defaults; unknown keys are errors). A point is
//!   exactly two numbers, and obstacle points and predator positions lie inside the world of
//!   `[params]`, `[0, W) × [0, H)` (else an error naming the line and key). Tools that read
//!   CSV with `#` comments see a plain CSV of boids. Without metadata, the caller supplies the
//!   parameters (a scene or the defaults); other leading `#` lines are then comments.
//! - **Header** `id,x,y,vx,vy,hx,hy,hvx,hvy,ix,iy`, then one row per boid: position (wu), velocity
//!   (wu/s), hue vector, hue velocity (1/s), image counts (i32: world widths and heights crossed,
//!   docs/model.md §2.4). A file with the first nine columns only (written before the image
//!   counts) loads with image counts 0. Every row has as many fields as the header, and a
//!   checkpoint's last row ends with its line end: a row cut short is an error naming its line.
//!   Floats are written in Rust's shortest round-trip form (metadata and rows), so a saved
//!   checkpoint loads back bit for bit. Blank lines and, after the header, lines starting with
//!   `#` are skipped; spaces around a field are ignored; a field may
//!   be wrapped in double quotes, as in any CSV (the quote opens the field, `""` inside it stands
//!   for `"`), but a row is one line: a quoted field does not run on past the end of its line.
//! - **Row order** is the order the writer was given: the simulation's storage order, so that a
//!   resumed simulation visits the boids in the same order. Ids identify boids (and seed their
//!   random numbers); the order carries no meaning.
//!
//! # Bounds (checked on load)
//!
//! | column | bound | on load |
//! |---|---|---|
//! | `id` | u32, unique | a duplicate is an error |
//! | `x`, `y` | finite, inside the world `[0, W) × [0, H)` | an error naming the line |
//! | `vx`, `vy` | finite; the speed the model allows (its speed rule: boids `[min_speed, max_speed]`, Vicsek `vicsek_speed`, fish any) | boids: scaled to the nearest bound; Vicsek: set to v0; direction kept (zero velocity: along +x), with a warning in the model's speed unit |
//! | `hx`, `hy` | finite, not both 0; unit length | normalised, with a warning; `(0, 0)` is an error |
//! | `hvx`, `hvy` | finite; length at most `max_hue_speed` | scaled down to it, with a warning |
//!
//! Lengths are computed in f64 (no overflow for any finite f32) and a value is changed only when
//! it is off by more than a relative [`TOLERANCE`] (1e-4; speeds also by more than
//! [`SLACK`](crate::model::loaded::SLACK),
//! 1e-18), so states written by the simulation
//! (speeds and hue lengths within float rounding of their bounds) load back unchanged. The speed
//! bounds need the parameters: [`read`] checks what needs none (finite values, hue
//! vectors, ids, limits) and [`LoadedState::conform`] the rest. Non-finite values (`inf`, `nan`,
//! or a literal beyond f32 such as `1e39`) are errors.
//!
//! # Limits
//!
//! The file is streamed (never read whole): a line is at most [`MAX_LINE_BYTES`] (4 KiB), the
//! metadata at most [`MAX_META_BYTES`] (16 MiB), and the rows at most
//! [`crate::model::MAX_BOIDS`]. Reading `/dev/zero` stops at the first line. Errors name the file,
//! the line and the limit or bound, quoting at most [`crate::io::QUOTE_CHARS`] characters of a
//! value.
//!
//! # Reading
//!
//! The header and the rows are parsed by the `csv` crate (fields, quotes, trimming, comment
//! lines). Two parts are read by hand, because the crate cannot do them: the lines are framed
//! here, each under its limit and numbered, and handed to the crate one at a time, as the crate
//! has no limit on the length of a record (a quote left open would make it read the rest of the
//! file into one field); and the metadata lines are read here before the crate starts, as it
//! skips comment lines without showing their text.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;

use crate::io::{clip, show_path};
use crate::model::actors::inside_world;
pub use crate::model::loaded::{check_checkpoint, Checkpoint, CheckpointError};

use crate::formats::desc::{ReadError, StateFormat};
use crate::model::loaded::{
    first_duplicate, len64, outside, scale64, LoadedState, StateFileError, StateMeta, TOLERANCE,
};
use crate::model::params::{validate_boid_count, SimParams, MAX_BOIDS};
use crate::model::predators::PredatorSpec;
use crate::model::state::Boid;

/// The header of a state CSV.
pub const STATE_HEADER: [&str; 11] = [
    "id", "x", "y", "vx", "vy", "hx", "hy", "hvx", "hvy", "ix", "iy",
];

/// The header of files written before the image counts (the first nine columns): they load with
/// image counts 0.
pub const STATE_HEADER_WITHOUT_IMAGES: usize = 9;

/// The first line of a checkpoint (format version 1).
pub const FORMAT_LINE: &str = "# boids-state 1";

/// Longest line of a state file (bytes, without the line end).
pub const MAX_LINE_BYTES: usize = 4096;

/// Largest metadata block of a checkpoint (bytes).
pub const MAX_META_BYTES: usize = 16 << 20;

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct MetaToml {
    seed: u32,
    step: u32,
    boids: usize,
    #[serde(default, deserialize_with = "crate::model::point::points")]
    obstacles: Vec<[f32; 2]>,
    #[serde(default)]
    predators: Vec<PredatorSpec>,
    #[serde(default)]
    catches_total: u32,
    params: SimParams,
}

/// A line that cannot be read: its 1-based number and what is wrong.
#[derive(Debug)]
struct LineError {
    line: u64,
    message: String,
    /// The read itself failed (an I/O error), rather than the line being bad.
    io: bool,
}

impl std::fmt::Display for LineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for LineError {}

impl LineError {
    fn into_state_error(self, path: &str) -> StateFileError {
        if self.io {
            StateFileError::Io {
                path: path.to_string(),
                message: self.to_string(),
            }
        } else {
            StateFileError::Row {
                path: path.to_string(),
                line: self.line,
                message: self.message,
            }
        }
    }
}

/// The lines of a state file, numbered, each at most [`MAX_LINE_BYTES`] of UTF-8 text (the
/// hand-framed part of the module documentation's "Reading").
///
/// The leading `#` lines and the header are taken one at a time ([`Lines::next_line`]); the
/// header and the rows then reach the CSV reader through [`Read`], a line per read, blank lines
/// left out, and a read that would carry a row on to the next line is an error. So the row the
/// CSV reader returns is on the last line given it ([`Lines::row_done`]).
struct Lines<R> {
    r: R,
    /// The number of the line in `buf` (0 before the first).
    line: u64,
    /// The line, with its line end.
    buf: Vec<u8>,
    /// How many bytes of `buf` the CSV reader has been given.
    sent: usize,
    /// The line of the row the CSV reader is inside, between giving it the row's first byte and
    /// [`Lines::row_done`].
    open_row: Option<u64>,
    /// Whether the last row read (not a blank or `#` line) ended with its line end (`\n`): a
    /// checkpoint's last row does, so one without was cut short.
    row_ended: bool,
}

impl<R: BufRead> Lines<R> {
    fn new(r: R) -> Self {
        Lines {
            r,
            line: 0,
            buf: Vec::with_capacity(256),
            sent: 0,
            open_row: None,
            row_ended: true,
        }
    }

    /// The next line (1-based number, text without its end `\n` or `\r\n`), or `None` at the end
    /// of the file.
    fn next_line(&mut self) -> Result<Option<(u64, &str)>, LineError> {
        self.buf.clear();
        self.sent = 0;
        let n = (&mut self.r)
            .take(MAX_LINE_BYTES as u64 + 2)
            .read_until(b'\n', &mut self.buf)
            .map_err(|e| LineError {
                line: self.line + 1,
                message: e.to_string(),
                io: true,
            })?;
        if n == 0 {
            return Ok(None);
        }
        self.line += 1;
        let mut text = &self.buf[..];
        if let Some(t) = text.strip_suffix(b"\n") {
            text = t.strip_suffix(b"\r").unwrap_or(t);
        }
        let bad = |message: String| LineError {
            line: self.line,
            message,
            io: false,
        };
        if text.len() > MAX_LINE_BYTES {
            return Err(bad(format!(
                "the line is longer than the {} limit of a state-file line",
                crate::io::size_words(MAX_LINE_BYTES as u64)
            )));
        }
        std::str::from_utf8(text)
            .map(|t| Some((self.line, t)))
            .map_err(|e| {
                bad(format!(
                    "not UTF-8 text (invalid byte at column {})",
                    e.valid_up_to() + 1
                ))
            })
    }

    /// Called when the CSV reader has returned a row: its line.
    fn row_done(&mut self) -> u64 {
        self.open_row = None;
        self.line
    }
}

impl<R: BufRead> Read for Lines<R> {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        while self.sent == self.buf.len() {
            // The CSV reader asks for more while inside a row whose line, line end included, it
            // has been given whole: a quoted field runs on past the end of the line.
            if let (Some(line), true) = (self.open_row, self.buf.ends_with(b"\n")) {
                return Err(std::io::Error::other(LineError {
                    line,
                    message: "a quoted field runs on past the end of the line (a row is one \
                              line: a field holds no line break)"
                        .into(),
                    io: false,
                }));
            }
            let Some((line, t)) = self.next_line().map_err(std::io::Error::other)? else {
                return Ok(0);
            };
            // Blank and `#` lines are not given to the CSV reader (a last `#` line without its
            // line end would reach it as a row of one field).
            if t.trim().is_empty() || t.starts_with('#') {
                self.sent = self.buf.len();
            } else {
                self.open_row = Some(line);
                self.row_ended = self.buf.ends_with(b"\n");
            }
        }
        let n = out.len().min(self.buf.len() - self.sent);
        out[..n].copy_from_slice(&self.buf[self.sent..self.sent + n]);
        self.sent += n;
        Ok(n)
    }
}

/// The CSV reader of the header and rows: no header handling of its own (the header is checked
/// as a row), any number of fields (counted by [`parse_row`]), fields trimmed, `#` lines skipped.
fn csv_reader<R: Read>(r: R) -> csv::Reader<R> {
    csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .trim(csv::Trim::All)
        .comment(Some(b'#'))
        .from_reader(r)
}

/// A CSV reader's error as a state-file error; `line` is the line it was reading.
fn csv_error(e: csv::Error, line: u64, path: &str) -> StateFileError {
    if let csv::ErrorKind::Io(io) = e.kind() {
        if let Some(le) = io.get_ref().and_then(|i| i.downcast_ref::<LineError>()) {
            return LineError {
                line: le.line,
                message: le.message.clone(),
                io: le.io,
            }
            .into_state_error(path);
        }
        return StateFileError::Io {
            path: path.to_string(),
            message: format!("line {line}: {io}"),
        };
    }
    StateFileError::Row {
        path: path.to_string(),
        line,
        message: e.to_string(),
    }
}

/// Reads a state file: metadata (when present), header and rows, streamed under the limits of
/// the module documentation. Checks what needs no parameters — finite values, non-zero hue
/// vectors (normalised), unique ids, the row count against the metadata, the metadata's
/// parameters and obstacles — but not positions or speeds: see [`LoadedState::conform`].
///
/// # Errors
/// [`StateFileError`] naming the file, the line and the bound or limit.
pub fn read(path: &Path) -> Result<LoadedState, StateFileError> {
    read_with_limit(path, MAX_BOIDS)
}

/// [`read`] with at most `max_boids` rows.
fn read_with_limit(path: &Path, max_boids: usize) -> Result<LoadedState, StateFileError> {
    let p = show_path(path);
    let file = std::fs::File::open(path).map_err(|e| {
        // `state.csv:3` for a file `state.csv`: the frame syntax of trajectories.
        let text = path.to_string_lossy();
        let frame_of = text
            .rsplit_once(':')
            .filter(|(f, k)| k.parse::<u64>().is_ok() && Path::new(f).is_file());
        StateFileError::Io {
            path: p.clone(),
            message: match frame_of {
                Some((f, _)) if e.kind() == std::io::ErrorKind::NotFound => format!(
                    "{e}; FILE:FRAME names a frame of a GSD trajectory, and {} is not one (a \
                     state CSV holds one state: give its name alone)",
                    crate::io::clip(f)
                ),
                _ => e.to_string(),
            },
        }
    })?;
    let kind = file.metadata().map_err(|e| StateFileError::Io {
        path: p.clone(),
        message: e.to_string(),
    })?;
    if kind.is_dir() {
        return Err(StateFileError::Io {
            path: p,
            message: "is a directory".into(),
        });
    }
    read_from(BufReader::with_capacity(1 << 16, file), path, max_boids)
}

/// [`read`] of the text `r`, named `path` in errors.
fn read_from(
    r: impl BufRead,
    path: &Path,
    max_boids: usize,
) -> Result<LoadedState, StateFileError> {
    let p = show_path(path);
    let mut lines = Lines::new(r);
    let mut sf = LoadedState::new(path);
    let row_err = |line: u64, message: String| StateFileError::Row {
        path: p.clone(),
        line,
        message,
    };

    // Leading `#` lines: the metadata of a checkpoint, or comments. They are read here, line
    // by line, because the CSV reader skips comment lines without showing their text.
    let mut meta_text = String::new();
    let mut meta_first_line = 0;
    let mut is_checkpoint = false;
    let (header_line, header_text) = loop {
        let Some((line, l)) = lines.next_line().map_err(|e| e.into_state_error(&p))? else {
            return Err(row_err(
                lines.line.max(1),
                format!("no header: expected {}", STATE_HEADER.join(",")),
            ));
        };
        let t = l.trim_end();
        if line == 1 && t.starts_with("# boids-state") {
            if t != FORMAT_LINE {
                return Err(row_err(
                    1,
                    format!(
                        "unsupported format {:?}: this program reads {FORMAT_LINE:?}",
                        clip(t)
                    ),
                ));
            }
            is_checkpoint = true;
            meta_first_line = 2;
            continue;
        }
        if let Some(rest) = t.strip_prefix('#') {
            if is_checkpoint {
                let rest = rest.strip_prefix(' ').unwrap_or(rest);
                if meta_text.len() + rest.len() + 1 > MAX_META_BYTES {
                    return Err(row_err(
                        line,
                        format!(
                            "the metadata is larger than its {} limit",
                            crate::io::size_words(MAX_META_BYTES as u64)
                        ),
                    ));
                }
                meta_text.push_str(rest);
                meta_text.push('\n');
            }
            continue;
        }
        if t.trim().is_empty() {
            if is_checkpoint {
                meta_text.push('\n');
            }
            continue;
        }
        break (line, clip(t));
    };
    if is_checkpoint {
        let (meta, predator_lines) = parse_meta(&meta_text, meta_first_line, &p)?;
        sf.set_meta(meta, predator_lines);
    }

    // The header and the rows, through the CSV reader: `lines` gives it the header line
    // first (read above, not yet given), then the rows.
    lines.open_row = Some(header_line);
    let mut csv = csv_reader(lines);
    let mut record = csv::StringRecord::new();
    // The header's width: every row has as many fields (11, or the first 9 in a file written
    // before the image counts), so a row cut short by a field or two is an error, not 9 fields.
    let width = match csv.read_record(&mut record) {
        Ok(true) => [STATE_HEADER.len(), STATE_HEADER_WITHOUT_IMAGES]
            .into_iter()
            .find(|&w| record.iter().eq(STATE_HEADER[..w].iter().copied())),
        Ok(false) => None,
        Err(e) => return Err(csv_error(e, header_line, &p)),
    };
    csv.get_mut().row_done();
    let Some(width) = width else {
        return Err(row_err(
            header_line,
            format!(
                "header must be {} (found {header_text:?})",
                STATE_HEADER.join(",")
            ),
        ));
    };
    loop {
        match csv.read_record(&mut record) {
            Ok(true) => {}
            Ok(false) => break,
            Err(e) => return Err(csv_error(e, csv.get_ref().line, &p)),
        }
        let line = csv.get_mut().row_done();
        if sf.boids.len() == max_boids {
            return Err(row_err(
                line,
                format!("more than {max_boids} boids (the limit of every backend)"),
            ));
        }
        let (boid, normalised) = parse_row(&record, width).map_err(|m| row_err(line, m))?;
        if normalised {
            let i = sf.boids.len();
            sf.note("hue vector normalised to length 1".into(), i);
        }
        sf.push_row(boid, line);
    }
    if sf.boids.is_empty() {
        return Err(row_err(header_line + 1, "no boids".into()));
    }
    if let Some(m) = &sf.meta {
        if m.boids != sf.boids.len() {
            return Err(StateFileError::File {
                path: p,
                message: format!(
                    "the metadata says boids = {} but the file holds {} rows (cut short or \
                     edited?)",
                    m.boids,
                    sf.boids.len()
                ),
            });
        }
    }
    if is_checkpoint && !csv.get_ref().row_ended {
        let last = sf.line_of(sf.boids.len() - 1);
        return Err(row_err(
            last,
            "the last row has no line end: the file was cut short (each row of a checkpoint \
             ends with one)"
                .into(),
        ));
    }
    if let Some(i) = first_duplicate(&sf.boids) {
        return Err(sf.line_err(
            sf.line_of(i),
            format!(
                "id {} appears twice (ids must be unique: they seed the random numbers)",
                sf.boids[i].id
            ),
        ));
    }
    Ok(sf)
}

/// Parses one row (its fields as the CSV reader gives them: trimmed, unquoted; `width` of them, as
/// the header); returns the boid and whether its hue vector was normalised. The error is the
/// message of a [`StateFileError::Row`] (which adds the file and the line): a bad row is refused whatever the
/// fault, so the text is all a caller uses, and it stays a `String`.
fn parse_row(row: &csv::StringRecord, width: usize) -> Result<(Boid, bool), String> {
    if row.len() != width {
        let hint = if row.len() < width {
            " (a row cut short?)"
        } else if width == STATE_HEADER_WITHOUT_IMAGES && row.len() == STATE_HEADER.len() {
            " (rows with image counts need ix,iy in the header)"
        } else {
            ""
        };
        return Err(format!(
            "expected {width} fields, as the header ({}), found {}{hint}",
            STATE_HEADER[..width].join(","),
            row.len()
        ));
    }
    let mut image = [0i32; 2];
    if row.len() == STATE_HEADER.len() {
        for (k, slot) in image.iter_mut().enumerate() {
            let s = &row[9 + k];
            *slot = s.parse().map_err(|e| {
                format!(
                    "{} = \"{}\": {e} (allowed {} ..= {})",
                    STATE_HEADER[9 + k],
                    clip(s),
                    i32::MIN,
                    i32::MAX
                )
            })?;
        }
    }
    let id: u32 = row[0].parse().map_err(|e| {
        format!(
            "id = \"{}\": {e} (allowed 0 ..= {})",
            clip(&row[0]),
            u32::MAX
        )
    })?;
    let mut f = [0f32; 8];
    for (k, slot) in f.iter_mut().enumerate() {
        let s = &row[k + 1];
        let name = STATE_HEADER[k + 1];
        *slot = s
            .parse()
            .map_err(|e| format!("{name} = \"{}\": {e}", clip(s)))?;
        if !slot.is_finite() {
            return Err(format!(
                "{name} = \"{}\" is not a finite f32 (allowed: finite numbers, |x| ≤ {:e})",
                clip(s),
                f32::MAX
            ));
        }
    }
    let hue = [f[4], f[5]];
    let hl = len64(hue);
    if hl == 0.0 {
        return Err(
            "hue vector (hx, hy) = (0, 0) has no direction: hx and hy must not both be 0".into(),
        );
    }
    let normalised = (hl - 1.0).abs() > TOLERANCE;
    let hue = if normalised {
        scale64(hue, 1.0 / hl)
    } else {
        hue
    };
    Ok((
        Boid {
            position: [f[0], f[1]],
            velocity: [f[2], f[3]],
            hue,
            hue_velocity: [f[6], f[7]],
            id,
            image,
        },
        normalised,
    ))
}

/// Parses and checks the metadata; `first_line` is the file line of its first line. Returns it
/// with the file line of each predator's `position`.
fn parse_meta(
    text: &str,
    first_line: u64,
    path: &str,
) -> Result<(StateMeta, Vec<u64>), StateFileError> {
    let at = |line_in_meta: usize| first_line + line_in_meta as u64 - 1;
    let err = |line: u64, message: String| StateFileError::Row {
        path: path.to_string(),
        line,
        message: format!("metadata: {message}"),
    };
    let m: MetaToml = toml::from_str(text).map_err(|e| {
        let (line, _, message) = crate::formats::scene::toml_error(text, &e);
        err(at(line), message)
    })?;
    m.params.validate().map_err(|e| {
        err(
            at(crate::formats::scene::key_line(text, e.key())),
            e.to_string(),
        )
    })?;
    validate_boid_count(m.boids).map_err(|e| {
        err(
            at(crate::formats::scene::key_line(text, "boids")),
            e.to_string(),
        )
    })?;
    for (k, o) in m.obstacles.iter().enumerate() {
        if !(o[0].is_finite() && o[1].is_finite()) {
            return Err(err(
                at(crate::formats::scene::key_line(text, "obstacles")),
                format!("obstacle point {k} ({}, {}) is not finite", o[0], o[1]),
            ));
        }
    }
    // Obstacles and predators inside the file's world, as its boids (docs/model.md §1.2).
    let (w, h) = (m.params.world_width, m.params.world_height);
    let (obstacle_lines, predator_lines) = crate::formats::scene::point_lines(text);
    let line = |lines: &[usize], k: usize| at(lines.get(k).copied().unwrap_or(1));
    if let Some((k, o)) = m
        .obstacles
        .iter()
        .enumerate()
        .find(|(_, o)| !inside_world(**o, w, h))
    {
        return Err(err(
            line(&obstacle_lines, k),
            outside(&format!("obstacles[{k}]"), *o, w, h),
        ));
    }
    if let Some((k, p)) =
        m.predators.iter().enumerate().find(|(_, p)| {
            p.position.iter().all(|x| x.is_finite()) && !inside_world(p.position, w, h)
        })
    {
        return Err(err(
            line(&predator_lines, k),
            outside(&format!("predators[{k}].position"), p.position, w, h),
        ));
    }
    let max = crate::model::MAX_PREDATORS;
    if m.predators.len() > max {
        return Err(err(
            at(crate::formats::scene::key_line(text, "predators")),
            format!(
                "predators = {} entries is out of range: allowed 0 ..= {max}",
                m.predators.len()
            ),
        ));
    }
    for (k, p) in m.predators.iter().enumerate() {
        if !p.position.iter().chain(&p.velocity).all(|x| x.is_finite()) {
            return Err(err(
                at(crate::formats::scene::key_line(text, "predators")),
                format!("predator {k}: position and velocity must be finite"),
            ));
        }
    }
    let meta = StateMeta {
        params: m.params,
        seed: m.seed,
        step: m.step,
        obstacles: m.obstacles,
        predators: m.predators,
        catches_total: m.catches_total,
        boids: m.boids,
    };
    Ok((meta, predator_lines.into_iter().map(at).collect()))
}

/// Writes `boids` as a plain state CSV (header and rows, no metadata), whole (see
/// [`crate::io::write_atomic_with`]), in the order given.
///
/// # Errors
/// The I/O error, with the path.
pub fn save_state(path: &Path, boids: &[Boid]) -> std::io::Result<()> {
    crate::io::write_atomic_with(path, |w| write_rows(w, boids))
}

/// Writes `boids` as a plain state CSV (as [`save_state`] does) into `w`: for a caller with no
/// file system (a web page posting a state).
///
/// # Errors
/// The writer's.
pub fn write_rows(w: &mut dyn Write, boids: &[Boid]) -> std::io::Result<()> {
    writeln!(w, "{}", STATE_HEADER.join(","))?;
    for b in boids {
        writeln!(
            w,
            "{},{},{},{},{},{},{},{},{},{},{}",
            b.id,
            b.position[0],
            b.position[1],
            b.velocity[0],
            b.velocity[1],
            b.hue[0],
            b.hue[1],
            b.hue_velocity[0],
            b.hue_velocity[1],
            b.image[0],
            b.image[1]
        )?;
    }
    Ok(())
}

/// The metadata lines of `cp` (each `# …`, ending with a line end).
fn meta_lines(cp: &Checkpoint) -> std::io::Result<String> {
    let mut t = format!(
        "{FORMAT_LINE}\n# # Checkpoint metadata: TOML, each line prefixed by \"# \"; the boids \
         follow as CSV.\n# seed = {}\n# step = {}\n# boids = {}\n",
        cp.seed,
        cp.step,
        cp.boids.len()
    );
    if cp.obstacles.is_empty() {
        t.push_str("# obstacles = []\n");
    } else {
        t.push_str("# obstacles = [\n");
        for o in &cp.obstacles {
            // `{:?}` is the shortest round-trip form with a `.0` or exponent: a TOML float.
            t.push_str(&format!("#   [{:?}, {:?}],\n", o[0], o[1]));
        }
        t.push_str("# ]\n");
    }
    if !cp.predators.is_empty() {
        t.push_str("# predators = [\n");
        for p in &cp.predators {
            t.push_str(&format!(
                "#   {{ position = [{:?}, {:?}], velocity = [{:?}, {:?}], kind = \"{}\" }},\n",
                p.position[0],
                p.position[1],
                p.velocity[0],
                p.velocity[1],
                p.kind.name()
            ));
        }
        t.push_str("# ]\n");
    }
    if cp.catches_total > 0 {
        t.push_str(&format!("# catches_total = {}\n", cp.catches_total));
    }
    t.push_str("#\n# [params]\n");
    let params = toml::to_string(&cp.params)
        .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e.to_string()))?;
    for l in params.lines() {
        t.push_str("# ");
        t.push_str(l);
        t.push('\n');
    }
    Ok(t)
}

/// The state CSV's entry in the table of state formats: it reads any file the formats before it
/// do not own, and writes `.csv` and any other extension no format claims.
pub const FORMAT: StateFormat = StateFormat {
    name: "state CSV / checkpoint",
    extensions: &["csv"],
    read: |path| Some(read(path).map_err(ReadError::from)),
    write: save_checkpoint,
};

/// Writes a checkpoint file (module documentation), whole, streaming the rows in the order of
/// `cp.boids`. Refuses (before writing anything) a checkpoint that would not load back
/// ([`check_checkpoint`]); values the loader would merely adjust (a speed above `max_speed`
/// after a live parameter change) are written as they are.
///
/// # Errors
/// [`std::io::ErrorKind::InvalidInput`] naming the path and the fault, or the I/O error.
pub fn save_checkpoint(path: &Path, cp: &Checkpoint) -> std::io::Result<()> {
    check_checkpoint(cp).map_err(|m| {
        std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!(
                "{}: not saved, it would not load back: {m}",
                show_path(path)
            ),
        )
    })?;
    let meta = meta_lines(cp)?;
    crate::io::write_atomic_with(path, |w| {
        w.write_all(meta.as_bytes())?;
        write_rows(w, &cp.boids)
    })
}

/// Writes a checkpoint (as [`save_checkpoint`] does) into `w`: for a caller with no file system
/// (a web page posting a state).
///
/// # Errors
/// [`std::io::ErrorKind::InvalidInput`] naming the fault of a checkpoint that would not load
/// back, or the writer's.
pub fn write_checkpoint(w: &mut dyn Write, cp: &Checkpoint) -> std::io::Result<()> {
    check_checkpoint(cp).map_err(|m| {
        std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!("not written, it would not load back: {m}"),
        )
    })?;
    w.write_all(meta_lines(cp)?.as_bytes())?;
    write_rows(w, &cp.boids)
}

/// Reads a state CSV (with or without metadata) and returns its boids. With metadata, they are
/// brought within its parameters ([`LoadedState::conform`]); without, only the checks of
/// [`read`] apply. Warnings are dropped: use [`read`] to show them.
///
/// # Errors
/// [`StateFileError`] naming the file and, for a bad row, its line.
pub fn load_state(path: &Path) -> Result<Vec<Boid>, StateFileError> {
    let mut sf = read(path)?;
    if let Some(m) = sf.meta.clone() {
        sf.conform(&m.params, "the file's metadata")?;
    }
    Ok(sf.boids)
}

/// Reads a checkpoint file and brings its boids within its parameters.
///
/// # Errors
/// [`StateFileError`] as [`read`], or [`StateFileError::File`] when the file has no
/// `# boids-state 1` metadata.
pub fn load_checkpoint(path: &Path) -> Result<Checkpoint, StateFileError> {
    let mut sf = read(path)?;
    let Some(m) = sf.meta.clone() else {
        return Err(StateFileError::File {
            path: show_path(path),
            message: format!(
                "no checkpoint metadata (a plain state CSV: its first line is not {FORMAT_LINE:?})"
            ),
        });
    };
    sf.conform(&m.params, "the file's metadata")?;
    Ok(sf.into_checkpoint().expect("metadata present"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn row_lines_map_indices_over_blank_lines() {
        let mut sf = LoadedState::new(Path::new("x"));
        for (i, line) in [2, 3, 4, 7, 10, 11].into_iter().enumerate() {
            sf.push_row(
                crate::model::spawn_boid(1, i as u32, &SimParams::default()),
                line,
            );
        }
        assert_eq!(
            (0..6).map(|i| sf.line_of(i)).collect::<Vec<_>>(),
            vec![2, 3, 4, 7, 10, 11]
        );
    }

    const H: &str = "id,x,y,vx,vy,hx,hy,hvx,hvy";

    /// Reads `text` as the state file `t.csv`.
    fn read_text(text: &str) -> Result<LoadedState, StateFileError> {
        read_from(text.as_bytes(), Path::new("t.csv"), MAX_BOIDS)
    }

    #[test]
    fn fields_may_be_quoted_padded_and_end_in_crlf() {
        let sf = read_text(
            "\"id\",x, y ,vx,vy,hx,hy,hvx,hvy\r\n\
             7,\" 1.5 \",  2  ,3,4,3,4,0,0\r\n\
             \"8\",\"1\",\"2\",\"3\",\"4\",\"1\",\"0\",\"0\",\"0\"",
        )
        .unwrap();
        let b = &sf.boids;
        assert_eq!(b.len(), 2);
        assert_eq!(
            (b[0].id, b[0].position, b[0].hue),
            (7, [1.5, 2.0], [0.6, 0.8])
        );
        assert_eq!(
            (b[1].id, b[1].velocity, b[1].hue),
            (8, [3.0, 4.0], [1.0, 0.0])
        );
        assert_eq!((sf.line_of(0), sf.line_of(1)), (2, 3));
        assert!(sf.warnings()[0].contains("hue vector normalised"));
    }

    /// A comma inside quotes belongs to the field, as in any CSV: the value is refused as a
    /// number, not the row as having too many fields.
    #[test]
    fn a_quoted_comma_is_part_of_the_field() {
        let e = read_text(&format!("{H}\n7,\"1,5\",2,3,4,1,0,0,0\n")).unwrap_err();
        assert!(
            matches!(&e, StateFileError::Row { line: 2, .. }),
            "a bad row is a row error, with its line: {e:?}"
        );
        let e = e.to_string();
        assert!(
            e.contains("t.csv, line 2") && e.contains("x = \"1,5\"") && !e.contains("fields"),
            "{e}"
        );
    }

    #[test]
    fn rows_with_the_wrong_field_count_or_no_hue_are_refused_naming_the_line() {
        for (row, needle) in [
            ("7,1,2,3,4,1,0,0", "found 8"),
            ("7,1,2,3,4,1,0,0,0,9", "found 10"),
            ("\"\"", "found 1"),
            ("7,1,2,3,4,0,0,0,0", "(0, 0)"),
            ("7,1,2,3,4,1,0,0,inf", "hvy = \"inf\" is not a finite f32"),
        ] {
            let e = read_text(&format!("{H}\n0,1,1,1,0,1,0,0,0\n\n{row}\n"))
                .unwrap_err()
                .to_string();
            assert!(
                e.contains("t.csv, line 4") && e.contains(needle),
                "{row}: {e}"
            );
        }
    }

    /// Blank lines and `#` lines among the rows are skipped; the rows keep their file lines.
    #[test]
    fn blank_and_comment_lines_among_rows_are_skipped() {
        let text = format!(
            "# a comment\n\n{H}\n0,1,1,1,0,1,0,0,0\n   \n# x,y\n\r\n1,1,1,1,0,1,0,0,0\n2,1,1,1,0,1,0,0,0\n"
        );
        let sf = read_text(&text).unwrap();
        assert_eq!(sf.boids.iter().map(|b| b.id).collect::<Vec<_>>(), [0, 1, 2]);
        assert_eq!((0..3).map(|i| sf.line_of(i)).collect::<Vec<_>>(), [4, 8, 9]);
        let e = read_text(&text.replace("2,1,1,1", "1,1,1,1"))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("line 9") && e.contains("id 1 appears twice"),
            "{e}"
        );
    }

    /// A quote left open does not swallow the rest of the file: the row is refused at its line
    /// as soon as the reader would need the next line.
    #[test]
    fn a_quoted_field_may_not_run_past_its_line() {
        let mut text = format!("{H}\n0,1,1,1,0,1,0,0,0\n1,\"1,1,1,0,1,0,0,0\n\n");
        for _ in 0..100_000 {
            text.push_str("2,1,1,1,0,1,0,0,0\n");
        }
        let mut rest = text.as_bytes();
        let e = read_from(&mut rest, Path::new("t.csv"), MAX_BOIDS)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("t.csv, line 3") && e.contains("runs on past the end of the line"),
            "{e}"
        );
        assert!(
            text.len() - rest.len() < 100,
            "read {} bytes",
            text.len() - rest.len()
        );
        // At the end of the file the open quote ends with it, as in any CSV.
        assert_eq!(
            read_text(&format!("{H}\n0,1,1,1,0,1,0,0,\"0"))
                .unwrap()
                .boids[0]
                .hue_velocity,
            [0.0, 0.0]
        );
    }

    #[test]
    fn a_line_that_is_not_utf8_is_refused_naming_it() {
        let text = [
            format!("{H}\n0,1,1,1,0,1,0,0,0\n").as_bytes(),
            b"1,1,1,1,\xff,1,0,0,0\n",
        ]
        .concat();
        let e = read_from(&text[..], Path::new("t.csv"), MAX_BOIDS)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("t.csv, line 3") && e.contains("not UTF-8") && e.contains("column 9"),
            "{e}"
        );
    }

    #[test]
    fn duplicates_are_found_at_their_second_occurrence() {
        let b = |id| Boid {
            id,
            ..Boid::zeroed()
        };
        assert_eq!(first_duplicate(&[b(1), b(2), b(3)]), None);
        assert_eq!(first_duplicate(&[b(5), b(2), b(9), b(2), b(5)]), Some(3));
    }

    /// The row limit is checked as rows stream in (at the real limit, a file would be GBs).
    #[test]
    fn rows_past_the_boid_limit_are_refused_at_the_first_extra_row() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("many.csv");
        let rows: String = (0..5)
            .map(|i| format!("{i},1,1,50,0,1,0,0,0,0,0\n"))
            .collect();
        std::fs::write(&path, format!("{}\n{rows}", STATE_HEADER.join(","))).unwrap();
        assert_eq!(read_with_limit(&path, 5).unwrap().boids.len(), 5);
        let e = read_with_limit(&path, 4).unwrap_err().to_string();
        assert!(
            e.contains("line 6") && e.contains("more than 4 boids"),
            "{e}"
        );
    }

    use bytemuck::Zeroable;
}
