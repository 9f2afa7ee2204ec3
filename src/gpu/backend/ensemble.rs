//! Ensembles: up to [`MAX_REPLICAS`] independent systems (replicas) of one model stepped by the
//! same dispatches (docs/sweeps.md, "Ensembles").
//!
//! The replicas' boids lie one after another in the state buffers, their real cells one after
//! another and then their padding cells in `cells` (so the counting sort over every replica's
//! cells puts each replica's real items, in its own order, before every ghost), and their
//! measures workgroups one after another; each has its own parameter block and model uniforms
//! (`shaders/replicas.wgsl`, `shaders/model_slots.wgsl`), so its own parameters, seed, boid count
//! and world. A replica's ids are its own (0 .. n), and every stage computes what it computes for
//! a lone run of that replica, in the same order: each replica's state and measures are the bits
//! of its lone run. Replicas must share the pipeline variant (model, neighbourhood search, field of
//! view and neighbour cap compiled in). Each replica has its own predators and catch counters; obstacles and
//! recorded neighbour ids are a lone run's.

use crate::gpu::buffers::{capacity_for, check_boids, write_state};
use crate::gpu::context::GpuContext;
use crate::gpu::dispatch;
use crate::gpu::pipelines::Variant;
use crate::gpu::readback::read_vec;
use crate::model::measures::{MeasureContext, MeasureSums};
use crate::model::predators::place_inside;
use crate::model::{
    initial_state, join_state, validate_boid_count, Boid, FlockMeasures, Grid, GridFor, Predator,
    ReplicaPlace, SetupError, SimParams, StepUniforms, STEP_UNIFORMS_BYTES,
};
use crate::simulation::{validate_predators, SimError, Simulation};
use crate::stages::{Items, MAX_REPLICAS, MEASURES_CHUNK, MEASURES_ROW_BYTES};

use super::{ms_since, GpuBackend};

/// One replica of an ensemble: its parameters, seed and state.
#[derive(Clone, Debug)]
pub struct Replica {
    /// Its parameters (every replica of an ensemble has the same pipeline variant: model,
    /// neighbourhood search and whether a field of view is compiled in).
    pub params: SimParams,
    /// Its seed (its random stream is a lone run's with this seed).
    pub seed: u32,
    /// Its boids (ids 0 .. n, as [`initial_state`] makes them).
    pub boids: Vec<Boid>,
    /// Its predators (placed inside its world as a lone run's `set_predators` places them).
    pub predators: Vec<Predator>,
}

impl Replica {
    /// The replica a lone run `GpuBackend::new(ctx, params, n, seed)` would start from.
    ///
    /// # Errors
    /// [`SimError::Param`] for invalid parameters or counts.
    pub fn new(params: &SimParams, n: usize, seed: u32) -> Result<Replica, SimError> {
        params.validate()?;
        validate_boid_count(n)?;
        Ok(Replica {
            params: params.clone(),
            seed,
            boids: initial_state(seed, n, params),
            predators: Vec::new(),
        })
    }
}

/// What the backend keeps of one replica.
pub(super) struct Slot {
    params: SimParams,
    seed: u32,
    count: u32,
    /// Its predators.
    predators: u32,
    place: ReplicaPlace,
    /// Its measures workgroups.
    groups: u32,
}

/// Measures workgroups of `n` boids (as `shaders/measures.wgsl` counts them).
fn measure_groups(n: u32) -> u32 {
    dispatch::groups_for(n.div_ceil(MEASURES_CHUNK))
}

