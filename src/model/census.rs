//! The flock census (docs/model.md §12.6): the connected components of the neighbour graph of a
//! state, counted on the CPU on request ([`flock_census`]); the measure table finishes its
//! `flocks`, `largest_flock`, `flocked_fraction`, `hue_coherence` and `flock_polarization` from a
//! [`FlockCensus`].

use serde::{Deserialize, Serialize};

use crate::model::pairs::for_each_pair_within;
use crate::model::state::Boid;
use crate::model::world::World;

/// Smallest connected component of the neighbour graph counted as a flock by [`flock_census`].
pub const FLOCK_MIN_BOIDS: usize = 10;

/// The flocks of a state (docs/model.md §12.6): the connected components of the neighbour graph,
/// where two boids are linked when they are closer than a radius (by minimum image in a wrap
/// world), counting only components of at least a minimum size.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct FlockCensus {
    /// Number of flocks (components of at least the minimum size).
    pub flocks: u32,
    /// Boids in the largest component.
    pub largest: u32,
    /// Fraction of the boids that belong to a flock, in [0, 1].
    pub flocked_fraction: f32,
    /// Hue coherence: the resultant length of each flock's hue vectors, |Σ_j h_j| / n, averaged
    /// over the flocks weighted by their sizes (so over the boids in flocks), in [0, 1]; 1 when
    /// every flock has one hue, near 0 for confetti. 0 when there is no flock.
    pub hue_coherence: f32,
    /// Polarization within flocks: each flock's |Σ_j v̂_j| / n, averaged over the flocks weighted
    /// by their sizes, in [0, 1]; 1 when every flock moves as one whatever the directions of the
    /// flocks (where the polarization of the whole state can be 0), about 1/√n for a flock of n
    /// random headings. 0 when there is no flock.
    pub polarization: f32,
}

/// Union–find root of `i`, with path halving.
fn find(parent: &mut [u32], mut i: u32) -> u32 {
    while parent[i as usize] != i {
        let up = parent[parent[i as usize] as usize];
        parent[i as usize] = up;
        i = up;
    }
    i
}

/// Joins the components of `a` and `b` (union by size).
fn union(parent: &mut [u32], size: &mut [u32], a: u32, b: u32) {
    let (mut ra, mut rb) = (find(parent, a), find(parent, b));
    if ra == rb {
        return;
    }
    if size[ra as usize] < size[rb as usize] {
        std::mem::swap(&mut ra, &mut rb);
    }
    parent[rb as usize] = ra;
    size[ra as usize] += size[rb as usize];
}

/// The connected components of the graph linking `boids` closer than `radius` (wu, strictly;
/// minimum image when `world` wraps): each boid's union–find parent (a root is its own) and, at
/// each root, its component's size.
fn components(boids: &[Boid], radius: f32, world: World) -> (Vec<u32>, Vec<u32>) {
    let n = boids.len();
    let positions: Vec<[f32; 2]> = boids.iter().map(|b| b.position).collect();
    let mut parent: Vec<u32> = (0..n as u32).collect();
    let mut size = vec![1u32; n];
    for_each_pair_within(&positions, world, radius as f64, |i, j, _, _| {
        union(&mut parent, &mut size, i, j);
    });
    (parent, size)
}

/// The sizes of every connected component of the graph linking `boids` closer than `radius` (wu,
/// strictly; minimum image when `world` wraps), loners (size 1) included, largest first: the
/// census's components before any minimum size, whose histogram is P(s). Empty for an empty state
/// or a radius ≤ 0 (then every boid would be alone: `boids.len()` ones).
pub fn component_sizes(boids: &[Boid], radius: f32, world: World) -> Vec<u32> {
    if boids.is_empty() || radius.is_nan() || radius <= 0.0 {
        return Vec::new();
    }
    let (parent, size) = components(boids, radius, world);
    let mut sizes: Vec<u32> = (0..boids.len())
        .filter(|&i| parent[i] as usize == i)
        .map(|i| size[i])
        .collect();
    sizes.sort_unstable_by(|a, b| b.cmp(a));
    sizes
}

