//! The GPU buffers of [`crate::stages::BUFFERS`] and the bind groups that tie them to the stages of
//! [`crate::stages::STAGES`], for given capacities (boids, cells, obstacle points). Capacities
//! grow by doubling; the backend keeps existing boids with a GPU copy.

use crate::gpu::context::GpuContext;
use crate::gpu::dispatch;
use crate::gpu::pipelines::Pipelines;
use crate::gpu::scan::ScanLevels;
use crate::model::{split_state, Boid, Grid, GridFor, ObstacleGrid, SimParams};
use crate::simulation::{GpuError, StorageRange};
use crate::stages::{At, BufferDesc, Len, Run, BUFFERS, STAGES, SWAPPED};

/// What the buffers can hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Capacity {
    /// Boids (allocated in whole blocks of [`crate::stages::REGION_ALIGN`]).
    pub boids: u32,
    /// Items (boids and their ghosts): 2·boids in a wrapping world, else boids.
    pub items: u32,
    /// Cells (the `cells` buffer has one more counter, rounded up to
    /// [`crate::stages::REGION_ALIGN`] words, then its regions); the grid in use may have fewer
    /// (the scan runs over the grid's, [`SimBuffers::rescan`]).
    pub cells: u32,
    /// Obstacle grid cells (the region `obstacle_grid` has one more start).
    pub obstacle_cells: u32,
    /// Obstacle points.
    pub obstacles: u32,
    /// Predators.
    pub predators: u32,
    /// Recorded neighbour ids (`topological_k` per recorded boid, 32 in the Voronoi
    /// neighbourhood).
    pub neighbor_ids: u32,
}

impl Capacity {
    /// Elements of a buffer of length `len` (at least 1).
    pub fn elements(&self, len: Len) -> u64 {
        let n = match len {
            Len::Boids => self.boids as u64,
            Len::Items => self.items as u64,
            Len::IdsThenImages => self.items as u64 + 2 * self.boids as u64,
            Len::CellCounters => {
                crate::stages::cells_end(self.cells) as u64
                    + crate::stages::PREDATOR_BYTES / 4 * self.predators as u64
                    + self.obstacle_cells as u64
                    + 1
                    + 2 * self.obstacles as u64
            }
            Len::NeighborCounts => self.boids as u64 + self.neighbor_ids as u64,
            Len::BoidWorkgroups => {
                (dispatch::groups_for(self.boids.max(1)) + crate::stages::MAX_REPLICAS) as u64
            }
            Len::Deferred => crate::stages::DEFERRED_LIST as u64 + self.items as u64,
            Len::Fixed(k) => k as u64,
        };
        n.max(1)
    }

    /// Bytes of buffer `b` at this capacity.
    pub fn bytes(&self, b: &BufferDesc) -> u64 {
        b.elem_bytes * self.elements(b.len)
    }
}

/// Every buffer of [`BUFFERS`] and the bind group of every stage.
pub struct SimBuffers {
    /// What they can hold.
    pub capacity: Capacity,
    /// In the order of [`BUFFERS`].
    buffers: Vec<wgpu::Buffer>,
    /// In the order of [`STAGES`] (the scan's are in `scan`): `binds[0]` with every buffer in its
    /// own role, `binds[1]` with the pairs of [`SWAPPED`] swapped.
    binds: [Vec<Option<wgpu::BindGroup>>; 2],
    /// Whether the pairs of [`SWAPPED`] are in each other's roles now (after an odd number of
    /// steps).
    swapped: bool,
    /// The levels of the `scan` stage over `cells`.
    pub scan: ScanLevels,
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
    for (limit, max) in [
        (
            "max_storage_buffer_binding_size",
            l.max_storage_buffer_binding_size,
        ),
        ("max_buffer_size", l.max_buffer_size),
    ] {
        if bytes > max {
            return Err(GpuError::Limit {
                what,
                needed: bytes,
                limit,
                max,
                hint,
            });
        }
    }
    Ok(())
}

/// Bytes per boid of the largest per-boid buffer (the one that limits the count), counting a
/// ghost item per boid (a wrapping world).
fn largest_boid_element() -> u64 {
    BUFFERS
        .iter()
        .map(|b| match b.len {
            Len::Boids => b.elem_bytes,
            Len::Items | Len::Deferred => 2 * b.elem_bytes,
            Len::IdsThenImages => 4 * b.elem_bytes,
            _ => 0,
        })
        .max()
        .unwrap_or(1)
}

/// Largest boid count the device can hold (its largest per-boid buffer within the binding limit).
pub fn max_boids(ctx: &GpuContext) -> u64 {
    max_boids_for(&ctx.device.limits())
}

