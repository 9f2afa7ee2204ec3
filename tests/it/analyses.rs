//! The analyses (docs/model.md §12.11) held to their exact limits, their fast paths to their
//! reference twins, and their settings refused before a run.

use boids::analysis::structure_factor::{structure_factor_direct, structure_factor_mesh, Geometry};
use boids::analysis::velocity_correlation::{
    velocity_correlation_direct, velocity_correlation_mesh,
};
use boids::analysis::{by_name, Analyses, AnalysisError, Frame, Settings, ANALYSES};
use boids::backend::{BackendKind, Simulation};
use boids::cpu::CpuBackend;
use boids::model::{initial_state, Boid, Model, SimParams, World};

/// A small deterministic generator of uniform numbers in [0, 1).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> f64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
}

fn boid(id: u32, p: [f64; 2], v: [f64; 2]) -> Boid {
    Boid {
        position: [p[0] as f32, p[1] as f32],
        velocity: [v[0] as f32, v[1] as f32],
        hue: [1.0, 0.0],
        hue_velocity: [0.0, 0.0],
        id,
        image: [0; 2],
    }
}

/// `n` boids uniform in a `w × h` world with independent random headings.
fn gas(n: usize, w: f64, h: f64, seed: u64) -> Vec<Boid> {
    let mut r = Lcg(seed);
    (0..n)
        .map(|i| {
            let a = r.next() * std::f64::consts::TAU;
            boid(i as u32, [r.next() * w, r.next() * h], [a.cos(), a.sin()])
        })
        .collect()
}

fn torus(w: f32, h: f32) -> World {
    World {
        width: w,
        height: h,
        wrap: true,
    }
}

fn settings() -> Settings {
    Settings::new(10.0, 1, 1.0, "s")
}

fn curve(name: &str, s: &Settings, world: World, states: &[Vec<Boid>]) -> boids::analysis::Curve {
    crate::support::states::analysis_curve(name, s, world, states)
}

/// g(r) → 1 and S(k) → 1 for a uniform random gas, within their statistical errors (a bin of m
/// pairs: 1/√(m/2); a shell of m wave vectors, each exponentially distributed: 1/√m).
#[test]
fn a_random_gas_has_g_and_s_one() {
    let world = torus(400.0, 300.0);
    let states: Vec<Vec<Boid>> = (0..4).map(|k| gas(10_000, 400.0, 300.0, 7 + k)).collect();
    let mut s = settings();
    s.r_max = Some(50.0);
    s.bin = Some(2.0);
    let g = curve("rdf", &s, world, &states);
    assert_eq!(g.x.len(), 25);
    for i in 0..g.x.len() {
        let tol = 5.0 / (g.samples[i] as f64 / 2.0).sqrt();
        assert!(
            (g.y[i] - 1.0).abs() < tol,
            "g({}) = {} ± {tol}",
            g.x[i],
            g.y[i]
        );
    }
    s.mesh = 128;
    let sk = curve("structure_factor", &s, world, &states);
    assert!(sk.x.len() > 10);
    for i in 0..sk.x.len() {
        let tol = 5.0 / (sk.samples[i] as f64).sqrt();
        assert!(
            (sk.y[i] - 1.0).abs() < tol,
            "S({}) = {} ± {tol}",
            sk.x[i],
            sk.y[i]
        );
    }
}

/// Independent headings have C(r > 0) ≈ 0 (within 5/√pairs), and no robust zero to call ξ is
/// required of noise; a planted correlation (headings aligned within 20 wu blocks) gives C > 0.3
/// below 10 wu and a first zero ξ.
#[test]
fn independent_headings_are_uncorrelated_and_planted_ones_are_not() {
    let world = torus(400.0, 300.0);
    let states = vec![gas(10_000, 400.0, 300.0, 3)];
    let mut s = settings();
    s.r_max = Some(60.0);
    s.bin = Some(3.0);
    let c = curve("velocity_correlation", &s, world, &states);
    for i in 1..c.x.len() {
        let tol = 5.0 / (c.samples[i] as f64).sqrt();
        assert!(c.y[i].abs() < tol, "C({}) = {} ± {tol}", c.x[i], c.y[i]);
    }
    let mut planted = gas(10_000, 400.0, 300.0, 4);
    for b in &mut planted {
        let block = (b.position[0] / 40.0).floor() * 13.0 + (b.position[1] / 40.0).floor() * 7.0;
        let a = block as f64 * 2.399;
        b.velocity = [a.cos() as f32, a.sin() as f32];
    }
    let c = curve("velocity_correlation", &s, world, &[planted]);
    assert!(c.y[1] > 0.3 && c.y[2] > 0.3, "{:?}", &c.y[..4]);
    let xi = c.scalars.iter().find(|s| s.0 == "xi").unwrap().1;
    assert!(xi.is_some_and(|x| x > 10.0 && x < 60.0), "ξ = {xi:?}");
}

