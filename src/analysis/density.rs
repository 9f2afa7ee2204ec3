//! The local-density histogram (docs/model.md §12.11): the world cut into square boxes of side ℓ
//! (those wholly inside it), the boids of each box counted, and the fraction of boxes holding n
//! boids against the density n / ℓ², over the states given. A uniform random gas gives a Poisson
//! histogram about the mean density; phase separation (bands, flocks in a gas) gives two peaks.

use crate::analysis::types::{
    need, shown, Analysis, AnalysisDesc, AnalysisError, Axis, Curve, Frame, Scales, SettingName,
    Settings, MAX_BOXES,
};
use crate::model::World;

/// The table's entry.
pub const DESC: AnalysisDesc = AnalysisDesc {
    name: "local_density",
    about: "histogram of the local density: the fraction of square boxes at each density",
    x: Axis {
        symbol: "ρ",
        name: "local density",
        unit: "1/wu²",
    },
    y: Axis {
        symbol: "P(ρ)",
        name: "fraction of boxes",
        unit: "",
    },
    series: false,
    scales: Scales::Linear,
    reads: &[SettingName::BoxSide],
    joined: true,
    needs: &[],
    scalars: &[("mean_density", "1/wu²")],
    make,
};

fn make(s: &Settings, world: World) -> Result<Box<dyn Analysis>, AnalysisError> {
    let short = world.width.min(world.height) as f64;
    let area = world.width as f64 * world.height as f64;
    let smallest = (area / MAX_BOXES).sqrt();
    let side = box_side(
        s,
        DESC.name,
        smallest,
        short,
        &format!("at most {MAX_BOXES} boxes"),
    )?;
    Ok(Box::new(LocalDensity {
        side,
        boxes: Vec::new(),
        states: 0,
    }))
}

/// The `box_side` setting of analysis `analysis` (wu): as given, or two perception radii, at most
/// a quarter of the world's `short` side and at least `smallest` (the default fits any world:
/// only a side given can be refused, for `limit`'s reason or past the shorter side).
///
/// # Errors
/// [`AnalysisError::Setting`] for a side outside `smallest ..= short`.
pub fn box_side(
    s: &Settings,
    analysis: &'static str,
    smallest: f64,
    short: f64,
    limit: &str,
) -> Result<f64, AnalysisError> {
    let side = s
        .box_side
        .unwrap_or_else(|| (2.0 * s.perception_radius).min(short / 4.0).max(smallest));
    if !(side >= smallest && side <= short) {
        return Err(AnalysisError::Setting {
            analysis,
            field: "box_side",
            value: side,
            allowed: format!(
                "{} ≤ box_side ≤ {} wu ({limit}; at most the world's shorter side)",
                shown(smallest),
                shown(short)
            ),
        });
    }
    Ok(side)
}

/// The boids in each box of side `side` wholly inside the world of `frame`, row by row.
pub fn box_counts(frame: &Frame, side: f64) -> Vec<u32> {
    let cols = (frame.world.width as f64 / side).floor() as usize;
    let rows = (frame.world.height as f64 / side).floor() as usize;
    let mut counts = vec![0u32; cols * rows];
    for b in frame.boids {
        let cx = (b.position[0] as f64 / side).floor();
        let cy = (b.position[1] as f64 / side).floor();
        if cx >= 0.0 && cy >= 0.0 && (cx as usize) < cols && (cy as usize) < rows {
            counts[cy as usize * cols + cx as usize] += 1;
        }
    }
    counts
}

/// The histogram in progress: boxes holding n boids, by n.
struct LocalDensity {
    side: f64,
    boxes: Vec<u64>,
    states: u64,
}

impl Analysis for LocalDensity {
    fn add(&mut self, frame: &Frame) -> Result<(), AnalysisError> {
        for c in box_counts(frame, self.side) {
            let c = c as usize;
            if c >= self.boxes.len() {
                self.boxes.resize(c + 1, 0);
            }
            self.boxes[c] += 1;
        }
        self.states += 1;
        Ok(())
    }

    fn curve(&self) -> Result<Curve, AnalysisError> {
        let total: u64 = self.boxes.iter().sum();
        need(DESC.name, "state", 1, total)?;
        let area = self.side * self.side;
        let mean = self
            .boxes
            .iter()
            .enumerate()
            .map(|(n, c)| n as f64 * *c as f64)
            .sum::<f64>()
            / total as f64;
        Ok(Curve {
            x: (0..self.boxes.len()).map(|n| n as f64 / area).collect(),
            y: self
                .boxes
                .iter()
                .map(|c| *c as f64 / total as f64)
                .collect(),
            samples: self.boxes.clone(),
            scalars: vec![("mean_density", Some(mean / area), "1/wu²")],
        })
    }
}
