// Shared by every stage: the parameter block, the boid record, and dispatch indexing. Needs nothing.
// Params is laid out by encase from src/model/uniforms.rs (StepUniforms); tests/it/shaders.rs checks it
// member by member with naga. The state lives in split arrays (pos_vel: [x, y, vx, vy], hue:
// [hx, hy, ux, uy], id); `Boid` is one boid's values gathered from them.

// The `deferred` buffer (heavy items deferred to a workgroup each; src/stages/mod.rs, BUFFERS):
// words DEFER_COUNT + k count stage k's deferred items (0: scatter, 1: rules), DEFER_ARGS + 3k ..
// + 3k + 2 are its heavy stage's indirect dispatch (x, y, z), DEFER_CATCHES + 2r and + 2r + 1
// count replica r's catches (this step, total), and the list of deferred items starts at
// DEFER_LIST (scatter's, then reused by rules).
const DEFER_COUNT: u32 = 0u;
const DEFER_ARGS: u32 = 2u;
const DEFER_CATCHES: u32 = 8u;
const DEFER_LIST: u32 = 136u;

// The bit of a boid's rank word (`count` writes it, `slots` reads it) that says the boid has a
// ghost (a rank in a cell is below 2^31); `RANK_HAS_GHOST` in src/stages/twins/count.rs.
const RANK_HAS_GHOST: u32 = 0x80000000u;

// The bit of a boid's cell word (the region `item_cell` of `rank`: `count` or the previous step's
// `rules` writes it, `count` and `slots` read it) that says the boid has a ghost, whose cell is
// the word of item total_boids + i (a cell index is below 2^31); `CELL_HAS_GHOST` in
// src/stages/twins/count.rs.
const CELL_HAS_GHOST: u32 = 0x80000000u;

struct Params {
    world_width: f32,
    world_height: f32,
    inv_world_width: f32,
    inv_world_height: f32,
    x_max: f32,
    y_max: f32,
    dt: f32,
    boundary: u32,
    boid_count: u32,
    step: u32,
    seed: u32,
    grid_cols: u32,
    grid_rows: u32,
    grid_pad: u32,
    block_x: u32,
    block_y: u32,
    cell_count: u32,
    inv_cell_x: f32,
    inv_cell_y: f32,
    max_groups_per_dim: u32,
    perception_r2: f32,
    separation_r2: f32,
    alignment_r2: f32,
    cohesion_r2: f32,
    hue_r2: f32,
    separation_weight: u32,
    cohesion_weight: u32,
    alignment_inner_r2: f32,
    cohesion_inner_r2: f32,
    max_neighbors: u32,
    topological_k: u32,
    voronoi: u32,
    record_neighbors: u32,
    view_mode: u32,
    view_cos2: f32,
    hue_cohesion_weight: f32,
    hue_alignment_weight: f32,
    max_hue_speed: f32,
    wall_distance: f32,
    wall_weight: f32,
    heading_sd: f32,
    pointer_x: f32,
    pointer_y: f32,
    pointer_radius: f32,
    pointer_weight: f32,
    obstacle_count: u32,
    obstacle_cols: u32,
    obstacle_rows: u32,
    obstacle_inv_cell_x: f32,
    obstacle_inv_cell_y: f32,
    obstacle_radius: f32,
    obstacle_weight: f32,
    obstacle_bounce_radius: f32,
    model: u32,
    spawn_speed_min: f32,
    spawn_speed_max: f32,
    predator_count: u32,
    predator_r2: f32,
    predator_weight: f32,
    predator_sight_r2: f32,
    predator_max_speed: f32,
    predator_max_force: f32,
    catch_r2: f32,
    predator_reach_x: u32,
    predator_reach_y: u32,
    replica_count: u32,
    replica: u32,
    boid_base: u32,
    cell_base: u32,
    pad_base: u32,
    group_base: u32,
    total_boids: u32,
    total_cells: u32,
    predator_base: u32,
    // The first word of the predators in `cells` (the region `predators`, predators_common.wgsl).
    predators_at: u32,
    // 1 when `rank`'s plane `item_cell` holds each boid's cell from the previous step's `rules`
    // (count.wgsl).
    cells_known: u32,
    // 1 when `rules` stores no neighbour count (gather.wgsl, `finish_boid`). Padded: a uniform
    // array's stride is a multiple of 16 bytes.
    @size(16) skip_neighbor_counts: u32,
}

struct Boid {
    position: vec2<f32>,
    velocity: vec2<f32>,
    hue: vec2<f32>,
    hue_velocity: vec2<f32>,
    id: u32,
}

fn boid_from(pv: vec4<f32>, h: vec4<f32>, id: u32) -> Boid {
    return Boid(pv.xy, pv.zw, h.xy, h.zw, id);
}

const WORKGROUP_SIZE: u32 = 256u;

// Linear workgroup index of a dispatch split over x and y (x ≤ 65535 groups per dimension).
fn workgroup_linear(wid: vec3<u32>, nwg: vec3<u32>) -> u32 {
    return wid.x + wid.y * nwg.x;
}

