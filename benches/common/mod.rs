//! What the benches that time one CPU stage alone share: the fastest of several passes over a
//! flock, and their `--name value` arguments.

use std::time::Instant;

/// The fastest of `passes` runs of `f` over a flock of `n` boids, in ns a boid.
pub fn fastest(passes: usize, n: usize, mut f: impl FnMut()) -> f64 {
    (0..passes)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64() * 1e9 / n as f64
        })
        .fold(f64::MAX, f64::min)
}

/// The value after `--name` on the command line, if given.
pub fn arg(name: &str) -> Option<String> {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1).cloned())
}
