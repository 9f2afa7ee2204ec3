//! The panel's live-plot sample, read without waiting: asked for once a second while the panel is
//! open, handed to the plot a frame or more later, when the GPU has reached it. Nothing drains the
//! queue: the measures come from [`crate::simulation::Simulation::request_measures`], the census's
//! positions (up to [`CENSUS_MAX_BOIDS`]) from a copy of the state buffer mapped without waiting
//! (the CPU backend's at once), and the census itself is counted on a thread of its own.

use crate::app::history::{Sample, CENSUS_MAX_BOIDS};
use crate::gpu::readback::PendingRead;
use crate::model::{Boid, FlockMeasures};
use crate::render::Sim;
use crate::simulation::{PendingMeasures, SimError};

/// Bytes of one boid's position and velocity in the state buffer (`[x, y, vx, vy]`, f32).
const POS_VEL_BYTES: u64 = 16;

/// The census of a sample, asked for.
enum Census {
    /// No census (more than [`CENSUS_MAX_BOIDS`] boids).
    Skipped,
    /// The positions' GPU copy in flight.
    Copying(PendingRead),
    /// Counted on a thread of its own (off the frame), from the CPU backend's state or a finished
    /// GPU copy.
    #[cfg_attr(target_arch = "wasm32", allow(dead_code))]
    Counting(std::thread::JoinHandle<u32>),
    /// The flocks counted.
    Done(u32),
}

/// Counts the flocks of `boids` on a thread of its own, with the census settings of `p`.
fn count_flocks(boids: Vec<Boid>, p: &crate::model::SimParams) -> Census {
    let radius = p.perception_radius;
    let world = crate::model::World::of(p);
    let count = move || {
        crate::model::flock_census(&boids, radius, world, crate::model::census::FLOCK_MIN_BOIDS)
            .flocks
    };
    // A browser tab has no threads: counted at once there.
    #[cfg(target_arch = "wasm32")]
    return Census::Done(count());
    #[cfg(not(target_arch = "wasm32"))]
    Census::Counting(std::thread::spawn(count))
}

/// One sample in flight.
pub struct PendingSample {
    /// Simulated time when it was asked for (s).
    t: f64,
    /// The order parameter's name when it was asked for (a sample of another model is dropped).
    pub order_name: &'static str,
    measures: Box<dyn PendingMeasures>,
    got: Option<FlockMeasures>,
    census: Census,
}

impl PendingSample {
    /// Asks `sim` for the measures and (up to [`CENSUS_MAX_BOIDS`] boids) the positions of its
    /// current state, at simulated time `t`.
    ///
    /// # Errors
    /// [`SimError`] on a device error.
    pub fn request(
        sim: &mut Sim,
        t: f64,
        order_name: &'static str,
    ) -> Result<PendingSample, SimError> {
        let measures = sim.request_measures()?;
        let n = sim.len();
        let census = if n > CENSUS_MAX_BOIDS {
            Census::Skipped
        } else if sim.kind() == crate::backend::BackendKind::Gpu {
            let state = sim.state_buffers();
            let ctx = sim.context().clone();
            let mut enc = ctx
                .device
                .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                    label: Some("census positions"),
                });
            let read = PendingRead::record(
                &ctx,
                &mut enc,
                &[(&state.pos_vel, 0, n as u64 * POS_VEL_BYTES)],
            );
            ctx.queue.submit([enc.finish()]);
            read.start();
            Census::Copying(read)
        } else {
            count_flocks(sim.read_state()?, sim.params())
        };
        Ok(PendingSample {
            t,
            order_name,
            measures,
            got: None,
            census,
        })
    }

    /// The sample once both parts are back (`None` before; never blocks).
    ///
    /// # Errors
    /// [`SimError`] when a read-back failed.
    pub fn poll(&mut self, sim: &Sim) -> Result<Option<Sample>, SimError> {
        if self.got.is_none() {
            self.got = self.measures.poll()?;
        }
        if let Census::Copying(read) = &self.census {
            if let Some(bytes) = read.try_take(sim.context())? {
                self.census = count_flocks(boids_of(&bytes), sim.params());
            }
        }
        if matches!(&self.census, Census::Counting(h) if h.is_finished()) {
            if let Census::Counting(h) = std::mem::replace(&mut self.census, Census::Skipped) {
                // A census thread that panicked leaves the sample without a flock count.
                self.census = h.join().map_or(Census::Skipped, Census::Done);
            }
        }
        let Some(m) = &self.got else {
            return Ok(None);
        };
        let flocks = match &self.census {
            Census::Copying(_) | Census::Counting(_) => return Ok(None),
            Census::Skipped => None,
            Census::Done(k) => Some(*k as f64),
        };
        let order = crate::model::measures::MeasureId::by_name(self.order_name)
            .and_then(|id| m.get(id))
            .unwrap_or(f64::NAN);
        Ok(Some(Sample {
            t: self.t,
            order,
            flocks,
        }))
    }
}

/// Boids at the positions of a `[x, y, vx, vy]` read-back (ids by row; no hue: the census counts
/// flocks by position only).
fn boids_of(bytes: &[u8]) -> Vec<Boid> {
    let pv: Vec<[f32; 4]> = bytemuck::pod_collect_to_vec(bytes);
    pv.iter()
        .enumerate()
        .map(|(i, r)| Boid {
            position: [r[0], r[1]],
            velocity: [r[2], r[3]],
            hue: [1.0, 0.0],
            hue_velocity: [0.0, 0.0],
            id: i as u32,
            image: [0, 0],
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_become_boids_in_order() {
        let rows: [[f32; 4]; 2] = [[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]];
        let b = boids_of(bytemuck::cast_slice(&rows));
        assert_eq!(b.len(), 2);
        assert_eq!(b[1].position, [5.0, 6.0]);
        assert_eq!(b[1].velocity, [7.0, 8.0]);
        assert_eq!(b[1].id, 1);
    }
}
