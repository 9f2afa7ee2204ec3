//! Each GPU stage against its CPU twin on seeded random input: integer stages exactly, float
//! stages within stated tolerances. Every test runs inside wgpu error scopes (a validation error
//! fails it) and fails when no adapter is found and BOIDS_REQUIRE_GPU=1.

use crate::support;
use boids::backend::Simulation;
use boids::gpu::pipelines::StagePipelines;
use boids::gpu::readback::read_vec;
use boids::gpu::scan::ScanLevels;
use boids::gpu::{GpuBackend, GpuContext};
use boids::model::measures::{MeasureContext, MeasureSums, SUMS};
use boids::model::World;
use boids::model::{
    flock_measures, Actors, Boid, Boundary, FlockMeasures, Model, Neighborhood, SimParams,
    StepUniforms,
};
use boids::stages::twins::{self as cpu, CpuStep};
use boids::stages::RANK_HAS_GHOST;
use wgpu::util::DeviceExt;

fn params(boundary: Boundary, n: usize) -> SimParams {
    SimParams {
        boundary,
        ..SimParams::default()
    }
    .with_world_for(n, 0.02)
}

/// The CPU twins run on `boids` with uniforms `u` up to and including `last`.
fn cpu_until(boids: &[Boid], p: &SimParams, u: StepUniforms, last: &str) -> CpuStep {
    let mut c = CpuStep::new(boids, p);
    c.prepare(u);
    for stage in boids::stages::step_stages() {
        (stage.twin)(&mut c);
        if stage.name == last {
            break;
        }
    }
    c
}

/// Each cell's entries of a per-item array, as sorted lists (the GPU's atomic order within a cell
/// is unspecified before `scatter`).
fn per_cell(cells: &[u32], data: &[u32]) -> Vec<Vec<u32>> {
    (0..cells.len() - 1)
        .map(|c| {
            let mut v = data[cells[c] as usize..cells[c + 1] as usize].to_vec();
            v.sort_unstable();
            v
        })
        .collect()
}

/// `count` with `cells_known` set, on the GPU and in the twin: both bin each boid by the cell
/// words already in `item_cell` — here those of another state's positions (seeded by `seed`), so
/// that a count that found the cells from the positions would give other counts.
fn count_from_known_cells(ctx: &GpuContext, gpu: &GpuBackend, boids: &[Boid], seed: u32) {
    use boids::stages::twins::count::cell_words;
    let n = boids.len();
    let p = gpu.params().clone();
    let u = StepUniforms {
        cells_known: 1,
        ..gpu.uniforms()
    };
    let items = n * if u.boundary == 0 { 2 } else { 1 };
    let other = support::test_state(seed, n, &p, true);
    let pos_vel = boids::model::split_state(&other).pos_vel;
    let mut words = vec![0u32; items];
    cell_words(&pos_vel, &u.grid(), &mut words);
    let b = gpu.buffers();
    let (host, at) = b.region("item_cell", 4 * items as u64);
    ctx.queue
        .write_buffer(host, at, bytemuck::cast_slice(&words));
    ctx.queue.write_buffer(b.get("replicas"), 0, &u.to_bytes());
    let mut enc = ctx.device.create_command_encoder(&Default::default());
    gpu.record_stages(&mut enc, &["clear", "count"]);
    ctx.queue.submit([enc.finish()]);
    let mut c = CpuStep::new(boids, &p);
    c.prepare(u);
    c.item_cell.copy_from_slice(&words);
    cpu::clear_step(&mut c);
    cpu::count_step(&mut c);
    let cells = u.cell_count as usize + 1;
    let g_counts: Vec<u32> = read_vec(ctx, b.get("cells"), cells).unwrap();
    assert_eq!(
        g_counts, c.cells,
        "count from known cells: items per cell (n={n})"
    );
    let g_rank: Vec<u32> = read_vec(ctx, b.get("rank"), items).unwrap();
    let flags = |r: &[u32]| -> Vec<u32> { r[..n].iter().map(|w| w & RANK_HAS_GHOST).collect() };
    assert_eq!(
        flags(&g_rank),
        flags(&c.rank),
        "count from known cells: ghost bits"
    );
    // The words were read, not written.
    let g_cell: Vec<u32> = b.read_region(ctx, "item_cell", items).unwrap();
    assert_eq!(
        g_cell[..n],
        words[..n],
        "count from known cells: the words kept"
    );
    if n > 1 {
        support::run_stages(ctx, gpu, &["clear", "count"]);
        let own: Vec<u32> = read_vec(ctx, b.get("cells"), cells).unwrap();
        assert_ne!(
            own, g_counts,
            "the other state's cells are not these boids' own"
        );
    }
}

