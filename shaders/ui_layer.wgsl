// The UI layer (src/app/ui_layer.rs): the panel, HUD and tool bar drawn by egui into a texture of
// their own when they change, composited over every frame as one quad per run of 32 px tiles that
// the UI touches (premultiplied alpha, as egui blends); the rest of the frame is not read.

@group(0) @binding(0) var ui_layer: texture_2d<f32>;

// One corner of the tile run `rect` (x0, y0, x1, y1 in framebuffer px) in clip space.
@vertex
fn vs_ui_rect(@builtin(vertex_index) vi: u32, @location(0) rect: vec4<f32>)
    -> @builtin(position) vec4<f32> {
    let size = vec2<f32>(textureDimensions(ui_layer));
    let corner = vec2<f32>(f32(vi & 1u), f32(vi >> 1u));
    let px = mix(rect.xy, rect.zw, corner);
    return vec4<f32>(px.x / size.x * 2.0 - 1.0, 1.0 - px.y / size.y * 2.0, 0.0, 1.0);
}

// The layer's pixel as it is (premultiplied).
@fragment
fn fs_ui_layer(@builtin(position) pos: vec4<f32>) -> @location(0) vec4<f32> {
    return textureLoad(ui_layer, vec2<i32>(pos.xy), 0);
}
