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

std::string probe_result_json(const ProbeConfig& cfg, const ProbeResults& results, const char* backend,
                              const ProbeHandoff* handoff) {
  json::Writer w;
  w.begin_object();
  detail::write_engine(w, backend);
  if (handoff && handoff->jobs > 0)
    w.key("handoff")
        .begin_object()
        .key("backend")
        .value(handoff->backend)
        .key("jobs")
        .value(static_cast<long long>(handoff->jobs))
        .key("of")
        .value(static_cast<long long>(handoff->of))
        .end_object();
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

namespace {
// Doubles to the last bit (the document's own numbers keep 9 digits; a hand-off must not round).
json::Writer& exact_array(json::Writer& w, const std::vector<double>& xs) {
  w.begin_array();
  for (double x : xs) w.exact(x);
  return w.end_array();
}
double number_or_nan(const json::Value& v, const std::string& what) {
  if (v.kind == json::Value::Kind::Null) return std::nan("");  // written for a non-finite value
  if (v.kind != json::Value::Kind::Number) throw ArgumentError(what + " must be a number");
  return v.num;
}
std::vector<double> numbers(const json::Value& obj, const char* key, const std::string& where) {
  const auto it = obj.obj.find(key);
  if (it == obj.obj.end() || it->second.kind != json::Value::Kind::Array)
    throw ArgumentError(where + " has no list \"" + key + "\"");
  std::vector<double> out;
  for (const json::Value& v : it->second.arr) out.push_back(number_or_nan(v, where + "." + key));
  return out;
}
}  // namespace

std::string probe_handoff_json(const ProbeConfig& cfg, const ProbeResults& results, size_t jobs) {
  json::Writer w;
  w.begin_object().key("jobs").value(static_cast<long long>(jobs)).key("seeds").begin_object();
  for (const std::string& p : cfg.placements) {
    w.key(p).begin_array();
    for (const SeedResult& s : results.at(p)) {
      w.begin_object();
      exact_array(w.key("w2_paper"), s.w2_paper);
      exact_array(w.key("w2_batch"), s.w2_batch);
      exact_array(w.key("norm2"), s.norm2);
      w.key("last_w2").begin_array();
      for (const auto& [L, v] : s.last_w2) w.begin_array().value(L).exact(v.first).exact(v.second).end_array();
      w.end_array().end_object();
    }
    w.end_array();
  }
  w.end_object().end_object();
  return w.str();
}

size_t probe_handoff_read(const std::string& text, const ProbeConfig& cfg, const ProbePlan& plan, ProbeResults& out) {
  const json::Value doc = json::parse(text);
  if (doc.kind != json::Value::Kind::Object) throw ArgumentError("a probe hand-off must be a JSON object");
  json::reject_unknown_keys(doc, {"jobs", "seeds"});
  int jobs = 0;
  json::read_int(doc, "jobs", jobs, 0, static_cast<long>(plan.jobs.size()));
  // What the plan's first `jobs` jobs measure, per placement and seed: the per-layer lists of the
  // full model, and one entry per depth of the sweep.
  ProbeResults want;
  for (const std::string& p : cfg.placements) want[p].resize(cfg.seeds.size());
  for (int j = 0; j < jobs; ++j) {
    const ProbeJob& job = plan.jobs[static_cast<size_t>(j)];
    SeedResult& r = want[job.placement][static_cast<size_t>(job.seed_index)];
    if (job.depth_sweep) r.last_w2[job.layers] = {0, 0};
    else r.w2_paper.resize(static_cast<size_t>(job.layers));
  }
  const auto seeds = doc.obj.find("seeds");
  if (seeds == doc.obj.end() || seeds->second.kind != json::Value::Kind::Object)
    throw ArgumentError("a probe hand-off has no \"seeds\" object");
  json::reject_unknown_keys(seeds->second, cfg.placements);
  out.clear();
  for (const std::string& p : cfg.placements) {
    const auto list = seeds->second.obj.find(p);
    if (list == seeds->second.obj.end() || list->second.kind != json::Value::Kind::Array ||
        list->second.arr.size() != cfg.seeds.size())
      throw ArgumentError("the probe hand-off's \"" + p + "\" must list " + std::to_string(cfg.seeds.size()) +
                          " seeds");
    for (size_t i = 0; i < cfg.seeds.size(); ++i) {
      const json::Value& v = list->second.arr[i];
      const std::string where = "hand-off " + p + " seed " + std::to_string(i);
      if (v.kind != json::Value::Kind::Object) throw ArgumentError(where + " must be an object");
      json::reject_unknown_keys(v, {"w2_paper", "w2_batch", "norm2", "last_w2"});
      SeedResult r;
      r.w2_paper = numbers(v, "w2_paper", where);
      r.w2_batch = numbers(v, "w2_batch", where);
      r.norm2 = numbers(v, "norm2", where);
      const auto sweep = v.obj.find("last_w2");
      if (sweep == v.obj.end() || sweep->second.kind != json::Value::Kind::Array)
        throw ArgumentError(where + " has no list \"last_w2\"");
      for (const json::Value& e : sweep->second.arr) {
        if (e.kind != json::Value::Kind::Array || e.arr.size() != 3 || e.arr[0].kind != json::Value::Kind::Number)
          throw ArgumentError(where + ": each last_w2 entry is [depth, paper, per batch]");
        r.last_w2[static_cast<int>(e.arr[0].num)] = {number_or_nan(e.arr[1], where), number_or_nan(e.arr[2], where)};
      }
      const SeedResult& w = want[p][i];
      bool fits = r.w2_paper.size() == w.w2_paper.size() && r.w2_batch.size() == w.w2_paper.size() &&
                  r.norm2.size() == w.w2_paper.size() && r.last_w2.size() == w.last_w2.size();
      for (const auto& [L, unused] : w.last_w2) fits = fits && r.last_w2.count(L);
      if (!fits)
        throw ArgumentError(where + " does not hold what this probe's first " + std::to_string(jobs) +
                            " jobs measure (a hand-off from another probe?)");
      out[p].push_back(std::move(r));
    }
  }
  return static_cast<size_t>(jobs);
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
std::string ProbeRun::handoff_json() const { return impl_->handoff_json(); }
void ProbeRun::continue_from(const std::string& handoff_json, const std::string& backend) {
  impl_->continue_from(handoff_json, backend);
}

std::string run_probe_json(const ProbeConfig& cfg) {
  ProbeRun run(cfg);
  while (!run.done()) run.step(1 << 20);
  return run.result_json();
}

}  // namespace lnx
