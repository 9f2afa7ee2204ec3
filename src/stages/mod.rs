//! The compute stages of one simulation step, described once ([`STAGES`]).
//!
//! Each [`Stage`] names its WGSL source (the shared snippets it is composed from and its own file
//! in `shaders/`), its entry points and how many invocations each dispatch covers, its binding slots
//! (by buffer name, checked against naga's reflection of the WGSL in `tests/it/shaders.rs`), and its
//! CPU twin in [`twins`] (the reference each GPU stage and each fast CPU path is tested against).
//! Everything else derives from this table: the GPU backend's pipelines, bind groups, dispatches
//! and profiler scopes (`crate::gpu`), the order and names of the CPU backend's stages and its
//! per-stage timings (`crate::cpu`), the per-stage columns of a benchmark capture and the
//! criterion benches.
//!
//! The buffers the stages bind are described once too ([`BUFFERS`]): name, element size and
//! length. A binding names a buffer of that table, or (for `scan`) one of the scan's own level
//! buffers.
//!
//! Adding a stage: its WGSL file in `shaders/`, its CPU twin in [`twins`] (a file of its own), its
//! line in the CPU backend's list of stages (`crate::cpu::step::FAST_STAGES`: the twin itself, or
//! a fast path tested against it) when it runs every step, its entry in
//! [`STAGES`] (and a buffer in [`BUFFERS`] if it needs a new one), and its test.

pub mod twins;
#[macro_use]
mod compose;

pub use twins::count::RANK_HAS_GHOST;
use twins::CpuStep;

pub use compose::{
    generated, MakeWgsl, RuleParts, Search, Wgsl, GENERATED, MODEL_RULE, SHARED_GATHER,
};

/// How a stage accesses one binding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// `var<uniform>`.
    Uniform,
    /// `var<storage, read>`.
    Read,
    /// `var<storage, read_write>`.
    ReadWrite,
}

/// One binding slot of a stage's bind group 0: slot `k` of [`Stage::bindings`] is `@binding(k)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Binding {
    /// The WGSL variable name, which is also the name of the buffer bound there ([`BUFFERS`]).
    pub name: &'static str,
    /// Uniform, read-only storage or read-write storage.
    pub access: Access,
}

/// The number of invocations one dispatch covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Items {
    /// One per boid.
    Boids,
    /// One per [`MEASURES_CHUNK`] boids (each invocation sums that many in registers).
    MeasureChunks,
    /// One per cell counter (`cell_count + 1`: the last one receives the scan's total).
    CellCounters,
    /// One workgroup that finishes a reduction over the [`Items::MeasureChunks`] dispatch's
    /// workgroups, not recorded when that dispatch has exactly one (up to `MEASURES_CHUNK · 256`
    /// boids the one workgroup writes the result itself).
    FinalGroup,
    /// One workgroup per predator: none without predators (the stage is then not recorded; the
    /// step's catch counter is reset by `clear`).
    Predators,
    /// As many workgroups as the GPU itself wrote into the `dispatch_args` buffer at this entry
    /// (an indirect dispatch: x, y, z at byte offset 12·k) — the deferred heavy items of a stage.
    Indirect(u32),
    /// As [`Items::Indirect`], recorded only in runs of the metric neighbourhood.
    IndirectMetric(u32),
    /// As [`Items::Indirect`], recorded only in runs of the topological neighbourhood.
    IndirectTopological(u32),
    /// As [`Items::Indirect`], recorded only in runs of the Voronoi neighbourhood.
    IndirectVoronoi(u32),
}

/// How a stage is recorded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Run {
    /// These dispatches in order, `(entry point, invocations)`, all with the stage's bind group.
    Dispatches(&'static [(&'static str, Items)]),
    /// The multi-level exclusive prefix sum over the buffer named here (entry points
    /// `scan_reduce`, `scan_block`, `scan_downsweep`; one bind group per level).
    Scan {
        /// The buffer scanned in place.
        data: &'static str,
    },
}