/// A state with smooth velocity fluctuations: headings following a few long waves plus noise.
fn correlated(n: usize, w: f64, h: f64, seed: u64) -> Vec<Boid> {
    let mut b = gas(n, w, h, seed);
    let mut r = Lcg(seed + 99);
    for x in &mut b {
        let (px, py) = (x.position[0] as f64, x.position[1] as f64);
        let a = (std::f64::consts::TAU * px / w * 3.0).sin() * 2.0
            + (std::f64::consts::TAU * py / h * 2.0).cos() * 1.5
            + (r.next() - 0.5) * 1.0;
        x.velocity = [a.cos() as f32, a.sin() as f32];
    }
    b
}

/// The fast C(r) on a mesh against its reference twin, the direct sum over the pairs, at
/// N = 10⁴ on a correlated state: within 1 % of C's scale (its largest |C|) in every bin (those
/// below two cells are summed over their pairs by both), wrapping and walled.
#[test]
fn the_mesh_velocity_correlation_is_the_direct_one() {
    for wrap in [true, false] {
        let world = World {
            width: 400.0,
            height: 300.0,
            wrap,
        };
        let b = correlated(10_000, 400.0, 300.0, 11);
        let frame = Frame {
            boids: &b,
            world,
            time: 0.0,
        };
        let (r_max, bin) = (120.0, 4.0);
        let direct = velocity_correlation_direct(&frame, r_max, bin).unwrap();
        let mesh = velocity_correlation_mesh(&frame, r_max, bin, 0.0).unwrap();
        let cd: Vec<f64> = (0..direct.pairs.len())
            .map(|i| direct.numerator[i] / direct.pairs[i])
            .collect();
        let scale = cd.iter().fold(0.0f64, |m, c| m.max(c.abs()));
        assert!(scale > 0.2, "the state is correlated: {scale}");
        for (i, c) in cd.iter().enumerate() {
            let cm = mesh.numerator[i] / mesh.pairs[i];
            assert!(
                (cm - c).abs() <= 0.01 * scale,
                "wrap {wrap}, bin {i}: mesh {cm} against direct {c}"
            );
            let dp = (mesh.pairs[i] - direct.pairs[i]).abs() / direct.pairs[i];
            assert!(
                dp < 0.05,
                "pairs of bin {i}: {} against {}",
                mesh.pairs[i],
                direct.pairs[i]
            );
        }
    }
}

/// The fast S(k) on a mesh against its reference twin, the direct sum over the boids at every
/// wave vector up to half the mesh's Nyquist number, on a clustered state of 10⁴ boids: within
/// 1e-6 relative (the Taylor series is exact to ~3·10⁻⁵ of a boid's term).
#[test]
fn the_mesh_structure_factor_is_the_direct_one() {
    let world = torus(400.0, 300.0);
    let mut r = Lcg(5);
    let centres: Vec<[f64; 2]> = (0..30)
        .map(|_| [r.next() * 400.0, r.next() * 300.0])
        .collect();
    let b: Vec<Boid> = (0..10_000)
        .map(|i| {
            let c = centres[i % 30];
            let p = [
                (c[0] + (r.next() - 0.5) * 20.0).rem_euclid(400.0),
                (c[1] + (r.next() - 0.5) * 20.0).rem_euclid(300.0),
            ];
            boid(i as u32, p, [1.0, 0.0])
        })
        .collect();
    let frame = Frame {
        boids: &b,
        world,
        time: 0.0,
    };
    let g = Geometry::of(world, 64);
    let mesh = structure_factor_mesh(&frame, &g);
    let vectors: Vec<(f64, f64)> = mesh.iter().map(|m| (m.0, m.1)).collect();
    let direct = structure_factor_direct(&frame, &vectors);
    assert!(mesh.len() > 100);
    let big = direct.iter().cloned().fold(0.0, f64::max);
    assert!(big > 50.0, "the state is clustered: S up to {big}");
    for (m, d) in mesh.iter().zip(&direct) {
        assert!(
            (m.2 - d).abs() <= 1e-6 * d.max(1.0),
            "k = ({}, {}): mesh {} against direct {d}",
            m.0,
            m.1,
            m.2
        );
    }
}

