// The Voronoi neighbourhood (docs/model.md §19.5): a boid's neighbours are the boids whose
// Voronoi cells share an edge with its own. The cell is cut out of a rectangle (the half-planes of
// the boid's own nearest images in a wrapping world, the world itself otherwise) by the bisector of
// each candidate, in a block of the grid's cells grown from the boid's own cell (topological.wgsl's
// frames) one cell wider on each side the cell may still reach past, until no boid outside the
// block can cut it. Mirrors `voronoi_cell` in src/stages/twins/voronoi.rs and the cell of
// src/model/voronoi.rs. Shared by `rules` (the plain search, the cell in the invocation's own
// arrays, at most VORONOI_PLAIN_EDGES edges, bounded by VORONOI_BUDGET) and `rules_heavy`
// (`rules_heavy_voronoi`, voronoi_heavy.wgsl). Needs: common.wgsl, grid.wgsl, rules_common.wgsl,
// topological.wgsl, gather.wgsl, and from the stage: `params`, `cells`, `sorted_pos_vel`,
// `sorted_hue`, `sorted_id`, `neighbors`.

// Neighbour ids recorded a boid; mirrors `VORONOI_EDGES_MAX`.
const VORONOI_EDGES_MAX: u32 = 32u;
// Most edges of a cell in the plain search (a boid's own arrays, kept small for a GPU's registers);
// a cell with more is deferred.
// Mirrors `VORONOI_PLAIN_EDGES`.
const VORONOI_PLAIN_EDGES: u32 = 16u;
// The owner of an edge of the starting rectangle; mirrors `NO_OWNER`.
const NO_OWNER: u32 = 0xffffffffu;
// 1 + 2⁻¹⁶; mirrors `REACH_MARGIN`.
const REACH_MARGIN: f32 = 1.0000152587890625;
// Most loop iterations of the plain search (as TOPO_BUDGET): a boid past it is deferred to
// `rules_heavy_voronoi`.
const VORONOI_BUDGET: u32 = 6144u;

// The rectangle a cell starts from, as offsets from the boid at p: (lo, hi); mirrors
// `starting_rectangle`.
fn voronoi_rectangle(p: vec2<f32>) -> vec4<f32> {
    let w = params.world_width;
    let h = params.world_height;
    if (params.boundary == 0u) {
        return vec4<f32>(-0.5 * w, -0.5 * h, 0.5 * w, 0.5 * h);
    }
    return vec4<f32>(-max(p.x, 0.0), -max(p.y, 0.0), max(w - p.x, 0.0), max(h - p.y, 0.0));
}

// The squared distance within which only minimum images lie; mirrors `images_bound2`.
fn voronoi_images_bound2() -> f32 {
    if (params.boundary == 0u) {
        let half = 0.5 * min(params.world_width, params.world_height);
        return half * half * (1.0 - 1.0 / 1048576.0);
    }
    return F32_MAX;
}

// The side function of vertex x against the bisector of offset d (c = |d|²/2): > 0 outside. Each
// product used twice (max and min), so no compiler fuses it into a multiply-add: the CPU's bits.
fn voronoi_side(x: vec2<f32>, d: vec2<f32>, c: f32) -> f32 {
    let a = x.x * d.x;
    let b = x.y * d.y;
    return (max(a, b) + min(a, b)) - c;
}

// Where edge a → b crosses a bisector, from its side values fa and fb; mirrors `crossing`.
// Each sum is max + min of its terms, so that no compiler fuses the product into a multiply-add
// (the CPU's operations; the division may round differently, within 2.5 ulp).
fn voronoi_crossing(a: vec2<f32>, b: vec2<f32>, fa: f32, fb: f32) -> vec2<f32> {
    let t = fa / (fa - fb);
    let u = t * (b.x - a.x);
    let w = t * (b.y - a.y);
    return vec2<f32>(max(a.x, u) + min(a.x, u), max(a.y, w) + min(a.y, w));
}

