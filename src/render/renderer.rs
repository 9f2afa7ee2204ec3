//! The boid renderer: one instanced draw of concave spearheads (`draw_indexed(0..3, 0, 0..N)`:
//! the outer triangle of [`crate::render::mesh`] in a per-vertex buffer, the notch cut out by the
//! fragment shader, one instance per boid) whose
//! vertex shader reads each instance's boid from the state storage buffer by `instance_index`,
//! oriented by its velocity; before them the world rectangle and obstacle discs (instanced
//! quads), after them the predators (instanced discs with a heading wedge, larger than a boid, in
//! their own colours, read from the predator buffer) and the world's edge. Used unchanged by the window, by `boids snapshot` and by
//! benchmark captures, through [`Renderer::record`] and [`crate::render::Offscreen`].
//!
//! Anti-aliasing, on every adapter: the drawn triangle is grown by half a pixel, the fade's room
//! ([`crate::render::mesh::outsets`]), and the fragment shader takes each pixel's coverage from its
//! signed distance to the outline (`clamp(0.5 − d, 0, 1)`, d in px), alpha-blended; multisampling
//! where the adapter offers it is still allowed on top.
//!
//! Sizes: the boid length is in wu, shown between [`RenderStyle::min_length_px`] and
//! [`RenderStyle::max_length_px`]. Zoomed out so far that a boid would be shorter than the
//! minimum, boids become **density dots** instead of a grey static of minimum-size arrows: one
//! small box-filtered square per boid (at least [`RenderStyle::dot_min_px`]) carrying the coverage
//! its spearhead would have had (its area × its on-screen length², at least a floor so a lone boid
//! stays visible), composited over what is below in its colour at the opacity
//! `1 − exp(−gain × coverage)`: over a pixel the dots' opacities compound to `1 − exp(−gain × their
//! summed coverage)`, so the picture's opacity follows the density, and the colour tends to the
//! colour of the boids there, so every flock keeps its hue (additive blending had greyed pastel
//! flocks towards lavender on the dark background).
//!
//! Colour: what it shows is the [`crate::render::ColourMode`] (hue vector, heading, speed,
//! neighbour count); hue and heading are a two-colour pastel gradient (tip → tail) from an angle,
//! computed in OKLCh so every hue has the same lightness, the scalars a blue-to-yellow map; the
//! theme picks lighter pastels on a dark background and deeper ones on a light background.
//!
//! Trails ([`RenderStyle::trails`], off by default): the boids are drawn into the trail layer over
//! the previous frames' boids faded by the simulated time since ([`TrailClock`], fed by
//! [`Renderer::advance`]), and the layer is composited in the main pass. Their cost is a full-screen
//! fade and a full-screen composite per frame, and the boids lose MSAA (the analytic coverage
//! stays).
//!
//! Many boids drawn small — at least [`RenderStyle::compute_min_boids`], as density dots or
//! spearheads up to [`RenderStyle::compute_max_px`] — go instead through the compute rasteriser
//! ([`crate::render::splat`]), chosen frame by frame from the count and the zoom
//! ([`RenderStyle::rasteriser`] forces either); its picture is held to this draw's.
//!
//! Cost: when the world covers the whole view the pass clears to the world's colour and skips the
//! world rectangle (one clear instead of a clear and a full-screen quad).

use encase::ShaderType;
use glam::Vec2;

use crate::gpu::shaders;
use crate::model::Actors;
use crate::render::camera::Camera;
use crate::render::layers::{layer_layout, Layer, TrailClock, LAYER_FORMAT};
use crate::render::mesh;
use crate::render::splat::{self, Splat};
use crate::render::style::RenderStyle;
use crate::render::view::encode;
pub use crate::render::view::ViewUniforms;
pub use crate::simulation::{StateBuffers, StorageRange};

/// The render pipelines and their per-target resources (uniforms, obstacle buffer, MSAA target,
/// trail layer).
pub struct Renderer {
    device: wgpu::Device,
    format: wgpu::TextureFormat,
    samples: u32,
    bgl: wgpu::BindGroupLayout,
    layer_bgl: wgpu::BindGroupLayout,
    /// Group 0 only.
    layout: wgpu::PipelineLayout,
    /// Group 0 and a layer at group 1.
    layer_layout: wgpu::PipelineLayout,
    module: wgpu::ShaderModule,
    world: wgpu::RenderPipeline,
    boids: wgpu::RenderPipeline,
    /// Density dots.
    dots: wgpu::RenderPipeline,
    edge: wgpu::RenderPipeline,
    obstacles: wgpu::RenderPipeline,
    predators: wgpu::RenderPipeline,
    /// The trails' pipelines, made when trails are first drawn.
    trail_pipelines: Option<TrailPipelines>,
    trail_clock: TrailClock,
    uniforms: wgpu::Buffer,
    obstacle_buffer: wgpu::Buffer,
    obstacle_count: u32,
    /// The predators drawn: a backend's predator buffer (or a mirror), and how many.
    predator_buffer: StorageRange,
    predator_count: u32,
    /// The spearhead's corners and outsets (per-vertex buffer of the instanced draw).
    corners: wgpu::Buffer,
    /// The spearhead's two triangles.
    indices: wgpu::Buffer,
    /// (state buffers, obstacle buffer, predator buffer, bind group): rebuilt when any buffer
    /// changes.
    bind: Option<(StateBuffers, wgpu::Buffer, StorageRange, wgpu::BindGroup)>,
    /// Multisampled colour target of the current size, when `samples > 1`.
    msaa: Option<(u32, u32, wgpu::TextureView)>,
    /// The trail layer of the current size, made when trails are first drawn.
    trail_layer: Option<((u32, u32), Layer)>,
    /// The compute rasteriser of boids drawn small.
    splat: Splat,
}

