// Stage `rules`: one invocation per boid, i.e. per real sorted item (the first N; the ghosts after
// them are candidates only): gathers the neighbour sums over the block rows around it — each row at
// most three contiguous ranges of sorted items (padding, real cells, padding), with one vertical
// shift for the whole row — then the obstacle sums, and writes the boid's next position, velocity
// and hue at the same index of the state (ping-pong: state → sorted → state, the state in the
// sort's order); its id and image counts stay in `sorted_id`, which becomes the state's `id` after
// the step (src/stages/mod.rs, `SWAPPED`; finish_boid). Mirrors
// `rules` in src/stages/twins/rules.rs. Predators (moved by the `predators` stage) push every boid
// and catch some (finish_boid). In the topological neighbourhood the neighbours are the k nearest
// whatever the distance (topological.wgsl); in the Voronoi one those whose Voronoi cells share an
// edge with its own (voronoi.wgsl). A boid with more candidates or nearby obstacle points
// than one invocation may loop over is deferred to `rules_heavy`.

@group(0) @binding(0) var<uniform> replicas: array<Params, MAX_REPLICAS>;
@group(0) @binding(1) var<storage, read> sorted_pos_vel: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> sorted_hue: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read_write> sorted_id: array<u32>;
@group(0) @binding(4) var<storage, read> cells: array<u32>;
@group(0) @binding(5) var<storage, read_write> pos_vel: array<vec4<f32>>;
@group(0) @binding(6) var<storage, read_write> neighbors: array<u32>;
@group(0) @binding(7) var<storage, read_write> deferred: array<atomic<u32>>;
// The model's own uniforms of each replica (its `ModelUniforms`, declared in its rule's file).
@group(0) @binding(8) var<uniform> replica_models: array<ModelSlot, MAX_REPLICAS>;
// Each boid's cell words for the next step's `count` (finish_boid, gather.wgsl).
@group(0) @binding(9) var<storage, read_write> rank: array<u32>;

// Most candidates one invocation visits (with a neighbour cap, whose insertions cost up to
// MAX_NEIGHBORS_CAP iterations each, fewer), and most nearby obstacle points.
const RULES_BUDGET: u32 = 16384u;
const RULES_BUDGET_CAPPED: u32 = 2048u;
const OBSTACLE_BUDGET: u32 = 8192u;

@compute @workgroup_size(256)
fn rules(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
         @builtin(local_invocation_index) lid: u32) {
    let at = workgroup_linear(wid, nwg) * WORKGROUP_SIZE + lid;
    let live = at < replicas[0].total_boids;
    // SHARED is a constant of the pipeline (the device's gather, gather_shared.wgsl): every
    // invocation of a subgroup takes part in the shared gather, so one past the last boid
    // gathers as the last boid (with empty ranges) and writes nothing; `done` marks it, and a
    // boid deferred for its obstacles.
    if (!live && !SHARED) {
        return;
    }
    let s = select(max(replicas[0].total_boids, 1u) - 1u, at, live);
    var done = !live;
    enter_rules(replica_of_boid(s));
    let me = sorted_pos_vel[s];
    view_heading = me.zw;
    // A boid a hunting predator catches is counted here, whether it finishes here or in
    // `rules_heavy` (whose dispatch reads `deferred`, which holds the counters, as its arguments).
    let caught = live && caught_by_predator(me.xy);
    if (caught) {
        atomicAdd(&deferred[DEFER_CATCHES + 2u * params.replica], 1u);
        atomicAdd(&deferred[DEFER_CATCHES + 2u * params.replica + 1u], 1u);
    }
    var ob = empty_obstacle_sums();
    // OBSTACLES is a constant of the pipeline: without obstacle points, their block (and its
    // array) is compiled out.
    if (OBSTACLES && params.obstacle_count > 0u && live) {
        let blk = obstacle_block(me.xy);
        if (obstacle_points_in(blk) > OBSTACLE_BUDGET) {
            defer_item(1u, s);
            if (!SHARED) {
                return;
            }
            done = true;
        } else {
            ob = obstacle_sums(me.xy, blk);
        }
    }
    var g: Gathered;
    // TOPOLOGICAL and VORONOI are constants of the pipeline (one per neighbourhood): the other
    // searches are compiled out.
    if (VORONOI) {
        g = gather_voronoi(s, me.xy);
    } else if (TOPOLOGICAL) {
        if (TOPO_SMALL) {
            g = gather_topological_small(s, me.xy);
        } else {
            g = gather_topological(s, me.xy);
        }
    } else if (SHARED && !CAPPED) {
        g = gather_shared(s, me.xy, RULES_BUDGET, !done);
    } else {
        let budget = select(RULES_BUDGET, RULES_BUDGET_CAPPED, params.max_neighbors > 0u);
        g = gather(s, me.xy, budget);
    }
    if (done) {
        return;
    }
    if (!g.ok) {
        defer_item(1u, s);
        return;
    }
    finish_boid(s, me, sorted_hue[s], g.sums, ob, caught);
}
