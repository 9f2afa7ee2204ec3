//! What `boids headless --stats` writes and prints: the measures CSV and the statistics of the
//! model's order parameter over its rows.

use crate::model::measures::{Measure, MeasureId, Needs};
use crate::model::FlockMeasures;
use crate::run::RunError;
use crate::stats::Estimate;

/// Writes the `--stats` CSV: `step`, `step_ms`, then the `columns`' values (f64, shortest round trip:
/// the values its statistics average), with
/// the simulated time since the run's first step (`first` its step index) in the model's unit —
/// `time_s` (steps × dt, to 4 decimals or to 1 % of dt when finer), or `time_steps` for a model whose time unit is its step (the Vicsek
/// model, which does not read dt) — before the census columns.
pub(crate) fn write_stats(
    path: &std::path::Path,
    columns: &[&'static Measure],
    rows: &[(u32, f64, FlockMeasures)],
    first: u32,
    dt: f32,
    time: crate::model::models::TimeUnit,
) -> Result<(), RunError> {
    let time_at = columns.iter().position(|m| m.needs() == Needs::Census);
    let mut header = vec!["step", "step_ms"];
    for (k, m) in columns.iter().enumerate() {
        if Some(k) == time_at {
            header.push(time.column());
        }
        header.push(m.name);
    }
    let mut w = csv::Writer::from_writer(Vec::new());
    let io = |e: csv::Error| RunError::Write {
        what: "measures CSV",
        path: path.to_path_buf(),
        source: std::io::Error::other(e),
    };
    w.write_record(&header).map_err(io)?;
    for (s, ms, m) in rows {
        let mut row = vec![s.to_string(), format!("{ms:.4}")];
        for (k, c) in columns.iter().enumerate() {
            if Some(k) == time_at {
                let t = time.after(s.wrapping_sub(first), dt);
                row.push(format!("{t:.*}", time.decimals(dt)));
            }
            let id = MeasureId::by_name(c.name).expect("a measure of the table");
            // The f64 values the statistics average (shortest round-trip text), so statistics
            // recomputed from the file are the printed ones.
            row.push(m.get(id).map_or_else(String::new, |v| v.to_string()));
        }
        w.write_record(&row).map_err(io)?;
    }
    let bytes = w.into_inner().map_err(|e| io(e.into_error().into()))?;
    crate::io::write_atomic(path, &bytes).map_err(|source| RunError::Write {
        what: "measures CSV",
        path: path.to_path_buf(),
        source,
    })
}

/// The model's order parameter and its series over `rows` (each a measured step's measures),
/// when there are enough rows for statistics.
fn order_series(
    params: &crate::model::SimParams,
    rows: &[(u32, f64, FlockMeasures)],
) -> Option<(MeasureId, Vec<f64>)> {
    let id = MeasureId::by_name(params.model.desc().order_parameter)?;
    let series: Vec<f64> = rows.iter().filter_map(|r| r.2.get(id)).collect();
    (series.len() >= crate::stats::MIN_SAMPLES).then_some((id, series))
}

/// The integrated autocorrelation time of the model's order parameter over `rows` (in rows),
/// when there are enough of them and they fluctuate.
pub(crate) fn order_parameter_tau(
    params: &crate::model::SimParams,
    rows: &[(u32, f64, FlockMeasures)],
) -> Option<crate::stats::AutocorrelationTime> {
    let (_, series) = order_series(params, rows)?;
    crate::stats::integrated_autocorrelation_time(&series)
}

/// The model's order parameter and its series statistics over `rows` (each a measured step's
/// measures, `every` steps apart), when there are enough rows (docs/model.md §12.9); τ_int in
/// steps.
pub(crate) fn order_statistics(
    params: &crate::model::SimParams,
    n: usize,
    rows: &[(u32, f64, FlockMeasures)],
    every: u32,
) -> Option<(&'static Measure, Vec<(&'static Measure, Estimate)>)> {
    let (id, series) = order_series(params, rows)?;
    let mut m = crate::stats::order_parameter_moments(&series, n);
    // τ_int in steps: the series has a row every `every` steps.
    m.autocorrelation_time.value *= f64::from(every);
    m.autocorrelation_time.error *= f64::from(every);
    let mut rows = vec![(id.desc(), m.mean)];
    rows.extend(crate::model::flock_measures::series_measures(&m));
    Some((id.desc(), rows))
}
