//! `sweep.csv`: one row per run (one combination of values × one repeat), in plan order, with the
//! columns of [`header`] (see [`crate::sweep::output`] for the folder). Written and read back
//! here, so that a merge of shards rewrites the rows of one run byte for byte.
//!
//! Columns: `run,point,repeat,seed` (numbered from 1: the run, its point — the combination of
//! values, as docs/sweeps.md defines it; the repeats of one point share its number — and its
//! repeat), one column per swept parameter (named after it),
//! `n_boids,world_width_wu,world_height_wu,density` (boids/wu²; no `density` of its own when
//! `density` is swept: [`density_column`]), `samples` (measured steps),
//! then for each average measure `M` of [`crate::sweep::measures`] its time average `M`, its
//! standard deviation over time `M_sd` and the standard error of the average `M_se` by batch
//! means; then for each statistic `S` of the model's order parameter φ over the run
//! ([`crate::sweep::order_statistics`]: `phi2`, `phi4`, `binder`, `susceptibility`) its value and
//! its block-jackknife standard error `S_se`; then, with `--analyse`, one column per scalar
//! summary of the analyses (`xi`, in wu, …; empty where it does not exist). Numbers are in shortest round-trip form (`0.1`, not
//! `0.10000000149011612`; world sizes are the f32 values used). There is no timing column: times
//! differ between runs.

use std::path::Path;

use crate::stats::{OrderParameterMoments, SeriesStats};
use crate::sweep::error::SweepError;
use crate::sweep::plan::{axis_names, Axis};

/// File name of the table.
pub const CSV: &str = "sweep.csv";

/// One row of `sweep.csv`: one run.
#[derive(Clone, Debug, PartialEq)]
pub struct RunRow {
    /// The run's number in the full plan, from 1 (its index + 1).
    pub run: usize,
    /// Its point's number (the combination of values) in the full plan, from 1.
    pub point: usize,
    /// Repeat, from 1.
    pub repeat: u32,
    /// Seed of the run.
    pub seed: u32,
    /// The value of each swept parameter.
    pub values: Vec<f64>,
    /// Boid count N.
    pub boids: usize,
    /// World width and height (wu).
    pub world: [f32; 2],
    /// Measured steps.
    pub samples: u32,
    /// Statistics of each measure, in [`crate::sweep::measures`] order.
    pub stats: Vec<SeriesStats>,
    /// Each statistic of the order parameter over the run, (value, standard error), in
    /// [`crate::sweep::order_statistics`] order.
    pub order: Vec<(f64, f64)>,
    /// The analyses' scalar summaries (`--analyse`), in the plan's scalar-column order; `None`
    /// where one does not exist (ξ when C(r) has no robust zero), written as an empty field.
    pub scalars: Vec<Option<f64>>,
    /// The counts of φ over the measured steps in the bins of
    /// [`crate::sweep::histogram`] (written to `phi_histogram.csv`, not to this table; empty
    /// until read back from there).
    pub histogram: Vec<u32>,
    /// Why an analysis of the run could not be finished (its scalar summaries are `None`): for
    /// the command's warning, not written to the table (empty when read back).
    pub analysis_errors: Vec<String>,
}

impl RunRow {
    /// The density N / (W·H) (boids/wu²).
    pub fn density(&self) -> f64 {
        density(self.boids, self.world)
    }

    /// The measures that every state has (the mean speed, the polarization) whose average over
    /// the run is not finite: the run's state became NaN or infinite (a replica of an ensemble
    /// like a lone run: its own row only, the other runs' statistics are their own). Empty for a
    /// healthy run.
    pub fn not_finite(&self) -> Vec<&'static str> {
        crate::sweep::measures()
            .iter()
            .zip(&self.stats)
            .filter(|(m, s)| matches!(m.name, "mean_speed" | "polarization") && !s.mean.is_finite())
            .map(|(m, _)| m.name)
            .collect()
    }

    /// Why this run's errors are not to be trusted, if they are not: the run shorter than
    /// [`RUN_TAUS`](crate::stats::RUN_TAUS) integrated autocorrelation times of φ, or a batch of
    /// its errors shorter than [`BATCH_TAUS`](crate::stats::BATCH_TAUS) (docs/model.md §12.9).
    pub fn too_short(&self) -> Option<String> {
        let k = crate::sweep::order_statistics()
            .iter()
            .position(|m| m.name == "tau_int")?;
        let tau = self.order.get(k)?.0;
        if !(tau.is_finite() && tau > 0.0) {
            return None;
        }
        let n = self.samples as f64;
        let batch = n / crate::stats::batch_count(self.samples as usize).max(1) as f64;
        if n < crate::stats::RUN_TAUS * tau {
            Some(format!(
                "{:.0} τ_int of φ long (τ_int = {tau:.1} steps{}), fewer than {}: run longer",
                n / tau,
                if n < 2.0 * crate::stats::WINDOW_FACTOR * tau {
                    ", a lower bound: its window did not fit half the run"
                } else {
                    ""
                },
                crate::stats::RUN_TAUS
            ))
        } else if batch < crate::stats::BATCH_TAUS * tau {
            Some(format!(
                "its batches (of the errors) are {:.1} τ_int of φ long (τ_int = {tau:.1} steps), \
                 fewer than {}: its errors are too small; run longer",
                batch / tau,
                crate::stats::BATCH_TAUS
            ))
        } else {
            None
        }
    }
}