/// When a stage runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum When {
    /// In every step, in table order.
    Step,
    /// Only when asked for (e.g. the flock measures).
    OnRequest,
}

/// One compute stage.
#[derive(Clone, Copy, Debug)]
pub struct Stage {
    /// The stage's name: its WGSL file (`shaders/<name>.wgsl`), pipeline label, profiler scope,
    /// capture column and CPU twin all carry it.
    pub name: &'static str,
    /// Its WGSL source.
    pub wgsl: Wgsl,
    /// Its binding slots in `@binding` order (group 0).
    pub bindings: &'static [Binding],
    /// How it is recorded.
    pub run: Run,
    /// Every step, or on request.
    pub when: When,
    /// Its CPU twin (the reference definition), run on a [`CpuStep`]'s buffers of the same names.
    pub twin: fn(&mut CpuStep),
}

impl Stage {
    /// The entry points of the stage, each once, in first-use order.
    pub fn entry_points(&self) -> Vec<&'static str> {
        match self.run {
            Run::Dispatches(d) => {
                let mut v: Vec<&'static str> = Vec::new();
                for (e, _) in d {
                    if !v.contains(e) {
                        v.push(e);
                    }
                }
                v
            }
            Run::Scan { .. } => vec!["scan_reduce", "scan_block", "scan_downsweep"],
        }
    }
}

const fn b(name: &'static str, access: Access) -> Binding {
    Binding { name, access }
}

use Access::{Read, ReadWrite, Uniform};

/// Number of stages in [`STAGES`].
pub const STAGE_COUNT: usize = 10;

