//! The interface every backend implements ([`Simulation`]), the backend names ([`BackendKind`]),
//! the errors a backend reports ([`SimError`], [`GpuError`]) and where a GPU run's wall time goes
//! ([`Costs`]: a sweep writes them per run into `summary.json`, `boids bench` into its summary). The backends themselves are in
//! `crate::cpu` and `crate::gpu`; `crate::backend::create` makes one from a
//! [`crate::model::Setup`].

use serde::{Deserialize, Serialize};

use crate::model::{Actors, Boid, FlockMeasures, Interaction, ParamError, Predator, SimParams};

/// Checks predators for [`Simulation::set_predators`] as [`Actors::validate`] does: at most
/// [`crate::model::MAX_PREDATORS`], each finite.
///
/// # Errors
/// [`ParamError::OutOfRange`] naming the field.
pub fn validate_predators(predators: &[Predator]) -> Result<(), ParamError> {
    Actors {
        obstacles: Vec::new(),
        predators: predators.to_vec(),
    }
    .validate()
}

/// A range of a GPU storage buffer that a binding may hold alone: `offset` is a multiple of
/// 256 bytes (the largest `min_storage_buffer_offset_alignment` WebGPU allows), as the regions
/// of the GPU backend's buffers that the renderer binds are placed
/// ([`crate::stages::REGION_ALIGN`]).
#[derive(Clone, Debug, PartialEq)]
pub struct StorageRange {
    /// The buffer.
    pub buffer: wgpu::Buffer,
    /// Its first byte.
    pub offset: u64,
    /// Its length (bytes, > 0).
    pub size: u64,
}

impl StorageRange {
    /// The whole of `buffer`.
    pub fn whole(buffer: wgpu::Buffer) -> Self {
        let size = buffer.size();
        Self {
            buffer,
            offset: 0,
            size,
        }
    }

    /// The binding of this range.
    pub fn binding(&self) -> wgpu::BindingResource<'_> {
        wgpu::BindingResource::Buffer(wgpu::BufferBinding {
            buffer: &self.buffer,
            offset: self.offset,
            size: wgpu::BufferSize::new(self.size),
        })
    }
}

/// The state buffers of a GPU backend, in state order (docs/model.md §2.2): `pos_vel` holds
/// `[x, y, vx, vy]` per boid and `hue` holds `[hx, hy, ux, uy]` (`array<vec4<f32>>` in WGSL; the
/// GPU backend's is the plane of its `pos_vel` buffer after the positions and velocities);
/// `neighbors` the neighbour count of each boid in the last step (`array<u32>`).
#[derive(Clone, Debug, PartialEq)]
pub struct StateBuffers {
    /// Positions and velocities.
    pub pos_vel: wgpu::Buffer,
    /// Hue vectors and hue velocities.
    pub hue: StorageRange,
    /// Neighbour counts of the last step (what the renderer's neighbour colour mode shows).
    pub neighbors: wgpu::Buffer,
}

/// The state arrays of a CPU backend, laid out as [`StateBuffers`].
#[derive(Clone, Copy, Debug)]
pub struct StateSlices<'a> {
    /// `[x, y, vx, vy]` per boid.
    pub pos_vel: &'a [[f32; 4]],
    /// `[hx, hy, ux, uy]` per boid.
    pub hue: &'a [[f32; 4]],
    /// Neighbour counts of the last step, per boid (shorter, or empty, before the first step).
    pub neighbors: &'a [u32],
}

/// Which backend computes the steps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, clap::ValueEnum, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum BackendKind {
    /// wgpu compute shaders.
    Gpu,
    /// CPU reference: uniform grid by counting sort, rules in parallel with rayon.
    Cpu,
    /// CPU brute force O(N²): the test oracle and the baseline of the grid's speed-up.
    CpuNaive,
}

impl BackendKind {
    /// The name used on the command line and in captures.
    pub fn name(self) -> &'static str {
        match self {
            BackendKind::Gpu => "gpu",
            BackendKind::Cpu => "cpu",
            BackendKind::CpuNaive => "cpu-naive",
        }
    }

    /// Parses a command-line name.
    pub fn parse(s: &str) -> Option<BackendKind> {
        match s.trim() {
            "gpu" => Some(BackendKind::Gpu),
            "cpu" => Some(BackendKind::Cpu),
            "cpu-naive" | "naive" => Some(BackendKind::CpuNaive),
            _ => None,
        }
    }
}

