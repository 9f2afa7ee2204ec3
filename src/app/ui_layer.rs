//! The UI in a layer of its own: egui's pass, its tessellation and its drawing (the panel, the
//! HUD, the tool bar, help and messages) happen only when the UI can have changed — on input, a
//! resize, a repaint egui asks for, and otherwise at most [`REDRAW_HZ`] times a second, for the
//! HUD's figures — into a texture the size of the window; every frame composites that texture
//! over the boids, one quad per run of [`TILE_PX`] px tiles the UI touches, so the frame reads
//! only the UI's pixels of it.
//!
//! Why: on a software adapter the panel's triangles and text cost more than the boids (5 000
//! boids on lavapipe, 1280 × 720: 21 ms a frame with the panel closed, 41 ms with it open when
//! egui drew into every frame; docs/performance.md, "Drawing many boids"). Compositing is exact:
//! premultiplied alpha over is associative, so the UI drawn over transparent and then over the
//! frame is the UI drawn over the frame (up to the layer's 8-bit rounding).

use std::time::Duration;
use web_time::Instant;

/// How often the UI is redrawn without input (Hz): the HUD's figures change no faster. Measured
/// at 20 000 boids on lavapipe, a redraw with the panel open took 52 ms against 25 for a frame
/// that only composites the layer; at 2 Hz the open panel cost 8 % of the frame rate, at 4 Hz 20 %.
pub const REDRAW_HZ: f64 = 2.0;

/// The side of the tiles whose runs are composited (px).
pub const TILE_PX: u32 = 32;

/// The layer: its texture, the runs of tiles the UI last drew into, and when to draw it again.
pub struct UiLayer {
    format: wgpu::TextureFormat,
    layout: wgpu::BindGroupLayout,
    pipeline: wgpu::RenderPipeline,
    /// The texture (its size, view and bind group).
    target: Option<((u32, u32), wgpu::TextureView, wgpu::BindGroup)>,
    /// One `[x0, y0, x1, y1]` (px) per run of touched tiles, and how many there are.
    rects: Option<(wgpu::Buffer, u32)>,
    rect_count: u32,
    /// When the UI must be drawn again at the latest; `None` to draw it at the next frame.
    next: Option<Instant>,
}

