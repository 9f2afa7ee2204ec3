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

/// Area of the spearhead in boid lengths² (shoelace formula over [`CORNERS`] in outline order:
/// left wing, tip, right wing, notch). Density dots carry this much coverage per boid.
pub const fn area() -> f32 {
    let o = [CORNERS[0], CORNERS[1], CORNERS[3], CORNERS[2]];
    let mut twice = 0.0;
    let mut i = 0;
    while i < 4 {
        let (a, b) = (o[i], o[(i + 1) % 4]);
        twice += a[0] * b[1] - b[0] * a[1];
        i += 1;
    }
    if twice < 0.0 {
        -twice / 2.0
    } else {
        twice / 2.0
    }
}

#[cfg(test)]
mod tests {
    /// The arrowhead is the triangle (wings, tip) less the notch triangle (wings, notch).
    #[test]
    fn area_is_the_outer_triangle_less_the_notch() {
        let outer = 0.5 * 0.68 * 1.0;
        let notch = 0.5 * 0.68 * 0.25;
        assert!(
            (super::area() - (outer - notch)).abs() < 1e-6,
            "{}",
            super::area()
        );
    }
}
