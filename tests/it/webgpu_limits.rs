//! The simulation and the renderer within the limits every WebGPU adapter grants
//! (`boids::gpu::context::webgpu_limits`: eight storage buffers a shader stage, 128 MiB storage
//! bindings, 16 KiB of workgroup memory): on a device held to them (wgpu validates pipelines and
//! bindings against the device's limits, not the adapter's), every model of the table in both
//! neighbourhoods, with predators of both kinds and obstacles, steps without a wgpu error to the
//! same state and predators, bit for bit, as on the same adapter's full limits; and a frame drawn
//! from the GPU backend's own buffers (its hue vectors and predators bound as regions of others)
//! by the instanced draw and by the compute rasteriser is the same picture. Shown to fail: a
//! pipeline layout of nine storage buffers is refused on the held device. Skips visibly without
//! an adapter (fails under BOIDS_REQUIRE_GPU=1).

use crate::support;
use boids::backend::Simulation;
use boids::gpu::context::webgpu_limits;
use boids::gpu::{GpuBackend, GpuContext};
use boids::model::{Model, Neighborhood, Predator, PredatorKind, SimParams};
use boids::render::{Camera, Offscreen, Rasteriser, RenderStyle, Renderer};
use glam::Vec2;

/// A second device on `ctx`'s adapter held to WebGPU's limits.
fn webgpu_device(ctx: &GpuContext) -> GpuContext {
    let limited = pollster::block_on(GpuContext::with_limits(
        ctx.instance.clone(),
        ctx.adapter.clone(),
        webgpu_limits(),
    ))
    .expect("the adapter grants WebGPU's limits");
    assert_eq!(
        limited.device.limits().max_storage_buffers_per_shader_stage,
        8
    );
    limited
}

/// Two predators of each kind and a short wall of obstacle points.
fn actors() -> (Vec<Predator>, Vec<[f32; 2]>) {
    let predators = vec![
        Predator::new(
            Vec2::new(120.0, 140.0),
            Vec2::new(30.0, 5.0),
            PredatorKind::Hunting,
        ),
        Predator::new(
            Vec2::new(400.0, 260.0),
            Vec2::new(-20.0, 10.0),
            PredatorKind::Straight,
        ),
    ];
    let wall = (0..40).map(|k| [300.0, 100.0 + 4.0 * k as f32]).collect();
    (predators, wall)
}

/// `steps` steps of `n` boids of `params` on `ctx`: the state, the predators, and the backend.
fn run(ctx: &GpuContext, params: &SimParams, n: usize, steps: u32) -> GpuBackend {
    support::checked(ctx, || {
        let mut gpu = GpuBackend::new(ctx, params, n, 17).unwrap();
        let (predators, wall) = actors();
        gpu.set_predators(&predators).unwrap();
        gpu.set_obstacles(&wall).unwrap();
        for _ in 0..steps {
            gpu.step().unwrap();
        }
        gpu
    })
}

fn bytes<T: bytemuck::Pod>(v: &[T]) -> Vec<u8> {
    bytemuck::cast_slice(v).to_vec()
}

#[test]
fn every_model_steps_within_webgpu_limits_as_on_the_adapters_own() {
    let Some(ctx) = support::gpu() else { return };
    let limited = webgpu_device(&ctx);
    let mut runs = 0;
    for m in Model::all() {
        for neighborhood in [
            Neighborhood::Metric,
            Neighborhood::Topological,
            Neighborhood::Voronoi,
        ] {
            let params = SimParams {
                model: m,
                neighborhood,
                topological_k: 7,
                catch_radius: 12.0,
                ..SimParams::default()
            };
            let what = format!("{} {neighborhood:?}", m.name());
            let mut full = run(&ctx, &params, 3000, 4);
            let mut held = run(&limited, &params, 3000, 4);
            let (a, b) = (full.read_state().unwrap(), held.read_state().unwrap());
            assert_eq!(a.len(), 3000, "{what}");
            assert!(
                bytes(&a) == bytes(&b),
                "{what}: the state differs on WebGPU's limits"
            );
            let (pa, pb) = (
                full.read_predators().unwrap(),
                held.read_predators().unwrap(),
            );
            assert_eq!(pa.len(), 2, "{what}");
            assert!(
                bytes(&pa) == bytes(&pb),
                "{what}: the predators differ on WebGPU's limits"
            );
            // The predators moved (the stage that writes them into their region ran).
            assert_ne!(pa[0].position, actors().0[0].position, "{what}");
            runs += 1;
        }
    }
    assert!(runs >= 9, "{runs} runs");
}

