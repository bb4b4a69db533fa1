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
#include "probe_run.h"
#include "rng.h"
#include "stats.h"
#include "train_common.h"

namespace lnx {
namespace detail {

ProbePlan::ProbePlan(const ProbeConfig& cfg) {
  for (const std::string& placement : cfg.placements)
    for (size_t s = 0; s < cfg.seeds.size(); ++s) {
      const int i = static_cast<int>(s);
      jobs.push_back({placement, i, cfg.seeds[s], cfg.model.layers, cfg.batches, false});
      for (int L : cfg.depths) jobs.push_back({placement, i, cfg.seeds[s], L, cfg.depth_batches, true});
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
  detail::write_engine(w, backend);
  const ModelConfig& m = cfg.model;
  w.key("config").begin_object();
  config::write_fields(w, cfg);
  w.key("targets").value("(t+1) mod V");
  w.end_object();
  w.key("placements").begin_object();
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

struct ProbeRun::Impl : detail::ProbeRunner<CpuBackend<float>> {
  using ProbeRunner::ProbeRunner;
};

ProbeRun::ProbeRun(const ProbeConfig& cfg) : impl_(std::make_unique<Impl>(cfg)) {}
ProbeRun::~ProbeRun() = default;
double ProbeRun::step(int batches) {
  if (batches < 1) throw ArgumentError("step(batches): batches must be >= 1");
  return impl_->step(batches);
}
bool ProbeRun::done() const { return impl_->done(); }
double ProbeRun::progress() const { return impl_->progress(); }
std::string ProbeRun::result_json() const { return impl_->result_json(nullptr); }

std::string run_probe_json(const ProbeConfig& cfg) {
  ProbeRun run(cfg);
  while (!run.done()) run.step(1 << 20);
  return run.result_json();
}

}  // namespace lnx
