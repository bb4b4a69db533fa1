// bindings_gpu.cpp — the Embind registrations of the WebGPU classes, nothing else; linked into the
// lnx-gpu module next to wasm/bindings.cpp (which registers the CPU classes). Adapters:
// gpu/gpu_adapters.h. Typings: public/wasm/lnx-gpu.d.ts (hand-written; keep in step with this list).
#include <emscripten/bind.h>

#include "gpu_adapters.h"

namespace {

// The Embind registration of a GPU check (gpu_adapters.h's GpuCheck): ready, resultJson.
template <class T, class Make>
void check_class(const char* name, Make make) {
  emscripten::class_<T>(name)
      .constructor(make, emscripten::allow_raw_pointers())
      .function("ready", &T::ready)
      .function("resultJson", &T::result_json);
}

}  // namespace

EMSCRIPTEN_BINDINGS(lnx_gpu) {
  using namespace emscripten;
  using namespace lnx::js;
  function("gpuAvailable", &gpu_available);
  stepped_class<GpuProbe>("GpuProbeRun", &make_gpu_probe).function("handoffJson", &GpuProbe::handoff_json);
  training_class<GpuTrain>("GpuTrainRun", &make_gpu_train).function("stepsRecorded", &GpuTrain::steps_recorded);
  training_class<GpuBatch>("GpuTrainBatch", &make_gpu_batch)
      .function("size", &GpuBatch::size)
      .function("stepsRecorded", &GpuBatch::steps_recorded)
      .function("dispatchesPerStep", &GpuBatch::dispatches_per_step)
      .function("halt", &GpuBatch::halt);
  stepped_class<GpuPhase>("GpuPhaseDiagram", &make_gpu_phase).function("batchesJson", &GpuPhase::batches_json);
  check_class<GpuMatmulCheck>("GpuMatmulCheck", &make_gpu_matmul_check);
  check_class<GpuOpCheck>("GpuOpCheck", &make_gpu_op_check);
  class_<GpuMatmulBench>("GpuMatmulBench")
      .constructor(&make_gpu_matmul_bench, allow_raw_pointers())
      .function("run", &GpuMatmulBench::run)
      .function("vec4", &GpuMatmulBench::vec4);
  check_class<GpuGradCheck>("GpuGradCheck", &make_gpu_grad_check);
}
