// The neighbour gather over the ghost-padded grid, shared by `rules` and `rules_heavy`; mirrors
// `gather` in src/stages/twins/rules.rs. Needs: common.wgsl, grid.wgsl, rules_common.wgsl,
// pair_terms.wgsl, predators_common.wgsl, and from the stage: `params`, `cells`,
// `sorted_pos_vel`, `sorted_hue`, `sorted_id`, `predators` (in `cells`), `catches`, and to write:
// `pos_vel` with its region `hue`, `neighbors`, and a crossing boid's image counts in `sorted_id`.

// The velocity of the boid whose neighbours are gathered, set by each entry point of `rules` and
// `rules_heavy` before it gathers: the heading of its field of view (`in_view`).
var<private> view_heading: vec2<f32>;

// Whether another boid at offset d lies in the field of view of the boid being gathered
// (docs/model.md §4.6; mirrors `in_view` in src/model/rules.rs): with a = d·v, seen when a ≥ 0
// and a² ≥ cos²(α/2)·|d|²|v|² (view_mode 1: α ≤ 180°), or a ≥ 0 or a² ≤ cos²(α/2)·|d|²|v|²
// (view_mode 2: α > 180°); always when view_mode is 0 (α = 360°), and in a pipeline compiled
// without the test (VIEW false: a run at 360°, whose gather then costs what it did before). Each
// product is used twice (max and min), so no compiler fuses it into a multiply-add: the CPU's
// sums bit for bit.
fn in_view(d: vec2<f32>) -> bool {
    if (!VIEW || params.view_mode == 0u) {
        return true;
    }
    let v = view_heading;
    let xv = d.x * v.x;
    let yv = d.y * v.y;
    let a = max(xv, yv) + min(xv, yv);
    let dx2 = d.x * d.x;
    let dy2 = d.y * d.y;
    let vx2 = v.x * v.x;
    let vy2 = v.y * v.y;
    let q = params.view_cos2 * ((max(dx2, dy2) + min(dx2, dy2)) * (max(vx2, vy2) + min(vx2, vy2)));
    let aa = a * a;
    if (params.view_mode == 1u) {
        return a >= 0.0 && aa >= q;
    }
    return a >= 0.0 || aa <= q;
}

// Block row dy (−block_y ..= block_y) around cell c: up to three contiguous ranges of sorted items
// (left padding, real cells, right padding; empty ranges are a == b), and the point the row's
// candidates are compared against (p moved by the row's whole-world vertical shift). `valid` is
// false for a row outside a non-wrapping world.
struct RowRange {
    valid: bool,
    r0: vec2<u32>,
    r1: vec2<u32>,
    r2: vec2<u32>,
    q: vec2<f32>,
}

fn block_row(c: vec2<u32>, dy: i32, p: vec2<f32>) -> RowRange {
    var out: RowRange;
    out.valid = false;
    out.r0 = vec2<u32>(0u);
    out.r1 = vec2<u32>(0u);
    out.r2 = vec2<u32>(0u);
    out.q = p;
    let rows = i32(params.grid_rows);
    let y = i32(c.y) + dy;
    var row = y;
    var k = 0;
    let wrap = params.boundary == 0u;
    if (wrap) {
        // One world height up or down covers every grid of at least 2·block_y + 1 rows; smaller
        // ones take more, a world height at a time. No integer division: it has no vector
        // instruction on CPUs, and a software adapter running the shader on one divided lane by
        // lane in every block row, even where no lane took the branch (8 % of `rules`).
        if (y < 0) {
            row = y + rows;
            k = -1;
        } else if (y >= rows) {
            row = y - rows;
            k = 1;
        }
        // At most block_y / rows rounds each.
        while (row < 0) {
            row += rows;
            k -= 1;
        }
        while (row >= rows) {
            row -= rows;
            k += 1;
        }
    } else if (y < 0 || y >= rows) {
        return out;
    }
    out.valid = true;
    out.q = vec2<f32>(p.x, p.y - f32(k) * params.world_height);
    let urow = u32(row);
    let cols = i32(params.grid_cols);
    let lo = i32(c.x) - i32(params.block_x);
    let hi = i32(c.x) + i32(params.block_x);
    let first = params.cell_base + urow * params.grid_cols + u32(max(lo, 0));
    let last = params.cell_base + urow * params.grid_cols + u32(min(hi, cols - 1));
    out.r1 = vec2<u32>(cells[first], cells[last + 1u]);
    if (wrap && lo < 0) {
        // Columns lo ..= −1 are padding slots pad + lo ..= pad − 1.
        let a = pad_index(urow, u32(i32(params.grid_pad) + lo));
        let b = pad_index(urow, params.grid_pad - 1u);
        out.r0 = vec2<u32>(cells[a], cells[b + 1u]);
    }
    if (wrap && hi >= cols) {
        // Columns cols ..= hi are padding slots pad ..= pad + hi − cols.
        let a = pad_index(urow, params.grid_pad);
        let b = pad_index(urow, params.grid_pad + u32(hi - cols));
        out.r2 = vec2<u32>(cells[a], cells[b + 1u]);
    }
    return out;
}

