//! [`GpuBackend`]: the whole simulation step on the GPU.
//!
//! One step writes the uniform block and records one command buffer: a `step` profiler scope with
//! one compute pass per step stage of [`crate::stages::STAGES`], each its own scope named after the
//! stage (`clear`, `count`, `scan`, `slots`, `scatter`, `scatter_heavy`, `predators`, `rules`,
//! `rules_heavy`). wgpu-profiler records a scope's timestamps
//! only where the adapter offers timestamp queries (the outer `step` scope needs them inside
//! encoders) and records nothing otherwise, so there is one code path. The steady-state step
//! allocates no GPU resource and reads nothing back.

mod ensemble;
mod history;

use wgpu_profiler::{GpuProfiler, GpuProfilerSettings, GpuTimerQueryResult};

use ensemble::Slot;
pub use ensemble::{check_ensemble, Replica};

use crate::gpu::buffers::{
    capacity_for, check_boids, check_fits, grow, max_boids, write_state, Capacity, SimBuffers,
};
use crate::gpu::cache::CacheStats;
use crate::gpu::context::GpuContext;
use crate::gpu::dispatch;
use crate::gpu::pipelines::{Pipelines, Variant};
use crate::gpu::readback::{read_vec, PendingRead};
use crate::model::measures::{MeasureContext, MeasureSums};
use crate::model::predators::place_inside;
use crate::model::{
    initial_state, join_state, validate_boid_count, Boid, FlockMeasures, Grid, GridFor,
    Interaction, ObstacleGrid, Predator, SimParams, StepUniforms,
};
use crate::simulation::{
    validate_predators, BackendKind, Costs, PendingMeasures, PendingState, SimError, Simulation,
    StateBuffers, StorageRange,
};
use crate::stages::{Items, Run, When, MEASURES_ROW_BYTES, STAGES};

/// The GPU backend.
pub struct GpuBackend {
    ctx: GpuContext,
    pipelines: Pipelines,
    buffers: SimBuffers,
    params: SimParams,
    seed: u32,
    step: u32,
    count: u32,
    interaction: Interaction,
    /// The obstacle points as given (`obstacles` holds them binned).
    obstacle_points: Vec<[f32; 2]>,
    obstacles: ObstacleGrid,
    /// Number of predators (they live and move in the region `predators` of `cells`).
    predators: u32,
    max_per_dim: u32,
    profiler: GpuProfiler,
    /// GPU time of each stage of the last finished step (static names; reused).
    stage_ms: Vec<(&'static str, f64)>,
    /// Timer scopes finished since the last [`Simulation::take_timer_results`] (bounded).
    finished: std::collections::VecDeque<GpuTimerQueryResult>,
    /// Rows of measures of consecutive steps ([`Simulation::run_measured`]), made on first use.
    history: Option<wgpu::Buffer>,
    /// Whether the neighbour counts were written by the last step of the current state (not
    /// after a step that stored none).
    neighbors_counted: bool,
    /// Whether steps record the neighbour ids ([`Simulation::record_neighbor_ids`]).
    record_neighbors: bool,
    /// Whether steps store each boid's neighbour count ([`Simulation::store_neighbor_counts`]).
    store_neighbor_counts: bool,
    /// The `topological_k` of the ids the last step recorded (0: none).
    recorded_k: u32,
    /// Where the wall time went since the last [`GpuBackend::take_costs`].
    costs: Costs,
    /// The binning ([`StepUniforms::binning`], every replica's) of the step whose `rules` wrote
    /// each boid's cell words (`rank`'s plane `item_cell`), while the state is that step's: the
    /// next step's `count` reads them when its binning is the same (`cells_known`). `None` after
    /// anything that writes the state or makes the buffers anew.
    pub(super) cells_from: Option<Vec<[u32; 12]>>,
    /// The replicas of an ensemble ([`GpuBackend::ensemble`]); empty for a lone run. `params`,
    /// `seed` then are replica 0's, `count` and `predators` every replica's (so `read_state`
    /// gives every replica's boids, replica after replica).
    replicas: Vec<Slot>,
}

/// How a dispatch of [`GpuBackend::dispatches`] is launched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Launch {
    /// This many workgroups (split over x and y past the adapter's per-dimension limit).
    Groups(u32),
    /// Indirect: the workgroup counts the GPU wrote into `deferred` at this byte offset.
    Indirect(u64),
}

/// Top-level timer scopes kept for [`Simulation::take_timer_results`] (older ones are dropped).
const KEEP_SCOPES: usize = 16;

impl GpuBackend {
    /// A backend on `ctx` holding the initial flock of `n` boids for `seed`.
    ///
    /// # Errors
    /// [`SimError::Param`] for invalid parameters or counts; [`SimError::Gpu`] when `n` boids or
    /// the grid do not fit the adapter's buffers (the error names the limit).
    pub fn new(
        ctx: &GpuContext,
        params: &SimParams,
        n: usize,
        seed: u32,
    ) -> Result<Self, SimError> {
        params.validate()?;
        validate_boid_count(n)?;
        check_boids(ctx, n as u64)?;
        Self::from_state(ctx, params, &initial_state(seed, n, params), seed)
    }