// The cell of the plain search: vertices counter-clockwise at v[base .. base + n] (base 0 or
// VORONOI_PLAIN_EDGES: a cut writes the other half), the owner of the edge leaving each at the
// same index, and the largest squared distance of a vertex.
struct VCell {
    v: array<vec2<f32>, 32>,
    o: array<u32, 32>,
    base: u32,
    n: u32,
    r2: f32,
    // The cell's support along ±x, ±y, max(±v.x), max(±v.y), and along the diagonals,
    // max(v.x + v.y), max(v.x − v.y), max(−v.x + v.y), max(−v.x − v.y): a bound of v·d for every
    // vertex v, without reading the vertices (vcell_may_cut).
    hx: vec4<f32>,
    hd: vec4<f32>,
    // A cut would have passed VORONOI_PLAIN_EDGES edges, or met vertices whose sides have signs no
    // convex polygon has (vcell_cut).
    full: bool,
}

// The support values of a vertex at p (as VCell's hx and hd).
fn support_x(p: vec2<f32>) -> vec4<f32> {
    return vec4<f32>(p.x, -p.x, p.y, -p.y);
}

fn support_d(p: vec2<f32>) -> vec4<f32> {
    return vec4<f32>(p.x + p.y, p.x - p.y, -p.x + p.y, -p.x - p.y);
}

// Whether the bisector of offset d (d2 = |d|², reached: d2 < 4r²) may cut the cell: false only
// when every vertex v has v·d < |d|²/2 for certain. With a = |d.x| ≥ b = |d.y| and s the signs,
// v·d = (a − b)·(s_x v.x) + b·(s_x v.x + s_y v.y) ≤ (a − b)·max(s_x v.x) + b·max(s_x v.x + s_y v.y)
// (likewise with the axes swapped), with a margin of 2⁻¹⁸·r·|d| for the rounding of the
// supports, of the bound and of the twin's own test: a candidate it turns away leaves the cell
// as it is in the twin too. The plain search cuts by every candidate it lets through, without a
// test of the vertices first (a cut by a bisector every vertex is inside of gives the same
// polygon back).
fn vcell_may_cut(c: ptr<function, VCell>, d: vec2<f32>, d2: f32) -> bool {
    let a = abs(d.x);
    let b = abs(d.y);
    let px = d.x >= 0.0;
    let py = d.y >= 0.0;
    let g = select(select((*c).hd.w, (*c).hd.z, py), select((*c).hd.y, (*c).hd.x, py), px);
    var bound = 0.0;
    if (a >= b) {
        bound = (a - b) * select((*c).hx.y, (*c).hx.x, px) + b * g;
    } else {
        bound = (b - a) * select((*c).hx.w, (*c).hx.z, py) + a * g;
    }
    let slack = sqrt((*c).r2) * sqrt(d2) * (1.0 / 262144.0);
    return !(bound + slack < 0.5 * d2);
}

fn vcell_reset(c: ptr<function, VCell>, r: vec4<f32>) {
    (*c).base = 0u;
    (*c).n = 4u;
    (*c).full = false;
    (*c).v[0] = r.xy;
    (*c).v[1] = vec2<f32>(r.z, r.y);
    (*c).v[2] = r.zw;
    (*c).v[3] = vec2<f32>(r.x, r.w);
    for (var i = 0u; i < 4u; i++) {
        (*c).o[i] = NO_OWNER;
    }
    var r2 = 0.0;
    var hx = vec4<f32>(0.0);
    var hd = vec4<f32>(0.0);
    for (var i = 0u; i < 4u; i++) {
        let v = (*c).v[i];
        r2 = max(r2, topo_d2(v));
        hx = max(hx, support_x(v));
        hd = max(hd, support_d(v));
    }
    (*c).r2 = r2;
    (*c).hx = hx;
    (*c).hd = hd;
}

// Whether every boid farther than sqrt(bound2) leaves the cell as it is.
fn vcell_certain(r2: f32, bound2: f32) -> bool {
    return 4.0 * r2 * REACH_MARGIN < bound2;
}

// A block of cells about the boid's cell grown side by side: column offsets x.x ..= x.y, row
// offsets y.x ..= y.y; mirrors `GridBlock` (src/model/grid_block.rs).
struct GBlock {
    x: vec2<i32>,
    y: vec2<i32>,
}

// The frame of the cells of `outer` not in `inner` (all of `outer` when `first`); mirrors
// `block_frame`.
fn gblock_frame(c: vec2<u32>, outer: GBlock, inner: GBlock, first: bool) -> Frame {
    var f: Frame;
    f.c = c;
    f.x_out = outer.x;
    f.y_out = outer.y;
    f.x_in = select(inner.x, vec2<i32>(1, 0), first);
    f.y_in = select(inner.y, vec2<i32>(1, 0), first);
    return f;
}

