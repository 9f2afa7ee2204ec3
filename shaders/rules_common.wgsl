// What every model's rule shares: the neighbour sums (their terms are in pair_terms.wgsl), the
// k-nearest selection, Reynolds steering, walls, obstacles, the hue-vector rule and the boundary;
// mirrors src/model/rules.rs line for line (docs/model.md §4–§8). Each model's own rule
// (`next_state`) is in its file (boids.wgsl, vicsek.wgsl, fish.wgsl, couzin.wgsl). Needs:
// common.wgsl (struct Params, struct Boid), and from the stage: `params` (the uniform block) and
// `cells` (array<u32>: the uniform grid's cell counters, then the obstacle grid at its end).

const COINCIDENT_EPS2: f32 = 1e-8;
const STEER_EPS2: f32 = 1e-12;
const SPEED_EPS2: f32 = 1e-12;
const HEADING_EPS2: f32 = 1e-30;

// The heading of velocity v as a unit vector: +x for one too slow to have a heading; mirrors
// `heading` in src/model/rules.rs.
fn heading(v: vec2<f32>) -> vec2<f32> {
    let v2 = dot(v, v);
    if (v2 > HEADING_EPS2) {
        return v / sqrt(v2);
    }
    return vec2<f32>(1.0, 0.0);
}

struct NeighborSums {
    separation: vec2<f32>,
    alignment: vec2<f32>,
    alignment_n: u32,
    cohesion: vec2<f32>,
    cohesion_n: u32,
    hue: vec2<f32>,
    hue_velocity: vec2<f32>,
    hue_n: u32,
    neighbors: u32,
}

fn empty_sums() -> NeighborSums {
    return NeighborSums(vec2<f32>(0.0), vec2<f32>(0.0), 0u, vec2<f32>(0.0), 0u,
                        vec2<f32>(0.0), vec2<f32>(0.0), 0u, 0u);
}

fn min_image(d: vec2<f32>) -> vec2<f32> {
    var r = d;
    if (params.boundary == 0u) {
        if (r.x > 0.5 * params.world_width) {
            r.x -= params.world_width;
        } else if (r.x < -0.5 * params.world_width) {
            r.x += params.world_width;
        }
        if (r.y > 0.5 * params.world_height) {
            r.y -= params.world_height;
        } else if (r.y < -0.5 * params.world_height) {
            r.y += params.world_height;
        }
    }
    return r;
}

fn clamp_len(v: vec2<f32>, max_len: f32) -> vec2<f32> {
    let l2 = dot(v, v);
    if (l2 > max_len * max_len) {
        return v * (max_len / sqrt(l2));
    }
    return v;
}

fn rotate(v: vec2<f32>, angle: f32) -> vec2<f32> {
    let sn = sin(angle);
    let cs = cos(angle);
    return vec2<f32>(cs * v.x - sn * v.y, sn * v.x + cs * v.y);
}

fn steer(target_dir: vec2<f32>, v: vec2<f32>, max_speed: f32, max_force: f32) -> vec2<f32> {
    let l2 = dot(target_dir, target_dir);
    if (l2 < STEER_EPS2) {
        return vec2<f32>(0.0);
    }
    return clamp_len(target_dir * (max_speed / sqrt(l2)) - v, max_force);
}

// The k nearest candidates (the topological neighbourhood; docs/model.md §4.4), ordered by
// (squared distance, id); mirrors `Nearest` in src/model/rules.rs.
const MAX_NEIGHBORS_CAP: u32 = 16u;

struct NearItem {
    d2: f32,
    id: u32,
    index: u32,
    d: vec2<f32>,
}

struct Nearest {
    items: array<NearItem, 16>,
    len: u32,
    k: u32,
}

fn near_less(a_d2: f32, a_id: u32, b_d2: f32, b_id: u32) -> bool {
    return a_d2 < b_d2 || (a_d2 == b_d2 && a_id < b_id);
}

fn near_offer(n: ptr<function, Nearest>, d: vec2<f32>, d2: f32, id: u32, index: u32) {
    if ((*n).len == (*n).k) {
        let last = (*n).items[(*n).len - 1u];
        if (!near_less(d2, id, last.d2, last.id)) {
            return;
        }
        (*n).len -= 1u;
    }
    var at = (*n).len;
    while (at > 0u && near_less(d2, id, (*n).items[at - 1u].d2, (*n).items[at - 1u].id)) {
        (*n).items[at] = (*n).items[at - 1u];
        at -= 1u;
    }
    (*n).items[at] = NearItem(d2, id, index, d);
    (*n).len += 1u;
}

