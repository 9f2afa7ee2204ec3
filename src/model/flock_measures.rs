//! The measures of one state ([`FlockMeasures`]): a value for each measure of the measure table
//! ([`crate::model::measures::MEASURES`]) that was computed, finished by the entry's
//! [`Finish`] from what a backend computed (the row of sums, the catch counters, the flock
//! census), and the order parameter's statistics of a run ([`series_measures`]); with the
//! reference computation of the sums of a state in f64 ([`flock_measures`]).

use serde::{Deserialize, Serialize};

use crate::model::census::FlockCensus;
use crate::model::measures::{
    Finish, Measure, MeasureContext, MeasureId, MeasureSums, MEASURES, MEASURE_COUNT,
};
use crate::model::state::Boid;
use crate::model::world::World;
use crate::stats::{Estimate, OrderParameterMoments};

/// The measures of one state: a value for each measure of [`MEASURES`] that was computed
/// (`None` for the others: the census when not asked for, catches where nothing counts them, the
/// mean neighbour count before the first step).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FlockMeasures {
    values: [Option<f64>; MEASURE_COUNT],
}

impl FlockMeasures {
    /// The measures finished from `sums` (every measure of the table that has a `finish`; the
    /// mean neighbour count only when `ctx.neighbors_counted`).
    pub fn from_sums(sums: &MeasureSums, ctx: &MeasureContext) -> FlockMeasures {
        let mut out = FlockMeasures::default();
        if ctx.n == 0 {
            return out;
        }
        for (k, m) in MEASURES.iter().enumerate() {
            let finish = match m.finish {
                Finish::Sums(f) => f,
                Finish::SumsAndNeighbors(f) if ctx.neighbors_counted => f,
                _ => continue,
            };
            out.values[k] = Some(m.within_range(finish(sums, ctx)));
        }
        out
    }

    /// The value of measure `m`, when computed.
    pub fn get(&self, m: MeasureId) -> Option<f64> {
        self.values[m.0]
    }

    /// Sets measure `m`.
    pub fn set(&mut self, m: MeasureId, value: f64) {
        self.values[m.0] = Some(value);
    }

    /// These measures with those of the catch counters (this step, since the run began).
    pub fn with_catches(mut self, step: u32, total: u32) -> FlockMeasures {
        for (k, m) in MEASURES.iter().enumerate() {
            if let Finish::Counter(f) = m.finish {
                self.values[k] = Some(f(&[step, total]));
            }
        }
        self
    }

    /// These measures with those of the flock census.
    pub fn with_census(mut self, c: &FlockCensus) -> FlockMeasures {
        for (k, m) in MEASURES.iter().enumerate() {
            if let Finish::Census(f) = m.finish {
                self.values[k] = Some(f(c));
            }
        }
        self
    }