    /// A backend on `ctx` holding `boids`.
    ///
    /// # Errors
    /// As [`GpuBackend::new`].
    pub fn from_state(
        ctx: &GpuContext,
        params: &SimParams,
        boids: &[Boid],
        seed: u32,
    ) -> Result<Self, SimError> {
        Self::from_state_for(ctx, params, boids, seed, false)
    }

    /// [`GpuBackend::from_state`] with the pipelines of an ensemble (`ensemble`: what
    /// [`GpuBackend::ensemble`] makes next) or of a lone run, so that neither compiles the
    /// other's.
    pub(super) fn from_state_for(
        ctx: &GpuContext,
        params: &SimParams,
        boids: &[Boid],
        seed: u32,
        ensemble: bool,
    ) -> Result<Self, SimError> {
        params.validate()?;
        validate_boid_count(boids.len())?;
        check_boids(ctx, boids.len() as u64)?;
        let mut costs = Costs::default();
        let before = ctx.pipeline_stats();
        let variant = Variant {
            ensemble,
            ..Variant::of(params, false)
        };
        let pipelines = Pipelines::new(ctx, variant);
        add_compiles(&mut costs, &before, &ctx.pipeline_stats());
        // No obstacles, binned as `set_obstacles(&[])` bins them, so that call fits the buffers.
        let interaction = Interaction::with_obstacle_defaults();
        let obstacles = obstacle_grid(&[], &interaction, params);
        let capacity = capacity_for(params, boids.len() as u32, &obstacles, 0, false);
        let t = web_time::Instant::now();
        let buffers = SimBuffers::new(ctx, &pipelines, capacity, capacity.cells)?;
        costs.buffers_ms += ms_since(t);
        costs.buffer_sets += 1;
        let t = web_time::Instant::now();
        write_state(ctx, &buffers, 0, boids);
        costs.upload_ms += ms_since(t);
        let profiler = GpuProfiler::new(&ctx.device, GpuProfilerSettings::default())
            .map_err(|e| crate::simulation::GpuError::Wgpu(e.to_string()))?;
        let b = GpuBackend {
            ctx: ctx.clone(),
            pipelines,
            buffers,
            params: params.clone(),
            seed,
            step: 0,
            count: boids.len() as u32,
            interaction,
            obstacle_points: Vec::new(),
            obstacles,
            predators: 0,
            max_per_dim: ctx.device.limits().max_compute_workgroups_per_dimension,
            profiler,
            stage_ms: Vec::with_capacity(STAGES.len()),
            finished: std::collections::VecDeque::new(),
            history: None,
            neighbors_counted: false,
            record_neighbors: false,
            store_neighbor_counts: true,
            recorded_k: 0,
            costs,
            cells_from: None,
            replicas: Vec::new(),
        };
        ctx.take_error()?;
        Ok(b)
    }

    /// Makes this backend hold `boids` with `params` and `seed`, as [`GpuBackend::from_state`]
    /// would make a new one (step 0, no predators, no obstacles, the default interaction, no
    /// catches, no recorded neighbour ids), keeping its pipelines and buffers: the buffers grow
    /// only when the new state needs more, the rules pass is switched to the new variant and
    /// every stage that finds replicas to a lone run's (each compiled once per device), and the
    /// state is uploaded. A sweep's points reuse one
    /// backend this way. Timer queries stay as they were.
    ///
    /// # Errors
    /// As [`GpuBackend::from_state`]; the backend then holds no boids until the next reset.
    pub fn reset(&mut self, params: &SimParams, boids: &[Boid], seed: u32) -> Result<(), SimError> {
        self.reset_for(params, boids, seed, false)
    }

    /// [`GpuBackend::reset`] with the pipelines of an ensemble (`ensemble`: what
    /// [`GpuBackend::reset_ensemble`] makes next) or of a lone run.
    pub(super) fn reset_for(
        &mut self,
        params: &SimParams,
        boids: &[Boid],
        seed: u32,
        ensemble: bool,
    ) -> Result<(), SimError> {
        params.validate()?;
        validate_boid_count(boids.len())?;
        check_boids(&self.ctx, boids.len() as u64)?;
        self.finish()?;
        self.interaction = Interaction::with_obstacle_defaults();
        self.obstacle_points.clear();
        self.obstacles = obstacle_grid(&[], &self.interaction, params);
        self.predators = 0;
        self.replicas.clear();
        self.record_neighbors = false;
        self.store_neighbor_counts = true;
        self.params = params.clone();
        self.set_variant_for(ensemble);
        self.seed = seed;
        self.step = 0;
        self.set_state(boids)?;
        self.set_catches_total(0)?;
        self.stage_ms.clear();
        self.finished.clear();
        Ok(())
    }

    /// The context (device, queue, adapter).
    pub fn context(&self) -> &GpuContext {
        &self.ctx
    }

    /// The buffers (the renderer binds `state` directly; tests drive single stages on them).
    pub fn buffers(&self) -> &SimBuffers {
        &self.buffers
    }

    /// The pipelines of every stage.
    pub fn pipelines(&self) -> &Pipelines {
        &self.pipelines
    }

    /// Lowers the per-dimension workgroup limit used to split dispatches (tests use a small value
    /// to exercise the split at small sizes). Clamped to the device limit.
    pub fn set_max_workgroups_per_dim(&mut self, max: u32) {
        self.max_per_dim = max.clamp(
            1,
            self.ctx
                .device
                .limits()
                .max_compute_workgroups_per_dimension,
        );
    }

