//! Flock measures (docs/model.md §12): polarization, milling, mean speed, mean neighbour count,
//! and the predators' catches.

use serde::{Deserialize, Serialize};

use crate::model::state::Boid;

/// Order parameters and averages of one flock state.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct FlockMeasures {
    /// Polarization φ = |Σ v_i/|v_i|| / N, in [0, 1]; 1 = all boids fly the same way (Vicsek 1995's
    /// v_a for constant speed). Stopped boids count as 0.
    pub polarization: f32,
    /// Milling (normalised angular momentum, Couzin et al. 2002):
    /// m = |Σ r̂_i × v̂_i| / N with r̂_i the unit vector from the centre to boid i, in [0, 1]. The
    /// centre is the mean of positions; in a wrap world the periodic (circular) mean per axis, with
    /// r_i the minimum-image offset from it (docs/model.md §12.2).
    pub milling: f32,
    /// Mean speed ⟨|v|⟩ (wu/s).
    pub mean_speed: f32,
    /// Mean number of neighbours within the perception radius (after the neighbour cap).
    pub mean_neighbors: f32,
    /// The order parameter v_a = |Σ v_i| / (N·v0) of Vicsek et al. 1995 (docs/model.md §12.7), v0
    /// being the constant speed of the Vicsek model and the mean speed ⟨|v|⟩ in the other models
    /// (so |Σ v_i| / Σ |v_i|), in [0, 1] (to rounding). 0 when every boid is stopped.
    #[serde(default)]
    pub va: f32,
    /// Boids caught by hunting predators in the last step (docs/model.md §18.4).
    #[serde(default)]
    pub catches: u32,
    /// Boids caught since the backend was made (wraps at 2^32).
    #[serde(default)]
    pub catches_total: u32,
}

/// The world a state's measures are taken in: its size and whether it wraps (a periodic milling
/// centre then).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct World {
    /// Width W (wu).
    pub width: f32,
    /// Height H (wu).
    pub height: f32,
    /// Whether the world is a torus (`wrap` boundary).
    pub wrap: bool,
}

impl World {
    /// The world of `params`.
    pub fn of(params: &crate::model::SimParams) -> World {
        World {
            width: params.world_width,
            height: params.world_height,
            wrap: params.boundary == crate::model::Boundary::Wrap,
        }
    }
}

/// Below this fraction of the world's larger side, a boid's distance from the milling centre counts
/// as 0 (it then adds nothing to the milling): the GPU's f32 centre is uncertain by about 1e-6 of
/// the world.
pub const MILLING_NEAR: f64 = 1e-5;

/// The periodic mean of coordinates x on a circle of length `len` (docs/model.md §12.2), from the
/// sums of cos θ and sin θ over them, θ = 2π·x/len: atan2(Σ sin θ, Σ cos θ)·len/2π, in
/// [−len/2, len/2]. 0 when the sums vanish (points spread evenly round the circle).
pub fn circular_mean(sum_cos: f64, sum_sin: f64, len: f64) -> f64 {
    sum_sin.atan2(sum_cos) * len / std::f64::consts::TAU
}

/// Reference computation of the measures in f64 (the CPU twin of the `measures` GPU stage).
/// `neighbors[i]` is the neighbour count of `boids[i]` from the last rules pass; in a `world` that
/// wraps, the milling centre is the periodic mean. v_a is taken with v0 = the mean speed (see
/// [`flock_measures_at_speed`]).
pub fn flock_measures(boids: &[Boid], neighbors: &[u32], world: World) -> FlockMeasures {
    flock_measures_at_speed(boids, neighbors, world, None)
}

