// The Vicsek model (Vicsek et al., Phys. Rev. Lett. 75, 1226 (1995); docs/model.md §16); mirrors
// src/model/vicsek.rs line for line. Needs: common.wgsl, rng.wgsl (uniform_turn),
// rules_common.wgsl (NeighborSums, ObstacleSums, rotate, apply_boundary, hue_rule).

// The next state of particle `me`: the heading of the summed velocities within r, itself
// included (s.alignment holds the others': the alignment radius is r in this model), turned by a
// noise uniform in [−η/2, η/2); Δt = 1.
fn vicsek_integrate(me: Boid, s: NeighborSums, ob: ObstacleSums) -> Boid {
    let p = me.position;
    let v = me.velocity;
    let v2 = dot(v, v);
    var own = vec2<f32>(1.0, 0.0);
    if (v2 > HEADING_EPS2) {
        own = v / sqrt(v2);
    }
    let bounce_normal = ob.bounce_normal;
    var dir: vec2<f32>;
    if (dot(bounce_normal, bounce_normal) > 0.0 && dot(v, bounce_normal) < 0.0) {
        dir = own - 2.0 * dot(own, bounce_normal) * bounce_normal;
    } else {
        let sum = s.alignment + v;
        let l2 = dot(sum, sum);
        dir = own;
        if (l2 > STEER_EPS2 * params.vicsek_speed * params.vicsek_speed) {
            dir = sum / sqrt(l2);
        }
    }
    dir = rotate(dir, uniform_turn(params.seed, me.id, params.step, params.vicsek_eta));
    let v_new = dir * params.vicsek_speed;
    var moved = v_new;
    if (params.vicsek_update != 0u) {
        moved = v;
    }
    let pv = apply_boundary(p + moved, v_new);
    let hh = hue_rule(me, s);
    return Boid(pv.p, pv.v, hh.xy, hh.zw, me.id);
}
