//! [`Sim`]: the running simulation of the app, of snapshots and of the Python module's pictures, on the GPU backend or the CPU
//! reference backend, switchable live without losing the flock, with the boid state always
//! available as a GPU storage buffer for the renderer (the GPU backend's own state buffer; for the
//! CPU backend a mirror uploaded once per frame).

use web_time::Instant;

use glam::Vec2;

use crate::backend::{self, BackendKind, SimError, Simulation, StateBuffers, StorageRange};
use crate::gpu::GpuContext;
use crate::model::{
    rng, spawn_boid, spawn_boid_at, Actors, Boid, Interaction, Predator, Setup, SimParams,
};
use crate::render::{PredatorMirror, Renderer, StateMirror};

/// A simulation plus what the app needs around it: the actors, pointer interaction, next boid id,
/// last step times per backend, and the GPU mirror of the CPU state.
pub struct Sim {
    ctx: GpuContext,
    engine: Box<dyn Simulation>,
    seed: u32,
    next_id: u32,
    actors: Actors,
    interaction: Interaction,
    mirror: StateMirror,
    mirror_dirty: bool,
    mirrored: Option<StateBuffers>,
    /// A GPU copy of the CPU backend's predators, for the renderer.
    predator_mirror: PredatorMirror,
    step_ms_gpu: Option<f64>,
    step_ms_cpu: Option<f64>,
    steps: u64,
}

impl Sim {
    /// The simulation of `setup` on backend `kind` (`CpuNaive` is treated as `Cpu`), drawing on
    /// `ctx`.
    ///
    /// # Errors
    /// [`SimError`] for invalid parameters or a count over the adapter's limits.
    pub fn new(ctx: &GpuContext, kind: BackendKind, setup: &Setup) -> Result<Sim, SimError> {
        let kind = if kind == BackendKind::CpuNaive {
            BackendKind::Cpu
        } else {
            kind
        };
        let engine = backend::create(kind, setup, Some(ctx))?;
        Ok(Sim {
            ctx: ctx.clone(),
            engine,
            seed: setup.seed,
            next_id: setup.boids.iter().map(|b| b.id + 1).max().unwrap_or(0),
            actors: setup.actors.clone(),
            interaction: Interaction::with_obstacle_defaults(),
            mirror: StateMirror::default(),
            mirror_dirty: true,
            mirrored: None,
            predator_mirror: PredatorMirror::default(),
            step_ms_gpu: None,
            step_ms_cpu: None,
            steps: 0,
        })
    }

    fn sim(&self) -> &dyn Simulation {
        self.engine.as_ref()
    }

    fn sim_mut(&mut self) -> &mut dyn Simulation {
        self.engine.as_mut()
    }

    /// The GPU context used for drawing (and by the GPU backend).
    pub fn context(&self) -> &GpuContext {
        &self.ctx
    }

    /// The running backend (`Gpu` or `Cpu`).
    pub fn kind(&self) -> BackendKind {
        self.sim().kind()
    }

    /// Number of boids.
    pub fn len(&self) -> usize {
        self.sim().len()
    }

    /// Whether there are no boids (never, for a valid simulation).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Steps taken by this `Sim` (across backend switches).
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// The step index of the running backend (the counter of the noise stream; carried across
    /// backend switches).
    pub fn step_index(&self) -> u32 {
        self.sim().step_index()
    }

    /// The parameters in use.
    pub fn params(&self) -> &SimParams {
        self.sim().params()
    }

    /// The seed.
    pub fn seed(&self) -> u32 {
        self.seed
    }

    /// The actors as last set (obstacle points, and the predators where they were placed: see
    /// [`Sim::live_actors`] for where they are now).
    pub fn actors(&self) -> &Actors {
        &self.actors
    }

    /// The actors with the predators where they are now (one readback on the GPU when there are
    /// predators): what to start from when changing the actors, so that predators keep moving
    /// from where they are.
    ///
    /// # Errors
    /// [`SimError::Gpu`] on a readback failure.
    pub fn live_actors(&mut self) -> Result<Actors, SimError> {
        let mut actors = self.actors.clone();
        if !actors.predators.is_empty() {
            actors.predators = self.sim_mut().read_predators()?;
        }
        Ok(actors)
    }

    /// Number of predators.
    pub fn predator_count(&self) -> usize {
        self.sim().predator_count()
    }

    /// The predators as a GPU buffer for the renderer, and their count: the GPU backend's own
    /// predator buffer, or (CPU backend) a copy uploaded here.
    pub fn predator_buffer(&mut self) -> Option<(StorageRange, u32)> {
        let n = self.predator_count();
        if n == 0 {
            return None;
        }
        if let Some(b) = self.engine.gpu_predators() {
            return Some((b, n as u32));
        }
        let predators = self.engine.cpu_predators()?;
        let b = self
            .predator_mirror
            .upload(&self.ctx.device, &self.ctx.queue, predators);
        Some((b, n as u32))
    }

