//! Spawning boids (docs/model.md §11): the initial flock of a seed ([`initial_state`]), a boid at a
//! given place (the app's add tool, [`spawn_boid_at`]) and the app's start gathered into flocks
//! ([`flocks_state`]), each at the model's spawn speed ([`SimParams::spawn_speeds`]); [`Spawn`]
//! names the two ways a flock starts (a scene's `spawn` key, the app's `--spawn`).

use glam::Vec2;

use crate::model::params::SimParams;
use crate::model::rng::{self, uniform01};
use crate::model::state::Boid;

/// How the initial boids are placed when no state file gives them.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Spawn {
    // Plain words: clap shows these lines in `--help` (the functions are `initial_state` and
    // `flocks_state`, linked in the enum's doc).
    /// Uniform positions, headings and hues.
    Uniform,
    /// A few aligned flocks of similar hue, apart from each other.
    Flocks,
    /// One group at the world's centre: uniform in a disc, random headings and hues.
    Group,
}

impl Spawn {
    /// The `n` boids of `seed` in the world of `params`.
    pub fn boids(self, seed: u32, n: usize, params: &SimParams) -> Vec<Boid> {
        match self {
            Spawn::Uniform => initial_state(seed, n, params),
            Spawn::Flocks => flocks_state(seed, n, params),
            Spawn::Group => group_state(seed, n, params),
        }
    }
}

/// The boid with identifier `id` of the initial flock for `seed`: uniform position in the world,
/// uniform heading, a speed uniform in the model's spawn range ([min_speed, max_speed] for boids,
/// v0 for the Vicsek model, [0, fish_spawn_speed] for fish), uniform hue
/// angle and a hue velocity
/// of at most 20 % of `max_hue_speed` tangent to the hue circle. A pure function of
/// (seed, id, params), so the same seed gives the same flock on every machine, and boids added
/// later (ids n, n+1, …) extend it.
pub fn spawn_boid(seed: u32, id: u32, params: &SimParams) -> Boid {
    let u = |stream| uniform01(seed, id, 0, stream);
    let x = u(rng::STREAM_POS_X) * params.world_width;
    let y = u(rng::STREAM_POS_Y) * params.world_height;
    spawn_boid_at(seed, id, Vec2::new(x, y), params)
}

/// Like [`spawn_boid`] but at a given position (the app's add-boids tool): random heading, speed,
/// pastel hue and small hue velocity from (seed, id).
pub fn spawn_boid_at(seed: u32, id: u32, position: Vec2, params: &SimParams) -> Boid {
    let u = |stream| uniform01(seed, id, 0, stream);
    let heading = u(rng::STREAM_HEADING) * std::f32::consts::TAU;
    // The model's spawn speeds: [min_speed, max_speed] for boids, v0 for Vicsek particles
    // (docs/model.md §11.1).
    let speed = params.spawn_speed(u(rng::STREAM_SPEED));
    let hue = u(rng::STREAM_HUE) * std::f32::consts::TAU;
    let hue_speed = (u(rng::STREAM_HUE_VEL) * 2.0 - 1.0) * 0.2 * params.max_hue_speed;
    let (hs, hc) = hue.sin_cos();
    Boid {
        position: [
            position.x.clamp(0.0, params.world_width * (1.0 - 1e-6)),
            position.y.clamp(0.0, params.world_height * (1.0 - 1e-6)),
        ],
        velocity: [heading.cos() * speed, heading.sin() * speed],
        hue: [hc, hs],
        hue_velocity: [-hs * hue_speed, hc * hue_speed],
        id,
        image: [0; 2],
    }
}

/// The initial flock of `n` boids for `seed` (ids 0..n).
pub fn initial_state(seed: u32, n: usize, params: &SimParams) -> Vec<Boid> {
    (0..n as u32)
        .map(|id| spawn_boid(seed, id, params))
        .collect()
}

