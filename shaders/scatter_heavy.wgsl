// Stage `scatter_heavy`: the items `scatter` deferred (cells of more than SCATTER_BUDGET items), one
// workgroup each: every invocation counts the ids below the item's in a slice of its cell, the
// counts are summed in workgroup memory (a fixed tree), and the item is written at its rank.
// Together with `scatter` it computes what the CPU twin `scatter` computes.

@group(0) @binding(0) var<uniform> replicas: array<Params, MAX_REPLICAS>;
@group(0) @binding(1) var<storage, read> pos_vel: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> id: array<u32>;
@group(0) @binding(3) var<storage, read> cells: array<u32>;
@group(0) @binding(4) var<storage, read> slot_ids: array<u32>;
@group(0) @binding(5) var<storage, read_write> sorted_pos_vel: array<vec4<f32>>;
@group(0) @binding(6) var<storage, read_write> sorted_hue: array<vec4<f32>>;
@group(0) @binding(7) var<storage, read_write> sorted_id: array<u32>;
@group(0) @binding(8) var<storage, read> deferred: array<u32>;

const GHOST_BIT: u32 = 0x80000000u;

var<workgroup> partial: array<u32, 256>;

@compute @workgroup_size(256)
fn scatter_heavy(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                 @builtin(local_invocation_index) lid: u32) {
    let g = workgroup_linear(wid, nwg);
    // No early return: the barriers below need every invocation (uniform control flow); the
    // workgroups past the deferred items have empty ranges and write nothing.
    let live = g < deferred[DEFER_COUNT];
    let entry = select(0u, deferred[min(DEFER_LIST + g, arrayLength(&deferred) - 1u)], live);
    let i = entry & ~GHOST_BIT;
    enter_replica(replica_of_boid(i));
    let c = cell_xy(pos_vel[i].xy);
    var cell = cell_index(c);
    var shift = 0.0;
    if ((entry & GHOST_BIT) != 0u) {
        let gh = ghost_of(c);
        cell = gh.cell;
        shift = gh.shift;
    }
    let a = cells[cell];
    let b = select(a, cells[cell + 1u], live);
    let key = id[i];
    var r = 0u;
    for (var k = a + lid; k < b; k += 256u) {
        r += select(0u, 1u, slot_ids[k] < key);
    }
    partial[lid] = r;
    for (var stride = 128u; stride > 0u; stride >>= 1u) {
        workgroupBarrier();
        if (lid < stride) {
            partial[lid] += partial[lid + stride];
        }
    }
    workgroupBarrier();
    if (lid == 0u && live) {
        write_item(a + partial[0], i, shift);
    }
}
