//! `sweep.csv`: one row per point (one combination of values × one repeat), in plan order, with
//! the columns of [`header`] (see [`crate::sweep::output`] for the folder). Written and read back
//! here, so that a merge of shards rewrites the rows of one run byte for byte.

use std::path::Path;

use crate::sweep::stats::SeriesStats;

/// File name of the table.
pub const CSV: &str = "sweep.csv";

/// One row of `sweep.csv`.
#[derive(Clone, Debug, PartialEq)]
pub struct PointRow {
    /// Number in the full plan, from 1 (its index + 1).
    pub point: usize,
    /// Repeat, from 1.
    pub repeat: u32,
    /// Seed of the run.
    pub seed: u32,
    /// The value of each swept parameter.
    pub values: Vec<f64>,
    /// Boid count.
    pub boids: usize,
    /// World width and height (wu).
    pub world: [f32; 2],
    /// Measured steps.
    pub samples: u32,
    /// Statistics of each measure, in [`crate::sweep::measures`] order.
    pub stats: Vec<SeriesStats>,
}

/// The CSV header for these swept parameter names.
pub fn header(axes: &[String]) -> Vec<String> {
    let mut h: Vec<String> = ["point", "repeat", "seed"].map(String::from).to_vec();
    h.extend(axes.iter().cloned());
    h.extend(["n_boids", "world_width_wu", "world_height_wu", "samples"].map(String::from));
    for m in crate::sweep::measures() {
        h.push(m.name.to_string());
        h.push(format!("{}_sd", m.name));
        h.push(format!("{}_se", m.name));
    }
    h
}

/// `sweep.csv` of `rows` (written in the order given).
pub fn csv_bytes(axes: &[String], rows: &[PointRow]) -> Result<Vec<u8>, String> {
    let mut w = csv::Writer::from_writer(Vec::new());
    let e = |e: csv::Error| format!("{CSV}: {e}");
    w.write_record(header(axes)).map_err(e)?;
    for r in rows {
        let mut rec = vec![
            r.point.to_string(),
            r.repeat.to_string(),
            r.seed.to_string(),
        ];
        rec.extend(r.values.iter().map(|v| v.to_string()));
        rec.push(r.boids.to_string());
        rec.push(r.world[0].to_string());
        rec.push(r.world[1].to_string());
        rec.push(r.samples.to_string());
        for s in &r.stats {
            rec.push(s.mean.to_string());
            rec.push(s.sd.to_string());
            rec.push(s.se.to_string());
        }
        w.write_record(&rec).map_err(e)?;
    }
    w.into_inner().map_err(|e| format!("{CSV}: {e}"))
}

/// Reads the rows of a `sweep.csv` written for `axes`.
///
/// # Errors
/// A message naming the file and line: another header, or a field that is not a number.
pub fn read_csv(path: &Path, axes: &[String]) -> Result<Vec<PointRow>, String> {
    let fail = |line: u64, why: String| format!("{}, line {line}: {why}", path.display());
    let mut r = csv::Reader::from_path(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let want = header(axes);
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
    let mut rows = Vec::new();
    for rec in r.records() {
        let rec = rec.map_err(|e| format!("{}: {e}", path.display()))?;
        let line = rec.position().map_or(0, |p| p.line());
        let num = |i: usize| -> Result<f64, String> {
            rec[i]
                .parse::<f64>()
                .map_err(|_| fail(line, format!("{} = {:?} is not a number", want[i], &rec[i])))
        };
        let int = |i: usize| -> Result<u64, String> {
            rec[i].parse::<u64>().map_err(|_| {
                fail(
                    line,
                    format!("{} = {:?} is not a whole number", want[i], &rec[i]),
                )
            })
        };
        let a = axes.len();
        let mut stats = vec![
            SeriesStats {
                mean: 0.0,
                sd: 0.0,
                se: 0.0,
            };
            crate::sweep::measures().len()
        ];
        for (m, s) in stats.iter_mut().enumerate() {
            let c = 7 + a + 3 * m;
            *s = SeriesStats {
                mean: num(c)?,
                sd: num(c + 1)?,
                se: num(c + 2)?,
            };
        }
        let f32_at = |i: usize| -> Result<f32, String> {
            rec[i]
                .parse::<f32>()
                .map_err(|_| fail(line, format!("{} = {:?} is not a number", want[i], &rec[i])))
        };
        rows.push(PointRow {
            point: int(0)? as usize,
            repeat: int(1)? as u32,
            seed: int(2)? as u32,
            values: (0..a).map(|i| num(3 + i)).collect::<Result<_, _>>()?,
            boids: int(3 + a)? as usize,
            world: [f32_at(4 + a)?, f32_at(5 + a)?],
            samples: int(6 + a)? as u32,
            stats,
        });
    }
    Ok(rows)
}
