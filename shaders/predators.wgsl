// Stage `predators`: moves every predator (docs/model.md §18.2–§18.3), one workgroup of 256
// invocations per predator, from the step's sorted items, before `rules` (so the boids react to the
// moved predators). A hunting predator looks for the nearest boid in sight over the real cells of
// its search rows and columns (src/model/predators.rs `search_rows`, `search_cols`), at most
// SEARCH_CANDIDATES_MAX candidates in search order: invocation `lid` takes every 256th of them, and
// the workgroup's minimum by (squared distance, id) is found by a tree reduction; the first
// invocation then moves the predator. Not recorded in a step without predators. Every loop is bounded:
// at most 2·1024 + 1 rows, two ranges per row, 32 768 candidates per invocation. Mirrors
// `predators` in src/stages/twins/predators.rs.

@group(0) @binding(0) var<uniform> replicas: array<Params, MAX_REPLICAS>;
@group(0) @binding(1) var<storage, read> sorted_pos_vel: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> sorted_id: array<u32>;
// The cell counters, then the predators (predators_common.wgsl), which this stage moves.
@group(0) @binding(3) var<storage, read_write> cells: array<u32>;

const SEARCH_GROUP: u32 = 256u;
const SEARCH_CANDIDATES_MAX: u32 = 8388608u;
const NO_D2: f32 = 3.4e38;

// A candidate: (d², id) orders them; d is its offset from the predator.
struct Seen {
    d2: f32,
    id: u32,
    d: vec2<f32>,
}

var<workgroup> seen: array<Seen, 128>;

fn seen_less(a: Seen, b: Seen) -> bool {
    return a.d2 < b.d2 || (a.d2 == b.d2 && a.id < b.id);
}

// The first flat index ≥ start of the residue class lid (mod SEARCH_GROUP).
fn first_from(lid: u32, start: u32) -> u32 {
    return start + (lid + SEARCH_GROUP - start % SEARCH_GROUP) % SEARCH_GROUP;
}

// The column range u (0 or 1) searched in each row around column cx: (first, last), or
// first > last when there is none; mirrors `search_cols`.
fn search_col(cx: u32, u: u32) -> vec2<i32> {
    let cols = i32(params.grid_cols);
    let rx = i32(params.predator_reach_x);
    let lo = i32(cx) - rx;
    let hi = i32(cx) + rx;
    let none = vec2<i32>(1, 0);
    if (params.boundary == 0u) {
        if (2 * rx + 1 >= cols) {
            return select(none, vec2<i32>(0, cols - 1), u == 0u);
        }
        if (lo < 0) {
            return select(vec2<i32>(0, hi), vec2<i32>(cols + lo, cols - 1), u == 0u);
        }
        if (hi >= cols) {
            return select(vec2<i32>(0, hi - cols), vec2<i32>(lo, cols - 1), u == 0u);
        }
        return select(none, vec2<i32>(lo, hi), u == 0u);
    }
    return select(none, vec2<i32>(max(lo, 0), min(hi, cols - 1)), u == 0u);
}

// Writes predator k (all eight words, the padding 0).
fn store_predator(k: u32, p: Predator) {
    let a = predator_word(k);
    cells[a] = bitcast<u32>(p.position.x);
    cells[a + 1u] = bitcast<u32>(p.position.y);
    cells[a + 2u] = bitcast<u32>(p.velocity.x);
    cells[a + 3u] = bitcast<u32>(p.velocity.y);
    cells[a + 4u] = p.kind;
    cells[a + 5u] = p.target_id;
    cells[a + 6u] = 0u;
    cells[a + 7u] = 0u;
}

