// gate.wgsl — the learnable residual gate (ops/gate.h on the CPU): s = x + g·f and the branch's
// gradient g·ds, g one scalar parameter (g[0]); one thread per element. The gate's own gradient
// Σ ds·f is reduce.wgsl's `dot_partial` and `finish`. Leaves out: vector loads.
struct Params { n: u32, _p0: u32, _p1: u32, _p2: u32 };
@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
@group(0) @binding(2) var<storage, read> x: array<f32>;
@group(0) @binding(3) var<storage, read> br: array<f32>;
@group(0) @binding(4) var<storage, read> g: array<f32>;

fn element(wid: vec3<u32>, nwg: vec3<u32>, lid: vec3<u32>) -> u32 {
  return flat_group(wid, nwg) * 256u + lid.x;
}

// out = x + g·f
@compute @workgroup_size(256)
fn gate_forward(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>,
                @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = element(wid, nwg, lid);
  if (i >= P.n) { return; }
  out[i] = x[i] + g[0] * br[i];
}

// out = g·x (the branch's gradient df = g·ds; x = ds)
@compute @workgroup_size(256)
fn gate_scale(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>,
              @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = element(wid, nwg, lid);
  if (i >= P.n) { return; }
  out[i] = g[0] * x[i];
}
