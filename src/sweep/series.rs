//! `--series`: each run's per-step measures, so that any statistic can be recomputed from a
//! sweep folder: `series/point-PPPPP-repeat-RRR.csv.gz` (the run's point — its combination of
//! values — and its repeat, numbered from 1 as in `sweep.csv`), a gzip-compressed CSV with a header `step,<measure>,…` (the sweep's measures,
//! [`crate::sweep::measures`]) and one row per measured step: the step number (counted from the
//! start of the run, so the first row is step discard + 1) and each measure's value after it, in
//! shortest round-trip f64 form: the values `sweep.csv`'s statistics averaged, so a statistic
//! recomputed from the series is the file's to the last bit.
//!
//! Size: about 50 bytes per measured step compressed (gzip level 6; 4.8 kB for 100 steps of a
//! 400-particle Vicsek run: f64 values keep their 16–17 digits, which compress less than the f32
//! values written before, about 20 bytes a step); independent of N. A sweep of 100 points × 10
//! repeats × 10⁴ steps writes about 500 MB.

use std::io::Write;

use flate2::read::GzDecoder;
use flate2::write::GzEncoder;

use crate::sweep::error::SweepError;

/// The folder of the series files in a sweep folder.
pub const SERIES_DIR: &str = "series";

/// The file of a run's series, relative to the sweep folder (point and repeat from 1).
pub fn series_file(point: usize, repeat: u32) -> String {
    format!("{SERIES_DIR}/point-{point:05}-repeat-{repeat:03}.csv.gz")
}

/// The compressed series of a run: `samples[i]` holds the measures after step `first_step + i`.
///
/// # Errors
/// [`SweepError::Csv`] (file `series`): the CSV writer's or the compressor's error.
pub fn series_bytes(first_step: u32, samples: &[Vec<f64>]) -> Result<Vec<u8>, SweepError> {
    let e = |source: csv::Error| SweepError::Csv {
        path: SERIES_DIR.into(),
        source,
    };
    let io = |x: std::io::Error| e(csv::Error::from(x));
    let mut w =
        csv::Writer::from_writer(GzEncoder::new(Vec::new(), flate2::Compression::default()));
    let mut header = vec!["step".to_string()];
    header.extend(crate::sweep::measures().iter().map(|m| m.name.to_string()));
    w.write_record(&header).map_err(e)?;
    for (i, row) in samples.iter().enumerate() {
        let mut rec = vec![(first_step as u64 + i as u64).to_string()];
        // f64 in shortest round-trip form: the values the statistics of sweep.csv averaged, so
        // any statistic recomputed from the series is the same.
        rec.extend(row.iter().map(|v| v.to_string()));
        w.write_record(&rec).map_err(e)?;
    }
    let mut gz = w.into_inner().map_err(|x| io(x.into_error()))?;
    gz.flush().map_err(io)?;
    gz.finish().map_err(io)
}

/// Reads a series written by [`series_bytes`]: the header and the rows (step first).
///
/// # Errors
/// Naming `name`: [`SweepError::Csv`] for a file that is not gzip or not CSV,
/// [`SweepError::File`] (with the line) for a field that is not a number.
pub fn read_series(name: &str, bytes: &[u8]) -> Result<(Vec<String>, Vec<Vec<f64>>), SweepError> {
    let e = |source: csv::Error| SweepError::Csv {
        path: name.into(),
        source,
    };
    let mut r = csv::Reader::from_reader(GzDecoder::new(bytes));
    let header: Vec<String> = r.headers().map_err(e)?.iter().map(String::from).collect();
    let mut rows = Vec::new();
    for rec in r.records() {
        let rec = rec.map_err(e)?;
        let line = rec.position().map_or(0, |p| p.line());
        rows.push(
            rec.iter()
                .map(|f| {
                    f.parse::<f64>().map_err(|_| SweepError::File {
                        path: name.into(),
                        line: Some(line),
                        why: format!("{f:?} is not a number"),
                    })
                })
                .collect::<Result<Vec<_>, _>>()?,
        );
    }
    Ok((header, rows))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_series_reads_back_bit_for_bit() {
        let m = crate::sweep::measures().len();
        let samples: Vec<Vec<f64>> = (0..50)
            .map(|i| (0..m).map(|k| (i * m + k) as f64 * 0.001 + 0.1).collect())
            .collect();
        let bytes = series_bytes(11, &samples).unwrap();
        let (header, rows) = read_series("t", &bytes).unwrap();
        assert_eq!(header[0], "step");
        assert_eq!(header.len(), m + 1);
        assert_eq!(rows.len(), 50);
        assert_eq!(rows[0][0], 11.0);
        assert_eq!(rows[49][0], 60.0);
        for (r, s) in rows.iter().zip(&samples) {
            for (a, b) in r[1..].iter().zip(s) {
                assert_eq!(a.to_bits(), b.to_bits(), "the series holds the f64 values");
            }
        }
        assert!(matches!(
            read_series("t", b"not gzip"),
            Err(SweepError::Csv { .. })
        ));
        assert_eq!(series_file(3, 12), "series/point-00003-repeat-012.csv.gz");
    }
}
