//! Counter-based random numbers: a pure function of (seed, id, step, stream), so that the CPU and
//! the GPU draw the same numbers without sharing generator state (docs/model.md §10).
//!
//! The mixing function is the PCG hash recommended by Jarzynski & Olano, "Hash Functions for GPU
//! Rendering", JCGT 9(3), 2020. Mirrored line for line in `shaders/rng.wgsl`.

/// Stream for the initial position x.
pub const STREAM_POS_X: u32 = 0;
/// Stream for the initial position y.
pub const STREAM_POS_Y: u32 = 1;
/// Stream for the initial heading.
pub const STREAM_HEADING: u32 = 2;
/// Stream for the initial speed.
pub const STREAM_SPEED: u32 = 3;
/// Stream for the initial hue angle.
pub const STREAM_HUE: u32 = 4;
/// Stream for the initial hue velocity.
pub const STREAM_HUE_VEL: u32 = 5;
/// Stream for the per-step velocity noise.
pub const STREAM_NOISE: u32 = 6;
/// Stream for the distance from the cursor of a boid added by the app's add tool.
pub const STREAM_ADD_RADIUS: u32 = 100;
/// Stream for the direction from the cursor of a boid added by the app's add tool.
pub const STREAM_ADD_ANGLE: u32 = 101;
/// Stream of the random sample kept when the app lowers the boid count.
pub const STREAM_REMOVE: u32 = 102;

/// One round of the PCG hash (Jarzynski & Olano 2020, §2 "pcg").
#[inline]
pub fn pcg_hash(v: u32) -> u32 {
    let state = v.wrapping_mul(747_796_405).wrapping_add(2_891_336_453);
    let word = ((state >> ((state >> 28) + 4)) ^ state).wrapping_mul(277_803_737);
    (word >> 22) ^ word
}

/// A well-mixed 32-bit value for (seed, id, step, stream). Only the low 32 bits of the seed are
/// used on the GPU side, so `seed` is a u32 here.
#[inline]
pub fn hash4(seed: u32, id: u32, step: u32, stream: u32) -> u32 {
    pcg_hash(seed ^ pcg_hash(id ^ pcg_hash(step ^ pcg_hash(stream))))
}

/// A float uniform in [0, 1) with 24 random bits (exactly representable, so the CPU and the GPU
/// agree bit for bit).
#[inline]
pub fn uniform01(seed: u32, id: u32, step: u32, stream: u32) -> f32 {
    (hash4(seed, id, step, stream) >> 8) as f32 * (1.0 / 16_777_216.0)
}
