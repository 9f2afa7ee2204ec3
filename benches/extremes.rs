//! Three claims, measured in one run on the GPU and the CPU backend, whole step (wall time of
//! `step` + `finish`, median of the measured steps):
//!
//! 1. **Step time follows the boids, not the world's area.** N = 10, 1 000 and 100 000 boids in
//!    square worlds of side 100, 1 000, 10 000, 100 000 and 1 000 000 wu, with wrap and with walls.
//!    The uniform grid keeps at most max(4·N, 4096) cells (larger cells in a huge world, see
//!    `boids::model::grid`), so clearing and scanning the cells stays O(N). The table gives the
//!    cells, the density, the expected candidates per boid (the boids of a uniform flock in the
//!    block of cells around a boid), the mean neighbours per boid after the last CPU step, and
//!    for each boundary and N the ratio of the slowest to the fastest world. **Dense** worlds are reported
//!    but left out of that ratio: a world is dense when its density exceeds the default density
//!    ([`DEFAULT_DENSITY`], 0.01 boids/wu², about 12 neighbours per boid) by more than
//!    [`DENSE_FACTOR`]×. There a boid's work grows with its neighbours (about 125 at 0.1/wu²,
//!    12 500 at 10/wu²): that is the flock's cost, not the area's.
//! 2. **Obstacle cost follows the obstacle points near each boid, not their total.** 20 000 boids
//!    at the default density with 0, 1 000, 10 000 and 100 000 points uniform over the world;
//!    100 000 points packed into a 30 × 30 wu square at the corner with the flock uniform; and the
//!    same corner pile with no boid within [`CLEAR_CELLS`] obstacle cells of it. The points are
//!    binned into an `ObstacleGrid` and a boid visits only the 3 × 3 cells around it, so the
//!    column `tests` (Σ over boids of the points in the cells each visits, at the initial state)
//!    is the work the points add; the ratio is against 0 points. With a uniform flock, a pile
//!    costs as many tests as the same points spread out (each point is visited by the boids of
//!    the 3 × 3 cells around it, whatever the points' layout) but all on the few boids near it;
//!    with the flock away from the pile the points cost only the visit of 9 empty cells per boid.
//!
//! 3. **What the topological neighbourhood costs against the metric one** (the target: within
//!    2× at the same mean neighbour count). Each boid's neighbours are its k nearest whatever the
//!    distance (`neighborhood = "topological"`), found by a grid search over the 5 × 5 block of
//!    cells around it, then widening ring by ring (docs/model.md §19.2). At the default density with
//!    k = 7 it is compared with the metric neighbourhood whose radius holds the same mean
//!    neighbour count, √(7/(π·ρ)) ≈ 14.9 wu (the boids model's alignment, cohesion and colour
//!    radii; Vicsek's r), 20 000 boids, the boids and the Vicsek model; and at the two extremes:
//!    **sparse**, 10 boids in a world 10⁶ wu wide (metric: no neighbour; topological: the search
//!    widens over the whole grid), and **crowded**, 2 000 boids in a square of 1 wu inside one
//!    cell (every boid a candidate of every other in both). The Voronoi neighbourhood
//!    (`neighborhood = "voronoi"`: the boids whose Voronoi cells share an edge with the boid's,
//!    its cell cut out of a block of grid cells grown side by side, docs/model.md §19.5) steps the same flocks beside them (the
//!    target: within 3× of the topological step). The table gives the three steps, the ratios
//!    topological / metric and Voronoi / topological, and the mean neighbours of each after the
//!    last CPU step.
//!
//! Timing: the cases of one sweep (all worlds of one boundary and N; all obstacle layouts) are
//! built side by side, each runs [`WARMUP`] untimed steps, then timed rounds in which every case
//! steps once in turn, GPU and CPU alike, so a change of load on the machine falls on every case
//! of a ratio alike; the result is the median step of [`MEASURED`] rounds or more (as many as fit
//! in [`ROUND_BUDGET`], at most [`MAX_ROUNDS`]). A world whose expected neighbour pairs
//! N·min(N − 1, ρ·π·r²) exceed [`MAX_PAIRS`] per step (100 000 boids in a 100 × 100 wu world:
//! 1.3·10⁹ pairs) is timed on one step of the CPU backend only, marked `1 step` (on the 2-core
//! development machine, busy with other builds, lavapipe took 107 s to 211 s for that step and the
//! CPU 13 s to 35 s). Errors (an invalid world, a
//! count over the adapter's limits) are printed in the table. Without an adapter the GPU columns
//! say `SKIPPED: no adapter` and the CPU runs anyway.
//!
//! `cargo bench --bench extremes -- neighborhoods` runs section 3 only (likewise `worlds`,
//! `obstacles`).
//!
//! The bench does its own timing instead of criterion's sampling: its result is the table of
//! ratios of one run, interleaved as above. `cargo bench --bench extremes` takes about 2 minutes
//! on 2 cores with lavapipe; run without `--bench` (`cargo test --benches`) it only does a quick
//! pass (no 100 000-boid worlds, one step per case) to check that every case runs.

