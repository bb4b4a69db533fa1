// embedding.wgsl — the input embedding x0 = √d·E[tok], forward and backward (the gather and the
// scatter-add of model_impl.h / cpu_backend.h). The backward runs one thread per column and sums the
// rows in token order, so rows sharing a token need no atomics and the result is deterministic.
// Leaves out: positional embeddings (the reference model has none).
struct Params { N: u32, d: u32, scale: f32, _p0: u32 };

@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;  // forward: x0 (N,d) ; backward: dE (V,d)
@group(0) @binding(2) var<storage, read> inp: array<f32>;        // forward: E (V,d) ; backward: dx0 (N,d)
@group(0) @binding(3) var<storage, read> tokens: array<i32>;

@compute @workgroup_size(256)
fn embed_forward(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>,
                 @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = flat_group(wid, nwg) * 256u + lid.x;
  if (i >= P.N * P.d) { return; }
  let r = i / P.d;
  let c = i % P.d;
  out[i] = P.scale * inp[u32(tokens[r]) * P.d + c];
}

@compute @workgroup_size(64)
fn embed_backward(@builtin(global_invocation_id) gid: vec3<u32>) {
  let c = gid.x;
  if (c >= P.d) { return; }
  for (var r = 0u; r < P.N; r++) {
    out[u32(tokens[r]) * P.d + c] += P.scale * inp[r * P.d + c];
  }
}