/// The radius of the disc of [`group_state`] for `n` boids (wu): 2·s·√(n/π), s the separation
/// radius (the first of the model's rule radii, `SimParams::rule_radii`; Couzin's zone of
/// repulsion; a third of the perception radius for a model without one), so the boids are about
/// 2s apart — in reach of each other's attraction, clear of each other's repulsion — at most
/// 0.45 of the world's smaller side.
pub fn group_radius(n: usize, params: &SimParams) -> f32 {
    let s = params
        .rule_radii()
        .first()
        .map_or(params.perception_radius / 3.0, |&(_, r)| r);
    let r = 2.0 * s * (n as f32 / std::f32::consts::PI).sqrt();
    r.min(0.45 * params.world_width.min(params.world_height))
}

/// One group of `n` boids for `seed` (ids 0..n), as Couzin et al. (2002) start theirs: the boids
/// of [`initial_state`] (their headings, speeds and hues) placed uniformly in a disc of radius
/// [`group_radius`] at the world's centre — boid `id`'s uniform position (x/W, y/H) mapped to
/// polar coordinates (R·√(x/W), 2π·y/H), so the same seed gives the same group on every machine.
pub fn group_state(seed: u32, n: usize, params: &SimParams) -> Vec<Boid> {
    let r = group_radius(n, params);
    let (w, h) = (params.world_width, params.world_height);
    let mut boids = initial_state(seed, n, params);
    for b in &mut boids {
        let (u, t) = (b.position[0] / w, b.position[1] / h);
        let (sn, cs) = (t * std::f32::consts::TAU).sin_cos();
        let rho = r * u.sqrt();
        b.position = [
            (0.5 * w + rho * cs).clamp(0.0, w * (1.0 - 1e-6)),
            (0.5 * h + rho * sn).clamp(0.0, h * (1.0 - 1e-6)),
        ];
    }
    boids
}

/// Makes `boids` an ordered start: every velocity along +x (polarization 1) at the middle of
/// the model's spawn speeds ([`SimParams::spawn_speeds`]): (min_speed + max_speed)/2 for boids,
/// v0 for the Vicsek model, fish_spawn_speed/2 for fish. Positions, hues and ids are kept.
pub fn align_headings(boids: &mut [Boid], params: &SimParams) {
    let (lo, hi) = params.spawn_speeds();
    let speed = 0.5 * (lo + hi);
    for b in boids {
        b.velocity = [speed, 0.0];
    }
}

/// Streams of [`flocks_state`] (after the app's streams of `rng`, 100–102).
const STREAM_FLOCK_OF: u32 = 110;
const STREAM_FLOCK_X: u32 = 111;
const STREAM_FLOCK_Y: u32 = 112;
const STREAM_FLOCK_HEADING: u32 = 113;
const STREAM_FLOCK_HUE: u32 = 114;
const STREAM_IN_FLOCK_R: u32 = 115;
const STREAM_IN_FLOCK_ANGLE: u32 = 116;
const STREAM_IN_FLOCK_TURN: u32 = 117;
const STREAM_IN_FLOCK_HUE: u32 = 118;

/// Mean boid density over a flock's ellipse in [`flocks_state`] (boids/wu²): twice the default
/// density, so the ellipses cover about half of a world sized at the default density (denser
/// starts cost more neighbours per boid in the first steps). The core is 1.8 times denser, the
/// rim thinner. A world more crowded than the default (a fish box, a Vicsek box) gets flocks twice
/// as dense as itself instead, so they still cover about half of it.
pub const FLOCK_DENSITY: f32 = 0.02;

/// Length over width of a flock of [`flocks_state`].
pub const FLOCK_ASPECT: f32 = 1.6;

/// Where a flock of [`flocks_state`] ends, in semi-axes: its normal distribution (0.55 semi-axes)
/// cut at 2.2 σ.
const FLOCK_CUT: f32 = 0.55 * 2.2;