use std::time::{Duration, Instant};

use boids::backend::{BackendKind, SimError, Simulation};
use boids::cpu::CpuBackend;
use boids::gpu::{GpuBackend, GpuContext};
use boids::model::rng::uniform01;
use boids::model::{
    initial_state, Actors, Boid, Boundary, Grid, Interaction, ObstacleGrid, SimParams,
    DEFAULT_DENSITY,
};

/// Seed of every flock.
const SEED: u32 = 1;
/// Untimed steps of each case before the timed rounds.
const WARMUP: usize = 3;
/// Fewest timed rounds.
const MEASURED: usize = 5;
/// Time a sweep's timed rounds may take (more rounds for cheap cases).
const ROUND_BUDGET: Duration = Duration::from_secs(10);
/// Most timed rounds.
const MAX_ROUNDS: usize = 100;
/// Expected neighbour pairs per step above which a world is timed on one CPU step only.
const MAX_PAIRS: f64 = 1e8;
/// A world is dense above `DENSE_FACTOR × DEFAULT_DENSITY` boids/wu².
const DENSE_FACTOR: f64 = 10.0;
/// Boid counts of the world-size sweep.
const COUNTS: [usize; 3] = [10, 1_000, 100_000];
/// World sides of the world-size sweep (wu).
const SIDES: [f32; 5] = [100.0, 1_000.0, 10_000.0, 100_000.0, 1_000_000.0];
/// Boids of the obstacle sweep.
const OBSTACLE_BOIDS: usize = 20_000;
/// Obstacle point counts spread uniformly over the world.
const OBSTACLE_COUNTS: [usize; 4] = [0, 1_000, 10_000, 100_000];
/// Points of the corner pile.
const PILE_POINTS: usize = 100_000;
/// Side of the corner pile (wu), from (0, 0).
const PILE_SIDE: f32 = 30.0;
/// In the `pile, flock away` case no boid is within this many obstacle cells of the pile.
const CLEAR_CELLS: f32 = 4.0;
/// Random-number streams of the obstacle points (apart from the flock's streams).
const STREAM_OBSTACLE_X: u32 = 1_000;
const STREAM_OBSTACLE_Y: u32 = 1_001;

/// The outcome of timing one backend on one case.
enum Timed {
    /// Median ms per step over `steps` timed steps.
    Ms { ms: f64, steps: usize },
    /// Not run, and why.
    NotRun(String),
    /// The backend refused the case or failed.
    Failed(String),
    /// No adapter.
    Skipped,
}

impl Timed {
    fn ms(&self) -> Option<f64> {
        match self {
            Timed::Ms { ms, .. } => Some(*ms),
            _ => None,
        }
    }

    fn cell(&self) -> String {
        match self {
            Timed::Ms { ms, steps: 1 } => format!("{ms:.3} (1 step)"),
            Timed::Ms { ms, .. } => format!("{ms:.3}"),
            Timed::NotRun(why) => format!("not run: {why}"),
            Timed::Failed(e) => format!("error: {e}"),
            Timed::Skipped => "SKIPPED: no adapter".into(),
        }
    }
}

/// How many steps to run (the quick pass of `cargo test --benches` runs one of each).
#[derive(Clone, Copy)]
struct Plan {
    warmup: usize,
    min_rounds: usize,
    max_rounds: usize,
}

