//! Per-boid state (docs/model.md §2) and the seeded initial flock (§11).

use bytemuck::{Pod, Zeroable};
use glam::Vec2;

/// One boid, as the CPU side handles it (files, spawning, the rules' arguments). The backends keep
/// the state split into four arrays (docs/model.md §2.2): `pos_vel` (`[x, y, vx, vy]`, 16 B),
/// `hue` (`[hx, hy, ux, uy]`, 16 B), `id` (4 B) and `image` (`[ix, iy]`, 8 B) — see
/// [`split_state`] — so no array element holds more than 16 bytes (on the GPU `hue` and `image`
/// are planes of the `pos_vel` and `id` buffers: no binding holds more than 32 bytes a boid).
///
/// | field | offset | unit |
/// |---|---|---|
/// | `position` p | 0 | wu, inside `[0, W) × [0, H)` |
/// | `velocity` v | 8 | wu/s |
/// | `hue` h | 16 | unit vector; hue angle = atan2(h.y, h.x) |
/// | `hue_velocity` u | 24 | 1/s |
/// | `id` | 32 | stable across the per-step reordering |
/// | `image` | 36 | whole world widths and heights crossed (docs/model.md §2.3) |
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Pod, Zeroable)]
pub struct Boid {
    /// Position p (wu).
    pub position: [f32; 2],
    /// Velocity v (wu/s).
    pub velocity: [f32; 2],
    /// Hue vector h on the unit circle.
    pub hue: [f32; 2],
    /// Hue velocity u (1/s).
    pub hue_velocity: [f32; 2],
    /// Stable identifier (used by the counter-based random numbers).
    pub id: u32,
    /// Image counts `[ix, iy]`: how many times the boid has crossed the wrapping world's right
    /// (+1) or left (−1) edge, and its top or bottom, since its state was made — so
    /// `position + image · (W, H)` is its unwrapped path (docs/model.md §2.3). Always 0 in a world
    /// that does not wrap.
    pub image: [i32; 2],
}

impl Boid {
    /// Position as a vector (wu).
    #[inline]
    pub fn pos(&self) -> Vec2 {
        Vec2::from(self.position)
    }
    /// Velocity as a vector (wu/s).
    #[inline]
    pub fn vel(&self) -> Vec2 {
        Vec2::from(self.velocity)
    }
    /// Hue vector.
    #[inline]
    pub fn hue_vec(&self) -> Vec2 {
        Vec2::from(self.hue)
    }
    /// Hue velocity (1/s).
    #[inline]
    pub fn hue_vel(&self) -> Vec2 {
        Vec2::from(self.hue_velocity)
    }
    /// Hue angle in degrees, in [0, 360).
    pub fn hue_degrees(&self) -> f32 {
        self.hue[1]
            .atan2(self.hue[0])
            .to_degrees()
            .rem_euclid(360.0)
    }
    /// `[x, y, vx, vy]`: the boid's entry of the `pos_vel` state buffer.
    #[inline]
    pub fn pos_vel(&self) -> [f32; 4] {
        [
            self.position[0],
            self.position[1],
            self.velocity[0],
            self.velocity[1],
        ]
    }
    /// `[hx, hy, ux, uy]`: the boid's entry of the `hue` state buffer.
    #[inline]
    pub fn hue_parts(&self) -> [f32; 4] {
        [
            self.hue[0],
            self.hue[1],
            self.hue_velocity[0],
            self.hue_velocity[1],
        ]
    }
    /// The boid of id `id` with buffer entries `pos_vel` and `hue`, and image counts 0.
    #[inline]
    pub fn from_parts(pos_vel: [f32; 4], hue: [f32; 4], id: u32) -> Boid {
        Boid {
            position: [pos_vel[0], pos_vel[1]],
            velocity: [pos_vel[2], pos_vel[3]],
            hue: [hue[0], hue[1]],
            hue_velocity: [hue[2], hue[3]],
            id,
            image: [0; 2],
        }
    }
    /// The boid with image counts `image`.
    #[inline]
    pub fn with_image(self, image: [i32; 2]) -> Boid {
        Boid { image, ..self }
    }
    /// The unwrapped position `position + image · (W, H)` in a world of `width` × `height` wu
    /// (f64: the unwrapped path outgrows f32's precision).
    pub fn unwrapped(&self, width: f32, height: f32) -> [f64; 2] {
        [
            self.position[0] as f64 + self.image[0] as f64 * width as f64,
            self.position[1] as f64 + self.image[1] as f64 * height as f64,
        ]
    }
    /// Whether every float field is finite.
    pub fn is_finite(&self) -> bool {
        self.position
            .iter()
            .chain(&self.velocity)
            .chain(&self.hue)
            .chain(&self.hue_velocity)
            .all(|x| x.is_finite())
    }
}

/// The state arrays of `boids` (one entry per boid, in the same order).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StateArrays {
    /// `[x, y, vx, vy]` per boid.
    pub pos_vel: Vec<[f32; 4]>,
    /// `[hx, hy, ux, uy]` per boid.
    pub hue: Vec<[f32; 4]>,
    /// Id per boid.
    pub id: Vec<u32>,
    /// Image counts `[ix, iy]` per boid.
    pub image: Vec<[i32; 2]>,
}

/// The state arrays of `boids`.
pub fn split_state(boids: &[Boid]) -> StateArrays {
    StateArrays {
        pos_vel: boids.iter().map(Boid::pos_vel).collect(),
        hue: boids.iter().map(Boid::hue_parts).collect(),
        id: boids.iter().map(|b| b.id).collect(),
        image: boids.iter().map(|b| b.image).collect(),
    }
}

/// The boids of state arrays (the inverse of [`split_state`]).
pub fn join_state(
    pos_vel: &[[f32; 4]],
    hue: &[[f32; 4]],
    id: &[u32],
    image: &[[i32; 2]],
) -> Vec<Boid> {
    pos_vel
        .iter()
        .zip(hue)
        .zip(id)
        .zip(image)
        .map(|(((p, h), i), m)| Boid::from_parts(*p, *h, *i).with_image(*m))
        .collect()
}
