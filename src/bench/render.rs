//! `--render WxH`: one offscreen frame per measured step, drawn by the app's instanced renderer
//! ([`crate::render::Renderer`]) into an [`Offscreen`] target (no surface, so no present mode
//! and no vsync), showing the whole world.
//!
//! The render is submitted after the step has finished and waited for; its time (the `render_ms`
//! column) is CPU-side wall time from recording to completion, because the renderer's pass has no
//! timestamp scope. For the CPU backends it includes uploading the state to a GPU buffer, as the
//! app must do.

use std::time::Instant;

use glam::Vec2;

use crate::gpu::{GpuContext, GpuError};
use crate::model::{Actors, SimParams};
use crate::render::{
    supported_samples, Camera, Offscreen, PredatorMirror, RenderStyle, Renderer, StateMirror,
};
use crate::simulation::Simulation;

/// An offscreen renderer of a fixed size for one run.
pub struct RenderBench {
    ctx: GpuContext,
    renderer: Renderer,
    target: Offscreen,
    camera: Camera,
    style: RenderStyle,
    mirror: StateMirror,
    predator_mirror: PredatorMirror,
}

impl RenderBench {
    /// A `width` × `height` target on `ctx` showing the world of `params`, with up to `msaa`
    /// samples per pixel (clamped to what the adapter offers; see [`RenderBench::samples`]),
    /// `boids` boids drawn by `rasteriser` at the length the app gives them
    /// ([`crate::render::boid_length_for`]), density dots with motion streaks when `streaks`.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        ctx: &GpuContext,
        params: &SimParams,
        width: u32,
        height: u32,
        msaa: u32,
        rasteriser: crate::render::Rasteriser,
        streaks: bool,
        actors: &Actors,
        boids: usize,
    ) -> RenderBench {
        let samples = supported_samples(&ctx.adapter, Offscreen::FORMAT, msaa);
        let mut renderer = Renderer::new(&ctx.device, Offscreen::FORMAT, samples);
        renderer.set_actors(&ctx.queue, actors);
        let target = Offscreen::new(&ctx.device, width, height);
        let camera = Camera::fit(
            Vec2::new(params.world_width, params.world_height),
            target.viewport(),
        );
        RenderBench {
            ctx: ctx.clone(),
            renderer,
            target,
            camera,
            style: RenderStyle {
                boid_length: crate::render::boid_length_for(params, boids),
                rasteriser,
                streaks,
                ..RenderStyle::default()
            },
            mirror: StateMirror::default(),
            predator_mirror: PredatorMirror::default(),
        }
    }

    /// Samples per pixel in use.
    pub fn samples(&self) -> u32 {
        self.renderer.samples()
    }

    /// Draws the `count` boids and the predators of `sim` (from its GPU buffers, or uploaded from
    /// CPU memory first), waits for the GPU, and returns the wall time (ms).
    ///
    /// # Errors
    /// [`GpuError::Wgpu`] on a device error.
    pub fn frame(&mut self, sim: &dyn Simulation, count: u32) -> Result<f64, GpuError> {
        let t = Instant::now();
        let state = match (sim.gpu_state(), sim.cpu_state()) {
            (Some(b), _) => b,
            (None, Some(cpu)) => self.mirror.upload(&self.ctx.device, &self.ctx.queue, cpu),
            (None, None) => return Err(GpuError::Wgpu("the backend exposes no state".into())),
        };
        // The predators where they are now: the GPU backend's buffer, or a copy of the CPU's.
        let n = sim.predator_count() as u32;
        let predators = match (n, sim.gpu_predators(), sim.cpu_predators()) {
            (0, _, _) => None,
            (_, Some(b), _) => Some(b),
            (_, None, Some(p)) => Some(self.predator_mirror.upload(
                &self.ctx.device,
                &self.ctx.queue,
                p,
            )),
            (_, None, None) => None,
        };
        self.renderer
            .set_predators(predators.as_ref().map(|b| (b, n)));
        let mut enc = self
            .ctx
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("bench render"),
            });
        self.renderer.record(
            &mut enc,
            self.target.view(),
            &self.ctx.queue,
            &state,
            count,
            &self.camera,
            &self.style,
        );
        self.ctx.queue.submit([enc.finish()]);
        self.ctx.wait()?;
        Ok(t.elapsed().as_secs_f64() * 1e3)
    }
}