    /// Every computed measure with its value, in table order.
    pub fn iter(&self) -> impl Iterator<Item = (&'static Measure, f64)> + '_ {
        MEASURES
            .iter()
            .zip(&self.values)
            .filter_map(|(m, v)| v.map(|v| (m, v)))
    }

    /// A measure's value, or NaN when it was not computed.
    fn or_nan(&self, m: MeasureId) -> f64 {
        self.get(m).unwrap_or(f64::NAN)
    }

    /// Polarization φ (NaN when not computed).
    pub fn polarization(&self) -> f64 {
        self.or_nan(MeasureId::POLARIZATION)
    }

    /// Milling m (NaN when not computed).
    pub fn milling(&self) -> f64 {
        self.or_nan(MeasureId::MILLING)
    }

    /// Mean speed (NaN when not computed).
    pub fn mean_speed(&self) -> f64 {
        self.or_nan(MeasureId::MEAN_SPEED)
    }

    /// Mean neighbour count (NaN when not computed, e.g. before the first step).
    pub fn mean_neighbors(&self) -> f64 {
        self.or_nan(MeasureId::MEAN_NEIGHBORS)
    }

    /// The order parameter v_a (NaN when not computed).
    pub fn va(&self) -> f64 {
        self.or_nan(MeasureId::VA)
    }

    /// The nematic order S = |⟨e^{2iθ}⟩| of the headings (NaN when not computed).
    pub fn nematic(&self) -> f64 {
        self.or_nan(MeasureId::NEMATIC)
    }

    /// Boids caught in the last step (0 when not counted).
    pub fn catches(&self) -> u32 {
        self.get(MeasureId::CATCHES).unwrap_or(0.0) as u32
    }

    /// Boids caught since the run began (0 when not counted).
    pub fn catches_total(&self) -> u32 {
        self.get(MeasureId::CATCHES_TOTAL).unwrap_or(0.0) as u32
    }
}

impl Serialize for FlockMeasures {
    /// A map of the computed measures by name.
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = s.serialize_map(None)?;
        for (m, v) in self.iter() {
            map.serialize_entry(m.name, &v)?;
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for FlockMeasures {
    /// The map [`Serialize`] writes; names not in the table are left out.
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let map = std::collections::BTreeMap::<String, f64>::deserialize(d)?;
        let mut out = FlockMeasures::default();
        for (name, v) in map {
            if let Some(m) = MeasureId::by_name(&name) {
                out.set(m, v);
            }
        }
        Ok(out)
    }
}

/// The measures of the table finished from the moments `m` of the model's order parameter over a
/// run ([`Finish::Series`]: ⟨φ²⟩, ⟨φ⁴⟩, G, χ), in table order, with their errors.
pub fn series_measures(m: &OrderParameterMoments) -> Vec<(&'static Measure, Estimate)> {
    MEASURES
        .iter()
        .filter_map(|d| match d.finish {
            Finish::Series(f) => Some((d, f(m))),
            _ => None,
        })
        .collect()
}

/// Reference computation of the measures in f64 (the CPU twin of the `measures` GPU stage).
/// `neighbors[i]` is the neighbour count of `boids[i]` from the last rules pass; in a `world` that
/// wraps, the milling centre is the periodic mean. v_a is taken with v0 = the mean speed (see
/// [`flock_measures_at_speed`]).
pub fn flock_measures(boids: &[Boid], neighbors: &[u32], world: World) -> FlockMeasures {
    flock_measures_at_speed(boids, neighbors, world, None)
}

/// [`flock_measures`] with v_a = |Σ v_i| / (N·v0) for the constant speed `v0` (wu per step) of the
/// Vicsek model, or, for `None`, v0 = the mean speed (docs/model.md §12.7).
pub fn flock_measures_at_speed(
    boids: &[Boid],
    neighbors: &[u32],
    world: World,
    v0: Option<f32>,
) -> FlockMeasures {
    let pos_vel: Vec<[f32; 4]> = boids.iter().map(Boid::pos_vel).collect();
    let sums = MeasureSums::of_state(&pos_vel, neighbors, world);
    FlockMeasures::from_sums(
        &sums,
        &MeasureContext {
            n: boids.len(),
            v0,
            neighbors_counted: true,
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::measures::{Needs, COL_UNIT_VELOCITY, SUMS};

    /// Every entry of the table is finished from what its kind says: the sums give the
    /// averages, the counters the catches, the census the flock measures, the moments of a series
    /// the order statistics — and, taken together, every measure has a value.
    #[test]
    fn every_measure_is_finished_by_its_kind() {
        let mut sums = MeasureSums::default();
        for (k, c) in sums.cols.iter_mut().enumerate() {
            *c = 1.0 + k as f64;
        }
        let ctx = MeasureContext {
            n: 100,
            v0: None,
            neighbors_counted: true,
        };
        let census = FlockCensus {
            flocks: 3,
            largest: 40,
            flocked_fraction: 0.75,
            hue_coherence: 0.5,
            polarization: 0.9,
        };
        let m = FlockMeasures::from_sums(&sums, &ctx)
            .with_catches(2, 9)
            .with_census(&census);
        let series: Vec<f64> = (0..400)
            .map(|i| 0.5 + 0.1 * ((i * 7919) % 13) as f64 / 13.0)
            .collect();
        let moments = crate::stats::order_parameter_moments(&series, 100);
        let finished = series_measures(&moments);
        for (k, d) in MEASURES.iter().enumerate() {
            let v = match d.needs() {
                Needs::Series => finished
                    .iter()
                    .find(|(x, _)| x.name == d.name)
                    .map(|(_, e)| e.value),
                _ => m.get(MeasureId(k)),
            };
            assert!(
                v.is_some_and(f64::is_finite),
                "{} has no value: {v:?}",
                d.name
            );
        }
        assert_eq!(m.catches(), 2);
        assert_eq!(m.catches_total(), 9);
        assert_eq!(m.get(MeasureId::LARGEST_FLOCK), Some(40.0));
        assert_eq!(m.get(MeasureId::FLOCKED_FRACTION), Some(0.75));
        assert!((m.get(MeasureId::FLOCK_POLARIZATION).unwrap() - 0.9).abs() < 1e-6);
        let series = MEASURES
            .iter()
            .filter(|d| d.needs() == Needs::Series)
            .count();
        assert_eq!(finished.len(), series);
        let binder = finished.iter().find(|(d, _)| d.name == "binder").unwrap();
        assert_eq!(binder.1.value, moments.binder_cumulant.value);
        // Before a step the neighbour counts are not a step's: no mean neighbour count.
        let before = FlockMeasures::from_sums(
            &sums,
            &MeasureContext {
                neighbors_counted: false,
                ..ctx
            },
        );
        assert_eq!(before.get(MeasureId::MEAN_NEIGHBORS), None);
        assert!(before.get(MeasureId::MEAN_SPEED).is_some());
    }

    /// The measure table's nematic order (sums of cos 2θ, sin 2θ from the velocity's components,
    /// no angles) equals the statistics module's independent one (`stats::nematic_order`) on
    /// random headings and speeds, some boids stopped; and a planted change of one heading is seen.
    #[test]
    fn the_nematic_measure_equals_the_independent_nematic_order() {
        let mut rng = crate::stats::test_rng::TestRng::new(7);
        for n in [1usize, 2, 17, 400] {
            let boids: Vec<Boid> = (0..n)
                .map(|i| {
                    let a = rng.angle() as f32;
                    let v = if i % 7 == 3 {
                        0.0
                    } else {
                        (0.1 + 99.0 * rng.uniform()) as f32
                    };
                    let (s, c) = a.sin_cos();
                    Boid {
                        position: [rng.uniform() as f32 * 100.0, rng.uniform() as f32 * 100.0],
                        velocity: [v * c, v * s],
                        hue: [1.0, 0.0],
                        hue_velocity: [0.0, 0.0],
                        id: i as u32,
                        image: [0; 2],
                    }
                })
                .collect();
            let w = World {
                width: 100.0,
                height: 100.0,
                wrap: true,
            };
            let k = vec![0; n];
            let ours = flock_measures(&boids, &k, w).nematic();
            let vels: Vec<[f32; 2]> = boids.iter().map(|b| b.velocity).collect();
            let reference = crate::stats::nematic_order(&vels);
            assert!(
                (ours - reference).abs() < 1e-5,
                "N = {n}: {ours} vs {reference}"
            );
            if n == 17 {
                let mut turned = boids.clone();
                turned[0].velocity = [turned[0].velocity[1], -turned[0].velocity[0]];
                let t = flock_measures(&turned, &k, w).nematic();
                assert!(
                    (t - reference).abs() > 1e-3,
                    "a quarter turn of one boid is seen"
                );
            }
        }
    }

    /// `n` boids on a circle of radius `r` around `centre` (positions taken modulo the world
    /// `w` × `h`), each flying along the circle counter-clockwise at 50 wu/s.
    fn ring(n: u32, r: f32, centre: [f32; 2], w: f32, h: f32) -> Vec<Boid> {
        (0..n)
            .map(|i| {
                let a = i as f32 / n as f32 * std::f32::consts::TAU;
                let (s, c) = a.sin_cos();
                Boid {
                    position: [
                        (centre[0] + r * c).rem_euclid(w),
                        (centre[1] + r * s).rem_euclid(h),
                    ],
                    velocity: [-50.0 * s, 50.0 * c],
                    hue: [1.0, 0.0],
                    hue_velocity: [0.0, 0.0],
                    id: i,
                    image: [0; 2],
                }
            })
            .collect()
    }

    #[test]
    fn a_mill_on_the_seam_mills_as_one_in_the_middle() {
        let (w, h) = (1000.0, 600.0);
        let k = vec![0; 400];
        let torus = World {
            width: w,
            height: h,
            wrap: true,
        };
        let middle = flock_measures(&ring(400, 100.0, [500.0, 300.0], w, h), &k, torus);
        for centre in [[0.0, 300.0], [500.0, 0.0], [0.0, 0.0], [990.0, 595.0]] {
            let boids = ring(400, 100.0, centre, w, h);
            let m = flock_measures(&boids, &k, torus);
            assert!(
                m.milling() > 0.99 && (m.milling() - middle.milling()).abs() < 1e-3,
                "centre {centre:?}: {m:?} vs {middle:?}"
            );
            // Without the periodic centre (a world that does not wrap) the same positions mill
            // less: the plain mean lies away from the ring's centre.
            let plain = flock_measures(
                &boids,
                &k,
                World {
                    wrap: false,
                    ..torus
                },
            );
            assert!(plain.milling() < 0.9, "centre {centre:?}: {plain:?}");
        }
        assert!(middle.milling() > 0.99, "{middle:?}");
    }

    /// A fraction a few ulp above 1 (what f32 sums of a perfectly ordered flock give) is put on
    /// its range's edge; a value farther out, a NaN and a measure without a range are left alone.
    #[test]
    fn rounding_past_a_range_is_clamped_and_nothing_else() {
        let n = 400;
        let mut sums = MeasureSums { cols: [0.0; SUMS] };
        // Σ v̂ of 400 aligned unit headings, 1.0000000073 × N as the f32 sums gave.
        sums.cols[COL_UNIT_VELOCITY] = n as f64 * 1.000_000_007_3;
        let ctx = MeasureContext {
            n,
            v0: None,
            neighbors_counted: false,
        };
        let m = FlockMeasures::from_sums(&sums, &ctx);
        assert_eq!(m.get(MeasureId::POLARIZATION), Some(1.0));
        let phi = MeasureId::POLARIZATION.desc();
        assert_eq!(
            phi.within_range(1.0 + 1e-3),
            1.0 + 1e-3,
            "a real fault shows"
        );
        assert_eq!(phi.within_range(-1e-9), 0.0);
        assert!(phi.within_range(f64::NAN).is_nan());
        assert_eq!(phi.within_range(0.5), 0.5);
        let speed = MeasureId::by_name("mean_speed").unwrap().desc();
        assert_eq!(speed.range, None);
        assert_eq!(speed.within_range(7.0), 7.0);
    }
}