// Range u (0: left padding, 1: real cells, 2: right padding) of a block row (no array: a private
// array indexed at run time costs a scratch-memory access per use on some drivers).
fn range_of(rr: RowRange, u: u32) -> vec2<u32> {
    return select(select(rr.r2, rr.r1, u == 1u), rr.r0, u == 0u);
}

// The number of candidates in a block row.
fn row_len(rr: RowRange) -> u32 {
    return (rr.r0.y - rr.r0.x) + (rr.r1.y - rr.r1.x) + (rr.r2.y - rr.r2.x);
}

// Adds candidate j at offset d when within the perception radius (the neighbour's velocity and hue
// are read only for a neighbour).
fn add_candidate(sums: ptr<function, NeighborSums>, j: u32, d: vec2<f32>) {
    if (dot(d, d) >= params.perception_r2 || !in_view(d)) {
        return;
    }
    accumulate(sums, d, sorted_pos_vel[j].zw, sorted_hue[j]);
}

// Adds candidate (position-velocity pv, hue h) at offset pv.xy − q when `counted` (it is one of
// the boid's candidates and not the boid itself) and within the perception radius. Each rule's
// test is a 0/1 mask, with no branch on "is it a neighbour" (on a SIMD driver the branch costs
// more than the loads it saves); the sums are bit-identical to adding only the neighbours, as the
// CPU twin does (a masked term is ±0, and x + ±0 = x).
fn add_masked(sums: ptr<function, NeighborSums>, pv: vec4<f32>, h: vec4<f32>, q: vec2<f32>,
              counted: bool) {
    let d = pv.xy - q;
    let d2 = dot(d, d);
    let near = d2 < params.perception_r2 && counted && in_view(d);
    // Separation as a branch, d2 > COINCIDENT_EPS2 within it: no clamp of d2 and no product by a
    // 0/1 mask (a software adapter flattens the branch into masked operations).
    // The terms are the model's declared ones (rules_common.wgsl: `pair_weight`, the bands).
    if (near && d2 < params.separation_r2 && d2 > COINCIDENT_EPS2) {
        (*sums).separation -= pair_weight(SEPARATION_WEIGHT, d, d2);
    } else if (SEPARATION_WEIGHT == 0u && near && d2 < params.separation_r2) {
        (*sums).separation -= d;
    }
    let ali = select(0u, 1u, near && in_alignment_band(d2));
    let coh = select(0u, 1u, near && in_cohesion_band(d2));
    let hm = select(0u, 1u, near && d2 < params.hue_r2);
    (*sums).alignment += pv.zw * f32(ali);
    (*sums).alignment_n += ali;
    (*sums).cohesion += pair_weight(COHESION_WEIGHT, d, max(d2, COINCIDENT_EPS2)) * f32(coh);
    (*sums).cohesion_n += coh;
    (*sums).hue += h.xy * f32(hm);
    (*sums).hue_velocity += h.zw * f32(hm);
    (*sums).hue_n += hm;
    (*sums).neighbors += select(0u, 1u, near);
}

// Adds the candidates of sorted items a .. b (offsets from q) but item s itself, every one loaded
// and masked (`add_masked`).
fn gather_range(sums: ptr<function, NeighborSums>, a: u32, b: u32, s: u32, q: vec2<f32>) {
    for (var j = a; j < b; j++) {
        add_masked(sums, sorted_pos_vel[j], sorted_hue[j], q, j != s);
    }
}

// The neighbour sums of sorted item s at p, visiting at most `budget` candidates: `ok` is false
// (and the sums partial) when the block holds more, which the caller defers to `rules_heavy`. The
// test runs before each block row, so one pass both bounds the loop and gathers (no separate count
// of the block).
struct Gathered {
    sums: NeighborSums,
    ok: bool,
}

fn gather(s: u32, p: vec2<f32>, budget: u32) -> Gathered {
    // CAPPED is a constant of the pipeline: without a neighbour cap, the selection (and its
    // array) is compiled out.
    if (CAPPED && params.max_neighbors > 0u) {
        return gather_capped(s, p, budget);
    }
    let c = cell_xy(p);
    var sums = empty_sums();
    let by = i32(params.block_y);
    var seen = 0u;
    for (var dy = -by; dy <= by; dy++) {
        let rr = block_row(c, dy, p);
        if (!rr.valid) {
            continue;
        }
        seen += row_len(rr);
        if (seen > budget) {
            return Gathered(sums, false);
        }
        gather_range(&sums, rr.r0.x, rr.r0.y, s, rr.q);
        gather_range(&sums, rr.r1.x, rr.r1.y, s, rr.q);
        gather_range(&sums, rr.r2.x, rr.r2.y, s, rr.q);
    }
    return Gathered(sums, true);
}

