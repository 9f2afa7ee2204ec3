// The compute rasteriser (src/render/splat.rs): boids drawn small (up to the crossover length,
// and density dots) written pixel by pixel by a compute pass, then composited by one full-screen
// fragment pass. A module of its own, composed after common.wgsl and render_view.wgsl: its
// fragment stage reads the planes, and lavapipe ran the same fragment entry point 12× slower when
// it was compiled in the module of every render pass.

@group(0) @binding(0) var<uniform> view: View;
@group(0) @binding(1) var<storage, read> pos_vel: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> hue: array<vec4<f32>>;
// Neighbour counts of the last step, in state order (the neighbour colour mode).
@group(0) @binding(5) var<storage, read> neighbors: array<u32>;
// The compute rasteriser's three planes of one u32 per pixel, row by row (src/render/splat.rs):
// the key of the boid covering most of the pixel (its coverage in 6 bits above its index in 26;
// 0 for none: the largest coverage wins, then the highest index, as the instanced draw's
// last-drawn boid is on top), the key of the boid on top (its index in 26 bits above its coverage
// in 6: the highest index, the instanced draw's last drawn), then Σ −ln(1 − α) of every boid over
// the pixel in fixed point (SPLAT_SCALE). Cleared, then written (atomics) by cs_splat, read by
// fs_splat.
@group(2) @binding(0) var<storage, read_write> splat_acc: array<atomic<u32>>;
@group(2) @binding(1) var<storage, read> splat_in: array<u32>;
// Each boid's colours in the target's encoding and its tip weight as a function of the pixel,
// two words of four per boid: [2i] the tip's and the tail's r g b as 8-bit unorm (a density dot's
// mean colour twice), 0, 0; [2i + 1] the f32 bits of (gx, gy, c, 0), whose
// w = clamp(gx·x + gy·y + c, 0, 1) at framebuffer pixel (x, y) is the tip's barycentric weight on
// the instanced draw's triangle (1 for a dot). Written by cs_splat, read by fs_splat, so that the
// full-screen resolve does no colour maths and no geometry (lavapipe runs a fragment shader's
// every line for every pixel, the pixels without a boid included).
@group(2) @binding(2) var<storage, read_write> colours_out: array<vec4<u32>>;
@group(2) @binding(3) var<storage, read> colours_in: array<vec4<u32>>;
// The tiles (SPLAT_TILE px square, row by row) that boids touched: [0..4) the resolve's indirect
// draw (4 vertices, one instance per touched tile), then one flag per tile (set by cs_splat,
// cleared by cs_splat_tiles), then the list of touched tiles (cs_splat_tiles), which the resolve
// draws; the rest of the frame is not read.
@group(2) @binding(4) var<storage, read_write> splat_tiles: array<atomic<u32>>;
@group(2) @binding(5) var<storage, read> splat_tiles_in: array<u32>;


// The side of a tile of the resolve (px).
const SPLAT_TILE: u32 = 16u;
// Where the tile flags and the tile list start in splat_tiles (after the indirect draw's 4 words).
const SPLAT_FLAGS: u32 = 4u;

fn tiles_of(size: vec2<u32>) -> vec2<u32> {
    return (size + vec2<u32>(SPLAT_TILE - 1u)) / SPLAT_TILE;
}

// Flags the tiles of the pixels lo..hi (exclusive) as touched.
fn touch_tiles(lo: vec2<i32>, hi: vec2<i32>, size: vec2<u32>) {
    if (any(hi <= lo)) {
        return;
    }
    let t = tiles_of(size);
    let a = vec2<u32>(lo) / SPLAT_TILE;
    let b = (vec2<u32>(hi) - vec2<u32>(1u)) / SPLAT_TILE;
    for (var y = a.y; y <= b.y; y++) {
        for (var x = a.x; x <= b.x; x++) {
            atomicStore(&splat_tiles[SPLAT_FLAGS + y * t.x + x], 1u);
        }
    }
}

// Tile `instance` of the touched-tile list as a quad.
@vertex
fn vs_splat_tile(@builtin(vertex_index) vi: u32, @builtin(instance_index) instance: u32)
    -> @builtin(position) vec4<f32> {
    let size = viewport_px();
    let t = tiles_of(size);
    let tile = splat_tiles_in[SPLAT_FLAGS + t.x * t.y + instance];
    let corner = vec2<u32>(tile % t.x + (vi & 1u), tile / t.x + (vi >> 1u));
    let px = vec2<f32>(min(corner * SPLAT_TILE, size));
    let clip = px / vec2<f32>(size) * 2.0 - vec2<f32>(1.0);
    return vec4<f32>(clip.x, -clip.y, 0.0, 1.0);
}

