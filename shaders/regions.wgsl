// Regions (src/stages/mod.rs, REGIONS): buffers held in planes of others, one binding each, so
// that no stage binds more storage buffers than every WebGPU adapter offers. The image counts
// (docs/model.md §2.4) live after the ids, in the stage's `id` and `sorted_id` (array<u32>: one id
// per item of the items' room, then two image words per boid of the boids' room — the boids are
// the first N items; a ghost has no image counts). `pos_vel` has two elements a boid of the room,
// so boid i's image is the words len − arrayLength(&pos_vel) + 2i and the one after (an `i32`
// each) of an id buffer of len words. `id` and `sorted_id` are laid out alike and swap
// roles after each step (src/stages/mod.rs, `SWAPPED`). The state's hue vectors [hx, hy, ux, uy]
// live in the plane after `pos_vel`'s positions and velocities (array<vec4<f32>>, 32 bytes a
// boid: boid i's hue is element n + i of n boids' room). Needs from the stage: `pos_vel`; the
// loads and stores of `id` and `sorted_id` are with the stages that bind them (`load_image` and
// `write_item` in scatter_common.wgsl, `finish_boid` in gather.wgsl), as a read-only binding
// takes no store.

// The first image word of boid i in an id buffer of `len` words.
fn image_word(len: u32, i: u32) -> u32 {
    return len - arrayLength(&pos_vel) + 2u * i;
}

// The element of `pos_vel` that holds boid i's hue vector and hue velocity.
fn hue_at(i: u32) -> u32 {
    return arrayLength(&pos_vel) / 2u + i;
}
