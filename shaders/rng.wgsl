// Counter-based random numbers; mirrors src/model/rng.rs line for line. Needs nothing.
// PCG hash: Jarzynski & Olano, "Hash Functions for GPU Rendering", JCGT 9(3), 2020.

const STREAM_NOISE: u32 = 6u;

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
