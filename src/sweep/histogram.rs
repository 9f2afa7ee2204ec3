//! P(φ): the distribution of the model's order parameter φ over each run's measured steps, the
//! evidence for a discontinuous transition (two peaks, one ordered and one disordered, inside a
//! coexistence region) that the averages cannot show (docs/sweeps.md).
//!
//! - `phi_histogram.csv` ([`csv_bytes`]): a row per run and bin, `run,point,repeat`, the swept
//!   values, then `phi_lo,phi_hi` (the bin, [`BINS`] equal bins over [0, 1]; 1 itself in the last),
//!   `count` (measured steps with φ in the bin) and `density` (count / (samples · bin width): P(φ),
//!   integrating to 1). A point's distribution is the sum of its repeats' counts.
//! - `phi_histogram.png` ([`histogram_png`]): P(φ) of every point, its repeats pooled, one line per
//!   point coloured along the sweep.
//!
//! Written from the rows like `sweep.csv`, and read back by `--resume` and `boids sweep merge`
//! ([`attach`]), so a merge of shards writes the same bytes.

use std::path::Path;

use plotters::prelude::*;

use crate::plot::{figure_mesh, png_of, titled, PlotError};
use crate::sweep::error::SweepError;
use crate::sweep::plan::{axis_names, Axis};
use crate::sweep::summary::SweepSummary;
use crate::sweep::table::RunRow;

/// File name of the table.
pub const CSV: &str = "phi_histogram.csv";

/// File name of the plot.
pub const PNG: &str = "phi_histogram.png";

/// Bins over [0, 1].
pub const BINS: usize = 50;

/// The counts of `series` (values of φ in [0, 1]) in [`BINS`] equal bins; a value outside [0, 1]
/// (or NaN) is counted in none.
pub fn histogram(series: &[f64]) -> Vec<u32> {
    let mut counts = vec![0u32; BINS];
    for &v in series {
        if (0.0..=1.0).contains(&v) {
            counts[((v * BINS as f64) as usize).min(BINS - 1)] += 1;
        }
    }
    counts
}

/// The edges of bin `b`.
fn edges(b: usize) -> (f64, f64) {
    (b as f64 / BINS as f64, (b + 1) as f64 / BINS as f64)
}

/// The header for these swept parameter names.
fn header(axes: &[String]) -> Vec<String> {
    let mut h: Vec<String> = ["run", "point", "repeat"].map(String::from).to_vec();
    h.extend(axes.iter().cloned());
    h.extend(["phi_lo", "phi_hi", "count", "density"].map(String::from));
    h
}

/// `phi_histogram.csv` of `rows` (in the order given).
///
/// # Errors
/// [`SweepError::Csv`]: the CSV writer's error.
pub fn csv_bytes(axes: &[Axis], rows: &[RunRow]) -> Result<Vec<u8>, SweepError> {
    let e = |source: csv::Error| SweepError::Csv {
        path: CSV.into(),
        source,
    };
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(header(&axis_names(axes))).map_err(e)?;
    for r in rows {
        let n: u32 = r.histogram.iter().sum();
        for (b, &count) in r.histogram.iter().enumerate() {
            let (lo, hi) = edges(b);
            let density = if n > 0 {
                count as f64 / (n as f64 * (hi - lo))
            } else {
                0.0
            };
            let mut rec = vec![r.run.to_string(), r.point.to_string(), r.repeat.to_string()];
            rec.extend(axes.iter().zip(&r.values).map(|(a, v)| a.text(*v)));
            rec.extend([lo, hi].map(|v| v.to_string()));
            rec.push(count.to_string());
            rec.push(density.to_string());
            w.write_record(&rec).map_err(e)?;
        }
    }
    w.into_inner()
        .map_err(|x| e(csv::Error::from(x.into_error())))
}

