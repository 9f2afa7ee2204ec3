//! The CPU reference backend (SPEC §1): the same stages as the GPU, in Rust, parallel with rayon.
//!
//! [`CpuBackend`] in grid mode bins boids into the uniform grid by counting sort (`clear`, `count`,
//! `scan`, `scatter`) and runs `rules` over the 3×3 cell block; in naive mode it compares every pair
//! (O(N²)). No allocation happens per step: every buffer lives in the backend and is resized only
//! when the boid count or the grid changes.

pub mod stages;

use std::time::Instant;

use crate::backend::{BackendKind, SimError, Simulation};
use crate::model::{
    initial_state, validate_boid_count, Boid, FlockMeasures, Interaction, SimParams, StepUniforms,
};

/// Names of the CPU stages in step order (the GPU stages share them).
pub const CPU_STAGES: [&str; 5] = ["clear", "count", "scan", "scatter", "rules"];

/// The CPU backend (grid or naive).
pub struct CpuBackend {
    naive: bool,
    params: SimParams,
    seed: u32,
    step: u32,
    interaction: Interaction,
    obstacles: Vec<[f32; 2]>,
    /// Current state (in cell order after a grid step).
    boids: Vec<Boid>,
    /// Scattered copy (the other half of the ping-pong pair).
    sorted: Vec<Boid>,
    /// Cell counts, then (after `scan`) cell starts; `cell_count + 1` entries.
    cells: Vec<u32>,
    boid_cell: Vec<u32>,
    boid_rank: Vec<u32>,
    neighbors: Vec<u32>,
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
        let mut b = CpuBackend {
            naive: kind == BackendKind::CpuNaive,
            params: params.clone(),
            seed,
            step: 0,
            interaction: Interaction::with_obstacle_defaults(),
            obstacles: Vec::new(),
            boids: Vec::new(),
            sorted: Vec::new(),
            cells: Vec::new(),
            boid_cell: Vec::new(),
            boid_rank: Vec::new(),
            neighbors: Vec::new(),
            stage_ms: Vec::with_capacity(CPU_STAGES.len()),
        };
        b.install(boids);
        Ok(b)
    }

    fn install(&mut self, boids: Vec<Boid>) {
        let n = boids.len();
        self.boids = boids;
        self.sorted = vec![bytemuck::Zeroable::zeroed(); n];
        self.boid_cell = vec![0; n];
        self.boid_rank = vec![0; n];
        self.neighbors = vec![0; n];
        self.resize_cells();
    }

    fn resize_cells(&mut self) {
        let cells = self.params.grid().cells() as usize + 1;
        self.cells.resize(cells, 0);
    }

    /// The uniforms of the next step.
    pub fn uniforms(&self) -> StepUniforms {
        StepUniforms::new(
            &self.params,
            self.boids.len() as u32,
            self.step,
            self.seed,
            self.obstacles.len() as u32,
            &self.interaction,
        )
    }

    /// The current state without copying (cell order after a grid step).
    pub fn boids(&self) -> &[Boid] {
        &self.boids
    }

    /// Neighbour counts of the last step, aligned with [`CpuBackend::boids`].
    pub fn neighbor_counts(&self) -> &[u32] {
        &self.neighbors
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
        self.boids.len()
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
        self.resize_cells();
        Ok(())
    }
    fn set_interaction(&mut self, ia: &Interaction) {
        self.interaction = *ia;
    }
    fn set_obstacles(&mut self, points: &[[f32; 2]]) -> Result<(), SimError> {
        self.obstacles.clear();
        self.obstacles.extend_from_slice(points);
        Ok(())
    }

    fn step(&mut self) -> Result<(), SimError> {
        let u = self.uniforms();
        self.stage_ms.clear();
        if self.naive {
            let t = Instant::now();
            stages::rules_naive(
                &u,
                &self.boids,
                &self.obstacles,
                &mut self.sorted,
                &mut self.neighbors,
            );
            std::mem::swap(&mut self.boids, &mut self.sorted);
            self.stage_ms
                .push(("rules", t.elapsed().as_secs_f64() * 1e3));
        } else {
            let grid = u.grid();
            let mut t = Instant::now();
            let mut lap = |name: &'static str, ms: &mut Vec<(&'static str, f64)>| {
                let now = Instant::now();
                ms.push((name, (now - t).as_secs_f64() * 1e3));
                t = now;
            };
            stages::clear(&mut self.cells);
            lap("clear", &mut self.stage_ms);
            stages::count(
                &self.boids,
                &grid,
                &mut self.cells,
                &mut self.boid_cell,
                &mut self.boid_rank,
            );
            lap("count", &mut self.stage_ms);
            stages::scan(&mut self.cells);
            lap("scan", &mut self.stage_ms);
            stages::scatter(
                &self.boids,
                &self.boid_cell,
                &self.boid_rank,
                &self.cells,
                &mut self.sorted,
            );
            lap("scatter", &mut self.stage_ms);
            stages::rules(
                &u,
                &self.sorted,
                &self.cells,
                &self.obstacles,
                &mut self.boids,
                &mut self.neighbors,
            );
            lap("rules", &mut self.stage_ms);
        }
        self.step = self.step.wrapping_add(1);
        Ok(())
    }

    fn finish(&mut self) -> Result<(), SimError> {
        Ok(())
    }
    fn read_state(&mut self) -> Result<Vec<Boid>, SimError> {
        Ok(self.boids.clone())
    }
    fn set_state(&mut self, boids: &[Boid]) -> Result<(), SimError> {
        validate_boid_count(boids.len())?;
        self.install(boids.to_vec());
        self.neighbors.fill(0);
        Ok(())
    }
    fn measures(&mut self) -> Result<FlockMeasures, SimError> {
        Ok(stages::measures(&self.boids, &self.neighbors))
    }
    fn stage_times(&mut self) -> Vec<(String, f64)> {
        self.stage_ms
            .iter()
            .map(|(n, ms)| (n.to_string(), *ms))
            .collect()
    }
}