    /// The per-dimension workgroup limit in use.
    pub fn max_workgroups_per_dim(&self) -> u32 {
        self.max_per_dim
    }

    /// Enables or disables GPU timestamp scopes (no-op without timestamp support).
    pub fn set_profiling(&mut self, on: bool) {
        let _ = self.profiler.change_settings(GpuProfilerSettings {
            enable_timer_queries: on,
            ..GpuProfilerSettings::default()
        });
    }

    /// The uniform block of the next step.
    pub fn uniforms(&self) -> StepUniforms {
        let mut u = StepUniforms::new_for(
            &self.params,
            self.count,
            self.step,
            self.seed,
            &self.interaction,
            GridFor::Gpu,
        )
        .with_obstacles(&self.obstacles)
        .with_predators(self.predators as usize)
        .with_recorded_neighbors(if self.record_neighbors {
            self.count as usize
        } else {
            0
        })
        .with_neighbor_counts(self.store_neighbor_counts);
        u.max_groups_per_dim = self.max_per_dim;
        u.predators_at = crate::stages::cells_end(self.buffers.capacity.cells);
        u.cells_known = self.cells_known(&[u.binning()]);
        u
    }

    /// `cells_known` of the next step's uniforms, whose binnings (every replica's) are `now`:
    /// 1 when the last step's `rules` wrote every boid's cell words under the same binnings and
    /// nothing has written the state since.
    pub(super) fn cells_known(&self, now: &[[u32; 12]]) -> u32 {
        u32::from(self.ctx.cell_words_exact() && self.cells_from.as_deref() == Some(now))
    }

    /// Whether the next step's `count` bins the boids by the cell words the last step's `rules`
    /// wrote (`cells_known` of its uniforms, every replica's): only on an adapter where the
    /// words are exact ([`GpuContext::cell_words_exact`]) and while the state and the binning
    /// ([`StepUniforms::binning`]) are that step's.
    pub fn counts_from_cell_words(&self) -> bool {
        self.cells_known(&self.binnings()) == 1
    }

    /// The binnings of the step about to be recorded (every replica's).
    fn binnings(&self) -> Vec<[u32; 12]> {
        if self.replicas.is_empty() {
            vec![self.uniforms().binning()]
        } else {
            self.replica_binnings()
        }
    }

    /// Writes the uniform block for the next step (laid out by encase) and the model's typed
    /// uniforms.
    pub fn write_uniforms(&self) {
        if !self.replicas.is_empty() {
            self.write_replica_uniforms();
            return;
        }
        let q = &self.ctx.queue;
        q.write_buffer(self.buffers.get("replicas"), 0, &self.uniforms().to_bytes());
        q.write_buffer(
            self.buffers.get("replica_models"),
            0,
            self.params.model_uniforms().as_bytes(),
        );
    }

    /// Invocations of a dispatch over `items` at the current sizes.
    fn invocations(&self, items: Items) -> u32 {
        if !self.replicas.is_empty() {
            return self.replica_invocations(items);
        }
        match items {
            Items::Boids => self.count,
            Items::MeasureChunks => self.count.div_ceil(crate::stages::MEASURES_CHUNK),
            Items::CellCounters => self.grid().cells() + 1,
            Items::FinalGroup => {
                let chunks = self.invocations(Items::MeasureChunks);
                // With none (no boids) the final pass writes the empty row.
                if dispatch::groups_for(chunks) == 1 {
                    0
                } else {
                    dispatch::WORKGROUP_SIZE
                }
            }
            Items::Predators => self.predators * crate::model::predators::SEARCH_GROUP,
            Items::Indirect(_)
            | Items::IndirectMetric(_)
            | Items::IndirectTopological(_)
            | Items::IndirectVoronoi(_) => 0,
        }
    }

    /// The uniform grid of the current parameters and count (the GPU's, [`GridFor::Gpu`]).
    pub fn grid(&self) -> Grid {
        Grid::new_for(&self.params, self.count as usize, GridFor::Gpu)
    }

    /// Makes the pipelines those of the run's parameters and obstacles, and of a lone run or an
    /// ensemble (compiled on first use).
    fn set_variant(&mut self) {
        self.set_variant_for(!self.replicas.is_empty());
    }

    /// [`GpuBackend::set_variant`] for an ensemble (`ensemble`) or a lone run; the pipelines it
    /// compiles, if any, are counted in the costs (a reset's, a new model's or neighbourhood's,
    /// the first obstacles', a state set after an ensemble).
    fn set_variant_for(&mut self, ensemble: bool) {
        let v = Variant {
            ensemble,
            ..Variant::of(&self.params, !self.obstacle_points.is_empty())
        };
        let before = self.ctx.pipeline_stats();
        self.pipelines.set_variant(&self.ctx, v);
        add_compiles(&mut self.costs, &before, &self.ctx.pipeline_stats());
    }

    /// Re-bins the obstacle points (when they, their radii or the world change) and uploads them.
    fn rebin_obstacles(&mut self) -> Result<(), SimError> {
        self.obstacles = obstacle_grid(&self.obstacle_points, &self.interaction, &self.params);
        self.fit(self.count)?;
        self.upload_obstacles();
        Ok(())
    }

