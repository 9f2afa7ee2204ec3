//! The Voronoi neighbourhood's search alone (`voronoi_cell`, `src/stages/twins/voronoi.rs`, which
//! the CPU backend's `rules` runs), per boid: 20 000 boids at the default density, one thread. The
//! flock (the Vicsek model unless `--model`) is stepped `--steps` times (0 unless given: the
//! uniform start, as `cargo bench --bench extremes -- neighborhoods` measures), binned by the
//! reference twins on the CPU's grid and on the GPU's (`GridFor`; cells of a and 2a), and then
//! every boid's
//!
//! - **search**: `voronoi_cell` for every boid in the sorted order;
//! - **search + sums**: it and `voronoi_sums` boid by boid, as `rules` runs them;
//!
//! each the fastest of 25 passes over the flock, in ns a boid (steady to 2–3 % in a quiet sitting
//! of a 2-core host, where the whole step's time varies far more; when the host is busy its runs
//! differ by a quarter too: compare builds interleaved). Run:
//! `cargo bench --bench voronoi_search [-- --steps N --model boids]`.

mod common;

use boids::backend::{BackendKind, Simulation};
use boids::cpu::CpuBackend;
use boids::model::voronoi::VoronoiCell;
use boids::model::{initial_state, GridFor, SimParams, StepUniforms, DEFAULT_DENSITY};
use boids::stages::twins::voronoi::{voronoi_cell, voronoi_sums};
use boids::stages::twins::CpuStep;

/// Boids.
const N: usize = 20_000;
/// Passes over the flock per measure (the fastest is kept).
const PASSES: usize = 25;

/// The fastest of [`PASSES`] runs of `f` over the flock, in ns a boid.
fn fastest(f: impl FnMut()) -> f64 {
    common::fastest(PASSES, N, f)
}

fn main() {
    let steps: usize = common::arg("--steps").map_or(0, |s| s.parse().expect("--steps N"));
    let model = common::arg("--model").unwrap_or_else(|| "vicsek".into());
    let mut p = SimParams::default();
    p.set("model", &model).expect("a model of the table");
    p.set("neighborhood", "voronoi").expect("a neighbourhood");
    let p = p.with_world_for(N, DEFAULT_DENSITY);
    let mut sim = CpuBackend::from_state(BackendKind::Cpu, &p, initial_state(1, N, &p), 1)
        .expect("valid setup");
    for _ in 0..steps {
        sim.step().expect("a step");
    }
    let boids = sim.boids();
    println!(
        "{model}, {N} boids, ρ = {DEFAULT_DENSITY}, Voronoi, after {steps} steps, 1 thread, ns a boid (fastest of {PASSES}):"
    );
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("a thread pool");
    pool.install(|| {
        for (name, on) in [("CPU's grid", GridFor::Cpu), ("GPU's grid", GridFor::Gpu)] {
            let u = StepUniforms::new_for(&p, N as u32, 0, 1, &Default::default(), on);
            let mut c = CpuStep::new(&boids, &p);
            c.prepare(u);
            for stage in boids::stages::step_stages().take_while(|s| s.name != "rules") {
                (stage.twin)(&mut c);
            }
            let grid = u.grid();
            let sorted = c.sorted();
            let mut cell = VoronoiCell::new();
            // Something of every result is kept, so that no pass is optimised away.
            let mut sink = 0.0f32;
            let search = fastest(|| {
                for s in 0..N {
                    voronoi_cell(s, sorted, &c.cells, &grid, &u, &mut cell);
                    sink += cell.r2;
                }
            });
            let both = fastest(|| {
                for s in 0..N {
                    voronoi_cell(s, sorted, &c.cells, &grid, &u, &mut cell);
                    sink += voronoi_sums(s, &cell, sorted, &u).alignment.x;
                }
            });
            println!(
                "  {name} ({} × {} cells): search {search:7.1}, search + sums {both:7.1}   ({sink:e})",
                grid.cols, grid.rows
            );
        }
    });
}
