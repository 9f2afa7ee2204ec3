// The neighbour gather over the padded grid, shared by `rules` and `rules_heavy`; mirrors `gather`
// in src/stages/twins.rs. Needs: common.wgsl, grid.wgsl, rules_common.wgsl, and from the stage:
// `params`, `cells`, `sorted_pos_vel`, `sorted_hue`, `sorted_src`, `id`.

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

// The candidates of sorted item s at p (its own entry included).
fn candidate_count(p: vec2<f32>) -> u32 {
    let c = cell_xy(p);
    let by = i32(params.block_y);
    var n = 0u;
    for (var dy = -by; dy <= by; dy++) {
        let r = block_row(c, dy, p);
        if (r.valid) {
            n += r.b - r.a;
        }
    }
    return n;
}

// Adds candidate j at offset d when within the perception radius (the neighbour's velocity and hue
// are read only for a neighbour).
fn add_candidate(sums: ptr<function, NeighborSums>, j: u32, d: vec2<f32>) {
    if (dot(d, d) >= params.perception_r2) {
        return;
    }
    accumulate(sums, d, sorted_pos_vel[j].zw, sorted_hue[j]);
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
                if (j != s) {
                    add_candidate(&sums, j, sorted_pos_vel[j].xy - r.q);
                }
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

// Writes the next state of boid i (sorted item with state `me`, hue `h`) from its sums.
fn finish_boid(i: u32, me: vec4<f32>, h: vec4<f32>, sums: NeighborSums, ob: ObstacleSums) {
    let next = integrate(boid_from(me, h, id[i]), sums, ob);
    pos_vel[i] = vec4<f32>(next.position, next.velocity);
    hue[i] = vec4<f32>(next.hue, next.hue_velocity);
    neighbors[i] = sums.neighbors;
}
