//! Each GPU stage against its CPU twin on seeded random input: integer stages exactly, float
//! stages within stated tolerances. Every test runs inside wgpu error scopes (a validation error
//! fails it) and fails when no adapter is found and BOIDS_REQUIRE_GPU=1.

mod common;

use std::collections::BTreeSet;

use boids::backend::Simulation;
use boids::gpu::pipelines::StagePipelines;
use boids::gpu::readback::read_vec;
use boids::gpu::scan::ScanLevels;
use boids::gpu::{GpuBackend, GpuContext};
use boids::model::{
    flock_measures, measures::World, Actors, Boid, Boundary, SimParams, StepUniforms,
};
use boids::stages::twins as cpu;
use wgpu::util::DeviceExt;

fn params(boundary: Boundary, n: usize) -> SimParams {
    SimParams {
        boundary,
        ..SimParams::default()
    }
    .with_world_for(n, 0.02)
}

/// Records the stages named `names` of `gpu` (uniforms written first) and submits them.
fn run(ctx: &GpuContext, gpu: &GpuBackend, names: &[&str]) {
    gpu.write_uniforms();
    let mut enc = ctx.device.create_command_encoder(&Default::default());
    gpu.record_stages(&mut enc, names);
    ctx.queue.submit([enc.finish()]);
}

/// The CPU twins' binning of a state.
struct CpuBinning {
    counts: Vec<u32>,
    starts: Vec<u32>,
    cell: Vec<u32>,
    sorted: Vec<Boid>,
}

fn cpu_bin(boids: &[Boid], u: &StepUniforms) -> CpuBinning {
    let grid = u.grid();
    let n = boids.len();
    let mut counts = vec![0u32; grid.cells() as usize + 1];
    let (mut cell, mut rank) = (vec![0; n], vec![0; n]);
    cpu::clear(&mut counts);
    cpu::count(boids, &grid, &mut counts, &mut cell, &mut rank);
    let mut starts = counts.clone();
    cpu::scan(&mut starts);
    let mut sorted = vec![bytemuck::Zeroable::zeroed(); n];
    cpu::scatter(boids, &cell, &rank, &starts, &mut sorted);
    CpuBinning {
        counts,
        starts,
        cell,
        sorted,
    }
}

