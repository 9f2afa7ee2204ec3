// The render passes: the world rectangle, obstacle discs, instanced spearheads (anti-aliased by their
// analytic edge coverage; or density dots when zoomed out) read straight from the boid state
// buffers (pos_vel, hue, neighbors), the optional trail layer, and the world's edge. Composed after
// common.wgsl (uses: struct Boid). `View` is laid out by encase from src/render/renderer.rs
// (ViewUniforms); tests/it/shaders.rs checks both agree.

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
    // The spearhead's outline edges (src/render/mesh.rs, edge_lines): (n.x, n.y, c, 0) with n the
    // unit outward normal and c such that dot(n, p) − c is the signed distance of p (boid lengths)
    // outside the edge's line. 0, 1: the outer sides (wing → tip → wing); 2, 3: the notch's sides.
    spear_edges: array<vec4<f32>, 4>,
    // The bevels of its convex corners (left wing, tip, right wing; mesh.rs, bevel_lines), likewise.
    spear_bevels: array<vec4<f32>, 3>,
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

@group(0) @binding(0) var<uniform> view: View;
@group(0) @binding(1) var<storage, read> pos_vel: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> hue: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read> obstacle_points: array<vec2<f32>>;
@group(0) @binding(4) var<storage, read> predators: array<Predator>;
// Neighbour counts of the last step, in state order (the neighbour colour mode).
@group(0) @binding(5) var<storage, read> neighbors: array<u32>;
// The trail layer, drawn earlier this frame, read texel by texel.
@group(1) @binding(0) var layer: texture_2d<f32>;

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

struct BoidOut {
    @builtin(position) position: vec4<f32>,
    // Premultiplied colour, in the target's encoding.
    @location(0) color: vec4<f32>,
    // The fragment's signed distances (px) outside the outline's edge lines (view.spear_edges)
    // and its corners' bevels (view.spear_bevels): affine in the position, so interpolated exactly.
    @location(1) edges: vec4<f32>,
    @location(2) bevels: vec3<f32>,
}

// Index of the spearhead's tip among the drawn triangle's corners (src/render/mesh.rs, DRAWN:
// left wing, tip, right wing).
const TIP: u32 = 1u;

// One corner of boid `b`'s drawn triangle (the spearhead's outer one; fs_boid cuts the notch
// out): `corner` in boid space (x forward, unit = boid length), moved
// out by `outset` px (the mesh grown by half a pixel, the edge's fade's room), turned along the
// velocity, with the tip colour at the tip and the tail colour elsewhere (one colour a vertex),
// and the corner's signed distances to the outline's lines for fs_boid.
fn boid_vertex(b: Boid, i: u32, corner: vec2<f32>, outset: vec2<f32>, is_tip: bool) -> BoidOut {
    let v2 = dot(b.velocity, b.velocity);
    var dir = vec2<f32>(1.0, 0.0);
    if (v2 > 1e-12) {
        dir = b.velocity * inverseSqrt(v2);
    }
    let length_px = clamp(view.boid_length * view.zoom, view.min_length_px, view.max_length_px);
    let local = corner * length_px + outset;
    let offset_px = vec2<f32>(local.x * dir.x - local.y * dir.y, local.x * dir.y + local.y * dir.x);
    var out: BoidOut;
    out.position = vec4<f32>(to_clip(b.position) + offset_px * view.px_to_clip, 0.0, 1.0);
    out.color = vec4<f32>(encode(boid_colour(b, i, f32(is_tip))) * view.alpha, view.alpha);
    let p = local / length_px;
    let e = view.spear_edges;
    let bv = view.spear_bevels;
    out.edges = vec4<f32>(dot(e[0].xy, p) - e[0].z, dot(e[1].xy, p) - e[1].z,
                          dot(e[2].xy, p) - e[2].z, dot(e[3].xy, p) - e[3].z) * length_px;
    out.bevels = vec3<f32>(dot(bv[0].xy, p) - bv[0].z, dot(bv[1].xy, p) - bv[1].z,
                           dot(bv[2].xy, p) - bv[2].z) * length_px;
    return out;
}

