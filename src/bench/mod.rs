//! Benchmark captures (SPEC §8).

pub mod stats;
