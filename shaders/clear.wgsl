// Stage `clear`: zero the cell counters (total_cells + 1 entries, every replica's; the last is the scan's total), the
// deferred-work counts, the indirect dispatch arguments of the heavy stages (0 × 1 × 1), and the
// step's catch counter of each replica r (`deferred[DEFER_CATCHES + 2r]`; `rules` counts into it
// and into the total, the next word; here
// rather than in `predators`, which is not recorded in a step without predators).

@group(0) @binding(0) var<uniform> replicas: array<Params, MAX_REPLICAS>;
@group(0) @binding(1) var<storage, read_write> cells: array<u32>;
@group(0) @binding(2) var<storage, read_write> deferred: array<u32>;

@compute @workgroup_size(256)
fn clear(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
         @builtin(local_invocation_index) lid: u32) {
    let i = workgroup_linear(wid, nwg) * WORKGROUP_SIZE + lid;
    if (i <= replicas[0].total_cells) {
        cells[i] = 0u;
    }
    if (i < replicas[0].replica_count) {
        deferred[DEFER_CATCHES + 2u * i] = 0u;
    }
    if (i < 2u) {
        deferred[DEFER_COUNT + i] = 0u;
        deferred[DEFER_ARGS + 3u * i] = 0u;
        deferred[DEFER_ARGS + 3u * i + 1u] = 1u;
        deferred[DEFER_ARGS + 3u * i + 2u] = 1u;
    }
}
