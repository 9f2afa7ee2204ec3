//! Whole GPU steps against the CPU reference: every boundary mode, awkward sizes, split
//! dispatches, runtime growth and shrinkage. Tolerance: `support::ONE_STEP` (1e-5 relative: the GPU
//! sums neighbours in atomicAdd order and its sqrt/division are not correctly rounded).

use crate::support;
use std::collections::BTreeSet;

use boids::backend::{BackendKind, Simulation};
use boids::cpu::CpuBackend;
use boids::gpu::GpuBackend;
use boids::model::{Boid, Boundary, Neighborhood, SimParams};

fn cpu_step(p: &SimParams, boids: &[Boid], seed: u32) -> Vec<Boid> {
    let mut c = CpuBackend::from_state(BackendKind::Cpu, p, boids.to_vec(), seed).unwrap();
    c.step().unwrap();
    c.read_state().unwrap()
}

#[test]
fn one_step_equals_cpu_in_every_boundary_mode() {
    let Some(ctx) = support::gpu() else { return };
    for (k, boundary) in [Boundary::Wrap, Boundary::Walls, Boundary::Bounce]
        .into_iter()
        .enumerate()
    {
        let p = SimParams {
            boundary,
            rotational_diffusion: 1.0,
            ..SimParams::default()
        }
        .with_world_for(3000, 0.02);
        let boids = support::test_state(k as u32 + 1, 3000, &p, true);
        let g = support::checked(&ctx, || {
            let mut gpu = GpuBackend::from_state(&ctx, &p, &boids, 9).unwrap();
            gpu.step().unwrap();
            gpu.read_state().unwrap()
        });
        let c = cpu_step(&p, &boids, 9);
        support::compare_states(&g, &c, &p, support::ONE_STEP)
            .unwrap_or_else(|e| panic!("{boundary:?}: {e}"));
        // The planted special boids (seam, corners, coincident, zero velocity) are finite.
        assert!(g.iter().all(Boid::is_finite));
    }
}

#[test]
fn comparator_rejects_a_planted_one_boid_difference() {
    let Some(ctx) = support::gpu() else { return };
    let p = SimParams::default().with_world_for(2000, 0.02);
    let boids = support::test_state(3, 2000, &p, true);
    let mut g = support::checked(&ctx, || {
        let mut gpu = GpuBackend::from_state(&ctx, &p, &boids, 1).unwrap();
        gpu.step().unwrap();
        gpu.read_state().unwrap()
    });
    let c = cpu_step(&p, &boids, 1);
    support::compare_states(&g, &c, &p, support::ONE_STEP).unwrap();
    let i = g.iter().position(|b| b.id == 1234).unwrap();
    g[i].velocity[1] += 0.002 * p.models.boids.max_speed;
    let e = support::compare_states(&g, &c, &p, support::ONE_STEP).unwrap_err();
    assert!(e.contains("boid 1234"), "{e}");
}

#[test]
fn awkward_counts_and_split_dispatch() {
    let Some(ctx) = support::gpu() else { return };
    for (n, max_dim) in [
        (1usize, 65535u32),
        (7, 65535),
        (257, 65535),
        (1000, 65535),
        (5000, 2),
        (4099, 3),
    ] {
        let p = SimParams::default().with_world_for(n, 0.02);
        let boids = support::test_state(n as u32, n, &p, n >= 16);
        let g = support::checked(&ctx, || {
            let mut gpu = GpuBackend::from_state(&ctx, &p, &boids, 2).unwrap();
            gpu.set_max_workgroups_per_dim(max_dim);
            gpu.step().unwrap();
            gpu.read_state().unwrap()
        });
        let c = cpu_step(&p, &boids, 2);
        support::compare_states(&g, &c, &p, support::ONE_STEP)
            .unwrap_or_else(|e| panic!("n={n}, max_dim={max_dim}: {e}"));
    }
}

