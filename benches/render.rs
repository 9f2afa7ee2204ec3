//! Frame time of the boid renderer (one instanced draw: one instance per boid, the spearhead's
//! corners in a per-vertex buffer) at 1280×720 on the adapter at hand, at 20k and 100k boids,
//! without and with 4× multisampling. Each sample renders one frame of a GPU backend's state into
//! an offscreen target and waits for it. Run: `cargo bench --bench render`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};

use boids::backend::{self, BackendKind};
use boids::bench::render::RenderBench;
use boids::gpu::GpuContext;
use boids::model::Setup;

fn render(c: &mut Criterion) {
    let ctx = match GpuContext::new() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("render bench SKIPPED: {e}");
            return;
        }
    };
    eprintln!("adapter: {}", ctx.describe());
    let mut g = c.benchmark_group("render_1280x720");
    g.sample_size(10);
    for n in [20_000usize, 100_000] {
        let setup = Setup::resolve(None, Some(n), Some(1), n, 1280.0 / 720.0).unwrap();
        let mut sim = backend::create(BackendKind::Gpu, &setup, Some(&ctx)).unwrap();
        for _ in 0..30 {
            sim.step().unwrap();
        }
        sim.finish().unwrap();
        for msaa in [1u32, 4] {
            let mut r = RenderBench::new(&ctx, &setup.params, 1280, 720, msaa, &setup.actors);
            let id = format!("msaa{}", r.samples());
            g.bench_with_input(BenchmarkId::new(id, n), &n, |b, _| {
                b.iter(|| r.frame(sim.as_ref(), n as u32).unwrap())
            });
        }
    }
    g.finish();
}

criterion_group!(benches, render);
criterion_main!(benches);