#[test]
fn binning_stages_match_their_cpu_twins() {
    let Some(ctx) = support::gpu() else { return };
    for (k, (boundary, n)) in [
        (Boundary::Wrap, 1usize),
        // One item: the planes of `rank` and the id buffers where a shader finds them.
        (Boundary::Walls, 1),
        (Boundary::Wrap, 1000),
        (Boundary::Walls, 4099),
        (Boundary::Bounce, 20_000),
        (Boundary::Wrap, 20_000),
    ]
    .into_iter()
    .enumerate()
    {
        let p = params(boundary, n);
        let mut boids = support::test_state(k as u32 + 3, n, &p, true);
        // Image counts of every sign, so that `scatter` is seen to move each boid's own.
        for (j, b) in boids.iter_mut().enumerate() {
            b.image = [j as i32 % 7 - 3, (j as i32 * 13) % 5 - 2];
        }
        support::checked(&ctx, || {
            let gpu = GpuBackend::from_state(&ctx, &p, &boids, 1).unwrap();
            let u = gpu.uniforms();
            let cells = u.cell_count as usize + 1;
            let items = n * if boundary == Boundary::Wrap { 2 } else { 1 };
            let b = gpu.buffers();
            // Dirty the counters first so that `clear` has something to do.
            ctx.queue
                .write_buffer(b.get("cells"), 0, bytemuck::cast_slice(&vec![9u32; cells]));
            support::run_stages(&ctx, &gpu, &["clear", "count"]);
            let c = cpu_until(&boids, &p, u, "count");
            let g_counts: Vec<u32> = read_vec(&ctx, b.get("cells"), cells).unwrap();
            assert_eq!(g_counts, c.cells, "count: items per cell (n={n})");
            // Ranks come from atomicAdd: each cell's ranks must be exactly 0..count. A boid's
            // rank word says whether it has a ghost, as the twin's; each item's cell is the twin's.
            let g_rank: Vec<u32> = read_vec(&ctx, b.get("rank"), items).unwrap();
            let has_ghost = |r: &[u32]| -> Vec<bool> {
                r[..n].iter().map(|w| w & RANK_HAS_GHOST != 0).collect()
            };
            assert_eq!(has_ghost(&g_rank), has_ghost(&c.rank), "count: ghost bits");
            let g_cell: Vec<u32> = b.read_region(&ctx, "item_cell", items).unwrap();
            let real = |i: usize| i < n || c.rank[i - n] & RANK_HAS_GHOST != 0;
            for i in (0..items).filter(|&i| real(i)) {
                assert_eq!(g_cell[i], c.item_cell[i], "count: cell of item {i}");
            }
            let grid = u.grid();
            let mut ranks: Vec<Vec<u32>> = vec![Vec::new(); cells - 1];
            for (i, bd) in boids.iter().enumerate() {
                let (cx, cy) = grid.cell_xy(bd.pos());
                ranks[grid.index(cx, cy) as usize].push(g_rank[i] & !RANK_HAS_GHOST);
                if let Some((gc, _)) = grid.ghost(cx, cy) {
                    ranks[gc as usize].push(g_rank[n + i]);
                }
            }
            for (cell, mut r) in ranks.into_iter().enumerate() {
                r.sort_unstable();
                assert_eq!(
                    r,
                    (0..c.cells[cell]).collect::<Vec<_>>(),
                    "count: ranks of cell {cell}"
                );
            }
            count_from_known_cells(&ctx, &gpu, &boids, k as u32 + 50);
            // Back to the cells of the positions for the stages after.
            support::run_stages(&ctx, &gpu, &["clear", "count"]);
            support::run_stages(&ctx, &gpu, &["scan"]);
            let c = cpu_until(&boids, &p, u, "scan");
            let g_starts: Vec<u32> = read_vec(&ctx, b.get("cells"), cells).unwrap();
            assert_eq!(g_starts, c.cells, "scan: cell starts (n={n})");
            let total = c.cells[cells - 1] as usize;
            support::run_stages(&ctx, &gpu, &["slots"]);
            let c = cpu_until(&boids, &p, u, "slots");
            let g_slots: Vec<u32> = read_vec(&ctx, b.get("slot_ids"), total).unwrap();
            assert_eq!(
                per_cell(&g_starts, &g_slots),
                per_cell(&c.cells, &c.slot_ids[..total]),
                "slots: the ids of each cell (n={n})"
            );
            support::run_stages(&ctx, &gpu, &["scatter"]);
            let c = cpu_until(&boids, &p, u, "scatter");
            let g_pv: Vec<[f32; 4]> = read_vec(&ctx, b.get("sorted_pos_vel"), total).unwrap();
            let g_hue: Vec<[f32; 4]> = read_vec(&ctx, b.get("sorted_hue"), total).unwrap();
            let g_id: Vec<u32> = read_vec(&ctx, b.get("sorted_id"), total).unwrap();
            // The canonical order (cells, then ids): bit for bit the CPU twin's.
            assert_eq!(g_id, c.sorted_id[..total], "scatter: item order (n={n})");
            // The boids' image counts (the first n items; a ghost has none).
            let g_image: Vec<[i32; 2]> = b.read_region(&ctx, "sorted_image", n).unwrap();
            assert_eq!(
                g_image,
                c.sorted_image[..n],
                "scatter: image counts (n={n})"
            );
            assert_eq!(
                g_pv,
                c.sorted_pos_vel[..total],
                "scatter: positions (n={n})"
            );
            assert_eq!(g_hue, c.sorted_hue[..total], "scatter: hues (n={n})");
            if boundary == Boundary::Wrap && n > 16 {
                assert!(
                    total > n,
                    "a wrapping flock with boids at the edges has ghosts"
                );
            }
        });
    }
}

