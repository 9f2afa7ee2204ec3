// The uniform grid; mirrors src/model/grid.rs.
// Needs: `params` (struct Params of common.wgsl) declared by the stage.

fn cell_xy(p: vec2<f32>) -> vec2<u32> {
    let cx = min(u32(max(floor(p.x * params.inv_cell_x), 0.0)), params.grid_cols - 1u);
    let cy = min(u32(max(floor(p.y * params.inv_cell_y), 0.0)), params.grid_rows - 1u);
    return vec2<u32>(cx, cy);
}

fn cell_of(p: vec2<f32>) -> u32 {
    let c = cell_xy(p);
    return c.y * params.grid_cols + c.x;
}
