// dyt.wgsl — Dynamic Tanh, forward and backward (ops/dyt.h on the CPU): out = γ·act + β with
// act = tanh(α·inp), α one learnable scalar (alpha[0]). One thread per element for the forward and
// the input gradient; one thread per column for dγ and dβ, summing rows in order; dα is a sum over
// every element: 256 partial sums per dispatch here, then reduce.wgsl's `finish` adds them into dα.
// tanh's argument is clamped to ±15, where f32 tanh is ±1 already, so that no implementation's
// exp-based tanh overflows into NaN. Leaves out: vector loads, splitting a tensor over bindings.
struct Params { N: u32, C: u32, base: u32, _p0: u32 };
@group(0) @binding(0) var<uniform> P: Params;
const WG = 256u;  // the workgroup of dyt_alpha_partial, the one that reduces
#include "wg_reduce.part.wgsl"

fn tanh_clamped(v: f32) -> f32 { return tanh(clamp(v, -15.0, 15.0)); }

fn element(wid: vec3<u32>, nwg: vec3<u32>, lid: vec3<u32>) -> u32 {
  return flat_group(wid, nwg) * 256u + lid.x;
}

// ---- forward: out (N,C) = γ·act + β ; act (N,C) = tanh(α·inp)
@group(0) @binding(1) var<storage, read_write> f_out: array<f32>;
@group(0) @binding(2) var<storage, read_write> f_act: array<f32>;
@group(0) @binding(3) var<storage, read> f_inp: array<f32>;
@group(0) @binding(4) var<storage, read> f_gamma: array<f32>;
@group(0) @binding(5) var<storage, read> f_beta: array<f32>;
@group(0) @binding(6) var<storage, read> f_alpha: array<f32>;

@compute @workgroup_size(256)
fn dyt_forward(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>,
               @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = element(wid, nwg, lid);
  if (i >= P.N * P.C) { return; }
  let c = i % P.C;
  let t = tanh_clamped(f_alpha[0] * f_inp[i]);
  f_act[i] = t;
  f_out[i] = f_gamma[c] * t + f_beta[c];
}

// ---- backward, input gradient: dinp (N,C) += dout·γ·α·(1 − act²)
@group(0) @binding(1) var<storage, read_write> b_dinp: array<f32>;
@group(0) @binding(2) var<storage, read> b_dout: array<f32>;
@group(0) @binding(3) var<storage, read> b_act: array<f32>;
@group(0) @binding(4) var<storage, read> b_gamma: array<f32>;
@group(0) @binding(5) var<storage, read> b_alpha: array<f32>;

@compute @workgroup_size(256)
fn dyt_backward(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>,
                @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = element(wid, nwg, lid);
  if (i >= P.N * P.C) { return; }
  let t = b_act[i];
  b_dinp[i] += b_dout[i] * b_gamma[i % P.C] * (1.0 - t * t) * b_alpha[0];
}

// ---- backward, γ and β: dγ (C) += Σ_r dout·act ; dβ (C) += Σ_r dout
@group(0) @binding(1) var<storage, read_write> p_dgamma: array<f32>;
@group(0) @binding(2) var<storage, read_write> p_dbeta: array<f32>;
@group(0) @binding(3) var<storage, read> p_dout: array<f32>;
@group(0) @binding(4) var<storage, read> p_act: array<f32>;

@compute @workgroup_size(64)
fn dyt_param_backward(@builtin(global_invocation_id) gid: vec3<u32>) {
  let c = gid.x;
  if (c >= P.C) { return; }
  var dg = 0.0;
  var db = 0.0;
  for (var r = 0u; r < P.N; r++) {
    let dy = p_dout[r * P.C + c];
    dg += dy * p_act[r * P.C + c];
    db += dy;
  }
  p_dgamma[c] += dg;
  p_dbeta[c] += db;
}

// ---- backward, α: partial[base + g] = Σ dout·γ·inp·(1 − act²) over a grid-stride slice, one float
// per workgroup (at most 256 workgroups); reduce.wgsl's `finish` then adds their sum into dα.
@group(0) @binding(1) var<storage, read_write> a_partial: array<f32>;
@group(0) @binding(2) var<storage, read> a_dout: array<f32>;
@group(0) @binding(3) var<storage, read> a_inp: array<f32>;
@group(0) @binding(4) var<storage, read> a_act: array<f32>;
@group(0) @binding(5) var<storage, read> a_gamma: array<f32>;

@compute @workgroup_size(256)
fn dyt_alpha_partial(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>,
                     @builtin(num_workgroups) nwg: vec3<u32>) {
  let stride = nwg.x * 256u;
  var s = 0.0;
  for (var i = wid.x * 256u + lid.x; i < P.N * P.C; i += stride) {
    let t = a_act[i];
    s += a_dout[i] * a_gamma[i % P.C] * a_inp[i] * (1.0 - t * t);
  }
  s = wg_sum(lid.x, s);
  if (lid.x == 0u) { a_partial[P.base + wid.x] = s; }
}
