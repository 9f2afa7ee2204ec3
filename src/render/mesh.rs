//! The spearhead: the one mesh every boid is an instance of.
//!
//! A concave arrowhead in boid space (x forward along the velocity, y to the left; unit = the boid
//! length) with 4 corners — left wing, tip, notch, right wing — and two triangles over them,
//! (wing, tip, notch) and (tip, notch, wing). The renderer uploads [`vertices`] (each corner with
//! its [`outsets`]) as a per-vertex buffer and [`INDICES`] as the index buffer, and draws `0..6`
//! indices for `0..N` instances.
//!
//! Anti-aliasing: each corner is moved out by its outset (px) so that the drawn triangles cover
//! every pixel within [`GROW_PX`] of the outline, and the fragment shader takes each pixel's
//! coverage from its signed distance to the outline's [`edge_lines`].

/// Corners (boid lengths): left wing, tip, notch, right wing.
pub const CORNERS: [[f32; 2]; 4] = [[-0.45, 0.34], [0.55, 0.0], [-0.2, 0.0], [-0.45, -0.34]];

/// Index of the tip in [`CORNERS`] (coloured with the tip colour, the others with the tail's).
pub const TIP: u32 = 1;

/// The two triangles over [`CORNERS`].
pub const INDICES: [u16; 6] = [0, 1, 2, 1, 2, 3];

/// How far (px) the drawn mesh reaches past the outline: the fade's room. A pixel's coverage,
/// `clamp(0.5 − d, 0, 1)`, is zero once its centre is half a pixel out, and the rasteriser draws
/// the pixels whose centres the mesh holds, so half a pixel is all the room it needs; each extra
/// half pixel would add about 1.2 × the boid's length in px² of fragments that draw nothing.
pub const GROW_PX: f32 = 0.5;

/// The outline in order round the shape (indices into [`CORNERS`]): left wing, tip, right wing,
/// notch. Its edges are the two outer sides (wing → tip → wing) and the notch's two sides.
pub const OUTLINE: [usize; 4] = [0, 1, 3, 2];

fn sub(a: [f32; 2], b: [f32; 2]) -> [f32; 2] {
    [a[0] - b[0], a[1] - b[1]]
}

/// Twice the signed area of the outline (positive when it runs counter-clockwise, x right, y up).
fn twice_signed_area() -> f32 {
    (0..4)
        .map(|i| {
            let (a, b) = (CORNERS[OUTLINE[i]], CORNERS[OUTLINE[(i + 1) % 4]]);
            a[0] * b[1] - b[0] * a[1]
        })
        .sum()
}

/// The outline's edges as lines `(n.x, n.y, c)`, in [`OUTLINE`] order (edge k runs from outline
/// corner k to k + 1): `n` the unit normal pointing out of the shape and `c = n · a` for a corner
/// `a` on it, so `n · p − c` is the signed distance (boid lengths) of `p` outside the edge's
/// line. Edges 0 and 1 are the outer sides, 2 and 3 the notch's.
pub fn edge_lines() -> [[f32; 3]; 4] {
    let ccw = twice_signed_area() > 0.0;
    std::array::from_fn(|k| {
        let (a, b) = (CORNERS[OUTLINE[k]], CORNERS[OUTLINE[(k + 1) % 4]]);
        let d = sub(b, a);
        let len = (d[0] * d[0] + d[1] * d[1]).sqrt();
        // Counter-clockwise: the outside is on the right of the direction of travel.
        let n = if ccw {
            [d[1] / len, -d[0] / len]
        } else {
            [-d[1] / len, d[0] / len]
        };
        [n[0], n[1], n[0] * a[0] + n[1] * a[1]]
    })
}

/// The bevels of the outline's convex corners — left wing, tip, right wing (outline corners 0, 1,
/// 2) — as lines `(n.x, n.y, c)` like [`edge_lines`]: `n` the unit bisector of the corner's two
/// outward edge normals, the line through the corner. The whole spearhead lies inside each, and
/// with them the distance outside a sharp corner is measured to the corner rather than to the two
/// edges' lines, which would fade a pixel and a half past the tip (its angle is 38°).
pub fn bevel_lines() -> [[f32; 3]; 3] {
    let edges = edge_lines();
    std::array::from_fn(|k| {
        let (e1, e2) = (edges[(k + 3) % 4], edges[k]);
        let (x, y) = (e1[0] + e2[0], e1[1] + e2[1]);
        let len = (x * x + y * y).sqrt();
        let n = [x / len, y / len];
        let a = CORNERS[OUTLINE[k]];
        [n[0], n[1], n[0] * a[0] + n[1] * a[1]]
    })
}