    /// Writes the binned obstacle points into their buffers.
    fn upload_obstacles(&self) {
        let og = &self.obstacles;
        if og.starts.is_empty() {
            return;
        }
        // The region's words: the starts, then the points (as `shaders/rules_common.wgsl`'s
        // `obstacle_grid_at` finds them from the uniforms).
        let mut words: Vec<u32> = og.starts.clone();
        words.extend(og.points.iter().flat_map(|p| p.map(f32::to_bits)));
        let (cells, offset) = self.buffers.region("obstacle_grid", 4 * words.len() as u64);
        self.ctx
            .queue
            .write_buffer(cells, offset, bytemuck::cast_slice(&words));
    }

    /// Grows the buffers (keeping the first `self.count` boids and the obstacles) when `n`
    /// boids, the grid or the obstacle grid of the current parameters do not fit them, and
    /// rebuilds the scan levels when the number of cells changed. Nothing shrinks: a smaller
    /// count or grid runs in the buffers it has.
    fn fit(&mut self, n: u32) -> Result<(), SimError> {
        let need = capacity_for(
            &self.params,
            n,
            &self.obstacles,
            self.predators,
            self.record_neighbors,
        );
        self.fit_to(need)
    }

    /// As [`GpuBackend::fit`], for the capacity `need`.
    fn fit_to(&mut self, need: Capacity) -> Result<(), SimError> {
        let have = self.buffers.capacity;
        let grown = Capacity {
            boids: grow(have.boids, need.boids),
            items: grow(have.items, need.items),
            // Exactly what is needed when more (a doubled grid could pass the binding limit).
            cells: have.cells.max(need.cells),
            obstacle_cells: grow(have.obstacle_cells, need.obstacle_cells),
            obstacles: grow(have.obstacles, need.obstacles),
            predators: grow(have.predators, need.predators),
            neighbor_ids: grow(have.neighbor_ids, need.neighbor_ids),
        };
        if grown != have {
            self.reallocate(grown, need.cells)?;
        }
        if self.buffers.scan.lens[0] != need.cells + 1 {
            let t = web_time::Instant::now();
            self.buffers
                .rescan(&self.ctx.device, &self.pipelines, need.cells);
            self.costs.buffers_ms += ms_since(t);
        }
        Ok(())
    }

    /// The dispatches the stage at position `k` of [`STAGES`] (a [`Run::Dispatches`] stage)
    /// records at the current sizes: `(entry point, launch)`. A dispatch of no work is left out —
    /// a feature not in use costs no launch: no predators stage without predators, no final
    /// measures pass for one workgroup of boids, only the run's neighbourhood's heavy entry.
    pub fn dispatches(&self, k: usize) -> impl Iterator<Item = (&'static str, Launch)> + '_ {
        let list = match STAGES[k].run {
            Run::Dispatches(list) => list,
            Run::Scan { .. } => &[],
        };
        let hood = self.params.neighborhood;
        let metric = hood == crate::model::Neighborhood::Metric;
        let voronoi = hood == crate::model::Neighborhood::Voronoi;
        let deferred =
            |k: u32| Launch::Indirect(crate::stages::DEFERRED_ARGS as u64 * 4 + 12 * k as u64);
        list.iter().filter_map(move |&(entry, items)| {
            let launch = match items {
                Items::Indirect(k) => deferred(k),
                Items::IndirectMetric(k) if metric => deferred(k),
                Items::IndirectTopological(k) if !metric && !voronoi => deferred(k),
                Items::IndirectVoronoi(k) if voronoi => deferred(k),
                Items::IndirectMetric(_)
                | Items::IndirectTopological(_)
                | Items::IndirectVoronoi(_) => return None,
                _ => match dispatch::groups_for(self.invocations(items)) {
                    0 => return None,
                    groups => Launch::Groups(groups),
                },
            };
            Some((entry, launch))
        })
    }

    /// The entry points one step records, in order (the scan's levels as `scan`): what
    /// [`GpuBackend::dispatches`] leaves out is not launched.
    pub fn step_entry_points(&self) -> Vec<&'static str> {
        let mut out = Vec::new();
        for (k, stage) in STAGES.iter().enumerate() {
            if stage.when != When::Step {
                continue;
            }
            match stage.run {
                Run::Scan { .. } => out.push("scan"),
                Run::Dispatches(_) => out.extend(self.dispatches(k).map(|(e, _)| e)),
            }
        }
        out
    }

    /// Records the stage at position `k` of [`STAGES`] into `pass` (uniforms written first).
    pub fn record_stage(&self, k: usize, pass: &mut wgpu::ComputePass<'_>) {
        let sp = self.pipelines.at(k);
        if let Run::Scan { .. } = sp.stage.run {
            self.buffers.scan.record(sp, pass, self.max_per_dim);
            return;
        }
        let bind = self
            .buffers
            .bind_group(k)
            .expect("a dispatch stage's bind group");
        for (entry, launch) in self.dispatches(k) {
            pass.set_pipeline(sp.pipeline(entry));
            pass.set_bind_group(0, bind, &[]);
            match launch {
                Launch::Indirect(at) => {
                    pass.dispatch_workgroups_indirect(self.buffers.get("deferred"), at)
                }
                Launch::Groups(groups) => dispatch::dispatch(pass, groups, self.max_per_dim),
            }
        }
    }

