//! The CPU reference backend: the same stages as the GPU, in Rust, parallel with rayon.
//!
//! [`CpuBackend`] in grid mode runs the CPU twin of every step stage of
//! [`crate::stages::STAGES`], in the table's order, on a [`CpuStep`] (buffers named as the GPU's),
//! timing each; in naive mode it compares every pair (O(N²)). No allocation happens per step:
//! every buffer lives in the backend and is resized only when the boid count or the grid changes.

use std::time::Instant;

use crate::model::{
    initial_state, validate_boid_count, Actors, Boid, FlockMeasures, Interaction, SimParams,
    StepUniforms,
};
use crate::simulation::{BackendKind, SimError, Simulation};
use crate::stages::twins::{self, CpuStep};
use crate::stages::{self, When};

/// The CPU backend (grid or naive).
pub struct CpuBackend {
    naive: bool,
    params: SimParams,
    seed: u32,
    step: u32,
    interaction: Interaction,
    buffers: CpuStep,
    /// Wall time of each stage of the last step (static names: no allocation per step).
    stage_ms: Vec<(&'static str, f64)>,
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
            buffers: CpuStep::new(boids, params),
            stage_ms: Vec::with_capacity(stages::STAGES.len()),
        })
    }

    /// The uniforms of the next step.
    pub fn uniforms(&self) -> StepUniforms {
        StepUniforms::new(
            &self.params,
            self.buffers.state.len() as u32,
            self.step,
            self.seed,
            self.buffers.obstacles.len() as u32,
            &self.interaction,
        )
    }

    /// The current state without copying (cell order after a grid step).
    pub fn boids(&self) -> &[Boid] {
        &self.buffers.state
    }

    /// Neighbour counts of the last step, aligned with [`CpuBackend::boids`].
    pub fn neighbor_counts(&self) -> &[u32] {
        &self.buffers.neighbors
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
        self.buffers.state.len()
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
        self.params = params.clone();
        self.buffers.resize_cells(params);
        Ok(())
    }
    fn set_interaction(&mut self, ia: &Interaction) {
        self.interaction = *ia;
    }
    fn set_actors(&mut self, actors: &Actors) -> Result<(), SimError> {
        self.buffers.obstacles.clear();
        self.buffers.obstacles.extend_from_slice(&actors.obstacles);
        Ok(())
    }

    fn step(&mut self) -> Result<(), SimError> {
        self.buffers.params = self.uniforms();
        self.stage_ms.clear();
        let b = &mut self.buffers;
        if self.naive {
            let t = Instant::now();
            twins::rules_naive(
                &b.params,
                &b.state,
                &b.obstacles,
                &mut b.sorted,
                &mut b.neighbors,
            );
            std::mem::swap(&mut b.state, &mut b.sorted);
            self.stage_ms
                .push(("rules", t.elapsed().as_secs_f64() * 1e3));
        } else {
            for stage in stages::step_stages() {
                let t = Instant::now();
                (stage.twin)(b);
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
        Ok(self.buffers.state.clone())
    }
    fn set_state(&mut self, boids: &[Boid]) -> Result<(), SimError> {
        validate_boid_count(boids.len())?;
        self.buffers.set_state(boids.to_vec());
        Ok(())
    }
    fn add_boids(&mut self, boids: &[Boid]) -> Result<(), SimError> {
        if boids.is_empty() {
            return Ok(());
        }
        validate_boid_count(self.len() + boids.len())?;
        let mut all = std::mem::take(&mut self.buffers.state);
        let mut neighbors = std::mem::take(&mut self.buffers.neighbors);
        all.extend_from_slice(boids);
        neighbors.resize(all.len(), 0);
        self.buffers.set_state(all);
        self.buffers.neighbors = neighbors;
        Ok(())
    }
    fn measures(&mut self) -> Result<FlockMeasures, SimError> {
        // The current parameters (the world and its boundary), as the GPU writes its uniforms.
        self.buffers.params = self.uniforms();
        let t = Instant::now();
        for stage in stages::STAGES.iter().filter(|s| s.when == When::OnRequest) {
            (stage.twin)(&mut self.buffers);
        }
        // The measures' time joins the stage times of the last step, as on the GPU.
        self.stage_ms.retain(|(n, _)| *n != "measures");
        self.stage_ms
            .push(("measures", t.elapsed().as_secs_f64() * 1e3));
        Ok(self.buffers.measures)
    }
    fn stage_times(&mut self) -> Vec<(String, f64)> {
        self.stage_ms
            .iter()
            .map(|(n, ms)| (n.to_string(), *ms))
            .collect()
    }
    fn cpu_state(&self) -> Option<&[Boid]> {
        Some(&self.buffers.state)
    }
}
