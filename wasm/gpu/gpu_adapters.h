// gpu_adapters.h — adapters between the GPU runs (gpu_train.h, gpu_probe.h, gpu_check.h) and
// JavaScript, used only by gpu/bindings_gpu.cpp. As js_adapters.h: configs in as JSON strings, results
// out as JSON strings, every C++ exception rethrown as a JS Error; a lost or failing device becomes
// `Error("lnx: gpu: …")`, which the page recognises to fall back to the CPU (web/src/engine/backend-choice.ts).
#pragma once
#include <utility>

#include "../js_adapters.h"
#include "device.h"
#include "device_batch.h"
#include "gpu_check.h"
#include "gpu_phase_diagram.h"
#include "gpu_probe.h"
#include "gpu_train.h"
#include "gpu_train_batch.h"
#include "op_check.h"

namespace lnx::js {

// The JS Error's message for a C++ exception from the GPU runs (into t_js_error): a batch too large
// for the device's buffers, a lost or failing device under their own prefixes, else set_js_error's.
inline void set_gpu_js_error(const std::exception& e) {
  if (const auto* b = dynamic_cast<const gpu::BatchTooLarge*>(&e))  // not a device failure: the caller splits the batch
    t_js_error.assign("lnx: gpu batch too large: at most ")
        .append(std::to_string(b->max_runs))
        .append(" runs: ")
        .append(e.what());
  else if (dynamic_cast<const gpu::DeviceError*>(&e)) t_js_error.assign("lnx: gpu: ").append(e.what());
  else set_js_error(e);
}

// guarded() with set_gpu_js_error: one catch clause, as guarded() (the module's optimizer once turned
// the bodies of typed catch clauses after the first into a trap under WebAssembly exceptions).
template <class F>
auto gpu_guarded(F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const std::exception& e) {
    set_gpu_js_error(e);
  }
  throw_pending_js_error();  // after the catch block: see js_adapters.h
}

class GpuProbe {
 public:
  explicit GpuProbe(const std::string& config) : run_(probe_config_from_json(config)) {}
  double step(double batches) {
    return gpu_guarded([&] { return run_.step(check_count(batches, "batches")); });
  }
  bool done() {
    return gpu_guarded([&] { return run_.done(); });
  }
  double progress() {
    return gpu_guarded([&] { return run_.progress(); });
  }
  std::string result_json() {
    return gpu_guarded([&] { return run_.result_json(); });
  }
  std::string handoff_json() const {
    return guarded([&] { return run_.handoff_json(); });
  }

 private:
  gpu::GpuProbeRun run_;
};

class GpuTrain {
 public:
  GpuTrain(const std::string& config, int readback_every) : run_(train_config_from_json(config), readback_every) {}
  int step(double k) {
    return gpu_guarded([&] { return run_.step(check_count(k, "k")); });
  }
  int steps_recorded() const { return run_.steps_recorded(); }
  std::string status() {
    return gpu_guarded([&] { return std::string(to_string(run_.status())); });
  }
  std::string result_json(double from) {
    return gpu_guarded([&] { return run_.result_json(from_step(from)); });
  }
  void set_checkpoint_every(double steps) {
    gpu_guarded([&] {
      run_.set_checkpoint_every(check_count(steps, "checkpointEvery"));
      return 0;
    });
  }
  // {step, values: Float32Array (a copy, off the wasm heap)} or null (checkpoint_value in js_adapters.h).
  emscripten::val take_checkpoint() {
    const bool got = gpu_guarded([&] { return run_.take_checkpoint(ckpt_); });
    return got ? checkpoint_value(ckpt_) : emscripten::val::null();
  }

 private:
  gpu::GpuTrainRun run_;
  TrainCheckpoint ckpt_;  // reused between takes
};

// The runs of one shape advanced together (gpu_train_batch.h); configs as an array of TrainRun JSON strings.
class GpuBatch {
 public:
  GpuBatch(const std::vector<TrainConfig>& runs, int readback_every) : batch_(runs, readback_every) {}
  int size() const { return batch_.size(); }
  int step(double k) {
    return gpu_guarded([&] { return batch_.step(check_count(k, "k")); });
  }
  int steps_recorded() const { return batch_.steps_recorded(); }
  int dispatches_per_step() const { return batch_.dispatches_per_step(); }
  std::string status(double run) {
    return gpu_guarded([&] { return std::string(to_string(batch_.status(run_index(run)))); });
  }
  std::string result_json(double run, double from) {
    return gpu_guarded([&] { return batch_.result_json(run_index(run), from_step(from)); });
  }
  void halt(double run) {
    gpu_guarded([&] {
      batch_.halt(run_index(run));
      return 0;
    });
  }
  void set_checkpoint_every(double steps) {
    gpu_guarded([&] {
      batch_.set_checkpoint_every(check_count(steps, "checkpointEvery"));
      return 0;
    });
  }
  emscripten::val take_checkpoint(double run) {
    const bool got = gpu_guarded([&] { return batch_.take_checkpoint(run_index(run), ckpt_); });
    return got ? checkpoint_value(ckpt_) : emscripten::val::null();
  }