// It draws what fs_boid and fs_dot draw: the same coverage from the same distances,
// the same colours; the opacities over a pixel compound as alpha blending does
// (1 − Π(1 − α_i) = 1 − exp(−Σ −ln(1 − α_i)), exactly, whatever the order); the colour is the
// boid with the largest coverage of the pixel (the last drawn among equals), where blending would
// mix the colours of overlapping boids.

// Fixed point of the accumulated −ln(1 − α) (1/4096; a boid adds at most SPLAT_L_MAX).
const SPLAT_SCALE: f32 = 4096.0;
const SPLAT_L_MAX: f32 = 8.0;
// Bits of a key's boid index (MAX_BOIDS = 2^26).
const SPLAT_INDEX_BITS: u32 = 26u;
// Bits of a key's coverage (in 63ths).
const SPLAT_COVER_BITS: u32 = 6u;

fn viewport_px() -> vec2<u32> {
    return vec2<u32>(round(2.0 / abs(view.px_to_clip)));
}

// Adds a boid's opacity `a` (> 0) at pixel `k` (row-major, of `n` pixels) with its key.
fn splat_add(i: u32, k: u32, n: u32, a: f32, cover: f32) {
    let q = clamp(u32(round(cover * 63.0)), 1u, 63u);
    atomicMax(&splat_acc[k], (q << SPLAT_INDEX_BITS) | i);
    atomicMax(&splat_acc[n + k], (i << SPLAT_COVER_BITS) | q);
    let l = min(-log(max(1.0 - a, 1e-6)), SPLAT_L_MAX);
    atomicAdd(&splat_acc[2u * n + k], u32(l * SPLAT_SCALE + 0.5));
}

// The spearhead of boid `i` heading `dir` (unit) at framebuffer position `centre` (px): every pixel of its bounding
// square with fs_boid's coverage.
fn splat_spear(i: u32, dir: vec2<f32>, centre: vec2<f32>, size: vec2<u32>) {
    let length_px = clamp(view.boid_length * view.zoom, view.min_length_px, view.max_length_px);
    // The pixels of the instanced draw's triangle (its drawn corners grown by their outsets, where
    // every pixel with coverage lies): their bounding box on screen.
    let d = view.spear_drawn;
    let normal = vec2<f32>(-dir.y, dir.x);
    var lo_f = vec2<f32>(1e30);
    var hi_f = vec2<f32>(-1e30);
    for (var c = 0; c < 3; c++) {
        let corner = d[c].xy * length_px + d[c].zw;
        let on_screen = centre + dir * corner.x + normal * corner.y;
        lo_f = min(lo_f, on_screen);
        hi_f = max(hi_f, on_screen);
    }
    let lo = vec2<i32>(floor(max(lo_f, vec2<f32>(0.0))));
    let hi = vec2<i32>(ceil(min(hi_f, vec2<f32>(size))));
    touch_tiles(lo, hi, size);
    let e = view.spear_edges;
    let bv = view.spear_bevels;
    let n = size.x * size.y;
    for (var y = lo.y; y < hi.y; y++) {
        for (var x = lo.x; x < hi.x; x++) {
            let q = vec2<f32>(f32(x), f32(y)) + 0.5 - centre;
            // Boid space (boid lengths): x along the velocity.
            let p = vec2<f32>(q.x * dir.x + q.y * dir.y, q.y * dir.x - q.x * dir.y) / length_px;
            let outer = max(dot(e[0].xy, p) - e[0].z, dot(e[1].xy, p) - e[1].z);
            let bevels = max(max(dot(bv[0].xy, p) - bv[0].z, dot(bv[1].xy, p) - bv[1].z),
                             dot(bv[2].xy, p) - bv[2].z);
            let notch = min(dot(e[2].xy, p) - e[2].z, dot(e[3].xy, p) - e[3].z);
            let coverage = clamp(0.5 - max(max(outer, bevels), notch) * length_px, 0.0, 1.0);
            if (coverage > 0.0) {
                splat_add(i, u32(y) * size.x + u32(x), n, view.alpha * coverage, coverage);
            }
        }
    }
}