/// A step launches the deferred heavy pass of its own neighbourhood only, and the topological
/// one's step equals the CPU's (its heavy pass still runs where boids are deferred).
#[test]
fn a_step_launches_only_its_neighbourhoods_heavy_pass() {
    let Some(ctx) = support::gpu() else { return };
    let n = 2000;
    for neighborhood in [Neighborhood::Metric, Neighborhood::Topological] {
        let p = SimParams {
            neighborhood,
            ..SimParams::default()
        }
        .with_world_for(n, 0.02);
        let boids = support::test_state(3, n, &p, true);
        let (g, entries) = support::checked(&ctx, || {
            let mut gpu = GpuBackend::from_state(&ctx, &p, &boids, 2).unwrap();
            let entries = gpu.step_entry_points();
            gpu.step().unwrap();
            (gpu.read_state().unwrap(), entries)
        });
        let metric = neighborhood == Neighborhood::Metric;
        assert_eq!(entries.contains(&"rules_heavy"), metric, "{entries:?}");
        assert_eq!(
            entries.contains(&"rules_heavy_topological"),
            !metric,
            "{entries:?}"
        );
        assert!(entries.contains(&"scatter_heavy") && !entries.contains(&"move_predators"));
        let c = cpu_step(&p, &boids, 2);
        support::compare_states(&g, &c, &p, support::ONE_STEP)
            .unwrap_or_else(|e| panic!("{neighborhood:?}: {e}"));
    }
}

#[test]
fn a_huge_sparse_world_has_cells_for_its_boids() {
    // 2000 boids in an 81 920² world: cells of half the perception radius would be 67 M; the grid
    // grows its cells so there are at most max(4·N, 4096) of them, and the step is still exact.
    let Some(ctx) = support::gpu() else { return };
    let p = SimParams {
        world_width: 81_920.0,
        world_height: 81_920.0,
        ..SimParams::default()
    };
    let grid = boids::model::Grid::new(&p, 2000);
    assert!(grid.cols * grid.rows <= 8000, "{grid:?}");
    let boids = support::test_state(77, 2000, &p, true);
    let g = support::checked(&ctx, || {
        let mut gpu = GpuBackend::from_state(&ctx, &p, &boids, 4).unwrap();
        assert_eq!(
            gpu.max_workgroups_per_dim(),
            ctx.device.limits().max_compute_workgroups_per_dimension
        );
        gpu.step().unwrap();
        gpu.step().unwrap();
        gpu.read_state().unwrap()
    });
    let mut c = CpuBackend::from_state(BackendKind::Cpu, &p, boids, 4).unwrap();
    c.step().unwrap();
    c.step().unwrap();
    let two_steps = support::Tolerance {
        position_rel_world: 1e-5,
        velocity_rel: 1e-4,
        hue_abs: 1e-4,
    };
    support::compare_states(&g, &c.boids(), &p, two_steps).unwrap();
}

#[test]
fn thin_and_tiny_wrapping_worlds_whose_block_wraps_more_than_once() {
    // Worlds of the smallest wrapping height (2·perception radius): a 4 × 4 grid whose 5 × 5 block
    // wraps around at both ends, and a 100 000 × 40 strip whose grown cells leave a single row;
    // every block row's vertical shift must still be the exact one.
    let Some(ctx) = support::gpu() else { return };
    for (w, h, n) in [(40.0f32, 40.0f32, 60usize), (100_000.0, 40.0, 5000)] {
        let p = SimParams {
            world_width: w,
            world_height: h,
            ..SimParams::default()
        };
        let grid = boids::model::Grid::new(&p, n);
        assert!(grid.rows < 2 * grid.block_y + 1, "{grid:?}");
        let boids = support::test_state(5, n, &p, false);
        let g = support::checked(&ctx, || {
            let mut gpu = GpuBackend::from_state(&ctx, &p, &boids, 6).unwrap();
            gpu.step().unwrap();
            gpu.read_state().unwrap()
        });
        let c = cpu_step(&p, &boids, 6);
        support::compare_states(&g, &c, &p, support::ONE_STEP)
            .unwrap_or_else(|e| panic!("{w} × {h}: {e}"));
    }
}

#[test]
fn too_many_boids_are_refused_naming_the_limit() {
    let Some(ctx) = support::gpu() else { return };
    let max = boids::gpu::buffers::max_boids(&ctx);
    let e = boids::gpu::buffers::check_boids(&ctx, max + 1)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("max_storage_buffer_binding_size") || e.contains("max_buffer_size"),
        "{e}"
    );
    assert!(e.contains(&format!("at most {max} boids")), "{e}");
    boids::gpu::buffers::check_boids(&ctx, max).unwrap();
}

