// train_run.h — one toy training run (Figure 4; trainer.cpp says what it does), written once over a
// backend B: CpuBackend<float> for TrainRun (trainer.cpp), gpu::GpuBackend for GpuTrainRun
// (gpu/gpu_train.cpp).
//
// A step: a fresh batch of the Markov chain, or of random windows of the text (text_data.h); the loss and the gradient
// (GradientStep<B>: the one part that differs, see below); the global gradient norm; the stopping rule (check_step: a
// non-finite loss or norm, or a loss above 4·ln V, sets the run's halt flag and the optimizer then
// skips the update); the optimizer's update at the schedule's learning rate (optim/). Each step's
// loss and gradient norm go to a history on the backend — [0] the halt flag, step t at 2t−1 and 2t —
// read back every `readback_every` steps and at the end of each step() call. On the CPU a readback
// lands at once, so the run stops at the stopping step itself; on the GPU steps are recorded and
// submitted without waiting (at most kMaxInFlight ahead of the landed ones), a halted run's further
// steps change nothing, and the series grow as readbacks land. The stopping step is reported as
// stop_step, and its loss is left out of the series.
//
// Hand-off. With checkpoint_every = k > 0, after every k-th step the run reads its parameters and
// optimizer state back (on the GPU asynchronously, behind that step's work in the queue), and
// take_checkpoint packs them into a TrainCheckpoint (api.h: no backend padding). One checkpoint is in
// flight or waiting at a time, and the next starts only after it was taken, so the host holds one
// copy per run. continue_from starts a run where another backend's checkpoint left it: the same
// parameters and optimizer state, the batch stream advanced past the steps done (the chain is
// sampled on the host with the run's own generator, so this is exact), the series up to there.
// A text run also measures its validation loss (the mean loss over the held-out windows, a forward
// pass without a backward) after every eval_every-th step and the last; on the CPU only, whose
// forward pass returns the loss at once (a text run on another backend is refused).
// Leaves out: checkpoints of the probe (it restarts; it has no steps to lose), a text run's hand-off.
#pragma once
#include <algorithm>
#include <cmath>
#include <deque>
#include <memory>
#include <type_traits>
#include <vector>

#include "markov.h"
#include "model.h"
#include "optim/registry.h"
#include "optim/schedule.h"
#include "profile.h"
#include "rng.h"
#include "train_common.h"

namespace lnx::detail {

// The loss and the gradient of one batch: hist[loss_slot] = the batch's mean loss, model.grads() =
// its gradient, hist[norm_slot] = the gradient's global norm. This primary template is one
// forward/backward over the whole batch, with the loss written straight into the history (the GPU's
// way: nothing is read back); trainer.cpp specialises it for the CPU, which computes an even batch
// as two half-batches (and sums their mean and its norm in one pass).
template <class B>
struct GradientStep {
  GradientStep(const TrainConfig&, Model<B>&) {}
  void run(Model<B>& model, const std::vector<int>& inputs, const std::vector<int>& targets, typename B::Stats& hist,
           uint32_t loss_slot, uint32_t norm_slot) {
    B::set_loss_target(hist, loss_slot);
    // On the GPU forward() uploads the tokens first, which submits whatever is recorded; zeroing the
    // gradients after it (the forward pass does not read them) keeps the whole step in one submit.
    model.forward(inputs.data(), targets.data());
    model.zero_grad();
    model.backward(GradScope::All);
    B::grad_norm(hist, norm_slot, model.grads().data(), model.params().size());
  }
};

template <class B>
class TrainRunner {
 public:
  static constexpr int kMaxInFlight = 256;  // steps recorded ahead of the landed ones

  TrainRunner(const TrainConfig& c, int readback_every, ModelConfig model_shape)
      : cfg_((c.validate(), c)),
        every_(readback_every),
        chain_(c.model.vocab, c.successors, c.chain_seed),
        text_(text_of(cfg_)),
        model_(model_shape, c.seed),
        gradient_(cfg_, model_),
        batch_rng_(stream_seed(c.seed, kStreamBatches)),
        hist_(B::stats(2 * static_cast<size_t>(c.steps) + 1)) {
    with_optimizer(cfg_.optimizer, [&](auto o) {
      for (int j = 0; j < decltype(o)::kStates; ++j) opt_state_.push_back(B::zeros(model_.params().size()));
    });
    if constexpr (!std::is_arithmetic_v<typename B::Loss>)
      if (text_) throw ArgumentError("data = text: the validation loss is computed on the CPU engine only");
    plateau_ = text_ ? text_->unigram_entropy() : chain_.stationary_entropy();
    loss_.reserve(cfg_.steps), grad_norm_.reserve(cfg_.steps), lr_.reserve(cfg_.steps);
  }