/// Checks that `replicas` can be one ensemble.
///
/// # Errors
/// [`SetupError::Ensemble`] naming the replica and what differs or is too many.
pub fn check_ensemble(replicas: &[Replica]) -> Result<(), SimError> {
    let err = |m: String| SimError::Setup(SetupError::Ensemble(m));
    let Some(first) = replicas.first() else {
        return Err(err("no replicas (at least 1)".into()));
    };
    if replicas.len() > MAX_REPLICAS as usize {
        return Err(err(format!(
            "{} replicas, at most {MAX_REPLICAS} in one ensemble (the length of the uniform \
             arrays of their parameter blocks): split it",
            replicas.len()
        )));
    }
    let v0 = Variant::of(&first.params, false);
    for (r, rep) in replicas.iter().enumerate() {
        rep.params.validate()?;
        validate_boid_count(rep.boids.len())?;
        validate_predators(&rep.predators)?;
        let v = Variant::of(&rep.params, false);
        if v != v0 {
            let (p, p0) = (&rep.params, &first.params);
            let what = if v.model != v0.model {
                format!("model = {} against {}", v.model.name(), v0.model.name())
            } else if v.search != v0.search {
                let hood = |p: &crate::model::SimParams| match p.neighborhood {
                    crate::model::Neighborhood::Topological => format!(
                        "neighborhood = topological, topological_k = {}",
                        p.topological_k
                    ),
                    n => format!("neighborhood = {}", n.name()),
                };
                format!("{} against {}", hood(p), hood(p0))
            } else if v.parts.view != v0.parts.view {
                format!("view_angle = {} against {}", p.view_angle, p0.view_angle)
            } else {
                format!(
                    "max_neighbors = {} against {}",
                    p.max_neighbors, p0.max_neighbors
                )
            };
            return Err(err(format!(
                "replica {r} needs other pipelines than replica 0 ({what}): the replicas of one \
                 ensemble share the model, the neighbourhood (and, topological, whether \
                 topological_k ≤ 8, a search of its own), whether view_angle < 360 (a field \
                 of view compiled in) and whether max_neighbors > 0 (a neighbour cap compiled \
                 in)"
            )));
        }
    }
    Ok(())
}

impl GpuBackend {
    /// A backend holding the ensemble `replicas` (step 0), each of whose states and measures
    /// are those of its lone run ([`GpuBackend::from_state`] with its parameters, boids and
    /// seed), bit for bit.
    ///
    /// # Errors
    /// [`SetupError::Ensemble`] ([`check_ensemble`]); [`SimError::Param`] for a replica's
    /// invalid parameters or count; [`SimError::Gpu`] when every replica's boids or cells do not
    /// fit the adapter's buffers (the error names the limit).
    pub fn ensemble(ctx: &GpuContext, replicas: &[Replica]) -> Result<Self, SimError> {
        check_ensemble(replicas)?;
        let first = &replicas[0];
        let mut b = GpuBackend::from_state_for(ctx, &first.params, &first.boids, first.seed, true)?;
        b.set_ensemble(replicas)?;
        Ok(b)
    }

    /// Makes this backend hold the ensemble `replicas`, keeping its buffers (they grow only when
    /// the ensemble needs more) and switching to an ensemble's pipelines (compiled once per
    /// device), as [`GpuBackend::reset`] does for one system.
    ///
    /// # Errors
    /// As [`GpuBackend::ensemble`]; the backend then holds no ensemble.
    pub fn reset_ensemble(&mut self, replicas: &[Replica]) -> Result<(), SimError> {
        check_ensemble(replicas)?;
        let first = &replicas[0];
        self.reset_for(&first.params, &first.boids, first.seed, true)?;
        self.set_ensemble(replicas)
    }

    /// Replicas held: 1 for a lone run.
    pub fn replica_count(&self) -> usize {
        self.replicas.len().max(1)
    }

    /// An error for a lone run's operation `op` asked of an ensemble.
    pub(super) fn lone(&self, op: &str) -> Result<(), SimError> {
        if self.replicas.is_empty() {
            return Ok(());
        }
        Err(SimError::Setup(SetupError::Ensemble(format!(
            "`{op}` is a lone run's; this backend holds {} replicas (reset it to one system \
             first)",
            self.replicas.len()
        ))))
    }

