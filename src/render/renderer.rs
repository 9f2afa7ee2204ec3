//! The boid renderer: one instanced draw of concave spearheads (`draw_indexed(0..6, 0, 0..N)`:
//! the 4 corners of [`crate::render::mesh`] in a per-vertex buffer, one instance per boid) whose
//! vertex shader reads each instance's boid from the state storage buffer by `instance_index`,
//! oriented by its velocity; before them the world rectangle and obstacle discs (instanced
//! quads), after them the predators (instanced discs with a heading wedge, larger than a boid, in
//! their own colours, read from the predator buffer) and the world's edge. Used unchanged by the window, by `boids snapshot` and by
//! benchmark captures, through [`Renderer::record`] and [`crate::render::Offscreen`].
//!
//! Sizes: the boid length is in wu, shown between [`RenderStyle::min_length_px`] and
//! [`RenderStyle::max_length_px`]. Zoomed out so far that a boid would be shorter than the
//! minimum, boids become **density dots** instead of a grey static of minimum-size arrows: one
//! small square per boid (at least [`RenderStyle::dot_min_px`]) blended additively on the dark
//! theme (subtractively on the light one) with the coverage the boid's spearhead would have had
//! (its area × its on-screen length², at least a floor so a lone boid stays visible), so the
//! picture's brightness follows the boids' density and their colour.
//!
//! Colour: a two-colour pastel gradient (tip → tail) from the hue vector angle, computed in OKLCh
//! so every hue has the same lightness; the theme picks lighter pastels on a dark background and
//! deeper ones on a light background.
//!
//! Cost: when the world covers the whole view the pass clears to the world's colour and skips the
//! world rectangle (one clear instead of a clear and a full-screen quad).

use encase::ShaderType;
use glam::{Vec2, Vec4};

use crate::gpu::shaders;
use crate::model::Actors;
use crate::render::camera::Camera;
use crate::render::mesh;
use crate::render::style::RenderStyle;
pub use crate::simulation::StateBuffers;

/// The uniform block of the render shaders; mirrors `struct View` in `shaders/render.wgsl` (layout
/// computed by encase, checked against naga in `tests/shaders.rs`).
#[derive(Clone, Copy, Debug, PartialEq, ShaderType, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ViewUniforms {
    /// World background, in the target's encoding.
    pub world_color: Vec4,
    /// Obstacle colour, in the target's encoding.
    pub obstacle_color: Vec4,
    /// Edge line colour, in the target's encoding, premultiplied by its opacity.
    pub edge_color: Vec4,
    /// World point at the viewport centre (wu).
    pub center: Vec2,
    /// Clip units per wu.
    pub scale: Vec2,
    /// Clip units per px.
    pub px_to_clip: Vec2,
    /// World size (wu).
    pub world: Vec2,
    /// Boid length (wu).
    pub boid_length: f32,
    /// Smallest boid length (px).
    pub min_length_px: f32,
    /// Largest boid length (px).
    pub max_length_px: f32,
    /// Smallest side of a density dot (px).
    pub dot_min_px: f32,
    /// Spearhead area (boid lengths²).
    pub boid_area: f32,
    /// px per wu.
    pub zoom: f32,
    /// Boid opacity.
    pub alpha: f32,
    /// OKLab lightness of the tip colour.
    pub tip_lightness: f32,
    /// OKLab lightness of the tail colour.
    pub tail_lightness: f32,
    /// OKLCh chroma.
    pub chroma: f32,
    /// Tail hue offset (rad).
    pub tail_hue_shift: f32,
    /// Obstacle radius (wu).
    pub obstacle_radius: f32,
    /// Smallest obstacle radius (px).
    pub obstacle_min_px: f32,
    /// Edge line width (px).
    pub edge_px: f32,
    /// 1 for a dashed edge (the wrap seam), 0 for a solid one.
    pub edge_dash: u32,
    /// 1 when density dots are subtracted (light theme), 0 when added.
    pub dot_subtract: u32,
    /// 1 for an sRGB target.
    pub srgb_target: u32,
    /// Predator disc radius (wu).
    pub predator_radius: f32,
    /// Smallest predator radius (px).
    pub predator_min_px: f32,
}

/// Opacity of a solid edge and of a seam.
const EDGE_ALPHA: [f32; 2] = [0.85, 0.4];

