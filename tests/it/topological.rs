//! The topological neighbourhood (Ballerini et al., PNAS 105, 1232 (2008); docs/model.md §19): a
//! boid's neighbours are its k nearest others by minimum-image distance whatever the distance,
//! ties by id. The grid's ring search equals brute force's k nearest — N from 1 to 5000, across
//! the wrap seam and in the corners, exact ties, k ≥ N − 1 (every other boid), walls and bounce
//! worlds, a world a million wide, every boid in one cell — on the reference twin, the CPU
//! backend's fast search (k ≤ 8, AVX2), the CPU backend and the brute-force backend; the fast
//! search's sums equal the twin's bit for bit; the GPU's sets (the plain search and the workgroup search
//! of the boids it defers) equal the CPU's exactly, and its steps equal the CPU's within the
//! one-step tolerance of `tests/common`.

use crate::support;
use boids::backend::{BackendKind, Simulation};
use boids::cpu::gather_simd::SortedLanes;
use boids::cpu::topological::{
    fast_search_available, topological_nearest_small, topological_sums_small, Block, SMALL_K,
};
use boids::cpu::CpuBackend;
use boids::gpu::GpuBackend;
use boids::model::rules::{min_image, topo_d2};
use boids::model::rules::{NeighborSums, TopoNearest};
use boids::model::{initial_state, Boid, Boundary, Model, Neighborhood, SimParams, StepUniforms};
use boids::stages::twins::{topological_nearest, topological_sums, CpuStep};

/// A boid's neighbour list: its id and its neighbours' ids, nearest first.
type Lists = Vec<(u32, Vec<u32>)>;

/// Brute force: for every boid (by ascending id) the ids of its k nearest others by (squared
/// minimum-image distance, id).
fn brute(boids: &[Boid], k: usize, u: &StepUniforms) -> Lists {
    let mut out: Lists = boids
        .iter()
        .enumerate()
        .map(|(i, me)| {
            let mut c: Vec<(f32, u32)> = boids
                .iter()
                .enumerate()
                .filter(|(j, _)| *j != i)
                .map(|(_, o)| (topo_d2(min_image(o.pos() - me.pos(), u)), o.id))
                .collect();
            c.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            (me.id, c.into_iter().take(k).map(|x| x.1).collect())
        })
        .collect();
    out.sort_by_key(|x| x.0);
    out
}

/// The boids binned by the twins (the stages before `rules`), with their uniform block.
fn binned(boids: &[Boid], p: &SimParams) -> (StepUniforms, CpuStep) {
    let u = StepUniforms::new(p, boids.len() as u32, 0, 1, &Default::default());
    let mut c = CpuStep::new(boids, p);
    c.prepare(u);
    for stage in boids::stages::step_stages().take_while(|s| s.name != "rules") {
        (stage.twin)(&mut c);
    }
    (u, c)
}

/// The reference twin's lists: the boids binned by the twins, then `topological_nearest` for
/// every boid (the first N sorted items).
fn twin(boids: &[Boid], p: &SimParams) -> Lists {
    let (u, c) = binned(boids, p);
    let grid = u.grid();
    let mut near = TopoNearest::new(p.topological_k as usize);
    let mut out: Lists = (0..boids.len())
        .map(|s| {
            topological_nearest(s, c.sorted(), &c.cells, &grid, &u, &mut near);
            (c.sorted_id[s], near.selected().map(|x| x.1).collect())
        })
        .collect();
    out.sort_by_key(|x| x.0);
    out
}

/// Whether the CPU backend's fast search runs for `p` here (k ≤ 8 on a CPU with AVX2); says
/// SKIPPED when this CPU lacks it.
fn fast_runs(p: &SimParams) -> bool {
    if !fast_search_available() {
        eprintln!("SKIPPED the fast topological search: this CPU lacks AVX2");
        return false;
    }
    p.topological_k as usize <= SMALL_K
}