impl UiLayer {
    /// The layer's pipeline for a window of `format`.
    pub fn new(device: &wgpu::Device, format: wgpu::TextureFormat) -> UiLayer {
        let module =
            crate::gpu::shaders::module(device, "ui layer", &crate::gpu::shaders::UI_LAYER.text());
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("ui layer"),
            entries: &[wgpu::BindGroupLayoutEntry {
                binding: 0,
                visibility: wgpu::ShaderStages::VERTEX | wgpu::ShaderStages::FRAGMENT,
                ty: wgpu::BindingType::Texture {
                    sample_type: wgpu::TextureSampleType::Float { filterable: false },
                    view_dimension: wgpu::TextureViewDimension::D2,
                    multisampled: false,
                },
                count: None,
            }],
        });
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("ui layer"),
            bind_group_layouts: &[Some(&layout)],
            immediate_size: 0,
        });
        let pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some("ui layer"),
            layout: Some(&pipeline_layout),
            vertex: wgpu::VertexState {
                module: &module,
                entry_point: Some("vs_ui_rect"),
                compilation_options: Default::default(),
                buffers: &[Some(wgpu::VertexBufferLayout {
                    array_stride: 16,
                    step_mode: wgpu::VertexStepMode::Instance,
                    attributes: &wgpu::vertex_attr_array![0 => Float32x4],
                })],
            },
            primitive: wgpu::PrimitiveState {
                topology: wgpu::PrimitiveTopology::TriangleStrip,
                ..Default::default()
            },
            depth_stencil: None,
            multisample: wgpu::MultisampleState::default(),
            fragment: Some(wgpu::FragmentState {
                module: &module,
                entry_point: Some("fs_ui_layer"),
                compilation_options: Default::default(),
                targets: &[Some(wgpu::ColorTargetState {
                    format,
                    blend: Some(wgpu::BlendState::PREMULTIPLIED_ALPHA_BLENDING),
                    write_mask: wgpu::ColorWrites::ALL,
                })],
            }),
            multiview_mask: None,
            cache: None,
        });
        UiLayer {
            format,
            layout,
            pipeline,
            target: None,
            rects: None,
            rect_count: 0,
            next: None,
        }
    }

    /// Something the UI shows may have changed (input, a scripted action, a resize): it is drawn
    /// again at the next frame.
    pub fn invalidate(&mut self) {
        self.next = None;
    }

    /// Whether the UI is to be drawn this frame (at `now`, for a window of `size` px).
    pub fn due(&self, now: Instant, size: (u32, u32)) -> bool {
        let sized = self.target.as_ref().is_some_and(|(s, _, _)| *s == size);
        !sized || self.next.is_none_or(|t| now >= t)
    }

    /// The texture to draw the UI into, `size` px (made anew when the size changes).
    pub fn view(&mut self, device: &wgpu::Device, size: (u32, u32)) -> &wgpu::TextureView {
        if self.target.as_ref().is_none_or(|(s, _, _)| *s != size) {
            let texture = device.create_texture(&wgpu::TextureDescriptor {
                label: Some("ui layer"),
                size: wgpu::Extent3d {
                    width: size.0.max(1),
                    height: size.1.max(1),
                    depth_or_array_layers: 1,
                },
                mip_level_count: 1,
                sample_count: 1,
                dimension: wgpu::TextureDimension::D2,
                format: self.format,
                usage: wgpu::TextureUsages::RENDER_ATTACHMENT
                    | wgpu::TextureUsages::TEXTURE_BINDING,
                view_formats: &[],
            });
            let view = texture.create_view(&Default::default());
            let bind = device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some("ui layer"),
                layout: &self.layout,
                entries: &[wgpu::BindGroupEntry {
                    binding: 0,
                    resource: wgpu::BindingResource::TextureView(&view),
                }],
            });
            self.target = Some((size, view, bind));
        }
        &self.target.as_ref().expect("made above").1
    }

    /// The UI was drawn into [`UiLayer::view`] at `now` from `jobs` (at `pixels_per_point`);
    /// egui wants it again after `repaint` at the latest.
    pub fn drawn(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        jobs: &[egui::ClippedPrimitive],
        pixels_per_point: f32,
        now: Instant,
        repaint: Duration,
    ) {
        let Some(((w, h), _, _)) = &self.target else {
            return;
        };
        let rects = tile_runs(jobs, pixels_per_point, (*w, *h));
        let bytes: Vec<u8> = rects
            .iter()
            .flat_map(|r| r.iter().flat_map(|v| v.to_le_bytes()))
            .collect();
        let fits = self
            .rects
            .as_ref()
            .is_some_and(|(b, _)| b.size() >= bytes.len() as u64);
        if !fits && !bytes.is_empty() {
            let capacity = (bytes.len() as u64).next_power_of_two();
            let buffer = device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("ui layer rects"),
                size: capacity,
                usage: wgpu::BufferUsages::VERTEX | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            });
            self.rects = Some((buffer, 0));
        }
        if let Some((buffer, _)) = &self.rects {
            if !bytes.is_empty() {
                queue.write_buffer(buffer, 0, &bytes);
            }
        }
        self.rect_count = rects.len() as u32;
        let interval = Duration::from_secs_f64(1.0 / REDRAW_HZ);
        self.next = Some(now + interval.min(repaint));
    }

    /// Draws the layer's touched tiles over what `pass` holds.
    pub fn composite(&self, pass: &mut wgpu::RenderPass<'_>) {
        let (Some((_, _, bind)), Some((buffer, _))) = (&self.target, &self.rects) else {
            return;
        };
        if self.rect_count == 0 {
            return;
        }
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(0, bind, &[]);
        pass.set_vertex_buffer(0, buffer.slice(..));
        pass.draw(0..4, 0..self.rect_count);
    }
}