    /// Points `r` at the predators ([`Sim::predator_buffer`]: the GPU backend's buffer, or a
    /// small upload on the CPU backend), before it records a draw.
    pub fn set_renderer_predators(&mut self, r: &mut Renderer) {
        let p = self.predator_buffer();
        r.set_predators(p.as_ref().map(|(b, n)| (b, *n)));
    }

    /// The pointer and obstacle settings.
    pub fn interaction(&self) -> &Interaction {
        &self.interaction
    }

    /// Last measured step time of the GPU backend (ms, wall clock; see [`Sim::step_timed`]).
    pub fn step_ms_gpu(&self) -> Option<f64> {
        self.step_ms_gpu
    }

    /// Last step time of the CPU backend (ms, wall time).
    pub fn step_ms_cpu(&self) -> Option<f64> {
        self.step_ms_cpu
    }

    /// Per-stage times of the last finished step of the running backend (GPU timestamps, or CPU
    /// wall time per stage), `(stage, ms)`.
    pub fn stage_times(&mut self) -> Vec<(String, f64)> {
        self.sim_mut().stage_times()
    }

    /// Flock measures of the current state (one small readback on the GPU).
    ///
    /// # Errors
    /// [`SimError`] on a readback failure.
    pub fn measures(&mut self) -> Result<crate::model::FlockMeasures, SimError> {
        self.sim_mut().measures()
    }

    /// Asks for the flock measures without waiting (see
    /// [`crate::simulation::Simulation::request_measures`]).
    ///
    /// # Errors
    /// [`SimError`] on a device error.
    pub fn request_measures(
        &mut self,
    ) -> Result<Box<dyn crate::simulation::PendingMeasures>, SimError> {
        self.sim_mut().request_measures()
    }

    /// The GPU timer scopes finished since the last call (top-level step scopes with their passes
    /// nested, oldest first); empty on the CPU backend or without timestamp queries. Where
    /// [`Sim::step_timed_by_timestamps`], the newest `step` scope becomes the GPU step time.
    pub fn take_timer_results(&mut self) -> Vec<wgpu_profiler::GpuTimerQueryResult> {
        let scopes = self.sim_mut().take_timer_results();
        if self.step_timed_by_timestamps() {
            let newest = scopes
                .iter()
                .rev()
                .filter(|q| q.label == "step")
                .find_map(scope_ms);
            if newest.is_some() {
                self.step_ms_gpu = newest;
            }
        }
        scopes
    }

    /// Whether the GPU step's time comes from its timestamp scopes — from a ring of timer
    /// queries, a frame or more late, with no wait — rather than from the wall clock around a
    /// queue drain (one frame in 30, [`Sim::step_timed`]): on the GPU backend of a hardware
    /// adapter that offers timestamps inside encoders. A software adapter's timestamps do not
    /// bracket the passes while frames are pipelined (lavapipe: the rules pass 0.07 ms in the
    /// window against 23.8 ms in `boids bench`, 20 000 boids), so there the wall clock stays.
    pub fn step_timed_by_timestamps(&self) -> bool {
        self.kind() == BackendKind::Gpu
            && self.has_timestamps()
            && self.ctx.info.device_type != wgpu::DeviceType::Cpu
    }

    /// Whether the running backend measures per-pass GPU times with timestamp queries.
    pub fn has_timestamps(&self) -> bool {
        self.sim().has_timestamps()
    }

    /// Last measured step time of the running backend (ms).
    pub fn step_ms(&self) -> Option<f64> {
        match self.kind() {
            BackendKind::Gpu => self.step_ms_gpu,
            _ => self.step_ms_cpu,
        }
    }

    /// Advances one step (the GPU backend only submits it).
    ///
    /// # Errors
    /// [`SimError::Gpu`] on a device error.
    pub fn step(&mut self) -> Result<(), SimError> {
        self.step_timed(false)
    }

    /// Advances one step; with `measure`, also times it by the wall clock: the CPU step as it runs,
    /// the GPU step between two waits (queue drained first, so earlier frames are not counted).
    /// GPU timestamp queries are not used for this: on software adapters they do not reflect the
    /// pass durations while work is pipelined.
    ///
    /// # Errors
    /// [`SimError::Gpu`] on a device error.
    pub fn step_timed(&mut self, measure: bool) -> Result<(), SimError> {
        let gpu = self.sim().gpu_state().is_some();
        if measure && gpu {
            self.sim_mut().finish()?;
        }
        let t = Instant::now();
        self.sim_mut().step()?;
        self.steps += 1;
        if gpu {
            if measure {
                self.sim_mut().finish()?;
                self.step_ms_gpu = Some(t.elapsed().as_secs_f64() * 1e3);
            }
        } else {
            self.step_ms_cpu = Some(t.elapsed().as_secs_f64() * 1e3);
            self.mirror_dirty = true;
        }
        Ok(())
    }

