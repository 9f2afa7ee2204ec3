//! The density profile along the direction of motion (docs/model.md §12.11): how travelling
//! bands are seen. In each state the axis of the world nearer the mean velocity is taken (x when
//! |Σ v_x| ≥ |Σ v_y|), pointing the way the flock moves (positions mirrored when it moves towards
//! −x or −y, so that a band's front lies ahead, at positive positions, in every state), the
//! boids' positions along it are shifted so that the peak of the density's first Fourier mode,
//! ρ̂₁ = Σ_j e^{2πi·x_j/L}, lies at the centre, and counted in slabs about `box_side` wide
//! (L / ⌊L / box_side⌋) across the world; the curve is the mean density of each slab against its
//! position from that peak — over every state in a square world, over the states that moved
//! along the axis most of them moved along in another. A band (Chaté, Ginelli, Grégoire &
//! Raynaud, Phys. Rev. E 77, 046113 (2008)) shows as a steep front ahead of the peak, a tail
//! behind it and a dilute gas beyond; a state without one as a hump of the first mode's own
//! cosine (amplitude 2|ρ̂₁|/N), the centring's making. The scalar `first_mode` is ⟨|ρ̂₁|/N⟩ over
//! the states, `first_mode_gas` its value for N independent uniform positions, √π / (2√N) (large
//! N): a ratio near 1 is a uniform gas; an ordered flock's density fluctuates on the world's scale
//! with or without a band (several to tens of times it), so the profile's shape, not the ratio,
//! tells a band. A wrapping world only: against walls the density piles up, which the profile
//! would show as a band. States with no boids add nothing.

use std::f64::consts::PI;

use crate::analysis::density::box_side;
use crate::analysis::types::{
    need, Analysis, AnalysisDesc, AnalysisError, Axis, Curve, Frame, Scales, SettingName, Settings,
    StatePart,
};
use crate::model::World;

/// Most slabs of a profile.
pub const MAX_SLABS: f64 = 65_536.0;

/// The table's entry.
pub const DESC: AnalysisDesc = AnalysisDesc {
    name: "density_profile",
    about: "density along the direction of motion: travelling bands",
    x: Axis {
        symbol: "x",
        name: "position along the direction of motion, from the first mode's peak",
        unit: "wu",
    },
    y: Axis {
        symbol: "ρ(x)",
        name: "density",
        unit: "1/wu²",
    },
    series: false,
    scales: Scales::Linear,
    reads: &[SettingName::BoxSide],
    joined: true,
    needs: &[StatePart::Velocity],
    scalars: &[("first_mode", ""), ("first_mode_gas", "")],
    make,
};

fn make(s: &Settings, world: World) -> Result<Box<dyn Analysis>, AnalysisError> {
    if !world.wrap {
        return Err(AnalysisError::NeedsWrap {
            analysis: DESC.name,
            why: "against walls the density piles up, which the profile would show as a band",
        });
    }
    let short = world.width.min(world.height) as f64;
    let long = world.width.max(world.height) as f64;
    let limit = format!("at most {MAX_SLABS} slabs along the world's longer side");
    let side = box_side(s, DESC.name, long / MAX_SLABS, short, &limit)?;
    Ok(Box::new(DensityProfile {
        world,
        along_x: Profile::new(world.width as f64, side),
        along_y: Profile::new(world.height as f64, side),
        first_mode: 0.0,
        boids: 0,
        states: 0,
    }))
}

/// The slab counts summed over the states whose axis is one of the world's.
struct Profile {
    counts: Vec<u64>,
    states: u64,
}

impl Profile {
    /// No state yet, along an axis `len` wu long in slabs about `side` wu wide.
    fn new(len: f64, side: f64) -> Profile {
        Profile {
            counts: vec![0; ((len / side).floor() as usize).max(1)],
            states: 0,
        }
    }
}

/// The profile in progress.
struct DensityProfile {
    world: World,
    along_x: Profile,
    along_y: Profile,
    first_mode: f64,
    boids: u64,
    states: u64,
}

