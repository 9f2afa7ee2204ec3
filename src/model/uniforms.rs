//! [`StepUniforms`]: the parameter block of one step, derived from the parameters once on the CPU
//! (`StepUniforms::new`, in `crate::model::derive`, which knows the model table) and used unchanged
//! by the CPU rules and (as a uniform buffer) by every WGSL stage.
//!
//! Its WGSL layout (the `Params` struct of `shaders/common.wgsl`) is computed by `encase`
//! ([`encase::ShaderType`]), and the bytes uploaded come from [`StepUniforms::to_bytes`];
//! `tests/it/shaders.rs` checks every member name, offset and type against naga's reflection of the
//! WGSL.

use encase::ShaderType;

use crate::model::grid::{Grid, ObstacleGrid};

/// Derived per-step constants (squared radii, grid, bounds). Units as in
/// [`crate::model::SimParams`]; squared
/// radii in wu².
#[derive(Clone, Copy, Debug, PartialEq, ShaderType, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StepUniforms {
    /// World width W (wu).
    pub world_width: f32,
    /// World height H (wu).
    pub world_height: f32,
    /// 1 / W (1/wu).
    pub inv_world_width: f32,
    /// 1 / H (1/wu).
    pub inv_world_height: f32,
    /// Largest x a boid may have in the non-wrapping modes: W·(1 − 1e-6) (wu).
    pub x_max: f32,
    /// Largest y a boid may have in the non-wrapping modes (wu).
    pub y_max: f32,
    /// Step (s).
    pub dt: f32,
    /// Boundary code ([`crate::model::Boundary::code`]).
    pub boundary: u32,
    /// Number of boids.
    pub boid_count: u32,
    /// Step counter (for the counter-based noise).
    pub step: u32,
    /// Random seed (low 32 bits).
    pub seed: u32,
    /// Grid columns (without the padding).
    pub grid_cols: u32,
    /// Grid rows.
    pub grid_rows: u32,
    /// Padding cells at each end of a row (their cells, after the `grid_cols · grid_rows` real
    /// ones, exist only in a wrapping world).
    pub grid_pad: u32,
    /// Block half-width in columns (1 or 2).
    pub block_x: u32,
    /// Block half-height in rows (1 or 2).
    pub block_y: u32,
    /// Number of cells, padding included.
    pub cell_count: u32,
    /// Columns per wu.
    pub inv_cell_x: f32,
    /// Rows per wu.
    pub inv_cell_y: f32,
    /// Largest workgroup count per dispatch dimension (GPU dispatches split beyond it).
    pub max_groups_per_dim: u32,
    /// perception_radius² (wu²).
    pub perception_r2: f32,
    /// separation_radius² (wu²).
    pub separation_r2: f32,
    /// alignment_radius² (wu²).
    pub alignment_r2: f32,
    /// cohesion_radius² (wu²).
    pub cohesion_r2: f32,
    /// hue_radius² (wu²).
    pub hue_r2: f32,
    /// The separation sum's weight ([`crate::model::models::PairWeight`] code: 0 d, 1 d/|d|,
    /// 2 d/|d|²; the model's declared pair terms, docs/model.md §4.7).
    pub separation_weight: u32,
    /// The cohesion sum's weight (the same codes).
    pub cohesion_weight: u32,
    /// The inner edge of the alignment band, squared (wu²): 0 for a disc, separation_r2 for an
    /// annulus.
    pub alignment_inner_r2: f32,
    /// The inner edge of the cohesion band, squared (wu²): 0 for a disc, alignment_r2 for an
    /// annulus.
    pub cohesion_inner_r2: f32,
    /// Neighbour cap (0 = unlimited).
    pub max_neighbors: u32,
    /// k of the topological neighbourhood: each boid's neighbours are its k nearest others
    /// whatever the distance (docs/model.md §19); 0 = another neighbourhood (metric or Voronoi).
    pub topological_k: u32,
    /// 1 = the Voronoi neighbourhood: each boid's neighbours are those whose Voronoi cells share
    /// an edge with its own (docs/model.md §19.5); 0 = another neighbourhood.
    pub voronoi: u32,
    /// Boids (sorted items `0 .. record_neighbors`) whose neighbour ids the `rules` stage writes
    /// to `neighbor_ids` ([`StepUniforms::recorded_width`] per boid: the topological k nearest
    /// first, the Voronoi ones ascending); 0 = none (the default: only tests and analyses ask for
    /// them).
    pub record_neighbors: u32,
    /// The field of view's test (docs/model.md §4.6): 0 = every direction (`view_angle` 360);
    /// 1 = α ≤ 180°, a neighbour is seen when d·v ≥ 0 and (d·v)² ≥ cos²(α/2)·|d|²|v|²; 2 = α >
    /// 180°, seen when d·v ≥ 0 or (d·v)² ≤ cos²(α/2)·|d|²|v|² (d the offset to it, v the boid's
    /// velocity).
    pub view_mode: u32,
    /// cos²(α/2) of the field of view α.
    pub view_cos2: f32,
    /// Colour cohesion weight (1/s²).
    pub hue_cohesion_weight: f32,
    /// Colour alignment weight (1/s).
    pub hue_alignment_weight: f32,
    /// Largest hue speed (1/s).
    pub max_hue_speed: f32,
    /// Wall distance (wu).
    pub wall_distance: f32,
    /// Wall weight (wu/s²).
    pub wall_weight: f32,
    /// Standard deviation of the per-step heading change by rotational diffusion,
    /// sqrt(2·D_r·Δt) (rad; docs/model.md §7). 0 = no noise.
    pub heading_sd: f32,
    /// Pointer position x (wu), for the attract/repel tools.
    pub pointer_x: f32,
    /// Pointer position y (wu).
    pub pointer_y: f32,
    /// Pointer radius (wu); 0 = pointer inactive.
    pub pointer_radius: f32,
    /// Pointer weight: > 0 attracts (seek), < 0 repels (flee).
    pub pointer_weight: f32,
    /// Number of obstacle points (binned into the obstacle grid).
    pub obstacle_count: u32,
    /// Obstacle grid columns.
    pub obstacle_cols: u32,
    /// Obstacle grid rows.
    pub obstacle_rows: u32,
    /// Obstacle grid columns per wu.
    pub obstacle_inv_cell_x: f32,
    /// Obstacle grid rows per wu.
    pub obstacle_inv_cell_y: f32,
    /// Obstacle repulsion radius (wu).
    pub obstacle_radius: f32,
    /// Obstacle repulsion weight.
    pub obstacle_weight: f32,
    /// Obstacle bounce radius (wu).
    pub obstacle_bounce_radius: f32,
    /// The model ([`crate::model::Model::code`]: its index in the model table).
    pub model: u32,
    /// Lowest speed of a spawned or respawned boid (the model's speed rule; wu/s or wu per step).
    pub spawn_speed_min: f32,
    /// Highest speed of a spawned or respawned boid.
    pub spawn_speed_max: f32,
    /// Number of predators (docs/model.md §18).
    pub predator_count: u32,
    /// predator_radius² (wu²).
    pub predator_r2: f32,
    /// Predator repulsion strength B (wu^1.5/s²).
    pub predator_weight: f32,
    /// predator_sight_radius² (wu²).
    pub predator_sight_r2: f32,
    /// Highest speed of a hunting predator (wu/s).
    pub predator_max_speed: f32,
    /// Largest steering force of a hunting predator (wu/s²).
    pub predator_max_force: f32,
    /// catch_radius² (wu²).
    pub catch_r2: f32,
    /// Grid columns a hunting predator searches on each side of its own
    /// (⌊sight · cols/W⌋ + 1, at most [`crate::model::predators::SEARCH_REACH_MAX`]).
    pub predator_reach_x: u32,
    /// Grid rows a hunting predator searches above and below its own.
    pub predator_reach_y: u32,
    // Where this system lies in an ensemble's buffers (`shaders/replicas.wgsl`; set by
    // [`StepUniforms::in_ensemble`]); a lone run is replica 0 of 1.
    /// Replicas in the ensemble (the same in every replica's block).
    pub replica_count: u32,
    /// This replica's index.
    pub replica: u32,
    /// The replica's first state index (its boids are `boid_base .. boid_base + boid_count`).
    pub boid_base: u32,
    /// The replica's first real cell.
    pub cell_base: u32,
    /// The replica's first padding cell (every replica's real cells come first).
    pub pad_base: u32,
    /// The replica's first workgroup of the measures reduction.
    pub group_base: u32,
    /// Boids of all replicas (the same in every replica's block).
    pub total_boids: u32,
    /// Cells of all replicas, padding included (the same in every replica's block).
    pub total_cells: u32,
    /// The replica's first predator (its predators are `predator_base .. + predator_count`).
    pub predator_base: u32,
    /// The first word of the predators in the GPU buffer that holds them (the region
    /// `predators` of `cells`: [`crate::stages::cells_end`] of the buffers' capacity; set by the
    /// GPU backend, unused by the CPU's).
    pub predators_at: u32,
    /// 1 when each boid's cell is already in the `rank` buffer's plane `item_cell`, written by
    /// the previous step's `rules` from the position it wrote, under the same grid and state
    /// layout: `count` then reads that word (4 bytes) instead of the boid's position (16) and
    /// writes no cell. 0 (the default, and the CPU backends' value) = `count` finds each cell
    /// from the position. Set by the GPU backend on adapters where the words are exact
    /// (`GpuContext::cell_words_exact`: Vulkan); the same in every
    /// replica's block.
    #[serde(default)]
    pub cells_known: u32,
    /// 1 when `rules` stores no neighbour count (the GPU's `neighbors` buffer and the twin's keep
    /// what they held; the CPU backend's fast rules still write theirs: the counts are then not
    /// those of the state either way, and the measures give no mean neighbour count),
    /// for steps whose counts nothing reads — a warm-up's — 4 bytes a boid less written.
    /// 0 (the default) = every step stores each boid's count. Set by the backends from
    /// `Simulation::store_neighbor_counts`; the same in every replica's block.
    /// (Padded to 16 bytes: a uniform array's stride is a multiple of 16.)
    #[serde(default)]
    #[shader(size(16))]
    pub skip_neighbor_counts: u32,
}

