// The uniform grid with ghost padding; mirrors src/model/grid.rs (Grid): real cells first
// (cy·cols + cx), then, in a wrapping world, 2·grid_pad padding cells per row — each from its
// replica's first cell (replicas.wgsl; 0 and cols·rows for a lone run).
// Needs: `params` (struct Params of common.wgsl) declared by the stage.

fn cell_xy(p: vec2<f32>) -> vec2<u32> {
    let cx = min(u32(max(floor(p.x * params.inv_cell_x), 0.0)), params.grid_cols - 1u);
    let cy = min(u32(max(floor(p.y * params.inv_cell_y), 0.0)), params.grid_rows - 1u);
    return vec2<u32>(cx, cy);
}

// Index of cell (cx, cy).
fn cell_index(c: vec2<u32>) -> u32 {
    return params.cell_base + c.y * params.grid_cols + c.x;
}

// Index of padding cell `slot` of row cy (slots 0 .. pad: left padding; pad .. 2·pad: right).
fn pad_index(cy: u32, slot: u32) -> u32 {
    return params.pad_base + cy * 2u * params.grid_pad + slot;
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
        return Ghost(true, pad_index(c.y, params.grid_pad + c.x), 1.0);
    }
    if (c.x + params.grid_pad >= params.grid_cols) {
        return Ghost(true, pad_index(c.y, c.x + params.grid_pad - params.grid_cols), -1.0);
    }
    return Ghost(false, 0u, 0.0);
}