/// [`flock_measures`] with v_a = |Σ v_i| / (N·v0) for the constant speed `v0` (wu per step) of the
/// Vicsek model, or, for `None`, v0 = the mean speed (docs/model.md §12.7).
pub fn flock_measures_at_speed(
    boids: &[Boid],
    neighbors: &[u32],
    world: World,
    v0: Option<f32>,
) -> FlockMeasures {
    let n = boids.len();
    if n == 0 {
        return FlockMeasures::default();
    }
    let unit = |x: f64, y: f64| {
        let l = (x * x + y * y).sqrt();
        if l > 1e-12 {
            (x / l, y / l)
        } else {
            (0.0, 0.0)
        }
    };
    let tau = std::f64::consts::TAU;
    let (mut sx, mut sy, mut speed, mut cx, mut cy) = (0.0f64, 0.0f64, 0.0f64, 0.0f64, 0.0f64);
    // Σ v (for v_a).
    let (mut vx_sum, mut vy_sum) = (0.0f64, 0.0f64);
    // Σ cos θ and Σ sin θ per axis, θ = 2π·x/W (used in a wrap world).
    let mut trig = [0.0f64; 4];
    let (w, h) = (world.width as f64, world.height as f64);
    for b in boids {
        let (vx, vy) = (b.velocity[0] as f64, b.velocity[1] as f64);
        let (ux, uy) = unit(vx, vy);
        sx += ux;
        sy += uy;
        vx_sum += vx;
        vy_sum += vy;
        speed += (vx * vx + vy * vy).sqrt();
        let (px, py) = (b.position[0] as f64, b.position[1] as f64);
        cx += px;
        cy += py;
        if world.wrap {
            let (tx, ty) = (tau * px / w, tau * py / h);
            trig[0] += tx.cos();
            trig[1] += tx.sin();
            trig[2] += ty.cos();
            trig[3] += ty.sin();
        }
    }
    let nf = n as f64;
    let (cx, cy) = match world.wrap {
        true => (
            circular_mean(trig[0], trig[1], w),
            circular_mean(trig[2], trig[3], h),
        ),
        false => (cx / nf, cy / nf),
    };
    let offset = |d: f64, len: f64| match world.wrap {
        true => d - len * (d / len).round(),
        false => d,
    };
    // A boid this near the centre (1e-5 of the world's larger side) has no direction from it: the
    // GPU's f32 centre is that uncertain (docs/model.md §12.2).
    let near2 = (MILLING_NEAR * w.max(h)).powi(2);
    let mut mill = 0.0f64;
    for b in boids {
        let (dx, dy) = (
            offset(b.position[0] as f64 - cx, w),
            offset(b.position[1] as f64 - cy, h),
        );
        let (rx, ry) = if dx * dx + dy * dy > near2 {
            unit(dx, dy)
        } else {
            (0.0, 0.0)
        };
        let (ux, uy) = unit(b.velocity[0] as f64, b.velocity[1] as f64);
        mill += rx * uy - ry * ux;
    }
    let neigh: f64 = neighbors.iter().map(|&k| k as f64).sum();
    let momentum = (vx_sum * vx_sum + vy_sum * vy_sum).sqrt();
    let total_speed = match v0 {
        Some(v0) => nf * v0 as f64,
        None => speed,
    };
    FlockMeasures {
        polarization: ((sx * sx + sy * sy).sqrt() / nf) as f32,
        milling: (mill.abs() / nf) as f32,
        mean_speed: (speed / nf) as f32,
        mean_neighbors: (neigh / nf) as f32,
        va: if total_speed > 0.0 {
            (momentum / total_speed) as f32
        } else {
            0.0
        },
        ..FlockMeasures::default()
    }
}

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