/// Where one replica lies in an ensemble's buffers ([`StepUniforms::in_ensemble`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct ReplicaPlace {
    /// Replicas in the ensemble.
    pub replica_count: u32,
    /// This replica's index.
    pub replica: u32,
    /// Its first state index.
    pub boid_base: u32,
    /// Its first real cell.
    pub cell_base: u32,
    /// Its first padding cell.
    pub pad_base: u32,
    /// Its first measures workgroup.
    pub group_base: u32,
    /// Boids of all replicas.
    pub total_boids: u32,
    /// Cells of all replicas.
    pub total_cells: u32,
    /// Its first predator.
    pub predator_base: u32,
}

/// The live interaction state that is not a simulation parameter: pointer tool and obstacles.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Interaction {
    /// Pointer position (wu).
    pub pointer: [f32; 2],
    /// Pointer radius (wu); 0 disables it.
    pub pointer_radius: f32,
    /// > 0 attract, < 0 repel.
    pub pointer_weight: f32,
    /// Obstacle repulsion radius (wu).
    pub obstacle_radius: f32,
    /// Obstacle repulsion weight.
    pub obstacle_weight: f32,
    /// Obstacle bounce radius (wu).
    pub obstacle_bounce_radius: f32,
}

impl Interaction {
    /// Obstacle defaults (docs/model.md §6.4): push within 30 wu, bounce within 6 wu.
    pub fn with_obstacle_defaults() -> Self {
        Interaction {
            obstacle_radius: 30.0,
            obstacle_weight: 3.0,
            obstacle_bounce_radius: 6.0,
            ..Default::default()
        }
    }
}

