//! Giant number fluctuations: the standard deviation ΔN of the particle count in boxes against the
//! mean count ⟨n⟩, and the exponent α of ΔN ∝ ⟨n⟩^α.
//!
//! In equilibrium, and in any state without long-range density correlations, the count in a box
//! of mean ⟨n⟩ has ΔN ∝ ⟨n⟩^{1/2} (a random gas is Poisson: ΔN = √⟨n⟩). Ordered active matter
//! has anomalously large, "giant" number fluctuations, ΔN ∝ ⟨n⟩^α with α > 1/2 (Toner & Tu,
//! Phys. Rev. E 58, 4828, 1998; Ramaswamy, Simha & Toner, "Active nematics on a substrate: Giant
//! number fluctuations and long-time tails", Europhys. Lett. 62, 196–202, 2003). Chaté, Ginelli,
//! Grégoire & Raynaud, Phys. Rev. E 77, 046113 (2008) measure α ≈ 0.8 in the ordered phase of the
//! Vicsek model, and α = 1/2 in the disordered phase.
//!
//! # Counts
//!
//! The world W × H (positions in [0, W) × [0, H), world units) is tiled by an m_x × m_y grid of
//! boxes, and the count n_b of every box is taken (all tiles, every particle in exactly one).
//! Then ⟨n⟩ = N/M (M = m_x·m_y boxes) and
//!
//! ΔN² = Σ_b (n_b − ⟨n⟩)² / (M − 1).
//!
//! The divisor M − 1 makes ΔN² = ⟨n⟩ on average for a uniform random gas at every box size (the
//! counts are multinomial: Σ_b (n_b − N/M)² has mean N(1 − 1/M)), so that the largest boxes,
//! with few tiles, are not biased low. With several snapshots (times or repeats, same world)
//! ΔN² and ⟨n⟩ are averaged over them.
//!
//! The grids run from 4 boxes along the shorter side (boxes a quarter of it) to the finest grid
//! whose boxes still hold [`BoxSizes::min_mean_count`] particles on average, in a geometric
//! progression of box side with ratio [`BoxSizes::side_ratio`] (rounded to whole numbers of boxes,
//! duplicates dropped). The longer side is cut into round(m·L/S) boxes when the shorter is cut
//! into m, so boxes are square when the aspect ratio allows (always in a square world) and within
//! a factor 1 + 1/(2m) of square otherwise. Tiling the world, the count is the same for a periodic
//! world and a closed one.
//!
//! # The exponent and its error
//!
//! α is the slope of the least-squares line through the points (ln ⟨n⟩, ln ΔN)
//! ([`least_squares_line`]). Its residual standard error ([`NumberFluctuations::fit`]) is **not**
//! an honest error: the points of one configuration are strongly correlated (the same particles
//! are counted at every box size) and of unequal precision (a grid of M boxes gives ΔN² to about
//! ±√(2/(M − 1)) relative), and on a random gas it understates the scatter of α between
//! independent configurations by a factor of about 2. The error of α reported here,
//! [`NumberFluctuations::alpha_error`], is a **spatial delete-one-region jackknife**: the world is
//! cut into the R regions of the coarsest grid (4 × 4 in a square world), and α is refitted R
//! times with the boxes whose centres lie in one region left out (the counts of each remaining set
//! of boxes about their own mean, divisor M′ − 1), error² = (R − 1)/R · Σ_j (α_j − ᾱ)² (the
//! jackknife of Quenouille 1956 and Efron 1982 over spatial blocks; Künsch, Annals of Statistics
//! 17(3), 1217–1241, 1989, for blocks of dependent data). It is valid when density correlations
//! are shorter than a region (a quarter of the side), and is itself uncertain by about
//! ±1/√(2(R − 1)) ≈ ±18 % for R = 16. The fit of ln ΔN also has a small bias: the logarithm of a
//! noisy ΔN² is low on average by about 1/(2(M − 1)) for Gaussian count fluctuations (0.03 at the
//! 16 largest boxes), which lowers α of one random-gas configuration of 10⁴ particles by about
//! 0.01, a third of its error; averaging ΔN² over S snapshots divides it by S. Density structures as large as the world (a band spanning
//! it) make every single-configuration error optimistic: then take α over independent snapshots
//! or repeats ([`combine_repeats`](super::combine_repeats)), or average ΔN² over many snapshots
//! ([`number_fluctuations_over`]). Points with ΔN = 0 (a perfect lattice) are left out of the
//! fits.

