// Stage `rules_heavy`: the boids `rules` deferred (more candidates or nearby obstacle points than
// one invocation may loop over), one workgroup of HEAVY_GROUP invocations each. Invocation `lid`
// takes every HEAVY_GROUP-th candidate and obstacle point; the partial sums are added in workgroup
// memory in a fixed order (so the result is the same on every run), and the first invocation
// integrates the boid. With a neighbour cap the k nearest are chosen in k rounds, each a
// workgroup-wide minimum of the candidates beyond the last one chosen (by distance, then id).
// Together with `rules` it computes what the CPU twin `rules` computes (the sums in another order).
// The topological neighbourhood's deferred boids are searched by the entry point
// `rules_heavy_topological` below, the Voronoi one's by `rules_heavy_voronoi`
// (voronoi_heavy.wgsl; the same indirect dispatch; each entry point leaves the other
// neighbourhoods' boids alone).

@group(0) @binding(0) var<uniform> replicas: array<Params, MAX_REPLICAS>;
@group(0) @binding(1) var<storage, read> sorted_pos_vel: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> sorted_hue: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read_write> sorted_id: array<u32>;
@group(0) @binding(4) var<storage, read> cells: array<u32>;
@group(0) @binding(5) var<storage, read_write> pos_vel: array<vec4<f32>>;
@group(0) @binding(6) var<storage, read_write> neighbors: array<u32>;
@group(0) @binding(7) var<storage, read> deferred: array<u32>;
// The model's own uniforms of each replica (its `ModelUniforms`, declared in its rule's file).
@group(0) @binding(8) var<uniform> replica_models: array<ModelSlot, MAX_REPLICAS>;
// Each boid's cell words for the next step's `count` (finish_boid, gather.wgsl).
@group(0) @binding(9) var<storage, read_write> rank: array<u32>;

const HEAVY_GROUP: u32 = 256u;

// One invocation's partial sums: the neighbour sums, and the obstacle sums with the visiting index
// of the nearest bouncing point (ties go to the earliest, as in a sequential loop).
struct Partial {
    sums: NeighborSums,
    push: vec2<f32>,
    bounce_normal: vec2<f32>,
    bounce_d2: f32,
    bounce_t: u32,
}

// A candidate chosen for the neighbour cap: (d², id) orders them; j is its sorted index.
struct Pick {
    d2: f32,
    id: u32,
    j: u32,
    d: vec2<f32>,
}

var<workgroup> partials: array<Partial, 128>;
var<workgroup> picks: array<Pick, 128>;
var<workgroup> chosen: array<Pick, 16>;

fn add_partial(a: Partial, b: Partial) -> Partial {
    var r = a;
    r.sums.separation += b.sums.separation;
    r.sums.alignment += b.sums.alignment;
    r.sums.alignment_n += b.sums.alignment_n;
    r.sums.cohesion += b.sums.cohesion;
    r.sums.cohesion_n += b.sums.cohesion_n;
    r.sums.hue += b.sums.hue;
    r.sums.hue_velocity += b.sums.hue_velocity;
    r.sums.hue_n += b.sums.hue_n;
    r.sums.neighbors += b.sums.neighbors;
    r.push += b.push;
    if (b.bounce_d2 < a.bounce_d2 || (b.bounce_d2 == a.bounce_d2 && b.bounce_t < a.bounce_t)) {
        r.bounce_normal = b.bounce_normal;
        r.bounce_d2 = b.bounce_d2;
        r.bounce_t = b.bounce_t;
    }
    return r;
}

fn pick_less(a: Pick, b: Pick) -> bool {
    return a.d2 < b.d2 || (a.d2 == b.d2 && a.id < b.id);
}

const NO_PICK_D2: f32 = 3.4e38;

// The first index ≥ start of the residue class lid (mod HEAVY_GROUP), counted from `base`.
fn first_of(lid: u32, start: u32) -> u32 {
    return start + (lid + HEAVY_GROUP - start % HEAVY_GROUP) % HEAVY_GROUP;
}

// The rounds of a heavy boid: the neighbour cap's (`rules_heavy`), the k nearest
// (`rules_heavy_topological`).
var<workgroup> heavy_rounds: u32;

