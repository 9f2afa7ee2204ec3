// The render passes: the world rectangle, obstacle discs, instanced spearheads (anti-aliased by their
// analytic edge coverage; or density dots when zoomed out) read straight from the boid state
// buffers (pos_vel, hue, neighbors), the optional trail layer, and the world's edge. Composed after
// common.wgsl (struct Boid) and render_view.wgsl (struct View, the colours).

@group(0) @binding(0) var<uniform> view: View;
@group(0) @binding(1) var<storage, read> pos_vel: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> hue: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read> obstacle_points: array<vec2<f32>>;
@group(0) @binding(4) var<storage, read> predators: array<Predator>;
// Neighbour counts of the last step, in state order (the neighbour colour mode).
@group(0) @binding(5) var<storage, read> neighbors: array<u32>;
// The trail layer, drawn earlier this frame, read texel by texel.
@group(1) @binding(0) var layer: texture_2d<f32>;
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


struct DotOut {
    @builtin(position) position: vec4<f32>,
    // The dot's colour (in the target's encoding) and its coverage per px².
    @location(0) @interpolate(flat) color: vec4<f32>,
    // The dot's centre (framebuffer px) and half its side (px).
    @location(1) @interpolate(flat) centre: vec2<f32>,
    @location(2) @interpolate(flat) half_side: f32,
    // The direction it is drawn along (dot_dir).
    @location(3) @interpolate(flat) dir: vec2<f32>,
}

// One boid as a density dot: a square of the spearhead's own area (side sqrt(area) × length px, at
// least dot_min_px) at its position carrying the coverage of its spearhead (area × length² px²,
// spread over the square and its streak; at least DOT_FLOOR per px²: dot_coverage) in its mean
// colour, with a motion streak of view.streak_px behind it along its heading (streak_cover). The quad reaches half a pixel past
// the dot and its streak in the dot's own axes (every pixel centre streak_cover reaches); the
// fragment takes streak_cover's share of the coverage (with no streak, the square's exact overlap
// with the pixel: a box filter), so a dot is anti-aliased and carries the same coverage however
// it falls on the pixel grid.
@vertex
fn vs_dot(@builtin(vertex_index) vi: u32, @builtin(instance_index) ii: u32) -> DotOut {
    let b = boid_from(pos_vel[ii], hue[ii], ii);
    let length_px = view.boid_length * view.zoom;
    let side = max(sqrt(view.boid_area) * length_px, view.dot_min_px);
    let coverage = dot_coverage(length_px, side);
    let half_side = 0.5 * side;
    let dir = dot_dir(b.velocity);
    let reach = dot_reach(half_side);
    let c = corner(vi);
    let along = select(-reach.x, reach.y, c.x > 0.0);
    let offset_px = dir * along + vec2<f32>(-dir.y, dir.x) * (c.y * reach.z);
    var out: DotOut;
    out.position = vec4<f32>(to_clip(b.position) + offset_px * view.px_to_clip, 0.0, 1.0);
    let viewport = 2.0 / abs(view.px_to_clip);
    out.centre = (b.position - view.center) * view.zoom + 0.5 * viewport;
    out.half_side = half_side;
    out.dir = dir;
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
    let covered = in.color.a * streak_cover(in.position.xy - in.centre, in.dir,
                                            2.0 * in.half_side);
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
