// Couzin's zonal model (Couzin, Krause, James, Ruxton & Franks, J. theor. Biol. 218, 1 (2002);
// docs/model.md §21); mirrors src/model/models/couzin.rs line for line. The model's rule of the
// `rules` pass (the pipeline is compiled for this model alone, with its pair terms: unit vectors
// over nested annuli). Needs: common.wgsl, rng.wgsl (standard_normal), rules_common.wgsl
// (NeighborSums, ObstacleSums, rotate, apply_boundary, hue_rule).

// The model's uniforms (`model_params`): `CouzinUniforms` in src/model/models/couzin.rs.
struct CouzinUniforms {
    // Speed s (wu/s).
    speed: f32,
    // Standard deviation σ of the error (rad).
    noise: f32,
    // cos(θ·Δt), sin(θ·Δt) of the largest turn a step (−1, 0: no limit).
    turn_cos: f32,
    turn_sin: f32,
}

alias ModelUniforms = CouzinUniforms;

// The neighbours in the zone of repulsion: those in neither other zone (the zones part the disc).
fn repulsion_count(s: NeighborSums) -> u32 {
    return s.neighbors - s.alignment_n - s.cohesion_n;
}

// The unit vector of w, and whether it has one (|w|² > STEER_EPS2).
struct Direction {
    ok: bool,
    d: vec2<f32>,
}

fn unit_of(w: vec2<f32>) -> Direction {
    let l2 = dot(w, w);
    if (l2 > STEER_EPS2) {
        return Direction(true, w / sqrt(l2));
    }
    return Direction(false, vec2<f32>(0.0));
}

// The next state of animal `me`: repulsion first, else orientation and attraction; a Gaussian
// error; a turn of at most θ·Δt; the move at speed s. Predators do not push the animals
// (`_predator` is not used).
fn next_state(me: Boid, s: NeighborSums, ob: ObstacleSums, _predator: vec2<f32>) -> Boid {
    let p = me.position;
    let v = me.velocity;
    let own = heading(v);
    let bounce_normal = ob.bounce_normal;
    var desired = Direction(false, vec2<f32>(0.0));
    if (dot(bounce_normal, bounce_normal) > 0.0 && dot(v, bounce_normal) < 0.0) {
        desired = Direction(true, own - 2.0 * dot(own, bounce_normal) * bounce_normal);
    } else if (repulsion_count(s) > 0u) {
        desired = unit_of(s.separation);
    } else {
        var o = Direction(false, vec2<f32>(0.0));
        var a = Direction(false, vec2<f32>(0.0));
        if (s.alignment_n > 0u) {
            o = unit_of(s.alignment);
        }
        if (s.cohesion_n > 0u) {
            a = unit_of(s.cohesion);
        }
        if (o.ok && a.ok) {
            desired = unit_of(0.5 * (o.d + a.d));
        } else if (o.ok) {
            desired = o;
        } else {
            desired = a;
        }
    }
    var dir = own;
    if (desired.ok) {
        dir = desired.d;
    }
    if (model_params.noise > 0.0) {
        dir = rotate(dir, model_params.noise * standard_normal(params.seed, me.id, params.step));
    }
    let c = dot(own, dir);
    var heading = dir;
    if (c < model_params.turn_cos) {
        let cross = own.x * dir.y - own.y * dir.x;
        var sn = -model_params.turn_sin;
        if (cross >= 0.0) {
            sn = model_params.turn_sin;
        }
        let tc = model_params.turn_cos;
        heading = vec2<f32>(tc * own.x - sn * own.y, sn * own.x + tc * own.y);
    }
    let v_new = heading * model_params.speed;
    let pv = apply_boundary(p + v_new * params.dt, v_new);
    let hh = hue_rule(me, s);
    return Boid(pv.p, pv.v, hh.xy, hh.zw, me.id);
}
