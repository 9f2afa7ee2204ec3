//! Two-dimensional FFTs on a mesh of `nx × ny` complex values stored row by row (x fastest), by
//! rustfft: rows, then columns, each on the rayon pool.

use rayon::prelude::*;
use rustfft::num_complex::Complex;
use rustfft::FftPlanner;

/// A complex value of a mesh.
pub type C64 = Complex<f64>;

/// Transforms `data` (`nx × ny`, row by row) in place: forward `Σ a e^{−2πi(n·m)/N}`, or inverse
/// without the 1/(nx·ny) factor.
pub fn fft2(data: &mut [C64], nx: usize, ny: usize, inverse: bool) {
    assert_eq!(data.len(), nx * ny, "a mesh of nx × ny values");
    let mut planner = FftPlanner::<f64>::new();
    let (row, col) = if inverse {
        (planner.plan_fft_inverse(nx), planner.plan_fft_inverse(ny))
    } else {
        (planner.plan_fft_forward(nx), planner.plan_fft_forward(ny))
    };
    data.par_chunks_mut(nx).for_each(|r| row.process(r));
    // Columns: gathered into contiguous buffers, transformed, scattered back.
    let mut cols = vec![C64::default(); nx * ny];
    cols.par_chunks_mut(ny).enumerate().for_each(|(x, c)| {
        for (y, v) in c.iter_mut().enumerate() {
            *v = data[y * nx + x];
        }
        col.process(c);
    });
    data.par_chunks_mut(nx).enumerate().for_each(|(y, r)| {
        for (x, v) in r.iter_mut().enumerate() {
            *v = cols[x * ny + y];
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
        assert_eq!(
            (0..5).map(|i| signed(i, 5)).collect::<Vec<_>>(),
            [0, 1, 2, -2, -1]
        );
    }
}
