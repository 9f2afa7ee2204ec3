// Stage `measures`: flock measures by parallel reduction (docs/model.md §12). Columns of a partial row:
// 0,1 Σ v̂ ; 2 Σ |v| ; 3 Σ neighbours ; 4,5 Σ p ; 6 Σ r̂ × v̂ (milling) ; 7 unused ;
// 8,9 Σ cos θx, Σ sin θx ; 10,11 Σ cos θy, Σ sin θy, with θx = 2π·x/W, θy = 2π·y/H ;
// 12,13 Σ v (for v_a) ; 14,15 Σ e^{2iθ} (cos 2θ, sin 2θ of the heading: the nematic order).
//   measures_partial: per workgroup of MEASURES_CHUNK·256 boids, every column but 6 → partials[wg]
//   measures_final:   one workgroup sums all partial rows → result (16 floats)
//   milling_partial:  per workgroup, column 6 about the centre: in a wrap world the periodic mean
//                     atan2(Σ sin θ, Σ cos θ)·W/2π per axis with minimum-image offsets, else
//                     the mean result[4,5] / N
//   measures_final again.
// Each invocation first sums MEASURES_CHUNK boids of its own in registers (boid
// g·256·CHUNK + j·256 + lid for j = 0..CHUNK: consecutive invocations read consecutive boids), so
// a workgroup's barrier tree reduces CHUNK·256 boids instead of 256: 16× fewer workgroups, tree
// reductions and partial rows than one boid per invocation. The summation order is fixed, so the
// result is the same on every run.
// The CPU twin is `measures` in src/stages/twins/measures.rs (f64).

struct Row {
    a: vec4<f32>,
    b: vec4<f32>,
    c: vec4<f32>,
    d: vec4<f32>,
}

const TAU: f32 = 6.28318530717959;
// Boids per invocation; `MEASURES_CHUNK` in src/stages/mod.rs (the dispatch and `partials` size).
const MEASURES_CHUNK: u32 = 16u;

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> pos_vel: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> neighbors: array<u32>;
@group(0) @binding(3) var<storage, read_write> partials: array<Row>;
@group(0) @binding(4) var<storage, read_write> result: Row;

var<workgroup> tile: array<Row, 256>;

fn unit_or_zero(v: vec2<f32>) -> vec2<f32> {
    let l2 = dot(v, v);
    if (l2 > 1e-24) {
        return v / sqrt(l2);
    }
    return vec2<f32>(0.0);
}

fn tile_reduce(lid: u32) {
    for (var stride = 128u; stride > 0u; stride >>= 1u) {
        workgroupBarrier();
        if (lid < stride) {
            tile[lid].a += tile[lid + stride].a;
            tile[lid].b += tile[lid + stride].b;
            tile[lid].c += tile[lid + stride].c;
            tile[lid].d += tile[lid + stride].d;
        }
    }
    workgroupBarrier();
}

@compute @workgroup_size(256)
fn measures_partial(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                    @builtin(local_invocation_index) lid: u32) {
    let g = workgroup_linear(wid, nwg);
    let first = g * WORKGROUP_SIZE * MEASURES_CHUNK;
    var row = Row(vec4<f32>(0.0), vec4<f32>(0.0), vec4<f32>(0.0), vec4<f32>(0.0));
    for (var j = 0u; j < MEASURES_CHUNK; j++) {
        let i = first + j * WORKGROUP_SIZE + lid;
        if (i < params.boid_count) {
            let b = pos_vel[i];
            let u = unit_or_zero(b.zw);
            row.a += vec4<f32>(u, length(b.zw), f32(neighbors[i]));
            row.b += vec4<f32>(b.xy, 0.0, 0.0);
            row.d += vec4<f32>(b.zw, u.x * u.x - u.y * u.y, 2.0 * u.x * u.y);
            if (params.boundary == 0u) {
                let t = TAU * b.xy * vec2<f32>(params.inv_world_width, params.inv_world_height);
                row.c += vec4<f32>(cos(t.x), sin(t.x), cos(t.y), sin(t.y));
            }
        }
    }
    tile[lid] = row;
    tile_reduce(lid);
    if (lid == 0u && first < params.boid_count) {
        partials[g] = tile[0];
    }
}

@compute @workgroup_size(256)
fn milling_partial(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                   @builtin(local_invocation_index) lid: u32) {
    let g = workgroup_linear(wid, nwg);
    let first = g * WORKGROUP_SIZE * MEASURES_CHUNK;
    let world = vec2<f32>(params.world_width, params.world_height);
    let wrap = params.boundary == 0u;
    var centre = result.b.xy / f32(params.boid_count);
    if (wrap) {
        centre = vec2<f32>(atan2(result.c.y, result.c.x), atan2(result.c.w, result.c.z)) * world / TAU;
    }
    // Within 1e-5 of the world's larger side of the centre a boid has no direction from it
    // (MILLING_NEAR in src/model/measures.rs).
    let near = 1e-5 * max(world.x, world.y);
    var m = 0.0;
    for (var j = 0u; j < MEASURES_CHUNK; j++) {
        let i = first + j * WORKGROUP_SIZE + lid;
        if (i < params.boid_count) {
            let b = pos_vel[i];
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
    tile[lid] = Row(vec4<f32>(0.0), vec4<f32>(0.0, 0.0, m, 0.0), vec4<f32>(0.0), vec4<f32>(0.0));
    tile_reduce(lid);
    if (lid == 0u && first < params.boid_count) {
        partials[g].b.z = tile[0].b.z;
    }
}

@compute @workgroup_size(256)
fn measures_final(@builtin(local_invocation_index) lid: u32) {
    let per_group = WORKGROUP_SIZE * MEASURES_CHUNK;
    let groups = (params.boid_count + per_group - 1u) / per_group;
    var acc = Row(vec4<f32>(0.0), vec4<f32>(0.0), vec4<f32>(0.0), vec4<f32>(0.0));
    for (var g = lid; g < groups; g += WORKGROUP_SIZE) {
        acc.a += partials[g].a;
        acc.b += partials[g].b;
        acc.c += partials[g].c;
        acc.d += partials[g].d;
    }
    tile[lid] = acc;
    tile_reduce(lid);
    if (lid == 0u) {
        result = tile[0];
    }
}
