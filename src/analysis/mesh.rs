//! Two-dimensional FFTs on a mesh of `nx × ny` complex values stored row by row (x fastest), by
//! rustfft: rows, a transpose, rows again, each on the rayon pool.

use rayon::prelude::*;
use rustfft::num_complex::Complex;
use rustfft::FftPlanner;

/// A complex value of a mesh.
pub type C64 = Complex<f64>;

/// Transforms `data` (`nx × ny`, row by row) in place: forward `Σ a e^{−2πi(n·m)/N}`, or inverse
/// without the 1/(nx·ny) factor.
pub fn fft2(data: &mut [C64], nx: usize, ny: usize, inverse: bool) {
    let mut t = vec![C64::default(); nx * ny];
    fft2_transposed(data, &mut t, nx, ny, inverse);
    transpose_into(&t, data, ny, nx);
}

/// The same transform, its result left transposed in `out` (`ny × nx` stored column by column of
/// the input: `out[kx·ny + ky]`), and `data` overwritten: rows of `data`, a transpose into `out`,
/// then `out`'s rows. Two of these in turn (the second on `ny × nx`) give back the natural layout,
/// so a forward transform, a product in frequency space and an inverse move the mesh through memory
/// twice rather than four times: on a mesh of hundreds of megabytes the transposes, not the
/// butterflies, are the cost.
pub fn fft2_transposed(data: &mut [C64], out: &mut [C64], nx: usize, ny: usize, inverse: bool) {
    assert_eq!(data.len(), nx * ny, "a mesh of nx × ny values");
    assert_eq!(out.len(), nx * ny, "a mesh of nx × ny values");
    let mut planner = FftPlanner::<f64>::new();
    let (row, col) = if inverse {
        (planner.plan_fft_inverse(nx), planner.plan_fft_inverse(ny))
    } else {
        (planner.plan_fft_forward(nx), planner.plan_fft_forward(ny))
    };
    data.par_chunks_mut(nx).for_each(|r| row.process(r));
    transpose_into(data, out, nx, ny);
    out.par_chunks_mut(ny).for_each(|c| col.process(c));
}

/// Writes the transpose of `src` (`nx × ny`, row by row) into `dst` (`ny × nx`, row by row), in
/// bands of output rows on the rayon pool: each band reads its columns of `src` a row at a time and
/// fills its rows of `dst` a few values per cache line, so both sides stay in cache.
pub fn transpose_into(src: &[C64], dst: &mut [C64], nx: usize, ny: usize) {
    const BAND: usize = 16;
    dst.par_chunks_mut(ny * BAND)
        .enumerate()
        .for_each(|(band, rows)| {
            let x0 = band * BAND;
            let width = rows.len() / ny;
            for y in 0..ny {
                let line = &src[y * nx + x0..y * nx + x0 + width];
                for (dx, v) in line.iter().enumerate() {
                    rows[dx * ny + y] = *v;
                }
            }
        });
}

/// The signed frequency index of FFT bin `i` of `n`: `0, 1, …, ⌈n/2⌉ − 1, −⌊n/2⌋, …, −1`.
pub fn signed(i: usize, n: usize) -> i64 {
    if i < n.div_ceil(2) {
        i as i64
    } else {
        i as i64 - n as i64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The mesh FFT is the direct 2D DFT, and the inverse brings the data back (× nx·ny).
    #[test]
    fn the_fft_is_the_dft() {
        let (nx, ny) = (6, 5);
        let a: Vec<C64> = (0..nx * ny)
            .map(|i| C64::new((i as f64 * 0.7).sin(), (i as f64 * 1.3).cos()))
            .collect();
        let mut f = a.clone();
        fft2(&mut f, nx, ny, false);
        for ky in 0..ny {
            for kx in 0..nx {
                let mut s = C64::default();
                for y in 0..ny {
                    for x in 0..nx {
                        let ph = -2.0
                            * std::f64::consts::PI
                            * (kx as f64 * x as f64 / nx as f64 + ky as f64 * y as f64 / ny as f64);
                        s += a[y * nx + x] * C64::from_polar(1.0, ph);
                    }
                }
                assert!((s - f[ky * nx + kx]).norm() < 1e-9, "{kx},{ky}");
            }
        }
        fft2(&mut f, nx, ny, true);
        for (x, y) in f.iter().zip(&a) {
            assert!((x / (nx * ny) as f64 - y).norm() < 1e-12);
        }
        // Forward and inverse left transposed come back to the natural layout.
        let (mut f, mut t) = (a.clone(), vec![C64::default(); nx * ny]);
        fft2_transposed(&mut f, &mut t, nx, ny, false);
        fft2_transposed(&mut t, &mut f, ny, nx, true);
        for (x, y) in f.iter().zip(&a) {
            assert!((x / (nx * ny) as f64 - y).norm() < 1e-12);
        }
        // A transpose over more columns than a band, and a ragged last band.
        let (nx, ny) = (37, 3);
        let a: Vec<C64> = (0..nx * ny).map(|i| C64::new(i as f64, 0.0)).collect();
        let mut t = vec![C64::default(); nx * ny];
        transpose_into(&a, &mut t, nx, ny);
        for y in 0..ny {
            for x in 0..nx {
                assert_eq!(t[x * ny + y], a[y * nx + x]);
            }
        }
        assert_eq!(
            (0..5).map(|i| signed(i, 5)).collect::<Vec<_>>(),
            [0, 1, 2, -2, -1]
        );
    }
}
