//! The compute rasteriser: many boids drawn small — spearheads up to
//! [`RenderStyle::compute_max_px`] on screen, and density dots — written pixel by pixel by a
//! compute pass (`cs_splat` in `shaders/splat.wgsl`: one invocation per boid reading the state
//! buffer, the same coverage as the instanced draw's fragment shader, three atomics per covered
//! pixel), then composited over the frame by a fragment pass over the tiles the boids touched
//! (`fs_splat`). The instanced spearhead pass of the design card is its reference
//! (`tests/it/render_looks.rs` holds the two pictures together) and draws the rest: larger boids, where the rasteriser's loop over
//! a bounding box of mostly empty pixels costs more than a triangle, and fewer boids, where the
//! planes' clear and resolve cost more than the whole instanced draw (docs/performance.md,
//! "Drawing many boids").
//!
//! What a pixel gets: the opacities of every boid over it compound as alpha blending compounds them
//! (1 − Π(1 − α_i), accumulated as Σ −ln(1 − α_i) in fixed point, so exact whatever the order);
//! its colour blends two boids as the instanced draw blends them — the one on top (the highest
//! index, the last drawn) with its opacity over the one covering most of the pixel — exact for up
//! to two boids over a pixel, the rest of a stack taking the colour of those two.
//!
//! Cost (the cost model of docs/performance.md): per frame a clear of 12 bytes per pixel; per boid
//! 32 bytes of colours and its bounding box's pixel tests (about (L + 2)·(0.6·L + 2) for a
//! spearhead L px long) with three atomics per covered pixel, and a flag for each [`TILE_PX`] tile
//! it touches; then a list of the touched tiles, and a resolve that reads 12 bytes per pixel of
//! those tiles only (an indirect draw of one quad per tile; nothing where no boid is). No triangle
//! set-up per boid and no blending of overlapping fragments in the raster pipeline.

use crate::render::style::{Rasteriser, RenderStyle};

/// The side of the square tiles (px) the resolve draws where boids were rasterised
/// (`SPLAT_TILE` in `shaders/splat.wgsl`).
pub const TILE_PX: u32 = 16;

/// The accumulation planes of one target size, the boids' colours (room for `capacity` boids),
/// and their two bind groups (group 2: written by the compute pass, read by the resolve).
struct Planes {
    size: (u32, u32),
    capacity: u32,
    /// The touched tiles: the resolve's indirect draw, their flags and their list.
    tiles: wgpu::Buffer,
    /// The three planes.
    buffer: wgpu::Buffer,
    write: wgpu::BindGroup,
    read: wgpu::BindGroup,
}

/// The compute rasteriser's pipelines and accumulation buffer.
pub struct Splat {
    device: wgpu::Device,
    write_bgl: wgpu::BindGroupLayout,
    read_bgl: wgpu::BindGroupLayout,
    compute: wgpu::ComputePipeline,
    /// The list of touched tiles (`cs_splat_tiles`).
    compact: wgpu::ComputePipeline,
    /// The resolve for the target (its format and samples) and for the trail layer.
    resolve: wgpu::RenderPipeline,
    resolve_layer: Option<wgpu::RenderPipeline>,
    read_layout: wgpu::PipelineLayout,
    module: wgpu::ShaderModule,
    planes: Option<Planes>,
}

/// Whether `style` draws `count` boids through the compute rasteriser at `zoom` (px per wu):
/// always or never when the style says so, else (auto) when there are at least
/// [`RenderStyle::compute_min_boids`] and each is a density dot or a spearhead at most
/// [`RenderStyle::compute_max_px`] long on screen.
pub fn draws(style: &RenderStyle, zoom: f32, count: u32) -> bool {
    match style.rasteriser {
        Rasteriser::Compute => true,
        Rasteriser::Instanced => false,
        Rasteriser::Auto => {
            let length_px = (style.boid_length * zoom).min(style.max_length_px);
            count >= style.compute_min_boids
                && (style.dots_at(zoom) || length_px <= style.compute_max_px)
        }
    }
}

/// Whether the compute rasteriser's buffers for a `w` × `h` target and `count` boids fit within
/// `limits`: its planes (12 B per pixel) and its colours (32 B per boid, room for the next power of
/// two) are each one storage binding. Where they do not (a picture over 11.2 M pixels on an
/// adapter with 128 MiB bindings), the instanced draw draws, whatever the style asks.
pub fn fits(limits: &wgpu::Limits, (w, h): (u32, u32), count: u32) -> bool {
    let binding = limits
        .max_storage_buffer_binding_size
        .min(limits.max_buffer_size);
    let planes = 12 * u64::from(w.max(1)) * u64::from(h.max(1));
    let colours = 32 * u64::from(count.max(1).next_power_of_two());
    planes <= binding && colours <= binding
}

