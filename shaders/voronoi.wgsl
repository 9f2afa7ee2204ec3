// The Voronoi neighbourhood (docs/model.md §19.5): a boid's neighbours are the boids whose
// Voronoi cells share an edge with its own. The cell is cut out of a rectangle (the half-planes of
// the boid's own nearest images in a wrapping world, the world itself otherwise) by the bisector of
// each candidate, in a block of the grid's cells grown from the boid's own cell (topological.wgsl's
// frames) one cell wider on each side the cell may still reach past, until no boid outside the
// block can cut it. Mirrors `voronoi_cell` in src/stages/twins/voronoi.rs and the cell of
// src/model/voronoi.rs. Shared by `rules` (the plain search, the cell in the invocation's
// registers, at most VORONOI_PLAIN_EDGES edges, bounded by VORONOI_BUDGET) and `rules_heavy`
// (`rules_heavy_voronoi`, voronoi_heavy.wgsl). Needs: common.wgsl, grid.wgsl, rules_common.wgsl,
// topological.wgsl, gather.wgsl, and from the stage: `params`, `cells`, `sorted_pos_vel`,
// `sorted_hue`, `sorted_id`, `neighbors`.

// Neighbour ids recorded a boid; mirrors `VORONOI_EDGES_MAX`.
const VORONOI_EDGES_MAX: u32 = 32u;
// Most edges of a cell in the plain search (the cell's slots in registers, VPoly); a cell with
// more is deferred. Mirrors `VORONOI_PLAIN_EDGES`.
const VORONOI_PLAIN_EDGES: u32 = 12u;
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

// The cell of the plain search, held in registers: up to VORONOI_PLAIN_EDGES vertices
// counter-clockwise in twelve slots, four to a quad (vertex k at component k % 4 of quad k / 4:
// x0 … x2, y0 … y2), the owner of the edge leaving each in the same slot (o0 … o2), n of them in
// use; and the largest squared distance of a vertex. Every access names its quad and component
// and no cut indexes an array: a GPU keeps the cell in registers, and a software adapter, which
// runs an access at an index that differs per invocation as a loop over its lanes (a gather or a
// scatter per lane and component), runs a cut as a few hundred vector operations for all lanes.
struct VPoly {
    x0: vec4<f32>,
    x1: vec4<f32>,
    x2: vec4<f32>,
    y0: vec4<f32>,
    y1: vec4<f32>,
    y2: vec4<f32>,
    o0: vec4<u32>,
    o1: vec4<u32>,
    o2: vec4<u32>,
}

struct VCell {
    p: VPoly,
    n: u32,
    r2: f32,
    // A cut would have passed VORONOI_PLAIN_EDGES edges, or met vertices whose sides have signs no
    // convex polygon has (vcell_cut).
    full: bool,
}

// The slot numbers of the three quads.
const VSLOT0: vec4<u32> = vec4<u32>(0u, 1u, 2u, 3u);
const VSLOT1: vec4<u32> = vec4<u32>(4u, 5u, 6u, 7u);
const VSLOT2: vec4<u32> = vec4<u32>(8u, 9u, 10u, 11u);

// Slot k ← slot k + 1 of the quads a, b (b the quad after a).
fn vq_next_f(a: vec4<f32>, b: vec4<f32>) -> vec4<f32> {
    return vec4<f32>(a.yzw, b.x);
}

fn vq_next_u(a: vec4<u32>, b: vec4<u32>) -> vec4<u32> {
    return vec4<u32>(a.yzw, b.x);
}

fn vq_next2_f(a: vec4<f32>, b: vec4<f32>) -> vec4<f32> {
    return vec4<f32>(a.zw, b.xy);
}

fn vq_next2_u(a: vec4<u32>, b: vec4<u32>) -> vec4<u32> {
    return vec4<u32>(a.zw, b.xy);
}

// Slot k ← slot k − 1 of the quads a, b (a the quad before b).
fn vq_prev_f(a: vec4<f32>, b: vec4<f32>) -> vec4<f32> {
    return vec4<f32>(a.w, b.xyz);
}

fn vq_prev_u(a: vec4<u32>, b: vec4<u32>) -> vec4<u32> {
    return vec4<u32>(a.w, b.xyz);
}

// The polygon's slots moved one place towards slot 0 (slot k ← slot k + 1; the last slots keep
// copies that no one reads).
fn vpoly_next1(p: VPoly) -> VPoly {
    return VPoly(vq_next_f(p.x0, p.x1), vq_next_f(p.x1, p.x2), vq_next_f(p.x2, p.x2),
                 vq_next_f(p.y0, p.y1), vq_next_f(p.y1, p.y2), vq_next_f(p.y2, p.y2),
                 vq_next_u(p.o0, p.o1), vq_next_u(p.o1, p.o2), vq_next_u(p.o2, p.o2));
}

