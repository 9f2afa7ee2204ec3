//! Numerics never produce NaN or infinity, the hue rule takes the short way round the circle, and
//! the boundary modes keep boids inside the world.

use boids::backend::{BackendKind, Simulation};
use boids::cpu::CpuBackend;
use boids::model::{Boid, Boundary, SimParams};

fn boid(id: u32, p: [f32; 2], v: [f32; 2], hue_deg: f32) -> Boid {
    let a = hue_deg.to_radians();
    Boid {
        position: p,
        velocity: v,
        hue: [a.cos(), a.sin()],
        hue_velocity: [0.0, 0.0],
        id,
        image: [0; 2],
    }
}

fn run(p: &SimParams, boids: Vec<Boid>, steps: usize) -> Vec<Boid> {
    let mut sim = CpuBackend::from_state(BackendKind::Cpu, p, boids, 1).unwrap();
    for _ in 0..steps {
        sim.step().unwrap();
    }
    let mut s = sim.read_state().unwrap();
    s.sort_by_key(|b| b.id);
    s
}

fn assert_finite(s: &[Boid]) {
    for b in s {
        assert!(b.is_finite(), "not finite: {b:?}");
    }
}

#[test]
fn coincident_boids_with_zero_velocity() {
    let p = SimParams::default();
    let s = run(
        &p,
        vec![
            boid(0, [50.0, 50.0], [0.0, 0.0], 0.0),
            boid(1, [50.0, 50.0], [0.0, 0.0], 90.0),
        ],
        10,
    );
    assert_finite(&s);
    for b in &s {
        let speed = (b.velocity[0].powi(2) + b.velocity[1].powi(2)).sqrt();
        assert!(
            speed >= p.models.boids.min_speed * 0.999,
            "a stopped boid gets min_speed along a fixed heading"
        );
    }
}

#[test]
fn zero_velocity_and_no_neighbours() {
    let p = SimParams::default();
    let s = run(&p, vec![boid(0, [500.0, 500.0], [0.0, 0.0], 0.0)], 5);
    assert_finite(&s);
}

#[test]
fn stopped_boid_keeps_previous_heading() {
    // min_speed 0: a boid slowed to ~0 keeps the heading it had (no NaN from normalising 0).
    let p = {
        let mut sp = SimParams {
            ..SimParams::default()
        };
        sp.models.boids.min_speed = 0.0;
        sp
    };
    // Heading 30° with a speed far below the "stopped" threshold (|v|² < 1e-12).
    let (sn, cs) = 30f32.to_radians().sin_cos();
    let v = [cs * 1e-9, sn * 1e-9];
    let s = run(&p, vec![boid(0, [500.0, 500.0], v, 0.0)], 3);
    assert_finite(&s);
    let [vx, vy] = s[0].velocity;
    let speed = (vx * vx + vy * vy).sqrt();
    if speed > 0.0 {
        let heading = vy.atan2(vx).to_degrees();
        assert!(
            (heading - 30.0).abs() < 1e-3,
            "heading {heading}°, expected 30°"
        );
    }
    // With a minimum speed the stopped boid restarts along its previous heading.
    let q = {
        let mut sp = SimParams {
            ..SimParams::default()
        };
        sp.models.boids.min_speed = 5.0;
        sp
    };
    let s = run(&q, vec![boid(0, [500.0, 500.0], v, 0.0)], 1);
    let [vx, vy] = s[0].velocity;
    let heading = vy.atan2(vx).to_degrees();
    assert!(
        (heading - 30.0).abs() < 1e-3,
        "heading {heading}°, expected 30°"
    );
    assert!(((vx * vx + vy * vy).sqrt() - 5.0).abs() < 1e-4);
}

#[test]
fn hue_vectors_that_sum_to_zero() {
    let p = SimParams::default();
    let s = run(
        &p,
        vec![
            boid(0, [100.0, 100.0], [50.0, 0.0], 0.0),
            boid(1, [103.0, 100.0], [50.0, 0.0], 120.0),
            boid(2, [100.0, 103.0], [50.0, 0.0], 240.0),
            boid(3, [101.0, 101.0], [50.0, 0.0], 0.0),
        ],
        20,
    );
    assert_finite(&s);
    for b in &s {
        let l = (b.hue[0].powi(2) + b.hue[1].powi(2)).sqrt();
        assert!((l - 1.0).abs() < 1e-4, "hue stays a unit vector, got {l}");
    }
}

