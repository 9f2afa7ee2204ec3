// Regions (src/stages/mod.rs, REGIONS): buffers held in planes of others, one binding each, so
// that no stage binds more storage buffers than every WebGPU adapter offers. The image counts
// (docs/model.md §2.4) live in the planes after the ids, in the stage's `id` and `sorted_id`
// (array<u32>, 12 bytes an element: n ids, then 2n image words): element i's image is words
// n + 2i and n + 2i + 1 (an `i32` each). The state's hue vectors [hx, hy, ux, uy] live in the plane
// after `pos_vel`'s positions and velocities (array<vec4<f32>>, 32 bytes a boid: boid i's hue is
// element n + i of n boids' room). Needs from the stage: `pos_vel`, `id` and `sorted_id`; the
// stores are with the stages that write them (`write_item` in scatter_common.wgsl, `finish_boid`
// in gather.wgsl), as a read-only binding takes none.

// The first image word of element i of a buffer of `len` words (12 bytes an element).
fn image_word(len: u32, i: u32) -> u32 {
    return len / 3u + 2u * i;
}

fn load_image(i: u32) -> vec2<i32> {
    let at = image_word(arrayLength(&id), i);
    return vec2<i32>(bitcast<i32>(id[at]), bitcast<i32>(id[at + 1u]));
}

fn load_sorted_image(i: u32) -> vec2<i32> {
    let at = image_word(arrayLength(&sorted_id), i);
    return vec2<i32>(bitcast<i32>(sorted_id[at]), bitcast<i32>(sorted_id[at + 1u]));
}

// The element of `pos_vel` that holds boid i's hue vector and hue velocity.
fn hue_at(i: u32) -> u32 {
    return arrayLength(&pos_vel) / 2u + i;
}
