// Stage `count`: each boid (and its ghost) finds its cell; atomicAdd on the cell counter returns the
// item's rank in the cell (in any order: `scatter` orders cells by id). rank[i] is boid i's, with
// RANK_HAS_GHOST set when the boid has a ghost, rank[total_boids + i] its ghost's; the plane after
// the ranks (the region `item_cell`, word arrayLength(&rank) / 2 + item) holds each item's cell,
// so that `slots` reads 4 bytes an item rather than the boid's 16-byte position.

@group(0) @binding(0) var<uniform> replicas: array<Params, MAX_REPLICAS>;
@group(0) @binding(1) var<storage, read> pos_vel: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read_write> cells: array<atomic<u32>>;
@group(0) @binding(3) var<storage, read_write> rank: array<u32>;

@compute @workgroup_size(256)
fn count(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
         @builtin(local_invocation_index) lid: u32) {
    let i = workgroup_linear(wid, nwg) * WORKGROUP_SIZE + lid;
    if (i >= replicas[0].total_boids) {
        return;
    }
    enter_replica(replica_of_boid(i));
    let c = cell_xy(pos_vel[i].xy);
    let cell = cell_index(c);
    let g = ghost_of(c);
    let cell_at = arrayLength(&rank) / 2u;
    rank[i] = atomicAdd(&cells[cell], 1u) | select(0u, RANK_HAS_GHOST, g.exists);
    rank[cell_at + i] = cell;
    if (g.exists) {
        let k = params.total_boids + i;
        rank[k] = atomicAdd(&cells[g.cell], 1u);
        rank[cell_at + k] = g.cell;
    }
}