    /// Records the stages named `names` (in that order), each in its own compute pass, into `enc`
    /// without profiler scopes (tests and benches drive single stages with it).
    pub fn record_stages(&self, enc: &mut wgpu::CommandEncoder, names: &[&str]) {
        for name in names {
            let k = STAGES
                .iter()
                .position(|s| s.name == *name)
                .unwrap_or_else(|| panic!("no stage named {name:?}"));
            let mut pass = enc.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some(STAGES[k].name),
                timestamp_writes: None,
            });
            self.record_stage(k, &mut pass);
        }
    }

    /// Records the stages run `when` into `enc`: timed ([`GpuBackend::set_profiling`]), inside a
    /// profiler scope named `scope` with one scoped compute pass per stage; untimed, in one
    /// compute pass.
    fn record_scoped(&self, enc: &mut wgpu::CommandEncoder, scope: &str, when: When) {
        if !self.profiler.settings().enable_timer_queries {
            // No stage times asked for: one compute pass for all the stages (wgpu still places
            // a barrier between dependent dispatches).
            let mut pass = enc.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some(scope),
                timestamp_writes: None,
            });
            for (k, stage) in STAGES.iter().enumerate() {
                if stage.when == when {
                    self.record_stage(k, &mut pass);
                }
            }
            return;
        }
        let mut outer = self.profiler.scope(scope, enc);
        for (k, stage) in STAGES.iter().enumerate() {
            if stage.when == when {
                let mut pass = outer.scoped_compute_pass(stage.name);
                self.record_stage(k, &mut pass);
            }
        }
    }

    /// Records one whole step into `enc` (uniforms must be written first), and swaps the roles
    /// of the buffers of [`crate::stages::SWAPPED`] as the step leaves them: submit `enc` before
    /// recording anything else.
    pub fn record_step(&mut self, enc: &mut wgpu::CommandEncoder) {
        self.record_scoped(enc, "step", When::Step);
        self.end_step_roles();
    }

    /// Swaps the roles of the buffers of [`crate::stages::SWAPPED`], as a step's `rules` leaves
    /// them (the state's ids and image counts are where `scatter` sorted them): what
    /// [`GpuBackend::record_step`] does after the step's stages, for a step recorded stage by
    /// stage with [`GpuBackend::record_stages`] (benches), once its `rules` is submitted.
    pub fn end_step_roles(&mut self) {
        self.buffers.swap_after_step();
        // `rules` wrote every boid's cell words under this step's binning.
        self.cells_from = Some(self.binnings());
    }

    /// Resolves the profiler's queries into `enc`, submits it and closes the profiler frame.
    fn submit(&mut self, mut enc: wgpu::CommandEncoder) {
        self.profiler.resolve_queries(&mut enc);
        self.ctx.queue.submit([enc.finish()]);
        // Frames dropped when too many are pending are not an error for the simulation.
        let _ = self.profiler.end_frame();
    }

    /// Collects finished timer results into per-stage times (non-blocking). Stage scopes are found
    /// at any depth (the `step` scope is absent where timestamps inside encoders are not offered).
    fn collect_timings(&mut self) {
        let period = self.ctx.queue.get_timestamp_period();
        while let Some(frame) = self.profiler.process_finished_frame(period) {
            fn walk(q: &GpuTimerQueryResult, out: &mut Vec<(&'static str, f64)>) {
                if let (Some(stage), Some(t)) = (STAGES.iter().find(|s| s.name == q.label), &q.time)
                {
                    out.retain(|(n, _)| *n != stage.name);
                    out.push((stage.name, (t.end - t.start) * 1e3));
                }
                for n in &q.nested_queries {
                    walk(n, out);
                }
            }
            // A step frame replaces the stage times; a measures frame adds to them.
            if frame
                .iter()
                .any(|q| q.label == "step" || q.label == "clear")
            {
                self.stage_ms.clear();
            }
            for top in frame {
                walk(&top, &mut self.stage_ms);
                if self.finished.len() == KEEP_SCOPES {
                    self.finished.pop_front();
                }
                self.finished.push_back(top);
            }
        }
    }

    /// Re-allocates the buffers with new capacities (the scan over `grid_cells`), keeping the first `self.count` boids and the
    /// obstacles (GPU copies; bind groups rebuilt).
    fn reallocate(&mut self, capacity: Capacity, grid_cells: u32) -> Result<(), SimError> {
        // The new `rank` holds no cell words.
        self.cells_from = None;
        let t = web_time::Instant::now();
        let new = SimBuffers::new(&self.ctx, &self.pipelines, capacity, grid_cells)?;
        self.costs.buffers_ms += ms_since(t);
        self.costs.buffer_sets += 1;
        let mut enc = self
            .ctx
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("grow"),
            });
        let keep = self.count.min(capacity.boids) as u64;
        // The predators move on the GPU: their buffer is copied too, with the catch counters.
        let predators = (self.buffers.capacity.predators.min(capacity.predators) as u64)
            * crate::stages::PREDATOR_BYTES;
        for (name, bytes) in [
            ("pos_vel", keep * 16),
            ("id", keep * 4),
            ("neighbors", keep * 4),
        ] {
            if bytes > 0 {
                enc.copy_buffer_to_buffer(self.buffers.get(name), 0, new.get(name), 0, bytes);
            }
        }
        for (name, bytes) in [
            ("image", keep * 8),
            ("hue", keep * 16),
            ("predators", predators),
            ("catches", 8),
        ] {
            if bytes > 0 {
                let (from, at) = self.buffers.region(name, bytes);
                let (to, to_at) = new.region(name, bytes);
                enc.copy_buffer_to_buffer(from, at, to, to_at, bytes);
            }
        }
        self.ctx.queue.submit([enc.finish()]);
        self.buffers = new;
        self.upload_obstacles();
        self.ctx.take_error()?;
        Ok(())
    }
}

