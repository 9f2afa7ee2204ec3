//! The vectorised neighbour gather of the CPU `rules` twin: every path this CPU runs gives the
//! portable path's bits, and the sums equal the scalar reference's and the brute-force oracle's
//! up to the summation order (1e-5 of the sum of the terms' magnitudes; counts exactly; near a
//! wrapping seam only the counts against the oracle, see `check_state`), on seeded
//! states with the wrap seam, coincident boids, empty and crowded cells, and distinct radii. A
//! whole step on each path stays within the one-step tolerance of the scalar step, and does not
//! depend on the order of the input.

use crate::support;
use boids::backend::{BackendKind, Simulation};
use boids::cpu::gather_simd::{
    gather_steps_into, simd_applies, steps_of, GatherPath, LaneStep, SortedLanes,
};
use boids::cpu::naive::gather_naive;
use boids::cpu::rules::{gather_with, Candidates, Gather, STEPS};
use boids::cpu::CpuBackend;
use boids::model::rules::{accumulate_parts, min_image, NeighborSums};
use boids::model::{Boid, Boundary, Model, SimParams, StepUniforms};
use boids::stages::twins::{gather, CpuStep};

/// Bins `boids` with the CPU twins (clear → … → scatter).
fn bin(boids: &[Boid], p: &SimParams, u: &StepUniforms) -> CpuStep {
    let mut c = CpuStep::new(boids, p);
    c.prepare(*u);
    for stage in boids::stages::step_stages().take_while(|s| s.name != "rules") {
        (stage.twin)(&mut c);
    }
    c
}

/// The float fields of a sums record, in a fixed order.
fn floats(s: &NeighborSums) -> [f32; 10] {
    [
        s.separation.x,
        s.separation.y,
        s.alignment.x,
        s.alignment.y,
        s.cohesion.x,
        s.cohesion.y,
        s.hue.x,
        s.hue.y,
        s.hue_velocity.x,
        s.hue_velocity.y,
    ]
}

fn counts(s: &NeighborSums) -> [u32; 4] {
    [s.alignment_n, s.cohesion_n, s.hue_n, s.neighbors]
}

/// Whether `a` and `b` are the same bits (−0.0 ≠ +0.0).
fn same_bits(a: &NeighborSums, b: &NeighborSums) -> bool {
    counts(a) == counts(b)
        && floats(a)
            .iter()
            .zip(floats(b))
            .all(|(x, y)| x.to_bits() == y.to_bits())
}

/// Checks `a` against the reference `b`: counts exactly, each float within `rel` of the matching
/// entry of `mag` (the sum of the terms' magnitudes).
fn close(a: &NeighborSums, b: &NeighborSums, mag: &NeighborSums, rel: f32) -> Result<(), String> {
    if counts(a) != counts(b) {
        return Err(format!("counts {:?} vs {:?}", counts(a), counts(b)));
    }
    let names = [
        "separation.x",
        "separation.y",
        "alignment.x",
        "alignment.y",
        "cohesion.x",
        "cohesion.y",
        "hue.x",
        "hue.y",
        "hue_velocity.x",
        "hue_velocity.y",
    ];
    for (k, ((x, y), m)) in floats(a).iter().zip(floats(b)).zip(floats(mag)).enumerate() {
        let tol = rel * m.abs() + f32::MIN_POSITIVE;
        if !x.is_finite() || (x - y).abs() > tol {
            return Err(format!(
                "{}: {x} vs {y} (tolerance {tol}, Σ|terms| {m})",
                names[k]
            ));
        }
    }
    Ok(())
}