fn vpoly_next2(p: VPoly) -> VPoly {
    return VPoly(vq_next2_f(p.x0, p.x1), vq_next2_f(p.x1, p.x2), vq_next2_f(p.x2, p.x2),
                 vq_next2_f(p.y0, p.y1), vq_next2_f(p.y1, p.y2), vq_next2_f(p.y2, p.y2),
                 vq_next2_u(p.o0, p.o1), vq_next2_u(p.o1, p.o2), vq_next2_u(p.o2, p.o2));
}

fn vpoly_next4(p: VPoly) -> VPoly {
    return VPoly(p.x1, p.x2, p.x2, p.y1, p.y2, p.y2, p.o1, p.o2, p.o2);
}

fn vpoly_next8(p: VPoly) -> VPoly {
    return VPoly(p.x2, p.x2, p.x2, p.y2, p.y2, p.y2, p.o2, p.o2, p.o2);
}

// Slot k ← slot k − 1 (slot 0 keeps a copy that no one reads).
fn vpoly_prev1(p: VPoly) -> VPoly {
    return VPoly(vq_prev_f(p.x0, p.x0), vq_prev_f(p.x0, p.x1), vq_prev_f(p.x1, p.x2),
                 vq_prev_f(p.y0, p.y0), vq_prev_f(p.y0, p.y1), vq_prev_f(p.y1, p.y2),
                 vq_prev_u(p.o0, p.o0), vq_prev_u(p.o0, p.o1), vq_prev_u(p.o1, p.o2));
}

// t where c, else f, for the whole polygon.
fn vpoly_pick(f: VPoly, t: VPoly, c: bool) -> VPoly {
    return VPoly(select(f.x0, t.x0, c), select(f.x1, t.x1, c), select(f.x2, t.x2, c),
                 select(f.y0, t.y0, c), select(f.y1, t.y1, c), select(f.y2, t.y2, c),
                 select(f.o0, t.o0, c), select(f.o1, t.o1, c), select(f.o2, t.o2, c));
}

// t in the slots of quads where c0 … c2 hold, else f.
fn vpoly_pick_slots(f: VPoly, t: VPoly, c0: vec4<bool>, c1: vec4<bool>, c2: vec4<bool>) -> VPoly {
    return VPoly(select(f.x0, t.x0, c0), select(f.x1, t.x1, c1), select(f.x2, t.x2, c2),
                 select(f.y0, t.y0, c0), select(f.y1, t.y1, c1), select(f.y2, t.y2, c2),
                 select(f.o0, t.o0, c0), select(f.o1, t.o1, c1), select(f.o2, t.o2, c2));
}

// The polygon's slots moved s places towards slot 0, s in 0 ..= 11 (slot k ← slot k + s; the
// last s slots keep copies that no one reads).
fn vpoly_shift_down(p: VPoly, s: u32) -> VPoly {
    var q = vpoly_pick(p, vpoly_next1(p), (s & 1u) != 0u);
    q = vpoly_pick(q, vpoly_next2(q), (s & 2u) != 0u);
    q = vpoly_pick(q, vpoly_next4(q), (s & 4u) != 0u);
    return vpoly_pick(q, vpoly_next8(q), (s & 8u) != 0u);
}

// The side values of a quad's vertices against the bisector of offset d (as voronoi_side).
fn vq_side(x: vec4<f32>, y: vec4<f32>, d: vec2<f32>, c: f32) -> vec4<f32> {
    let a = x * d.x;
    let b = y * d.y;
    return (max(a, b) + min(a, b)) - vec4<f32>(c);
}

// The squared distances of a quad's vertices (as topo_d2).
fn vq_d2(x: vec4<f32>, y: vec4<f32>) -> vec4<f32> {
    let xx = x * x;
    let yy = y * y;
    return max(xx, yy) + min(xx, yy);
}

// The largest component.
fn vq_max(v: vec4<f32>) -> f32 {
    return max(max(v.x, v.y), max(v.z, v.w));
}

// The sum of the components (each 0 or small).
fn vq_sum(v: vec4<u32>) -> u32 {
    return v.x + v.y + v.z + v.w;
}

// The exclusive prefix sums of a quad's counts after `carry`.
fn vq_exclusive(c: vec4<u32>, carry: u32) -> vec4<u32> {
    return vec4<u32>(carry, carry + c.x, carry + c.x + c.y, carry + c.x + c.y + c.z);
}

