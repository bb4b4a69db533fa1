// probe_run.h — the init-time probe of Figures 2 and 3 (probe.cpp says what it measures), written
// once over a backend B: CpuBackend<float> for ProbeRun (probe.cpp), gpu::GpuBackend for GpuProbeRun
// (gpu/gpu_probe.cpp). The backend's run-statistics ops (op_interface.h) do the sums: doubles summed
// in a fixed order on the CPU, a device buffer read back asynchronously on the GPU.
//
// Per job (a placement, a seed and a depth), the statistics of M measured layers and L layers sit in
// one small Stats array:
//   [0, M)        Σ_batches ‖∂ℒ/∂W²‖          (Theorem 1's statistic, before dividing by the count)
//   [M, 2M)       ‖mean_batches ∂ℒ/∂W²‖       (the paper's, from the accumulated gradient)
//   [2M, 2M+L)    Σ_batches ‖h_l‖²/(d·N)       (the residual stream of Lemma 2)
//   [2M+L]        the loss (written on the GPU, never read)
// When a job ends its Stats are read back; the readback lands at once on the CPU and after the
// device got there on the GPU (poll()), and only then joins the results. A batch's passes use the
// whole pool op by op on the CPU, and its statistics (one sum per measured layer and per stream,
// each in its own order) are computed several at once (for_each_item).
// Leaves out: several jobs' models at once.
#pragma once
#include <algorithm>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "model.h"
#include "probe_common.h"
#include "rng.h"
#include "thread_pool.h"

namespace lnx::detail {

// f(0), …, f(n − 1) for items that share nothing: on the CPU over the pool (one chain of double adds
// per item, several chains at once: the same sums in the same order on any number of threads), on a
// backend that records commands (the GPU's) in order.
template <class B>
struct RunsItemsAtOnce : std::false_type {};
template <class T>
struct RunsItemsAtOnce<CpuBackend<T>> : std::true_type {};

template <class B, class F>
void for_each_item(int n, const F& f) {
  if constexpr (RunsItemsAtOnce<B>::value) {
    pool().parallel_for(n, [&](long i0, long i1, int) {
      for (long i = i0; i < i1; ++i) f(static_cast<int>(i));
    });
  } else {
    for (int i = 0; i < n; ++i) f(i);
  }
}

template <class B>
class ProbeRunner {
 public:
  explicit ProbeRunner(const ProbeConfig& c) : cfg_((c.validate(), c)), plan_(cfg_) {
    for (const std::string& p : cfg_.placements) results_[p].resize(cfg_.seeds.size());
  }

  // Records up to `batches` forward/backward passes; returns the progress.
  double step(int batches) {
    poll();
    for (int k = 0; k < batches && job_ < plan_.jobs.size(); ++k) {
      if (batch_ == 0) start_job();
      run_batch();
      done_cost_ += plan_.job_cost[job_];
      if (++batch_ == plan_.jobs[job_].batches) {
        finish_job();
        ++job_;
        batch_ = 0;
      }
    }
    poll();
    return progress();
  }

  // Every job recorded and every job's statistics landed.
  bool done() {
    poll();
    return job_ >= plan_.jobs.size() && reads_.empty();
  }
  double progress() { return done() ? 1.0 : std::min(done_cost_ / plan_.total_cost, 0.999); }

  std::string result_json(const char* backend) {
    if (!done()) throw ArgumentError("probe result requested before the probe is done");
    return probe_result_json(cfg_, results_, backend, &handoff_);
  }

  // The jobs whose statistics have joined the results (a prefix of the plan), without polling: after
  // a lost device this is what the GPU got to.
  std::string handoff_json() const { return probe_handoff_json(cfg_, results_, landed_); }

  // Before the first step: the first jobs as `backend` measured them (api.h ProbeRun::continue_from).
  void continue_from(const std::string& json, const std::string& backend) {
    if (job_ != 0 || batch_ != 0)  // nothing recorded yet, so nothing landed either
      throw ArgumentError("continue_from: a probe continues another only before its first step");
    ProbeResults got;
    const size_t jobs = probe_handoff_read(json, cfg_, plan_, got);
    results_ = std::move(got);
    job_ = landed_ = jobs;
    for (size_t j = 0; j < jobs; ++j) done_cost_ += plan_.job_cost[j] * plan_.jobs[j].batches;
    handoff_ = {backend, jobs, plan_.jobs.size()};
  }