/// The time analysis `name` of a CPU run of `n` boids with `p` from seed 5, read `reads` times
/// `every` steps apart (the first read before any step).
fn series_curve(
    name: &str,
    p: &SimParams,
    n: usize,
    every: u32,
    reads: u64,
) -> boids::analysis::Curve {
    let mut sim = CpuBackend::from_state(BackendKind::Cpu, p, initial_state(5, n, p), 5).unwrap();
    let time = p.model.desc().speed.time;
    let mut s = settings();
    s.states = reads;
    s.interval = time.after(every, p.dt);
    let world = World::of(p);
    let mut a = Analyses::new(&[by_name(name).unwrap()], &s, world).unwrap();
    for k in 0..reads {
        let b = sim.read_state().unwrap();
        a.add(&Frame {
            boids: &b,
            world,
            time: k as f64 * s.interval,
        })
        .unwrap();
        for _ in 0..every {
            sim.step().unwrap();
        }
    }
    a.curves().unwrap().pop().unwrap()
}

/// The heading autocorrelation of lone boids turned by rotational diffusion alone is
/// exp(−D_r t), within 5 standard errors of its mean over the boids.
#[test]
fn lone_boids_lose_their_heading_as_exp_minus_d_r_t() {
    let d_r = 0.5f32;
    let mut p = SimParams {
        dt: 1.0 / 60.0,
        rotational_diffusion: d_r,
        hue_cohesion_weight: 0.0,
        hue_alignment_weight: 0.0,
        ..SimParams::default()
    };
    p.models.boids.separation_weight = 0.0;
    p.models.boids.alignment_weight = 0.0;
    p.models.boids.cohesion_weight = 0.0;
    let p = p.with_world_for(3000, boids::model::DEFAULT_DENSITY);
    let c = series_curve("heading_autocorrelation", &p, 3000, 6, 200);
    assert!(
        c.x.last().unwrap() > &2.0,
        "lags reach {}",
        c.x.last().unwrap()
    );
    for i in 0..c.x.len() {
        let want = (-(d_r as f64) * c.x[i]).exp();
        // Each boid's cos Δθ has variance ≤ 1/2; the origins are correlated, so take the boids
        // alone as independent samples.
        let se = (0.5 / 3000.0f64).sqrt();
        assert!(
            (c.y[i] - want).abs() < 5.0 * se,
            "t = {}: {} against exp(−D_r t) = {want}",
            c.x[i],
            c.y[i]
        );
    }
}

