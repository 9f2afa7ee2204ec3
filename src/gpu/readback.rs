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
    // In a browser tab the mapping completes only once the page's task returns: a read that
    // must wait is refused there, with what it was for said by the caller.
    #[cfg(target_arch = "wasm32")]
    let got = rx.try_recv().map_err(|_| {
        GpuError::Readback(
            "a browser tab cannot wait for the GPU to read a buffer back (the native app can)"
                .to_string(),
        )
    })?;
    #[cfg(not(target_arch = "wasm32"))]
    let got = rx.recv().map_err(|e| GpuError::Readback(e.to_string()))?;
    got.map_err(|e| GpuError::Readback(e.to_string()))?;
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

/// A read-back in flight: byte ranges copied into one mappable buffer, mapped without waiting.
/// [`PendingRead::try_take`] polls the device without blocking and returns the bytes once the GPU
/// has reached the copy — the frame loop's way to read a small result a frame or more late
/// instead of draining the queue.
pub struct PendingRead {
    staging: wgpu::Buffer,
    mapped: std::sync::Arc<std::sync::Mutex<Option<Result<(), wgpu::BufferAsyncError>>>>,
}

impl PendingRead {
    /// Records copies of `ranges` (`(buffer, offset, size)`, sizes multiples of 4 bytes) into
    /// `enc`, back to back in one staging buffer; the caller submits `enc` and then calls
    /// [`PendingRead::start`].
    pub fn record(
        ctx: &GpuContext,
        enc: &mut wgpu::CommandEncoder,
        ranges: &[(&wgpu::Buffer, u64, u64)],
    ) -> PendingRead {
        let total: u64 = ranges.iter().map(|r| r.2).sum();
        let staging = ctx.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("pending readback"),
            size: total.max(4),
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let mut at = 0;
        for (src, offset, size) in ranges {
            if *size > 0 {
                enc.copy_buffer_to_buffer(src, *offset, &staging, at, *size);
            }
            at += size;
        }
        PendingRead {
            staging,
            mapped: Default::default(),
        }
    }

    /// Asks for the mapping once the copies are submitted (does not wait).
    pub fn start(&self) {
        let mapped = self.mapped.clone();
        self.staging
            .slice(..)
            .map_async(wgpu::MapMode::Read, move |r| {
                if let Ok(mut m) = mapped.lock() {
                    *m = Some(r);
                }
            });
    }

    /// The bytes once the copies are done (`None` while in flight; never blocks).
    ///
    /// # Errors
    /// [`GpuError::Readback`] when the mapping failed, [`GpuError::Wgpu`] for a device error.
    pub fn try_take(&self, ctx: &GpuContext) -> Result<Option<Vec<u8>>, GpuError> {
        ctx.device
            .poll(wgpu::PollType::Poll)
            .map_err(|e| GpuError::Wgpu(e.to_string()))?;
        let state = self
            .mapped
            .lock()
            .map_err(|e| GpuError::Readback(e.to_string()))?
            .clone();
        match state {
            None => Ok(None),
            Some(Err(e)) => Err(GpuError::Readback(e.to_string())),
            Some(Ok(())) => {
                let bytes = self
                    .staging
                    .slice(..)
                    .get_mapped_range()
                    .map_err(|e| GpuError::Readback(e.to_string()))?
                    .to_vec();
                self.staging.unmap();
                Ok(Some(bytes))
            }
        }
    }
}
