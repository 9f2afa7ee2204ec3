//! `integrate_lanes` (8 boids at once, used by the CPU `rules` twin) is the scalar `integrate` of
//! each boid bit for bit, on random and extreme inputs in every boundary mode, with and without
//! rotational diffusion, obstacles and walls; the branches of `integrate` are all taken.

use boids::cpu::gather_simd::SumsLanes;
use boids::cpu::integrate_simd::{integrate_lanes, lanes_apply, LANES};
use boids::model::models::boids::next_state as integrate;
use boids::model::models::ModelUniforms;
use boids::model::rules::{NeighborSums, ObstacleSums};
use boids::model::{Boid, Boundary, Interaction, SimParams, StepUniforms};
use glam::Vec2;

/// xorshift64*: a small deterministic generator for test inputs.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    /// Uniform in [0, 1).
    fn f(&mut self) -> f32 {
        (self.next() >> 40) as f32 / (1u64 << 24) as f32
    }
    fn range(&mut self, a: f32, b: f32) -> f32 {
        a + (b - a) * self.f()
    }
    fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[(self.next() % xs.len() as u64) as usize]
    }
}

/// A value of a kind `integrate` treats specially now and then: zero, tiny, huge, or ordinary.
fn component(r: &mut Rng, scale: f32) -> f32 {
    match r.next() % 10 {
        0 => 0.0,
        1 => r.range(-1e-7, 1e-7),
        2 => r.range(-1e4, 1e4) * scale,
        _ => r.range(-1.0, 1.0) * scale,
    }
}

fn vec(r: &mut Rng, scale: f32) -> Vec2 {
    Vec2::new(component(r, scale), component(r, scale))
}

/// Which branches the inputs took (so the test cannot silently miss one).
#[derive(Default, Debug)]
struct Seen {
    bounce: usize,
    stopped: usize,
    no_alignment: usize,
    no_hue: usize,
    outside: usize,
}

fn boid(r: &mut Rng, p: &SimParams, id: u32, seen: &mut Seen) -> Boid {
    let (w, h) = (p.world_width, p.world_height);
    let position = match r.next() % 6 {
        0 => [r.range(0.0, 3.0), r.range(0.0, h)],
        1 => [w - r.range(0.0, 3.0), h - r.range(0.0, 3.0)],
        2 => [r.pick(&[0.0, w - 1e-3, w * 0.5]), r.pick(&[0.0, h - 1e-3])],
        _ => [r.range(0.0, w), r.range(0.0, h)],
    };
    let velocity = match r.next() % 8 {
        0 => [0.0, 0.0],
        1 => [r.range(-1e-7, 1e-7), 0.0],
        2 => {
            // Fast enough to leave the world in one step (boundary handling, clamps).
            seen.outside += 1;
            [r.range(-1.0, 1.0) * 5e4, r.range(-1.0, 1.0) * 5e4]
        }
        _ => {
            let a = r.range(0.0, std::f32::consts::TAU);
            let s = r.range(0.0, 1.5 * p.models.boids.max_speed);
            [s * a.cos(), s * a.sin()]
        }
    };
    let ha = r.range(0.0, std::f32::consts::TAU);
    let hue = if r.next().is_multiple_of(13) {
        [0.0, 0.0]
    } else {
        [ha.cos(), ha.sin()]
    };
    let hv = vec(r, 2.0);
    Boid {
        position,
        velocity,
        hue,
        hue_velocity: [hv.x, hv.y],
        id,
        image: [0; 2],
    }
}

fn sums(r: &mut Rng, seen: &mut Seen) -> NeighborSums {
    let n = |r: &mut Rng| r.pick(&[0u32, 0, 1, 2, 7, 40]);
    let (an, cn, hn) = (n(r), n(r), n(r));
    seen.no_alignment += (an == 0) as usize;
    seen.no_hue += (hn == 0) as usize;
    NeighborSums {
        separation: vec(r, 50.0),
        alignment: vec(r, 100.0 * an.max(1) as f32),
        alignment_n: an,
        cohesion: vec(r, 20.0 * cn.max(1) as f32),
        cohesion_n: cn,
        hue: vec(r, hn.max(1) as f32),
        hue_velocity: vec(r, 2.0 * hn.max(1) as f32),
        hue_n: hn,
        neighbors: an.max(cn).max(hn),
    }
}

fn obstacles(r: &mut Rng, b: &Boid, seen: &mut Seen) -> ObstacleSums {
    match r.next() % 5 {
        0 => {
            let a = r.range(0.0, std::f32::consts::TAU);
            let normal = Vec2::new(a.cos(), a.sin());
            let v = Vec2::from(b.velocity);
            seen.bounce += (v.dot(normal) < 0.0) as usize;
            ObstacleSums {
                push: vec(r, 1.0),
                bounce_normal: normal,
                bounce_d2: 1.0,
            }
        }
        1 => ObstacleSums {
            push: vec(r, 1.0),
            bounce_normal: Vec2::ZERO,
            bounce_d2: 36.0,
        },
        _ => ObstacleSums {
            push: Vec2::ZERO,
            bounce_normal: Vec2::ZERO,
            bounce_d2: 36.0,
        },
    }
}