    /// Lays the replicas out, fits the buffers and uploads their states and model uniforms.
    fn set_ensemble(&mut self, replicas: &[Replica]) -> Result<(), SimError> {
        let total: u64 = replicas.iter().map(|r| r.boids.len() as u64).sum();
        if let Err(e) = check_boids(&self.ctx, total) {
            // The largest number of these replicas (the first ones) that fits.
            let mut sum = 0;
            let fit = replicas
                .iter()
                .take_while(|r| {
                    sum += r.boids.len() as u64;
                    check_boids(&self.ctx, sum).is_ok()
                })
                .count();
            return Err(SimError::Setup(SetupError::Ensemble(format!(
                "{} replicas of {total} boids in all do not fit: {e}; the first {fit} fit \
                 (split the ensemble)",
                replicas.len()
            ))));
        }
        let grids: Vec<Grid> = replicas
            .iter()
            .map(|r| Grid::new_for(&r.params, r.boids.len(), GridFor::Gpu))
            .collect();
        let real: u32 = grids.iter().map(Grid::real_cells).sum();
        let total_cells: u32 = grids.iter().map(Grid::cells).sum();
        let mut slots = Vec::with_capacity(replicas.len());
        let (mut boid_base, mut cell_base, mut pad_base, mut group_base) = (0, 0, real, 0);
        let mut predator_base = 0;
        for (r, (rep, grid)) in replicas.iter().zip(&grids).enumerate() {
            let count = rep.boids.len() as u32;
            let groups = measure_groups(count);
            slots.push(Slot {
                params: rep.params.clone(),
                seed: rep.seed,
                count,
                predators: rep.predators.len() as u32,
                place: ReplicaPlace {
                    replica_count: replicas.len() as u32,
                    replica: r as u32,
                    boid_base,
                    cell_base,
                    pad_base,
                    group_base,
                    total_boids: total as u32,
                    total_cells,
                    predator_base,
                },
                groups,
            });
            predator_base += rep.predators.len() as u32;
            boid_base += count;
            cell_base += grid.real_cells();
            pad_base += grid.cells() - grid.real_cells();
            group_base += groups;
        }
        let wrap = grids.iter().any(|g| g.wrap);
        let mut need = capacity_for(&replicas[0].params, total as u32, &self.obstacles, 0, false);
        need.items = total as u32 * if wrap { 2 } else { 1 };
        need.cells = total_cells;
        need.predators = predator_base;
        self.count = 0;
        self.cells_from = None;
        self.predators = predator_base;
        self.fit_to(need)?;
        let t = web_time::Instant::now();
        let mut models = vec![0u8; replicas.len() * crate::model::models::MODEL_UNIFORMS_BYTES];
        for (rep, slot) in replicas.iter().zip(&slots) {
            write_state(
                &self.ctx,
                &self.buffers,
                slot.place.boid_base as u64,
                &rep.boids,
            );
            let at = slot.place.replica as usize * crate::model::models::MODEL_UNIFORMS_BYTES;
            let bytes = rep.params.model_uniforms();
            let bytes = bytes.as_bytes();
            models[at..at + bytes.len()].copy_from_slice(bytes);
        }
        // Each replica's predators placed inside its world, as `set_predators` places a lone
        // run's; no catches yet.
        let mut placed = Vec::with_capacity(predator_base as usize);
        for (rep, slot) in replicas.iter().zip(&slots) {
            let u = self.replica_uniforms(slot);
            placed.extend(rep.predators.iter().map(|p| place_inside(p, &u)));
        }
        let q = &self.ctx.queue;
        if !placed.is_empty() {
            let (host, at) = self.buffers.region("predators", 0);
            q.write_buffer(host, at, bytemuck::cast_slice(&placed));
        }
        let (catches, at) = self.buffers.region("catches", 8 * replicas.len() as u64);
        q.write_buffer(
            catches,
            at,
            bytemuck::cast_slice(&vec![0u32; 2 * replicas.len()]),
        );
        q.write_buffer(self.buffers.get("replica_models"), 0, &models);
        let zeros = vec![0u32; total as usize];
        q.write_buffer(
            self.buffers.get("neighbors"),
            0,
            bytemuck::cast_slice(&zeros),
        );
        self.costs.upload_ms += ms_since(t);
        self.count = total as u32;
        self.replicas = slots;
        self.neighbors_counted = false;
        self.ctx.take_error()?;
        Ok(())
    }

    /// Replica `r`'s uniform block of the next step.
    fn replica_uniforms(&self, slot: &Slot) -> StepUniforms {
        let mut u = StepUniforms::new_for(
            &slot.params,
            slot.count,
            self.step,
            slot.seed,
            &self.interaction,
            GridFor::Gpu,
        )
        .with_obstacles(&self.obstacles)
        .with_predators(slot.predators as usize)
        .with_neighbor_counts(self.store_neighbor_counts)
        .in_ensemble(&slot.place);
        u.max_groups_per_dim = self.max_per_dim;
        u.predators_at = crate::stages::cells_end(self.buffers.capacity.cells);
        u
    }