fn gpu_scan(ctx: &GpuContext, data: &[u32], max_dim: u32) -> Vec<u32> {
    let buf = ctx
        .device
        .create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("scan test"),
            contents: bytemuck::cast_slice(data),
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
        });
    let metric = boids::gpu::pipelines::Variant {
        model: Model::BOIDS,
        search: boids::stages::Search::Metric,
        parts: boids::stages::RuleParts::default(),
        ensemble: false,
    };
    let scan = StagePipelines::new(ctx, boids::stages::stage("scan"), metric);
    let levels = ScanLevels::new(&ctx.device, &scan, &buf, data.len() as u32);
    let mut enc = ctx.device.create_command_encoder(&Default::default());
    {
        let mut p = enc.begin_compute_pass(&Default::default());
        levels.record(&scan, &mut p, max_dim);
    }
    ctx.queue.submit([enc.finish()]);
    read_vec(ctx, &buf, data.len()).unwrap()
}

#[test]
fn exclusive_scan_matches_cpu_for_awkward_lengths() {
    let Some(ctx) = support::gpu() else { return };
    for len in [1usize, 7, 255, 256, 257, 1025, 65537, 300_001] {
        let data: Vec<u32> = (0..len as u32)
            .map(|i| boids::model::rng::pcg_hash(i) % 17)
            .collect();
        let mut expect = data.clone();
        cpu::scan(&mut expect);
        let got = support::checked(&ctx, || gpu_scan(&ctx, &data, 65535));
        assert_eq!(got, expect, "scan of length {len}");
    }
}

#[test]
fn scan_with_a_split_dispatch() {
    // 2^24 + 1 elements: three levels of blocks of 2048 (8193 workgroups at the first).
    let Some(ctx) = support::gpu() else { return };
    let len = (1usize << 24) + 1;
    let data: Vec<u32> = (0..len as u32).map(|i| (i % 3 == 0) as u32).collect();
    let mut expect = data.clone();
    cpu::scan(&mut expect);
    let got = support::checked(&ctx, || gpu_scan(&ctx, &data, 65535));
    assert!(got == expect, "scan of 2^24 + 1 differs");
    // The same with a per-dimension limit of 7 workgroups, so that every dispatch over more than 7
    // blocks is split over x and y (a device's limit, 65 535, is reached only past 134 M elements).
    let got = support::checked(&ctx, || gpu_scan(&ctx, &data, 7));
    assert!(got == expect, "split scan of 2^24 + 1 differs");
    // And a small one, split deep.
    let small: Vec<u32> = (0..70_000u32).map(|i| i % 5).collect();
    let mut expect = small.clone();
    cpu::scan(&mut expect);
    assert_eq!(support::checked(&ctx, || gpu_scan(&ctx, &small, 7)), expect);
}