/// `integrate_lanes` compiled for AVX2.
///
/// # Safety
/// The CPU must have AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[allow(clippy::too_many_arguments)]
unsafe fn integrate_avx2(
    pv: &[[f32; 4]; LANES],
    hue: &[[f32; 4]; LANES],
    id: &[u32; LANES],
    s: &SumsLanes,
    ob: Option<&[ObstacleSums; LANES]>,
    u: &StepUniforms,
    m: &ModelUniforms,
    out: (&mut [[f32; 4]], &mut [[f32; 4]]),
) {
    integrate_lanes(pv, hue, id, s, ob, u, m, out)
}

/// `integrate_lanes` compiled for AVX-512 (as the CPU `rules` runs it there).
///
/// # Safety
/// The CPU must have AVX-512F, AVX-512VL and AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512vl,avx2")]
#[allow(clippy::too_many_arguments)]
unsafe fn integrate_avx512(
    pv: &[[f32; 4]; LANES],
    hue: &[[f32; 4]; LANES],
    id: &[u32; LANES],
    s: &SumsLanes,
    ob: Option<&[ObstacleSums; LANES]>,
    u: &StepUniforms,
    m: &ModelUniforms,
    out: (&mut [[f32; 4]], &mut [[f32; 4]]),
) {
    integrate_lanes(pv, hue, id, s, ob, u, m, out)
}

fn bits(b: &[f32; 4]) -> [u32; 4] {
    b.map(f32::to_bits)
}