/// The flocks of `boids` (docs/model.md §12.6): connected components of the graph linking boids
/// closer than `radius` (wu, strictly; minimum-image offsets when `world` wraps), of at least
/// `min_boids` boids each, with their hue coherence. Computed in f64 on the CPU through a uniform
/// grid of cells at least `radius` wide (at most 1024 × 1024 cells), so the cost is about
/// O(N · neighbours). An empty state or a radius ≤ 0 has no flock.
pub fn flock_census(boids: &[Boid], radius: f32, world: World, min_boids: usize) -> FlockCensus {
    let n = boids.len();
    if n == 0 || radius.is_nan() || radius <= 0.0 {
        return FlockCensus::default();
    }
    let (w, h, r) = (world.width as f64, world.height as f64, radius as f64);
    let cols = ((w / r).floor() as usize).clamp(1, 1024);
    let rows = ((h / r).floor() as usize).clamp(1, 1024);
    let cell_of = |b: &Boid| {
        let cx = ((b.position[0] as f64 * cols as f64 / w).floor().max(0.0) as usize).min(cols - 1);
        let cy = ((b.position[1] as f64 * rows as f64 / h).floor().max(0.0) as usize).min(rows - 1);
        cy * cols + cx
    };
    // Counting sort of the boid indices by cell.
    let cell: Vec<usize> = boids.iter().map(cell_of).collect();
    let mut start = vec![0u32; cols * rows + 1];
    for &c in &cell {
        start[c + 1] += 1;
    }
    for c in 0..cols * rows {
        start[c + 1] += start[c];
    }
    let mut fill = start.clone();
    let mut order = vec![0u32; n];
    for (i, &c) in cell.iter().enumerate() {
        order[fill[c] as usize] = i as u32;
        fill[c] += 1;
    }
    let offset = |d: f64, len: f64| {
        if world.wrap {
            d - len * (d / len).round()
        } else {
            d
        }
    };
    let r2 = r * r;
    let mut parent: Vec<u32> = (0..n as u32).collect();
    let mut size = vec![1u32; n];
    let mut block = Vec::with_capacity(9);
    for cy in 0..rows {
        for cx in 0..cols {
            // The distinct cells of the 3 × 3 block (wrapped or clipped).
            block.clear();
            for dy in [-1i64, 0, 1] {
                for dx in [-1i64, 0, 1] {
                    let (x, y) = (cx as i64 + dx, cy as i64 + dy);
                    let (x, y) = if world.wrap {
                        (x.rem_euclid(cols as i64), y.rem_euclid(rows as i64))
                    } else if x < 0 || y < 0 || x >= cols as i64 || y >= rows as i64 {
                        continue;
                    } else {
                        (x, y)
                    };
                    let c = y as usize * cols + x as usize;
                    if !block.contains(&c) {
                        block.push(c);
                    }
                }
            }
            let me = cy * cols + cx;
            for &i in &order[start[me] as usize..start[me + 1] as usize] {
                let p = boids[i as usize].position;
                for &c in &block {
                    for &j in &order[start[c] as usize..start[c + 1] as usize] {
                        if j <= i {
                            continue;
                        }
                        let q = boids[j as usize].position;
                        let dx = offset(q[0] as f64 - p[0] as f64, w);
                        let dy = offset(q[1] as f64 - p[1] as f64, h);
                        if dx * dx + dy * dy < r2 {
                            union(&mut parent, &mut size, i, j);
                        }
                    }
                }
            }
        }
    }
    // Per root: size and Σ h.
    let mut hue = vec![[0.0f64; 2]; n];
    for i in 0..n as u32 {
        let root = find(&mut parent, i) as usize;
        hue[root][0] += boids[i as usize].hue[0] as f64;
        hue[root][1] += boids[i as usize].hue[1] as f64;
    }
    let mut census = FlockCensus::default();
    let (mut flocked, mut coherence) = (0usize, 0.0f64);
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
        }
    }
    census.flocked_fraction = (flocked as f64 / n as f64) as f32;
    if flocked > 0 {
        census.hue_coherence = (coherence / flocked as f64) as f32;
    }
    census
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `n` boids on a circle of radius `r` around `centre` (positions taken modulo the world
    /// `w` × `h`), each flying along the circle counter-clockwise at 50 wu/s.
    fn ring(n: u32, r: f32, centre: [f32; 2], w: f32, h: f32) -> Vec<Boid> {
        (0..n)
            .map(|i| {
                let a = i as f32 / n as f32 * std::f32::consts::TAU;
                let (s, c) = a.sin_cos();
                Boid {
                    position: [
                        (centre[0] + r * c).rem_euclid(w),
                        (centre[1] + r * s).rem_euclid(h),
                    ],
                    velocity: [-50.0 * s, 50.0 * c],
                    hue: [1.0, 0.0],
                    hue_velocity: [0.0, 0.0],
                    id: i,
                    _pad: 0,
                }
            })
            .collect()
    }

    #[test]
    fn a_mill_on_the_seam_mills_as_one_in_the_middle() {
        let (w, h) = (1000.0, 600.0);
        let k = vec![0; 400];
        let torus = World {
            width: w,
            height: h,
            wrap: true,
        };
        let middle = flock_measures(&ring(400, 100.0, [500.0, 300.0], w, h), &k, torus);
        for centre in [[0.0, 300.0], [500.0, 0.0], [0.0, 0.0], [990.0, 595.0]] {
            let boids = ring(400, 100.0, centre, w, h);
            let m = flock_measures(&boids, &k, torus);
            assert!(
                m.milling > 0.99 && (m.milling - middle.milling).abs() < 1e-3,
                "centre {centre:?}: {m:?} vs {middle:?}"
            );
            // Without the periodic centre (a world that does not wrap) the same positions mill
            // less: the plain mean lies away from the ring's centre.
            let plain = flock_measures(
                &boids,
                &k,
                World {
                    wrap: false,
                    ..torus
                },
            );
            assert!(plain.milling < 0.9, "centre {centre:?}: {plain:?}");
        }
        assert!(middle.milling > 0.99, "{middle:?}");
    }

    #[test]
    fn circular_mean_of_points_across_the_seam() {
        let len = 1000.0f64;
        let (mut c, mut s) = (0.0, 0.0);
        for x in [990.0f64, 995.0, 5.0, 10.0] {
            let t = std::f64::consts::TAU * x / len;
            c += t.cos();
            s += t.sin();
        }
        assert!(circular_mean(c, s, len).abs() < 1e-9);
        let t = std::f64::consts::TAU * 250.0 / len;
        assert!((circular_mean(t.cos(), t.sin(), len) - 250.0).abs() < 1e-9);
    }

    fn boid(id: u32, x: f32, y: f32, hue_deg: f32) -> Boid {
        let (s, c) = hue_deg.to_radians().sin_cos();
        Boid {
            position: [x, y],
            velocity: [10.0, 0.0],
            hue: [c, s],
            hue_velocity: [0.0, 0.0],
            id,
            _pad: 0,
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
