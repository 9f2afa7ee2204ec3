// Counter-based random numbers; mirrors src/model/rng.rs line for line. Needs nothing.
// PCG hash: Jarzynski & Olano, "Hash Functions for GPU Rendering", JCGT 9(3), 2020.

const STREAM_NOISE: u32 = 6u;
const STREAM_NOISE_2: u32 = 7u;
const PI: f32 = 3.14159265358979;

fn pcg_hash(v: u32) -> u32 {
    let state = v * 747796405u + 2891336453u;
    let word = ((state >> ((state >> 28u) + 4u)) ^ state) * 277803737u;
    return (word >> 22u) ^ word;
}

fn hash4(seed: u32, id: u32, step: u32, stream: u32) -> u32 {
    return pcg_hash(seed ^ pcg_hash(id ^ pcg_hash(step ^ pcg_hash(stream))));
}

fn uniform01(seed: u32, id: u32, step: u32, stream: u32) -> f32 {
    return f32(hash4(seed, id, step, stream) >> 8u) * (1.0 / 16777216.0);
}

// −ln(1 − x) for x in [0, 1): the series below 1/16 (where log(1 − x) would lose the small result).
fn neg_ln_one_minus(x: f32) -> f32 {
    if (x < 0.0625) {
        return x * (1.0 + x * (0.5 + x * (1.0 / 3.0 + x * (0.25 + x * (0.2 + x * (1.0 / 6.0))))));
    }
    return -log(1.0 - x);
}

// Box–Muller: a standard normal variate for (seed, id, step) from streams 6 and 7.
fn standard_normal(seed: u32, id: u32, step: u32) -> f32 {
    let u1 = uniform01(seed, id, step, STREAM_NOISE);
    let u2 = uniform01(seed, id, step, STREAM_NOISE_2);
    return sqrt(2.0 * neg_ln_one_minus(u1)) * cos(PI * (2.0 * u2 - 1.0));
}

// A per-step uniform turn in [−η/2, η/2) (the Vicsek model's noise; unused by the boids model).
fn uniform_turn(seed: u32, id: u32, step: u32, eta: f32) -> f32 {
    return (uniform01(seed, id, step, STREAM_NOISE) - 0.5) * eta;
}
