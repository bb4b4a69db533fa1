// gpu_phase_diagram.h — the `phase-diagram` experiment on WebGPU: its runs of one shape (one placement
// at one depth: they differ in peak lr, warm-up and seed) advance as one GpuTrainBatch, so each step
// of a shape is one set of dispatches for all its runs. The plan, the outcome rule (early exit
// included) and the document are the CPU experiment's own (experiments/phase_diagram.h PhasePlan):
// this file only schedules the runs and feeds PhasePlan::record the losses as they land. A run whose
// outcome is settled is halted in its batch (GpuTrainBatch::halt), a diverged one stops there by its
// halt flag; a batch whose runs are all settled is freed and the next shape's batch starts. The
// document is the CPU's with "engine": {…, "backend": "webgpu"}; each run equals that run alone on
// the same device (a batch of one) bit for bit (tests/webgpu/engine-checks.js).
// Why here and not in the worker (as the grid's gpu-grid.ts): the rule reads every landed loss, and
// the batches and the plan are both C++ here, so the rule is called where the losses are, once.
// Too many runs for the device's buffer limits: a smaller batch (BatchTooLarge says how many fit).
// A lost device throws DeviceError out of step(); the page reruns the experiment on the CPU engine.
// The page sends it here on a WebGPU page (web/src/engine/backend-choice.ts GPU_EXPERIMENTS).
// Leaves out: handing finished runs to the CPU after a lost device (the CPU run starts afresh).
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "../experiments/phase_diagram.h"
#include "gpu_train_batch.h"

namespace lnx::gpu {

class GpuPhaseDiagram {
 public:
  static constexpr int kMaxLive = 16;       // runs on the device at once (a shape of the quick map is 10)
  static constexpr int kReadbackEvery = 8;  // losses read back every 8 steps and at each step()'s end

  // max_batch: the most runs in one batch (1: every run alone, the checks' reference).
  explicit GpuPhaseDiagram(const std::string& config_json, int max_batch = kMaxLive);
  ~GpuPhaseDiagram();
  // Reads what has landed, then records up to k more steps of every live batch; the fraction done.
  double step(int k);
  bool done();
  double progress() const;
  std::string result_json();
  // How the runs went to the device: [{"runs": R, "dispatches": D}] per batch made, D its last step's
  // batched dispatches (the same for 1 run or R).
  std::string batches_json() const;

 private:
  struct Live {
    std::unique_ptr<GpuTrainBatch> batch;
    std::vector<size_t> runs;  // plan indices, batch order
    size_t made;               // its entry in made_
  };
  struct Made {
    int runs, dispatches = 0;
  };
  void sync();
  void fill();
  int live_runs() const;

  exp::PhaseConfig cfg_;
  exp::PhasePlan plan_;
  int max_batch_;
  std::vector<std::vector<size_t>> shapes_;  // the runs not started, per shape, in execution order
  size_t shape_ = 0, taken_ = 0;             // the next run to start: shapes_[shape_][taken_]
  std::vector<Live> live_;
  std::vector<Made> made_;
  std::vector<int> landed_;  // per run: steps read so far
  double total_ = 0;
};

}  // namespace lnx::gpu