// The distances from p to the block's sides (−x, +x, −y, +y) less the margin of block_bound2,
// F32_MAX for a side that cannot grow; mirrors `block_gaps`.
fn gblock_gaps(p: vec2<f32>, c: vec2<u32>, b: GBlock) -> vec4<f32> {
    let w = params.world_width;
    let h = params.world_height;
    let margin = 1e-6 * max(w, h);
    var g = vec4<f32>(F32_MAX);
    for (var axis = 0u; axis < 2u; axis++) {
        let ci = i32(select(c.x, c.y, axis == 1u));
        let n = i32(select(params.grid_cols, params.grid_rows, axis == 1u));
        let pos = select(p.x, p.y, axis == 1u);
        let cell = select(w, h, axis == 1u) / f32(n);
        let lh = select(b.x, b.y, axis == 1u);
        var lo_all = ci + lh.x <= 0;
        var hi_all = ci + lh.y >= n - 1;
        if (params.boundary == 0u) {
            lo_all = lh.y - lh.x + 1 >= n;
            hi_all = lo_all;
        }
        let lo = select(max(pos - (f32(ci) + f32(lh.x)) * cell - margin, 0.0), F32_MAX, lo_all);
        let hi = select(max((f32(ci) + f32(lh.y) + 1.0) * cell - pos - margin, 0.0), F32_MAX,
                        hi_all);
        if (axis == 0u) {
            g.x = lo;
            g.y = hi;
        } else {
            g.z = lo;
            g.w = hi;
        }
    }
    return g;
}

// The block with the sides `grow` one cell wider where the grid has cells left; mirrors
// `grow_block`.
fn gblock_grow(c: vec2<u32>, b: GBlock, grow: vec4<bool>) -> GBlock {
    var out = b;
    let wrap = params.boundary == 0u;
    let cols = i32(params.grid_cols);
    let rows = i32(params.grid_rows);
    let cx = i32(c.x);
    let cy = i32(c.y);
    if (grow.x && select(cx + out.x.x > 0, out.x.y - out.x.x + 1 < cols, wrap)) {
        out.x.x -= 1;
    }
    if (grow.y && select(cx + out.x.y < cols - 1, out.x.y - out.x.x + 1 < cols, wrap)) {
        out.x.y += 1;
    }
    if (grow.z && select(cy + out.y.x > 0, out.y.y - out.y.x + 1 < rows, wrap)) {
        out.y.x -= 1;
    }
    if (grow.w && select(cy + out.y.y < rows - 1, out.y.y - out.y.x + 1 < rows, wrap)) {
        out.y.y += 1;
    }
    return out;
}

// How far past the boid, towards −x, +x, −y and +y, a boid may lie and still cut the cell, with
// the margin of 2⁻¹⁴ of the farthest vertex's distance; mirrors `VoronoiCell::side_reach`.
fn vcell_side_reach(c: ptr<function, VCell>) -> vec4<f32> {
    var reach = vec4<f32>(0.0);
    let b = (*c).base;
    for (var i = 0u; i < (*c).n; i++) {
        let v = (*c).v[b + i];
        let r = sqrt(topo_d2(v));
        reach = max(reach, vec4<f32>(r - v.x, r + v.x, r - v.y, r + v.y));
    }
    return reach + vec4<f32>(sqrt((*c).r2) * (1.0 / 16384.0));
}

