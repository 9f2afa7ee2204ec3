// The replicas of an ensemble (docs/sweeps.md, "Ensembles"): up to MAX_REPLICAS independent
// systems stepped by the same dispatches, each with its own parameter block (`replicas[r]`, binding
// 0 of every stage that includes this file). A lone run is an ensemble of one. Replica r holds the
// state indices boid_base .. boid_base + boid_count (its boids' ids are 0 .. boid_count), its real
// cells from cell_base and its padding cells from pad_base (all replicas' real cells come first,
// so the real sorted items of every replica come before every ghost), and its measures
// workgroups from group_base. An invocation finds its replica and copies its block into `params`
// (enter_replica) before it reads any of it; what every block holds alike (replica_count,
// total_boids, total_cells) is read from replicas[0]. Needs: `replicas` declared by the stage.

const MAX_REPLICAS: u32 = 64u;

// The parameter block of the invocation's replica.
var<private> params: Params;

fn enter_replica(r: u32) {
    params = replicas[r];
}

// The replica holding state (or real sorted item) index i < total_boids: a binary search over the
// replicas' first indices (no iteration for a lone run).
fn replica_of_boid(i: u32) -> u32 {
    var lo = 0u;
    var hi = replicas[0].replica_count;
    while (hi - lo > 1u) {
        let mid = (lo + hi) / 2u;
        if (replicas[mid].boid_base <= i) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    return lo;
}

// The replica holding predator k (the last of those whose first predator is ≤ k: a replica of no
// predators shares its first index with the next one).
fn replica_of_predator(k: u32) -> u32 {
    var lo = 0u;
    var hi = replicas[0].replica_count;
    while (hi - lo > 1u) {
        let mid = (lo + hi) / 2u;
        if (replicas[mid].predator_base <= k) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    return lo;
}

// The replica whose measures workgroups include workgroup g.
fn replica_of_group(g: u32) -> u32 {
    var lo = 0u;
    var hi = replicas[0].replica_count;
    while (hi - lo > 1u) {
        let mid = (lo + hi) / 2u;
        if (replicas[mid].group_base <= g) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    return lo;
}