// The searched rows around row cy: (first, count), row t being (first + t) mod rows; mirrors
// `search_rows`.
fn search_row_span(cy: u32) -> vec2<u32> {
    let rows = params.grid_rows;
    let ry = params.predator_reach_y;
    if (params.boundary == 0u) {
        if (2u * ry + 1u >= rows) {
            return vec2<u32>(0u, rows);
        }
        return vec2<u32>((cy + rows - ry) % rows, 2u * ry + 1u);
    }
    let lo = select(0u, cy - ry, cy >= ry);
    let hi = min(cy + ry, rows - 1u);
    return vec2<u32>(lo, hi - lo + 1u);
}

// The predator after one step, given the nearest boid seen (best.d2 < NO_D2); mirrors
// `move_predator`.
fn move_predator(pr: Predator, best: Seen) -> Predator {
    let p = pr.position;
    var v = pr.velocity;
    var target_id = NO_TARGET;
    if (pr.kind == PREDATOR_HUNTING) {
        if (best.d2 < NO_D2) {
            target_id = best.id;
            let l2 = dot(best.d, best.d);
            if (l2 >= STEER_EPS2) {
                let steer = clamp_len(best.d * (params.predator_max_speed / sqrt(l2)) - v,
                                      params.predator_max_force);
                v += steer * params.dt;
            }
        }
        v = clamp_len(v, params.predator_max_speed);
    }
    let pv = apply_boundary(p + v * params.dt, v);
    return Predator(pv.p, pv.v, pr.kind, target_id, 0u, 0u);
}

@compute @workgroup_size(256)
fn move_predators(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                  @builtin(local_invocation_index) lid: u32) {
    // One workgroup per predator of every replica, replica after replica.
    let k = workgroup_linear(wid, nwg);
    let last = replicas[0].replica_count - 1u;
    let live = k < replicas[last].predator_base + replicas[last].predator_count;
    enter_replica(replica_of_predator(k));
    // No early return: the barriers below need every invocation (uniform control flow).
    let pr = load_predator(select(0u, k, live));
    let hunting = live && pr.kind == PREDATOR_HUNTING;

    var best = Seen(NO_D2, 0xffffffffu, vec2<f32>(0.0));
    if (hunting) {
        let c = cell_xy(pr.position);
        let span = search_row_span(c.y);
        var base = 0u;
        for (var t = 0u; t < span.y; t++) {
            let row = (span.x + t) % params.grid_rows;
            for (var u = 0u; u < 2u; u++) {
                let cr = search_col(c.x, u);
                if (cr.x > cr.y) {
                    continue;
                }
                let a = cells[params.cell_base + row * params.grid_cols + u32(cr.x)];
                let b = cells[params.cell_base + row * params.grid_cols + u32(cr.y) + 1u];
                let len = b - a;
                let end = base + min(len, SEARCH_CANDIDATES_MAX - min(base, SEARCH_CANDIDATES_MAX));
                for (var f = first_from(lid, base); f < end; f += SEARCH_GROUP) {
                    let j = a + (f - base);
                    let d = min_image(sorted_pos_vel[j].xy - pr.position);
                    let cand = Seen(dot(d, d), sorted_id[j], d);
                    if (cand.d2 < params.predator_sight_r2 && seen_less(cand, best)) {
                        best = cand;
                    }
                }
                base = min(base + len, SEARCH_CANDIDATES_MAX);
            }
        }
    }
    // The minimum: 256 → 128 in pairs (lid, lid + 128), then a tree.
    if (lid >= 128u) {
        seen[lid - 128u] = best;
    }
    workgroupBarrier();
    if (lid < 128u && !seen_less(seen[lid], best)) {
        seen[lid] = best;
    }
    for (var stride = 64u; stride > 0u; stride >>= 1u) {
        workgroupBarrier();
        if (lid < stride && seen_less(seen[lid + stride], seen[lid])) {
            seen[lid] = seen[lid + stride];
        }
    }
    workgroupBarrier();
    // Every invocation read predator k's words before the first invocation writes them.
    storageBarrier();
    if (live && lid == 0u) {
        store_predator(k, move_predator(pr, seen[0]));
    }
}
