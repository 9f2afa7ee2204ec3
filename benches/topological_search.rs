//! The CPU backend's topological search and sums alone (`src/cpu/topological.rs`), against the
//! metric gather, per boid: 20 000 boids at the default density, k = 7, the metric radius holding
//! 7 neighbours on average (as in `cargo bench --bench extremes -- neighborhoods`), one thread.
//! The flock is first stepped 200 times in the topological neighbourhood (the boids model clumps;
//! `--steps 0` for the uniform start), binned by the reference twins, and then every boid's
//!
//! - **search**: `topological_nearest_small` for every boid in the sorted order (the block cache
//!   shared by the boids of a cell, as in the backend);
//! - **sums**: `topological_sums_small` over those neighbours;
//! - **search + sums**: the two interleaved boid by boid, as `rules` runs them;
//! - **metric gather**: `gather_with` on the vectorised path (its candidate ranges made per boid,
//!   which `rules` caches from one boid of a cell to the next: an upper bound of the backend's);
//!
//! each the fastest of 20 passes over the flock, in ns a boid. Run:
//! `cargo bench --bench topological_search [-- --steps N --model vicsek]`. Prints SKIPPED where
//! the CPU lacks AVX2 (no fast search there).

mod common;

use boids::backend::{BackendKind, Simulation};
use boids::cpu::gather_simd::{GatherPath, SortedLanes};
use boids::cpu::rules::{gather_with, Gather};
use boids::cpu::topological::{
    fast_search_available, topological_nearest_small, topological_sums_small, Block,
};
use boids::cpu::CpuBackend;
use boids::model::{initial_state, SimParams, StepUniforms, DEFAULT_DENSITY};
use boids::stages::twins::CpuStep;

/// Boids.
const N: usize = 20_000;
/// k of the topological neighbourhood.
const K: u32 = 7;
/// Passes over the flock per measure (the fastest is kept).
const PASSES: usize = 20;

/// The fastest of [`PASSES`] runs of `f` over the flock, in ns a boid.
fn fastest(f: impl FnMut()) -> f64 {
    common::fastest(PASSES, N, f)
}

fn main() {
    let steps: usize = common::arg("--steps").map_or(200, |s| s.parse().expect("--steps N"));
    let model = common::arg("--model").unwrap_or_else(|| "boids".into());
    if !fast_search_available() {
        println!("SKIPPED: this CPU lacks AVX2, so the CPU backend has no fast topological search");
        return;
    }
    // The radius of the disc holding K boids on average at the default density.
    let r = (K as f32 / (std::f32::consts::PI * DEFAULT_DENSITY)).sqrt();
    let mut metric = SimParams::default();
    metric.set("model", &model).expect("a model of the table");
    let mut metric = metric.with_world_for(N, DEFAULT_DENSITY);
    metric.perception_radius = r;
    metric.alignment_radius = r;
    metric.cohesion_radius = r;
    metric.hue_radius = r;
    metric.separation_radius = metric.separation_radius.min(r);
    let mut topological = metric.clone();
    topological
        .set("neighborhood", "topological")
        .expect("a neighbourhood");
    topological
        .set("topological_k", &K.to_string())
        .expect("in range");
    let mut sim = CpuBackend::from_state(
        BackendKind::Cpu,
        &topological,
        initial_state(1, N, &metric),
        1,
    )
    .expect("valid setup");
    for _ in 0..steps {
        sim.step().expect("a step");
    }
    let boids = sim.boids();
    println!(
        "{model}, {N} boids, ρ = {DEFAULT_DENSITY}, k = {K}, metric radius {r:.2} wu, after {steps} steps, 1 thread, ns a boid (fastest of {PASSES}):"
    );
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("a thread pool");
    pool.install(|| {
        for (name, p) in [("metric", &metric), ("topological", &topological)] {
            let u = StepUniforms::new(p, N as u32, 0, 1, &Default::default());
            let mut c = CpuStep::new(&boids, p);
            c.prepare(u);
            for stage in boids::stages::step_stages().take_while(|s| s.name != "rules") {
                (stage.twin)(&mut c);
            }
            let total = c.cells[c.cells.len() - 1] as usize;
            let mut lanes = SortedLanes::default();
            lanes.fill(&c.sorted_pos_vel[..total], &c.sorted_hue[..total]);
            let grid = u.grid();
            let sorted = c.sorted();
            // Something of every result is kept, so that no pass is optimised away.
            let mut sink = 0.0f32;
            if name == "metric" {
                let how = Gather::Lanes(GatherPath::best(), &lanes);
                let gather = fastest(|| {
                    for s in 0..N {
                        sink += gather_with(how, s, sorted, &c.cells, &grid, &u).cohesion.x;
                    }
                });
                println!("  metric gather   {gather:7.1}   ({sink:e})");
                continue;
            }
            let search = |s: usize, block: &mut Block| {
                topological_nearest_small(s, block, &lanes, &c.sorted_id, &c.cells, &grid, &u)
            };
            let mut found = Vec::with_capacity(N);
            let time_search = fastest(|| {
                let mut block = Block::new();
                found.clear();
                found.extend((0..N).map(|s| search(s, &mut block)));
            });
            let sums = fastest(|| {
                for (s, near) in found.iter().enumerate() {
                    sink += topological_sums_small(s, near, sorted, &u).cohesion.x;
                }
            });
            let both = fastest(|| {
                let mut block = Block::new();
                for s in 0..N {
                    let near = search(s, &mut block);
                    sink += topological_sums_small(s, &near, sorted, &u).cohesion.x;
                }
            });
            println!("  search          {time_search:7.1}");
            println!("  sums            {sums:7.1}");
            println!("  search + sums   {both:7.1}   ({sink:e})");
        }
    });
}