// Obstacle sums of one boid (docs/model.md §6.4); mirrors ObstacleSums.
struct ObstacleSums {
    push: vec2<f32>,
    bounce_normal: vec2<f32>,
    bounce_d2: f32,
}

fn obstacle_add(o: ptr<function, ObstacleSums>, p: vec2<f32>, q: vec2<f32>) {
    let d = min_image(p - q);
    let d2 = dot(d, d);
    if (d2 < params.obstacle_radius * params.obstacle_radius && d2 > COINCIDENT_EPS2) {
        (*o).push += d / d2;
    }
    if (d2 < (*o).bounce_d2 && d2 > COINCIDENT_EPS2) {
        (*o).bounce_d2 = d2;
        (*o).bounce_normal = d / sqrt(d2);
    }
}

// The span of obstacle cells to visit along one axis: 3 around c, or every one (once) in a
// wrapping grid narrower than 3.
fn obstacle_span(c: i32, n: i32) -> vec2<i32> {
    if (params.boundary == 0u && n < 3) {
        return vec2<i32>(0, n - 1);
    }
    return vec2<i32>(c - 1, c + 1);
}

// The obstacle cells around p, in visiting order (at most 3 × 3); mirrors
// `ObstacleGrid::for_each_cell`.
struct ObstacleBlock {
    cells: array<u32, 9>,
    n: u32,
}

fn obstacle_block(p: vec2<f32>) -> ObstacleBlock {
    var blk: ObstacleBlock;
    blk.n = 0u;
    if (params.obstacle_count == 0u) {
        return blk;
    }
    let cols = i32(params.obstacle_cols);
    let rows = i32(params.obstacle_rows);
    let cx = min(i32(max(floor(p.x * params.obstacle_inv_cell_x), 0.0)), cols - 1);
    let cy = min(i32(max(floor(p.y * params.obstacle_inv_cell_y), 0.0)), rows - 1);
    let wrap = params.boundary == 0u;
    let ys = obstacle_span(cy, rows);
    let xs = obstacle_span(cx, cols);
    for (var y = ys.x; y <= ys.y; y++) {
        var row = y;
        if (wrap) {
            row = ((y % rows) + rows) % rows;
        } else if (y < 0 || y >= rows) {
            continue;
        }
        for (var x = xs.x; x <= xs.y; x++) {
            var col = x;
            if (wrap) {
                col = ((x % cols) + cols) % cols;
            } else if (x < 0 || x >= cols) {
                continue;
            }
            blk.cells[blk.n] = u32(row * cols + col);
            blk.n += 1u;
        }
    }
    return blk;
}

// The obstacle grid is the region at the end of `cells` (src/stages/mod.rs, REGIONS): its cell
// starts (`obstacle_cols · obstacle_rows + 1` words), then its points (`obstacle_count` pairs of
// f32 bits). Its first word:
fn obstacle_grid_at() -> u32 {
    return arrayLength(&cells)
        - (params.obstacle_cols * params.obstacle_rows + 1u + 2u * params.obstacle_count);
}

// The start of obstacle cell c's points (c = cols · rows: the total), from the grid's first word g.
fn obstacle_start(g: u32, c: u32) -> u32 {
    return cells[g + c];
}

// The first word of the obstacle points, from the grid's first word g.
fn obstacle_points_at(g: u32) -> u32 {
    return g + params.obstacle_cols * params.obstacle_rows + 1u;
}

// Obstacle point k (wu), from the first word of the points `pts`.
fn obstacle_point(pts: u32, k: u32) -> vec2<f32> {
    let at = pts + 2u * k;
    return vec2<f32>(bitcast<f32>(cells[at]), bitcast<f32>(cells[at + 1u]));
}

// Obstacle points in the cells of blk.
fn obstacle_points_in(blk: ObstacleBlock) -> u32 {
    let g = obstacle_grid_at();
    var n = 0u;
    for (var k = 0u; k < blk.n; k++) {
        n += obstacle_start(g, blk.cells[k] + 1u) - obstacle_start(g, blk.cells[k]);
    }
    return n;
}

fn empty_obstacle_sums() -> ObstacleSums {
    return ObstacleSums(vec2<f32>(0.0), vec2<f32>(0.0),
                        params.obstacle_bounce_radius * params.obstacle_bounce_radius);
}

// The obstacle sums over the obstacle cells of blk (from position p); mirrors `obstacle_sums`.
fn obstacle_sums(p: vec2<f32>, blk: ObstacleBlock) -> ObstacleSums {
    var o = empty_obstacle_sums();
    let g = obstacle_grid_at();
    let pts = obstacle_points_at(g);
    for (var c = 0u; c < blk.n; c++) {
        let cell = blk.cells[c];
        let end = obstacle_start(g, cell + 1u);
        for (var k = obstacle_start(g, cell); k < end; k++) {
            obstacle_add(&o, p, obstacle_point(pts, k));
        }
    }
    return o;
}