#[test]
fn add_and_remove_boids_at_runtime() {
    let Some(ctx) = support::gpu() else { return };
    let p = SimParams {
        rotational_diffusion: 0.0,
        ..SimParams::default()
    }
    .with_world_for(1000, 0.02);
    let first = support::test_state(5, 1000, &p, false);
    support::checked(&ctx, || {
        let mut gpu = GpuBackend::from_state(&ctx, &p, &first, 6).unwrap();
        gpu.step().unwrap();
        let capacity = gpu.buffers().capacity.boids;
        // Grow past the capacity: the buffers double and the existing boids are kept.
        let extra: Vec<Boid> = (1000..1700)
            .map(|id| boids::model::spawn_boid(99, id, &p))
            .collect();
        let before = gpu.read_state().unwrap();
        gpu.add_boids(&extra).unwrap();
        assert!(gpu.buffers().capacity.boids > capacity);
        assert_eq!(gpu.len(), 1700);
        let mut all = before.clone();
        all.extend_from_slice(&extra);
        gpu.step().unwrap();
        let after = gpu.read_state().unwrap();
        let ids: BTreeSet<u32> = after.iter().map(|b| b.id).collect();
        assert_eq!(ids.len(), 1700, "every boid present exactly once");
        assert_eq!(ids, (0..1700).collect());
        // Each boid stepped exactly once: equal to one CPU step of the combined state (a boid
        // stepped twice or not at all would be off by v·dt).
        // (no rotational diffusion here, so the CPU's step counter starting at 0 does not matter)
        let mut cpu = CpuBackend::from_state(BackendKind::Cpu, &p, all, 6).unwrap();
        cpu.step().unwrap();
        support::compare_states(&after, &cpu.boids(), &p, support::ONE_STEP).unwrap();

        // Keep 1400 (a smaller state): the rest step on.
        let kept: Vec<Boid> = after[..1400].to_vec();
        gpu.set_state(&kept).unwrap();
        assert_eq!(gpu.len(), 1400);
        gpu.step().unwrap();
        let after2 = gpu.read_state().unwrap();
        let ids2: BTreeSet<u32> = after2.iter().map(|b| b.id).collect();
        assert_eq!(ids2, kept.iter().map(|b| b.id).collect());
        let mut cpu2 = CpuBackend::from_state(BackendKind::Cpu, &p, kept, 6).unwrap();
        cpu2.step().unwrap();
        support::compare_states(&after2, &cpu2.boids(), &p, support::ONE_STEP).unwrap();
    });
}

#[test]
fn many_steps_stay_finite_and_inside() {
    let Some(ctx) = support::gpu() else { return };
    for boundary in [Boundary::Wrap, Boundary::Walls, Boundary::Bounce] {
        let p = SimParams {
            boundary,
            rotational_diffusion: 0.5,
            ..SimParams::default()
        }
        .with_world_for(4000, 0.02);
        let boids = support::test_state(8, 4000, &p, true);
        let s = support::checked(&ctx, || {
            let mut gpu = GpuBackend::from_state(&ctx, &p, &boids, 3).unwrap();
            for _ in 0..60 {
                gpu.step().unwrap();
            }
            let m = gpu.measures().unwrap();
            assert!(
                m.polarization().is_finite()
                    && m.mean_speed() >= p.models.boids.min_speed as f64 * 0.99,
                "{m:?}"
            );
            gpu.read_state().unwrap()
        });
        for b in &s {
            assert!(b.is_finite(), "{boundary:?}: {b:?}");
            assert!(
                b.position[0] >= 0.0 && b.position[0] < p.world_width,
                "{boundary:?}: {b:?}"
            );
            assert!(
                b.position[1] >= 0.0 && b.position[1] < p.world_height,
                "{boundary:?}: {b:?}"
            );
        }
    }
}

#[test]
fn live_parameter_change_regrows_the_grid() {
    let Some(ctx) = support::gpu() else { return };
    let p = SimParams::default().with_world_for(3000, 0.02);
    let boids = support::test_state(12, 3000, &p, false);
    let q = SimParams {
        perception_radius: 35.0,
        cohesion_radius: 35.0,
        ..p.clone()
    };
    assert_ne!(
        boids::model::Grid::new(&p, 3000).cells(),
        boids::model::Grid::new(&q, 3000).cells()
    );
    let g = support::checked(&ctx, || {
        let mut gpu = GpuBackend::from_state(&ctx, &p, &boids, 1).unwrap();
        gpu.set_params(&q).unwrap();
        gpu.step().unwrap();
        gpu.read_state().unwrap()
    });
    support::compare_states(&g, &cpu_step(&q, &boids, 1), &q, support::ONE_STEP).unwrap();
    // An invalid change is refused and the old parameters stay.
    let mut gpu = GpuBackend::from_state(&ctx, &p, &boids, 1).unwrap();
    let e = gpu
        .set_params(&SimParams {
            dt: -1.0,
            ..p.clone()
        })
        .unwrap_err()
        .to_string();
    assert!(e.contains("dt"), "{e}");
    assert_eq!(gpu.params(), &p);
}

