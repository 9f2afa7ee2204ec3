// The Vicsek model (Vicsek et al., Phys. Rev. Lett. 75, 1226 (1995); docs/model.md §16); mirrors
// src/model/models/vicsek.rs line for line. The model's rule of the `rules` pass (the pipeline is
// compiled for this model alone). Needs: common.wgsl, rng.wgsl (uniform_turn), rules_common.wgsl
// (NeighborSums, ObstacleSums, rotate, apply_boundary, hue_rule).

// The model's uniforms (`model_params`): `VicsekUniforms` in src/model/models/vicsek.rs.
struct VicsekUniforms {
    // Noise amplitude η.
    eta: f32,
    // Speed v0 (wu per step).
    speed: f32,
    // Which velocity moves a particle: 0 new, 1 old.
    update: u32,
    // The kind of noise: 0 angular, 1 vectorial.
    noise: u32,
}

alias ModelUniforms = VicsekUniforms;

fn vicsek_update_old() -> bool { return model_params.update == 1u; }
fn vicsek_vectorial() -> bool { return model_params.noise == 1u; }

// The next state of particle `me`: the heading of the summed velocities within r, itself
// included (s.alignment holds the others': the alignment radius is r in this model), turned by a
// noise uniform in [−η/2, η/2) (angular), or of that sum plus a random vector η·n·v0·e^{iξ}
// (vectorial); Δt = 1. Predators do not push a Vicsek particle (`_predator`
// is not used).
fn next_state(me: Boid, s: NeighborSums, ob: ObstacleSums, _predator: vec2<f32>) -> Boid {
    let p = me.position;
    let v = me.velocity;
    let own = heading(v);
    let bounce_normal = ob.bounce_normal;
    let v0 = model_params.speed;
    let eta = model_params.eta;
    var dir: vec2<f32>;
    var base: vec2<f32>;
    var n: f32;
    if (dot(bounce_normal, bounce_normal) > 0.0 && dot(v, bounce_normal) < 0.0) {
        dir = own - 2.0 * dot(own, bounce_normal) * bounce_normal;
        base = dir * v0;
        n = 1.0;
    } else {
        let sum = s.alignment + v;
        let l2 = dot(sum, sum);
        dir = own;
        if (l2 > STEER_EPS2 * v0 * v0) {
            dir = sum / sqrt(l2);
        }
        base = sum;
        n = f32(s.alignment_n + 1u);
    }
    if (!vicsek_vectorial()) {
        // Angular noise: a turn uniform in [−η/2, η/2).
        dir = rotate(dir, uniform_turn(params.seed, me.id, params.step, eta));
    } else if (eta > 0.0) {
        // Vectorial noise: η·n·v0·e^{iξ}, ξ uniform in [−π, π), added to the sum of the n
        // velocities before its direction is taken (nothing at η = 0).
        let xi = uniform_turn(params.seed, me.id, params.step, 2.0 * PI);
        let w = base + rotate(vec2<f32>(eta * n * v0, 0.0), xi);
        let l2 = dot(w, w);
        if (l2 > STEER_EPS2 * v0 * v0) {
            dir = w / sqrt(l2);
        }
    }
    let v_new = dir * model_params.speed;
    var moved = v_new;
    if (vicsek_update_old()) {
        moved = v;
    }
    let pv = apply_boundary(p + moved, v_new);
    let hh = hue_rule(me, s);
    return Boid(pv.p, pv.v, hh.xy, hh.zw, me.id);
}
