// gpu_train.cpp — the toy training run on the GPU; see gpu_train.h. The run itself is
// detail::TrainRunner (train_run.h), the same code as the CPU's TrainRun, over GpuBackend.
#include "gpu_train.h"

#include "../train_run.h"
#include "device.h"
#include "gpu_backend.h"

namespace lnx::gpu {

struct GpuTrainRun::Impl : detail::TrainRunner<GpuBackend> {
  Impl(const TrainConfig& c, int every) : TrainRunner(c, every, c.model) {}
};

GpuTrainRun::GpuTrainRun(const TrainConfig& cfg, int readback_every) {
  if (readback_every < 1) throw ArgumentError("readback_every must be >= 1");
  check();
  impl_ = std::make_unique<Impl>(cfg, readback_every);
}
GpuTrainRun::~GpuTrainRun() = default;
int GpuTrainRun::step(int k) {
  if (k < 1) throw ArgumentError("step(k): k must be >= 1");
  check();
  // TrainRunner::step(k) in its parts: the last step's submit is held back until its readback is
  // recorded (end_call), so that both go in one submit.
  Impl& r = *impl_;
  for (int i = 0; i < k && r.can_record(); ++i) {
    if (i + 1 < k) {
      r.record_one();
    } else {
      const HoldSubmits hold;
      r.record_one();
    }
  }
  {
    const HoldSubmits hold;
    r.end_call();
  }
  submit_now();
  return static_cast<int>(r.loss().size());
}
int GpuTrainRun::steps_done() { return impl_->steps_done(); }
int GpuTrainRun::steps_recorded() const { return impl_->steps_recorded(); }
RunStatus GpuTrainRun::status() { return impl_->status(); }
int GpuTrainRun::stop_step() const { return impl_->stop_step(); }
std::string GpuTrainRun::result_json(int from) { return impl_->result_json(from, "webgpu"); }
const std::vector<float>& GpuTrainRun::loss() const { return impl_->loss(); }
void GpuTrainRun::set_checkpoint_every(int steps) {
  if (steps < 0) throw ArgumentError("checkpoint_every must be >= 0");
  impl_->set_checkpoint_every(steps);
}
bool GpuTrainRun::take_checkpoint(TrainCheckpoint& out) {
  check();
  return impl_->take_checkpoint(out);
}

}  // namespace lnx::gpu