// Boid `i` as a density dot at `centre` (px) heading `dir` (dot_dir): fs_dot's dot and streak,
// each pixel where streak_cover can be above 0 with its share of the coverage. Row by row, only
// the columns whose centres lie inside the dot's reach in its own axes (dot_reach): a streak
// across the rows touches about as many pixels as it covers, not its whole bounding box.
fn splat_dot(i: u32, centre: vec2<f32>, dir: vec2<f32>, length_px: f32, size: vec2<u32>) {
    let side = max(sqrt(view.boid_area) * length_px, view.dot_min_px);
    let coverage = dot_coverage(length_px, side);
    let reach = dot_reach(0.5 * side);
    // The box of vs_dot's quad on screen.
    let normal = vec2<f32>(-dir.y, dir.x);
    let ends = array<vec2<f32>, 2>(centre - dir * reach.x, centre + dir * reach.y);
    let wide = abs(normal) * reach.z;
    let lo_f = min(ends[0], ends[1]) - wide;
    let hi_f = max(ends[0], ends[1]) + wide;
    let lo = vec2<i32>(floor(max(lo_f, vec2<f32>(0.0))));
    let hi = vec2<i32>(ceil(min(hi_f, vec2<f32>(size))));
    touch_tiles(lo, hi, size);
    let n = size.x * size.y;
    for (var y = lo.y; y < hi.y; y++) {
        // The pixel centres q = (qx, qy) of this row inside the reach: along = q·dir in
        // (−reach.x, reach.y) and across = qy·dir.x − qx·dir.y in (−reach.z, reach.z), each an
        // interval of qx (the whole row where its coefficient is 0).
        let qy = f32(y) + 0.5 - centre.y;
        var q_lo = f32(lo.x) + 0.5 - centre.x;
        var q_hi = f32(hi.x) - 0.5 - centre.x;
        if (abs(dir.x) > 1e-6) {
            let t0 = (-reach.x - qy * dir.y) / dir.x;
            let t1 = (reach.y - qy * dir.y) / dir.x;
            q_lo = max(q_lo, min(t0, t1));
            q_hi = min(q_hi, max(t0, t1));
        }
        if (abs(dir.y) > 1e-6) {
            let t0 = (qy * dir.x - reach.z) / dir.y;
            let t1 = (qy * dir.x + reach.z) / dir.y;
            q_lo = max(q_lo, min(t0, t1));
            q_hi = min(q_hi, max(t0, t1));
        }
        // One column more on each side than the interval asks (rounding); streak_cover gives
        // them 0 where they lie outside.
        let x0 = max(lo.x, i32(floor(centre.x + q_lo - 0.5)));
        let x1 = min(hi.x, i32(ceil(centre.x + q_hi - 0.5)) + 1);
        for (var x = x0; x < x1; x++) {
            let share = streak_cover(vec2<f32>(f32(x), f32(y)) + 0.5 - centre, dir, side);
            let covered = coverage * share;
            if (covered > 0.0) {
                // fs_dot's opacity 1 − exp(−gain · covered): its −ln(1 − α) is gain · covered.
                splat_add(i, u32(y) * size.x + u32(x), n, 1.0 - exp(-view.dot_gain * covered),
                          share);
            }
        }
    }
}

// The tip's and the tail's colour as 8-bit unorm, and the tip weight's plane (gx, gy, c).
fn store_colours(i: u32, tip: vec3<f32>, tail: vec3<f32>, plane: vec3<f32>) {
    colours_out[2u * i] = vec4<u32>(pack4x8unorm(vec4<f32>(tip, 0.0)),
                                    pack4x8unorm(vec4<f32>(tail, 0.0)), 0u, 0u);
    colours_out[2u * i + 1u] = vec4<u32>(bitcast<vec3<u32>>(plane), 0u);
}

// The plane w = gx·x + gy·y + c over framebuffer pixels of the tip's barycentric coordinate on
// the triangle the instanced draw places for a boid at `centre` heading `dir`: the drawn corners
// (view.spear_drawn) grown by their outsets, as its vertex stage places them, the tip's colour
// interpolated over them.
fn tip_plane(dir: vec2<f32>, centre: vec2<f32>) -> vec3<f32> {
    let length_px = clamp(view.boid_length * view.zoom, view.min_length_px, view.max_length_px);
    let d = view.spear_drawn;
    let w1 = d[0].xy * length_px + d[0].zw;
    let t = d[1].xy * length_px + d[1].zw;
    let w2 = d[2].xy * length_px + d[2].zw;
    let whole = (t.x - w1.x) * (w2.y - w1.y) - (t.y - w1.y) * (w2.x - w1.x);
    // In boid space p (px, x along the heading): w = a·(p.x − w1.x) + b·(p.y − w1.y).
    let a = (w2.y - w1.y) / whole;
    let b = -(w2.x - w1.x) / whole;
    // p = (dir.x q.x + dir.y q.y, −dir.y q.x + dir.x q.y) with q = pixel − centre.
    let g = vec2<f32>(a * dir.x - b * dir.y, a * dir.y + b * dir.x);
    return vec3<f32>(g, -dot(g, centre) - (a * w1.x + b * w1.y));
}