// `rounds` (the same in every invocation) through workgroup memory, so that a WGSL compiler's
// uniformity analysis knows it is uniform (loops of barriers run that many rounds; a value from
// the private `params` is not uniform to it). Every invocation of the workgroup must call it.
fn uniform_rounds(lid: u32, rounds: u32) -> u32 {
    if (lid == 0u) {
        heavy_rounds = rounds;
    }
    return workgroupUniformLoad(&heavy_rounds);
}

@compute @workgroup_size(256)
fn rules_heavy(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
               @builtin(local_invocation_index) lid: u32) {
    // The topological and Voronoi neighbourhoods' boids are `rules_heavy_topological`'s and
    // `rules_heavy_voronoi`'s (constants of the pipeline: every invocation returns).
    if (TOPOLOGICAL || VORONOI) {
        return;
    }
    let g = workgroup_linear(wid, nwg);
    // No early return: the barriers below need every invocation (uniform control flow);
    // workgroups past the deferred boids visit nothing and write nothing.
    let live = g < deferred[DEFER_COUNT + 1u];
    let s = select(0u, deferred[min(DEFER_LIST + g, arrayLength(&deferred) - 1u)], live);
    enter_rules(replica_of_boid(s));
    let me = sorted_pos_vel[s];
    view_heading = me.zw;
    let p = me.xy;
    let c = cell_xy(p);
    let by = i32(params.block_y);
    let capped = CAPPED && params.max_neighbors > 0u;

    var part: Partial;
    part.sums = empty_sums();

    // Candidates: every row of the block, this invocation's residue class of the flat index. (A
    // local of its own, not `&part.sums`: naga's SPIR-V writer fails on a pointer to a member.)
    var sums = empty_sums();
    if (live && !capped) {
        var base = 0u;
        for (var dy = -by; dy <= by; dy++) {
            let rr = block_row(c, dy, p);
            if (!rr.valid) {
                continue;
            }
            for (var u = 0u; u < 3u; u++) {
                let len = range_of(rr, u).y - range_of(rr, u).x;
                for (var t = first_of(lid, base); t < base + len; t += HEAVY_GROUP) {
                    let j = range_of(rr, u).x + (t - base);
                    if (j != s) {
                        add_candidate(&sums, j, sorted_pos_vel[j].xy - rr.q);
                    }
                }
                base += len;
            }
        }
    }
    part.sums = sums;
    // Obstacle points, likewise (OBSTACLES: a constant of the pipeline).
    let ob = obstacle_partial(lid, p, live && OBSTACLES);
    part.push = ob.push;
    part.bounce_normal = ob.bounce_normal;
    part.bounce_d2 = ob.bounce_d2;
    part.bounce_t = ob.bounce_t;
    // Sum the partials: 256 → 128 in pairs (lid, lid + 128), then a tree.
    if (lid >= 128u) {
        partials[lid - 128u] = part;
    }
    workgroupBarrier();
    if (lid < 128u) {
        partials[lid] = add_partial(part, partials[lid]);
    }
    for (var stride = 64u; stride > 0u; stride >>= 1u) {
        workgroupBarrier();
        if (lid < stride) {
            partials[lid] = add_partial(partials[lid], partials[lid + stride]);
        }
    }
    workgroupBarrier();

    // With a cap: k rounds, each choosing the nearest candidate beyond the last one chosen.
    let rounds =
        uniform_rounds(lid, select(0u, min(params.max_neighbors, MAX_NEIGHBORS_CAP), capped));
    var last = Pick(-1.0, 0u, 0u, vec2<f32>(0.0));
    for (var round = 0u; round < rounds; round++) {
        var best = Pick(NO_PICK_D2, 0xffffffffu, 0u, vec2<f32>(0.0));
        if (live) {
            var base = 0u;
            for (var dy = -by; dy <= by; dy++) {
                let rr = block_row(c, dy, p);
                if (!rr.valid) {
                    continue;
                }
                for (var u = 0u; u < 3u; u++) {
                    let len = range_of(rr, u).y - range_of(rr, u).x;
                    for (var t = first_of(lid, base); t < base + len; t += HEAVY_GROUP) {
                        let j = range_of(rr, u).x + (t - base);
                        let d = sorted_pos_vel[j].xy - rr.q;
                        let cand = Pick(dot(d, d), sorted_id[j], j, d);
                        if (j != s && cand.d2 < params.perception_r2 && in_view(d)
                            && pick_less(last, cand) && pick_less(cand, best)) {
                            best = cand;
                        }
                    }
                    base += len;
                }
            }
        }
        // The minimum: 256 → 128 in pairs (lid, lid + 128), then a tree.
        if (lid >= 128u) {
            picks[lid - 128u] = best;
        }
        workgroupBarrier();
        if (lid < 128u && !pick_less(picks[lid], best)) {
            picks[lid] = best;
        }
        for (var stride = 64u; stride > 0u; stride >>= 1u) {
            workgroupBarrier();
            if (lid < stride && pick_less(picks[lid + stride], picks[lid])) {
                picks[lid] = picks[lid + stride];
            }
        }
        workgroupBarrier();
        last = picks[0];
        if (lid == 0u) {
            chosen[round] = last;
        }
        workgroupBarrier();
    }

    if (lid == 0u && live) {
        sums = partials[0].sums;
        if (capped) {
            sums = empty_sums();
            for (var k = 0u; k < rounds; k++) {
                let pk = chosen[k];
                if (pk.d2 < NO_PICK_D2) {
                    accumulate(&sums, pk.d, sorted_pos_vel[pk.j].zw, sorted_hue[pk.j]);
                }
            }
        }
        let ob = ObstacleSums(partials[0].push, partials[0].bounce_normal, partials[0].bounce_d2);
        finish_boid(s, me, sorted_hue[s], sums, ob, caught_by_predator(p));
    }
}

