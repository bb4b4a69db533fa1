// batch_wgsl.h — the run-batched form of a WGSL kernel source (gpu/device_batch.h): the same kernel,
// dispatched once for R runs whose tensors lie side by side, each run at its own offset in every
// binding. Written as a source-to-source rewrite so that every kernel exists once; the rewrite is
// mechanical and covers what the kernels of wasm/gpu/*.wgsl use:
//   - `@binding(0) var<uniform> P: Params` becomes per-run: the R runs' uniform words lie in a
//     read-only storage array at @binding(15) (64 bytes per run), and binding 0 holds the batch's
//     layout, 16 u32: [0] the dispatch's own z extent (its batch of matmuls, else 1), [b] the run
//     stride of @binding(b) in 4-byte words;
//   - the run is workgroup z / that extent (the host multiplies the z extent by R); every entry
//     point sees `workgroup_id`, `num_workgroups` and `global_invocation_id` with the run taken out
//     of z (global z is rebased as `% extent`, right for workgroups one thread deep in z, which the
//     rewrite checks), and P as its run's uniforms;
//   - every storage array access `name[i]` becomes `name[run_offset + u32(i)]` (in the array's own
//     elements: a vec4 array's offset is a quarter of the word stride).
// Uniformity (WGSL §14): in entry points P and the offsets are `let`s computed from the workgroup id
// and from read-only buffers, so they stay uniform and the kernels' barriers stay valid; helper
// functions read private copies (non-uniform to the analysis, fine where they only address memory).
// Throws std::logic_error on a source it does not recognise (a kernel outside these patterns).
#pragma once
#include <string>

namespace lnx::gpu {

constexpr unsigned kBatchParamsBinding = 15;  // the per-run uniform words
constexpr unsigned kBatchParamsBytes = 64;    // per run (Uniforms: ≤ 16 words)

std::string batched_wgsl(const std::string& source);

}  // namespace lnx::gpu
