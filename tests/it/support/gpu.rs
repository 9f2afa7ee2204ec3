//! The GPU side of the tests: a context that skips visibly (or fails under `BOIDS_REQUIRE_GPU=1`),
//! an error-scoped runner, and the upload of a CPU twin's sorted items into the GPU buffers.

use boids::gpu::GpuContext;

/// A GPU context for a test, printing the adapter used. Without an adapter the test is skipped
/// (returns None) — unless `BOIDS_REQUIRE_GPU=1`, where it fails (CI sets it: lavapipe must be there).
pub fn gpu() -> Option<GpuContext> {
    match GpuContext::new() {
        Ok(ctx) => {
            eprintln!("adapter: {}", ctx.describe());
            Some(ctx)
        }
        Err(e) => {
            if std::env::var("BOIDS_REQUIRE_GPU").as_deref() == Ok("1") {
                panic!("BOIDS_REQUIRE_GPU=1 but no GPU adapter: {e}");
            }
            // Written straight to the terminal's stderr (not through eprintln!, which the test
            // harness captures and hides for passing tests), so a skip is always visible.
            use std::io::Write;
            let _ = writeln!(std::io::stderr(), "SKIPPED (no GPU adapter): {e}");
            None
        }
    }
}

/// Runs `f` inside a wgpu validation and out-of-memory error scope and fails the test on any
/// captured error (also on errors captured outside scopes by the context's sink).
pub fn checked<T>(ctx: &GpuContext, f: impl FnOnce() -> T) -> T {
    let v = ctx.device.push_error_scope(wgpu::ErrorFilter::Validation);
    let m = ctx.device.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
    let out = f();
    ctx.wait().expect("device wait");
    if let Some(e) = pollster::block_on(m.pop()) {
        panic!("wgpu out-of-memory error: {e}");
    }
    if let Some(e) = pollster::block_on(v.pop()) {
        panic!("wgpu validation error: {e}");
    }
    ctx.take_error().expect("uncaptured wgpu error");
    out
}

/// Writes the CPU twin's sorted items (`total` of them: boids and ghosts) and cell starts into the
/// GPU backend's buffers, so a GPU stage after `scatter` runs on exactly the CPU's input.
pub fn upload_sorted(
    ctx: &GpuContext,
    gpu: &boids::gpu::GpuBackend,
    c: &boids::stages::twins::CpuStep,
    total: usize,
) {
    let b = gpu.buffers();
    let q = &ctx.queue;
    q.write_buffer(
        b.get("sorted_pos_vel"),
        0,
        bytemuck::cast_slice(&c.sorted_pos_vel[..total]),
    );
    q.write_buffer(
        b.get("sorted_hue"),
        0,
        bytemuck::cast_slice(&c.sorted_hue[..total]),
    );
    q.write_buffer(
        b.get("sorted_id"),
        0,
        bytemuck::cast_slice(&c.sorted_id[..total]),
    );
    let (sorted_id, image_at) = b.region("sorted_image", 0);
    q.write_buffer(
        sorted_id,
        image_at,
        // The boids' image counts only: the first `c.len()` items (a ghost has none).
        bytemuck::cast_slice(&c.sorted_image[..c.len()]),
    );
    q.write_buffer(b.get("cells"), 0, bytemuck::cast_slice(&c.cells));
}

/// Records the stages named `names` of `gpu` (uniforms written first) and submits them: one
/// stage, or a few in order, run on the state already in the buffers.
pub fn run_stages(ctx: &GpuContext, gpu: &boids::gpu::GpuBackend, names: &[&str]) {
    gpu.write_uniforms();
    let mut enc = ctx.device.create_command_encoder(&Default::default());
    gpu.record_stages(&mut enc, names);
    ctx.queue.submit([enc.finish()]);
}
