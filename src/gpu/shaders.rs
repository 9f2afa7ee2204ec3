//! WGSL sources of every stage, composed at compile time from the shared snippets in `shaders/`
//! (`common.wgsl` for the parameter block and boid layout, `rng.wgsl`, `grid.wgsl`,
//! `rules_common.wgsl`) and the stage's own file.

macro_rules! shader {
    ($($file:literal),*) => { concat!($(include_str!(concat!("../../shaders/", $file)), "\n"),*) };
}

/// `clear` stage source.
pub const CLEAR: &str = shader!("common.wgsl", "clear.wgsl");
/// `count` stage source.
pub const COUNT: &str = shader!("common.wgsl", "grid.wgsl", "count.wgsl");
/// `scan` stage source.
pub const SCAN: &str = shader!("common.wgsl", "scan.wgsl");
/// `scatter` stage source.
pub const SCATTER: &str = shader!("common.wgsl", "scatter.wgsl");
/// `rules` stage source.
pub const RULES: &str = shader!(
    "common.wgsl",
    "rng.wgsl",
    "grid.wgsl",
    "rules.wgsl",
    "rules_common.wgsl"
);
/// `measures` stage source.
pub const MEASURES: &str = shader!("common.wgsl", "measures.wgsl");
/// `render` (instanced spearheads) source.
pub const RENDER: &str = shader!("common.wgsl", "render.wgsl");

/// Every composed shader with its stage name (for validation tests).
pub const ALL: [(&str, &str); 7] = [
    ("clear", CLEAR),
    ("count", COUNT),
    ("scan", SCAN),
    ("scatter", SCATTER),
    ("rules", RULES),
    ("measures", MEASURES),
    ("render", RENDER),
];

/// Parses and validates a WGSL source with naga (no GPU needed).
///
/// # Errors
/// The parse or validation error, pretty-printed with the source line.
pub fn validate(name: &str, source: &str) -> Result<naga::Module, String> {
    let module = naga::front::wgsl::parse_str(source)
        .map_err(|e| format!("{name}: {}", e.emit_to_string(source)))?;
    naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        naga::valid::Capabilities::default(),
    )
    .validate(&module)
    .map_err(|e| format!("{name}: {}", e.emit_to_string(source)))?;
    Ok(module)
}

/// Creates a shader module from a composed source.
pub fn module(device: &wgpu::Device, label: &str, source: &str) -> wgpu::ShaderModule {
    device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some(label),
        source: wgpu::ShaderSource::Wgsl(source.into()),
    })
}

/// What one binding of a stage's bind group holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slot {
    /// `var<uniform>`.
    Uniform,
    /// `var<storage, read>`.
    Read,
    /// `var<storage, read_write>`.
    ReadWrite,
}

/// An explicit bind group layout for group 0 with `slots` at bindings 0, 1, 2, … (visible to
/// compute and vertex stages). Explicit, so every entry point of a stage shares one layout even
/// when it uses only some of the bindings.
pub fn layout(device: &wgpu::Device, label: &str, slots: &[Slot]) -> wgpu::BindGroupLayout {
    let entries: Vec<wgpu::BindGroupLayoutEntry> = slots
        .iter()
        .enumerate()
        .map(|(i, s)| wgpu::BindGroupLayoutEntry {
            binding: i as u32,
            visibility: wgpu::ShaderStages::COMPUTE,
            ty: wgpu::BindingType::Buffer {
                ty: match s {
                    Slot::Uniform => wgpu::BufferBindingType::Uniform,
                    Slot::Read => wgpu::BufferBindingType::Storage { read_only: true },
                    Slot::ReadWrite => wgpu::BufferBindingType::Storage { read_only: false },
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
