// optimizer.wgsl — the frame of every optimizer's update kernel. An optimizer (wasm/optim/*.h)
// supplies its per-element statements as kWgsl; kernels.cpp puts one read_write binding per state
// array (s0, s1, …) where the STATES line is and the statements where the UPDATE line is. Each
// invocation updates one parameter i with its gradient g; k(j) is the j-th per-step coefficient,
// computed on the host as the CPU update computes it. Skipped when the run's halt flag is set
// (check_step.wgsl), so a stopped run stops moving.
struct Params { n: u32, flag: u32, _p0: u32, _p1: u32, k: array<vec4<f32>, 3> };

@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<storage, read_write> param: array<f32>;
@group(0) @binding(2) var<storage, read> grad: array<f32>;
@group(0) @binding(3) var<storage, read> stats: array<f32>;
//STATES

fn k(j: u32) -> f32 {
  return P.k[j / 4u][j % 4u];
}

@compute @workgroup_size(256)
fn update(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>,
          @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = flat_group(wid, nwg) * 256u + lid.x;
  if (i >= P.n || stats[P.flag] != 0.0) { return; }
  let g = grad[i];
  //UPDATE
}
