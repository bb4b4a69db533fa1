// command_list.h — how a dispatch reaches WebGPU without a call into JavaScript (docs/webgpu.md,
// "Recording"). WebGPU has no reusable compute command buffers, so a step is encoded again every
// time; what is made cheap is everything around the encoder's own calls:
//   - a dispatch is appended to a list in wasm memory (pipeline id, bind group id, workgroup
//     counts), which lnx_webgpu.js walks through typed-array views when the work is submitted (or
//     before a readback's copy): one call into JavaScript per submit, not two or more per dispatch;
//   - pipelines are made once per (source, entry, constants) and bind groups once per (pipeline,
//     uniform slot, bindings); a dispatch whose slot held the same kernel and bindings at the last
//     submit reuses that slot's group after a comparison of a few words, without a hash lookup;
//   - uniforms go to a mirror of the uniform ring in wasm memory (256-byte slots, one per dispatch of
//     a submit), and only the slots whose words changed since the ring last held them are written,
//     as a few contiguous ranges, at the submit. A training step records the same dispatches every
//     time, so its per-step uniforms (the learning rate, the step's history slots) are all it writes.
// The JS side reads the list's header (Header below; its word offsets are in lnx_webgpu.js) and
// tells the C++ side, through the header's generation word, when the device changed (caches reset).
// Leaves out: buffers, writes and readbacks (device.cpp), batching runs (device_batch.h).
#pragma once
#include <cstddef>
#include <cstdint>

#include "device.h"

namespace lnx::gpu::cmdlist {

// Appends one dispatch (pipeline and bind group resolved, uniforms mirrored); when the ring's slots
// are used up, the recorded work is submitted first.
void record(const Kernel& k, const Binding* b, int n, const Uniforms& u, uint32_t gx, uint32_t gy, uint32_t gz);
// Device buffer `id` was destroyed: drop the bind groups that bind it (its id will be reused).
void forget_buffer(uint32_t id);
// A device limit, asked of the device once per device: 0 maxBufferSize, 1 maxStorageBufferBindingSize.
size_t limit(int which);

}  // namespace lnx::gpu::cmdlist
