//! `points.csv`: one row per point of the sweep (a combination of values), its repeats combined
//! ([`summarise`]): each measure's mean over the repeats and its error — with K ≥ 2 repeats the
//! standard error of the K repeat values (their sd/√K: `crate::stats::combine_repeats`), which
//! sees everything that differs between independent runs; with one repeat the run's own error
//! (batch means for the averages, the block jackknife for the order-parameter statistics). The
//! `error` column says which. A pure function of `sweep.csv`'s rows, so a merge recomputes it.

use crate::stats::{combine_repeats, ErrorKind, Estimate};
use crate::sweep::error::SweepError;
use crate::sweep::plan::{axis_names, Axis};
use crate::sweep::table::{density, scalar_field, RunRow};

/// File name of the table.
pub const POINTS_CSV: &str = "points.csv";

/// One point: the rows of its repeats, combined.
#[derive(Clone, Debug, PartialEq)]
pub struct PointSummary {
    /// The point's number in the full plan, from 1 (`point` in `sweep.csv`).
    pub point: usize,
    /// The value of each swept parameter.
    pub values: Vec<f64>,
    /// Boid count N.
    pub boids: usize,
    /// World width and height (wu).
    pub world: [f32; 2],
    /// Repeats done (rows found).
    pub repeats: usize,
    /// Each average measure of [`crate::sweep::measures`]: mean and error.
    pub measures: Vec<Estimate>,
    /// Each order-parameter statistic of [`crate::sweep::order_statistics`]: value and error.
    pub order: Vec<Estimate>,
    /// Each scalar summary of the analyses (`--analyse`), over the repeats where it exists.
    pub scalars: Vec<ScalarSummary>,
}

/// A scalar summary of an analysis at one point, over its repeats: the mean of the repeats where
/// it exists and, with two or more of them, the standard error of that mean (their sd/√K); a
/// single run has no error of its own for it (the analysis averages the run's states into one
/// curve).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ScalarSummary {
    /// The mean over the repeats where it exists (`None`: in none).
    pub value: Option<f64>,
    /// Its standard error across those repeats (`None` with fewer than two).
    pub error: Option<f64>,
    /// The repeats where it exists.
    pub repeats: usize,
}

/// The scalar summary of `values` (one per repeat; `None` where it does not exist).
pub fn scalar_summary(values: &[Option<f64>]) -> ScalarSummary {
    let v: Vec<f64> = values.iter().flatten().copied().collect();
    let k = v.len();
    let mean = (k > 0).then(|| v.iter().sum::<f64>() / k as f64);
    let error = match (mean, k) {
        (Some(m), 2..) => {
            let var = v.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (k - 1) as f64;
            Some((var / k as f64).sqrt())
        }
        _ => None,
    };
    ScalarSummary {
        value: mean,
        error,
        repeats: k,
    }
}

impl PointSummary {
    /// What the errors of this point are (every column has the same kind but for one repeat,
    /// where the averages have batch means and the order statistics the block jackknife).
    pub fn error_kind(&self) -> ErrorKind {
        self.measures
            .first()
            .map_or(ErrorKind::BatchMeansWithinRun, |e| e.kind)
    }
}

/// The points of `rows` in the order of their first row (plan order), each combining the rows
/// of the same point (its repeats).
pub fn summarise(rows: &[RunRow]) -> Vec<PointSummary> {
    let mut groups: Vec<(Vec<f64>, Vec<&RunRow>)> = Vec::new();
    for r in rows {
        match groups.iter_mut().find(|(_, g)| g[0].point == r.point) {
            Some((_, g)) => g.push(r),
            None => groups.push((r.values.clone(), vec![r])),
        }
    }
    groups
        .into_iter()
        .map(|(values, g)| {
            let combine = |pick: &dyn Fn(&RunRow) -> (f64, f64), within: ErrorKind| {
                let per: Vec<Estimate> = g
                    .iter()
                    .map(|r| {
                        let (value, error) = pick(r);
                        Estimate {
                            value,
                            error,
                            kind: within,
                        }
                    })
                    .collect();
                combine_repeats(&per)
            };
            let measures = (0..g[0].stats.len())
                .map(|m| {
                    combine(
                        &|r| (r.stats[m].mean, r.stats[m].se),
                        ErrorKind::BatchMeansWithinRun,
                    )
                })
                .collect();
            let order = (0..g[0].order.len())
                .map(|k| combine(&|r| r.order[k], ErrorKind::BlockJackknifeWithinRun))
                .collect();
            let scalars = (0..g[0].scalars.len())
                .map(|k| {
                    let v: Vec<Option<f64>> = g.iter().map(|r| r.scalars[k]).collect();
                    scalar_summary(&v)
                })
                .collect();
            PointSummary {
                scalars,
                point: g[0].point,
                values,
                boids: g[0].boids,
                world: g[0].world,
                repeats: g.len(),
                measures,
                order,
            }
        })
        .collect()
}

