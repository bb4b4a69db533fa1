// cross_entropy.wgsl — softmax cross-entropy over N rows of V logits, forward and backward
// (ops/cross_entropy.h on the CPU). The forward writes the probabilities (the cache) and each
// row's loss mx + log Σ exp(z − mx) − z[target] (log-sum-exp, so a tiny p_t does not underflow);
// the mean over rows is a reduce.wgsl dispatch. The backward writes (probs − onehot)/N.
// One workgroup of 64 threads per row forward; one thread per element backward.
// Leaves out: label smoothing, ignored targets, fusing the logits matmul.
struct Params { N: u32, V: u32, _p0: u32, _p1: u32 };
const WG = 64u;

@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<storage, read_write> probs: array<f32>;  // backward: dlogits
@group(0) @binding(2) var<storage, read> logits: array<f32>;       // backward: probs
@group(0) @binding(3) var<storage, read> targets: array<i32>;
@group(0) @binding(4) var<storage, read_write> row_loss: array<f32>;
#include "wg_reduce.part.wgsl"

@compute @workgroup_size(64)
fn cross_entropy_forward(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>,
                         @builtin(num_workgroups) nwg: vec3<u32>) {
  let r = flat_group(wid, nwg);
  if (r >= P.N) { return; }
  let base = r * P.V;
  var mx = -3.4e38;
  for (var c = lid.x; c < P.V; c += WG) { mx = max(mx, logits[base + c]); }
  mx = wg_reduce(lid.x, mx, true);
  var s = 0.0;
  for (var c = lid.x; c < P.V; c += WG) { let e = exp(logits[base + c] - mx); probs[base + c] = e; s += e; }
  s = wg_reduce(lid.x, s, false);
  let inv = 1.0 / s;
  for (var c = lid.x; c < P.V; c += WG) { probs[base + c] *= inv; }
  if (lid.x == 0u) { row_loss[r] = mx + log(s) - logits[base + u32(targets[r])]; }
}

// dlogits (N,V) = (probs − onehot(target)) / N ; bindings: probs ← dlogits, logits ← probs.
@compute @workgroup_size(256)
fn cross_entropy_backward(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>,
                          @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = flat_group(wid, nwg) * 256u + lid.x;
  if (i >= P.N * P.V) { return; }
  let r = i / P.V;
  let c = i % P.V;
  let inv_n = 1.0 / f32(P.N);
  var g = logits[i] * inv_n;
  if (u32(targets[r]) == c) { g -= inv_n; }
  probs[i] = g;
}
