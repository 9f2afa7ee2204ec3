//! State files with extreme finite values: whatever the loader accepts steps without producing a
//! NaN or an infinity, and whatever the program saves loads back (a seeded property test over
//! random extreme values and parameters at the ends of their ranges).

use std::path::Path;

use boids::backend::{BackendKind, Simulation};
use boids::cpu::CpuBackend;
use boids::formats::checkpoint::{load_checkpoint, load_state, read, save_checkpoint, Checkpoint};
use boids::model::{Boid, Boundary, SimParams};

/// xorshift64*: a seeded generator for the cases.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn unit(&mut self) -> f32 {
        (self.next() >> 40) as f32 / (1u64 << 24) as f32
    }
    fn pick<T: Copy>(&mut self, v: &[T]) -> T {
        v[self.below(v.len())]
    }
    /// A finite f32 from the extremes (0, ±subnormal, ±smallest normal, ±1, ±1e20, ±1e38, ±MAX),
    /// a random bit pattern, or a moderate value.
    fn extreme(&mut self) -> f32 {
        let sign = if self.next() & 1 == 0 { 1.0 } else { -1.0 };
        let v = match self.below(10) {
            0 => 0.0,
            1 => f32::from_bits(1),
            2 => f32::MIN_POSITIVE,
            3 => 1.0,
            4 => 1e20,
            5 => 1e38,
            6 => f32::MAX,
            7 => loop {
                let x = f32::from_bits(self.next() as u32);
                if x.is_finite() {
                    break x;
                }
            },
            _ => self.unit() * 1000.0,
        };
        sign * v
    }
    /// A position in [0, side): 0, the largest float below side, a subnormal, or uniform.
    fn coordinate(&mut self, side: f32) -> f32 {
        match self.below(4) {
            0 => 0.0,
            1 => f32::from_bits(side.to_bits() - 1),
            2 => f32::from_bits(1),
            _ => (self.unit() * side).min(f32::from_bits(side.to_bits() - 1)),
        }
    }
}

/// Valid parameters with every range pushed to one of its ends at random.
fn extreme_params(r: &mut Rng) -> SimParams {
    let mut p = {
        let mut sp = SimParams {
            world_width: r.pick(&[1.0, 3.0, 1000.0, 1.0e6]),
            world_height: r.pick(&[1.0, 7.5, 1000.0, 1.0e6]),
            dt: r.pick(&[1.0e-4, 1.0 / 60.0, 0.1]),
            boundary: r.pick(&[Boundary::Wrap, Boundary::Walls, Boundary::Bounce]),
            perception_radius: r.pick(&[0.01, 20.0, 1.0e5]),
            max_neighbors: r.pick(&[0, 1, 16]),
            hue_cohesion_weight: r.pick(&[0.0, 6.0, 100.0]),
            hue_alignment_weight: r.pick(&[0.0, 3.0, 100.0]),
            max_hue_speed: r.pick(&[0.0, 1.0, 100.0]),
            wall_distance: r.pick(&[0.0, 20.0, 1.0e5]),
            wall_weight: r.pick(&[0.0, 300.0, 1.0e6]),
            rotational_diffusion: r.pick(&[0.0, 0.3, 100.0]),
            ..SimParams::default()
        };
        sp.models.boids.separation_weight = r.pick(&[0.0, 1.5, 100.0]);
        sp.models.boids.alignment_weight = r.pick(&[0.0, 1.2, 100.0]);
        sp.models.boids.cohesion_weight = r.pick(&[0.0, 0.6, 100.0]);
        sp.models.boids.max_speed = r.pick(&[0.001, 100.0, 1.0e5]);
        sp.models.boids.max_force = r.pick(&[0.0, 150.0, 1.0e6]);
        sp
    };
    p.models.boids.min_speed = p.models.boids.max_speed * r.pick(&[0.0, 0.5, 1.0]);
    if p.boundary == Boundary::Wrap {
        // A wrapping world is at least two perception radii across (its minimum image is unique).
        p.perception_radius = p
            .perception_radius
            .min(0.5 * p.world_width.min(p.world_height));
    }
    let radius = |r: &mut Rng, per: f32| per * r.pick(&[0.0, 0.5, 1.0]);
    p.separation_radius = radius(r, p.perception_radius);
    p.alignment_radius = radius(r, p.perception_radius);
    p.cohesion_radius = radius(r, p.perception_radius);
    p.hue_radius = radius(r, p.perception_radius);
    p.validate().expect("generated parameters are valid");
    p
}