impl GpuBackend {
    /// The flock measures of a row of sums written by the `measures` stage (`MEASURES_ROW_BYTES`, columns as
    /// in `shaders/measures.wgsl`), finished by the measure table.
    fn measures_of_row(&self, r: &[f32]) -> FlockMeasures {
        FlockMeasures::from_sums(&MeasureSums::from_row(r), &self.measure_context())
    }

    /// What finishing the measure sums of the current state needs besides them.
    fn measure_context(&self) -> MeasureContext {
        MeasureContext {
            n: self.count as usize,
            v0: self.params.constant_speed(),
            neighbors_counted: self.neighbors_counted,
        }
    }

    /// Records the measure passes of the current state and a copy of their row and the catch
    /// counters into a mappable buffer, submits them and asks for the mapping (no wait).
    fn measures_in_flight(&mut self) -> GpuPendingMeasures {
        GpuPendingMeasures {
            ctx: self.ctx.clone(),
            read: Some(self.measures_read(1)),
            context: self.measure_context(),
        }
    }

    /// Records the measure passes of the current state and a copy of the first `rows` rows of
    /// `result` (one per replica) and their catch counters (two each) into a mappable buffer,
    /// submits them and asks for the mapping (no wait).
    fn measures_read(&mut self, rows: u64) -> PendingRead {
        self.write_uniforms();
        let mut enc = self
            .ctx
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("measures"),
            });
        self.record_scoped(&mut enc, "on request", When::OnRequest);
        let read = PendingRead::record(
            &self.ctx,
            &mut enc,
            &[
                (self.buffers.get("result"), 0, rows * MEASURES_ROW_BYTES),
                {
                    let (catches, at) = self.buffers.region("catches", rows * 8);
                    (catches, at, rows * 8)
                },
            ],
        );
        self.submit(enc);
        read.start();
        read
    }
}

/// The measures row and catch counters of one request, read back without waiting.
struct GpuPendingMeasures {
    ctx: GpuContext,
    read: Option<PendingRead>,
    context: MeasureContext,
}

impl PendingMeasures for GpuPendingMeasures {
    fn poll(&mut self) -> Result<Option<FlockMeasures>, SimError> {
        let Some(read) = &self.read else {
            return Ok(None);
        };
        let Some(bytes) = read.try_take(&self.ctx)? else {
            return Ok(None);
        };
        self.read = None;
        let row = MEASURES_ROW_BYTES as usize;
        let r: Vec<f32> = bytemuck::pod_collect_to_vec(&bytes[..row]);
        let c: Vec<u32> = bytemuck::pod_collect_to_vec(&bytes[row..row + 8]);
        Ok(Some(
            FlockMeasures::from_sums(&MeasureSums::from_row(&r), &self.context)
                .with_catches(c[0], c[1]),
        ))
    }
}

/// The state of one request ([`Simulation::request_state`]), read back without waiting: the
/// same buffers and region as `read_state`.
struct GpuPendingState {
    ctx: GpuContext,
    read: Option<PendingRead>,
    n: usize,
}

impl PendingState for GpuPendingState {
    fn poll(&mut self) -> Result<Option<Vec<Boid>>, SimError> {
        let Some(read) = &self.read else {
            return Ok(None);
        };
        let Some(bytes) = read.try_take(&self.ctx)? else {
            return Ok(None);
        };
        self.read = None;
        let n = self.n;
        let (pv, rest) = bytes.split_at(16 * n);
        let (hu, rest) = rest.split_at(16 * n);
        let (id, image) = rest.split_at(4 * n);
        let pv: Vec<[f32; 4]> = bytemuck::pod_collect_to_vec(pv);
        let hu: Vec<[f32; 4]> = bytemuck::pod_collect_to_vec(hu);
        let id: Vec<u32> = bytemuck::pod_collect_to_vec(id);
        let image: Vec<[i32; 2]> = bytemuck::pod_collect_to_vec(&image[..8 * n]);
        Ok(Some(join_state(&pv, &hu, &id, &image)))
    }
}

/// The obstacle grid of `points` for the radii of `ia`.
fn obstacle_grid(points: &[[f32; 2]], ia: &Interaction, params: &SimParams) -> ObstacleGrid {
    ObstacleGrid::new(
        points,
        ia.obstacle_radius.max(ia.obstacle_bounce_radius),
        params,
    )
}

/// Milliseconds since `t`.
fn ms_since(t: web_time::Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1e3
}

/// Adds the compiles and reuses between two snapshots of the pipeline cache to `c`.
fn add_compiles(c: &mut Costs, before: &CacheStats, after: &CacheStats) {
    c.pipelines_ms += after.compile_ms - before.compile_ms;
    c.pipelines_compiled += after.compiled - before.compiled;
    c.pipelines_reused += after.reused - before.reused;
}