/// One backend on one case: the simulation (or why there is none) and its timed steps (ms).
struct Timer {
    sim: Result<Box<dyn Simulation>, Timed>,
    ms: Vec<f64>,
}

impl Timer {
    fn new(sim: Result<Box<dyn Simulation>, SimError>) -> Timer {
        Timer {
            sim: sim.map_err(|e| Timed::Failed(e.to_string())),
            ms: Vec::new(),
        }
    }

    fn without(why: Timed) -> Timer {
        Timer {
            sim: Err(why),
            ms: Vec::new(),
        }
    }

    /// One step waited for, in ms (`None` when there is no simulation; a failure ends it).
    fn step(&mut self) -> Option<f64> {
        let sim = self.sim.as_mut().ok()?;
        let t = Instant::now();
        match sim.step().and_then(|()| sim.finish()) {
            Ok(()) => Some(t.elapsed().as_secs_f64() * 1e3),
            Err(e) => {
                self.sim = Err(Timed::Failed(e.to_string()));
                None
            }
        }
    }

    /// Mean neighbours per boid after the last step.
    fn mean_neighbors(&mut self) -> Option<f32> {
        let sim = self.sim.as_mut().ok()?;
        sim.measures().ok().map(|m| m.mean_neighbors() as f32)
    }

    /// The median of the timed steps.
    fn result(&self) -> Timed {
        match &self.sim {
            Err(Timed::Failed(e)) => Timed::Failed(e.clone()),
            Err(Timed::NotRun(w)) => Timed::NotRun(w.clone()),
            Err(Timed::Skipped) => Timed::Skipped,
            _ if self.ms.is_empty() => Timed::Failed("no step timed".into()),
            _ => {
                let mut ms = self.ms.clone();
                ms.sort_by(f64::total_cmp);
                Timed::Ms {
                    ms: ms[ms.len() / 2],
                    steps: ms.len(),
                }
            }
        }
    }
}

/// Warms every timer up, then times rounds in which each steps once in turn (the GPU timers, then
/// the CPU ones: a CPU step after a CPU step, as lavapipe and rayon share the cores): at least
/// `plan.min_rounds`, more while they fit in [`ROUND_BUDGET`] (at the last warm-up step's pace).
fn measure<'a>(mut timers: Vec<&'a mut Timer>, mut cpus: Vec<&'a mut Timer>, plan: Plan) {
    timers.append(&mut cpus);
    let mut round_ms = 0.0;
    for t in timers.iter_mut() {
        let mut last = 0.0;
        for _ in 0..plan.warmup {
            last = t.step().unwrap_or(0.0);
        }
        round_ms += last;
    }
    let fit = (ROUND_BUDGET.as_secs_f64() * 1e3 / round_ms.max(1e-3)) as usize;
    let rounds = fit.clamp(plan.min_rounds, plan.max_rounds);
    for _ in 0..rounds {
        for t in timers.iter_mut() {
            if let Some(ms) = t.step() {
                t.ms.push(ms);
            }
        }
    }
}

/// The GPU backend on `boids` with `actors` (`Skipped` without a context).
fn gpu_timer(ctx: Option<&GpuContext>, p: &SimParams, boids: &[Boid], actors: &Actors) -> Timer {
    let Some(ctx) = ctx else {
        return Timer::without(Timed::Skipped);
    };
    Timer::new((|| {
        let mut sim = GpuBackend::from_state(ctx, p, boids, SEED)?;
        sim.set_profiling(false);
        sim.set_predators(&actors.predators)?;
        sim.set_obstacles(&actors.obstacles)?;
        Ok(Box::new(sim) as Box<dyn Simulation>)
    })())
}

/// The CPU grid backend on `boids` with `actors`.
fn cpu_timer(p: &SimParams, boids: &[Boid], actors: &Actors) -> Timer {
    Timer::new((|| {
        let mut sim = CpuBackend::from_state(BackendKind::Cpu, p, boids.to_vec(), SEED)?;
        sim.set_predators(&actors.predators)?;
        sim.set_obstacles(&actors.obstacles)?;
        Ok(Box::new(sim) as Box<dyn Simulation>)
    })())
}

