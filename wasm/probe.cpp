// probe.cpp — the init-time measurements behind Figures 2 and 3 (ProbeRun in api.h).
//
// For each placement the config names, and each seed: a model of `layers` layers at initialization
// sees `batches` batches of fresh random tokens with targets t ↦ (t+1) mod V (a learnable rule, so
// the averaged gradient is not pure noise). Per layer it records the W² gradient two ways — the
// paper's statistic (average the gradient over batches, then the Frobenius norm; Xiong et al. §3.4 /
// Fig. 3) and Theorem 1's (the mean over batches of each batch's norm) — and the residual-stream
// length ‖h‖²/d averaged over tokens and batches (the FFN sublayer's residual sum: Post-LN x5, the
// input of LN2; Pre-LN the layer output x_l; Lemma 2). Then, for each depth, only the last layer's
// W² gradient (`depth_batches` batches; backward stops there).
// Models of the same seed draw the same random numbers whatever their placement: the same initial
// weights (before a placement's init scale) and the same batches.
#include <cmath>
#include <map>
#include <memory>

#include "api.h"
#include "configs.h"
#include "json.h"
#include "model.h"
#include "probe_common.h"
#include "rng.h"
#include "stats.h"

namespace lnx {
namespace {

double frobenius(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x * x;
  return std::sqrt(s);
}

}  // namespace

namespace detail {

ProbePlan::ProbePlan(const ProbeConfig& cfg) {
  for (const std::string& placement : cfg.placements)
    for (int s = 0; s < cfg.seeds; ++s) {
      jobs.push_back({placement, s, cfg.model.layers, cfg.batches, false});
      for (int L : cfg.depths) jobs.push_back({placement, s, L, cfg.depth_batches, true});
    }
  for (const ProbeJob& j : jobs) {
    // A depth-sweep batch is a forward pass plus a short backward; a full one roughly 3 forwards.
    job_cost.push_back(j.layers * (j.depth_sweep ? 1.0 : 3.0));
    total_cost += job_cost.back() * j.batches;
  }
}

std::string probe_result_json(const ProbeConfig& cfg, const std::map<std::string, std::vector<SeedResult>>& results,
                              const char* backend) {
  json::Writer w;
  w.begin_object();
  w.key("engine").begin_object().key("version").value(engine_version()).key("build").value(build_flavour());
  w.key("threads").value(threads());
  if (backend) w.key("backend").value(backend);
  w.end_object();
  const ModelConfig& m = cfg.model;
  w.key("config").begin_object();
  config::write_fields(w, cfg);
  w.key("targets").value("(t+1) mod V");
  w.end_object();
  for (const std::string& name : cfg.placements) {
    const auto& seeds = results.at(name);
    auto per_layer = [&](const char* key, std::vector<double> SeedResult::*field) {
      std::vector<double> mean, sd;
      for (int l = 0; l < m.layers; ++l) {
        std::vector<double> xs;
        for (const SeedResult& s : seeds) xs.push_back((s.*field)[l]);
        MeanStd ms = mean_std(xs);
        mean.push_back(ms.mean);
        sd.push_back(ms.std);
      }
      w.key(key).begin_object().key("mean").array(mean.begin(), mean.end());
      w.key("std").array(sd.begin(), sd.end()).end_object();
    };
    auto scalar = [&](const char* key, const std::vector<double>& xs) {
      MeanStd ms = mean_std(xs);
      w.key(key).begin_object().key("mean").value(ms.mean).key("std").value(ms.std).end_object();
    };
    w.key(name).begin_object();
    per_layer("W2_per_layer", &SeedResult::w2_paper);
    per_layer("W2_per_batch", &SeedResult::w2_batch);
    per_layer("norm2_over_d", &SeedResult::norm2);
    std::vector<double> gains;  // √d/‖h_L‖ with ‖h_L‖² = d·(norm2 of the last layer)
    for (const SeedResult& s : seeds) gains.push_back(1.0 / std::sqrt(s.norm2.back()));
    scalar("final_ln_gain", gains);
    std::vector<double> lo, hi;  // Lemma 2: (1 + l/2) d ≤ E‖x_l‖² ≤ (1 + 3l/2) d
    for (int l = 1; l <= m.layers; ++l) lo.push_back(1 + l / 2.0), hi.push_back(1 + 1.5 * l);
    w.key("lemma2_band").begin_object().key("lo").array(lo.begin(), lo.end());
    w.key("hi").array(hi.begin(), hi.end()).end_object();
    w.key("lastW2_vs_L").begin_object();
    for (int L : cfg.depths) {
      std::vector<double> paper, batch;
      for (const SeedResult& s : seeds) {
        paper.push_back(s.last_w2.at(L).first);
        batch.push_back(s.last_w2.at(L).second);
      }
      w.key(std::to_string(L)).begin_object();
      scalar("W2_per_layer", paper);
      scalar("W2_per_batch", batch);
      w.end_object();
    }
    w.end_object();
    w.end_object();
  }
  w.end_object();
  return w.str();
}

void probe_batch(Rng& rng, int N, int V, std::vector<int>& tokens, std::vector<int>& targets) {
  tokens.resize(N);
  targets.resize(N);
  for (int r = 0; r < N; ++r) {
    tokens[r] = static_cast<int>(rng.below(static_cast<uint32_t>(V)));
    targets[r] = (tokens[r] + 1) % V;
  }
}

}  // namespace detail

struct ProbeRun::Impl {
  ProbeConfig cfg;
  detail::ProbePlan plan;  // the jobs in order, and their relative costs
  double done_cost = 0;
  size_t job = 0;
  int batch = 0;
  std::unique_ptr<Transformer<float>> model;
  std::unique_ptr<Rng> batch_rng;
  std::vector<int> tokens, targets;
  std::vector<std::vector<double>> acc;  // per measured layer: Σ over batches of ∂ℒ/∂W² (d·F)
  std::vector<double> batch_norm_sum, norm2_sum;
  std::map<std::string, std::vector<detail::SeedResult>> results;

