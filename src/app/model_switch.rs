//! The boids of a live model switch ([`respeed`]): where they are, with the speeds the new model
//! gives them by the model table's speed rules (docs/model.md §11.3), each keeping its heading.

use glam::Vec2;

use crate::model::models::OnLoad;
use crate::model::{rng, Boid, SimParams};

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
