//! The spearhead: the one mesh every boid is an instance of.
//!
//! A concave arrowhead in boid space (x forward along the velocity, y to the left; unit = the boid
//! length) with 4 corners — left wing, tip, notch, right wing. It is drawn as one triangle, the
//! outer one ([`DRAWN`]: wing, tip, wing), and the fragment shader cuts the notch out: it takes each
//! pixel's coverage from its signed distance to the outline's [`edge_lines`] (and [`bevel_lines`]),
//! which it needs for the anti-aliasing anyway. One triangle a boid instead of two over the same
//! few pixels halves the triangles a software rasteriser sets up and the pixel blocks it shades
//! (most of a 4 px boid's cost on lavapipe). The renderer uploads [`vertices`] (each drawn corner
//! with its [`outsets`]) as a per-vertex buffer and [`INDICES`] as the index buffer, and draws
//! `0..3` indices for `0..N` instances.
//!
//! Anti-aliasing: each drawn corner is moved out by its outset (px) so that the triangle covers
//! every pixel the coverage reaches ([`GROW_PX`] past the outline).

/// Corners (boid lengths): left wing, tip, notch, right wing.
pub const CORNERS: [[f32; 2]; 4] = [[-0.45, 0.34], [0.55, 0.0], [-0.2, 0.0], [-0.45, -0.34]];

/// Index of the tip in [`CORNERS`] and in [`DRAWN`] (coloured with the tip colour, the wings with
/// the tail's).
pub const TIP: u32 = 1;

/// The drawn triangle's corners (indices into [`CORNERS`]): left wing, tip, right wing.
pub const DRAWN: [usize; 3] = [0, 1, 3];

/// The one triangle over [`vertices`].
pub const INDICES: [u16; 3] = [0, 1, 2];

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

/// The wing-to-wing line `(n.x, n.y, c)` like [`edge_lines`], `n` pointing away from the tip: the
/// drawn triangle's back side.
pub fn back_line() -> [f32; 3] {
    let (a, b) = (CORNERS[0], CORNERS[3]);
    let d = sub(b, a);
    let len = (d[0] * d[0] + d[1] * d[1]).sqrt();
    let mut n = [d[1] / len, -d[0] / len];
    let tip = CORNERS[TIP as usize];
    if n[0] * (tip[0] - a[0]) + n[1] * (tip[1] - a[1]) > 0.0 {
        n = [-n[0], -n[1]];
    }
    [n[0], n[1], n[0] * a[0] + n[1] * a[1]]
}

/// The `v` with `n₁ · v = r₁` and `n₂ · v = r₂` (None for parallel normals).
fn meet(n1: [f32; 3], r1: f32, n2: [f32; 3], r2: f32) -> Option<[f32; 2]> {
    let det = n1[0] * n2[1] - n1[1] * n2[0];
    (det.abs() > 1e-6).then(|| {
        [
            (r1 * n2[1] - r2 * n1[1]) / det,
            (n1[0] * r2 - n2[0] * r1) / det,
        ]
    })
}

/// How far behind the wings (px per px of growth) the coverage reaches: within GROW_PX of a
/// wing's two edges and its bevel lies a corner up to this far behind the wing-to-wing line (more
/// than 1: the wing is sharper than the triangle's corner there).
fn back_reach() -> f32 {
    let (e, b, back) = (edge_lines(), bevel_lines(), back_line());
    let mut reach = 1.0f32;
    // Outline corners 0 and 2 are the wings: edges k − 1 and k meet there, bevel k cuts it.
    for k in [0, 2] {
        let lines = [e[(k + 3) % 4], e[k], b[k]];
        for (i, j) in [(0, 1), (0, 2), (1, 2)] {
            let Some(v) = meet(lines[i], 1.0, lines[j], 1.0) else {
                continue;
            };
            let inside = lines
                .iter()
                .all(|l| l[0] * v[0] + l[1] * v[1] <= 1.0 + 1e-4);
            if inside {
                reach = reach.max(back[0] * v[0] + back[1] * v[1]);
            }
        }
    }
    reach
}

/// Each drawn corner's outset (px per px of growth, in [`DRAWN`] order), so that the triangle
/// grown by [`GROW_PX`] holds every pixel the coverage reaches and no more than it must: the tip
/// moves GROW_PX out of both outer sides (the miter), each wing GROW_PX out of its outer side and
/// `back_reach()` × GROW_PX behind the back side.
pub fn outsets() -> [[f32; 2]; 3] {
    let (e, back, reach) = (edge_lines(), back_line(), back_reach());
    let grow = |v: Option<[f32; 2]>| {
        let v = v.expect("the triangle's sides are not parallel");
        [v[0] * GROW_PX, v[1] * GROW_PX]
    };
    [
        grow(meet(e[0], 1.0, back, reach)),
        grow(meet(e[0], 1.0, e[1], 1.0)),
        grow(meet(e[1], 1.0, back, reach)),
    ]
}

