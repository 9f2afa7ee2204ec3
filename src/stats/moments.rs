//! Moments and cumulants of an order parameter over a run: ⟨φ⟩, ⟨φ²⟩, ⟨φ⁴⟩, the Binder cumulant
//! and the susceptibility, with their errors.
//!
//! φ is a scalar order parameter in [0, 1] measured once per step, typically the polarization
//! φ = |Σ_i v̂_i|/N of N particles (Vicsek et al., Phys. Rev. Lett. 75, 1226, 1995). Angle
//! brackets are time averages over the measured steps of a run (after the transient). Then
//!
//! - the **Binder cumulant** G = 1 − ⟨φ⁴⟩/(3⟨φ²⟩²) (Binder, "Finite size scaling analysis of
//!   Ising model block distribution functions", Z. Phys. B 43, 119–140, 1981), in the form used
//!   for flocking by Chaté, Ginelli, Grégoire & Raynaud, "Collective motion of self-propelled
//!   particles interacting without cohesion", Phys. Rev. E 77, 046113 (2008). It is 2/3 for a
//!   perfectly ordered state (φ constant) and 1/3 for a disordered one whose order vector is a 2D
//!   Gaussian (N independent random headings give exactly 1/3 + 1/(3N)); negative values signal a
//!   bimodal φ, the mark of a discontinuous transition. Dimensionless.
//! - the **susceptibility** χ = N(⟨φ²⟩ − ⟨φ⟩²), N times the variance of φ over time (the
//!   fluctuation–response form, N the number of particles); it peaks at the transition. For N
//!   independent random headings χ → 1 − π/4 as N grows. Dimensionless.
//!
//! # Errors within one run
//!
//! ⟨φ⟩, ⟨φ²⟩, ⟨φ⁴⟩ are time averages: their errors are batch means
//! ([`series_stats`](super::series_stats)). G and χ are nonlinear in those averages: their errors
//! are the delete-one-block jackknife over the same 20 blocks
//! ([`block_jackknife`](super::block_jackknife)), which carries the correlations between ⟨φ²⟩
//! and ⟨φ⁴⟩ (or ⟨φ⟩ and ⟨φ²⟩) and the time correlations of the series. Both need blocks (n/20
//! steps) several times longer than the integrated autocorrelation time of φ, which near the
//! transition is long.
//!
//! # Errors across K ≥ 2 repeats: per-repeat G and χ
//!
//! Two forms exist. The **pooled** form takes the moments over all repeats' samples together and
//! forms one G and one χ from them; the **per-repeat** form computes G_k and χ_k in each repeat
//! and averages the K values. We use the per-repeat form, value = Σ_k G_k/K and error
//! = s(G_k)/√K (sample sd, divisor K − 1; likewise χ), because:
//!
//! - its error is the plain scatter of K independent numbers, valid whatever the correlations
//!   within a run; the pooled form would need its own resampling over repeats for an error;
//! - it is the quantity a single run measures, so K = 1 and K ≥ 2 report the same thing (with
//!   K = 1 the error falls back to the block jackknife within the run);
//! - when repeats sit in different states (a run stuck ordered, another disordered), the pooled
//!   form counts the difference between repeats as fluctuation of φ — χ grows and G drops by an
//!   amount set by how the seeds happened to split, not by the dynamics of one run — whereas the
//!   per-repeat form keeps each run's own fluctuations and shows the disagreement as a large error.
//!
//! Its cost: the bias of a nonlinear function of averages (order τ/n, τ the autocorrelation time,
//! n the run length) is that of one run and does not shrink with K, while the pooled form's
//! shrinks K-fold. In a stationary, ergodic state with runs much longer than τ the two agree.
//! ⟨φ⟩, ⟨φ²⟩, ⟨φ⁴⟩ are linear, so for them (with repeats of equal length) the two forms coincide.

use super::autocorrelation::integrated_autocorrelation_time;
use super::batch_means::time_average;
use super::estimate::{ErrorKind, Estimate};
use super::jackknife::block_jackknife;
use super::repeats::combine_repeats;

/// The moments and cumulants of an order parameter φ over a run, or over K repeats, each with its
/// standard error and the kind of that error. All dimensionless.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OrderParameterMoments {
    /// ⟨φ⟩.
    pub mean: Estimate,
    /// ⟨φ²⟩.
    pub second_moment: Estimate,
    /// ⟨φ⁴⟩.
    pub fourth_moment: Estimate,
    /// The Binder cumulant G = 1 − ⟨φ⁴⟩/(3⟨φ²⟩²) ([`binder_cumulant`]).
    pub binder_cumulant: Estimate,
    /// The susceptibility χ = N(⟨φ²⟩ − ⟨φ⟩²) ([`susceptibility`]).
    pub susceptibility: Estimate,
    /// The integrated autocorrelation time τ_int of φ in samples (measured steps), by Sokal's
    /// automatic windowing ([`integrated_autocorrelation_time`]); NaN for a constant series.
    pub autocorrelation_time: Estimate,
}

