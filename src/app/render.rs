//! The boid renderer (SPEC §6 step 6): one instanced draw of concave spearheads whose vertex
//! shader reads the boid state storage buffer directly (4 vertices per boid, two triangles, tip
//! along the velocity), obstacle discs, and the world rectangle. Used unchanged by the window, by
//! `boids snapshot` and by benchmark captures, through [`Renderer::record`] and [`Offscreen`].
//!
//! Sizes: the boid length is in wu with a minimum on-screen length in px, so a zoomed-out flock
//! stays visible. Colour: a two-colour pastel gradient (tip → tail) from the hue vector angle,
//! computed in OKLCh so every hue has the same lightness; the theme picks lighter pastels on a
//! dark background and deeper ones on a light background.

use bytemuck::{Pod, Zeroable};

use crate::app::camera::Camera;
pub use crate::app::offscreen::{read_texture, Offscreen};
use crate::gpu::shaders;

/// Colour theme of the app and of snapshots.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, clap::ValueEnum, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Theme {
    /// Night blue background, light pastel boids.
    #[default]
    Dark,
    /// Paper white background, deeper pastel boids.
    Light,
}

impl Theme {
    /// Lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            Theme::Dark => "dark",
            Theme::Light => "light",
        }
    }
    /// Background outside the world rectangle (sRGB, 0..1).
    pub fn outside_color(self) -> [f32; 3] {
        match self {
            Theme::Dark => [0.027, 0.031, 0.051],
            Theme::Light => [0.86, 0.855, 0.835],
        }
    }
    /// Background inside the world rectangle (sRGB, 0..1).
    pub fn world_color(self) -> [f32; 3] {
        match self {
            Theme::Dark => [0.055, 0.063, 0.098],
            Theme::Light => [0.965, 0.957, 0.937],
        }
    }
    /// Obstacle colour (sRGB, 0..1).
    pub fn obstacle_color(self) -> [f32; 3] {
        match self {
            Theme::Dark => [0.62, 0.64, 0.70],
            Theme::Light => [0.33, 0.34, 0.38],
        }
    }
    /// (tip lightness, tail lightness, chroma) in OKLCh.
    fn palette(self) -> (f32, f32, f32) {
        match self {
            Theme::Dark => (0.90, 0.74, 0.115),
            Theme::Light => (0.76, 0.62, 0.14),
        }
    }
}

/// How boids and obstacles look.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RenderStyle {
    /// Theme (backgrounds and palette).
    pub theme: Theme,
    /// Boid length tip to tail (wu).
    pub boid_length: f32,
    /// Smallest on-screen boid length (physical px; multiply by the scale factor for HiDPI).
    pub min_length_px: f32,
    /// Boid opacity, 0..1.
    pub alpha: f32,
    /// Hue offset of the tail colour from the tip colour (degrees).
    pub tail_hue_shift_deg: f32,
    /// Obstacle disc radius (wu).
    pub obstacle_radius: f32,
    /// Smallest on-screen obstacle radius (physical px).
    pub obstacle_min_px: f32,
}

impl Default for RenderStyle {
    fn default() -> Self {
        RenderStyle {
            theme: Theme::Dark,
            boid_length: 8.0,
            min_length_px: 6.0,
            alpha: 0.92,
            tail_hue_shift_deg: 42.0,
            obstacle_radius: 3.0,
            obstacle_min_px: 2.0,
        }
    }
}

/// The default boid length for a parameter set (wu): the separation radius, so neighbours at the
/// separation distance just touch, whatever the scale of the scene (8 wu for the defaults, 2 wu in
/// seed 002's 100 wu box); 0.4 × the perception radius when separation is off.
pub fn boid_length_for(params: &crate::model::SimParams) -> f32 {
    if params.separation_radius > 0.0 {
        params.separation_radius
    } else {
        0.4 * params.perception_radius
    }
}