/// The number of flocks [`flocks_state`] makes for `n` boids: about √n / 20, between 3 and 12,
/// and never more than `n`.
pub fn flock_count(n: usize) -> usize {
    ((n as f32).sqrt() / 20.0)
        .round()
        .clamp(3.0, 12.0)
        .min(n as f32) as usize
}

/// The app's default start: `n` boids for `seed` gathered into [`flock_count`] flocks instead of
/// [`initial_state`]'s uniform spray, so a first view shows flocks. The world is cut into a grid
/// of at least as many cells as flocks (as square as the world allows); flock k takes a cell of
/// its own (chosen by the seed) and fills an ellipse [`FLOCK_ASPECT`] times as long as wide along
/// its heading, at [`FLOCK_DENSITY`] on average (twice the world's own density when that is
/// higher; denser where the ellipse would not fit its cell with half a perception radius to spare
/// on every side, so flocks start apart), centred in the cell with a jitter of what the flock and
/// that margin leave free; within it boids are spread as a normal distribution of standard deviation
/// 0.55 × the semi-axes, cut at 2.2 σ, so flocks have a dense core and a soft edge. A boid belongs to the flock its (seed, id) hash picks, heads the flock's way ± 0.35 rad
/// at the model's spawn speed, with the flock's hue ± 0.3 rad and the hue
/// velocity of [`spawn_boid_at`]. Positions outside the world wrap around. A pure function of
/// (seed, n, params), ids 0..n as in [`initial_state`] (which tests and benchmarks keep using).
pub fn flocks_state(seed: u32, n: usize, params: &SimParams) -> Vec<Boid> {
    use std::f32::consts::TAU;
    let k = flock_count(n).max(1);
    let (w, h) = (params.world_width, params.world_height);
    // The grid: cols × rows ≥ k with cells as square as possible.
    let cols = ((k as f32 * w / h).sqrt().round() as usize).clamp(1, k);
    let rows = k.div_ceil(cols);
    let (cw, ch) = (w / cols as f32, h / rows as f32);
    // The cells in an order drawn from the seed (sorting by hash).
    let mut cells: Vec<usize> = (0..cols * rows).collect();
    cells.sort_by_key(|&c| rng::hash4(seed, c as u32, 0, STREAM_FLOCK_OF));
    let per_flock = n as f32 / k as f32;
    // Twice the world's density where it is crowded (at the default density: FLOCK_DENSITY).
    let crowded = 2.0 * n as f32 / (w * h);
    let density = if crowded > FLOCK_DENSITY * 1.01 {
        crowded
    } else {
        FLOCK_DENSITY
    };
    // Ellipse of area per_flock / density with semi-axes a = FLOCK_ASPECT · b, shrunk where
    // needed so that the flock, cut at FLOCK_CUT semi-axes, fits its cell with half a perception
    // radius to spare on every side: flocks start apart, separate components of the neighbour
    // graph (the census counts them as flocks).
    let b = (per_flock / density / (FLOCK_ASPECT * std::f32::consts::PI)).sqrt();
    let a = FLOCK_ASPECT * b;
    let fit = (0.5 * (cw.min(ch) - params.perception_radius) / FLOCK_CUT).max(0.0);
    let shrink = if a > fit && fit > 0.0 { fit / a } else { 1.0 };
    let (a, b) = (a * shrink, b * shrink);
    // Room for the centre's jitter: what the cut flock and the gap leave of the cell.
    let reach = FLOCK_CUT * a + 0.5 * params.perception_radius;
    let flocks: Vec<(Vec2, f32, f32)> = (0..k as u32)
        .map(|f| {
            let u = |stream| uniform01(seed, f, 0, stream);
            let cell = cells[f as usize];
            let (i, j) = ((cell % cols) as f32, (cell / cols) as f32);
            let free = |side: f32| (side - 2.0 * reach).max(0.0);
            let centre = Vec2::new(
                (i + 0.5) * cw + (u(STREAM_FLOCK_X) - 0.5) * free(cw),
                (j + 0.5) * ch + (u(STREAM_FLOCK_Y) - 0.5) * free(ch),
            );
            (
                centre,
                u(STREAM_FLOCK_HEADING) * TAU,
                u(STREAM_FLOCK_HUE) * TAU,
            )
        })
        .collect();
    (0..n as u32)
        .map(|id| {
            let u = |stream| uniform01(seed, id, 0, stream);
            let f = ((u(STREAM_FLOCK_OF) * k as f32) as usize).min(k - 1);
            let (centre, heading, hue) = flocks[f];
            let (s, c) = heading.sin_cos();
            // Rayleigh radius of a normal distribution cut at 2.2 σ (inverse CDF), in σ units.
            let cut = 1.0 - (-0.5f32 * 2.2 * 2.2).exp();
            let r = ((-2.0 * (1.0 - u(STREAM_IN_FLOCK_R) * cut).ln()).sqrt() * 0.55).min(FLOCK_CUT);
            let t = u(STREAM_IN_FLOCK_ANGLE) * TAU;
            let local = Vec2::new(a * r * t.cos(), b * r * t.sin());
            let p = centre + Vec2::new(local.x * c - local.y * s, local.x * s + local.y * c);
            let p = Vec2::new(p.x.rem_euclid(w), p.y.rem_euclid(h));
            let mut boid = spawn_boid_at(seed, id, p, params);
            let dir = heading + (u(STREAM_IN_FLOCK_TURN) * 2.0 - 1.0) * 0.35;
            let speed = boid.vel().length();
            boid.velocity = [dir.cos() * speed, dir.sin() * speed];
            let hue = hue + (u(STREAM_IN_FLOCK_HUE) * 2.0 - 1.0) * 0.3;
            // The signed hue speed of spawn_boid_at: the hue velocity along the circle's tangent.
            let [oc, os] = boid.hue;
            let hv = -boid.hue_velocity[0] * os + boid.hue_velocity[1] * oc;
            let (hs, hc) = hue.sin_cos();
            boid.hue = [hc, hs];
            boid.hue_velocity = [-hs * hv, hc * hv];
            boid
        })
        .collect()
}

