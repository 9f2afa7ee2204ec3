//! The density profile along the direction of motion (docs/model.md §12.11), held to its limits:
//! a uniform gas gives a flat profile and a first Fourier mode at its value for independent
//! positions; a planted band, wherever it lies and along whichever axis the boids move, comes out
//! centred at the planted density; and a state made by hand gives its exact counts, mirrored when
//! the boids move the other way.

use crate::support::states::{analysis_curve, planted as boid};
use boids::analysis::{Curve, Settings};
use boids::model::rng::uniform01;
use boids::model::{Boid, World};

fn torus(w: f32, h: f32) -> World {
    World {
        width: w,
        height: h,
        wrap: true,
    }
}

fn profile(world: World, side: f64, states: &[Vec<Boid>]) -> Curve {
    let mut s = Settings::new(1.0, states.len() as u64, 1.0, "steps");
    s.box_side = Some(side);
    analysis_curve("density_profile", &s, world, states)
}

fn scalar(c: &Curve, name: &str) -> f64 {
    c.scalars.iter().find(|s| s.0 == name).unwrap().1.unwrap()
}

/// `n` boids moving along `v`: a fraction `in_band` uniform in the band `x0 .. x0 + width` of the
/// axis `axis` (0 x, 1 y), the rest uniform over the world (state `seed`).
fn state(
    world: World,
    n: u32,
    v: [f32; 2],
    band: Option<(usize, f32, f32, f32)>,
    seed: u32,
) -> Vec<Boid> {
    (0..n)
        .map(|i| {
            let mut p = [
                world.width * uniform01(seed, i, 0, 0),
                world.height * uniform01(seed, i, 0, 1),
            ];
            if let Some((axis, x0, width, in_band)) = band {
                if uniform01(seed, i, 0, 2) < in_band {
                    let len = [world.width, world.height][axis];
                    p[axis] = (x0 + width * uniform01(seed, i, 0, 3)).rem_euclid(len);
                }
            }
            boid(i, p, v)
        })
        .collect()
}

#[test]
fn a_uniform_gas_is_flat_and_its_first_mode_is_that_of_independent_positions() {
    let world = torus(200.0, 100.0);
    let n = 20_000;
    let states: Vec<_> = (0..40)
        .map(|k| state(world, n, [1.0, 0.2], None, k))
        .collect();
    let c = profile(world, 5.0, &states);
    assert_eq!(
        c.x.len(),
        40,
        "slabs of 5 wu along x (the mean velocity's axis)"
    );
    let mean = n as f64 / (200.0 * 100.0);
    // Each slab holds 40 · 500 boids on average: a relative Poisson error of 1/√20000 (0.7 %).
    // The centring adds the first mode's own small peak (|ρ̂₁| ~ √N): a few per cent at most.
    for (x, y) in c.x.iter().zip(&c.y) {
        assert!(
            (y / mean - 1.0).abs() < 0.06,
            "a gas's slab at {x} wu: {y} against {mean} 1/wu²"
        );
    }
    // ⟨|ρ̂₁|/N⟩ over 40 states: its mean for independent positions, within 4 standard errors
    // (|ρ̂₁|/N is Rayleigh distributed: relative spread √(4/π − 1) = 0.52 a state).
    let ratio = scalar(&c, "first_mode") / scalar(&c, "first_mode_gas");
    assert!(
        (ratio - 1.0).abs() < 4.0 * 0.52 / 40f64.sqrt(),
        "first mode over the gas's: {ratio}"
    );
}

#[test]
fn a_planted_band_is_found_centred_at_its_density_along_the_axis_of_motion() {
    let world = torus(100.0, 200.0);
    let n = 20_000;
    // Moving along y: half the boids in a band 20 wu thick across y, at a place that moves
    // from state to state (a travelling band).
    let states: Vec<_> = (0..20)
        .map(|k| {
            let y0 = 13.0 + 37.0 * k as f32;
            state(world, n, [0.1, -1.0], Some((1, y0, 20.0, 0.5)), k)
        })
        .collect();
    let c = profile(world, 5.0, &states);
    assert_eq!(c.x.len(), 40, "slabs of 5 wu along y");
    let area = 100.0 * 200.0;
    let gas = 0.5 * n as f64 / area;
    let band = gas + 0.5 * n as f64 / (100.0 * 20.0);
    // The band's four slabs about the centre at the band's density, the gas far from it at its own.
    for (x, y) in c.x.iter().zip(&c.y) {
        let expected = if x.abs() < 10.0 { band } else { gas };
        let tol = if (x.abs() - 10.0).abs() < 5.0 {
            0.25
        } else {
            0.05
        };
        assert!(
            (y / expected - 1.0).abs() < tol,
            "slab at {x} wu: {y} against {expected} 1/wu²"
        );
    }
    let ratio = scalar(&c, "first_mode") / scalar(&c, "first_mode_gas");
    assert!(
        ratio > 50.0,
        "a band's first mode is many times a gas's: {ratio}"
    );
}