fn wall_push(p: vec2<f32>) -> vec2<f32> {
    var a = vec2<f32>(0.0);
    if (params.wall_distance <= 0.0) {
        return a;
    }
    let k = params.wall_weight / params.wall_distance;
    if (p.x < params.wall_distance) {
        a.x += k * (params.wall_distance - p.x);
    }
    if (params.world_width - p.x < params.wall_distance) {
        a.x -= k * (params.wall_distance - (params.world_width - p.x));
    }
    if (p.y < params.wall_distance) {
        a.y += k * (params.wall_distance - p.y);
    }
    if (params.world_height - p.y < params.wall_distance) {
        a.y -= k * (params.wall_distance - (params.world_height - p.y));
    }
    return a;
}

// The push plus, while the boid moves outward, the opposing part of the push turned 90° to the
// inside (by id parity when the push is exactly against the velocity).
fn wall_force(p: vec2<f32>, v: vec2<f32>, id: u32) -> vec2<f32> {
    let w = wall_push(p);
    let vw = dot(v, w);
    let v2 = dot(v, v);
    if (vw < 0.0 && v2 > HEADING_EPS2) {
        let side_dir = vec2<f32>(-v.y, v.x);
        let side = dot(side_dir, w);
        var s = select(-1.0, 1.0, (id & 1u) == 0u);
        if (side > 0.0) {
            s = 1.0;
        } else if (side < 0.0) {
            s = -1.0;
        }
        return w + side_dir * (s * (-vw / v2));
    }
    return w;
}

struct PosVel {
    p: vec2<f32>,
    v: vec2<f32>,
}

fn apply_boundary(p_in: vec2<f32>, v_in: vec2<f32>) -> PosVel {
    var p = p_in;
    var v = v_in;
    if (params.boundary == 0u) {
        p.x -= floor(p.x * params.inv_world_width) * params.world_width;
        p.y -= floor(p.y * params.inv_world_height) * params.world_height;
        if (!(p.x < params.world_width && p.x >= 0.0)) {
            p.x = 0.0;
        }
        if (!(p.y < params.world_height && p.y >= 0.0)) {
            p.y = 0.0;
        }
        return PosVel(p, v);
    }
    if (params.boundary == 2u) {
        if (p.x < 0.0) {
            p.x = -p.x;
            v.x = abs(v.x);
        } else if (p.x > params.world_width) {
            p.x = 2.0 * params.world_width - p.x;
            v.x = -abs(v.x);
        }
        if (p.y < 0.0) {
            p.y = -p.y;
            v.y = abs(v.y);
        } else if (p.y > params.world_height) {
            p.y = 2.0 * params.world_height - p.y;
            v.y = -abs(v.y);
        }
    }
    if (p.x < 0.0) {
        p.x = 0.0;
        v.x = abs(v.x);
    } else if (p.x > params.x_max) {
        p.x = params.x_max;
        v.x = -abs(v.x);
    }
    if (p.y < 0.0) {
        p.y = 0.0;
        v.y = abs(v.y);
    } else if (p.y > params.y_max) {
        p.y = params.y_max;
        v.y = -abs(v.y);
    }
    return PosVel(p, v);
}

// What a move from `old` to `new` adds to the image counts (docs/model.md §2.4): the world
// widths and heights it crossed, none outside a wrapping world; mirrors `next_image` in
// src/model/rules.rs (the counts plus this).
fn image_step(old: vec2<f32>, new_p: vec2<f32>) -> vec2<i32> {
    if (params.boundary != 0u) {
        return vec2<i32>(0);
    }
    let k = floor((old - new_p) * vec2<f32>(params.inv_world_width, params.inv_world_height) + 0.5);
    return vec2<i32>(k);
}

// The hue-vector rule, shared by every model: (new hue vector, new hue velocity).
fn hue_rule(me: Boid, s: NeighborSums) -> vec4<f32> {
    let h = me.hue;
    var hv = me.hue_velocity;
    if (s.hue_n > 0u) {
        let n = f32(s.hue_n);
        let c = s.hue / n - h;
        let k = s.hue_velocity / n - hv;
        hv += (params.hue_cohesion_weight * c + params.hue_alignment_weight * k) * params.dt;
    }
    hv = clamp_len(hv, params.max_hue_speed);
    let h2 = h + hv * params.dt;
    let l2 = dot(h2, h2);
    var h_new = h;
    if (l2 > STEER_EPS2) {
        h_new = h2 / sqrt(l2);
    }
    return vec4<f32>(h_new, hv);
}