    /// Writes every replica's uniform block (straight into the queue's staging memory).
    pub(super) fn write_replica_uniforms(&self) {
        let size = STEP_UNIFORMS_BYTES * self.replicas.len() as u64;
        let Some(size) = wgpu::BufferSize::new(size) else {
            return;
        };
        let Some(mut view) =
            self.ctx
                .queue
                .write_buffer_with(self.buffers.get("replicas"), 0, size)
        else {
            return;
        };
        let block = STEP_UNIFORMS_BYTES as usize;
        let known = self.cells_known(&self.replica_binnings());
        for (r, slot) in self.replicas.iter().enumerate() {
            let u = StepUniforms {
                cells_known: known,
                ..self.replica_uniforms(slot)
            };
            view.slice(r * block..(r + 1) * block)
                .copy_from_slice(&u.to_bytes());
        }
    }

    /// Every replica's binning of the next step ([`StepUniforms::binning`]).
    pub(super) fn replica_binnings(&self) -> Vec<[u32; 12]> {
        self.replicas
            .iter()
            .map(|slot| self.replica_uniforms(slot).binning())
            .collect()
    }

    /// Invocations of a dispatch over `items` for the ensemble.
    pub(super) fn replica_invocations(&self, items: Items) -> u32 {
        let slots = &self.replicas;
        match items {
            Items::Boids => self.count,
            Items::CellCounters => slots[0].place.total_cells + 1,
            // One workgroup per measures workgroup of each replica (none straddles two).
            Items::MeasureChunks => {
                slots.iter().map(|s| s.groups).sum::<u32>() * dispatch::WORKGROUP_SIZE
            }
            // One workgroup per replica when any has more than one measures workgroup.
            Items::FinalGroup => {
                if slots.iter().any(|s| s.groups != 1) {
                    slots.len() as u32 * dispatch::WORKGROUP_SIZE
                } else {
                    0
                }
            }
            Items::Predators => self.predators * crate::model::predators::SEARCH_GROUP,
            Items::Indirect(_)
            | Items::IndirectMetric(_)
            | Items::IndirectTopological(_)
            | Items::IndirectVoronoi(_) => 0,
        }
    }

    /// What finishing replica `slot`'s measure sums needs besides them.
    fn replica_context(&self, slot: &Slot) -> MeasureContext {
        MeasureContext {
            n: slot.count as usize,
            v0: slot.params.constant_speed(),
            neighbors_counted: self.neighbors_counted,
        }
    }

    /// Rows of sums of every replica (replica after replica, step after step) and their catch
    /// counters, finished per replica into `out[replica]`.
    fn replica_rows(&self, rows: &[&[f32]], catches: &[[u32; 2]], out: &mut [Vec<FlockMeasures>]) {
        for (k, (row, c)) in rows.iter().zip(catches).enumerate() {
            let rep = k % self.replicas.len();
            let ctx = self.replica_context(&self.replicas[rep]);
            out[rep].push(
                FlockMeasures::from_sums(&MeasureSums::from_row(row), &ctx)
                    .with_catches(c[0], c[1]),
            );
        }
    }

    /// The measures of every replica's current state with its catch counters (waits for the
    /// GPU), as [`Simulation::measures`] gives a lone run's.
    ///
    /// # Errors
    /// [`SetupError::Ensemble`] for a lone run; GPU errors.
    pub fn replica_measures(&mut self) -> Result<Vec<FlockMeasures>, SimError> {
        self.ensemble_only("replica_measures")?;
        let reps = self.replicas.len();
        let read = self.measures_read(reps as u64);
        self.ctx.wait()?;
        let bytes = read.try_take(&self.ctx)?.ok_or_else(|| {
            SimError::Gpu(crate::simulation::GpuError::Readback(
                "the measures were not mapped after the queue drained".into(),
            ))
        })?;
        let (sums, catches) = bytes.split_at(reps * MEASURES_ROW_BYTES as usize);
        let sums: Vec<f32> = bytemuck::pod_collect_to_vec(sums);
        let catches: Vec<[u32; 2]> = bytemuck::pod_collect_to_vec(catches);
        let rows: Vec<&[f32]> = sums
            .chunks_exact((MEASURES_ROW_BYTES / 4) as usize)
            .collect();
        let mut out: Vec<Vec<FlockMeasures>> = vec![Vec::new(); self.replicas.len()];
        self.replica_rows(&rows, &catches, &mut out);
        Ok(out.into_iter().flatten().collect())
    }