/// The uniform block of the render shaders; mirrors `struct View` in `shaders/render.wgsl`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Pod, Zeroable)]
pub struct ViewUniforms {
    /// World background, in the target's encoding.
    pub world_color: [f32; 4],
    /// Obstacle colour, in the target's encoding.
    pub obstacle_color: [f32; 4],
    /// World point at the viewport centre (wu).
    pub center: [f32; 2],
    /// Clip units per wu.
    pub scale: [f32; 2],
    /// Clip units per px.
    pub px_to_clip: [f32; 2],
    /// World size (wu).
    pub world: [f32; 2],
    /// Boid length (wu).
    pub boid_length: f32,
    /// Smallest boid length (px).
    pub min_length_px: f32,
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
    /// 1 for an sRGB target.
    pub srgb_target: u32,
    /// Padding.
    pub pad: u32,
}

/// sRGB-encoded component to linear.
pub fn srgb_to_linear(c: f32) -> f32 {
    if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

fn encode(rgb: [f32; 3], srgb_target: bool) -> [f32; 4] {
    let f = |c: f32| if srgb_target { srgb_to_linear(c) } else { c };
    [f(rgb[0]), f(rgb[1]), f(rgb[2]), 1.0]
}

impl ViewUniforms {
    /// The block for `camera` and `style` on a target of format `format`.
    pub fn new(camera: &Camera, style: &RenderStyle, format: wgpu::TextureFormat) -> Self {
        let srgb = format.is_srgb();
        let (tip, tail, chroma) = style.theme.palette();
        let vp = camera.viewport.max(glam::Vec2::ONE);
        ViewUniforms {
            world_color: encode(style.theme.world_color(), srgb),
            obstacle_color: encode(style.theme.obstacle_color(), srgb),
            center: camera.center.into(),
            scale: [2.0 * camera.zoom / vp.x, -2.0 * camera.zoom / vp.y],
            px_to_clip: [2.0 / vp.x, -2.0 / vp.y],
            world: camera.world.into(),
            boid_length: style.boid_length,
            min_length_px: style.min_length_px,
            zoom: camera.zoom,
            alpha: style.alpha.clamp(0.0, 1.0),
            tip_lightness: tip,
            tail_lightness: tail,
            chroma,
            tail_hue_shift: style.tail_hue_shift_deg.to_radians(),
            obstacle_radius: style.obstacle_radius,
            obstacle_min_px: style.obstacle_min_px,
            srgb_target: srgb as u32,
            pad: 0,
        }
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
    obstacles: wgpu::RenderPipeline,
    uniforms: wgpu::Buffer,
    obstacle_buffer: wgpu::Buffer,
    obstacle_count: u32,
    /// Two triangles (6 indices) over the 4 vertices of each boid.
    indices: wgpu::Buffer,
    /// Boids `indices` covers.
    index_capacity: u32,
    /// (state buffer, obstacle buffer, bind group): rebuilt when either buffer changes.
    bind: Option<(wgpu::Buffer, wgpu::Buffer, wgpu::BindGroup)>,
    /// Multisampled colour target of the current size, when `samples > 1`.
    msaa: Option<(u32, u32, wgpu::TextureView)>,
}

fn pipeline(
    device: &wgpu::Device,
    layout: &wgpu::PipelineLayout,
    module: &wgpu::ShaderModule,
    name: &str,
    format: wgpu::TextureFormat,
    samples: u32,
    topology: wgpu::PrimitiveTopology,
) -> wgpu::RenderPipeline {
    device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some(name),
        layout: Some(layout),
        vertex: wgpu::VertexState {
            module,
            entry_point: Some(&format!("vs_{name}")),
            compilation_options: Default::default(),
            buffers: &[],
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
                blend: Some(wgpu::BlendState::PREMULTIPLIED_ALPHA_BLENDING),
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

impl Renderer {
    /// Compiles the render pipelines for targets of `format` with `samples` samples per pixel (1, or
    /// a count from [`supported_samples`]; the renderer resolves into the single-sample target).
    pub fn new(device: &wgpu::Device, format: wgpu::TextureFormat, samples: u32) -> Self {
        let module = shaders::module(device, "render", shaders::RENDER);
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
            size: std::mem::size_of::<ViewUniforms>() as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        Renderer {
            world: pipeline(device, &layout, &module, "world", format, samples, STRIP),
            boids: pipeline(device, &layout, &module, "boid", format, samples, LIST),
            obstacles: pipeline(device, &layout, &module, "obstacle", format, samples, STRIP),
            indices: boid_indices(device, 1024),
            index_capacity: 1024,
            obstacle_buffer: obstacle_buffer(device, 64),
            obstacle_count: 0,
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

    /// Replaces the obstacle points drawn (wu). Uploads only here, not per frame.
    pub fn set_obstacles(&mut self, queue: &wgpu::Queue, points: &[[f32; 2]]) {
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

    /// Records one frame into `encoder`: clears `target` (a view of a texture of this renderer's
    /// format whose size is `camera.viewport`) to the theme's background, then draws the world
    /// rectangle, the obstacles and `boid_count` boids read from `state` (an array of
    /// [`crate::model::Boid`], e.g. [`crate::gpu::GpuBackend::buffers`]`().state`).
    #[allow(clippy::too_many_arguments)]
    pub fn record(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        target: &wgpu::TextureView,
        queue: &wgpu::Queue,
        state: &wgpu::Buffer,
        boid_count: u32,
        camera: &Camera,
        style: &RenderStyle,
    ) {
        let boid_count = boid_count.min(u32::MAX / 6);
        if boid_count > self.index_capacity {
            self.index_capacity = boid_count.next_power_of_two().min(u32::MAX / 6);
            self.indices = boid_indices(&self.device, self.index_capacity);
        }
        let u = ViewUniforms::new(camera, style, self.format);
        queue.write_buffer(&self.uniforms, 0, bytemuck::bytes_of(&u));
        let stale = match &self.bind {
            Some((s, o, _)) => s != state || o != &self.obstacle_buffer,
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
                        resource: state.as_entire_binding(),
                    },
                    wgpu::BindGroupEntry {
                        binding: 2,
                        resource: self.obstacle_buffer.as_entire_binding(),
                    },
                ],
            });
            self.bind = Some((state.clone(), self.obstacle_buffer.clone(), bg));
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
        let bg = self.bind.as_ref().map(|(_, _, b)| b).expect("bind group");
        let outside = encode(style.theme.outside_color(), self.format.is_srgb());
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
                        r: outside[0] as f64,
                        g: outside[1] as f64,
                        b: outside[2] as f64,
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
        pass.set_pipeline(&self.world);
        pass.draw(0..4, 0..1);
        if self.obstacle_count > 0 {
            pass.set_pipeline(&self.obstacles);
            pass.draw(0..4, 0..self.obstacle_count);
        }
        if boid_count > 0 {
            pass.set_pipeline(&self.boids);
            pass.set_index_buffer(self.indices.slice(..), wgpu::IndexFormat::Uint32);
            pass.draw_indexed(0..6 * boid_count, 0, 0..1);
        }
    }
}

const STRIP: wgpu::PrimitiveTopology = wgpu::PrimitiveTopology::TriangleStrip;
const LIST: wgpu::PrimitiveTopology = wgpu::PrimitiveTopology::TriangleList;

/// Indices 4i + [0, 1, 2, 1, 2, 3] for boids i < `boids`: corners (left wing, tip, notch) and
/// (tip, notch, right wing).
fn boid_indices(device: &wgpu::Device, boids: u32) -> wgpu::Buffer {
    let data: Vec<u32> = (0..boids)
        .flat_map(|i| [0, 1, 2, 1, 2, 3].map(|k| 4 * i + k))
        .collect();
    wgpu::util::DeviceExt::create_buffer_init(
        device,
        &wgpu::util::BufferInitDescriptor {
            label: Some("boid indices"),
            contents: bytemuck::cast_slice(&data),
            usage: wgpu::BufferUsages::INDEX,
        },
    )
}

fn obstacle_buffer(device: &wgpu::Device, points: u64) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("render obstacles"),
        size: points.max(1) * 8,
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    })
}
