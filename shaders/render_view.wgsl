// What the render shaders share: the `View` uniform block (laid out by encase from
// src/render/renderer.rs's ViewUniforms; tests/it/shaders.rs checks both agree), the predator
// struct, the camera transform and the boids' colours. Composed after common.wgsl (struct Boid)
// and before render.wgsl or splat.wgsl, which declare the bindings these functions read (`view`,
// `neighbors`).

struct View {
    // Background inside the world, in the target's encoding (premultiplied, alpha 1).
    world_color: vec4<f32>,
    // Obstacle disc colour, in the target's encoding.
    obstacle_color: vec4<f32>,
    // Edge line colour, in the target's encoding, premultiplied by its opacity.
    edge_color: vec4<f32>,
    // World point at the viewport centre (wu).
    center: vec2<f32>,
    // Clip units per wu: (2·zoom / width_px, −2·zoom / height_px).
    scale: vec2<f32>,
    // Clip units per px: (2 / width_px, −2 / height_px).
    px_to_clip: vec2<f32>,
    // World size W, H (wu).
    world: vec2<f32>,
    // Boid length tip to tail (wu).
    boid_length: f32,
    // Smallest on-screen boid length (px); below it boids are drawn as density dots.
    min_length_px: f32,
    // Largest on-screen boid length (px).
    max_length_px: f32,
    // Smallest side of a density dot (px).
    dot_min_px: f32,
    // Spearhead area in boid lengths² (src/render/mesh.rs).
    boid_area: f32,
    // px per wu.
    zoom: f32,
    // Boid opacity.
    alpha: f32,
    // OKLab lightness of the tip and of the tail.
    tip_lightness: f32,
    tail_lightness: f32,
    // OKLCh chroma of both colours.
    chroma: f32,
    // Hue offset of the tail colour from the tip colour (rad).
    tail_hue_shift: f32,
    // Obstacle disc radius (wu) and its smallest on-screen radius (px).
    obstacle_radius: f32,
    obstacle_min_px: f32,
    // Edge line width (px) and 1 for a dashed line (the wrap seam).
    edge_px: f32,
    edge_dash: u32,
    // What the colour shows (src/render/colour.rs, COLOUR_MODES): 0 hue vector, 1 heading,
    // 2 speed, 3 neighbour count.
    colour_mode: u32,
    // 1 when the target is an sRGB format (write linear colour), 0 when it stores sRGB-encoded bytes.
    srgb_target: u32,
    // Predator disc radius (wu) and its smallest on-screen radius (px).
    predator_radius: f32,
    predator_min_px: f32,
    // Speeds at the two ends of the speed colour map (wu/s).
    speed_lo: f32,
    speed_hi: f32,
    // Neighbour count at the top of the neighbour colour map.
    neighbours_full: f32,
    // Opacity of a density dot over a pixel: 1 − exp(−dot_gain · its coverage there).
    dot_gain: f32,
    // Length of a density dot's motion streak behind it (px; 0 = square dots).
    streak_px: f32,
    // Boids drawn (the compute rasteriser's invocations).
    boid_count: u32,
    // The spearhead's outline edges (src/render/mesh.rs, edge_lines): (n.x, n.y, c, 0) with n the
    // unit outward normal and c such that dot(n, p) − c is the signed distance of p (boid lengths)
    // outside the edge's line. 0, 1: the outer sides (wing → tip → wing); 2, 3: the notch's sides.
    spear_edges: array<vec4<f32>, 4>,
    // The bevels of its convex corners (left wing, tip, right wing; mesh.rs, bevel_lines), likewise.
    spear_bevels: array<vec4<f32>, 3>,
    // The drawn triangle's corners (left wing, tip, right wing; boid lengths) and their outsets
    // (px per px of growth): mesh.rs, vertices (the instanced draw's per-vertex buffer).
    spear_drawn: array<vec4<f32>, 3>,
}

// One predator (src/model/predators.rs `Predator`, 32 bytes): kind 0 straight, 1 hunting.
struct Predator {
    position: vec2<f32>,
    velocity: vec2<f32>,
    kind: u32,
    target_id: u32,
    pad0: u32,
    pad1: u32,
}

// Smallest coverage a density dot carries, so a lone boid stays visible however far out.
const DOT_FLOOR: f32 = 0.12;

// A streak's ink at its tail, as a fraction of its ink at the head (it falls linearly between).
const STREAK_TAIL: f32 = 0.15;

// The heading a density dot is drawn along: the velocity's direction with a streak, else the x
// axis (a square dot, whatever the heading).
fn dot_dir(velocity: vec2<f32>) -> vec2<f32> {
    let v2 = dot(velocity, velocity);
    if (view.streak_px > 0.0 && v2 > 1e-12) {
        return velocity * inverseSqrt(v2);
    }
    return vec2<f32>(1.0, 0.0);
}