impl StepUniforms {
    /// These uniforms recording the neighbour ids of the first `n` sorted items
    /// (`record_neighbors`; none in the metric neighbourhood).
    pub fn with_recorded_neighbors(mut self, n: usize) -> Self {
        self.record_neighbors = if self.recorded_width() > 0 {
            n as u32
        } else {
            0
        };
        self
    }

    /// Whether `rules` stores each boid's neighbour count (`skip_neighbor_counts` is 0).
    pub fn with_neighbor_counts(mut self, store: bool) -> Self {
        self.skip_neighbor_counts = u32::from(!store);
        self
    }

    /// The neighbour ids recorded a boid: `topological_k` in the topological neighbourhood
    /// (nearest first), [`crate::model::voronoi::VORONOI_EDGES_MAX`] in the Voronoi one
    /// (ascending, `u32::MAX` past the last), 0 in the metric one.
    pub fn recorded_width(&self) -> u32 {
        if self.topological_k > 0 {
            self.topological_k
        } else if self.voronoi != 0 {
            crate::model::voronoi::VORONOI_EDGES_MAX as u32
        } else {
            0
        }
    }

    /// These uniforms with `n` predators.
    pub fn with_predators(mut self, n: usize) -> Self {
        self.predator_count = n as u32;
        self
    }

