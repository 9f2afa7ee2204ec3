// The topological neighbourhood (docs/model.md §19): a boid's neighbours are its k nearest other
// boids by minimum-image distance whatever the distance, ordered by (squared distance, id). Found
// by a grid search that widens ring by ring around the boid's cell until the k-th nearest is
// certain; mirrors `topological_nearest` in src/stages/twins/rules.rs and the frame helpers of
// src/model/grid.rs. Only real cells are searched (never the ghost padding, which covers the
// 5 × 5 block alone): rows and columns wrap by modular indexing, each cell once, so each boid is
// found once, by its own cell, at its minimum-image offset. Shared by `rules` (the plain search,
// bounded by TOPO_BUDGET) and `rules_heavy` (a workgroup per boid). Needs: common.wgsl,
// grid.wgsl, rules_common.wgsl, and from the stage: `params`, `cells`, `sorted_pos_vel`,
// `sorted_hue`, `sorted_id`, `neighbors`.

const TOPOLOGICAL_K_MAX: u32 = 64u;

// The recorded neighbour ids are the region at the end of `neighbors`, after each boid's count
// (src/stages/mod.rs, REGIONS): `record_neighbors` boids' k ids each. The word of sorted item s's
// t-th nearest:
fn neighbor_id_word(s: u32, k: u32, t: u32) -> u32 {
    return arrayLength(&neighbors) - params.record_neighbors * k + s * k + t;
}
// Rings of the plain search's first step: the 5 × 5 block; mirrors `FIRST_RINGS`.
const TOPO_FIRST_RINGS: u32 = 2u;
// The largest finite f32, in hex: the decimal 3.40282347e+38 rounds above it in exact arithmetic,
// which a browser's WGSL compiler refuses.
const F32_MAX: f32 = 0x1.fffffep+127f;

// The squared length of a topological offset: each square rounded, then added. Each square is
// used twice (max and min), so no compiler can fuse one into a multiply-add with the addition:
// the value is the CPU's `d.x·d.x + d.y·d.y` bit for bit (max + min is that sum, addition being
// commutative), and both backends order the candidates alike.
fn topo_d2(d: vec2<f32>) -> f32 {
    let xx = d.x * d.x;
    let yy = d.y * d.y;
    return max(xx, yy) + min(xx, yy);
}

fn topo_less(a_d2: f32, a_id: u32, b_d2: f32, b_id: u32) -> bool {
    return a_d2 < b_d2 || (a_d2 == b_d2 && a_id < b_id);
}

// The offsets lo ..= hi of the cells of one axis a block of half-width r around cell c covers,
// each cell once; mirrors `axis_window`.
fn axis_window(c: u32, r: u32, n: u32) -> vec2<i32> {
    let ci = i32(c);
    let ri = i32(min(r, 0x3fffffffu));
    let ni = i32(n);
    if (params.boundary == 0u) {
        if (2 * ri + 1 >= ni) {
            let lo = -((ni - 1) >> 1u);
            return vec2<i32>(lo, lo + ni - 1);
        }
        return vec2<i32>(-ri, ri);
    }
    return vec2<i32>(max(-ri, -ci), min(ri, ni - 1 - ci));
}

// The cells of the block of half-width `outer` not in the block of half-width `inner − 1`; mirrors
// `Frame`.
struct Frame {
    c: vec2<u32>,
    x_out: vec2<i32>,
    y_out: vec2<i32>,
    x_in: vec2<i32>,
    y_in: vec2<i32>,
}

fn frame_of(c: vec2<u32>, inner: u32, outer: u32) -> Frame {
    var f: Frame;
    f.c = c;
    f.x_out = axis_window(c.x, outer, params.grid_cols);
    f.y_out = axis_window(c.y, outer, params.grid_rows);
    f.x_in = vec2<i32>(1, 0);
    f.y_in = vec2<i32>(1, 0);
    if (inner > 0u) {
        f.x_in = axis_window(c.x, inner - 1u, params.grid_cols);
        f.y_in = axis_window(c.y, inner - 1u, params.grid_rows);
    }
    return f;
}

fn frame_rows(f: Frame) -> u32 {
    return u32(f.y_out.y - f.y_out.x + 1);
}

// x modulo n for x in −n .. 2n (every offset of a frame), without an integer division; mirrors
// `wrap_once`.
fn wrap_once(x: i32, n: i32) -> i32 {
    return select(select(x, x - n, x >= n), x + n, x < 0);
}

