// The neighbour gather over the ghost-padded grid, shared by `rules` and `rules_heavy`; mirrors
// `gather` in src/stages/twins.rs. Needs: common.wgsl, grid.wgsl, rules_common.wgsl, and from the
// stage: `params`, `cells`, `sorted_pos_vel`, `sorted_hue`, `sorted_id`.

// Block row dy (−block_y ..= block_y) around cell c: up to three contiguous ranges of sorted items
// (left padding, real cells, right padding; empty ranges are a == b), and the point the row's
// candidates are compared against (p moved by the row's whole-world vertical shift). `valid` is
// false for a row outside a non-wrapping world.
struct RowRange {
    valid: bool,
    r: array<vec2<u32>, 3>,
    q: vec2<f32>,
}

fn block_row(c: vec2<u32>, dy: i32, p: vec2<f32>) -> RowRange {
    var out: RowRange;
    out.valid = false;
    out.r[0] = vec2<u32>(0u);
    out.r[1] = vec2<u32>(0u);
    out.r[2] = vec2<u32>(0u);
    out.q = p;
    let rows = i32(params.grid_rows);
    let y = i32(c.y) + dy;
    var row = y;
    var k = 0;
    let wrap = params.boundary == 0u;
    if (wrap) {
        row = ((y % rows) + rows) % rows;
        k = (y - row) / rows;
    } else if (y < 0 || y >= rows) {
        return out;
    }
    out.valid = true;
    out.q = vec2<f32>(p.x, p.y - f32(k) * params.world_height);
    let urow = u32(row);
    let cols = i32(params.grid_cols);
    let lo = i32(c.x) - i32(params.block_x);
    let hi = i32(c.x) + i32(params.block_x);
    let first = urow * params.grid_cols + u32(max(lo, 0));
    let last = urow * params.grid_cols + u32(min(hi, cols - 1));
    out.r[1] = vec2<u32>(cells[first], cells[last + 1u]);
    if (wrap && lo < 0) {
        // Columns lo ..= −1 are padding slots pad + lo ..= pad − 1.
        let a = pad_index(urow, u32(i32(params.grid_pad) + lo));
        let b = pad_index(urow, params.grid_pad - 1u);
        out.r[0] = vec2<u32>(cells[a], cells[b + 1u]);
    }
    if (wrap && hi >= cols) {
        // Columns cols ..= hi are padding slots pad ..= pad + hi − cols.
        let a = pad_index(urow, params.grid_pad);
        let b = pad_index(urow, params.grid_pad + u32(hi - cols));
        out.r[2] = vec2<u32>(cells[a], cells[b + 1u]);
    }
    return out;
}

// The candidates of an item at p (its own entry included).
fn candidate_count(p: vec2<f32>) -> u32 {
    let c = cell_xy(p);
    let by = i32(params.block_y);
    var n = 0u;
    for (var dy = -by; dy <= by; dy++) {
        let rr = block_row(c, dy, p);
        if (rr.valid) {
            n += (rr.r[0].y - rr.r[0].x) + (rr.r[1].y - rr.r[1].x) + (rr.r[2].y - rr.r[2].x);
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
            let rr = block_row(c, dy, p);
            if (!rr.valid) {
                continue;
            }
            for (var t = 0u; t < 3u; t++) {
                for (var j = rr.r[t].x; j < rr.r[t].y; j++) {
                    if (j != s) {
                        add_candidate(&sums, j, sorted_pos_vel[j].xy - rr.q);
                    }
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
        let rr = block_row(c, dy, p);
        if (!rr.valid) {
            continue;
        }
        for (var t = 0u; t < 3u; t++) {
            for (var j = rr.r[t].x; j < rr.r[t].y; j++) {
                if (j == s) {
                    continue;
                }
                let d = sorted_pos_vel[j].xy - rr.q;
                let d2 = dot(d, d);
                if (d2 < params.perception_r2) {
                    near_offer(&near, d, d2, sorted_id[j], j);
                }
            }
        }
    }
    for (var t = 0u; t < near.len; t++) {
        let it = near.items[t];
        accumulate(&sums, it.d, sorted_pos_vel[it.index].zw, sorted_hue[it.index]);
    }
    return sums;
}

// Writes the next state of the boid of sorted item s (state `me`, hue `h`) from its sums, at index
// s of the state: the state follows the canonical order of the sort.
fn finish_boid(s: u32, me: vec4<f32>, h: vec4<f32>, sums: NeighborSums, ob: ObstacleSums) {
    let next = integrate(boid_from(me, h, sorted_id[s]), sums, ob);
    pos_vel[s] = vec4<f32>(next.position, next.velocity);
    hue[s] = vec4<f32>(next.hue, next.hue_velocity);
    id[s] = sorted_id[s];
    neighbors[s] = sums.neighbors;
}
