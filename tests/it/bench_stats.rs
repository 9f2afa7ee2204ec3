//! Statistics of captures on known inputs: percentiles, median, fps, 1 % low.

use boids::stats::time::{percentile, round_ms, TimeStats};

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-12 * a.abs().max(b.abs()).max(1.0)
}

#[test]
fn percentile_interpolates_between_closest_ranks() {
    let v = [1.0, 2.0, 3.0, 4.0];
    assert_eq!(percentile(&v, 0.0), 1.0);
    assert_eq!(percentile(&v, 100.0), 4.0);
    assert_eq!(percentile(&v, 50.0), 2.5);
    // numpy.percentile([1, 2, 3, 4], 95) = 3.85
    assert!(close(percentile(&v, 95.0), 3.85));
    let hundred: Vec<f64> = (1..=100).map(f64::from).collect();
    // numpy: 95.05 and 99.01
    assert!(close(percentile(&hundred, 95.0), 95.05));
    assert!(close(percentile(&hundred, 99.0), 99.01));
    assert_eq!(percentile(&[7.0], 99.0), 7.0);
    assert!(percentile(&[], 50.0).is_nan());
    // Out-of-range q is clamped.
    assert_eq!(percentile(&v, 150.0), 4.0);
}

#[test]
fn stats_of_one_to_a_hundred() {
    // Shuffled on purpose: the order of samples must not matter.
    let mut v: Vec<f64> = (1..=100).map(f64::from).collect();
    v.reverse();
    v.swap(3, 70);
    let s = TimeStats::from_ms(&v);
    assert_eq!(s.samples, 100);
    assert!(close(s.mean_ms, 50.5));
    assert!(close(s.median_ms, 50.5));
    // numpy: 25.75 and 75.25
    assert!(close(s.p25_ms, 25.75));
    assert!(close(s.p75_ms, 75.25));
    assert!(close(s.p95_ms, 95.05));
    assert!(close(s.p99_ms, 99.01));
    assert_eq!(s.max_ms, 100.0);
    assert!(close(s.fps, 1000.0 / 50.5));
    // 1 % of 100 samples = the single slowest one: 100 ms → 10 fps.
    assert!(close(s.low_1pct_fps, 10.0));
    assert!(close(s.boid_steps_per_s(5000), 5000.0 * 1000.0 / 50.5));
}

#[test]
fn one_percent_low_rounds_the_slowest_share_up() {
    // 150 samples: 1 % is 1.5 → the 2 slowest (149, 150).
    let v: Vec<f64> = (1..=150).map(f64::from).collect();
    assert!(close(TimeStats::from_ms(&v).low_1pct_fps, 1000.0 / 149.5));
    // 200 samples: the 2 slowest (199, 200).
    let v: Vec<f64> = (1..=200).map(f64::from).collect();
    assert!(close(TimeStats::from_ms(&v).low_1pct_fps, 1000.0 / 199.5));
    // 20 samples: at least one sample.
    let mut v = vec![2.0; 19];
    v.push(40.0);
    let s = TimeStats::from_ms(&v);
    assert!(close(s.low_1pct_fps, 25.0));
    assert!(close(s.median_ms, 2.0));
    assert!(close(s.mean_ms, (19.0 * 2.0 + 40.0) / 20.0));
}

#[test]
fn single_empty_and_non_finite() {
    let s = TimeStats::from_ms(&[4.0]);
    assert_eq!(
        (
            s.samples,
            s.mean_ms,
            s.median_ms,
            s.p95_ms,
            s.p99_ms,
            s.max_ms
        ),
        (1, 4.0, 4.0, 4.0, 4.0, 4.0)
    );
    assert_eq!((s.fps, s.low_1pct_fps), (250.0, 250.0));
    let e = TimeStats::from_ms(&[]);
    assert_eq!(e.samples, 0);
    assert!(e.mean_ms.is_nan() && e.median_ms.is_nan() && e.low_1pct_fps.is_nan());
    let f = TimeStats::from_ms(&[1.0, f64::NAN, 3.0, f64::INFINITY]);
    assert_eq!(f.samples, 2);
    assert!(close(f.median_ms, 2.0));
}

#[test]
fn nan_survives_json_as_null() {
    let e = TimeStats::from_ms(&[]);
    let text = serde_json::to_string(&e).unwrap();
    assert!(text.contains("\"median_ms\":null"), "{text}");
    let back: TimeStats = serde_json::from_str(&text).unwrap();
    assert!(back.median_ms.is_nan() && back.samples == 0);
    let s = TimeStats::from_ms(&[1.25, 2.5, 3.75]);
    let back: TimeStats = serde_json::from_str(&serde_json::to_string(&s).unwrap()).unwrap();
    assert_eq!(back, s);
}

#[test]
fn rounding_to_nanoseconds() {
    assert_eq!(round_ms(1.234_567_89), 1.234_568);
    assert_eq!(round_ms(0.000_000_4), 0.0);
    assert_eq!(round_ms(2.5), 2.5);
}
