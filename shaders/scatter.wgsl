// Stage `scatter`: copies each item's state to its place in cell order, within a cell by boid id
// (the item's rank among the ids in its cell's slots), with its image counts, ghosts shifted by ±W. The order is
// therefore the same whatever the order of the atomic ranks of `count`: deterministic, and equal
// to the CPU twin's. An item of a cell with more than SCATTER_BUDGET items is deferred to
// `scatter_heavy` (its rank is counted by a workgroup).

@group(0) @binding(0) var<uniform> replicas: array<Params, MAX_REPLICAS>;
@group(0) @binding(1) var<storage, read> pos_vel: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> id: array<u32>;
@group(0) @binding(3) var<storage, read> cells: array<u32>;
@group(0) @binding(4) var<storage, read> slot_ids: array<u32>;
@group(0) @binding(5) var<storage, read_write> sorted_pos_vel: array<vec4<f32>>;
@group(0) @binding(6) var<storage, read_write> sorted_hue: array<vec4<f32>>;
@group(0) @binding(7) var<storage, read_write> sorted_id: array<u32>;
@group(0) @binding(8) var<storage, read_write> deferred: array<atomic<u32>>;

// Most items of a cell one invocation ranks itself.
const SCATTER_BUDGET: u32 = 16384u;

// Bit of a deferred entry marking a ghost item.
const GHOST_BIT: u32 = 0x80000000u;

fn place(cell: u32, i: u32, shift: f32, ghost: u32) {
    let a = cells[cell];
    let b = cells[cell + 1u];
    if (b - a > SCATTER_BUDGET) {
        defer_item(0u, i | ghost);
        return;
    }
    let key = id[i];
    var r = 0u;
    for (var k = a; k < b; k++) {
        r += select(0u, 1u, slot_ids[k] < key);
    }
    write_item(a + r, i, shift);
}

@compute @workgroup_size(256)
fn scatter(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
           @builtin(local_invocation_index) lid: u32) {
    let i = workgroup_linear(wid, nwg) * WORKGROUP_SIZE + lid;
    if (i >= replicas[0].total_boids) {
        return;
    }
    enter_replica(replica_of_boid(i));
    let c = cell_xy(pos_vel[i].xy);
    place(cell_index(c), i, 0.0, 0u);
    let g = ghost_of(c);
    if (g.exists) {
        place(g.cell, i, g.shift, GHOST_BIT);
    }
}
