// reduce.wgsl — reductions: column sums (the bias gradient of a Linear, ops/reduce.h), and the
// two-stage sum of squares behind the global gradient norm, the W² gradient statistics of the probe
// and the residual-stream length ‖h‖²/d.
//   column_sums:   acc (C) += Σ_r x (N,C)[r, :], one thread per column, rows in order
//   sumsq_partial: partial[base + g] = Σ x² over a grid-stride slice, one float per workgroup
//   dot_partial:   partial[base + g] = Σ x·y, the same way (a gate's gradient, gate.wgsl)
//   finish:        v = Σ_{i<count} src[i] (a tree in one workgroup), then
//                  v ← sqrt(v) when P.root, v ← v·scale, dst[slot] = v (+ dst[slot] when P.accum)
// `finish` on row losses (count = N, scale = 1/N) gives the mean cross-entropy.
// Leaves out: Kahan/pairwise compensation beyond the tree order (f32 is ample at these sizes).
struct Params { n: u32, C: u32, base: u32, slot: u32, scale: f32, root: u32, accum: u32, _p0: u32 };

@group(0) @binding(0) var<uniform> P: Params;
const WG = 256u;  // the workgroup of the kernels that reduce (column_sums does not)
#include "wg_reduce.part.wgsl"

@group(0) @binding(1) var<storage, read_write> cs_acc: array<f32>;
@group(0) @binding(2) var<storage, read> cs_x: array<f32>;

@compute @workgroup_size(64)
fn column_sums(@builtin(global_invocation_id) gid: vec3<u32>) {
  let c = gid.x;
  if (c >= P.C) { return; }
  var s = 0.0;
  for (var r = 0u; r < P.n; r++) { s += cs_x[r * P.C + c]; }
  cs_acc[c] += s;
}

@group(0) @binding(1) var<storage, read_write> sq_partial: array<f32>;
@group(0) @binding(2) var<storage, read> sq_x: array<f32>;

@compute @workgroup_size(256)
fn sumsq_partial(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>,
                 @builtin(num_workgroups) nwg: vec3<u32>) {
  let stride = nwg.x * 256u;
  var s = 0.0;
  for (var i = wid.x * 256u + lid.x; i < P.n; i += stride) { let v = sq_x[i]; s += v * v; }
  s = wg_sum(lid.x, s);
  if (lid.x == 0u) { sq_partial[P.base + wid.x] = s; }
}

@group(0) @binding(1) var<storage, read_write> dp_partial: array<f32>;
@group(0) @binding(2) var<storage, read> dp_x: array<f32>;
@group(0) @binding(3) var<storage, read> dp_y: array<f32>;

@compute @workgroup_size(256)
fn dot_partial(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>,
               @builtin(num_workgroups) nwg: vec3<u32>) {
  let stride = nwg.x * 256u;
  var s = 0.0;
  for (var i = wid.x * 256u + lid.x; i < P.n; i += stride) { s += dp_x[i] * dp_y[i]; }
  s = wg_sum(lid.x, s);
  if (lid.x == 0u) { dp_partial[P.base + wid.x] = s; }
}

@group(0) @binding(1) var<storage, read_write> fin_dst: array<f32>;
@group(0) @binding(2) var<storage, read> fin_src: array<f32>;

@compute @workgroup_size(256)
fn finish(@builtin(local_invocation_id) lid: vec3<u32>) {
  var s = 0.0;
  for (var i = lid.x; i < P.n; i += 256u) { s += fin_src[i]; }
  s = wg_sum(lid.x, s);
  if (lid.x == 0u) {
    var v = s;
    if (P.root != 0u) { v = sqrt(v); }
    v *= P.scale;
    if (P.accum != 0u) { v += fin_dst[P.slot]; }
    fin_dst[P.slot] = v;
  }
}