/// Every compute stage: the step's stages in order, then the stages run on request.
pub static STAGES: [Stage; STAGE_COUNT] = [
    Stage {
        name: "clear",
        wgsl: wgsl!("common.wgsl", "replicas.wgsl", "clear.wgsl"),
        bindings: &[
            b("replicas", Uniform),
            b("cells", ReadWrite),
            b("deferred", ReadWrite),
        ],
        run: Run::Dispatches(&[("clear", Items::CellCounters)]),
        when: When::Step,
        twin: twins::clear_step,
    },
    Stage {
        name: "count",
        wgsl: wgsl!("common.wgsl", "replicas.wgsl", "grid.wgsl", "count.wgsl"),
        bindings: &[
            b("replicas", Uniform),
            b("pos_vel", Read),
            b("cells", ReadWrite),
            b("rank", ReadWrite),
        ],
        run: Run::Dispatches(&[("count", Items::Boids)]),
        when: When::Step,
        twin: twins::count_step,
    },
    Stage {
        name: "scan",
        wgsl: wgsl!("common.wgsl", "scan.wgsl"),
        bindings: &[
            b("level", Uniform),
            b("data", ReadWrite),
            b("sums", ReadWrite),
        ],
        run: Run::Scan { data: "cells" },
        when: When::Step,
        twin: twins::scan_step,
    },
    Stage {
        name: "slots",
        wgsl: wgsl!("common.wgsl", "replicas.wgsl", "slots.wgsl"),
        bindings: &[
            b("replicas", Uniform),
            b("id", Read),
            b("cells", Read),
            b("rank", Read),
            b("slot_ids", ReadWrite),
        ],
        run: Run::Dispatches(&[("slots", Items::Boids)]),
        when: When::Step,
        twin: twins::slots_step,
    },
    Stage {
        name: "scatter",
        wgsl: wgsl!(
            "common.wgsl",
            "replicas.wgsl",
            "grid.wgsl",
            "defer.wgsl",
            "regions.wgsl",
            "scatter_common.wgsl",
            "scatter.wgsl"
        ),
        bindings: &[
            b("replicas", Uniform),
            b("pos_vel", Read),
            b("id", Read),
            b("cells", Read),
            b("slot_ids", Read),
            b("sorted_pos_vel", ReadWrite),
            b("sorted_hue", ReadWrite),
            b("sorted_id", ReadWrite),
            b("deferred", ReadWrite),
        ],
        run: Run::Dispatches(&[("scatter", Items::Boids)]),
        when: When::Step,
        twin: twins::scatter_step,
    },
    Stage {
        name: "scatter_heavy",
        wgsl: wgsl!(
            "common.wgsl",
            "replicas.wgsl",
            "grid.wgsl",
            "regions.wgsl",
            "scatter_common.wgsl",
            "scatter_heavy.wgsl"
        ),
        bindings: &[
            b("replicas", Uniform),
            b("pos_vel", Read),
            b("id", Read),
            b("cells", Read),
            b("slot_ids", Read),
            b("sorted_pos_vel", ReadWrite),
            b("sorted_hue", ReadWrite),
            b("sorted_id", ReadWrite),
            b("deferred", Read),
        ],
        run: Run::Dispatches(&[("scatter_heavy", Items::Indirect(0))]),
        when: When::Step,
        twin: twins::scatter_heavy_step,
    },
    Stage {
        name: "predators",
        wgsl: wgsl!(
            "common.wgsl",
            "replicas.wgsl",
            "rng.wgsl",
            "grid.wgsl",
            "rules_common.wgsl",
            "predators_common.wgsl",
            "predators.wgsl"
        ),
        bindings: &[
            b("replicas", Uniform),
            b("sorted_pos_vel", Read),
            b("sorted_id", Read),
            b("cells", ReadWrite),
        ],
        run: Run::Dispatches(&[("move_predators", Items::Predators)]),
        when: When::Step,
        twin: twins::predators_step,
    },
    Stage {
        name: "rules",
        wgsl: wgsl!(
            "common.wgsl",
            "replicas.wgsl",
            "rng.wgsl",
            "grid.wgsl",
            "rules_common.wgsl",
            "pair_terms.wgsl",
            "predators_common.wgsl",
            model,
            "model_slots.wgsl",
            "gather.wgsl",
            shared_gather,
            "topological.wgsl",
            "voronoi.wgsl",
            "defer.wgsl",
            "regions.wgsl",
            "rules.wgsl"
        ),
        bindings: &[
            b("replicas", Uniform),
            b("sorted_pos_vel", Read),
            b("sorted_hue", Read),
            b("sorted_id", ReadWrite),
            b("cells", Read),
            b("pos_vel", ReadWrite),
            b("neighbors", ReadWrite),
            b("deferred", ReadWrite),
            b("replica_models", Uniform),
            b("rank", ReadWrite),
        ],
        run: Run::Dispatches(&[("rules", Items::Boids)]),
        when: When::Step,
        twin: twins::rules_step,
    },
    Stage {
        name: "rules_heavy",
        wgsl: wgsl!(
            "common.wgsl",
            "replicas.wgsl",
            "rng.wgsl",
            "grid.wgsl",
            "rules_common.wgsl",
            "pair_terms.wgsl",
            "predators_common.wgsl",
            model,
            "model_slots.wgsl",
            "gather.wgsl",
            shared_gather,
            "topological.wgsl",
            "voronoi.wgsl",
            "regions.wgsl",
            "voronoi_heavy.wgsl",
            "rules_heavy.wgsl"
        ),
        bindings: &[
            b("replicas", Uniform),
            b("sorted_pos_vel", Read),
            b("sorted_hue", Read),
            b("sorted_id", ReadWrite),
            b("cells", Read),
            b("pos_vel", ReadWrite),
            b("neighbors", ReadWrite),
            b("deferred", Read),
            b("replica_models", Uniform),
            b("rank", ReadWrite),
        ],
        // The deferred boids of the run's neighbourhood (each entry point also returns at once
        // in the other neighbourhoods).
        run: Run::Dispatches(&[
            ("rules_heavy", Items::IndirectMetric(1)),
            ("rules_heavy_topological", Items::IndirectTopological(1)),
            ("rules_heavy_voronoi", Items::IndirectVoronoi(1)),
        ]),
        when: When::Step,
        twin: twins::rules_heavy_step,
    },
    Stage {
        name: "measures",
        wgsl: wgsl!(
            "common.wgsl",
            "replicas.wgsl",
            (generated "measure_columns.wgsl"),
            "measures.wgsl"
        ),
        bindings: &[
            b("replicas", Uniform),
            b("pos_vel", Read),
            b("neighbors", Read),
            b("partials", ReadWrite),
            b("result", ReadWrite),
        ],
        run: Run::Dispatches(&[
            ("measures_partial", Items::MeasureChunks),
            ("measures_final", Items::FinalGroup),
            ("milling_partial", Items::MeasureChunks),
            ("measures_final", Items::FinalGroup),
        ]),
        when: When::OnRequest,
        twin: twins::measures_step,
    },
];