// The last component of v where m holds, else acc (in slot order: a later slot replaces an
// earlier one).
fn vq_last_f(acc: f32, v: vec4<f32>, m: vec4<bool>) -> f32 {
    var a = select(acc, v.x, m.x);
    a = select(a, v.y, m.y);
    a = select(a, v.z, m.z);
    return select(a, v.w, m.w);
}

fn vq_last_i(acc: i32, v: vec4<i32>, m: vec4<bool>) -> i32 {
    var a = select(acc, v.x, m.x);
    a = select(a, v.y, m.y);
    a = select(a, v.z, m.z);
    return select(a, v.w, m.w);
}

// One quad of a cut: for each vertex at (x, y) with side f, the next vertex along the polygon at
// (nx, ny) with side nf, what the edge between them gives (as `cut_reached`'s cases): first `a`
// itself when inside (owned by the new edge when the cell leaves the half-plane at a), or the
// crossing where the cell comes back (e1, at (p1x, p1y), owner o1); second the crossing where the
// cell leaves the half-plane (e2, at (x2, y2), owned by the new edge).
struct VQuadCut {
    e1: vec4<bool>,
    e2: vec4<bool>,
    p1x: vec4<f32>,
    p1y: vec4<f32>,
    o1: vec4<u32>,
    x2: vec4<f32>,
    y2: vec4<f32>,
    count: vec4<u32>,
}

fn vq_cut(x: vec4<f32>, y: vec4<f32>, o: vec4<u32>, f: vec4<f32>, nx: vec4<f32>,
          ny: vec4<f32>, nf: vec4<f32>, live: vec4<bool>, owner: u32) -> VQuadCut {
    // The crossing of each edge (as voronoi_crossing; each sum max + min, so that no compiler
    // fuses the product into a multiply-add).
    let t = f / (f - nf);
    let u = t * (nx - x);
    let w = t * (ny - y);
    let cx = max(x, u) + min(x, u);
    let cy = max(y, w) + min(y, w);
    let zero = vec4<f32>(0.0);
    let inside = f <= zero;
    let e1 = live & (inside | (nf < zero));
    let e2 = live & (f < zero) & (nf > zero);
    let o1 = select(o, vec4<u32>(owner), (f == zero) & (nf > zero));
    let count = select(vec4<u32>(0u), vec4<u32>(1u), e1) + select(vec4<u32>(0u), vec4<u32>(1u), e2);
    return VQuadCut(e1, e2, select(cx, x, inside), select(cy, y, inside), o1, cx, cy, count);
}

// The largest squared distance of a quad's vertices in `live` (0 when none).
fn vq_farthest2(x: vec4<f32>, y: vec4<f32>, live: vec4<bool>) -> f32 {
    return vq_max(select(vec4<f32>(0.0), vq_d2(x, y), live));
}

// Sets the cell's largest squared distance of a vertex from its n vertices.
fn vcell_bounds(c: ptr<function, VCell>) {
    let n = vec4<u32>((*c).n);
    let p = (*c).p;
    (*c).r2 = max(max(vq_farthest2(p.x0, p.y0, VSLOT0 < n), vq_farthest2(p.x1, p.y1, VSLOT1 < n)),
                  vq_farthest2(p.x2, p.y2, VSLOT2 < n));
}