// `gather` with a neighbour cap: select the nearest (by squared distance, then id), then add them.
// A function of its own so that its selection array (zero-initialised, as every WGSL variable is)
// costs nothing to the uncapped model: declared in `gather`, it cost the uncapped pass 20 % on
// lavapipe.
fn gather_capped(s: u32, p: vec2<f32>, budget: u32) -> Gathered {
    let c = cell_xy(p);
    var sums = empty_sums();
    let by = i32(params.block_y);
    var seen = 0u;
    var near: Nearest;
    near.len = 0u;
    near.k = min(params.max_neighbors, MAX_NEIGHBORS_CAP);
    for (var dy = -by; dy <= by; dy++) {
        let rr = block_row(c, dy, p);
        if (!rr.valid) {
            continue;
        }
        seen += row_len(rr);
        if (seen > budget) {
            return Gathered(sums, false);
        }
        for (var t = 0u; t < 3u; t++) {
            let rt = range_of(rr, t);
            for (var j = rt.x; j < rt.y; j++) {
                if (j == s) {
                    continue;
                }
                let d = sorted_pos_vel[j].xy - rr.q;
                let d2 = dot(d, d);
                if (d2 < params.perception_r2 && in_view(d)) {
                    near_offer(&near, d, d2, sorted_id[j], j);
                }
            }
        }
    }
    for (var t = 0u; t < near.len; t++) {
        let it = near.items[t];
        accumulate(&sums, it.d, sorted_pos_vel[it.index].zw, sorted_hue[it.index]);
    }
    return Gathered(sums, true);
}

// Writes the next state of the boid of sorted item s (state `me`, hue `h`) from its sums, at index
// s of the state: the state follows the canonical order of the sort. A boid a hunting predator
// catches (`caught`: `caught_by_predator` at its position, which `rules` counts for every boid,
// deferred or not) respawns instead; the others feel the predators' push (predators_common.wgsl;
// mirrors `next_boid` in src/model/predators.rs). The hue vector goes into `pos_vel`'s hue plane
// (regions.wgsl). The boid's id and image counts stay where `scatter` put them, in `sorted_id`,
// whose role becomes the state's `id` after the step (src/stages/mod.rs, `SWAPPED`): the image
// counts change there, in place, only when the move crosses the world's edge (`image_step`,
// docs/model.md §2.4), so a step neither copies the ids nor rewrites the image counts. It also
// writes the boid's cell words into `rank`'s plane `item_cell`, which the next step's `count`
// reads instead of the position when the grid is unchanged (`cells_known`, count.wgsl).
fn finish_boid(s: u32, me: vec4<f32>, h: vec4<f32>, sums: NeighborSums, ob: ObstacleSums,
               caught: bool) {
    let b = boid_from(me, h, sorted_id[s]);
    var next: Boid;
    var crossed = vec2<i32>(0);
    if (caught) {
        // A respawned boid keeps its image counts (docs/model.md §2.4).
        next = respawn(b);
    } else {
        next = next_state(b, sums, ob, predator_accel(b.position));
        crossed = image_step(b.position, next.position);
    }
    pos_vel[s] = vec4<f32>(next.position, next.velocity);
    pos_vel[hue_at(s)] = vec4<f32>(next.hue, next.hue_velocity);
    // The neighbour count, unless nothing will read this step's (`skip_neighbor_counts`).
    for (var store = params.skip_neighbor_counts == 0u; store; store = false) {
        neighbors[s] = sums.neighbors;
    }
    // The boid's cell words for the next step's `count` (count.wgsl), from the position written.
    let c = cell_xy(next.position);
    let ghost = ghost_of(c);
    let cell_at = arrayLength(&rank) / 2u;
    rank[cell_at + s] = cell_index(c) | select(0u, CELL_HAS_GHOST, ghost.exists);
    for (var g = ghost.exists; g; g = false) {
        rank[cell_at + params.total_boids + s] = ghost.cell;
    }
    // A loop of at most one round, not a branch: a software adapter runs a branch's body for
    // every invocation (masked) but leaves a loop that no invocation is in.
    for (var wrapped = any(crossed != vec2<i32>(0)); wrapped; wrapped = false) {
        let at = image_word(arrayLength(&sorted_id), s);
        sorted_id[at] = bitcast<u32>(bitcast<i32>(sorted_id[at]) + crossed.x);
        sorted_id[at + 1u] = bitcast<u32>(bitcast<i32>(sorted_id[at + 1u]) + crossed.y);
    }
}