/// The Binder cumulant G = 1 − ⟨φ⁴⟩/(3⟨φ²⟩²) from the moments `phi2` = ⟨φ²⟩ and `phi4` = ⟨φ⁴⟩
/// (Binder 1981; Chaté et al. 2008). 2/3 for a constant φ > 0, 1/3 for a 2D Gaussian order
/// vector; NaN when ⟨φ²⟩ = 0.
pub fn binder_cumulant(phi2: f64, phi4: f64) -> f64 {
    if phi2 == 0.0 {
        return f64::NAN;
    }
    1.0 - phi4 / (3.0 * phi2 * phi2)
}

/// The susceptibility χ = N(⟨φ²⟩ − ⟨φ⟩²) of `particles` = N particles from the moments `phi` =
/// ⟨φ⟩ and `phi2` = ⟨φ²⟩. 0 for a constant φ, never negative: ⟨φ²⟩ ≥ ⟨φ⟩² for any series, so
/// a negative difference is rounding (of the order of 1e-16 · N) and is returned as 0.
pub fn susceptibility(phi: f64, phi2: f64, particles: usize) -> f64 {
    (particles as f64 * (phi2 - phi * phi)).max(0.0)
}

/// The moments, Binder cumulant and susceptibility of one run's series of φ (oldest first, one
/// value per measured step) for a system of `particles` = N particles.
///
/// Errors: batch means for ⟨φ⟩, ⟨φ²⟩, ⟨φ⁴⟩ ([`ErrorKind::BatchMeansWithinRun`]); the block
/// jackknife over the same blocks for G and χ ([`ErrorKind::BlockJackknifeWithinRun`]). Values
/// are over all samples. NaN values for an empty series, NaN errors below
/// [`MIN_SAMPLES`](super::MIN_SAMPLES) samples.
pub fn order_parameter_moments(series: &[f64], particles: usize) -> OrderParameterMoments {
    let phi2: Vec<f64> = series.iter().map(|p| p * p).collect();
    let phi4: Vec<f64> = phi2.iter().map(|p| p * p).collect();
    let jackknifed = |f: &dyn Fn(&[f64]) -> f64| {
        let j = block_jackknife(&[series, &phi2, &phi4], f);
        Estimate {
            value: j.value,
            error: j.error,
            kind: ErrorKind::BlockJackknifeWithinRun,
        }
    };
    OrderParameterMoments {
        mean: time_average(series),
        second_moment: time_average(&phi2),
        fourth_moment: time_average(&phi4),
        binder_cumulant: jackknifed(&|m| binder_cumulant(m[1], m[2])),
        susceptibility: jackknifed(&|m| susceptibility(m[0], m[1], particles)),
        autocorrelation_time: match integrated_autocorrelation_time(series) {
            Some(t) => Estimate {
                value: t.tau,
                error: t.error,
                kind: ErrorKind::SokalWithinRun,
            },
            None => Estimate {
                value: f64::NAN,
                error: f64::NAN,
                kind: ErrorKind::SokalWithinRun,
            },
        },
    }
}

/// The moments, Binder cumulant and susceptibility over K repeats, from each repeat's series of φ
/// (lengths may differ) for a system of `particles` = N particles.
///
/// K ≥ 2: every quantity is computed per repeat and combined by [`combine_repeats`]: the mean of
/// the K per-repeat values with error s/√K ([`ErrorKind::AcrossRepeats`]); the module
/// documentation says why G and χ are per repeat rather than pooled. K = 1: exactly
/// [`order_parameter_moments`] of the one run. K = 0: NaN throughout.
pub fn order_parameter_moments_over_repeats(
    series: &[&[f64]],
    particles: usize,
) -> OrderParameterMoments {
    let per_repeat: Vec<OrderParameterMoments> = series
        .iter()
        .map(|s| order_parameter_moments(s, particles))
        .collect();
    let combine = |pick: fn(&OrderParameterMoments) -> Estimate| {
        combine_repeats(&per_repeat.iter().map(pick).collect::<Vec<_>>())
    };
    OrderParameterMoments {
        mean: combine(|m| m.mean),
        second_moment: combine(|m| m.second_moment),
        fourth_moment: combine(|m| m.fourth_moment),
        binder_cumulant: combine(|m| m.binder_cumulant),
        susceptibility: combine(|m| m.susceptibility),
        autocorrelation_time: combine(|m| m.autocorrelation_time),
    }
}

