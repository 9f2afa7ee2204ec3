//! The `walls` boundary turns every boid back inside, whatever its angle of incidence
//! (docs/model.md §6.2): head-on (0°), tiny angles, grazing angles, exactly into a corner, at the
//! highest and the lowest speed, on the CPU backend and on the GPU backend.

use crate::support;
use boids::backend::{BackendKind, Simulation};
use boids::cpu::CpuBackend;
use boids::gpu::GpuBackend;
use boids::model::{Boid, Boundary, SimParams};

/// A 200 × 200 walled world with the flocking rules off: each boid meets only the walls.
fn params() -> SimParams {
    {
        let mut sp = SimParams {
            world_width: 200.0,
            world_height: 200.0,
            boundary: Boundary::Walls,
            // The wall rule alone: no rotational noise (the defaults have some).
            rotational_diffusion: 0.0,
            ..SimParams::default()
        };
        sp.models.boids.separation_weight = 0.0;
        sp.models.boids.alignment_weight = 0.0;
        sp.models.boids.cohesion_weight = 0.0;
        sp
    }
}

/// Headings (rad) of the fan: straight at each wall (0°), a hair (1e-7 rad, below f32's resolution
/// of a turn near 0 for the push alone), small, medium and grazing angles either side, and exactly
/// and nearly into each corner.
fn headings() -> Vec<f32> {
    let offsets = [
        0.0, 1e-7, -1e-7, 1e-4, -1e-4, 0.01, -0.01, 0.3, -0.3, 0.8, -0.8, 1.3, -1.3, 1.55, -1.55,
    ];
    let mut h = Vec::new();
    for wall in 0..4 {
        let base = wall as f32 * std::f32::consts::FRAC_PI_2;
        h.extend(offsets.iter().map(|o| base + o));
    }
    for corner in 0..4 {
        let base = std::f32::consts::FRAC_PI_4 + corner as f32 * std::f32::consts::FRAC_PI_2;
        h.extend([base, base + 1e-6, base - 1e-6]);
    }
    h
}

/// The fan: every heading at `max_speed` and at `min_speed`, each twice (an even and an odd id, the
/// two sides of the head-on tie-break), all starting at the centre.
fn fan(p: &SimParams) -> Vec<Boid> {
    let mut boids = Vec::new();
    for speed in [p.models.boids.max_speed, p.models.boids.min_speed] {
        for a in headings() {
            for _ in 0..2 {
                let id = boids.len() as u32;
                boids.push(Boid {
                    position: [p.world_width * 0.5, p.world_height * 0.5],
                    velocity: [speed * a.cos(), speed * a.sin()],
                    hue: [1.0, 0.0],
                    hue_velocity: [0.0, 0.0],
                    id,
                    image: [0; 2],
                });
            }
        }
    }
    boids
}

/// Whether `b` lies inside the wall zone (within `wall_distance` of an edge).
fn in_zone(b: &Boid, p: &SimParams) -> bool {
    let [x, y] = b.position;
    let d = p.wall_distance;
    x < d || y < d || p.world_width - x < d || p.world_height - y < d
}

