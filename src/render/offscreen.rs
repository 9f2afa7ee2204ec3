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

    /// The texture (for [`TextureCopy::record`]).
    pub fn texture(&self) -> &wgpu::Texture {
        &self.texture
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

/// A texture's copy on its way back to the CPU ([`TextureCopy::record`]): the staging buffer
/// its rows are copied into, padded to the copy alignment. [`read_texture`] waits for it; a
/// caller that cannot block (a web page) maps `staging` itself and hands the bytes to
/// [`TextureCopy::image`].
pub struct TextureCopy {
    /// The buffer (`MAP_READ`) the copy writes.
    pub staging: wgpu::Buffer,
    width: u32,
    height: u32,
    padded: u32,
    bgra: bool,
}

impl TextureCopy {
    /// Records and submits the copy of a whole 8-bit RGBA or BGRA texture (with `COPY_SRC`
    /// usage) into a new staging buffer.
    ///
    /// # Errors
    /// [`GpuError::Readback`] for another format.
    pub fn record(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        texture: &wgpu::Texture,
    ) -> Result<TextureCopy, GpuError> {
        use wgpu::TextureFormat as F;
        let bgra = match texture.format() {
            F::Rgba8Unorm | F::Rgba8UnormSrgb => false,
            F::Bgra8Unorm | F::Bgra8UnormSrgb => true,
            f => return Err(GpuError::Readback(format!("cannot read back {f:?}"))),
        };
        let (width, height) = (texture.width(), texture.height());
        let padded = (width * 4).next_multiple_of(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT);
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
        Ok(TextureCopy {
            staging,
            width,
            height,
            padded,
            bgra,
        })
    }

    /// The RGBA image of the staging buffer's mapped `bytes` (rows unpadded, BGRA swapped).
    ///
    /// # Errors
    /// [`GpuError::Readback`] when `bytes` is shorter than the copy.
    pub fn image(&self, bytes: &[u8]) -> Result<image::RgbaImage, GpuError> {
        let row = (self.width * 4) as usize;
        let mut pixels = Vec::with_capacity(row * self.height as usize);
        for y in 0..self.height as usize {
            let start = y * self.padded as usize;
            let line = bytes
                .get(start..start + row)
                .ok_or_else(|| GpuError::Readback("a texture copy shorter than its rows".into()))?;
            pixels.extend_from_slice(line);
        }
        if self.bgra {
            for px in pixels.chunks_exact_mut(4) {
                px.swap(0, 2);
            }
        }
        image::RgbaImage::from_raw(self.width, self.height, pixels)
            .ok_or_else(|| GpuError::Readback("image size mismatch".into()))
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
    let copy = TextureCopy::record(device, queue, texture)?;
    let slice = copy.staging.slice(..);
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
    let img = {
        let data = slice
            .get_mapped_range()
            .map_err(|e| GpuError::Readback(e.to_string()))?;
        copy.image(&data)
    };
    copy.staging.unmap();
    img
}