/// `points.csv` of `points`: `point` (its number, from 1), the swept parameters, `n_boids,world_width_wu,world_height_wu,
/// density,repeats,error` (no `density` of its own when it is swept:
/// [`crate::sweep::table::density_column`]), then `M,M_se` for each average measure and `S,S_se` for each
/// order-parameter statistic, then for each scalar summary `X` of the analyses `X,X_se,X_repeats`
/// ([`ScalarSummary`]: empty fields where there is no value or no error).
///
/// # Errors
/// [`SweepError::Csv`]: the CSV writer's error.
pub fn points_csv(
    axes: &[Axis],
    scalars: &[String],
    points: &[PointSummary],
) -> Result<Vec<u8>, SweepError> {
    let names = axis_names(axes);
    let mut w = csv::Writer::from_writer(Vec::new());
    let e = |source: csv::Error| SweepError::Csv {
        path: POINTS_CSV.into(),
        source,
    };
    let mut h: Vec<String> = vec!["point".to_string()];
    h.extend(names.iter().cloned());
    h.extend(["n_boids", "world_width_wu", "world_height_wu"].map(String::from));
    let density_column = crate::sweep::table::density_column(&names);
    if density_column {
        h.push("density".into());
    }
    h.extend(["repeats", "error"].map(String::from));
    for m in crate::sweep::measures()
        .into_iter()
        .chain(crate::sweep::order_statistics())
    {
        h.push(m.name.to_string());
        h.push(format!("{}_se", m.name));
    }
    for x in scalars {
        h.extend([x.clone(), format!("{x}_se"), format!("{x}_repeats")]);
    }
    w.write_record(&h).map_err(e)?;
    for p in points {
        let mut rec: Vec<String> = vec![p.point.to_string()];
        rec.extend(axes.iter().zip(&p.values).map(|(a, v)| a.text(*v)));
        rec.push(p.boids.to_string());
        rec.push(p.world[0].to_string());
        rec.push(p.world[1].to_string());
        if density_column {
            rec.push(density(p.boids, p.world).to_string());
        }
        rec.push(p.repeats.to_string());
        rec.push(p.error_kind().to_string());
        for est in p.measures.iter().chain(&p.order) {
            rec.push(est.value.to_string());
            rec.push(est.error.to_string());
        }
        for x in &p.scalars {
            rec.push(scalar_field(x.value));
            rec.push(scalar_field(x.error));
            rec.push(x.repeats.to_string());
        }
        w.write_record(&rec).map_err(e)?;
    }
    w.into_inner()
        .map_err(|x| e(csv::Error::from(x.into_error())))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::SeriesStats;

    fn row(point: usize, repeat: u32, values: Vec<f64>, mean: f64, se: f64) -> RunRow {
        RunRow {
            run: (point - 1) * 3 + repeat as usize,
            point,
            repeat,
            seed: 1,
            values,
            boids: 400,
            world: [10.0, 10.0],
            samples: 100,
            stats: vec![SeriesStats { mean, sd: 0.1, se }],
            order: vec![(mean, se)],
            scalars: vec![Some(mean * 10.0), (repeat != 2).then_some(mean)],
            histogram: Vec::new(),
            analysis_errors: Vec::new(),
        }
    }

    #[test]
    fn disagreeing_repeats_give_the_error_of_their_spread() {
        // Three repeats at 0.70, 0.80 and 0.95, each precise within its run (se 0.01): the error
        // drawn is their spread, sd/√3 ≈ 0.0726, not √(Σ se²)/3 ≈ 0.0058.
        let rows = vec![
            row(1, 1, vec![0.0], 0.70, 0.01),
            row(1, 2, vec![0.0], 0.80, 0.01),
            row(1, 3, vec![0.0], 0.95, 0.01),
            row(2, 1, vec![1.0], 0.50, 0.02),
        ];
        let p = summarise(&rows);
        assert_eq!(p.len(), 2);
        let m = p[0].measures[0];
        assert!((m.value - 0.8166666).abs() < 1e-6, "{m:?}");
        assert!((m.error - 0.07264832).abs() < 1e-6, "{m:?}");
        assert_eq!(m.kind, ErrorKind::AcrossRepeats { repeats: 3 });
        assert_eq!(p[0].repeats, 3);
        // One repeat: the run's own error, said so.
        assert_eq!(p[1].measures[0].error, 0.02);
        assert_eq!(p[1].measures[0].kind, ErrorKind::BatchMeansWithinRun);
        assert_eq!(p[1].order[0].kind, ErrorKind::BlockJackknifeWithinRun);
        // The check can fail: quadrature of the within-run errors would not give the spread.
        let quadrature = (3.0f64 * 0.01 * 0.01).sqrt() / 3.0;
        assert!((m.error - quadrature).abs() > 0.05);
        // A scalar summary: mean and sd/√K of the repeats where it exists; one repeat has none.
        let x = p[0].scalars[0];
        assert!((x.value.unwrap() - 8.166666).abs() < 1e-5, "{x:?}");
        assert!((x.error.unwrap() - 0.7264832).abs() < 1e-6, "{x:?}");
        assert_eq!(x.repeats, 3);
        // Missing in repeat 2: over repeats 1 and 3 only.
        let y = p[0].scalars[1];
        assert!((y.value.unwrap() - 0.825).abs() < 1e-12, "{y:?}");
        assert!((y.error.unwrap() - 0.125).abs() < 1e-12, "{y:?}");
        assert_eq!(y.repeats, 2);
        assert_eq!(
            p[1].scalars[0],
            ScalarSummary {
                value: Some(5.0),
                error: None,
                repeats: 1
            }
        );
        assert_eq!(scalar_summary(&[None, None]).value, None);
    }
}
