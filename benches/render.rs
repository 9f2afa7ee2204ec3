//! Frame time of the boid renderer (one instanced draw: one instance per boid, the spearhead's
//! corners in a per-vertex buffer) at 1280×720 on the adapter at hand, at 20k and 100k boids,
//! without and with 4× multisampling. Each sample renders one frame of a GPU backend's state into
//! an offscreen target and waits for it. Run: `cargo bench --bench render`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};

use boids::backend::{self, BackendKind};
use boids::bench::render::RenderBench;
use boids::gpu::GpuContext;

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
        let setup =
            boids::run::spec::scene_setup(None, Some(n), Some(1), n, 1280.0 / 720.0).unwrap();
        let mut sim = backend::create(BackendKind::Gpu, &setup, Some(&ctx)).unwrap();
        for _ in 0..30 {
            sim.step().unwrap();
        }
        sim.finish().unwrap();
        for msaa in [1u32, 4] {
            let mut r = RenderBench::new(
                &ctx,
                &setup.params,
                1280,
                720,
                msaa,
                boids::render::Rasteriser::Auto,
                true,
                &setup.actors,
                n,
            );
            let id = format!("msaa{}", r.samples());
            g.bench_with_input(BenchmarkId::new(id, n), &n, |b, _| {
                b.iter(|| r.frame(sim.as_ref(), n as u32).unwrap())
            });
        }
    }
    g.finish();
}

/// What each part of the picture costs at 1280×720 with 20k boids (the app's software default):
/// the background alone (one clear when the world fills the view), the background with the world
/// rectangle (a view zoomed out past the world: clear + a full-screen quad), the spearheads (and
/// their vertex work alone), and zoomed out to half the fit: spearheads of at least 6 px (the
/// former minimum) against the density dots that replace them. Each sample records, submits and
/// waits. Run: `cargo bench --bench render -- render_parts --noplot`.
fn render_parts(c: &mut Criterion) {
    use boids::gpu::GpuContext;
    use boids::render::{Camera, Offscreen, RenderStyle, Renderer};
    use glam::Vec2;
    let Ok(ctx) = GpuContext::new() else {
        eprintln!("render parts bench SKIPPED: no adapter");
        return;
    };
    let n = 20_000usize;
    let setup = boids::run::spec::scene_setup(None, Some(n), Some(1), n, 1280.0 / 720.0).unwrap();
    let mut sim = backend::create(BackendKind::Gpu, &setup, Some(&ctx)).unwrap();
    for _ in 0..30 {
        sim.step().unwrap();
    }
    sim.finish().unwrap();
    let state = sim.gpu_state().unwrap();
    let target = Offscreen::new(&ctx.device, 1280, 720);
    let mut r = Renderer::new(&ctx.device, Offscreen::FORMAT, 1);
    r.set_actors(&ctx.queue, &setup.actors);
    let world = Vec2::new(setup.params.world_width, setup.params.world_height);
    let fit = Camera::fit(world, target.viewport());
    let mut past = fit;
    past.zoom = fit.zoom * 0.999;
    let mut far = fit;
    far.zoom = fit.zoom * 0.5;
    let style = RenderStyle {
        boid_length: setup.params.separation_radius,
        ..RenderStyle::default()
    };
    // Vertex work alone: spearheads of no size (no fragment).
    let no_fill = RenderStyle {
        boid_length: 1e-6,
        min_length_px: 0.0,
        ..style
    };
    // Zoomed out to half the fit (boids 3.4 px): what was drawn before (spearheads held at the
    // former 6 px minimum), and the density dots drawn now.
    let old_min = RenderStyle {
        boid_length: 6.0 / far.zoom,
        ..style
    };
    let mut g = c.benchmark_group("render_parts_1280x720_20k");
    g.sample_size(20);
    for (name, cam, count, st) in [
        ("clear_only", fit, 0u32, style),
        ("clear_and_world_rect", past, 0, style),
        ("spearheads", fit, n as u32, style),
        ("spearheads_vertex_work_only", fit, n as u32, no_fill),
        ("zoomed_out_spearheads_min_6px", far, n as u32, old_min),
        ("zoomed_out_density_dots", far, n as u32, style),
    ] {
        assert_eq!(
            st.dots_at(cam.zoom),
            name.contains("dots"),
            "{name}: the case draws what it says"
        );
        g.bench_function(name, |b| {
            b.iter(|| draw_once(&ctx, &mut r, &target, &state, count, &cam, &st))
        });
    }
    g.finish();
}

