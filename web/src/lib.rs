//! boids in a web page, on the browser's WebGPU. For now the pipeline probe: on the page's
//! adapter it prints the adapter and the limits this program depends on, then compiles every
//! stage's source and then its pipelines (a stage holding the model's rule for each model and
//! neighbour search, with the device's gather) and reports each one the browser refuses, with the
//! first lines of its message.
//! Then it steps known flocks on the page's WebGPU and writes their states ([`check`]).
//! The page (`web/index.html`) shows the report and posts the states to `/states` and the report
//! to `/report` of the server it came from (`scripts/web-probe.sh` builds the page, serves it,
//! runs headless Chromium on it and prints what it posted).

#[cfg(target_arch = "wasm32")]
pub mod app;
pub mod check;
// A canvas exists only in a page.
#[cfg(target_arch = "wasm32")]
pub mod view;

use std::fmt::Write;

use boids::gpu::cache::Variant;
use boids::gpu::context::{Gather, GpuContext};
use boids::model::{Model, SimParams};
use boids::stages::{RuleParts, Search, STAGES};
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    /// The page's `console.error`.
    #[wasm_bindgen(js_namespace = console, js_name = error)]
    fn console_error(message: &str);
}

/// A panic's message to the page's console (a panic in WebAssembly is otherwise only
/// "unreachable").
fn log_panics() {
    std::panic::set_hook(Box::new(|info| {
        console_error(&format!("boids panicked: {info}"))
    }));
}

/// The message for a browser that gives no WebGPU adapter (`e`: wgpu's reason).
pub fn no_adapter(e: impl std::fmt::Display) -> String {
    format!(
        "no WebGPU adapter in this browser ({e}): use a browser with WebGPU enabled (Chromium, \
         Chrome, Edge; Firefox and Safari where enabled), or the native app"
    )
}

/// The first six lines of the browser's message, on one line (`|` between them).
fn first_lines(e: &wgpu::Error) -> String {
    e.to_string()
        .lines()
        .take(6)
        .collect::<Vec<_>>()
        .join(" | ")
}

/// What the page shows and posts: the probe's report, and the states of the step check.
#[wasm_bindgen(getter_with_clone)]
pub struct Report {
    /// The probe's report, or the reason it could not run (`FAILED: …`).
    pub text: String,
    /// The step check's states ([`check::run`]), empty when the probe failed.
    pub states: String,
}

/// Runs the probe, then the step check.
#[wasm_bindgen]
pub async fn run_probe() -> Report {
    log_panics();
    match probe().await {
        Ok((mut text, ctx)) => {
            let states = match check::run(&ctx).await {
                Ok(s) => {
                    let _ = writeln!(
                        text,
                        "step check: {} states written",
                        s.matches("# case").count()
                    );
                    s
                }
                Err(e) => {
                    let _ = writeln!(text, "FAILED: the step check: {e}");
                    String::new()
                }
            };
            Report { text, states }
        }
        Err(e) => Report {
            text: format!("FAILED: {e}\n"),
            states: String::new(),
        },
    }
}