/// sRGB-encoded component to linear.
pub fn srgb_to_linear(c: f32) -> f32 {
    if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

fn encode(rgb: [f32; 3], srgb_target: bool) -> Vec4 {
    let f = |c: f32| if srgb_target { srgb_to_linear(c) } else { c };
    Vec4::new(f(rgb[0]), f(rgb[1]), f(rgb[2]), 1.0)
}

impl ViewUniforms {
    /// The block for `camera` and `style` on a target of format `format`.
    pub fn new(camera: &Camera, style: &RenderStyle, format: wgpu::TextureFormat) -> Self {
        let srgb = format.is_srgb();
        let (tip, tail, chroma) = style.theme.palette();
        let vp = camera.viewport.max(Vec2::ONE);
        let dash = style.edge == crate::render::Edge::Seam;
        let edge_alpha = EDGE_ALPHA[dash as usize];
        let edge = encode(style.theme.edge_color(), srgb);
        ViewUniforms {
            world_color: encode(style.theme.world_color(), srgb),
            obstacle_color: encode(style.theme.obstacle_color(), srgb),
            edge_color: (edge * edge_alpha).truncate().extend(edge_alpha),
            center: camera.center,
            scale: Vec2::new(2.0 * camera.zoom / vp.x, -2.0 * camera.zoom / vp.y),
            px_to_clip: Vec2::new(2.0 / vp.x, -2.0 / vp.y),
            world: camera.world,
            boid_length: style.boid_length,
            min_length_px: style.min_length_px,
            max_length_px: style.max_length_px.max(style.min_length_px),
            dot_min_px: style.dot_min_px,
            boid_area: mesh::area(),
            zoom: camera.zoom,
            alpha: style.alpha.clamp(0.0, 1.0),
            tip_lightness: tip,
            tail_lightness: tail,
            chroma,
            tail_hue_shift: style.tail_hue_shift_deg.to_radians(),
            obstacle_radius: style.obstacle_radius,
            obstacle_min_px: style.obstacle_min_px,
            edge_px: style.edge_px,
            edge_dash: dash as u32,
            dot_subtract: (style.theme == crate::render::Theme::Light) as u32,
            srgb_target: srgb as u32,
            predator_radius: style.predator_scale * style.boid_length,
            predator_min_px: style.predator_min_px,
        }
    }

    /// The block's bytes, laid out by encase.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut buf = encase::UniformBuffer::new(Vec::new());
        buf.write(self).expect("a growable buffer");
        buf.into_inner()
    }
}

/// The render pipelines and their per-target resources (uniforms, obstacle buffer, MSAA target).
pub struct Renderer {
    device: wgpu::Device,
    format: wgpu::TextureFormat,
    samples: u32,
    bgl: wgpu::BindGroupLayout,
    world: wgpu::RenderPipeline,
    boids: wgpu::RenderPipeline,
    /// Density dots: additive (dark theme), subtractive (light theme).
    dots: [wgpu::RenderPipeline; 2],
    edge: wgpu::RenderPipeline,
    obstacles: wgpu::RenderPipeline,
    predators: wgpu::RenderPipeline,
    uniforms: wgpu::Buffer,
    obstacle_buffer: wgpu::Buffer,
    obstacle_count: u32,
    /// The predators drawn: a backend's predator buffer (or a mirror), and how many.
    predator_buffer: wgpu::Buffer,
    predator_count: u32,
    /// The spearhead's corners (per-vertex buffer of the instanced draw).
    corners: wgpu::Buffer,
    /// The spearhead's two triangles.
    indices: wgpu::Buffer,
    /// (state buffers, obstacle buffer, predator buffer, bind group): rebuilt when any buffer
    /// changes.
    bind: Option<(StateBuffers, wgpu::Buffer, wgpu::Buffer, wgpu::BindGroup)>,
    /// Multisampled colour target of the current size, when `samples > 1`.
    msaa: Option<(u32, u32, wgpu::TextureView)>,
}

/// Adds the source colour to the target (dark theme's density dots).
const ADD: wgpu::BlendState = wgpu::BlendState {
    color: wgpu::BlendComponent {
        src_factor: wgpu::BlendFactor::One,
        dst_factor: wgpu::BlendFactor::One,
        operation: wgpu::BlendOperation::Add,
    },
    alpha: wgpu::BlendComponent::OVER,
};

/// Subtracts the source colour from the target (light theme's density dots darken the paper).
const SUBTRACT: wgpu::BlendState = wgpu::BlendState {
    color: wgpu::BlendComponent {
        src_factor: wgpu::BlendFactor::One,
        dst_factor: wgpu::BlendFactor::One,
        operation: wgpu::BlendOperation::ReverseSubtract,
    },
    alpha: wgpu::BlendComponent::OVER,
};