use super::fit::{least_squares_line, LineFit};

/// The range and spacing of the box sizes of [`number_fluctuations`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoxSizes {
    /// The smallest boxes hold at least this many particles on average (default 4): below a few
    /// particles per box, the discreteness of the count dominates ΔN.
    pub min_mean_count: f64,
    /// Ratio of successive box sides, > 1 (default 2^{1/4}: four sizes per halving of the side,
    /// two per halving of ⟨n⟩).
    pub side_ratio: f64,
}

impl Default for BoxSizes {
    fn default() -> Self {
        BoxSizes {
            min_mean_count: 4.0,
            side_ratio: 2f64.powf(0.25),
        }
    }
}

/// The count statistics of one box size.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CountFluctuation {
    /// Box width W/m_x (world units).
    pub box_width: f64,
    /// Box height H/m_y (world units).
    pub box_height: f64,
    /// Number of boxes M = m_x·m_y tiling the world.
    pub boxes: usize,
    /// Mean count per box ⟨n⟩ = N/M (averaged over snapshots).
    pub mean_count: f64,
    /// Standard deviation ΔN of the count over the boxes (divisor M − 1; the root of ΔN²
    /// averaged over snapshots). A number of particles.
    pub delta_n: f64,
}

/// Number fluctuations over box sizes and the fitted exponent α of ΔN ∝ ⟨n⟩^α.
#[derive(Clone, Debug, PartialEq)]
pub struct NumberFluctuations {
    /// One point per box size, largest boxes first.
    pub points: Vec<CountFluctuation>,
    /// α, the least-squares slope of ln ΔN against ln ⟨n⟩ (1/2 for a random gas, ≈ 0.8 in the
    /// ordered Vicsek phase); NaN with fewer than two usable points.
    pub alpha: f64,
    /// Standard error of α by the spatial delete-one-region jackknife (module documentation);
    /// NaN with fewer than two usable points or fewer than two regions.
    pub alpha_error: f64,
    /// Number R of regions of the jackknife (the boxes of the coarsest grid).
    pub regions: usize,
    /// The least-squares fit ln ΔN = ln A + α ln ⟨n⟩ (slope α, intercept ln A), with its residual
    /// errors, which understate the uncertainty of α (module documentation).
    pub fit: LineFit,
}

/// The grids (m_x, m_y) for a W × H world holding `particles` on average, largest boxes first.
fn grids(width: f64, height: f64, particles: f64, sizes: BoxSizes) -> Vec<(usize, usize)> {
    grid_sides(width, height, sizes)
        .take_while(|&(mx, my)| particles / ((mx * my) as f64) >= sizes.min_mean_count)
        .collect()
}

/// Every grid of box sizes, coarsest first, whatever the particle count: 4 boxes or more along
/// the shorter side, growing by `side_ratio`, the longer side's count in proportion.
///
/// # Panics
///
/// When a side is not positive or `sizes` is invalid.
fn grid_sides(width: f64, height: f64, sizes: BoxSizes) -> impl Iterator<Item = (usize, usize)> {
    assert!(
        sizes.side_ratio > 1.0 && sizes.min_mean_count > 0.0,
        "BoxSizes: side_ratio must exceed 1 and min_mean_count be positive"
    );
    assert!(
        width > 0.0 && height > 0.0,
        "number fluctuations: the world must have positive sides"
    );
    let (short, long) = (width.min(height), width.max(height));
    (0..)
        .map(move |k| (4.0 * sizes.side_ratio.powi(k)).round() as usize)
        .scan(0, |last, m| {
            let new = m != *last;
            *last = m;
            Some(new.then_some(m))
        })
        .flatten()
        .map(move |m_short| {
            let m_long = ((m_short as f64 * long / short).round() as usize).max(1);
            if width >= height {
                (m_long, m_short)
            } else {
                (m_short, m_long)
            }
        })
}

/// The fewest particles for which a `width` × `height` world has `count` box sizes (≥ 1) whose
/// boxes hold at least `sizes.min_mean_count` particles on average: the fit of α needs two.
///
/// # Panics
///
/// As [`number_fluctuations`], and when `count` is 0.
pub fn min_particles(width: f64, height: f64, sizes: BoxSizes, count: usize) -> usize {
    assert!(count > 0, "min_particles: count must be at least 1");
    let (mx, my) = grid_sides(width, height, sizes)
        .nth(count - 1)
        .expect("grid_sides is unbounded");
    ((mx * my) as f64 * sizes.min_mean_count).ceil() as usize
}

