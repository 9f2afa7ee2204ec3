//! State CSV files: header `id,x,y,vx,vy,hx,hy,hvx,hvy`, one row per boid (positions in wu,
//! velocities in wu/s, hue vector, hue velocity in 1/s). Floats are written with Rust's shortest
//! round-trip formatting, so a saved state loads back bit for bit.

use std::path::Path;

use crate::model::state::Boid;

/// The header of a state CSV.
pub const STATE_HEADER: [&str; 9] = ["id", "x", "y", "vx", "vy", "hx", "hy", "hvx", "hvy"];

/// A state file that cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum StateFileError {
    /// The file could not be opened or read.
    #[error("cannot read state file {path}: {message}")]
    Io {
        /// The file.
        path: String,
        /// What went wrong.
        message: String,
    },
    /// A row is malformed.
    #[error("state file {path}, line {line}: {message}")]
    Row {
        /// The file.
        path: String,
        /// 1-based line.
        line: u64,
        /// What is wrong.
        message: String,
    },
}

/// Writes `boids` as a state CSV, whole: to `path.tmp`, then renamed over `path`.
///
/// # Errors
/// The I/O error, with the path.
pub fn save_state(path: &Path, boids: &[Boid]) -> std::io::Result<()> {
    let mut w = csv::Writer::from_writer(Vec::with_capacity(boids.len() * 96));
    w.write_record(STATE_HEADER)?;
    for b in boids {
        w.write_record(&[
            b.id.to_string(),
            b.position[0].to_string(),
            b.position[1].to_string(),
            b.velocity[0].to_string(),
            b.velocity[1].to_string(),
            b.hue[0].to_string(),
            b.hue[1].to_string(),
            b.hue_velocity[0].to_string(),
            b.hue_velocity[1].to_string(),
        ])?;
    }
    let bytes = w.into_inner().map_err(|e| e.into_error())?;
    crate::io::write_atomic(path, &bytes)
}

/// Reads a state CSV.
///
/// # Errors
/// [`StateFileError`] naming the file and, for a bad row, its line.
pub fn load_state(path: &Path) -> Result<Vec<Boid>, StateFileError> {
    let p = path.display().to_string();
    let mut r = csv::Reader::from_path(path).map_err(|e| StateFileError::Io {
        path: p.clone(),
        message: e.to_string(),
    })?;
    let header = r.headers().map_err(|e| StateFileError::Row {
        path: p.clone(),
        line: 1,
        message: e.to_string(),
    })?;
    if header.iter().collect::<Vec<_>>() != STATE_HEADER {
        return Err(StateFileError::Row {
            path: p,
            line: 1,
            message: format!("header must be {}", STATE_HEADER.join(",")),
        });
    }
    let mut out = Vec::new();
    let mut ids = std::collections::HashSet::new();
    for rec in r.records() {
        let rec = rec.map_err(|e| StateFileError::Row {
            path: p.clone(),
            line: e.position().map(|q| q.line()).unwrap_or(0),
            message: e.to_string(),
        })?;
        let line = rec.position().map(|q| q.line()).unwrap_or(0);
        let bad = |m: String| StateFileError::Row {
            path: p.clone(),
            line,
            message: m,
        };
        let id: u32 = rec[0]
            .trim()
            .parse()
            .map_err(|e| bad(format!("id {:?}: {e}", &rec[0])))?;
        if !ids.insert(id) {
            return Err(bad(format!(
                "id {id} appears twice (ids must be unique: they seed the random numbers)"
            )));
        }
        let mut f = [0f32; 8];
        for (k, slot) in f.iter_mut().enumerate() {
            let s = rec[k + 1].trim();
            *slot = s
                .parse()
                .map_err(|e| bad(format!("{} {s:?}: {e}", STATE_HEADER[k + 1])))?;
            if !slot.is_finite() {
                return Err(bad(format!("{} is not finite", STATE_HEADER[k + 1])));
            }
        }
        out.push(Boid {
            position: [f[0], f[1]],
            velocity: [f[2], f[3]],
            hue: [f[4], f[5]],
            hue_velocity: [f[6], f[7]],
            id,
            _pad: 0,
        });
    }
    if out.is_empty() {
        return Err(StateFileError::Row {
            path: p,
            line: 2,
            message: "no boids".into(),
        });
    }
    Ok(out)
}