// One invocation per boid (dispatches split over x and y past 65 535 workgroups).
@compute @workgroup_size(256)
fn cs_splat(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
            @builtin(local_invocation_index) lid: u32) {
    let i = (wid.y * nwg.x + wid.x) * 256u + lid;
    if (i == 0u) {
        // The resolve's indirect draw, its instances counted anew by cs_splat_tiles.
        atomicStore(&splat_tiles[0], 4u);
        atomicStore(&splat_tiles[1], 0u);
        atomicStore(&splat_tiles[2], 0u);
        atomicStore(&splat_tiles[3], 0u);
    }
    if (i >= view.boid_count) {
        return;
    }
    let pv = pos_vel[i];
    let size = viewport_px();
    let centre = (pv.xy - view.center) * view.zoom + 0.5 * vec2<f32>(size);
    let length_px = view.boid_length * view.zoom;
    let b = boid_from(pv, hue[i], i);
    if (length_px < view.min_length_px) {
        let mean = encode(boid_colour(b, i, 1.0 / 3.0));
        store_colours(i, mean, mean, vec3<f32>(0.0, 0.0, 1.0));
        splat_dot(i, centre, dot_dir(pv.zw), length_px, size);
    } else {
        let v2 = dot(pv.zw, pv.zw);
        var dir = vec2<f32>(1.0, 0.0);
        if (v2 > 1e-12) {
            dir = pv.zw * inverseSqrt(v2);
        }
        store_colours(i, encode(boid_colour(b, i, 1.0)), encode(boid_colour(b, i, 0.0)),
                      tip_plane(dir, centre));
        splat_spear(i, dir, centre, size);
    }
}

// One invocation per tile: a touched tile joins the resolve's list (and its instance count) and
// its flag is cleared for the next frame.
@compute @workgroup_size(256)
fn cs_splat_tiles(@builtin(global_invocation_id) gid: vec3<u32>) {
    let t = tiles_of(viewport_px());
    let n = t.x * t.y;
    let tile = gid.x;
    if (tile >= n) {
        return;
    }
    if (atomicLoad(&splat_tiles[SPLAT_FLAGS + tile]) != 0u) {
        atomicStore(&splat_tiles[SPLAT_FLAGS + tile], 0u);
        let k = atomicAdd(&splat_tiles[1], 1u);
        atomicStore(&splat_tiles[SPLAT_FLAGS + n + k], tile);
    }
}

// Boid `i`'s colour at framebuffer position `px`: its tip-to-tail gradient there, interpolated
// in the target's encoding as the instanced draw does (its mean colour as a density dot).
fn boid_at_pixel(i: u32, px: vec2<f32>) -> vec3<f32> {
    let c = colours_in[2u * i];
    let tip = unpack4x8unorm(c.x).rgb;
    let tail = unpack4x8unorm(c.y).rgb;
    let plane = bitcast<vec3<f32>>(colours_in[2u * i + 1u].xyz);
    return mix(tail, tip, clamp(dot(plane.xy, px) + plane.z, 0.0, 1.0));
}

// The compute rasteriser's picture over what is below: the opacities of the boids over the pixel
// compounded, in the colour of its key's boid (its mean colour as a density dot; its tip-to-tail
// gradient as a spearhead, interpolated in the target's encoding as the instanced draw does).
@fragment
fn fs_splat(@builtin(position) pos: vec4<f32>) -> @location(0) vec4<f32> {
    let size = viewport_px();
    let px = min(vec2<u32>(pos.xy), size - vec2<u32>(1u));
    let k = px.y * size.x + px.x;
    let key = splat_in[k];
    if (key == 0u) {
        discard;
    }
    let n = size.x * size.y;
    let alpha = 1.0 - exp(-f32(splat_in[2u * n + k]) / SPLAT_SCALE);
    let most = key & ((1u << SPLAT_INDEX_BITS) - 1u);
    let top_key = splat_in[n + k];

    let top = top_key >> SPLAT_COVER_BITS;
    var colour = boid_at_pixel(most, pos.xy);
    if (top != most) {
        // Two boids of the pixel as the instanced draw blends them: the one on top, with its
        // opacity, over the one covering most.
        let a_top = view.alpha * f32(top_key & 63u) / 63.0;
        let a_most = view.alpha * f32(key >> SPLAT_INDEX_BITS) / 63.0;
        let under = (1.0 - a_top) * a_most;
        colour = (a_top * boid_at_pixel(top, pos.xy) + under * colour) / max(a_top + under, 1e-6);
    }
    return vec4<f32>(colour * alpha, alpha);
}