/// Steps `sim` for `seconds` and checks that every visit of every boid to the wall zone ends within
/// `max_visit` seconds, leaving with a velocity that points away from the edges it was near.
/// Returns the longest visit (s), or a message naming the first boid that fails.
fn check_turns_back(
    sim: &mut dyn Simulation,
    p: &SimParams,
    seconds: f32,
    max_visit: f32,
) -> Result<f32, String> {
    let n = sim.len();
    let steps = (seconds / p.dt).round() as usize;
    let max_steps = (max_visit / p.dt).round() as usize;
    // Step at which each boid's current visit began (None: outside the zone).
    let mut entered: Vec<Option<usize>> = vec![None; n];
    let mut visits = vec![0u32; n];
    let mut longest = 0usize;
    let mut prev: Vec<Boid> = {
        let mut s = sim.read_state().map_err(|e| e.to_string())?;
        s.sort_by_key(|b| b.id);
        s
    };
    for step in 1..=steps {
        sim.step().map_err(|e| e.to_string())?;
        let mut s = sim.read_state().map_err(|e| e.to_string())?;
        s.sort_by_key(|b| b.id);
        for (i, b) in s.iter().enumerate() {
            let [x, y] = b.position;
            if !(x >= 0.0 && x < p.world_width && y >= 0.0 && y < p.world_height) {
                return Err(format!("step {step}: boid {} left the world: {b:?}", b.id));
            }
            match (entered[i], in_zone(b, p)) {
                (None, true) => entered[i] = Some(step),
                (Some(start), true) if step - start > max_steps => {
                    return Err(format!(
                        "boid {} (start velocity {:?}) is still within {} wu of an edge {} s \
                         after it came that near: {b:?}",
                        b.id,
                        fan(p)[i].velocity,
                        p.wall_distance,
                        (step - start) as f32 * p.dt
                    ));
                }
                (Some(_), false) => {
                    // It left through the zone's inner edge: its velocity points inward there.
                    let a = &prev[i];
                    let d = p.wall_distance;
                    let inward = (a.position[0] >= d || b.velocity[0] > 0.0)
                        && (p.world_width - a.position[0] >= d || b.velocity[0] < 0.0)
                        && (a.position[1] >= d || b.velocity[1] > 0.0)
                        && (p.world_height - a.position[1] >= d || b.velocity[1] < 0.0);
                    if !inward {
                        return Err(format!("boid {} left the zone moving outward: {b:?}", b.id));
                    }
                    let len = step - entered[i].unwrap_or(step);
                    longest = longest.max(len);
                    entered[i] = None;
                    visits[i] += 1;
                }
                _ => {}
            }
        }
        prev = s;
    }
    if let Some(i) = visits.iter().position(|&v| v == 0) {
        return Err(format!(
            "boid {i} never completed a visit to the wall zone in {seconds} s: {:?}",
            prev[i]
        ));
    }
    eprintln!(
        "longest visit to the wall zone: {} s",
        longest as f32 * p.dt
    );
    Ok(longest as f32 * p.dt)
}

#[test]
fn every_boid_turns_back_from_the_walls_on_the_cpu() {
    let p = params();
    let mut sim = CpuBackend::from_state(BackendKind::Cpu, &p, fan(&p), 1).unwrap();
    // From the centre a boid reaches the zone within 2 s even at min_speed. A visit lasts about
    // 0.5 s head-on at max_speed and half a spring period, π·sqrt(20/300) = 0.8 s, when grazing;
    // the longest, 1.5 s, are boids that turn along one wall into the next (measured).
    check_turns_back(&mut sim, &p, 8.0, 2.5).unwrap();
}

#[test]
fn every_boid_turns_back_from_stronger_and_weaker_walls() {
    // A wall too weak to stop a boid in its zone (it reaches the edge and the clamp turns it),
    // and one strong enough to turn every boid inside the zone. A boid that grazes a wall sinks
    // into the linear push like a spring, so its visit lasts about half a period,
    // π·sqrt(wall_distance / wall_weight): 2.6 s at weight 30, 0.26 s at 3000; the bound is that
    // plus a margin for the visits that turn along one wall into the next (the longest measured:
    // 3.2 s and 0.5 s).
    for (wall_weight, max_visit) in [(30.0, 5.0), (3000.0, 1.0)] {
        let p = SimParams {
            wall_weight,
            ..params()
        };
        let mut sim = CpuBackend::from_state(BackendKind::Cpu, &p, fan(&p), 1).unwrap();
        check_turns_back(&mut sim, &p, 12.0, max_visit)
            .unwrap_or_else(|e| panic!("wall_weight {wall_weight}: {e}"));
    }
}