/// The sums of the terms' magnitudes of boid `i` (brute force, minimum image): the terms of
/// `accumulate_parts` for |d|, |v| and |hue| component-wise.
fn magnitudes(i: usize, boids: &[Boid], u: &StepUniforms) -> NeighborSums {
    let mut m = NeighborSums::default();
    for (j, o) in boids.iter().enumerate() {
        if j != i {
            let d = min_image(o.pos() - boids[i].pos(), u).abs();
            let h = [
                [o.hue[0].abs(), o.hue[1].abs()],
                [o.hue_velocity[0].abs(), o.hue_velocity[1].abs()],
            ];
            accumulate_parts(&mut m, d, o.vel().abs(), h, u);
        }
    }
    m
}

const REL: f32 = 1e-5;

/// Every available vectorised path on every boid of `boids`: same bits as the portable path,
/// close to the scalar reference and to the brute-force oracle. Returns the number of boids with
/// neighbours (so a caller can check its state is not trivially empty).
fn check_state(boids: &[Boid], p: &SimParams, what: &str) -> usize {
    let n = boids.len();
    let u = StepUniforms::new(p, n as u32, 0, 1, &Default::default());
    assert!(simd_applies(&u), "{what}: an uncapped model");
    let c = bin(boids, p, &u);
    let total = c.cells[c.cells.len() - 1] as usize;
    let mut lanes = SortedLanes::default();
    lanes.fill(&c.sorted_pos_vel[..total], &c.sorted_hue[..total]);
    let sorted = c.sorted();
    let grid = u.grid();
    // The oracle's input in id order (ids are 0 .. n).
    let mut by_id = boids.to_vec();
    by_id.sort_by_key(|b| b.id);
    let paths: Vec<GatherPath> = GatherPath::available()
        .filter(|&p| p != GatherPath::Scalar && p != GatherPath::Portable)
        .collect();
    let mut with_neighbours = 0;
    for s in 0..n {
        let portable = gather_with(
            Gather::Lanes(GatherPath::Portable, &lanes),
            s,
            sorted,
            &c.cells,
            &grid,
            &u,
        );
        for &path in &paths {
            let v = gather_with(Gather::Lanes(path, &lanes), s, sorted, &c.cells, &grid, &u);
            assert!(
                same_bits(&v, &portable),
                "{what}: {} differs from the portable path at item {s}: {v:?} vs {portable:?}",
                path.name()
            );
        }
        // The lane steps `rules` walks (built without a branch per range) are the ranges'
        // steps, and every path over them gives the portable bits.
        let me = c.sorted_pos_vel[s];
        let pos = glam::Vec2::new(me[0], me[1]);
        let (cx, cy) = grid.cell_xy(pos);
        let cand = Candidates::of_cell(cx, cy, &c.cells, &grid, &u);
        let want: Vec<LaneStep> = steps_of(cand.ranges()).collect();
        match cand.steps() {
            Some(steps) => {
                assert_eq!(steps, &want[..], "{what}: lane steps of item {s}");
                for &path in paths.iter().chain([&GatherPath::Portable]) {
                    let mut v = NeighborSums::default();
                    gather_steps_into(path, s, pos, steps, &lanes, &u, &mut v);
                    assert!(
                        same_bits(&v, &portable),
                        "{what}: {} over the lane steps differs from the portable path at \
                         item {s}: {v:?} vs {portable:?}",
                        path.name()
                    );
                }
            }
            None => assert!(want.len() > STEPS, "{what}: {} steps kept none", want.len()),
        }
        let id = c.sorted_id[s] as usize;
        let mag = magnitudes(id, &by_id, &u);
        let scalar = gather(s, sorted, &c.cells, &grid, &u);
        close(&portable, &scalar, &mag, REL)
            .unwrap_or_else(|e| panic!("{what}: item {s} (boid {id}) vs the scalar gather: {e}"));
        // Across a wrapping seam the grid sees a ghost at x ± W (or a row shifted by ± H), the
        // oracle the minimum image of the offset: offsets that differ by an ulp of the world
        // size, which a close pair's separation term magnifies. There only the counts are
        // compared (the scalar gather above sees the same offsets as the lanes).
        let naive = gather_naive(id, &by_id, &u);
        let r = p.perception_radius;
        let b = &by_id[id];
        let near_seam = p.boundary == Boundary::Wrap
            && (b.position[0] < r
                || b.position[0] > p.world_width - r
                || b.position[1] < r
                || b.position[1] > p.world_height - r);
        if near_seam {
            // Not even the counts where a neighbour of the oracle lies within a relative 1e-6
            // of a radius (an ulp of the world's size moves it across).
            let edges = [
                u.perception_r2,
                u.separation_r2,
                u.alignment_r2,
                u.cohesion_r2,
                u.hue_r2,
            ];
            let on_an_edge = by_id.iter().any(|o| {
                let d = min_image(o.pos() - b.pos(), &u);
                let d2 = d.dot(d);
                edges.iter().any(|&r2| (d2 - r2).abs() <= 1e-6 * r2)
            });
            if !on_an_edge {
                assert_eq!(
                    counts(&portable),
                    counts(&naive),
                    "{what}: item {s} (boid {id})"
                );
            }
        } else {
            close(&portable, &naive, &mag, REL)
                .unwrap_or_else(|e| panic!("{what}: item {s} (boid {id}) vs brute force: {e}"));
        }
        with_neighbours += (portable.neighbors > 0) as usize;
    }
    eprintln!(
        "{what}: {n} boids, {with_neighbours} with neighbours; paths checked against the \
         portable one: {:?}",
        paths.iter().map(|p| p.name()).collect::<Vec<_>>()
    );
    for path in GatherPath::ALL.into_iter().filter(|p| !p.is_available()) {
        eprintln!(
            "{what}: SKIPPED the {} path: this CPU lacks it",
            path.name()
        );
    }
    with_neighbours
}

