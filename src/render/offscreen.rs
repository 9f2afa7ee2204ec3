//! Offscreen rendering targets and texture readback: [`Offscreen`] is what `boids snapshot`,
//! scripted captures and render benchmarks draw into with the same [`crate::render::Renderer`]
//! as the window; [`read_texture`] also serves window screenshots.

use crate::gpu::GpuError;

/// An offscreen colour target of [`Offscreen::FORMAT`] that can be read back as an image: the
/// target of `boids snapshot`, of frame captures and of render benchmarks.
pub struct Offscreen {
    texture: wgpu::Texture,
    view: wgpu::TextureView,
    width: u32,
    height: u32,
}

impl Offscreen {
    /// The format (8-bit RGBA holding sRGB-encoded values, like a PNG).
    pub const FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8Unorm;

    /// A `width` × `height` px target (each side at least 1).
    pub fn new(device: &wgpu::Device, width: u32, height: u32) -> Self {
        let (width, height) = (width.max(1), height.max(1));
        let texture = device.create_texture(&wgpu::TextureDescriptor {
            label: Some("offscreen"),
            size: wgpu::Extent3d {
                width,
                height,
                depth_or_array_layers: 1,
            },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: Self::FORMAT,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
            view_formats: &[],
        });
        let view = texture.create_view(&Default::default());
        Offscreen {
            texture,
            view,
            width,
            height,
        }
    }

    /// The view to render into.
    pub fn view(&self) -> &wgpu::TextureView {
        &self.view
    }

    /// Width (px).
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Height (px).
    pub fn height(&self) -> u32 {
        self.height
    }

    /// The size as a camera viewport (px).
    pub fn viewport(&self) -> glam::Vec2 {
        glam::Vec2::new(self.width as f32, self.height as f32)
    }

    /// Copies the target back (waits for the GPU) as an RGBA image.
    ///
    /// # Errors
    /// [`GpuError::Readback`] when mapping fails, [`GpuError::Wgpu`] on a device error.
    pub fn read(
        &self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
    ) -> Result<image::RgbaImage, GpuError> {
        read_texture(device, queue, &self.texture)
    }
}

/// Copies a whole 8-bit RGBA or BGRA texture (with `COPY_SRC` usage) back as an RGBA image
/// (waits for the GPU). Used for offscreen targets and for window screenshots.
///
/// # Errors
/// [`GpuError::Readback`] for another format or a failed mapping, [`GpuError::Wgpu`] on a device
/// error.
pub fn read_texture(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    texture: &wgpu::Texture,
) -> Result<image::RgbaImage, GpuError> {
    use wgpu::TextureFormat as F;
    let bgra = match texture.format() {
        F::Rgba8Unorm | F::Rgba8UnormSrgb => false,
        F::Bgra8Unorm | F::Bgra8UnormSrgb => true,
        f => return Err(GpuError::Readback(format!("cannot read back {f:?}"))),
    };
    let (width, height) = (texture.width(), texture.height());
    let row = width * 4;
    let padded = row.next_multiple_of(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT);
    let staging = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("texture readback"),
        size: padded as u64 * height as u64,
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let mut enc = device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
        label: Some("texture readback"),
    });
    enc.copy_texture_to_buffer(
        texture.as_image_copy(),
        wgpu::TexelCopyBufferInfo {
            buffer: &staging,
            layout: wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(padded),
                rows_per_image: Some(height),
            },
        },
        texture.size(),
    );
    queue.submit([enc.finish()]);
    let slice = staging.slice(..);
    let (tx, rx) = std::sync::mpsc::channel();
    slice.map_async(wgpu::MapMode::Read, move |r| {
        let _ = tx.send(r);
    });
    device
        .poll(wgpu::PollType::wait_indefinitely())
        .map_err(|e| GpuError::Wgpu(e.to_string()))?;
    rx.recv()
        .map_err(|e| GpuError::Readback(e.to_string()))?
        .map_err(|e| GpuError::Readback(e.to_string()))?;
    let mut pixels = Vec::with_capacity((row * height) as usize);
    {
        let data = slice
            .get_mapped_range()
            .map_err(|e| GpuError::Readback(e.to_string()))?;
        for y in 0..height as usize {
            let start = y * padded as usize;
            pixels.extend_from_slice(&data[start..start + row as usize]);
        }
    }
    staging.unmap();
    if bgra {
        for px in pixels.chunks_exact_mut(4) {
            px.swap(0, 2);
        }
    }
    image::RgbaImage::from_raw(width, height, pixels)
        .ok_or_else(|| GpuError::Readback("image size mismatch".into()))
}