impl Simulation for GpuBackend {
    fn kind(&self) -> BackendKind {
        BackendKind::Gpu
    }
    fn len(&self) -> usize {
        self.count as usize
    }
    fn step_index(&self) -> u32 {
        self.step
    }
    fn set_step_index(&mut self, step: u32) {
        self.step = step;
    }
    fn set_catches_total(&mut self, total: u32) -> Result<(), SimError> {
        self.lone("set_catches_total")?;
        // [catches in the last step, running total]: the predators stage resets the first.
        let (catches, at) = self.buffers.region("catches", 8);
        self.ctx
            .queue
            .write_buffer(catches, at, bytemuck::cast_slice(&[0u32, total]));
        self.ctx.take_error()?;
        Ok(())
    }
    fn params(&self) -> &SimParams {
        &self.params
    }
    fn set_params(&mut self, params: &SimParams) -> Result<(), SimError> {
        self.lone("set_params")?;
        params.validate()?;
        let old = std::mem::replace(&mut self.params, params.clone());
        let world_changed =
            (old.world_width, old.world_height) != (params.world_width, params.world_height);
        let result = if world_changed {
            self.rebin_obstacles()
        } else {
            self.fit(self.count)
        };
        match result {
            // The rules pass is compiled for one model and neighbourhood at a time.
            Ok(()) => self.set_variant(),
            Err(_) => self.params = old,
        }
        result
    }
    fn set_interaction(&mut self, ia: &Interaction) {
        let radii_changed = (ia.obstacle_radius, ia.obstacle_bounce_radius)
            != (
                self.interaction.obstacle_radius,
                self.interaction.obstacle_bounce_radius,
            );
        self.interaction = *ia;
        if radii_changed {
            // The radii change only the obstacle grid's cell size; points that fitted still fit.
            let _ = self.rebin_obstacles();
        }
    }
    fn set_obstacles(&mut self, points: &[[f32; 2]]) -> Result<(), SimError> {
        self.lone("set_obstacles")?;
        check_fits(
            &self.ctx,
            format!("{} obstacle points", points.len()),
            points.len() as u64 * 8,
            String::new(),
        )?;
        let old = std::mem::replace(&mut self.obstacle_points, points.to_vec());
        if let Err(e) = self.rebin_obstacles() {
            // The old points fitted: they are binned and uploaded again.
            self.obstacle_points = old;
            let _ = self.rebin_obstacles();
            return Err(e);
        }
        // The obstacle sums are compiled in only while there are obstacle points.
        self.set_variant();
        Ok(())
    }

    fn set_predators(&mut self, predators: &[Predator]) -> Result<(), SimError> {
        self.lone("set_predators")?;
        validate_predators(predators)?;
        let u = self.uniforms();
        let placed: Vec<Predator> = predators.iter().map(|p| place_inside(p, &u)).collect();
        let old = std::mem::replace(&mut self.predators, placed.len() as u32);
        if let Err(e) = self.fit(self.count) {
            self.predators = old;
            return Err(e);
        }
        if !placed.is_empty() {
            let (host, at) = self.buffers.region("predators", 0);
            self.ctx
                .queue
                .write_buffer(host, at, bytemuck::cast_slice(&placed));
        }
        Ok(())
    }

    fn read_predators(&mut self) -> Result<Vec<Predator>, SimError> {
        let n = self.predators as usize;
        if n == 0 {
            return Ok(Vec::new());
        }
        Ok(self.buffers.read_region(&self.ctx, "predators", n)?)
    }

    fn predator_count(&self) -> usize {
        self.predators as usize
    }