 private:
  using Stats = typename B::Stats;
  struct Pending {
    size_t job;
    Stats stats;  // kept until its readback has landed
    std::unique_ptr<typename B::Readback> read;
  };

  const ProbeJob& job() const { return plan_.jobs[job_]; }
  int measured() const { return job().depth_sweep ? 1 : job().layers; }

  void start_job() {
    ModelConfig mc = cfg_.model;
    mc.placement = job().placement;
    mc.layers = job().layers;
    model_.reset();  // free the previous model before allocating the next
    acc_.clear();
    model_ = std::make_unique<Model<B>>(mc, job().seed);
    batch_rng_ = std::make_unique<Rng>(stream_seed(job().seed, kStreamBatches));
    for (int m = 0; m < measured(); ++m) acc_.push_back(B::accum(static_cast<size_t>(mc.d) * mc.d_ff));
    stats_ = B::stats(2 * measured() + job().layers + 1);
  }

  void run_batch() {
    const ModelConfig& mc = model_->config();
    const int N = mc.batch * mc.seq, M = measured(), L = job().layers;
    const size_t dF = static_cast<size_t>(mc.d) * mc.d_ff;
    probe_batch(*batch_rng_, N, mc.vocab, tokens_, targets_);
    B::set_loss_target(stats_, 2 * M + L);
    model_->forward(tokens_.data(), targets_.data());  // on the GPU: uploads the tokens, one submit per batch
    model_->zero_grad();
    model_->backward(job().depth_sweep ? GradScope::LastW2Only : GradScope::W2Only);
    const int first = job().depth_sweep ? L - 1 : 0;
    const int streams = job().depth_sweep ? 0 : L;
    // Items 0 … M−1: a measured layer's W² gradient; then the residual stream of each layer. Each
    // item writes only its own slots and sums, in its own fixed order, so the items may run at once.
    for_each_item<B>(M + streams, [&](int i) {
      if (i < M) {
        const auto g = model_->grad(model_->layer(first + i).W2);
        B::accumulate_sum(acc_[i], g, dF);
        B::add_norm(stats_, i, g, dF);
      } else {
        const int l = i - M;
        B::add_mean_square(stats_, 2 * M + l, model_->stream(l), N, mc.d);
      }
    });
    B::flush();
  }

  void finish_job() {
    const int M = measured();
    const size_t dF = static_cast<size_t>(model_->config().d) * model_->config().d_ff;
    for (int m = 0; m < M; ++m) B::norm_of_mean(stats_, M + m, acc_[m], dF, job().batches);
    auto read = B::read(stats_, 0, 2 * M + job().layers);
    reads_.push_back({job_, std::move(stats_), std::move(read)});
    B::flush();
    model_.reset();
    acc_.clear();
  }

  // Moves the statistics of the jobs whose readback has landed into the results, in job order.
  void poll() {
    while (!reads_.empty() && B::landed(*reads_.front().read)) {
      const Pending& p = reads_.front();
      const ProbeJob& j = plan_.jobs[p.job];
      const auto& r = *p.read;
      SeedResult& out = results_[j.placement][j.seed_index];
      const double nb = j.batches;
      const int M = j.depth_sweep ? 1 : j.layers;
      if (j.depth_sweep) {
        out.last_w2[j.layers] = {B::value(r, M), B::value(r, 0) / nb};
      } else {
        for (int l = 0; l < j.layers; ++l) {
          out.w2_paper.push_back(B::value(r, M + l));
          out.w2_batch.push_back(B::value(r, l) / nb);
          out.norm2.push_back(B::value(r, 2 * M + l) / nb);
        }
      }
      reads_.pop_front();
      ++landed_;
    }
  }

  ProbeConfig cfg_;
  ProbePlan plan_;
  double done_cost_ = 0;
  size_t job_ = 0;
  size_t landed_ = 0;  // jobs whose statistics have joined results_
  int batch_ = 0;
  ProbeHandoff handoff_;  // the jobs another backend measured (none: jobs = 0)
  std::unique_ptr<Model<B>> model_;
  std::unique_ptr<Rng> batch_rng_;
  std::vector<int> tokens_, targets_;
  std::vector<typename B::Accum> acc_;  // per measured layer: Σ over batches of ∂ℒ/∂W² (d·F)
  Stats stats_;
  std::deque<Pending> reads_;
  ProbeResults results_;
};

}  // namespace lnx::detail