#[cfg(test)]
mod flocks_tests {
    use super::*;

    #[test]
    fn flocks_are_inside_the_world_with_unique_ids_and_valid_speeds() {
        let p = SimParams::default().with_world_for_aspect(20_000, 0.01, 16.0 / 9.0);
        let boids = flocks_state(1, 20_000, &p);
        assert_eq!(boids.len(), 20_000);
        for (i, b) in boids.iter().enumerate() {
            assert_eq!(b.id, i as u32);
            assert!(b.is_finite());
            assert!((0.0..p.world_width).contains(&b.position[0]), "{b:?}");
            assert!((0.0..p.world_height).contains(&b.position[1]), "{b:?}");
            let v = b.vel().length();
            assert!(
                v >= p.models.boids.min_speed - 1e-3 && v <= p.models.boids.max_speed + 1e-3,
                "{v}"
            );
            assert!((b.hue_vec().length() - 1.0).abs() < 1e-4);
        }
        assert_eq!(flocks_state(1, 20_000, &p), boids, "a pure function");
        assert_ne!(flocks_state(2, 20_000, &p), boids);
    }

    /// The boids are gathered: on a 16 × 9 grid of the world the fullest quarter of the cells
    /// holds most boids (a uniform spray: about a quarter), and each flock heads one way
    /// (polarization of each flock ≈ 0.98; of a uniform spray ≈ 0).
    #[test]
    fn boids_are_gathered_into_aligned_flocks() {
        let p = SimParams::default().with_world_for_aspect(20_000, 0.01, 16.0 / 9.0);
        let fullest_quarter = |boids: &[Boid]| {
            let mut hist = [0u32; 16 * 9];
            for b in boids {
                let i = (b.position[0] / p.world_width * 16.0) as usize;
                let j = (b.position[1] / p.world_height * 9.0) as usize;
                hist[j * 16 + i] += 1;
            }
            hist.sort_unstable_by(|a, b| b.cmp(a));
            hist[..16 * 9 / 4].iter().sum::<u32>() as f32 / boids.len() as f32
        };
        let flocks = flocks_state(1, 20_000, &p);
        let uniform = initial_state(1, 20_000, &p);
        assert!(
            fullest_quarter(&uniform) < 0.3,
            "{}",
            fullest_quarter(&uniform)
        );
        assert!(
            fullest_quarter(&flocks) > 0.5,
            "{}",
            fullest_quarter(&flocks)
        );
        let k = flock_count(20_000);
        assert_eq!(k, 7);
        let polar = |boids: &[Boid]| {
            let s: Vec2 = boids.iter().map(|b| b.vel().normalize()).sum();
            s.length() / boids.len() as f32
        };
        assert!(polar(&uniform) < 0.05);
        // The first flock's boids: those nearest flock 0's heading, by their own hash.
        let of =
            |b: &Boid| ((uniform01(1, b.id, 0, STREAM_FLOCK_OF) * k as f32) as usize).min(k - 1);
        for f in 0..k {
            let members: Vec<Boid> = flocks.iter().filter(|b| of(b) == f).copied().collect();
            assert!(members.len() > 2000, "flock {f}: {}", members.len());
            assert!(polar(&members) > 0.95, "flock {f}: {}", polar(&members));
        }
        // The flocks start apart: the census (boids linked within r_p) finds each of them, each
        // aligned, in this world and in the app's 1280 × 720 and 960 × 540 windows at 20 000 and
        // 100 000 boids.
        for (n, aspect) in [(20_000, 16.0 / 9.0), (20_000, 1.6), (100_000, 16.0 / 9.0)] {
            let p = SimParams::default().with_world_for_aspect(n, 0.01, aspect);
            let world = crate::model::World {
                width: p.world_width,
                height: p.world_height,
                wrap: true,
            };
            let c =
                crate::model::flock_census(&flocks_state(1, n, &p), p.perception_radius, world, 10);
            assert_eq!(c.flocks as usize, flock_count(n), "{n} boids: {c:?}");
            assert!(c.polarization > 0.95, "{n} boids: {c:?}");
        }
    }