#[test]
fn a_flock_moved_between_backends_keeps_its_noise_stream() {
    // With noise, the draws depend on the step counter: carrying it over makes a GPU step after
    // three CPU steps equal the fourth CPU step (and without it, they differ).
    let Some(ctx) = support::gpu() else { return };
    let p = SimParams {
        rotational_diffusion: 3.0,
        ..SimParams::default()
    }
    .with_world_for(2000, 0.02);
    let boids = support::test_state(31, 2000, &p, false);
    let mut cpu = CpuBackend::from_state(BackendKind::Cpu, &p, boids, 8).unwrap();
    for _ in 0..3 {
        cpu.step().unwrap();
    }
    let moved = cpu.read_state().unwrap();
    cpu.step().unwrap();
    let (carried, restarted) = support::checked(&ctx, || {
        let mut gpu = GpuBackend::from_state(&ctx, &p, &moved, 8).unwrap();
        gpu.set_step_index(cpu.step_index() - 1);
        gpu.step().unwrap();
        let carried = gpu.read_state().unwrap();
        let mut fresh = GpuBackend::from_state(&ctx, &p, &moved, 8).unwrap();
        fresh.step().unwrap();
        (carried, fresh.read_state().unwrap())
    });
    support::compare_states(&carried, &cpu.boids(), &p, support::ONE_STEP).unwrap();
    assert!(support::compare_states(&restarted, &cpu.boids(), &p, support::ONE_STEP).is_err());
}

/// The cell words the last step's `rules` left in the `rank` buffer's plane `item_cell`, against
/// the twin's words of the state read back (boids first, then each flagged boid's ghost).
fn cell_words_match_the_state(gpu: &mut GpuBackend) -> Result<(), String> {
    use boids::stages::twins::count::{cell_words, CELL_HAS_GHOST};
    let ctx = gpu.context().clone();
    let state = gpu.read_state().unwrap();
    let n = state.len();
    let pos_vel = boids::model::split_state(&state).pos_vel;
    let mut want = vec![u32::MAX; 2 * n];
    cell_words(&pos_vel, &gpu.uniforms().grid(), &mut want);
    let got: Vec<u32> = gpu.buffers().read_region(&ctx, "item_cell", 2 * n).unwrap();
    for i in 0..n {
        if got[i] != want[i] {
            return Err(format!("boid {i}: cell word {} != {}", got[i], want[i]));
        }
        if want[i] & CELL_HAS_GHOST != 0 && got[n + i] != want[n + i] {
            return Err(format!(
                "ghost of {i}: cell {} != {}",
                got[n + i],
                want[n + i]
            ));
        }
    }
    Ok(())
}

#[test]
fn count_reads_the_cells_rules_wrote_only_while_the_state_and_grid_are_that_steps() {
    let Some(ctx) = support::gpu() else { return };
    // No noise: a CPU backend made from a GPU state steps it the same whatever its step counter.
    let p = SimParams {
        rotational_diffusion: 0.0,
        ..SimParams::default()
    }
    .with_world_for(3000, 0.02);
    let boids = support::test_state(21, 3000, &p, true);
    let other = support::test_state(22, 3000, &p, true);
    let regrid = SimParams {
        perception_radius: 35.0,
        cohesion_radius: 35.0,
        ..p.clone()
    };
    let reweigh = SimParams {
        hue_cohesion_weight: p.hue_cohesion_weight * 1.5,
        ..p.clone()
    };
    assert_ne!(
        boids::model::Grid::new(&p, 3000).cells(),
        boids::model::Grid::new(&regrid, 3000).cells()
    );
    let exact = ctx.cell_words_exact();
    support::checked(&ctx, || {
        let mut gpu = GpuBackend::from_state(&ctx, &p, &boids, 4).unwrap();
        assert_eq!(
            gpu.uniforms().cells_known,
            0,
            "a new backend finds its cells"
        );
        gpu.step().unwrap();
        assert_eq!(
            gpu.uniforms().cells_known,
            1,
            "after a step, rules wrote them"
        );
        cell_words_match_the_state(&mut gpu).unwrap();
        // Each case: what is done between two steps, whether the next count may read the cells,
        // and the parameters of the step.
        type Between = fn(&mut GpuBackend, &[Boid], &SimParams, &SimParams);
        let cases: [(&str, Between, u32, &SimParams); 5] = [
            ("nothing", |_, _, _, _| {}, 1, &p),
            (
                "a weight changed",
                |g, _, _, q| g.set_params(q).unwrap(),
                1,
                &reweigh,
            ),
            (
                "the grid changed",
                |g, _, _, q| g.set_params(q).unwrap(),
                0,
                &regrid,
            ),
            (
                "another state",
                |g, o, _, _| g.set_state(o).unwrap(),
                0,
                &regrid,
            ),
            (
                "boids added",
                |g, _, p, _| {
                    let extra: Vec<Boid> = (5000..5100)
                        .map(|id| boids::model::spawn_boid(7, id, p))
                        .collect();
                    g.add_boids(&extra).unwrap();
                },
                0,
                &regrid,
            ),
        ];
        for (what, between, known, q) in cases {
            between(&mut gpu, &other, &p, q);
            let before = gpu.read_state().unwrap();
            assert_eq!(
                gpu.uniforms().cells_known,
                known * u32::from(exact),
                "{what}"
            );
            gpu.step().unwrap();
            let after = gpu.read_state().unwrap();
            support::compare_states(&after, &cpu_step(q, &before, 4), q, support::ONE_STEP)
                .unwrap_or_else(|e| panic!("after {what}: {e}"));
            cell_words_match_the_state(&mut gpu).unwrap_or_else(|e| panic!("after {what}: {e}"));
        }
    });
}