/// The sorted items transposed, as the CPU backend's `rules` stage makes them.
fn lanes(c: &CpuStep) -> SortedLanes {
    let total = c.cells[c.cells.len() - 1] as usize;
    let mut lanes = SortedLanes::default();
    lanes.fill(&c.sorted_pos_vel[..total], &c.sorted_hue[..total]);
    lanes
}

/// The fast search's lists (`topological_nearest_small`, the boids in sorted order sharing one
/// block cache as in the backend), `None` where it does not run.
fn fast(boids: &[Boid], p: &SimParams) -> Option<Lists> {
    if !fast_runs(p) {
        return None;
    }
    let (u, c) = binned(boids, p);
    let (grid, lanes) = (u.grid(), lanes(&c));
    let mut block = Block::new();
    let mut out: Lists = (0..boids.len())
        .map(|s| {
            let near =
                topological_nearest_small(s, &mut block, &lanes, &c.sorted_id, &c.cells, &grid, &u);
            (c.sorted_id[s], near.selected().map(|x| x.1).collect())
        })
        .collect();
    out.sort_by_key(|x| x.0);
    Some(out)
}

/// Compares two sets of lists exactly (the same boids, the same neighbours in the same order);
/// the error names the first boid that differs.
fn compare(a: &Lists, b: &Lists) -> Result<(), String> {
    if a.len() != b.len() {
        return Err(format!("{} lists vs {}", a.len(), b.len()));
    }
    for (x, y) in a.iter().zip(b) {
        if x != y {
            return Err(format!(
                "boid {}: {:?} vs boid {}: {:?}",
                x.0, x.1, y.0, y.1
            ));
        }
    }
    Ok(())
}

fn topo(p: SimParams, k: u32) -> SimParams {
    SimParams {
        neighborhood: Neighborhood::Topological,
        topological_k: k,
        ..p
    }
}

fn world(w: f32, h: f32, boundary: Boundary) -> SimParams {
    SimParams {
        world_width: w,
        world_height: h,
        boundary,
        ..SimParams::default()
    }
}

/// The twin's lists against brute force for `boids` in the world of `p`.
fn check(boids: &[Boid], p: &SimParams, what: &str) {
    p.validate().unwrap();
    let u = StepUniforms::new(p, boids.len() as u32, 0, 1, &Default::default());
    let want = brute(boids, p.topological_k as usize, &u);
    let expect = (p.topological_k as usize).min(boids.len() - 1);
    assert!(want.iter().all(|x| x.1.len() == expect), "{what}");
    compare(&twin(boids, p), &want).unwrap_or_else(|e| panic!("{what}: {e}"));
    if let Some(lists) = fast(boids, p) {
        compare(&lists, &want).unwrap_or_else(|e| panic!("{what}, fast search: {e}"));
    }
}

#[test]
fn the_list_comparison_fails_on_a_planted_difference() {
    let p = topo(world(300.0, 200.0, Boundary::Wrap), 7);
    let boids = support::test_state(3, 500, &p, true);
    let got = twin(&boids, &p);
    compare(&got, &got.clone()).unwrap();
    // One neighbour replaced, two swapped (the order is part of the list), one dropped.
    let mut other = got.clone();
    other[17].1[6] = other[17].1[6].wrapping_add(1);
    assert!(compare(&got, &other).is_err());
    let mut swapped = got.clone();
    swapped[3].1.swap(0, 1);
    assert!(compare(&got, &swapped).is_err());
    let mut short = got.clone();
    short[0].1.pop();
    assert!(compare(&got, &short).is_err());
}

#[test]
fn the_k_nearest_equal_brute_force_from_1_to_5000_boids() {
    for boundary in [Boundary::Wrap, Boundary::Walls, Boundary::Bounce] {
        for (s, n) in [1usize, 2, 3, 8, 17, 100, 1000, 5000]
            .into_iter()
            .enumerate()
        {
            for k in [1u32, 2, 7, 8, 9, 64] {
                let p = topo(world(400.0, 300.0, boundary), k).with_world_for(n, 0.01);
                let boids = support::test_state(s as u32 + 40, n, &p, true);
                check(&boids, &p, &format!("{boundary:?} n = {n}, k = {k}"));
            }
        }
    }
}