/// The resolve's tiles over a `w` × `h` target.
fn tile_count(w: u32, h: u32) -> u32 {
    w.max(1).div_ceil(TILE_PX) * h.max(1).div_ceil(TILE_PX)
}

fn storage_entry(
    binding: u32,
    read_only: bool,
    visibility: wgpu::ShaderStages,
) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility,
        ty: wgpu::BindingType::Buffer {
            ty: wgpu::BufferBindingType::Storage { read_only },
            has_dynamic_offset: false,
            min_binding_size: None,
        },
        count: None,
    }
}

impl Splat {
    /// The pipelines for a target of `format` with `samples` samples, whose group 0 is the render
    /// shader's `bgl` (visible to the compute stage too).
    pub fn new(
        device: &wgpu::Device,
        bgl: &wgpu::BindGroupLayout,
        format: wgpu::TextureFormat,
        samples: u32,
    ) -> Splat {
        use crate::gpu::shaders;
        let module = &shaders::module(device, "splat", &shaders::SPLAT.text());
        let write_bgl = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("splat write"),
            entries: &[
                storage_entry(0, false, wgpu::ShaderStages::COMPUTE),
                storage_entry(2, false, wgpu::ShaderStages::COMPUTE),
                storage_entry(4, false, wgpu::ShaderStages::COMPUTE),
            ],
        });
        let read_bgl = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("splat read"),
            entries: &[
                storage_entry(1, true, wgpu::ShaderStages::FRAGMENT),
                storage_entry(3, true, wgpu::ShaderStages::FRAGMENT),
                storage_entry(5, true, wgpu::ShaderStages::VERTEX),
            ],
        });
        let write_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("splat write"),
            bind_group_layouts: &[Some(bgl), None, Some(&write_bgl)],
            immediate_size: 0,
        });
        let read_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("splat read"),
            bind_group_layouts: &[Some(bgl), None, Some(&read_bgl)],
            immediate_size: 0,
        });
        let entry = |entry: &str| {
            device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                label: Some(entry),
                layout: Some(&write_layout),
                module,
                entry_point: Some(entry),
                compilation_options: Default::default(),
                cache: None,
            })
        };
        let (compute, compact) = (entry("cs_splat"), entry("cs_splat_tiles"));
        let resolve = resolve_pipeline(device, &read_layout, module, format, samples);
        Splat {
            device: device.clone(),
            write_bgl,
            read_bgl,
            compute,
            compact,
            resolve,
            resolve_layer: None,
            read_layout,
            module: module.clone(),
            planes: None,
        }
    }

    /// The accumulation planes of a `w` × `h` target and colours for `count` boids (made anew
    /// when the size changes or the boids outgrow them).
    fn planes(&mut self, w: u32, h: u32, count: u32) -> &Planes {
        let fits = |p: &Planes| p.size == (w, h) && p.capacity >= count;
        if !self.planes.as_ref().is_some_and(fits) {
            let capacity = count.max(1).next_power_of_two();
            let storage = |label, size, usage| {
                self.device.create_buffer(&wgpu::BufferDescriptor {
                    label: Some(label),
                    size,
                    usage: wgpu::BufferUsages::STORAGE | usage,
                    mapped_at_creation: false,
                })
            };
            let none = wgpu::BufferUsages::empty();
            let buffer = storage(
                "splat planes",
                12 * u64::from(w.max(1)) * u64::from(h.max(1)),
                wgpu::BufferUsages::COPY_DST,
            );
            let colours = storage("splat colours", 32 * u64::from(capacity), none);
            let tile_count = u64::from(tile_count(w, h));
            let tiles = storage(
                "splat tiles",
                4 * (4 + 2 * tile_count),
                wgpu::BufferUsages::INDIRECT,
            );
            let group = |layout, first| {
                self.device.create_bind_group(&wgpu::BindGroupDescriptor {
                    label: Some("splat planes"),
                    layout,
                    entries: &[
                        wgpu::BindGroupEntry {
                            binding: first,
                            resource: buffer.as_entire_binding(),
                        },
                        wgpu::BindGroupEntry {
                            binding: first + 2,
                            resource: colours.as_entire_binding(),
                        },
                        wgpu::BindGroupEntry {
                            binding: first + 4,
                            resource: tiles.as_entire_binding(),
                        },
                    ],
                })
            };
            let (write, read) = (group(&self.write_bgl, 0), group(&self.read_bgl, 1));
            self.planes = Some(Planes {
                size: (w, h),
                capacity,
                tiles,
                buffer: buffer.clone(),
                write,
                read,
            });
        }
        self.planes.as_ref().expect("made above")
    }

    /// Records the rasterisation of `count` boids for a `w` × `h` target into `encoder`: the planes
    /// cleared, then the compute pass (`render` is group 0, the render shader's bind group).
    pub fn rasterise(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        render: &wgpu::BindGroup,
        count: u32,
        (w, h): (u32, u32),
        max_groups_per_dim: u32,
    ) {
        let (compute, compact) = (self.compute.clone(), self.compact.clone());
        let planes = self.planes(w, h, count);
        encoder.clear_buffer(&planes.buffer, 0, None);
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
            label: Some("splat"),
            timestamp_writes: None,
        });
        pass.set_pipeline(&compute);
        pass.set_bind_group(0, render, &[]);
        pass.set_bind_group(2, &planes.write, &[]);
        let groups = count.div_ceil(256).max(1);
        let x = groups.min(max_groups_per_dim.max(1));
        pass.dispatch_workgroups(x, groups.div_ceil(x), 1);
        pass.set_pipeline(&compact);
        pass.dispatch_workgroups(tile_count(w, h).div_ceil(256), 1, 1);
    }

    /// Draws the rasterised boids over what `pass` holds (the target, or the trail layer when
    /// `layer`), after [`Splat::rasterise`] this frame.
    pub fn resolve(&mut self, pass: &mut wgpu::RenderPass<'_>, layer: bool) {
        let pipeline = if layer {
            if self.resolve_layer.is_none() {
                self.resolve_layer = Some(resolve_pipeline(
                    &self.device,
                    &self.read_layout,
                    &self.module,
                    crate::render::layers::LAYER_FORMAT,
                    1,
                ));
            }
            self.resolve_layer.as_ref().expect("made above")
        } else {
            &self.resolve
        };
        let Some(planes) = &self.planes else {
            return;
        };
        pass.set_pipeline(pipeline);
        pass.set_bind_group(2, &planes.read, &[]);
        pass.draw_indirect(&planes.tiles, 0);
    }
}