/// The flocks of `boids` (docs/model.md §12.6): connected components of the graph linking boids
/// closer than `radius` (wu, strictly; minimum-image offsets when `world` wraps), of at least
/// `min_boids` boids each, with their hue coherence. Computed in f64 on the CPU, the links through
/// [`for_each_pair_within`] (a uniform grid: about O(N · neighbours)). An empty state or a radius ≤ 0 has no flock.
pub fn flock_census(boids: &[Boid], radius: f32, world: World, min_boids: usize) -> FlockCensus {
    let n = boids.len();
    if n == 0 || radius.is_nan() || radius <= 0.0 {
        return FlockCensus::default();
    }
    let (mut parent, size) = components(boids, radius, world);
    // Per root: size, Σ h and Σ v̂ (v̂ = 0 for a stopped boid, as in the polarization).
    let mut hue = vec![[0.0f64; 2]; n];
    let mut heading = vec![[0.0f64; 2]; n];
    for i in 0..n as u32 {
        let root = find(&mut parent, i) as usize;
        let b = &boids[i as usize];
        hue[root][0] += b.hue[0] as f64;
        hue[root][1] += b.hue[1] as f64;
        let (vx, vy) = (b.velocity[0] as f64, b.velocity[1] as f64);
        let speed = (vx * vx + vy * vy).sqrt();
        if speed > 1e-12 {
            heading[root][0] += vx / speed;
            heading[root][1] += vy / speed;
        }
    }
    let mut census = FlockCensus::default();
    let (mut flocked, mut coherence, mut aligned) = (0usize, 0.0f64, 0.0f64);
    for i in 0..n {
        if parent[i] as usize != i {
            continue;
        }
        let k = size[i] as usize;
        census.largest = census.largest.max(k as u32);
        if k >= min_boids.max(1) {
            census.flocks += 1;
            flocked += k;
            coherence += (hue[i][0].powi(2) + hue[i][1].powi(2)).sqrt();
            aligned += (heading[i][0].powi(2) + heading[i][1].powi(2)).sqrt();
        }
    }
    census.flocked_fraction = (flocked as f64 / n as f64) as f32;
    if flocked > 0 {
        census.hue_coherence = (coherence / flocked as f64) as f32;
        census.polarization = (aligned / flocked as f64) as f32;
    }
    census
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec2;

    fn boid(id: u32, x: f32, y: f32, hue_deg: f32) -> Boid {
        let (s, c) = hue_deg.to_radians().sin_cos();
        Boid {
            position: [x, y],
            velocity: [10.0, 0.0],
            hue: [c, s],
            hue_velocity: [0.0, 0.0],
            id,
            image: [0; 2],
        }
    }

    fn world(wrap: bool) -> World {
        World {
            width: 1000.0,
            height: 600.0,
            wrap,
        }
    }

    /// A chain of `k` boids along x from `x0` (wrapping at the world's width), `gap` apart.
    fn chain(first_id: u32, k: u32, x0: f32, y: f32, gap: f32, hue: f32) -> Vec<Boid> {
        (0..k)
            .map(|i| {
                boid(
                    first_id + i,
                    (x0 + i as f32 * gap).rem_euclid(1000.0),
                    y,
                    hue,
                )
            })
            .collect()
    }

    #[test]
    fn census_counts_components_of_at_least_the_minimum_size() {
        let mut b = chain(0, 12, 100.0, 100.0, 18.0, 0.0); // one flock (gaps < 20)
        b.extend(chain(12, 15, 500.0, 300.0, 19.9, 120.0)); // another
        b.extend(chain(27, 9, 100.0, 500.0, 5.0, 240.0)); // too small to count
        b.extend(chain(36, 12, 600.0, 500.0, 20.0, 0.0)); // gaps of exactly r: 12 loners
        let c = flock_census(&b, 20.0, world(false), 10);
        assert_eq!((c.flocks, c.largest), (2, 15), "{c:?}");
        assert!((c.flocked_fraction - 27.0 / 48.0).abs() < 1e-6, "{c:?}");
        assert!(
            (c.hue_coherence - 1.0).abs() < 1e-6,
            "one hue per flock: {c:?}"
        );
    }

    #[test]
    fn census_links_across_the_seam_only_in_a_wrap_world() {
        let b = chain(0, 20, 900.0, 300.0, 10.0, 0.0); // 900 … 1090 → wraps to 90
        assert_eq!(flock_census(&b, 20.0, world(true), 10).flocks, 1);
        let c = flock_census(&b, 20.0, world(false), 10);
        assert_eq!((c.flocks, c.largest), (2, 10), "{c:?}");
        // Across the top and bottom edges too.
        let b: Vec<Boid> = (0..20)
            .map(|i| boid(i, 500.0, (590.0 + i as f32 * 10.0).rem_euclid(600.0), 0.0))
            .collect();
        assert_eq!(flock_census(&b, 20.0, world(true), 10).largest, 20);
        assert_eq!(flock_census(&b, 20.0, world(false), 10).largest, 19);
    }

    #[test]
    fn hue_coherence_weighs_flocks_by_their_sizes() {
        // A one-hue flock of 10 and a flock of 30 whose hues go once round the circle (resultant
        // 0): (10·1 + 30·0) / 40 = 0.25 (an unweighted mean over flocks would say 0.5).
        let mut b = chain(0, 10, 100.0, 100.0, 5.0, 45.0);
        b.extend((0..30).map(|i| boid(10 + i, 300.0 + i as f32 * 5.0, 400.0, i as f32 * 12.0)));
        let c = flock_census(&b, 20.0, world(false), 10);
        assert_eq!(c.flocks, 2);
        assert!((c.hue_coherence - 0.25).abs() < 1e-6, "{c:?}");
    }

    #[test]
    fn hue_coherence_is_low_for_confetti() {
        // One flock whose hues go once round the circle: resultant length 0.
        let b: Vec<Boid> = (0..36)
            .map(|i| boid(i, 100.0 + i as f32 * 5.0, 100.0, i as f32 * 10.0))
            .collect();
        let c = flock_census(&b, 20.0, world(false), 10);
        assert_eq!(c.flocks, 1);
        assert!(c.hue_coherence < 1e-6, "{c:?}");
    }

    /// `boid` moving at `speed` wu/s towards `deg` degrees.
    fn heading(mut b: Boid, deg: f32, speed: f32) -> Boid {
        let (s, c) = deg.to_radians().sin_cos();
        b.velocity = [speed * c, speed * s];
        b
    }

    #[test]
    fn flock_polarization_is_one_for_flocks_that_each_move_as_one() {
        // Two flocks of 20, each aligned, heading opposite ways: the whole state's polarization
        // is 0, the polarization within flocks 1 (speeds differ: only headings count).
        let mut b: Vec<Boid> = chain(0, 20, 100.0, 100.0, 5.0, 0.0)
            .into_iter()
            .enumerate()
            .map(|(i, b)| heading(b, 30.0, 5.0 + i as f32))
            .collect();
        b.extend(
            chain(20, 20, 500.0, 400.0, 5.0, 0.0)
                .into_iter()
                .map(|b| heading(b, 210.0, 40.0)),
        );
        let c = flock_census(&b, 20.0, world(false), 10);
        assert_eq!(c.flocks, 2);
        assert!((c.polarization - 1.0).abs() < 1e-6, "{c:?}");
        let whole: [f32; 2] = b.iter().fold([0.0, 0.0], |s, b| {
            let v = Vec2::from(b.velocity).normalize();
            [s[0] + v.x, s[1] + v.y]
        });
        assert!(
            Vec2::from(whole).length() / 40.0 < 1e-5,
            "the whole state: {whole:?}"
        );
    }

    #[test]
    fn flock_polarization_weighs_flocks_by_their_sizes_and_ignores_loners() {
        // An aligned flock of 10, a flock of 30 whose headings go once round the circle
        // (resultant 0), and 5 aligned loners outside any flock: (10·1 + 30·0) / 40 = 0.25.
        let mut b = chain(0, 10, 100.0, 100.0, 5.0, 0.0);
        b.extend((0..30).map(|i| {
            heading(
                boid(10 + i, 300.0 + i as f32 * 5.0, 400.0, 0.0),
                i as f32 * 12.0,
                9.0,
            )
        }));
        b.extend((0..5).map(|i| boid(40 + i, 900.0, 50.0 + i as f32 * 100.0, 0.0)));
        let c = flock_census(&b, 20.0, world(false), 10);
        assert_eq!(c.flocks, 2);
        assert!((c.polarization - 0.25).abs() < 1e-6, "{c:?}");
        // Stopped boids count in n and add no heading: a flock of 20, half of them stopped.
        let b: Vec<Boid> = chain(0, 20, 100.0, 100.0, 5.0, 0.0)
            .into_iter()
            .enumerate()
            .map(|(i, b)| heading(b, 0.0, if i % 2 == 0 { 0.0 } else { 3.0 }))
            .collect();
        let c = flock_census(&b, 20.0, world(false), 10);
        assert!((c.polarization - 0.5).abs() < 1e-6, "{c:?}");
    }

    #[test]
    fn flock_polarization_of_random_headings_follows_the_law_of_a_random_walk() {
        // One flock of n = 400 independent uniform headings: n·φ_f² has mean 1 (a sum of n unit
        // vectors of random directions is a random walk: E|Σ v̂|² = n). Over 200 flocks the mean of
        // n·φ_f² has standard error ≈ 1/√200 ≈ 0.07; allow 5 of them.
        let n = 400u32;
        let trials = 200;
        let mut mean = 0.0f64;
        for t in 0..trials {
            let b: Vec<Boid> = (0..n)
                .map(|i| {
                    let deg = crate::model::rng::uniform01(7, i, t, 0) * 360.0;
                    heading(
                        boid(
                            i,
                            50.0 + (i % 40) as f32 * 5.0,
                            50.0 + (i / 40) as f32 * 5.0,
                            0.0,
                        ),
                        deg,
                        1.0,
                    )
                })
                .collect();
            let c = flock_census(&b, 20.0, world(false), 10);
            assert_eq!(c.flocks, 1);
            mean += n as f64 * (c.polarization as f64).powi(2) / trials as f64;
        }
        assert!(
            (mean - 1.0).abs() < 0.35,
            "n·φ_f² averages {mean}, expected 1"
        );
    }

    #[test]
    fn census_matches_a_brute_force_count_on_a_random_state() {
        // The oracle: every pair tested, the same union–find. At 0.002 boids/wu² a boid has about
        // 2.5 others within 20 wu: many components, below the percolation of one giant one.
        let p = crate::model::SimParams::default().with_world_for(3000, 0.002);
        for (wrap, seed) in [(true, 1), (false, 2)] {
            let boids = crate::model::initial_state(seed, 3000, &p);
            let w = World {
                wrap,
                ..World::of(&p)
            };
            let n = boids.len();
            let mut parent: Vec<u32> = (0..n as u32).collect();
            let mut size = vec![1u32; n];
            for i in 0..n {
                for j in i + 1..n {
                    let mut dx = (boids[j].position[0] - boids[i].position[0]) as f64;
                    let mut dy = (boids[j].position[1] - boids[i].position[1]) as f64;
                    if wrap {
                        dx -= w.width as f64 * (dx / w.width as f64).round();
                        dy -= w.height as f64 * (dy / w.height as f64).round();
                    }
                    if dx * dx + dy * dy < 400.0 {
                        union(&mut parent, &mut size, i as u32, j as u32);
                    }
                }
            }
            let mut sizes: Vec<u32> = (0..n)
                .filter(|&i| parent[i] as usize == i)
                .map(|i| size[i])
                .collect();
            sizes.sort_unstable();
            let c = flock_census(&boids, 20.0, w, 3);
            let want = sizes.iter().filter(|&&k| k >= 3).count() as u32;
            assert_eq!(c.flocks, want, "wrap {wrap}");
            assert_eq!(c.largest, *sizes.last().unwrap(), "wrap {wrap}");
            assert!(
                want > 10,
                "the state should have several components: {want}"
            );
        }
    }
}