// Row t of a frame as up to four ranges of sorted items (empty ones are a == b), in column order;
// mirrors `Grid::frame_row` (which gives the cells; here their items).
struct FrameRow {
    r0: vec2<u32>,
    r1: vec2<u32>,
    r2: vec2<u32>,
    r3: vec2<u32>,
}

fn frame_row_range(u: u32, fr: FrameRow) -> vec2<u32> {
    return select(select(select(fr.r3, fr.r2, u == 2u), fr.r1, u == 1u), fr.r0, u == 0u);
}

// The items of cells first ..= last.
fn cell_items(first: u32, last: u32) -> vec2<u32> {
    return vec2<u32>(cells[first], cells[last + 1u]);
}

fn frame_row(f: Frame, t: u32) -> FrameRow {
    var out: FrameRow;
    out.r0 = vec2<u32>(0u);
    out.r1 = vec2<u32>(0u);
    out.r2 = vec2<u32>(0u);
    out.r3 = vec2<u32>(0u);
    let wrap = params.boundary == 0u;
    let dy = f.y_out.x + i32(t);
    let rows = i32(params.grid_rows);
    let cols = i32(params.grid_cols);
    var row = i32(f.c.y) + dy;
    if (wrap) {
        row = wrap_once(row, rows);
    }
    let base = params.cell_base + u32(row) * params.grid_cols;
    let inside = f.y_in.x <= dy && dy <= f.y_in.y;
    var seg0 = f.x_out;
    var seg1 = vec2<i32>(1, 0);
    if (inside) {
        seg0 = vec2<i32>(f.x_out.x, f.x_in.x - 1);
        seg1 = vec2<i32>(f.x_in.y + 1, f.x_out.y);
    }
    for (var k = 0u; k < 2u; k++) {
        let seg = select(seg0, seg1, k == 1u);
        if (seg.x > seg.y) {
            continue;
        }
        let x0 = i32(f.c.x) + seg.x;
        let x1 = i32(f.c.x) + seg.y;
        var a = vec2<u32>(0u);
        var b = vec2<u32>(0u);
        if (!wrap) {
            a = cell_items(base + u32(x0), base + u32(x1));
        } else {
            let w0 = wrap_once(x0, cols);
            let w1 = wrap_once(x1, cols);
            if (w0 <= w1) {
                a = cell_items(base + u32(w0), base + u32(w1));
            } else {
                a = cell_items(base + u32(w0), base + params.grid_cols - 1u);
                b = cell_items(base, base + u32(w1));
            }
        }
        if (k == 0u) {
            out.r0 = a;
            out.r1 = b;
        } else {
            out.r2 = a;
            out.r3 = b;
        }
    }
    return out;
}

// Every boid outside the block of half-width r around cell c of a boid at p is farther than the
// square root of this (with margins for rounding); F32_MAX when the block covers the grid. Mirrors
// `block_bound2`.
fn block_bound2(p: vec2<f32>, c: vec2<u32>, r: u32) -> f32 {
    let w = params.world_width;
    let h = params.world_height;
    var g = F32_MAX;
    for (var axis = 0u; axis < 2u; axis++) {
        let ci = select(c.x, c.y, axis == 1u);
        let n = select(params.grid_cols, params.grid_rows, axis == 1u);
        let pos = select(p.x, p.y, axis == 1u);
        let len = select(w, h, axis == 1u);
        let cell = len / f32(n);
        var lo_all = r >= ci;
        var hi_all = ci + min(r, n) >= n - 1u;
        if (params.boundary == 0u) {
            lo_all = 2u * min(r, n) + 1u >= n;
            hi_all = lo_all;
        }
        if (!lo_all) {
            g = min(g, pos - (f32(ci) - f32(r)) * cell);
        }
        if (!hi_all) {
            g = min(g, (f32(ci) + f32(r) + 1.0) * cell - pos);
        }
    }
    if (g == F32_MAX) {
        return F32_MAX;
    }
    let m = max(g - 1e-6 * max(w, h), 0.0);
    return m * m * (1.0 - 1.0 / 1048576.0);
}

// A candidate of the topological search: its squared distance, id and sorted index.
struct TopoItem {
    d2: f32,
    id: u32,
    j: u32,
}

// The k nearest seen so far: a max-heap on (d², id), the root the farthest kept (the k-th once
// full). An offer takes no loop once the heap is full (the sift down is written out), so a
// search's loop iterations are its candidates, whatever their order: a SIMD driver runs the
// invocations of a group in lock step and counts their loops together.
struct TopoHeap {
    items: array<TopoItem, 64>,
    len: u32,
    k: u32,
}