/// Box index along one axis of `m` boxes over [0, len); outside positions go to the edge box.
fn cell(x: f64, len: f64, m: usize) -> usize {
    let i = (x / len * m as f64).floor();
    if i > 0.0 {
        (i as usize).min(m - 1)
    } else {
        0
    }
}

/// Per region of one grid in one snapshot: the number of boxes, Σ n_b and Σ n_b² over them.
#[derive(Clone, Copy, Default)]
struct RegionSums {
    boxes: f64,
    sum: f64,
    sum_sq: f64,
}

/// ⟨n⟩ and ΔN² (divisor M − 1, about the mean of the boxes counted) averaged over snapshots, with
/// region `left_out` (if any) left out. `sums[s][r]` are snapshot s's sums over region r.
fn mean_and_variance(sums: &[Vec<RegionSums>], left_out: Option<usize>) -> (f64, f64) {
    let (mut mean_sum, mut var_sum) = (0.0, 0.0);
    for snapshot in sums {
        let mut t = RegionSums::default();
        for (r, s) in snapshot.iter().enumerate() {
            if Some(r) != left_out {
                t.boxes += s.boxes;
                t.sum += s.sum;
                t.sum_sq += s.sum_sq;
            }
        }
        // Integer counts: the sums are exact in f64 below 2^53, so this difference is exact.
        mean_sum += t.sum / t.boxes;
        var_sum += (t.sum_sq - t.sum * t.sum / t.boxes) / (t.boxes - 1.0);
    }
    let s = sums.len() as f64;
    (mean_sum / s, var_sum / s)
}

/// The least-squares line through (ln ⟨n⟩, ln ΔN) of the points with ΔN > 0.
fn fit_points(points: impl Iterator<Item = (f64, f64)>) -> LineFit {
    let (xs, ys): (Vec<f64>, Vec<f64>) = points
        .filter(|&(_, var)| var > 0.0)
        .map(|(mean, var)| (mean.ln(), 0.5 * var.ln()))
        .unzip();
    least_squares_line(&xs, &ys)
}

/// Number fluctuations of one configuration: `positions` (x, y) in [0, `width`) × [0, `height`)
/// (world units; positions outside are counted in the nearest edge box), in a periodic or closed
/// world. See the module documentation for the method and for what the error of α means.
///
/// # Panics
///
/// When a side is not positive or `sizes` is invalid (`side_ratio` ≤ 1, `min_mean_count` ≤ 0).
pub fn number_fluctuations<T: Copy + Into<f64>>(
    positions: &[[T; 2]],
    width: f64,
    height: f64,
    sizes: BoxSizes,
) -> NumberFluctuations {
    number_fluctuations_over(&[positions], width, height, sizes)
}

