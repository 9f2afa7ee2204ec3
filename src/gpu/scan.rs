//! The level buffers of the `scan` stage: an exclusive prefix sum of a u32 buffer of any length,
//! in place, by multi-level reduce-then-scan. Level 0 is the data; level k+1 holds the block sums
//! of level k (blocks of [`SCAN_BLOCK`] elements) until one block remains.

use encase::ShaderType;

use crate::gpu::dispatch;
use crate::gpu::pipelines::StagePipelines;

/// Elements per scan block (one workgroup).
pub const SCAN_BLOCK: u32 = 2048;

/// The uniform of one scan level; mirrors `struct ScanLevel` in `shaders/scan.wgsl` (layout by
/// encase, checked against naga in `tests/it/shaders.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ShaderType, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScanLevel {
    /// Elements of this level.
    pub len: u32,
}

impl ScanLevel {
    /// The uniform's bytes (at least 16, the smallest uniform binding every backend accepts).
    pub fn to_bytes(self) -> Vec<u8> {
        let mut buf = encase::UniformBuffer::new(Vec::new());
        buf.write(&self).expect("a growable buffer");
        let mut bytes = buf.into_inner();
        bytes.resize(bytes.len().max(16), 0);
        bytes
    }
}

/// The level buffers and bind groups for scanning one buffer of a given length.
pub struct ScanLevels {
    /// Lengths of every level: level 0 is the data, level k+1 the block sums of level k.
    pub lens: Vec<u32>,
    /// Bind group of each level: (level uniform, data_k, sums_{k+1}); the top level binds a dummy.
    binds: Vec<wgpu::BindGroup>,
    _buffers: Vec<wgpu::Buffer>,
}

impl ScanLevels {
    /// The levels for scanning the first `len` u32 of `data` (len ≥ 1) with `scan`'s pipelines.
    pub fn new(
        device: &wgpu::Device,
        scan: &StagePipelines,
        data: &wgpu::Buffer,
        len: u32,
    ) -> ScanLevels {
        use wgpu::util::DeviceExt;
        let mut lens = vec![len.max(1)];
        while *lens.last().expect("non-empty") > SCAN_BLOCK {
            let l = lens.last().expect("non-empty").div_ceil(SCAN_BLOCK);
            lens.push(l);
        }
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
        let mut buffers = Vec::new();
        let mut binds = Vec::new();
        for (k, &l) in lens.iter().enumerate() {
            let uni = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some("scan level"),
                contents: &ScanLevel { len: l }.to_bytes(),
                usage: wgpu::BufferUsages::UNIFORM,
            });
            let d = if k == 0 { data } else { &sums[k - 1] };
            let s = sums.get(k).unwrap_or(&dummy);
            binds.push(scan.bind(device, &[&uni, d, s]));
            buffers.push(uni);
        }
        buffers.extend(sums);
        buffers.push(dummy);
        ScanLevels {
            lens,
            binds,
            _buffers: buffers,
        }
    }

    /// Records the whole scan: reduce up the levels, scan the top block, sweep down.
    pub fn record(&self, scan: &StagePipelines, pass: &mut wgpu::ComputePass<'_>, max_dim: u32) {
        let top = self.lens.len() - 1;
        let mut run = |entry: &str, k: usize, groups: u32| {
            pass.set_pipeline(scan.pipeline(entry));
            pass.set_bind_group(0, &self.binds[k], &[]);
            dispatch::dispatch(pass, groups, max_dim);
        };
        for k in 0..top {
            run("scan_reduce", k, self.lens[k].div_ceil(SCAN_BLOCK));
        }
        run("scan_block", top, 1);
        for k in (0..top).rev() {
            run("scan_downsweep", k, self.lens[k].div_ceil(SCAN_BLOCK));
        }
    }
}