/// The MSD of the Vicsek gas at η = 2π (a fresh random heading every step) is v0² t (t in steps,
/// Δt = 1), from the unwrapped paths of a wrapping world, within 5 standard errors; and ballistic
/// motion (η = 0, a perception radius of 0.01 wu: a boid meets another about twice in the run,
/// turning a little) gives v0² t² within 1 %.
#[test]
fn the_vicsek_gas_diffuses_and_a_lone_vicsek_boid_flies() {
    for (eta, ballistic) in [(std::f32::consts::TAU, false), (0.0, true)] {
        let v0 = 0.5f32;
        let mut p = SimParams {
            model: Model::VICSEK,
            world_width: 60.0,
            world_height: 60.0,
            perception_radius: if ballistic { 0.01 } else { 1.0 },
            hue_radius: if ballistic { 0.01 } else { 1.0 },
            ..SimParams::default()
        };
        p.models.vicsek.speed = v0;
        p.models.vicsek.eta = eta;
        let n = 2000;
        let c = series_curve("msd", &p, n, 1, 400);
        assert!(c.x.last().unwrap() > &200.0);
        for i in 0..c.x.len() {
            let t = c.x[i];
            let v2 = (v0 * v0) as f64;
            let want = if ballistic { v2 * t * t } else { v2 * t };
            // A 2D random walk's squared displacement has a standard deviation ≈ its mean.
            let tol = if ballistic {
                1e-2 * want
            } else {
                5.0 * want / (n as f64).sqrt()
            };
            assert!(
                (c.y[i] - want).abs() < tol,
                "η = {eta}: MSD({t}) = {} against {want}",
                c.y[i]
            );
        }
    }
}

/// The cluster sizes and the density histogram of a state made by hand, exactly.
#[test]
fn clusters_and_local_density_of_a_state_made_by_hand() {
    let world = World {
        width: 100.0,
        height: 100.0,
        wrap: false,
    };
    // A chain of three 4 wu apart, a pair, a loner; link radius 5.
    let b = vec![
        boid(0, [10.0, 10.0], [1.0, 0.0]),
        boid(1, [14.0, 10.0], [1.0, 0.0]),
        boid(2, [18.0, 10.0], [1.0, 0.0]),
        boid(3, [60.0, 60.0], [1.0, 0.0]),
        boid(4, [63.0, 60.0], [1.0, 0.0]),
        boid(5, [90.0, 20.0], [1.0, 0.0]),
    ];
    let mut s = settings();
    s.link_radius = 5.0;
    let c = curve("cluster_sizes", &s, world, std::slice::from_ref(&b));
    assert_eq!(c.x, [1.0, 2.0, 3.0]);
    assert_eq!(c.y, [1.0 / 3.0, 1.0 / 3.0, 1.0 / 3.0]);
    assert_eq!(c.scalars[0], ("mean_size", Some(2.0), "boids"));
    s.box_side = Some(50.0);
    let d = curve("local_density", &s, world, &[b]);
    // Boxes of 50 wu: 3, 1 (the loner), 2, 0 boids.
    assert_eq!(d.samples, [1, 1, 1, 1]);
    assert_eq!(d.x[3], 3.0 / 2500.0);
    assert_eq!(d.y, [0.25; 4]);
}

/// Settings that cannot be honoured are refused before a run, naming the limit; an unknown name
/// lists the table; a time analysis refuses a state of other boids.
#[test]
fn settings_that_cannot_be_honoured_are_refused() {
    let world = torus(100.0, 80.0);
    let mut s = settings();
    s.r_max = Some(41.0);
    let e = (by_name("rdf").unwrap().make)(&s, world).err().unwrap();
    assert!(
        e.to_string().contains("r_max = 41") && e.to_string().contains("≤ 40"),
        "{e}"
    );
    s.r_max = None;
    // A bin or a box so small that its bins or boxes would not fit in memory: refused, not
    // allocated.
    s.bin = Some(1e-10);
    let e = (by_name("rdf").unwrap().make)(&s, world).err().unwrap();
    assert!(e.to_string().contains("at most 100000 bins"), "{e}");
    s.bin = None;
    s.box_side = Some(1e-5);
    let e = (by_name("local_density").unwrap().make)(&s, world)
        .err()
        .unwrap();
    assert!(e.to_string().contains("at most 16777216 boxes"), "{e}");
    s.box_side = None;
    s.mesh = 8;
    let e = (by_name("structure_factor").unwrap().make)(&s, world)
        .err()
        .unwrap();
    assert!(e.to_string().contains("mesh = 8"), "{e}");
    s.states = 1;
    let e = (by_name("msd").unwrap().make)(&s, world).err().unwrap();
    assert!(
        matches!(
            e,
            AnalysisError::TooFew {
                needed: 2,
                got: 1,
                ..
            }
        ),
        "{e}"
    );
    let e = by_name("g_of_r").unwrap_err().to_string();
    for d in ANALYSES {
        assert!(e.contains(d.name), "{e}");
    }
    s.states = 10;
    let mut a = (by_name("msd").unwrap().make)(&s, world).unwrap();
    let one = gas(10, 100.0, 80.0, 1);
    let mut other = one.clone();
    other[3].id = 99;
    let f = |b| Frame {
        boids: b,
        world,
        time: 0.0,
    };
    a.add(&f(&one)).unwrap();
    assert!(matches!(
        a.add(&f(&other)),
        Err(AnalysisError::OtherBoids { .. })
    ));
}

