use super::StagePipelines;
use crate::gpu::shaders::{self, Slot};

/// Elements per scan block (one workgroup).
pub const SCAN_BLOCK: u32 = 256;

/// Stage `scan` (`shaders/scan.wgsl`): exclusive prefix sum of a u32 buffer of any length, in place,
/// by multi-level reduce-then-scan. Bindings per level: level uniform {len}, data, sums.
pub struct Scan(pub StagePipelines);

/// The per-level buffers and bind groups for scanning one buffer of a given length.
pub struct ScanBuffers {
    /// Lengths of every level: level 0 is the data, level k+1 the block sums of level k.
    pub lens: Vec<u32>,
    /// Bind group of each level: (len_k, data_k, sums_{k+1}); the top level binds a dummy sums.
    binds: Vec<wgpu::BindGroup>,
    _buffers: Vec<wgpu::Buffer>,
}

impl Scan {
    /// Creates the pipelines (reduce, block, downsweep).
    pub fn new(device: &wgpu::Device) -> Self {
        Scan(StagePipelines::new(
            device,
            "scan",
            shaders::SCAN,
            &[Slot::Uniform, Slot::ReadWrite, Slot::ReadWrite],
            &["scan_reduce", "scan_block", "scan_downsweep"],
        ))
    }

    /// Builds the level buffers for scanning the first `len` u32 of `data` (len ≥ 1).
    pub fn buffers(&self, device: &wgpu::Device, data: &wgpu::Buffer, len: u32) -> ScanBuffers {
        use wgpu::util::DeviceExt;
        let mut lens = vec![len.max(1)];
        while *lens.last().unwrap() > SCAN_BLOCK {
            let l = lens.last().unwrap().div_ceil(SCAN_BLOCK);
            lens.push(l);
        }
        let mut buffers = Vec::new();
        // sums[k] holds level k+1's data.
        let sums: Vec<wgpu::Buffer> = lens[1..]
            .iter()
            .map(|&l| {
                device.create_buffer(&wgpu::BufferDescriptor {
                    label: Some("scan sums"),
                    size: (l as u64 * 4).max(16),
                    usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
                    mapped_at_creation: false,
                })
            })
            .collect();
        let dummy = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("scan dummy"),
            size: 16,
            usage: wgpu::BufferUsages::STORAGE,
            mapped_at_creation: false,
        });
        let mut binds = Vec::new();
        for (k, &l) in lens.iter().enumerate() {
            let uni = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some("scan level"),
                contents: bytemuck::cast_slice(&[l, 0, 0, 0]),
                usage: wgpu::BufferUsages::UNIFORM,
            });
            let d = if k == 0 { data } else { &sums[k - 1] };
            let s = sums.get(k).unwrap_or(&dummy);
            binds.push(self.0.bind(device, &[&uni, d, s]));
            buffers.push(uni);
        }
        buffers.extend(sums);
        buffers.push(dummy);
        ScanBuffers {
            lens,
            binds,
            _buffers: buffers,
        }
    }

    /// Records the whole scan: reduce up the levels, scan the top block, downsweep.
    pub fn record(&self, pass: &mut wgpu::ComputePass<'_>, b: &ScanBuffers, max_dim: u32) {
        let top = b.lens.len() - 1;
        let groups = |l: u32| l.div_ceil(SCAN_BLOCK) * SCAN_BLOCK;
        for k in 0..top {
            self.0.run(pass, 0, &b.binds[k], groups(b.lens[k]), max_dim);
        }
        self.0.run(pass, 1, &b.binds[top], 1, max_dim);
        for k in (0..top).rev() {
            self.0.run(pass, 2, &b.binds[k], groups(b.lens[k]), max_dim);
        }
    }
}