#[test]
fn rules_match_the_cpu_twin() {
    // Same sorted input and cell starts on both sides (the CPU twins' binning, uploaded); outputs
    // compared boid by boid in state order. Tolerance (stated in tests/common): 1e-5 of the world
    // size for positions, of max_speed for velocities, 1e-5 absolute for hue components. Neighbour
    // counts exactly.
    let Some(ctx) = support::gpu() else { return };
    for (k, boundary) in [Boundary::Wrap, Boundary::Walls, Boundary::Bounce]
        .into_iter()
        .enumerate()
    {
        for (d_r, cap, topo) in [(0.0f32, 0u32, 0u32), (3.0, 0, 0), (0.0, 6, 0), (0.0, 0, 7)] {
            let n = 5000;
            let p = SimParams {
                rotational_diffusion: d_r,
                max_neighbors: cap,
                neighborhood: if topo > 0 {
                    Neighborhood::Topological
                } else {
                    Neighborhood::Metric
                },
                topological_k: topo.max(1),
                ..params(boundary, n)
            };
            let mut boids = support::test_state(k as u32 + 30, n, &p, true);
            // Image counts of every sign: `rules` adds a crossing to the boid's own.
            for (j, b) in boids.iter_mut().enumerate() {
                b.image = [j as i32 % 7 - 3, (j as i32 * 13) % 5 - 2];
            }
            support::checked(&ctx, || {
                let mut gpu = GpuBackend::from_state(&ctx, &p, &boids, 5).unwrap();
                // Predators of both kinds: `rules` reads them from their region of `cells`.
                let (w, h) = (p.world_width, p.world_height);
                let actors = Actors {
                    obstacles: vec![[w * 0.5, h * 0.5], [10.0, 10.0]],
                    predators: vec![
                        boids::model::Predator::new(
                            glam::Vec2::new(w * 0.3, h * 0.6),
                            glam::Vec2::new(10.0, 0.0),
                            boids::model::PredatorKind::Hunting,
                        ),
                        boids::model::Predator::new(
                            glam::Vec2::new(w * 0.7, h * 0.2),
                            glam::Vec2::new(0.0, -5.0),
                            boids::model::PredatorKind::Straight,
                        ),
                    ],
                };
                gpu.set_predators(&actors.predators).unwrap();
                gpu.set_obstacles(&actors.obstacles).unwrap();
                gpu.record_neighbor_ids(true).unwrap();
                let mut cpu = boids::cpu::CpuBackend::from_state(
                    boids::backend::BackendKind::Cpu,
                    &p,
                    boids.clone(),
                    5,
                )
                .unwrap();
                cpu.set_predators(&actors.predators).unwrap();
                cpu.set_obstacles(&actors.obstacles).unwrap();
                cpu.record_neighbor_ids(true).unwrap();
                let u = gpu.uniforms();
                // The GPU's also say where its buffers hold the predators (none on the CPU).
                assert!(u.predators_at > 0, "{}", u.predators_at);
                assert_eq!(
                    boids::model::StepUniforms {
                        predators_at: 0,
                        ..u
                    },
                    cpu.uniforms(),
                    "both backends derive the same uniforms"
                );
                let mut c = cpu_until(&boids, &p, u, "scatter");
                c.obstacles = cpu.buffers().obstacles.clone();
                c.predators = cpu.read_predators().unwrap();
                assert_eq!(c.predators, gpu.read_predators().unwrap());
                let total = c.cells[c.cells.len() - 1] as usize;
                support::upload_sorted(&ctx, &gpu, &c, total);
                let b = gpu.buffers();
                support::run_stages(&ctx, &gpu, &["rules"]);
                boids::stages::twins::rules_step(&mut c);
                let g_pv: Vec<[f32; 4]> = read_vec(&ctx, b.get("pos_vel"), n).unwrap();
                let g_hue: Vec<[f32; 4]> = b.read_region(&ctx, "hue", n).unwrap();
                let g_neigh: Vec<u32> = read_vec(&ctx, b.get("neighbors"), n).unwrap();
                assert_eq!(
                    g_neigh, c.neighbors,
                    "rules: neighbour counts ({boundary:?}, D_r {d_r}, cap {cap})"
                );
                // `rules` leaves the ids and image counts in `sorted_id` (in place: the state's
                // after the step, stages::SWAPPED); the twin copies them into its state.
                let g_id: Vec<u32> = read_vec(&ctx, b.get("sorted_id"), n).unwrap();
                assert_eq!(g_id, c.id, "rules: the state follows the sorted order");
                // The topological neighbours, exactly (none recorded in the metric one).
                let g_near: Vec<u32> = b
                    .read_region(&ctx, "neighbor_ids", c.neighbor_ids.len().max(1))
                    .unwrap();
                assert_eq!(c.neighbor_ids.len(), n * topo as usize);
                assert!(
                    topo == 0 || g_near == c.neighbor_ids,
                    "rules: topological neighbour ids ({boundary:?})"
                );
                let g_image: Vec<[i32; 2]> = b.read_region(&ctx, "sorted_image", n).unwrap();
                assert_eq!(g_image, c.image, "rules: image counts ({boundary:?})");
                // The cell words for the next step's `count`: each boid's, and each ghost's.
                let g_words: Vec<u32> =
                    b.read_region(&ctx, "item_cell", c.item_cell.len()).unwrap();
                for i in 0..n {
                    assert_eq!(
                        g_words[i], c.item_cell[i],
                        "rules: cell word {i} ({boundary:?})"
                    );
                    if c.item_cell[i] & boids::stages::twins::count::CELL_HAS_GHOST != 0 {
                        assert_eq!(g_words[n + i], c.item_cell[n + i], "rules: ghost cell {i}");
                    }
                }
                // Boids at the edges cross them: some image counts changed (in place on the GPU).
                assert_eq!(
                    boundary == Boundary::Wrap,
                    c.image[..] != c.sorted_image[..n],
                    "rules: boids crossed the wrapping world's edges ({boundary:?})"
                );
                let g_out = boids::model::join_state(&g_pv, &g_hue, &g_id, &g_image);
                let c_out = boids::model::join_state(&c.pos_vel, &c.hue, &c.id, &c.image);
                support::compare_states(&g_out, &c_out, &p, support::ONE_STEP).unwrap_or_else(
                    |e| panic!("rules ({boundary:?}, D_r {d_r}, cap {cap}, k {topo}): {e}"),
                );
                // Again on the same input, storing no neighbour counts: both leave the planted
                // ones, and the GPU's state is the same bit for bit.
                gpu.store_neighbor_counts(false);
                support::upload_sorted(&ctx, &gpu, &c, total);
                let planted: Vec<u32> = (0..n as u32).map(|i| 7 + i).collect();
                ctx.queue.write_buffer(
                    gpu.buffers().get("neighbors"),
                    0,
                    bytemuck::cast_slice(&planted),
                );
                support::run_stages(&ctx, &gpu, &["rules"]);
                c.params = gpu.uniforms();
                assert_eq!(c.params.skip_neighbor_counts, 1);
                c.neighbors = planted.clone();
                boids::stages::twins::rules_step(&mut c);
                assert_eq!(c.neighbors, planted, "twin rules stored counts");
                let g_neigh: Vec<u32> = read_vec(&ctx, gpu.buffers().get("neighbors"), n).unwrap();
                assert_eq!(g_neigh, planted, "rules stored counts ({boundary:?})");
                assert!(!c.neighbors_counted);
                let again: Vec<[f32; 4]> = read_vec(&ctx, gpu.buffers().get("pos_vel"), n).unwrap();
                assert_eq!(
                    bytemuck::cast_slice::<_, u32>(&again),
                    bytemuck::cast_slice::<_, u32>(&g_pv)
                );
            });
        }
    }
}

