// interleave.wgsl — host transfers of a batched run's buffer (device_batch.h). The R runs of a batch
// share device buffers interleaved in 64-float chunks: run r's element i is at
// (i / 64)·64·R + 64·r + i % 64. `scatter` copies n contiguous words into run P.run's part from its
// element P.first on (counted from the binding's start, a chunk boundary); `gather` copies them out.
// Words are moved as u32, so integer tensors (token ids) keep their bits. A dispatch of nwg.z > 1
// workgroups in z does runs P.run … P.run + nwg.z − 1 at once, run P.run + z's words at element
// z·P.stride of the source (`scatter` only: the runs' writes of one span in one dispatch).
struct Params { n: u32, runs: u32, run: u32, first: u32, stride: u32, _p0: u32, _p1: u32, _p2: u32 };

@group(0) @binding(0) var<uniform> P: Params;

fn interleaved(i: u32, run: u32) -> u32 {
  return (i / 64u) * 64u * P.runs + 64u * run + i % 64u;
}

@group(0) @binding(1) var<storage, read_write> sc_dst: array<u32>;
@group(0) @binding(2) var<storage, read> sc_src: array<u32>;

@compute @workgroup_size(256)
fn scatter(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>,
           @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = flat_group(wid, nwg) * 256u + lid.x;
  if (i >= P.n) { return; }
  sc_dst[interleaved(P.first + i, P.run + wid.z)] = sc_src[wid.z * P.stride + i];
}

@group(0) @binding(1) var<storage, read_write> ga_dst: array<u32>;
@group(0) @binding(2) var<storage, read> ga_src: array<u32>;

@compute @workgroup_size(256)
fn gather(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>,
          @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = flat_group(wid, nwg) * 256u + lid.x;
  if (i >= P.n) { return; }
  ga_dst[i] = ga_src[interleaved(P.first + i, P.run)];
}