/// N / (W·H) (boids/wu²).
pub fn density(boids: usize, world: [f32; 2]) -> f64 {
    boids as f64 / (world[0] as f64 * world[1] as f64)
}

/// The order-parameter columns of a run from its moments, in [`crate::sweep::order_statistics`]
/// order.
pub fn order_columns(m: &OrderParameterMoments) -> Vec<(f64, f64)> {
    crate::model::flock_measures::series_measures(m)
        .iter()
        .map(|(_, e)| (e.value, e.error))
        .collect()
}

/// Whether the files carry a `density` column of their own beside the world (N/(W·H)): not when
/// `density` is swept, whose column is then the swept value (the world columns give the density
/// reached), so no file has two columns of one name.
pub fn density_column(axes: &[String]) -> bool {
    !axes.iter().any(|a| a == "density")
}

/// The CSV header for these swept parameter names and analysis scalar columns.
pub fn header(axes: &[String], scalars: &[String]) -> Vec<String> {
    let mut h: Vec<String> = ["run", "point", "repeat", "seed"]
        .map(String::from)
        .to_vec();
    h.extend(axes.iter().cloned());
    h.extend(["n_boids", "world_width_wu", "world_height_wu"].map(String::from));
    if density_column(axes) {
        h.push("density".into());
    }
    h.push("samples".into());
    for m in crate::sweep::measures() {
        h.push(m.name.to_string());
        h.push(format!("{}_sd", m.name));
        h.push(format!("{}_se", m.name));
    }
    for m in crate::sweep::order_statistics() {
        h.push(m.name.to_string());
        h.push(format!("{}_se", m.name));
    }
    h.extend(scalars.iter().cloned());
    h
}

/// A scalar summary as a field: its shortest round-trip form, or empty where it does not exist.
pub fn scalar_field(v: Option<f64>) -> String {
    v.map_or_else(String::new, |v| v.to_string())
}

/// `sweep.csv` of `rows` (written in the order given).
///
/// # Errors
/// [`SweepError::Csv`]: the CSV writer's error.
pub fn csv_bytes(
    axes: &[Axis],
    scalars: &[String],
    rows: &[RunRow],
) -> Result<Vec<u8>, SweepError> {
    let names = axis_names(axes);
    let mut w = csv::Writer::from_writer(Vec::new());
    let e = |source: csv::Error| SweepError::Csv {
        path: CSV.into(),
        source,
    };
    w.write_record(header(&names, scalars)).map_err(e)?;
    for r in rows {
        let mut rec = vec![
            r.run.to_string(),
            r.point.to_string(),
            r.repeat.to_string(),
            r.seed.to_string(),
        ];
        rec.extend(axes.iter().zip(&r.values).map(|(a, v)| a.text(*v)));
        rec.push(r.boids.to_string());
        rec.push(r.world[0].to_string());
        rec.push(r.world[1].to_string());
        if density_column(&names) {
            rec.push(r.density().to_string());
        }
        rec.push(r.samples.to_string());
        for s in &r.stats {
            rec.push(s.mean.to_string());
            rec.push(s.sd.to_string());
            rec.push(s.se.to_string());
        }
        for (v, se) in &r.order {
            rec.push(v.to_string());
            rec.push(se.to_string());
        }
        rec.extend(r.scalars.iter().map(|v| scalar_field(*v)));
        w.write_record(&rec).map_err(e)?;
    }
    w.into_inner()
        .map_err(|x| e(csv::Error::from(x.into_error())))
}