// The instanced draw: one instance per boid (read from the state buffer by instance index), the
// triangle's corner and its outset from the per-vertex buffer; the index buffer makes the one
// triangle.
@vertex
fn vs_boid(@location(0) corner: vec2<f32>, @location(1) outset: vec2<f32>,
           @builtin(vertex_index) vi: u32, @builtin(instance_index) ii: u32) -> BoidOut {
    return boid_vertex(boid_from(pos_vel[ii], hue[ii], ii), ii, corner, outset, vi == TIP);
}

// Analytic anti-aliasing: the pixel's coverage from its signed distance d (px) outside the concave
// spearhead, clamp(0.5 − d, 0, 1) (the distances are in px, so fwidth(d) = 1 without derivatives):
// d is outside either outer side or inside the notch (outside both its sides), and at least the
// distance outside each corner's bevel, so a sharp corner fades from the corner itself. Pixels of
// the drawn triangle in the notch get none. The seven line distances come interpolated from the
// vertex stage (they are affine), so a fragment takes only their max and min: under the overdraw
// of a dense flock the fragment stage is most of the cost.
@fragment
fn fs_boid(in: BoidOut) -> @location(0) vec4<f32> {
    let outer = max(in.edges.x, in.edges.y);
    let bevels = max(max(in.bevels.x, in.bevels.y), in.bevels.z);
    let notch = min(in.edges.z, in.edges.w);
    let d_px = max(max(outer, bevels), notch);
    let coverage = clamp(0.5 - d_px, 0.0, 1.0);
    if (coverage <= 0.0) {
        discard;
    }
    return in.color * coverage;
}

// Smallest coverage a density dot carries, so a lone boid stays visible however far out.
const DOT_FLOOR: f32 = 0.12;

struct DotOut {
    @builtin(position) position: vec4<f32>,
    // The dot's colour (in the target's encoding) and its coverage per px².
    @location(0) @interpolate(flat) color: vec4<f32>,
    // The dot's centre (framebuffer px) and half its side (px).
    @location(1) @interpolate(flat) centre: vec2<f32>,
    @location(2) @interpolate(flat) half_side: f32,
}

// One boid as a density dot: a square of the spearhead's own area (side sqrt(area) × length px, at
// least dot_min_px) at its position carrying the coverage of its spearhead (area × length² px²,
// spread over the square; at least DOT_FLOOR per px²) in its mean colour. The quad reaches half a
// pixel past the square (every pixel centre the square overlaps); the fragment takes the square's
// exact overlap with the pixel (a box filter), so a dot is anti-aliased and carries the same
// coverage however it falls on the pixel grid.
@vertex
fn vs_dot(@builtin(vertex_index) vi: u32, @builtin(instance_index) ii: u32) -> DotOut {
    let b = boid_from(pos_vel[ii], hue[ii], ii);
    let length_px = view.boid_length * view.zoom;
    let side = max(sqrt(view.boid_area) * length_px, view.dot_min_px);
    let coverage = clamp(view.boid_area * length_px * length_px / (side * side), DOT_FLOOR, 1.0)
        * view.alpha;
    let half_side = 0.5 * side;
    var out: DotOut;
    out.position = vec4<f32>(to_clip(b.position) + corner(vi) * (half_side + 0.5) * view.px_to_clip,
                             0.0, 1.0);
    let viewport = 2.0 / abs(view.px_to_clip);
    out.centre = (b.position - view.center) * view.zoom + 0.5 * viewport;
    out.half_side = half_side;
    // The spearhead's mean colour: over a triangle the tip's barycentric weight averages 1/3.
    out.color = vec4<f32>(encode(boid_colour(b, ii, 1.0 / 3.0)), coverage);
    return out;
}

