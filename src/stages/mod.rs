//! The compute stages of one simulation step, described once ([`STAGES`]).
//!
//! Each [`Stage`] names its WGSL source (the shared snippets it is composed from and its own file
//! in `shaders/`), its entry points and how many invocations each dispatch covers, its binding slots
//! (by buffer name, checked against naga's reflection of the WGSL in `tests/shaders.rs`), and its
//! CPU twin in [`twins`]. Everything else derives from this table: the GPU backend's pipelines, bind
//! groups, dispatches and profiler scopes (`crate::gpu`), the CPU backend's step and its per-stage
//! timings (`crate::cpu`), the per-stage columns of a benchmark capture and the criterion benches.
//!
//! The buffers the stages bind are described once too ([`BUFFERS`]): name, element size and
//! length. A binding names a buffer of that table, or (for `scan`) one of the scan's own level
//! buffers.
//!
//! Adding a stage: its WGSL file in `shaders/`, its CPU twin in [`twins`], its entry in
//! [`STAGES`] (and a buffer in [`BUFFERS`] if it needs a new one), and its test.

pub mod twins;

use twins::CpuStep;

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
    /// One per cell counter (`cell_count + 1`: the last one receives the scan's total).
    CellCounters,
    /// One workgroup.
    OneGroup,
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

/// A composed WGSL source: the files it is made of (in `shaders/`, in order) and their text.
#[derive(Clone, Copy, Debug)]
pub struct Wgsl {
    /// File names, shared snippets first and the stage's own file last.
    pub files: &'static [&'static str],
    /// The concatenated text.
    pub source: &'static str,
}

/// Composes WGSL files from `shaders/` at compile time into a [`Wgsl`].
#[macro_export]
macro_rules! wgsl {
    ($($file:literal),* $(,)?) => {
        $crate::stages::Wgsl {
            files: &[$($file),*],
            source: concat!($(include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/shaders/", $file)), "\n"),*),
        }
    };
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
    /// Its CPU twin, run on the CPU backend's buffers of the same names.
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
pub const STAGE_COUNT: usize = 6;

/// Every compute stage: the step's stages in order, then the stages run on request.
pub static STAGES: [Stage; STAGE_COUNT] = [
    Stage {
        name: "clear",
        wgsl: wgsl!("common.wgsl", "clear.wgsl"),
        bindings: &[b("params", Uniform), b("cells", ReadWrite)],
        run: Run::Dispatches(&[("clear", Items::CellCounters)]),
        when: When::Step,
        twin: twins::clear_step,
    },
    Stage {
        name: "count",
        wgsl: wgsl!("common.wgsl", "grid.wgsl", "count.wgsl"),
        bindings: &[
            b("params", Uniform),
            b("state", Read),
            b("cells", ReadWrite),
            b("boid_cell", ReadWrite),
            b("boid_rank", ReadWrite),
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
        name: "scatter",
        wgsl: wgsl!("common.wgsl", "scatter.wgsl"),
        bindings: &[
            b("params", Uniform),
            b("state", Read),
            b("boid_cell", Read),
            b("boid_rank", Read),
            b("cells", Read),
            b("sorted", ReadWrite),
        ],
        run: Run::Dispatches(&[("scatter", Items::Boids)]),
        when: When::Step,
        twin: twins::scatter_step,
    },
    Stage {
        name: "rules",
        wgsl: wgsl!(
            "common.wgsl",
            "rng.wgsl",
            "grid.wgsl",
            "rules_common.wgsl",
            "rules.wgsl"
        ),
        bindings: &[
            b("params", Uniform),
            b("sorted", Read),
            b("cells", Read),
            b("obstacles", Read),
            b("state", ReadWrite),
            b("neighbors", ReadWrite),
        ],
        run: Run::Dispatches(&[("rules", Items::Boids)]),
        when: When::Step,
        twin: twins::rules_step,
    },
    Stage {
        name: "measures",
        wgsl: wgsl!("common.wgsl", "measures.wgsl"),
        bindings: &[
            b("params", Uniform),
            b("state", Read),
            b("neighbors", Read),
            b("partials", ReadWrite),
            b("result", ReadWrite),
        ],
        run: Run::Dispatches(&[
            ("measures_partial", Items::Boids),
            ("measures_final", Items::OneGroup),
            ("milling_partial", Items::Boids),
            ("measures_final", Items::OneGroup),
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
    /// One element per cell counter (`cell_count + 1`).
    CellCounters,
    /// One element per obstacle point.
    Obstacles,
    /// One element per workgroup of a per-boid dispatch.
    BoidWorkgroups,
    /// Exactly one element.
    One,
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
}

const fn buf(name: &'static str, elem_bytes: u64, len: Len) -> BufferDesc {
    BufferDesc {
        name,
        elem_bytes,
        len,
        uniform: false,
    }
}

/// Bytes of one boid in the state buffers.
pub const BOID_BYTES: u64 = std::mem::size_of::<crate::model::Boid>() as u64;

/// Bytes of one row of the measures reduction (12 floats: the sums of `shaders/measures.wgsl`).
pub const MEASURES_ROW_BYTES: u64 = 48;

/// Every buffer bound by a stage of [`STAGES`] (the scan's level buffers excepted). `state` and
/// `sorted` are the two halves of the ping-pong pair: `state → scatter → sorted → rules → state`.
pub static BUFFERS: [BufferDesc; 10] = [
    BufferDesc {
        name: "params",
        elem_bytes: crate::model::uniforms::STEP_UNIFORMS_BYTES,
        len: Len::One,
        uniform: true,
    },
    buf("state", BOID_BYTES, Len::Boids),
    buf("sorted", BOID_BYTES, Len::Boids),
    buf("boid_cell", 4, Len::Boids),
    buf("boid_rank", 4, Len::Boids),
    buf("neighbors", 4, Len::Boids),
    buf("cells", 4, Len::CellCounters),
    buf("obstacles", 8, Len::Obstacles),
    buf("partials", MEASURES_ROW_BYTES, Len::BoidWorkgroups),
    buf("result", MEASURES_ROW_BYTES, Len::One),
];

/// The buffer named `name`, if it is in [`BUFFERS`].
pub fn buffer(name: &str) -> Option<&'static BufferDesc> {
    BUFFERS.iter().find(|b| b.name == name)
}

/// The per-boid bytes of every buffer of [`BUFFERS`] whose length follows the boid count
/// (the GPU backend's memory per boid, without the grid).
pub fn bytes_per_boid() -> u64 {
    BUFFERS
        .iter()
        .map(|b| match b.len {
            Len::Boids => b.elem_bytes,
            _ => 0,
        })
        .sum()
}
