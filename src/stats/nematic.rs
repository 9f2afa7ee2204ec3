//! Nematic order of a set of headings.
//!
//! S = |Σ_i e^{2iθ_i}| / N, θ_i the heading of particle i (the direction of its velocity), in
//! [0, 1], dimensionless. Doubling the angle makes θ and θ + π the same: S is 1 when every particle
//! moves along one axis, whichever way along it (a polar flock, φ = 1, or two counter-moving
//! lanes, φ = 0), and of order 1/√N for independent random headings (⟨S²⟩ = 1/N exactly, as for
//! the polarization). It is the order parameter of active nematics and self-propelled rods
//! (Chaté, Ginelli & Montagne, "Simple model for active nematics: quasi-long-range order and giant
//! fluctuations", Phys. Rev. Lett. 96, 180602, 2006; Ginelli, Peruani, Bär & Chaté, "Large-scale
//! collective properties of self-propelled rods", Phys. Rev. Lett. 104, 184502, 2010). φ = 1
//! implies S = 1, but not the reverse.
//!
//! e^{2iθ} is taken from the velocity (vx, vy) without angles: cos 2θ = (vx² − vy²)/|v|²,
//! sin 2θ = 2·vx·vy/|v|².
//!
//! **Stopped particles** (|v| ≤ 1e-12, which have no heading) contribute 0 but count in N, as in
//! the crate's polarization φ = |Σ_i v̂_i|/N: then S and φ of the same state have the same
//! denominator, a stopped particle lowers both, and S = 0 when all are stopped. Leaving them out
//! instead would make S jump to 1 when all but one particle stop.

/// Below this speed (units of the velocities) a particle counts as stopped: it has no heading and
/// adds 0 to Σ e^{2iθ} (the same threshold as the crate's polarization).
pub const STOPPED_SPEED: f64 = 1e-12;

/// The nematic order S = |Σ_i e^{2iθ_i}|/N of the headings of `velocities` (each (vx, vy), any
/// units; only directions matter), in [0, 1]. Stopped particles (speed ≤ [`STOPPED_SPEED`]) add 0
/// but count in N. 0 for no particles.
pub fn nematic_order<T: Copy + Into<f64>>(velocities: &[[T; 2]]) -> f64 {
    if velocities.is_empty() {
        return 0.0;
    }
    let (mut c, mut s) = (0.0f64, 0.0f64);
    for v in velocities {
        let (vx, vy): (f64, f64) = (v[0].into(), v[1].into());
        let speed2 = vx * vx + vy * vy;
        if speed2.sqrt() > STOPPED_SPEED {
            c += (vx * vx - vy * vy) / speed2;
            s += 2.0 * vx * vy / speed2;
        }
    }
    (c * c + s * s).sqrt() / velocities.len() as f64
}

#[cfg(test)]
mod tests {
    use super::super::test_rng::TestRng;
    use super::*;
    use std::f64::consts::PI;

    fn heading(theta: f64, speed: f64) -> [f64; 2] {
        [speed * theta.cos(), speed * theta.sin()]
    }

    #[test]
    fn aligned_flock_is_nematically_ordered() {
        let v: Vec<[f64; 2]> = (0..100).map(|i| heading(0.7, 1.0 + i as f64)).collect();
        assert!((nematic_order(&v) - 1.0).abs() < 1e-12);
    }

    #[test]
    fn half_and_half_opposite_is_nematically_ordered() {
        // Half at θ, half at θ + π: the polarization is 0, the nematic order 1.
        let theta = 1.1;
        let v: Vec<[f64; 2]> = (0..1000)
            .map(|i| heading(theta + if i < 500 { 0.0 } else { PI }, 2.0))
            .collect();
        assert!((nematic_order(&v) - 1.0).abs() < 1e-12);
        let (sx, sy) = v.iter().fold((0.0, 0.0), |(x, y), u| (x + u[0], y + u[1]));
        assert!(sx.hypot(sy) < 1e-9);
    }

    #[test]
    fn perpendicular_halves_cancel() {
        // Half along x, half along y: e^{2iθ} = +1 and −1, S = 0 exactly.
        let v: Vec<[f32; 2]> = (0..10)
            .map(|i| if i < 5 { [3.0, 0.0] } else { [0.0, -2.0] })
            .collect();
        assert_eq!(nematic_order(&v), 0.0);
    }

    #[test]
    fn random_headings_have_no_nematic_order() {
        // ⟨S²⟩ = 1/N and NS² is exponentially distributed (a 2D random walk of N unit steps), so
        // P(S > 4/√N) = e^{−16} ≈ 1e-7; S > 4/√N would mean a broken S, not bad luck. The lower
        // bound 0.05/√N (P = 1 − e^{−0.0025} ≈ 0.25 %) catches an S stuck at 0.
        let n = 10_000;
        let mut rng = TestRng::new(51);
        let v: Vec<[f64; 2]> = (0..n).map(|_| heading(rng.angle(), 1.0)).collect();
        let s = nematic_order(&v);
        let scale = 1.0 / (n as f64).sqrt();
        assert!(
            s < 4.0 * scale && s > 0.05 * scale,
            "S = {s}, 1/√N = {scale}"
        );
    }

    #[test]
    fn stopped_particles_count_as_zero() {
        // 3 aligned, 1 stopped: S = 3/4.
        let v = [[1.0, 1.0], [2.0, 2.0], [-1.0, -1.0], [0.0, 0.0]];
        assert!((nematic_order(&v) - 0.75).abs() < 1e-12);
        assert_eq!(nematic_order(&[[0.0f64, 0.0]; 5]), 0.0);
        assert_eq!(nematic_order::<f64>(&[]), 0.0);
    }
}