/// Largest boid count `limits` allow: the largest per-boid buffer (32 bytes a boid: 16 bytes per
/// item, two items per boid in a wrapping world) within the binding and buffer size limits, in
/// whole blocks of [`crate::stages::REGION_ALIGN`] (as the buffers are allocated). The device's
/// memory must also hold [`crate::stages::bytes_per_boid`] bytes per boid.
pub fn max_boids_for(limits: &wgpu::Limits) -> u64 {
    let align = crate::stages::REGION_ALIGN as u64;
    limits
        .max_storage_buffer_binding_size
        .min(limits.max_buffer_size)
        / largest_boid_element()
        / align
        * align
}

/// Checks a boid count against the device limits.
///
/// # Errors
/// [`GpuError::Limit`] naming the limit and the largest count that fits.
pub fn check_boids(ctx: &GpuContext, boids: u64) -> Result<(), GpuError> {
    check_fits(
        ctx,
        format!("{boids} boids ({} bytes each)", largest_boid_element()),
        allocated_boids(boids) * largest_boid_element(),
        format!(": at most {} boids fit on this adapter", max_boids(ctx)),
    )
}

/// Boids the buffers are allocated for to hold `boids`: whole blocks of
/// [`crate::stages::REGION_ALIGN`] (at least one), so that the region `hue` starts at an offset
/// a binding may.
fn allocated_boids(boids: u64) -> u64 {
    boids
        .max(1)
        .next_multiple_of(crate::stages::REGION_ALIGN as u64)
}

impl SimBuffers {
    /// Allocates every buffer at `capacity` and builds the bind groups, the scan's levels over
    /// the `grid_cells` (≤ `capacity.cells`) of the grid in use.
    ///
    /// # Errors
    /// [`GpuError::Limit`] when a buffer would exceed the device limits.
    pub fn new(
        ctx: &GpuContext,
        pipelines: &Pipelines,
        capacity: Capacity,
        grid_cells: u32,
    ) -> Result<Self, GpuError> {
        // Whole blocks of boids and of items, so that a buffer is never padded to its minimum
        // size and a shader finds a plane from its `arrayLength` (regions.wgsl, count.wgsl, slots.wgsl,
        // gather.wgsl's `finish_boid`).
        let capacity = Capacity {
            boids: allocated_boids(capacity.boids as u64) as u32,
            items: allocated_boids(capacity.items as u64) as u32,
            ..capacity
        };
        check_boids(ctx, capacity.boids as u64)?;
        check_fits(
            ctx,
            format!("a grid of {} cells", capacity.cells),
            capacity.elements(Len::CellCounters) * 4,
            ": raise perception_radius or shrink the world".into(),
        )?;
        check_fits(
            ctx,
            format!("{} obstacle points", capacity.obstacles),
            capacity.obstacles as u64 * 8,
            String::new(),
        )?;
        check_fits(
            ctx,
            format!("{} items (boids and ghosts)", capacity.items),
            capacity.items as u64 * 16,
            format!(": at most {} boids fit on this adapter", max_boids(ctx)),
        )?;
        let d = &ctx.device;
        let buffers: Vec<wgpu::Buffer> = BUFFERS
            .iter()
            .map(|b| {
                let usage = if b.uniform {
                    wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST
                } else if b.indirect {
                    wgpu::BufferUsages::STORAGE
                        | wgpu::BufferUsages::INDIRECT
                        | wgpu::BufferUsages::COPY_SRC
                        | wgpu::BufferUsages::COPY_DST
                } else {
                    wgpu::BufferUsages::STORAGE
                        | wgpu::BufferUsages::COPY_SRC
                        | wgpu::BufferUsages::COPY_DST
                };
                d.create_buffer(&wgpu::BufferDescriptor {
                    label: Some(b.name),
                    size: capacity.bytes(b).max(16).next_multiple_of(4),
                    usage,
                    mapped_at_creation: false,
                })
            })
            .collect();
        let bind = |k: usize, swapped: bool| {
            let bound: Vec<&wgpu::Buffer> = STAGES[k]
                .bindings
                .iter()
                .map(|b| &buffers[buffer_index(b.name, swapped)])
                .collect();
            pipelines.at(k).bind(d, &bound)
        };
        let mut scan = None;
        let own: Vec<Option<wgpu::BindGroup>> = STAGES
            .iter()
            .enumerate()
            .map(|(k, stage)| match stage.run {
                Run::Scan { data } => {
                    scan = Some(ScanLevels::new(
                        d,
                        pipelines.at(k),
                        &buffers[buffer_index(data, false)],
                        grid_cells.min(capacity.cells) + 1,
                    ));
                    None
                }
                Run::Dispatches(_) => Some(bind(k, false)),
            })
            .collect();
        // With the pairs swapped: a new bind group only for a stage that binds one of them.
        let swapped = own
            .iter()
            .enumerate()
            .map(|(k, group)| {
                let swaps = STAGES[k]
                    .bindings
                    .iter()
                    .any(|b| SWAPPED.iter().any(|(x, y)| b.name == *x || b.name == *y));
                match group {
                    Some(_) if swaps => Some(bind(k, true)),
                    _ => group.clone(),
                }
            })
            .collect();
        let binds = [own, swapped];
        Ok(SimBuffers {
            capacity,
            buffers,
            binds,
            swapped: false,
            scan: scan.expect("the stage table has a scan stage"),
        })
    }

