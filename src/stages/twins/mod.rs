//! The CPU twins of the compute stages: the reference definition of each stage, one file per
//! stage with the stage's name — `clear` → `count` → `scan` → `slots` → `scatter` →
//! `scatter_heavy` → `predators` → `rules` → `rules_heavy`, and `measures` on request. The GPU stage of the same name (`shaders/<name>.wgsl`,
//! described in [`crate::stages::STAGES`]) is tested against its twin, and so is each fast path
//! of the CPU backend (`crate::cpu`). The twins are plain scalar code, single-threaded, written
//! to be obviously right rather than fast; the `<name>_step` adapters run them on the buffers of
//! a [`CpuStep`], which are named as the GPU's.
//!
//! **Items.** Every boid is an item of its cell; in a wrapping world a boid within `pad` columns of
//! the left or right edge is a second item, its *ghost*, in the padding at the other end of its row
//! (see [`Grid`](crate::model::grid::Grid)). Rank `i < N` is boid `i`'s, rank `N + i` its ghost's
//! (when it has one), so the per-item arrays (`rank`, `slot_ids`, `sorted_*`) hold up to 2·N
//! entries in a wrapping world. The real cells come before the padding cells, so the first N
//! sorted items are the boids and the ghosts follow.
//!
//! **Canonical order.** After `scatter` the sorted arrays hold the items cell by cell, and within a
//! cell by boid id, whatever the order of `count`'s ranks (atomic additions on the GPU): the
//! binning is deterministic and the same on every backend, so a step's float sums are added in
//! the same order everywhere, and a run resumed from a saved state is the same run. `rules`
//! writes boid k's next state at index k of the state, so after a step the state is in that order.
//!
//! **Heavy items.** On the GPU, `scatter` and `rules` defer the items too crowded for one
//! invocation's bounded loops to `scatter_heavy` and `rules_heavy`; their twins do nothing, as
//! the plain twins place and step every item themselves.

pub mod clear;
pub mod count;
pub mod measures;
pub mod predators;
pub mod rules;
pub mod scan;
pub mod scatter;
pub mod slots;
pub mod voronoi;

pub use clear::clear;
pub use count::count;
pub use measures::measures;
pub use predators::predators;
pub use rules::{gather, rules, topological_nearest, topological_sums, CandidateRange, StateMut};
pub use scan::scan;
pub use scatter::{scatter, Sorted, SortedRef};
pub use slots::slots;

use crate::model::grid::ObstacleGrid;
use crate::model::models::ModelUniforms;
use crate::model::params::SimParams;
use crate::model::predators::Predator;
use crate::model::state::Boid;
use crate::model::uniforms::StepUniforms;
use crate::model::FlockMeasures;

/// The buffers of the stages, named as the GPU buffers of [`crate::stages::BUFFERS`], plus the
/// step's uniforms and the obstacle grid: what the `<stage>_step` adapters of
/// [`crate::stages::STAGES`] run on.
#[derive(Clone, Debug)]
pub struct CpuStep {
    /// The uniform block of the step being computed.
    pub params: StepUniforms,
    /// The model's typed uniforms (its parameters as its rule reads them).
    pub model_params: ModelUniforms,
    /// The binned obstacle points.
    pub obstacles: ObstacleGrid,
    /// The predators (the `predators` stage moves them).
    pub predators: Vec<Predator>,
    /// Boids caught in the last step, and in every step since the buffers were made (wrapping).
    pub catches: [u32; 2],
    /// `[x, y, vx, vy]` per boid (the state; `rules` writes it).
    pub pos_vel: Vec<[f32; 4]>,
    /// `[hx, hy, ux, uy]` per boid.
    pub hue: Vec<[f32; 4]>,
    /// Id per boid.
    pub id: Vec<u32>,
    /// Image counts `[ix, iy]` per boid (docs/model.md §2.4).
    pub image: Vec<[i32; 2]>,
    /// Cell counts, then (after `scan`) cell starts; `cell_count + 1` entries.
    pub cells: Vec<u32>,
    /// Rank of each item within its cell (`2·N` entries in a wrapping world; a boid's with
    /// [`crate::stages::RANK_HAS_GHOST`] when it has a ghost, from the twin `count`: the CPU
    /// backend's own count writes plain ranks, `crate::cpu::binning::count`).
    pub rank: Vec<u32>,
    /// Cell word of each item (as `rank`; a boid's with [`count::CELL_HAS_GHOST`] when it has a
    /// ghost; written by the twin `count`, or by the twin `rules` for the next step's `count`,
    /// and read by the twin `slots`; the CPU backend's stages neither write nor read it).
    pub item_cell: Vec<u32>,
    /// Ids of each cell's items.
    pub slot_ids: Vec<u32>,
    /// Sorted `[x, y, vx, vy]` per item.
    pub sorted_pos_vel: Vec<[f32; 4]>,
    /// Sorted `[hx, hy, ux, uy]` per item.
    pub sorted_hue: Vec<[f32; 4]>,
    /// Id of each sorted item's boid.
    pub sorted_id: Vec<u32>,
    /// Image counts of each sorted item's boid.
    pub sorted_image: Vec<[i32; 2]>,
    /// Neighbour count of each boid after `rules`.
    pub neighbors: Vec<u32>,
    /// The topological neighbour ids `rules` records: `topological_k` per sorted item for the
    /// first `record_neighbors` items (docs/model.md §19.4).
    pub neighbor_ids: Vec<u32>,
    /// The `topological_k` of the recorded ids (0 when none are).
    pub recorded_k: usize,
    /// Whether `neighbors` were counted by a step of the current state (not since
    /// [`CpuStep::set_state`], nor after a step under `skip_neighbor_counts`).
    pub neighbors_counted: bool,
    /// The result of `measures`.
    pub measures: FlockMeasures,
}

