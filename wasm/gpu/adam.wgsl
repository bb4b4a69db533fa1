// adam.wgsl — the Adam update (ops/adam.h on the CPU, PyTorch's formula, no weight decay):
//   m = β1·m + (1−β1)·g ; v = β2·v + (1−β2)·g² ; θ −= lr·(m·c1)/(√(v·c2) + ε)
// with the bias corrections c1 = 1/(1−β1ᵗ), c2 = 1/(1−β2ᵗ) computed on the host in double.
// Guard: the step is skipped when the run's halt flag is set. check_step sets it when this step's
// loss or gradient norm is not finite (tested on the bits: WGSL may assume finite math) or the loss
// is above the divergence limit, so a stopped run stops moving, as the CPU trainer stops there.
// Leaves out: weight decay, AMSGrad, gradient clipping.
struct Params { n: u32, flag: u32, loss_slot: u32, norm_slot: u32, lr: f32, b1: f32, b2: f32, eps: f32,
                c1: f32, c2: f32, limit: f32, _p0: u32 };

@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<storage, read_write> param: array<f32>;
@group(0) @binding(2) var<storage, read_write> m: array<f32>;
@group(0) @binding(3) var<storage, read_write> v: array<f32>;
@group(0) @binding(4) var<storage, read> grad: array<f32>;
@group(0) @binding(5) var<storage, read_write> stats: array<f32>;  // [flag] = halt; loss, norm slots

@compute @workgroup_size(256)
fn adam(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>,
        @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = flat_group(wid, nwg) * 256u + lid.x;
  if (i >= P.n || stats[P.flag] != 0.0) { return; }
  let g = grad[i];
  m[i] = P.b1 * m[i] + (1.0 - P.b1) * g;
  v[i] = P.b2 * v[i] + (1.0 - P.b2) * g * g;
  let m_hat = m[i] * P.c1;
  let v_hat = v[i] * P.c2;
  param[i] -= P.lr * m_hat / (sqrt(v_hat) + P.eps);
}

fn finite(x: f32) -> bool {
  return (bitcast<u32>(x) & 0x7f800000u) != 0x7f800000u;
}

@compute @workgroup_size(1)
fn check_step() {
  let loss = stats[P.loss_slot];
  if (!finite(loss) || !finite(stats[P.norm_slot]) || loss > P.limit) { stats[P.flag] = 1.0; }
}