/// Max / min of the times, when at least two are known.
fn spread(times: impl Iterator<Item = Option<f64>>) -> Option<f64> {
    let known: Vec<f64> = times.flatten().collect();
    let max = known.iter().copied().reduce(f64::max)?;
    let min = known.iter().copied().reduce(f64::min)?;
    (known.len() >= 2).then(|| max / min)
}

fn ratio_cell(r: Option<f64>) -> String {
    r.map_or("—".into(), |r| format!("{r:.2}×"))
}

/// One case of the world-size sweep.
struct WorldRow {
    boundary: Boundary,
    n: usize,
    side: f32,
    cells: u32,
    density: f64,
    candidates: f64,
    dense: bool,
    neighbors: Option<f32>,
    gpu: Timed,
    cpu: Timed,
}

/// One world of the world-size sweep while it is timed.
struct WorldCase {
    p: SimParams,
    side: f32,
    density: f64,
    gpu: Timer,
    cpu: Timer,
    /// Over [`MAX_PAIRS`]: one CPU step only.
    one_step: bool,
}

/// Expected neighbour candidates per boid of a uniform flock of `n` boids: the boids in the block
/// of cells around it (edges of a walled world ignored).
fn candidates(g: &Grid, p: &SimParams, n: usize) -> f64 {
    let block_w = (2 * g.block_x + 1).min(g.cols) as f64 * (p.world_width / g.cols as f32) as f64;
    let block_h = (2 * g.block_y + 1).min(g.rows) as f64 * (p.world_height / g.rows as f32) as f64;
    let density = n as f64 / (p.world_width as f64 * p.world_height as f64);
    (density * block_w * block_h).min(n as f64)
}

fn world_sweep(ctx: Option<&GpuContext>, counts: &[usize], plan: Plan) -> Vec<WorldRow> {
    let mut rows = Vec::new();
    for boundary in [Boundary::Wrap, Boundary::Walls] {
        for &n in counts {
            let none = Actors::default();
            let mut cases = Vec::new();
            for side in SIDES {
                let p = SimParams {
                    world_width: side,
                    world_height: side,
                    boundary,
                    ..SimParams::default()
                };
                let area = side as f64 * side as f64;
                let density = n as f64 / area;
                let r = p.perception_radius as f64;
                let pairs = n as f64 * (density * std::f64::consts::PI * r * r).min(n as f64 - 1.0);
                let (gpu, cpu, one_step) = if let Err(e) = p.validate() {
                    let fail = || Timer::without(Timed::Failed(e.to_string()));
                    (fail(), fail(), false)
                } else {
                    let boids = initial_state(SEED, n, &p);
                    if pairs > MAX_PAIRS {
                        let why = format!("{pairs:.1e} neighbour pairs/step");
                        (
                            Timer::without(Timed::NotRun(why)),
                            cpu_timer(&p, &boids, &none),
                            true,
                        )
                    } else {
                        (
                            gpu_timer(ctx, &p, &boids, &none),
                            cpu_timer(&p, &boids, &none),
                            false,
                        )
                    }
                };
                cases.push(WorldCase {
                    p,
                    side,
                    density,
                    gpu,
                    cpu,
                    one_step,
                });
            }
            // The cases over MAX_PAIRS: one CPU step each, alone.
            for c in cases.iter_mut().filter(|c| c.one_step) {
                if let Some(ms) = c.cpu.step() {
                    c.cpu.ms.push(ms);
                }
            }
            let (gpus, cpus) = cases
                .iter_mut()
                .filter(|c| !c.one_step)
                .map(|c| (&mut c.gpu, &mut c.cpu))
                .unzip();
            measure(gpus, cpus, plan);
            for mut c in cases {
                let grid = Grid::new(&c.p, n);
                let row = WorldRow {
                    boundary,
                    n,
                    side: c.side,
                    cells: grid.cells(),
                    density: c.density,
                    candidates: candidates(&grid, &c.p, n),
                    dense: c.density > DENSE_FACTOR * DEFAULT_DENSITY as f64,
                    neighbors: c.cpu.mean_neighbors(),
                    gpu: c.gpu.result(),
                    cpu: c.cpu.result(),
                };
                eprintln!(
                    "  {} N={} side={}: gpu {}, cpu {} (ms/step)",
                    boundary.name(),
                    n,
                    row.side,
                    row.gpu.cell(),
                    row.cpu.cell()
                );
                rows.push(row);
            }
        }
    }
    rows
}

