//! The pair distribution function g(r) (docs/model.md §12.11): the density of boids at distance r
//! from a boid over the mean density, from the pairs closer than r_max (a uniform grid, every pair
//! exactly), averaged over the states given. g → 1 for a uniform random gas; in a world with walls
//! the pairs cut off by the walls are missing (no edge correction), so g falls below 1 as r
//! reaches the world's size.

use crate::analysis::types::{
    bin_centre, need, Analysis, AnalysisDesc, AnalysisError, Axis, Curve, Frame, Reach, Scales,
    SettingName, Settings, SEPARATION,
};
use crate::model::pairs::for_each_pair_within;
use crate::model::World;

/// The table's entry.
pub const DESC: AnalysisDesc = AnalysisDesc {
    name: "rdf",
    about: "pair distribution function g(r): density at distance r over the mean density",
    x: SEPARATION,
    y: Axis {
        symbol: "g(r)",
        name: "pair distribution",
        unit: "",
    },
    series: false,
    scales: Scales::Linear,
    reads: &[SettingName::RMax, SettingName::Bin],
    joined: true,
    needs: &[],
    scalars: &[],
    make,
};

fn make(s: &Settings, world: World) -> Result<Box<dyn Analysis>, AnalysisError> {
    let (r_max, bin) = s.pair_range(DESC.name, world, Reach::Neighbourhood)?;
    let bins = (r_max / bin).ceil() as usize;
    Ok(Box::new(Rdf {
        bin,
        r_max,
        pairs: vec![0; bins],
        expected: vec![0.0; bins],
        states: 0,
    }))
}

/// g(r) in progress: the ordered pairs counted per bin, and the count a uniform gas would give.
struct Rdf {
    bin: f64,
    r_max: f64,
    pairs: Vec<u64>,
    expected: Vec<f64>,
    states: u64,
}

/// The ordered pairs of `frame` in bins of `bin` wu below `r_max` (each unordered pair twice).
pub fn pair_counts(frame: &Frame, r_max: f64, bin: f64) -> Vec<u64> {
    let bins = (r_max / bin).ceil() as usize;
    let mut counts = vec![0u64; bins];
    let pos: Vec<[f32; 2]> = frame.boids.iter().map(|b| b.position).collect();
    for_each_pair_within(&pos, frame.world, r_max, |_, _, dx, dy| {
        let b = ((dx * dx + dy * dy).sqrt() / bin) as usize;
        if b < bins {
            counts[b] += 2;
        }
    });
    counts
}

impl Analysis for Rdf {
    fn add(&mut self, frame: &Frame) -> Result<(), AnalysisError> {
        let n = frame.boids.len() as f64;
        if n < 2.0 {
            return Ok(());
        }
        let area = frame.world.width as f64 * frame.world.height as f64;
        for (b, c) in pair_counts(frame, self.r_max, self.bin)
            .into_iter()
            .enumerate()
        {
            self.pairs[b] += c;
            let (lo, hi) = (
                b as f64 * self.bin,
                ((b + 1) as f64 * self.bin).min(self.r_max),
            );
            // N boids, each with N − 1 others at density (N − 1)/A.
            self.expected[b] += n * (n - 1.0) / area * std::f64::consts::PI * (hi * hi - lo * lo);
        }
        self.states += 1;
        Ok(())
    }

    fn curve(&self) -> Result<Curve, AnalysisError> {
        need(DESC.name, "state of 2 boids or more", 1, self.states)?;
        let bins = self.pairs.len();
        Ok(Curve {
            x: (0..bins)
                .map(|b| bin_centre(b, self.bin, self.r_max))
                .collect(),
            y: (0..bins)
                .map(|b| self.pairs[b] as f64 / self.expected[b])
                .collect(),
            samples: self.pairs.clone(),
            scalars: Vec::new(),
        })
    }
}
