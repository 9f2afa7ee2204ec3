//! Helpers shared by the integration tests.
#![allow(dead_code)]

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
            eprintln!("skipping GPU test: {e}");
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