fn print_world_table(rows: &[WorldRow]) {
    println!(
        "\nStep time against world size (square world, side in wu; dense: > {DENSE_FACTOR}× the \
         default density {DEFAULT_DENSITY} boids/wu², left out of the ratio)\n"
    );
    println!(
        "| boundary | N | side | cells | boids/wu² | candidates | neighbours | gpu ms/step | cpu \
         ms/step | |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|");
    for r in rows {
        println!(
            "| {} | {} | {} | {} | {:.0e} | {:.2} | {} | {} | {} | {} |",
            r.boundary.name(),
            r.n,
            r.side,
            r.cells,
            r.density,
            r.candidates,
            r.neighbors.map_or("—".into(), |nb| format!("{nb:.1}")),
            r.gpu.cell(),
            r.cpu.cell(),
            if r.dense { "dense" } else { "" }
        );
    }
    println!("\nSlowest / fastest world per N (dense worlds left out)\n");
    println!("| boundary | N | worlds | gpu max/min | cpu max/min |");
    println!("|---|---|---|---|---|");
    let mut keys: Vec<(Boundary, usize)> = rows.iter().map(|r| (r.boundary, r.n)).collect();
    keys.dedup();
    for (boundary, n) in keys {
        let flat: Vec<&WorldRow> = rows
            .iter()
            .filter(|r| r.boundary == boundary && r.n == n && !r.dense)
            .collect();
        let sides: Vec<String> = flat.iter().map(|r| format!("{}", r.side)).collect();
        println!(
            "| {} | {} | {} | {} | {} |",
            boundary.name(),
            n,
            sides.join(", "),
            ratio_cell(spread(flat.iter().map(|r| r.gpu.ms()))),
            ratio_cell(spread(flat.iter().map(|r| r.cpu.ms()))),
        );
    }
}

/// `count` points uniform over `[0, w) × [0, h)`.
fn uniform_points(count: usize, w: f32, h: f32) -> Vec<[f32; 2]> {
    (0..count as u32)
        .map(|k| {
            [
                uniform01(SEED, k, 0, STREAM_OBSTACLE_X) * w,
                uniform01(SEED, k, 0, STREAM_OBSTACLE_Y) * h,
            ]
        })
        .collect()
}

/// Σ over boids of the obstacle points in the cells each boid visits (the point tests of a step).
fn obstacle_tests(boids: &[Boid], points: &[[f32; 2]], p: &SimParams) -> u64 {
    let ia = Interaction::with_obstacle_defaults();
    let og = ObstacleGrid::new(points, ia.obstacle_radius.max(ia.obstacle_bounce_radius), p);
    let wrap = p.boundary == Boundary::Wrap;
    let mut tests = 0u64;
    for b in boids {
        og.for_each_cell(b.pos(), wrap, |c| {
            tests += (og.starts[c as usize + 1] - og.starts[c as usize]) as u64;
        });
    }
    tests
}

/// `boids` with every boid within `clear` wu of the square `[0, side)²` (wrap-aware, as in a
/// wrapping world) moved by half the world in x and y, so no boid is near the pile.
fn away_from_pile(mut boids: Vec<Boid>, side: f32, clear: f32, p: &SimParams) -> Vec<Boid> {
    let (w, h) = (p.world_width, p.world_height);
    let near = |x: f32, len: f32| x < side + clear || x > len - clear;
    for b in &mut boids {
        if near(b.position[0], w) && near(b.position[1], h) {
            b.position[0] = (b.position[0] + 0.5 * w) % w;
            b.position[1] = (b.position[1] + 0.5 * h) % h;
        }
    }
    boids
}

