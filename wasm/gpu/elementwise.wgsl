// elementwise.wgsl — the one-thread-per-element kernels: ReLU forward and backward (ops/relu.h),
// residual add, copy, scale, fill, in-place accumulate, and the bias add of a Linear (ops/reduce.h).
// Every entry point reads n = P.n elements from offset 0 of its bindings; C is the row width of
// add_row_vector. Leaves out: vector loads (these kernels are memory-bound and tiny here).
struct Params { n: u32, C: u32, value: f32, _p0: u32 };

@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
@group(0) @binding(2) var<storage, read> x: array<f32>;
@group(0) @binding(3) var<storage, read> y: array<f32>;

fn index(wid: vec3<u32>, nwg: vec3<u32>, lid: vec3<u32>) -> u32 {
  return flat_group(wid, nwg) * 256u + lid.x;
}

// out = ReLU(x)  (NaN → 0, as `x > 0 ? x : 0`)
@compute @workgroup_size(256)
fn relu_forward(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>,
                @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = index(wid, nwg, lid);
  if (i >= P.n) { return; }
  out[i] = select(0.0, x[i], x[i] > 0.0);
}

// out = dout where the forward input was positive, else 0 ; x = dout, y = forward input
@compute @workgroup_size(256)
fn relu_backward(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>,
                 @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = index(wid, nwg, lid);
  if (i >= P.n) { return; }
  out[i] = select(0.0, x[i], y[i] > 0.0);
}

// out = x + y
@compute @workgroup_size(256)
fn add(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>,
       @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = index(wid, nwg, lid);
  if (i >= P.n) { return; }
  out[i] = x[i] + y[i];
}

// out = x
@compute @workgroup_size(256)
fn copy(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>,
        @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = index(wid, nwg, lid);
  if (i >= P.n) { return; }
  out[i] = x[i];
}

// out = value · x (a residual scale)
@compute @workgroup_size(256)
fn scale(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>,
         @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = index(wid, nwg, lid);
  if (i >= P.n) { return; }
  out[i] = P.value * x[i];
}

// out = value
@compute @workgroup_size(256)
fn fill(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>,
        @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = index(wid, nwg, lid);
  if (i >= P.n) { return; }
  out[i] = P.value;
}

// out += x
@compute @workgroup_size(256)
fn accumulate(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>,
              @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = index(wid, nwg, lid);
  if (i >= P.n) { return; }
  out[i] += x[i];
}

// out (n/C rows, C) += x (C) on every row
@compute @workgroup_size(256)
fn add_row_vector(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>,
                  @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = index(wid, nwg, lid);
  if (i >= P.n) { return; }
  out[i] += x[i % P.C];
}
