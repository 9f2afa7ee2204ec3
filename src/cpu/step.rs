//! The CPU backend's step: its buffers ([`FastStep`]: the stages' buffers of a [`CpuStep`] and
//! what the fast paths add) and its stages ([`FAST_STAGES`]), the step stages of
//! [`crate::stages::STAGES`] in the table's order, each computing what its reference twin in
//! [`crate::stages::twins`] computes — `count`, `slots` and `scatter` in parallel
//! ([`crate::cpu::binning`]), `predators` in parallel, `rules` vectorised and in parallel
//! ([`crate::cpu::rules`]); `clear` and `scan` are the twins themselves; `scatter_heavy` and
//! `rules_heavy` do nothing, as their twins (the other paths place and step every item).
//! `tests/it/cpu_backend.rs`
//! holds the list to the table and a step to the twins' step.

use rayon::prelude::*;

use crate::cpu::binning;
use crate::cpu::gather_simd::{simd_applies, GatherPath, SortedLanes};
use crate::cpu::rules::{self, Gather};
use crate::model::params::SimParams;
use crate::model::predators::{move_predator, nearest_boid};
use crate::model::state::Boid;
use crate::model::uniforms::StepUniforms;
use crate::stages::twins::{self, CpuStep, Sorted, SortedRef, StateMut};

/// The buffers of the CPU backend.
pub struct FastStep {
    /// The buffers of the stages, named as the GPU's, as the reference twins use them.
    pub bufs: CpuStep,
    /// `id · 2³² + item` of each cell's items, at the places of `slot_ids`: what `scatter` sorts a
    /// cell by (item `i < N` is boid `i`, item `N + i` its ghost).
    pub slot_keys: Vec<u64>,
    /// How `rules` gathers the neighbour sums: by default the fastest vectorised path of this
    /// CPU ([`GatherPath::best`]; every vectorised path gives the same bits), or the scalar
    /// reference.
    pub gather_path: GatherPath,
    /// The sorted items transposed for the vectorised gather (filled by `rules`).
    pub lanes: SortedLanes,
}

impl FastStep {
    /// Buffers holding `boids`, sized for them and for the grid of `params`.
    pub fn new(boids: &[Boid], params: &SimParams) -> FastStep {
        FastStep {
            bufs: CpuStep::new(boids, params),
            slot_keys: Vec::new(),
            gather_path: GatherPath::best(),
            lanes: SortedLanes::default(),
        }
    }

    /// Sizes every per-item and per-cell buffer for the uniforms `u` ([`CpuStep::prepare`]).
    pub fn prepare(&mut self, u: StepUniforms) {
        self.bufs.prepare(u);
        self.slot_keys.resize(self.bufs.slot_ids.len(), 0);
    }
}

/// One stage of the CPU backend's step.
#[derive(Clone, Copy, Debug)]
pub struct FastStage {
    /// The name of the step stage of [`crate::stages::STAGES`] it computes.
    pub name: &'static str,
    /// The stage on the backend's buffers.
    pub run: fn(&mut FastStep),
}

/// The stages of one step of the CPU backend: the step stages of [`crate::stages::STAGES`], in
/// order.
pub static FAST_STAGES: [FastStage; 9] = [
    FastStage {
        name: "clear",
        run: clear,
    },
    FastStage {
        name: "count",
        run: count,
    },
    FastStage {
        name: "scan",
        run: scan,
    },
    FastStage {
        name: "slots",
        run: slots,
    },
    FastStage {
        name: "scatter",
        run: scatter,
    },
    FastStage {
        name: "scatter_heavy",
        run: nothing,
    },
    FastStage {
        name: "predators",
        run: predators,
    },
    FastStage {
        name: "rules",
        run: rules,
    },
    FastStage {
        name: "rules_heavy",
        run: nothing,
    },
];

/// `clear`: the twin.
fn clear(s: &mut FastStep) {
    twins::clear_step(&mut s.bufs);
}

/// `count`, in parallel.
fn count(s: &mut FastStep) {
    let b = &mut s.bufs;
    let grid = b.params.grid();
    binning::count(&b.pos_vel, &grid, &mut b.cells, &mut b.rank);
}

/// `scan`: the twin (one pass over the cells).
fn scan(s: &mut FastStep) {
    twins::scan_step(&mut s.bufs);
}

/// `slots`, in parallel, with the sort keys.
fn slots(s: &mut FastStep) {
    let b = &mut s.bufs;
    let grid = b.params.grid();
    binning::slots(
        &b.pos_vel,
        &b.id,
        &grid,
        &b.cells,
        &b.rank,
        &mut b.slot_ids,
        &mut s.slot_keys,
    );
}

/// `scatter`, in parallel over ranges of cells, each cell ordered by its keys.
fn scatter(s: &mut FastStep) {
    let b = &mut s.bufs;
    let grid = b.params.grid();
    binning::scatter(
        &b.pos_vel,
        &b.hue,
        &b.image,
        &grid,
        b.params.world_width,
        &b.cells,
        &mut b.slot_ids,
        &mut s.slot_keys,
        Sorted {
            pos_vel: &mut b.sorted_pos_vel,
            hue: &mut b.sorted_hue,
            id: &mut b.sorted_id,
            image: &mut b.sorted_image,
        },
    );
}

/// `scatter_heavy` and `rules_heavy`: nothing, as their twins (the plain stages handle every
/// item).
fn nothing(_: &mut FastStep) {}

/// `predators`: the twin's moves, one task per predator.
fn predators(s: &mut FastStep) {
    let b = &mut s.bufs;
    let u = &b.params;
    let (pos_vel, id, cells) = (&b.sorted_pos_vel, &b.sorted_id, &b.cells);
    let n = (u.predator_count as usize).min(b.predators.len());
    b.predators[..n].par_iter_mut().for_each(|pr| {
        let target = if pr.is_hunting() {
            nearest_boid(pr.pos(), pos_vel, id, cells, u)
        } else {
            None
        };
        *pr = move_predator(pr, target, u);
    });
}

/// `rules`, vectorised and in parallel: on a vectorised [`FastStep::gather_path`] the sorted
/// items are first transposed into [`FastStep::lanes`] (when [`simd_applies`]). Counts the
/// catches.
fn rules(s: &mut FastStep) {
    let b = &mut s.bufs;
    let total = b.cells[b.cells.len() - 1] as usize;
    let how = if s.gather_path != GatherPath::Scalar && simd_applies(&b.params) {
        s.lanes
            .fill(&b.sorted_pos_vel[..total], &b.sorted_hue[..total]);
        Gather::Lanes(s.gather_path, &s.lanes)
    } else {
        Gather::Scalar
    };
    let caught = rules::rules(
        &b.params,
        &b.model_params,
        SortedRef {
            pos_vel: &b.sorted_pos_vel,
            hue: &b.sorted_hue,
            id: &b.sorted_id,
            image: &b.sorted_image,
        },
        how,
        &b.cells,
        &b.obstacles,
        &b.predators,
        StateMut {
            pos_vel: &mut b.pos_vel,
            hue: &mut b.hue,
            id: &mut b.id,
            image: &mut b.image,
            neighbors: &mut b.neighbors,
            neighbor_ids: &mut b.neighbor_ids,
        },
    );
    b.count_catches(caught);
    b.neighbors_counted = b.params.skip_neighbor_counts == 0;
}
