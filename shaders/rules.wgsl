// Stage `rules`: one invocation per sorted boid; gathers neighbours over the 3×3 cell block as
// contiguous row ranges (mirrors src/cpu/stages.rs `gather` and src/model/grid.rs
// `for_each_block_range`) and writes the next state (ping-pong: sorted → state).

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> sorted: array<Boid>;
@group(0) @binding(2) var<storage, read> cells: array<u32>;
@group(0) @binding(3) var<storage, read> obstacles: array<vec2<f32>>;
@group(0) @binding(4) var<storage, read_write> state: array<Boid>;
@group(0) @binding(5) var<storage, read_write> neighbors: array<u32>;

// Scans sorted[cells[first] .. cells[last + 1]] into s; false once the neighbour cap is reached.
fn scan_range(s: ptr<function, NeighborSums>, i: u32, p: vec2<f32>, first: u32, last: u32) -> bool {
    let a = cells[first];
    let b = cells[last + 1u];
    for (var j = a; j < b; j++) {
        // Position first: the whole boid is loaded only for a neighbour.
        let d = min_image(sorted[j].position - p);
        if (dot(d, d) >= params.perception_r2 || j == i) {
            continue;
        }
        if (!accumulate(s, d, sorted[j])) {
            return false;
        }
    }
    return true;
}

fn gather(i: u32) -> NeighborSums {
    let me = sorted[i];
    let p = me.position;
    let c = cell_xy(p);
    var s = empty_sums();
    let cols = i32(params.grid_cols);
    let rows = i32(params.grid_rows);
    let cx = i32(c.x);
    let cy = i32(c.y);
    let wrap = params.boundary == 0u;
    var row_lo = cy - 1;
    var row_hi = cy + 1;
    if (rows < 3) {
        row_lo = 0;
        row_hi = rows - 1;
    }
    for (var ry = row_lo; ry <= row_hi; ry++) {
        var row = ry;
        if (wrap) {
            if (row < 0) {
                row += rows;
            } else if (row >= rows) {
                row -= rows;
            }
        } else if (row < 0 || row >= rows) {
            continue;
        }
        let base = u32(row * cols);
        var open = true;
        if (cols < 3) {
            open = scan_range(&s, i, p, base, base + u32(cols) - 1u);
        } else {
            let lo = cx - 1;
            let hi = cx + 1;
            if (!wrap) {
                open = scan_range(&s, i, p, base + u32(max(lo, 0)), base + u32(min(hi, cols - 1)));
            } else if (lo < 0) {
                open = scan_range(&s, i, p, base + u32(cols - 1), base + u32(cols - 1));
                if (open) {
                    open = scan_range(&s, i, p, base, base + u32(hi));
                }
            } else if (hi >= cols) {
                open = scan_range(&s, i, p, base + u32(lo), base + u32(cols - 1));
                if (open) {
                    open = scan_range(&s, i, p, base, base);
                }
            } else {
                open = scan_range(&s, i, p, base + u32(lo), base + u32(hi));
            }
        }
        if (!open) {
            break;
        }
    }
    return s;
}

@compute @workgroup_size(256)
fn rules(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
         @builtin(local_invocation_index) lid: u32) {
    let i = workgroup_linear(wid, nwg) * WORKGROUP_SIZE + lid;
    if (i >= params.boid_count) {
        return;
    }
    let s = gather(i);
    state[i] = integrate(sorted[i], s);
    neighbors[i] = s.neighbors;
}
