// gpu_train.h — one toy training run (Figure 4) resident on the GPU: the same run as TrainRun
// (train_run.h, written once over the backend), with parameters, gradients, activations and the
// optimizer's state in device buffers. A step is recorded and submitted without waiting; the loss and the
// gradient norm of every step go to a device history buffer, read back asynchronously every
// `readback_every` steps (and at the end of each step() call). The JS loop alternates
//   run.step(k); await Module.lnxGpu.settled();
// and the recorded series grow as readbacks land.
// A non-finite loss or gradient norm, or a loss above 4·ln V, sets a halt flag on the device (the
// optimizer stops moving) and, once read back, ends the run with status "nan" / "diverged" at that step, as
// on the CPU.
// Checkpoints (train_run.h, "Hand-off"): with set_checkpoint_every(k), the parameters and optimizer
// state after every k-th step are read back too, so that the page continues the run on the CPU
// (TrainRun::continue_from) after a lost device.
// Leaves out: the grid of runs (gpu-grid.ts schedules these), resuming on the GPU.
#pragma once
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "../config.h"
#include "../train_common.h"

namespace lnx::gpu {

class GpuTrainRun {
 public:
  GpuTrainRun(const TrainConfig& cfg, int readback_every);
  ~GpuTrainRun();
  // Records up to k more steps (fewer when 256 steps are not read back yet); returns the
  // number of steps whose results have landed. Throws gpu::DeviceError when the device is gone.
  int step(int k);
  int steps_done();  // landed
  int steps_recorded() const;
  RunStatus status();     // Running until every step has landed, or NaN / Diverged
  int stop_step() const;  // the 1-based step that stopped a NaN / Diverged run, else 0
  std::string result_json(int from);
  const std::vector<float>& loss() const;
  void set_checkpoint_every(int steps);        // 0 = none (the default)
  bool take_checkpoint(TrainCheckpoint& out);  // false when none landed since the last take

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace lnx::gpu
