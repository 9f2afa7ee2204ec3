// The model of the run picks the rule that turns a boid's neighbour sums into its next state
// (docs/model.md §16–§17); mirrors `next_state` in src/model/models.rs. Needs: rules_common.wgsl
// (integrate), vicsek.wgsl, fish.wgsl.

const MODEL_VICSEK: u32 = 1u;
const MODEL_FISH: u32 = 2u;

// `predator`: the predators' acceleration on the boid (wu/s²; not applied in the Vicsek model).
fn next_state(me: Boid, s: NeighborSums, ob: ObstacleSums, predator: vec2<f32>) -> Boid {
    if (params.model == MODEL_VICSEK) {
        return vicsek_integrate(me, s, ob);
    } else if (params.model == MODEL_FISH) {
        return fish_integrate(me, s, ob, predator);
    }
    return integrate(me, s, ob, predator);
}
