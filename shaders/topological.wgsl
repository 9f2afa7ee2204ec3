// The topological neighbourhood (docs/model.md §19): a boid's neighbours are its k nearest other
// boids by minimum-image distance whatever the distance, ordered by (squared distance, id). Found
// by a grid search that widens ring by ring around the boid's cell until the k-th nearest is
// certain; mirrors `topological_nearest` in src/stages/twins/rules.rs and the frame helpers of
// src/model/grid.rs. Only real cells are searched (never the ghost padding, which covers the
// 5 × 5 block alone): rows and columns wrap by modular indexing, each cell once, so each boid is
// found once, by its own cell, at its minimum-image offset. Shared by `rules` (the plain search,
// bounded by TOPO_BUDGET) and `rules_heavy` (a workgroup per boid). Needs: common.wgsl,
// grid.wgsl, rules_common.wgsl, and from the stage: `params`, `cells`, `sorted_pos_vel`,
// `sorted_hue`, `sorted_id`, `neighbor_ids`.

const TOPOLOGICAL_K_MAX: u32 = 64u;
const F32_MAX: f32 = 3.40282347e+38;

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
            let lo = -((ni - 1) / 2);
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
        row = ((row % rows) + rows) % rows;
    }
    let base = u32(row) * params.grid_cols;
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
            let w0 = ((x0 % cols) + cols) % cols;
            let w1 = ((x1 % cols) + cols) % cols;
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

// The k nearest so far, sorted by (d², id): the plain search's list (insertion).
struct TopoList {
    items: array<TopoItem, 64>,
    len: u32,
    k: u32,
}

// Offers a candidate; returns the loop iterations it took (for the caller's budget).
fn topo_offer(n: ptr<function, TopoList>, d2: f32, id: u32, j: u32) -> u32 {
    if ((*n).len == (*n).k) {
        let last = (*n).items[(*n).len - 1u];
        if (!topo_less(d2, id, last.d2, last.id)) {
            return 0u;
        }
        (*n).len -= 1u;
    }
    var at = (*n).len;
    var steps = 0u;
    while (at > 0u && topo_less(d2, id, (*n).items[at - 1u].d2, (*n).items[at - 1u].id)) {
        (*n).items[at] = (*n).items[at - 1u];
        at -= 1u;
        steps += 1u;
    }
    (*n).items[at] = TopoItem(d2, id, j);
    (*n).len += 1u;
    return steps;
}

// The candidate at sorted index j seen from p (not the boid s itself): its minimum-image offset.
fn topo_offset(j: u32, p: vec2<f32>) -> vec2<f32> {
    return min_image(sorted_pos_vel[j].xy - p);
}

// The neighbour sums over the chosen neighbours, nearest first (`list` sorted, `n` of them), and
// their ids recorded when sorted item s is among those asked for (`u32::MAX` past the last).
fn topo_sums(s: u32, p: vec2<f32>, list: ptr<function, TopoList>) -> NeighborSums {
    var sums = empty_sums();
    let k = min(params.topological_k, TOPOLOGICAL_K_MAX);
    let record = s < params.record_neighbors;
    for (var t = 0u; t < k; t++) {
        var id_t = 0xffffffffu;
        if (t < (*list).len) {
            let it = (*list).items[t];
            accumulate(&sums, topo_offset(it.j, p), sorted_pos_vel[it.j].zw, sorted_hue[it.j]);
            id_t = it.id;
        }
        if (record) {
            neighbor_ids[s * k + t] = id_t;
        }
    }
    return sums;
}

// Most loop iterations the plain search may take (candidates, rows, ranges and insertion steps
// together), within the 65 535 a driver allows one invocation with room for the rest of `rules`.
const TOPO_BUDGET: u32 = 16384u;

// The topological neighbour sums of sorted item s at p, ring by ring (ring r: the frame of
// inner = outer = r) until the k-th nearest is certain; `ok` is false when the search would pass
// TOPO_BUDGET (the caller defers the boid to `rules_heavy`).
fn gather_topological(s: u32, p: vec2<f32>) -> Gathered {
    var list: TopoList;
    list.len = 0u;
    list.k = min(params.topological_k, TOPOLOGICAL_K_MAX);
    let c = cell_xy(p);
    var work = 0u;
    var r = 0u;
    loop {
        let f = frame_of(c, r, r);
        let rows = frame_rows(f);
        for (var t = 0u; t < rows; t++) {
            let fr = frame_row(f, t);
            work += 1u;
            for (var u = 0u; u < 4u; u++) {
                let rg = frame_row_range(u, fr);
                for (var j = rg.x; j < rg.y; j++) {
                    work += 1u;
                    if (work > TOPO_BUDGET) {
                        return Gathered(empty_sums(), false);
                    }
                    if (j == s) {
                        continue;
                    }
                    let d = topo_offset(j, p);
                    work += topo_offer(&list, topo_d2(d), sorted_id[j], j);
                }
            }
            if (work > TOPO_BUDGET) {
                return Gathered(empty_sums(), false);
            }
        }
        let b2 = block_bound2(p, c, r);
        if (b2 == F32_MAX || (list.len == list.k && list.items[list.len - 1u].d2 < b2)) {
            break;
        }
        r += 1u;
    }
    return Gathered(topo_sums(s, p, &list), true);
}