/// `boids headless --analyse` writes each curve (CSV and plot) and says its scalars; `boids
/// analyse` reads the run's trajectory back to the same curve; settings it cannot honour, an
/// unknown analysis and no analysis at all are refused with the limit or the names, writing
/// nothing.
#[test]
fn the_command_line_writes_curves_and_refuses_what_it_cannot_honour() {
    use crate::support::cmd::boids;
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let out = boids()
        .args([
            "headless",
            "--boids",
            "2000",
            "--steps",
            "40",
            "--analyse-every",
            "10",
        ])
        .args(["--every", "10", "--trajectory"])
        .arg(d.join("t.gsd"))
        .arg("--analyse")
        .arg(format!(
            "velocity_correlation={}",
            d.join("c.csv").display()
        ))
        .arg("--analyse")
        .arg(format!("msd={}", d.join("m.csv").display()))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        text.contains("velocity_correlation over 5 states: xi = "),
        "{text}"
    );
    for f in ["c.csv", "c.png", "m.csv", "m.png"] {
        assert!(d.join(f).is_file(), "{f}");
    }
    let csv = std::fs::read_to_string(d.join("c.csv")).unwrap();
    assert!(csv.contains("\nr_wu,C(r),samples\n"), "{csv}");
    let out = boids()
        .arg("analyse")
        .arg(d.join("t.gsd"))
        .args(["--analyse-every", "1", "--analyse"])
        .arg(format!(
            "velocity_correlation={}",
            d.join("c2.csv").display()
        ))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The same states (the trajectory's frames are the states the run analysed): the same curve,
    // up to the order of the sums (the file's rows are in id order, the run's state in storage
    // order).
    let rows = |f: &str| {
        let t = std::fs::read_to_string(d.join(f)).unwrap();
        t.lines()
            .skip(3)
            .map(|l| {
                l.split(',')
                    .map(|v| v.parse::<f64>().unwrap())
                    .collect::<Vec<_>>()
            })
            .collect::<Vec<_>>()
    };
    let (a, b) = (rows("c.csv"), rows("c2.csv"));
    assert_eq!(a.len(), b.len());
    for (x, y) in a.iter().zip(&b) {
        assert_eq!((x[0], x[2]), (y[0], y[2]));
        assert!((x[1] - y[1]).abs() < 1e-9, "{x:?} against {y:?}");
    }
    for (args, needles) in [
        (
            vec!["--analyse", "rdf=x.csv", "--r-max", "5000"],
            vec!["r_max = 5000", "half the world's shorter side"],
        ),
        (
            vec!["--analyse", "gofr=x.csv"],
            vec!["no analysis `gofr`", "rdf"],
        ),
        (
            vec![],
            vec!["nothing to compute", "--analyse NAME=FILE.csv"],
        ),
        (
            vec!["--analyse", "rdf=missing/x.csv"],
            vec!["the folder missing does not exist", "nothing was read"],
        ),
        (
            vec!["--analyse", "msd=x.csv", "--box-side", "5"],
            vec![
                "--box-side 5: none of the analyses asked for (msd)",
                "local_density",
            ],
        ),
    ] {
        let out = boids()
            .current_dir(d)
            .arg("analyse")
            .arg(d.join("t.gsd"))
            .args(&args)
            .output()
            .unwrap();
        says(&out, &args, &needles);
        assert!(!d.join("x.csv").exists());
    }
    // headless finds a missing folder before it runs (10⁶ steps would take minutes), and a setting
    // without an analysis to use it.
    for (args, needles) in [
        (
            vec!["--analyse", "rdf=missing/x.csv"],
            vec![
                "--analyse: missing/x.csv: the folder missing does not exist",
                "nothing was run",
            ],
        ),
        (
            vec!["--bin", "2"],
            vec!["without --analyse would do nothing"],
        ),
        (
            vec!["--analyse", "rdf=x.csv", "--mesh", "128"],
            vec![
                "--mesh 128: none of the analyses asked for (rdf) reads it",
                "read by structure_factor",
            ],
        ),
    ] {
        let out = boids()
            .current_dir(d)
            .args(["headless", "--boids", "1000", "--steps", "1000000"])
            .args(&args)
            .output()
            .unwrap();
        says(&out, &args, &needles);
    }
}

