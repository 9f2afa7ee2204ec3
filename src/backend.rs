//! The one factory of backends: [`create`] makes the backend of a [`BackendKind`] holding a
//! [`Setup`] (its parameters, seed, step index, boids and actors). The window, snapshots, headless
//! runs, benchmarks and sweeps all start their simulations here.

pub use crate::simulation::{
    BackendKind, Costs, GpuError, SimError, Simulation, StateBuffers, StateSlices, StorageRange,
};

use crate::cpu::CpuBackend;
use crate::gpu::{GpuBackend, GpuContext};
use crate::model::Setup;

/// The backend `kind` holding `setup`. The GPU backend runs on `gpu` when given, else on a fresh
/// context on the default adapter.
///
/// # Errors
/// [`SimError`] for invalid parameters, no adapter, or a count or actors over the adapter's limits.
pub fn create(
    kind: BackendKind,
    setup: &Setup,
    gpu: Option<&GpuContext>,
) -> Result<Box<dyn Simulation>, SimError> {
    let mut sim: Box<dyn Simulation> = match kind {
        BackendKind::Gpu => {
            let owned;
            let ctx = match gpu {
                Some(c) => c,
                None => {
                    owned = GpuContext::new()?;
                    &owned
                }
            };
            Box::new(GpuBackend::from_state(
                ctx,
                &setup.params,
                &setup.boids,
                setup.seed,
            )?)
        }
        k => Box::new(CpuBackend::from_state(
            k,
            &setup.params,
            setup.boids.clone(),
            setup.seed,
        )?),
    };
    apply_actors(sim.as_mut(), setup)?;
    Ok(sim)
}

/// Gives `sim`, which holds the boids of `setup`, its step index, predators and obstacles.
///
/// # Errors
/// [`SimError`] for invalid predators or obstacles over the adapter's limits.
pub fn apply_actors(sim: &mut dyn Simulation, setup: &Setup) -> Result<(), SimError> {
    sim.set_step_index(setup.step);
    sim.set_predators(&setup.actors.predators)?;
    sim.set_obstacles(&setup.actors.obstacles)?;
    Ok(())
}

/// Makes the GPU backend `b` hold `setup` as [`create`] would make a new one, keeping its
/// pipelines and buffers ([`GpuBackend::reset`]).
///
/// # Errors
/// As [`create`].
pub fn reset(b: &mut GpuBackend, setup: &Setup) -> Result<(), SimError> {
    b.reset(&setup.params, &setup.boids, setup.seed)?;
    apply_actors(b, setup)
}