#[allow(clippy::too_many_arguments)]
fn pipeline(
    device: &wgpu::Device,
    layout: &wgpu::PipelineLayout,
    module: &wgpu::ShaderModule,
    name: &str,
    vertex_entry: &str,
    buffers: &[Option<wgpu::VertexBufferLayout<'_>>],
    format: wgpu::TextureFormat,
    samples: u32,
    topology: wgpu::PrimitiveTopology,
) -> wgpu::RenderPipeline {
    pipeline_blend(
        device,
        layout,
        module,
        name,
        vertex_entry,
        buffers,
        format,
        samples,
        topology,
        wgpu::BlendState::PREMULTIPLIED_ALPHA_BLENDING,
    )
}

#[allow(clippy::too_many_arguments)]
fn pipeline_blend(
    device: &wgpu::Device,
    layout: &wgpu::PipelineLayout,
    module: &wgpu::ShaderModule,
    name: &str,
    vertex_entry: &str,
    buffers: &[Option<wgpu::VertexBufferLayout<'_>>],
    format: wgpu::TextureFormat,
    samples: u32,
    topology: wgpu::PrimitiveTopology,
    blend: wgpu::BlendState,
) -> wgpu::RenderPipeline {
    device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some(name),
        layout: Some(layout),
        vertex: wgpu::VertexState {
            module,
            entry_point: Some(vertex_entry),
            compilation_options: Default::default(),
            buffers,
        },
        primitive: wgpu::PrimitiveState {
            topology,
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
            entry_point: Some(&format!("fs_{name}")),
            compilation_options: Default::default(),
            targets: &[Some(wgpu::ColorTargetState {
                format,
                blend: Some(blend),
                write_mask: wgpu::ColorWrites::ALL,
            })],
        }),
        multiview_mask: None,
        cache: None,
    })
}

/// The largest sample count ≤ `wanted` that `adapter` supports for rendering to `format` (1 when
/// multisampling is not offered).
pub fn supported_samples(adapter: &wgpu::Adapter, format: wgpu::TextureFormat, wanted: u32) -> u32 {
    let flags = adapter.get_texture_format_features(format).flags;
    [8, 4, 2]
        .into_iter()
        .find(|&n| n <= wanted && flags.sample_count_supported(n))
        .unwrap_or(1)
}

const CORNER_LAYOUT: wgpu::VertexBufferLayout<'static> = wgpu::VertexBufferLayout {
    array_stride: 8,
    step_mode: wgpu::VertexStepMode::Vertex,
    attributes: &wgpu::vertex_attr_array![0 => Float32x2],
};

