//! How every time the program shows is written: [`format_ms`], the one formatter of the plots'
//! ticks and point labels, the `boids bench` lines, the scaling and `--compare` tables and the
//! `boids headless` report. Files (`frames.csv`, `summary.json`) keep plain milliseconds.

/// A duration given in milliseconds, as text with 3 significant digits at any magnitude.
///
/// Convention: the value is rounded to 3 significant digits and written in the largest unit of
/// `s`, `ms`, `µs` (micro sign, U+00B5), `ns` in which it is at least 1 — below 1 ns it stays in
/// `ns`, from 1000 s on in `s` — always showing the 3 digits, trailing zeros included, so a
/// column of times reads at one precision: `0.000412` → `412 ns`, `0.0123456` → `12.3 µs`,
/// `1.0` → `1.00 ms`, `11.0` → `11.0 ms`, `1234.5` → `1.23 s`, `1e-7` → `0.100 ns`, `1.5e6` →
/// `1500 s`. Zero is `0 ns`; a negative value gets a leading `-`; NaN and infinities (no
/// measurement) are `—`. Axis ticks use it too (`1.00 ms`, `10.0 ms`, `100 ms`).
///
/// The rounding is done on the decimal digits (`{:.2e}`), so a value that rounds up to the next
/// unit is written in it (`0.9996` → `1.00 ms`, not `1000 µs`).
pub fn format_ms(ms: f64) -> String {
    if !ms.is_finite() {
        return "—".into();
    }
    if ms == 0.0 {
        return "0 ns".into();
    }
    let sign = if ms < 0.0 { "-" } else { "" };
    // Seconds in scientific notation with 3 significant digits: "4.12e-4".
    let sci = format!("{:.2e}", ms.abs() / 1e3);
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    // Unit exponent: a multiple of 3 in [-9, 0] (ns .. s).
    let unit_exp = (exp.div_euclid(3) * 3).clamp(-9, 0);
    let unit = match unit_exp {
        0 => "s",
        -3 => "ms",
        -6 => "µs",
        _ => "ns",
    };
    // The number is 0.d1d2d3 × 10^int_digits in that unit.
    let int_digits = exp - unit_exp + 1;
    let number = if int_digits >= digits.len() as i32 {
        format!(
            "{digits}{}",
            "0".repeat((int_digits - digits.len() as i32) as usize)
        )
    } else if int_digits > 0 {
        let (a, b) = digits.split_at(int_digits as usize);
        format!("{a}.{b}")
    } else {
        format!("0.{}{digits}", "0".repeat((-int_digits) as usize))
    };
    format!("{sign}{number} {unit}")
}

/// A number with at most `decimals` decimals and no trailing zeros, for labels and reports:
/// `4.0000005` → `4`, `0.25` → `0.25`, `2.0` → `2`, `-0.00001` → `0` (no `-0`); NaN → `—`.
pub fn trimmed(v: f64, decimals: usize) -> String {
    if !v.is_finite() {
        return "—".into();
    }
    let s = format!("{v:.decimals$}");
    let s = if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.')
    } else {
        &s
    };
    if s.is_empty() || s == "-0" || s == "-" {
        "0".into()
    } else {
        s.to_string()
    }
}

/// A number to `digits` significant digits without trailing zeros: `173.2051` → `173.2`,
/// `31.622776` → `31.62`, `0.0012345` → `0.001235` (4 digits); NaN → `—`.
pub fn significant(v: f64, digits: usize) -> String {
    if v == 0.0 || !v.is_finite() {
        return trimmed(v, 0);
    }
    let magnitude = v.abs().log10().floor() as i64;
    trimmed(v, (digits as i64 - 1 - magnitude).max(0) as usize)
}

