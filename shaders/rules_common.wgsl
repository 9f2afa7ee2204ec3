// The rules of one step for one boid; mirrors src/model/rules.rs line for line (docs/model.md §4–§9).
// Needs: common.wgsl (struct Params, struct Boid), rng.wgsl (standard_normal), and from the
// stage: `params` (the uniform block) and `obstacles` (array<vec2<f32>>, the obstacle points).

const COINCIDENT_EPS2: f32 = 1e-8;
const STEER_EPS2: f32 = 1e-12;
const SPEED_EPS2: f32 = 1e-12;
const HEADING_EPS2: f32 = 1e-30;

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

fn steer(target_dir: vec2<f32>, v: vec2<f32>) -> vec2<f32> {
    let l2 = dot(target_dir, target_dir);
    if (l2 < STEER_EPS2) {
        return vec2<f32>(0.0);
    }
    return clamp_len(target_dir * (params.max_speed / sqrt(l2)) - v, params.max_force);
}

// Adds a neighbour at offset d; returns false once the neighbour cap is reached.
// Per-rule tests are 0/1 masks, as in the CPU twin (bit-identical to the branching form).
fn accumulate(s: ptr<function, NeighborSums>, d: vec2<f32>, other: Boid) -> bool {
    let d2 = dot(d, d);
    if (d2 >= params.perception_r2) {
        return true;
    }
    let sep = select(0.0, 1.0, d2 < params.separation_r2 && d2 > COINCIDENT_EPS2);
    let ali = select(0u, 1u, d2 < params.alignment_r2);
    let coh = select(0u, 1u, d2 < params.cohesion_r2);
    let hue = select(0u, 1u, d2 < params.hue_r2);
    (*s).separation -= (d / max(d2, COINCIDENT_EPS2)) * sep;
    (*s).alignment += other.velocity * f32(ali);
    (*s).alignment_n += ali;
    (*s).cohesion += d * f32(coh);
    (*s).cohesion_n += coh;
    (*s).hue += other.hue * f32(hue);
    (*s).hue_velocity += other.hue_velocity * f32(hue);
    (*s).hue_n += hue;
    (*s).neighbors += 1u;
    return params.max_neighbors == 0u || (*s).neighbors < params.max_neighbors;
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

fn integrate(me: Boid, s: NeighborSums) -> Boid {
    let p = me.position;
    let v = me.velocity;

    var obstacle_push = vec2<f32>(0.0);
    var bounce_normal = vec2<f32>(0.0);
    var bounce_d2 = params.obstacle_bounce_radius * params.obstacle_bounce_radius;
    let obstacle_r2 = params.obstacle_radius * params.obstacle_radius;
    for (var k = 0u; k < params.obstacle_count; k++) {
        let d = min_image(p - obstacles[k]);
        let d2 = dot(d, d);
        if (d2 < obstacle_r2 && d2 > COINCIDENT_EPS2) {
            obstacle_push += d / d2;
        }
        if (d2 < bounce_d2 && d2 > COINCIDENT_EPS2) {
            bounce_d2 = d2;
            bounce_normal = d / sqrt(d2);
        }
    }

    var v_new: vec2<f32>;
    if (dot(bounce_normal, bounce_normal) > 0.0 && dot(v, bounce_normal) < 0.0) {
        v_new = v - 2.0 * dot(v, bounce_normal) * bounce_normal;
    } else {
        var a = vec2<f32>(0.0);
        a += params.separation_weight * steer(s.separation, v);
        if (s.alignment_n > 0u) {
            a += params.alignment_weight * steer(s.alignment / f32(s.alignment_n), v);
        }
        if (s.cohesion_n > 0u) {
            a += params.cohesion_weight * steer(s.cohesion / f32(s.cohesion_n), v);
        }
        if (params.boundary == 1u) {
            a += wall_force(p, v, me.id);
        }
        a += params.obstacle_weight * steer(obstacle_push, v);
        if (params.pointer_radius > 0.0 && params.pointer_weight != 0.0) {
            let d = min_image(vec2<f32>(params.pointer_x, params.pointer_y) - p);
            if (dot(d, d) < params.pointer_radius * params.pointer_radius) {
                a += abs(params.pointer_weight) * steer(d * sign(params.pointer_weight), v);
            }
        }
        v_new = v + a * params.dt;
    }

    if (params.heading_sd > 0.0) {
        v_new = rotate(v_new, params.heading_sd * standard_normal(params.seed, me.id, params.step));
    }

    let speed2 = dot(v_new, v_new);
    if (speed2 < SPEED_EPS2) {
        let v2 = dot(v, v);
        var dir = vec2<f32>(1.0, 0.0);
        if (v2 > HEADING_EPS2) {
            dir = v / sqrt(v2);
        }
        v_new = dir * params.min_speed;
    } else {
        let speed = sqrt(speed2);
        v_new *= clamp(speed, params.min_speed, params.max_speed) / speed;
    }

    let pv = apply_boundary(p + v_new * params.dt, v_new);

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

    return Boid(pv.p, pv.v, h_new, hv, me.id, 0u);
}