/// The disjoint runs of [`TILE_PX`] px tiles (row by row, `[x0, y0, x1, y1]` in px, clamped to
/// `size`) that `jobs`' meshes touch: each mesh's bounds within its clip rectangle, a pixel wider
/// for its anti-aliased edge. Disjoint, so that no pixel is composited twice.
pub fn tile_runs(
    jobs: &[egui::ClippedPrimitive],
    pixels_per_point: f32,
    (w, h): (u32, u32),
) -> Vec<[f32; 4]> {
    let (tx, ty) = (w.div_ceil(TILE_PX) as usize, h.div_ceil(TILE_PX) as usize);
    let mut touched = vec![false; tx * ty];
    for job in jobs {
        let bounds = match &job.primitive {
            egui::epaint::Primitive::Mesh(mesh) => {
                let mut r = egui::Rect::NOTHING;
                for v in &mesh.vertices {
                    r.extend_with(v.pos);
                }
                r
            }
            egui::epaint::Primitive::Callback(cb) => cb.rect,
        };
        let r = bounds.intersect(job.clip_rect);
        if !r.is_positive() {
            continue;
        }
        let px = |v: f32| v * pixels_per_point;
        let tile = |v: f32, n: usize| ((v.max(0.0) as u32 / TILE_PX) as usize).min(n);
        let (x0, x1) = (tile(px(r.min.x) - 1.0, tx), tile(px(r.max.x) + 1.0, tx - 1));
        let (y0, y1) = (tile(px(r.min.y) - 1.0, ty), tile(px(r.max.y) + 1.0, ty - 1));
        for y in y0..=y1.min(ty - 1) {
            for x in x0..=x1.min(tx - 1) {
                touched[y * tx + x] = true;
            }
        }
    }
    let mut runs = Vec::new();
    for y in 0..ty {
        let mut x = 0;
        while x < tx {
            if !touched[y * tx + x] {
                x += 1;
                continue;
            }
            let start = x;
            while x < tx && touched[y * tx + x] {
                x += 1;
            }
            let t = TILE_PX as f32;
            runs.push([
                start as f32 * t,
                y as f32 * t,
                (x as f32 * t).min(w as f32),
                ((y + 1) as f32 * t).min(h as f32),
            ]);
        }
    }
    runs
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mesh(min: [f32; 2], max: [f32; 2], clip: egui::Rect) -> egui::ClippedPrimitive {
        let mut m = egui::Mesh::default();
        m.add_colored_rect(
            egui::Rect::from_min_max(min.into(), max.into()),
            egui::Color32::WHITE,
        );
        egui::ClippedPrimitive {
            clip_rect: clip,
            primitive: egui::epaint::Primitive::Mesh(m),
        }
    }

    /// The runs cover every pixel a mesh touches, overlap nowhere, and leave untouched rows out.
    #[test]
    fn tile_runs_cover_what_the_ui_draws_once() {
        let all = egui::Rect::EVERYTHING;
        let jobs = [
            mesh([10.0, 10.0], [100.0, 40.0], all),
            mesh([50.0, 20.0], [70.0, 90.0], all),
            // Clipped away entirely.
            mesh(
                [200.0, 200.0],
                [220.0, 220.0],
                egui::Rect::from_min_max([0.0, 0.0].into(), [5.0, 5.0].into()),
            ),
        ];
        let size = (320, 240);
        let runs = tile_runs(&jobs, 2.0, size);
        let mut cover = vec![0u32; 320 * 240];
        for r in &runs {
            for y in r[1] as usize..r[3] as usize {
                for x in r[0] as usize..r[2] as usize {
                    cover[y * 320 + x] += 1;
                }
            }
        }
        assert!(cover.iter().all(|&c| c <= 1), "a pixel composited twice");
        // At 2 px per point the first mesh spans px 20..200 × 20..80, the second 100..140 × 40..180.
        for (x, y) in [(20, 20), (199, 79), (100, 179), (139, 40)] {
            assert_eq!(cover[y * 320 + x], 1, "pixel ({x}, {y}) not composited");
        }
        assert_eq!(cover[230 * 320 + 300], 0, "the clipped mesh is composited");
        assert!(runs.iter().all(|r| r[3] <= 192.0 + 1e-3), "{runs:?}");
    }
}