    /// Runs `steps` steps of every replica, each followed by the measures of every replica
    /// (kept on the GPU and read back in batches, as [`Simulation::run_measured`] does for one
    /// system): `[replica][step]`. `on_step` is called after each step is submitted.
    ///
    /// # Errors
    /// [`SetupError::Ensemble`] for a lone run; GPU errors.
    pub fn run_measured_replicas(
        &mut self,
        steps: u32,
        on_step: &mut dyn FnMut(),
    ) -> Result<Vec<Vec<FlockMeasures>>, SimError> {
        self.ensemble_only("run_measured_replicas")?;
        let reps = self.replicas.len() as u32;
        let mut out: Vec<Vec<FlockMeasures>> = (0..reps)
            .map(|_| Vec::with_capacity(steps as usize))
            .collect();
        self.run_with_history(steps, reps, on_step, &mut |b, h| {
            b.replica_rows(h.rows, h.catches, &mut out)
        })?;
        Ok(out)
    }

    /// Replica `r`'s boids (in its sort's order after a step, as a lone run's).
    ///
    /// # Errors
    /// [`SetupError::Ensemble`] for a replica not held; GPU errors.
    pub fn replica_state(&mut self, r: usize) -> Result<Vec<Boid>, SimError> {
        if self.replicas.is_empty() && r == 0 {
            return self.read_state();
        }
        let slot = self.slot(r)?;
        let (at, n) = (slot.place.boid_base as usize, slot.count as usize);
        let end = at + n;
        let pv: Vec<[f32; 4]> = read_vec(&self.ctx, self.buffers.get("pos_vel"), end)?;
        let hu: Vec<[f32; 4]> = self.buffers.read_region(&self.ctx, "hue", end)?;
        let id: Vec<u32> = read_vec(&self.ctx, self.buffers.get("id"), end)?;
        let image: Vec<[i32; 2]> = self.buffers.read_region(&self.ctx, "image", end)?;
        Ok(join_state(&pv[at..], &hu[at..], &id[at..], &image[at..]))
    }

    /// Every replica's boids, read back once: `[replica]`.
    ///
    /// # Errors
    /// GPU errors.
    pub fn replica_states(&mut self) -> Result<Vec<Vec<Boid>>, SimError> {
        let all = self.read_state()?;
        if self.replicas.is_empty() {
            return Ok(vec![all]);
        }
        Ok(self
            .replicas
            .iter()
            .map(|s| {
                let at = s.place.boid_base as usize;
                all[at..at + s.count as usize].to_vec()
            })
            .collect())
    }

    /// Replica `r`'s predators (placed and moved as a lone run's).
    ///
    /// # Errors
    /// [`SetupError::Ensemble`] for a replica not held; GPU errors.
    pub fn replica_predators(&mut self, r: usize) -> Result<Vec<Predator>, SimError> {
        if self.replicas.is_empty() && r == 0 {
            return self.read_predators();
        }
        let slot = self.slot(r)?;
        let (at, n) = (slot.place.predator_base as usize, slot.predators as usize);
        if n == 0 {
            return Ok(Vec::new());
        }
        let all: Vec<Predator> = self.buffers.read_region(&self.ctx, "predators", at + n)?;
        Ok(all[at..].to_vec())
    }

    /// Replica `r`'s parameters.
    pub fn replica_params(&self, r: usize) -> Option<&SimParams> {
        match self.replicas.get(r) {
            Some(s) => Some(&s.params),
            None if r == 0 => Some(&self.params),
            None => None,
        }
    }

    /// Replica `r`'s slot.
    ///
    /// # Errors
    /// [`SetupError::Ensemble`] for a replica not held.
    fn slot(&self, r: usize) -> Result<&Slot, SimError> {
        self.replicas.get(r).ok_or_else(|| {
            SimError::Setup(SetupError::Ensemble(format!(
                "replica {r}: this backend holds {} (0 .. {})",
                self.replica_count(),
                self.replica_count()
            )))
        })
    }

    /// An error for an ensemble's operation `op` asked of a lone run.
    fn ensemble_only(&self, op: &str) -> Result<(), SimError> {
        if self.replicas.is_empty() {
            return Err(SimError::Setup(SetupError::Ensemble(format!(
                "`{op}` needs an ensemble (GpuBackend::ensemble); this backend holds one system"
            ))));
        }
        Ok(())
    }
}
