// gpu_train.cpp — the toy training run on the GPU; see gpu_train.h.
#include "gpu_train.h"

#include <cmath>

#include "../markov.h"
#include "../model.h"
#include "../optim/registry.h"
#include "../rng.h"
#include "device.h"
#include "gpu_backend.h"
#include "kernels.h"

namespace lnx::gpu {

struct TrainStepRead {  // one pending readback of the history
  int first;            // 1-based step of data[0..1]
  int count;
  uint32_t ticket;
  std::vector<float> data;  // (loss, grad norm) per step
};

struct GpuTrainRun::Impl {
  TrainConfig cfg;
  int every;
  MarkovChain chain;
  Rng batch_rng;
  Model<GpuBackend> model;
  std::vector<Array> opt_state;  // the optimizer's state arrays, the parameters' layout
  Buffer history;  // [0] halt flag, then (loss, grad norm) of step t at 2t−1, 2t
  std::vector<int> inputs, targets;
  int recorded = 0, scheduled = 0;  // steps recorded; steps whose readback is scheduled
  std::deque<std::unique_ptr<TrainStepRead>> reads;
  std::vector<float> loss, grad_norm, lr;  // per landed step, as TrainRun
  RunStatus status = RunStatus::Running;
  int stop_step = 0;
  double plateau = 0;

  explicit Impl(const TrainConfig& c, int readback_every)
      : cfg((c.validate(), c)),
        every(readback_every),
        chain(c.model.vocab, c.successors, c.chain_seed),
        batch_rng(stream_seed(c.seed, kStreamBatches)),
        model(c.model, c.seed),
        history((2 * static_cast<size_t>(c.steps) + 1) * 4) {
    with_optimizer(cfg.optimizer, [&](auto o) {
      for (int j = 0; j < decltype(o)::kStates; ++j) opt_state.emplace_back(model.params().size());
    });
    plateau = chain.stationary_entropy();
  }

  ~Impl() {
    for (auto& r : reads) forget(r->ticket);
  }

  static uint32_t loss_slot(int t) { return 2 * t - 1; }
  static uint32_t norm_slot(int t) { return 2 * t; }

  void record_step() {
    const int t = recorded + 1;
    chain.sample(batch_rng, cfg.model.batch, cfg.model.seq, inputs, targets);
    const Ptr hist = at(history);
    GpuBackend::set_loss_target(hist, loss_slot(t));
    // forward() uploads the tokens first, which submits whatever is recorded; zeroing the gradients
    // after it (the forward pass does not read them) keeps the whole step in one submit.
    model.forward(inputs.data(), targets.data());
    model.zero_grad();
    model.backward(GradScope::All);
    const size_t n = model.params().size();
    sumsq(hist, norm_slot(t), model.grads().data(), n, 1.f, true, false);  // global gradient norm
    check_step(hist, 0, loss_slot(t), norm_slot(t), static_cast<float>(detail::diverge_loss(cfg)));
    with_optimizer(cfg.optimizer, [&](auto o) {
      using O = decltype(o);
      float k[O::kCoefficients];
      O::coefficients(cfg.hyper, scheduled_lr(cfg, t), t, k);
      Ptr states[O::kStates];
      for (int j = 0; j < O::kStates; ++j) states[j] = opt_state[j].data();
      GpuBackend::optimizer_update<O>(model.params().data(), model.grads().data(), states, n, k, hist, 0);
    });
    submit();
    recorded = t;
  }

  void schedule_read() {
    if (scheduled == recorded) return;
    auto r = std::make_unique<TrainStepRead>();
    r->first = scheduled + 1;
    r->count = recorded - scheduled;
    r->data.resize(2 * static_cast<size_t>(r->count));
    r->ticket = read(history, loss_slot(r->first) * 4, r->data.size() * 4, r->data.data());
    reads.push_back(std::move(r));
    scheduled = recorded;
  }

  // Moves landed readbacks into the series, in step order.
  void poll() {
    while (!reads.empty()) {
      TrainStepRead& r = *reads.front();
      const int state = read_state(r.ticket);
      if (state == 0) break;
      if (state < 0) {
        check();
        throw DeviceError("a GPU readback failed");
      }
      for (int i = 0; i < r.count && status == RunStatus::Running; ++i) {
        const int t = r.first + i;
        const float l = r.data[2 * i], gn = r.data[2 * i + 1];
        if (!std::isfinite(l) || !std::isfinite(gn) || l > detail::diverge_loss(cfg)) {
          status = std::isfinite(l) && std::isfinite(gn) ? RunStatus::Diverged : RunStatus::NaN;
          stop_step = t;
          break;
        }
        loss.push_back(l);
        grad_norm.push_back(gn);
        lr.push_back(static_cast<float>(scheduled_lr(cfg, t)));
        if (static_cast<int>(loss.size()) == cfg.steps) status = RunStatus::Ok;
      }
      reads.pop_front();
    }
  }

  int step(int k) {
    poll();
    check();
    if (status != RunStatus::Running) return static_cast<int>(loss.size());
    const int landed = static_cast<int>(loss.size());
    for (int i = 0; i < k && recorded < cfg.steps && recorded - landed < kMaxInFlight; ++i) {
      record_step();
      if (recorded - scheduled >= every) schedule_read();
    }
    schedule_read();
    return static_cast<int>(loss.size());
  }
};

GpuTrainRun::GpuTrainRun(const TrainConfig& cfg, int readback_every) {
  if (readback_every < 1) throw ArgumentError("readback_every must be >= 1");
  check();
  impl_ = std::make_unique<Impl>(cfg, readback_every);
}
GpuTrainRun::~GpuTrainRun() = default;
int GpuTrainRun::step(int k) {
  if (k < 1) throw ArgumentError("step(k): k must be >= 1");
  return impl_->step(k);
}
int GpuTrainRun::steps_done() {
  impl_->poll();
  return static_cast<int>(impl_->loss.size());
}
int GpuTrainRun::steps_recorded() const { return impl_->recorded; }
RunStatus GpuTrainRun::status() {
  impl_->poll();
  return impl_->status;
}
int GpuTrainRun::stop_step() const { return impl_->stop_step; }
std::string GpuTrainRun::result_json(int from) {
  impl_->poll();
  const Impl& r = *impl_;
  return detail::train_result_json(r.cfg, r.plateau, r.status, r.stop_step, r.loss, r.grad_norm, r.lr, from, "webgpu");
}
const std::vector<float>& GpuTrainRun::loss() const { return impl_->loss; }

}  // namespace lnx::gpu