#[test]
fn measures_match_the_cpu_twin() {
    // Relative tolerance 1e-4 (f32 tree reduction on the GPU vs f64 on the CPU).
    let Some(ctx) = support::gpu() else { return };
    for (n, boundary) in [
        (1usize, Boundary::Wrap),
        (300, Boundary::Wrap),
        (70_001, Boundary::Wrap),
        // The most boids one workgroup of the partial passes sums (it writes the result itself,
        // no final pass), and one more (a final pass).
        (4096, Boundary::Wrap),
        (4097, Boundary::Wrap),
        (300, Boundary::Walls),
        (70_001, Boundary::Bounce),
    ] {
        let p = params(boundary, n);
        let mut boids = support::test_state(17, n, &p, n > 16);
        // Give the flock some order so polarization and milling are not ~0.
        for (i, b) in boids.iter_mut().enumerate() {
            if i % 3 != 0 {
                b.velocity = [60.0, 20.0];
            }
        }
        let neigh: Vec<u32> = (0..n as u32).map(|i| i % 13).collect();
        support::checked(&ctx, || {
            let gpu = GpuBackend::from_state(&ctx, &p, &boids, 1).unwrap();
            ctx.queue.write_buffer(
                gpu.buffers().get("neighbors"),
                0,
                bytemuck::cast_slice(&neigh),
            );
            // The stage alone (the backend reports no neighbour count before a step): its row of
            // sums, finished by the measure table as the backend finishes it.
            gpu.write_uniforms();
            let mut enc = ctx.device.create_command_encoder(&Default::default());
            gpu.record_stages(&mut enc, &["measures"]);
            ctx.queue.submit([enc.finish()]);
            let row: Vec<f32> = read_vec(&ctx, gpu.buffers().get("result"), SUMS).unwrap();
            let g = FlockMeasures::from_sums(
                &MeasureSums::from_row(&row),
                &MeasureContext {
                    n,
                    v0: None,
                    neighbors_counted: true,
                },
            );
            let c = flock_measures(&boids, &neigh, World::of(&p));
            let close = |a: f64, b: f64| (a - b).abs() <= 1e-4 * a.abs().max(b.abs()).max(1e-2);
            assert!(
                close(g.polarization(), c.polarization()),
                "polarization {g:?} vs {c:?}"
            );
            assert!(
                close(g.milling(), c.milling()),
                "milling ({boundary:?}) {g:?} vs {c:?}"
            );
            assert!(
                close(g.mean_speed(), c.mean_speed()),
                "mean speed {g:?} vs {c:?}"
            );
            assert!(
                close(g.mean_neighbors(), c.mean_neighbors()),
                "mean neighbours {g:?} vs {c:?}"
            );
            // v_a = |Σ v| / Σ |v| here (not the Vicsek model): below the polarization's 1 when
            // speeds differ, so a swapped column would show.
            assert!(close(g.va(), c.va()) && c.va() > 0.1, "v_a {g:?} vs {c:?}");
            assert!(
                close(g.nematic(), c.nematic()) && c.nematic() > 0.1,
                "nematic order {g:?} vs {c:?}"
            );
        });
    }
}