impl CpuStep {
    /// The sorted items (`scatter`'s output), read-only.
    pub fn sorted(&self) -> SortedRef<'_> {
        SortedRef {
            pos_vel: &self.sorted_pos_vel,
            hue: &self.sorted_hue,
            id: &self.sorted_id,
            image: &self.sorted_image,
        }
    }

    /// Buffers holding `boids`, sized for them and for the grid of `params`.
    pub fn new(boids: &[Boid], params: &SimParams) -> CpuStep {
        let mut s = CpuStep {
            params: StepUniforms::new(params, boids.len() as u32, 0, 0, &Default::default()),
            model_params: params.model_uniforms(),
            obstacles: ObstacleGrid::new(&[], 1.0, params),
            predators: Vec::new(),
            catches: [0; 2],
            pos_vel: Vec::new(),
            hue: Vec::new(),
            id: Vec::new(),
            image: Vec::new(),
            cells: Vec::new(),
            rank: Vec::new(),
            item_cell: Vec::new(),
            slot_ids: Vec::new(),
            sorted_pos_vel: Vec::new(),
            sorted_hue: Vec::new(),
            sorted_id: Vec::new(),
            sorted_image: Vec::new(),
            neighbors: Vec::new(),
            neighbor_ids: Vec::new(),
            recorded_k: 0,
            neighbors_counted: false,
            measures: FlockMeasures::default(),
        };
        s.set_state(boids);
        s
    }

    /// Number of boids.
    pub fn len(&self) -> usize {
        self.pos_vel.len()
    }

    /// Whether there are no boids.
    pub fn is_empty(&self) -> bool {
        self.pos_vel.is_empty()
    }

    /// Replaces the boids (count may change); neighbour counts restart at 0.
    pub fn set_state(&mut self, boids: &[Boid]) {
        let a = crate::model::split_state(boids);
        self.pos_vel = a.pos_vel;
        self.hue = a.hue;
        self.id = a.id;
        self.image = a.image;
        self.neighbors = vec![0; boids.len()];
        self.neighbors_counted = false;
    }

    /// The boids, in state order.
    pub fn boids(&self) -> Vec<Boid> {
        crate::model::join_state(&self.pos_vel, &self.hue, &self.id, &self.image)
    }

    /// Sizes every per-item and per-cell buffer for the uniforms `u` (no allocation when the sizes
    /// are unchanged).
    pub fn prepare(&mut self, u: StepUniforms) {
        let items = self.len() * if u.boundary == 0 { 2 } else { 1 };
        self.params = u;
        self.cells.resize(u.cell_count as usize + 1, 0);
        self.rank.resize(items, 0);
        self.item_cell.resize(items, 0);
        self.slot_ids.resize(items, 0);
        self.sorted_pos_vel.resize(items, [0.0; 4]);
        self.sorted_hue.resize(items, [0.0; 4]);
        self.sorted_id.resize(items, 0);
        self.sorted_image.resize(items, [0; 2]);
        self.size_neighbor_ids(u);
    }

    /// Sizes `neighbor_ids` for the ids the uniforms `u` ask `rules` to record.
    pub fn size_neighbor_ids(&mut self, u: StepUniforms) {
        let record = u.record_neighbors.min(self.len() as u32) as usize;
        self.recorded_k = if record > 0 {
            u.recorded_width() as usize
        } else {
            0
        };
        self.neighbor_ids.resize(record * self.recorded_k, u32::MAX);
    }

    /// Adds `caught` to both catch counters (the step's, reset by `clear`, and the total).
    pub fn count_catches(&mut self, caught: u32) {
        self.catches[0] = self.catches[0].wrapping_add(caught);
        self.catches[1] = self.catches[1].wrapping_add(caught);
    }
}