/// Boids of the neighbourhood comparison at the default density.
const NEIGHBORHOOD_BOIDS: usize = 20_000;
/// k of the topological neighbourhood compared.
const TOPOLOGICAL_K: u32 = 7;
/// Boids of the crowded extreme (all in one cell).
const CROWD_BOIDS: usize = 2_000;
/// Boids of the sparse extreme.
const SPARSE_BOIDS: usize = 10;
/// Side of the sparse extreme's world (wu).
const SPARSE_SIDE: f32 = 1_000_000.0;

/// One case of the neighbourhood comparison: the metric, the topological and the Voronoi step of
/// one flock.
struct NeighborhoodRow {
    label: String,
    n: usize,
    gpu: [Timed; 3],
    cpu: [Timed; 3],
    neighbors: [Option<f32>; 3],
}

/// `p` in the Voronoi neighbourhood (its radii left as they are: only separation's acts).
fn voronoi(p: &SimParams) -> SimParams {
    let mut t = p.clone();
    t.set("neighborhood", "voronoi").expect("a choice");
    t
}

/// `p` in the topological neighbourhood with k = [`TOPOLOGICAL_K`] (its radii left as they are:
/// only separation's acts).
fn topological(p: &SimParams) -> SimParams {
    let mut t = p.clone();
    t.set("neighborhood", "topological").expect("a choice");
    t.set("topological_k", &TOPOLOGICAL_K.to_string())
        .expect("in range");
    t
}

/// `p` with the metric radius `r` (wu) on every rule but separation, and as the perception radius.
fn metric_radius(mut p: SimParams, r: f32) -> SimParams {
    p.perception_radius = r;
    p.alignment_radius = r;
    p.cohesion_radius = r;
    p.hue_radius = r;
    p.separation_radius = p.separation_radius.min(r);
    p
}

fn neighborhood_sweep(ctx: Option<&GpuContext>, plan: Plan) -> Vec<NeighborhoodRow> {
    let rho = DEFAULT_DENSITY;
    // The radius of the disc holding k boids on average at density ρ.
    let r_k = (TOPOLOGICAL_K as f32 / (std::f32::consts::PI * rho)).sqrt();
    let n = NEIGHBORHOOD_BOIDS;
    let boids_model = metric_radius(SimParams::default().with_world_for(n, rho), r_k);
    let vicsek = {
        let mut p = SimParams::default();
        p.set("model", "vicsek").expect("a model");
        metric_radius(p.with_world_for(n, rho), r_k)
    };
    let sparse = SimParams {
        world_width: SPARSE_SIDE,
        world_height: SPARSE_SIDE,
        ..SimParams::default()
    };
    let crowd = SimParams::default().with_world_for(CROWD_BOIDS, rho);
    let mut cases = vec![
        (
            format!("boids, ρ = {rho}, r = {r_k:.2}"),
            boids_model,
            n,
            false,
        ),
        (format!("vicsek, ρ = {rho}, r = {r_k:.2}"), vicsek, n, false),
        (
            format!("sparse, {SPARSE_SIDE:.0e} wu"),
            sparse,
            SPARSE_BOIDS,
            false,
        ),
        ("crowded, one cell".to_string(), crowd, CROWD_BOIDS, true),
    ];
    let none = Actors::default();
    let mut rows = Vec::new();
    for (label, metric, n, crowded) in cases.drain(..) {
        let mut boids = initial_state(SEED, n, &metric);
        if crowded {
            // Every boid in [0.25, 1.25)², inside the first cell of both grids (cells of 9.7 wu or more).
            for (k, b) in boids.iter_mut().enumerate() {
                b.position = [
                    0.25 + uniform01(SEED, k as u32, 0, STREAM_OBSTACLE_X),
                    0.25 + uniform01(SEED, k as u32, 0, STREAM_OBSTACLE_Y),
                ];
            }
        }
        let (topo, vor) = (topological(&metric), voronoi(&metric));
        let mut gpu = [
            gpu_timer(ctx, &metric, &boids, &none),
            gpu_timer(ctx, &topo, &boids, &none),
            gpu_timer(ctx, &vor, &boids, &none),
        ];
        let mut cpu = [
            cpu_timer(&metric, &boids, &none),
            cpu_timer(&topo, &boids, &none),
            cpu_timer(&vor, &boids, &none),
        ];
        {
            let [g0, g1, g2] = &mut gpu;
            let [c0, c1, c2] = &mut cpu;
            measure(vec![g0, g1, g2], vec![c0, c1, c2], plan);
        }
        let row = NeighborhoodRow {
            label,
            n,
            neighbors: [
                cpu[0].mean_neighbors(),
                cpu[1].mean_neighbors(),
                cpu[2].mean_neighbors(),
            ],
            gpu: [gpu[0].result(), gpu[1].result(), gpu[2].result()],
            cpu: [cpu[0].result(), cpu[1].result(), cpu[2].result()],
        };
        eprintln!(
            "  {}: gpu {} / {} / {}, cpu {} / {} / {} (ms/step, metric / topological / Voronoi)",
            row.label,
            row.gpu[0].cell(),
            row.gpu[1].cell(),
            row.gpu[2].cell(),
            row.cpu[0].cell(),
            row.cpu[1].cell(),
            row.cpu[2].cell()
        );
        rows.push(row);
    }
    rows
}

