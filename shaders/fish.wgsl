// The fish-school model (docs/model.md §17); mirrors src/model/models/fish.rs line for line. The
// model's rule of the `rules` pass (the pipeline is compiled for this model alone). Needs:
// common.wgsl, rng.wgsl (standard_normal), rules_common.wgsl (NeighborSums, ObstacleSums, rotate,
// apply_boundary, hue_rule).

// The model's uniforms (`model_params`): `FishUniforms` in src/model/models/fish.rs.
struct FishUniforms {
    // Alignment weight M, cohesion constant C, separation constant S.
    alignment: f32,
    cohesion: f32,
    separation: f32,
    // Barrier amplitude a (wu/s per step) and 1/E (1/wu).
    barrier: f32,
    inv_barrier_width: f32,
    // Speed above which a fish in a crowd is slowed (wu/s).
    slow_speed: f32,
}

alias ModelUniforms = FishUniforms;

// The inward velocity increment of the Gaussian edge barrier at p (all four edges, summed).
fn fish_gauss(d: f32) -> f32 {
    let q = d * model_params.inv_barrier_width;
    return exp(-(q * q));
}

fn fish_barrier(p: vec2<f32>) -> vec2<f32> {
    let a = model_params.barrier;
    return vec2<f32>(a * (fish_gauss(p.x) - fish_gauss(params.world_width - p.x)),
                     a * (fish_gauss(p.y) - fish_gauss(params.world_height - p.y)));
}

// The slowing factor of a fish with crowd = n_c + n_a among n fish (the program's bands).
fn fish_slowing(crowd: u32, n: u32) -> f32 {
    let c10 = crowd * 10u;
    if (c10 > 5u * n) {
        return 0.85;
    } else if (c10 > 4u * n) {
        return 0.90;
    } else if (c10 > 3u * n) {
        return 0.93;
    } else if (c10 > 2u * n) {
        return 0.97;
    }
    return 1.0;
}

fn next_state(me: Boid, s: NeighborSums, ob: ObstacleSums, predator: vec2<f32>) -> Boid {
    let p = me.position;
    let v = me.velocity;
    let bounce_normal = ob.bounce_normal;
    var v_new = v;
    if (dot(bounce_normal, bounce_normal) > 0.0 && dot(v, bounce_normal) < 0.0) {
        v_new = v - 2.0 * dot(v, bounce_normal) * bounce_normal;
    } else {
        if (s.alignment_n > 1u) {
            let mean = s.alignment / f32(s.alignment_n);
            v_new = (1.0 - model_params.alignment) * v_new + model_params.alignment * mean;
        }
        if (s.cohesion_n > 0u) {
            let to_centre = s.cohesion / f32(s.cohesion_n + 1u);
            v_new += (model_params.cohesion * params.inv_world_width) * to_centre;
        }
        v_new += (model_params.separation * params.inv_world_width) * s.separation;
        v_new += fish_barrier(p);
        v_new += predator * params.dt;
        if (dot(v_new, v_new) > model_params.slow_speed * model_params.slow_speed) {
            v_new *= fish_slowing(s.cohesion_n + 1u + s.alignment_n, params.boid_count);
        }
    }
    if (params.heading_sd > 0.0) {
        v_new = rotate(v_new, params.heading_sd * standard_normal(params.seed, me.id, params.step));
    }
    let pv = apply_boundary(p + v_new * params.dt, v_new);
    let hh = hue_rule(me, s);
    return Boid(pv.p, pv.v, hh.xy, hh.zw, me.id);
}
