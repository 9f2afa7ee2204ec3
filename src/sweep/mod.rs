//! Parameter sweeps (`boids sweep`): run the simulation headless at every value of one or two
//! parameters (and repeats), and record the time-averaged measures and the statistics of the
//! order parameter with honest errors — the order parameter against noise, density or a weight,
//! its Binder cumulant and susceptibility, at one size or several, as a finite-size study needs.
//!
//! ```text
//! boids sweep --scene FILE --param NAME --values a,b,c|start:stop:step|name,name
//!             [--param2 NAME2 --values2 …] [--boids N] [--keep-world] [--set KEY=VALUE …]
//!             [--steps S] [--discard D] [--repeats K] [--seed X] [--backend cpu|gpu]
//!             [--start random|ordered | --init STATE] [--protocol independent|hysteresis]
//!             [--series] [--analyse NAME … [settings]]
//!             [--log x|y|xy] [--out DIR] [--force|--resume] [--shard I/N] [--quiet]
//! boids sweep merge OUT DIR…
//! ```
//!
//! Each run (one combination of values × one repeat, [`plan`]) runs S steps from its own seed;
//! the first D are discarded; over the other S − D steps each average of the measure table
//! ([`measures`]: polarization, milling, mean speed, mean neighbours, v_a, nematic order) gets its
//! time average, standard deviation over time and batch-means standard error, and the model's
//! order parameter φ its moments, Binder cumulant and susceptibility with block-jackknife errors
//! ([`order_statistics`]); one row per run in `sweep.csv` ([`table`]). `points.csv` combines the
//! repeats of each point ([`points`]): with K ≥ 2 repeats the error is the spread of the repeats
//! (sd/√K). NAME is any numeric parameter the model uses (set by key as `--set` sets it), `boids`
//! or `density` (world rule in [`engine`]), or a categorical one by its values' names
//! ([`cli::axis`]); numbers are parsed by [`values`]. A point out of range
//! is an error naming the value and the allowed range before anything runs.
//!
//! `--shard I/N` runs one of N disjoint slices of the points ([`shard`]); `boids sweep merge`
//! combines the shard folders into what one run writes ([`merge`]). The folder holds `sweep.csv`,
//! `points.csv`, `summary.json`, a plot per measure and per order statistic ([`output`],
//! [`summary`], [`plot`]), P(φ) per run and its plot ([`histogram`]) and with `--series` each run's per-step measures (`series/`). Ctrl-C
//! stops after the current point with a valid folder (status `interrupted`, exit status 130)
//! ([`cli`]); `--resume` runs only what such a folder has not done ([`resume`]).
//!
//! `--protocol hysteresis` steps the one parameter up then down, one chain per repeat, each run
//! going on from the final state of the one before ([`chain`]; [`plan::PlanSpec::order`]).
//!
//! Every call into the simulator is in [`engine::run_one`], through the run layer. What can go
//! wrong, from a bad `--values` to a point that fails mid-sweep or shards that cannot be merged,
//! is a [`SweepError`](error::SweepError) ([`error`]).

pub mod args;
pub mod batch;
pub mod chain;
pub mod cli;
pub mod engine;
pub mod error;
pub mod histogram;
pub mod merge;
pub mod output;
pub mod plan;
pub mod plot;
pub mod points;
pub mod resume;
pub mod run;
pub mod series;
pub mod shard;
pub mod summary;
pub mod table;
pub mod values;

/// The measures a sweep records for every point, in column order: the averages over the boids of
/// the measure table ([`crate::model::measures::MEASURES`]).
pub fn measures() -> Vec<&'static crate::model::measures::Measure> {
    crate::model::measures::MEASURES
        .iter()
        .filter(|m| m.from_sums())
        .collect()
}

/// The statistics of the model's order parameter φ over a run a sweep records, in column order:
/// the measure table's series statistics (⟨φ²⟩, ⟨φ⁴⟩, the Binder cumulant, the susceptibility;
/// docs/model.md §12.9). φ is the model's order parameter (`ModelDesc::order_parameter`: v_a for
/// the Vicsek model, the polarization otherwise); its mean is the measure's own column.
pub fn order_statistics() -> Vec<&'static crate::model::measures::Measure> {
    crate::model::measures::MEASURES
        .iter()
        .filter(|m| m.needs() == crate::model::measures::Needs::Series)
        .collect()
}
