//! The Voronoi neighbourhood (Ginelli & Chaté, PRL 105, 168103 (2010); docs/model.md §19.5): a
//! boid's neighbours are the boids whose Voronoi cells share an edge with its own. The twin's
//! search equals the Delaunay graph of the `spade` crate on the 3 × 3 periodic images — N from 3
//! to 5000, across the seam and in the corners, collinear boids, a world three times wider than
//! high — up to edges shorter than 1e-5 of the mean spacing (where cocircular boids make the graph
//! not unique); in walled and bouncing worlds (cells clipped to the world) the twin equals brute
//! force exactly; the backends record those lists; on a torus the mean number of neighbours is
//! exactly 6 (Euler) and the graph is symmetric; the GPU's lists (plain search, and the workgroup
//! search of the boids it defers) equal the CPU's and its steps the CPU's within the one-step
//! tolerance — random flocks with each backend on its own grid, and cocircular boids and cells cut
//! by far candidates with the CPU on the GPU's grid (the order of cuts of the GPU's plain search).

use crate::support;
use boids::backend::{BackendKind, Simulation};
use boids::cpu::naive::voronoi_naive;
use boids::cpu::CpuBackend;
use boids::gpu::GpuBackend;
use boids::model::voronoi::{VoronoiCell, NO_OWNER};
use boids::model::{
    initial_state, Boid, Boundary, GridFor, Model, Neighborhood, SimParams, StepUniforms,
};
use boids::stages::twins::voronoi::voronoi_cell;
use boids::stages::twins::CpuStep;
use spade::{DelaunayTriangulation, Point2, Triangulation};
use std::collections::BTreeMap;

/// Each boid's Voronoi neighbours by id, each with the length of the edge they share (wu; the
/// longest when a boid is a neighbour through two images).
type Edges = BTreeMap<u32, BTreeMap<u32, f64>>;

fn voronoi(p: SimParams) -> SimParams {
    SimParams {
        neighborhood: Neighborhood::Voronoi,
        ..p
    }
}

fn world(w: f32, h: f32, boundary: Boundary) -> SimParams {
    voronoi(SimParams {
        world_width: w,
        world_height: h,
        boundary,
        ..SimParams::default()
    })
}

/// The oracle: `spade`'s Delaunay triangulation of the 3 × 3 periodic images of the boids (in
/// f64); a boid's neighbours are the boids (by id) whose image shares a Delaunay edge with the
/// boid's central copy, each with the length of its Voronoi edge (between the circumcentres of
/// the edge's two triangles).
fn spade_edges(boids: &[Boid], w: f32, h: f32) -> Edges {
    let n = boids.len();
    let mut points = Vec::with_capacity(9 * n);
    for t in 0..9 {
        let (a, b) = ((t % 3) as f64 - 1.0, (t / 3) as f64 - 1.0);
        for bd in boids {
            points.push(Point2::new(
                bd.position[0] as f64 + a * w as f64,
                bd.position[1] as f64 + b * h as f64,
            ));
        }
    }
    let tri: DelaunayTriangulation<Point2<f64>> =
        DelaunayTriangulation::bulk_load_stable(points).expect("spade triangulates");
    assert_eq!(tri.num_vertices(), 9 * n, "no two boids coincide");
    let mut out: Edges = boids.iter().map(|b| (b.id, BTreeMap::new())).collect();
    for e in tri.directed_edges() {
        let (from, to) = (e.from().fix().index(), e.to().fix().index());
        if from / n != 4 || to % n == from % n {
            continue;
        }
        let (Some(f), Some(g)) = (e.face().as_inner(), e.rev().face().as_inner()) else {
            panic!("a central boid's edge lies on the hull of the 3 × 3 images");
        };
        let (c, d) = (f.circumcenter(), g.circumcenter());
        let len = ((c.x - d.x).powi(2) + (c.y - d.y).powi(2)).sqrt();
        let slot = out
            .get_mut(&boids[from % n].id)
            .unwrap()
            .entry(boids[to % n].id)
            .or_insert(0.0);
        *slot = slot.max(len);
    }
    out
}