/// Groups of 8 random boids through `integrate_lanes` and `integrate`: the same bits. Returns the
/// branches taken.
fn check(p: &SimParams, seed: u64, groups: usize) -> Seen {
    let mut r = Rng(seed | 1);
    let mut seen = Seen::default();
    #[cfg(target_arch = "x86_64")]
    for (name, has) in [
        ("AVX2", std::is_x86_feature_detected!("avx2")),
        (
            "AVX-512",
            std::is_x86_feature_detected!("avx512f") && std::is_x86_feature_detected!("avx512vl"),
        ),
    ] {
        if has {
            eprintln!("the {name} build of integrate_lanes: checked");
        } else {
            eprintln!("SKIPPED the {name} build of integrate_lanes: this CPU lacks it");
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    eprintln!("SKIPPED the AVX2 and AVX-512 builds of integrate_lanes: not an x86-64 CPU");
    for step in 0..groups as u32 {
        let u = StepUniforms::new(p, 1000, step, 7, &Interaction::with_obstacle_defaults());
        let m = p.model_uniforms();
        assert!(lanes_apply(&u));
        let me: [Boid; LANES] =
            std::array::from_fn(|i| boid(&mut r, p, step * 8 + i as u32, &mut seen));
        let s: [NeighborSums; LANES] = std::array::from_fn(|_| sums(&mut r, &mut seen));
        // A third of the groups meet no obstacle: the lanes then take no obstacle sums at all.
        let clear = step % 3 == 0;
        let ob: [ObstacleSums; LANES] = std::array::from_fn(|i| {
            if clear {
                ObstacleSums::empty(&u)
            } else {
                obstacles(&mut r, &me[i], &mut seen)
            }
        });
        let obs = if clear { None } else { Some(&ob) };
        let mut lanes = SumsLanes::default();
        for (l, x) in s.iter().enumerate() {
            lanes.lane(l).set(x);
            assert_eq!(lanes.get(l), *x, "a lane holds the sums it was given");
        }
        let pv = me.map(|b| b.pos_vel());
        let hue = me.map(|b| b.hue_parts());
        let id = me.map(|b| b.id);
        let (mut out_pv, mut out_hue) = ([[0.0f32; 4]; LANES], [[0.0f32; 4]; LANES]);
        integrate_lanes(
            &pv,
            &hue,
            &id,
            &lanes,
            obs,
            &u,
            &m,
            (&mut out_pv, &mut out_hue),
        );
        // The same function compiled for AVX2 (as the CPU `rules` runs it there): the same bits.
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("avx2") {
            let (mut a_pv, mut a_hue) = ([[0.0f32; 4]; LANES], [[0.0f32; 4]; LANES]);
            // SAFETY: the CPU has AVX2 (checked just above).
            unsafe { integrate_avx2(&pv, &hue, &id, &lanes, obs, &u, &m, (&mut a_pv, &mut a_hue)) };
            assert_eq!(
                (a_pv.map(|x| bits(&x)), a_hue.map(|x| bits(&x))),
                (out_pv.map(|x| bits(&x)), out_hue.map(|x| bits(&x))),
                "the AVX2 build of integrate_lanes differs (group {step})"
            );
        }
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("avx512f") && std::is_x86_feature_detected!("avx512vl") {
            let (mut a_pv, mut a_hue) = ([[0.0f32; 4]; LANES], [[0.0f32; 4]; LANES]);
            // SAFETY: the CPU has AVX-512F, AVX-512VL (checked just above) and so AVX2.
            unsafe {
                integrate_avx512(&pv, &hue, &id, &lanes, obs, &u, &m, (&mut a_pv, &mut a_hue))
            };
            assert_eq!(
                (a_pv.map(|x| bits(&x)), a_hue.map(|x| bits(&x))),
                (out_pv.map(|x| bits(&x)), out_hue.map(|x| bits(&x))),
                "the AVX-512 build of integrate_lanes differs (group {step})"
            );
        }
        if clear {
            // No obstacle sums and empty ones: the same step.
            let (mut e_pv, mut e_hue) = ([[0.0f32; 4]; LANES], [[0.0f32; 4]; LANES]);
            integrate_lanes(
                &pv,
                &hue,
                &id,
                &lanes,
                Some(&ob),
                &u,
                &m,
                (&mut e_pv, &mut e_hue),
            );
            assert_eq!(
                (e_pv.map(|x| bits(&x)), e_hue.map(|x| bits(&x))),
                (out_pv.map(|x| bits(&x)), out_hue.map(|x| bits(&x))),
                "empty obstacle sums differ from none (group {step})"
            );
        }
        for i in 0..LANES {
            let want = integrate(&me[i], &s[i], &ob[i], Vec2::ZERO, &u, &m);
            seen.stopped += (Vec2::from(want.velocity).length()
                <= p.models.boids.min_speed * 1.0001
                && Vec2::from(me[i].velocity).length_squared() < 1e-12)
                as usize;
            assert_eq!(
                (bits(&out_pv[i]), bits(&out_hue[i])),
                (bits(&want.pos_vel()), bits(&want.hue_parts())),
                "{:?}: lane {i} of group {step}\n  boid {:?}\n  sums {:?}\n  obstacles {:?}\n  \
                 lanes {:?} {:?}\n  scalar {:?}",
                p.boundary,
                me[i],
                s[i],
                ob[i],
                out_pv[i],
                out_hue[i],
                want
            );
        }
    }
    seen
}

#[test]
fn integrate_lanes_is_the_scalar_integrate_bit_for_bit() {
    for (k, boundary) in [Boundary::Wrap, Boundary::Walls, Boundary::Bounce]
        .into_iter()
        .enumerate()
    {
        for diffusion in [0.0, 0.8] {
            let p = SimParams {
                boundary,
                rotational_diffusion: diffusion,
                world_width: 300.0,
                world_height: 200.0,
                ..SimParams::default()
            };
            let seen = check(
                &p,
                0x9e37_79b9 + k as u64 * 31 + (diffusion * 10.0) as u64,
                3000,
            );
            eprintln!("{boundary:?}, D_r {diffusion}: {seen:?}");
            assert!(
                seen.bounce > 100
                    && seen.stopped > 10
                    && seen.no_alignment > 100
                    && seen.no_hue > 100
                    && seen.outside > 100,
                "every branch is taken: {seen:?}"
            );
        }
    }
}

#[test]
fn integrate_lanes_with_other_weights_and_speeds() {
    // No minimum speed, strong forces, zero walls, a slow hue: other sides of the clamps.
    let p = {
        let mut sp = SimParams {
            boundary: Boundary::Walls,
            wall_distance: 0.0,
            max_hue_speed: 0.05,
            ..SimParams::default()
        };
        sp.models.boids.min_speed = 0.0;
        sp.models.boids.max_force = 1e4;
        sp
    };
    check(&p, 12345, 2000);
    let p = {
        let mut sp = SimParams {
            ..SimParams::default()
        };
        sp.models.boids.max_speed = 5.0;
        sp.models.boids.min_speed = 5.0;
        sp.models.boids.separation_weight = 0.0;
        sp
    };
    check(&p, 777, 2000);
}

#[test]
fn the_pointer_tool_leaves_the_lanes_to_the_scalar_integrate() {
    let p = SimParams::default();
    let ia = Interaction {
        pointer: [10.0, 10.0],
        pointer_radius: 50.0,
        pointer_weight: 2.0,
        ..Interaction::with_obstacle_defaults()
    };
    let u = StepUniforms::new(&p, 10, 0, 1, &ia);
    assert!(!lanes_apply(&u));
    let off = StepUniforms::new(&p, 10, 0, 1, &Interaction::with_obstacle_defaults());
    assert!(lanes_apply(&off));
}