// The share of a density dot's coverage on the pixel whose centre lies `q` px from the dot's
// centre, for a dot of side `side` px heading `dir` (unit) with a motion streak view.streak_px
// long behind it: in the dot's own axes (along `dir`, across it), the overlap of the pixel's unit
// box with the square stretched back by the streak — the exact box filter of fs_dot's square when
// the streak is 0 and `dir` the x axis — times the ink along the streak, 1 at the head falling
// linearly to STREAK_TAIL at the tail. Shared by fs_dot and the compute rasteriser's splat_dot.
fn streak_cover(q: vec2<f32>, dir: vec2<f32>, side: f32) -> f32 {
    let a = dot(q, dir);
    let b = q.y * dir.x - q.x * dir.y;
    let h = 0.5 * side;
    let l = view.streak_px;
    let along = clamp(min(a + 0.5, h) - max(a - 0.5, -h - l), 0.0, 1.0);
    let across = clamp(min(b + 0.5, h) - max(b - 0.5, -h), 0.0, 1.0);
    var ink = 1.0;
    if (l > 0.0) {
        ink = mix(1.0, STREAK_TAIL, clamp(-a / l, 0.0, 1.0));
    }
    return along * across * ink;
}

// The coverage per px² of a density dot of side `side` px for a boid `length_px` long, times the
// boids' opacity: its spearhead's ink (boid_area × length_px², px²) spread over what streak_cover
// inks — side² for a square dot, side × (1 + STREAK_TAIL)/2 × (side + streak) with a streak, so a
// streak spreads a dot's ink rather than adding to it and a flock is as bright as dots, streaks
// or spearheads — at least DOT_FLOOR (a lone boid stays visible however far out), at most 1.
fn dot_coverage(length_px: f32, side: f32) -> f32 {
    var inked = side * side;
    if (view.streak_px > 0.0) {
        inked = side * 0.5 * (1.0 + STREAK_TAIL) * (side + view.streak_px);
    }
    return clamp(view.boid_area * length_px * length_px / inked, DOT_FLOOR, 1.0) * view.alpha;
}

// The reach of a density dot of half side `h` px heading `dir` from its centre, in its own axes:
// (behind, ahead, across) px, every pixel centre where streak_cover is above 0 lying within.
fn dot_reach(h: f32) -> vec3<f32> {
    return vec3<f32>(h + view.streak_px + 0.5, h + 0.5, h + 0.5);
}

fn to_clip(p: vec2<f32>) -> vec2<f32> {
    return (p - view.center) * view.scale;
}

// OKLCh (Björn Ottosson, "A perceptual color space for image processing", 2020) to linear sRGB.
fn oklch_to_linear(l: f32, c: f32, h: f32) -> vec3<f32> {
    let a = c * cos(h);
    let b = c * sin(h);
    let l_ = l + 0.3963377774 * a + 0.2158037573 * b;
    let m_ = l - 0.1055613458 * a - 0.0638541728 * b;
    let s_ = l - 0.0894841775 * a - 1.2914855480 * b;
    let l3 = l_ * l_ * l_;
    let m3 = m_ * m_ * m_;
    let s3 = s_ * s_ * s_;
    let rgb = vec3<f32>(
        4.0767416621 * l3 - 3.3077115913 * m3 + 0.2309699292 * s3,
        -1.2684380046 * l3 + 2.6097574011 * m3 - 0.3413193965 * s3,
        -0.0041960863 * l3 - 0.7034186147 * m3 + 1.7076147010 * s3,
    );
    return clamp(rgb, vec3<f32>(0.0), vec3<f32>(1.0));
}

fn encode(linear: vec3<f32>) -> vec3<f32> {
    if (view.srgb_target == 1u) {
        return linear;
    }
    let lo = linear * 12.92;
    let hi = 1.055 * pow(linear, vec3<f32>(1.0 / 2.4)) - 0.055;
    return select(hi, lo, linear <= vec3<f32>(0.0031308));
}

// The spearhead's colours (linear RGB) for what the colour mode shows, at a tip weight `w`: 1 at
// the tip, 0 at the tail (the wings and the notch), 1/3 for its mean over the spearhead.

// A sequential map for scalars, t in 0..1: hue from blue (265°) through green to yellow (65°),
// lightness rising from the theme's tail lightness to its tip lightness (the tip a little lighter).
fn scalar_colour(t: f32, w: f32) -> vec3<f32> {
    let u = clamp(t, 0.0, 1.0);
    let l = mix(view.tail_lightness - 0.08, view.tip_lightness, u) + 0.06 * w;
    return oklch_to_linear(l, view.chroma * 1.2, mix(4.625, 1.134, u));
}

// A two-colour pastel gradient from an angle on the hue circle: the tip colour at the tip, the tail
// colour (lightness lower, hue shifted) at the tail.
fn circle_colour(angle: f32, w: f32) -> vec3<f32> {
    let l = mix(view.tail_lightness, view.tip_lightness, w);
    return oklch_to_linear(l, view.chroma, angle + (1.0 - w) * view.tail_hue_shift);
}

// Boid `b` (state index `i`)'s colour at tip weight `w`, by the colour mode.
fn boid_colour(b: Boid, i: u32, w: f32) -> vec3<f32> {
    switch (view.colour_mode) {
        case 1u: {
            return circle_colour(atan2(b.velocity.y, b.velocity.x), w);
        }
        case 2u: {
            let span = max(view.speed_hi - view.speed_lo, 1e-6);
            return scalar_colour((length(b.velocity) - view.speed_lo) / span, w);
        }
        case 3u: {
            return scalar_colour(f32(neighbors[i]) / max(view.neighbours_full, 1.0), w);
        }
        case 0u, default: {
            return circle_colour(atan2(b.hue.y, b.hue.x), w);
        }
    }
}