#[cfg(test)]
mod tests {
    use super::super::batch_means::mean_sd;
    use super::super::test_rng::TestRng;
    use super::*;
    use std::f64::consts::PI;

    /// Asserts |estimate − expected| ≤ `sigmas`·error and that the error is below `max_error`
    /// (so that a blown-up error cannot pass the first check).
    fn assert_within(what: &str, e: Estimate, expected: f64, sigmas: f64, max_error: f64) {
        assert!(
            e.error > 0.0 && e.error < max_error,
            "{what}: error {} not in (0, {max_error})",
            e.error
        );
        let z = (e.value - expected) / e.error;
        assert!(
            z.abs() <= sigmas,
            "{what}: {} ± {} is {z:.2} errors from {expected}",
            e.value,
            e.error
        );
    }

    #[test]
    fn perfect_order_has_binder_two_thirds_and_no_susceptibility() {
        let series = vec![1.0; 1000];
        let m = order_parameter_moments(&series, 500);
        assert_eq!(m.mean.value, 1.0);
        assert_eq!((m.second_moment.value, m.fourth_moment.value), (1.0, 1.0));
        assert!((m.binder_cumulant.value - 2.0 / 3.0).abs() < 1e-15);
        assert_eq!(m.susceptibility.value, 0.0);
        // Nothing fluctuates, so nothing is uncertain (to rounding of 1 − 1/3).
        assert!(m.binder_cumulant.error < 1e-14);
        assert_eq!(m.susceptibility.error, 0.0);
        // G = 2/3 for any constant φ > 0, not only 1 (to rounding of the sums of 100 samples).
        let m = order_parameter_moments(&[0.37; 100], 500);
        assert!((m.binder_cumulant.value - 2.0 / 3.0).abs() < 1e-13);
        assert!(m.susceptibility.value.abs() < 1e-12);
    }

    // Tolerance of the two statistical tests below: 4 standard errors from the module's own
    // estimators (the block jackknife and batch means with 20 blocks; samples are independent
    // here, so blocks of any length are uncorrelated). A correct estimator fails a 4σ check with
    // probability ~1e-4 (a little more, since the error itself is known to ±16 %); the seeds are
    // fixed, so each outcome is reproducible.

    #[test]
    fn random_headings_moments_and_binder_cumulant() {
        // N = 4 independent uniform headings: ⟨φ²⟩ = 1/N, ⟨φ⁴⟩ = (2N − 1)/N³ exactly (pairings of
        // Σ e^{i(θ_j − θ_k + θ_l − θ_m)}), so G = 1/3 + 1/(3N) = 5/12, far from the large-N 1/3
        // (the difference is ~15 errors).
        let n = 4;
        let nf = n as f64;
        let mut rng = TestRng::new(41);
        let series: Vec<f64> = (0..40_000).map(|_| rng.random_polarization(n)).collect();
        let m = order_parameter_moments(&series, n);
        assert_within("⟨φ²⟩", m.second_moment, 1.0 / nf, 4.0, 0.005);
        assert_within(
            "⟨φ⁴⟩",
            m.fourth_moment,
            (2.0 * nf - 1.0) / nf.powi(3),
            4.0,
            0.005,
        );
        assert_within(
            "G",
            m.binder_cumulant,
            1.0 / 3.0 + 1.0 / (3.0 * nf),
            4.0,
            0.005,
        );
        assert!((m.binder_cumulant.value - 1.0 / 3.0) / m.binder_cumulant.error > 8.0);
    }

    #[test]
    fn random_headings_susceptibility_tends_to_one_minus_pi_over_four() {
        // N = 1000: φ√N is Rayleigh up to O(1/N), ⟨φ⟩ = √(π/4N)(1 + 1/(16N) + …), so
        // χ = 1 − π/4 − π/(32N) + … ; the correction (1e-4) is 1/30 of the error (~0.003).
        let n = 1000;
        let mut rng = TestRng::new(42);
        let series: Vec<f64> = (0..10_000).map(|_| rng.random_polarization(n)).collect();
        let m = order_parameter_moments(&series, n);
        assert_eq!(m.susceptibility.kind, ErrorKind::BlockJackknifeWithinRun);
        assert_within("χ", m.susceptibility, 1.0 - PI / 4.0, 4.0, 0.005);
        let nf = n as f64;
        assert_within(
            "G",
            m.binder_cumulant,
            1.0 / 3.0 + 1.0 / (3.0 * nf),
            4.0,
            0.01,
        );
        assert_within("⟨φ²⟩", m.second_moment, 1.0 / nf, 4.0, 1e-5);
    }