fn params(w: f32, h: f32, boundary: Boundary) -> SimParams {
    SimParams {
        world_width: w,
        world_height: h,
        boundary,
        ..SimParams::default()
    }
}

#[test]
fn every_path_on_random_states_with_the_seam_and_coincident_boids() {
    for (k, boundary) in [Boundary::Wrap, Boundary::Walls, Boundary::Bounce]
        .into_iter()
        .enumerate()
    {
        for (n, density) in [(17usize, 0.01f32), (3000, 0.01), (3000, 0.05)] {
            let p = params(100.0, 100.0, boundary).with_world_for(n, density);
            let boids = support::test_state(k as u32 + 50, n, &p, true);
            let busy = check_state(&boids, &p, &format!("{boundary:?} n={n} ρ={density}"));
            assert!(n < 100 || busy > n / 2, "most boids have neighbours");
        }
    }
}

#[test]
fn every_path_with_distinct_radii() {
    // Separation < hue < alignment < perception < cohesion: every rule's mask differs (cohesion
    // is capped by the perception radius).
    let p = SimParams {
        separation_radius: 6.0,
        hue_radius: 9.0,
        alignment_radius: 14.0,
        cohesion_radius: 30.0,
        ..params(100.0, 100.0, Boundary::Wrap)
    }
    .with_world_for(4000, 0.03);
    let boids = support::test_state(61, 4000, &p, true);
    check_state(&boids, &p, "distinct radii");
}

#[test]
fn every_path_with_a_field_of_view() {
    // Narrower and wider than a half-plane (the two forms of the test, docs/model.md §4.6), a
    // half-plane, with equal and with distinct radii, and some boids at rest (they see all
    // around); the field of view must leave out boids (fewer neighbours than all around).
    for (k, alpha) in [90.0f32, 180.0, 270.0].into_iter().enumerate() {
        for distinct in [false, true] {
            let mut p = SimParams {
                view_angle: alpha,
                ..params(100.0, 100.0, Boundary::Wrap)
            };
            if distinct {
                p.separation_radius = 6.0;
                p.hue_radius = 9.0;
                p.alignment_radius = 14.0;
            }
            let p = p.with_world_for(3000, 0.03);
            let boids = support::test_state(k as u32 + 70, 3000, &p, true);
            let what = format!("view {alpha}° distinct radii {distinct}");
            let seen = check_state(&boids, &p, &what);
            let all = SimParams {
                view_angle: 360.0,
                ..p.clone()
            };
            let u = |p: &SimParams| StepUniforms::new(p, 3000, 0, 1, &Default::default());
            let count = |p: &SimParams| -> u32 {
                let u = u(p);
                (0..boids.len())
                    .map(|i| gather_naive(i, &boids, &u).neighbors)
                    .sum()
            };
            assert!(seen > 1000, "{what}: {seen} boids see neighbours");
            assert!(
                count(&p) < count(&all),
                "{what}: the field of view leaves out none"
            );
        }
    }
}

