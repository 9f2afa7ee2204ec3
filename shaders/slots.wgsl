// Stage `slots`: each item writes its boid's id at its counted place, slot_ids[start(cell) + rank], so
// every cell's range of `slots` lists the ids of its items.

@group(0) @binding(0) var<uniform> replicas: array<Params, MAX_REPLICAS>;
@group(0) @binding(1) var<storage, read> pos_vel: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> id: array<u32>;
@group(0) @binding(3) var<storage, read> cells: array<u32>;
@group(0) @binding(4) var<storage, read> rank: array<u32>;
@group(0) @binding(5) var<storage, read_write> slot_ids: array<u32>;

@compute @workgroup_size(256)
fn slots(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
         @builtin(local_invocation_index) lid: u32) {
    let i = workgroup_linear(wid, nwg) * WORKGROUP_SIZE + lid;
    if (i >= replicas[0].total_boids) {
        return;
    }
    enter_replica(replica_of_boid(i));
    let c = cell_xy(pos_vel[i].xy);
    slot_ids[cells[cell_index(c)] + rank[i]] = id[i];
    let g = ghost_of(c);
    if (g.exists) {
        slot_ids[cells[g.cell] + rank[params.total_boids + i]] = id[i];
    }
}