/// The stages of one step, in order.
pub fn step_stages() -> impl Iterator<Item = &'static Stage> {
    STAGES.iter().filter(|s| s.when == When::Step)
}

/// The names of the stages of one step, in order.
pub fn step_stage_names() -> Vec<&'static str> {
    step_stages().map(|s| s.name).collect()
}

/// The stage named `name`.
///
/// # Panics
/// When no stage has that name (a programming error: names come from [`STAGES`]).
pub fn stage(name: &str) -> &'static Stage {
    STAGES
        .iter()
        .find(|s| s.name == name)
        .unwrap_or_else(|| panic!("no stage named {name:?}"))
}

/// How long a buffer of [`BUFFERS`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Len {
    /// One element per boid.
    Boids,
    /// One element per possible item: 2 per boid in a wrapping world (a boid and its ghost),
    /// else 1.
    Items,
    /// One element per possible item (the ids of the items), then two per boid (the image
    /// counts of the boids, which are the first N items: a ghost has none).
    IdsThenImages,
    /// One element per cell counter (`cell_count + 1`, rounded up to [`REGION_ALIGN`]), eight
    /// per predator, then the obstacle grid's: one per obstacle cell plus one, and two per
    /// obstacle point.
    CellCounters,
    /// One element per workgroup of a per-boid dispatch, plus [`MAX_REPLICAS`] (a segmented
    /// reduction starts a workgroup at each replica's first boid).
    BoidWorkgroups,
    /// One element per boid, then one per recorded topological neighbour id (`topological_k`
    /// per recorded boid).
    NeighborCounts,
    /// The deferred-work buffer: its counts and dispatch arguments, the catch counters
    /// ([`DEFERRED_LIST`] words), then one element per possible item.
    Deferred,
    /// A fixed number of elements.
    Fixed(u32),
}

/// One buffer the stages bind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BufferDesc {
    /// Its name (the WGSL variable name in every stage that binds it).
    pub name: &'static str,
    /// Bytes per element (for the uniform block: its whole size).
    pub elem_bytes: u64,
    /// Its length.
    pub len: Len,
    /// Whether it is the uniform block (`var<uniform>`), else a storage buffer.
    pub uniform: bool,
    /// Whether it also holds indirect dispatch arguments.
    pub indirect: bool,
}

const fn buf(name: &'static str, elem_bytes: u64, len: Len) -> BufferDesc {
    BufferDesc {
        name,
        elem_bytes,
        len,
        uniform: false,
        indirect: false,
    }
}

/// Most replicas one ensemble holds (`MAX_REPLICAS` in `shaders/replicas.wgsl`): the length of
/// the uniform arrays of their parameter blocks (`replicas`, `replica_models`; 20 KiB and 4 KiB
/// of the 64 KiB a uniform binding may hold) and of the `result` rows. A sweep splits larger
/// groups into ensembles of at most this many.
pub const MAX_REPLICAS: u32 = 64;