#[test]
fn every_path_with_declared_zones() {
    // Couzin's pair terms (docs/model.md §4.7, §21): unit vectors over nested annuli, every mask
    // bounded on both sides; with and without a field of view, wrapped and walled, with
    // coincident boids (which no weighted sum counts).
    for (k, (boundary, alpha)) in [
        (Boundary::Wrap, 360.0f32),
        (Boundary::Wrap, 270.0),
        (Boundary::Walls, 360.0),
    ]
    .into_iter()
    .enumerate()
    {
        let mut p = SimParams {
            model: Model::COUZIN,
            view_angle: alpha,
            perception_radius: 19.0,
            ..params(100.0, 100.0, boundary)
        };
        p.models.couzin.repulsion_radius = 2.0;
        p.models.couzin.orientation_width = 5.0;
        p.models.couzin.attraction_width = 12.0;
        let p = p.with_world_for(3000, 0.03);
        let boids = support::test_state(k as u32 + 90, 3000, &p, true);
        let what = format!("zones {boundary:?} view {alpha}°");
        assert!(check_state(&boids, &p, &what) > 1000, "{what}");
        // Every zone holds neighbours somewhere (the test can tell the bands apart).
        let u = StepUniforms::new(&p, 3000, 0, 1, &Default::default());
        let (mut r, mut o, mut a) = (0, 0, 0);
        for i in 0..boids.len() {
            let s = gather_naive(i, &boids, &u);
            r += s.neighbors - s.alignment_n - s.cohesion_n;
            o += s.alignment_n;
            a += s.cohesion_n;
        }
        assert!(r > 100 && o > 1000 && a > 1000, "{what}: zones {r} {o} {a}");
    }
}

#[test]
fn every_path_with_crowded_and_empty_cells_and_coincident_boids() {
    // Half the flock in one cell (hundreds of candidates per boid, many ranges longer than 8),
    // some exactly on top of each other or closer than the coincidence threshold, the rest
    // spread thin (empty cells and empty ranges).
    let p = params(400.0, 300.0, Boundary::Wrap);
    let mut boids = boids::model::initial_state(7, 1200, &p);
    for (k, b) in boids.iter_mut().enumerate().take(600) {
        b.position = match k % 6 {
            0 => [200.0, 150.0],
            1 => [200.0 + 5e-5, 150.0],
            _ => [
                200.0 + (k % 17) as f32 * 0.25,
                150.0 + (k % 13) as f32 * 0.3,
            ],
        };
    }
    let busy = check_state(&boids, &p, "crowded");
    assert!(busy >= 600);
}

#[test]
fn every_path_across_the_seam_of_a_narrow_world() {
    // Worlds two to three radii across: ghosts on both sides and blocks that wrap onto
    // themselves vertically; boids packed along the seams and in the corners.
    for (w, h) in [(40.0, 40.0), (45.0, 60.0), (200.0, 41.0)] {
        let p = params(w, h, Boundary::Wrap);
        let mut boids = boids::model::initial_state(3, 800, &p);
        for (k, b) in boids.iter_mut().enumerate() {
            let t = b.position;
            b.position = match k % 3 {
                0 => [t[0] % 3.0, t[1]],
                1 => [w - 1e-3 - (t[0] % 3.0), h - 1e-3 - (t[1] % 3.0)],
                _ => t,
            };
        }
        check_state(&boids, &p, &format!("narrow {w}x{h}"));
    }
}

