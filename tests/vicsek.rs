//! The Vicsek model (Vicsek et al., Phys. Rev. Lett. 75, 1226 (1995); docs/model.md §16) against
//! its exact limits, in the paper's units (r = 1, v0 = 0.03, Δt = 1):
//! - η = 0 from an ordered start keeps v_a = 1 (to 1e-5), on both backends and in both orders;
//! - η = 2π makes every new heading uniform and independent, so v_a of N particles is the mean
//!   resultant of N random unit vectors, √(π/(4N)) (to O(1/N) relative), within 3 standard
//!   errors of the batch-means estimate;
//! - all-to-all interaction (every pair within r) gives v_a = |mean of e^{iξ}| with ξ uniform in
//!   [−η/2, η/2): 2·sin(η/2)/η + O(1/N);
//! - η = 0 at high density from a random start orders: v_a rises above 0.95.

mod common;

use boids::backend::{self, BackendKind, Simulation};
use boids::cpu::CpuBackend;
use boids::model::{initial_state, Actors, Boid, Boundary, Model, Setup, SimParams, VicsekUpdate};
use boids::stats::series_stats;

/// `n` particles at density `rho` in the paper's units, noise `eta`.
fn params(n: usize, rho: f32, eta: f32) -> SimParams {
    let l = (n as f32 / rho).sqrt();
    {
        let mut sp = SimParams {
            model: Model::VICSEK,
            world_width: l,
            world_height: l,
            perception_radius: 1.0,
            hue_radius: 1.0,
            ..SimParams::default()
        };
        sp.models.vicsek.speed = 0.03;
        sp.models.vicsek.eta = eta;
        sp
    }
}

fn cpu(p: &SimParams, boids: Vec<Boid>, seed: u32) -> CpuBackend {
    CpuBackend::from_state(BackendKind::Cpu, p, boids, seed).unwrap()
}

/// The time series of v_a over `steps` steps.
fn va_series(sim: &mut dyn Simulation, steps: u32) -> Vec<f64> {
    sim.run_measured(steps, &mut || {})
        .unwrap()
        .iter()
        .map(|m| m.va())
        .collect()
}

#[test]
fn no_noise_from_an_ordered_start_keeps_perfect_order_on_both_backends() {
    let ctx = common::gpu();
    for update in [VicsekUpdate::New, VicsekUpdate::Old] {
        let p = {
            let mut sp = SimParams {
                ..params(1000, 4.0, 0.0)
            };
            sp.models.vicsek.update = update;
            sp
        };
        let mut boids = initial_state(4, 1000, &p);
        let (s, c) = 0.7f32.sin_cos();
        for b in &mut boids {
            b.velocity = [0.03 * c, 0.03 * s];
        }
        let setup = Setup {
            params: p.clone(),
            seed: 4,
            step: 0,
            boids,
            actors: Actors::default(),
        };
        let mut kinds = vec![BackendKind::Cpu];
        if ctx.is_some() {
            kinds.push(BackendKind::Gpu);
        }
        for kind in kinds {
            let mut sim = backend::create(kind, &setup, ctx.as_ref()).unwrap();
            let va = va_series(sim.as_mut(), 200);
            let worst = va.iter().copied().fold(1.0f64, f64::min);
            assert!(
                va.iter().all(|v| (v - 1.0).abs() <= 1e-5),
                "{kind:?} {update:?}: v_a fell to {worst}"
            );
        }
    }
}

#[test]
fn full_noise_gives_the_mean_resultant_of_random_headings() {
    // η = 2π: each new heading is its local mean direction plus a turn uniform over a whole turn,
    // i.e. uniform and independent of everything else. v_a·√N then has the Rayleigh mean
    // √(π/4) (the exact finite-N mean differs by a relative 1/(8N)). The standard error comes from
    // batch means, which covers any autocorrelation (none is expected here).
    let n = 1000;
    let p = params(n, 4.0, std::f32::consts::TAU);
    let mut sim = cpu(&p, initial_state(5, n, &p), 5);
    let va = va_series(&mut sim, 3000);
    let st = series_stats(&va[10..]);
    let want = (std::f64::consts::PI / (4.0 * n as f64)).sqrt();
    assert!(st.se > 0.0 && st.se < 0.05 * want, "{st:?}");
    assert!(
        (st.mean - want).abs() < 3.0 * st.se,
        "⟨v_a⟩ = {} ± {}, expected √(π/4N) = {want}",
        st.mean,
        st.se
    );
}

