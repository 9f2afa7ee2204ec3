// The neighbour sums' terms: how a neighbour adds to a boid's `NeighborSums`, with the model's
// declared pair terms (docs/model.md §4.7; `PairTerms` in src/model/models/desc.rs); mirrors
// `has_direction`, `pair_weight` and `accumulate_parts` in src/model/rules.rs. Needs:
// common.wgsl, rules_common.wgsl (NeighborSums, COINCIDENT_EPS2), and the constants
// SEPARATION_WEIGHT, COHESION_WEIGHT (0: d, 1: d/|d|, 2: d/|d|²), ALIGNMENT_ANNULUS and
// COHESION_ANNULUS that head a source compiled for the model, so the driver folds every test
// below and a model pays only for its own terms.

// Whether a neighbour at |d|² = d2 counts in an offset sum of weight `weight`: a weighted one
// needs a direction (not coincident).
fn has_direction(weight: u32, d2: f32) -> bool {
    return weight == 0u || d2 > COINCIDENT_EPS2;
}

// The term of an offset sum of weight `weight`, m = max(|d|², COINCIDENT_EPS2) (or |d|² itself
// where the caller knows it is larger).
fn pair_weight(weight: u32, d: vec2<f32>, m: f32) -> vec2<f32> {
    if (weight == 0u) {
        return d;
    }
    if (weight == 1u) {
        return d / sqrt(m);
    }
    return d / m;
}

// Whether |d|² = d2 lies in the alignment band (below its radius, and beyond separation's for an
// annulus), and in the cohesion band (and beyond alignment's for an annulus, with a direction
// for a weighted sum).
fn in_alignment_band(d2: f32) -> bool {
    return d2 < params.alignment_r2 && (!ALIGNMENT_ANNULUS || d2 >= params.alignment_inner_r2);
}

fn in_cohesion_band(d2: f32) -> bool {
    return d2 < params.cohesion_r2 && (!COHESION_ANNULUS || d2 >= params.cohesion_inner_r2)
        && has_direction(COHESION_WEIGHT, d2);
}

// Adds a neighbour at offset d (velocity vel, hue h = (hue vector, hue velocity)) when within the
// perception radius. Per-rule tests are 0/1 masks, as in the CPU twin (bit-identical to the
// branching form).
fn accumulate(s: ptr<function, NeighborSums>, d: vec2<f32>, vel: vec2<f32>, h: vec4<f32>) {
    let d2 = dot(d, d);
    if (d2 >= params.perception_r2) {
        return;
    }
    let sep = select(0.0, 1.0, d2 < params.separation_r2 && has_direction(SEPARATION_WEIGHT, d2));
    let ali = select(0u, 1u, in_alignment_band(d2));
    let coh = select(0u, 1u, in_cohesion_band(d2));
    let hm = select(0u, 1u, d2 < params.hue_r2);
    (*s).separation -= pair_weight(SEPARATION_WEIGHT, d, max(d2, COINCIDENT_EPS2)) * sep;
    (*s).alignment += vel * f32(ali);
    (*s).alignment_n += ali;
    (*s).cohesion += pair_weight(COHESION_WEIGHT, d, max(d2, COINCIDENT_EPS2)) * f32(coh);
    (*s).cohesion_n += coh;
    (*s).hue += h.xy * f32(hm);
    (*s).hue_velocity += h.zw * f32(hm);
    (*s).hue_n += hm;
    (*s).neighbors += 1u;
}