/// Number fluctuations averaged over several configurations of one world (snapshots at different
/// times, or independent repeats): for each box size, ΔN² (divisor M − 1 in each snapshot) and
/// ⟨n⟩ are averaged over the snapshots before α is fitted, and the jackknife leaves a region out
/// of every snapshot at once. The box sizes follow the mean particle count. Averaging lowers the
/// noise of every point; snapshots closer in time than the density's correlation time add little.
///
/// # Panics
///
/// As [`number_fluctuations`].
pub fn number_fluctuations_over<T: Copy + Into<f64>>(
    snapshots: &[&[[T; 2]]],
    width: f64,
    height: f64,
    sizes: BoxSizes,
) -> NumberFluctuations {
    let snapshot_count = snapshots.len().max(1) as f64;
    let mean_particles = snapshots.iter().map(|p| p.len()).sum::<usize>() as f64 / snapshot_count;
    let grids = grids(width, height, mean_particles, sizes);
    // The regions of the jackknife are the boxes of the coarsest grid.
    let (rx, ry) = grids.first().copied().unwrap_or((1, 1));
    let regions = rx * ry;
    // sums[g][s][r]: grid g, snapshot s, region r.
    let sums: Vec<Vec<Vec<RegionSums>>> = grids
        .iter()
        .map(|&(mx, my)| {
            let region_of = |i: usize, j: usize| {
                let cx = (2 * i + 1) * rx / (2 * mx);
                let cy = (2 * j + 1) * ry / (2 * my);
                cy * rx + cx
            };
            let mut counts = vec![0u32; mx * my];
            snapshots
                .iter()
                .map(|snapshot| {
                    counts.fill(0);
                    for p in *snapshot {
                        let (x, y): (f64, f64) = (p[0].into(), p[1].into());
                        counts[cell(y, height, my) * mx + cell(x, width, mx)] += 1;
                    }
                    let mut per_region = vec![RegionSums::default(); regions];
                    for (b, &c) in counts.iter().enumerate() {
                        let r = &mut per_region[region_of(b % mx, b / mx)];
                        let c = c as f64;
                        r.boxes += 1.0;
                        r.sum += c;
                        r.sum_sq += c * c;
                    }
                    per_region
                })
                .collect()
        })
        .collect();
    let points: Vec<CountFluctuation> = grids
        .iter()
        .zip(&sums)
        .map(|(&(mx, my), s)| {
            let (mean, var) = mean_and_variance(s, None);
            CountFluctuation {
                box_width: width / mx as f64,
                box_height: height / my as f64,
                boxes: mx * my,
                mean_count: mean,
                delta_n: var.sqrt(),
            }
        })
        .collect();
    let fit = fit_points(points.iter().map(|p| (p.mean_count, p.delta_n.powi(2))));
    let alpha_error = if regions < 2 || fit.slope.is_nan() {
        f64::NAN
    } else {
        let deleted: Vec<f64> = (0..regions)
            .map(|j| fit_points(sums.iter().map(|s| mean_and_variance(s, Some(j)))).slope)
            .collect();
        let r = regions as f64;
        let mean = deleted.iter().sum::<f64>() / r;
        ((r - 1.0) / r * deleted.iter().map(|a| (a - mean).powi(2)).sum::<f64>()).sqrt()
    };
    NumberFluctuations {
        points,
        alpha: fit.slope,
        alpha_error,
        regions,
        fit,
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_rng::TestRng;
    use super::*;

    fn gas(rng: &mut TestRng, n: usize, w: f64, h: f64) -> Vec<[f64; 2]> {
        (0..n)
            .map(|_| [w * rng.uniform(), h * rng.uniform()])
            .collect()
    }

    #[test]
    fn box_sizes_span_a_quarter_side_to_a_few_particles() {
        // Square world, N = 10 000: 4 … 50 boxes a side (10 000/50² = 4), side ratio 2^{1/4}.
        let g = grids(100.0, 100.0, 10_000.0, BoxSizes::default());
        let sides: Vec<usize> = g
            .iter()
            .map(|&(mx, my)| {
                assert_eq!(mx, my);
                mx
            })
            .collect();
        assert_eq!(
            sides,
            [4, 5, 6, 7, 8, 10, 11, 13, 16, 19, 23, 27, 32, 38, 45]
        );
        // A 2:1 world: 4 boxes along the height, 8 along the width.
        let g = grids(200.0, 100.0, 10_000.0, BoxSizes::default());
        assert_eq!(g[0], (8, 4));
        assert!(g.iter().all(|&(mx, my)| 10_000.0 / (mx * my) as f64 >= 4.0));
        // Too few particles for a quarter-side box of 4: no point.
        assert!(grids(1.0, 1.0, 60.0, BoxSizes::default()).is_empty());
    }

    /// `min_particles` is the count at which `grids` gains its k-th size, and not one fewer.
    #[test]
    fn min_particles_is_where_each_box_size_begins() {
        let s = BoxSizes::default();
        assert_eq!(min_particles(100.0, 100.0, s, 1), 64);
        assert_eq!(min_particles(100.0, 100.0, s, 2), 100);
        for (w, h) in [(100.0, 100.0), (200.0, 100.0), (30.0, 170.0)] {
            for k in 1..8 {
                let n = min_particles(w, h, s, k);
                assert_eq!(grids(w, h, n as f64, s).len(), k, "{w} × {h}, {k} sizes");
                assert_eq!(
                    grids(w, h, (n - 1) as f64, s).len(),
                    k - 1,
                    "{w} × {h}, {k} sizes"
                );
            }
        }
    }

    #[test]
    fn counts_tile_the_world() {
        // A 1 × 1 world with one grid (4 × 4; side ratio 100 skips to 400 a side): 32 particles,
        // 2 per box, then one moved from the first box to the last (at the far corner, on the
        // edge: clamped into it). Counts 1, 2 × 14, 3: ⟨n⟩ = 2, ΔN² = (1 + 1)/15.
        let sizes = BoxSizes {
            min_mean_count: 1.0,
            side_ratio: 100.0,
        };
        let mut p: Vec<[f64; 2]> = (0..32)
            .map(|i| {
                let b = i / 2;
                [(b % 4) as f64 * 0.25 + 0.1, (b / 4) as f64 * 0.25 + 0.1]
            })
            .collect();
        p[0] = [1.0, 1.0];
        let nf = number_fluctuations(&p, 1.0, 1.0, sizes);
        assert_eq!(nf.points.len(), 1);
        let q = nf.points[0];
        assert_eq!((q.boxes, q.mean_count), (16, 2.0));
        assert_eq!((q.box_width, q.box_height), (0.25, 0.25));
        assert!((q.delta_n * q.delta_n - 2.0 / 15.0).abs() < 1e-15);
        assert!(nf.alpha.is_nan());
        assert_eq!(cell(-0.5, 1.0, 2), 0);
        assert_eq!(cell(f64::NAN, 1.0, 2), 0);
    }

    #[test]
    fn a_lattice_has_no_fluctuations_on_commensurate_boxes() {
        // 64 × 64 particles at the centres of a 64 × 64 lattice: boxes of 4, 8, 16, 32 a side hold
        // exactly 64²/m² each (ΔN = 0, left out of the fit); the others do not.
        let p: Vec<[f32; 2]> = (0..64 * 64)
            .map(|i| [(i % 64) as f32 + 0.5, (i / 64) as f32 + 0.5])
            .collect();
        let nf = number_fluctuations(&p, 64.0, 64.0, BoxSizes::default());
        for q in &nf.points {
            let m = (64.0 / q.box_width).round() as usize;
            assert_eq!(
                q.delta_n == 0.0,
                64usize.is_multiple_of(m),
                "m = {m}, ΔN = {}",
                q.delta_n
            );
        }
        let zero = nf.points.iter().filter(|q| q.delta_n == 0.0).count();
        assert_eq!(zero, 4);
        assert_eq!(nf.fit.points, nf.points.len() - zero);
    }

    #[test]
    fn random_gas_has_exponent_one_half() {
        // One configuration of 10 000 uniform particles: α = 1/2 up to its error (≈ 0.027) and a
        // small bias (≈ −0.01, see `jackknife_error_of_alpha_is_calibrated`); 4 errors allow both.
        // The error must also be small enough to mean something (< 0.05).
        let mut rng = TestRng::new(61);
        let p = gas(&mut rng, 10_000, 100.0, 100.0);
        let nf = number_fluctuations(&p, 100.0, 100.0, BoxSizes::default());
        assert_eq!((nf.points.len(), nf.regions), (15, 16));
        assert!(
            nf.alpha_error > 0.0 && nf.alpha_error < 0.05,
            "{}",
            nf.alpha_error
        );
        assert!(
            (nf.alpha - 0.5).abs() < 4.0 * nf.alpha_error,
            "α = {} ± {}",
            nf.alpha,
            nf.alpha_error
        );
        // Poisson at every size: ΔN²/⟨n⟩ = 1 to the sampling error of a variance over M boxes,
        // √(2/(M − 1)) (plus 1/⟨n⟩ from the Poisson kurtosis); 4 of those.
        for q in &nf.points {
            let m = q.boxes as f64;
            let tol = 4.0 * (2.0 / (m - 1.0) + 1.0 / (q.mean_count * m)).sqrt();
            let ratio = q.delta_n.powi(2) / q.mean_count;
            assert!(
                (ratio - 1.0).abs() < tol,
                "M = {m}: ΔN²/⟨n⟩ = {ratio} (±{tol})"
            );
        }
        // A non-square world: the same, with 4 × 8 regions.
        let p = gas(&mut rng, 10_000, 200.0, 50.0);
        let nf = number_fluctuations(&p, 200.0, 50.0, BoxSizes::default());
        assert_eq!(nf.regions, 4 * 16);
        assert!((nf.alpha - 0.5).abs() < 4.0 * nf.alpha_error && nf.alpha_error < 0.05);
    }

    #[test]
    fn jackknife_error_of_alpha_is_calibrated() {
        // 100 independent random gases of 10 000: the reported jackknife error (rms over them)
        // must match the actual scatter of α. The sd of 100 values is known to ±1/√198 = 7 %; we
        // allow ±25 % (3.5 of those). The residual error of the fit, by contrast, falls short of
        // the scatter by about 2 (the correlated points), which is why α's error is the jackknife.
        // The mean of α sits below 1/2 by the bias of ln ΔN at the largest boxes (≈ 0.01, module
        // docs): we allow 0.01 plus 3 standard errors of the mean (3 · 0.0028).
        let mut rng = TestRng::new(62);
        let runs: Vec<NumberFluctuations> = (0..100)
            .map(|_| {
                let p = gas(&mut rng, 10_000, 100.0, 100.0);
                number_fluctuations(&p, 100.0, 100.0, BoxSizes::default())
            })
            .collect();
        let k = runs.len() as f64;
        let mean = runs.iter().map(|r| r.alpha).sum::<f64>() / k;
        let sd = (runs.iter().map(|r| (r.alpha - mean).powi(2)).sum::<f64>() / (k - 1.0)).sqrt();
        let rms = |f: fn(&NumberFluctuations) -> f64| {
            (runs.iter().map(|r| f(r).powi(2)).sum::<f64>() / k).sqrt()
        };
        let jackknife = rms(|r| r.alpha_error);
        let residual = rms(|r| r.fit.slope_error);
        assert!(
            (jackknife / sd - 1.0).abs() < 0.25,
            "jackknife error {jackknife} vs scatter {sd}"
        );
        assert!(
            residual < 0.6 * sd,
            "residual error {residual} vs scatter {sd}"
        );
        assert!(
            (mean - 0.5).abs() < 0.01 + 3.0 * sd / k.sqrt(),
            "mean α = {mean}"
        );
    }

    #[test]
    fn snapshots_average_down_the_error() {
        // Ten gases averaged: α = 1/2 within 4 errors, and the error below that of one
        // configuration (≈ 0.027/√10 ≈ 0.009; we require < 0.015).
        let mut rng = TestRng::new(63);
        let gases: Vec<Vec<[f64; 2]>> = (0..10)
            .map(|_| gas(&mut rng, 10_000, 100.0, 100.0))
            .collect();
        let refs: Vec<&[[f64; 2]]> = gases.iter().map(|g| g.as_slice()).collect();
        let nf = number_fluctuations_over(&refs, 100.0, 100.0, BoxSizes::default());
        assert!(
            nf.alpha_error > 0.0 && nf.alpha_error < 0.015,
            "{}",
            nf.alpha_error
        );
        assert!(
            (nf.alpha - 0.5).abs() < 4.0 * nf.alpha_error,
            "α = {} ± {}",
            nf.alpha,
            nf.alpha_error
        );
    }

    #[test]
    fn density_bands_give_giant_fluctuations() {
        // A planted clustered configuration: 10 000 particles in four bands a quarter of the world
        // wide, alternately dense and dilute (density ratio 3 : 1), like the travelling bands of
        // the ordered Vicsek phase. A box inside a band holds (1 ± 1/2)·⟨n⟩, so ΔN² ≈ ⟨n⟩ + ⟨n⟩²/4
        // crosses from ⟨n⟩^{1/2} to ⟨n⟩^1 across the sizes: α ≈ 0.9. We require α > 0.75 and more
        // than 10 errors (either error, residual or jackknife) above 1/2.
        let mut rng = TestRng::new(64);
        let p: Vec<[f64; 2]> = (0..10_000)
            .map(|_| loop {
                let (x, y) = (100.0 * rng.uniform(), 100.0 * rng.uniform());
                let dense = ((x / 25.0) as usize).is_multiple_of(2);
                if dense || rng.uniform() < 1.0 / 3.0 {
                    break [x, y];
                }
            })
            .collect();
        let nf = number_fluctuations(&p, 100.0, 100.0, BoxSizes::default());
        let error = nf.alpha_error.max(nf.fit.slope_error);
        assert!(
            nf.alpha > 0.75 && nf.alpha - 0.5 > 10.0 * error,
            "α = {} ± {error}",
            nf.alpha
        );
    }
}