// Cuts the cell by the bisector of candidate `owner` at offset d; mirrors `VoronoiCell::cut`.
// Adds its loop iterations to `work`.
fn vcell_cut(c: ptr<function, VCell>, d: vec2<f32>, owner: u32, work: ptr<function, u32>) {
    let d2 = topo_d2(d);
    if (d2 == 0.0 || !(d2 < 4.0 * (*c).r2 * REACH_MARGIN)) {
        return;
    }
    if (!vcell_may_cut(c, d, d2)) {
        return;
    }
    let h = 0.5 * d2;
    let n = (*c).n;
    let b = (*c).base;
    *work += 3u * n;
    // The edges a → b in order, each vertex read once (a carried from the edge before, the first
    // vertex kept for the last edge), and what each edge gives written at one place in the loop
    // (the crossing where the cell leaves the half-plane after it): the same polygon as
    // `cut_reached`'s cases, with fewer accesses to the arrays (each a gather or a scatter, per
    // lane and component, on a software adapter).
    let nb = VORONOI_PLAIN_EDGES - b;
    var m = 0u;
    var r2 = 0.0;
    var hx = vec4<f32>(0.0);
    var hd = vec4<f32>(0.0);
    let v0 = (*c).v[b];
    var x_leave = vec2<f32>(0.0);
    var at_leave = 0u;
    var leaves = 0u;
    var va = v0;
    var fa = voronoi_side(v0, d, h);
    let f0 = fa;
    for (var i = 0u; i < n; i++) {
        let last = i + 1u == n;
        var vb = v0;
        var fb = f0;
        if (!last) {
            vb = (*c).v[b + i + 1u];
            fb = voronoi_side(vb, d, h);
        }
        let x = voronoi_crossing(va, vb, fa, fb);
        // First: a itself when inside (owned by the new edge when the cell leaves the half-plane
        // at a), or the crossing where the cell comes back.
        if (fa <= 0.0 || fb < 0.0) {
            let p1 = select(x, va, fa <= 0.0);
            let o1 = select((*c).o[b + i], owner, fa == 0.0 && fb > 0.0);
            if (m < VORONOI_PLAIN_EDGES) {
                (*c).v[nb + m] = p1;
                (*c).o[nb + m] = o1;
                r2 = max(r2, topo_d2(p1));
                hx = max(hx, support_x(p1));
                hd = max(hd, support_d(p1));
            }
            m += 1u;
        }
        // Second: the crossing where the cell leaves the half-plane, the new edge's start, its
        // place kept and written after the loop (one write site in the loop: each write to the
        // array is a store per lane and component on a software adapter, taken or not).
        if (fa < 0.0 && fb > 0.0) {
            x_leave = x;
            at_leave = m;
            leaves += 1u;
            r2 = max(r2, topo_d2(x));
            hx = max(hx, support_x(x));
            hd = max(hd, support_d(x));
            m += 1u;
        }
        va = vb;
        fa = fb;
    }
    // More than one edge leaving the half-plane (signs no convex polygon has: rounding, for
    // vertices nearly on the bisector): the boid is deferred to the workgroup search, which writes
    // every crossing in its place (a loop of one round here for the held crossing's write cost
    // 3.5 ms of 30 at 20 000 boids on lavapipe).
    if (m > VORONOI_PLAIN_EDGES || leaves > 1u) {
        (*c).full = true;
        return;
    }
    if (leaves == 1u) {
        (*c).v[nb + at_leave] = x_leave;
        (*c).o[nb + at_leave] = owner;
    }
    (*c).base = nb;
    (*c).n = m;
    (*c).r2 = r2;
    (*c).hx = hx;
    (*c).hd = hd;
}

// Whether edge i's owner is also the owner of an earlier edge (a boid met at two of its images,
// or an edge split by rounding).
fn vcell_repeat(c: ptr<function, VCell>, i: u32) -> bool {
    let o = (*c).o[(*c).base + i];
    for (var t = 0u; t < i; t++) {
        if ((*c).o[(*c).base + t] == o) {
            return true;
        }
    }
    return false;
}

// The sums over the cell's neighbours in the field of view (each once, in edge order), and their
// ids recorded ascending when sorted item s is among those asked for; mirrors `voronoi_sums` and
// `record_voronoi_ids`.
fn vcell_sums(s: u32, p: vec2<f32>, c: ptr<function, VCell>) -> NeighborSums {
    var sums = empty_sums();
    let n = (*c).n;
    for (var i = 0u; i < n; i++) {
        let j = (*c).o[(*c).base + i];
        if (j == NO_OWNER || vcell_repeat(c, i)) {
            continue;
        }
        let off = min_image(sorted_pos_vel[j].xy - p);
        if (in_view(off)) {
            accumulate(&sums, off, sorted_pos_vel[j].zw, sorted_hue[j]);
        }
    }
    if (s < params.record_neighbors) {
        // The ids ascending: each slot the smallest id above the last one written.
        var last = 0u;
        var first = true;
        for (var t = 0u; t < VORONOI_EDGES_MAX; t++) {
            var best = NO_OWNER;
            for (var i = 0u; i < n; i++) {
                let j = (*c).o[(*c).base + i];
                if (j == NO_OWNER || !in_view(min_image(sorted_pos_vel[j].xy - p))) {
                    continue;
                }
                let id = sorted_id[j];
                if ((first || id > last) && id < best) {
                    best = id;
                }
            }
            neighbors[neighbor_id_word(s, VORONOI_EDGES_MAX, t)] = best;
            last = best;
            first = false;
        }
    }
    return sums;
}