/// A sweep's analysis columns: each run's ξ is the one `boids headless` computes for the same
/// seed and settings; points.csv combines the repeats (mean, sd/√K, how many had one); ordered
/// Vicsek flocks (η = 0.5) have a longer ξ than disordered ones (η = 5). An analysis without a
/// scalar summary, and a setting without an analysis, are refused before anything runs.
#[test]
fn a_sweep_records_xi_per_run_and_per_point() {
    use crate::support::cmd::boids;
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let scene = concat!(env!("CARGO_MANIFEST_DIR"), "/scenes/vicsek.toml");
    let common = ["--boids", "1000", "--steps", "300", "--discard", "200"];
    crate::support::cmd::ok_cmd(
        boids()
            .args(["sweep", "--scene", scene, "--param", "vicsek_eta"])
            .args(["--values", "0.5,5", "--repeats", "2", "--quiet"])
            .args(common)
            .args(["--analyse", "velocity_correlation", "--out"])
            .arg(d.join("s")),
    );
    let table = |f: &str| {
        let text = std::fs::read_to_string(d.join("s").join(f)).unwrap();
        let mut lines = text.lines();
        let head: Vec<String> = lines.next().unwrap().split(',').map(String::from).collect();
        let rows: Vec<Vec<String>> = lines
            .map(|l| l.split(',').map(String::from).collect())
            .collect();
        (head, rows)
    };
    let col = |head: &[String], name: &str| head.iter().position(|h| h == name).unwrap();
    let (head, rows) = table("sweep.csv");
    assert_eq!(head.last().unwrap(), "xi");
    assert_eq!(rows.len(), 4);
    let (seed, run_col) = (col(&head, "seed"), col(&head, "xi"));
    let per_run = |r: usize| rows[r][run_col].parse::<f64>().unwrap();
    // The first run again as a headless run of its seed: the same ξ.
    let out = boids()
        .args(["headless", "--scene", scene, "--set", "vicsek_eta=0.5"])
        .args(["--seed", &rows[0][seed]])
        .args(common)
        .arg("--analyse")
        .arg(format!(
            "velocity_correlation={}",
            d.join("c.csv").display()
        ))
        .output()
        .unwrap();
    assert!(out.status.success());
    let curve = std::fs::read_to_string(d.join("c.csv")).unwrap();
    // Every digit: the same number, not one within a print's rounding.
    assert!(
        curve.contains(&format!("# xi = {} wu\n", per_run(0))),
        "{} against {curve}",
        per_run(0)
    );
    let (head, points) = table("points.csv");
    let (xi, se, k) = (
        col(&head, "xi"),
        col(&head, "xi_se"),
        col(&head, "xi_repeats"),
    );
    let value = |p: usize, c: usize| points[p][c].parse::<f64>().unwrap();
    for (p, point) in points.iter().enumerate() {
        let (a, b) = (per_run(2 * p), per_run(2 * p + 1));
        assert!((value(p, xi) - (a + b) / 2.0).abs() < 1e-9);
        assert!((value(p, se) - (a - b).abs() / 2.0).abs() < 1e-9);
        assert_eq!(point[k], "2");
    }
    assert!(
        value(0, xi) > value(1, xi) + 3.0 * (value(0, se) + value(1, se)),
        "ordered ξ {} against disordered {}",
        value(0, xi),
        value(1, xi)
    );
    for (args, needles) in [
        (
            vec!["--analyse", "rdf"],
            vec![
                "--analyse rdf",
                "no scalar summary",
                "velocity_correlation (xi)",
            ],
        ),
        (vec!["--r-max", "3"], vec!["without --analyse", "--r-max"]),
        (
            vec!["--analyse", "velocity_correlation", "--r-max", "100"],
            vec!["r_max = 100", "half the world's shorter side"],
        ),
        (
            vec!["--analyse", "velocity_correlation", "--analyse-every", "0"],
            vec!["--analyse-every 0", "1 or more"],
        ),
        (
            vec!["--analyse", "velocity_correlation", "--link-radius", "2"],
            vec![
                "--link-radius 2: none of the analyses asked for (velocity_correlation)",
                "read by cluster_sizes",
            ],
        ),
        (
            vec!["--analyse", "velocity_correlation", "--mesh", "64"],
            vec![
                "--mesh 64",
                "no analysis a sweep records reads it: drop the setting",
            ],
        ),
    ] {
        let out = boids()
            .args(["sweep", "--scene", scene, "--param", "vicsek_eta"])
            .args(["--values", "1", "--quiet", "--out"])
            .arg(d.join("refused"))
            .args(common)
            .args(&args)
            .output()
            .unwrap();
        says(&out, &args, &needles);
        assert!(!d.join("refused").exists(), "{args:?}");
    }
}

