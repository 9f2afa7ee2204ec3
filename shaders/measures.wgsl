// Stage `measures`: flock measures by parallel reduction (docs/model.md §12). A row holds the
// columns of src/model/measures.rs's list (sum_columns!), whose constants are generated into the
// source before this file (measure_columns.wgsl): COL_UNIT_VELOCITY (Σ v̂, 2), COL_SPEED (Σ |v|),
// COL_NEIGHBORS (Σ neighbours), COL_POSITION (Σ p, 2), COL_MILLING (Σ r̂ × v̂), COL_TRIG
// (Σ cos θx, Σ sin θx, Σ cos θy, Σ sin θy with θx = 2π·x/W, θy = 2π·y/H), COL_VELOCITY (Σ v, for
// v_a, 2), COL_NEMATIC (Σ e^{2iθ}: cos 2θ, sin 2θ of the heading, 2); ROW_VEC4S vectors in all.
//   measures_partial: per workgroup of MEASURES_CHUNK·256 boids of one replica, every column but
//                     the milling → partials[wg]
//   measures_final:   one workgroup per replica sums its partial rows → result[replica]
//   milling_partial:  per workgroup, COL_MILLING about the centre: in a wrap world the periodic
//                     mean atan2(Σ sin θ, Σ cos θ)·W/2π per axis with minimum-image offsets, else
//                     the mean position
//   measures_final again.
// Up to MEASURES_CHUNK·256 boids the partial passes run one workgroup, which writes the result
// itself (a row summed from zero is the same bits alone or summed with zero rows), and the final
// passes are not recorded: two dispatches instead of four for a small system. The reduction is
// segmented by replica (replicas.wgsl): a workgroup sums boids of one replica only, in the order a
// lone run of that replica sums them, so each replica's row is the bits of its lone run.
// Each invocation first sums MEASURES_CHUNK boids of its own in registers (boid
// g·256·CHUNK + j·256 + lid for j = 0..CHUNK: consecutive invocations read consecutive boids), so
// a workgroup's barrier tree reduces CHUNK·256 boids instead of 256: 16× fewer workgroups, tree
// reductions and partial rows than one boid per invocation. The summation order is fixed, so the
// result is the same on every run.
// The CPU twin is `measures` in src/stages/twins/measures.rs (f64).

// One row: the columns as ROW_VEC4S vectors.
struct Row {
    v: array<vec4<f32>, ROW_VEC4S>,
}

const TAU: f32 = 6.28318530717959;
// Boids per invocation; `MEASURES_CHUNK` in src/stages/mod.rs (the dispatch and `partials` size).
const MEASURES_CHUNK: u32 = 16u;

@group(0) @binding(0) var<uniform> replicas: array<Params, MAX_REPLICAS>;
@group(0) @binding(1) var<storage, read> pos_vel: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> neighbors: array<u32>;
@group(0) @binding(3) var<storage, read_write> partials: array<Row>;
// One row per replica.
@group(0) @binding(4) var<storage, read_write> result: array<Row>;

var<workgroup> tile: array<Row, 256>;

// Adds `x` to column `c` of `row`.
fn add_to(row: ptr<function, Row>, c: u32, x: f32) {
    (*row).v[c / 4u][c % 4u] += x;
}

// Column `c` of replica r's result.
fn result_col(r: u32, c: u32) -> f32 {
    return result[r].v[c / 4u][c % 4u];
}

fn unit_or_zero(v: vec2<f32>) -> vec2<f32> {
    let l2 = dot(v, v);
    if (l2 > 1e-24) {
        return v / sqrt(l2);
    }
    return vec2<f32>(0.0);
}

// Measures workgroups of the invocation's replica.
fn replica_groups() -> u32 {
    return groups_of(params.boid_count);
}

// Measures workgroups of `boid_count` boids.
fn groups_of(boid_count: u32) -> u32 {
    let per_group = WORKGROUP_SIZE * MEASURES_CHUNK;
    return (boid_count + per_group - 1u) / per_group;
}

// Whether the replica's boids are one workgroup's, which then writes the result itself (no final
// pass).
fn alone() -> bool {
    return replica_groups() == 1u;
}

fn tile_reduce(lid: u32) {
    for (var stride = 128u; stride > 0u; stride >>= 1u) {
        workgroupBarrier();
        if (lid < stride) {
            tile[lid] = row_sum(tile[lid], tile[lid + stride]);
        }
    }
    workgroupBarrier();
}