/// The full-screen resolve (`fs_splat`), premultiplied over what is below.
fn resolve_pipeline(
    device: &wgpu::Device,
    layout: &wgpu::PipelineLayout,
    module: &wgpu::ShaderModule,
    format: wgpu::TextureFormat,
    samples: u32,
) -> wgpu::RenderPipeline {
    device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some("splat resolve"),
        layout: Some(layout),
        vertex: wgpu::VertexState {
            module,
            entry_point: Some("vs_splat_tile"),
            compilation_options: Default::default(),
            buffers: &[],
        },
        primitive: wgpu::PrimitiveState {
            topology: wgpu::PrimitiveTopology::TriangleStrip,
            cull_mode: None,
            ..Default::default()
        },
        depth_stencil: None,
        multisample: wgpu::MultisampleState {
            count: samples,
            ..Default::default()
        },
        fragment: Some(wgpu::FragmentState {
            module,
            entry_point: Some("fs_splat"),
            compilation_options: Default::default(),
            targets: &[Some(wgpu::ColorTargetState {
                format,
                blend: Some(wgpu::BlendState::PREMULTIPLIED_ALPHA_BLENDING),
                write_mask: wgpu::ColorWrites::ALL,
            })],
        }),
        multiview_mask: None,
        cache: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The planes and the colours are held to the binding limit (128 MiB on lavapipe): 4096 × 2730
    /// pixels fit, one row more does not; 4 M boids fit, one more (room for 8 M) does not.
    #[test]
    fn buffers_past_the_binding_limit_do_not_fit() {
        let limits = wgpu::Limits {
            max_storage_buffer_binding_size: 128 << 20,
            max_buffer_size: 256 << 20,
            ..wgpu::Limits::default()
        };
        assert!(fits(&limits, (4096, 2730), 1000));
        assert!(!fits(&limits, (4096, 2731), 1000));
        assert!(fits(&limits, (1280, 720), 1 << 22));
        assert!(!fits(&limits, (1280, 720), (1 << 22) + 1));
        let small_buffers = wgpu::Limits {
            max_buffer_size: 1 << 20,
            ..limits
        };
        assert!(!fits(&small_buffers, (1280, 720), 1000));
    }
}