fn all_finite(boids: &[Boid]) -> Result<(), String> {
    match boids.iter().find(|b| !b.is_finite()) {
        Some(b) => Err(format!("non-finite boid {b:?}")),
        None => Ok(()),
    }
}

/// The property: over many seeded cases of extreme finite values (positions in the world, any
/// finite velocity, hue vector and hue velocity, obstacles anywhere in the world) and extreme
/// parameters, the checkpoint loads, three CPU steps keep every value and measure finite, and the
/// stepped state saves and loads back bit for bit.
#[test]
fn extreme_finite_values_load_step_finite_and_save_back() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("extreme.csv");
    let again = dir.path().join("again.csv");
    let mut r = Rng(0x05EE_D0FB_01D5);
    for case in 0..300 {
        let params = extreme_params(&mut r);
        let n = 1 + r.below(40);
        let boids: Vec<Boid> = (0..n)
            .map(|i| {
                let hue = loop {
                    let h = [r.extreme(), r.extreme()];
                    if h != [0.0, 0.0] {
                        break h;
                    }
                };
                Boid {
                    position: [
                        r.coordinate(params.world_width),
                        r.coordinate(params.world_height),
                    ],
                    velocity: [r.extreme(), r.extreme()],
                    hue,
                    hue_velocity: [r.extreme(), r.extreme()],
                    id: if i == 0 { u32::MAX } else { r.next() as u32 },
                    image: [0; 2],
                }
            })
            .collect();
        let mut ids: Vec<u32> = boids.iter().map(|b| b.id).collect();
        ids.sort_unstable();
        ids.dedup();
        if ids.len() != n {
            continue; // a rare id collision: not this test's subject
        }
        let obstacles: Vec<[f32; 2]> = (0..r.below(4))
            .map(|_| {
                [
                    r.coordinate(params.world_width),
                    r.coordinate(params.world_height),
                ]
            })
            .collect();
        let cp = Checkpoint {
            params: params.clone(),
            seed: r.next() as u32,
            step: r.next() as u32,
            obstacles,
            predators: Vec::new(),
            catches_total: 0,
            boids,
        };
        save_checkpoint(&path, &cp).unwrap_or_else(|e| panic!("case {case}: {e}"));
        let loaded = load_checkpoint(&path).unwrap_or_else(|e| panic!("case {case}: {e}"));
        // What the loader guarantees.
        for b in &loaded.boids {
            let speed = (b.velocity[0] as f64).hypot(b.velocity[1] as f64);
            let hue = (b.hue[0] as f64).hypot(b.hue[1] as f64);
            let hs = (b.hue_velocity[0] as f64).hypot(b.hue_velocity[1] as f64);
            let tol = 1.0 + 2e-4;
            assert!(
                speed <= params.models.boids.max_speed as f64 * tol + 1e-18
                    && speed >= params.models.boids.min_speed as f64 / tol - 1e-18
                    && (hue - 1.0).abs() < 2e-4
                    && hs <= params.max_hue_speed as f64 * tol + 1e-18,
                "case {case}: loaded boid out of bounds: {b:?} (speed {speed}, |h| {hue}, |u| {hs})"
            );
        }
        let mut sim =
            CpuBackend::from_state(BackendKind::Cpu, &loaded.params, loaded.boids, loaded.seed)
                .unwrap();
        sim.set_step_index(loaded.step);
        sim.set_obstacles(&loaded.obstacles).unwrap();
        for step in 0..3 {
            sim.step().unwrap();
            let state = sim.read_state().unwrap();
            all_finite(&state).unwrap_or_else(|e| {
                panic!(
                    "case {case}, step {step}: {e}\nparams {params:?}\nobstacles {:?}",
                    cp.obstacles
                )
            });
            let m = sim.measures().unwrap();
            assert!(
                m.polarization().is_finite()
                    && m.mean_speed().is_finite()
                    && m.milling().is_finite(),
                "case {case}: measures {m:?}"
            );
        }
        // What the program saved loads back, bit for bit.
        let saved = Checkpoint {
            params: sim.params().clone(),
            seed: cp.seed,
            step: sim.step_index(),
            obstacles: cp.obstacles.clone(),
            predators: Vec::new(),
            catches_total: 0,
            boids: sim.read_state().unwrap(),
        };
        save_checkpoint(&again, &saved).unwrap_or_else(|e| panic!("case {case}: {e}"));
        let back = load_checkpoint(&again).unwrap_or_else(|e| panic!("case {case}: {e}"));
        let bits = |b: &[Boid]| -> Vec<u32> {
            b.iter()
                .flat_map(|b| bytemuck::cast::<Boid, [u32; 11]>(*b))
                .collect()
        };
        assert_eq!(bits(&back.boids), bits(&saved.boids), "case {case}");
        assert_eq!(back.step, saved.step);
    }
}