impl Renderer {
    /// Compiles the render pipelines for targets of `format` with `samples` samples per pixel (1, or
    /// a count from [`supported_samples`]; the renderer resolves into the single-sample target).
    pub fn new(device: &wgpu::Device, format: wgpu::TextureFormat, samples: u32) -> Self {
        use wgpu::util::DeviceExt;
        let module = shaders::module(device, "render", &shaders::RENDER.text());
        let entry = |binding, ty| wgpu::BindGroupLayoutEntry {
            binding,
            visibility: wgpu::ShaderStages::VERTEX | wgpu::ShaderStages::FRAGMENT,
            ty: wgpu::BindingType::Buffer {
                ty,
                has_dynamic_offset: false,
                min_binding_size: None,
            },
            count: None,
        };
        let read = wgpu::BufferBindingType::Storage { read_only: true };
        let bgl = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("render"),
            entries: &[
                entry(0, wgpu::BufferBindingType::Uniform),
                entry(1, read),
                entry(2, read),
                entry(3, read),
                entry(4, read),
            ],
        });
        let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("render"),
            bind_group_layouts: &[Some(&bgl)],
            immediate_size: 0,
        });
        let samples = samples.max(1);
        let uniforms = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("render view"),
            size: ViewUniforms::min_size().get(),
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let corners = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("spearhead corners"),
            contents: bytemuck::cast_slice(&mesh::CORNERS),
            usage: wgpu::BufferUsages::VERTEX,
        });
        let boids = pipeline(
            device,
            &layout,
            &module,
            "boid",
            "vs_boid",
            &[Some(CORNER_LAYOUT)],
            format,
            samples,
            LIST,
        );
        let indices = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("spearhead triangles"),
            contents: bytemuck::cast_slice(&mesh::INDICES),
            usage: wgpu::BufferUsages::INDEX,
        });
        let dot = |blend| {
            pipeline_blend(
                device,
                &layout,
                &module,
                "dot",
                "vs_dot",
                &[],
                format,
                samples,
                STRIP,
                blend,
            )
        };
        let dots = [dot(ADD), dot(SUBTRACT)];
        let edge = pipeline(
            device,
            &layout,
            &module,
            "edge",
            "vs_edge",
            &[],
            format,
            samples,
            STRIP,
        );
        Renderer {
            dots,
            edge,
            world: pipeline(
                device,
                &layout,
                &module,
                "world",
                "vs_world",
                &[],
                format,
                samples,
                STRIP,
            ),
            boids,
            obstacles: pipeline(
                device,
                &layout,
                &module,
                "obstacle",
                "vs_obstacle",
                &[],
                format,
                samples,
                STRIP,
            ),
            predators: pipeline(
                device,
                &layout,
                &module,
                "predator",
                "vs_predator",
                &[],
                format,
                samples,
                STRIP,
            ),
            corners,
            indices,
            obstacle_buffer: obstacle_buffer(device, 64),
            obstacle_count: 0,
            predator_buffer: device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("render no predators"),
                size: crate::stages::PREDATOR_BYTES,
                usage: wgpu::BufferUsages::STORAGE,
                mapped_at_creation: false,
            }),
            predator_count: 0,
            device: device.clone(),
            format,
            samples,
            bgl,
            uniforms,
            bind: None,
            msaa: None,
        }
    }

    /// Target format.
    pub fn format(&self) -> wgpu::TextureFormat {
        self.format
    }

    /// Samples per pixel.
    pub fn samples(&self) -> u32 {
        self.samples
    }

    /// Replaces the actors drawn (obstacle discs). Uploads only here, when they change, never per
    /// frame.
    pub fn set_actors(&mut self, queue: &wgpu::Queue, actors: &Actors) {
        let points = &actors.obstacles;
        let bytes = (points.len() as u64) * 8;
        if bytes > self.obstacle_buffer.size() {
            self.obstacle_buffer =
                obstacle_buffer(&self.device, (points.len() as u64).next_power_of_two());
        }
        if !points.is_empty() {
            queue.write_buffer(&self.obstacle_buffer, 0, bytemuck::cast_slice(points));
        }
        self.obstacle_count = points.len() as u32;
    }

    /// Draws `count` predators from `buffer` (a backend's predator buffer, or a copy of a CPU
    /// backend's: entries of [`crate::model::Predator`]) from the next frame on; `None` draws none.
    pub fn set_predators(&mut self, predators: Option<(&wgpu::Buffer, u32)>) {
        match predators {
            Some((buffer, count)) => {
                if buffer != &self.predator_buffer {
                    self.predator_buffer = buffer.clone();
                }
                self.predator_count = count;
            }
            None => self.predator_count = 0,
        }
    }

    /// Records one frame into `encoder`: clears `target` (a view of a texture of this renderer's
    /// format whose size is `camera.viewport`) to the theme's background, then draws the world
    /// rectangle, the obstacles and `boid_count` boids read from `state` (the `pos_vel` and `hue`
    /// state buffers, e.g. a backend's [`crate::simulation::Simulation::gpu_state`]).
    #[allow(clippy::too_many_arguments)]
    pub fn record(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        target: &wgpu::TextureView,
        queue: &wgpu::Queue,
        state: &StateBuffers,
        boid_count: u32,
        camera: &Camera,
        style: &RenderStyle,
    ) {
        let u = ViewUniforms::new(camera, style, self.format);
        queue.write_buffer(&self.uniforms, 0, &u.to_bytes());
        let stale = match &self.bind {
            Some((s, o, p, _)) => {
                s != state || o != &self.obstacle_buffer || p != &self.predator_buffer
            }
            None => true,
        };
        if stale {
            let bg = self.device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some("render"),
                layout: &self.bgl,
                entries: &[
                    wgpu::BindGroupEntry {
                        binding: 0,
                        resource: self.uniforms.as_entire_binding(),
                    },
                    wgpu::BindGroupEntry {
                        binding: 1,
                        resource: state.pos_vel.as_entire_binding(),
                    },
                    wgpu::BindGroupEntry {
                        binding: 2,
                        resource: state.hue.as_entire_binding(),
                    },
                    wgpu::BindGroupEntry {
                        binding: 3,
                        resource: self.obstacle_buffer.as_entire_binding(),
                    },
                    wgpu::BindGroupEntry {
                        binding: 4,
                        resource: self.predator_buffer.as_entire_binding(),
                    },
                ],
            });
            self.bind = Some((
                state.clone(),
                self.obstacle_buffer.clone(),
                self.predator_buffer.clone(),
                bg,
            ));
        }
        let (w, h) = (
            camera.viewport.x.max(1.0) as u32,
            camera.viewport.y.max(1.0) as u32,
        );
        let msaa_view = if self.samples > 1 {
            if !matches!(&self.msaa, Some((mw, mh, _)) if *mw == w && *mh == h) {
                let tex = self.device.create_texture(&wgpu::TextureDescriptor {
                    label: Some("render msaa"),
                    size: wgpu::Extent3d {
                        width: w,
                        height: h,
                        depth_or_array_layers: 1,
                    },
                    mip_level_count: 1,
                    sample_count: self.samples,
                    dimension: wgpu::TextureDimension::D2,
                    format: self.format,
                    usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
                    view_formats: &[],
                });
                self.msaa = Some((w, h, tex.create_view(&Default::default())));
            }
            self.msaa.as_ref().map(|(_, _, v)| v)
        } else {
            None
        };
        let bg = self
            .bind
            .as_ref()
            .map(|(_, _, _, b)| b)
            .expect("bind group");
        let (lo, hi) = camera.visible_world();
        // The world covers the view (to half a pixel: no pixel centre lies outside): one clear to
        // its colour, no rectangle, no seam.
        let slack = Vec2::splat(0.5 / camera.zoom.max(1e-12));
        let world_fills =
            (lo + slack).cmpge(Vec2::ZERO).all() && (hi - slack).cmple(camera.world).all();
        let clear = if world_fills {
            style.theme.world_color()
        } else {
            style.theme.outside_color()
        };
        let outside = encode(clear, self.format.is_srgb());
        let (view, resolve_target) = match msaa_view {
            Some(v) => (v, Some(target)),
            None => (target, None),
        };
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("render"),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view,
                resolve_target,
                depth_slice: None,
                ops: wgpu::Operations {
                    load: wgpu::LoadOp::Clear(wgpu::Color {
                        r: outside.x as f64,
                        g: outside.y as f64,
                        b: outside.z as f64,
                        a: 1.0,
                    }),
                    store: if resolve_target.is_some() {
                        wgpu::StoreOp::Discard
                    } else {
                        wgpu::StoreOp::Store
                    },
                },
            })],
            depth_stencil_attachment: None,
            timestamp_writes: None,
            occlusion_query_set: None,
            multiview_mask: None,
        });
        pass.set_bind_group(0, bg, &[]);
        if !world_fills {
            pass.set_pipeline(&self.world);
            pass.draw(0..4, 0..1);
        }
        if self.obstacle_count > 0 {
            pass.set_pipeline(&self.obstacles);
            pass.draw(0..4, 0..self.obstacle_count);
        }
        if boid_count > 0 && style.dots_at(camera.zoom) {
            let light = style.theme == crate::render::Theme::Light;
            pass.set_pipeline(&self.dots[light as usize]);
            pass.draw(0..4, 0..boid_count);
        } else if boid_count > 0 {
            pass.set_pipeline(&self.boids);
            pass.set_vertex_buffer(0, self.corners.slice(..));
            pass.set_index_buffer(self.indices.slice(..), wgpu::IndexFormat::Uint16);
            pass.draw_indexed(0..mesh::INDICES.len() as u32, 0, 0..boid_count);
        }
        if self.predator_count > 0 {
            pass.set_pipeline(&self.predators);
            pass.draw(0..4, 0..self.predator_count);
        }
        // The edge: solid always; the wrap seam only where the view shows past the world.
        let edge = match style.edge {
            crate::render::Edge::Solid => true,
            crate::render::Edge::Seam => !world_fills,
            crate::render::Edge::None => false,
        };
        if edge && style.edge_px > 0.0 {
            pass.set_pipeline(&self.edge);
            pass.draw(0..4, 0..4);
        }
    }
}

const STRIP: wgpu::PrimitiveTopology = wgpu::PrimitiveTopology::TriangleStrip;
const LIST: wgpu::PrimitiveTopology = wgpu::PrimitiveTopology::TriangleList;

fn obstacle_buffer(device: &wgpu::Device, points: u64) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("render obstacles"),
        size: points.max(1) * 8,
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    })
}