#[test]
fn the_check_fails_for_a_boid_pinned_at_a_wall() {
    // Planted fault: with no wall force (weight 0) a boid sliding along an edge never leaves the
    // zone; the check must say so.
    let p = SimParams {
        wall_weight: 0.0,
        ..params()
    };
    let slider = Boid {
        position: [100.0, 199.0],
        velocity: [40.0, 0.0],
        hue: [1.0, 0.0],
        hue_velocity: [0.0, 0.0],
        id: 0,
        image: [0; 2],
    };
    let mut sim = CpuBackend::from_state(BackendKind::Cpu, &p, vec![slider], 1).unwrap();
    let e = check_turns_back(&mut sim, &p, 3.0, 1.5).unwrap_err();
    assert!(e.contains("still within"), "{e}");
}

#[test]
fn head_on_push_turns_to_the_side_of_the_id_parity() {
    // Straight at the right wall, the push alone is anti-parallel to v; the turn is +90° (to +y)
    // for an even id and −90° for an odd one, and the speed stays at least min_speed.
    let p = params();
    let start = |id| Boid {
        position: [195.0, 100.0],
        velocity: [p.models.boids.min_speed, 0.0],
        hue: [1.0, 0.0],
        hue_velocity: [0.0, 0.0],
        id,
        image: [0; 2],
    };
    let mut sim =
        CpuBackend::from_state(BackendKind::Cpu, &p, vec![start(0), start(1)], 1).unwrap();
    sim.step().unwrap();
    let mut s = sim.read_state().unwrap();
    s.sort_by_key(|b| b.id);
    assert!(s[0].velocity[1] > 0.0, "even id turns to +y: {:?}", s[0]);
    assert!(s[1].velocity[1] < 0.0, "odd id turns to −y: {:?}", s[1]);
    for b in &s {
        let speed = (b.velocity[0].powi(2) + b.velocity[1].powi(2)).sqrt();
        assert!(speed >= p.models.boids.min_speed * 0.999, "{b:?}");
    }
}

#[test]
fn the_clamp_turns_the_outward_velocity_inward() {
    // A step that would leave the world ends on the edge, moving inward along that axis.
    let p = SimParams {
        wall_weight: 0.0,
        ..params()
    };
    let b = crate::support::states::planted;
    let state = vec![
        b(0, [199.9, 100.0], [99.0, 10.0]),
        b(1, [0.1, 100.0], [-99.0, 10.0]),
        b(2, [100.0, 199.9], [10.0, 99.0]),
        b(3, [100.0, 0.1], [10.0, -99.0]),
    ];
    let mut sim = CpuBackend::from_state(BackendKind::Cpu, &p, state, 1).unwrap();
    sim.step().unwrap();
    let mut s = sim.read_state().unwrap();
    s.sort_by_key(|b| b.id);
    assert!(
        s[0].position[0] < 200.0 && s[0].velocity[0] < 0.0,
        "{:?}",
        s[0]
    );
    assert!(
        s[1].position[0] == 0.0 && s[1].velocity[0] > 0.0,
        "{:?}",
        s[1]
    );
    assert!(
        s[2].position[1] < 200.0 && s[2].velocity[1] < 0.0,
        "{:?}",
        s[2]
    );
    assert!(
        s[3].position[1] == 0.0 && s[3].velocity[1] > 0.0,
        "{:?}",
        s[3]
    );
    // The tangential component and the speed are kept.
    for (a, want) in s
        .iter()
        .zip([[-99.0, 10.0], [99.0, 10.0], [10.0, -99.0], [10.0, 99.0]])
    {
        assert_eq!(a.velocity, want, "{a:?}");
    }
}

#[test]
fn every_boid_turns_back_from_the_walls_on_the_gpu() {
    let Some(ctx) = support::gpu() else { return };
    let p = params();
    support::checked(&ctx, || {
        let mut sim = GpuBackend::from_state(&ctx, &p, &fan(&p), 1).unwrap();
        check_turns_back(&mut sim, &p, 8.0, 2.5).unwrap();
    });
}
