// Stage `measures`: flock measures by parallel reduction (docs/model.md §12). Columns of a partial row:
// 0,1 Σ v̂ ; 2 Σ |v| ; 3 Σ neighbours ; 4,5 Σ p ; 6 Σ r̂ × v̂ (milling) ; 7 unused.
//   measures_partial: per workgroup, columns 0..5 of its boids → partials[wg]
//   measures_final:   one workgroup sums all partial rows → result (8 floats)
//   milling_partial:  per workgroup, column 6 using the centre of mass result[4,5] / N
//   measures_final again.
// The CPU twin is `measures` in src/cpu/stages.rs (f64).

struct Row {
    a: vec4<f32>,
    b: vec4<f32>,
}

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
        }
    }
    workgroupBarrier();
}

@compute @workgroup_size(256)
fn measures_partial(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                    @builtin(local_invocation_index) lid: u32) {
    let g = workgroup_linear(wid, nwg);
    let i = g * WORKGROUP_SIZE + lid;
    var row = Row(vec4<f32>(0.0), vec4<f32>(0.0));
    if (i < params.boid_count) {
        let b = pos_vel[i];
        let u = unit_or_zero(b.zw);
        row.a = vec4<f32>(u, length(b.zw), f32(neighbors[i]));
        row.b = vec4<f32>(b.xy, 0.0, 0.0);
    }
    tile[lid] = row;
    tile_reduce(lid);
    if (lid == 0u && g * WORKGROUP_SIZE < params.boid_count) {
        partials[g] = tile[0];
    }
}

@compute @workgroup_size(256)
fn milling_partial(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                   @builtin(local_invocation_index) lid: u32) {
    let g = workgroup_linear(wid, nwg);
    let i = g * WORKGROUP_SIZE + lid;
    let centre = result.b.xy / f32(params.boid_count);
    var m = 0.0;
    if (i < params.boid_count) {
        let b = pos_vel[i];
        let r = unit_or_zero(b.xy - centre);
        let u = unit_or_zero(b.zw);
        m = r.x * u.y - r.y * u.x;
    }
    tile[lid] = Row(vec4<f32>(0.0), vec4<f32>(0.0, 0.0, m, 0.0));
    tile_reduce(lid);
    if (lid == 0u && g * WORKGROUP_SIZE < params.boid_count) {
        partials[g].b.z = tile[0].b.z;
    }
}

@compute @workgroup_size(256)
fn measures_final(@builtin(local_invocation_index) lid: u32) {
    let groups = (params.boid_count + WORKGROUP_SIZE - 1u) / WORKGROUP_SIZE;
    var acc = Row(vec4<f32>(0.0), vec4<f32>(0.0));
    for (var g = lid; g < groups; g += WORKGROUP_SIZE) {
        acc.a += partials[g].a;
        acc.b += partials[g].b;
    }
    tile[lid] = acc;
    tile_reduce(lid);
    if (lid == 0u) {
        result = tile[0];
    }
}
