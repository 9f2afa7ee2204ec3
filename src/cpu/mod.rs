//! The CPU backend: the same stages as the GPU, in Rust, fast — parallel with rayon, vectorised
//! where it pays.
//!
//! [`CpuBackend`] in grid mode runs [`step::FAST_STAGES`], the step stages of
//! [`crate::stages::STAGES`] in the table's order, on a [`FastStep`] (the buffers of a
//! [`CpuStep`], named as the GPU's, and what the fast paths add), timing each; each computes what
//! its reference twin in [`crate::stages::twins`] computes (`tests/it/cpu_backend.rs`). In naive mode
//! it compares every pair (O(N²), [`naive`]). No allocation happens per step: every buffer lives
//! in the backend and is resized only when the boid count or the grid changes. The state stays in
//! the order it was given (the sorted copy is the one in cell order), so
//! [`Simulation::read_state`] returns the boids in the same order every step.
//!
//! - [`step`]: the backend's buffers and its list of stages;
//! - [`binning`]: `count`, `slots` and `scatter` in parallel;
//! - [`rules`]: `rules` in parallel, with cached candidate ranges, the vectorised gather
//!   ([`gather_simd`]) and the 8-boid integrate ([`integrate_simd`]);
//! - [`topological`]: the topological search of `rules` for k ≤ 8, eight candidates at a time;
//! - [`naive`]: the brute-force rules of `cpu-naive`.

pub mod binning;
pub mod gather_simd;
pub mod integrate_simd;
pub mod naive;
pub mod rules;
pub mod step;
pub mod topological;

use std::time::Instant;

use crate::cpu::gather_simd::GatherPath;
use crate::cpu::step::{FastStep, FAST_STAGES};
use crate::model::predators::place_inside;
use crate::model::{
    initial_state, validate_boid_count, Boid, FlockMeasures, GridFor, Interaction, ObstacleGrid,
    Predator, SimParams, StepUniforms,
};
use crate::simulation::{validate_predators, BackendKind, SimError, Simulation, StateSlices};
use crate::stages::twins::CpuStep;
use crate::stages::{self, When};

/// The CPU backend (grid or naive).
pub struct CpuBackend {
    naive: bool,
    params: SimParams,
    seed: u32,
    step: u32,
    interaction: Interaction,
    /// The obstacle points as given (the buffers hold them binned).
    obstacle_points: Vec<[f32; 2]>,
    buffers: FastStep,
    /// The naive backend's state and output (array of boids), reused every step.
    naive_in: Vec<Boid>,
    naive_out: Vec<Boid>,
    /// Wall time of each stage of the last step (static names: no allocation per step).
    stage_ms: Vec<(&'static str, f64)>,
    /// Whether steps record the neighbour ids ([`Simulation::record_neighbor_ids`]).
    record_neighbors: bool,
    /// Whether steps store each boid's neighbour count ([`Simulation::store_neighbor_counts`]).
    store_neighbor_counts: bool,
    /// Whose grid the step bins on ([`CpuBackend::use_grid_of`]).
    grid_for: GridFor,
}

impl CpuBackend {
    /// A backend holding the initial flock of `n` boids for `seed`.
    ///
    /// # Errors
    /// [`SimError::Param`] for invalid parameters or a boid count out of range.
    pub fn new(
        kind: BackendKind,
        params: &SimParams,
        n: usize,
        seed: u32,
    ) -> Result<Self, SimError> {
        params.validate()?;
        validate_boid_count(n)?;
        let boids = initial_state(seed, n, params);
        Self::from_state(kind, params, boids, seed)
    }

    /// A backend holding `boids`.
    ///
    /// # Errors
    /// As [`CpuBackend::new`].
    pub fn from_state(
        kind: BackendKind,
        params: &SimParams,
        boids: Vec<Boid>,
        seed: u32,
    ) -> Result<Self, SimError> {
        params.validate()?;
        validate_boid_count(boids.len())?;
        Ok(CpuBackend {
            naive: kind == BackendKind::CpuNaive,
            params: params.clone(),
            seed,
            step: 0,
            interaction: Interaction::with_obstacle_defaults(),
            obstacle_points: Vec::new(),
            buffers: FastStep::new(&boids, params),
            naive_in: Vec::new(),
            naive_out: Vec::new(),
            stage_ms: Vec::with_capacity(stages::STAGES.len()),
            record_neighbors: false,
            store_neighbor_counts: true,
            grid_for: GridFor::Cpu,
        })
    }