/// A frame of the GPU backend `gpu` on `ctx` drawn by `rasteriser`, from its own buffers.
fn frame(
    ctx: &GpuContext,
    gpu: &GpuBackend,
    params: &SimParams,
    rasteriser: Rasteriser,
) -> image::RgbaImage {
    support::checked(ctx, || {
        let mut renderer = Renderer::new(&ctx.device, Offscreen::FORMAT, 1);
        let n = gpu.predator_count() as u32;
        let predators = gpu.gpu_predators().expect("the backend has predators");
        renderer.set_predators(Some((&predators, n)));
        let target = Offscreen::new(&ctx.device, 640, 480);
        let camera = Camera::fit(
            Vec2::new(params.world_width, params.world_height),
            target.viewport(),
        );
        let style = RenderStyle {
            boid_length: 3.0,
            rasteriser,
            ..RenderStyle::default()
        };
        let state = gpu.gpu_state().expect("the GPU backend's buffers");
        let mut enc = ctx
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: None });
        renderer.record(
            &mut enc,
            target.view(),
            &ctx.queue,
            &state,
            gpu.len() as u32,
            &camera,
            &style,
        );
        ctx.queue.submit([enc.finish()]);
        target.read(&ctx.device, &ctx.queue).unwrap()
    })
}

#[test]
fn a_frame_from_the_backends_buffers_is_drawn_within_webgpu_limits() {
    let Some(ctx) = support::gpu() else { return };
    let limited = webgpu_device(&ctx);
    let params = SimParams::default();
    // Enough boids for the compute rasteriser's dots and spearheads alike.
    let full = run(&ctx, &params, 30_000, 2);
    let held = run(&limited, &params, 30_000, 2);
    for rasteriser in [Rasteriser::Instanced, Rasteriser::Compute] {
        let a = frame(&ctx, &full, &params, rasteriser);
        let b = frame(&limited, &held, &params, rasteriser);
        let background = a.get_pixel(0, 0).0;
        let drawn = a.pixels().filter(|p| p.0 != background).count();
        assert!(
            drawn > 10_000,
            "{rasteriser:?}: {drawn} pixels drawn (the boids and predators)"
        );
        assert!(
            a.as_raw() == b.as_raw(),
            "{rasteriser:?}: the frame differs on WebGPU's limits"
        );
    }
}

#[test]
fn a_device_held_to_webgpu_limits_refuses_a_ninth_storage_buffer() {
    let Some(ctx) = support::gpu() else { return };
    let limited = webgpu_device(&ctx);
    let entry = |binding| wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::COMPUTE,
        ty: wgpu::BindingType::Buffer {
            ty: wgpu::BufferBindingType::Storage { read_only: true },
            has_dynamic_offset: false,
            min_binding_size: None,
        },
        count: None,
    };
    let layout = |n: u32, device: &wgpu::Device| {
        let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
        let entries: Vec<_> = (0..n).map(entry).collect();
        let _ = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("storage buffers"),
            entries: &entries,
        });
        pollster::block_on(scope.pop())
    };
    assert!(layout(8, &limited.device).is_none(), "eight fit");
    let e = layout(9, &limited.device).expect("nine are refused");
    assert!(e.to_string().contains("torage"), "{e}");
    // The adapter's own device (lavapipe offers more) takes nine.
    if ctx.device.limits().max_storage_buffers_per_shader_stage >= 9 {
        assert!(layout(9, &ctx.device).is_none());
    }
}
