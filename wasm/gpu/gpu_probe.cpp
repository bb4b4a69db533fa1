// gpu_probe.cpp — the init-time probe on the GPU; see gpu_probe.h.
#include "gpu_probe.h"

#include <cmath>
#include <deque>
#include <map>

#include "../model.h"
#include "../probe_common.h"
#include "../rng.h"
#include "device.h"
#include "gpu_backend.h"
#include "kernels.h"

namespace lnx::gpu {
namespace {

// Stats buffer layout of one job with M measured layers and L layers:
//   [0, M) Σ_batches ‖∂ℒ/∂W²‖ ; [M, 2M) ‖Σ_batches ∂ℒ/∂W²‖ ; [2M, 2M+L) Σ_batches ‖h_l‖²/(d·N) ;
//   [2M+L] the loss (written, never read)
struct JobRead {
  size_t job;
  Buffer stats;  // kept alive until the copy has run
  uint32_t ticket;
  std::vector<float> data;
};

}  // namespace

struct GpuProbeRun::Impl {
  ProbeConfig cfg;
  detail::ProbePlan plan;
  double done_cost = 0;
  size_t job = 0;
  int batch = 0;
  std::unique_ptr<Model<GpuBackend>> model;
  std::unique_ptr<Rng> batch_rng;
  std::vector<int> tokens, targets;
  std::vector<Array> acc;  // per measured layer: Σ over batches of ∂ℒ/∂W² (d·F)
  Buffer stats;
  int M = 0, L = 0;
  std::deque<std::unique_ptr<JobRead>> reads;
  std::map<std::string, std::vector<detail::SeedResult>> results;

  explicit Impl(const ProbeConfig& c) : cfg((c.validate(), c)), plan(cfg) {
    for (const std::string& p : cfg.placements) results[p].resize(cfg.seeds);
  }
  ~Impl() {
    for (auto& r : reads) forget(r->ticket);
  }

  void start_job() {
    const detail::ProbeJob& j = plan.jobs[job];
    ModelConfig mc = cfg.model;
    mc.placement = j.placement;
    mc.layers = j.layers;
    model.reset();
    acc.clear();
    model = std::make_unique<Model<GpuBackend>>(mc, static_cast<uint64_t>(j.seed_index));
    batch_rng = std::make_unique<Rng>(stream_seed(static_cast<uint64_t>(j.seed_index), kStreamBatches));
    M = j.depth_sweep ? 1 : j.layers;
    L = j.layers;
    for (int m = 0; m < M; ++m) acc.emplace_back(static_cast<size_t>(mc.d) * mc.d_ff);
    stats = Buffer((2 * M + L + 1) * 4);
  }

  void run_batch() {
    const detail::ProbeJob& j = plan.jobs[job];
    const ModelConfig& mc = model->config();
    const int N = mc.batch * mc.seq, V = mc.vocab, d = mc.d;
    const size_t dF = static_cast<size_t>(d) * mc.d_ff;
    detail::probe_batch(*batch_rng, N, V, tokens, targets);
    const Ptr s = at(stats);
    GpuBackend::set_loss_target(s, 2 * M + L);
    model->forward(tokens.data(), targets.data());  // uploads the tokens: one submit per batch
    model->zero_grad();
    model->backward(j.depth_sweep ? GradScope::LastW2Only : GradScope::W2Only);
    const int first = j.depth_sweep ? j.layers - 1 : 0;
    for (int m = 0; m < M; ++m) {
      const Ptr g = model->grad(model->layer(first + m).W2);
      accumulate(acc[m].data(), g, dF);
      sumsq(s, m, g, dF, 1.f, true, true);  // Σ ‖g‖
    }
    if (!j.depth_sweep)
      for (int l = 0; l < L; ++l)  // Σ ‖h‖²/d averaged over the N tokens
        sumsq(s, 2 * M + l, model->stream(l), static_cast<size_t>(N) * d, 1.f / (static_cast<float>(d) * N), false,
              true);
    submit();
  }

  void finish_job() {
    const size_t dF = static_cast<size_t>(model->config().d) * model->config().d_ff;
    const Ptr s = at(stats);
    for (int m = 0; m < M; ++m) sumsq(s, M + m, acc[m].data(), dF, 1.f, true, false);  // ‖Σ g‖
    auto r = std::make_unique<JobRead>();
    r->job = job;
    r->data.resize(2 * M + L);
    r->ticket = read(stats, 0, r->data.size() * 4, r->data.data());
    r->stats = std::move(stats);
    reads.push_back(std::move(r));
    model.reset();
    acc.clear();
  }

  void poll() {
    while (!reads.empty()) {
      JobRead& r = *reads.front();
      const int state = read_state(r.ticket);
      if (state == 0) break;
      if (state < 0) {
        check();
        throw DeviceError("a GPU readback failed");
      }
      const detail::ProbeJob& j = plan.jobs[r.job];
      detail::SeedResult& out = results[j.placement][j.seed_index];
      const double nb = j.batches;
      const int m_count = j.depth_sweep ? 1 : j.layers;
      if (j.depth_sweep) {
        out.last_w2[j.layers] = {r.data[m_count] / nb, r.data[0] / nb};
      } else {
        for (int l = 0; l < j.layers; ++l) {
          out.w2_paper.push_back(r.data[m_count + l] / nb);
          out.w2_batch.push_back(r.data[l] / nb);
          out.norm2.push_back(r.data[2 * m_count + l] / nb);
        }
      }
      reads.pop_front();
    }
  }

  double step(int batches) {
    poll();
    check();
    for (int k = 0; k < batches && job < plan.jobs.size(); ++k) {
      if (batch == 0) start_job();
      run_batch();
      done_cost += plan.job_cost[job];
      if (++batch == plan.jobs[job].batches) {
        finish_job();
        ++job;
        batch = 0;
      }
    }
    return progress();
  }

  bool done() {
    poll();
    return job >= plan.jobs.size() && reads.empty();
  }
  double progress() {
    if (done()) return 1.0;
    return std::min(done_cost / plan.total_cost, 0.999);
  }
};

GpuProbeRun::GpuProbeRun(const ProbeConfig& cfg) {
  check();
  impl_ = std::make_unique<Impl>(cfg);
}
GpuProbeRun::~GpuProbeRun() = default;
double GpuProbeRun::step(int batches) {
  if (batches < 1) throw ArgumentError("step(batches): batches must be >= 1");
  return impl_->step(batches);
}
bool GpuProbeRun::done() { return impl_->done(); }
double GpuProbeRun::progress() { return impl_->progress(); }
std::string GpuProbeRun::result_json() {
  if (!impl_->done()) throw ArgumentError("probe result requested before the probe is done");
  return detail::probe_result_json(impl_->cfg, impl_->results, "webgpu");
}

}  // namespace lnx::gpu
