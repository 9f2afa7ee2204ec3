// Deferring heavy work (bounded work per invocation: some drivers stop long loops — lavapipe after
// 65 535 loop iterations per invocation, all loops together — and others reset the device when a
// dispatch runs too long). An item whose loops would pass a budget is appended to the list of
// `deferred` (atomicAdd on its count) and handled by a workgroup of its own in the stage's `_heavy` twin,
// dispatched indirectly: the deferring invocation raises the dispatch's x and y (atomicMax) so that
// they cover every deferred item, split over x and y like a direct dispatch.
// Needs, from the stage: `params`, `deferred: array<atomic<u32>>` (laid out as common.wgsl says).

// Invocations of a heavy workgroup.
const HEAVY_GROUP: u32 = 256u;

// Appends `item` to the deferred items of counter k.
fn defer_item(k: u32, item: u32) {
    let at = atomicAdd(&deferred[DEFER_COUNT + k], 1u);
    atomicStore(&deferred[DEFER_LIST + at], item);
    let n = at + 1u;
    let x = min(n, params.max_groups_per_dim);
    atomicMax(&deferred[DEFER_ARGS + 3u * k], x);
    atomicMax(&deferred[DEFER_ARGS + 3u * k + 1u], (n + x - 1u) / x);
}
