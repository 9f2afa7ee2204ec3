// Stage `count`: each boid finds its cell; atomicAdd on the cell counter returns its rank in the cell.

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> state: array<Boid>;
@group(0) @binding(2) var<storage, read_write> cells: array<atomic<u32>>;
@group(0) @binding(3) var<storage, read_write> boid_cell: array<u32>;
@group(0) @binding(4) var<storage, read_write> boid_rank: array<u32>;

@compute @workgroup_size(256)
fn count(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
         @builtin(local_invocation_index) lid: u32) {
    let i = workgroup_linear(wid, nwg) * WORKGROUP_SIZE + lid;
    if (i >= params.boid_count) {
        return;
    }
    let c = cell_of(state[i].position);
    boid_cell[i] = c;
    boid_rank[i] = atomicAdd(&cells[c], 1u);
}