/// Bytes of one predator (`crate::model::Predator`, the WGSL struct `Predator`).
pub const PREDATOR_BYTES: u64 = std::mem::size_of::<crate::model::Predator>() as u64;

/// Boids summed by one invocation of the measures stage (`MEASURES_CHUNK` in
/// `shaders/measures.wgsl`): a workgroup reduces 16 · 256 boids, so the stage runs 16× fewer
/// workgroup barrier trees than with one boid per invocation.
pub const MEASURES_CHUNK: u32 = 16;

/// Bytes of one row of the measures reduction: the columns of the sums
/// (`crate::model::measures::SUMS`), padded to whole `vec4<f32>`s as `shaders/measures.wgsl`'s
/// `Row`.
pub const MEASURES_ROW_BYTES: u64 = 16 * crate::model::measures::ROW_VEC4S as u64;

/// Every buffer bound by a stage of [`STAGES`] (the scan's level buffers excepted). The state is
/// split into `pos_vel` (which holds the hue vectors too) and `id` (which holds the image counts
/// too) (docs/model.md §2.2), and the sorted items into `sorted_pos_vel`, `sorted_hue` and
/// `sorted_id`: the two halves of the ping-pong pair, `state → scatter → sorted → rules → state`
/// (after a step the state is in the sort's order). No buffer holds more than 16 bytes per item
/// or 32 per boid (two items per boid in a wrapping world), so the binding size limit allows
/// `limit / 32` boids. Some buffers hold others ([`REGIONS`]) so that no stage binds more than
/// [`STORAGE_BINDINGS_MAX`] storage buffers. `id` and `sorted_id` swap roles after each step
/// ([`SWAPPED`]).
pub static BUFFERS: [BufferDesc; 14] = [
    // One parameter block per replica of an ensemble (a lone run writes the first).
    BufferDesc {
        name: "replicas",
        elem_bytes: crate::model::uniforms::STEP_UNIFORMS_BYTES,
        len: Len::Fixed(MAX_REPLICAS),
        uniform: true,
        indirect: false,
    },
    // The model's typed uniforms (`crate::model::models::ModelUniforms`) of each replica, read by
    // the stages that hold its rule.
    BufferDesc {
        name: "replica_models",
        elem_bytes: crate::model::models::MODEL_UNIFORMS_BYTES as u64,
        len: Len::Fixed(MAX_REPLICAS),
        uniform: true,
        indirect: false,
    },
    // `array<vec4<f32>>`: the positions and velocities, then the region `hue` (32 bytes a boid
    // in all, as the sorted items' two per boid in a wrapping world).
    buf("pos_vel", 32, Len::Boids),
    // `array<u32>`: the ids, then the region `image` (laid out as `sorted_id`, whose role it
    // takes after each step, [`SWAPPED`]; its first N ids are the state's).
    buf("id", 4, Len::IdsThenImages),
    // `array<u32>`: each boid's neighbour count, then the region `neighbor_ids`.
    buf("neighbors", 4, Len::NeighborCounts),
    // `array<u32>`: the uniform grid's cell counters, then the regions `predators` and
    // `obstacle_grid`.
    buf("cells", 4, Len::CellCounters),
    // `array<u32>`: each item's rank in its cell (a boid's with [`RANK_HAS_GHOST`]), then the
    // region `item_cell`.
    buf("rank", 8, Len::Items),
    buf("slot_ids", 4, Len::Items),
    buf("sorted_pos_vel", 16, Len::Items),
    buf("sorted_hue", 16, Len::Items),
    // `array<u32>`: the sorted ids, then the region `sorted_image` (of the first N items, the
    // boids; a ghost has no image counts).
    buf("sorted_id", 4, Len::IdsThenImages),
    buf("partials", MEASURES_ROW_BYTES, Len::BoidWorkgroups),
    // One row of measures per replica.
    buf("result", MEASURES_ROW_BYTES, Len::Fixed(MAX_REPLICAS)),
    // Heavy items deferred to a workgroup each, in one buffer (`array<atomic<u32>>`):
    // [scatter's count, rules' count], the indirect dispatch arguments of their heavy stages,
    // which the deferring stages raise with atomicMax as they push (two x, y, z triples, from
    // word [`DEFERRED_ARGS`]), the region `catches` (from word [`DEFERRED_CATCHES`]), then the
    // list of deferred items (the scatter's, then reused by rules), from word [`DEFERRED_LIST`].
    BufferDesc {
        name: "deferred",
        elem_bytes: 4,
        len: Len::Deferred,
        uniform: false,
        indirect: true,
    },
];

