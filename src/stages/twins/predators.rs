//! `predators` (`shaders/predators.wgsl`): each predator's move (docs/model.md §18.2–§18.3).

use crate::model::predators::{move_predator, nearest_boid, Predator};
use crate::model::uniforms::StepUniforms;

use super::scatter::SortedRef;

/// Moves each of the first `u.predator_count` predators from the step's sorted items (a hunting
/// predator steers toward the nearest boid it sees, a straight one keeps its course).
pub fn predators(
    u: &StepUniforms,
    sorted: SortedRef<'_>,
    cells: &[u32],
    predators: &mut [Predator],
) {
    let n = (u.predator_count as usize).min(predators.len());
    for pr in &mut predators[..n] {
        let target = if pr.is_hunting() {
            nearest_boid(pr.pos(), sorted.pos_vel, sorted.id, cells, u)
        } else {
            None
        };
        *pr = move_predator(pr, target, u);
    }
}