fn print_neighborhood_table(rows: &[NeighborhoodRow]) {
    println!(
        "\n## Neighbourhoods: metric vs topological (k = {TOPOLOGICAL_K}) vs Voronoi, ms per step, \
         median\n"
    );
    println!(
        "| case | N | neighbours metric / topo / Voronoi | GPU metric | GPU topo | GPU Voronoi | GPU topo/metric | GPU Voronoi/topo | CPU metric | CPU topo | CPU Voronoi | CPU topo/metric | CPU Voronoi/topo |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    let ratio = |a: &Timed, b: &Timed| match (a.ms(), b.ms()) {
        (Some(a), Some(b)) => format!("{:.2}×", b / a),
        _ => "—".into(),
    };
    let nb = |x: Option<f32>| x.map_or("—".into(), |v| format!("{v:.2}"));
    for r in rows {
        println!(
            "| {} | {} | {} / {} / {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            r.label,
            r.n,
            nb(r.neighbors[0]),
            nb(r.neighbors[1]),
            nb(r.neighbors[2]),
            r.gpu[0].cell(),
            r.gpu[1].cell(),
            r.gpu[2].cell(),
            ratio(&r.gpu[0], &r.gpu[1]),
            ratio(&r.gpu[1], &r.gpu[2]),
            r.cpu[0].cell(),
            r.cpu[1].cell(),
            r.cpu[2].cell(),
            ratio(&r.cpu[0], &r.cpu[1]),
            ratio(&r.cpu[1], &r.cpu[2]),
        );
    }
}

/// One case of the obstacle sweep.
struct ObstacleRow {
    label: String,
    points: usize,
    tests: u64,
    gpu: Timed,
    cpu: Timed,
}

fn obstacle_sweep(ctx: Option<&GpuContext>, plan: Plan) -> Vec<ObstacleRow> {
    let p = SimParams::default().with_world_for(OBSTACLE_BOIDS, DEFAULT_DENSITY);
    let (w, h) = (p.world_width, p.world_height);
    let flock = initial_state(SEED, OBSTACLE_BOIDS, &p);
    let ia = Interaction::with_obstacle_defaults();
    let pile: Vec<[f32; 2]> = uniform_points(PILE_POINTS, PILE_SIDE, PILE_SIDE);
    let clear = CLEAR_CELLS * ia.obstacle_radius.max(ia.obstacle_bounce_radius);
    let mut cases: Vec<(String, Vec<Boid>, Vec<[f32; 2]>)> = OBSTACLE_COUNTS
        .iter()
        .map(|&k| {
            (
                "uniform".to_string(),
                flock.clone(),
                uniform_points(k, w, h),
            )
        })
        .collect();
    cases.push((
        format!("{PILE_SIDE}×{PILE_SIDE} wu corner pile"),
        flock.clone(),
        pile.clone(),
    ));
    cases.push((
        format!("corner pile, no boid within {clear} wu"),
        away_from_pile(flock.clone(), PILE_SIDE, clear, &p),
        pile,
    ));
    let mut timed: Vec<(String, usize, u64, Timer, Timer)> = cases
        .into_iter()
        .map(|(label, boids, points)| {
            let tests = obstacle_tests(&boids, &points, &p);
            let actors = Actors {
                obstacles: points,
                ..Actors::default()
            };
            (
                label,
                actors.obstacles.len(),
                tests,
                gpu_timer(ctx, &p, &boids, &actors),
                cpu_timer(&p, &boids, &actors),
            )
        })
        .collect();
    let (gpus, cpus) = timed
        .iter_mut()
        .map(|(_, _, _, gpu, cpu)| (gpu, cpu))
        .unzip();
    measure(gpus, cpus, plan);
    timed
        .into_iter()
        .map(|(label, points, tests, gpu, cpu)| {
            let row = ObstacleRow {
                label,
                points,
                tests,
                gpu: gpu.result(),
                cpu: cpu.result(),
            };
            eprintln!(
                "  {} {} points: gpu {}, cpu {} (ms/step)",
                row.label,
                row.points,
                row.gpu.cell(),
                row.cpu.cell()
            );
            row
        })
        .collect()
}