/// The edges of a cell whose owners are indices of `index_to_id`.
fn cell_edges(cell: &VoronoiCell, index_to_id: impl Fn(u32) -> u32) -> BTreeMap<u32, f64> {
    let mut out = BTreeMap::new();
    let n = cell.vertices.len();
    for i in 0..n {
        let o = cell.owners[i];
        if o == NO_OWNER {
            continue;
        }
        let (a, b) = (cell.vertices[i], cell.vertices[(i + 1) % n]);
        let len = (a - b).length() as f64;
        let slot = out.entry(index_to_id(o)).or_insert(0.0);
        *slot = f64::max(*slot, len);
    }
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

/// The reference twin's cells: the boids binned by the twins, then `voronoi_cell` for every boid.
fn twin_edges(boids: &[Boid], p: &SimParams) -> Edges {
    let (u, c) = binned(boids, p);
    let grid = u.grid();
    let sorted = c.sorted();
    let mut cell = VoronoiCell::new();
    (0..boids.len())
        .map(|s| {
            voronoi_cell(s, sorted, &c.cells, &grid, &u, &mut cell);
            (
                c.sorted_id[s],
                cell_edges(&cell, |j| c.sorted_id[j as usize]),
            )
        })
        .collect()
}

/// Brute force's cells (every boid cuts every cell, `cpu-naive`'s `voronoi_naive`).
fn naive_edges(boids: &[Boid], p: &SimParams) -> Edges {
    let u = StepUniforms::new(p, boids.len() as u32, 0, 1, &Default::default());
    (0..boids.len())
        .map(|i| {
            let cell = voronoi_naive(i, boids, &u);
            (boids[i].id, cell_edges(&cell, |j| boids[j as usize].id))
        })
        .collect()
}

/// Compares two neighbour graphs: a neighbour in one and not the other is allowed only when its
/// edge is shorter than `tol` (wu). The error names the first boid that differs.
fn compare_edges(a: &Edges, b: &Edges, tol: f64) -> Result<(), String> {
    if a.len() != b.len() || a.keys().ne(b.keys()) {
        return Err(format!("{} boids vs {}", a.len(), b.len()));
    }
    for (id, ea) in a {
        let eb = &b[id];
        for (x, y, side) in [(ea, eb, "first"), (eb, ea, "second")] {
            for (j, len) in x {
                if !y.contains_key(j) && *len >= tol {
                    return Err(format!(
                        "boid {id}: neighbour {j} (edge {len:.3e} wu) only in the {side}: \
                         {:?} vs {:?}",
                        ea.keys().collect::<Vec<_>>(),
                        eb.keys().collect::<Vec<_>>()
                    ));
                }
            }
        }
    }
    Ok(())
}

/// 1e-5 of the mean spacing √(W·H/N) (wu).
fn tolerance(n: usize, w: f32, h: f32) -> f64 {
    1e-5 * (w as f64 * h as f64 / n as f64).sqrt()
}

/// The twin (and brute force, up to 1000 boids) against `spade` in a wrapping world.
fn check_wrap(boids: &[Boid], p: &SimParams, what: &str) {
    p.validate().unwrap();
    let tol = tolerance(boids.len(), p.world_width, p.world_height);
    let want = spade_edges(boids, p.world_width, p.world_height);
    compare_edges(&twin_edges(boids, p), &want, tol).unwrap_or_else(|e| panic!("{what}: {e}"));
    if boids.len() <= 1000 {
        compare_edges(&naive_edges(boids, p), &want, tol)
            .unwrap_or_else(|e| panic!("{what}, brute force: {e}"));
    }
}

#[test]
fn the_graph_comparison_fails_on_a_planted_difference() {
    let p = world(300.0, 300.0, Boundary::Wrap);
    let boids = initial_state(3, 200, &p);
    let want = spade_edges(&boids, 300.0, 300.0);
    let tol = tolerance(200, 300.0, 300.0);
    assert!(compare_edges(&twin_edges(&boids, &p), &want, tol).is_ok());
    // One long edge taken away, one added: both found.
    let mut fewer = want.clone();
    let first = fewer.get_mut(&boids[0].id).unwrap();
    let j = *first.keys().next().unwrap();
    first.remove(&j);
    assert!(compare_edges(&twin_edges(&boids, &p), &fewer, tol).is_err());
    let mut more = want.clone();
    more.get_mut(&boids[0].id)
        .unwrap()
        .insert(u32::MAX - 1, 1.0);
    assert!(compare_edges(&more, &want, tol).is_err());
    // An edge below the tolerance may differ.
    let mut tiny = want;
    tiny.get_mut(&boids[0].id)
        .unwrap()
        .insert(u32::MAX - 1, tol / 2.0);
    assert!(compare_edges(&tiny, &twin_edges(&boids, &p), tol).is_ok());
}

#[test]
fn the_voronoi_neighbours_equal_spades_delaunay_graph_from_3_to_5000_boids() {
    for (s, n) in [3usize, 4, 5, 7, 12, 40, 300, 2000, 5000]
        .into_iter()
        .enumerate()
    {
        for (w, h) in [(400.0, 400.0), (900.0, 300.0)] {
            let p = world(w, h, Boundary::Wrap);
            let boids = initial_state(s as u32 + 20, n, &p);
            check_wrap(&boids, &p, &format!("{n} boids in {w} × {h}"));
        }
    }
}

#[test]
fn across_the_seam_in_the_corners_and_on_a_line() {
    let (w, h) = (200.0f32, 200.0f32);
    let p = world(w, h, Boundary::Wrap);
    // Boids on the seams and in the corners among 400 at random.
    let mut boids = initial_state(31, 400, &p);
    let e = 1e-3;
    let spots = [
        [0.0, 0.0],
        [w - e, h - e],
        [w - e, 0.0],
        [0.0, h - e],
        [w - e, 0.5 * h],
        [e, 0.37 * h],
        [0.5 * w, h - e],
        [0.61 * w, 0.0],
    ];
    for (b, at) in boids.iter_mut().zip(spots) {
        b.position = at;
    }
    check_wrap(&boids, &p, "seam and corners");
    // Collinear boids: 30 on one line (each one's neighbours along it are its two on the line,
    // and the cells are strips), then that line among 300 at random.
    let mut line = initial_state(32, 30, &p);
    for (k, b) in line.iter_mut().enumerate() {
        b.position = [k as f32 * (w / 30.0) + 0.25, 0.3 * h];
    }
    check_wrap(&line, &p, "a line");
    let mut crowd = initial_state(33, 330, &p);
    for (k, b) in crowd.iter_mut().take(30).enumerate() {
        b.position = [k as f32 * (w / 30.0) + 0.25, 0.3 * h];
    }
    check_wrap(&crowd, &p, "a line in a crowd");
    // A square lattice: every cell a square whose corners four boids share (cocircular: the
    // diagonal neighbours' edges are of length 0, either way within the tolerance).
    let mut lattice = initial_state(34, 400, &p);
    for (k, b) in lattice.iter_mut().enumerate() {
        b.position = [(k % 20) as f32 * 10.0 + 5.0, (k / 20) as f32 * 10.0 + 5.0];
    }
    check_wrap(&lattice, &p, "a square lattice");
    let twin = twin_edges(&lattice, &p);
    let tol = tolerance(400, w, h);
    for (id, e) in &twin {
        let long = e.values().filter(|&&l| l >= tol).count();
        assert_eq!(
            long, 4,
            "boid {id} of the lattice has 4 neighbours of edge 10 wu"
        );
    }
}

#[test]
fn clipped_cells_in_walled_and_bouncing_worlds_equal_brute_force() {
    for boundary in [Boundary::Walls, Boundary::Bounce] {
        for (s, n) in [2usize, 3, 10, 500, 1500].into_iter().enumerate() {
            let p = world(500.0, 250.0, boundary);
            let mut boids = initial_state(s as u32 + 40, n, &p);
            if n > 10 {
                boids[0].position = [0.0, 0.0];
                boids[1].position = [499.99, 249.99];
                boids[2].position = [0.0, 125.0];
            }
            let tol = tolerance(n, 500.0, 250.0);
            let (twin, naive) = (twin_edges(&boids, &p), naive_edges(&boids, &p));
            compare_edges(&twin, &naive, tol)
                .unwrap_or_else(|e| panic!("{boundary:?}, {n} boids: {e}"));
            // Clipped to the world, no boid reaches across it: two boids a world apart in x are
            // not neighbours through the edge.
            if n == 2 {
                assert_eq!(twin.values().map(|e| e.len()).sum::<usize>(), 2);
            }
        }
    }
}

#[test]
fn on_a_torus_the_mean_neighbour_count_is_six_and_the_graph_is_symmetric() {
    // Euler's formula on a torus (V − E + F = 0, 3F = 2E): E = 3V, a mean degree of exactly 6,
    // whatever the positions (in general position).
    for (s, n) in [50usize, 1000, 4000].into_iter().enumerate() {
        let p = world(600.0, 500.0, Boundary::Wrap);
        let boids = initial_state(s as u32 + 50, n, &p);
        let twin = twin_edges(&boids, &p);
        let edges: usize = twin.values().map(|e| e.len()).sum();
        assert_eq!(
            edges,
            6 * n,
            "{n} boids: mean degree {}",
            edges as f64 / n as f64
        );
        for (id, e) in &twin {
            for j in e.keys() {
                assert!(
                    twin[j].contains_key(id),
                    "{n} boids: {id} → {j} but not back"
                );
            }
        }
    }
}

#[test]
fn the_backends_record_the_twins_lists() {
    for boundary in [Boundary::Wrap, Boundary::Walls] {
        let p = world(400.0, 400.0, boundary);
        let boids = initial_state(61, 1500, &p);
        let twin = twin_edges(&boids, &p);
        for kind in [BackendKind::Cpu, BackendKind::CpuNaive] {
            let mut sim = recording(kind, &p, &boids);
            sim.step().unwrap();
            let lists = sim.neighbor_ids().unwrap();
            assert_eq!(lists.len(), boids.len());
            for (id, got) in &lists {
                let want: Vec<u32> = twin[id].keys().copied().collect();
                assert_eq!(got, &want, "{kind:?} {boundary:?}: boid {id}");
            }
        }
    }
}

/// A CPU backend of `kind` on `boids`, recording its lists.
fn recording(kind: BackendKind, p: &SimParams, boids: &[Boid]) -> CpuBackend {
    let mut sim = CpuBackend::from_state(kind, p, boids.to_vec(), 9).unwrap();
    sim.record_neighbor_ids(true).unwrap();
    sim
}

/// One recorded step of the GPU and of the CPU backend from `boids`, the CPU's on the grid of
/// `on`: the GPU's lists equal the CPU's exactly and its state the CPU's within the one-step
/// tolerance. On the GPU's grid the CPU offers each cell its candidates in the order of the GPU's
/// plain search, so that the lists are equal even where cocircular boids make them depend on the
/// order (the cells of deferred boids, cut by the GPU's workgroup in its own order, are the same
/// to rounding); on its own grid they are equal wherever no Voronoi edge is near length 0. Returns the number of boids the
/// GPU deferred to its workgroup search.
fn gpu_against_cpu(
    ctx: &boids::gpu::GpuContext,
    p: &SimParams,
    boids: &[Boid],
    label: &str,
    on: GridFor,
) -> u32 {
    support::checked(ctx, || {
        let mut g = GpuBackend::from_state(ctx, p, boids, 9).unwrap();
        g.record_neighbor_ids(true).unwrap();
        let mut c = recording(BackendKind::Cpu, p, boids);
        c.use_grid_of(on);
        g.step().unwrap();
        c.step().unwrap();
        let deferred: Vec<u32> =
            boids::gpu::readback::read_vec(ctx, g.buffers().get("deferred"), 2).unwrap();
        let lists = c.neighbor_ids().unwrap();
        assert_eq!(lists.len(), boids.len(), "{label}");
        let got = g.neighbor_ids().unwrap();
        let differ: Vec<_> = got.iter().zip(&lists).filter(|(a, b)| a != b).collect();
        assert!(
            differ.is_empty(),
            "{label}: the GPU's and the CPU's lists differ for {} boids, e.g. {:?}",
            differ.len(),
            &differ[..differ.len().min(3)]
        );
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
fn the_gpu_lists_and_steps_equal_the_cpus() {
    let Some(ctx) = support::gpu() else { return };
    for m in Model::all() {
        for (s, boundary) in [Boundary::Wrap, Boundary::Walls, Boundary::Bounce]
            .into_iter()
            .enumerate()
        {
            let mut p = voronoi(SimParams {
                model: m,
                boundary,
                ..SimParams::default()
            })
            .with_world_for(3000, 0.01);
            if m == Model::VICSEK {
                p.models.vicsek.speed = 2.0;
            }
            let boids = support::test_state(s as u32 + 70, 3000, &p, false);
            let label = format!("{} {boundary:?}", m.name());
            // The plain search holds nearly every cell of a uniform flock (13 edges or more: a
            // few in 10⁵ for boids at random); a search that deferred more would be right but
            // slow.
            let deferred = gpu_against_cpu(&ctx, &p, &boids, &label, GridFor::Cpu);
            assert!(
                deferred <= 3,
                "{label}: {deferred} boids of 3000 deferred to the workgroup search"
            );
        }
    }
    // Few boids in a wrapping world (their cells reach other images) and a field of view.
    for n in [3usize, 5, 12] {
        let p = world(100.0, 60.0, Boundary::Wrap);
        let label = format!("{n} boids");
        gpu_against_cpu(&ctx, &p, &initial_state(71, n, &p), &label, GridFor::Cpu);
    }
    let p = SimParams {
        view_angle: 270.0,
        ..world(300.0, 300.0, Boundary::Wrap)
    };
    let boids = initial_state(72, 900, &p);
    gpu_against_cpu(&ctx, &p, &boids, "field of view", GridFor::Cpu);
}

#[test]
fn cocircular_and_collinear_boids_are_cut_like_on_the_cpu() {
    // Boids at whole coordinates: their cells' vertices lie exactly on later bisectors (sides of
    // 0, the cases of a cut that keep a vertex on the line or hand its edge to the new owner).
    let Some(ctx) = support::gpu() else { return };
    let p = world(200.0, 200.0, Boundary::Wrap);
    let mut lattice = initial_state(34, 400, &p);
    for (k, b) in lattice.iter_mut().enumerate() {
        b.position = [(k % 20) as f32 * 10.0 + 5.0, (k / 20) as f32 * 10.0 + 5.0];
    }
    // Each compared and cut by the plain search (a deferred boid's cell is the workgroup's).
    let plain = |boids: &[Boid], what: &str| {
        let deferred = gpu_against_cpu(&ctx, &p, boids, what, GridFor::Gpu);
        assert!(deferred <= 4, "{what}: {deferred} boids deferred");
    };
    plain(&lattice, "a square lattice");
    // Rows offset by half a spacing (isosceles triangles), and a line among random boids.
    let mut tri = initial_state(35, 400, &p);
    for (k, b) in tri.iter_mut().enumerate() {
        let row = (k / 20) as f32;
        b.position = [(k % 20) as f32 * 10.0 + 5.0 * (row % 2.0), row * 10.0];
    }
    plain(&tri, "rows offset by half a spacing");
    let mut crowd = initial_state(33, 330, &p);
    for (k, b) in crowd.iter_mut().take(30).enumerate() {
        b.position = [k as f32 * 6.0, 60.0];
    }
    plain(&crowd, "a line in a crowd");
}

#[test]
fn boids_alone_far_from_a_crowd_are_searched_by_a_workgroup_like_on_the_cpu() {
    // 4990 boids in an 80 × 80 square in the middle of a 1000 × 1000 world, and ten alone at the
    // corners and on the seams: their cells reach halfway to the crowd, so their plain search
    // passes its budget, and a workgroup cuts them. The CPU cuts on the GPU's grid: in a crowd
    // this dense one boid's cell has an edge near length 0, whose owner depends on the order of
    // cuts.
    let Some(ctx) = support::gpu() else { return };
    for boundary in [Boundary::Wrap, Boundary::Walls] {
        let p = world(1000.0, 1000.0, boundary);
        let mut boids = initial_state(73, 5000, &p);
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
        let deferred = gpu_against_cpu(&ctx, &p, &boids, &label, GridFor::Gpu);
        assert!(
            deferred >= 4,
            "{label}: the lone boids were deferred ({deferred})"
        );
    }
}

#[test]
fn a_boid_ringed_by_many_has_a_cell_of_many_edges_like_on_the_cpu() {
    // One boid at the centre of a circle of 100 (each 1 wu out, none of the others within 3 wu),
    // among 2000 at random: its cell has 100 edges, more than the plain search holds, so a
    // workgroup cuts it.
    let Some(ctx) = support::gpu() else { return };
    let p = world(400.0, 400.0, Boundary::Wrap);
    let mut boids = initial_state(74, 2101, &p);
    for b in &mut boids[101..] {
        let (dx, dy) = (b.position[0] - 200.0, b.position[1] - 200.0);
        if dx * dx + dy * dy < 9.0 {
            b.position[0] += 10.0;
        }
    }
    boids[0].position = [200.0, 200.0];
    for k in 0..100 {
        let a = k as f32 * std::f32::consts::TAU / 100.0;
        boids[1 + k].position = [200.0 + a.cos(), 200.0 + a.sin()];
    }
    let twin = twin_edges(&boids, &p);
    assert_eq!(
        twin[&boids[0].id].len(),
        100,
        "the ringed boid has 100 neighbours"
    );
    let deferred = gpu_against_cpu(&ctx, &p, &boids, "ringed", GridFor::Gpu);
    assert!(deferred >= 1, "the ringed boid was deferred");
}

#[test]
fn the_panel_shows_neither_k_nor_the_radii_nor_the_cap() {
    // The Voronoi neighbourhood has no parameter of its own; the app's panel shows the
    // neighbourhood's selector and hides the other neighbourhoods' parameters.
    use boids::app::ui::params::{groups, shown_now};
    for m in Model::all() {
        let mut p = SimParams {
            model: m,
            ..SimParams::default()
        };
        p.set("neighborhood", "voronoi").unwrap();
        let shown: Vec<&str> = groups(m)
            .into_iter()
            .flat_map(|(_, s)| s.into_iter())
            .filter(|s| shown_now(s, &p))
            .map(|s| s.key)
            .collect();
        assert!(shown.contains(&"neighborhood"), "{}: {shown:?}", m.name());
        for k in [
            "topological_k",
            "perception_radius",
            "alignment_radius",
            "cohesion_radius",
            "max_neighbors",
        ] {
            assert!(!shown.contains(&k), "{}: {k} in {shown:?}", m.name());
        }
    }
}