#[test]
fn a_state_made_by_hand_gives_its_counts_ahead_of_its_peak_in_the_direction_of_motion() {
    // Four boids along x at 10, 11, 12 and 30 in a 100 × 10 world: the first mode's peak lies
    // at 15.3 wu, which the shift puts at the centre, 50: the three land at 44.7 … 46.7, the
    // fourth at 64.7 — ahead of them when the boids move towards +x. Moving towards −x the
    // profile is mirrored: the three at 53.3 … 55.3, the fourth behind at 35.3.
    let world = torus(100.0, 10.0);
    let made = |vx: f32| -> Vec<Boid> {
        [10.0, 11.0, 12.0, 30.0]
            .iter()
            .enumerate()
            .map(|(i, &x)| boid(i as u32, [x, 5.0], [vx, 0.1]))
            .collect()
    };
    let c = profile(world, 10.0, &[made(1.0)]);
    assert_eq!(c.x[0], -45.0);
    assert_eq!(c.x[9], 45.0);
    assert_eq!(c.samples, [0, 0, 0, 0, 3, 0, 1, 0, 0, 0]);
    assert!((c.y[4] - 3.0 / 100.0).abs() < 1e-12, "{:?}", c.y);
    let back = profile(world, 10.0, &[made(-1.0)]);
    assert_eq!(back.samples, [0, 0, 0, 1, 0, 3, 0, 0, 0, 0]);
}

#[test]
fn a_square_world_pools_the_states_of_both_axes_and_slabs_fill_the_world() {
    // States moving along x and along y in turn: in a square world every one is in the curve.
    let world = torus(90.0, 90.0);
    let states: Vec<_> = (0..6)
        .map(|k| {
            let v = if k % 2 == 0 { [1.0, 0.1] } else { [0.1, -1.0] };
            state(world, 500, v, None, k)
        })
        .collect();
    // Slabs of 90 / ⌊90 / 40⌋ = 45 wu, not 40: the world's side in whole slabs.
    let c = profile(world, 40.0, &states);
    assert_eq!(c.x, [-22.5, 22.5]);
    assert_eq!(c.samples.iter().sum::<u64>(), 6 * 500);
    // A world of other sides: the axis most states moved along (x, 4 of 6).
    let wide = torus(120.0, 90.0);
    let states: Vec<_> = (0..6)
        .map(|k| {
            let v = if k < 4 { [1.0, 0.0] } else { [0.0, 1.0] };
            state(wide, 500, v, None, k)
        })
        .collect();
    let c = profile(wide, 40.0, &states);
    assert_eq!(c.x.len(), 3);
    assert_eq!(c.samples.iter().sum::<u64>(), 4 * 500);
}

#[test]
fn a_walled_world_and_a_state_of_another_world_are_refused() {
    let s = Settings::new(1.0, 1, 1.0, "steps");
    let desc = boids::analysis::by_name("density_profile").unwrap();
    let walls = World {
        width: 100.0,
        height: 100.0,
        wrap: false,
    };
    let e = (desc.make)(&s, walls).err().unwrap().to_string();
    assert!(e.contains("wrapping world"), "{e}");
    let world = torus(100.0, 100.0);
    let mut a = (desc.make)(&s, world).unwrap();
    let other = torus(100.0, 50.0);
    let b = state(other, 10, [1.0, 0.0], None, 0);
    let e = a
        .add(&boids::analysis::Frame {
            boids: &b,
            world: other,
            time: 0.0,
        })
        .err()
        .unwrap()
        .to_string();
    assert!(
        e.contains("not of the same world") && e.contains("100 × 50"),
        "{e}"
    );
}
