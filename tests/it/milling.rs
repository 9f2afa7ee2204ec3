//! Milling in a wrap world is measured about the periodic centre (docs/model.md §12.2): a mill
//! centred on the seam measures as one in the middle, on the CPU and the GPU backends; a world that
//! does not wrap keeps the plain mean.

use crate::support;
use boids::backend::{BackendKind, Simulation};
use boids::cpu::CpuBackend;
use boids::gpu::GpuBackend;
use boids::model::{Boid, Boundary, SimParams};

/// `n` boids on a circle of radius `r` around `centre` (positions modulo the world), each flying
/// along the circle counter-clockwise at 50 wu/s.
fn ring(n: u32, r: f32, centre: [f32; 2], p: &SimParams) -> Vec<Boid> {
    (0..n)
        .map(|i| {
            let a = i as f32 / n as f32 * std::f32::consts::TAU;
            let (s, c) = a.sin_cos();
            let wrap = |x: f32, len: f32| {
                let x = x.rem_euclid(len);
                if x < len {
                    x
                } else {
                    0.0
                }
            };
            Boid {
                position: [
                    wrap(centre[0] + r * c, p.world_width),
                    wrap(centre[1] + r * s, p.world_height),
                ],
                velocity: [-50.0 * s, 50.0 * c],
                hue: [1.0, 0.0],
                hue_velocity: [0.0, 0.0],
                id: i,
                image: [0; 2],
            }
        })
        .collect()
}

fn params(boundary: Boundary) -> SimParams {
    SimParams {
        world_width: 1000.0,
        world_height: 600.0,
        boundary,
        ..SimParams::default()
    }
}

/// Ring centres: the middle, on the vertical seam, on the horizontal seam, on the corner.
const CENTRES: [[f32; 2]; 4] = [[500.0, 300.0], [0.0, 300.0], [500.0, 0.0], [995.0, 598.0]];

/// Milling of the ring around each of [`CENTRES`], measured by `measure`.
fn millings(p: &SimParams, mut measure: impl FnMut(&[Boid]) -> f64) -> Vec<f64> {
    CENTRES
        .iter()
        .map(|c| measure(&ring(500, 120.0, *c, p)))
        .collect()
}

fn cpu_milling(p: &SimParams, boids: &[Boid]) -> f64 {
    let mut sim = CpuBackend::from_state(BackendKind::Cpu, p, boids.to_vec(), 1).unwrap();
    sim.measures().unwrap().milling()
}

#[test]
fn a_mill_on_the_seam_measures_as_one_in_the_middle_on_the_cpu() {
    let p = params(Boundary::Wrap);
    let m = millings(&p, |b| cpu_milling(&p, b));
    assert!(m.iter().all(|&x| x > 0.99), "{m:?}");
}

#[test]
fn a_world_that_does_not_wrap_measures_about_the_plain_mean() {
    // The same positions in a walled world: the plain mean of a ring cut by the edges lies away
    // from its centre, so only the ring in the middle mills as one.
    let p = params(Boundary::Walls);
    let m = millings(&p, |b| cpu_milling(&p, b));
    assert!(m[0] > 0.99, "{m:?}");
    assert!(m[1..].iter().all(|&x| x < 0.9), "{m:?}");
}

#[test]
fn a_mill_on_the_seam_measures_as_one_in_the_middle_on_the_gpu() {
    let Some(ctx) = support::gpu() else { return };
    for boundary in [Boundary::Wrap, Boundary::Walls] {
        let p = params(boundary);
        let gpu = support::checked(&ctx, || {
            millings(&p, |b| {
                let mut sim = GpuBackend::from_state(&ctx, &p, b, 1).unwrap();
                sim.measures().unwrap().milling()
            })
        });
        let cpu = millings(&p, |b| cpu_milling(&p, b));
        for (g, c) in gpu.iter().zip(&cpu) {
            assert!(
                (g - c).abs() < 1e-4,
                "{boundary:?}: GPU {gpu:?}, CPU {cpu:?}"
            );
        }
        if boundary == Boundary::Wrap {
            assert!(gpu.iter().all(|&x| x > 0.99), "{gpu:?}");
        }
    }
}