    #[test]
    fn the_susceptibility_is_never_negative() {
        // A constant series of 0.7: the summed ⟨φ⟩ = 0.7000000000000013 and ⟨φ²⟩ =
        // 0.4900000000000002 round so that N(⟨φ²⟩ − ⟨φ⟩²) = −1.6e-12 (the premise, asserted).
        let series = vec![0.7; 100];
        let (mut s, mut s2) = (0.0f64, 0.0f64);
        for v in &series {
            s += v;
            s2 += v * v;
        }
        let (phi, phi2) = (s / 100.0, s2 / 100.0);
        assert!(
            1000.0 * (phi2 - phi * phi) < 0.0,
            "the premise: rounding goes below 0"
        );
        assert_eq!(susceptibility(phi, phi2, 1000), 0.0);
        let m = order_parameter_moments(&series, 1000);
        assert!(m.susceptibility.value >= 0.0, "{:?}", m.susceptibility);
        assert_eq!(susceptibility(0.5, 0.26, 100), 100.0 * (0.26 - 0.25));
    }

    #[test]
    fn random_headings_susceptibility_at_small_n_is_below_its_limit() {
        // N = 10: χ = 1 − π/4 − π/(32N) + O(1/N²) = 0.2048 (docs/model.md §12.9; 0.2046 exactly
        // by E|S| = ∫(1 − J₀(t)^N)/t² dt), below the limit 0.2146 — not above it by π/(16N)
        // (0.2342). 200 000 independent samples: the error of χ is ~0.001, the two forms are
        // ~30 errors apart and the limit ~10.
        let n = 10;
        let mut rng = TestRng::new(44);
        let series: Vec<f64> = (0..200_000).map(|_| rng.random_polarization(n)).collect();
        let m = order_parameter_moments(&series, n);
        let exact = 1.0 - PI / 4.0 - PI / (32.0 * n as f64);
        assert_within("χ", m.susceptibility, exact, 4.0, 0.003);
        let limit = 1.0 - PI / 4.0;
        assert!(
            (limit - m.susceptibility.value) / m.susceptibility.error > 4.0,
            "χ = {:?} is not below its N → ∞ limit {limit}",
            m.susceptibility
        );
    }

    #[test]
    fn repeats_take_the_spread_of_per_repeat_values() {
        // Three repeats at different levels and widths; G and χ are computed per repeat and the
        // error is the sd of those three values over √3.
        let mut rng = TestRng::new(43);
        let runs: Vec<Vec<f64>> = [(0.3, 0.05), (0.5, 0.1), (0.6, 0.02)]
            .iter()
            .map(|&(level, width)| {
                (0..2000)
                    .map(|_| (level + width * rng.normal()).clamp(0.0, 1.0))
                    .collect()
            })
            .collect();
        let refs: Vec<&[f64]> = runs.iter().map(|r| r.as_slice()).collect();
        let n = 100;
        let m = order_parameter_moments_over_repeats(&refs, n);
        let singles: Vec<OrderParameterMoments> =
            refs.iter().map(|r| order_parameter_moments(r, n)).collect();
        let check = |what: &str, got: Estimate, values: Vec<f64>| {
            let (mean, sd) = mean_sd(&values);
            assert_eq!(got.kind, ErrorKind::AcrossRepeats { repeats: 3 }, "{what}");
            assert!((got.value - mean).abs() < 1e-12, "{what}");
            assert!((got.error - sd / 3f64.sqrt()).abs() < 1e-12, "{what}");
        };
        check(
            "G",
            m.binder_cumulant,
            singles.iter().map(|s| s.binder_cumulant.value).collect(),
        );
        check(
            "χ",
            m.susceptibility,
            singles.iter().map(|s| s.susceptibility.value).collect(),
        );
        // χ of the three: N·width² ≈ 0.25, 1.0, 0.04, so the spread is large (≈ 0.29), far above
        // any within-run error (≈ 0.01–0.04).
        assert!(m.susceptibility.error > 0.2, "{}", m.susceptibility.error);
        // One repeat: the within-run errors.
        let one = order_parameter_moments_over_repeats(&refs[..1], n);
        assert_eq!(one, singles[0]);
        assert_eq!(one.binder_cumulant.kind, ErrorKind::BlockJackknifeWithinRun);
    }

    #[test]
    fn empty_series() {
        let m = order_parameter_moments(&[], 10);
        assert!(m.mean.value.is_nan() && m.binder_cumulant.value.is_nan());
        assert!(m.susceptibility.value.is_nan());
        let k0 = order_parameter_moments_over_repeats(&[], 10);
        assert!(k0.binder_cumulant.value.is_nan());
    }
}
