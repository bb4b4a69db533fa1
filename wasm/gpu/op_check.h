// op_check.h — every op of the backend interface (op_interface.h, plus each registered optimizer's
// update and the run statistics) on the GPU against the same op on the CPU, with identical inputs.
// The model-level GradCheck (gpu_check.h) can hide an op that is wrong only off the model's path
// (a null optional output, accumulate instead of overwrite, a shape the toy never uses); this one
// cannot: each op runs on its own at small, odd shapes and each of its outputs is compared.
// Inputs come from the engine's Rng with the same seed on both backends, so both see the same
// numbers; optimizer parameters start at zero so the output is the update itself, not a large
// parameter with a small change hidden in its last bits.
// Records its GPU work at construction; JS awaits Module.lnxGpu.settled(), then result_json():
//   { "ops": [{ "op", "output", "size", "max_rel" }], "max_rel", "op_names": [...] }
// with max_rel = max|gpu − cpu| / max|cpu| per output (as gpu_check.h).
// Leaves out: pass/fail thresholds (the tests use 1e-4), timing.
#pragma once
#include "gpu_check.h"

namespace lnx::gpu {

struct OpCheckImpl;
using OpCheck = Check<OpCheckImpl>;

}  // namespace lnx::gpu