    /// These uniforms with the obstacle grid `og` (its dimensions and point count).
    pub fn with_obstacles(mut self, og: &ObstacleGrid) -> Self {
        self.obstacle_count = og.points.len() as u32;
        self.obstacle_cols = og.cols;
        self.obstacle_rows = og.rows;
        self.obstacle_inv_cell_x = og.inv_cell_x;
        self.obstacle_inv_cell_y = og.inv_cell_y;
        self
    }

    /// These uniforms as replica `place.replica` of an ensemble.
    pub fn in_ensemble(mut self, place: &ReplicaPlace) -> Self {
        self.replica_count = place.replica_count;
        self.replica = place.replica;
        self.boid_base = place.boid_base;
        self.cell_base = place.cell_base;
        self.pad_base = place.pad_base;
        self.group_base = place.group_base;
        self.total_boids = place.total_boids;
        self.total_cells = place.total_cells;
        self.predator_base = place.predator_base;
        self
    }

    /// What decides each item's cell words and where `count` and `rules` keep them (the grid,
    /// the boundary, and the replica's place among the boids and cells): uniforms with equal
    /// binnings give every position the same words, so cells a step's `rules` wrote under one
    /// are the next `count`'s under the other (`cells_known`).
    pub fn binning(&self) -> [u32; 12] {
        [
            self.boundary,
            self.grid_cols,
            self.grid_rows,
            self.grid_pad,
            self.cell_count,
            self.inv_cell_x.to_bits(),
            self.inv_cell_y.to_bits(),
            self.boid_base,
            self.boid_count,
            self.cell_base,
            self.pad_base,
            self.total_boids,
        ]
    }

    /// The grid these uniforms describe.
    pub fn grid(&self) -> Grid {
        Grid {
            cols: self.grid_cols,
            rows: self.grid_rows,
            pad: self.grid_pad,
            block_x: self.block_x,
            block_y: self.block_y,
            inv_cell_x: self.inv_cell_x,
            inv_cell_y: self.inv_cell_y,
            wrap: self.boundary == 0,
        }
    }

    /// The block as the bytes of the WGSL uniform, laid out by encase (no allocation).
    pub fn to_bytes(&self) -> [u8; STEP_UNIFORMS_BYTES as usize] {
        let mut buf = encase::UniformBuffer::new([0u8; STEP_UNIFORMS_BYTES as usize]);
        buf.write(self)
            .expect("the array is exactly the block's size");
        buf.into_inner()
    }
}

/// Bytes of the WGSL uniform block of [`StepUniforms`] (computed by encase).
pub const STEP_UNIFORMS_BYTES: u64 = <StepUniforms as encase::ShaderSize>::SHADER_SIZE.get();
