//! The step check: known flocks stepped on the page's WebGPU, their states after 1 (and 10) steps
//! written as state CSVs (`boids::formats::checkpoint::write_rows`), each after a header line
//! that says how to make the same flock natively, which `tests/it/web.rs` does and compares:
//! `# case NAME boids=N seed=S steps=K sets=KEY=VALUE,…` (sets applied to the default
//! parameters with `SimParams::set`, then the world sized for N at the default density, the
//! state `boids::model::initial_state(S, N, …)`).

use std::fmt::Write as _;

use boids::backend::Simulation;
use boids::gpu::context::GpuContext;
use boids::gpu::GpuBackend;
use boids::model::{initial_state, join_state, SimParams, DEFAULT_DENSITY};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

/// A flock the page steps: its name, the parameters set on the defaults, and the steps after
/// which its state is written.
struct Case {
    name: &'static str,
    sets: &'static [(&'static str, &'static str)],
    steps: &'static [u32],
}

/// The flocks: Reynolds' boids in a wrapping world (the metric search, the ghosts, the image
/// counts) without their heading noise, and the Vicsek model (whose noise is a uniform angle) in
/// the topological neighbourhood within walls, after 1 and 10 steps; and Reynolds' boids with
/// their Gaussian heading noise after 1 step only. WGSL lets `cos` err by 2⁻¹¹ absolute and
/// `log` by 2⁻²¹, so a browser's Box–Muller sample may differ from the native one's by ~10⁻³,
/// and ten steps amplify that wherever a neighbour crosses a radius: `tests/it/web.rs` holds
/// that case to a tolerance of its own.
const CASES: [Case; 3] = [
    Case {
        name: "boids-wrap",
        sets: &[("rotational_diffusion", "0")],
        steps: &[1, 10],
    },
    Case {
        name: "vicsek-topological-walls",
        sets: &[
            ("model", "vicsek"),
            ("neighborhood", "topological"),
            ("boundary", "walls"),
        ],
        steps: &[1, 10],
    },
    Case {
        name: "boids-wrap-heading-noise",
        sets: &[],
        steps: &[1],
    },
];

/// Boids in each flock, and its seed.
const BOIDS: usize = 4000;
const SEED: u32 = 7;

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
    let done = std::rc::Rc::new(std::cell::RefCell::new(None));
    let put = done.clone();
    staging.slice(..).map_async(wgpu::MapMode::Read, move |r| {
        *put.borrow_mut() = Some(r);
    });
    for _ in 0..6000 {
        if done.borrow().is_some() {
            break;
        }
        sleep(10).await;
    }
    let result = done.borrow_mut().take();
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
    let hue = read(ctx, b.get("hue"), 0, 16 * n as u64).await?;
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

/// Every case stepped on `ctx`: the header line and state CSV after each of its steps.
///
/// # Errors
/// A parameter refused, the backend's error, or a readback that failed (the message says which).
pub async fn run(ctx: &GpuContext) -> Result<String, String> {
    let mut out = String::new();
    for case in &CASES {
        let mut p = SimParams::default();
        for (k, v) in case.sets {
            p.set(k, v).map_err(|e| format!("{}: {e}", case.name))?;
        }
        let p = p.with_world_for(BOIDS, DEFAULT_DENSITY);
        let state = initial_state(SEED, BOIDS, &p);
        let mut gpu = GpuBackend::from_state(ctx, &p, &state, SEED)
            .map_err(|e| format!("{}: {e}", case.name))?;
        let mut done = 0;
        for &steps in case.steps {
            while done < steps {
                gpu.step()
                    .map_err(|e| format!("{}: step {done}: {e}", case.name))?;
                done += 1;
            }
            let boids = read_state(ctx, &gpu).await?;
            ctx.take_error()
                .map_err(|e| format!("{}: {e}", case.name))?;
            let sets: Vec<String> = case.sets.iter().map(|(k, v)| format!("{k}={v}")).collect();
            let _ = writeln!(
                out,
                "# case {} boids={BOIDS} seed={SEED} steps={steps} sets={}",
                case.name,
                sets.join(",")
            );
            let mut csv = Vec::new();
            boids::formats::checkpoint::write_rows(&mut csv, &boids).map_err(|e| e.to_string())?;
            out.push_str(&String::from_utf8_lossy(&csv));
        }
    }
    Ok(out)
}
