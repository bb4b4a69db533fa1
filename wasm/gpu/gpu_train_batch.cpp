// gpu_train_batch.cpp — a batch of toy runs on the GPU; see gpu_train_batch.h.
#include "gpu_train_batch.h"

#include "../train_run.h"
#include "device.h"
#include "device_batch.h"
#include "gpu_backend.h"

namespace lnx::gpu {
namespace {

using Runner = lnx::detail::TrainRunner<GpuBackend>;

}  // namespace

struct GpuTrainBatch::Impl {
  RunBatch batch;  // first: outlives the runs' slices
  std::vector<std::unique_ptr<Runner>> runs;
  std::vector<char> halted;  // halt(): records no more steps
  int recorded = 0, dispatches = 0;

  Impl(const std::vector<TrainConfig>& cfgs, int every) : batch(static_cast<int>(cfgs.size())) {
    for (size_t r = 0; r < cfgs.size(); ++r) {
      const RunBatch::Recording as_run(batch, static_cast<int>(r));
      runs.push_back(std::make_unique<Runner>(cfgs[r], every, cfgs[r].model));
    }
    halted.assign(cfgs.size(), 0);
    batch.emit();  // whatever construction recorded (nothing today)
  }
};

GpuTrainBatch::GpuTrainBatch(const std::vector<TrainConfig>& runs, int readback_every) {
  if (runs.empty()) throw ArgumentError("a batch needs at least one run");
  if (readback_every < 1) throw ArgumentError("readback_every must be >= 1");
  const std::string key = lnx::detail::train_shape_key(runs[0]);
  for (size_t r = 1; r < runs.size(); ++r)
    if (lnx::detail::train_shape_key(runs[r]) != key)
      throw ArgumentError("run " + std::to_string(r) +
                          " of the batch differs from run 0 in more than its learning "
                          "rate, warm-up, seed, chain and optimizer coefficients (model, optimizer and steps are the "
                          "batch's)");
  check();
  impl_ = std::make_unique<Impl>(runs, readback_every);
}
GpuTrainBatch::~GpuTrainBatch() = default;

int GpuTrainBatch::size() const { return static_cast<int>(impl_->runs.size()); }

int GpuTrainBatch::step(int k) {
  if (k < 1) throw ArgumentError("step(k): k must be >= 1");
  check();
  Impl& m = *impl_;
  int done = 0;
  bool unsent = false;  // a step recorded and not emitted yet
  for (; done < k; ++done) {
    // Lockstep: a step is recorded when every running run may record one (none is 256 steps
    // ahead of its readbacks); the others record nothing and their slots replay the first's.
    std::vector<int> go;
    bool blocked = false;
    for (size_t r = 0; r < m.runs.size(); ++r) {
      Runner& run = *m.runs[r];
      if (m.halted[r]) continue;
      if (run.can_record()) go.push_back(static_cast<int>(r));
      else if (run.status() == RunStatus::Running && run.steps_recorded() < run.config().steps) blocked = true;
    }
    if (go.empty() || blocked) break;
    if (unsent) m.dispatches = m.batch.emit();
    for (int r : go) {
      const RunBatch::Recording as_run(m.batch, r);
      m.runs[r]->record_one();
    }
    unsent = true;
    ++m.recorded;
  }
  // The call's readbacks, recorded too: they ride on the last step's submit (emit() sends them
  // after its dispatches), as one read of each span that several runs read alike.
  for (size_t r = 0; r < m.runs.size(); ++r) {
    const RunBatch::Recording as_run(m.batch, static_cast<int>(r));
    m.runs[r]->end_call();
  }
  const int sent = m.batch.emit();
  if (unsent) m.dispatches = sent;
  return done;
}

int GpuTrainBatch::steps_recorded() const { return impl_->recorded; }
int GpuTrainBatch::dispatches_per_step() const { return impl_->dispatches; }

namespace {
Runner& at_run(std::vector<std::unique_ptr<Runner>>& runs, int r) {
  if (r < 0 || r >= static_cast<int>(runs.size()))
    throw ArgumentError("run " + std::to_string(r) + " is not in the batch (it has " + std::to_string(runs.size()) +
                        " runs)");
  return *runs[r];
}
}  // namespace

RunStatus GpuTrainBatch::status(int run) { return at_run(impl_->runs, run).status(); }
int GpuTrainBatch::stop_step(int run) const { return at_run(impl_->runs, run).stop_step(); }
const std::vector<float>& GpuTrainBatch::loss(int run) {
  Runner& r = at_run(impl_->runs, run);
  r.steps_done();  // moves the landed readbacks into the series
  return r.loss();
}
void GpuTrainBatch::halt(int run) {
  at_run(impl_->runs, run);
  impl_->halted[run] = 1;
}
std::string GpuTrainBatch::result_json(int run, int from) {
  return at_run(impl_->runs, run).result_json(from, "webgpu");
}
void GpuTrainBatch::set_checkpoint_every(int steps) {
  if (steps < 0) throw ArgumentError("checkpoint_every must be >= 0");
  for (auto& r : impl_->runs) r->set_checkpoint_every(steps);
}
bool GpuTrainBatch::take_checkpoint(int run, TrainCheckpoint& out) {
  check();
  return at_run(impl_->runs, run).take_checkpoint(out);
}

}  // namespace lnx::gpu
