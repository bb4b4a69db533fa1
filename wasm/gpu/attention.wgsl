// attention.wgsl — the softmax of scaled dot-product attention, forward and backward, on the
// (B·n, n) score matrix (the products q·kᵀ/√d, P·v and their gradients are matmul.wgsl dispatches;
// gpu/gpu_backend.cpp strings them together as ops/attention.h does on the CPU).
// Forward: row i of each sequence is softmax over keys j ≤ i (causal) or all j, masked entries 0.
// Backward: dS = P ∘ (dP − rowsum(dP ∘ P)), in place on dP (masked entries have P = 0).
// One workgroup of 64 threads per row. Leaves out: fused (flash) attention, multiple heads.
struct Params { rows: u32, n: u32, causal: u32, _p0: u32 };
const WG = 64u;

@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<storage, read_write> S: array<f32>;   // forward: scores in, probabilities out
@group(0) @binding(2) var<storage, read> Pr: array<f32>;       // backward: the forward's probabilities
#include "wg_reduce.part.wgsl"

@compute @workgroup_size(64)
fn softmax_forward(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>,
                   @builtin(num_workgroups) nwg: vec3<u32>) {
  let r = flat_group(wid, nwg);
  if (r >= P.rows) { return; }
  let i = r % P.n;  // query position inside its sequence
  var last = P.n - 1u;
  if (P.causal != 0u) { last = i; }
  let base = r * P.n;
  var mx = -3.4e38;
  for (var j = lid.x; j <= last; j += WG) { mx = max(mx, S[base + j]); }
  mx = wg_reduce(lid.x, mx, true);
  var s = 0.0;
  for (var j = lid.x; j <= last; j += WG) { let e = exp(S[base + j] - mx); S[base + j] = e; s += e; }
  let inv = 1.0 / wg_reduce(lid.x, s, false);
  for (var j = lid.x; j < P.n; j += WG) {
    if (j <= last) { S[base + j] *= inv; } else { S[base + j] = 0.0; }
  }
}

@compute @workgroup_size(64)
fn softmax_backward(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>,
                    @builtin(num_workgroups) nwg: vec3<u32>) {
  let r = flat_group(wid, nwg);
  if (r >= P.rows) { return; }
  let base = r * P.n;
  var dot = 0.0;
  for (var j = lid.x; j < P.n; j += WG) { dot += S[base + j] * Pr[base + j]; }
  dot = wg_reduce(lid.x, dot, false);
  for (var j = lid.x; j < P.n; j += WG) { S[base + j] = Pr[base + j] * (S[base + j] - dot); }
}
