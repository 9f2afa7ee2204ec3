// Stage `rules`: one invocation per sorted item (ghosts, which are only candidates, return at once):
// gathers the neighbour sums over the block rows around the item — each row one contiguous range
// of sorted items, with one vertical shift for the whole row — then the obstacle sums, and writes
// the boid's next state at its own index (ping-pong: sorted → state). Mirrors `gather` and `rules`
// in src/stages/twins.rs.

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> sorted_pos_vel: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> sorted_hue: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read> sorted_src: array<u32>;
@group(0) @binding(4) var<storage, read> id: array<u32>;
@group(0) @binding(5) var<storage, read> cells: array<u32>;
@group(0) @binding(6) var<storage, read> obstacle_cells: array<u32>;
@group(0) @binding(7) var<storage, read> obstacles: array<vec2<f32>>;
@group(0) @binding(8) var<storage, read_write> pos_vel: array<vec4<f32>>;
@group(0) @binding(9) var<storage, read_write> hue: array<vec4<f32>>;
@group(0) @binding(10) var<storage, read_write> neighbors: array<u32>;

// The range of sorted items of block row dy (−block_y ..= block_y) around cell c, and the point
// the row's candidates are compared against (p moved by the row's whole-world vertical shift).
// `valid` is false for a row outside a non-wrapping world.
struct RowRange {
    valid: bool,
    a: u32,
    b: u32,
    q: vec2<f32>,
}

fn block_row(c: vec2<u32>, dy: i32, p: vec2<f32>) -> RowRange {
    let rows = i32(params.grid_rows);
    let y = i32(c.y) + dy;
    var row = y;
    var k = 0;
    if (params.boundary == 0u) {
        row = ((y % rows) + rows) % rows;
        k = (y - row) / rows;
    } else if (y < 0 || y >= rows) {
        return RowRange(false, 0u, 0u, p);
    }
    let first = u32(row) * params.padded_cols + c.x + params.grid_pad - params.block_x;
    let last = first + 2u * params.block_x;
    let q = vec2<f32>(p.x, p.y - f32(k) * params.world_height);
    return RowRange(true, cells[first], cells[last + 1u], q);
}

fn gather(s: u32, p: vec2<f32>) -> NeighborSums {
    let c = cell_xy(p);
    var sums = empty_sums();
    let by = i32(params.block_y);
    if (params.max_neighbors == 0u) {
        for (var dy = -by; dy <= by; dy++) {
            let r = block_row(c, dy, p);
            if (!r.valid) {
                continue;
            }
            for (var j = r.a; j < r.b; j++) {
                if (j == s) {
                    continue;
                }
                let o = sorted_pos_vel[j];
                accumulate(&sums, o.xy - r.q, o.zw, sorted_hue[j]);
            }
        }
        return sums;
    }
    // With a neighbour cap: select the nearest (by squared distance, then id), then add them.
    var near: Nearest;
    near.len = 0u;
    near.k = min(params.max_neighbors, MAX_NEIGHBORS_CAP);
    for (var dy = -by; dy <= by; dy++) {
        let r = block_row(c, dy, p);
        if (!r.valid) {
            continue;
        }
        for (var j = r.a; j < r.b; j++) {
            if (j == s) {
                continue;
            }
            let d = sorted_pos_vel[j].xy - r.q;
            let d2 = dot(d, d);
            if (d2 < params.perception_r2) {
                near_offer(&near, d, d2, id[sorted_src[j]], j);
            }
        }
    }
    for (var t = 0u; t < near.len; t++) {
        let it = near.items[t];
        accumulate(&sums, it.d, sorted_pos_vel[it.index].zw, sorted_hue[it.index]);
    }
    return sums;
}

@compute @workgroup_size(256)
fn rules(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
         @builtin(local_invocation_index) lid: u32) {
    let s = workgroup_linear(wid, nwg) * WORKGROUP_SIZE + lid;
    if (s >= cells[params.cell_count]) {
        return;
    }
    let me = sorted_pos_vel[s];
    // Ghosts lie outside [0, W): they are candidates only.
    if (!(me.x >= 0.0 && me.x < params.world_width)) {
        return;
    }
    let i = sorted_src[s];
    let sums = gather(s, me.xy);
    let b = boid_from(me, sorted_hue[s], id[i]);
    let next = integrate(b, sums, obstacle_sums(b.position));
    pos_vel[i] = vec4<f32>(next.position, next.velocity);
    hue[i] = vec4<f32>(next.hue, next.hue_velocity);
    neighbors[i] = sums.neighbors;
}