#[test]
fn a_flock_split_in_opposite_halves_has_nematic_order_one_on_both_backends() {
    // Half the boids head along +x, half along −x: no polar order (polarization 0) and perfect
    // nematic order (S = |⟨e^{2iθ}⟩| = 1, docs/model.md §12.8). A quarter turned by 90° instead
    // gives S = 1/2: the check can fail.
    let Some(ctx) = support::gpu() else { return };
    let n = 4000;
    let p = params(Boundary::Wrap, n);
    for (turned, want_s) in [(0usize, 1.0f64), (n / 4, 0.5)] {
        let mut boids = support::test_state(5, n, &p, false);
        for (i, b) in boids.iter_mut().enumerate() {
            b.velocity = if i < turned {
                [0.0, 50.0]
            } else if i % 2 == 0 {
                [50.0, 0.0]
            } else {
                [-50.0, 0.0]
            };
        }
        let neigh = vec![0u32; n];
        let c = flock_measures(&boids, &neigh, World::of(&p));
        support::checked(&ctx, || {
            let gpu = GpuBackend::from_state(&ctx, &p, &boids, 1).unwrap();
            gpu.write_uniforms();
            let mut enc = ctx.device.create_command_encoder(&Default::default());
            gpu.record_stages(&mut enc, &["measures"]);
            ctx.queue.submit([enc.finish()]);
            let row: Vec<f32> = read_vec(&ctx, gpu.buffers().get("result"), SUMS).unwrap();
            let g = FlockMeasures::from_sums(
                &MeasureSums::from_row(&row),
                &MeasureContext {
                    n,
                    v0: None,
                    neighbors_counted: true,
                },
            );
            for (name, m) in [("cpu", c), ("gpu", g)] {
                assert!(
                    (m.nematic() - want_s).abs() < 1e-4,
                    "{name}: S = {} for {turned} turned boids, want {want_s}",
                    m.nematic()
                );
                if turned == 0 {
                    assert!(m.polarization() < 1e-4, "{name}: {m:?}");
                }
            }
        });
    }
}
