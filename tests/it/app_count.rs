//! Lowering the boid count (the panel's slider, `Sim::set_count`): the boids kept are a uniform
//! random sample drawn as a pure function of the seed, the ids and the step — the same flock read
//! in another order keeps the same boids, which is what lets a browser tab draw the sample from a
//! state read without waiting (`Sim::keep_sample`) and keep what the native app keeps. On both
//! backends; a planted other step keeps others. Needs a GPU context (the app's `Sim` holds one):
//! skips visibly without an adapter, fails under BOIDS_REQUIRE_GPU=1.

use crate::support;
use boids::backend::BackendKind;
use boids::render::Sim;

fn ids(sim: &mut Sim) -> Vec<u32> {
    let mut v: Vec<u32> = sim.read_state().unwrap().iter().map(|b| b.id).collect();
    v.sort_unstable();
    v
}

#[test]
fn the_sample_kept_is_the_same_from_a_state_read_in_any_order() {
    let Some(ctx) = support::gpu() else { return };
    let setup = boids::run::spec::scene_setup(None, Some(1000), Some(7), 1000, 1.5).unwrap();
    for kind in [BackendKind::Gpu, BackendKind::Cpu] {
        let mut native = Sim::new(&ctx, kind, &setup).unwrap();
        let all = ids(&mut native);
        native.set_count(300).unwrap();
        let kept = ids(&mut native);
        assert_eq!(kept.len(), 300, "{kind:?}");
        assert!(
            kept.iter().all(|i| all.binary_search(i).is_ok()),
            "{kind:?}"
        );

        let mut tab = Sim::new(&ctx, kind, &setup).unwrap();
        let step = tab.step_index();
        let mut state = tab.read_state().unwrap();
        state.reverse();
        tab.keep_sample(state.clone(), 300, step).unwrap();
        assert_eq!(
            ids(&mut tab),
            kept,
            "{kind:?}: the sample depends on the order read"
        );

        // The comparison sees a difference: another step draws another sample.
        let mut other = Sim::new(&ctx, kind, &setup).unwrap();
        other.keep_sample(state, 300, step + 1).unwrap();
        assert_ne!(ids(&mut other), kept, "{kind:?}");
    }
}
