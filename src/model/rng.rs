//! Counter-based random numbers: a pure function of (seed, id, step, stream), so that the CPU and
//! the GPU draw the same numbers without sharing generator state (docs/model.md §10).
//!
//! The mixing function is the PCG hash recommended by Jarzynski & Olano, "Hash Functions for GPU
//! Rendering", JCGT 9(3), 2020. Mirrored line for line in `shaders/rng.wgsl`.

/// Stream for the initial position x.
pub const STREAM_POS_X: u32 = 0;
/// Stream for the initial position y.
pub const STREAM_POS_Y: u32 = 1;
/// Stream for the initial heading.
pub const STREAM_HEADING: u32 = 2;
/// Stream for the initial speed.
pub const STREAM_SPEED: u32 = 3;
/// Stream for the initial hue angle.
pub const STREAM_HUE: u32 = 4;
/// Stream for the initial hue velocity.
pub const STREAM_HUE_VEL: u32 = 5;
/// Stream for the per-step velocity noise: the first uniform of the Box–Muller pair of
/// [`standard_normal`] (rotational diffusion, docs/model.md §7), or the one uniform of a per-step
/// uniform turn ([`uniform_turn`]).
pub const STREAM_NOISE: u32 = 6;
/// Stream for the second uniform of the Box–Muller pair of the per-step velocity noise.
pub const STREAM_NOISE_2: u32 = 7;
/// Stream for the x of a boid respawned after a predator caught it (docs/model.md §18.4).
pub const STREAM_RESPAWN_X: u32 = 20;
/// Stream for the y of a respawned boid.
pub const STREAM_RESPAWN_Y: u32 = 21;
/// Stream for the heading of a respawned boid.
pub const STREAM_RESPAWN_HEADING: u32 = 22;
/// Stream for the speed of a respawned boid.
pub const STREAM_RESPAWN_SPEED: u32 = 23;
/// Stream for the distance from the cursor of a boid added by the app's add tool.
pub const STREAM_ADD_RADIUS: u32 = 100;
/// Stream for the direction from the cursor of a boid added by the app's add tool.
pub const STREAM_ADD_ANGLE: u32 = 101;
/// Stream of the random sample kept when the app lowers the boid count.
pub const STREAM_REMOVE: u32 = 102;

/// One round of the PCG hash (Jarzynski & Olano 2020, §2 "pcg").
#[inline]
pub fn pcg_hash(v: u32) -> u32 {
    let state = v.wrapping_mul(747_796_405).wrapping_add(2_891_336_453);
    let word = ((state >> ((state >> 28) + 4)) ^ state).wrapping_mul(277_803_737);
    (word >> 22) ^ word
}

/// A well-mixed 32-bit value for (seed, id, step, stream). Only the low 32 bits of the seed are
/// used on the GPU side, so `seed` is a u32 here.
#[inline]
pub fn hash4(seed: u32, id: u32, step: u32, stream: u32) -> u32 {
    pcg_hash(seed ^ pcg_hash(id ^ pcg_hash(step ^ pcg_hash(stream))))
}

/// A float uniform in [0, 1) with 24 random bits (exactly representable, so the CPU and the GPU
/// agree bit for bit).
#[inline]
pub fn uniform01(seed: u32, id: u32, step: u32, stream: u32) -> f32 {
    (hash4(seed, id, step, stream) >> 8) as f32 * (1.0 / 16_777_216.0)
}

/// −ln(1 − x) for x in [0, 1): by its series below 1/16, where 1 − x is so near 1 that a GPU's `log`
/// (absolute error up to 2^−21 there, as WGSL allows) would lose the small result; by `ln` above.
/// The series (x + x²/2 + … + x⁶/6) is truncated at a relative error below x⁶/6 ≤ 1e-8.
#[inline]
pub fn neg_ln_one_minus(x: f32) -> f32 {
    if x < 0.0625 {
        return x * (1.0 + x * (0.5 + x * (1.0 / 3.0 + x * (0.25 + x * (0.2 + x * (1.0 / 6.0))))));
    }
    -(1.0 - x).ln()
}

