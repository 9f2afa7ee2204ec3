//! The neighbour cap keeps each boid's k nearest neighbours (the topological neighbourhood of
//! Ballerini et al., PNAS 2008; docs/model.md §4.4), ties by id — not the first k met in scan
//! order, which gave capped flocks a direction.

use crate::support;
use boids::backend::{BackendKind, Simulation};
use boids::cpu::CpuBackend;
use boids::model::rules::{min_image, Nearest};
use boids::model::{Boid, Boundary, SimParams, StepUniforms};

/// Brute force: the ids of the k nearest other boids within the perception radius, by (d², id).
fn brute_nearest(boids: &[Boid], i: usize, k: usize, u: &StepUniforms) -> Vec<u32> {
    let p = boids[i].pos();
    let mut c: Vec<(f32, u32)> = boids
        .iter()
        .enumerate()
        .filter(|(j, _)| *j != i)
        .map(|(_, o)| {
            let d = min_image(o.pos() - p, u);
            (d.dot(d), o.id)
        })
        .filter(|(d2, _)| *d2 < u.perception_r2)
        .collect();
    c.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    c.into_iter().take(k).map(|x| x.1).collect()
}

#[test]
fn the_selection_is_the_brute_force_k_nearest() {
    let p = SimParams::default().with_world_for(3000, 0.04);
    let boids = support::test_state(5, 3000, &p, true);
    let u = StepUniforms::new(&p, 3000, 0, 1, &Default::default());
    for k in [1usize, 4, 7, 16] {
        for i in (0..3000).step_by(37) {
            let pi = boids[i].pos();
            let mut near = Nearest::new(k);
            // Offered in a scrambled order: the result must not depend on it.
            for j in (0..3000).map(|j| (j * 7919) % 3000) {
                if j != i {
                    let d = min_image(boids[j].pos() - pi, &u);
                    if d.dot(d) < u.perception_r2 {
                        near.offer(d, d.dot(d), boids[j].id, j as u32);
                    }
                }
            }
            let got: Vec<u32> = near.selected().iter().map(|x| x.1).collect();
            assert_eq!(got, brute_nearest(&boids, i, k, &u), "boid {i}, k = {k}");
        }
    }
    // Ties go to the smaller id: four boids at the same distance.
    let mut near = Nearest::new(2);
    for id in [9u32, 3, 7, 1] {
        near.offer(glam::Vec2::X, 1.0, id, id);
    }
    assert_eq!(
        near.selected().iter().map(|x| x.1).collect::<Vec<_>>(),
        [1, 3]
    );
}

#[test]
fn the_grid_step_with_a_cap_equals_brute_force() {
    let p = SimParams {
        max_neighbors: 5,
        ..SimParams::default()
    }
    .with_world_for(4000, 0.03);
    let boids = support::test_state(8, 4000, &p, true);
    let mut grid = CpuBackend::from_state(BackendKind::Cpu, &p, boids.clone(), 3).unwrap();
    let mut naive = CpuBackend::from_state(BackendKind::CpuNaive, &p, boids, 3).unwrap();
    grid.step().unwrap();
    naive.step().unwrap();
    support::compare_states(&grid.boids(), &naive.boids(), &p, support::ONE_STEP).unwrap();
    let count = |b: &CpuBackend| {
        let mut v: Vec<(u32, u32)> = b
            .boids()
            .iter()
            .zip(b.neighbor_counts())
            .map(|(x, n)| (x.id, *n))
            .collect();
        v.sort_unstable();
        v
    };
    assert_eq!(count(&grid), count(&naive));
    assert!(grid.neighbor_counts().iter().all(|&n| n <= 5));
}

#[test]
fn a_capped_flock_has_no_direction() {
    // 5000 boids in a 500 × 500 wrapping world, separation only (radius 20), one step: the mean
    // velocity change from the cap (capped − uncapped) is zero within statistical error, over
    // seeds. (The first-k-in-scan-order cap gave about (+0.7, +1.3) wu/s.)
    let base = {
        let mut sp = SimParams {
            world_width: 500.0,
            world_height: 500.0,
            boundary: Boundary::Wrap,
            perception_radius: 20.0,
            separation_radius: 20.0,
            alignment_radius: 0.0,
            cohesion_radius: 0.0,
            hue_radius: 0.0,
            ..SimParams::default()
        };
        sp.models.boids.separation_weight = 1.5;
        sp.models.boids.alignment_weight = 0.0;
        sp.models.boids.cohesion_weight = 0.0;
        sp.models.boids.min_speed = 0.0;
        sp
    };
    let mean_v = |p: &SimParams, seed: u32| {
        let mut s = CpuBackend::new(BackendKind::Cpu, p, 5000, seed).unwrap();
        s.step().unwrap();
        let b = s.boids();
        let n = b.len() as f64;
        let sx: f64 = b.iter().map(|x| x.velocity[0] as f64).sum();
        let sy: f64 = b.iter().map(|x| x.velocity[1] as f64).sum();
        (sx / n, sy / n)
    };
    let capped = SimParams {
        max_neighbors: 4,
        ..base.clone()
    };
    let diffs: Vec<(f64, f64)> = (1..=12)
        .map(|seed| {
            let (a, b) = (mean_v(&capped, seed), mean_v(&base, seed));
            (a.0 - b.0, a.1 - b.1)
        })
        .collect();
    for axis in 0..2 {
        let v: Vec<f64> = diffs
            .iter()
            .map(|d| if axis == 0 { d.0 } else { d.1 })
            .collect();
        let m = v.iter().sum::<f64>() / v.len() as f64;
        let sd = (v.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (v.len() - 1) as f64).sqrt();
        let se = sd / (v.len() as f64).sqrt();
        assert!(
            m.abs() < 3.0 * se + 0.05,
            "axis {axis}: mean change {m:.4} wu/s, standard error {se:.4} ({v:?})"
        );
    }
}
