//! GPU backend time per stage (every stage of `boids::stages::STAGES`) and per whole step at 10k,
//! 100k and 1M boids, with the CPU backend (per stage and per step) at the same sizes in the same
//! run for the ratio. Wall time of submit + wait. Needs an adapter (lavapipe on a machine without a
//! GPU). Run: `cargo bench --bench gpu_step`.

use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};

use boids::backend::{BackendKind, Simulation};
use boids::cpu::step::{FastStep, FAST_STAGES};
use boids::cpu::CpuBackend;
use boids::gpu::{GpuBackend, GpuContext};
use boids::model::{SimParams, DEFAULT_DENSITY};
use boids::stages;

const SIZES: [usize; 3] = [10_000, 100_000, 1_000_000];

fn params(n: usize) -> SimParams {
    SimParams::default().with_world_for(n, DEFAULT_DENSITY)
}

/// Records the stages named `names` (each in its own pass) and submits them.
fn submit(gpu: &GpuBackend, ctx: &GpuContext, names: &[&str]) {
    let mut enc = ctx.device.create_command_encoder(&Default::default());
    gpu.record_stages(&mut enc, names);
    ctx.queue.submit([enc.finish()]);
}

/// Times `iters` runs of one stage (or the whole step when `stage` is "step"). Before each timed
/// run the stages it depends on run untimed (e.g. `scan` needs freshly cleared and counted cells),
/// so every run sees the buffers a real step would give it; a run through `rules` ends the step
/// as `GpuBackend::step` does (the buffers' roles swap: the state's ids are then where `rules`
/// left them).
fn time_stage(gpu: &mut GpuBackend, ctx: &GpuContext, stage: &str, iters: u64) -> Duration {
    let order = stages::step_stage_names();
    let before: &[&str] = match order.iter().position(|s| *s == stage) {
        Some(k) => &order[..k],
        None => &[],
    };
    // Whether a run of `stage` (after the stages before it) includes `rules`.
    let ends_step = stage == "rules" || before.contains(&"rules");
    let mut total = Duration::ZERO;
    for _ in 0..iters {
        gpu.write_uniforms();
        if !before.is_empty() {
            submit(gpu, ctx, before);
            ctx.wait().unwrap();
        }
        let t = Instant::now();
        if stage == "step" {
            gpu.step().unwrap();
        } else {
            submit(gpu, ctx, &[stage]);
        }
        ctx.wait().unwrap();
        total += t.elapsed();
        if ends_step {
            gpu.end_step_roles();
        }
    }
    total
}

fn gpu_stages(c: &mut Criterion) {
    let ctx = match GpuContext::new() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("gpu_step bench: {e}");
            return;
        }
    };
    eprintln!("adapter: {}", ctx.describe());
    let mut g = c.benchmark_group("gpu");
    g.sample_size(10);
    for n in SIZES {
        let p = params(n);
        let mut gpu = GpuBackend::new(&ctx, &p, n, 1).unwrap();
        gpu.set_profiling(false);
        // One full step so that cells, sorted state and neighbours hold real data.
        gpu.step().unwrap();
        gpu.finish().unwrap();
        let names: Vec<&str> = stages::STAGES
            .iter()
            .map(|s| s.name)
            .chain(["step"])
            .collect();
        for stage in names {
            g.bench_with_input(BenchmarkId::new(stage, n), &n, |b, _| {
                b.iter_custom(|iters| time_stage(&mut gpu, &ctx, stage, iters))
            });
        }
    }
    g.finish();
}

fn cpu_same_sizes(c: &mut Criterion) {
    let mut g = c.benchmark_group("cpu");
    g.sample_size(10);
    for n in SIZES {
        let mut sim = CpuBackend::new(BackendKind::Cpu, &params(n), n, 1).unwrap();
        sim.step().unwrap();
        g.bench_with_input(BenchmarkId::new("step", n), &n, |b, _| {
            b.iter(|| sim.step().unwrap())
        });
        // Each stage as the CPU backend runs it, on the buffers of a real step (the stages before
        // it run untimed).
        for (k, stage) in FAST_STAGES.iter().enumerate() {
            let mut buffers = FastStep::new(&sim.boids(), sim.params());
            buffers.prepare(sim.uniforms());
            g.bench_with_input(BenchmarkId::new(stage.name, n), &n, |b, _| {
                b.iter_custom(|iters| {
                    let mut total = Duration::ZERO;
                    for _ in 0..iters {
                        for before in &FAST_STAGES[..k] {
                            (before.run)(&mut buffers);
                        }
                        let t = Instant::now();
                        (stage.run)(&mut buffers);
                        total += t.elapsed();
                    }
                    total
                })
            });
        }
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
    targets = gpu_stages, cpu_same_sizes
}
criterion_main!(benches);
