//! The velocity noise is a rotational diffusion with a coefficient per second (docs/model.md §7):
//! alone, the heading's variance grows as 2·D_r·T whatever the step, and a flock's measures at the
//! same simulated time agree across steps within statistical error.

use crate::support;
use boids::backend::{BackendKind, Simulation};
use boids::cpu::CpuBackend;
use boids::gpu::GpuBackend;
use boids::model::{initial_state, Boid, SimParams};

/// Mean and standard error of the mean.
fn mean_se(xs: &[f64]) -> (f64, f64) {
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (mean, (var / n).sqrt())
}

/// Non-interacting boids (every rule weight 0) with rotational diffusion `d_r` and step `dt`.
fn free_params(d_r: f32, dt: f32) -> SimParams {
    {
        let mut sp = SimParams {
            dt,
            rotational_diffusion: d_r,
            hue_cohesion_weight: 0.0,
            hue_alignment_weight: 0.0,
            ..SimParams::default()
        };
        sp.models.boids.separation_weight = 0.0;
        sp.models.boids.alignment_weight = 0.0;
        sp.models.boids.cohesion_weight = 0.0;
        sp
    }
    .with_world_for(4000, boids::model::DEFAULT_DENSITY)
}

/// Runs `sim` for `seconds` and returns each boid's total heading change (rad, unwrapped: the sum
/// of the signed angles between successive velocities), in id order.
fn heading_changes(sim: &mut dyn Simulation, seconds: f32) -> Vec<f64> {
    let steps = (seconds / sim.params().dt).round() as usize;
    let sorted = |s: &mut dyn Simulation| {
        let mut b = s.read_state().unwrap();
        b.sort_by_key(|b| b.id);
        b
    };
    let mut prev = sorted(sim);
    let mut total = vec![0.0f64; prev.len()];
    for _ in 0..steps {
        sim.step().unwrap();
        let now = sorted(sim);
        for (t, (a, b)) in total.iter_mut().zip(prev.iter().zip(&now)) {
            let (ax, ay) = (a.velocity[0] as f64, a.velocity[1] as f64);
            let (bx, by) = (b.velocity[0] as f64, b.velocity[1] as f64);
            *t += (ax * by - ay * bx).atan2(ax * bx + ay * by);
        }
        prev = now;
    }
    total
}

/// The variance of the heading change against 2·D_r·T: within 5 standard errors of a normal
/// sample's variance (σ²·sqrt(2/(n − 1))). Returns (variance, expected).
fn check_variance(changes: &[f64], d_r: f32, seconds: f32) -> Result<(f64, f64), String> {
    let n = changes.len() as f64;
    let mean = changes.iter().sum::<f64>() / n;
    let var = changes.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
    let want = 2.0 * d_r as f64 * seconds as f64;
    let se = want * (2.0 / (n - 1.0)).sqrt();
    if (var - want).abs() > 5.0 * se || mean.abs() > 5.0 * (want / n).sqrt() {
        return Err(format!(
            "heading change: mean {mean:.4}, variance {var:.4} against 2·D_r·T = {want:.4} \
             (standard error {se:.4})"
        ));
    }
    Ok((var, want))
}

#[test]
fn alone_the_heading_diffuses_as_two_d_r_t_at_any_step() {
    let (d_r, seconds) = (0.5f32, 1.0f32);
    for dt in [1.0 / 60.0, 1.0 / 144.0] {
        let p = free_params(d_r, dt);
        let boids = initial_state(5, 4000, &p);
        let mut sim = CpuBackend::from_state(BackendKind::Cpu, &p, boids, 5).unwrap();
        let changes = heading_changes(&mut sim, seconds);
        let (var, want) =
            check_variance(&changes, d_r, seconds).unwrap_or_else(|e| panic!("dt = {dt}: {e}"));
        eprintln!("dt = {dt:.5}: variance {var:.4}, 2·D_r·T = {want:.4}");
    }
}