/// Pairs of [`BUFFERS`] that swap roles after each step. `rules` writes the next positions,
/// velocities and hue vectors at the state's index k = the boid's sorted index, but leaves its id
/// and image counts where `scatter` put them — the first N items of `sorted_id`, in the same
/// order — changing an image count there in place only when the boid crosses the world's edge;
/// so after the step that buffer is the state's `id` and the other one is free for the next
/// sort. A step thus neither copies the ids nor rewrites the image counts (20 bytes a boid). The
/// GPU keeps a bind group of each stage for either assignment
/// ([`crate::gpu::buffers::SimBuffers::swap_after_step`]); the CPU twin of `rules` copies the
/// ids and image counts into its state instead (the same values where the next step reads them).
pub static SWAPPED: [(&str, &str); 1] = [("id", "sorted_id")];

/// Most storage buffers a stage of [`STAGES`] binds: what WebGPU guarantees every adapter offers
/// (`maxStorageBuffersPerShaderStage`; lavapipe, SwiftShader and discrete GPUs offer 10 or more).
/// The buffers that only some runs need, are small, or are touched once per boid live in regions
/// of others ([`REGIONS`]) to stay within it.
pub const STORAGE_BINDINGS_MAX: usize = 8;

/// Where a region lies in its host buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum At {
    /// A plane after `bytes_before` bytes per element of the host (its elements are split
    /// into planes: `pos_vel`'s positions and velocities, then its hue vectors).
    Plane {
        /// Bytes per host element of the planes before it.
        bytes_before: u64,
    },
    /// After the host's one word per possible item ([`Len::IdsThenImages`]).
    AfterItems,
    /// From a fixed word of the host.
    Word(u32),
    /// After the host's uniform grid cell counters: from word [`cells_end`] of the capacity's
    /// cells (`predators_at` in the step uniforms; a multiple of 64 words, so that a binding of
    /// the region alone, as the renderer's, starts at an offset every adapter allows).
    AfterCells,
    /// The host's last words: their number follows from the uniforms, so a shader finds the
    /// region's start as `arrayLength(&host)` less it (the grid's cells and the boids' counts
    /// before it take what the capacity leaves).
    End,
}

/// A buffer the stages reach inside another of [`BUFFERS`] (its host), with no binding of its
/// own (docs/architecture.md, "The tables": buffers).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Region {
    /// Its name (the CPU twins' buffer of the same name; [`crate::gpu::buffers::SimBuffers::region`]).
    pub name: &'static str,
    /// The buffer of [`BUFFERS`] that holds it.
    pub host: &'static str,
    /// Where.
    pub at: At,
}

