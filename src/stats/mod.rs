//! Statistics of measured series: errors of time averages, estimates over independent repeats,
//! moments and cumulants of an order parameter, nematic order, and giant number fluctuations.
//!
//! A leaf module: it uses nothing else in the crate, and takes plain numbers (series of a measure,
//! one value per measured step, oldest first; velocities; positions).
//!
//! What an error means here. Every error is one standard error (a 68 % interval for a normally
//! distributed estimate), and each [`Estimate`] says which kind it is ([`ErrorKind`]):
//!
//! - **within one run** — the samples of consecutive steps are correlated, so the naive sd/√n is
//!   too small by about √(2τ) (τ the integrated autocorrelation time in steps). Time averages get
//!   non-overlapping **batch means** ([`series_stats`], 20 batches); nonlinear functions of time
//!   averages (Binder cumulant, susceptibility) get the **delete-one-block jackknife** over the same
//!   batches ([`block_jackknife`]). Both are honest only when a batch (n/20 steps) is several times
//!   longer than τ, and both are themselves uncertain by about ±16 %.
//! - **across K ≥ 2 independent repeats** — the scatter of the K per-repeat values, s/√K
//!   ([`combine_repeats`]). It sees everything that differs between runs (a run stuck in another
//!   state, a transient not over) and should be preferred whenever K ≥ 2.
//!
//! Contents:
//!
//! - errors of time averages: [`series_stats`] and [`time_average`] (batch means),
//!   [`block_jackknife`] (nonlinear functions of time averages);
//! - over repeats: [`combine_repeats`], [`mean_over_repeats`];
//! - an order parameter φ: [`order_parameter_moments`] and
//!   [`order_parameter_moments_over_repeats`] (⟨φ⟩, ⟨φ²⟩, ⟨φ⁴⟩, the Binder cumulant, the
//!   susceptibility);
//! - [`integrated_autocorrelation_time`] (Sokal's automatic windowing): whether a run and its
//!   batches are long enough for the errors above to be honest;
//! - [`nematic_order`] of headings;
//! - giant number fluctuations: [`number_fluctuations`], [`number_fluctuations_over`], with the
//!   straight-line fit [`least_squares_line`].
//!
//! One job per file: `estimate.rs` (the value–error–kind type), `autocorrelation.rs`,
//! `batch_means.rs`, `jackknife.rs`, `repeats.rs`, `moments.rs`, `nematic.rs`, `fit.rs` and
//! `number_fluctuations.rs`.

mod autocorrelation;
mod batch_means;
mod estimate;
mod fit;
pub mod format;
mod jackknife;
mod moments;
mod nematic;
mod number_fluctuations;
mod repeats;
#[cfg(test)]
pub(crate) mod test_rng;
pub mod time;

pub use autocorrelation::{
    integrated_autocorrelation_time, AutocorrelationTime, BATCH_TAUS, RUN_TAUS, WINDOW_FACTOR,
};
pub use batch_means::{batch_count, series_stats, time_average, SeriesStats, BATCHES, MIN_SAMPLES};
pub use estimate::{ErrorKind, Estimate};
pub use fit::{least_squares_line, LineFit};
pub use jackknife::{block_jackknife, Jackknife};
pub use moments::{
    binder_cumulant, order_parameter_moments, order_parameter_moments_over_repeats, susceptibility,
    OrderParameterMoments,
};
pub use nematic::{nematic_order, STOPPED_SPEED};
pub use number_fluctuations::{
    min_particles, number_fluctuations, number_fluctuations_over, BoxSizes, CountFluctuation,
    NumberFluctuations,
};
pub use repeats::{combine_repeats, mean_over_repeats};