/// Errors a backend reports to its caller.
#[derive(Debug, thiserror::Error)]
pub enum SimError {
    /// A parameter or boid count out of range.
    #[error(transparent)]
    Param(#[from] ParamError),
    /// A run that cannot be set up (a scene's point outside the world, a state that does not fit).
    #[error(transparent)]
    Setup(#[from] crate::model::SetupError),
    /// A GPU problem (no adapter, a limit, a device error).
    #[error(transparent)]
    Gpu(#[from] GpuError),
}

/// Errors of the GPU backend.
#[derive(Debug, thiserror::Error)]
pub enum GpuError {
    /// No adapter could be found.
    #[error(
        "no GPU adapter found{detail}. Install a GPU driver, or Mesa's software Vulkan driver \
         (Debian/Ubuntu: apt-get install mesa-vulkan-drivers libvulkan1), or use --backend cpu"
    )]
    NoAdapter {
        /// Extra detail (e.g. the WGPU_ADAPTER_NAME filter that matched nothing).
        detail: String,
    },
    /// The device could not be created.
    #[error("cannot create a device on {adapter}: {message}")]
    Device {
        /// Adapter name.
        adapter: String,
        /// wgpu's message.
        message: String,
    },
    /// A boid count (or grid) that does not fit in the adapter's buffers.
    #[error("{what} needs {needed} bytes, above this adapter's {limit} ({max} bytes){hint}")]
    Limit {
        /// What was being allocated.
        what: String,
        /// Bytes needed.
        needed: u64,
        /// Name of the wgpu limit.
        limit: &'static str,
        /// Its value on this adapter.
        max: u64,
        /// How to stay inside it.
        hint: String,
    },
    /// wgpu reported a validation or out-of-memory error.
    #[error("wgpu error: {0}")]
    Wgpu(String),
    /// A buffer could not be mapped for reading.
    #[error("GPU readback failed: {0}")]
    Readback(String),
}

/// Flock measures asked for without waiting ([`Simulation::request_measures`]).
pub trait PendingMeasures: wgpu::WasmNotSend {
    /// The measures, once: `Some` the first time they are ready, `None` while the GPU is still on
    /// them and after they were handed over. Never blocks.
    ///
    /// # Errors
    /// [`SimError::Gpu`] when the read-back failed.
    fn poll(&mut self) -> Result<Option<FlockMeasures>, SimError>;
}

/// A read-back of the whole state on its way ([`Simulation::request_state`]).
pub trait PendingState: wgpu::WasmNotSend {
    /// The state, once: `Some` the first time it is back (as [`Simulation::read_state`] returns
    /// it), `None` while the GPU is still on it and after it was handed over. Never blocks.
    ///
    /// # Errors
    /// [`SimError::Gpu`] when the read-back failed.
    fn poll(&mut self) -> Result<Option<Vec<Boid>>, SimError>;
}

/// A state read at once (the CPU backends).
struct ReadyState(Option<Vec<Boid>>);

impl PendingState for ReadyState {
    fn poll(&mut self) -> Result<Option<Vec<Boid>>, SimError> {
        Ok(self.0.take())
    }
}

/// Measures computed at once (the CPU backends).
struct ReadyMeasures(Option<FlockMeasures>);

impl PendingMeasures for ReadyMeasures {
    fn poll(&mut self) -> Result<Option<FlockMeasures>, SimError> {
        Ok(self.0.take())
    }
}

/// A flock simulation that can be stepped and inspected. Both the CPU backends and the GPU backend
/// implement it with the same meaning, so captures and tests can treat them alike. A simulation
/// can move to another thread (`Send`, through [`wgpu::WasmNotSend`]: on the web, where wgpu's
/// objects stay on the page's thread, no bound): the Python module steps it with the
/// interpreter's lock released.
pub trait Simulation: wgpu::WasmNotSend {
    /// Which backend this is.
    fn kind(&self) -> BackendKind;
    /// Number of boids.
    fn len(&self) -> usize;
    /// Whether there are no boids (never true for a valid simulation).
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Steps taken so far (the counter of the counter-based noise; kept across `set_state`).
    fn step_index(&self) -> u32;
    /// Sets the step counter (so a flock moved to another backend keeps drawing the same noise).
    fn set_step_index(&mut self, step: u32);
    /// The parameters in use.
    fn params(&self) -> &SimParams;
    /// Replaces the parameters (live; the state is kept).
    ///
    /// # Errors
    /// [`SimError::Param`] when invalid; the old parameters stay.
    fn set_params(&mut self, params: &SimParams) -> Result<(), SimError>;
    /// Sets the pointer tool and obstacle settings.
    fn set_interaction(&mut self, ia: &Interaction);
    /// Replaces the obstacle points (wu); they act from the next step. The predators are left as
    /// they are (on the GPU their buffer is not touched).
    ///
    /// # Errors
    /// [`SimError::Gpu`] when the GPU cannot hold them.
    fn set_obstacles(&mut self, points: &[[f32; 2]]) -> Result<(), SimError>;
    /// Replaces the predators; they act from the next step. They start where they are given (a
    /// position outside the world is brought inside by the boundary rule) and then move on the
    /// backend. The obstacle points are left as they are.
    ///
    /// # Errors
    /// [`SimError::Param`] for more than [`crate::model::MAX_PREDATORS`] predators or a non-finite
    /// one ([`validate_predators`]); [`SimError::Gpu`] when the GPU cannot hold them.
    fn set_predators(&mut self, predators: &[Predator]) -> Result<(), SimError>;
    /// The predators as they are now, in the order they were given (GPU: a readback).
    ///
    /// # Errors
    /// [`SimError::Gpu`] on a readback failure.
    fn read_predators(&mut self) -> Result<Vec<Predator>, SimError>;
    /// Number of predators.
    fn predator_count(&self) -> usize;
    /// Advances one step of `dt`. The GPU backend only submits the work; call [`Simulation::finish`]
    /// to wait for it.
    ///
    /// # Errors
    /// [`SimError::Gpu`] on a device error.
    fn step(&mut self) -> Result<(), SimError>;
    /// Waits until every submitted step has completed (no-op on the CPU).
    ///
    /// # Errors
    /// [`SimError::Gpu`] on a device error.
    fn finish(&mut self) -> Result<(), SimError>;
    /// Copies the state out (order unspecified; sort by `id` to compare).
    ///
    /// # Errors
    /// [`SimError::Gpu`] on a readback failure.
    fn read_state(&mut self) -> Result<Vec<Boid>, SimError>;
    /// Replaces the whole state (count may change). Ids must be unique.
    ///
    /// # Errors
    /// [`SimError::Param`] for 0 boids or too many; [`SimError::Gpu`] when they do not fit.
    fn set_state(&mut self, boids: &[Boid]) -> Result<(), SimError>;
    /// Appends boids (ids must be unique); the others are kept.
    ///
    /// # Errors
    /// [`SimError::Param`] / [`SimError::Gpu`] when the new count does not fit.
    fn add_boids(&mut self, boids: &[Boid]) -> Result<(), SimError>;
    /// Flock measures of the current state (neighbour counts from the last step).
    ///
    /// # Errors
    /// [`SimError::Gpu`] on a readback failure.
    fn measures(&mut self) -> Result<FlockMeasures, SimError>;
    /// Asks for the flock measures of the current state without waiting for them: what
    /// [`Simulation::measures`] returns, handed over by [`PendingMeasures::poll`] once ready (the
    /// GPU backend a frame or more later, with no queue drain; the CPU backends at once).
    ///
    /// # Errors
    /// [`SimError::Gpu`] on a device error.
    fn request_measures(&mut self) -> Result<Box<dyn PendingMeasures>, SimError> {
        Ok(Box::new(ReadyMeasures(Some(self.measures()?))))
    }
    /// Asks for the current state without waiting: [`Simulation::read_state`]'s boids, handed
    /// over by [`PendingState::poll`] once back (what a browser tab, which cannot wait, reads
    /// the state with). The default reads it at once.
    ///
    /// # Errors
    /// [`SimError::Gpu`] on a device error.
    fn request_state(&mut self) -> Result<Box<dyn PendingState>, SimError> {
        Ok(Box::new(ReadyState(Some(self.read_state()?))))
    }
    /// Sets the running total of boids caught by hunting predators (docs/model.md §18.4), so a
    /// run resumed from a checkpoint carries on counting where the saved run stopped.
    ///
    /// # Errors
    /// [`SimError::Gpu`] on a device error.
    fn set_catches_total(&mut self, total: u32) -> Result<(), SimError>;
    /// Runs `steps` steps and returns the flock measures after each of them — what
    /// [`Simulation::step`], [`Simulation::finish`] and [`Simulation::measures`] in turn return —
    /// calling `on_step` after each step is recorded. The GPU backend keeps the measures of many
    /// steps on the GPU and reads them back together (one wait per batch, not per step).
    ///
    /// # Errors
    /// As [`Simulation::step`] and [`Simulation::measures`].
    fn run_measured(
        &mut self,
        steps: u32,
        on_step: &mut dyn FnMut(),
    ) -> Result<Vec<FlockMeasures>, SimError> {
        let mut out = Vec::with_capacity(steps as usize);
        for _ in 0..steps {
            self.step()?;
            self.finish()?;
            out.push(self.measures()?);
            on_step();
        }
        Ok(out)
    }
    /// Per-stage times of the last finished step, `(stage name, ms)`, when the backend measures them
    /// (GPU timestamp queries, or CPU wall time per stage).
    fn stage_times(&mut self) -> Vec<(String, f64)>;
    /// Whether the following steps record the neighbours of every boid (the ids `rules` selects:
    /// the topological ones nearest first, docs/model.md §19.4; the Voronoi ones by ascending
    /// id, §19.5), for [`Simulation::neighbor_ids`]. Off by default; on the GPU it costs a buffer
    /// of `topological_k` ids per boid (32 in the Voronoi neighbourhood) and their writes.
    ///
    /// # Errors
    /// The backend's error when the buffer cannot be allocated.
    fn record_neighbor_ids(&mut self, on: bool) -> Result<(), SimError>;
    /// Whether the following steps store each boid's neighbour count (on by default). Off, the
    /// GPU backend's `rules` writes none (4 bytes a boid less; the CPU backends, whose counts
    /// cost nothing to keep, still write theirs), and on either backend the counts are not the
    /// state's: the measures of that state give no mean neighbour count
    /// ([`crate::model::FlockMeasures::get`] is `None`), and the view's colour by neighbours
    /// is not this state's (on the GPU, a count left at a sorted place by an older step). For
    /// steps whose counts nothing reads, such as a warm-up's; the positions, velocities and
    /// hues are the same either way, bit for bit.
    fn store_neighbor_counts(&mut self, on: bool);
    /// One [`Simulation::step`] that stores the neighbour counts only when `store`, the counts
    /// stored again after it whatever it returns ([`Simulation::store_neighbor_counts`]): what
    /// a loop of steps whose counts only its last hands on calls with `k + 1 == n`.
    ///
    /// # Errors
    /// As [`Simulation::step`].
    fn step_storing_counts(&mut self, store: bool) -> Result<(), SimError> {
        self.store_neighbor_counts(store);
        let stepped = self.step();
        self.store_neighbor_counts(true);
        stepped
    }
    /// The neighbours the last recorded step selected: for each boid, by ascending id, its id
    /// and its neighbours' ids — topological: nearest first (fewer than `topological_k` when
    /// there are fewer other boids); Voronoi: ascending, those in the field of view, at most 32
    /// (the lowest ids of a cell with more). Empty when the last step recorded none (recording
    /// off, or the metric neighbourhood).
    ///
    /// # Errors
    /// The backend's error when reading back fails.
    fn neighbor_ids(&mut self) -> Result<Vec<(u32, Vec<u32>)>, SimError>;
    /// The boid state as GPU storage buffers of [`Simulation::len`] boids, when the backend keeps
    /// it on the GPU (the renderer then draws straight from them).
    fn gpu_state(&self) -> Option<StateBuffers> {
        None
    }
    /// The predators as a range of a GPU storage buffer (at least
    /// [`Simulation::predator_count`] entries of [`Predator`]), when the backend keeps them on
    /// the GPU and has any (the renderer draws from it).
    fn gpu_predators(&self) -> Option<StorageRange> {
        None
    }
    /// The boid state in CPU memory, when the backend keeps it there (no copy).
    fn cpu_state(&self) -> Option<StateSlices<'_>> {
        None
    }
    /// The predators in CPU memory, when the backend keeps them there (no copy).
    fn cpu_predators(&self) -> Option<&[Predator]> {
        None
    }
    /// Whether per-stage times come from GPU timestamp queries.
    fn has_timestamps(&self) -> bool {
        false
    }
    /// Where the wall time went since the backend was made or this was last called: the GPU
    /// backend's setup, steps and read-backs (the adapter's time is the caller's to add: the
    /// context is made before the backend); None for the CPU backends.
    fn take_costs(&mut self) -> Option<Costs> {
        None
    }
    /// The GPU timer scopes finished since the last call (top-level scopes with their nested
    /// passes, oldest first; at most the last few frames are kept), for Chrome traces. Empty where
    /// the backend has no GPU timers.
    fn take_timer_results(&mut self) -> Vec<wgpu_profiler::GpuTimerQueryResult> {
        Vec::new()
    }
}