/// Every region of a host buffer.
pub static REGIONS: [Region; 8] = [
    // The image counts of docs/model.md §2.4 (`vec2<i32>` as two words each).
    Region {
        name: "image",
        host: "id",
        at: At::AfterItems,
    },
    // The hue vectors and their velocities (`[hx, hy, ux, uy]`, four `f32` words each).
    Region {
        name: "hue",
        host: "pos_vel",
        at: At::Plane { bytes_before: 16 },
    },
    // The predators (32 bytes each: docs/model.md §18): every replica's, replica after replica.
    Region {
        name: "predators",
        host: "cells",
        at: At::AfterCells,
    },
    // Each item's cell word (`count` writes it, or the previous step's `rules` for a `count` with
    // `cells_known`; `count` and `slots` read it).
    Region {
        name: "item_cell",
        host: "rank",
        at: At::Plane { bytes_before: 4 },
    },
    Region {
        name: "sorted_image",
        host: "sorted_id",
        at: At::AfterItems,
    },
    // The catch counters of each replica: [this step, total].
    Region {
        name: "catches",
        host: "deferred",
        at: At::Word(DEFERRED_CATCHES),
    },
    // The neighbour ids `rules` records on request (docs/model.md §19.4, §19.5):
    // `recorded_width · record_neighbors` words (`topological_k`, or 32 in the Voronoi
    // neighbourhood).
    Region {
        name: "neighbor_ids",
        host: "neighbors",
        at: At::End,
    },
    // The obstacle grid: its cell starts (`obstacle_cols · obstacle_rows + 1` words), then its
    // points (`obstacle_count` pairs of `f32` bits).
    Region {
        name: "obstacle_grid",
        host: "cells",
        at: At::End,
    },
];

/// Words to which the boid capacity and the cell counters are rounded up (64 words, 256 bytes:
/// the largest `min_storage_buffer_offset_alignment` WebGPU allows), so that the regions `hue`
/// (after 16 bytes a boid) and `predators` (after the cell counters) may be bound alone.
pub const REGION_ALIGN: u32 = 64;

/// The first word after the cell counters of a buffer of `cells` cells (`cells + 1` counters),
/// rounded up to [`REGION_ALIGN`]: where the region `predators` starts in `cells`.
pub fn cells_end(cells: u32) -> u32 {
    (cells + 1).next_multiple_of(REGION_ALIGN)
}

/// The region named `name`, if it is in [`REGIONS`].
pub fn region(name: &str) -> Option<&'static Region> {
    REGIONS.iter().find(|r| r.name == name)
}

/// Number of deferred-work counts (and indirect dispatches): `scatter`'s and `rules`'.
pub const COUNTERS: u32 = 2;

/// The first word of the heavy stages' indirect dispatch arguments in `deferred`
/// (`DEFER_ARGS` in `shaders/common.wgsl`).
pub const DEFERRED_ARGS: u32 = COUNTERS;

/// The first word of the catch counters in `deferred` (`DEFER_CATCHES` in
/// `shaders/common.wgsl`): two per replica.
pub const DEFERRED_CATCHES: u32 = COUNTERS + 3 * COUNTERS;

/// The first word of the list of deferred items in `deferred` (`DEFER_LIST` in
/// `shaders/common.wgsl`).
pub const DEFERRED_LIST: u32 = DEFERRED_CATCHES + 2 * MAX_REPLICAS;

/// The buffer named `name`, if it is in [`BUFFERS`].
pub fn buffer(name: &str) -> Option<&'static BufferDesc> {
    BUFFERS.iter().find(|b| b.name == name)
}

/// GPU bytes per boid of the buffers whose length follows the boid count, in a wrapping world
/// (where each boid may have a ghost item) — the grid's cell counters excepted.
pub fn bytes_per_boid() -> u64 {
    BUFFERS
        .iter()
        .map(|b| match b.len {
            Len::Boids => b.elem_bytes,
            Len::Items | Len::Deferred => 2 * b.elem_bytes,
            Len::IdsThenImages => 4 * b.elem_bytes,
            _ => 0,
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::Search;

    /// A search's discriminant is its place in `Search::ALL` (the GPU keeps its pipelines by it).
    #[test]
    fn each_search_is_at_its_discriminant() {
        for (i, s) in Search::ALL.iter().enumerate() {
            assert_eq!(*s as usize, i, "{s:?}");
        }
    }
}