#[test]
fn across_the_wrap_seam_and_in_the_corners() {
    // Dense along the four edges and in the corners, where every ring wraps; the nearest of a
    // boid at x ≈ 0 are at x ≈ W, by minimum image.
    for k in [3u32, 7, 30] {
        let p = topo(world(200.0, 120.0, Boundary::Wrap), k);
        let mut boids = initial_state(3, 2000, &p);
        for (j, b) in boids.iter_mut().enumerate() {
            let t = b.position;
            b.position = match j % 4 {
                0 => [t[0] % 6.0, t[1]],
                1 => [p.world_width - 1e-3 - (t[0] % 6.0), t[1]],
                2 => [t[0], t[1] % 6.0],
                _ => [
                    t[0] % 6.0 + if j % 8 == 3 { 194.0 } else { 0.0 },
                    p.world_height - 1e-3 - (t[1] % 6.0),
                ],
            };
        }
        check(&boids, &p, &format!("seam, k = {k}"));
        // A handful in the four corners of a wide world: each one's nearest are the others, across
        // both seams.
        let p = topo(world(1000.0, 800.0, Boundary::Wrap), k.min(7));
        let mut few = initial_state(5, 8, &p);
        let corners = [
            [0.0, 0.0],
            [999.9, 0.0],
            [0.0, 799.9],
            [999.9, 799.9],
            [1.0, 2.0],
            [998.0, 798.0],
            [500.0, 0.5],
            [500.0, 799.5],
        ];
        for (b, c) in few.iter_mut().zip(corners) {
            b.position = c;
        }
        check(&few, &p, "corners");
    }
}

#[test]
fn ties_go_to_the_smaller_id() {
    // A square lattice of spacing 1: every boid has 4 others at distance 1, 4 at √2, 4 at 2, …
    // so the 7th nearest is one of a tie; the ids are shuffled against the positions, so the
    // order by id is not the order of the scan.
    for boundary in [Boundary::Wrap, Boundary::Walls] {
        for k in [2u32, 5, 7, 10, 21] {
            let side = 40usize;
            let p = topo(world(side as f32, side as f32, boundary), k);
            let mut boids = initial_state(7, side * side, &p);
            for (j, b) in boids.iter_mut().enumerate() {
                let at = (j * 761) % (side * side);
                b.position = [(at % side) as f32 + 0.5, (at / side) as f32 + 0.5];
            }
            let u = StepUniforms::new(&p, boids.len() as u32, 0, 1, &Default::default());
            let want = brute(&boids, k as usize, &u);
            // The ties are real: some boid's k-th and (k+1)-th nearest are equally far.
            let tied = boids.iter().any(|me| {
                let mut d: Vec<f32> = boids
                    .iter()
                    .filter(|o| o.id != me.id)
                    .map(|o| topo_d2(min_image(o.pos() - me.pos(), &u)))
                    .collect();
                d.sort_by(f32::total_cmp);
                d[k as usize - 1] == d[k as usize]
            });
            assert!(tied, "k = {k}: the lattice has ties at the k-th");
            compare(&twin(&boids, &p), &want)
                .unwrap_or_else(|e| panic!("lattice {boundary:?}, k = {k}: {e}"));
            if let Some(lists) = fast(&boids, &p) {
                compare(&lists, &want)
                    .unwrap_or_else(|e| panic!("lattice {boundary:?}, k = {k}, fast search: {e}"));
            }
        }
    }
}

#[test]
fn every_other_boid_when_k_is_at_least_n_minus_one() {
    for boundary in [Boundary::Wrap, Boundary::Walls, Boundary::Bounce] {
        for n in [2usize, 3, 5, 8, 20, 64, 65] {
            for k in [n as u32 - 1, n as u32 + 3] {
                let k = k.min(64);
                let p = topo(world(500.0, 300.0, boundary), k);
                let boids = support::test_state(n as u32, n, &p, true);
                check(&boids, &p, &format!("{boundary:?} n = {n}, k = {k}"));
                if k as usize >= n - 1 {
                    for (id, list) in twin(&boids, &p) {
                        assert_eq!(list.len(), n - 1, "boid {id}: every other boid");
                    }
                }
            }
        }
    }
}

