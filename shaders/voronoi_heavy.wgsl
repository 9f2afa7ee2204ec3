// `rules_heavy_voronoi`: a deferred boid of the Voronoi neighbourhood (docs/model.md §19.5) — its
// plain search would have passed VORONOI_BUDGET or its cell VORONOI_PLAIN_EDGES edges, or met
// vertices whose sides have signs no convex polygon has (rounding, for vertices nearly on a
// bisector) — searched by one workgroup. The cell lives in workgroup memory (at most VORONOI_HEAVY_EDGES edges). The
// candidates come in frames of rings doubling in width (as `rules_heavy_topological`), each frame
// row by row, HEAVY_GROUP candidates at a time across rows and ranges: each invocation tests
// whether its candidate may cut the cell as it stands, and the first invocation cuts by those
// that still may, in the candidates' order (`vh_cut_listed`). The frames give another order than
// the twin's ring by ring: the cell is the intersection of the same half-planes, the same to
// rounding. Then the obstacle sums
// as in `rules_heavy_topological`, and the first invocation sums the neighbours and integrates
// the boid. Part of rules_heavy.wgsl's stage (its bindings, `heavy_obstacle_sums`).

// Most edges of a deferred boid's cell: a cut past it leaves the cell as it stood. (A cell of so
// many edges needs 256 or more boids each sharing an edge with it: on a circle around it, none
// inside.)
const VORONOI_HEAVY_EDGES: u32 = 256u;

// The cell: vertices counter-clockwise at hv[vh_base .. vh_base + vh_n] (vh_base 0 or
// VORONOI_HEAVY_EDGES: a cut writes the other half), the owner of the edge leaving each at the same
// index; its largest squared distance of a vertex.
var<workgroup> hv: array<vec2<f32>, 512>;
var<workgroup> ho: array<u32, 512>;
var<workgroup> vh_base: u32;
var<workgroup> vh_n: u32;
var<workgroup> vh_r2: f32;
// The first invocation whose candidate may still cut the cell, and that candidate (its sorted
// index and offset's bits).
var<workgroup> vh_first: atomic<u32>;
var<workgroup> vh_pick: vec3<u32>;
// The inclusive prefix sum of the lengths of a frame's rows (HEAVY_GROUP rows at a time).
var<workgroup> vh_rowoff: array<u32, 256>;
var<workgroup> vh_word: u32;
var<workgroup> vh_range: vec2<u32>;

// Whether the candidate at offset d may cut the cell as it stands (every invocation reads it).
fn vh_may_cut(d: vec2<f32>) -> bool {
    let d2 = topo_d2(d);
    if (d2 == 0.0 || !(d2 < 4.0 * vh_r2 * REACH_MARGIN)) {
        return false;
    }
    let h = 0.5 * d2;
    var out = false;
    for (var i = 0u; i < vh_n; i++) {
        out = out || voronoi_side(hv[vh_base + i], d, h) > 0.0;
    }
    return out;
}

// Cuts the cell by the bisector of `owner` at offset d (the first invocation only); mirrors
// `vcell_cut`. A cut that would pass VORONOI_HEAVY_EDGES leaves the cell unchanged.
fn vh_cut(d: vec2<f32>, owner: u32) {
    let d2 = topo_d2(d);
    if (d2 == 0.0 || !(d2 < 4.0 * vh_r2 * REACH_MARGIN)) {
        return;
    }
    let h = 0.5 * d2;
    let n = vh_n;
    let b = vh_base;
    var out = false;
    for (var i = 0u; i < n; i++) {
        out = out || voronoi_side(hv[b + i], d, h) > 0.0;
    }
    if (!out) {
        return;
    }
    let nb = VORONOI_HEAVY_EDGES - b;
    var m = 0u;
    var fa = voronoi_side(hv[b], d, h);
    for (var i = 0u; i < n; i++) {
        let ib = select(i + 1u, 0u, i + 1u == n);
        let va = hv[b + i];
        let vb = hv[b + ib];
        let fb = voronoi_side(vb, d, h);
        if (fa == 0.0 && fb > 0.0) {
            // Leaves at va itself: the new edge starts there.
            if (m < VORONOI_HEAVY_EDGES) {
                hv[nb + m] = va;
                ho[nb + m] = owner;
            }
            m += 1u;
        } else if (fa <= 0.0) {
            if (m < VORONOI_HEAVY_EDGES) {
                hv[nb + m] = va;
                ho[nb + m] = ho[b + i];
            }
            m += 1u;
            if (fb > 0.0) {
                if (m < VORONOI_HEAVY_EDGES) {
                    hv[nb + m] = voronoi_crossing(va, vb, fa, fb);
                    ho[nb + m] = owner;
                }
                m += 1u;
            }
        } else if (fb < 0.0) {
            if (m < VORONOI_HEAVY_EDGES) {
                hv[nb + m] = voronoi_crossing(va, vb, fa, fb);
                ho[nb + m] = ho[b + i];
            }
            m += 1u;
        }
        fa = fb;
    }
    if (m > VORONOI_HEAVY_EDGES) {
        return;
    }
    vh_base = nb;
    vh_n = m;
    var r2 = 0.0;
    for (var i = 0u; i < m; i++) {
        r2 = max(r2, topo_d2(hv[nb + i]));
    }
    vh_r2 = r2;
}

