// The replicas of an ensemble (docs/sweeps.md, "Ensembles"): up to MAX_REPLICAS independent
// systems stepped by the same dispatches, each with its own parameter block (`replicas[r]`, binding
// 0 of every stage that includes this file). A lone run is laid out as an ensemble of one. Replica r holds the
// state indices boid_base .. boid_base + boid_count (its boids' ids are 0 .. boid_count), its real
// cells from cell_base and its padding cells from pad_base (all replicas' real cells come first,
// so the real sorted items of every replica come before every ghost), its measures workgroups
// from group_base, its predators from predator_base, and its catch counters at catches[2·replica]. An invocation finds its replica and copies its block into `params`
// (enter_replica) before it reads any of it; what every block holds alike (replica_count,
// total_boids, total_cells) is read from replicas[0]. A lone run's pipelines are compiled with
// ENSEMBLE false (src/stages/compose.rs, `source_variant`): its replica is then the constant 0,
// so a software adapter copies the block with one load a field rather than one per invocation.
// Needs: `replicas` declared by the stage, and the composed constant ENSEMBLE.

const MAX_REPLICAS: u32 = 64u;

// The parameter block of the invocation's replica.
var<private> params: Params;

fn enter_replica(r: u32) {
    params = replicas[r];
}

// What a replica's first index is counted in (replica_holding).
const OF_BOIDS: u32 = 0u;
const OF_GROUPS: u32 = 1u;
const OF_PREDATORS: u32 = 2u;

// Replica r's first index of `kind`: its first boid, measures workgroup or predator.
fn replica_first(r: u32, kind: u32) -> u32 {
    switch kind {
        case OF_BOIDS: {
            return replicas[r].boid_base;
        }
        case OF_GROUPS: {
            return replicas[r].group_base;
        }
        default: {
            return replicas[r].predator_base;
        }
    }
}

// The replica holding index i of `kind`: the last whose first index is ≤ i, by binary search (no
// iteration for a lone run). A replica of no predators shares its first predator index with the
// next one, which holds them.
fn replica_holding(i: u32, kind: u32) -> u32 {
    if (!ENSEMBLE) {
        return 0u;
    }
    var lo = 0u;
    var hi = replicas[0].replica_count;
    while (hi - lo > 1u) {
        let mid = (lo + hi) / 2u;
        if (replica_first(mid, kind) <= i) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    return lo;
}

// The replica holding state (or real sorted item) index i < total_boids.
fn replica_of_boid(i: u32) -> u32 {
    return replica_holding(i, OF_BOIDS);
}

// The replica holding predator k.
fn replica_of_predator(k: u32) -> u32 {
    return replica_holding(k, OF_PREDATORS);
}

// The replica whose measures workgroups include workgroup g.
fn replica_of_group(g: u32) -> u32 {
    return replica_holding(g, OF_GROUPS);
}