  explicit Impl(const ProbeConfig& c) : cfg((c.validate(), c)), plan(cfg) {
    for (const std::string& p : cfg.placements) results[p].resize(cfg.seeds);
  }

  void start_job() {
    const detail::ProbeJob& j = plan.jobs[job];
    ModelConfig mc = cfg.model;
    mc.placement = j.placement;
    mc.layers = j.layers;
    model.reset();  // free the previous model before allocating the next
    model = std::make_unique<Transformer<float>>(mc, static_cast<uint64_t>(j.seed_index));
    batch_rng = std::make_unique<Rng>(stream_seed(static_cast<uint64_t>(j.seed_index), kStreamBatches));
    const size_t wsize = static_cast<size_t>(mc.d) * mc.d_ff;
    const int measured = j.depth_sweep ? 1 : j.layers;
    acc.assign(measured, std::vector<double>(wsize, 0.0));
    batch_norm_sum.assign(measured, 0.0);
    norm2_sum.assign(j.layers, 0.0);
  }

  void run_batch() {
    const detail::ProbeJob& j = plan.jobs[job];
    const ModelConfig& mc = model->config();
    const int N = mc.batch * mc.seq, V = mc.vocab, d = mc.d;
    detail::probe_batch(*batch_rng, N, V, tokens, targets);
    model->zero_grad();
    model->forward(tokens.data(), targets.data());
    model->backward(j.depth_sweep ? GradScope::LastW2Only : GradScope::W2Only);
    const int first = j.depth_sweep ? j.layers - 1 : 0;
    for (int m = 0; m < static_cast<int>(acc.size()); ++m) {
      const float* g = model->grad(model->layer(first + m).W2);
      double ss = 0;
      for (size_t i = 0; i < acc[m].size(); ++i) {
        acc[m][i] += g[i];
        ss += static_cast<double>(g[i]) * g[i];
      }
      batch_norm_sum[m] += std::sqrt(ss);
    }
    if (!j.depth_sweep)
      for (int l = 0; l < j.layers; ++l) {
        const float* h = model->stream(l);
        double ss = 0;
        for (size_t i = 0; i < static_cast<size_t>(N) * d; ++i) ss += static_cast<double>(h[i]) * h[i];
        norm2_sum[l] += ss / d / N;  // ‖h‖²/d averaged over the N tokens
      }
  }

  void finish_job() {
    const detail::ProbeJob& j = plan.jobs[job];
    detail::SeedResult& r = results[j.placement][j.seed_index];
    const double nb = j.batches;
    if (j.depth_sweep) {
      for (double& x : acc[0]) x /= nb;
      r.last_w2[j.layers] = {frobenius(acc[0]), batch_norm_sum[0] / nb};
    } else {
      for (int l = 0; l < j.layers; ++l) {
        for (double& x : acc[l]) x /= nb;
        r.w2_paper.push_back(frobenius(acc[l]));
        r.w2_batch.push_back(batch_norm_sum[l] / nb);
        r.norm2.push_back(norm2_sum[l] / nb);
      }
    }
    model.reset();
    acc.clear();
  }

  double step(int batches) {
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

  double progress() const { return job >= plan.jobs.size() ? 1.0 : done_cost / plan.total_cost; }

  std::string json() const {
    if (job < plan.jobs.size()) throw ArgumentError("probe result requested before the probe is done");
    return detail::probe_result_json(cfg, results, nullptr);
  }
};

ProbeRun::ProbeRun(const ProbeConfig& cfg) : impl_(std::make_unique<Impl>(cfg)) {}
ProbeRun::~ProbeRun() = default;
double ProbeRun::step(int batches) {
  if (batches < 1) throw ArgumentError("step(batches): batches must be >= 1");
  return impl_->step(batches);
}
bool ProbeRun::done() const { return impl_->job >= impl_->plan.jobs.size(); }
double ProbeRun::progress() const { return impl_->progress(); }
std::string ProbeRun::result_json() const { return impl_->json(); }

std::string run_probe_json(const ProbeConfig& cfg) {
  ProbeRun run(cfg);
  while (!run.done()) run.step(1 << 20);
  return run.result_json();
}

}  // namespace lnx
