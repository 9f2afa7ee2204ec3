//! The analyses' costs on one state (docs/model.md §12.11): C(r) (as the analysis computes it: the
//! short separations summed over their pairs, the rest on the mesh; the mesh alone; and the direct
//! pair sum, its twin, up to 10⁵ boids) and S(k) (the mesh's
//! Taylor series), for N boids uniform at the default density with smooth velocity fluctuations,
//! r_max = 10 perception radii (200 wu), 50 bins, the structure factor's default mesh (256) and
//! 512. Each the fastest of 3 runs, in s. Run: `cargo bench --bench analyses [-- --boids N]`
//! (default 1 000 000; the direct C(r) only up to 100 000). In the same run, freud's C(r) and g(r)
//! on the same kind of state (`scripts/analyses_vs_freud.py`), by the Python in `$BOIDS_PYTHON`
//! (else `python3`) when it imports freud; said and left out when none does.

use std::time::Instant;

use boids::analysis::structure_factor::{structure_factor_mesh, Geometry};
use boids::analysis::velocity_correlation::{
    direct_radius, velocity_correlation_direct, velocity_correlation_mesh,
};
use boids::analysis::Frame;
use boids::model::{Boid, World, DEFAULT_DENSITY};

fn fastest(mut f: impl FnMut()) -> f64 {
    (0..3)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64()
        })
        .fold(f64::MAX, f64::min)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: usize = args
        .iter()
        .position(|a| a == "--boids")
        .and_then(|i| args.get(i + 1))
        .map_or(1_000_000, |s| s.parse().expect("--boids N"));
    let side = (n as f64 / DEFAULT_DENSITY as f64).sqrt();
    let world = World {
        width: side as f32,
        height: side as f32,
        wrap: true,
    };
    let mut s = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = || {
        s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (s >> 11) as f64 / (1u64 << 53) as f64
    };
    let boids: Vec<Boid> = (0..n)
        .map(|i| {
            let (x, y) = (next() * side, next() * side);
            let a = (x / 300.0).sin() * 2.0 + (y / 200.0).cos() + next() - 0.5;
            Boid {
                position: [x as f32, y as f32],
                velocity: [a.cos() as f32, a.sin() as f32],
                hue: [1.0, 0.0],
                hue_velocity: [0.0, 0.0],
                id: i as u32,
                image: [0; 2],
            }
        })
        .collect();
    let frame = Frame {
        boids: &boids,
        world,
        time: 0.0,
    };
    let (r_max, bin) = (200.0, 4.0);
    let below = direct_radius(n, world).min(r_max);
    println!(
        "{n} boids in {side:.0} × {side:.0} wu, r_max {r_max} wu, bin {bin} wu, pairs summed below \
         {below:.1} wu; {} rayon threads",
        rayon::current_num_threads()
    );
    let t = fastest(|| {
        velocity_correlation_mesh(&frame, r_max, bin, below);
    });
    println!("C(r):             {t:.3} s");
    let t = fastest(|| {
        velocity_correlation_mesh(&frame, r_max, bin, 0.0);
    });
    println!("C(r) mesh alone:  {t:.3} s (every separation from the mesh but the first two cells)");
    if n <= 100_000 {
        let t = fastest(|| {
            velocity_correlation_direct(&frame, r_max, bin);
        });
        println!("C(r) direct:      {t:.3} s");
    }
    freud_side_by_side(n);
    for mesh in [256, 512] {
        let g = Geometry::of(world, mesh);
        let t = fastest(|| {
            structure_factor_mesh(&frame, &g);
        });
        println!(
            "S(k) mesh {mesh}:    {t:.3} s ({} wave vectors up to k = {:.4} 1/wu)",
            g.vectors().len(),
            g.k_max
        );
    }
}

/// freud's C(r) and g(r) on N boids built the same way, run now so that both sides share one
/// sitting (and one machine load).
fn freud_side_by_side(n: usize) {
    let python = std::env::var("BOIDS_PYTHON").unwrap_or_else(|_| "python3".into());
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/analyses_vs_freud.py");
    match std::process::Command::new(&python)
        .arg(script)
        .arg(n.to_string())
        .output()
    {
        Ok(out) if out.status.success() => {
            for line in String::from_utf8_lossy(&out.stdout).lines() {
                println!("  {line}");
            }
        }
        Ok(out) => println!(
            "freud: left out ({python} {script} failed: {})",
            String::from_utf8_lossy(&out.stderr)
                .lines()
                .last()
                .unwrap_or("")
        ),
        Err(e) => println!("freud: left out ({python}: {e})"),
    }
}