    fn step(&mut self) -> Result<(), SimError> {
        let t = web_time::Instant::now();
        self.write_uniforms();
        let mut enc = self
            .ctx
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("step"),
            });
        self.record_step(&mut enc);
        self.submit(enc);
        self.collect_timings();
        self.step = self.step.wrapping_add(1);
        self.neighbors_counted = self.store_neighbor_counts;
        let u = self.uniforms();
        self.recorded_k = if u.record_neighbors > 0 {
            u.recorded_width()
        } else {
            0
        };
        self.costs.steps_ms += ms_since(t);
        self.ctx.take_error()?;
        Ok(())
    }

    fn finish(&mut self) -> Result<(), SimError> {
        let t = web_time::Instant::now();
        self.ctx.wait()?;
        self.costs.readback_ms += ms_since(t);
        self.collect_timings();
        Ok(())
    }

    fn read_state(&mut self) -> Result<Vec<Boid>, SimError> {
        // The request's one copy of the four arrays, waited for.
        let mut pending = self.request_state()?;
        self.ctx.wait()?;
        pending.poll()?.ok_or_else(|| {
            SimError::Gpu(crate::simulation::GpuError::Readback(
                "the state was not mapped after the queue drained".into(),
            ))
        })
    }

    fn set_state(&mut self, boids: &[Boid]) -> Result<(), SimError> {
        // A lone run again, with a lone run's pipelines when it held an ensemble (a reset has
        // chosen its pipelines before it comes here, with no replicas held).
        if !self.replicas.is_empty() {
            self.replicas.clear();
            self.set_variant();
        }
        self.recorded_k = 0;
        validate_boid_count(boids.len())?;
        check_boids(&self.ctx, boids.len() as u64)?;
        self.count = 0;
        self.cells_from = None;
        self.fit(boids.len() as u32)?;
        let t = web_time::Instant::now();
        write_state(&self.ctx, &self.buffers, 0, boids);
        self.costs.upload_ms += ms_since(t);
        let zeros = vec![0u32; boids.len()];
        self.ctx.queue.write_buffer(
            self.buffers.get("neighbors"),
            0,
            bytemuck::cast_slice(&zeros),
        );
        self.count = boids.len() as u32;
        self.neighbors_counted = false;
        Ok(())
    }

    fn add_boids(&mut self, boids: &[Boid]) -> Result<(), SimError> {
        self.lone("add_boids")?;
        self.recorded_k = 0;
        if boids.is_empty() {
            return Ok(());
        }
        let n = self.count as usize + boids.len();
        validate_boid_count(n)?;
        check_boids(&self.ctx, n as u64)?;
        self.cells_from = None;
        self.fit((n as u64).min(max_boids(&self.ctx)) as u32)?;
        write_state(&self.ctx, &self.buffers, self.count as u64, boids);
        let zeros = vec![0u32; boids.len()];
        self.ctx.queue.write_buffer(
            self.buffers.get("neighbors"),
            self.count as u64 * 4,
            bytemuck::cast_slice(&zeros),
        );
        self.count = n as u32;
        Ok(())
    }

    fn measures(&mut self) -> Result<FlockMeasures, SimError> {
        self.lone("measures")?;
        let mut pending = self.measures_in_flight();
        let t = web_time::Instant::now();
        self.ctx.wait()?;
        let m = pending.poll()?;
        self.costs.readback_ms += ms_since(t);
        self.collect_timings();
        m.ok_or_else(|| {
            SimError::Gpu(crate::simulation::GpuError::Readback(
                "the measures were not mapped after the queue drained".into(),
            ))
        })
    }

    fn request_measures(&mut self) -> Result<Box<dyn PendingMeasures>, SimError> {
        self.lone("request_measures")?;
        Ok(Box::new(self.measures_in_flight()))
    }

    fn request_state(&mut self) -> Result<Box<dyn PendingState>, SimError> {
        let n = self.count as u64;
        let mut enc = self
            .ctx
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("state read-back"),
            });
        let (image, at) = self.buffers.region("image", 8 * n);
        let (hue, hue_at) = self.buffers.region("hue", 16 * n);
        let read = PendingRead::record(
            &self.ctx,
            &mut enc,
            &[
                (self.buffers.get("pos_vel"), 0, 16 * n),
                (hue, hue_at, 16 * n),
                (self.buffers.get("id"), 0, 4 * n),
                (image, at, 8 * n),
            ],
        );
        self.submit(enc);
        read.start();
        Ok(Box::new(GpuPendingState {
            ctx: self.ctx.clone(),
            read: Some(read),
            n: n as usize,
        }))
    }

    fn run_measured(
        &mut self,
        steps: u32,
        on_step: &mut dyn FnMut(),
    ) -> Result<Vec<FlockMeasures>, SimError> {
        self.lone("run_measured")?;
        let mut out = Vec::with_capacity(steps as usize);
        self.run_with_history(steps, 1, on_step, &mut |b, h| {
            out.extend(
                h.rows
                    .iter()
                    .zip(h.catches)
                    .map(|(row, c)| b.measures_of_row(row).with_catches(c[0], c[1])),
            );
        })?;
        Ok(out)
    }

    fn record_neighbor_ids(&mut self, on: bool) -> Result<(), SimError> {
        self.lone("record_neighbor_ids")?;
        let old = std::mem::replace(&mut self.record_neighbors, on);
        if let Err(e) = self.fit(self.count) {
            self.record_neighbors = old;
            return Err(e);
        }
        Ok(())
    }

    fn store_neighbor_counts(&mut self, on: bool) {
        self.store_neighbor_counts = on;
    }

    fn neighbor_ids(&mut self) -> Result<Vec<(u32, Vec<u32>)>, SimError> {
        self.lone("neighbor_ids")?;
        let (n, k) = (self.count as usize, self.recorded_k as usize);
        if k == 0 {
            return Ok(Vec::new());
        }
        let id: Vec<u32> = read_vec(&self.ctx, self.buffers.get("id"), n)?;
        let ids: Vec<u32> = self.buffers.read_region(&self.ctx, "neighbor_ids", n * k)?;
        Ok(crate::simulation::neighbor_lists(&id, &ids, k))
    }

    fn stage_times(&mut self) -> Vec<(String, f64)> {
        self.collect_timings();
        self.stage_ms
            .iter()
            .map(|(n, ms)| (n.to_string(), *ms))
            .collect()
    }

    fn gpu_state(&self) -> Option<StateBuffers> {
        Some(StateBuffers {
            pos_vel: self.buffers.get("pos_vel").clone(),
            hue: self.buffers.range("hue"),
            neighbors: self.buffers.get("neighbors").clone(),
        })
    }

    fn gpu_predators(&self) -> Option<StorageRange> {
        (self.buffers.capacity.predators > 0).then(|| self.buffers.range("predators"))
    }

    fn has_timestamps(&self) -> bool {
        self.ctx.has_timestamps()
    }

    fn take_costs(&mut self) -> Option<Costs> {
        Some(std::mem::take(&mut self.costs))
    }

    fn take_timer_results(&mut self) -> Vec<GpuTimerQueryResult> {
        self.collect_timings();
        self.finished.drain(..).collect()
    }
}