fn heap_after(a: TopoItem, b: TopoItem) -> bool {
    return topo_less(b.d2, b.id, a.d2, a.id);
}

// One level of sifting item i down a heap of `len` items: the index it moved to (i when it
// stays).
fn heap_down_step(h: ptr<function, TopoHeap>, i: u32, len: u32) -> u32 {
    let l = 2u * i + 1u;
    if (l >= len) {
        return i;
    }
    var m = l;
    if (l + 1u < len && heap_after((*h).items[l + 1u], (*h).items[l])) {
        m = l + 1u;
    }
    if (heap_after((*h).items[m], (*h).items[i])) {
        let tmp = (*h).items[i];
        (*h).items[i] = (*h).items[m];
        (*h).items[m] = tmp;
        return m;
    }
    return i;
}

// Sifts the root down a heap of `len` ≤ 64 items: at most 6 levels, written out (no loop).
fn heap_down(h: ptr<function, TopoHeap>, len: u32) {
    var i = heap_down_step(h, 0u, len);
    i = heap_down_step(h, i, len);
    i = heap_down_step(h, i, len);
    i = heap_down_step(h, i, len);
    i = heap_down_step(h, i, len);
    i = heap_down_step(h, i, len);
}

// Offers candidate j (not the boid s itself) seen from p.
fn heap_offer(h: ptr<function, TopoHeap>, j: u32, s: u32, p: vec2<f32>) {
    let off = min_image(sorted_pos_vel[j].xy - p);
    if (j == s || !in_view(off)) {
        return;
    }
    let it = TopoItem(topo_d2(off), sorted_id[j], j);
    if ((*h).len < (*h).k) {
        // Sift up (k times in all).
        var i = (*h).len;
        (*h).items[i] = it;
        (*h).len += 1u;
        while (i > 0u) {
            let up = (i - 1u) / 2u;
            if (!heap_after((*h).items[i], (*h).items[up])) {
                break;
            }
            let tmp = (*h).items[i];
            (*h).items[i] = (*h).items[up];
            (*h).items[up] = tmp;
            i = up;
        }
        return;
    }
    if (topo_less(it.d2, it.id, (*h).items[0].d2, (*h).items[0].id)) {
        (*h).items[0] = it;
        heap_down(h, (*h).len);
    }
}

// Sorts the heap's items ascending in place (heapsort).
fn heap_sort(h: ptr<function, TopoHeap>) {
    for (var end = (*h).len; end > 1u; end--) {
        let tmp = (*h).items[0];
        (*h).items[0] = (*h).items[end - 1u];
        (*h).items[end - 1u] = tmp;
        heap_down(h, end - 1u);
    }
}

// The candidate at sorted index j seen from p (not the boid s itself): its minimum-image offset.
fn topo_offset(j: u32, p: vec2<f32>) -> vec2<f32> {
    return min_image(sorted_pos_vel[j].xy - p);
}

// The neighbour sums over the chosen neighbours, nearest first (`h` sorted by `heap_sort`), and
// their ids recorded when sorted item s is among those asked for (`u32::MAX` past the last).
fn topo_sums(s: u32, p: vec2<f32>, h: ptr<function, TopoHeap>) -> NeighborSums {
    var sums = empty_sums();
    let k = min(params.topological_k, TOPOLOGICAL_K_MAX);
    let record = s < params.record_neighbors;
    for (var t = 0u; t < k; t++) {
        var id_t = 0xffffffffu;
        if (t < (*h).len) {
            let it = (*h).items[t];
            accumulate(&sums, topo_offset(it.j, p), sorted_pos_vel[it.j].zw, sorted_hue[it.j]);
            id_t = it.id;
        }
        if (record) {
            neighbors[neighbor_id_word(s, k, t)] = id_t;
        }
    }
    return sums;
}

// Most loop iterations the plain search may take, every loop of it counted (rows, their segments
// and ranges, candidates, the bound's axes, the heap's sift-ups): a SIMD driver (lavapipe) runs 8
// invocations in lock step and stops their loops, counted together, past 65 535 iterations, so 8
// searches of TOPO_BUDGET stay within it with room for the rest of `rules`.
const TOPO_BUDGET: u32 = 6144u;