// ---------------------------------------------------------------------------------------------
// `rules_heavy_topological`: a deferred boid of the topological neighbourhood (docs/model.md §19.2)
// — one whose search passed the plain `rules` budget (a sparse region of many empty rings, or a
// crowded one) — searched by one workgroup. The search widens by frames of rings, the first the
// boid's own cell and each next one as many rings again as were searched (rings 0, 1, 2–3, 4–7,
// …), so a boid alone in a grid of C cells takes O(log C) frames, and each frame's rows are shared
// out: invocation `lid` takes rows lid, lid + 256, …, and the ranges of items longer than
// TOPO_SHARED, found in any row, are shared out item by item. Each invocation keeps the k nearest
// of what it saw in a max-heap (O(log k) per candidate, written without a loop, so an invocation's
// loop iterations follow its share of the candidates alone); after each frame the workgroup counts
// the candidates nearer than the frame's bound, and stops once k are (or the frame covers the
// grid). The k nearest are then merged in k rounds of a workgroup-wide minimum, nearest first.

const TOPO_SHARED: u32 = 64u;

// A range of items to share out (at most 4 per row, 256 rows at a time).
var<workgroup> topo_shared: array<vec2<u32>, 1024>;
var<workgroup> topo_shared_n: atomic<u32>;
var<workgroup> topo_count: atomic<u32>;
// A value lid 0 makes the whole workgroup's (read through workgroupUniformLoad).
var<workgroup> topo_word: u32;

struct TopoPick {
    d2: f32,
    id: u32,
    j: u32,
    lane: u32,
}

var<workgroup> topo_picks: array<TopoPick, 128>;
var<workgroup> topo_chosen: array<TopoPick, 64>;

// One invocation's obstacle sums, with the visiting index of its nearest bouncing point.
struct ObsPartial {
    push: vec2<f32>,
    bounce_normal: vec2<f32>,
    bounce_d2: f32,
    bounce_t: u32,
}

var<workgroup> topo_obs: array<ObsPartial, 128>;

fn add_obs(a: ObsPartial, b: ObsPartial) -> ObsPartial {
    var r = a;
    r.push += b.push;
    if (b.bounce_d2 < a.bounce_d2 || (b.bounce_d2 == a.bounce_d2 && b.bounce_t < a.bounce_t)) {
        r.bounce_normal = b.bounce_normal;
        r.bounce_d2 = b.bounce_d2;
        r.bounce_t = b.bounce_t;
    }
    return r;
}

