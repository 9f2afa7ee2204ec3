//! Where a GPU run's wall time goes ([`Costs`]): the adapter, the pipelines, the buffers, the
//! state's upload, the steps and the read-backs. A sweep writes them per run into `summary.json`
//! and `boids bench` per run into its summary, so a slow point says which term is slow.

use serde::{Deserialize, Serialize};

/// Wall times (ms) of one GPU run's parts, and the pipelines it compiled and reused.
///
/// Each is measured on the CPU around the call that does it, so on a GPU that runs ahead of the
/// CPU the work of the steps lands where the CPU waits for it: `steps_ms` is recording and
/// submitting the steps, `readback_ms` waiting for the measures to come back (the GPU finishing
/// the steps submitted before them included).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Costs {
    /// Making the adapter, device and queue (the first GPU run of a process only).
    pub adapter_ms: f64,
    /// Compiling shader modules and compute pipelines (0 when every one was compiled before).
    pub pipelines_ms: f64,
    /// Compute pipelines compiled.
    pub pipelines_compiled: u64,
    /// Stage pipeline sets taken from the device's cache instead of compiled.
    pub pipelines_reused: u64,
    /// Allocating buffers and bind groups (the scan's levels alone when only the grid changed).
    pub buffers_ms: f64,
    /// Sets of buffers allocated: 1 for a new backend, or for a run that needed more than the
    /// buffers of the runs before held; 0 when they fit.
    pub buffer_sets: u64,
    /// Writing the initial state into the buffers.
    pub upload_ms: f64,
    /// Recording and submitting the steps (and their measures passes).
    pub steps_ms: f64,
    /// Waiting for read-backs: the measures of batches of steps, the state.
    pub readback_ms: f64,
}

impl Costs {
    /// The setup: adapter, pipelines, buffers and upload (ms).
    pub fn setup_ms(&self) -> f64 {
        self.adapter_ms + self.pipelines_ms + self.buffers_ms + self.upload_ms
    }

    /// Every part (ms).
    pub fn total_ms(&self) -> f64 {
        self.setup_ms() + self.steps_ms + self.readback_ms
    }

    /// The sum of two runs' costs.
    pub fn plus(&self, o: &Costs) -> Costs {
        Costs {
            adapter_ms: self.adapter_ms + o.adapter_ms,
            pipelines_ms: self.pipelines_ms + o.pipelines_ms,
            pipelines_compiled: self.pipelines_compiled + o.pipelines_compiled,
            pipelines_reused: self.pipelines_reused + o.pipelines_reused,
            buffers_ms: self.buffers_ms + o.buffers_ms,
            buffer_sets: self.buffer_sets + o.buffer_sets,
            upload_ms: self.upload_ms + o.upload_ms,
            steps_ms: self.steps_ms + o.steps_ms,
            readback_ms: self.readback_ms + o.readback_ms,
        }
    }

    /// One line: `setup S ms (adapter A, pipelines P (C compiled, R reused), buffers B (K
    /// sets), upload U), steps T ms, read-backs R ms`.
    pub fn describe(&self) -> String {
        format!(
            "setup {:.1} ms (adapter {:.1}, pipelines {:.1} ({} compiled, {} reused), buffers \
             {:.1} ({} sets), upload {:.2}), steps {:.1} ms, read-backs {:.1} ms",
            self.setup_ms(),
            self.adapter_ms,
            self.pipelines_ms,
            self.pipelines_compiled,
            self.pipelines_reused,
            self.buffers_ms,
            self.buffer_sets,
            self.upload_ms,
            self.steps_ms,
            self.readback_ms
        )
    }
}