  // Records up to k more steps; returns the number of steps whose results have landed.
  int step(int k) {
    for (int i = 0; i < k && can_record(); ++i) record_one();
    end_call();
    return static_cast<int>(loss_.size());
  }
  // The parts of step(), for a batch of runs advanced together (gpu/gpu_train_batch.cpp): whether
  // another step may be recorded now (running, steps left, fewer than kMaxInFlight unread), record
  // it (with its periodic readback and checkpoint), and schedule what is still unread.
  bool can_record() {
    poll();
    return status_ == RunStatus::Running && recorded_ < cfg_.steps &&
           recorded_ - static_cast<int>(loss_.size()) < kMaxInFlight;
  }
  void record_one() {
    record_step();
    if (recorded_ - scheduled_ >= every_) schedule_read();
    if (text_ && (recorded_ % cfg_.eval_every == 0 || recorded_ == cfg_.steps)) evaluate();
    if (ckpt_every_ > 0 && recorded_ % ckpt_every_ == 0 && ckpt_reads_.empty() && !ckpt_ready_) start_checkpoint();
  }
  void end_call() {
    schedule_read();
    poll();
  }

  int steps_done() {
    poll();
    return static_cast<int>(loss_.size());
  }
  int steps_recorded() const { return recorded_; }
  RunStatus status() {
    poll();
    return status_;
  }
  int stop_step() const { return stop_step_; }
  const std::vector<float>& loss() const { return loss_; }
  const std::vector<float>& grad_norm() const { return grad_norm_; }
  const std::vector<float>& lr() const { return lr_; }
  double plateau_entropy() const { return plateau_; }
  // A text run's validation losses; null for the Markov chain.
  const ValSeries* val() const { return text_ ? &val_ : nullptr; }
  const TrainConfig& config() const { return cfg_; }
  Model<B>& model() { return model_; }
  GradientStep<B>& gradient() { return gradient_; }
  // The batch the last recorded step trained on (B·n inputs and targets).
  const std::vector<int>& last_inputs() const { return inputs_; }
  const std::vector<int>& last_targets() const { return targets_; }

  // The per-run fields of a Train document or of a Grid document's run.
  void write_series(json::Writer& w, int from) {
    poll();
    detail::write_series(w, from, status_, stop_step_, loss_, grad_norm_, lr_, nullptr, val());
  }
  std::string result_json(int from, const char* backend) {
    poll();
    return train_result_json(cfg_, plateau_, status_, stop_step_, loss_, grad_norm_, lr_, from, backend, &handoff_,
                             val());
  }

