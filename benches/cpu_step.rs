//! CPU backend step time at the default density: grid backend at 10k, 100k and 1M
//! boids, and grid vs naive at 20k. Each sample steps the flock from its seeded initial state, so
//! every size is measured at the same (uniform) density. Run: `cargo bench --bench cpu_step`.

use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};

use boids::backend::{BackendKind, Simulation};
use boids::cpu::CpuBackend;
use boids::model::{SimParams, DEFAULT_DENSITY};

fn backend(kind: BackendKind, n: usize) -> CpuBackend {
    let p = SimParams::default().with_world_for(n, DEFAULT_DENSITY);
    CpuBackend::new(kind, &p, n, 1).expect("valid setup")
}

/// Times `iters` steps, each from the initial state (reset untimed).
fn from_start(sim: &mut CpuBackend, start: &[boids::model::Boid], iters: u64) -> Duration {
    let mut total = Duration::ZERO;
    for _ in 0..iters {
        sim.set_state(start).unwrap();
        let t = Instant::now();
        sim.step().unwrap();
        total += t.elapsed();
    }
    total
}

fn grid_sizes(c: &mut Criterion) {
    let mut g = c.benchmark_group("cpu_step");
    g.sample_size(10);
    for n in [10_000usize, 100_000, 1_000_000] {
        let mut sim = backend(BackendKind::Cpu, n);
        let start = sim.read_state().unwrap();
        g.bench_with_input(BenchmarkId::new("cpu", n), &n, |b, _| {
            b.iter_custom(|iters| from_start(&mut sim, &start, iters))
        });
    }
    g.finish();
}

fn grid_vs_naive(c: &mut Criterion) {
    let mut g = c.benchmark_group("grid_vs_naive_20k");
    g.sample_size(10);
    for kind in [BackendKind::Cpu, BackendKind::CpuNaive] {
        let mut sim = backend(kind, 20_000);
        let start = sim.read_state().unwrap();
        g.bench_function(kind.name(), |b| {
            b.iter_custom(|iters| from_start(&mut sim, &start, iters))
        });
    }
    g.finish();
}

/// Criterion's report plots are drawn with plotters, which measures text with the font that
/// `boids` registers for its own plots (plotters' `ab_glyph` backend finds no system font).
fn config() -> Criterion {
    boids::plot::register_font().expect("bundled plot font");
    Criterion::default()
}

criterion_group! {
    name = benches;
    config = config();
    targets = grid_sizes, grid_vs_naive
}
criterion_main!(benches);
