//! Shader modules, bind group layouts and pipelines from the stage table, and naga validation of
//! every WGSL source (no GPU needed).

use crate::stages::{Access, Binding, STAGES};

/// The render source (instanced spearheads, obstacle discs, world rectangle).
pub const RENDER: crate::stages::Wgsl =
    crate::wgsl!("common.wgsl", "render_view.wgsl", "render.wgsl");

/// The compute rasteriser's shader (`crate::render::splat`): a module of its own.
pub const SPLAT: crate::stages::Wgsl =
    crate::wgsl!("common.wgsl", "render_view.wgsl", "splat.wgsl");

/// The app's UI layer composite (`crate::app::ui_layer`).
pub const UI_LAYER: crate::stages::Wgsl = crate::wgsl!("ui_layer.wgsl");

/// Every composed WGSL source with its name: each stage of [`STAGES`] (a stage holding the
/// model's rule once per model of the table, neighbourhood and combination of optional parts,
/// named `stage/model/neighbourhood[/field of view][/neighbour cap][/obstacles][/shared gather]`),
/// each compiled for an ensemble, and after each stage (and each model and neighbourhood of a
/// stage with the rule, without optional parts) a lone run's, `…/lone`, where the stage includes
/// `shaders/replicas.wgsl` (the two differ only in its constant `ENSEMBLE`); then `render`,
/// `splat` and `ui_layer`.
pub fn all_sources() -> Vec<(String, String)> {
    use crate::stages::{RuleParts, Search};
    let mut out = Vec::new();
    for s in &STAGES {
        if s.wgsl.per_model() {
            for m in crate::model::Model::all() {
                for search in Search::ALL {
                    for parts in RuleParts::ALL {
                        out.push((
                            format!(
                                "{}/{}/{}{}",
                                s.name,
                                m.name(),
                                search.name(),
                                parts.describe().replace(", ", "/")
                            ),
                            s.wgsl.source_variant(m, search, parts, true),
                        ));
                    }
                    if s.wgsl.uses_replicas() {
                        out.push((
                            format!("{}/{}/{}/lone", s.name, m.name(), search.name()),
                            s.wgsl
                                .source_variant(m, search, RuleParts::default(), false),
                        ));
                    }
                }
            }
        } else {
            out.push((s.name.to_string(), s.wgsl.text()));
            if s.wgsl.uses_replicas() {
                let lone = s.wgsl.source_variant(
                    crate::model::Model::default(),
                    Search::Metric,
                    RuleParts::default(),
                    false,
                );
                out.push((format!("{}/lone", s.name), lone));
            }
        }
    }
    out.push(("render".to_string(), RENDER.text()));
    out.push(("splat".to_string(), SPLAT.text()));
    out.push(("ui_layer".to_string(), UI_LAYER.text()));
    out
}

/// Parses and validates a WGSL source with naga (no GPU needed).
///
/// # Errors
/// The parse or validation error, pretty-printed with the source line.
pub fn validate(name: &str, source: &str) -> Result<naga::Module, String> {
    let module = naga::front::wgsl::parse_str(source)
        .map_err(|e| format!("{name}: {}", e.emit_to_string(source)))?;
    // Subgroup operations only in a source of the shared gather (named so by `all_sources`):
    // every other one must validate on a device without subgroups.
    let caps = if name.contains("shared gather") {
        naga::valid::Capabilities::SUBGROUP
    } else {
        naga::valid::Capabilities::default()
    };
    naga::valid::Validator::new(naga::valid::ValidationFlags::all(), caps)
        .validate(&module)
        .map_err(|e| format!("{name}: {}", e.emit_to_string(source)))?;
    Ok(module)
}