  // ---- hand-off (see the header) ----
  void set_checkpoint_every(int every) { ckpt_every_ = every; }
  // Moves the latest landed checkpoint out; false when none landed since the last take.
  bool take_checkpoint(TrainCheckpoint& out) {
    if (!ckpt_ready_) return false;
    out.step = ckpt_step_;
    out.values.resize(packed_size());
    for_each_tensor(
        [&](size_t raw, size_t packed, size_t n) { std::copy_n(raw_.data() + raw, n, out.values.data() + packed); });
    ckpt_ready_ = false;
    return true;
  }
  void continue_from(const Series& s, const TrainCheckpoint* c, const std::string& backend) {
    if (recorded_ != 0) throw ArgumentError("a run can continue another backend's work only before its first step");
    if (text_) throw ArgumentError("data = text: a text run cannot continue another backend's work");
    if (s.from != 0) throw ArgumentError("the run's document must hold its series from step 1 (\"from\": 0)");
    const int held = static_cast<int>(s.loss.size());
    if (held > cfg_.steps)
      throw ArgumentError("the run's document holds " + std::to_string(held) + " steps; the run has " +
                          std::to_string(cfg_.steps));
    for (int t = 1; t <= held; ++t)
      if (s.lr[t - 1] != static_cast<float>(scheduled_lr(cfg_, t)))
        throw ArgumentError("the run's document has another learning-rate schedule than this run (step " +
                            std::to_string(t) + ")");
    if (s.status != RunStatus::Running) {  // finished there: taken as it is
      const bool stopped = s.status != RunStatus::Ok;
      if (held != (stopped ? s.stop_step - 1 : cfg_.steps) || (stopped && s.stop_step > cfg_.steps))
        throw ArgumentError(std::string("the run's document says \"") + to_string(s.status) + "\" but holds " +
                            std::to_string(held) + " steps");
      loss_ = s.loss, grad_norm_ = s.grad_norm, lr_ = s.lr;
      status_ = s.status, stop_step_ = stopped ? s.stop_step : 0;
      recorded_ = scheduled_ = stopped ? s.stop_step : cfg_.steps;
      handoff_ = {backend, recorded_};
      return;
    }
    if (!c || c->step == 0) return;  // nothing to continue from: the run starts at step 1 here
    if (c->step < 0 || c->step > held)
      throw ArgumentError("the checkpoint is of step " + std::to_string(c->step) + ", but the run's document holds " +
                          std::to_string(held) + " steps");
    if (c->values.size() != packed_size())
      throw ArgumentError("the checkpoint holds " + std::to_string(c->values.size()) +
                          " values; this run's model and " + "optimizer need " + std::to_string(packed_size()));
    const size_t n = model_.params().size();
    raw_.assign(n * (1 + opt_state_.size()), 0.f);
    for_each_tensor(
        [&](size_t raw, size_t packed, size_t k) { std::copy_n(c->values.data() + packed, k, raw_.data() + raw); });
    B::write_array(model_.params(), raw_.data());
    for (size_t j = 0; j < opt_state_.size(); ++j) B::write_array(opt_state_[j], raw_.data() + (j + 1) * n);
    for (int t = 1; t <= c->step; ++t) sample_batch();
    loss_.assign(s.loss.begin(), s.loss.begin() + c->step);
    grad_norm_.assign(s.grad_norm.begin(), s.grad_norm.begin() + c->step);
    lr_.assign(s.lr.begin(), s.lr.begin() + c->step);
    recorded_ = scheduled_ = c->step;
    if (recorded_ == cfg_.steps) status_ = RunStatus::Ok;
    handoff_ = {backend, c->step};
  }
  const Handoff& handoff() const { return handoff_; }

 private:
  struct Pending {
    int first, count;  // steps first … first + count − 1
    std::unique_ptr<typename B::Readback> read;
  };
  static uint32_t loss_slot(int t) { return 2 * t - 1; }
  static uint32_t norm_slot(int t) { return 2 * t; }

  void record_step() {
    const int t = recorded_ + 1;
    {
      LNX_PROFILE_SCOPE("sample_batch");
      sample_batch();
    }
    gradient_.run(model_, inputs_, targets_, hist_, loss_slot(t), norm_slot(t));
    const size_t n = model_.params().size();
    B::check_step(hist_, 0, loss_slot(t), norm_slot(t), diverge_loss(cfg_));
    with_optimizer(cfg_.optimizer, [&](auto o) {
      using O = decltype(o);
      typename B::Scalar k[O::kCoefficients];
      O::coefficients(cfg_.hyper, scheduled_lr(cfg_, t), t, k);
      typename B::Ptr states[O::kStates];
      for (int j = 0; j < O::kStates; ++j) states[j] = opt_state_[j].data();
      B::template optimizer_update<O>(model_.params().data(), model_.grads().data(), states, n, k, hist_, 0);
    });
    B::flush();
    recorded_ = t;
  }

  void sample_batch() {
    if (text_) text_->sample(batch_rng_, cfg_.model.batch, inputs_, targets_);
    else chain_.sample(batch_rng_, cfg_.model.batch, cfg_.model.seq, inputs_, targets_);
  }

  // The validation loss after the step just recorded (a CPU readback has landed: a stopped run has
  // none): the mean over the held-out windows, a model's batch at a time.
  void evaluate() {
    poll();
    if (status_ != RunStatus::Running && status_ != RunStatus::Ok) return;
    LNX_PROFILE_SCOPE("validation");
    const int chunk = model_.config().batch, count = text_->val_windows(chunk);
    double sum = 0;
    for (int first = 0; first < count; first += chunk) {
      text_->val_batch(first, chunk, count, val_inputs_, val_targets_);
      if constexpr (std::is_arithmetic_v<typename B::Loss>)
        sum += model_.forward(val_inputs_.data(), val_targets_.data());
    }
    val_.step.push_back(recorded_);
    val_.loss.push_back(static_cast<float>(sum / (count / chunk)));
  }