fn print_obstacle_table(rows: &[ObstacleRow]) {
    let p = SimParams::default().with_world_for(OBSTACLE_BOIDS, DEFAULT_DENSITY);
    println!(
        "\nObstacle points: {OBSTACLE_BOIDS} boids, wrap world {:.0} × {:.0} wu; tests = Σ over \
         boids of the points in the 3 × 3 obstacle cells visited; ratio against 0 points\n",
        p.world_width, p.world_height
    );
    println!("| points | layout | tests | gpu ms/step | gpu ratio | cpu ms/step | cpu ratio |");
    println!("|---|---|---|---|---|---|---|");
    let base = rows.first().map(|r| (r.gpu.ms(), r.cpu.ms()));
    let ratio = |t: Option<f64>, b: Option<f64>| match (t, b) {
        (Some(t), Some(b)) => format!("{:.2}×", t / b),
        _ => "—".into(),
    };
    for r in rows {
        let (bg, bc) = base.unwrap_or((None, None));
        println!(
            "| {} | {} | {} | {} | {} | {} | {} |",
            r.points,
            r.label,
            r.tests,
            r.gpu.cell(),
            ratio(r.gpu.ms(), bg),
            r.cpu.cell(),
            ratio(r.cpu.ms(), bc),
        );
    }
}

fn main() {
    // `cargo bench` passes `--bench`; `cargo test --benches` does not: then a quick pass only.
    let full = std::env::args().any(|a| a == "--bench");
    let plan = if full {
        Plan {
            warmup: WARMUP,
            min_rounds: MEASURED,
            max_rounds: MAX_ROUNDS,
        }
    } else {
        Plan {
            warmup: 1,
            min_rounds: 1,
            max_rounds: 1,
        }
    };
    let counts: &[usize] = if full { &COUNTS } else { &COUNTS[..2] };
    let ctx = match GpuContext::new() {
        Ok(c) => {
            eprintln!("adapter: {}", c.describe());
            Some(c)
        }
        Err(e) => {
            eprintln!("extremes bench: GPU SKIPPED: no adapter ({e})");
            None
        }
    };
    // `cargo bench --bench extremes -- SECTION…` runs only the sections named (worlds,
    // obstacles, neighborhoods); none named: all.
    let named: Vec<String> = std::env::args()
        .filter(|a| ["worlds", "obstacles", "neighborhoods"].contains(&a.as_str()))
        .collect();
    let runs = |s: &str| named.is_empty() || named.iter().any(|a| a == s);
    let started = Instant::now();
    if runs("worlds") {
        eprintln!("world-size sweep");
        print_world_table(&world_sweep(ctx.as_ref(), counts, plan));
    }
    if runs("obstacles") {
        eprintln!("obstacle sweep");
        print_obstacle_table(&obstacle_sweep(ctx.as_ref(), plan));
    }
    if runs("neighborhoods") {
        eprintln!("neighbourhood comparison");
        print_neighborhood_table(&neighborhood_sweep(ctx.as_ref(), plan));
    }
    println!("\n(total {:.0} s)", started.elapsed().as_secs_f64());
}
