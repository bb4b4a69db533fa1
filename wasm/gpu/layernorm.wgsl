// layernorm.wgsl — LayerNorm over the last dimension, forward and backward (ops/layernorm.h on the
// CPU): eps = 1e-5, biased variance, mean and rstd = 1/sqrt(var + eps) cached per row.
// One workgroup of 64 threads per row for the forward and the input gradient (two-pass mean then
// variance, as the CPU); one thread per column for dγ and dβ, summing rows in order.
// Leaves out: Welford, vector loads, rows longer than what 64 threads stride through quickly.
struct Params { N: u32, C: u32, _p0: u32, _p1: u32 };
const WG = 64u;
const EPS = 1e-5;

@group(0) @binding(0) var<uniform> P: Params;
#include "wg_reduce.part.wgsl"

// ---- forward: out (N,C) = (inp − mean)·rstd·γ + β ; mean, rstd (N)
@group(0) @binding(1) var<storage, read_write> f_out: array<f32>;
@group(0) @binding(2) var<storage, read_write> f_mean: array<f32>;
@group(0) @binding(3) var<storage, read_write> f_rstd: array<f32>;
@group(0) @binding(4) var<storage, read> f_inp: array<f32>;
@group(0) @binding(5) var<storage, read> f_gamma: array<f32>;
@group(0) @binding(6) var<storage, read> f_beta: array<f32>;

@compute @workgroup_size(64)
fn layernorm_forward(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>,
                     @builtin(num_workgroups) nwg: vec3<u32>) {
  let r = flat_group(wid, nwg);
  if (r >= P.N) { return; }  // uniform per workgroup: the barriers below stay in uniform control flow
  let base = r * P.C;
  var s = 0.0;
  for (var c = lid.x; c < P.C; c += WG) { s += f_inp[base + c]; }
  let m = wg_sum(lid.x, s) / f32(P.C);
  var v = 0.0;
  for (var c = lid.x; c < P.C; c += WG) { let x = f_inp[base + c] - m; v += x * x; }
  let rs = 1.0 / sqrt(wg_sum(lid.x, v) / f32(P.C) + EPS);
  for (var c = lid.x; c < P.C; c += WG) {
    f_out[base + c] = (f_inp[base + c] - m) * rs * f_gamma[c] + f_beta[c];
  }
  if (lid.x == 0u) { f_mean[r] = m; f_rstd[r] = rs; }
}

// ---- backward, input gradient: dinp (N,C) += rstd·(g − mean(g) − x̂·mean(g·x̂)), g = dout·γ
@group(0) @binding(1) var<storage, read_write> b_dinp: array<f32>;
@group(0) @binding(2) var<storage, read> b_dout: array<f32>;
@group(0) @binding(3) var<storage, read> b_inp: array<f32>;
@group(0) @binding(4) var<storage, read> b_mean: array<f32>;
@group(0) @binding(5) var<storage, read> b_rstd: array<f32>;
@group(0) @binding(6) var<storage, read> b_gamma: array<f32>;

@compute @workgroup_size(64)
fn layernorm_backward(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>,
                      @builtin(num_workgroups) nwg: vec3<u32>) {
  let r = flat_group(wid, nwg);
  if (r >= P.N) { return; }
  let base = r * P.C;
  let m = b_mean[r];
  let s = b_rstd[r];
  var g_sum = 0.0;
  var gx_sum = 0.0;
  for (var c = lid.x; c < P.C; c += WG) {
    let g = b_dout[base + c] * b_gamma[c];
    g_sum += g;
    gx_sum += g * (b_inp[base + c] - m) * s;
  }
  let g_mean = wg_sum(lid.x, g_sum) / f32(P.C);
  let gx_mean = wg_sum(lid.x, gx_sum) / f32(P.C);
  for (var c = lid.x; c < P.C; c += WG) {
    let xhat = (b_inp[base + c] - m) * s;
    b_dinp[base + c] += s * (b_dout[base + c] * b_gamma[c] - g_mean - xhat * gx_mean);
  }
}

// ---- backward, parameters: dγ (C) += Σ_r dout·x̂ ; dβ (C) += Σ_r dout
@group(0) @binding(1) var<storage, read_write> p_dgamma: array<f32>;
@group(0) @binding(2) var<storage, read_write> p_dbeta: array<f32>;
@group(0) @binding(3) var<storage, read> p_dout: array<f32>;
@group(0) @binding(4) var<storage, read> p_inp: array<f32>;
@group(0) @binding(5) var<storage, read> p_mean: array<f32>;
@group(0) @binding(6) var<storage, read> p_rstd: array<f32>;

@compute @workgroup_size(64)
fn layernorm_param_backward(@builtin(global_invocation_id) gid: vec3<u32>) {
  let c = gid.x;
  if (c >= P.C) { return; }
  var dg = 0.0;
  var db = 0.0;
  for (var r = 0u; r < P.N; r++) {
    let dy = p_dout[r * P.C + c];
    dg += dy * (p_inp[r * P.C + c] - p_mean[r]) * p_rstd[r];
    db += dy;
  }
  p_dgamma[c] += dg;
  p_dbeta[c] += db;
}

// ---- RMSNorm (ops/rmsnorm.h): LayerNorm without the centring and without β.
// forward: out (N,C) = inp·rstd·γ, rstd = 1/sqrt(mean(inp²) + eps) ; bindings as the forward above
// without mean and β
@compute @workgroup_size(64)
fn rmsnorm_forward(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>,
                   @builtin(num_workgroups) nwg: vec3<u32>) {
  let r = flat_group(wid, nwg);
  if (r >= P.N) { return; }
  let base = r * P.C;
  var ss = 0.0;
  for (var c = lid.x; c < P.C; c += WG) { let x = f_inp[base + c]; ss += x * x; }
  let rs = 1.0 / sqrt(wg_sum(lid.x, ss) / f32(P.C) + EPS);
  for (var c = lid.x; c < P.C; c += WG) { f_out[base + c] = f_inp[base + c] * rs * f_gamma[c]; }
  if (lid.x == 0u) { f_rstd[r] = rs; }
}

// input gradient: dinp (N,C) += rstd·(g − x̂·mean(g·x̂)), g = dout·γ, x̂ = inp·rstd
@compute @workgroup_size(64)
fn rmsnorm_backward(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>,
                    @builtin(num_workgroups) nwg: vec3<u32>) {
  let r = flat_group(wid, nwg);
  if (r >= P.N) { return; }
  let base = r * P.C;
  let s = b_rstd[r];
  var gx_sum = 0.0;
  for (var c = lid.x; c < P.C; c += WG) { gx_sum += b_dout[base + c] * b_gamma[c] * b_inp[base + c] * s; }
  let gx_mean = wg_sum(lid.x, gx_sum) / f32(P.C);
  for (var c = lid.x; c < P.C; c += WG) {
    b_dinp[base + c] += s * (b_dout[base + c] * b_gamma[c] - b_inp[base + c] * s * gx_mean);
  }
}

// parameter gradient: dγ (C) += Σ_r dout·x̂
@compute @workgroup_size(64)
fn rmsnorm_param_backward(@builtin(global_invocation_id) gid: vec3<u32>) {
  let c = gid.x;
  if (c >= P.C) { return; }
  var dg = 0.0;
  for (var r = 0u; r < P.N; r++) { dg += p_dout[r * P.C + c] * p_inp[r * P.C + c] * p_rstd[r]; }
  p_dgamma[c] += dg;
}