fn pick_before(a: TopoPick, b: TopoPick) -> bool {
    return topo_less(a.d2, a.id, b.d2, b.id);
}

// This invocation's partial obstacle sums of a deferred boid at p (none when not `live`): its
// residue class of the obstacle points near p, the nearest bounce point's index kept. Shared by
// `rules_heavy` (added in the same tree as its neighbour sums) and `heavy_obstacle_sums`.
fn obstacle_partial(lid: u32, p: vec2<f32>, live: bool) -> ObsPartial {
    var ob: ObsPartial;
    ob.push = vec2<f32>(0.0);
    ob.bounce_normal = vec2<f32>(0.0);
    ob.bounce_d2 = params.obstacle_bounce_radius * params.obstacle_bounce_radius;
    ob.bounce_t = 0xffffffffu;
    let blk = obstacle_block(p);
    if (live) {
        let og = obstacle_grid_at();
        var base = 0u;
        for (var q = 0u; q < blk.n; q++) {
            let a = obstacle_start(og, blk.cells[q]);
            let len = obstacle_start(og, blk.cells[q] + 1u) - a;
            for (var t = first_of(lid, base); t < base + len; t += HEAVY_GROUP) {
                var o = ObstacleSums(ob.push, ob.bounce_normal, ob.bounce_d2);
                let before = o.bounce_d2;
                obstacle_add(&o, p, obstacle_point(obstacle_points_at(og), a + (t - base)));
                ob.push = o.push;
                if (o.bounce_d2 < before) {
                    ob.bounce_normal = o.bounce_normal;
                    ob.bounce_d2 = o.bounce_d2;
                    ob.bounce_t = t;
                }
            }
            base += len;
        }
    }
    return ob;
}

// The obstacle sums of a deferred boid at p: each invocation sums its residue class of the nearby
// obstacle points (as in `rules_heavy`), and their partials are added in workgroup memory in a
// fixed order. Every invocation must call it (it holds barriers); its result is the same in all.
// Shared by `rules_heavy_topological` and `rules_heavy_voronoi`.
fn heavy_obstacle_sums(lid: u32, p: vec2<f32>, live: bool) -> ObstacleSums {
    let ob = obstacle_partial(lid, p, live);
    workgroupBarrier();
    if (lid >= 128u) {
        topo_obs[lid - 128u] = ob;
    }
    workgroupBarrier();
    if (lid < 128u) {
        topo_obs[lid] = add_obs(ob, topo_obs[lid]);
    }
    for (var stride = 64u; stride > 0u; stride >>= 1u) {
        workgroupBarrier();
        if (lid < stride) {
            topo_obs[lid] = add_obs(topo_obs[lid], topo_obs[lid + stride]);
        }
    }
    workgroupBarrier();
    let o = topo_obs[0];
    return ObstacleSums(o.push, o.bounce_normal, o.bounce_d2);
}