// `v` through workgroup memory, so that the uniformity analysis knows it is uniform (every
// invocation must call it; the first one's value is taken).
fn vh_uniform_range(lid: u32, v: vec2<u32>) -> vec2<u32> {
    workgroupBarrier();
    if (lid == 0u) {
        vh_range = v;
    }
    return workgroupUniformLoad(&vh_range);
}

fn vh_uniform_word(lid: u32, v: u32) -> u32 {
    workgroupBarrier();
    if (lid == 0u) {
        vh_word = v;
    }
    return workgroupUniformLoad(&vh_word);
}

// Every invocation holds a candidate (sorted item j, at offset d: its minimum image plus the
// image shift) and whether it may cut the cell as it stood when tested. Round by round, the first
// invocation whose candidate still may hands it to the first invocation, which cuts by it, and
// the invocations after it test theirs again against the cell as it now stands (those before it
// are done). So the cuts are those of a sequential search in the candidates' order, each
// candidate tested against the cell the earlier ones left, and the rounds are the candidates that
// still may cut when their turn comes, not all that might have at the start. Every invocation
// must call it.
fn vh_cut_listed(lid: u32, may_at_start: bool, j: u32, d: vec2<f32>) {
    var may = may_at_start;
    loop {
        workgroupBarrier();
        if (lid == 0u) {
            atomicStore(&vh_first, HEAVY_GROUP);
        }
        workgroupBarrier();
        if (may) {
            atomicMin(&vh_first, lid);
        }
        workgroupBarrier();
        if (lid == 0u) {
            vh_word = atomicLoad(&vh_first);
        }
        let first = workgroupUniformLoad(&vh_word);
        if (first >= HEAVY_GROUP) {
            break;
        }
        if (lid == first) {
            vh_pick = vec3<u32>(j, bitcast<u32>(d.x), bitcast<u32>(d.y));
        }
        workgroupBarrier();
        if (lid == 0u) {
            vh_cut(vec2<f32>(bitcast<f32>(vh_pick.y), bitcast<f32>(vh_pick.z)), vh_pick.x);
        }
        workgroupBarrier();
        may = may && lid > first && vh_may_cut(d);
    }
}

// Offers the candidates rg (sorted items, each at its minimum image plus `shift`), HEAVY_GROUP at
// a time, skipping s. Every invocation must call it with the same values.
fn vh_offer(lid: u32, s: u32, p: vec2<f32>, rg: vec2<u32>, shift: vec2<f32>, live: bool) {
    for (var base = rg.x; base < rg.y; base += HEAVY_GROUP) {
        let j = base + lid;
        var may = false;
        var d = vec2<f32>(0.0);
        if (live && j < rg.y && j != s) {
            d = min_image(sorted_pos_vel[j].xy - p) + shift;
            may = vh_may_cut(d);
        }
        vh_cut_listed(lid, may, j, d);
    }
}

// Offers the candidates of rows t0 .. t0 + nrows (nrows ≤ HEAVY_GROUP) of frame f, in the
// search's order (row by row, each row's ranges in order), HEAVY_GROUP at a time whatever the
// rows' lengths: each invocation's row length, their inclusive prefix sum, and each candidate's
// row found by bisection. Every invocation must call it with the same values.
fn vh_offer_rows(lid: u32, s: u32, p: vec2<f32>, f: Frame, t0: u32, nrows: u32, live: bool) {
    var len = 0u;
    if (lid < nrows) {
        let fr = frame_row(f, t0 + lid);
        for (var u = 0u; u < 4u; u++) {
            let rg = frame_row_range(u, fr);
            len += rg.y - rg.x;
        }
    }
    workgroupBarrier();
    vh_rowoff[lid] = len;
    for (var off = 1u; off < HEAVY_GROUP; off <<= 1u) {
        workgroupBarrier();
        let add = select(0u, vh_rowoff[max(lid, off) - off], lid >= off);
        workgroupBarrier();
        vh_rowoff[lid] += add;
    }
    workgroupBarrier();
    let total = vh_uniform_word(lid, vh_rowoff[HEAVY_GROUP - 1u]);
    for (var base = 0u; base < total; base += HEAVY_GROUP) {
        let x = base + lid;
        var may = false;
        var j = 0u;
        var d = vec2<f32>(0.0);
        if (live && x < total) {
            // The first row whose prefix sum passes x.
            var lo = 0u;
            var hi = nrows - 1u;
            while (lo < hi) {
                let mid = (lo + hi) / 2u;
                if (vh_rowoff[mid] > x) {
                    hi = mid;
                } else {
                    lo = mid + 1u;
                }
            }
            var k = x - select(0u, vh_rowoff[max(lo, 1u) - 1u], lo > 0u);
            let fr = frame_row(f, t0 + lo);
            var found = false;
            for (var u = 0u; u < 4u; u++) {
                let rg = frame_row_range(u, fr);
                let l = rg.y - rg.x;
                if (!found && k < l) {
                    j = rg.x + k;
                    found = true;
                } else if (!found) {
                    k -= l;
                }
            }
            if (found && j != s) {
                d = min_image(sorted_pos_vel[j].xy - p);
                may = vh_may_cut(d);
            }
        }
        vh_cut_listed(lid, may, j, d);
    }
}