#[test]
fn clear_count_scan_scatter_match_their_cpu_twins() {
    let Some(ctx) = common::gpu() else { return };
    for (k, (boundary, n)) in [
        (Boundary::Wrap, 1usize),
        (Boundary::Wrap, 1000),
        (Boundary::Walls, 4099),
        (Boundary::Bounce, 20_000),
    ]
    .into_iter()
    .enumerate()
    {
        let p = params(boundary, n);
        let boids = common::test_state(k as u32 + 3, n, &p, true);
        common::checked(&ctx, || {
            let gpu = GpuBackend::from_state(&ctx, &p, &boids, 1).unwrap();
            let u = gpu.uniforms();
            let CpuBinning {
                counts,
                starts,
                cell,
                sorted,
            } = cpu_bin(&boids, &u);
            let b = gpu.buffers();
            let cells = u.cell_count;
            // Dirty the counters first so that `clear` has something to do.
            ctx.queue.write_buffer(
                b.get("cells"),
                0,
                bytemuck::cast_slice(&vec![9u32; cells as usize + 1]),
            );
            run(&ctx, &gpu, &["clear", "count"]);
            let g_counts: Vec<u32> = read_vec(&ctx, b.get("cells"), cells as usize + 1).unwrap();
            let g_cell: Vec<u32> = read_vec(&ctx, b.get("boid_cell"), n).unwrap();
            let g_rank: Vec<u32> = read_vec(&ctx, b.get("boid_rank"), n).unwrap();
            assert_eq!(g_counts, counts, "count: cell counts (n={n})");
            assert_eq!(g_cell, cell, "count: cell of each boid (n={n})");
            // Ranks come from atomicAdd, so their order within a cell is unspecified: each cell's
            // ranks must be exactly 0..count.
            let mut per_cell: Vec<Vec<u32>> = vec![Vec::new(); cells as usize];
            for (c, r) in g_cell.iter().zip(&g_rank) {
                per_cell[*c as usize].push(*r);
            }
            for (c, mut r) in per_cell.into_iter().enumerate() {
                r.sort();
                assert_eq!(
                    r,
                    (0..counts[c]).collect::<Vec<_>>(),
                    "count: ranks of cell {c}"
                );
            }
            run(&ctx, &gpu, &["scan"]);
            let g_starts: Vec<u32> = read_vec(&ctx, b.get("cells"), cells as usize + 1).unwrap();
            assert_eq!(g_starts, starts, "scan: cell starts (n={n})");
            run(&ctx, &gpu, &["scatter"]);
            let g_sorted: Vec<Boid> = read_vec(&ctx, b.get("sorted"), n).unwrap();
            for c in 0..cells as usize {
                let range = starts[c] as usize..starts[c + 1] as usize;
                let a: BTreeSet<u32> = g_sorted[range.clone()].iter().map(|x| x.id).collect();
                let e: BTreeSet<u32> = sorted[range.clone()].iter().map(|x| x.id).collect();
                assert_eq!(a, e, "scatter: boids of cell {c}");
                for x in &g_sorted[range] {
                    assert_eq!(*x, boids[x.id as usize], "scatter copies the whole state");
                }
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
    let scan = StagePipelines::new(&ctx.device, boids::stages::stage("scan"));
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
    let Some(ctx) = common::gpu() else { return };
    for len in [1usize, 7, 255, 256, 257, 1025, 65537, 300_001] {
        let data: Vec<u32> = (0..len as u32)
            .map(|i| boids::model::rng::pcg_hash(i) % 17)
            .collect();
        let mut expect = data.clone();
        cpu::scan(&mut expect);
        let got = common::checked(&ctx, || gpu_scan(&ctx, &data, 65535));
        assert_eq!(got, expect, "scan of length {len}");
    }
}

#[test]
fn scan_with_a_split_dispatch() {
    // 2^24 + 1 elements need 65 537 workgroups of 256: more than the 65 535 allowed per
    // dimension, so the dispatch is split over x and y for real.
    let Some(ctx) = common::gpu() else { return };
    let len = (1usize << 24) + 1;
    let data: Vec<u32> = (0..len as u32).map(|i| (i % 3 == 0) as u32).collect();
    let mut expect = data.clone();
    cpu::scan(&mut expect);
    let got = common::checked(&ctx, || gpu_scan(&ctx, &data, 65535));
    assert!(got == expect, "scan of 2^24 + 1 differs");
    // And with a tiny per-dimension limit, forcing a deep split at a small size.
    let small: Vec<u32> = (0..70_000u32).map(|i| i % 5).collect();
    let mut expect = small.clone();
    cpu::scan(&mut expect);
    assert_eq!(common::checked(&ctx, || gpu_scan(&ctx, &small, 7)), expect);
}

#[test]
fn rules_match_the_cpu_twin() {
    // Same sorted input and cell starts on both sides; outputs compared index by index.
    // Tolerance (stated in tests/common): 1e-5 of the world size for positions, of max_speed for
    // velocities, 1e-5 absolute for hue components. Neighbour counts exactly.
    let Some(ctx) = common::gpu() else { return };
    for (k, boundary) in [Boundary::Wrap, Boundary::Walls, Boundary::Bounce]
        .into_iter()
        .enumerate()
    {
        for rotational_diffusion in [0.0f32, 3.0] {
            let n = 5000;
            let p = SimParams {
                rotational_diffusion,
                max_neighbors: if k == 1 { 6 } else { 0 },
                ..params(boundary, n)
            };
            let boids = common::test_state(k as u32 + 30, n, &p, true);
            common::checked(&ctx, || {
                let mut gpu = GpuBackend::from_state(&ctx, &p, &boids, 5).unwrap();
                let obstacles = [[p.world_width * 0.5, p.world_height * 0.5], [10.0, 10.0]];
                gpu.set_actors(&Actors {
                    obstacles: obstacles.to_vec(),
                })
                .unwrap();
                let u = gpu.uniforms();
                let CpuBinning { starts, sorted, .. } = cpu_bin(&boids, &u);
                let mut out = vec![bytemuck::Zeroable::zeroed(); n];
                let mut neigh = vec![0u32; n];
                cpu::rules(&u, &sorted, &starts, &obstacles, &mut out, &mut neigh);
                let b = gpu.buffers();
                ctx.queue
                    .write_buffer(b.get("sorted"), 0, bytemuck::cast_slice(&sorted));
                ctx.queue
                    .write_buffer(b.get("cells"), 0, bytemuck::cast_slice(&starts));
                run(&ctx, &gpu, &["rules"]);
                let g_out: Vec<Boid> = read_vec(&ctx, b.get("state"), n).unwrap();
                let g_neigh: Vec<u32> = read_vec(&ctx, b.get("neighbors"), n).unwrap();
                assert_eq!(
                    g_neigh, neigh,
                    "rules: neighbour counts ({boundary:?}, D_r {rotational_diffusion})"
                );
                for (i, (g, c)) in g_out.iter().zip(&out).enumerate() {
                    assert_eq!(g.id, c.id, "rules keep the order (index {i})");
                }
                common::compare_states(&g_out, &out, &p, common::ONE_STEP).unwrap_or_else(|e| {
                    panic!("rules ({boundary:?}, D_r {rotational_diffusion}): {e}")
                });
            });
        }
    }
}

#[test]
fn measures_match_the_cpu_twin() {
    // Relative tolerance 1e-4 (f32 tree reduction on the GPU vs f64 on the CPU).
    let Some(ctx) = common::gpu() else { return };
    for (n, boundary) in [
        (1usize, Boundary::Wrap),
        (300, Boundary::Wrap),
        (70_001, Boundary::Wrap),
        (300, Boundary::Walls),
        (70_001, Boundary::Bounce),
    ] {
        let p = params(boundary, n);
        let mut boids = common::test_state(17, n, &p, n > 16);
        // Give the flock some order so polarization and milling are not ~0.
        for (i, b) in boids.iter_mut().enumerate() {
            if i % 3 != 0 {
                b.velocity = [60.0, 20.0];
            }
        }
        let neigh: Vec<u32> = (0..n as u32).map(|i| i % 13).collect();
        common::checked(&ctx, || {
            let mut gpu = GpuBackend::from_state(&ctx, &p, &boids, 1).unwrap();
            ctx.queue.write_buffer(
                gpu.buffers().get("neighbors"),
                0,
                bytemuck::cast_slice(&neigh),
            );
            let g = gpu.measures().unwrap();
            let c = flock_measures(&boids, &neigh, World::of(&p));
            let close = |a: f32, b: f32| (a - b).abs() <= 1e-4 * a.abs().max(b.abs()).max(1e-2);
            assert!(
                close(g.polarization, c.polarization),
                "polarization {g:?} vs {c:?}"
            );
            assert!(
                close(g.milling, c.milling),
                "milling ({boundary:?}) {g:?} vs {c:?}"
            );
            assert!(
                close(g.mean_speed, c.mean_speed),
                "mean speed {g:?} vs {c:?}"
            );
            assert!(
                close(g.mean_neighbors, c.mean_neighbors),
                "mean neighbours {g:?} vs {c:?}"
            );
        });
    }
}
