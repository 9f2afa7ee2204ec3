//! Straight-line least squares with standard errors.

/// The least-squares line y = intercept + slope·x through points, with the standard errors of
/// its coefficients.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LineFit {
    /// Slope (units of y per unit of x).
    pub slope: f64,
    /// Standard error of the slope, √(s²/Sxx) with s² = Σ r_i²/(p − 2) the residual variance and
    /// Sxx = Σ (x_i − x̄)²; NaN for fewer than 3 points.
    pub slope_error: f64,
    /// Intercept (units of y).
    pub intercept: f64,
    /// Standard error of the intercept, √(s²(1/p + x̄²/Sxx)); NaN for fewer than 3 points.
    pub intercept_error: f64,
    /// Number of points p.
    pub points: usize,
}

/// Ordinary least squares of `ys` on `xs` (equal lengths; every point weighted equally).
///
/// The errors are those of the textbook model y_i = a + b·x_i + ε_i with independent ε_i of one
/// variance, estimated from the residuals (e.g. Bevington & Robinson, "Data Reduction and Error
/// Analysis for the Physical Sciences", 3rd ed., McGraw-Hill 2003, ch. 6). When the points are
/// correlated or of unequal precision these errors are approximate; independent repeats give an
/// honest error (see [`combine_repeats`](super::combine_repeats)). Slope and intercept are NaN for
/// fewer than 2 points or when all x are equal.
///
/// # Panics
///
/// When `xs` and `ys` differ in length.
pub fn least_squares_line(xs: &[f64], ys: &[f64]) -> LineFit {
    assert_eq!(
        xs.len(),
        ys.len(),
        "least_squares_line: xs and ys differ in length"
    );
    let p = xs.len();
    let nan = LineFit {
        slope: f64::NAN,
        slope_error: f64::NAN,
        intercept: f64::NAN,
        intercept_error: f64::NAN,
        points: p,
    };
    if p < 2 {
        return nan;
    }
    let pf = p as f64;
    let mx = xs.iter().sum::<f64>() / pf;
    let my = ys.iter().sum::<f64>() / pf;
    let sxx: f64 = xs.iter().map(|x| (x - mx).powi(2)).sum();
    if sxx == 0.0 {
        return nan;
    }
    let sxy: f64 = xs.iter().zip(ys).map(|(x, y)| (x - mx) * (y - my)).sum();
    let slope = sxy / sxx;
    let intercept = my - slope * mx;
    let (slope_error, intercept_error) = if p > 2 {
        let rss: f64 = xs
            .iter()
            .zip(ys)
            .map(|(x, y)| (y - intercept - slope * x).powi(2))
            .sum();
        let s2 = rss / (pf - 2.0);
        ((s2 / sxx).sqrt(), (s2 * (1.0 / pf + mx * mx / sxx)).sqrt())
    } else {
        (f64::NAN, f64::NAN)
    };
    LineFit {
        slope,
        slope_error,
        intercept,
        intercept_error,
        points: p,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_line() {
        let xs = [0.0, 1.0, 2.0, 3.0];
        let ys: Vec<f64> = xs.iter().map(|x| 1.5 - 0.5 * x).collect();
        let f = least_squares_line(&xs, &ys);
        assert!((f.slope + 0.5).abs() < 1e-15 && (f.intercept - 1.5).abs() < 1e-15);
        assert!(f.slope_error < 1e-15 && f.intercept_error < 1e-15);
    }

    #[test]
    fn errors_by_hand() {
        // x = 0, 1, 2; y = 0, 2, 1: x̄ = 1, ȳ = 1, Sxx = 2, Sxy = 1 → slope 1/2, intercept 1/2;
        // residuals −1/2, 1, −1/2 → s² = 1.5/1 = 1.5; se(slope) = √(1.5/2), se(intercept) =
        // √(1.5·(1/3 + 1/2)).
        let f = least_squares_line(&[0.0, 1.0, 2.0], &[0.0, 2.0, 1.0]);
        assert!((f.slope - 0.5).abs() < 1e-15 && (f.intercept - 0.5).abs() < 1e-15);
        assert!((f.slope_error - 0.75f64.sqrt()).abs() < 1e-15);
        assert!((f.intercept_error - 1.25f64.sqrt()).abs() < 1e-15);
        assert_eq!(f.points, 3);
    }

    #[test]
    fn degenerate_inputs() {
        assert!(least_squares_line(&[1.0], &[2.0]).slope.is_nan());
        assert!(least_squares_line(&[1.0, 1.0, 1.0], &[1.0, 2.0, 3.0])
            .slope
            .is_nan());
        let two = least_squares_line(&[0.0, 1.0], &[0.0, 2.0]);
        assert_eq!(two.slope, 2.0);
        assert!(two.slope_error.is_nan());
    }
}