/// The adapter, its limits, and every pipeline compiled on it: the report's text, and the
/// context.
///
/// # Errors
/// No WebGPU adapter, or no device on it (the message says which).
pub async fn probe() -> Result<(String, GpuContext), String> {
    let instance = wgpu::Instance::new(wgpu::InstanceDescriptor {
        backends: wgpu::Backends::BROWSER_WEBGPU,
        ..wgpu::InstanceDescriptor::new_without_display_handle()
    });
    let adapter = instance
        .request_adapter(&wgpu::RequestAdapterOptions::default())
        .await
        .map_err(no_adapter)?;
    let mut out = String::new();
    let info = adapter.get_info();
    let _ = writeln!(
        out,
        "adapter: {:?} (driver {:?}, {:?}, {:?}; a browser may leave the names empty)",
        info.name, info.driver_info, info.device_type, info.backend
    );
    let l = adapter.limits();
    for (name, v) in [
        (
            "max_storage_buffers_per_shader_stage",
            l.max_storage_buffers_per_shader_stage as u64,
        ),
        (
            "max_uniform_buffers_per_shader_stage",
            l.max_uniform_buffers_per_shader_stage as u64,
        ),
        (
            "max_bindings_per_bind_group",
            l.max_bindings_per_bind_group as u64,
        ),
        (
            "max_storage_buffer_binding_size",
            l.max_storage_buffer_binding_size as u64,
        ),
        ("max_buffer_size", l.max_buffer_size),
        (
            "max_compute_workgroup_size_x",
            l.max_compute_workgroup_size_x as u64,
        ),
        (
            "max_compute_invocations_per_workgroup",
            l.max_compute_invocations_per_workgroup as u64,
        ),
        (
            "max_compute_workgroups_per_dimension",
            l.max_compute_workgroups_per_dimension as u64,
        ),
        (
            "max_compute_workgroup_storage_size",
            l.max_compute_workgroup_storage_size as u64,
        ),
    ] {
        let _ = writeln!(out, "limit {name} = {v}");
    }
    let f = adapter.features();
    let _ = writeln!(
        out,
        "feature subgroups = {}, timestamp queries = {}",
        f.contains(wgpu::Features::SUBGROUP),
        f.contains(wgpu::Features::TIMESTAMP_QUERY)
    );
    let ctx = GpuContext::from_adapter_async(instance, adapter)
        .await
        .map_err(|e| e.to_string())?;
    let _ = writeln!(out, "gather: {}", ctx.gather().name());
    let (mut made, mut refused, mut not_compiled) = (0, 0, 0);
    for stage in &STAGES {
        let variants: Vec<Variant> = if stage.wgsl.per_model() {
            // Each model and search with no optional part, and with every one (the field of
            // view, the neighbour cap, the obstacles).
            let every = RuleParts {
                view: true,
                capped: true,
                obstacles: true,
                shared: false,
            };
            Model::all()
                .flat_map(|model| {
                    Search::ALL.into_iter().flat_map(move |search| {
                        [RuleParts::default(), every].map(|parts| Variant {
                            model,
                            search,
                            parts,
                            ensemble: false,
                        })
                    })
                })
                .collect()
        } else {
            vec![Variant::of(&SimParams::default(), false)]
        };
        for v in variants {
            let what = if stage.wgsl.per_model() {
                let parts = if v.parts == RuleParts::default() {
                    ""
                } else {
                    ", view + cap + obstacles"
                };
                format!(
                    "{} ({}, {}{parts})",
                    stage.name,
                    v.model.name(),
                    v.search.name()
                )
            } else {
                stage.name.to_string()
            };
            // The source alone first: a refused bind group layout is the first error of the
            // pipelines' scope and would hide the compiler's.
            let parts = RuleParts {
                shared: ctx.gather() == Gather::Subgroup,
                ..v.parts
            };
            let source = stage
                .wgsl
                .source_variant(v.model, v.search, parts, v.ensemble);
            let scope = ctx.device.push_error_scope(wgpu::ErrorFilter::Validation);
            let _module = boids::gpu::shaders::module(&ctx.device, &what, &source);
            if let Some(e) = scope.pop().await {
                not_compiled += 1;
                let _ = writeln!(out, "source REFUSED: {what}: {}", first_lines(&e));
                continue;
            }
            let scope = ctx.device.push_error_scope(wgpu::ErrorFilter::Validation);
            let entries = ctx.with_pipeline_cache(|c| c.get(&ctx.device, stage, v).1.len());
            match scope.pop().await {
                None => {
                    made += entries;
                    let _ = writeln!(out, "pipeline ok: {what}: {entries} entry points");
                }
                Some(e) => {
                    refused += 1;
                    let _ = writeln!(
                        out,
                        "source ok, pipeline REFUSED: {what}: {}",
                        first_lines(&e)
                    );
                }
            }
        }
    }
    let _ = writeln!(
        out,
        "pipelines made: {made}; stage variants whose source the browser refused: {not_compiled}; \
         whose source compiled but pipelines were refused: {refused}"
    );
    Ok((out, ctx))
}