/// The per-vertex buffer: each drawn corner (boid lengths) followed by its outset (px).
pub fn vertices() -> [[f32; 4]; 3] {
    let o = outsets();
    std::array::from_fn(|i| {
        let c = CORNERS[DRAWN[i]];
        [c[0], c[1], o[i][0], o[i][1]]
    })
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

    /// Signed distance outside the spearhead, as `fs_boid` in `shaders/render.wgsl` takes it.
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

    /// Point `p` inside the drawn triangle grown for a boid `length_px` long (within `tol`
    /// boid lengths).
    fn in_grown_triangle(p: [f32; 2], length_px: f32, tol: f32) -> bool {
        let v = vertices();
        let c: Vec<[f32; 2]> = v
            .iter()
            .map(|v| [v[0] + v[2] / length_px, v[1] + v[3] / length_px])
            .collect();
        let side = |a: [f32; 2], b: [f32; 2]| {
            let (d, q) = (sub(b, a), sub(p, a));
            (d[0] * q[1] - d[1] * q[0]) / (d[0] * d[0] + d[1] * d[1]).sqrt()
        };
        let s = [side(c[0], c[1]), side(c[1], c[2]), side(c[2], c[0])];
        s.iter().all(|&x| x <= tol) || s.iter().all(|&x| x >= -tol)
    }

    /// Grown for a boid of 2 to 64 px, the drawn triangle holds every pixel centre the coverage
    /// reaches (distance outside the outline under GROW_PX px), the notch included; and it is
    /// tight: its outer sides lie GROW_PX px out and its back no farther than the wings' reach.
    #[test]
    fn the_grown_triangle_holds_every_pixel_with_coverage() {
        for length_px in [2.0f32, 4.0, 16.0, 64.0] {
            let n = 600;
            let mut covered = 0;
            for i in 0..=n {
                for j in 0..=n {
                    let p = [
                        -1.0 + 2.0 * i as f32 / n as f32,
                        -1.0 + 2.0 * j as f32 / n as f32,
                    ];
                    if distance(p) * length_px < GROW_PX {
                        covered += 1;
                        assert!(
                            in_grown_triangle(p, length_px, 1e-5),
                            "{p:?} has coverage at {length_px} px but is not drawn"
                        );
                    }
                }
            }
            assert!(covered > 1000, "{covered}");
        }
        let (e, back, o) = (edge_lines(), back_line(), outsets());
        let d = |l: [f32; 3], v: [f32; 2]| l[0] * v[0] + l[1] * v[1];
        // The outsets are px per px of growth: the tip and each wing sit GROW_PX out of their
        // outer sides; the wings reach back_reach() × GROW_PX behind the back side, more than
        // GROW_PX (the wing is sharper than the triangle there) and less than twice it.
        assert!((d(e[0], o[1]) - GROW_PX).abs() < 1e-5 && (d(e[1], o[1]) - GROW_PX).abs() < 1e-5);
        assert!((d(e[0], o[0]) - GROW_PX).abs() < 1e-5 && (d(e[1], o[2]) - GROW_PX).abs() < 1e-5);
        let behind = d(back, o[0]);
        assert!(behind > GROW_PX && behind < 2.0 * GROW_PX, "{behind}");
        assert!((d(back, o[2]) - behind).abs() < 1e-5);
        // Without the extra reach behind, some pixel with coverage would be left out.
        let wing = CORNERS[0];
        let p = [wing[0] - 1.1 * GROW_PX / 4.0, wing[1]];
        assert!(distance(p) * 4.0 < GROW_PX && in_grown_triangle(p, 4.0, 0.0));
        assert_eq!(vertices()[TIP as usize][..2], CORNERS[TIP as usize]);
    }

    /// The arrowhead is the triangle (wings, tip) less the notch triangle (wings, notch).
    #[test]
    fn area_is_the_outer_triangle_less_the_notch() {
        let outer = 0.5 * 0.68 * 1.0;
        let notch = 0.5 * 0.68 * 0.25;
        assert!((area() - (outer - notch)).abs() < 1e-6, "{}", area());
    }
}
