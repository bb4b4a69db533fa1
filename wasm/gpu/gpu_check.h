// gpu_check.h — the GPU path against the CPU path inside one module: the start-up self-test of the
// backend selection (web/src/engine/backend-choice.ts) and the comparisons of `npm run test:webgpu`.
//   MatmulCheck: every transposition case of the WGSL matmul, on the vec4 and the scalar path,
//     batched and not, beta 0 and 1, against gemm<float>.
//   GradCheck: one forward/backward of a model (TrainConfig's model and seed, one batch of random
//     tokens) on both backends: the loss and every parameter gradient tensor. A tensor whose CPU
//     gradient is zero up to rounding (below 1e-6 of the model's largest entry S: the key bias, as
//     softmax ignores a common shift of a row's scores) is reported apart: "relative" error there is
//     noise over noise, so its largest entry on either backend is given relative to S.
// Both record their GPU work at construction and schedule readbacks; JS awaits
// Module.lnxGpu.settled(), then ready() is true and result_json() reports
//   per case / per tensor: max|gpu − cpu| / max|cpu| ("max_rel") and the overall maximum.
// Leaves out: pass/fail thresholds (the caller decides; the test uses 1e-4).
#pragma once
#include <memory>
#include <string>

#include "../config.h"

namespace lnx::gpu {

// A GPU-vs-CPU comparison: its Impl records the GPU work and schedules the readbacks when made (after
// check(): a lost device throws first); ready() once they landed, then result_json(). Defined in
// check_impl.h, instantiated by the file of each Impl.
template <class Impl>
class Check {
 public:
  template <class... Args>
  explicit Check(const Args&... args);
  ~Check();
  bool ready();
  std::string result_json();

 private:
  std::unique_ptr<Impl> impl_;
};

struct MatmulCheckImpl;
struct GradCheckImpl;
using MatmulCheck = Check<MatmulCheckImpl>;
using GradCheck = Check<GradCheckImpl>;  // made from a TrainConfig

// The WGSL matmul alone at one shape, for the benchmark: buffers made once, run(reps) records reps
// dispatches (C = A·B, beta 0) and submits; time it with Module.lnxGpu.idle().
class MatmulBench {
 public:
  MatmulBench(bool tA, bool tB, int M, int N, int K);
  ~MatmulBench();
  void run(int reps);
  bool vec4() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace lnx::gpu