const HEADER: &str = "id,x,y,vx,vy,hx,hy,hvx,hvy";

fn write(dir: &Path, name: &str, rows: &str) -> std::path::PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, format!("{HEADER}\n{rows}")).unwrap();
    p
}

/// The reported cases: a hue component of 1e38 made the hue velocity NaN for ever, and a velocity
/// of 1e20 became speed 0.
#[test]
fn a_huge_hue_or_velocity_is_brought_into_range_with_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    let p = write(
        dir.path(),
        "huge.csv",
        "0,10,10,1e20,0,1e38,0,0,0\n1,12,10,50,0,0.6,0.8,1e38,-1e38\n2,500,500,0,0,-3.4028235e38,3.4028235e38,0,0\n",
    );
    // A hue speed bound of 1/s, so the scaled hue velocity is a unit vector.
    let params = SimParams {
        max_hue_speed: 1.0,
        ..SimParams::default()
    };
    let mut sf = read(&p).unwrap();
    sf.conform(&params, "the defaults").unwrap();
    let w = sf.warnings().join("\n");
    assert!(
        w.contains("hue vector normalised") && w.contains("for 2 boids, first at line 2"),
        "{w}"
    );
    assert!(w.contains("speed scaled") && w.contains("[40, 100]"), "{w}");
    assert!(
        w.contains("hue velocity scaled down") && w.contains("line 3"),
        "{w}"
    );
    let b = &sf.boids;
    assert_eq!(b[0].velocity, [100.0, 0.0]);
    assert_eq!(b[0].hue, [1.0, 0.0]);
    assert!((b[1].hue_velocity[0] - 0.70710677).abs() < 1e-6);
    assert_eq!(
        b[2].velocity,
        [40.0, 0.0],
        "a stopped boid gets min_speed along +x"
    );
    let mut sim = CpuBackend::from_state(BackendKind::Cpu, &params, sf.boids, 1).unwrap();
    for _ in 0..5 {
        sim.step().unwrap();
    }
    let state = sim.read_state().unwrap();
    all_finite(&state).unwrap();
    for b in &state {
        let s = (b.velocity[0] as f64).hypot(b.velocity[1] as f64);
        assert!((39.99..=100.01).contains(&s), "speed {s} of {b:?}");
    }
}

#[test]
fn values_that_cannot_be_brought_into_range_are_errors_naming_the_line() {
    let dir = tempfile::tempdir().unwrap();
    for (rows, line, needle) in [
        (
            "0,1,1,50,0,1,0,0,0\n1,1,1,50,0,0,0,0,0\n",
            "line 3",
            "(0, 0)",
        ),
        (
            "0,1,1,50,0,1,0,0,0\n1,1,1,50,0,1,0,1e39,0\n",
            "line 3",
            "hvx",
        ),
        (
            "0,1,1,50,0,1,0,0,0\n\n1,1,1,nan,0,1,0,0,0\n",
            "line 4",
            "vx",
        ),
        (
            "0,1,1,50,0,1,0,0,0\n1,1,1,50,0,1,-inf,0,0\n",
            "line 3",
            "hy",
        ),
        (
            "0,1,1,50,0,1,0,0\n",
            "line 2",
            "expected 9 fields, as the header",
        ),
        ("4294967296,1,1,50,0,1,0,0,0\n", "line 2", "id"),
    ] {
        let p = write(dir.path(), "bad.csv", rows);
        let e = load_state(&p).unwrap_err().to_string();
        assert!(
            e.contains("bad.csv") && e.contains(line) && e.contains(needle),
            "{rows:?}: {e}"
        );
    }
    // Positions must lie in the world of the parameters used.
    let p = write(
        dir.path(),
        "out.csv",
        "0,1,1,50,0,1,0,0,0\n7,1000,5,50,0,1,0,0,0\n",
    );
    let mut sf = read(&p).unwrap();
    let e = sf
        .conform(&SimParams::default(), "the defaults")
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("line 3") && e.contains("boid 7") && e.contains("outside the world"),
        "{e}"
    );
}