/// Each corner's outset (px per px of growth, in [`CORNERS`] order): where the corner of the
/// outline moved [`GROW_PX`] out along both its edges' normals lies (the miter: `(n₁ + n₂) / (1 +
/// n₁ · n₂)`). The convex corners move out, the notch moves back into the notch.
pub fn outsets() -> [[f32; 2]; 4] {
    let edges = edge_lines();
    let mut out = [[0.0; 2]; 4];
    for k in 0..4 {
        // Outline corner k sits between edge k − 1 (arriving) and edge k (leaving).
        let (e1, e2) = (edges[(k + 3) % 4], edges[k]);
        let dot = e1[0] * e2[0] + e1[1] * e2[1];
        let m = [(e1[0] + e2[0]) / (1.0 + dot), (e1[1] + e2[1]) / (1.0 + dot)];
        out[OUTLINE[k]] = [m[0] * GROW_PX, m[1] * GROW_PX];
    }
    out
}

/// The per-vertex buffer: each corner (boid lengths) followed by its outset (px).
pub fn vertices() -> [[f32; 4]; 4] {
    let o = outsets();
    std::array::from_fn(|i| [CORNERS[i][0], CORNERS[i][1], o[i][0], o[i][1]])
}

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
    use super::*;

    /// Signed distance outside the spearhead, as `spearhead_distance` in `shaders/render.wgsl`.
    fn distance(p: [f32; 2]) -> f32 {
        let (e, b) = (edge_lines(), bevel_lines());
        let d = |l: [f32; 3]| l[0] * p[0] + l[1] * p[1] - l[2];
        let bevels = d(b[0]).max(d(b[1])).max(d(b[2]));
        d(e[0]).max(d(e[1])).max(bevels).max(d(e[2]).min(d(e[3])))
    }

    /// Every corner of the spearhead lies inside every bevel; past the tip the distance grows
    /// from the tip itself (0.5 boid lengths ahead of it is 0.5 outside).
    #[test]
    fn bevels_hold_the_shape_and_measure_from_the_corner() {
        for l in bevel_lines() {
            for c in CORNERS {
                assert!(
                    l[0] * c[0] + l[1] * c[1] - l[2] < 1e-6,
                    "{c:?} outside {l:?}"
                );
            }
        }
        let tip = CORNERS[TIP as usize];
        assert!((distance([tip[0] + 0.5, tip[1]]) - 0.5).abs() < 1e-6);
    }

    /// The outline's corners lie on their edges' lines, the body is inside, and points past the
    /// tip, beside the wings and in the notch are outside.
    #[test]
    fn edge_lines_bound_the_shape() {
        let e = edge_lines();
        for k in 0..4 {
            let (a, b) = (CORNERS[OUTLINE[k]], CORNERS[OUTLINE[(k + 1) % 4]]);
            for p in [a, b] {
                assert!((e[k][0] * p[0] + e[k][1] * p[1] - e[k][2]).abs() < 1e-6);
            }
            assert!((e[k][0].hypot(e[k][1]) - 1.0).abs() < 1e-6);
        }
        assert!(distance([0.1, 0.0]) < 0.0);
        assert!(distance([-0.3, 0.2]) < 0.0, "inside a wing");
        for outside in [
            [0.6, 0.0],
            [0.0, 0.3],
            [-0.3, 0.0],
            [-0.5, 0.0],
            [-0.4, -0.4],
        ] {
            assert!(distance(outside) > 0.0, "{outside:?}");
        }
        // The tip is on the outline.
        assert!(distance(CORNERS[TIP as usize]).abs() < 1e-6);
    }

    /// Grown by GROW_PX at a boid length of L px, each corner lies GROW_PX px outside both of
    /// its edges (the fade's room), for small and large boids.
    #[test]
    fn outsets_put_each_corner_grow_px_outside_its_edges() {
        let e = edge_lines();
        let o = outsets();
        for length_px in [4.0f32, 16.0, 64.0] {
            for k in 0..4 {
                let c = OUTLINE[k];
                let p = [
                    CORNERS[c][0] + o[c][0] / length_px,
                    CORNERS[c][1] + o[c][1] / length_px,
                ];
                for edge in [e[(k + 3) % 4], e[k]] {
                    let d_px = (edge[0] * p[0] + edge[1] * p[1] - edge[2]) * length_px;
                    assert!(
                        (d_px - GROW_PX).abs() < 1e-4,
                        "corner {c} at {length_px} px: {d_px}"
                    );
                }
            }
        }
        // The notch moves back (−x), the tip forward (+x).
        assert!(o[2][0] < 0.0 && o[TIP as usize][0] > 0.0);
        assert_eq!(vertices()[1][..2], CORNERS[1]);
    }

    /// The arrowhead is the triangle (wings, tip) less the notch triangle (wings, notch).
    #[test]
    fn area_is_the_outer_triangle_less_the_notch() {
        let outer = 0.5 * 0.68 * 1.0;
        let notch = 0.5 * 0.68 * 0.25;
        assert!((area() - (outer - notch)).abs() < 1e-6, "{}", area());
    }
}