/// Gives each of `rows` its counts from the folder `dir`'s `phi_histogram.csv` (written for
/// `axes`).
///
/// # Errors
/// [`SweepError::File`] naming the file (and line): missing, another header, a field that is not
/// a number, or a run of `rows` without its [`BINS`] bins; [`SweepError::Csv`] for a file that
/// is not CSV.
pub fn attach(dir: &Path, axes: &[Axis], rows: &mut [RunRow]) -> Result<(), SweepError> {
    if rows.is_empty() {
        return Ok(());
    }
    let path = dir.join(CSV);
    let fail = |line: Option<u64>, why: String| SweepError::File {
        path: path.clone(),
        line,
        why,
    };
    let mut r = csv::Reader::from_path(&path).map_err(|e| match e.kind() {
        csv::ErrorKind::Io(_) => fail(
            None,
            "missing: the folder's runs have no P(φ) (made by an older version, or changed by \
             hand)"
                .into(),
        ),
        _ => SweepError::Csv {
            path: path.clone(),
            source: e,
        },
    })?;
    let want = header(&axis_names(axes));
    let got: Vec<String> = r
        .headers()
        .map_err(|e| fail(Some(1), e.to_string()))?
        .iter()
        .map(String::from)
        .collect();
    if got != want {
        return Err(fail(
            Some(1),
            format!("header {:?} is not {:?}", got.join(","), want.join(",")),
        ));
    }
    let count_at = want.len() - 2;
    let mut by_run: Vec<(usize, Vec<u32>)> = Vec::new();
    for rec in r.records() {
        let rec = rec.map_err(|source| SweepError::Csv {
            path: path.clone(),
            source,
        })?;
        let line = rec.position().map(|p| p.line());
        let int = |i: usize| {
            rec[i].parse::<u64>().map_err(|_| {
                fail(
                    line,
                    format!("{} = {:?} is not a whole number", want[i], &rec[i]),
                )
            })
        };
        let (run, count) = (int(0)? as usize, int(count_at)? as u32);
        match by_run.last_mut() {
            Some((r, c)) if *r == run => c.push(count),
            _ => by_run.push((run, vec![count])),
        }
    }
    for row in rows.iter_mut() {
        match by_run.iter().find(|(r, _)| *r == row.run) {
            Some((_, c)) if c.len() == BINS => row.histogram = c.clone(),
            _ => {
                return Err(fail(
                    None,
                    format!("run {} has not its {BINS} bins", row.run),
                ))
            }
        }
    }
    Ok(())
}

/// The points' distributions, their repeats pooled: (point's values, P(φ) per bin), in the
/// order of their first row.
fn pooled(rows: &[RunRow]) -> Vec<(Vec<f64>, Vec<f64>)> {
    let mut points: Vec<(usize, Vec<f64>, Vec<u64>)> = Vec::new();
    for r in rows.iter().filter(|r| r.histogram.len() == BINS) {
        let i = match points.iter().position(|p| p.0 == r.point) {
            Some(i) => i,
            None => {
                points.push((r.point, r.values.clone(), vec![0; BINS]));
                points.len() - 1
            }
        };
        for (a, b) in points[i].2.iter_mut().zip(&r.histogram) {
            *a += u64::from(*b);
        }
    }
    points
        .into_iter()
        .map(|(_, values, counts)| {
            let n: u64 = counts.iter().sum();
            let p = counts
                .iter()
                .map(|&c| c as f64 * BINS as f64 / n.max(1) as f64)
                .collect();
            (values, p)
        })
        .collect()
}

