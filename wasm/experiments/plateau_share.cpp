// plateau_share.cpp — `plateau-share`: is Post-LN's stall a frequency-only plateau? (玩具规模上的
// 同一个现象: measured, no mechanism given.)
//
// A model on the plateau predicts the chain's stationary frequencies whatever the context, which it
// can do with a hidden state that is the same for every token. So per layer, every `every` steps of
// a Figure-4 run (and at step 0), on one fixed batch of the chain: the token-specific share of the
// residual stream after the layer (model.h's stream(): the FFN sublayer's sum, before any norm that
// follows it),
//   s = 1 − ‖mean over tokens of h‖² / (mean over tokens of ‖h‖²),
// 0 when every token's h is the same vector, 1 when the tokens' states average to zero. The runs:
// placements × warm-ups at the config's lr, seed and optimizer; each run also carries its loss curve.
#include <algorithm>
#include <cmath>
#include <memory>

#include "../api.h"
#include "../config_fields.h"
#include "../configs.h"
#include "../markov.h"
#include "../train_access.h"
#include "experiment.h"
#include "measure.h"

namespace lnx::exp {
namespace {

struct PlateauShare {
  static constexpr const char* kName = "plateau-share";
  static constexpr const char* kDoc =
      "Figure-4 runs that record, every k steps and per layer, the token-specific share of the hidden state on a fixed "
      "batch: s = 1 - |mean_tokens h|^2 / mean_tokens |h|^2";
  static constexpr const char* kClaim =
      "Post-LN's failure is a frequency-only plateau, not divergence (measured, no mechanism given)";

  struct Config {
    TrainConfig base;
    std::vector<std::string> placements = {"post", "pre"};
    std::vector<int> warmups = {0, 300};
    int every = 10;
  };

  static void fields(schema::Schema<Config>& s) {
    using namespace config;
    add_model_fields(s, false);
    add_shared_train_fields(s);
    add_run_fields(s, {"warmup"});
    add_placements_field(s, "the placements");
    add_warmups_field(s, 8, "warm-up lengths, one run each");
    schema::add_field(s, schema::int_spec("every", 1, kMaxSteps, "record the share every k steps"),
                      &own_member<Config, &Config::every>);
    s.rules.push_back({"model_fits_in_memory",
                       "the model, its gradients, the optimizer's state and a copy fit in 1 GiB",
                       [](const Config& c) { check_size(c.base.model, 3, "model", kModelKnobs); }, nullptr});
    s.rules.push_back({"recordings", "at most 2000 recordings per run",
                       [](const Config& c) {
                         if (c.base.steps / c.every > 2000)
                           throw ArgumentError("steps / every = " + std::to_string(c.base.steps / c.every) +
                                               " recordings per run; at most 2000 allowed (raise every)");
                       },
                       nullptr});
  }

  struct Run {
    std::string placement, status = "running";
    int warmup;
    std::vector<int> at;                     // steps of the recordings (0 = init)
    std::vector<std::vector<double>> share;  // [recording][layer]
    std::vector<float> loss;
  };

  explicit PlateauShare(const Config& c) : cfg_(c), chain_(c.base.model.vocab, c.base.successors, c.base.chain_seed) {
    Rng rng(stream_seed(c.base.seed, kStreamFixedBatch));
    chain_.sample(rng, c.base.model.batch, c.base.model.seq, in_, tg_);
    for (const auto& p : c.placements)
      for (int w : c.warmups) runs_.push_back({p, "running", w, {}, {}, {}});
  }

  // A unit: one training step of the current run (plus a recording when it falls due).
  void step_once() {
    Run& r = runs_[cur_];
    if (!run_) {
      TrainConfig t = cfg_.base;
      t.model.placement = r.placement;
      t.warmup = r.warmup;
      run_ = std::make_unique<TrainRun>(t);
      eval_ = std::make_unique<Transformer<float>>(t.model, t.seed);
      record(r, 0);
    }
    run_->step(1);
    const int t = run_->steps_done();
    if (t % cfg_.every == 0 && run_->status() != RunStatus::NaN) record(r, t);
    if (run_->status() != RunStatus::Running) {
      r.status = to_string(run_->status());
      r.loss = run_->loss();
      run_.reset(), eval_.reset(), ++cur_;
    }
  }
  bool done() const { return cur_ >= runs_.size(); }
  double progress() const {
    if (done()) return 1.0;
    const double got = cur_ * static_cast<double>(cfg_.base.steps) + (run_ ? run_->steps_done() : 0);
    return std::min(0.999, got / (static_cast<double>(cfg_.base.steps) * runs_.size()));
  }

  void write(json::Writer& w) const {
    w.key("plateau_entropy").value(chain_.stationary_entropy());
    w.key("runs").begin_array();
    for (const Run& r : runs_) {
      w.begin_object().key("placement").value(r.placement).key("warmup").value(r.warmup).key("status").value(r.status);
      w.key("at").array(r.at.begin(), r.at.end());
      w.key("share").rows(r.share);
      w.key("loss").array(r.loss.begin(), r.loss.end());
      w.end_object();
    }
    w.end_array();
  }

 private:
  void record(Run& r, int t) {
    eval_->params() = detail::TrainRunAccess::model(*run_).params();
    eval_->forward(in_.data(), tg_.data());
    const ModelConfig& mc = eval_->config();
    const int N = mc.batch * mc.seq, d = mc.d;
    std::vector<double> row;
    std::vector<double> mean(d);
    for (int l = 0; l < mc.layers; ++l) {
      const float* h = eval_->stream(l);
      std::fill(mean.begin(), mean.end(), 0.0);
      double sq = 0;
      for (int i = 0; i < N; ++i)
        for (int j = 0; j < d; ++j) {
          const double x = h[static_cast<size_t>(i) * d + j];
          mean[j] += x, sq += x * x;
        }
      double m2 = 0;
      for (double x : mean) m2 += (x / N) * (x / N);
      row.push_back(sq > 0 ? 1 - m2 / (sq / N) : NAN);
    }
    r.at.push_back(t);
    r.share.push_back(std::move(row));
  }

  Config cfg_;
  MarkovChain chain_;
  std::vector<int> in_, tg_;
  std::vector<Run> runs_;
  size_t cur_ = 0;
  std::unique_ptr<TrainRun> run_;
  std::unique_ptr<Transformer<float>> eval_;
};

}  // namespace

ExperimentInfo plateau_share_info() { return info_of<PlateauShare>(); }

}  // namespace lnx::exp