/// A standard normal variate (mean 0, variance 1) for (seed, id, step) by the Box–Muller transform
/// of the uniforms of streams [`STREAM_NOISE`] and [`STREAM_NOISE_2`] (Box & Muller, "A Note on the
/// Generation of Random Normal Deviates", Ann. Math. Statist. 29(2), 1958):
/// `sqrt(2·(−ln(1 − U₁))) · cos(π·(2·U₂ − 1))`. 1 − U₁ lies in (0, 1], so the logarithm is finite;
/// the angle lies in [−π, π), where GPU cosines are specified. |ξ| ≤ sqrt(2·24·ln 2) ≈ 5.8.
#[inline]
pub fn standard_normal(seed: u32, id: u32, step: u32) -> f32 {
    let u1 = uniform01(seed, id, step, STREAM_NOISE);
    let u2 = uniform01(seed, id, step, STREAM_NOISE_2);
    (2.0 * neg_ln_one_minus(u1)).sqrt() * (std::f32::consts::PI * (2.0 * u2 - 1.0)).cos()
}

/// A per-step uniform turn (rad) in [−η/2, η/2) from stream [`STREAM_NOISE`]: the angular noise of
/// the Vicsek model (Vicsek et al., "Novel type of phase transition in a system of self-driven
/// particles", 1995), whose step is its unit of time. The boids model does not use it: its noise is
/// a rotational diffusion, per second ([`standard_normal`], docs/model.md §7).
#[inline]
pub fn uniform_turn(seed: u32, id: u32, step: u32, eta: f32) -> f32 {
    (uniform01(seed, id, step, STREAM_NOISE) - 0.5) * eta
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_series_matches_the_logarithm_where_both_are_accurate() {
        for x in [1e-7f32, 1e-3, 0.01, 0.05, 0.0624, 0.0625, 0.3, 0.9] {
            let want = -(1.0 - x as f64).ln();
            let got = neg_ln_one_minus(x) as f64;
            assert!(
                (got - want).abs() <= 2e-7 * want,
                "x = {x}: {got} vs {want}"
            );
        }
    }

    /// Whether `xs` look standard normal: the mean within 5 standard errors of 0, the variance
    /// within 5 standard errors (sqrt(2/n)) of 1, the fourth moment within 5 standard errors
    /// (sqrt(96/n)) of 3, and P(|x| < 1) within 5 binomial standard errors of 0.682 689.
    fn check_normal(xs: &[f64]) -> Result<(), String> {
        let nf = xs.len() as f64;
        let mean = xs.iter().sum::<f64>() / nf;
        let var = xs.iter().map(|x| x * x).sum::<f64>() / nf;
        let m4 = xs.iter().map(|x| x.powi(4)).sum::<f64>() / nf;
        let inside = xs.iter().filter(|x| x.abs() < 1.0).count() as f64 / nf;
        let p = 0.682_689_5;
        if mean.abs() > 5.0 / nf.sqrt() {
            return Err(format!("mean {mean}"));
        }
        if (var - 1.0).abs() > 5.0 * (2.0 / nf).sqrt() {
            return Err(format!("variance {var}"));
        }
        if (m4 - 3.0).abs() > 5.0 * (96.0 / nf).sqrt() {
            return Err(format!("fourth moment {m4}"));
        }
        if (inside - p).abs() > 5.0 * (p * (1.0 - p) / nf).sqrt() {
            return Err(format!("P(|x| < 1) = {inside}"));
        }
        Ok(())
    }

    #[test]
    fn standard_normal_is_normal() {
        let xs: Vec<f64> = (0..200_000)
            .map(|i| standard_normal(11, i, 5) as f64)
            .collect();
        check_normal(&xs).unwrap();
        assert!(xs.iter().all(|x| x.is_finite() && x.abs() < 5.8));
    }

    #[test]
    fn the_normality_check_rejects_a_uniform_of_variance_one() {
        // Uniform on [−√3, √3]: fourth moment 1.8, P(|x| < 1) = 0.577.
        let xs: Vec<f64> = (0..200_000)
            .map(|i| (uniform01(11, i, 5, STREAM_NOISE) as f64 * 2.0 - 1.0) * 3f64.sqrt())
            .collect();
        assert!(check_normal(&xs).is_err());
    }

    #[test]
    fn uniform_turn_spans_the_interval() {
        let eta = 2.0f32;
        let t: Vec<f32> = (0..10_000).map(|i| uniform_turn(3, i, 1, eta)).collect();
        assert!(t.iter().all(|&a| (-1.0..1.0).contains(&a)));
        assert!(t.iter().any(|&a| a < -0.99) && t.iter().any(|&a| a > 0.99));
    }
}