#[test]
fn the_variance_check_rejects_a_per_step_noise() {
    // Planted fault: the noise of the previous model, a per-step rotation uniform in [−η/2, η/2]
    // with η chosen to give D_r = 0.5 at dt = 1/60 (η² / (24·dt) = D_r). At dt = 1/144 it gives
    // 2.4 × less variance per second, which the check must reject.
    let (d_r, seconds, dt) = (0.5f32, 1.0f32, 1.0f32 / 144.0);
    let eta = (24.0 * d_r / 60.0).sqrt();
    let steps = (seconds / dt).round() as u32;
    let changes: Vec<f64> = (0..4000u32)
        .map(|id| {
            (0..steps)
                .map(|s| boids::model::rng::uniform_turn(5, id, s, eta) as f64)
                .sum()
        })
        .collect();
    assert!(check_variance(&changes, d_r, seconds).is_err());
    // The same draws at the step they were tuned for pass.
    let steps = 60u32;
    let changes: Vec<f64> = (0..4000u32)
        .map(|id| {
            (0..steps)
                .map(|s| boids::model::rng::uniform_turn(5, id, s, eta) as f64)
                .sum()
        })
        .collect();
    check_variance(&changes, d_r, seconds).unwrap();
}

#[test]
fn alone_the_heading_diffuses_as_two_d_r_t_on_the_gpu() {
    let Some(ctx) = support::gpu() else { return };
    let (d_r, seconds) = (0.5f32, 1.0f32);
    for dt in [1.0 / 60.0, 1.0 / 144.0] {
        let p = free_params(d_r, dt);
        let boids = initial_state(6, 4000, &p);
        support::checked(&ctx, || {
            let mut sim = GpuBackend::from_state(&ctx, &p, &boids, 6).unwrap();
            let changes = heading_changes(&mut sim, seconds);
            check_variance(&changes, d_r, seconds).unwrap_or_else(|e| panic!("dt = {dt}: {e}"));
        });
    }
}

/// A flock of `n` boids from `seed`, every boid heading along +x (speeds and positions as spawned),
/// so that the noise visibly lowers the polarization within a fraction of a second.
fn aligned_flock(seed: u32, n: usize, p: &SimParams) -> Vec<Boid> {
    let mut b = initial_state(seed, n, p);
    for x in &mut b {
        let s = (x.velocity[0].powi(2) + x.velocity[1].powi(2)).sqrt();
        x.velocity = [s, 0.0];
    }
    b
}

/// Polarization after `seconds` of the flock of `seed` at step `dt`.
fn polarization_after(seed: u32, d_r: f32, dt: f32, seconds: f32) -> f64 {
    let p = SimParams {
        dt,
        rotational_diffusion: d_r,
        ..SimParams::default()
    }
    .with_world_for(2000, boids::model::DEFAULT_DENSITY);
    let boids = aligned_flock(seed, 2000, &p);
    let mut sim = CpuBackend::from_state(BackendKind::Cpu, &p, boids, seed).unwrap();
    let steps = (seconds / dt).round() as usize;
    for _ in 0..steps {
        sim.step().unwrap();
    }
    sim.measures().unwrap().polarization()
}

/// Whether the polarization differences `diffs` (one per seed) are consistent with 0: the mean
/// within 3 standard errors plus 0.01 (for the discretisation of the deterministic rules).
fn agree(diffs: &[f64]) -> Result<(), String> {
    let (mean, se) = mean_se(diffs);
    eprintln!("polarization difference: {mean:.4} ± {se:.4}");
    if mean.abs() < 3.0 * se + 0.01 {
        Ok(())
    } else {
        Err(format!("differs: {mean:.4} ± {se:.4} ({diffs:?})"))
    }
}

#[test]
fn flock_measures_at_the_same_time_agree_across_steps() {
    // 8 seeds, each from the same initial state at dt = 1/60 and 1/144: the polarizations after
    // 0.5 s agree, and the noise did lower them (so there is a noise to test). Planted fault: the
    // previous per-step noise, tuned to D_r = 3 at dt = 1/60, diffuses at D_r = η²/(24·dt) = 7.2
    // at dt = 1/144; that run must disagree.
    let (d_r, seconds) = (3.0f32, 0.5f32);
    let (mut diffs, mut planted) = (Vec::new(), Vec::new());
    let mut lowest: f64 = 1.0;
    for seed in 1..=8u32 {
        let a = polarization_after(seed, d_r, 1.0 / 60.0, seconds);
        let b = polarization_after(seed, d_r, 1.0 / 144.0, seconds);
        let c = polarization_after(seed, d_r * 144.0 / 60.0, 1.0 / 144.0, seconds);
        lowest = lowest.min(a).min(b);
        diffs.push(a - b);
        planted.push(a - c);
    }
    agree(&diffs).unwrap();
    assert!(
        agree(&planted).is_err(),
        "the per-step noise must be told apart"
    );
    assert!(
        lowest < 0.9,
        "the noise should lower the polarization: {lowest}"
    );
}
