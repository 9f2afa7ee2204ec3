// Stage `count`: each boid (and its ghost) finds its cell; atomicAdd on the cell counter returns the
// item's rank in the cell (in any order: `scatter` orders cells by id). rank[i] is boid i's, with
// RANK_HAS_GHOST set when the boid has a ghost, rank[total_boids + i] its ghost's. The plane after
// the ranks (the region `item_cell`, word arrayLength(&rank) / 2 + item) holds each item's cell
// word — a boid's with CELL_HAS_GHOST set when it has a ghost — so that `slots` reads 4 bytes an
// item rather than the boid's 16-byte position. When `cells_known` is set, the previous step's
// `rules` wrote those words from the positions it wrote (finish_boid, gather.wgsl), under the same
// grid, and `count` reads them instead of the positions.

@group(0) @binding(0) var<uniform> replicas: array<Params, MAX_REPLICAS>;
@group(0) @binding(1) var<storage, read> pos_vel: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read_write> cells: array<atomic<u32>>;
@group(0) @binding(3) var<storage, read_write> rank: array<u32>;

@compute @workgroup_size(256)
fn count(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
         @builtin(local_invocation_index) lid: u32) {
    let i = workgroup_linear(wid, nwg) * WORKGROUP_SIZE + lid;
    let total = replicas[0].total_boids;
    if (i >= total) {
        return;
    }
    let cell_at = arrayLength(&rank) / 2u;
    // A loop of at most one round, not a branch: a software adapter runs a branch's body for
    // every invocation (masked) but leaves a loop that no invocation is in.
    for (var find = replicas[0].cells_known == 0u; find; find = false) {
        enter_replica(replica_of_boid(i));
        let c = cell_xy(pos_vel[i].xy);
        let g = ghost_of(c);
        rank[cell_at + i] = cell_index(c) | select(0u, CELL_HAS_GHOST, g.exists);
        if (g.exists) {
            rank[cell_at + total + i] = g.cell;
        }
    }
    let w = rank[cell_at + i];
    let has_ghost = (w & CELL_HAS_GHOST) != 0u;
    rank[i] = atomicAdd(&cells[w & ~CELL_HAS_GHOST], 1u) | select(0u, RANK_HAS_GHOST, has_ghost);
    if (has_ghost) {
        let k = total + i;
        rank[k] = atomicAdd(&cells[rank[cell_at + k]], 1u);
    }
}