@compute @workgroup_size(256)
fn rules_heavy_voronoi(@builtin(workgroup_id) wid: vec3<u32>,
                       @builtin(num_workgroups) nwg: vec3<u32>,
                       @builtin(local_invocation_index) lid: u32) {
    // The other neighbourhoods' boids are the other entry points' (a constant of the pipeline).
    if (!VORONOI) {
        return;
    }
    let g = workgroup_linear(wid, nwg);
    // No early return past here: the barriers below need every invocation.
    let live = g < deferred[DEFER_COUNT + 1u];
    let s = select(0u, deferred[min(DEFER_LIST + g, arrayLength(&deferred) - 1u)], live);
    enter_rules(replica_of_boid(s));
    let me = sorted_pos_vel[s];
    view_heading = me.zw;
    let p = me.xy;
    let cc = cell_xy(p);
    if (lid == 0u) {
        let r = voronoi_rectangle(p);
        vh_base = 0u;
        vh_n = 4u;
        hv[0] = r.xy;
        hv[1] = vec2<f32>(r.z, r.y);
        hv[2] = r.zw;
        hv[3] = vec2<f32>(r.x, r.w);
        for (var i = 0u; i < 4u; i++) {
            ho[i] = NO_OWNER;
        }
        var r2 = 0.0;
        for (var i = 0u; i < 4u; i++) {
            r2 = max(r2, topo_d2(hv[i]));
        }
        vh_r2 = r2;
    }
    let images2 = voronoi_images_bound2();
    var inner = 0u;
    var r = 0u;
    loop {
        let f = frame_of(cc, inner, r);
        let rows = vh_uniform_word(lid, select(0u, frame_rows(f), live));
        for (var t0 = 0u; t0 < rows; t0 += HEAVY_GROUP) {
            vh_offer_rows(lid, s, p, f, t0, min(HEAVY_GROUP, rows - t0), live);
        }
        workgroupBarrier();
        let b2 = block_bound2(p, cc, r);
        let done = !live || b2 == F32_MAX || vcell_certain(vh_r2, min(b2, images2));
        if (vh_uniform_word(lid, select(0u, 1u, done)) != 0u) {
            break;
        }
        // Frames of rings doubling in width, as `rules_heavy_topological` (a boid hundreds of
        // cells from any other takes a few frames, not hundreds).
        inner = r + 1u;
        r = 2u * r + 1u;
    }
    workgroupBarrier();
    let images = live && !vcell_certain(vh_r2, images2);
    if (vh_uniform_word(lid, select(0u, 1u, images)) != 0u) {
        let all = vh_uniform_range(lid, cell_items(params.cell_base,
            params.cell_base + params.grid_cols * params.grid_rows - 1u));
        let wh = vec2<f32>(params.world_width, params.world_height);
        // Image by image, every item's, as the twin offers them.
        for (var a = 0u; a < 8u; a++) {
            vh_offer(lid, s, p, all, other_image(a) * wh, live);
        }
    }

    // Obstacle points, as in `rules_heavy_topological`.
    let o = heavy_obstacle_sums(lid, p, live);

    if (lid == 0u && live) {
        var sums = empty_sums();
        let n = vh_n;
        let b = vh_base;
        for (var i = 0u; i < n; i++) {
            let j = ho[b + i];
            var repeat = false;
            // An owner of two edges: a boid met at two of its images, or an edge split by
            // rounding (checked up to 64 edges; past them only after the images).
            for (var t = 0u; t < i && (images || n <= 64u); t++) {
                repeat = repeat || ho[b + t] == j;
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
            var last = 0u;
            var first = true;
            for (var t = 0u; t < VORONOI_EDGES_MAX; t++) {
                var best = NO_OWNER;
                for (var i = 0u; i < n; i++) {
                    let j = ho[b + i];
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
        finish_boid(s, me, sorted_hue[s], sums, o, caught_by_predator(p));
    }
}