/// `clear` on a [`CpuStep`]: the cell counters, and the step's catch counter.
pub fn clear_step(s: &mut CpuStep) {
    clear(&mut s.cells);
    s.catches[0] = 0;
}

/// `count` on a [`CpuStep`].
pub fn count_step(s: &mut CpuStep) {
    let grid = s.params.grid();
    count(
        &s.pos_vel,
        &grid,
        s.params.cells_known != 0,
        &mut s.cells,
        &mut s.rank,
        &mut s.item_cell,
    );
}

/// `scan` on a [`CpuStep`].
pub fn scan_step(s: &mut CpuStep) {
    scan(&mut s.cells);
}

/// `slots` on a [`CpuStep`].
pub fn slots_step(s: &mut CpuStep) {
    slots(&s.id, &s.cells, &s.rank, &s.item_cell, &mut s.slot_ids);
}

/// `scatter` on a [`CpuStep`].
pub fn scatter_step(s: &mut CpuStep) {
    let grid = s.params.grid();
    let out = Sorted {
        pos_vel: &mut s.sorted_pos_vel,
        hue: &mut s.sorted_hue,
        id: &mut s.sorted_id,
        image: &mut s.sorted_image,
    };
    let width = s.params.world_width;
    scatter(
        &s.pos_vel,
        &s.hue,
        &s.id,
        &s.image,
        &grid,
        width,
        &s.cells,
        &s.slot_ids,
        out,
    );
}

/// `scatter_heavy` on a [`CpuStep`]: nothing, the twin `scatter` places every item itself (so
/// the pair `scatter` + `scatter_heavy` is tested against `scatter`).
pub fn scatter_heavy_step(_: &mut CpuStep) {}

/// `predators` on a [`CpuStep`]: sorted items → predators.
pub fn predators_step(s: &mut CpuStep) {
    let sorted = SortedRef {
        pos_vel: &s.sorted_pos_vel,
        hue: &s.sorted_hue,
        id: &s.sorted_id,
        image: &s.sorted_image,
    };
    predators(&s.params, sorted, &s.cells, &mut s.predators);
}

/// `rules` on a [`CpuStep`]: sorted items → state; counts the catches.
pub fn rules_step(s: &mut CpuStep) {
    let sorted = SortedRef {
        pos_vel: &s.sorted_pos_vel,
        hue: &s.sorted_hue,
        id: &s.sorted_id,
        image: &s.sorted_image,
    };
    let out = StateMut {
        pos_vel: &mut s.pos_vel,
        hue: &mut s.hue,
        id: &mut s.id,
        image: &mut s.image,
        neighbors: &mut s.neighbors,
        neighbor_ids: &mut s.neighbor_ids,
    };
    let caught = rules(
        &s.params,
        &s.model_params,
        sorted,
        &s.cells,
        &s.obstacles,
        &s.predators,
        out,
    );
    s.count_catches(caught);
    s.neighbors_counted = s.params.skip_neighbor_counts == 0;
    // Each boid's cell words from the position just written, for the next step's `count`.
    let grid = s.params.grid();
    count::cell_words(&s.pos_vel, &grid, &mut s.item_cell);
}

/// `rules_heavy` on a [`CpuStep`]: nothing, the twin `rules` steps every boid itself (so the
/// pair `rules` + `rules_heavy` is tested against `rules`).
pub fn rules_heavy_step(_: &mut CpuStep) {}

/// `measures` on a [`CpuStep`] (with the catch counters).
pub fn measures_step(s: &mut CpuStep) {
    s.measures = measures(&s.pos_vel, &s.neighbors, &s.params, s.neighbors_counted)
        .with_catches(s.catches[0], s.catches[1]);
}
