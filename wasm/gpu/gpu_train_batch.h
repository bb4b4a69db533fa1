// gpu_train_batch.h — the runs of a grid that share a shape, resident on the GPU side by side and
// advanced by the same dispatches (device_batch.h): every kernel of a step is sent once for all of
// them, so a step's dispatch overhead is paid once per batch, not once per run. Each run is the
// same TrainRunner as GpuTrainRun's (train_run.h), with its own seed, batch stream, learning-rate
// schedule, optimizer coefficients, halt flag, readbacks and checkpoints, and gives the same result
// as that run alone on the same device, bit for bit (tests/webgpu/engine-checks.js).
// The runs must differ only in what the host feeds them: the learning rate and warm-up, the seed,
// the chain and the optimizer's coefficients; model, optimizer and steps are the batch's.
// Too many runs for the device's buffer limits: the constructor throws BatchTooLarge (device_batch.h)
// with the number that fits, and the caller (web/src/engine/gpu-grid.ts) makes smaller batches.
// A run can be halted from the host (halt: a phase diagram's run whose outcome is settled,
// gpu_phase_diagram.h); the others go on.
// Leaves out: runs of different shapes in one batch (the grid's placements are separate batches).
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "../config.h"
#include "../train_common.h"

namespace lnx::gpu {

class GpuTrainBatch {
 public:
  GpuTrainBatch(const std::vector<TrainConfig>& runs, int readback_every);
  ~GpuTrainBatch();
  int size() const;
  // Records up to k more steps of every running run, together; returns the steps recorded per run
  // (fewer than k when 256 steps are not read back yet). Throws gpu::DeviceError on a lost device.
  int step(int k);
  int steps_recorded() const;
  int dispatches_per_step() const;  // batched dispatches of the last step recorded
  RunStatus status(int run);
  int stop_step(int run) const;
  // The losses run `run` has landed so far, from step 1 (its series grows as readbacks land).
  const std::vector<float>& loss(int run);
  // Records no more steps of run `run` (its caller is done with it: a phase diagram's settled run).
  // Its readbacks already scheduled still land; its slot then replays another run's dispatches over
  // its own memory, as a stopped run's does, which no other run reads. Its status stays as it was.
  void halt(int run);
  std::string result_json(int run, int from);
  void set_checkpoint_every(int steps);
  bool take_checkpoint(int run, TrainCheckpoint& out);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace lnx::gpu
