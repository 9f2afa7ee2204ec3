// What both scatter stages share: writing one item at its sorted place. Needs: common.wgsl,
// regions.wgsl, and from the stage `params`, the state (`pos_vel` with its hue vectors, `id` with
// its image counts) and the sorted items (`sorted_pos_vel`, `sorted_hue`, `sorted_id`).

// The state's image counts of boid i (in `id`'s image plane).
fn load_image(i: u32) -> vec2<i32> {
    let at = image_word(arrayLength(&id), i);
    return vec2<i32>(bitcast<i32>(id[at]), bitcast<i32>(id[at + 1u]));
}

// Writes item i (a boid, or its ghost shifted by `shift` world widths) at sorted place dst, a
// boid with its image counts (into `sorted_id`'s image plane, regions.wgsl; a boid's place is
// among the first N, and a ghost has none).
fn write_item(dst: u32, i: u32, shift: f32) {
    var pv = pos_vel[i];
    pv.x += shift * params.world_width;
    sorted_pos_vel[dst] = pv;
    sorted_hue[dst] = pos_vel[hue_at(i)];
    sorted_id[dst] = id[i];
    if (shift == 0.0) {
        let img = load_image(i);
        let at = image_word(arrayLength(&sorted_id), dst);
        sorted_id[at] = bitcast<u32>(img.x);
        sorted_id[at + 1u] = bitcast<u32>(img.y);
    }
}
