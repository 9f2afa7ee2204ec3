//! The app's state as the pointer tools' host ([`ToolHost`]): what each operation of a tool does
//! to the simulation, the view and the messages.

use glam::Vec2;

use crate::app::state::AppState;
use crate::app::tool_state::defaults;
use crate::app::tools::ToolHost;

impl ToolHost for AppState {
    fn reach_wu(&self) -> f32 {
        self.tool_radius_wu(self.tools.tool).unwrap_or(0.0)
    }

    fn obstacles(&self) -> Vec<[f32; 2]> {
        self.run.sim.actors().obstacles.clone()
    }

    fn set_obstacles(&mut self, points: Vec<[f32; 2]>) {
        AppState::set_obstacles(self, points);
    }

    fn obstacle_spacing(&self) -> f32 {
        self.tools.obstacle_spacing
    }

    fn gesture(&mut self) -> &mut Option<Vec2> {
        &mut self.tools.gesture
    }

    fn gesture_at(&self) -> Option<Vec2> {
        self.tools.gesture
    }

    fn add_boids(&mut self, at: Vec2, spread: f32) {
        let room = self.run.max_boids.saturating_sub(self.run.sim.len());
        let k = self.tools.add_rate.min(room);
        if k > 0 {
            if let Err(e) = self.run.sim.spawn_at(at, k, spread) {
                self.warn(format!("add boids: {e}"));
            }
        }
    }

    fn place_predator(&mut self, at: Vec2, velocity: Vec2) {
        AppState::place_predator(self, at, velocity);
    }

    fn still_wu(&self) -> f32 {
        defaults::STILL_PX * self.view.scale_factor / self.view.camera.zoom
    }

    fn predator_radius_wu(&self) -> f32 {
        self.view.style.predator_scale * self.view.style.boid_length
    }

    fn to_screen(&self, at: Vec2) -> Vec2 {
        self.view.camera.world_to_screen(at)
    }
}