#[test]
fn hue_takes_the_short_way_across_zero() {
    // Neighbours at 350° and 10° pull a 5° boid towards 0°, not towards 180°.
    let p = SimParams {
        hue_cohesion_weight: 5.0,
        hue_alignment_weight: 0.0,
        max_hue_speed: 2.0,
        ..SimParams::default()
    };
    let mut s = vec![
        boid(0, [100.0, 100.0], [50.0, 0.0], 5.0),
        boid(1, [104.0, 100.0], [50.0, 0.0], 350.0),
        boid(2, [100.0, 104.0], [50.0, 0.0], 10.0),
    ];
    let start = s[0].hue_degrees();
    s = run(&p, s, 30);
    let end = s[0].hue_degrees();
    let dist0 = |d: f32| d.min(360.0 - d);
    assert!(
        dist0(end) < dist0(start),
        "hue moved from {start}° to {end}°, away from 0°"
    );
    assert!(dist0(end) < 90.0);
}

#[test]
fn wrap_cohesion_pulls_the_short_way() {
    // Two boids either side of the seam x = 0 / x = W: cohesion pulls each across the seam.
    let p = {
        let mut sp = SimParams {
            rotational_diffusion: 0.0,
            ..SimParams::default()
        };
        sp.models.boids.separation_weight = 0.0;
        sp.models.boids.alignment_weight = 0.0;
        sp.models.boids.cohesion_weight = 1.0;
        sp.models.boids.min_speed = 0.0;
        sp
    };
    let w = p.world_width;
    let s = run(
        &p,
        vec![
            boid(0, [2.0, 500.0], [0.0, 10.0], 0.0),
            boid(1, [w - 2.0, 500.0], [0.0, 10.0], 0.0),
        ],
        1,
    );
    assert!(
        s[0].velocity[0] < 0.0,
        "boid at x=2 should head to −x (towards x=W−2 across the seam): {:?}",
        s[0]
    );
    assert!(
        s[1].velocity[0] > 0.0,
        "boid at x=W−2 should head to +x: {:?}",
        s[1]
    );
}

#[test]
fn wrap_brings_a_boid_back_inside() {
    let p = SimParams::default();
    let (w, h) = (p.world_width, p.world_height);
    let e = 1e-3;
    let s = run(
        &p,
        vec![boid(
            0,
            [w - e, h - e],
            [
                p.models.boids.max_speed * 0.7,
                p.models.boids.max_speed * 0.7,
            ],
            0.0,
        )],
        1,
    );
    let b = s[0].position;
    assert!(b[0] >= 0.0 && b[0] < w && b[1] >= 0.0 && b[1] < h, "{b:?}");
    assert!(
        b[0] < 10.0 && b[1] < 10.0,
        "it wraps to the opposite corner: {b:?}"
    );
}

#[test]
fn walls_never_let_a_boid_out() {
    let p = SimParams {
        boundary: Boundary::Walls,
        world_width: 200.0,
        world_height: 150.0,
        ..SimParams::default()
    };
    let e = 1e-3;
    let m = p.models.boids.max_speed;
    let boids = vec![
        boid(0, [e, 75.0], [-m, 0.0], 0.0),
        boid(1, [200.0 - e, 75.0], [m, 0.0], 0.0),
        boid(2, [100.0, e], [0.0, -m], 0.0),
        boid(3, [100.0, 150.0 - e], [0.0, m], 0.0),
        boid(4, [e, e], [-m * 0.7, -m * 0.7], 0.0),
    ];
    let mut sim = CpuBackend::from_state(BackendKind::Cpu, &p, boids, 1).unwrap();
    for step in 0..1000 {
        sim.step().unwrap();
        for b in sim.boids() {
            let q = b.position;
            assert!(
                q[0] >= 0.0 && q[0] < p.world_width && q[1] >= 0.0 && q[1] < p.world_height,
                "step {step}: boid {} outside: {q:?}",
                b.id
            );
        }
    }
}

#[test]
fn bounce_reflects_velocity() {
    let p = SimParams {
        boundary: Boundary::Bounce,
        ..SimParams::default()
    };
    let s = run(
        &p,
        vec![boid(0, [0.5, 500.0], [-p.models.boids.max_speed, 0.0], 0.0)],
        1,
    );
    assert!(s[0].velocity[0] > 0.0, "{:?}", s[0]);
    assert!(s[0].position[0] >= 0.0);
}