    /// Re-bins the obstacle points (when they, their radii or the world change).
    fn rebin_obstacles(&mut self) {
        let ia = &self.interaction;
        self.buffers.bufs.obstacles = ObstacleGrid::new(
            &self.obstacle_points,
            ia.obstacle_radius.max(ia.obstacle_bounce_radius),
            &self.params,
        );
    }

    /// Makes the grid steps bin on backend `on`'s ([`GridFor::Cpu`] unless set): on the GPU's,
    /// the Voronoi search offers each cell its candidates in the order of the GPU's plain search,
    /// so that its neighbour lists equal the GPU's even where cocircular boids make them depend on
    /// that order (results otherwise change only by rounding; the tests of such boids use it).
    /// The GPU's workgroup search, for the boids it defers, cuts in an order of its own.
    pub fn use_grid_of(&mut self, on: GridFor) {
        self.grid_for = on;
    }

    /// The uniforms of the next step.
    pub fn uniforms(&self) -> StepUniforms {
        StepUniforms::new_for(
            &self.params,
            self.buffers.bufs.len() as u32,
            self.step,
            self.seed,
            &self.interaction,
            self.grid_for,
        )
        .with_obstacles(&self.buffers.bufs.obstacles)
        .with_predators(self.buffers.bufs.predators.len())
        .with_recorded_neighbors(if self.record_neighbors {
            self.buffers.bufs.len()
        } else {
            0
        })
        .with_neighbor_counts(self.store_neighbor_counts)
    }

    /// The current state (a copy, in state order).
    pub fn boids(&self) -> Vec<Boid> {
        self.buffers.bufs.boids()
    }

    /// The buffers of the stages, named as the GPU's (what the last step left in them).
    pub fn buffers(&self) -> &CpuStep {
        &self.buffers.bufs
    }

    /// Chooses how `rules` gathers the neighbour sums (by default [`GatherPath::best`]): a path
    /// this CPU does not run falls back to the portable one, which gives the same bits.
    pub fn set_gather_path(&mut self, path: GatherPath) {
        self.buffers.gather_path = path;
    }

    /// Neighbour counts of the last step, aligned with the state.
    pub fn neighbor_counts(&self) -> &[u32] {
        &self.buffers.bufs.neighbors
    }
}

impl Simulation for CpuBackend {
    fn kind(&self) -> BackendKind {
        if self.naive {
            BackendKind::CpuNaive
        } else {
            BackendKind::Cpu
        }
    }
    fn len(&self) -> usize {
        self.buffers.bufs.len()
    }
    fn step_index(&self) -> u32 {
        self.step
    }
    fn set_step_index(&mut self, step: u32) {
        self.step = step;
    }
    fn set_catches_total(&mut self, total: u32) -> Result<(), SimError> {
        self.buffers.bufs.catches[1] = total;
        Ok(())
    }
    fn params(&self) -> &SimParams {
        &self.params
    }
    fn set_params(&mut self, params: &SimParams) -> Result<(), SimError> {
        params.validate()?;
        let world_changed = (params.world_width, params.world_height)
            != (self.params.world_width, self.params.world_height);
        self.params = params.clone();
        self.buffers.bufs.model_params = params.model_uniforms();
        if world_changed {
            self.rebin_obstacles();
        }
        Ok(())
    }
    fn set_interaction(&mut self, ia: &Interaction) {
        let radii_changed = (ia.obstacle_radius, ia.obstacle_bounce_radius)
            != (
                self.interaction.obstacle_radius,
                self.interaction.obstacle_bounce_radius,
            );
        self.interaction = *ia;
        if radii_changed {
            self.rebin_obstacles();
        }
    }
    fn set_obstacles(&mut self, points: &[[f32; 2]]) -> Result<(), SimError> {
        self.obstacle_points = points.to_vec();
        self.rebin_obstacles();
        Ok(())
    }
    fn set_predators(&mut self, predators: &[Predator]) -> Result<(), SimError> {
        validate_predators(predators)?;
        let u = self.uniforms();
        self.buffers.bufs.predators = predators.iter().map(|p| place_inside(p, &u)).collect();
        Ok(())
    }
    fn read_predators(&mut self) -> Result<Vec<Predator>, SimError> {
        Ok(self.buffers.bufs.predators.clone())
    }
    fn predator_count(&self) -> usize {
        self.buffers.bufs.predators.len()
    }

