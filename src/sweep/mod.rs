//! Parameter sweeps (`boids sweep`): run the simulation headless at every value of one or two
//! parameters (and repeats), and record the time-averaged order parameters with their errors —
//! the order parameter against rotational diffusion, density or a weight, as NetLogo's BehaviorSpace does.
//!
//! ```text
//! boids sweep --scene FILE --param NAME --values a,b,c|start:stop:step
//!             [--param2 NAME2 --values2 …] [--boids N] [--steps S] [--discard D]
//!             [--repeats K] [--seed X] [--backend cpu|gpu] [--out DIR] [--force]
//!             [--shard I/N] [--quiet]
//! boids sweep merge OUT DIR…
//! ```
//!
//! Each point (one combination of values × one repeat, [`plan`]) runs S steps from its own seed;
//! the first D are discarded and the measures of the other S − D steps are averaged: polarization,
//! milling, mean speed, mean neighbour count and the order parameter v_a = |Σ v_i| / (N v0)
//! (docs/model.md §12.7) ([`measures`]: the averages of the measure table), each with its standard deviation over time and the
//! standard error of its average by batch means ([`stats`]). NAME is any numeric
//! parameter of the parameter table (set by key as `--set` sets it), `boids` or `density`
//! (world rule in [`engine`]); values are parsed by [`values`]. A point out of range is an error
//! naming the value and the allowed range before anything runs.
//!
//! `--shard I/N` runs one of N disjoint slices of the points ([`shard`]); `boids sweep merge`
//! combines the shard folders into what one run writes ([`merge`]). The folder holds `sweep.csv`,
//! `summary.json` and a plot per measure ([`output`], [`summary`], [`plot`]). Ctrl-C stops after
//! the current point with a valid folder (status `interrupted`, exit status 130) ([`cli`]).
//!
//! Every call into the simulator (scene, start-up rule, backend factory, steps, measures) is in
//! [`engine::run_point`].

pub mod args;
pub mod cli;
pub mod engine;
pub mod merge;
pub mod output;
pub mod plan;
pub mod plot;
pub mod run;
pub mod shard;
pub mod stats;
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