    /// Whether the following steps store each boid's neighbour count
    /// ([`Simulation::store_neighbor_counts`]; a backend switched to stores them).
    pub fn store_neighbor_counts(&mut self, on: bool) {
        self.sim_mut().store_neighbor_counts(on);
    }

    /// The boid state as GPU storage buffers holding [`Sim::len`] boids: the GPU backend's own
    /// state buffers, or (CPU backend) a mirror refreshed here when the state changed.
    pub fn state_buffers(&mut self) -> StateBuffers {
        if let Some(b) = self.engine.gpu_state() {
            return b;
        }
        if self.mirror_dirty || self.mirrored.is_none() {
            let state = self
                .engine
                .cpu_state()
                .expect("a CPU backend keeps its state");
            self.mirrored = Some(self.mirror.upload(&self.ctx.device, &self.ctx.queue, state));
            self.mirror_dirty = false;
        }
        self.mirrored.clone().expect("uploaded above")
    }

    /// Switches to backend `kind`, carrying the whole flock (state read back from the old one),
    /// the step index, the actors (predators where they are now) and the pointer settings. No-op
    /// when already there.
    ///
    /// # Errors
    /// [`SimError`] when the new backend cannot hold the flock; the old one keeps running.
    pub fn switch(&mut self, kind: BackendKind) -> Result<(), SimError> {
        let kind = if kind == BackendKind::CpuNaive {
            BackendKind::Cpu
        } else {
            kind
        };
        if kind == self.kind() {
            return Ok(());
        }
        let setup = Setup {
            params: self.params().clone(),
            seed: self.seed,
            step: self.sim().step_index(),
            boids: self.sim_mut().read_state()?,
            actors: self.live_actors()?,
        };
        let mut engine = backend::create(kind, &setup, Some(&self.ctx))?;
        engine.set_interaction(&self.interaction);
        self.engine = engine;
        self.actors = setup.actors;
        self.mirror_dirty = true;
        Ok(())
    }

    /// Replaces the parameters (live).
    ///
    /// # Errors
    /// [`SimError::Param`] when invalid; the old parameters stay.
    pub fn set_params(&mut self, params: &SimParams) -> Result<(), SimError> {
        self.sim_mut().set_params(params)
    }

    /// Sets the pointer tool (attract/repel) and obstacle settings.
    pub fn set_interaction(&mut self, ia: &Interaction) {
        self.interaction = *ia;
        let ia = self.interaction;
        self.sim_mut().set_interaction(&ia);
    }

    /// Replaces the obstacle points; they act from the next step. The predators are not touched
    /// (no readback, nothing uploaded for them).
    ///
    /// # Errors
    /// [`SimError::Gpu`] when the GPU cannot hold them.
    pub fn set_obstacles(&mut self, points: Vec<[f32; 2]>) -> Result<(), SimError> {
        self.sim_mut().set_obstacles(&points)?;
        self.actors.obstacles = points;
        Ok(())
    }

    /// Replaces the predators; they act from the next step. The obstacle points are kept.
    ///
    /// # Errors
    /// [`SimError::Param`] for too many or a non-finite one; [`SimError::Gpu`] when the GPU cannot
    /// hold them.
    pub fn set_predators(&mut self, predators: Vec<Predator>) -> Result<(), SimError> {
        self.sim_mut().set_predators(&predators)?;
        self.actors.predators = predators;
        Ok(())
    }

    fn append(&mut self, new: Vec<Boid>) -> Result<(), SimError> {
        if new.is_empty() {
            return Ok(());
        }
        self.sim_mut().add_boids(&new)?;
        self.mirror_dirty = true;
        self.next_id += new.len() as u32;
        Ok(())
    }