#[test]
fn a_world_a_million_wide_and_every_boid_in_one_cell() {
    // 10 boids in a 10⁶ × 10⁶ world: the nearest are hundreds of thousands of wu away.
    for boundary in [Boundary::Wrap, Boundary::Walls] {
        let p = topo(world(1.0e6, 1.0e6, boundary), 7);
        let boids = initial_state(4, 10, &p);
        check(&boids, &p, &format!("sparse {boundary:?}"));
    }
    // 1500 boids in one cell of a 500 × 500 walled world (and one boid far from them).
    let p = topo(world(500.0, 500.0, Boundary::Walls), 7);
    let mut boids = initial_state(9, 1500, &p);
    for b in &mut boids[1..] {
        b.position = [100.0 + b.position[0] % 2.0, 100.0 + b.position[1] % 2.0];
    }
    let grid = boids::model::Grid::new(&p, boids.len());
    let cells: std::collections::BTreeSet<u32> =
        boids[1..].iter().map(|b| grid.cell_of(b.pos())).collect();
    assert_eq!(cells.len(), 1, "the crowd is in one cell");
    check(&boids, &p, "crowded");
}

/// A sum's bits, field by field.
fn sums_bits(s: &NeighborSums) -> Vec<u32> {
    let v = [s.separation, s.alignment, s.cohesion, s.hue, s.hue_velocity];
    let mut out: Vec<u32> = v
        .iter()
        .flat_map(|x| [x.x.to_bits(), x.y.to_bits()])
        .collect();
    out.extend([s.alignment_n, s.cohesion_n, s.hue_n, s.neighbors]);
    out
}

#[test]
fn the_fast_sums_are_the_twins_bit_for_bit() {
    // Every model and boundary, k from 1 to 8, separation radii from none of the k to most.
    if !fast_search_available() {
        eprintln!("SKIPPED the fast topological sums: this CPU lacks AVX2");
        return;
    }
    let (mut checked, mut separated) = (0, 0);
    let mut planted = false;
    for m in Model::all() {
        for (b, boundary) in [Boundary::Wrap, Boundary::Walls, Boundary::Bounce]
            .into_iter()
            .enumerate()
        {
            for (t, (k, separation)) in [(1u32, 2.0f32), (3, 6.0), (7, 9.0), (8, 30.0)]
                .into_iter()
                .enumerate()
            {
                let mut p = topo(
                    SimParams {
                        model: m,
                        boundary,
                        ..SimParams::default()
                    },
                    k,
                )
                .with_world_for(2000, 0.01);
                p.separation_radius = separation;
                let boids = support::test_state(10 * b as u32 + t as u32, 2000, &p, true);
                let (u, c) = binned(&boids, &p);
                let (grid, lanes) = (u.grid(), lanes(&c));
                let mut block = Block::new();
                let mut near = TopoNearest::new(k as usize);
                for s in 0..boids.len() {
                    topological_nearest(s, c.sorted(), &c.cells, &grid, &u, &mut near);
                    let want = topological_sums(s, &near, c.sorted(), &u);
                    let found = topological_nearest_small(
                        s,
                        &mut block,
                        &lanes,
                        &c.sorted_id,
                        &c.cells,
                        &grid,
                        &u,
                    );
                    let got = topological_sums_small(s, &found, c.sorted(), &u);
                    assert_eq!(
                        sums_bits(&got),
                        sums_bits(&want),
                        "{} {boundary:?} k = {k}, item {s}: {got:?} against {want:?}",
                        m.name()
                    );
                    separated += (want.separation != glam::Vec2::ZERO) as usize;
                    checked += 1;
                    // The comparison sees one ulp.
                    if !planted && want.separation.x != 0.0 {
                        let mut off = want;
                        off.separation.x = f32::from_bits(off.separation.x.to_bits() + 1);
                        assert_ne!(sums_bits(&off), sums_bits(&want));
                        planted = true;
                    }
                }
            }
        }
    }
    // Separation is summed somewhere (the models with a separation rule), and the comparison
    // sees one ulp.
    assert!(
        planted && checked > 0 && separated > 1000,
        "{checked} {separated}"
    );
}