/// Reads the rows of a `sweep.csv` written for `axes` (a categorical value by its name) and the
/// scalar columns `scalars`.
///
/// # Errors
/// [`SweepError::File`] naming the file and line: another header, or a field that is not a
/// number; [`SweepError::Csv`]: a file that cannot be read or is not CSV.
pub fn read_csv(path: &Path, axes: &[Axis], scalars: &[String]) -> Result<Vec<RunRow>, SweepError> {
    let names = axis_names(axes);
    let fail = |line: u64, why: String| SweepError::File {
        path: path.to_path_buf(),
        line: Some(line),
        why,
    };
    let csv_error = |source: csv::Error| SweepError::Csv {
        path: path.to_path_buf(),
        source,
    };
    let mut r = csv::Reader::from_path(path).map_err(csv_error)?;
    let want = header(&names, scalars);
    let got: Vec<String> = r
        .headers()
        .map_err(|e| fail(1, e.to_string()))?
        .iter()
        .map(String::from)
        .collect();
    if got != want {
        return Err(fail(
            1,
            format!(
                "header {:?} is not the sweep's {:?}",
                got.join(","),
                want.join(",")
            ),
        ));
    }
    let (a, measures, order) = (
        axes.len(),
        crate::sweep::measures().len(),
        crate::sweep::order_statistics().len(),
    );
    let mut rows = Vec::new();
    for rec in r.records() {
        let rec = rec.map_err(csv_error)?;
        let line = rec.position().map_or(0, |p| p.line());
        let num = |i: usize| -> Result<f64, SweepError> {
            rec[i]
                .parse::<f64>()
                .map_err(|_| fail(line, format!("{} = {:?} is not a number", want[i], &rec[i])))
        };
        let int = |i: usize| -> Result<u64, SweepError> {
            rec[i].parse::<u64>().map_err(|_| {
                fail(
                    line,
                    format!("{} = {:?} is not a whole number", want[i], &rec[i]),
                )
            })
        };
        let f32_at = |i: usize| -> Result<f32, SweepError> {
            rec[i]
                .parse::<f32>()
                .map_err(|_| fail(line, format!("{} = {:?} is not a number", want[i], &rec[i])))
        };
        // After the world: the density column (when there is one), then the samples.
        let samples_at = 7 + a + density_column(&names) as usize;
        let first = samples_at + 1;
        let stats = (0..measures)
            .map(|m| {
                let c = first + 3 * m;
                Ok(SeriesStats {
                    mean: num(c)?,
                    sd: num(c + 1)?,
                    se: num(c + 2)?,
                })
            })
            .collect::<Result<Vec<_>, SweepError>>()?;
        let first = first + 3 * measures;
        let order_cols = (0..order)
            .map(|k| Ok((num(first + 2 * k)?, num(first + 2 * k + 1)?)))
            .collect::<Result<Vec<_>, SweepError>>()?;
        let first = first + 2 * order;
        let scalar_cols = (0..scalars.len())
            .map(|k| match rec[first + k].trim() {
                "" => Ok(None),
                _ => num(first + k).map(Some),
            })
            .collect::<Result<Vec<_>, SweepError>>()?;
        rows.push(RunRow {
            run: int(0)? as usize,
            point: int(1)? as usize,
            repeat: int(2)? as u32,
            seed: int(3)? as u32,
            values: axes
                .iter()
                .enumerate()
                .map(|(i, ax)| {
                    ax.parse(&rec[4 + i]).ok_or_else(|| {
                        fail(
                            line,
                            format!(
                                "{} = {:?} is not one of its values",
                                want[4 + i],
                                &rec[4 + i]
                            ),
                        )
                    })
                })
                .collect::<Result<_, _>>()?,
            boids: int(4 + a)? as usize,
            world: [f32_at(5 + a)?, f32_at(6 + a)?],
            samples: int(samples_at)? as u32,
            stats,
            order: order_cols,
            scalars: scalar_cols,
            histogram: Vec::new(),
            analysis_errors: Vec::new(),
        });
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A row whose measures all average `mean`.
    fn row(mean: f64) -> RunRow {
        let n = crate::sweep::measures().len();
        RunRow {
            run: 5,
            point: 3,
            repeat: 1,
            seed: 1,
            values: vec![2.0],
            boids: 100,
            world: [10.0, 10.0],
            samples: 100,
            stats: vec![
                SeriesStats {
                    mean,
                    sd: 0.0,
                    se: 0.0
                };
                n
            ],
            order: Vec::new(),
            scalars: Vec::new(),
            histogram: Vec::new(),
            analysis_errors: Vec::new(),
        }
    }

    #[test]
    fn a_run_whose_state_is_not_finite_says_so() {
        assert!(row(0.5).not_finite().is_empty());
        assert_eq!(row(f64::NAN).not_finite(), ["polarization", "mean_speed"]);
        // Only the measures every state has: a NaN v_a alone (a model without a constant speed)
        // is no fault.
        let mut r = row(0.5);
        let va = crate::sweep::measures()
            .iter()
            .position(|m| m.name == "va")
            .unwrap();
        r.stats[va].mean = f64::NAN;
        assert!(r.not_finite().is_empty());
        let speed = crate::sweep::measures()
            .iter()
            .position(|m| m.name == "mean_speed")
            .unwrap();
        r.stats[speed].mean = f64::INFINITY;
        assert_eq!(r.not_finite(), ["mean_speed"]);
    }
}
