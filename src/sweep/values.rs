//! The values of a swept parameter, as written after `--values`: a comma-separated list
//! (`0.5,1,2`) or an inclusive range `start:stop:step` (`0:6.2:0.62`).
//!
//! A range holds `start + k·step` for k = 0, 1, … while the value has not passed `stop`; `stop`
//! itself is included when it lies within 10⁻⁹·|step| of a value (floating tolerance, so
//! `0:1:0.1` ends at 1, and such a last value is `stop` exactly). The values are computed in
//! decimal from the digits as written and then rounded once to the nearest f64, so `0:1:0.1`
//! gives `0.3`, not `0.30000000000000004`, and `0:6.283185307179586:0.6283185307179586` keeps
//! every digit (numbers too long for exact decimal arithmetic, over 30 digits, fall back to f64
//! arithmetic). `step` may be negative when `stop < start`.

use crate::sweep::error::SweepError;

/// Most values one `--values` may produce (the whole plan has its own limit,
/// [`crate::sweep::plan::MAX_RUNS`]).
pub const MAX_VALUES: usize = 10_000;

/// Relative tolerance (of |step|) within which `stop` counts as reached.
pub const STOP_TOLERANCE: f64 = 1e-9;

/// Parses `--values`.
///
/// # Errors
/// [`SweepError::Plan`] quoting the text: an empty list, a value that is not a finite number, a
/// value given twice, a zero step, a step that goes away from `stop`, or more than [`MAX_VALUES`]
/// values.
pub fn parse_values(text: &str) -> Result<Vec<f64>, SweepError> {
    let t = text.trim();
    let bad = |why: String| SweepError::Plan(format!("--values {t:?}: {why}"));
    if t.is_empty() {
        return Err(SweepError::Plan(
            "--values is empty: give a list a,b,c or a range start:stop:step".into(),
        ));
    }
    let num = |s: &str, what: &str| -> Result<f64, SweepError> {
        let v: f64 = s
            .trim()
            .parse()
            .map_err(|_| bad(format!("{what} {:?} is not a number", s.trim())))?;
        if !v.is_finite() {
            return Err(bad(format!("{what} {v} is not finite")));
        }
        Ok(v)
    };
    if t.contains(':') {
        let parts: Vec<&str> = t.split(':').collect();
        if parts.len() != 3 {
            return Err(bad(
                "a range is start:stop:step (three numbers), e.g. 0:1:0.1".into(),
            ));
        }
        let (start, stop, step) = (
            num(parts[0], "start")?,
            num(parts[1], "stop")?,
            num(parts[2], "step")?,
        );
        return range(t, [parts[0].trim(), parts[2].trim()], start, stop, step);
    }
    let mut out = Vec::new();
    for s in t.split(',') {
        if s.trim().is_empty() {
            return Err(bad("an empty item between commas".into()));
        }
        let v = num(s, "value")?;
        if out.contains(&v) {
            // A repeated value would be a second point of the same values: ask for repeats.
            return Err(bad(format!(
                "{v} is given twice; each value once (more runs of one value: --repeats)"
            )));
        }
        out.push(v);
        if out.len() > MAX_VALUES {
            return Err(bad(format!("more than {MAX_VALUES} values")));
        }
    }
    Ok(out)
}

fn range(
    t: &str,
    digits: [&str; 2],
    start: f64,
    stop: f64,
    step: f64,
) -> Result<Vec<f64>, SweepError> {
    let bad = |why: String| SweepError::Plan(format!("--values {t:?}: {why}"));
    if step == 0.0 {
        return Err(bad("the step must not be 0".into()));
    }
    let span = (stop - start) / step;
    if span < -STOP_TOLERANCE {
        return Err(bad(format!(
            "a step of {step} never reaches {stop} from {start} (use a {} step)",
            if step > 0.0 { "negative" } else { "positive" }
        )));
    }
    let last = (span + STOP_TOLERANCE).floor().max(0.0);
    if !last.is_finite() || last >= MAX_VALUES as f64 {
        return Err(bad(format!(
            "more than {MAX_VALUES} values (about {}); use a larger step",
            span.floor() + 1.0
        )));
    }
    let n = last as usize + 1;
    Ok((0..n)
        .map(|k| {
            let v = start + k as f64 * step;
            if (v - stop).abs() <= STOP_TOLERANCE * step.abs() {
                stop
            } else {
                decimal_point(digits, k as i128).unwrap_or(v)
            }
        })
        .collect())
}