// The topological neighbour sums of sorted item s at p: the 5 × 5 block of cells around its
// cell, then ring by ring (ring r: the frame of inner = outer = r) until the k-th nearest is
// certain; `ok` is false when the search would pass
// TOPO_BUDGET (the caller defers the boid to `rules_heavy`).
fn gather_topological(s: u32, p: vec2<f32>) -> Gathered {
    var heap: TopoHeap;
    heap.len = 0u;
    heap.k = min(params.topological_k, TOPOLOGICAL_K_MAX);
    let c = cell_xy(p);
    // The sift-ups (at most 6 iterations for each of the k pushes) and the sort, up front.
    var work = 8u * heap.k;
    // The 5 × 5 block first (its rows are whole runs of cells), then one ring at a time; mirrors
    // `search_frame`.
    var inner = 0u;
    var r = TOPO_FIRST_RINGS;
    loop {
        let f = frame_of(c, inner, r);
        let rows = frame_rows(f);
        for (var t = 0u; t < rows; t++) {
            // The row, its two segments and four ranges.
            work += 7u;
            let fr = frame_row(f, t);
            for (var u = 0u; u < 4u; u++) {
                let rg = frame_row_range(u, fr);
                work += rg.y - rg.x;
                if (work > TOPO_BUDGET) {
                    return Gathered(empty_sums(), false);
                }
                for (var j = rg.x; j < rg.y; j++) {
                    heap_offer(&heap, j, s, p);
                }
            }
        }
        work += 3u;
        let b2 = block_bound2(p, c, r);
        if (b2 == F32_MAX || (heap.len == heap.k && heap.items[0].d2 < b2)) {
            break;
        }
        if (work > TOPO_BUDGET) {
            return Gathered(empty_sums(), false);
        }
        r += 1u;
        inner = r;
    }
    heap_sort(&heap);
    return Gathered(topo_sums(s, p, &heap), true);
}

// ---- The small search (k ≤ TOPO_SMALL_K, the pipelines of TOPO_SMALL) ----

// Largest k the small search holds.
const TOPO_SMALL_K: u32 = 8u;

// The k ≤ 8 nearest seen so far, sorted ascending by (d², id), held in vectors: slots 0–3 in the
// `lo` ones, 4–7 in the `hi` ones; an empty slot is (+∞, u32::MAX). An insertion moves every slot
// with selects and reads none by a varying index, so a driver that lowers indexed private arrays
// to branch ladders (lavapipe) runs it as straight vector code. Holds the same k nearest as the
// heap (ties by id), already in the order the sums take them.
struct TopoBest {
    d_lo: vec4<f32>,
    d_hi: vec4<f32>,
    id_lo: vec4<u32>,
    id_hi: vec4<u32>,
    j_lo: vec4<u32>,
    j_hi: vec4<u32>,
}

fn best_empty() -> TopoBest {
    // +∞ from a variable: as a constant expression a browser's WGSL compiler refuses it.
    var inf_bits = 0x7f800000u;
    let inf = vec4<f32>(bitcast<f32>(inf_bits));
    let none = vec4<u32>(0xffffffffu);
    return TopoBest(inf, inf, none, none, vec4<u32>(0u), vec4<u32>(0u));
}

// Per slot: whether the slot's item comes before (d, id).
fn best_before(d4: vec4<f32>, id4: vec4<u32>, d: f32, id: u32) -> vec4<bool> {
    return (d4 < vec4<f32>(d)) | ((d4 == vec4<f32>(d)) & (id4 < vec4<u32>(id)));
}

// Slot k − 1 (the k-th nearest so far; +∞ while fewer than k are held): its d² and id.
fn best_kth(b: TopoBest, k: u32) -> vec2<u32> {
    if (k <= 4u) {
        return vec2<u32>(bitcast<u32>(b.d_lo[k - 1u]), b.id_lo[k - 1u]);
    }
    return vec2<u32>(bitcast<u32>(b.d_hi[k - 5u]), b.id_hi[k - 5u]);
}