fn vcell_reset(c: ptr<function, VCell>, r: vec4<f32>) {
    let none = vec4<u32>(NO_OWNER);
    let z = vec4<f32>(0.0);
    (*c).p = VPoly(vec4<f32>(r.x, r.z, r.z, r.x), z, z, vec4<f32>(r.y, r.y, r.w, r.w), z, z, none,
                   none, none);
    (*c).n = 4u;
    (*c).full = false;
    vcell_bounds(c);
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

// A quad's share of the side reach (slots not in `live` give 0, the start of each maximum).
fn vq_reach(x: vec4<f32>, y: vec4<f32>, live: vec4<bool>) -> vec4<f32> {
    let zero = vec4<f32>(0.0);
    let r = sqrt(vq_d2(x, y));
    return vec4<f32>(vq_max(select(zero, r - x, live)), vq_max(select(zero, r + x, live)),
                     vq_max(select(zero, r - y, live)), vq_max(select(zero, r + y, live)));
}

// How far past the boid, towards −x, +x, −y and +y, a boid may lie and still cut the cell, with
// the margin of 2⁻¹⁴ of the farthest vertex's distance; mirrors `VoronoiCell::side_reach`.
fn vcell_side_reach(c: ptr<function, VCell>) -> vec4<f32> {
    let n = vec4<u32>((*c).n);
    let p = (*c).p;
    let reach = max(max(vq_reach(p.x0, p.y0, VSLOT0 < n), vq_reach(p.x1, p.y1, VSLOT1 < n)),
                    vq_reach(p.x2, p.y2, VSLOT2 < n));
    return reach + vec4<f32>(sqrt((*c).r2) * (1.0 / 16384.0));
}

fn vq_max_u(v: vec4<u32>) -> u32 {
    return max(max(v.x, v.y), max(v.z, v.w));
}

fn vq_ones(m: vec4<bool>) -> vec4<u32> {
    return select(vec4<u32>(0u), vec4<u32>(1u), m);
}

// Cuts the cell by the bisector of candidate `owner` at offset d; mirrors `VoronoiCell::cut`.
// Adds three for each vertex of a cell it changes to `work`.
//
// The new polygon is the old one's edges in order, each giving what `cut_reached`'s cases give
// (vq_cut), packed: each vertex's first item moves by its place among the items less its slot.
// For a convex polygon the items before the first vertex outside (or before the crossing where
// the cell leaves the half-plane) stay, and every later one moves by the same count, at most one
// place up (one vertex outside: its two crossings take its slot and one more) or any number down;
// the crossing where the cell leaves goes after the vertex it leaves from. So the cut is a shift
// of all slots by that count and a choice per slot. Sides with signs no convex polygon has (from
// rounding, for vertices nearly on the bisector) may give items that do not move as one run:
// the boid is then deferred to the workgroup search (the same cell, to rounding).
fn vcell_cut(c: ptr<function, VCell>, d: vec2<f32>, owner: u32, work: ptr<function, u32>) {
    let d2 = topo_d2(d);
    if (d2 == 0.0 || !(d2 < 4.0 * (*c).r2 * REACH_MARGIN)) {
        return;
    }
    let h = 0.5 * d2;
    let n = (*c).n;
    let p = (*c).p;
    let nv = vec4<u32>(n);
    let l0 = VSLOT0 < nv;
    let l1 = VSLOT1 < nv;
    let l2 = VSLOT2 < nv;
    let f0 = vq_side(p.x0, p.y0, d, h);
    let f1 = vq_side(p.x1, p.y1, d, h);
    let f2 = vq_side(p.x2, p.y2, d, h);
    let zero = vec4<f32>(0.0);
    // No vertex outside: the same polygon, the same owners.
    if (!any((l0 & (f0 > zero)) | (l1 & (f1 > zero)) | (l2 & (f2 > zero)))) {
        return;
    }
    *work += 3u * n;
    // Each vertex's next along the polygon: slot k + 1, and slot 0 after slot n − 1.
    let pn = vpoly_next1(p);
    let lastv = vec4<u32>(n - 1u);
    let w0 = VSLOT0 == lastv;
    let w1 = VSLOT1 == lastv;
    let w2 = VSLOT2 == lastv;
    let fx = vec4<f32>(p.x0.x);
    let fy = vec4<f32>(p.y0.x);
    let ff = vec4<f32>(f0.x);
    let q0 = vq_cut(p.x0, p.y0, p.o0, f0, select(pn.x0, fx, w0), select(pn.y0, fy, w0),
                    select(vq_next_f(f0, f1), ff, w0), l0, owner);
    let q1 = vq_cut(p.x1, p.y1, p.o1, f1, select(pn.x1, fx, w1), select(pn.y1, fy, w1),
                    select(vq_next_f(f1, f2), ff, w1), l1, owner);
    let q2 = vq_cut(p.x2, p.y2, p.o2, f2, select(pn.x2, fx, w2), select(pn.y2, fy, w2),
                    select(vq_next_f(f2, f2), ff, w2), l2, owner);
    let t0 = vq_sum(q0.count);
    let t1 = vq_sum(q1.count);
    let t2 = vq_sum(q2.count);
    let m = t0 + t1 + t2;
    let leaves = vq_sum(vq_ones(q0.e2) + vq_ones(q1.e2) + vq_ones(q2.e2));
    if (m > VORONOI_PLAIN_EDGES || leaves > 1u) {
        (*c).full = true;
        return;
    }
    // Each item's place, and its move (place less slot).
    let pos0 = vq_exclusive(q0.count, 0u);
    let pos1 = vq_exclusive(q1.count, t0);
    let pos2 = vq_exclusive(q2.count, t0 + t1);
    let mv0 = vec4<i32>(pos0) - vec4<i32>(VSLOT0);
    let mv1 = vec4<i32>(pos1) - vec4<i32>(VSLOT1);
    let mv2 = vec4<i32>(pos2) - vec4<i32>(VSLOT2);
    // The last item's move; the slots from `first` on all move by it, those before by nothing.
    var mv = vq_last_i(0, mv0, q0.e1);
    mv = vq_last_i(mv, mv1, q1.e1);
    mv = vq_last_i(mv, mv2, q2.e1);
    let mvv = vec4<i32>(mv);
    let first = max(max(vq_max_u(select(vec4<u32>(0u), VSLOT0 + 1u, q0.e1 & (mv0 != mvv))),
                        vq_max_u(select(vec4<u32>(0u), VSLOT1 + 1u, q1.e1 & (mv1 != mvv)))),
                    vq_max_u(select(vec4<u32>(0u), VSLOT2 + 1u, q2.e1 & (mv2 != mvv))));
    // (No move exceeds one place up: only the one leaving crossing, leaves ≤ 1, adds a place.)
    let fv = vec4<u32>(first);
    let iz = vec4<i32>(0);
    if (any((q0.e1 & (VSLOT0 < fv) & (mv0 != iz)) | (q1.e1 & (VSLOT1 < fv) & (mv1 != iz)) |
            (q2.e1 & (VSLOT2 < fv) & (mv2 != iz)))) {
        (*c).full = true;
        return;
    }
    // Where the moved items start: the items (and the leaving crossing) of the slots before.
    let uz = vec4<u32>(0u);
    let split = vq_sum(select(uz, q0.count, VSLOT0 < fv) + select(uz, q1.count, VSLOT1 < fv) +
                       select(uz, q2.count, VSLOT2 < fv));
    // The crossing where the cell leaves the half-plane, after the vertex it leaves from.
    var lx = vq_last_f(0.0, q0.x2, q0.e2);
    lx = vq_last_f(lx, q1.x2, q1.e2);
    lx = vq_last_f(lx, q2.x2, q2.e2);
    var ly = vq_last_f(0.0, q0.y2, q0.e2);
    ly = vq_last_f(ly, q1.y2, q1.e2);
    ly = vq_last_f(ly, q2.y2, q2.e2);
    let at = vq_sum(select(uz, pos0 + 1u, q0.e2) + select(uz, pos1 + 1u, q1.e2) +
                    select(uz, pos2 + 1u, q2.e2));
    let items = VPoly(q0.p1x, q1.p1x, q2.p1x, q0.p1y, q1.p1y, q2.p1y, q0.o1, q1.o1, q2.o1);
    let moved = vpoly_pick(vpoly_shift_down(items, u32(max(-mv, 0))), vpoly_prev1(items),
                           mv == 1);
    let sv = vec4<u32>(split);
    var out = vpoly_pick_slots(moved, items, VSLOT0 < sv, VSLOT1 < sv, VSLOT2 < sv);
    let av = vec4<u32>(at);
    let has = vec4<bool>(leaves == 1u);
    let lxv = vec4<f32>(lx);
    let lyv = vec4<f32>(ly);
    let ov = vec4<u32>(owner);
    out = vpoly_pick_slots(out, VPoly(lxv, lxv, lxv, lyv, lyv, lyv, ov, ov, ov),
                           has & (VSLOT0 == av), has & (VSLOT1 == av), has & (VSLOT2 == av));
    (*c).p = out;
    (*c).n = m;
    vcell_bounds(c);
}

// The owners of the cell's edges, slot by slot.
fn vcell_owners(c: ptr<function, VCell>) -> array<u32, 12> {
    let p = (*c).p;
    return array<u32, 12>(p.o0.x, p.o0.y, p.o0.z, p.o0.w, p.o1.x, p.o1.y, p.o1.z, p.o1.w,
                          p.o2.x, p.o2.y, p.o2.z, p.o2.w);
}

// The sums over the cell's neighbours in the field of view (each once, in edge order: an owner
// also met at an earlier edge, a boid met at two of its images or an edge split by rounding, is
// skipped), and their ids recorded ascending when sorted item s is among those asked for;
// mirrors `voronoi_sums` and `record_voronoi_ids`.
fn vcell_sums(s: u32, p: vec2<f32>, c: ptr<function, VCell>) -> NeighborSums {
    var os = vcell_owners(c);
    var sums = empty_sums();
    let n = (*c).n;
    for (var i = 0u; i < n; i++) {
        let j = os[i];
        var repeat = false;
        for (var t = 0u; t < i; t++) {
            repeat = repeat || os[t] == j;
        }
        if (j == NO_OWNER || repeat) {
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
                let j = os[i];
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