/// Each analysis's curve carries the scalar summaries its table entry declares (the columns a
/// sweep writes), by name and unit, in order.
#[test]
fn every_curve_has_the_scalars_its_entry_declares() {
    let world = torus(200.0, 200.0);
    let mut s = settings();
    s.states = 3;
    let states: Vec<Vec<Boid>> = (0..3).map(|_| gas(400, 200.0, 200.0, 3)).collect();
    let mut declared = 0;
    for desc in ANALYSES {
        let c = curve(desc.name, &s, world, &states);
        let got: Vec<(&str, &str)> = c.scalars.iter().map(|(n, _, u)| (*n, *u)).collect();
        assert_eq!(got, desc.scalars.to_vec(), "{}", desc.name);
        declared += desc.scalars.len();
    }
    // ξ, the cluster sizes' two, the mean density and the density profile's first mode with its
    // gas value: a sweep has columns to write.
    assert_eq!(declared, 6);
    // The names are distinct, and none is a column a sweep already has.
    let names: Vec<&str> = ANALYSES
        .iter()
        .flat_map(|d| d.scalars.iter().map(|s| s.0))
        .collect();
    for (i, n) in names.iter().enumerate() {
        assert!(!names[..i].contains(n), "{n} twice");
        assert!(
            boids::model::measures::MEASURES
                .iter()
                .all(|m| m.name != *n),
            "{n} is a measure's name"
        );
    }
}

/// Only the time analyses need evenly spaced frames: on a trajectory whose last frame is closer
/// (steps 0, 10, …, 40, 45), g(r) takes all six frames and says they are unevenly spaced; the MSD
/// leaves the last one out and says so; asked for together, each gives what it gives alone.
#[test]
fn only_the_time_analyses_need_evenly_spaced_frames() {
    use crate::support::cmd::{boids, ok_cmd};
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    ok_cmd(
        boids()
            .args([
                "headless", "--boids", "500", "--steps", "45", "--every", "10",
            ])
            .arg("--trajectory")
            .arg(d.join("t.gsd")),
    );
    let out = ok_cmd(
        boids()
            .arg("analyse")
            .arg(d.join("t.gsd"))
            .arg("--analyse")
            .arg(format!("rdf={}", d.join("g.csv").display())),
    );
    assert!(out.contains("analysed:       6 frames"), "{out}");
    assert!(out.contains("rdf over 6 states"), "{out}");
    let out = ok_cmd(
        boids()
            .arg("analyse")
            .arg(d.join("t.gsd"))
            .arg("--analyse")
            .arg(format!("msd={}", d.join("m.csv").display())),
    );
    assert!(out.contains("msd over 5 states"), "{out}");
    assert!(out.contains("the last frame (step 45)"), "{out}");
    // Together, each as alone: the MSD's leaving the last frame out leaves g(r) as it was.
    let out = ok_cmd(
        boids()
            .arg("analyse")
            .arg(d.join("t.gsd"))
            .arg("--analyse")
            .arg(format!("rdf={}", d.join("g2.csv").display()))
            .arg("--analyse")
            .arg(format!("msd={}", d.join("m2.csv").display())),
    );
    assert!(
        out.contains("rdf over 6 states") && out.contains("msd over 5 states"),
        "{out}"
    );
    assert!(out.contains("left out of the time analyses"), "{out}");
    for (a, b) in [("g.csv", "g2.csv"), ("m.csv", "m2.csv")] {
        assert_eq!(
            std::fs::read(d.join(a)).unwrap(),
            std::fs::read(d.join(b)).unwrap(),
            "{b} differs from {a}, made alone"
        );
    }
}

