//! [`GpuBackend`]: the whole simulation step on the GPU.
//!
//! One step records one command buffer with one compute pass per stage
//! (`clear`, `count`, `scan`, `scatter`, `rules`), each a timing scope of `wgpu-profiler` when the
//! adapter has timestamp queries. The steady-state step writes the uniform block and submits; it
//! allocates nothing and reads nothing back.

use wgpu_profiler::{GpuProfiler, GpuProfilerSettings};

use crate::backend::{BackendKind, SimError, Simulation};
use crate::gpu::buffers::{check_boids, SimBuffers, Stages, BOID_BYTES};
use crate::gpu::context::GpuContext;
use crate::gpu::readback::{read_bytes, read_vec};
use crate::model::{
    initial_state, validate_boid_count, Boid, FlockMeasures, Interaction, SimParams, StepUniforms,
};

/// Names of the GPU stages of one step, in order (also the timing scopes).
pub const GPU_STAGES: [&str; 5] = ["clear", "count", "scan", "scatter", "rules"];

/// The GPU backend.
pub struct GpuBackend {
    ctx: GpuContext,
    stages: Stages,
    buffers: SimBuffers,
    params: SimParams,
    seed: u32,
    step: u32,
    count: u32,
    interaction: Interaction,
    obstacle_count: u32,
    max_per_dim: u32,
    profiler: Option<GpuProfiler>,
    /// GPU time of each stage of the last finished step (static names).
    stage_ms: Vec<(&'static str, f64)>,
    last_frame: Option<Vec<wgpu_profiler::GpuTimerQueryResult>>,
}

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
        params.validate()?;
        validate_boid_count(boids.len())?;
        check_boids(ctx, boids.len() as u64)?;
        let stages = Stages::new(&ctx.device);
        let cells = params.grid().cells();
        let buffers = SimBuffers::new(ctx, &stages, boids.len() as u32, cells, 1)?;
        ctx.queue
            .write_buffer(&buffers.state, 0, bytemuck::cast_slice(boids));
        let profiler = if ctx.has_timestamps() {
            GpuProfiler::new(&ctx.device, GpuProfilerSettings::default()).ok()
        } else {
            None
        };
        let b = GpuBackend {
            ctx: ctx.clone(),
            stages,
            buffers,
            params: params.clone(),
            seed,
            step: 0,
            count: boids.len() as u32,
            interaction: Interaction::with_obstacle_defaults(),
            obstacle_count: 0,
            max_per_dim: ctx.device.limits().max_compute_workgroups_per_dimension,
            profiler,
            stage_ms: Vec::with_capacity(GPU_STAGES.len()),
            last_frame: None,
        };
        ctx.take_error()?;
        Ok(b)
    }

    /// The context (device, queue, adapter).
    pub fn context(&self) -> &GpuContext {
        &self.ctx
    }

    /// The buffers (the renderer binds `state` directly).
    pub fn buffers(&self) -> &SimBuffers {
        &self.buffers
    }

    /// The pipelines of every stage (tests drive single stages with them).
    pub fn stages(&self) -> &Stages {
        &self.stages
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
        if let Some(p) = &mut self.profiler {
            let _ = p.change_settings(GpuProfilerSettings {
                enable_timer_queries: on,
                ..GpuProfilerSettings::default()
            });
        }
    }

    /// Whether per-pass GPU times are measured.
    pub fn has_timestamps(&self) -> bool {
        self.profiler.is_some()
    }

    /// The raw timer results of the last finished step (for Chrome traces).
    pub fn last_timer_results(&self) -> Option<&[wgpu_profiler::GpuTimerQueryResult]> {
        self.last_frame.as_deref()
    }

    /// The uniform block of the next step.
    pub fn uniforms(&self) -> StepUniforms {
        StepUniforms::new(
            &self.params,
            self.count,
            self.step,
            self.seed,
            self.obstacle_count,
            &self.interaction,
        )
    }

    /// Writes the uniform block for the next step.
    pub fn write_uniforms(&self) {
        self.ctx.queue.write_buffer(
            &self.buffers.params,
            0,
            bytemuck::bytes_of(&self.uniforms()),
        );
    }

    /// Re-allocates the buffers with new capacities, keeping the first `self.count` boids and the
    /// obstacles (GPU copies; bind groups rebuilt).
    fn reallocate(
        &mut self,
        boid_cap: u32,
        cell_cap: u32,
        obstacle_cap: u32,
    ) -> Result<(), SimError> {
        let new = SimBuffers::new(&self.ctx, &self.stages, boid_cap, cell_cap, obstacle_cap)?;
        let mut enc = self
            .ctx
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("grow"),
            });
        let keep = self.count.min(boid_cap) as u64;
        enc.copy_buffer_to_buffer(&self.buffers.state, 0, &new.state, 0, keep * BOID_BYTES);
        enc.copy_buffer_to_buffer(&self.buffers.neighbors, 0, &new.neighbors, 0, keep * 4);
        let obst = (self.obstacle_count.min(obstacle_cap) as u64) * 8;
        if obst > 0 {
            enc.copy_buffer_to_buffer(&self.buffers.obstacles, 0, &new.obstacles, 0, obst);
        }
        self.ctx.queue.submit([enc.finish()]);
        self.buffers = new;
        self.ctx.take_error()?;
        Ok(())
    }

    /// Appends boids (ids should be unique). Buffers grow by doubling; existing boids are kept.
    ///
    /// # Errors
    /// [`SimError::Param`] / [`SimError::Gpu`] when the new count does not fit.
    pub fn add_boids(&mut self, boids: &[Boid]) -> Result<(), SimError> {
        if boids.is_empty() {
            return Ok(());
        }
        let n = self.count as usize + boids.len();
        validate_boid_count(n)?;
        check_boids(&self.ctx, n as u64)?;
        if n > self.buffers.boid_capacity as usize {
            let max = crate::gpu::buffers::max_boids(&self.ctx);
            let cap = (self.buffers.boid_capacity as u64 * 2)
                .max(n as u64)
                .min(max) as u32;
            self.reallocate(
                cap,
                self.buffers.cell_capacity,
                self.buffers.obstacle_capacity,
            )?;
        }
        self.ctx.queue.write_buffer(
            &self.buffers.state,
            self.count as u64 * BOID_BYTES,
            bytemuck::cast_slice(boids),
        );
        self.count = n as u32;
        Ok(())
    }

    /// Removes `k` boids (the last ones in buffer order, which after a step is cell order, i.e.
    /// spread over the world), keeping at least one.
    pub fn remove_boids(&mut self, k: usize) {
        self.count = (self.count as usize).saturating_sub(k).max(1) as u32;
    }

    /// Records one whole step into `enc` (uniforms must be written first).
    pub fn record_step(&mut self, enc: &mut wgpu::CommandEncoder) {
        let b = &self.buffers;
        let s = &self.stages;
        let n = self.count;
        let cells = self.params.grid().cells();
        let md = self.max_per_dim;
        match &mut self.profiler {
            Some(prof) => {
                let mut scope = prof.scope("step", enc);
                {
                    let mut p = scope.scoped_compute_pass("clear");
                    s.clear.record(&mut p, &b.bind_clear, cells, md);
                }
                {
                    let mut p = scope.scoped_compute_pass("count");
                    s.count.record(&mut p, &b.bind_count, n, md);
                }
                {
                    let mut p = scope.scoped_compute_pass("scan");
                    s.scan.record(&mut p, &b.scan, md);
                }
                {
                    let mut p = scope.scoped_compute_pass("scatter");
                    s.scatter.record(&mut p, &b.bind_scatter, n, md);
                }
                {
                    let mut p = scope.scoped_compute_pass("rules");
                    s.rules.record(&mut p, &b.bind_rules, n, md);
                }
            }
            None => {
                let mut pass = enc.begin_compute_pass(&wgpu::ComputePassDescriptor {
                    label: Some("step"),
                    timestamp_writes: None,
                });
                s.clear.record(&mut pass, &b.bind_clear, cells, md);
                s.count.record(&mut pass, &b.bind_count, n, md);
                s.scan.record(&mut pass, &b.scan, md);
                s.scatter.record(&mut pass, &b.bind_scatter, n, md);
                s.rules.record(&mut pass, &b.bind_rules, n, md);
            }
        }
    }

    /// Collects finished timer results into per-stage times (non-blocking).
    fn collect_timings(&mut self) {
        let Some(prof) = &mut self.profiler else {
            return;
        };
        let period = self.ctx.queue.get_timestamp_period();
        while let Some(frame) = prof.process_finished_frame(period) {
            // Reuse the vector and the static stage names: nothing allocated per step here.
            self.stage_ms.clear();
            for top in &frame {
                for q in &top.nested_queries {
                    let name = GPU_STAGES.iter().find(|s| **s == q.label);
                    if let (Some(name), Some(t)) = (name, &q.time) {
                        self.stage_ms.push((name, (t.end - t.start) * 1e3));
                    }
                }
            }
            self.last_frame = Some(frame);
        }
    }
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
    fn params(&self) -> &SimParams {
        &self.params
    }
    fn set_params(&mut self, params: &SimParams) -> Result<(), SimError> {
        params.validate()?;
        let cells = params.grid().cells();
        if cells != self.buffers.cell_capacity {
            self.reallocate(
                self.buffers.boid_capacity,
                cells,
                self.buffers.obstacle_capacity,
            )?;
        }
        self.params = params.clone();
        Ok(())
    }
    fn set_interaction(&mut self, ia: &Interaction) {
        self.interaction = *ia;
    }
    fn set_obstacles(&mut self, points: &[[f32; 2]]) -> Result<(), SimError> {
        let k = points.len() as u32;
        if k > self.buffers.obstacle_capacity {
            crate::gpu::buffers::check_fits(
                &self.ctx,
                format!("{k} obstacle points"),
                k as u64 * 8,
                String::new(),
            )?;
            let cap = k.next_power_of_two();
            self.reallocate(self.buffers.boid_capacity, self.buffers.cell_capacity, cap)?;
        }
        if k > 0 {
            self.ctx
                .queue
                .write_buffer(&self.buffers.obstacles, 0, bytemuck::cast_slice(points));
        }
        self.obstacle_count = k;
        Ok(())
    }

    fn step(&mut self) -> Result<(), SimError> {
        self.write_uniforms();
        let mut enc = self
            .ctx
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("step"),
            });
        self.record_step(&mut enc);
        if let Some(prof) = &mut self.profiler {
            prof.resolve_queries(&mut enc);
        }
        self.ctx.queue.submit([enc.finish()]);
        if let Some(prof) = &mut self.profiler {
            // Frames dropped when too many are pending are not an error for the simulation.
            let _ = prof.end_frame();
        }
        self.collect_timings();
        self.step = self.step.wrapping_add(1);
        self.ctx.take_error()?;
        Ok(())
    }

    fn finish(&mut self) -> Result<(), SimError> {
        self.ctx.wait()?;
        self.collect_timings();
        Ok(())
    }

    fn read_state(&mut self) -> Result<Vec<Boid>, SimError> {
        Ok(read_vec(
            &self.ctx,
            &self.buffers.state,
            self.count as usize,
        )?)
    }

    fn set_state(&mut self, boids: &[Boid]) -> Result<(), SimError> {
        validate_boid_count(boids.len())?;
        check_boids(&self.ctx, boids.len() as u64)?;
        if boids.len() > self.buffers.boid_capacity as usize {
            self.count = 0;
            self.reallocate(
                boids.len() as u32,
                self.buffers.cell_capacity,
                self.buffers.obstacle_capacity,
            )?;
        }
        self.ctx
            .queue
            .write_buffer(&self.buffers.state, 0, bytemuck::cast_slice(boids));
        let zeros = vec![0u32; boids.len()];
        self.ctx
            .queue
            .write_buffer(&self.buffers.neighbors, 0, bytemuck::cast_slice(&zeros));
        self.count = boids.len() as u32;
        Ok(())
    }

    fn measures(&mut self) -> Result<FlockMeasures, SimError> {
        self.write_uniforms();
        let mut enc = self
            .ctx
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("measures"),
            });
        {
            let mut pass = enc.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some("measures"),
                timestamp_writes: None,
            });
            self.stages.measures.record(
                &mut pass,
                &self.buffers.bind_measures,
                self.count,
                self.max_per_dim,
            );
        }
        self.ctx.queue.submit([enc.finish()]);
        let bytes = read_bytes(&self.ctx, &self.buffers.result, 0, 32)?;
        let r: Vec<f32> = bytemuck::pod_collect_to_vec(&bytes);
        let n = self.count as f32;
        Ok(FlockMeasures {
            polarization: (r[0] * r[0] + r[1] * r[1]).sqrt() / n,
            milling: r[6].abs() / n,
            mean_speed: r[2] / n,
            mean_neighbors: r[3] / n,
        })
    }

    fn stage_times(&mut self) -> Vec<(String, f64)> {
        self.collect_timings();
        self.stage_ms
            .iter()
            .map(|(n, ms)| (n.to_string(), *ms))
            .collect()
    }
}
