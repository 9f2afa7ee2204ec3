// The uniform grid with padded rows; mirrors src/model/grid.rs (Grid).
// Needs: `params` (struct Params of common.wgsl) declared by the stage.

fn cell_xy(p: vec2<f32>) -> vec2<u32> {
    let cx = min(u32(max(floor(p.x * params.inv_cell_x), 0.0)), params.grid_cols - 1u);
    let cy = min(u32(max(floor(p.y * params.inv_cell_y), 0.0)), params.grid_rows - 1u);
    return vec2<u32>(cx, cy);
}

// Padded index of column cx (unpadded) of row cy.
fn cell_index(c: vec2<u32>) -> u32 {
    return c.y * params.padded_cols + c.x + params.grid_pad;
}

struct Ghost {
    exists: bool,
    cell: u32,
    // x shift in world widths: +1 (right padding) or -1 (left padding).
    shift: f32,
}

// The ghost of a boid in cell c: in a wrapping world, a boid within `grid_pad` columns of an edge
// has a copy in the padding at the other end of its row.
fn ghost_of(c: vec2<u32>) -> Ghost {
    if (params.boundary != 0u) {
        return Ghost(false, 0u, 0.0);
    }
    if (c.x < params.grid_pad) {
        return Ghost(true, cell_index(c) + params.grid_cols, 1.0);
    }
    if (c.x + params.grid_pad >= params.grid_cols) {
        return Ghost(true, cell_index(c) - params.grid_cols, -1.0);
    }
    return Ghost(false, 0u, 0.0);
}
