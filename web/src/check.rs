//! The step check: known flocks stepped on the page's WebGPU. For each, the page writes its start
//! as a checkpoint (`# case NAME start`: parameters, seed, obstacles, predators and boids, as
//! `--init` reads it) and its state after 1 (and 10) steps as a state CSV (`# case NAME steps=K`);
//! `tests/it/web.rs` starts the native GPU backend from the same checkpoint and compares.

use std::fmt::Write as _;

use boids::backend::Simulation;
use boids::gpu::context::GpuContext;
use boids::gpu::GpuBackend;
use boids::model::loaded::Checkpoint;
use boids::model::{
    initial_state, join_state, Actors, PredatorKind, PredatorSpec, Setup, SimParams,
    DEFAULT_DENSITY,
};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

/// A flock the page steps: its name, the parameters set on the defaults, whether it has
/// obstacles and predators, and the steps after which its state is written.
struct Case {
    name: &'static str,
    sets: &'static [(&'static str, &'static str)],
    actors: bool,
    steps: &'static [u32],
}

/// The flocks: Reynolds' boids in a wrapping world (the metric search, the ghosts, the image
/// counts) without their heading noise; the Vicsek model (whose noise is a uniform angle) in the
/// topological neighbourhood within walls; Reynolds' boids among obstacles with a hunting and a
/// straight predator (the obstacle grid, the catches); each after 1 and 10 steps. And Reynolds'
/// boids with their Gaussian heading noise after 1 step only: WGSL lets `cos` err by 2⁻¹¹
/// absolute and `log` by 2⁻²¹, so a browser's Box–Muller sample may differ from the native
/// one's by ~10⁻³, and ten steps amplify that wherever a neighbour crosses a radius
/// (`tests/it/web.rs` holds that case to a tolerance of its own).
const CASES: [Case; 4] = [
    Case {
        name: "boids-wrap",
        sets: &[("rotational_diffusion", "0")],
        actors: false,
        steps: &[1, 10],
    },
    Case {
        name: "vicsek-topological-walls",
        sets: &[
            ("model", "vicsek"),
            ("neighborhood", "topological"),
            ("boundary", "walls"),
        ],
        actors: false,
        steps: &[1, 10],
    },
    Case {
        name: "boids-obstacles-predators",
        sets: &[("rotational_diffusion", "0"), ("boundary", "bounce")],
        actors: true,
        steps: &[1, 10],
    },
    Case {
        name: "boids-wrap-heading-noise",
        sets: &[],
        actors: false,
        steps: &[1],
    },
];

/// Boids in each flock, and its seed.
const BOIDS: usize = 4000;
const SEED: u32 = 7;

/// A ring of 48 obstacle points around the world's centre, a hunting predator heading for it and
/// a straight one crossing the world.
fn actors(p: &SimParams) -> (Vec<[f32; 2]>, Vec<PredatorSpec>) {
    let (w, h) = (p.world_width, p.world_height);
    let obstacles = (0..48)
        .map(|k| {
            let a = k as f32 * std::f32::consts::TAU / 48.0;
            [w * (0.5 + 0.15 * a.cos()), h * (0.5 + 0.15 * a.sin())]
        })
        .collect();
    let predators = vec![
        PredatorSpec {
            position: [0.3 * w, 0.3 * h],
            velocity: [20.0, 10.0],
            kind: PredatorKind::Hunting,
        },
        PredatorSpec {
            position: [0.7 * w, 0.6 * h],
            velocity: [0.0, -15.0],
            kind: PredatorKind::Straight,
        },
    ];
    (obstacles, predators)
}

#[wasm_bindgen]
extern "C" {
    /// The page's `setTimeout`.
    #[wasm_bindgen(js_name = setTimeout)]
    fn set_timeout(f: &js_sys::Function, ms: i32) -> JsValue;
}

/// Yields to the browser's event loop for `ms` milliseconds (a buffer's mapping completes there).
async fn sleep(ms: i32) {
    let p = js_sys::Promise::new(&mut |resolve, _| {
        set_timeout(&resolve, ms);
    });
    let _ = JsFuture::from(p).await;
}

/// `size` bytes of `src` from `offset`, without blocking: the copy submitted, the mapping
/// awaited in the event loop.
async fn read(
    ctx: &GpuContext,
    src: &wgpu::Buffer,
    offset: u64,
    size: u64,
) -> Result<Vec<u8>, String> {
    let staging = ctx.device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("page readback"),
        size,
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let mut enc = ctx.device.create_command_encoder(&Default::default());
    enc.copy_buffer_to_buffer(src, offset, &staging, 0, size);
    ctx.queue.submit([enc.finish()]);
    map_read(&staging).await
}