/// A count with an SI suffix (`k`, `M`) from 1000 on and at most 3 significant digits in the
/// shown part, for axis ticks: `500`, `1k`, `2.5k`, `10k`, `1M`.
pub fn format_count(n: f64) -> String {
    let (v, suffix) = if n.abs() >= 1e6 {
        (n / 1e6, "M")
    } else if n.abs() >= 1e3 {
        (n / 1e3, "k")
    } else {
        (n, "")
    };
    let decimals = if v.abs() >= 100.0 {
        0
    } else if v.abs() >= 10.0 {
        1
    } else {
        2
    };
    let mut s = format!("{v:.decimals$}");
    if s.contains('.') {
        s = s.trim_end_matches('0').trim_end_matches('.').to_string();
    }
    format!("{s}{suffix}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trimmed_numbers_drop_trailing_zeros() {
        assert_eq!(trimmed(4.000_000_5, 4), "4");
        assert_eq!(trimmed(0.25, 4), "0.25");
        assert_eq!(trimmed(-0.000_01, 4), "0");
        assert_eq!(trimmed(120.0, 4), "120");
        assert_eq!(trimmed(1.234_56, 2), "1.23");
        assert_eq!(trimmed(f64::NAN, 4), "—");
        assert_eq!(significant(173.2051, 4), "173.2");
        assert_eq!(significant(31.622776, 4), "31.62");
        assert_eq!(significant(0.001_234_5, 3), "0.00123");
        assert_eq!(significant(4000.0, 2), "4000");
        assert_eq!(significant(0.0, 4), "0");
    }

    #[test]
    fn times_keep_three_significant_digits_at_every_magnitude() {
        // (ms, text): worked by hand from the convention above, 1e-7 .. 1e5 ms.
        let cases: [(f64, &str); 26] = [
            (1e-7, "0.100 ns"),
            (4.123e-7, "0.412 ns"),
            (1e-6, "1.00 ns"),
            (4.12e-4, "412 ns"),
            (4.1249e-4, "412 ns"),
            (9.9949e-4, "999 ns"),
            (9.996e-4, "1.00 µs"),
            (1.23456e-3, "1.23 µs"),
            (1.2e-3, "1.20 µs"),
            (0.0123456, "12.3 µs"),
            (0.1, "100 µs"),
            (0.5678, "568 µs"),
            (0.9996, "1.00 ms"),
            (1.0, "1.00 ms"),
            (2.5, "2.50 ms"),
            (3.2468, "3.25 ms"),
            (11.0, "11.0 ms"),
            (16.666, "16.7 ms"),
            (100.0, "100 ms"),
            (999.4, "999 ms"),
            (1234.5, "1.23 s"),
            (12_345.0, "12.3 s"),
            (1e5, "100 s"),
            (1.5e6, "1500 s"),
            (2.0e6, "2000 s"),
            (-2.5, "-2.50 ms"),
        ];
        for (ms, want) in cases {
            assert_eq!(format_ms(ms), want, "format_ms({ms:e})");
        }
        assert_eq!(format_ms(0.0), "0 ns");
        assert_eq!(format_ms(f64::NAN), "—");
        assert_eq!(format_ms(f64::INFINITY), "—");
    }

    #[test]
    fn distinct_decades_give_distinct_labels() {
        // The fault this formatter replaces: ticks 1e-4 and 5e-4 ms both shown as "0.000"/"0.001".
        let labels: Vec<String> = (-7..=5)
            .flat_map(|k| [1.0, 2.0, 5.0].map(|m| format_ms(m * 10f64.powi(k))))
            .collect();
        let mut dedup = labels.clone();
        dedup.sort();
        dedup.dedup();
        assert_eq!(dedup.len(), labels.len(), "{labels:?}");
        assert!(labels.iter().all(|l| !l.starts_with("0 ")), "{labels:?}");
    }

    #[test]
    fn counts() {
        let got: Vec<String> = [1.0, 500.0, 1000.0, 2500.0, 10_000.0, 123_456.0, 1e6, 2.5e6]
            .map(format_count)
            .to_vec();
        assert_eq!(got, ["1", "500", "1k", "2.5k", "10k", "123k", "1M", "2.5M"]);
    }
}