/// The recorded neighbour lists of a step: boid `s` of the state (id `ids[s]`) has the `k` slots
/// `recorded[s·k .. (s + 1)·k]`, `u32::MAX` past its last neighbour. By ascending id.
pub fn neighbor_lists(ids: &[u32], recorded: &[u32], k: usize) -> Vec<(u32, Vec<u32>)> {
    if k == 0 {
        return Vec::new();
    }
    let mut out: Vec<(u32, Vec<u32>)> = recorded
        .chunks(k)
        .zip(ids)
        .map(|(slots, &id)| {
            (
                id,
                slots.iter().copied().filter(|&x| x != u32::MAX).collect(),
            )
        })
        .collect();
    out.sort_unstable_by_key(|x| x.0);
    out
}

/// Wall times (ms) of one GPU run's parts, and the pipelines it compiled and reused.
///
/// Each is measured on the CPU around the call that does it, so on a GPU that runs ahead of the
/// CPU the work of the steps lands where the CPU waits for it: `steps_ms` is recording and
/// submitting the steps, `readback_ms` waiting for the GPU — for the measures to come back (the
/// steps submitted before them included), and in a timed run (`boids bench`) for each step. On
/// lavapipe a submission runs its work before it returns, so there the steps' work is in
/// `steps_ms`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Costs {
    /// Making the adapter, device and queue (the first GPU run of a process only; a sweep makes
    /// it in its checks before the first run, so that run's `seconds` leave it out).
    pub adapter_ms: f64,
    /// Compiling shader modules and compute pipelines (0 when every one was compiled before).
    pub pipelines_ms: f64,
    /// Compute pipelines compiled.
    pub pipelines_compiled: u64,
    /// Stages whose pipelines were taken from the device's cache instead of compiled, when the
    /// backend was made or switched variant (a reset that keeps the variant looks up nothing).
    pub pipelines_reused: u64,
    /// Allocating buffers and bind groups (the scan's levels alone when only the grid changed).
    pub buffers_ms: f64,
    /// Sets of buffers allocated: 1 for a new backend (2 when its predators or obstacles then
    /// need more), 1 more each time a run needs more than the buffers held; 0 when they fit.
    pub buffer_sets: u64,
    /// Writing the initial state into the buffers.
    pub upload_ms: f64,
    /// Recording and submitting the steps (and their measures passes).
    pub steps_ms: f64,
    /// Waiting for the GPU: read-backs (the measures of batches of steps, the state) and the
    /// steps of a timed run.
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
             {:.1} ({} buffer set{}), upload {:.2}), steps {:.1} ms, read-backs {:.1} ms",
            self.setup_ms(),
            self.adapter_ms,
            self.pipelines_ms,
            self.pipelines_compiled,
            self.pipelines_reused,
            self.buffers_ms,
            self.buffer_sets,
            if self.buffer_sets == 1 { "" } else { "s" },
            self.upload_ms,
            self.steps_ms,
            self.readback_ms
        )
    }
}
