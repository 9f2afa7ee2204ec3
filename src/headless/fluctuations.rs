//! `boids headless --fluctuations FILE`: giant number fluctuations (docs/model.md §12.10) of the
//! run, the standard deviation ΔN of the count in boxes against the mean count ⟨n⟩ over box
//! sizes from a quarter of the world's shorter side down to boxes of 4 particles on average, and
//! the exponent α of ΔN ∝ ⟨n⟩^α with its spatial-jackknife error
//! ([`crate::stats::number_fluctuations_over`]).
//!
//! The snapshots: the state at up to [`MAX_SNAPSHOTS`] rows of `--stats`, evenly spread (every
//! ⌈rows / 64⌉-th row), or the final state alone without `--stats`. ΔN² and ⟨n⟩ are averaged
//! over them before α is fitted.
//!
//! The file (CSV): `box_width_wu,box_height_wu,boxes,mean_count,delta_n`, one row per box size,
//! largest boxes first.

use std::path::Path;

use crate::run::RunError;
use crate::stats::{min_particles, number_fluctuations_over, BoxSizes, NumberFluctuations};

/// Most snapshots averaged (each holds N positions in memory).
pub const MAX_SNAPSHOTS: usize = 64;

/// The snapshots of a run: positions, taken every `every`-th measured row.
#[derive(Debug, Default)]
pub struct Snapshots {
    /// Rows between two snapshots (0: none are taken during the run).
    pub every: usize,
    /// Rows seen so far.
    pub rows: usize,
    /// The positions of each snapshot (wu).
    pub positions: Vec<Vec<[f32; 2]>>,
}

impl Snapshots {
    /// Snapshots for a run of `rows` measured rows (every ⌈rows / [`MAX_SNAPSHOTS`]⌉-th), or none
    /// when `wanted` is false.
    pub fn new(wanted: bool, rows: u64) -> Snapshots {
        Snapshots {
            every: if wanted && rows > 0 {
                rows.div_ceil(MAX_SNAPSHOTS as u64) as usize
            } else {
                0
            },
            ..Snapshots::default()
        }
    }

    /// Whether the row now being measured is taken (counts the row).
    pub fn take_this_row(&mut self) -> bool {
        if self.every == 0 {
            return false;
        }
        self.rows += 1;
        (self.rows - 1).is_multiple_of(self.every)
    }
}

/// Box sizes the fit of α needs: a slope through two points at least.
pub const MIN_BOX_SIZES: usize = 2;

/// Refuses, before any step, a run of too few `boids` for [`MIN_BOX_SIZES`] box sizes in a
/// `width` × `height` world (wu), naming the count it needs.
///
/// # Errors
/// [`RunError::Conflict`] with the boids, the world and the count needed.
pub fn check_count(boids: usize, width: f32, height: f32) -> Result<(), RunError> {
    let sizes = BoxSizes::default();
    let need = min_particles(width as f64, height as f64, sizes, MIN_BOX_SIZES);
    if boids >= need {
        return Ok(());
    }
    Err(RunError::Conflict(format!(
        "--fluctuations: {boids} boids in a {width} × {height} wu world give fewer than \
         {MIN_BOX_SIZES} box sizes of at least {} boids on average (the fit of α needs \
         {MIN_BOX_SIZES}): at least {need} boids in this world",
        sizes.min_mean_count
    )))
}

/// The number fluctuations of `snapshots` in a `width` × `height` world.
pub fn fluctuations(snapshots: &[Vec<[f32; 2]>], width: f32, height: f32) -> NumberFluctuations {
    let views: Vec<&[[f32; 2]]> = snapshots.iter().map(|s| s.as_slice()).collect();
    number_fluctuations_over(&views, width as f64, height as f64, BoxSizes::default())
}

/// Writes the table of `nf` to `path` (whole).
///
/// # Errors
/// [`RunError::Write`] naming the file.
pub fn write_fluctuations(path: &Path, nf: &NumberFluctuations) -> Result<(), RunError> {
    let io = |e: csv::Error| RunError::Write {
        what: "number fluctuations CSV",
        path: path.to_path_buf(),
        source: std::io::Error::other(e),
    };
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record([
        "box_width_wu",
        "box_height_wu",
        "boxes",
        "mean_count",
        "delta_n",
    ])
    .map_err(io)?;
    for p in &nf.points {
        w.write_record([
            p.box_width.to_string(),
            p.box_height.to_string(),
            p.boxes.to_string(),
            p.mean_count.to_string(),
            p.delta_n.to_string(),
        ])
        .map_err(io)?;
    }
    let bytes = w.into_inner().map_err(|e| io(e.into_error().into()))?;
    crate::io::write_atomic(path, &bytes).map_err(|source| RunError::Write {
        what: "number fluctuations CSV",
        path: path.to_path_buf(),
        source,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn at_most_64_snapshots_evenly_spread() {
        let mut s = Snapshots::new(true, 1000);
        assert_eq!(s.every, 16);
        let taken = (0..1000).filter(|_| s.take_this_row()).count();
        assert_eq!(taken, 63);
        let mut s = Snapshots::new(true, 10);
        assert_eq!((0..10).filter(|_| s.take_this_row()).count(), 10);
        let mut s = Snapshots::new(false, 10);
        assert_eq!((0..10).filter(|_| s.take_this_row()).count(), 0);
    }
}
