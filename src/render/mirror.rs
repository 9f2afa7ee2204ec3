//! [`StateMirror`] and [`PredatorMirror`]: GPU copies of a CPU backend's state arrays and predators, so the renderer draws every backend
//! from GPU buffers (the GPU backend's own, or these).

use crate::simulation::{StateBuffers, StateSlices, StorageRange};

/// GPU buffers holding a copy of CPU state arrays (with the neighbour counts), grown as needed (by
/// powers of two).
#[derive(Default)]
pub struct StateMirror {
    buffers: Option<StateBuffers>,
}

impl StateMirror {
    /// Uploads `state` and returns the buffers holding it.
    pub fn upload(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        state: StateSlices<'_>,
    ) -> StateBuffers {
        let n = state.pos_vel.len();
        let bytes = (n as u64 * 16).max(16);
        if self
            .buffers
            .as_ref()
            .is_none_or(|b| b.pos_vel.size() < bytes)
        {
            let make = |label, size: u64| {
                device.create_buffer(&wgpu::BufferDescriptor {
                    label: Some(label),
                    size: size.next_power_of_two(),
                    usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
                    mapped_at_creation: false,
                })
            };
            self.buffers = Some(StateBuffers {
                pos_vel: make("cpu state mirror pos_vel", bytes),
                hue: StorageRange::whole(make("cpu state mirror hue", bytes)),
                neighbors: make("cpu state mirror neighbors", bytes / 4),
            });
        }
        let b = self.buffers.clone().expect("made above");
        queue.write_buffer(&b.pos_vel, 0, bytemuck::cast_slice(state.pos_vel));
        queue.write_buffer(&b.hue.buffer, 0, bytemuck::cast_slice(state.hue));
        // Counts of boids added since the last step are 0 until it runs.
        let counts = &state.neighbors[..state.neighbors.len().min(n)];
        if counts.len() == n {
            queue.write_buffer(&b.neighbors, 0, bytemuck::cast_slice(counts));
        } else {
            let mut padded = counts.to_vec();
            padded.resize(n, 0);
            queue.write_buffer(&b.neighbors, 0, bytemuck::cast_slice(&padded));
        }
        b
    }
}

/// A GPU copy of a CPU backend's predators (entries of [`crate::model::Predator`]), grown as
/// needed (by powers of two), for [`crate::render::Renderer::set_predators`].
#[derive(Default)]
pub struct PredatorMirror {
    buffer: Option<wgpu::Buffer>,
}

impl PredatorMirror {
    /// Uploads `predators` and returns the buffer holding them.
    pub fn upload(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        predators: &[crate::model::Predator],
    ) -> StorageRange {
        let bytes = (std::mem::size_of_val(predators) as u64).max(crate::stages::PREDATOR_BYTES);
        if self.buffer.as_ref().is_none_or(|b| b.size() < bytes) {
            self.buffer = Some(device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("cpu predators mirror"),
                size: bytes.next_power_of_two(),
                usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            }));
        }
        let b = self.buffer.clone().expect("made above");
        queue.write_buffer(&b, 0, bytemuck::cast_slice(predators));
        StorageRange::whole(b)
    }
}