 private:
  int run_index(double run) const {
    if (!(run >= 0 && run < batch_.size()) || run != static_cast<int>(run))
      throw ArgumentError("run must be a whole number from 0 to " + std::to_string(batch_.size() - 1));
    return static_cast<int>(run);
  }
  gpu::GpuTrainBatch batch_;
  TrainCheckpoint ckpt_;
};

// The phase-diagram experiment batched by shape (gpu_phase_diagram.h); ExperimentRun's interface.
class GpuPhase {
 public:
  GpuPhase(const std::string& config, int max_batch) : run_(config, max_batch) {}
  double step(double k) {
    return gpu_guarded([&] { return run_.step(check_count(k, "work")); });
  }
  bool done() {
    return gpu_guarded([&] { return run_.done(); });
  }
  double progress() const { return run_.progress(); }
  std::string result_json() {
    return gpu_guarded([&] { return run_.result_json(); });
  }
  std::string batches_json() const {
    return guarded([&] { return run_.batches_json(); });
  }

 private:
  gpu::GpuPhaseDiagram run_;
};

// A GPU-vs-CPU check (gpu_check.h, op_check.h) as JS sees it: it records its GPU work when made,
// ready() once its readbacks landed, then resultJson().
template <class Check>
class GpuCheck {
 public:
  template <class... Args>
  explicit GpuCheck(Args&&... args) : check_(std::forward<Args>(args)...) {}
  bool ready() {
    return gpu_guarded([&] { return check_.ready(); });
  }
  std::string result_json() {
    return gpu_guarded([&] { return check_.result_json(); });
  }

 private:
  Check check_;
};
using GpuMatmulCheck = GpuCheck<gpu::MatmulCheck>;
using GpuGradCheck = GpuCheck<gpu::GradCheck>;
using GpuOpCheck = GpuCheck<gpu::OpCheck>;

class GpuMatmulBench {
 public:
  GpuMatmulBench(bool tA, bool tB, int M, int N, int K) : bench_(tA, tB, M, N, K) {}
  void run(double reps) {
    gpu_guarded([&] {
      bench_.run(check_count(reps, "reps"));
      return 0;
    });
  }
  bool vec4() const { return bench_.vec4(); }

 private:
  gpu::MatmulBench bench_;
};

inline GpuProbe* make_gpu_probe(const std::string& c) {
  return gpu_guarded([&] { return new GpuProbe(c); });
}
inline GpuTrain* make_gpu_train(const std::string& c, double every) {
  return gpu_guarded([&] { return new GpuTrain(c, check_count(every, "readbackEvery")); });
}
inline GpuBatch* make_gpu_batch(const emscripten::val& configs, double every) {
  return gpu_guarded([&] {
    if (!configs.isArray()) throw ArgumentError("a batch takes an array of run configs (JSON strings)");
    std::vector<TrainConfig> runs;
    const int n = configs["length"].as<int>();
    for (int i = 0; i < n; ++i) {
      if (!configs[i].isString())
        throw ArgumentError("run " + std::to_string(i) + " of the batch is not a JSON string");
      runs.push_back(train_config_from_json(configs[i].as<std::string>()));
    }
    return new GpuBatch(runs, check_count(every, "readbackEvery"));
  });
}
inline GpuMatmulCheck* make_gpu_matmul_check() {
  return gpu_guarded([&] { return new GpuMatmulCheck(); });
}
inline GpuOpCheck* make_gpu_op_check() {
  return gpu_guarded([&] { return new GpuOpCheck(); });
}
inline GpuGradCheck* make_gpu_grad_check(const std::string& c) {
  return gpu_guarded([&] { return new GpuGradCheck(train_config_from_json(c)); });
}
inline GpuMatmulBench* make_gpu_matmul_bench(bool tA, bool tB, double M, double N, double K) {
  return gpu_guarded(
      [&] { return new GpuMatmulBench(tA, tB, check_count(M, "M"), check_count(N, "N"), check_count(K, "K")); });
}
inline GpuPhase* make_gpu_phase(const std::string& c, double max_batch) {
  return gpu_guarded([&] { return new GpuPhase(c, check_count(max_batch, "maxBatch")); });
}
inline bool gpu_available() { return gpu::available(); }

}  // namespace lnx::js