    /// Adds `count` boids around `center` (wu), uniformly in a disc of radius `spread` (wu), each
    /// with a random heading and pastel hue (the add-boids tool).
    ///
    /// # Errors
    /// [`SimError`] when the new count does not fit.
    pub fn spawn_at(&mut self, center: Vec2, count: usize, spread: f32) -> Result<(), SimError> {
        let params = self.params().clone();
        let world = Vec2::new(params.world_width, params.world_height);
        let new: Vec<Boid> = (0..count as u32)
            .map(|k| {
                let id = self.next_id + k;
                let r = spread * rng::uniform01(self.seed, id, 0, rng::STREAM_ADD_RADIUS).sqrt();
                let a =
                    rng::uniform01(self.seed, id, 0, rng::STREAM_ADD_ANGLE) * std::f32::consts::TAU;
                let p = (center + Vec2::new(a.cos(), a.sin()) * r).clamp(Vec2::ZERO, world);
                spawn_boid_at(self.seed, id, p, &params)
            })
            .collect();
        self.append(new)
    }

    /// Sets the boid count: adds boids at uniform random positions (growing the world to keep at
    /// most the default density), or removes a random sample of boids (each boid's chance to stay
    /// is the same wherever it is, so the flock thins evenly; the sample is a pure function of the
    /// seed, ids and step). At least one boid stays.
    ///
    /// # Errors
    /// [`SimError`] when the new count does not fit.
    pub fn set_count(&mut self, n: usize) -> Result<(), SimError> {
        let n = n.max(1);
        let len = self.len();
        if n > len {
            // Never crowd more boids into the world than the default density allows: the world
            // grows (same aspect ratio; boids already there stay put), so the step's cost grows
            // with the count and not with its square.
            let mut params = self.params().clone();
            let area = params.world_width * params.world_height;
            let need = n as f32 / crate::model::DEFAULT_DENSITY;
            if need > area {
                let k = (need / area).sqrt();
                params.world_width = (params.world_width * k).min(1.0e6);
                params.world_height = (params.world_height * k).min(1.0e6);
                self.set_params(&params)?;
            }
            let new = (0..(n - len) as u32)
                .map(|k| spawn_boid(self.seed, self.next_id + k, &params))
                .collect();
            self.append(new)?;
        } else if n < len {
            let step = self.sim().step_index();
            let state = self.sim_mut().read_state()?;
            self.keep_sample(state, n, step)?;
        }
        Ok(())
    }

    /// Lowers the flock to `n` boids of `state` (the flock as read at step `step`; `n` at least
    /// 1 and below its length): keeps the `n` boids with the smallest hash of (seed, id, step), a
    /// uniform random sample, as [`Sim::set_count`] does (a browser tab, which cannot wait for
    /// the state, reads it without waiting and then calls this).
    ///
    /// # Errors
    /// [`SimError`] when the backend refuses the state.
    pub fn keep_sample(
        &mut self,
        mut state: Vec<Boid>,
        n: usize,
        step: u32,
    ) -> Result<(), SimError> {
        let n = n.clamp(1, state.len().max(1));
        let key = |b: &Boid| rng::hash4(self.seed, b.id, step, rng::STREAM_REMOVE);
        if n < state.len() {
            state.select_nth_unstable_by_key(n - 1, key);
            state.truncate(n);
        }
        self.sim_mut().set_state(&state)?;
        self.mirror_dirty = true;
        Ok(())
    }

    /// Replaces the whole flock (the reset entry of the pause menu).
    ///
    /// # Errors
    /// [`SimError`] when it does not fit.
    pub fn set_state(&mut self, boids: &[Boid]) -> Result<(), SimError> {
        self.sim_mut().set_state(boids)?;
        self.next_id = boids.iter().map(|b| b.id + 1).max().unwrap_or(0);
        self.mirror_dirty = true;
        Ok(())
    }

    /// Copies the state out (GPU: a readback; only on request, never per frame).
    ///
    /// # Errors
    /// [`SimError::Gpu`] on readback failure.
    pub fn read_state(&mut self) -> Result<Vec<Boid>, SimError> {
        self.sim_mut().read_state()
    }

    /// Asks for the state without waiting ([`Simulation::request_state`]).
    ///
    /// # Errors
    /// [`SimError::Gpu`] on a device error.
    pub fn request_state(&mut self) -> Result<Box<dyn crate::simulation::PendingState>, SimError> {
        self.sim_mut().request_state()
    }

    /// Waits for every submitted step.
    ///
    /// # Errors
    /// [`SimError::Gpu`] on a device error.
    pub fn finish(&mut self) -> Result<(), SimError> {
        self.sim_mut().finish()
    }
}

/// GPU time of a timer scope (ms): its own time where it has one, else the sum of its passes'.
pub fn scope_ms(q: &wgpu_profiler::GpuTimerQueryResult) -> Option<f64> {
    if let Some(t) = &q.time {
        return Some((t.end - t.start) * 1e3);
    }
    let nested: Vec<f64> = q.nested_queries.iter().filter_map(scope_ms).collect();
    (!nested.is_empty()).then(|| nested.iter().sum())
}