// The image shift a of the 3 × 3 other than the minimum image (a in 0 .. 8); mirrors
// `OTHER_IMAGES`.
fn other_image(a: u32) -> vec2<f32> {
    let k = select(a, a + 1u, a >= 4u);
    return vec2<f32>(f32(k % 3u) - 1.0, f32(k / 3u) - 1.0);
}

// The Voronoi neighbour sums of sorted item s at p; `ok` false when the search would pass
// VORONOI_BUDGET or the cell VORONOI_PLAIN_EDGES edges, or a cut met vertices whose sides have
// signs no convex polygon has (the caller defers the boid).
fn gather_voronoi(s: u32, p: vec2<f32>) -> Gathered {
    var c: VCell;
    vcell_reset(&c, voronoi_rectangle(p));
    let cc = cell_xy(p);
    let images2 = voronoi_images_bound2();
    var work = 16u;
    // A block grown from the boid's own cell on the sides the cell may still reach past; mirrors
    // `voronoi_cell`.
    var block = GBlock(vec2<i32>(0), vec2<i32>(0));
    var searched = block;
    var first = true;
    loop {
        let f = gblock_frame(cc, block, searched, first);
        let rows = frame_rows(f);
        for (var t = 0u; t < rows; t++) {
            work += 7u;
            if (work > VORONOI_BUDGET) {
                return Gathered(empty_sums(), false);
            }
            let fr = frame_row(f, t);
            for (var u = 0u; u < 4u; u++) {
                let rg = frame_row_range(u, fr);
                for (var j = rg.x; j < rg.y; j++) {
                    work += 1u;
                    if (j != s) {
                        vcell_cut(&c, min_image(sorted_pos_vel[j].xy - p), j, &work);
                    }
                    if (work > VORONOI_BUDGET || c.full) {
                        return Gathered(empty_sums(), false);
                    }
                }
            }
        }
        work += 3u + c.n;
        let gaps = gblock_gaps(p, cc, block);
        let open = gaps != vec4<f32>(F32_MAX);
        var grow = open;
        if (vcell_certain(c.r2, images2)) {
            grow = open & (vcell_side_reach(&c) >= gaps);
        }
        if (!any(grow)) {
            break;
        }
        if (work > VORONOI_BUDGET) {
            return Gathered(empty_sums(), false);
        }
        searched = block;
        first = false;
        block = gblock_grow(cc, block, grow);
    }
    let images = !vcell_certain(c.r2, images2);
    if (images) {
        // A wrapping world of few boids: every boid's other images of the 3 × 3, image by image
        // (the replica's real items, in sorted order).
        let all = cell_items(params.cell_base,
                             params.cell_base + params.grid_cols * params.grid_rows - 1u);
        let wh = vec2<f32>(params.world_width, params.world_height);
        for (var a = 0u; a < 8u; a++) {
            let shift = other_image(a) * wh;
            for (var j = all.x; j < all.y; j++) {
                work += 1u;
                if (j != s) {
                    vcell_cut(&c, min_image(sorted_pos_vel[j].xy - p) + shift, j, &work);
                }
                if (work > VORONOI_BUDGET || c.full) {
                    return Gathered(empty_sums(), false);
                }
            }
        }
    }
    // The sums' loops: the edges, each one's check for an earlier edge of the same owner, and
    // the recorded ids' 32 passes.
    let n = c.n;
    work += n + n * n / 2u + select(0u, 33u * (n + 1u), s < params.record_neighbors);
    if (work > VORONOI_BUDGET) {
        return Gathered(empty_sums(), false);
    }
    return Gathered(vcell_sums(s, p, &c), true);
}
