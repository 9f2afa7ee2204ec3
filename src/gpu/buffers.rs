//! The storage buffers of the GPU backend and the bind groups that tie them to the stages.
//!
//! | buffer | element | entries |
//! |---|---|---|
//! | `state` | `Boid` (40 B) | boid capacity — current state; written by `rules` |
//! | `sorted` | `Boid` | boid capacity — the scattered copy (the other half of the ping-pong pair) |
//! | `boid_cell`, `boid_rank` | u32 | boid capacity |
//! | `neighbors` | u32 | boid capacity — neighbour count from `rules`, aligned with `state` |
//! | `cells` | u32 | cell capacity + 1 — counts after `count`, starts after `scan` |
//! | `obstacles` | vec2<f32> | obstacle capacity |
//! | `partials`, `result` | 32 B rows | one per workgroup / one |
//!
//! Capacities grow by doubling; existing boids are kept by a GPU copy.

use crate::gpu::context::GpuContext;
use crate::gpu::stages::{
    Clear, Count, Measures, Rules, Scan, ScanBuffers, Scatter, MEASURES_ROW_BYTES,
};
use crate::gpu::{dispatch, GpuError};
use crate::model::{Boid, StepUniforms};

/// Bytes per boid in `state` / `sorted`.
pub const BOID_BYTES: u64 = std::mem::size_of::<Boid>() as u64;

/// Every pipeline of the simulation step.
pub struct Stages {
    /// `clear`.
    pub clear: Clear,
    /// `count`.
    pub count: Count,
    /// `scan`.
    pub scan: Scan,
    /// `scatter`.
    pub scatter: Scatter,
    /// `rules`.
    pub rules: Rules,
    /// `measures`.
    pub measures: Measures,
}

impl Stages {
    /// Compiles every stage.
    pub fn new(device: &wgpu::Device) -> Self {
        Stages {
            clear: Clear::new(device),
            count: Count::new(device),
            scan: Scan::new(device),
            scatter: Scatter::new(device),
            rules: Rules::new(device),
            measures: Measures::new(device),
        }
    }
}

/// Buffers and bind groups for a boid capacity and a cell capacity.
pub struct SimBuffers {
    /// Boids the buffers can hold.
    pub boid_capacity: u32,
    /// Cells the `cells` buffer can hold (plus one).
    pub cell_capacity: u32,
    /// Obstacle points the `obstacles` buffer can hold.
    pub obstacle_capacity: u32,
    /// The uniform block ([`StepUniforms`]).
    pub params: wgpu::Buffer,
    /// Current state.
    pub state: wgpu::Buffer,
    /// Scattered copy.
    pub sorted: wgpu::Buffer,
    /// Cell of each boid.
    pub boid_cell: wgpu::Buffer,
    /// Rank of each boid in its cell.
    pub boid_rank: wgpu::Buffer,
    /// Neighbour counts.
    pub neighbors: wgpu::Buffer,
    /// Cell counts / starts.
    pub cells: wgpu::Buffer,
    /// Obstacle points.
    pub obstacles: wgpu::Buffer,
    /// Measures partial rows.
    pub partials: wgpu::Buffer,
    /// Measures result row.
    pub result: wgpu::Buffer,
    /// Scan levels for `cells`.
    pub scan: ScanBuffers,
    /// Bind group of `clear`.
    pub bind_clear: wgpu::BindGroup,
    /// Bind group of `count`.
    pub bind_count: wgpu::BindGroup,
    /// Bind group of `scatter`.
    pub bind_scatter: wgpu::BindGroup,
    /// Bind group of `rules`.
    pub bind_rules: wgpu::BindGroup,
    /// Bind group of `measures`.
    pub bind_measures: wgpu::BindGroup,
}

/// Checks that `bytes` fit one storage buffer on this device.
///
/// # Errors
/// [`GpuError::Limit`] naming the limit.
pub fn check_fits(
    ctx: &GpuContext,
    what: String,
    bytes: u64,
    hint: String,
) -> Result<(), GpuError> {
    let l = ctx.device.limits();
    if bytes > l.max_storage_buffer_binding_size {
        return Err(GpuError::Limit {
            what,
            needed: bytes,
            limit: "max_storage_buffer_binding_size",
            max: l.max_storage_buffer_binding_size,
            hint,
        });
    }
    if bytes > l.max_buffer_size {
        return Err(GpuError::Limit {
            what,
            needed: bytes,
            limit: "max_buffer_size",
            max: l.max_buffer_size,
            hint,
        });
    }
    Ok(())
}