/// The instanced draw against the compute rasteriser at 1280×720 (no MSAA, the world fitting the
/// view): at 20 000, 50 000 and 100 000 boids for spearheads 4 to 12 px long (the crossovers of
/// `RenderStyle::compute_max_px` and `compute_min_boids`), and at 20 000, 100 000 and 1 000 000
/// boids at the app's own boid length (density dots from 100 000). The states are a CPU backend's after 20 steps,
/// uploaded once. Each sample records, submits and waits. Run: `cargo bench --bench render --
/// rasterisers --noplot`.
fn rasterisers(c: &mut Criterion) {
    use boids::render::StateMirror;
    use boids::render::{boid_length_for, Camera, Offscreen, Rasteriser, RenderStyle, Renderer};
    use glam::Vec2;
    let Ok(ctx) = GpuContext::new() else {
        eprintln!("rasteriser bench SKIPPED: no adapter");
        return;
    };
    let target = Offscreen::new(&ctx.device, 1280, 720);
    let mut r = Renderer::new(&ctx.device, Offscreen::FORMAT, 1);
    let mut g = c.benchmark_group("rasterisers_1280x720");
    g.sample_size(10);
    let mut case = |g: &mut criterion::BenchmarkGroup<'_, _>, n: usize, length_px: Option<f32>| {
        let setup =
            boids::run::spec::scene_setup(None, Some(n), Some(1), n, 1280.0 / 720.0).unwrap();
        let mut sim = backend::create(BackendKind::Cpu, &setup, None).unwrap();
        for _ in 0..20 {
            sim.step().unwrap();
        }
        let mut mirror = StateMirror::default();
        let state = mirror.upload(&ctx.device, &ctx.queue, sim.cpu_state().unwrap());
        r.set_actors(&ctx.queue, &setup.actors);
        let world = Vec2::new(setup.params.world_width, setup.params.world_height);
        let cam = Camera::fit(world, target.viewport());
        let boid_length = match length_px {
            Some(px) => px / cam.zoom,
            None => boid_length_for(&setup.params, n),
        };
        let shown = format!("{:.1}px", boid_length * cam.zoom);
        for (name, rasteriser) in [
            ("instanced", Rasteriser::Instanced),
            ("compute", Rasteriser::Compute),
        ] {
            let style = RenderStyle {
                boid_length,
                rasteriser,
                ..RenderStyle::default()
            };
            let id = BenchmarkId::new(format!("{name}_{n}"), &shown);
            g.bench_with_input(id, &n, |b, _| {
                b.iter(|| draw_once(&ctx, &mut r, &target, &state, n as u32, &cam, &style))
            });
        }
    };
    for n in [20_000, 50_000, 100_000] {
        for px in [4.0, 8.0, 12.0] {
            case(&mut g, n, Some(px));
        }
    }
    for n in [20_000, 100_000, 1_000_000] {
        case(&mut g, n, None);
    }
    g.finish();
}

/// Records, submits and waits for one frame of `count` boids drawn by `r` into `target`.
fn draw_once(
    ctx: &GpuContext,
    r: &mut boids::render::Renderer,
    target: &boids::render::Offscreen,
    state: &boids::render::StateBuffers,
    count: u32,
    cam: &boids::render::Camera,
    style: &boids::render::RenderStyle,
) {
    let mut enc = ctx
        .device
        .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: None });
    r.record(
        &mut enc,
        target.view(),
        &ctx.queue,
        state,
        count,
        cam,
        style,
    );
    ctx.queue.submit([enc.finish()]);
    ctx.wait().unwrap();
}

criterion_group!(benches, render, render_parts, rasterisers);
criterion_main!(benches);
