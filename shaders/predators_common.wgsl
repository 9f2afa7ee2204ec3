// What a boid feels from the predators (docs/model.md §18): their push, being caught, and the
// respawn of a caught boid; mirrors src/model/predators.rs line for line. Needs: common.wgsl,
// rng.wgsl, rules_common.wgsl (min_image, COINCIDENT_EPS2), and from the stage: `params` and
// `cells`, which holds the predators (the region `predators`, src/stages/mod.rs REGIONS: eight
// words each from word params.predators_at, every replica's, the replica's from
// params.predator_base, params.predator_count of them).

// One predator (32 bytes; src/model/predators.rs `Predator`): kind 0 straight, 1 hunting; target:
// the id of the boid a hunting predator steered toward in its last move, or NO_TARGET.
struct Predator {
    position: vec2<f32>,
    velocity: vec2<f32>,
    kind: u32,
    target_id: u32,
    pad0: u32,
    pad1: u32,
}

// The first word of predator k (of all replicas') in `cells`.
fn predator_word(k: u32) -> u32 {
    return params.predators_at + 8u * k;
}

// Predator k's position (wu).
fn predator_position(k: u32) -> vec2<f32> {
    let a = predator_word(k);
    return vec2<f32>(bitcast<f32>(cells[a]), bitcast<f32>(cells[a + 1u]));
}

// Predator k's kind.
fn predator_kind(k: u32) -> u32 {
    return cells[predator_word(k) + 4u];
}

// Predator k.
fn load_predator(k: u32) -> Predator {
    let a = predator_word(k);
    return Predator(vec2<f32>(bitcast<f32>(cells[a]), bitcast<f32>(cells[a + 1u])),
                    vec2<f32>(bitcast<f32>(cells[a + 2u]), bitcast<f32>(cells[a + 3u])),
                    cells[a + 4u], cells[a + 5u], 0u, 0u);
}

const PREDATOR_HUNTING: u32 = 1u;
const NO_TARGET: u32 = 0xffffffffu;
const STREAM_RESPAWN_X: u32 = 20u;
const STREAM_RESPAWN_Y: u32 = 21u;
const STREAM_RESPAWN_HEADING: u32 = 22u;
const STREAM_RESPAWN_SPEED: u32 = 23u;

// The predators' acceleration on a boid at p (wu/s²): Σ B·e/|e|^1.5 over predators within
// predator_radius, e = p − b_k by minimum image; coincident ones add nothing.
fn predator_accel(p: vec2<f32>) -> vec2<f32> {
    var a = vec2<f32>(0.0);
    for (var k = 0u; k < params.predator_count; k++) {
        let e = min_image(p - predator_position(params.predator_base + k));
        let d2 = dot(e, e);
        if (d2 < params.predator_r2 && d2 > COINCIDENT_EPS2) {
            let d = sqrt(d2);
            a += e * (params.predator_weight / (d * sqrt(d)));
        }
    }
    return a;
}

// Whether a boid at p is caught: a hunting predator within catch_radius.
fn caught_by_predator(p: vec2<f32>) -> bool {
    var caught = false;
    for (var k = 0u; k < params.predator_count; k++) {
        let e = min_image(p - predator_position(params.predator_base + k));
        if (predator_kind(params.predator_base + k) == PREDATOR_HUNTING && dot(e, e) < params.catch_r2) {
            caught = true;
        }
    }
    return caught;
}

// A caught boid respawned: uniform position, heading in [−π, π), speed uniform in the model's
// spawn range (spawn_speed_min ..= spawn_speed_max); same id, hue and hue velocity.
fn respawn(me: Boid) -> Boid {
    let ux = uniform01(params.seed, me.id, params.step, STREAM_RESPAWN_X);
    let uy = uniform01(params.seed, me.id, params.step, STREAM_RESPAWN_Y);
    let uh = uniform01(params.seed, me.id, params.step, STREAM_RESPAWN_HEADING);
    let us = uniform01(params.seed, me.id, params.step, STREAM_RESPAWN_SPEED);
    let p = vec2<f32>(min(ux * params.world_width, params.x_max),
                      min(uy * params.world_height, params.y_max));
    let phi = PI * (2.0 * uh - 1.0);
    let speed = params.spawn_speed_min + us * (params.spawn_speed_max - params.spawn_speed_min);
    return Boid(p, vec2<f32>(speed * cos(phi), speed * sin(phi)), me.hue, me.hue_velocity, me.id);
}