/// Largest boid count the device can hold.
pub fn max_boids(ctx: &GpuContext) -> u64 {
    let l = ctx.device.limits();
    l.max_storage_buffer_binding_size.min(l.max_buffer_size) / BOID_BYTES
}

/// Checks a boid count against the device limits.
///
/// # Errors
/// [`GpuError::Limit`] naming the limit and the largest count that fits.
pub fn check_boids(ctx: &GpuContext, boids: u64) -> Result<(), GpuError> {
    check_fits(
        ctx,
        format!("{boids} boids ({BOID_BYTES} bytes each)"),
        boids * BOID_BYTES,
        format!(": at most {} boids fit on this adapter", max_boids(ctx)),
    )
}

fn storage(
    device: &wgpu::Device,
    label: &str,
    bytes: u64,
    extra: wgpu::BufferUsages,
) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: Some(label),
        size: bytes.max(16).next_multiple_of(4),
        usage: wgpu::BufferUsages::STORAGE
            | wgpu::BufferUsages::COPY_SRC
            | wgpu::BufferUsages::COPY_DST
            | extra,
        mapped_at_creation: false,
    })
}

impl SimBuffers {
    /// Allocates buffers for `boid_capacity` boids, `cell_capacity` cells and `obstacle_capacity`
    /// obstacle points, and builds the bind groups.
    ///
    /// # Errors
    /// [`GpuError::Limit`] when a buffer would exceed the device limits.
    pub fn new(
        ctx: &GpuContext,
        stages: &Stages,
        boid_capacity: u32,
        cell_capacity: u32,
        obstacle_capacity: u32,
    ) -> Result<Self, GpuError> {
        check_boids(ctx, boid_capacity as u64)?;
        check_fits(
            ctx,
            format!("a grid of {cell_capacity} cells"),
            (cell_capacity as u64 + 1) * 4,
            ": raise perception_radius or shrink the world".into(),
        )?;
        let d = &ctx.device;
        let cap = boid_capacity.max(1) as u64;
        let params = d.create_buffer(&wgpu::BufferDescriptor {
            label: Some("params"),
            size: std::mem::size_of::<StepUniforms>() as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let state = storage(d, "state", cap * BOID_BYTES, wgpu::BufferUsages::empty());
        let sorted = storage(d, "sorted", cap * BOID_BYTES, wgpu::BufferUsages::empty());
        let boid_cell = storage(d, "boid_cell", cap * 4, wgpu::BufferUsages::empty());
        let boid_rank = storage(d, "boid_rank", cap * 4, wgpu::BufferUsages::empty());
        let neighbors = storage(d, "neighbors", cap * 4, wgpu::BufferUsages::empty());
        let cells = storage(
            d,
            "cells",
            (cell_capacity as u64 + 1) * 4,
            wgpu::BufferUsages::empty(),
        );
        let obstacles = storage(
            d,
            "obstacles",
            obstacle_capacity.max(1) as u64 * 8,
            wgpu::BufferUsages::empty(),
        );
        let groups = dispatch::groups_for(cap as u32) as u64;
        let partials = storage(
            d,
            "partials",
            groups * MEASURES_ROW_BYTES,
            wgpu::BufferUsages::empty(),
        );
        let result = storage(d, "result", MEASURES_ROW_BYTES, wgpu::BufferUsages::empty());
        let scan = stages.scan.buffers(d, &cells, cell_capacity + 1);
        let bind_clear = stages.clear.0.bind(d, &[&params, &cells]);
        let bind_count = stages
            .count
            .0
            .bind(d, &[&params, &state, &cells, &boid_cell, &boid_rank]);
        let bind_scatter = stages.scatter.0.bind(
            d,
            &[&params, &state, &boid_cell, &boid_rank, &cells, &sorted],
        );
        let bind_rules = stages.rules.0.bind(
            d,
            &[&params, &sorted, &cells, &obstacles, &state, &neighbors],
        );
        let bind_measures = stages
            .measures
            .0
            .bind(d, &[&params, &state, &neighbors, &partials, &result]);
        Ok(SimBuffers {
            boid_capacity,
            cell_capacity,
            obstacle_capacity: obstacle_capacity.max(1),
            params,
            state,
            sorted,
            boid_cell,
            boid_rank,
            neighbors,
            cells,
            obstacles,
            partials,
            result,
            scan,
            bind_clear,
            bind_count,
            bind_scatter,
            bind_rules,
            bind_measures,
        })
    }
}