// Offers candidate j (not the boid s itself) seen from p to the k nearest.
fn best_offer(b: ptr<function, TopoBest>, k: u32, j: u32, s: u32, p: vec2<f32>) {
    let off = min_image(sorted_pos_vel[j].xy - p);
    if (j == s || !in_view(off)) {
        return;
    }
    let d = topo_d2(off);
    let id = sorted_id[j];
    let kth = best_kth(*b, k);
    if (!topo_less(d, id, bitcast<f32>(kth.x), kth.y)) {
        return;
    }
    let keep_lo = best_before((*b).d_lo, (*b).id_lo, d, id);
    let keep_hi = best_before((*b).d_hi, (*b).id_hi, d, id);
    // Slot i keeps its item when that comes first; else takes the new one when slot i − 1 kept
    // its own (or i = 0); else takes slot i − 1's item (shifted one place back).
    let prev_lo = vec4<bool>(true, keep_lo.x, keep_lo.y, keep_lo.z);
    let prev_hi = vec4<bool>(keep_lo.w, keep_hi.x, keep_hi.y, keep_hi.z);
    let o = *b;
    let sd_lo = vec4<f32>(0.0, o.d_lo.x, o.d_lo.y, o.d_lo.z);
    let sd_hi = vec4<f32>(o.d_lo.w, o.d_hi.x, o.d_hi.y, o.d_hi.z);
    let si_lo = vec4<u32>(0u, o.id_lo.x, o.id_lo.y, o.id_lo.z);
    let si_hi = vec4<u32>(o.id_lo.w, o.id_hi.x, o.id_hi.y, o.id_hi.z);
    let sj_lo = vec4<u32>(0u, o.j_lo.x, o.j_lo.y, o.j_lo.z);
    let sj_hi = vec4<u32>(o.j_lo.w, o.j_hi.x, o.j_hi.y, o.j_hi.z);
    (*b).d_lo = select(select(sd_lo, vec4<f32>(d), prev_lo), o.d_lo, keep_lo);
    (*b).d_hi = select(select(sd_hi, vec4<f32>(d), prev_hi), o.d_hi, keep_hi);
    (*b).id_lo = select(select(si_lo, vec4<u32>(id), prev_lo), o.id_lo, keep_lo);
    (*b).id_hi = select(select(si_hi, vec4<u32>(id), prev_hi), o.id_hi, keep_hi);
    (*b).j_lo = select(select(sj_lo, vec4<u32>(j), prev_lo), o.j_lo, keep_lo);
    (*b).j_hi = select(select(sj_hi, vec4<u32>(j), prev_hi), o.j_hi, keep_hi);
}

// The neighbour sums over the k nearest, nearest first, and their ids recorded when sorted item
// s is among those asked for (`u32::MAX` past the last); as `topo_sums`.
fn best_sums(s: u32, p: vec2<f32>, b: TopoBest, k: u32) -> NeighborSums {
    var sums = empty_sums();
    let record = s < params.record_neighbors;
    for (var t = 0u; t < k; t++) {
        var id = b.id_hi[t & 3u];
        var j = b.j_hi[t & 3u];
        if (t < 4u) {
            id = b.id_lo[t];
            j = b.j_lo[t];
        }
        if (id != 0xffffffffu) {
            accumulate(&sums, topo_offset(j, p), sorted_pos_vel[j].zw, sorted_hue[j]);
        }
        if (record) {
            neighbors[neighbor_id_word(s, k, t)] = id;
        }
    }
    return sums;
}

// As `gather_topological`, for k ≤ TOPO_SMALL_K: the same rings, the same candidates in the same
// order, the same budget and the same k nearest. (A function of its own, not a branch on TOPO_SMALL inside
// `gather_topological`: with both selections declared in one function the small pipeline was 9 %
// slower on lavapipe, 27 against 25 ms a step at 20 000 boids.)
fn gather_topological_small(s: u32, p: vec2<f32>) -> Gathered {
    var best = best_empty();
    let k = min(params.topological_k, TOPO_SMALL_K);
    let c = cell_xy(p);
    var work = 8u * k;
    var inner = 0u;
    var r = TOPO_FIRST_RINGS;
    loop {
        let f = frame_of(c, inner, r);
        let rows = frame_rows(f);
        for (var t = 0u; t < rows; t++) {
            work += 7u;
            let fr = frame_row(f, t);
            for (var u = 0u; u < 4u; u++) {
                let rg = frame_row_range(u, fr);
                work += rg.y - rg.x;
                if (work > TOPO_BUDGET) {
                    return Gathered(empty_sums(), false);
                }
                for (var j = rg.x; j < rg.y; j++) {
                    best_offer(&best, k, j, s, p);
                }
            }
        }
        work += 3u;
        let b2 = block_bound2(p, c, r);
        let kth = best_kth(best, k);
        // Full (the k-th slot holds an item) and the k-th nearer than any boid outside the block.
        if (b2 == F32_MAX || (kth.y != 0xffffffffu && bitcast<f32>(kth.x) < b2)) {
            break;
        }
        if (work > TOPO_BUDGET) {
            return Gathered(empty_sums(), false);
        }
        r += 1u;
        inner = r;
    }
    return Gathered(best_sums(s, p, best, k), true);
}
