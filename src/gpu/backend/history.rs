//! The measures of many steps kept on the GPU and read back together
//! ([`crate::simulation::Simulation::run_measured`] for a lone run,
//! [`GpuBackend::run_measured_replicas`] for an ensemble): after each step its rows of measure
//! sums and their catch counters are copied into a history buffer, read back once per batch of
//! steps — one wait per batch, not per step.

use crate::gpu::readback::read_bytes;
use crate::simulation::SimError;
use crate::stages::{When, MEASURES_ROW_BYTES};

use super::{ms_since, GpuBackend};

/// Rows of measures (a row of sums and its catch counters each) kept on the GPU before they are
/// read back together.
const HISTORY_ROWS: u32 = 1024;

/// Steps of measures read back from the history: rows of sums and their catch counters
/// `[this step, since the run began]`, step after step (one per replica each step).
pub(super) struct HistoryBatch<'a> {
    /// Rows of sums (`MEASURES_ROW_BYTES` each, columns as in `shaders/measures.wgsl`).
    pub rows: &'a [&'a [f32]],
    /// Their catch counters, one pair a row.
    pub catches: &'a [[u32; 2]],
}

impl GpuBackend {
    /// Runs `steps` steps, each followed by the measure passes with the first `rows` rows of
    /// `result` (one per replica) and their catch counters copied into the history; no wait
    /// between steps. Each batch of steps read back is handed to `take` as its rows of sums and
    /// their catch counters `[this step, since the run began]`, step after step (`rows` per
    /// step): as many steps a batch as [`HISTORY_ROWS`] rows hold, at least 256.
    pub(super) fn run_with_history(
        &mut self,
        steps: u32,
        rows: u32,
        on_step: &mut dyn FnMut(),
        take: &mut dyn FnMut(&Self, HistoryBatch<'_>),
    ) -> Result<(), SimError> {
        // A step's block: its rows of sums, then their catch counters (8 bytes a row).
        let sums_bytes = rows as u64 * MEASURES_ROW_BYTES;
        let block = sums_bytes + rows as u64 * 8;
        let per_batch = (HISTORY_ROWS / rows).max(if rows > 1 { 256 } else { 1 });
        let size = (per_batch as u64 * block).max(HISTORY_ROWS as u64 * (MEASURES_ROW_BYTES + 8));
        if self.history.as_ref().is_none_or(|h| h.size() < size) {
            // Made on first use, grown once for an ensemble (1.2 MiB at 64 replicas).
            self.history = Some(self.ctx.device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("measures history"),
                size,
                usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::COPY_SRC,
                mapped_at_creation: false,
            }));
        }
        let history = self.history.clone().expect("made above");
        let floats = (MEASURES_ROW_BYTES / 4) as usize;
        let mut left = steps;
        while left > 0 {
            let batch = left.min(per_batch);
            // Each step with its measures in one submission (the uniforms of a step are written
            // before it), the result rows and catch counters copied into the history; no wait
            // in between.
            let t = web_time::Instant::now();
            for k in 0..batch as u64 {
                self.write_uniforms();
                let mut enc =
                    self.ctx
                        .device
                        .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                            label: Some("step and measures"),
                        });
                self.record_step(&mut enc);
                self.record_scoped(&mut enc, "on request", When::OnRequest);
                enc.copy_buffer_to_buffer(
                    self.buffers.get("result"),
                    0,
                    &history,
                    k * block,
                    sums_bytes,
                );
                let (catches, at) = self.buffers.region("catches", block - sums_bytes);
                enc.copy_buffer_to_buffer(
                    catches,
                    at,
                    &history,
                    k * block + sums_bytes,
                    block - sums_bytes,
                );
                self.submit(enc);
                self.collect_timings();
                self.step = self.step.wrapping_add(1);
                self.neighbors_counted = self.store_neighbor_counts;
                on_step();
            }
            self.costs.steps_ms += ms_since(t);
            self.ctx.take_error()?;
            let t = web_time::Instant::now();
            let bytes = read_bytes(&self.ctx, &history, 0, batch as u64 * block)?;
            self.costs.readback_ms += ms_since(t);
            self.collect_timings();
            let mut sums: Vec<f32> = Vec::with_capacity((batch * rows) as usize * floats);
            let mut catches: Vec<[u32; 2]> = Vec::with_capacity((batch * rows) as usize);
            for step in bytes.chunks_exact(block as usize) {
                let (s, c) = step.split_at(sums_bytes as usize);
                sums.extend(
                    s.chunks_exact(4)
                        .map(|b| f32::from_le_bytes(b.try_into().expect("4"))),
                );
                catches.extend(c.chunks_exact(8).map(|b| {
                    let w = |k: usize| u32::from_le_bytes(b[k..k + 4].try_into().expect("4"));
                    [w(0), w(4)]
                }));
            }
            let rows: Vec<&[f32]> = sums.chunks_exact(floats).collect();
            take(
                self,
                HistoryBatch {
                    rows: &rows,
                    catches: &catches,
                },
            );
            left -= batch;
        }
        Ok(())
    }
}
