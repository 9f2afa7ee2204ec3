//! Every pair of points closer than a distance, through a uniform grid of cells at least that wide
//! (at most 1024 × 1024 cells), so the cost is about O(N · neighbours): the flock census's links
//! and the pair analyses (g(r), C(r)) enumerate their pairs here. Offsets are minimum-image when
//! the world wraps. Computed in f64.

use crate::model::World;

/// Calls `f(i, j, dx, dy)` once for every pair `i < j` of `positions` (wu) whose offset
/// `(dx, dy) = p_j − p_i` (minimum image in a wrapping world) is shorter than `radius` (wu,
/// strictly). Nothing for an empty set or a radius that is not positive. Positions are taken in
/// `[0, W) × [0, H)` (those outside fall in the edge cells).
pub fn for_each_pair_within(
    positions: &[[f32; 2]],
    world: World,
    radius: f64,
    mut f: impl FnMut(u32, u32, f64, f64),
) {
    let n = positions.len();
    if n == 0 || radius.is_nan() || radius <= 0.0 {
        return;
    }
    let (w, h, r) = (world.width as f64, world.height as f64, radius);
    let cols = ((w / r).floor() as usize).clamp(1, 1024);
    let rows = ((h / r).floor() as usize).clamp(1, 1024);
    let cell_of = |p: &[f32; 2]| {
        let cx = ((p[0] as f64 * cols as f64 / w).floor().max(0.0) as usize).min(cols - 1);
        let cy = ((p[1] as f64 * rows as f64 / h).floor().max(0.0) as usize).min(rows - 1);
        cy * cols + cx
    };
    // Counting sort of the indices by cell.
    let cell: Vec<usize> = positions.iter().map(cell_of).collect();
    let mut start = vec![0u32; cols * rows + 1];
    for &c in &cell {
        start[c + 1] += 1;
    }
    for c in 0..cols * rows {
        start[c + 1] += start[c];
    }
    let mut fill = start.clone();
    let mut order = vec![0u32; n];
    for (i, &c) in cell.iter().enumerate() {
        order[fill[c] as usize] = i as u32;
        fill[c] += 1;
    }
    let offset = |d: f64, len: f64| {
        if world.wrap {
            d - len * (d / len).round()
        } else {
            d
        }
    };
    let r2 = r * r;
    let mut block = Vec::with_capacity(9);
    for cy in 0..rows {
        for cx in 0..cols {
            // The distinct cells of the 3 × 3 block (wrapped or clipped).
            block.clear();
            for dy in [-1i64, 0, 1] {
                for dx in [-1i64, 0, 1] {
                    let (x, y) = (cx as i64 + dx, cy as i64 + dy);
                    let (x, y) = if world.wrap {
                        (x.rem_euclid(cols as i64), y.rem_euclid(rows as i64))
                    } else if x < 0 || y < 0 || x >= cols as i64 || y >= rows as i64 {
                        continue;
                    } else {
                        (x, y)
                    };
                    let c = y as usize * cols + x as usize;
                    if !block.contains(&c) {
                        block.push(c);
                    }
                }
            }
            let me = cy * cols + cx;
            for &i in &order[start[me] as usize..start[me + 1] as usize] {
                let p = positions[i as usize];
                for &c in &block {
                    for &j in &order[start[c] as usize..start[c + 1] as usize] {
                        if j <= i {
                            continue;
                        }
                        let q = positions[j as usize];
                        let dx = offset(q[0] as f64 - p[0] as f64, w);
                        let dy = offset(q[1] as f64 - p[1] as f64, h);
                        if dx * dx + dy * dy < r2 {
                            f(i, j, dx, dy);
                        }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The grid finds exactly the pairs a brute-force loop finds, wrapped and not, in a world
    /// narrower than three cells (where blocks repeat cells) and a wide one.
    #[test]
    fn the_pairs_are_those_of_brute_force() {
        let mut s = 12345u64;
        let mut next = || {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((s >> 33) as f64 / (1u64 << 31) as f64) as f32
        };
        for (w, h, r) in [(100.0f32, 60.0f32, 7.0), (20.0, 15.0, 8.0)] {
            let pts: Vec<[f32; 2]> = (0..300).map(|_| [next() * w, next() * h]).collect();
            for wrap in [false, true] {
                let world = World {
                    width: w,
                    height: h,
                    wrap,
                };
                let mut found = Vec::new();
                for_each_pair_within(&pts, world, r, |i, j, _, _| found.push((i, j)));
                found.sort();
                let mut want = Vec::new();
                for i in 0..pts.len() {
                    for j in i + 1..pts.len() {
                        let mut dx = (pts[j][0] - pts[i][0]) as f64;
                        let mut dy = (pts[j][1] - pts[i][1]) as f64;
                        if wrap {
                            dx -= w as f64 * (dx / w as f64).round();
                            dy -= h as f64 * (dy / h as f64).round();
                        }
                        if dx * dx + dy * dy < r * r {
                            want.push((i as u32, j as u32));
                        }
                    }
                }
                assert!(!want.is_empty());
                assert_eq!(found, want, "{w}×{h} r {r} wrap {wrap}");
            }
        }
    }
}