/// The bytes of a `MAP_READ` buffer whose copy has been submitted, without blocking: the mapping
/// awaited in the event loop (checked every 10 ms, for at most 60 s).
///
/// # Errors
/// The mapping's error, or none within 60 s.
pub async fn map_read(staging: &wgpu::Buffer) -> Result<Vec<u8>, String> {
    // (An `Arc<Mutex>` rather than `Rc<RefCell>`: wgpu asks a native build for `Send`.)
    let done = std::sync::Arc::new(std::sync::Mutex::new(None));
    let put = done.clone();
    staging.slice(..).map_async(wgpu::MapMode::Read, move |r| {
        if let Ok(mut slot) = put.lock() {
            *slot = Some(r);
        }
    });
    let taken = || done.lock().ok().and_then(|mut slot| slot.take());
    let mut result = None;
    for _ in 0..6000 {
        result = taken();
        if result.is_some() {
            break;
        }
        sleep(10).await;
    }
    match result {
        Some(Ok(())) => {}
        Some(Err(e)) => return Err(format!("mapping a readback: {e}")),
        None => return Err("a readback was not mapped within 60 s".into()),
    }
    let bytes = staging
        .slice(..)
        .get_mapped_range()
        .map_err(|e| e.to_string())?
        .to_vec();
    staging.unmap();
    Ok(bytes)
}

/// The GPU backend's state, read without blocking.
async fn read_state(ctx: &GpuContext, gpu: &GpuBackend) -> Result<Vec<boids::model::Boid>, String> {
    let n = gpu.len();
    let b = gpu.buffers();
    let pv = read(ctx, b.get("pos_vel"), 0, 16 * n as u64).await?;
    let (host, at) = b.region("hue", 16 * n as u64);
    let hue = read(ctx, host, at, 16 * n as u64).await?;
    let id = read(ctx, b.get("id"), 0, 4 * n as u64).await?;
    let (host, at) = b.region("image", 8 * n as u64);
    let image = read(ctx, host, at, 8 * n as u64).await?;
    Ok(join_state(
        &bytemuck::pod_collect_to_vec::<u8, [f32; 4]>(&pv),
        &bytemuck::pod_collect_to_vec::<u8, [f32; 4]>(&hue),
        &bytemuck::pod_collect_to_vec::<u8, u32>(&id),
        &bytemuck::pod_collect_to_vec::<u8, [i32; 2]>(&image),
    ))
}

/// Every case stepped on `ctx`: its start as a checkpoint, then its state CSV after each of its
/// steps, each after its header line.
///
/// # Errors
/// A parameter refused, the backend's error, or a readback that failed (the message says which).
pub async fn run(ctx: &GpuContext) -> Result<String, String> {
    let mut out = String::new();
    for case in &CASES {
        let fail = |e: &dyn std::fmt::Display| format!("{}: {e}", case.name);
        let mut p = SimParams::default();
        for (k, v) in case.sets {
            p.set(k, v).map_err(|e| fail(&e))?;
        }
        let p = p.with_world_for(BOIDS, DEFAULT_DENSITY);
        let (obstacles, predators) = if case.actors {
            actors(&p)
        } else {
            (Vec::new(), Vec::new())
        };
        let start = Checkpoint {
            params: p.clone(),
            seed: SEED,
            step: 0,
            obstacles: obstacles.clone(),
            predators: predators.clone(),
            catches_total: 0,
            boids: initial_state(SEED, BOIDS, &p),
        };
        let _ = writeln!(out, "# case {} start", case.name);
        let mut text = Vec::new();
        boids::formats::checkpoint::write_checkpoint(&mut text, &start).map_err(|e| fail(&e))?;
        out.push_str(&String::from_utf8_lossy(&text));
        // As `boids::backend::create` makes the GPU backend of a setup (`--init` of the
        // checkpoint makes this one).
        let setup = Setup {
            params: p,
            seed: SEED,
            step: 0,
            boids: start.boids,
            actors: Actors {
                obstacles,
                predators: predators.iter().map(PredatorSpec::predator).collect(),
            },
        };
        let mut gpu =
            GpuBackend::from_state(ctx, &setup.params, &setup.boids, SEED).map_err(|e| fail(&e))?;
        boids::backend::apply_actors(&mut gpu, &setup).map_err(|e| fail(&e))?;
        let mut done = 0;
        for &steps in case.steps {
            while done < steps {
                gpu.step().map_err(|e| fail(&e))?;
                done += 1;
            }
            let boids = read_state(ctx, &gpu).await?;
            ctx.take_error().map_err(|e| fail(&e))?;
            let _ = writeln!(out, "# case {} steps={steps}", case.name);
            let mut csv = Vec::new();
            boids::formats::checkpoint::write_rows(&mut csv, &boids).map_err(|e| fail(&e))?;
            out.push_str(&String::from_utf8_lossy(&csv));
        }
    }
    Ok(out)
}