@compute @workgroup_size(256)
fn measures_partial(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                    @builtin(local_invocation_index) lid: u32) {
    let g = workgroup_linear(wid, nwg);
    let rep = replica_of_group(g);
    enter_replica(rep);
    let first = (g - params.group_base) * WORKGROUP_SIZE * MEASURES_CHUNK;
    var row: Row;
    for (var j = 0u; j < MEASURES_CHUNK; j++) {
        let k = first + j * WORKGROUP_SIZE + lid;
        if (k < params.boid_count) {
            let i = params.boid_base + k;
            let b = pos_vel[i];
            let u = unit_or_zero(b.zw);
            add_to(&row, COL_UNIT_VELOCITY, u.x);
            add_to(&row, COL_UNIT_VELOCITY + 1u, u.y);
            add_to(&row, COL_SPEED, length(b.zw));
            add_to(&row, COL_NEIGHBORS, f32(neighbors[i]));
            add_to(&row, COL_POSITION, b.x);
            add_to(&row, COL_POSITION + 1u, b.y);
            add_to(&row, COL_VELOCITY, b.z);
            add_to(&row, COL_VELOCITY + 1u, b.w);
            add_to(&row, COL_NEMATIC, u.x * u.x - u.y * u.y);
            add_to(&row, COL_NEMATIC + 1u, 2.0 * u.x * u.y);
            if (params.boundary == 0u) {
                let t = TAU * b.xy * vec2<f32>(params.inv_world_width, params.inv_world_height);
                add_to(&row, COL_TRIG, cos(t.x));
                add_to(&row, COL_TRIG + 1u, sin(t.x));
                add_to(&row, COL_TRIG + 2u, cos(t.y));
                add_to(&row, COL_TRIG + 3u, sin(t.y));
            }
        }
    }
    tile[lid] = row;
    tile_reduce(lid);
    if (lid == 0u && first < params.boid_count) {
        partials[g] = tile[0];
    }
    if (lid == 0u && alone()) {
        result[rep] = tile[0];
    }
}

@compute @workgroup_size(256)
fn milling_partial(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                   @builtin(local_invocation_index) lid: u32) {
    let g = workgroup_linear(wid, nwg);
    let rep = replica_of_group(g);
    enter_replica(rep);
    let first = (g - params.group_base) * WORKGROUP_SIZE * MEASURES_CHUNK;
    let world = vec2<f32>(params.world_width, params.world_height);
    let wrap = params.boundary == 0u;
    var centre = vec2<f32>(result_col(rep, COL_POSITION), result_col(rep, COL_POSITION + 1u))
        / f32(params.boid_count);
    if (wrap) {
        centre = vec2<f32>(atan2(result_col(rep, COL_TRIG + 1u), result_col(rep, COL_TRIG)),
                           atan2(result_col(rep, COL_TRIG + 3u), result_col(rep, COL_TRIG + 2u)))
            * world / TAU;
    }
    // Within 1e-5 of the world's larger side of the centre a boid has no direction from it
    // (MILLING_NEAR in src/model/measures.rs).
    let near = 1e-5 * max(world.x, world.y);
    var m = 0.0;
    for (var j = 0u; j < MEASURES_CHUNK; j++) {
        let k = first + j * WORKGROUP_SIZE + lid;
        if (k < params.boid_count) {
            let b = pos_vel[params.boid_base + k];
            var d = b.xy - centre;
            if (wrap) {
                d -= world * round(d / world);
            }
            var r = vec2<f32>(0.0);
            if (dot(d, d) > near * near) {
                r = unit_or_zero(d);
            }
            let u = unit_or_zero(b.zw);
            m += r.x * u.y - r.y * u.x;
        }
    }
    var row: Row;
    row.v[COL_MILLING / 4u][COL_MILLING % 4u] = m;
    tile[lid] = row;
    tile_reduce(lid);
    if (lid == 0u && first < params.boid_count) {
        partials[g].v[COL_MILLING / 4u][COL_MILLING % 4u] = tile[0].v[COL_MILLING / 4u][COL_MILLING % 4u];
    }
    // Every invocation read the centre from `result` before tile_reduce's barriers.
    if (lid == 0u && alone()) {
        result[rep].v[COL_MILLING / 4u][COL_MILLING % 4u] = tile[0].v[COL_MILLING / 4u][COL_MILLING % 4u];
    }
}

@compute @workgroup_size(256)
fn measures_final(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                  @builtin(local_invocation_index) lid: u32) {
    // One workgroup per replica; a replica of one measures workgroup has its result already.
    let rep = workgroup_linear(wid, nwg);
    enter_replica(rep);
    // From the uniform block, not its private copy (`replica_groups`): the return must be in
    // uniform control flow for the barriers below, and to a WGSL compiler's uniformity analysis
    // a private variable is not uniform (Chromium refuses the pipeline).
    let groups = groups_of(replicas[rep].boid_count);
    if (groups == 1u) {
        return;
    }
    var acc: Row;
    for (var g = lid; g < groups; g += WORKGROUP_SIZE) {
        acc = row_sum(acc, partials[params.group_base + g]);
    }
    tile[lid] = acc;
    tile_reduce(lid);
    if (lid == 0u) {
        result[rep] = tile[0];
    }
}
