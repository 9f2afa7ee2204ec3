//! No shader loop depends on an unbounded count: past 65 536 iterations — where lavapipe stops a
//! shader's loops (65 535 iterations per invocation, all loops together) and other drivers' watchdogs
//! reset the device — the GPU still equals its CPU twin. Crowded cells are ranked by a workgroup
//! each (`scatter_heavy`), and boids with very many candidates or nearby obstacle points are
//! gathered by a workgroup each (`rules_heavy`), as are boids whose topological search would cross
//! more cells than a budget. (The scan and the measures reduction are tested
//! past 65 536 in `gpu_stages`.)

use crate::support;
use boids::backend::{BackendKind, Simulation};
use boids::cpu::CpuBackend;
use boids::gpu::readback::read_vec;
use boids::gpu::{GpuBackend, GpuContext};
use boids::model::{Actors, Boid, Boundary, SimParams};
use boids::stages::twins::CpuStep;

fn deferred(ctx: &GpuContext, gpu: &GpuBackend) -> Vec<u32> {
    read_vec(ctx, gpu.buffers().get("deferred"), 2).unwrap()
}

#[test]
fn a_cell_of_more_than_65536_boids_is_binned_like_the_cpu_does() {
    let Some(ctx) = support::gpu() else { return };
    let n = 70_000;
    let p = SimParams {
        boundary: Boundary::Walls,
        ..SimParams::default()
    }
    .with_world_for(n, 0.01);
    // Every boid in one cell (of about half the perception radius), away from the edges.
    let grid = boids::model::Grid::new(&p, n);
    let centre = [100.5 / grid.inv_cell_x, 100.5 / grid.inv_cell_y];
    let mut boids = boids::model::initial_state(3, n, &p);
    for (k, b) in boids.iter_mut().enumerate() {
        b.position = [
            centre[0] - 4.0 + (k % 300) as f32 * 0.025,
            centre[1] - 4.0 + (k / 300) as f32 * 0.025,
        ];
    }
    support::checked(&ctx, || {
        let gpu = GpuBackend::from_state(&ctx, &p, &boids, 1).unwrap();
        let u = gpu.uniforms();
        support::run_stages(
            &ctx,
            &gpu,
            &[
                "clear",
                "count",
                "scan",
                "slots",
                "scatter",
                "scatter_heavy",
            ],
        );
        assert_eq!(deferred(&ctx, &gpu)[0], n as u32, "every item was deferred");
        let mut c = CpuStep::new(&boids, &p);
        c.prepare(u);
        for stage in boids::stages::step_stages().take_while(|s| s.name != "rules") {
            (stage.twin)(&mut c);
        }
        let b = gpu.buffers();
        let ids: Vec<u32> = read_vec(&ctx, b.get("sorted_id"), n).unwrap();
        let pv: Vec<[f32; 4]> = read_vec(&ctx, b.get("sorted_pos_vel"), n).unwrap();
        assert_eq!(ids, c.sorted_id[..n], "the crowded cell is in id order");
        assert!(ids.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(pv, c.sorted_pos_vel[..n]);
    });
}

#[test]
fn a_boid_with_more_than_65536_candidates_counts_all_its_neighbours() {
    let Some(ctx) = support::gpu() else { return };
    // 65 600 boids at the left edge of a wrapping world, whose ghosts (shifted by +W into the right
    // padding) are candidates of a boid at the right edge: 65 600 neighbours for it. So that the
    // test costs 65 600 candidates and not 65 600², the crowd's own (real) items are then moved, in
    // the sorted arrays only, to the empty middle of the world, where their blocks hold no item:
    // the same arrays on both backends.
    let n = 65_602;
    let p = SimParams {
        world_width: 2000.0,
        world_height: 2000.0,
        ..SimParams::default()
    };
    let mut boids = boids::model::initial_state(4, n, &p);
    for (k, b) in boids.iter_mut().enumerate().skip(2) {
        b.position = [(k % 256) as f32 * 0.01, 1000.0 + (k / 256) as f32 * 0.02];
    }
    boids[0].position = [1995.0, 1002.0]; // the observer, 5 wu from the crowd across the seam
    boids[1].position = [500.0, 500.0]; // a boid alone
    support::checked(&ctx, || {
        let gpu = GpuBackend::from_state(&ctx, &p, &boids, 2).unwrap();
        let u = gpu.uniforms();
        let mut c = CpuStep::new(&boids, &p);
        c.prepare(u);
        for stage in boids::stages::step_stages().take_while(|s| s.name != "rules") {
            (stage.twin)(&mut c);
        }
        let total = c.cells[c.cells.len() - 1] as usize;
        // The real items are the first n; the observer and the lone boid have ids 0 and 1.
        for k in 0..n {
            if c.sorted_id[k] >= 2 {
                c.sorted_pos_vel[k][0] = 1000.0 + (k % 100) as f32 * 0.1;
                c.sorted_pos_vel[k][1] = 1500.0;
            }
        }
        assert!(total > n, "the crowd has ghosts");
        // `clear` resets the deferred-work counters and dispatch arguments; the arrays come after.
        support::run_stages(&ctx, &gpu, &["clear"]);
        support::upload_sorted(&ctx, &gpu, &c, total);
        let b = gpu.buffers();
        support::run_stages(&ctx, &gpu, &["rules", "rules_heavy"]);
        boids::stages::twins::rules_step(&mut c);
        assert_eq!(
            deferred(&ctx, &gpu)[1],
            1,
            "the observer was gathered by a workgroup"
        );
        let neigh: Vec<u32> = read_vec(&ctx, b.get("neighbors"), n).unwrap();
        assert_eq!(neigh, c.neighbors, "neighbour counts");
        let observer = c.id.iter().position(|&i| i == 0).unwrap();
        assert_eq!(
            neigh[observer], 65_600,
            "every boid of the crowd is a neighbour of the observer"
        );
        let pv: Vec<[f32; 4]> = read_vec(&ctx, b.get("pos_vel"), n).unwrap();
        let hu: Vec<[f32; 4]> = b.read_region(&ctx, "hue", n).unwrap();
        // The ids and image counts stay in `sorted_id` (the state's after the step).
        let id: Vec<u32> = read_vec(&ctx, b.get("sorted_id"), n).unwrap();
        assert_eq!(id, c.id, "the state follows the sorted order");
        let image: Vec<[i32; 2]> = b.read_region(&ctx, "sorted_image", n).unwrap();
        let g = boids::model::join_state(&pv, &hu, &id, &image);
        let cpu = boids::model::join_state(&c.pos_vel, &c.hue, &c.id, &c.image);
        // The observer's sums have 65 600 terms, added in another order by the workgroup than by
        // the CPU: f32 sums of n terms differ by up to ~n·ε relative (4e-3 here), so 1e-3.
        let tol = support::Tolerance {
            position_rel_world: 1e-5,
            velocity_rel: 1e-3,
            hue_abs: 1e-3,
        };
        support::compare_states(&g, &cpu, &p, tol).unwrap();
    });
}

#[test]
fn a_boid_near_more_than_65536_obstacle_points_bounces_like_on_the_cpu() {
    let Some(ctx) = support::gpu() else { return };
    let p = SimParams::default().with_world_for(400, 0.01);
    let mut boids = boids::model::initial_state(5, 400, &p);
    // 65 600 points packed on a short stroke; the last one is where boid 0 is heading.
    let at = [p.world_width * 0.5, p.world_height * 0.5];
    let mut obstacles: Vec<[f32; 2]> = (0..65_600)
        .map(|k| {
            [
                at[0] + 8.0 + (k % 40) as f32 * 0.05,
                at[1] + (k / 40) as f32 * 0.004,
            ]
        })
        .collect();
    obstacles.push([at[0] + 3.0, at[1]]);
    boids[0].position = at;
    boids[0].velocity = [60.0, 0.0];
    let actors = Actors {
        obstacles,
        ..Default::default()
    };
    let g = support::checked(&ctx, || {
        let mut gpu = GpuBackend::from_state(&ctx, &p, &boids, 6).unwrap();
        gpu.set_predators(&actors.predators).unwrap();
        gpu.set_obstacles(&actors.obstacles).unwrap();
        gpu.step().unwrap();
        assert!(deferred(&ctx, &gpu)[1] > 0, "boid 0 was deferred");
        gpu.read_state().unwrap()
    });
    let mut cpu = CpuBackend::from_state(BackendKind::Cpu, &p, boids.clone(), 6).unwrap();
    cpu.set_predators(&actors.predators).unwrap();
    cpu.set_obstacles(&actors.obstacles).unwrap();
    cpu.step().unwrap();
    let c = cpu.boids();
    let zero = |v: &[Boid]| *v.iter().find(|b| b.id == 0).unwrap();
    let (c0, g0) = (zero(&c), zero(&g));
    assert!(c0.velocity[0] < 0.0, "the CPU boid bounces: {c0:?}");
    assert!(g0.velocity[0] < 0.0, "the GPU boid bounces too: {g0:?}");
    support::compare_states(&g, &c, &p, support::ONE_STEP).unwrap();
}

#[test]
fn a_hunter_with_more_than_65536_boids_in_sight_finds_the_nearest_like_the_cpu() {
    // Every boid of a 70 000-boid world is in the hunter's sight: its workgroup looks at all of
    // them (274 each), and finds the planted nearest one, the last id, on both backends. (The
    // boids' loop over predators is bounded by MAX_PREDATORS, a validated limit.)
    let Some(ctx) = support::gpu() else { return };
    let n = 70_000;
    let p = SimParams {
        boundary: Boundary::Walls,
        predator_sight_radius: 1.0e5,
        ..SimParams::default()
    }
    .with_world_for(n, 0.02);
    let mut boids = boids::model::initial_state(8, n, &p);
    let at = [p.world_width * 0.37, p.world_height * 0.61];
    for b in boids.iter_mut() {
        let d = ((b.position[0] - at[0]).powi(2) + (b.position[1] - at[1]).powi(2)).sqrt();
        if d < 2.0 {
            b.position[0] = (at[0] + 50.0).min(p.world_width - 1.0);
        }
    }
    boids[n - 1].position = [at[0] + 0.5, at[1] - 0.25];
    let actors = Actors {
        predators: vec![boids::model::Predator::new(
            glam::Vec2::from(at),
            glam::Vec2::ZERO,
            boids::model::PredatorKind::Hunting,
        )],
        ..Default::default()
    };
    let g = support::checked(&ctx, || {
        let mut gpu = GpuBackend::from_state(&ctx, &p, &boids, 6).unwrap();
        gpu.set_predators(&actors.predators).unwrap();
        gpu.set_obstacles(&actors.obstacles).unwrap();
        gpu.step().unwrap();
        gpu.read_predators().unwrap()
    });
    let mut cpu = CpuBackend::from_state(BackendKind::Cpu, &p, boids, 6).unwrap();
    cpu.set_predators(&actors.predators).unwrap();
    cpu.set_obstacles(&actors.obstacles).unwrap();
    cpu.step().unwrap();
    let c = cpu.read_predators().unwrap();
    assert_eq!(
        c[0].target,
        (n - 1) as u32,
        "the CPU hunter aims at the planted boid"
    );
    assert_eq!(g[0].target, c[0].target, "the GPU hunter too");
    assert!(g[0].pos().distance(c[0].pos()) < 1e-3, "{g:?} vs {c:?}");
}

#[test]
fn a_boid_whose_topological_search_crosses_more_than_65536_cells_finds_its_nearest_like_the_cpu() {
    // The topological neighbourhood (k = 1): 39 999 boids packed in the 50 × 50 wu corner of a
    // 1000 × 1000 walled world, and one boid in the opposite corner. The grid has 73 984 cells of
    // 3.7 wu (sized to the mean density); the lone boid's nearest is some 259 rings of cells away,
    // so its search crosses about 67 000 cells: deferred by `rules` (whose plain search stops at a
    // budget), and widened by a workgroup in frames of rings in `rules_heavy`.
    let Some(ctx) = support::gpu() else { return };
    let n = 40_000;
    let p = SimParams {
        world_width: 1000.0,
        world_height: 1000.0,
        boundary: Boundary::Walls,
        neighborhood: boids::model::Neighborhood::Topological,
        topological_k: 1,
        ..SimParams::default()
    };
    let grid = boids::model::Grid::new(&p, n);
    assert!(grid.cols * grid.rows > 65_536, "{grid:?}");
    let mut boids = boids::model::initial_state(13, n, &p);
    for b in &mut boids[1..] {
        b.position = [b.position[0] % 50.0, b.position[1] % 50.0];
    }
    boids[0].position = [999.0, 999.0];
    let (g, lists, deferred) = support::checked(&ctx, || {
        let mut gpu = GpuBackend::from_state(&ctx, &p, &boids, 3).unwrap();
        gpu.record_neighbor_ids(true).unwrap();
        gpu.step().unwrap();
        let d = deferred(&ctx, &gpu)[1];
        (gpu.read_state().unwrap(), gpu.neighbor_ids().unwrap(), d)
    });
    assert!(deferred >= 1, "the lone boid was deferred");
    let mut cpu = CpuBackend::from_state(BackendKind::Cpu, &p, boids.clone(), 3).unwrap();
    cpu.record_neighbor_ids(true).unwrap();
    cpu.step().unwrap();
    let want = cpu.neighbor_ids().unwrap();
    assert_eq!(lists, want, "the neighbours of every boid");
    // The lone boid's nearest is the crowd's boid nearest to it, by brute force.
    let nearest = boids[1..]
        .iter()
        .min_by(|a, b| {
            let d = |x: &Boid| (x.pos() - boids[0].pos()).length_squared();
            d(a).total_cmp(&d(b)).then(a.id.cmp(&b.id))
        })
        .unwrap();
    assert_eq!(lists[0], (0, vec![nearest.id]));
    // Its search reaches the ring of cells holding that nearest one: from the corner cell, every
    // cell of the (rings + 1)² square up to it, more than lavapipe's 65 536 loop iterations.
    let (lx, ly) = grid.cell_xy(boids[0].pos());
    let (nx, ny) = grid.cell_xy(nearest.pos());
    let rings = lx.abs_diff(nx).max(ly.abs_diff(ny)) as u64;
    assert!((rings + 1).pow(2) > 65_536, "{rings} rings of {grid:?}");
    support::compare_states(&g, &cpu.boids(), &p, support::ONE_STEP).unwrap();
}

#[test]
fn a_voronoi_search_through_empty_rings_past_its_budget_is_deferred_and_cut_like_on_the_cpu() {
    // The Voronoi neighbourhood: 15 624 boids spread over the 200 × 200 wu corner of a
    // 1000 × 1000 walled world, and one boid in the opposite corner. The GPU's grid has cells of
    // 2 mean spacings (16 wu, 62 × 62); the lone boid's nearest are some 49 rings of cells away,
    // so its plain search passes its budget of loop iterations (`VORONOI_BUDGET`, 6144, empty
    // rows counted) before it meets one: stopped there and deferred. It and the boids on the
    // crowd's rim, whose cells reach into the empty world, search the whole grid, each cut by a
    // workgroup in `rules_heavy`. The CPU cuts on the GPU's grid: in a crowd this dense a cell
    // may have an edge near length 0, whose owner depends on the order of cuts.
    let Some(ctx) = support::gpu() else { return };
    let n = 15_625;
    let p = SimParams {
        world_width: 1000.0,
        world_height: 1000.0,
        boundary: Boundary::Walls,
        neighborhood: boids::model::Neighborhood::Voronoi,
        ..SimParams::default()
    };
    let grid = boids::model::Grid::new_for(&p, n, boids::model::GridFor::Gpu);
    // The plain search's work up to the crowd (two sides grow from a walled corner: round r has
    // r + 1 rows of 7, and each round 7 more): 16 + 7·Σ(r + 2) over 49 rings, some 9300.
    assert!(grid.cols >= 62, "{grid:?}");
    let mut boids = boids::model::initial_state(13, n, &p);
    for b in &mut boids[1..] {
        b.position = [b.position[0] % 200.0, b.position[1] % 200.0];
    }
    boids[0].position = [999.0, 999.0];
    let (g, lists, deferred) = support::checked(&ctx, || {
        let mut gpu = GpuBackend::from_state(&ctx, &p, &boids, 3).unwrap();
        gpu.record_neighbor_ids(true).unwrap();
        gpu.step().unwrap();
        let d = deferred(&ctx, &gpu)[1];
        (gpu.read_state().unwrap(), gpu.neighbor_ids().unwrap(), d)
    });
    assert!(deferred >= 1, "the lone boid was deferred");
    let mut cpu = CpuBackend::from_state(BackendKind::Cpu, &p, boids.clone(), 3).unwrap();
    cpu.use_grid_of(boids::model::GridFor::Gpu);
    cpu.record_neighbor_ids(true).unwrap();
    cpu.step().unwrap();
    let want = cpu.neighbor_ids().unwrap();
    let differ: Vec<_> = lists.iter().zip(&want).filter(|(a, b)| a != b).collect();
    assert!(
        differ.is_empty(),
        "{} boids' neighbours differ, e.g. {:?}",
        differ.len(),
        &differ[..differ.len().min(3)]
    );
    assert!(
        !lists[0].1.is_empty(),
        "the lone boid has neighbours on the crowd's rim"
    );
    support::compare_states(&g, &cpu.boids(), &p, support::ONE_STEP).unwrap();
}