#[test]
fn the_backends_record_the_brute_force_lists() {
    // The CPU backend (the fast `rules`) and the brute-force backend record, in a step, the lists
    // brute force finds in the state before it.
    for (s, boundary) in [Boundary::Wrap, Boundary::Walls, Boundary::Bounce]
        .into_iter()
        .enumerate()
    {
        for m in Model::all() {
            let p = topo(
                SimParams {
                    model: m,
                    ..world(400.0, 300.0, boundary)
                },
                7,
            )
            .with_world_for(3000, 0.01);
            let boids = support::test_state(s as u32 + 60, 3000, &p, true);
            let u = StepUniforms::new(&p, 3000, 0, 1, &Default::default());
            let want = brute(&boids, 7, &u);
            for kind in [BackendKind::Cpu, BackendKind::CpuNaive] {
                let mut sim = CpuBackend::from_state(kind, &p, boids.clone(), 3).unwrap();
                assert!(sim.neighbor_ids().unwrap().is_empty(), "none before a step");
                sim.record_neighbor_ids(true).unwrap();
                sim.step().unwrap();
                compare(&sim.neighbor_ids().unwrap(), &want)
                    .unwrap_or_else(|e| panic!("{kind:?} {} {boundary:?}: {e}", m.name()));
                // Every boid has 7 neighbours; a model with zones counts those of the 7 within
                // its outermost zone (docs/model.md §19.3).
                let zones = m.desc().radii == boids::model::models::Radii::Own;
                assert!(sim
                    .neighbor_counts()
                    .iter()
                    .all(|&c| c == 7 || (zones && c < 7)));
            }
        }
    }
}

#[test]
fn the_grid_step_equals_the_brute_force_step_bit_for_bit() {
    // The same neighbours summed in the same order (nearest first): the same bits.
    for m in Model::all() {
        for boundary in [Boundary::Wrap, Boundary::Walls] {
            let p = topo(
                SimParams {
                    model: m,
                    boundary,
                    ..SimParams::default()
                },
                7,
            )
            .with_world_for(2000, 0.01);
            let boids = support::test_state(5, 2000, &p, true);
            let mut grid = CpuBackend::from_state(BackendKind::Cpu, &p, boids.clone(), 8).unwrap();
            let mut naive = CpuBackend::from_state(BackendKind::CpuNaive, &p, boids, 8).unwrap();
            for _ in 0..3 {
                grid.step().unwrap();
                naive.step().unwrap();
            }
            let bits = |b: &CpuBackend| support::states::bits_by_id(&b.boids());
            assert!(
                bits(&grid) == bits(&naive),
                "{} {boundary:?}: grid and brute force differ",
                m.name()
            );
        }
    }
}

/// A backend of `kind` on `boids`, recording its lists.
fn recording(
    kind: BackendKind,
    ctx: Option<&boids::gpu::GpuContext>,
    p: &SimParams,
    boids: &[Boid],
) -> Box<dyn Simulation> {
    let mut sim: Box<dyn Simulation> = match kind {
        BackendKind::Gpu => Box::new(GpuBackend::from_state(ctx.unwrap(), p, boids, 9).unwrap()),
        _ => Box::new(CpuBackend::from_state(kind, p, boids.to_vec(), 9).unwrap()),
    };
    sim.record_neighbor_ids(true).unwrap();
    sim
}