    fn step(&mut self) -> Result<(), SimError> {
        let u = self.uniforms();
        self.stage_ms.clear();
        if self.naive {
            let t = Instant::now();
            // The predators move as in a grid step (their search uses the grid's sorted items),
            // then the boids react by brute force.
            if !self.buffers.bufs.predators.is_empty() {
                self.buffers.prepare(u);
                for stage in FAST_STAGES.iter().take_while(|s| s.name != "rules") {
                    (stage.run)(&mut self.buffers);
                }
            }
            let b = &mut self.buffers.bufs;
            b.params = u;
            b.size_neighbor_ids(u);
            self.naive_in.clear();
            self.naive_in.extend(
                b.pos_vel
                    .iter()
                    .zip(&b.hue)
                    .zip(&b.id)
                    .zip(&b.image)
                    .map(|(((p, h), i), m)| Boid::from_parts(*p, *h, *i).with_image(*m)),
            );
            self.naive_out
                .resize(self.naive_in.len(), Boid::from_parts([0.0; 4], [0.0; 4], 0));
            b.catches[0] = 0;
            let caught = naive::rules_naive(
                &u,
                &b.model_params,
                &self.naive_in,
                &b.obstacles,
                &b.predators,
                &mut self.naive_out,
                &mut b.neighbors,
                &mut b.neighbor_ids,
            );
            b.count_catches(caught);
            // The naive rules store every count; whether they are the state's is the flag's.
            b.neighbors_counted = u.skip_neighbor_counts == 0;
            for (k, o) in self.naive_out.iter().enumerate() {
                b.pos_vel[k] = o.pos_vel();
                b.hue[k] = o.hue_parts();
                b.image[k] = o.image;
            }
            self.stage_ms
                .push(("rules", t.elapsed().as_secs_f64() * 1e3));
        } else {
            self.buffers.prepare(u);
            for stage in &FAST_STAGES {
                let t = Instant::now();
                (stage.run)(&mut self.buffers);
                self.stage_ms
                    .push((stage.name, t.elapsed().as_secs_f64() * 1e3));
            }
        }
        self.step = self.step.wrapping_add(1);
        Ok(())
    }

    fn finish(&mut self) -> Result<(), SimError> {
        Ok(())
    }
    fn read_state(&mut self) -> Result<Vec<Boid>, SimError> {
        Ok(self.buffers.bufs.boids())
    }
    fn set_state(&mut self, boids: &[Boid]) -> Result<(), SimError> {
        validate_boid_count(boids.len())?;
        self.buffers.bufs.set_state(boids);
        Ok(())
    }
    fn add_boids(&mut self, boids: &[Boid]) -> Result<(), SimError> {
        if boids.is_empty() {
            return Ok(());
        }
        validate_boid_count(self.len() + boids.len())?;
        let b = &mut self.buffers.bufs;
        for x in boids {
            b.pos_vel.push(x.pos_vel());
            b.hue.push(x.hue_parts());
            b.id.push(x.id);
            b.image.push(x.image);
            b.neighbors.push(0);
        }
        Ok(())
    }
    fn measures(&mut self) -> Result<FlockMeasures, SimError> {
        // The current parameters (the world and its boundary), as the GPU writes its uniforms.
        self.buffers.bufs.params = self.uniforms();
        let t = Instant::now();
        for stage in stages::STAGES.iter().filter(|s| s.when == When::OnRequest) {
            (stage.twin)(&mut self.buffers.bufs);
        }
        // The measures' time joins the stage times of the last step, as on the GPU.
        self.stage_ms.retain(|(n, _)| *n != "measures");
        self.stage_ms
            .push(("measures", t.elapsed().as_secs_f64() * 1e3));
        Ok(self.buffers.bufs.measures)
    }
    fn stage_times(&mut self) -> Vec<(String, f64)> {
        self.stage_ms
            .iter()
            .map(|(n, ms)| (n.to_string(), *ms))
            .collect()
    }
    fn record_neighbor_ids(&mut self, on: bool) -> Result<(), SimError> {
        self.record_neighbors = on;
        Ok(())
    }

    fn store_neighbor_counts(&mut self, on: bool) {
        self.store_neighbor_counts = on;
    }
    fn neighbor_ids(&mut self) -> Result<Vec<(u32, Vec<u32>)>, SimError> {
        let b = &self.buffers.bufs;
        Ok(crate::simulation::neighbor_lists(
            &b.id,
            &b.neighbor_ids,
            b.recorded_k,
        ))
    }
    fn cpu_predators(&self) -> Option<&[Predator]> {
        Some(&self.buffers.bufs.predators)
    }
    fn cpu_state(&self) -> Option<StateSlices<'_>> {
        Some(StateSlices {
            pos_vel: &self.buffers.bufs.pos_vel,
            hue: &self.buffers.bufs.hue,
            neighbors: &self.buffers.bufs.neighbors,
        })
    }
}