@compute @workgroup_size(256)
fn rules_heavy_topological(@builtin(workgroup_id) wid: vec3<u32>,
                           @builtin(num_workgroups) nwg: vec3<u32>,
                           @builtin(local_invocation_index) lid: u32) {
    // The metric neighbourhood's boids are `rules_heavy`'s (a constant of the pipeline).
    if (!TOPOLOGICAL) {
        return;
    }
    let g = workgroup_linear(wid, nwg);
    // No early return past here: the barriers below need every invocation (uniform control
    // flow); workgroups past the deferred boids search nothing and write nothing.
    let live = g < deferred[DEFER_COUNT + 1u];
    let s = select(0u, deferred[min(DEFER_LIST + g, arrayLength(&deferred) - 1u)], live);
    enter_rules(replica_of_boid(s));
    let me = sorted_pos_vel[s];
    view_heading = me.zw;
    let p = me.xy;
    let c = cell_xy(p);
    let k = uniform_rounds(lid, min(params.topological_k, TOPOLOGICAL_K_MAX));
    var heap: TopoHeap;
    heap.len = 0u;
    heap.k = k;
    if (lid == 0u) {
        atomicStore(&topo_shared_n, 0u);
        atomicStore(&topo_count, 0u);
    }
    var inner = 0u;
    var outer = 0u;
    loop {
        workgroupBarrier();
        let f = frame_of(c, inner, outer);
        if (lid == 0u) {
            topo_word = select(0u, frame_rows(f), live);
        }
        let rows = workgroupUniformLoad(&topo_word);
        for (var base = 0u; base < rows; base += HEAVY_GROUP) {
            let t = base + lid;
            if (t < rows) {
                let fr = frame_row(f, t);
                for (var u = 0u; u < 4u; u++) {
                    let rg = frame_row_range(u, fr);
                    if (rg.y - rg.x > TOPO_SHARED) {
                        topo_shared[atomicAdd(&topo_shared_n, 1u)] = rg;
                    } else {
                        for (var j = rg.x; j < rg.y; j++) {
                            heap_offer(&heap, j, s, p);
                        }
                    }
                }
            }
            workgroupBarrier();
            if (lid == 0u) {
                topo_word = atomicLoad(&topo_shared_n);
            }
            let shared_n = workgroupUniformLoad(&topo_word);
            for (var b = 0u; b < shared_n; b++) {
                let rg = topo_shared[b];
                for (var j = rg.x + lid; j < rg.y; j += HEAVY_GROUP) {
                    heap_offer(&heap, j, s, p);
                }
            }
            workgroupBarrier();
            if (lid == 0u) {
                atomicStore(&topo_shared_n, 0u);
            }
            workgroupBarrier();
        }
        // Certain once k candidates are nearer than every boid outside the frame.
        let b2 = block_bound2(p, c, outer);
        var below = 0u;
        for (var t = 0u; t < heap.len; t++) {
            below += select(0u, 1u, heap.items[t].d2 < b2);
        }
        atomicAdd(&topo_count, below);
        workgroupBarrier();
        if (lid == 0u) {
            topo_word = select(0u, 1u, !live || b2 == F32_MAX || atomicLoad(&topo_count) >= k);
            atomicStore(&topo_count, 0u);
        }
        if (workgroupUniformLoad(&topo_word) != 0u) {
            break;
        }
        inner = outer + 1u;
        outer = 2u * outer + 1u;
    }

    // The k nearest of the workgroup, nearest first: k rounds of the smallest head.
    heap_sort(&heap);
    var head = 0u;
    for (var round = 0u; round < k; round++) {
        var mine = TopoPick(F32_MAX, 0xffffffffu, 0u, lid);
        if (head < heap.len) {
            let it = heap.items[head];
            mine = TopoPick(it.d2, it.id, it.j, lid);
        }
        workgroupBarrier();
        if (lid >= 128u) {
            topo_picks[lid - 128u] = mine;
        }
        workgroupBarrier();
        if (lid < 128u && !pick_before(topo_picks[lid], mine)) {
            topo_picks[lid] = mine;
        }
        for (var stride = 64u; stride > 0u; stride >>= 1u) {
            workgroupBarrier();
            if (lid < stride && pick_before(topo_picks[lid + stride], topo_picks[lid])) {
                topo_picks[lid] = topo_picks[lid + stride];
            }
        }
        workgroupBarrier();
        let best = topo_picks[0];
        if (best.d2 < F32_MAX && best.lane == lid) {
            head += 1u;
        }
        if (lid == 0u) {
            topo_chosen[round] = best;
        }
    }

    // Obstacle points: this invocation's residue class, as in `rules_heavy`.
    let o = heavy_obstacle_sums(lid, p, live);

    if (lid == 0u && live) {
        var sums = empty_sums();
        let record = s < params.record_neighbors;
        for (var t = 0u; t < k; t++) {
            let pk = topo_chosen[t];
            var id_t = 0xffffffffu;
            if (pk.d2 < F32_MAX) {
                accumulate(&sums, topo_offset(pk.j, p), sorted_pos_vel[pk.j].zw,
                           sorted_hue[pk.j]);
                id_t = pk.id;
            }
            if (record) {
                neighbors[neighbor_id_word(s, k, t)] = id_t;
            }
        }
        finish_boid(s, me, sorted_hue[s], sums, o, caught_by_predator(p));
    }
}