/// A decimal number as (mantissa, exponent): m·10^e. None beyond 30 digits or a wild exponent.
fn decimal(text: &str) -> Option<(i128, i32)> {
    let (num, exp) = match text.find(['e', 'E']) {
        Some(i) => (&text[..i], text[i + 1..].parse::<i32>().ok()?),
        None => (text, 0),
    };
    let (neg, num) = match num.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, num.strip_prefix('+').unwrap_or(num)),
    };
    let (int, frac) = num.split_once('.').unwrap_or((num, ""));
    let digits = format!("{int}{frac}");
    if digits.is_empty() || digits.len() > 30 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if !(-300..=300).contains(&exp) {
        return None;
    }
    let m: i128 = digits.parse().ok()?;
    Some((if neg { -m } else { m }, exp - frac.len() as i32))
}

/// `start + k·step` computed in decimal from the written digits, rounded once to f64.
fn decimal_point(digits: [&str; 2], k: i128) -> Option<f64> {
    let (ms, es) = decimal(digits[0])?;
    let (mt, et) = decimal(digits[1])?;
    let e = es.min(et);
    let scale = |m: i128, from: i32| -> Option<i128> {
        m.checked_mul(10i128.checked_pow(u32::try_from(from - e).ok()?)?)
    };
    let m = scale(ms, es)?.checked_add(scale(mt, et)?.checked_mul(k)?)?;
    format!("{m}e{e}").parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_and_ranges() {
        assert_eq!(parse_values("0.5, 1,2").unwrap(), vec![0.5, 1.0, 2.0]);
        let r = parse_values("0:1:0.1").unwrap();
        assert_eq!(r.len(), 11);
        assert_eq!(r[3], 0.3);
        assert_eq!(r[10], 1.0);
        // Stop not on the grid: the last value is the one before it.
        assert_eq!(parse_values("0:1:0.3").unwrap(), vec![0.0, 0.3, 0.6, 0.9]);
        assert_eq!(parse_values("2:0:-1").unwrap(), vec![2.0, 1.0, 0.0]);
        assert_eq!(parse_values("5:5:1").unwrap(), vec![5.0]);
        let tau = std::f64::consts::TAU;
        let r = parse_values(&format!("0:{tau}:{}", tau / 10.0)).unwrap();
        assert_eq!((r.len(), r[10]), (11, tau));
        assert_eq!(r[1], tau / 10.0, "no digit of a long step is lost");
        assert_eq!(parse_values("-1:1:0.1").unwrap()[3], -0.7);
        assert_eq!(parse_values("0:1:0.1").unwrap()[7], 0.7);
        assert_eq!(
            parse_values("1e-3:5E-3:1e-3").unwrap(),
            vec![0.001, 0.002, 0.003, 0.004, 0.005]
        );
    }

    #[test]
    fn bad_values_say_why() {
        for (text, needle) in [
            ("", "empty"),
            ("1,,2", "empty item"),
            ("a", "\"a\" is not a number"),
            ("0:1", "three numbers"),
            ("0:1:0", "must not be 0"),
            ("0:1:-0.1", "never reaches"),
            ("0:1e9:1", "more than 10000"),
            ("1,inf", "not finite"),
        ] {
            let e = parse_values(text).unwrap_err();
            assert!(matches!(e, SweepError::Plan(_)), "{text:?}: {e:?}");
            assert!(e.to_string().contains(needle), "{text:?}: {e}");
        }
    }
}