/// What drawing trails needs: the fade, and the boids (spearheads or dots) into the trail layer,
/// and the layer composited into the target.
struct TrailPipelines {
    fade: wgpu::RenderPipeline,
    boids: wgpu::RenderPipeline,
    dots: wgpu::RenderPipeline,
    composite: wgpu::RenderPipeline,
}

/// Keeps the blend constant's share of the target (the trails' fade).
const FADE: wgpu::BlendState = wgpu::BlendState {
    color: wgpu::BlendComponent {
        src_factor: wgpu::BlendFactor::Zero,
        dst_factor: wgpu::BlendFactor::Constant,
        operation: wgpu::BlendOperation::Add,
    },
    alpha: wgpu::BlendComponent {
        src_factor: wgpu::BlendFactor::Zero,
        dst_factor: wgpu::BlendFactor::Constant,
        operation: wgpu::BlendOperation::Add,
    },
};

/// One render pipeline of the render shader.
struct PipelineSpec<'a> {
    /// Label; the fragment entry point is `fs_{name}`.
    name: &'a str,
    vertex_entry: &'a str,
    buffers: &'a [Option<wgpu::VertexBufferLayout<'a>>],
    format: wgpu::TextureFormat,
    samples: u32,
    topology: wgpu::PrimitiveTopology,
    blend: wgpu::BlendState,
}

fn pipeline(
    device: &wgpu::Device,
    layout: &wgpu::PipelineLayout,
    module: &wgpu::ShaderModule,
    p: PipelineSpec<'_>,
) -> wgpu::RenderPipeline {
    device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some(p.name),
        layout: Some(layout),
        vertex: wgpu::VertexState {
            module,
            entry_point: Some(p.vertex_entry),
            compilation_options: Default::default(),
            buffers: p.buffers,
        },
        primitive: wgpu::PrimitiveState {
            topology: p.topology,
            cull_mode: None,
            ..Default::default()
        },
        depth_stencil: None,
        multisample: wgpu::MultisampleState {
            count: p.samples,
            ..Default::default()
        },
        fragment: Some(wgpu::FragmentState {
            module,
            entry_point: Some(&format!("fs_{}", p.name)),
            compilation_options: Default::default(),
            targets: &[Some(wgpu::ColorTargetState {
                format: p.format,
                blend: Some(p.blend),
                write_mask: wgpu::ColorWrites::ALL,
            })],
        }),
        multiview_mask: None,
        cache: None,
    })
}

/// A premultiplied-alpha pipeline drawing `vertex_entry` (no vertex buffers) as a strip.
fn strip<'a>(
    name: &'a str,
    vertex_entry: &'a str,
    format: wgpu::TextureFormat,
    samples: u32,
) -> PipelineSpec<'a> {
    PipelineSpec {
        name,
        vertex_entry,
        buffers: &[],
        format,
        samples,
        topology: STRIP,
        blend: wgpu::BlendState::PREMULTIPLIED_ALPHA_BLENDING,
    }
}

/// The instanced spearheads for a target of `format` with `samples` samples.
fn spearheads(format: wgpu::TextureFormat, samples: u32) -> PipelineSpec<'static> {
    PipelineSpec {
        name: "boid",
        vertex_entry: "vs_boid",
        buffers: &[Some(CORNER_LAYOUT)],
        format,
        samples,
        topology: LIST,
        blend: wgpu::BlendState::PREMULTIPLIED_ALPHA_BLENDING,
    }
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

/// Each corner (boid lengths) and its outset (px): [`mesh::vertices`].
const CORNER_LAYOUT: wgpu::VertexBufferLayout<'static> = wgpu::VertexBufferLayout {
    array_stride: 16,
    step_mode: wgpu::VertexStepMode::Vertex,
    attributes: &wgpu::vertex_attr_array![0 => Float32x2, 1 => Float32x2],
};