    /// Swaps the roles of the pairs of [`SWAPPED`], as a step's last stage leaves them: call it
    /// once after recording each whole step (the state's ids and image counts are then in the
    /// buffer `sorted_id` was).
    pub fn swap_after_step(&mut self) {
        self.swapped = !self.swapped;
    }

    /// Rebuilds the scan's levels for a grid of `grid_cells` (≤ `capacity.cells`) when it has
    /// another number of cells: the buffers stay (a sweep's points of one count and another
    /// perception radius keep them).
    pub fn rescan(&mut self, device: &wgpu::Device, pipelines: &Pipelines, grid_cells: u32) {
        let len = grid_cells.min(self.capacity.cells) + 1;
        if self.scan.lens[0] == len {
            return;
        }
        let k = STAGES
            .iter()
            .position(|s| matches!(s.run, Run::Scan { .. }))
            .expect("the stage table has a scan stage");
        let Run::Scan { data } = STAGES[k].run else {
            unreachable!("found as a scan stage")
        };
        self.scan = ScanLevels::new(device, pipelines.at(k), self.get(data), len);
    }

    /// The buffer that holds the region named `name` (one of [`crate::stages::REGIONS`]) and
    /// the region's byte offset in it, for a region of `bytes` bytes (the length matters only for
    /// a region at the host's end).
    ///
    /// # Panics
    /// When there is no such region.
    pub fn region(&self, name: &str, bytes: u64) -> (&wgpu::Buffer, u64) {
        let r = crate::stages::region(name).unwrap_or_else(|| panic!("no region named {name:?}"));
        let host = self.get(r.host);
        let desc = crate::stages::buffer(r.host).expect("a region's host is in BUFFERS");
        let offset = match r.at {
            At::Plane { bytes_before } => bytes_before * self.capacity.elements(desc.len),
            At::AfterItems => 4 * self.capacity.items as u64,
            At::Word(w) => 4 * w as u64,
            At::AfterCells => 4 * crate::stages::cells_end(self.capacity.cells) as u64,
            At::End => host.size().saturating_sub(bytes),
        };
        (host, offset)
    }

    /// The region `hue` (16 bytes a boid of the capacity) or `predators` (32 bytes a predator
    /// of the capacity, which must be some) as a range a binding may hold alone (the renderer's).
    ///
    /// # Panics
    /// For another region (a programming error: no other is bound alone).
    pub fn range(&self, name: &str) -> StorageRange {
        let size = match name {
            "hue" => 16 * self.capacity.boids as u64,
            "predators" => crate::stages::PREDATOR_BYTES * self.capacity.predators as u64,
            _ => panic!("the region {name:?} is not bound alone"),
        };
        let (host, offset) = self.region(name, size);
        StorageRange {
            buffer: host.clone(),
            offset,
            size,
        }
    }

    /// Reads the first `count` values of `T` of the region named `name` (its last `count` for
    /// a region at its host's end).
    ///
    /// # Errors
    /// As [`crate::gpu::readback::read_bytes`].
    pub fn read_region<T: bytemuck::Pod>(
        &self,
        ctx: &GpuContext,
        name: &str,
        count: usize,
    ) -> Result<Vec<T>, GpuError> {
        let bytes = (count * std::mem::size_of::<T>()) as u64;
        let (host, offset) = self.region(name, bytes);
        let raw = crate::gpu::readback::read_bytes(ctx, host, offset, bytes)?;
        Ok(bytemuck::pod_collect_to_vec(&raw))
    }

    /// The buffer named `name` (one of [`BUFFERS`]).
    ///
    /// # Panics
    /// When there is no such buffer.
    pub fn get(&self, name: &str) -> &wgpu::Buffer {
        &self.buffers[buffer_index(name, self.swapped)]
    }

