// bindings_gpu.cpp — the Embind registrations of the WebGPU classes, nothing else; linked into the
// lnx-gpu module next to wasm/bindings.cpp (which registers the CPU classes). Adapters:
// gpu/gpu_adapters.h. Typings: public/wasm/lnx-gpu.d.ts (hand-written; keep in step with this list).
#include <emscripten/bind.h>

#include "gpu_adapters.h"

EMSCRIPTEN_BINDINGS(lnx_gpu) {
  using namespace emscripten;
  using namespace lnx::js;
  function("gpuAvailable", &gpu_available);
  class_<GpuProbe>("GpuProbeRun")
      .constructor(&make_gpu_probe, allow_raw_pointers())
      .function("step", &GpuProbe::step)
      .function("done", &GpuProbe::done)
      .function("progress", &GpuProbe::progress)
      .function("resultJson", &GpuProbe::result_json)
      .function("handoffJson", &GpuProbe::handoff_json);
  class_<GpuTrain>("GpuTrainRun")
      .constructor(&make_gpu_train, allow_raw_pointers())
      .function("step", &GpuTrain::step)
      .function("stepsRecorded", &GpuTrain::steps_recorded)
      .function("status", &GpuTrain::status)
      .function("resultJson", &GpuTrain::result_json)
      .function("setCheckpointEvery", &GpuTrain::set_checkpoint_every)
      .function("takeCheckpoint", &GpuTrain::take_checkpoint);
  class_<GpuBatch>("GpuTrainBatch")
      .constructor(&make_gpu_batch, allow_raw_pointers())
      .function("size", &GpuBatch::size)
      .function("step", &GpuBatch::step)
      .function("stepsRecorded", &GpuBatch::steps_recorded)
      .function("dispatchesPerStep", &GpuBatch::dispatches_per_step)
      .function("status", &GpuBatch::status)
      .function("resultJson", &GpuBatch::result_json)
      .function("setCheckpointEvery", &GpuBatch::set_checkpoint_every)
      .function("takeCheckpoint", &GpuBatch::take_checkpoint);
  class_<GpuPhase>("GpuPhaseDiagram")
      .constructor(&make_gpu_phase, allow_raw_pointers())
      .function("step", &GpuPhase::step)
      .function("done", &GpuPhase::done)
      .function("progress", &GpuPhase::progress)
      .function("resultJson", &GpuPhase::result_json)
      .function("batchesJson", &GpuPhase::batches_json);
  class_<GpuMatmulCheck>("GpuMatmulCheck")
      .constructor(&make_gpu_matmul_check, allow_raw_pointers())
      .function("ready", &GpuMatmulCheck::ready)
      .function("resultJson", &GpuMatmulCheck::result_json);
  class_<GpuOpCheck>("GpuOpCheck")
      .constructor(&make_gpu_op_check, allow_raw_pointers())
      .function("ready", &GpuOpCheck::ready)
      .function("resultJson", &GpuOpCheck::result_json);
  class_<GpuMatmulBench>("GpuMatmulBench")
      .constructor(&make_gpu_matmul_bench, allow_raw_pointers())
      .function("run", &GpuMatmulBench::run)
      .function("vec4", &GpuMatmulBench::vec4);
  class_<GpuGradCheck>("GpuGradCheck")
      .constructor(&make_gpu_grad_check, allow_raw_pointers())
      .function("ready", &GpuGradCheck::ready)
      .function("resultJson", &GpuGradCheck::result_json);
}