/// One step of the GPU backend `g` and the CPU backend `c`: in the topological neighbourhood their
/// recorded lists equal exactly, and their states within the one-step tolerance.
fn step_both_and_compare(
    g: &mut dyn Simulation,
    c: &mut dyn Simulation,
    p: &SimParams,
    label: &str,
) {
    g.step().unwrap();
    c.step().unwrap();
    if p.neighborhood == Neighborhood::Topological {
        compare(&g.neighbor_ids().unwrap(), &c.neighbor_ids().unwrap())
            .unwrap_or_else(|e| panic!("{label}: GPU and CPU lists differ: {e}"));
    }
    support::compare_states(
        &g.read_state().unwrap(),
        &c.read_state().unwrap(),
        p,
        support::ONE_STEP,
    )
    .unwrap_or_else(|e| panic!("{label}: {e}"));
}

#[test]
fn the_gpu_lists_and_steps_equal_the_cpus() {
    let Some(ctx) = support::gpu() else { return };
    let mut cases: Vec<(String, SimParams, Vec<Boid>)> = Vec::new();
    for m in Model::all() {
        for (s, boundary) in [Boundary::Wrap, Boundary::Walls, Boundary::Bounce]
            .into_iter()
            .enumerate()
        {
            for k in [1u32, 7, 64] {
                let mut p = topo(
                    SimParams {
                        model: m,
                        boundary,
                        ..SimParams::default()
                    },
                    k,
                )
                .with_world_for(3000, 0.01);
                if m == Model::VICSEK {
                    p.models.vicsek.speed = 2.0;
                }
                let boids = support::test_state(s as u32 + 3 * k, 3000, &p, true);
                cases.push((format!("{} {boundary:?} k = {k}", m.name()), p, boids));
            }
        }
    }
    // Fewer boids than k + 1, and a lattice of ties.
    let p = topo(world(300.0, 300.0, Boundary::Wrap), 64);
    cases.push(("8 boids, k = 64".into(), p.clone(), initial_state(2, 8, &p)));
    let p = topo(world(40.0, 40.0, Boundary::Wrap), 7);
    let mut lattice = initial_state(7, 1600, &p);
    for (j, b) in lattice.iter_mut().enumerate() {
        let at = (j * 761) % 1600;
        b.position = [(at % 40) as f32 + 0.5, (at / 40) as f32 + 0.5];
    }
    cases.push(("lattice".into(), p, lattice));
    for (label, p, boids) in &cases {
        support::checked(&ctx, || {
            let mut g = recording(BackendKind::Gpu, Some(&ctx), p, boids);
            let mut c = recording(BackendKind::Cpu, None, p, boids);
            step_both_and_compare(g.as_mut(), c.as_mut(), p, label);
        });
    }
}

/// One recorded step of the GPU and of the CPU backend from `boids`: the GPU's lists equal the
/// CPU's exactly and its state the CPU's within the one-step tolerance. Returns the number of
/// boids the GPU deferred to its workgroup search (`rules_heavy`).
fn gpu_against_cpu(
    ctx: &boids::gpu::GpuContext,
    p: &SimParams,
    boids: &[Boid],
    label: &str,
) -> u32 {
    support::checked(ctx, || {
        let mut g = GpuBackend::from_state(ctx, p, boids, 9).unwrap();
        g.record_neighbor_ids(true).unwrap();
        let mut c = CpuBackend::from_state(BackendKind::Cpu, p, boids.to_vec(), 9).unwrap();
        c.record_neighbor_ids(true).unwrap();
        g.step().unwrap();
        c.step().unwrap();
        let deferred: Vec<u32> =
            boids::gpu::readback::read_vec(ctx, g.buffers().get("deferred"), 2).unwrap();
        let lists = c.neighbor_ids().unwrap();
        assert_eq!(lists.len(), boids.len(), "{label}");
        compare(&g.neighbor_ids().unwrap(), &lists)
            .unwrap_or_else(|e| panic!("{label}: GPU and CPU lists differ: {e}"));
        support::compare_states(
            &g.read_state().unwrap(),
            &c.read_state().unwrap(),
            p,
            support::ONE_STEP,
        )
        .unwrap_or_else(|e| panic!("{label}: {e}"));
        deferred[1]
    })
}

