//! Reading a buffer back to the CPU (only on request: save state, stats, tests; never in the
//! interactive loop).

use crate::gpu::{GpuContext, GpuError};

/// Copies `size` bytes from `src` at `offset` into a fresh mappable buffer and returns them.
///
/// # Errors
/// [`GpuError::Readback`] when mapping fails, [`GpuError::Wgpu`] for a captured error.
pub fn read_bytes(
    ctx: &GpuContext,
    src: &wgpu::Buffer,
    offset: u64,
    size: u64,
) -> Result<Vec<u8>, GpuError> {
    if size == 0 {
        return Ok(Vec::new());
    }
    let staging = ctx.device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("readback"),
        size,
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let mut enc = ctx
        .device
        .create_command_encoder(&wgpu::CommandEncoderDescriptor {
            label: Some("readback"),
        });
    enc.copy_buffer_to_buffer(src, offset, &staging, 0, size);
    ctx.queue.submit([enc.finish()]);
    let slice = staging.slice(..);
    let (tx, rx) = std::sync::mpsc::channel();
    slice.map_async(wgpu::MapMode::Read, move |r| {
        let _ = tx.send(r);
    });
    ctx.wait()?;
    rx.recv()
        .map_err(|e| GpuError::Readback(e.to_string()))?
        .map_err(|e| GpuError::Readback(e.to_string()))?;
    let bytes = slice
        .get_mapped_range()
        .map_err(|e| GpuError::Readback(e.to_string()))?
        .to_vec();
    staging.unmap();
    Ok(bytes)
}

/// Reads `count` values of `T` from the start of `src`.
///
/// # Errors
/// As [`read_bytes`].
pub fn read_vec<T: bytemuck::Pod>(
    ctx: &GpuContext,
    src: &wgpu::Buffer,
    count: usize,
) -> Result<Vec<T>, GpuError> {
    let bytes = read_bytes(ctx, src, 0, (count * std::mem::size_of::<T>()) as u64)?;
    Ok(bytemuck::pod_collect_to_vec(&bytes))
}