#[test]
fn buffers_made_anew_and_ensembles_keep_the_cell_words_right() {
    let Some(ctx) = support::gpu() else { return };
    let exact = ctx.cell_words_exact();
    // Buffers grown with the binning unchanged: recording the topological neighbour ids makes
    // room for them, and the new `rank` holds no words.
    let p = SimParams {
        rotational_diffusion: 0.0,
        neighborhood: Neighborhood::Topological,
        topological_k: 7,
        ..SimParams::default()
    }
    .with_world_for(2000, 0.02);
    let boids = support::test_state(31, 2000, &p, true);
    support::checked(&ctx, || {
        let mut gpu = GpuBackend::from_state(&ctx, &p, &boids, 2).unwrap();
        gpu.step().unwrap();
        assert_eq!(gpu.counts_from_cell_words(), exact);
        let capacity = gpu.buffers().capacity;
        let binning = gpu.uniforms().binning();
        gpu.record_neighbor_ids(true).unwrap();
        assert_ne!(
            gpu.buffers().capacity,
            capacity,
            "the buffers were made anew"
        );
        assert_eq!(gpu.uniforms().binning(), binning, "with the same binning");
        assert!(!gpu.counts_from_cell_words(), "the new rank holds no words");
        let before = gpu.read_state().unwrap();
        gpu.step().unwrap();
        let after = gpu.read_state().unwrap();
        support::compare_states(&after, &cpu_step(&p, &before, 2), &p, support::ONE_STEP).unwrap();
        cell_words_match_the_state(&mut gpu).unwrap();
    });
    // An ensemble's steps bin by the words too, and each replica stays its lone run.
    let q = SimParams {
        rotational_diffusion: 0.0,
        ..SimParams::default()
    }
    .with_world_for(1500, 0.02);
    let replicas: Vec<boids::gpu::Replica> = (0..3)
        .map(|r| boids::gpu::Replica::new(&q, 1500, 10 + r).unwrap())
        .collect();
    support::checked(&ctx, || {
        let mut ens = GpuBackend::ensemble(&ctx, &replicas).unwrap();
        assert!(!ens.counts_from_cell_words());
        for _ in 0..3 {
            ens.step().unwrap();
            assert_eq!(ens.counts_from_cell_words(), exact);
        }
        for (r, rep) in replicas.iter().enumerate() {
            let mut lone = GpuBackend::from_state(&ctx, &q, &rep.boids, rep.seed).unwrap();
            for _ in 0..3 {
                lone.step().unwrap();
            }
            assert_eq!(
                ens.replica_state(r).unwrap(),
                lone.read_state().unwrap(),
                "replica {r}"
            );
        }
    });
}

/// The neighbour counts in the GPU `neighbors` buffer (the first `n` words).
fn gpu_counts(ctx: &boids::gpu::GpuContext, gpu: &GpuBackend, n: usize) -> Vec<u32> {
    boids::gpu::readback::read_vec(ctx, gpu.buffers().get("neighbors"), n).unwrap()
}