    /// The bind group of the stage at position `k` of [`STAGES`] (None for the scan), with the
    /// buffers in their current roles.
    pub fn bind_group(&self, k: usize) -> Option<&wgpu::BindGroup> {
        self.binds[self.swapped as usize][k].as_ref()
    }

    /// Total bytes of every buffer at this capacity.
    pub fn total_bytes(&self) -> u64 {
        self.buffers.iter().map(|b| b.size()).sum()
    }
}

/// The position in [`BUFFERS`] of the buffer in the role `name`: its own, or with the pairs of
/// [`SWAPPED`] in each other's roles when `swapped`.
///
/// # Panics
/// When there is no such buffer.
fn buffer_index(name: &str, swapped: bool) -> usize {
    let name = match SWAPPED.iter().find(|(a, b)| name == *a || name == *b) {
        Some((a, b)) if swapped => {
            if name == *a {
                *b
            } else {
                *a
            }
        }
        _ => name,
    };
    BUFFERS
        .iter()
        .position(|b| b.name == name)
        .unwrap_or_else(|| panic!("no buffer named {name:?}"))
}

/// The capacity `n` boids need with the grid of `params`, the obstacle grid `og`, `predators`
/// predators, and their neighbour ids when `record` (topological or Voronoi).
pub fn capacity_for(
    params: &SimParams,
    n: u32,
    og: &ObstacleGrid,
    predators: u32,
    record: bool,
) -> Capacity {
    let wrap = params.boundary == crate::model::Boundary::Wrap;
    let width = match params.neighborhood {
        crate::model::Neighborhood::Metric => 0,
        crate::model::Neighborhood::Topological => params.topological_k,
        crate::model::Neighborhood::Voronoi => crate::model::voronoi::VORONOI_EDGES_MAX as u32,
    };
    Capacity {
        boids: n,
        items: n * if wrap { 2 } else { 1 },
        cells: Grid::new_for(params, n as usize, GridFor::Gpu).cells(),
        // The budget of a grid of few points, so that one never grows the buffers.
        obstacle_cells: og
            .cells()
            .max(crate::model::grid::OBSTACLE_CELLS_MIN_BUDGET),
        obstacles: og.points.len() as u32,
        predators,
        neighbor_ids: if record && width > 0 {
            n.saturating_mul(width)
        } else {
            1
        },
    }
}

/// A capacity of at least `need`: `have` when enough, else doubled (at least `need`).
pub fn grow(have: u32, need: u32) -> u32 {
    if need <= have {
        have
    } else {
        need.max(have.saturating_mul(2))
    }
}

/// Writes `boids` into the state buffers from boid index `at` on.
pub fn write_state(ctx: &GpuContext, b: &SimBuffers, at: u64, boids: &[Boid]) {
    let a = split_state(boids);
    let q = &ctx.queue;
    q.write_buffer(b.get("pos_vel"), at * 16, bytemuck::cast_slice(&a.pos_vel));
    q.write_buffer(b.get("id"), at * 4, bytemuck::cast_slice(&a.id));
    let (image, offset) = b.region("image", 0);
    q.write_buffer(image, offset + at * 8, bytemuck::cast_slice(&a.image));
    let (hue, offset) = b.region("hue", 0);
    q.write_buffer(hue, offset + at * 16, bytemuck::cast_slice(&a.hue));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hundred_million_boids_fit_4_gib_bindings_and_16_gib_of_memory() {
        // No single binding holds more than 32 bytes per boid (16 per item, two items per boid),
        // so 4 GiB bindings allow 134 M boids; all the buffers together take under 164 bytes per
        // boid, so 100 M boids fit 16 GiB.
        let limits = wgpu::Limits {
            max_storage_buffer_binding_size: (4u64 << 30) - 4,
            max_buffer_size: 1u64 << 40,
            ..wgpu::Limits::default()
        };
        assert!(
            max_boids_for(&limits) >= 100_000_000,
            "{}",
            max_boids_for(&limits)
        );
        let per_boid = crate::stages::bytes_per_boid();
        // The grid's counters: about one cell per boid at the default density, 4 bytes each.
        assert!(
            (per_boid + 4) * 100_000_000 <= 16u64 << 30,
            "{per_boid} bytes per boid"
        );
        // lavapipe's 128 MiB bindings: 4.19 M boids (3.35 M with the 40-byte boid of before).
        let lavapipe = wgpu::Limits {
            max_storage_buffer_binding_size: 128 << 20,
            max_buffer_size: (2u64 << 30) - 1,
            ..wgpu::Limits::default()
        };
        assert_eq!(max_boids_for(&lavapipe), 4_194_304);
    }
}