  void schedule_read() {
    if (scheduled_ == recorded_) return;
    const int first = scheduled_ + 1, count = recorded_ - scheduled_;
    reads_.push_back({first, count, B::read(hist_, loss_slot(first), 2 * static_cast<size_t>(count))});
    scheduled_ = recorded_;
  }

  // Moves landed readbacks into the series, in step order, applying the stopping rule.
  void poll() {
    while (!reads_.empty() && B::landed(*reads_.front().read)) {
      const Pending& p = reads_.front();
      for (int i = 0; i < p.count && status_ == RunStatus::Running; ++i) {
        const int t = p.first + i;
        const double l = B::value(*p.read, 2 * i), gn = B::value(*p.read, 2 * i + 1);
        if (!std::isfinite(l) || !std::isfinite(gn) || l > diverge_loss(cfg_)) {
          status_ = std::isfinite(l) && std::isfinite(gn) ? RunStatus::Diverged : RunStatus::NaN;
          stop_step_ = t;
          break;
        }
        loss_.push_back(static_cast<float>(l));
        grad_norm_.push_back(static_cast<float>(gn));
        lr_.push_back(static_cast<float>(scheduled_lr(cfg_, t)));
        if (static_cast<int>(loss_.size()) == cfg_.steps) status_ = RunStatus::Ok;
      }
      reads_.pop_front();
    }
    if (!ckpt_reads_.empty()) {
      bool all = true;
      for (auto& r : ckpt_reads_) all = B::landed(*r) && all;
      if (all && static_cast<int>(loss_.size()) >= ckpt_step_) ckpt_reads_.clear(), ckpt_ready_ = true;
    }
  }

  // Reads the parameters and each optimizer state (padded, as the backend holds them) into raw_.
  void start_checkpoint() {
    const size_t n = model_.params().size();
    raw_.resize(n * (1 + opt_state_.size()));
    ckpt_reads_.push_back(B::read_array(model_.params(), raw_.data()));
    for (size_t j = 0; j < opt_state_.size(); ++j)
      ckpt_reads_.push_back(B::read_array(opt_state_[j], raw_.data() + (j + 1) * n));
    ckpt_step_ = recorded_;
  }
  // f(offset in raw_, offset in the packed checkpoint, count) for every tensor of every array.
  template <class F>
  void for_each_tensor(F&& f) {
    const size_t n = model_.params().size();
    size_t packed = 0;
    const auto tensors = model_.named_tensors();
    for (size_t a = 0; a < 1 + opt_state_.size(); ++a)
      for (const auto& [name, t] : tensors) {
        f(a * n + t.off, packed, t.size());
        packed += t.size();
      }
  }
  size_t packed_size() {
    size_t k = 0;
    for_each_tensor([&](size_t, size_t, size_t c) { k += c; });
    return k;
  }

  TrainConfig cfg_;
  int every_;
  MarkovChain chain_;
  std::shared_ptr<const TextData> text_;  // data = text: the text; else null (the chain)
  Model<B> model_;
  GradientStep<B> gradient_;
  Rng batch_rng_;
  std::vector<typename B::Array> opt_state_;  // the optimizer's state arrays (optim/optimizer.h)
  typename B::Stats hist_;
  std::vector<int> inputs_, targets_;
  std::vector<int> val_inputs_, val_targets_;
  ValSeries val_;
  int recorded_ = 0, scheduled_ = 0;  // steps recorded; steps whose readback is scheduled
  std::deque<Pending> reads_;
  std::vector<float> loss_, grad_norm_, lr_;  // per landed step
  RunStatus status_ = RunStatus::Running;
  int stop_step_ = 0;
  double plateau_ = 0;
  // hand-off: checkpoint period (0 = none), the padded copy being read or waiting to be taken
  int ckpt_every_ = 0, ckpt_step_ = 0;
  bool ckpt_ready_ = false;
  std::vector<float> raw_;
  std::vector<std::unique_ptr<typename B::ArrayRead>> ckpt_reads_;
  Handoff handoff_;
};

}  // namespace lnx::detail
