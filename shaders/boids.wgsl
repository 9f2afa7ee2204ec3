// Reynolds' boids (docs/model.md §5–§9); mirrors src/model/models/boids.rs line for line. The
// model's rule of the `rules` pass (the pipeline is compiled for this model alone). Needs:
// common.wgsl, rng.wgsl (standard_normal), rules_common.wgsl (NeighborSums, ObstacleSums, steer,
// wall_force, rotate, min_image, apply_boundary, hue_rule).

// The model's uniforms (`model_params`): `BoidsUniforms` in src/model/models/boids.rs.
struct BoidsUniforms {
    separation_weight: f32,
    alignment_weight: f32,
    cohesion_weight: f32,
    // Lowest and highest speed (wu/s).
    min_speed: f32,
    max_speed: f32,
    // Largest steering force (wu/s²).
    max_force: f32,
}

alias ModelUniforms = BoidsUniforms;

fn boids_steer(target_dir: vec2<f32>, v: vec2<f32>) -> vec2<f32> {
    return steer(target_dir, v, model_params.max_speed, model_params.max_force);
}

// `predator`: the predators' acceleration at the boid (predator_accel, wu/s²).
fn next_state(me: Boid, s: NeighborSums, ob: ObstacleSums, predator: vec2<f32>) -> Boid {
    let p = me.position;
    let v = me.velocity;
    let obstacle_push = ob.push;
    let bounce_normal = ob.bounce_normal;

    var v_new: vec2<f32>;
    if (dot(bounce_normal, bounce_normal) > 0.0 && dot(v, bounce_normal) < 0.0) {
        v_new = v - 2.0 * dot(v, bounce_normal) * bounce_normal;
    } else {
        var a = vec2<f32>(0.0);
        a += model_params.separation_weight * boids_steer(s.separation, v);
        if (s.alignment_n > 0u) {
            a += model_params.alignment_weight * boids_steer(s.alignment / f32(s.alignment_n), v);
        }
        if (s.cohesion_n > 0u) {
            a += model_params.cohesion_weight * boids_steer(s.cohesion / f32(s.cohesion_n), v);
        }
        if (params.boundary == 1u) {
            a += wall_force(p, v, me.id);
        }
        a += params.obstacle_weight * boids_steer(obstacle_push, v);
        if (params.pointer_radius > 0.0 && params.pointer_weight != 0.0) {
            let d = min_image(vec2<f32>(params.pointer_x, params.pointer_y) - p);
            if (dot(d, d) < params.pointer_radius * params.pointer_radius) {
                a += abs(params.pointer_weight) * boids_steer(d * sign(params.pointer_weight), v);
            }
        }
        a += predator;
        v_new = v + a * params.dt;
    }

    if (params.heading_sd > 0.0) {
        v_new = rotate(v_new, params.heading_sd * standard_normal(params.seed, me.id, params.step));
    }

    let speed2 = dot(v_new, v_new);
    if (speed2 < SPEED_EPS2) {
        v_new = heading(v) * model_params.min_speed;
    } else {
        let speed = sqrt(speed2);
        v_new *= clamp(speed, model_params.min_speed, model_params.max_speed) / speed;
    }

    let pv = apply_boundary(p + v_new * params.dt, v_new);
    let hh = hue_rule(me, s);

    return Boid(pv.p, pv.v, hh.xy, hh.zw, me.id);
}