impl Renderer {
    /// Compiles the render pipelines for targets of `format` with `samples` samples per pixel (1, or
    /// a count from [`supported_samples`]; the renderer resolves into the single-sample target).
    pub fn new(device: &wgpu::Device, format: wgpu::TextureFormat, samples: u32) -> Self {
        use wgpu::util::DeviceExt;
        let module = shaders::module(device, "render", &shaders::RENDER.text());
        let entry = |binding, ty| wgpu::BindGroupLayoutEntry {
            binding,
            visibility: wgpu::ShaderStages::VERTEX
                | wgpu::ShaderStages::FRAGMENT
                | wgpu::ShaderStages::COMPUTE,
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
                entry(5, read),
            ],
        });
        let layer_bgl = layer_layout(device);
        let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("render"),
            bind_group_layouts: &[Some(&bgl)],
            immediate_size: 0,
        });
        let with_layer = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("render with a layer"),
            bind_group_layouts: &[Some(&bgl), Some(&layer_bgl)],
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
            contents: bytemuck::cast_slice(&mesh::vertices()),
            usage: wgpu::BufferUsages::VERTEX,
        });
        let indices = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("spearhead triangles"),
            contents: bytemuck::cast_slice(&mesh::INDICES),
            usage: wgpu::BufferUsages::INDEX,
        });
        let make = |layout, spec| pipeline(device, layout, &module, spec);
        let splat = Splat::new(device, &bgl, format, samples);
        Renderer {
            splat,
            world: make(&layout, strip("world", "vs_world", format, samples)),
            boids: make(&layout, spearheads(format, samples)),
            dots: make(&layout, strip("dot", "vs_dot", format, samples)),
            edge: make(&layout, strip("edge", "vs_edge", format, samples)),
            obstacles: make(&layout, strip("obstacle", "vs_obstacle", format, samples)),
            predators: make(&layout, strip("predator", "vs_predator", format, samples)),
            trail_pipelines: None,
            trail_clock: TrailClock::default(),
            corners,
            indices,
            obstacle_buffer: obstacle_buffer(device, 64),
            obstacle_count: 0,
            predator_buffer: StorageRange::whole(device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("render no predators"),
                size: crate::stages::PREDATOR_BYTES,
                usage: wgpu::BufferUsages::STORAGE,
                mapped_at_creation: false,
            })),
            predator_count: 0,
            device: device.clone(),
            format,
            samples,
            bgl,
            layer_bgl,
            layout,
            layer_layout: with_layer,
            module,
            uniforms,
            bind: None,
            msaa: None,
            trail_layer: None,
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

    /// Adds `sim_seconds` (s) of simulated time, the steps taken since the last frame: the trails
    /// of the next frame fade by it ([`TrailClock`]). Without calls the trails do not fade.
    pub fn advance(&mut self, sim_seconds: f32) {
        self.trail_clock.advance(sim_seconds);
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
    pub fn set_predators(&mut self, predators: Option<(&StorageRange, u32)>) {
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

    fn trail_pipelines(&mut self) -> &TrailPipelines {
        if self.trail_pipelines.is_none() {
            let make = |layout, spec| pipeline(&self.device, layout, &self.module, spec);
            let p = TrailPipelines {
                fade: make(
                    &self.layout,
                    PipelineSpec {
                        blend: FADE,
                        ..strip("fade", "vs_fullscreen", LAYER_FORMAT, 1)
                    },
                ),
                boids: make(&self.layout, spearheads(LAYER_FORMAT, 1)),
                dots: make(&self.layout, strip("dot", "vs_dot", LAYER_FORMAT, 1)),
                composite: make(
                    &self.layer_layout,
                    strip("layer", "vs_fullscreen", self.format, self.samples),
                ),
            };
            self.trail_pipelines = Some(p);
        }
        self.trail_pipelines.as_ref().expect("made above")
    }

    /// The trail layer for a `w` × `h` target (made when first needed, remade at a new size, which
    /// starts the trails afresh).
    fn trail_layer(&mut self, w: u32, h: u32) -> &Layer {
        if self
            .trail_layer
            .as_ref()
            .is_none_or(|(size, _)| *size != (w, h))
        {
            let layer = Layer::new(&self.device, &self.layer_bgl, "render trail layer", w, h);
            self.trail_layer = Some(((w, h), layer));
            self.trail_clock.stop();
        }
        &self.trail_layer.as_ref().expect("made above").1
    }

    /// Whether [`Renderer::record`] draws `count` boids through the compute rasteriser at `zoom`
    /// into a `size` px target: as `style` asks ([`splat::draws`]) where its buffers fit the
    /// device's limits ([`splat::fits`]), else by the instanced draw.
    pub fn draws_compute(
        &self,
        style: &RenderStyle,
        zoom: f32,
        count: u32,
        size: (u32, u32),
    ) -> bool {
        splat::draws(style, zoom, count) && splat::fits(&self.device.limits(), size, count)
    }

    /// Records one frame into `encoder`: clears `target` (a view of a texture of this renderer's
    /// format whose size is `camera.viewport`) to the theme's background, then draws the world
    /// rectangle, the obstacles and `boid_count` boids read from `state` (the `pos_vel`, `hue` and
    /// `neighbors` state buffers, e.g. a backend's [`crate::simulation::Simulation::gpu_state`]),
    /// with their trails when the style asks for them.
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
        let mut u = ViewUniforms::new(camera, style, self.format);
        u.boid_count = boid_count;
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
                        resource: state.hue.binding(),
                    },
                    wgpu::BindGroupEntry {
                        binding: 3,
                        resource: self.obstacle_buffer.as_entire_binding(),
                    },
                    wgpu::BindGroupEntry {
                        binding: 4,
                        resource: self.predator_buffer.binding(),
                    },
                    wgpu::BindGroupEntry {
                        binding: 5,
                        resource: state.neighbors.as_entire_binding(),
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
        if self.samples > 1 && !matches!(&self.msaa, Some((mw, mh, _)) if *mw == w && *mh == h) {
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
        let dots = style.dots_at(camera.zoom);
        let splat = boid_count > 0 && self.draws_compute(style, camera.zoom, boid_count, (w, h));
        let trails = style.trails;
        if trails {
            self.trail_pipelines();
            self.trail_layer(w, h);
        } else {
            self.trail_clock.stop();
        }
        let fade = trails.then(|| {
            self.trail_clock
                .fade(camera, style.theme, style.trail_seconds)
        });
        let bg = &self.bind.as_ref().expect("bind group").3;
        if splat {
            let max = self.device.limits().max_compute_workgroups_per_dimension;
            self.splat.rasterise(encoder, bg, boid_count, (w, h), max);
        }
        let trail = match (&self.trail_layer, &self.trail_pipelines) {
            (Some((_, layer)), Some(tp)) if trails => Some((layer, tp)),
            _ => None,
        };

        // The trails: the earlier frames faded, then this frame's boids over them.
        if let Some((layer, tp)) = trail {
            let keep = fade.flatten();
            let mut pass = layer_pass(encoder, "render trails", &layer.view, keep);
            pass.set_bind_group(0, bg, &[]);
            if let Some(k) = keep.filter(|k| *k < 1.0) {
                pass.set_pipeline(&tp.fade);
                pass.set_blend_constant(wgpu::Color {
                    r: k as f64,
                    g: k as f64,
                    b: k as f64,
                    a: k as f64,
                });
                pass.draw(0..4, 0..1);
            }
            if splat {
                self.splat.resolve(&mut pass, true);
            } else if boid_count > 0 && dots {
                pass.set_pipeline(&tp.dots);
                pass.draw(0..4, 0..boid_count);
            } else if boid_count > 0 {
                pass.set_pipeline(&tp.boids);
                pass.set_vertex_buffer(0, self.corners.slice(..));
                pass.set_index_buffer(self.indices.slice(..), wgpu::IndexFormat::Uint16);
                pass.draw_indexed(0..mesh::INDICES.len() as u32, 0, 0..boid_count);
            }
        }

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
        let msaa_view = self
            .msaa
            .as_ref()
            .map(|(_, _, v)| v)
            .filter(|_| self.samples > 1);
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
        if let Some((layer, tp)) = trail {
            pass.set_pipeline(&tp.composite);
            pass.set_bind_group(1, &layer.bind, &[]);
            pass.draw(0..4, 0..1);
        } else if splat {
            self.splat.resolve(&mut pass, false);
            pass.set_bind_group(0, bg, &[]);
        } else if boid_count > 0 && dots {
            pass.set_pipeline(&self.dots);
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

/// A pass drawing into a layer: kept as it is when `keep` is given (the trails fading), else
/// cleared to nothing.
fn layer_pass<'e>(
    encoder: &'e mut wgpu::CommandEncoder,
    label: &str,
    view: &wgpu::TextureView,
    keep: Option<f32>,
) -> wgpu::RenderPass<'e> {
    encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
        label: Some(label),
        color_attachments: &[Some(wgpu::RenderPassColorAttachment {
            view,
            resolve_target: None,
            depth_slice: None,
            ops: wgpu::Operations {
                load: if keep.is_some() {
                    wgpu::LoadOp::Load
                } else {
                    wgpu::LoadOp::Clear(wgpu::Color::TRANSPARENT)
                },
                store: wgpu::StoreOp::Store,
            },
        })],
        depth_stencil_attachment: None,
        timestamp_writes: None,
        occlusion_query_set: None,
        multiview_mask: None,
    })
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