// A dot over what is below at the opacity 1 − exp(−dot_gain × its coverage of the pixel): over a
// pixel the dots' opacities compound to 1 − exp(−dot_gain × their summed coverage), so opacity
// follows density, and the colour tends to the colour of the boids there instead of adding up
// towards white (a flock keeps its hue).
@fragment
fn fs_dot(in: DotOut) -> @location(0) vec4<f32> {
    let lo = max(in.position.xy - vec2<f32>(0.5), in.centre - vec2<f32>(in.half_side));
    let hi = min(in.position.xy + vec2<f32>(0.5), in.centre + vec2<f32>(in.half_side));
    let overlap = clamp(hi - lo, vec2<f32>(0.0), vec2<f32>(1.0));
    let covered = in.color.a * overlap.x * overlap.y;
    if (covered <= 0.0) {
        discard;
    }
    let opacity = 1.0 - exp(-view.dot_gain * covered);
    return vec4<f32>(in.color.rgb * opacity, opacity);
}

// The whole target as one quad (the trail layer's fade and composite).
@vertex
fn vs_fullscreen(@builtin(vertex_index) vi: u32) -> @builtin(position) vec4<f32> {
    return vec4<f32>(corner(vi), 0.0, 1.0);
}

// The trail layer fades: the blend keeps the blend constant's share of what is there (the
// fragment's own value is multiplied by zero).
@fragment
fn fs_fade() -> @location(0) vec4<f32> {
    return vec4<f32>(0.0);
}

// A premultiplied layer (the trails) composited over what is below.
@fragment
fn fs_layer(@builtin(position) pos: vec4<f32>) -> @location(0) vec4<f32> {
    let c = textureLoad(layer, vec2<i32>(pos.xy), 0);
    if (c.a <= 1.0 / 1024.0) {
        discard;
    }
    return c;
}

struct EdgeOut {
    @builtin(position) position: vec4<f32>,
    // 1 on the top and bottom edges (dashes run along x), 0 on the sides.
    @location(0) @interpolate(flat) horizontal: u32,
}

// The world's edge: instance 0–3 = top, bottom, left, right; each a quad of edge_px px just inside
// the world rectangle (so a view that fits the world shows it at the window's border).
@vertex
fn vs_edge(@builtin(vertex_index) vi: u32, @builtin(instance_index) ii: u32) -> EdgeOut {
    let w = view.world;
    var a = vec2<f32>(0.0, 0.0);
    var b = vec2<f32>(w.x, 0.0);
    var n = vec2<f32>(0.0, -1.0);
    if (ii == 1u) {
        a = vec2<f32>(0.0, w.y);
        b = w;
        n = vec2<f32>(0.0, 1.0);
    } else if (ii == 2u) {
        b = vec2<f32>(0.0, w.y);
        n = vec2<f32>(-1.0, 0.0);
    } else if (ii == 3u) {
        a = vec2<f32>(w.x, 0.0);
        b = w;
        n = vec2<f32>(1.0, 0.0);
    }
    let c = corner(vi);
    let t = c.x * 0.5 + 0.5;
    let out_px = -n * (c.y * 0.5 + 0.5) * view.edge_px;
    var out: EdgeOut;
    out.position = vec4<f32>(to_clip(mix(a, b, t)) + out_px * view.px_to_clip, 0.0, 1.0);
    out.horizontal = select(0u, 1u, ii < 2u);
    return out;
}

@fragment
fn fs_edge(in: EdgeOut) -> @location(0) vec4<f32> {
    if (view.edge_dash == 1u) {
        var along = in.position.y;
        if (in.horizontal == 1u) {
            along = in.position.x;
        }
        if (fract(along / 12.0) > 0.5) {
            discard;
        }
    }
    return view.edge_color;
}

struct DiscOut {
    @builtin(position) position: vec4<f32>,
    // Position inside the disc's square, −1..1.
    @location(0) local: vec2<f32>,
    // Edge softness in disc units (one pixel).
    @location(1) feather: f32,
}

fn corner(vi: u32) -> vec2<f32> {
    return vec2<f32>(f32(vi & 1u) * 2.0 - 1.0, f32(vi >> 1u) * 2.0 - 1.0);
}