/// `out` is a refusal whose message holds every one of `needles` (`args` named on failure).
fn says(out: &std::process::Output, args: &[&str], needles: &[&str]) {
    let e = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{args:?}");
    for n in needles {
        assert!(e.contains(n), "{args:?}: {e}");
    }
}

/// An analysis that cannot be finished (the velocity correlation of a flock in perfect order,
/// whose velocities never fluctuate) loses nothing else: `headless` writes its measures, its
/// state and the other analyses and prints its report, then fails naming it; a sweep leaves that
/// run's columns empty,
/// says so, and goes on to the next run.
#[test]
fn an_analysis_that_cannot_be_finished_loses_nothing_else() {
    use crate::support::cmd::boids;
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let scene = concat!(env!("CARGO_MANIFEST_DIR"), "/scenes/vicsek.toml");
    let mut rows = String::from("id,x,y,vx,vy,hx,hy,hvx,hvy\n");
    for i in 0..400 {
        let (x, y) = ((i % 20) as f32 * 0.5 + 0.25, (i / 20) as f32 * 0.5 + 0.25);
        rows.push_str(&format!("{i},{x},{y},0.03,0,1,0,0,0\n"));
    }
    std::fs::write(d.join("ordered.csv"), rows).unwrap();
    let out = boids()
        .args(["headless", "--scene", scene, "--init"])
        .arg(d.join("ordered.csv"))
        .args([
            "--set",
            "vicsek_eta=0",
            "--steps",
            "30",
            "--analyse-every",
            "10",
        ])
        .arg("--stats")
        .arg(d.join("s.csv"))
        .arg("--save")
        .arg(d.join("end.csv"))
        .arg("--analyse")
        .arg(format!("rdf={}", d.join("g.csv").display()))
        .arg("--analyse")
        .arg(format!(
            "velocity_correlation={}",
            d.join("c.csv").display()
        ))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{err}");
    assert!(
        err.contains("velocity_correlation") && err.contains("other files were written"),
        "{err}"
    );
    // The run's report is printed before the error: the other analysis's summary included.
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("world:") && text.contains("rdf over"),
        "{text}"
    );
    for f in ["s.csv", "end.csv", "g.csv", "g.png"] {
        assert!(d.join(f).is_file(), "{f}: {err}");
    }
    assert!(!d.join("c.csv").exists());

    let sweep = d.join("sweep");
    let out = boids()
        .args(["sweep", "--backend", "cpu", "--scene", scene])
        .args(["--param", "vicsek_eta", "--values", "0,1", "--boids", "400"])
        .args(["--steps", "60", "--discard", "20", "--start", "ordered"])
        .args(["--analyse", "velocity_correlation", "--quiet", "--out"])
        .arg(&sweep)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains("run 1 (point 1") && err.contains("its columns are left empty"),
        "{err}"
    );
    let table = std::fs::read_to_string(sweep.join("sweep.csv")).unwrap();
    let lines: Vec<&str> = table.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(lines.len(), 3, "{table}");
    // ξ of the ordered run is empty; the noisy run has one.
    let xi = lines[0].split(',').position(|c| c == "xi").unwrap();
    assert_eq!(lines[1].split(',').nth(xi), Some(""), "{table}");
    assert!(
        lines[2].split(',').nth(xi).unwrap().parse::<f64>().is_ok(),
        "{table}"
    );
}