#[test]
fn boids_alone_far_from_a_crowd_are_searched_by_a_workgroup_like_on_the_cpu() {
    // 19 990 boids in an 80 × 80 square in the middle of a 1000 × 1000 world (about 90 per cell:
    // ranges longer than a workgroup shares out item by item), and ten alone at the corners and on
    // the seams, some 80 rings of cells from the crowd: their plain search passes its budget, and
    // a workgroup widens by frames of rings until it reaches the crowd.
    let Some(ctx) = support::gpu() else { return };
    for boundary in [Boundary::Wrap, Boundary::Walls] {
        let p = topo(world(1000.0, 1000.0, boundary), 7);
        let mut boids = initial_state(11, 20_000, &p);
        for b in &mut boids[10..] {
            b.position = [460.0 + b.position[0] % 80.0, 460.0 + b.position[1] % 80.0];
        }
        let alone = [
            [0.0, 0.0],
            [999.9, 0.0],
            [0.0, 999.9],
            [999.9, 999.9],
            [0.5, 500.0],
            [999.5, 500.0],
            [500.0, 0.5],
            [500.0, 999.5],
            [3.0, 1.0],
            [996.0, 998.0],
        ];
        for (b, at) in boids.iter_mut().zip(alone) {
            b.position = at;
        }
        let label = format!("alone, {boundary:?}");
        let deferred = gpu_against_cpu(&ctx, &p, &boids, &label);
        assert!(
            (10..100).contains(&deferred),
            "{label}: the lone boids were deferred ({deferred})"
        );
    }
}

#[test]
fn a_crowd_in_one_cell_is_searched_by_a_workgroup_per_boid_like_on_the_cpu() {
    // 7000 boids within 2 wu, in one cell: each one's own cell holds more candidates than the
    // plain search may visit, so every boid is deferred; its workgroup shares the cell's items out
    // 256 ways.
    let Some(ctx) = support::gpu() else { return };
    let n = 7000;
    for k in [7u32, 64] {
        let p = topo(world(1000.0, 1000.0, Boundary::Walls), k);
        let grid = boids::model::Grid::new(&p, n);
        let centre = [40.5 / grid.inv_cell_x, 60.5 / grid.inv_cell_y];
        let mut boids = initial_state(12, n, &p);
        for b in &mut boids {
            b.position = [
                centre[0] - 1.0 + b.position[0] % 2.0,
                centre[1] - 1.0 + b.position[1] % 2.0,
            ];
        }
        assert!(boids
            .iter()
            .all(|b| grid.cell_of(b.pos()) == grid.cell_of(boids[0].pos())));
        let label = format!("crowd, k = {k}");
        let deferred = gpu_against_cpu(&ctx, &p, &boids, &label);
        assert_eq!(deferred, n as u32, "{label}: every boid was deferred");
    }
}

/// The GPU's rules pass is compiled for one neighbour search at a time (metric, topological with
/// k ≤ 8, topological; the others compiled out): a live switch between them recompiles it, so the
/// GPU's lists and steps still equal the CPU's after each switch.
#[test]
fn a_live_switch_of_neighbourhood_steps_as_the_cpu_does() {
    let Some(ctx) = support::gpu() else { return };
    let metric = SimParams::default().with_world_for(2000, 0.01);
    let topological = topo(metric.clone(), 7);
    let boids = support::test_state(5, 2000, &metric, true);
    support::checked(&ctx, || {
        let mut g = recording(BackendKind::Gpu, Some(&ctx), &metric, &boids);
        let mut c = recording(BackendKind::Cpu, None, &metric, &boids);
        let wide = topo(metric.clone(), 9);
        for (label, p) in [
            ("metric", &metric),
            ("to topological", &topological),
            ("to k = 9 (the heap's search)", &wide),
            ("back to k = 7 (the small search)", &topological),
            ("back to metric", &metric),
        ] {
            g.set_params(p).unwrap();
            c.set_params(p).unwrap();
            // Both from the same state, so each switch is compared on its own step.
            let state = c.read_state().unwrap();
            g.set_state(&state).unwrap();
            step_both_and_compare(g.as_mut(), c.as_mut(), p, label);
        }
    });
}
