//! The cluster-size distribution P(s) (docs/model.md §12.11): the connected components of the
//! graph linking boids closer than the link radius (the flock census's, loners included), and the
//! fraction of components of each size s, over the states given. Without alignment and at low
//! density it falls off fast; in flocking states it grows a tail up to the largest flocks.

use crate::analysis::types::{
    need, Analysis, AnalysisDesc, AnalysisError, Axis, Curve, Frame, Scales, SettingName, Settings,
};
use crate::model::census::component_sizes;
use crate::model::World;

/// The table's entry.
pub const DESC: AnalysisDesc = AnalysisDesc {
    name: "cluster_sizes",
    about: "cluster-size distribution P(s): the fraction of clusters (linked within the link radius) of s boids",
    x: Axis {
        symbol: "s",
        name: "cluster size",
        unit: "boids",
    },
    y: Axis {
        symbol: "P(s)",
        name: "fraction of clusters",
        unit: "",
    },
    series: false,
    scales: Scales::LogLog,
    reads: &[SettingName::LinkRadius],
    joined: false,
    needs: &[],
    scalars: &[("mean_size", "boids"), ("largest", "boids")],
    make,
};

fn make(s: &Settings, _world: World) -> Result<Box<dyn Analysis>, AnalysisError> {
    if !(s.link_radius > 0.0 && s.link_radius.is_finite()) {
        return Err(AnalysisError::Setting {
            analysis: DESC.name,
            field: "link_radius",
            value: s.link_radius,
            allowed: "a positive radius (wu)".into(),
        });
    }
    Ok(Box::new(ClusterSizes {
        radius: s.link_radius as f32,
        counts: Vec::new(),
    }))
}

/// The distribution in progress: clusters of each size (index s).
struct ClusterSizes {
    radius: f32,
    counts: Vec<u64>,
}

impl Analysis for ClusterSizes {
    fn add(&mut self, frame: &Frame) -> Result<(), AnalysisError> {
        for s in component_sizes(frame.boids, self.radius, frame.world) {
            let s = s as usize;
            if s >= self.counts.len() {
                self.counts.resize(s + 1, 0);
            }
            self.counts[s] += 1;
        }
        Ok(())
    }

    fn curve(&self) -> Result<Curve, AnalysisError> {
        let total: u64 = self.counts.iter().sum();
        need(DESC.name, "state with boids", 1, total)?;
        let sizes: Vec<usize> = (1..self.counts.len())
            .filter(|&s| self.counts[s] > 0)
            .collect();
        let boids: u64 = sizes.iter().map(|&s| s as u64 * self.counts[s]).sum();
        Ok(Curve {
            x: sizes.iter().map(|&s| s as f64).collect(),
            y: sizes
                .iter()
                .map(|&s| self.counts[s] as f64 / total as f64)
                .collect(),
            samples: sizes.iter().map(|&s| self.counts[s]).collect(),
            scalars: vec![
                ("mean_size", Some(boids as f64 / total as f64), "boids"),
                ("largest", sizes.last().map(|&s| s as f64), "boids"),
            ],
        })
    }
}