#[test]
fn all_to_all_interaction_gives_the_mean_of_the_noise() {
    // Every pair within r: the particles start in a 60 × 60 square at the centre of a 700 × 700
    // walled box and r = 1000 exceeds the box's diagonal (990). Each new heading is then the
    // common mean direction plus its own turn ξ, so v_a = |(1/N) Σ e^{iξ_j}|, whose mean is
    // μ = 2·sin(η/2)/η + O(1/N): to first order Var(sin ξ)/(2Nμ) above it, Var(sin ξ) ≤ 1 − μ²
    // (the allowance is 3 standard errors plus twice (1 − μ²)/(2Nμ)). In 400 steps at v0 = 0.03 a
    // particle moves 12 wu: none comes near a wall (checked), which would reflect its velocity.
    let n = 500;
    for eta in [1.0f32, 3.0, 5.0] {
        let p = {
            let mut sp = SimParams {
                model: Model::VICSEK,
                world_width: 700.0,
                world_height: 700.0,
                boundary: Boundary::Walls,
                perception_radius: 1000.0,
                hue_radius: 20.0,
                ..SimParams::default()
            };
            sp.models.vicsek.speed = 0.03;
            sp.models.vicsek.eta = eta;
            sp
        };
        p.validate().unwrap();
        let mut boids = initial_state(6, n, &p);
        for b in &mut boids {
            for x in &mut b.position {
                *x = 320.0 + *x * (60.0 / 700.0);
            }
        }
        let mut sim = cpu(&p, boids, 6);
        let va = va_series(&mut sim, 400);
        // Every particle saw every other one.
        assert!(sim.neighbor_counts().iter().all(|&k| k as usize == n - 1));
        let far = sim
            .read_state()
            .unwrap()
            .iter()
            .all(|b| b.position.iter().all(|&x| (300.0..400.0).contains(&x)));
        assert!(far, "η = {eta}: a particle came near a wall");
        let st = series_stats(&va[1..]);
        let mu = 2.0 * (eta as f64 / 2.0).sin() / eta as f64;
        let bias = (1.0 - mu * mu) / (2.0 * n as f64 * mu);
        assert!(
            (st.mean - mu).abs() < 3.0 * st.se + 2.0 * bias,
            "η = {eta}: ⟨v_a⟩ = {} ± {}, expected {mu} (+ {bias})",
            st.mean,
            st.se
        );
    }
}

#[test]
fn no_noise_at_high_density_orders_a_random_start() {
    // ρ = 10 (about 31 particles within r), η = 0, random headings: the headings align.
    for update in [VicsekUpdate::New, VicsekUpdate::Old] {
        let p = {
            let mut sp = SimParams {
                ..params(2000, 10.0, 0.0)
            };
            sp.models.vicsek.update = update;
            sp
        };
        let mut sim = cpu(&p, initial_state(7, 2000, &p), 7);
        let va = va_series(&mut sim, 1000);
        assert!(
            va[0] < 0.3,
            "{update:?}: the start is not disordered: {}",
            va[0]
        );
        let last = *va.last().unwrap();
        assert!(last > 0.95, "{update:?}: v_a = {last} after 1000 steps");
    }
}

#[test]
fn the_update_orders_move_with_the_new_or_the_old_velocity() {
    for (update, new) in [(VicsekUpdate::New, true), (VicsekUpdate::Old, false)] {
        let p = {
            let mut sp = SimParams {
                ..params(400, 4.0, 1.0)
            };
            sp.models.vicsek.update = update;
            sp
        };
        let before = initial_state(8, 400, &p);
        let mut sim = cpu(&p, before.clone(), 8);
        sim.step().unwrap();
        let after = sim.read_state().unwrap();
        for a in &after {
            let b = before.iter().find(|b| b.id == a.id).unwrap();
            let v = if new { a.velocity } else { b.velocity };
            let lens = [p.world_width, p.world_height];
            for (k, (&len, &vk)) in lens.iter().zip(&v).enumerate() {
                let mut d = a.position[k] - b.position[k];
                d -= len * (d / len).round();
                assert!((d - vk).abs() < 1e-5, "{update:?}: {b:?} → {a:?}");
            }
            let speed = (a.velocity[0].powi(2) + a.velocity[1].powi(2)).sqrt();
            assert!((speed - 0.03).abs() < 1e-7 * 10.0, "{a:?}");
        }
    }
}

#[test]
fn vicsek_parameters_are_validated_with_their_ranges() {
    for (p, field, range) in [
        (
            {
                let mut sp = SimParams {
                    ..params(100, 4.0, 0.0)
                };
                sp.models.vicsek.eta = 7.0;
                sp
            },
            "vicsek_eta = 7",
            "6.28",
        ),
        (
            {
                let mut sp = SimParams {
                    ..params(100, 4.0, 0.0)
                };
                sp.models.vicsek.speed = 0.0;
                sp
            },
            "vicsek_speed = 0",
            "0.000001",
        ),
        (
            {
                let mut sp = SimParams {
                    ..params(100, 4.0, 0.0)
                };
                sp.models.vicsek.eta = f32::NAN;
                sp
            },
            "vicsek_eta = NaN",
            "6.28",
        ),
    ] {
        let e = p.validate().unwrap_err().to_string();
        assert!(e.contains(field) && e.contains(range), "{e}");
    }
    // The rule radii above r are no error in the Vicsek model (it uses r alone), but are in the
    // others.
    let p = params(100, 4.0, 1.0);
    assert!(p.separation_radius > p.perception_radius);
    p.validate().unwrap();
    let e = SimParams {
        model: Model::FISH,
        ..p
    }
    .validate()
    .unwrap_err()
    .to_string();
    assert!(e.contains("separation_radius"), "{e}");
}
