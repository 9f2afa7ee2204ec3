// The per-invocation gather's side of the shared gather (gather_shared.wgsl): composed into
// `rules` and `rules_heavy` when the device's pipelines do not share candidates
// (`Gather::PerInvocation`, the default on a GPU), where the constant SHARED is false and
// `rules` never calls this; it needs no `subgroups` feature.

fn gather_shared(s: u32, p: vec2<f32>, budget: u32, live: bool) -> Gathered {
    return Gathered(empty_sums(), false);
}
