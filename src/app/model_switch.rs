//! Switching the model live: the app's switch (`AppState::switch_model`: the parameters under
//! the new model, the flock read back and kept; in a browser tab the read is asked for and the
//! switch finished when it is back), and its boids ([`respeed`]): where they are, with the speeds
//! the new model gives them by the model table's speed rules (docs/model.md §11.3), each keeping
//! its heading.

use glam::Vec2;

use crate::app::state::AppState;
use crate::model::models::{Model, OnLoad, Radii};
use crate::model::{rng, Boid, SimParams};
use crate::render::boid_length_for;

/// Brings the speeds of `boids`, running under `from`, to the model of `to`: each speed is scaled
/// by the ratio of the two models' mean spawn speeds ([`SimParams::spawn_speeds`]), so the flock's
/// spread of speeds is kept in the new model's units, then brought to the new model's rule: clamped
/// into its spawn range (boids), set to its constant speed (Vicsek's v0) or kept (fish). Headings,
/// positions, hues and ids are kept; a boid at rest that must move takes a heading from `seed` and
/// its id.
pub fn respeed(boids: &mut [Boid], seed: u32, from: &SimParams, to: &SimParams) {
    let mean = |p: &SimParams| {
        let (lo, hi) = p.spawn_speeds();
        0.5 * (lo + hi)
    };
    let (old_mean, new_mean) = (mean(from), mean(to));
    let (lo, hi) = to.spawn_speeds();
    let rule = to.model.desc().speed.on_load;
    for b in boids {
        let v = b.vel();
        let s = v.length();
        let heading = if s > 0.0 && s.is_finite() {
            v / s
        } else {
            let a = rng::uniform01(seed, b.id, 0, rng::STREAM_HEADING) * std::f32::consts::TAU;
            Vec2::new(a.cos(), a.sin())
        };
        let scaled = if old_mean > 0.0 {
            s * new_mean / old_mean
        } else {
            new_mean
        };
        let speed = match rule {
            OnLoad::Clamp => scaled.clamp(lo, hi),
            OnLoad::Constant => lo,
            OnLoad::Keep => scaled,
        };
        b.velocity = (heading * speed).into();
    }
}

impl AppState {
    /// Switches to `model`: the parameters as they are with the new model (for a model that sums
    /// within per-rule radii, a rule radius above the perception radius is lowered to it, said in
    /// the message), the boids where they are, each keeping its heading at the speed the new
    /// model gives it ([`crate::app::model_switch::respeed`]), the world kept. Invalid parameters
    /// change nothing and the message says why.
    pub(crate) fn switch_model(&mut self, model: Model) {
        // A later choice replaces one still waiting for its state (a browser tab).
        self.run.pending_flock = None;
        let before = self.run.sim.params().clone();
        if before.model == model {
            return;
        }
        let mut p = before.clone();
        p.model = model;
        let mut lowered = Vec::new();
        if model.desc().radii == Radii::PerRule {
            let r = p.perception_radius;
            for (key, v) in [
                ("separation_radius", &mut p.separation_radius),
                ("alignment_radius", &mut p.alignment_radius),
                ("cohesion_radius", &mut p.cohesion_radius),
                ("hue_radius", &mut p.hue_radius),
            ] {
                if *v > r {
                    *v = r;
                    lowered.push(key);
                }
            }
        }
        if model.desc().radii == Radii::Own {
            // A model with its own radii (zones): the grid follows them.
            p.perception_radius = p.largest_rule_radius().max(0.01);
        }
        if let Err(e) = p.validate() {
            self.warn(format!("model {model}: {e}"));
            return;
        }
        // A browser tab cannot wait for the state: it is asked for, and the switch finished
        // when it is back (`AppState::poll_flock_read`, every frame).
        #[cfg(target_arch = "wasm32")]
        {
            let _ = before; // taken again with the request
            self.read_flock_then(crate::app::pending_flock::AfterRead::Model { after: p, lowered });
        }
        #[cfg(not(target_arch = "wasm32"))]
        {
            let boids = self.run.sim.read_state();
            self.finish_model_switch(boids, &before, &p, &lowered);
        }
    }

    /// The switch from `before` to `p` with the state `boids` (see [`AppState::switch_model`]).
    pub(crate) fn finish_model_switch(
        &mut self,
        boids: Result<Vec<crate::model::Boid>, crate::backend::SimError>,
        before: &SimParams,
        p: &SimParams,
        lowered: &[&'static str],
    ) {
        let model = p.model;
        let switched = boids.and_then(|mut boids| {
            respeed(&mut boids, self.run.sim.seed(), before, p);
            self.run.sim.set_params(p)?;
            if let Err(e) = self.run.sim.set_state(&boids) {
                let _ = self.run.sim.set_params(before);
                return Err(e);
            }
            Ok(())
        });
        match switched {
            Ok(()) => {
                self.view.style.boid_length =
                    boid_length_for(self.run.sim.params(), self.run.sim.len());
                self.fit_predator_size();
                self.run.history.restart(model.desc().order_parameter);
                let note = if lowered.is_empty() {
                    String::new()
                } else {
                    format!(
                        " ({} lowered to the perception radius {})",
                        lowered.join(", "),
                        p.perception_radius
                    )
                };
                self.say(format!("model {model}{note}"));
            }
            Err(e) => self.warn(format!("model {model}: {e}")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::models::Model;
    use crate::model::spawn::initial_state;

    fn with(model: Model) -> SimParams {
        SimParams {
            model,
            ..SimParams::default()
        }
    }

    /// Boids → Vicsek: every particle at v0, headings kept; back to boids: every speed inside
    /// [min_speed, max_speed]; boids → fish: the speeds scaled by the ratio of the mean spawn
    /// speeds (70 wu/s → √2 wu/s), their spread kept.
    #[test]
    fn speeds_follow_the_new_model_and_headings_stay() {
        let boids_p = with(Model::BOIDS);
        let start = initial_state(3, 500, &boids_p);
        let mut b = start.clone();
        let vicsek = with(Model::VICSEK);
        respeed(&mut b, 3, &boids_p, &vicsek);
        let v0 = vicsek.models.vicsek.speed;
        for (old, new) in start.iter().zip(&b) {
            assert!((new.vel().length() - v0).abs() < 1e-6);
            assert!(old.vel().normalize().dot(new.vel().normalize()) > 0.9999);
            assert_eq!(
                (old.position, old.hue, old.id),
                (new.position, new.hue, new.id)
            );
        }
        respeed(&mut b, 3, &vicsek, &boids_p);
        let (lo, hi) = boids_p.spawn_speeds();
        assert!(b
            .iter()
            .all(|x| (lo - 1e-3..=hi + 1e-3).contains(&x.vel().length())));
        let mut f = start.clone();
        let fish = with(Model::FISH);
        respeed(&mut f, 3, &boids_p, &fish);
        let k = fish.models.fish.spawn_speed * 0.5 / 70.0;
        for (old, new) in start.iter().zip(&f) {
            assert!((new.vel().length() - old.vel().length() * k).abs() < 1e-4);
        }
    }

    /// A boid at rest gets a heading when the new model needs a speed.
    #[test]
    fn a_boid_at_rest_gets_moving() {
        let mut b = initial_state(1, 4, &with(Model::FISH));
        for x in &mut b {
            x.velocity = [0.0, 0.0];
        }
        let vicsek = with(Model::VICSEK);
        respeed(&mut b, 1, &with(Model::FISH), &vicsek);
        for x in &b {
            assert!((x.vel().length() - vicsek.models.vicsek.speed).abs() < 1e-6);
        }
    }
}
