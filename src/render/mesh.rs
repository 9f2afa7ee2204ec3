//! The spearhead: the one mesh every boid is an instance of.
//!
//! A concave arrowhead in boid space (x forward along the velocity, y to the left; unit = the boid
//! length) with 4 corners — left wing, tip, notch, right wing — and two triangles over them,
//! (wing, tip, notch) and (tip, notch, wing). The renderer uploads [`CORNERS`] as a per-vertex
//! buffer and [`INDICES`] as the index buffer, and draws `0..6` indices for `0..N` instances.

/// Corners (boid lengths): left wing, tip, notch, right wing.
pub const CORNERS: [[f32; 2]; 4] = [[-0.45, 0.34], [0.55, 0.0], [-0.2, 0.0], [-0.45, -0.34]];

/// Index of the tip in [`CORNERS`] (coloured with the tip colour, the others with the tail's).
pub const TIP: u32 = 1;

/// The two triangles over [`CORNERS`].
pub const INDICES: [u16; 6] = [0, 1, 2, 1, 2, 3];
