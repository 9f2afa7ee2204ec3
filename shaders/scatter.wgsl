// Stage `scatter`: copy each boid's whole state to cells[cell] + rank (cells now holds cell starts).

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> state: array<Boid>;
@group(0) @binding(2) var<storage, read> boid_cell: array<u32>;
@group(0) @binding(3) var<storage, read> boid_rank: array<u32>;
@group(0) @binding(4) var<storage, read> cells: array<u32>;
@group(0) @binding(5) var<storage, read_write> sorted: array<Boid>;

@compute @workgroup_size(256)
fn scatter(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
           @builtin(local_invocation_index) lid: u32) {
    let i = workgroup_linear(wid, nwg) * WORKGROUP_SIZE + lid;
    if (i >= params.boid_count) {
        return;
    }
    sorted[cells[boid_cell[i]] + boid_rank[i]] = state[i];
}