#[test]
fn the_comparison_rejects_a_planted_difference() {
    let base = NeighborSums {
        alignment: glam::Vec2::new(10.0, -3.0),
        alignment_n: 4,
        neighbors: 5,
        ..Default::default()
    };
    let mag = NeighborSums {
        alignment: glam::Vec2::new(40.0, 12.0),
        ..base
    };
    close(&base, &base, &mag, REL).unwrap();
    let mut off = base;
    off.alignment.x += 1e-3;
    assert!(close(&off, &base, &mag, REL).is_err());
    let mut count = base;
    count.neighbors += 1;
    assert!(close(&count, &base, &mag, REL).is_err());
    let mut zero = base;
    zero.separation.x = -0.0;
    assert!(!same_bits(&zero, &base), "−0.0 and +0.0 are different bits");
}

/// The state after `steps` steps of the CPU backend on `path`.
fn run(path: GatherPath, p: &SimParams, boids: &[Boid], steps: usize) -> (Vec<Boid>, Vec<u32>) {
    let mut sim = CpuBackend::from_state(BackendKind::Cpu, p, boids.to_vec(), 9).unwrap();
    sim.set_gather_path(path);
    for _ in 0..steps {
        sim.step().unwrap();
    }
    (sim.boids(), sim.neighbor_counts().to_vec())
}

#[test]
fn a_step_on_each_path_is_the_scalar_step_within_the_tolerance() {
    for boundary in [Boundary::Wrap, Boundary::Walls, Boundary::Bounce] {
        let p = SimParams {
            boundary,
            rotational_diffusion: 0.5,
            ..SimParams::default()
        }
        .with_world_for(5000, 0.02);
        let boids = support::test_state(77, 5000, &p, true);
        let (scalar, scalar_n) = run(GatherPath::Scalar, &p, &boids, 1);
        let (portable, portable_n) = run(GatherPath::Portable, &p, &boids, 1);
        support::compare_states(&portable, &scalar, &p, support::ONE_STEP)
            .unwrap_or_else(|e| panic!("{boundary:?}: portable vs scalar: {e}"));
        assert_eq!(portable_n, scalar_n, "{boundary:?}: neighbour counts");
        for path in GatherPath::available().filter(|&p| p != GatherPath::Scalar) {
            let (v, vn) = run(path, &p, &boids, 3);
            let (w, wn) = run(GatherPath::Portable, &p, &boids, 3);
            assert_eq!(v, w, "{boundary:?}: {} vs portable, 3 steps", path.name());
            assert_eq!(vn, wn);
        }
    }
}

#[test]
fn a_vectorised_step_does_not_depend_on_the_input_order() {
    let p = SimParams::default().with_world_for(6000, 0.02);
    let boids = support::test_state(5, 6000, &p, true);
    let mut rev = boids.clone();
    rev.reverse();
    let (a, _) = run(GatherPath::best(), &p, &boids, 3);
    let (b, _) = run(GatherPath::best(), &p, &rev, 3);
    assert_eq!(a, b, "same boids in another order: the same run");
}

#[test]
fn a_capped_neighbourhood_uses_the_scalar_gather_on_every_path() {
    let p = SimParams {
        max_neighbors: 5,
        ..SimParams::default()
    }
    .with_world_for(3000, 0.03);
    let u = StepUniforms::new(&p, 3000, 0, 1, &Default::default());
    assert!(!simd_applies(&u));
    let boids = support::test_state(8, 3000, &p, true);
    let (scalar, _) = run(GatherPath::Scalar, &p, &boids, 2);
    for path in GatherPath::available() {
        assert_eq!(run(path, &p, &boids, 2).0, scalar, "{}", path.name());
    }
}
