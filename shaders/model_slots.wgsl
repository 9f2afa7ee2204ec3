// The model's typed uniforms of each replica (replicas.wgsl): slot r of `replica_models` (binding
// 17 of the stages holding the model's rule) is replica r's `ModelUniforms`, padded to
// MODEL_UNIFORMS_BYTES (64: src/model/models/desc.rs) so that the uniform array's stride is a
// multiple of 16. Needs: replicas.wgsl, the model's rule (`ModelUniforms`), and `replica_models`
// declared by the stage.

struct ModelSlot {
    @size(64) m: ModelUniforms,
}

// The model's uniforms of the invocation's replica.
var<private> model_params: ModelUniforms;

// Makes replica r's blocks the invocation's `params` and `model_params`.
fn enter_rules(r: u32) {
    enter_replica(r);
    model_params = replica_models[r].m;
}