    /// In a world denser than the default (the fish box: 500 fish in 100 × 100 wu) the flocks
    /// still gather: on a 10 × 10 grid the fullest quarter of the cells holds most fish (a
    /// uniform spray: about a third).
    #[test]
    fn crowded_worlds_get_denser_flocks() {
        let mut p = SimParams::default();
        (p.world_width, p.world_height) = (100.0, 100.0);
        let fullest_quarter = |boids: &[Boid]| {
            let mut hist = [0u32; 100];
            for b in boids {
                let i = (b.position[0] / 10.0) as usize;
                let j = (b.position[1] / 10.0) as usize;
                hist[j * 10 + i] += 1;
            }
            hist.sort_unstable_by(|a, b| b.cmp(a));
            hist[..25].iter().sum::<u32>() as f32 / boids.len() as f32
        };
        let flocks = fullest_quarter(&flocks_state(2, 500, &p));
        let uniform = fullest_quarter(&initial_state(2, 500, &p));
        assert!(uniform < 0.4, "{uniform}");
        assert!(flocks > 0.6, "{flocks}");
    }

    #[test]
    fn small_counts_and_small_worlds() {
        assert_eq!(flock_count(1), 1);
        assert_eq!(flock_count(2), 2);
        assert_eq!(flock_count(1000), 3);
        assert_eq!(flock_count(100_000), 12);
        let p = SimParams::default().with_world_for(1, 0.01);
        let b = flocks_state(3, 1, &p);
        assert_eq!(b.len(), 1);
        assert!(b[0].position[0] < p.world_width && b[0].position[1] < p.world_height);
    }
}
