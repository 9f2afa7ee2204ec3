// The image counts (docs/model.md §2.4) live in the planes after the ids, in the stage's `id` and
// `sorted_id` (array<u32>, 12 bytes an element in all: src/stages/mod.rs, REGIONS): element i's
// image is words n + 2i and n + 2i + 1 (an `i32` each) of the buffer of n ids. One binding each,
// so that no stage binds more storage buffers than the web's adapters offer. Needs from the stage:
// `id` and `sorted_id`; the stores are with the stages that write them (`write_item` in
// scatter_common.wgsl, `finish_boid` in gather.wgsl), as a read-only binding takes none.

// The first image word of a buffer of `len` words (12 bytes an element).
fn image_plane(len: u32) -> u32 {
    return len / 3u;
}

fn load_image(i: u32) -> vec2<i32> {
    let at = image_plane(arrayLength(&id)) + 2u * i;
    return vec2<i32>(bitcast<i32>(id[at]), bitcast<i32>(id[at + 1u]));
}

fn load_sorted_image(i: u32) -> vec2<i32> {
    let at = image_plane(arrayLength(&sorted_id)) + 2u * i;
    return vec2<i32>(bitcast<i32>(sorted_id[at]), bitcast<i32>(sorted_id[at + 1u]));
}
