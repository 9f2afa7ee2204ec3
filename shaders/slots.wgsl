// Stage `slots`: each item writes its boid's id at its counted place, slot_ids[start(cell) + rank], so
// every cell's range of `slots` lists the ids of its items. The item's cell and rank are what
// `count` wrote (`rank` and its plane `item_cell`, less the cell word's CELL_HAS_GHOST bit;
// count.wgsl).

@group(0) @binding(0) var<uniform> replicas: array<Params, MAX_REPLICAS>;
@group(0) @binding(1) var<storage, read> id: array<u32>;
@group(0) @binding(2) var<storage, read> cells: array<u32>;
@group(0) @binding(3) var<storage, read> rank: array<u32>;
@group(0) @binding(4) var<storage, read_write> slot_ids: array<u32>;

@compute @workgroup_size(256)
fn slots(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
         @builtin(local_invocation_index) lid: u32) {
    let i = workgroup_linear(wid, nwg) * WORKGROUP_SIZE + lid;
    let n = replicas[0].total_boids;
    if (i >= n) {
        return;
    }
    let cell_at = arrayLength(&rank) / 2u;
    let r = rank[i];
    slot_ids[cells[rank[cell_at + i] & ~CELL_HAS_GHOST] + (r & ~RANK_HAS_GHOST)] = id[i];
    if ((r & RANK_HAS_GHOST) != 0u) {
        let k = n + i;
        slot_ids[cells[rank[cell_at + k]] + rank[k]] = id[i];
    }
}
