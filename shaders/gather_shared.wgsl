// The neighbour gather with each candidate loaded once per subgroup (the shared gather of
// docs/performance.md §4): composed into `rules` and `rules_heavy` in place of
// gather_per_invocation.wgsl when the device's pipelines share candidates (`Gather::Subgroup`:
// by default on a software adapter, whose subgroup is one SIMD register of invocations). Needs
// gather.wgsl and the `subgroups` feature.
//
// For each block row, the subgroup walks the union of its invocations' ranges of real cells
// (consecutive sorted items are in neighbouring cells, so the ranges overlap) a subgroup-width
// at a time: each invocation loads one candidate, and every invocation takes each of them from
// its loader by a shuffle, masking those outside its own range. Each invocation so adds exactly
// its own candidates, in the same order, with the same masked terms (±0) as `gather_range`: the
// sums are bit for bit the per-invocation gather's. Where the union is more than
// SHARED_SPAN_FACTOR times the longest own range (a subgroup straddling two grid rows or two
// replicas), each invocation walks its own range instead. No invocation leaves before the sums
// are done (shuffles read every invocation's load), and every invocation walks as many block rows:
// one past the last boid, over its budget or past its own block takes empty ranges.

// Largest union of ranges, in times the longest own range, that the subgroup walks together.
const SHARED_SPAN_FACTOR: u32 = 3u;

// Adds the candidates of sorted items a .. b (offsets from q) but item s itself, each loaded
// once per subgroup; `lanes` is the subgroup's size and `lane` the invocation's place in it.
fn gather_range_shared(sums: ptr<function, NeighborSums>, a: u32, b: u32, s: u32, q: vec2<f32>,
                       lanes: u32, lane: u32) {
    let empty = a >= b;
    let lo = subgroupMin(select(a, 0xffffffffu, empty));
    let hi = subgroupMax(select(b, 0u, empty));
    if (hi <= lo) {
        return;
    }
    let own = subgroupMax(select(b - a, 0u, empty));
    if (hi - lo > SHARED_SPAN_FACTOR * own + lanes) {
        gather_range(sums, a, b, s, q);
        return;
    }
    for (var base = lo; base < hi; base += lanes) {
        let mine = min(base + lane, hi - 1u);
        let pv_mine = sorted_pos_vel[mine];
        let h_mine = sorted_hue[mine];
        let n = min(lanes, hi - base);
        for (var t = 0u; t < n; t++) {
            let j = base + t;
            let pv = subgroupShuffle(pv_mine, t);
            let h = subgroupShuffle(h_mine, t);
            add_masked(sums, pv, h, q, j != s && j >= a && j < b);
        }
    }
}

// `gather` (uncapped, metric) with the real cells of each block row gathered by the subgroup;
// the padding ranges (boids at the world's left and right edges) per invocation. `live` is false
// for an invocation past the last boid, which takes part with empty ranges.
fn gather_shared(s: u32, p: vec2<f32>, budget: u32, live: bool) -> Gathered {
    let c = cell_xy(p);
    var sums = empty_sums();
    // Every invocation walks the subgroup's largest block (replicas of an ensemble may have other
    // grids), so the subgroup stays whole; rows beyond an invocation's own block are empty.
    let by = i32(params.block_y);
    let rows = i32(subgroupMax(params.block_y));
    var seen = 0u;
    var ok = true;
    // Once, not per row: a software adapter runs each subgroup operation as a loop over lanes.
    let lanes = subgroupAdd(1u);
    let lane = subgroupExclusiveAdd(1u);
    for (var dy = -rows; dy <= rows; dy++) {
        let mine = abs(dy) <= by;
        var rr = block_row(c, select(0, dy, mine), p);
        if (mine) {
            seen += row_len(rr);
        }
        if (seen > budget) {
            ok = false;
        }
        if (!ok || !live || !rr.valid || !mine) {
            rr.r0 = vec2<u32>(0u);
            rr.r1 = vec2<u32>(0u);
            rr.r2 = vec2<u32>(0u);
        }
        gather_range(&sums, rr.r0.x, rr.r0.y, s, rr.q);
        gather_range_shared(&sums, rr.r1.x, rr.r1.y, s, rr.q, lanes, lane);
        gather_range(&sums, rr.r2.x, rr.r2.y, s, rr.q);
    }
    return Gathered(sums, ok);
}