#[test]
fn steps_that_store_no_neighbour_counts_move_the_flock_the_same_and_measure_none() {
    use boids::model::measures::MeasureId;
    let Some(ctx) = support::gpu() else { return };
    let n = 2500;
    let p = SimParams::default().with_world_for(n, 0.02);
    let boids = support::test_state(41, n, &p, true);
    support::checked(&ctx, || {
        let mut on = GpuBackend::from_state(&ctx, &p, &boids, 5).unwrap();
        let mut off = GpuBackend::from_state(&ctx, &p, &boids, 5).unwrap();
        let mut cpu = CpuBackend::from_state(BackendKind::Cpu, &p, boids.clone(), 5).unwrap();
        let mut naive =
            CpuBackend::from_state(BackendKind::CpuNaive, &p, boids.clone(), 5).unwrap();
        off.store_neighbor_counts(false);
        cpu.store_neighbor_counts(false);
        naive.store_neighbor_counts(false);
        // Counts planted in the buffer: a step that stores none leaves them.
        let planted: Vec<u32> = (0..n as u32).map(|i| 1000 + i).collect();
        ctx.queue.write_buffer(
            off.buffers().get("neighbors"),
            0,
            bytemuck::cast_slice(&planted),
        );
        for k in 1..=2 {
            on.step().unwrap();
            off.step().unwrap();
            cpu.step().unwrap();
            naive.step().unwrap();
            assert_eq!(off.uniforms().skip_neighbor_counts, 1);
            assert_eq!(
                support::states::bits_by_id(&off.read_state().unwrap()),
                support::states::bits_by_id(&on.read_state().unwrap()),
                "step {k}: the state is the same bit for bit"
            );
            assert_eq!(gpu_counts(&ctx, &off, n), planted, "step {k} stored counts");
            let m = off.measures().unwrap();
            assert_eq!(m.get(MeasureId::MEAN_NEIGHBORS), None, "step {k}");
            assert!(m.get(MeasureId::POLARIZATION).is_some());
            assert_eq!(cpu.measures().unwrap().get(MeasureId::MEAN_NEIGHBORS), None);
            assert_eq!(
                naive.measures().unwrap().get(MeasureId::MEAN_NEIGHBORS),
                None
            );
            assert!(on.measures().unwrap().mean_neighbors() > 1.0);
        }
        // Stored again: the counts are the step's, as the run that always stored them.
        off.store_neighbor_counts(true);
        cpu.store_neighbor_counts(true);
        naive.store_neighbor_counts(true);
        on.step().unwrap();
        off.step().unwrap();
        cpu.step().unwrap();
        naive.step().unwrap();
        assert!(naive.measures().unwrap().mean_neighbors() > 1.0);
        assert_eq!(off.uniforms().skip_neighbor_counts, 0);
        assert_eq!(gpu_counts(&ctx, &off, n), gpu_counts(&ctx, &on, n));
        let mean = on.measures().unwrap().mean_neighbors();
        assert_eq!(off.measures().unwrap().mean_neighbors(), mean);
        let cpu_mean = cpu.measures().unwrap().mean_neighbors();
        assert!((cpu_mean - mean).abs() < 1e-3 * mean, "{cpu_mean} {mean}");
        // A reset makes the backend anew: it stores them again.
        off.store_neighbor_counts(false);
        off.reset(&p, &boids, 5).unwrap();
        off.step().unwrap();
        assert!(
            off.measures().unwrap().mean_neighbors() > 1.0,
            "after a reset"
        );
    });
    // An ensemble's replicas store none either, and step the same.
    let replicas: Vec<boids::gpu::Replica> = (0..2)
        .map(|r| boids::gpu::Replica::new(&p, 1200, 20 + r).unwrap())
        .collect();
    support::checked(&ctx, || {
        let mut ens = GpuBackend::ensemble(&ctx, &replicas).unwrap();
        let mut stored = GpuBackend::ensemble(&ctx, &replicas).unwrap();
        ens.store_neighbor_counts(false);
        let zeros = gpu_counts(&ctx, &ens, 2400);
        ens.step().unwrap();
        stored.step().unwrap();
        assert_eq!(
            gpu_counts(&ctx, &ens, 2400),
            zeros,
            "no replica stored counts"
        );
        assert_ne!(gpu_counts(&ctx, &stored, 2400), zeros);
        for r in 0..2 {
            assert_eq!(
                ens.replica_state(r).unwrap(),
                stored.replica_state(r).unwrap()
            );
        }
    });
}