/// The positions along one axis of length `len`, shifted so that the first Fourier mode's peak
/// lies at `len / 2`, counted in `slabs` slabs; and |ρ̂₁| / N.
pub fn centred_counts(along: &[f64], len: f64, slabs: usize) -> (Vec<u64>, f64) {
    let k = 2.0 * PI / len;
    let (mut re, mut im) = (0.0f64, 0.0f64);
    for &x in along {
        re += (k * x).cos();
        im += (k * x).sin();
    }
    let n = along.len().max(1) as f64;
    // The mode's peak: where cos(k·x − φ) is largest.
    let peak = im.atan2(re) / k;
    let mut counts = vec![0u64; slabs];
    let width = len / slabs as f64;
    for &x in along {
        let shifted = (x - peak + 0.5 * len).rem_euclid(len);
        let b = ((shifted / width) as usize).min(slabs - 1);
        counts[b] += 1;
    }
    (counts, re.hypot(im) / n)
}

impl Analysis for DensityProfile {
    fn add(&mut self, frame: &Frame) -> Result<(), AnalysisError> {
        let w = frame.world;
        if (w.width, w.height) != (self.world.width, self.world.height) {
            return Err(AnalysisError::OtherWorld {
                analysis: DESC.name,
                width: w.width,
                height: w.height,
                first_width: self.world.width,
                first_height: self.world.height,
            });
        }
        if frame.boids.is_empty() {
            return Ok(());
        }
        let (vx, vy) = frame.boids.iter().fold((0.0f64, 0.0f64), |(x, y), b| {
            (x + b.velocity[0] as f64, y + b.velocity[1] as f64)
        });
        let use_x = vx.abs() >= vy.abs();
        let (len, k) = if use_x {
            (self.world.width as f64, 0)
        } else {
            (self.world.height as f64, 1)
        };
        // Along the direction of motion: a flock moving towards −x (or −y) is seen mirrored, so
        // that a band's front lies on the same side in every state.
        let forward = [vx, vy][k] >= 0.0;
        let along: Vec<f64> = frame
            .boids
            .iter()
            .map(|b| {
                let x = b.position[k] as f64;
                if forward {
                    x
                } else {
                    len - x
                }
            })
            .collect();
        let profile = if use_x {
            &mut self.along_x
        } else {
            &mut self.along_y
        };
        let (counts, mode) = centred_counts(&along, len, profile.counts.len());
        for (sum, c) in profile.counts.iter_mut().zip(counts) {
            *sum += c;
        }
        profile.states += 1;
        self.first_mode += mode;
        self.boids += frame.boids.len() as u64;
        self.states += 1;
        Ok(())
    }

    fn curve(&self) -> Result<Curve, AnalysisError> {
        need(DESC.name, "state", 1, self.states)?;
        let (x, y) = (&self.along_x, &self.along_y);
        let pooled;
        // A square world: the states of both axes together (the same slabs); otherwise the axis
        // most states moved along.
        let (p, len, across) = if self.world.width == self.world.height {
            pooled = Profile {
                counts: x.counts.iter().zip(&y.counts).map(|(a, b)| a + b).collect(),
                states: x.states + y.states,
            };
            (&pooled, self.world.width as f64, self.world.height as f64)
        } else if x.states >= y.states {
            (x, self.world.width as f64, self.world.height as f64)
        } else {
            (y, self.world.height as f64, self.world.width as f64)
        };
        let slabs = p.counts.len();
        let width = len / slabs as f64;
        let area = width * across * p.states as f64;
        let n = self.boids as f64 / self.states as f64;
        Ok(Curve {
            x: (0..slabs)
                .map(|b| (b as f64 + 0.5) * width - 0.5 * len)
                .collect(),
            y: p.counts.iter().map(|&c| c as f64 / area).collect(),
            samples: p.counts.clone(),
            scalars: vec![
                ("first_mode", Some(self.first_mode / self.states as f64), ""),
                (
                    "first_mode_gas",
                    Some(PI.sqrt() / (2.0 * n.max(1.0).sqrt())),
                    "",
                ),
            ],
        })
    }
}