// One obstacle point as a disc of `obstacle_radius` wu (at least `obstacle_min_px` px).
@vertex
fn vs_obstacle(@builtin(vertex_index) vi: u32, @builtin(instance_index) ii: u32) -> DiscOut {
    let c = corner(vi);
    let r_px = max(view.obstacle_radius * view.zoom, view.obstacle_min_px);
    var out: DiscOut;
    out.position = vec4<f32>(
        to_clip(obstacle_points[ii]) + c * (r_px + 1.0) * view.px_to_clip,
        0.0,
        1.0,
    );
    out.local = c * (r_px + 1.0) / r_px;
    out.feather = 1.0 / r_px;
    return out;
}

@fragment
fn fs_obstacle(in: DiscOut) -> @location(0) vec4<f32> {
    let d = length(in.local);
    let a = clamp((1.0 - d) / in.feather + 0.5, 0.0, 1.0);
    if (a <= 0.0) {
        discard;
    }
    return view.obstacle_color * a;
}

struct PredatorOut {
    @builtin(position) position: vec4<f32>,
    // Position inside the disc's square in disc units, x along the heading.
    @location(0) local: vec2<f32>,
    @location(1) feather: f32,
    @location(2) @interpolate(flat) kind: u32,
}

// One predator as a disc of `predator_radius` wu (at least `predator_min_px` px) turned along its
// velocity, drawn after the boids.
@vertex
fn vs_predator(@builtin(vertex_index) vi: u32, @builtin(instance_index) ii: u32) -> PredatorOut {
    let pr = predators[ii];
    let c = corner(vi);
    let r_px = max(view.predator_radius * view.zoom, view.predator_min_px);
    let v2 = dot(pr.velocity, pr.velocity);
    var dir = vec2<f32>(1.0, 0.0);
    if (v2 > 1e-12) {
        dir = pr.velocity * inverseSqrt(v2);
    }
    let s = c * (r_px + 1.0);
    let turned = vec2<f32>(s.x * dir.x - s.y * dir.y, s.x * dir.y + s.y * dir.x);
    var out: PredatorOut;
    out.position = vec4<f32>(to_clip(pr.position) + turned * view.px_to_clip, 0.0, 1.0);
    out.local = c * (r_px + 1.0) / r_px;
    out.feather = 1.0 / r_px;
    out.kind = pr.kind;
    return out;
}

// Hunting predators red, straight ones amber (sRGB), whatever the theme; a dark rim and a light
// wedge toward the heading.
@fragment
fn fs_predator(in: PredatorOut) -> @location(0) vec4<f32> {
    let d = length(in.local);
    let a = clamp((1.0 - d) / in.feather + 0.5, 0.0, 1.0);
    if (a <= 0.0) {
        discard;
    }
    var body = vec3<f32>(0.92, 0.62, 0.12);
    if (in.kind == 1u) {
        body = vec3<f32>(0.86, 0.16, 0.16);
    }
    var rgb = body;
    if (d > 0.8) {
        rgb = body * 0.45;
    } else if (in.local.x > 0.05 && abs(in.local.y) < (0.8 - in.local.x) * 0.7) {
        rgb = mix(body, vec3<f32>(1.0), 0.55);
    }
    // To linear for an sRGB target (the constants are sRGB-encoded).
    var c = rgb;
    if (view.srgb_target == 1u) {
        c = select(pow((rgb + 0.055) / 1.055, vec3<f32>(2.4)), rgb / 12.92, rgb <= vec3<f32>(0.04045));
    }
    return vec4<f32>(c * a, a);
}

// The world rectangle [0, W) × [0, H) in the world background colour.
@vertex
fn vs_world(@builtin(vertex_index) vi: u32) -> @builtin(position) vec4<f32> {
    let c = corner(vi) * 0.5 + 0.5;
    return vec4<f32>(to_clip(c * view.world), 0.0, 1.0);
}

@fragment
fn fs_world() -> @location(0) vec4<f32> {
    return view.world_color;
}