/// `phi_histogram.png`: P(φ) of each point (its repeats pooled) against φ, one line per point
/// coloured from blue (the first) to red (the last); the legend names up to 12 points (else the
/// first, the middle and the last).
///
/// # Errors
/// plotters' or the PNG encoder's error.
pub fn histogram_png(s: &SweepSummary, rows: &[RunRow]) -> Result<Vec<u8>, PlotError> {
    let points = pooled(rows);
    let phi = s.model().desc().order_parameter;
    let phi_symbol =
        crate::model::measures::MeasureId::by_name(phi).map_or("φ", |m| m.desc().symbol);
    let y1 = points
        .iter()
        .flat_map(|p| p.1.iter().copied())
        .fold(1.0f64, f64::max)
        * 1.08;
    let title = format!("Distribution P({phi_symbol}) of the order parameter at each point");
    let subtitle = crate::sweep::plot::subtitle_of(s, rows);
    let names: Vec<String> = s
        .plan
        .axes
        .iter()
        .map(|a| crate::sweep::plot::symbol(&a.name))
        .collect();
    let k = points.len();
    // Every line named when few, else the first, middle and last (a hysteresis sweep's values,
    // on each branch).
    let few = if s.plan.protocol == crate::sweep::plan::Protocol::Hysteresis {
        6
    } else {
        12
    };
    let labelled = |i: usize, k: usize| k <= few || i == 0 || i == k / 2 || i + 1 == k;
    png_of(|root| {
        crate::plot::register_font()?;
        let body = titled(root, &title, &subtitle)?;
        let mut b = ChartBuilder::on(&body);
        b.margin_left(16)
            .margin_right(36)
            .margin_bottom(12)
            .x_label_area_size(58)
            .y_label_area_size(80);
        let mut chart = b.build_cartesian_2d(0.0..1.0, 0.0..y1)?;
        figure_mesh(&mut chart.configure_mesh())
            .x_desc(format!("order parameter {phi_symbol}"))
            .y_desc(format!("P({phi_symbol})"))
            .x_label_formatter(&|v| crate::plot::curve::tick_text(*v))
            .y_label_formatter(&|v| crate::plot::curve::tick_text(*v))
            .draw()?;
        // A hysteresis sweep: a colour per value of its parameter, the down branch dashed.
        let chained = s.plan.protocol == crate::sweep::plan::Protocol::Hysteresis;
        let first = &s.plan.axes[0].values;
        for (i, (values, p)) in points.iter().enumerate() {
            let (i, k) = if chained {
                let at = first.iter().position(|v| *v == values[0]).unwrap_or(0);
                (at, first.len())
            } else {
                (i, k)
            };
            let dashed = chained && values.get(1) == Some(&1.0);
            let t = if k > 1 {
                i as f64 / (k - 1) as f64
            } else {
                0.0
            };
            let colour = RGBColor(
                (31.0 + t * (214.0 - 31.0)) as u8,
                (119.0 - t * (119.0 - 39.0)) as u8,
                (180.0 - t * (180.0 - 40.0)) as u8,
            );
            let line = p.iter().enumerate().map(|(b, &y)| {
                let (lo, hi) = edges(b);
                ((lo + hi) / 2.0, y)
            });
            let drawn = if dashed {
                chart.draw_series(DashedLineSeries::new(line, 7, 5, colour.stroke_width(2)))?
            } else {
                chart.draw_series(LineSeries::new(line, colour.stroke_width(2)))?
            };
            if labelled(i, k) {
                let label: Vec<String> = names
                    .iter()
                    .zip(values)
                    .zip(&s.plan.axes)
                    .map(|((n, v), a)| {
                        let v = if a.is_categorical() {
                            a.text(*v)
                        } else {
                            crate::stats::format::trimmed(*v, 4)
                        };
                        format!("{n} = {v}")
                    })
                    .collect();
                drawn.label(label.join(", ")).legend(move |(x, y)| {
                    let style = colour.stroke_width(2);
                    if dashed {
                        EmptyElement::at((x, y))
                            + PathElement::new([(0, 0), (7, 0)], style)
                            + PathElement::new([(11, 0), (18, 0)], style)
                    } else {
                        EmptyElement::at((x, y))
                            + PathElement::new([(0, 0), (18, 0)], style)
                            + PathElement::new([(0, 0), (0, 0)], style)
                    }
                });
            }
        }
        if !points.is_empty() {
            // At the top middle: the peaks of an order parameter lie at its ends.
            crate::plot::draw_legend(&mut chart, SeriesLabelPosition::UpperMiddle)?;
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Values fall in their bins (1 in the last, outside [0, 1] or NaN in none).
    #[test]
    fn a_histogram_counts_each_value_once() {
        let h = histogram(&[0.0, 0.019, 0.02, 0.5, 0.999, 1.0, -0.1, 1.1, f64::NAN]);
        assert_eq!(h.iter().sum::<u32>(), 6);
        assert_eq!((h[0], h[1], h[25], h[49]), (2, 1, 1, 2));
    }
}