/// Checks binding slots against naga's reflection of `module`: every global of group 0 with a
/// binding must be slot `binding` of `slots` with the same name and access, and every slot must be
/// declared.
///
/// # Errors
/// The first mismatch, naming the stage, the slot and both sides.
pub fn check_bindings(name: &str, module: &naga::Module, slots: &[Binding]) -> Result<(), String> {
    let mut seen = vec![false; slots.len()];
    for (_, var) in module.global_variables.iter() {
        let Some(rb) = &var.binding else { continue };
        let var_name = var.name.clone().unwrap_or_default();
        if rb.group != 0 {
            return Err(format!(
                "{name}: `{var_name}` is in group {}, the table describes group 0 only",
                rb.group
            ));
        }
        let access = match var.space {
            naga::AddressSpace::Uniform => Access::Uniform,
            naga::AddressSpace::Storage { access } => {
                if access.contains(naga::StorageAccess::STORE) {
                    Access::ReadWrite
                } else {
                    Access::Read
                }
            }
            other => {
                return Err(format!(
                    "{name}: `{var_name}` at binding {} is in address space {other:?}",
                    rb.binding
                ))
            }
        };
        let Some(slot) = slots.get(rb.binding as usize) else {
            return Err(format!(
                "{name}: the WGSL declares `{var_name}` at binding {}, the table has {} slots",
                rb.binding,
                slots.len()
            ));
        };
        if slot.name != var_name || slot.access != access {
            return Err(format!(
                "{name}: binding {} is `{var_name}` ({access:?}) in the WGSL but `{}` ({:?}) in \
                 the table",
                rb.binding, slot.name, slot.access
            ));
        }
        seen[rb.binding as usize] = true;
    }
    if let Some(k) = seen.iter().position(|s| !s) {
        return Err(format!(
            "{name}: the table's slot {k} (`{}`) is not declared in the WGSL",
            slots[k].name
        ));
    }
    Ok(())
}

/// Creates a shader module from a composed source, with wgpu's bounds checks but without the
/// loop counter naga otherwise adds to every loop (`force_loop_bounding`: a guard against
/// untrusted shaders' infinite loops). Every loop of this program's shaders is bounded by its
/// own count — a range of sorted items, cells or obstacle points, a fixed number of rounds, a
/// binary search, a shrinking index — and `tests/it/gpu_bounded_loops.rs` runs them past 65 536
/// iterations. Without the counter the `rules` pass is ~7 % faster on lavapipe in formed flocks
/// (100 000 boids: 35.3 → 32.7 ms; docs/performance.md §4).
pub fn module(device: &wgpu::Device, label: &str, source: &str) -> wgpu::ShaderModule {
    let checks = wgpu::ShaderRuntimeChecks {
        force_loop_bounding: false,
        ..wgpu::ShaderRuntimeChecks::checked()
    };
    let desc = wgpu::ShaderModuleDescriptor {
        label: Some(label),
        source: wgpu::ShaderSource::Wgsl(source.into()),
    };
    // SAFETY: the checks kept are wgpu's defaults but the loop counter, whose absence is safe
    // for shaders without infinite loops (see above); bounds checks stay on.
    unsafe { device.create_shader_module_trusted(desc, checks) }
}

/// An explicit bind group layout for group 0 with `slots` at bindings 0, 1, 2, … (visible to the
/// compute stage). Explicit, so every entry point of a stage shares one layout even when it uses
/// only some of the bindings.
pub fn layout(device: &wgpu::Device, label: &str, slots: &[Binding]) -> wgpu::BindGroupLayout {
    let entries: Vec<wgpu::BindGroupLayoutEntry> = slots
        .iter()
        .enumerate()
        .map(|(i, s)| wgpu::BindGroupLayoutEntry {
            binding: i as u32,
            visibility: wgpu::ShaderStages::COMPUTE,
            ty: wgpu::BindingType::Buffer {
                ty: match s.access {
                    Access::Uniform => wgpu::BufferBindingType::Uniform,
                    Access::Read => wgpu::BufferBindingType::Storage { read_only: true },
                    Access::ReadWrite => wgpu::BufferBindingType::Storage { read_only: false },
                },
                has_dynamic_offset: false,
                min_binding_size: None,
            },
            count: None,
        })
        .collect();
    device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some(label),
        entries: &entries,
    })
}

/// Creates the compute pipeline `entry` of a stage with its explicit layout.
pub fn compute_pipeline(
    device: &wgpu::Device,
    label: &str,
    bgl: &wgpu::BindGroupLayout,
    module: &wgpu::ShaderModule,
    entry: &str,
) -> wgpu::ComputePipeline {
    let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: Some(label),
        bind_group_layouts: &[Some(bgl)],
        immediate_size: 0,
    });
    device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
        label: Some(label),
        layout: Some(&layout),
        module,
        entry_point: Some(entry),
        compilation_options: Default::default(),
        cache: None,
    })
}

/// A bind group on `bgl` with `buffers` at bindings 0, 1, 2, ….
pub fn bind_group(
    device: &wgpu::Device,
    label: &str,
    bgl: &wgpu::BindGroupLayout,
    buffers: &[&wgpu::Buffer],
) -> wgpu::BindGroup {
    let entries: Vec<wgpu::BindGroupEntry<'_>> = buffers
        .iter()
        .enumerate()
        .map(|(i, b)| wgpu::BindGroupEntry {
            binding: i as u32,
            resource: b.as_entire_binding(),
        })
        .collect();
    device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some(label),
        layout: bgl,
        entries: &entries,
    })
}
