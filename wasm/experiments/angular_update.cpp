// angular_update.cpp — `angular-update`: how far does each step turn the weights? (the angular-update
// view of warm-up, Kosson et al. 2024 "Rotational equilibrium", Kalra & Barkeshli 2024 "Why warmup the
// learning rate?": warm-up limits the early angular updates; the article's claim 10, "DeepNorm works in
// the same direction as Pre-LN's final LN" (同上, 推断), one explanation of which this tests.)
//
// Toy runs over placements × warm-ups × seeds (the float training run of train_run.h, unchanged). For
// every step t and every weight-matrix group of a layer (its attention weights Wq, Wk, Wv as one
// vector; its FFN weights W1, W2 as another; biases and norm gains left out), from the group's
// parameters before the step, W_t, and after it, W_{t+1}, in double:
//   angle    ∠(W_t, W_{t+1}) = arccos(⟨W_t, W_{t+1}⟩ / (‖W_t‖·‖W_{t+1}‖)), computed as
//            2·atan2(‖Ŵ_t − Ŵ_{t+1}‖, ‖Ŵ_t + Ŵ_{t+1}‖) (Ŵ = W/‖W‖: the same angle, without arccos's
//            loss of digits near 1, so a step of 1e-6 rad reads as such and an unchanged group as 0)
//   relative ‖W_{t+1} − W_t‖ / ‖W_t‖
// Adam's first step moves every coordinate by ≈ lr(1), so the first angle is ≈ lr(1)·√n/‖W‖ for any
// placement with the same init; what the placements change is how the steps after it add up, and
// DeepNorm's smaller branch init (β < 1) makes ‖W‖ smaller. A run that stops (NaN, diverged) keeps
// the steps measured before it. One unit of work is one training step of one run.
// Leaves out: the embedding, the output matrix and the norms' gains (no weight matrix of a layer), the
// angle of each matrix apart (a group is one vector), and the effective learning rate a norm after a
// matrix gives it (Kosson et al.'s equilibrium needs weight decay, which the engine has not).
#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "../api.h"
#include "../config_fields.h"
#include "../configs.h"
#include "../train_access.h"
#include "experiment.h"
#include "measure.h"

namespace lnx::exp {

// ---- the measurement (external linkage: tests/cpp/experiment_test.cpp declares and checks it) ----

// One group of a model's weights: the tensors it is made of.
struct WeightGroup {
  std::string name;  // "layer3.attn", "layer3.ffn"
  std::vector<TensorRef> tensors;
};

// Every layer's two groups, in layer order: attention (Wq, Wk, Wv) then FFN (W1, W2).
std::vector<WeightGroup> weight_groups(const Transformer<float>& m) {
  std::vector<WeightGroup> out;
  for (int l = 1; l <= m.config().layers; ++l) {
    const std::string p = "layer" + std::to_string(l) + ".";
    WeightGroup attn{p + "attn", {}}, ffn{p + "ffn", {}};
    for (const auto& [name, t] : m.named_tensors()) {
      if (name == p + "Wq" || name == p + "Wk" || name == p + "Wv") attn.tensors.push_back(t);
      if (name == p + "W1" || name == p + "W2") ffn.tensors.push_back(t);
    }
    out.push_back(std::move(attn)), out.push_back(std::move(ffn));
  }
  return out;
}

// The angle between a group's weights in `a` and in `b` (radians, in [0, π]) and ‖b − a‖/‖a‖, in
// double (the header's formulas). 0 and 0 for two equal groups; NaN for a zero group.
void angular_update(const std::vector<float>& a, const std::vector<float>& b, const WeightGroup& g, double& angle,
                    double& relative) {
  double aa = 0, bb = 0, dd = 0;
  for (const TensorRef& t : g.tensors)
    for (size_t i = t.off; i < t.off + t.size(); ++i) {
      const double x = a[i], y = b[i];
      aa += x * x, bb += y * y, dd += (y - x) * (y - x);
    }
  const double na = std::sqrt(aa), nb = std::sqrt(bb);
  double minus = 0, plus = 0;
  for (const TensorRef& t : g.tensors)
    for (size_t i = t.off; i < t.off + t.size(); ++i) {
      const double x = a[i] / na, y = b[i] / nb;
      minus += (x - y) * (x - y), plus += (x + y) * (x + y);
    }
  angle = 2 * std::atan2(std::sqrt(minus), std::sqrt(plus));
  relative = std::sqrt(dd) / na;
}

namespace {

struct AngularUpdate {
  static constexpr const char* kName = "angular-update";
  static constexpr const char* kDoc =
      "toy runs over placements x warm-ups x seeds: at every step, per layer, the angle by which the step turns the "
      "attention weights (Wq, Wk, Wv) and the FFN weights (W1, W2), arccos(<W_t, W_t+1>/(|W_t| |W_t+1|)), and the "
      "relative update |W_t+1 - W_t|/|W_t|; the loss per step";
  static constexpr const char* kClaim =
      "DeepNorm works in the same direction as Pre-LN's final LN (inferred); one explanation to test: its early "
      "angular "
      "updates without warm-up are Pre-LN's size, below Post-LN's (Kosson et al. 2024; Kalra & Barkeshli 2024: warm-up "
      "limits angular updates)";

  struct Config {
    TrainConfig base = [] {
      TrainConfig t;  // Figure 4's toy model, its first 100 steps
      t.steps = 100;
      return t;
    }();
    std::vector<std::string> placements = {"post", "pre", "deepnorm"};
    std::vector<int> warmups = {0, 100};
    std::vector<uint64_t> seeds = {0, 1, 2};
  };

  // The runs' axes: placement-major, then warm-up, seed.
  static std::array<size_t, 3> axes_of(const Config& c) {
    return {c.placements.size(), c.warmups.size(), c.seeds.size()};
  }

  static void fields(schema::Schema<Config>& s) {
    using namespace config;
    add_model_fields(s, false);
    add_shared_train_fields(s);
    add_run_fields(s, {"warmup", "seed"});  // lr: the peak
    add_placements_field(s, "the placements");
    add_warmups_field(s, 8);
    add_seeds_field(s, "seeds, one run each", 8);
    add_runs_rule<AngularUpdate>(s, 64, "the experiment");
    s.rules.push_back({"early_steps", "at most 1000 steps: every step of every group is recorded",
                       [](const Config& c) {
                         if (c.base.steps > 1000)
                           throw ArgumentError(
                               "steps = " + std::to_string(c.base.steps) +
                               ": at most 1000 allowed (the experiment records every step of every layer)");
                       },
                       nullptr});
    s.rules.push_back({"model_fits_in_memory",
                       "the model, its gradients, the optimizer's state and a copy fit in 1 GiB",
                       [](const Config& c) { check_size(c.base.model, 3, "model", kModelKnobs); }, nullptr});
    s.rules.push_back({"warmup_longer_than_run", "a warm-up longer than the run never reaches the peak lr", nullptr,
                       [](const Config& c) { return warmup_warnings(c.warmups, c.base.steps); }});
  }

  struct Run {
    std::string placement, status = "running";
    int warmup = 0, stop_step = 0;
    uint64_t seed = 0;
    std::vector<std::vector<float>> angle, relative;  // [group][step]
    std::vector<float> loss;
  };

  explicit AngularUpdate(const Config& c) : cfg_(c) {}

  void step_once() {
    if (!run_) start();
    Run& r = out_.back();
    const std::vector<float>& p = detail::TrainRunAccess::model(*run_).params();
    before_ = p;
    run_->step(1);
    ++units_;
    const bool stopped = run_->status() == RunStatus::NaN || run_->status() == RunStatus::Diverged;
    if (!stopped)
      for (size_t g = 0; g < groups_.size(); ++g) {
        double a, rel;
        angular_update(before_, p, groups_[g], a, rel);
        r.angle[g].push_back(static_cast<float>(a));
        r.relative[g].push_back(static_cast<float>(rel));
      }
    if (run_->status() != RunStatus::Running) finish();
  }
  bool done() const { return next_ >= run_count_of(axes_of(cfg_)) && !run_; }
  double progress() const {
    return done() ? 1.0
                  : std::min(0.999, units_ / (static_cast<double>(run_count_of(axes_of(cfg_))) * cfg_.base.steps));
  }

  void write(json::Writer& w) const {
    w.key("groups").begin_array();
    for (const std::string& g : group_names_) w.value(g);
    w.end_array();
    w.key("runs").begin_array();
    for (const Run& r : out_) {
      w.begin_object().key("placement").value(r.placement).key("warmup").value(r.warmup);
      w.key("seed")
          .value(static_cast<double>(r.seed))
          .key("status")
          .value(r.status)
          .key("stop_step")
          .value(r.stop_step);
      w.key("angle").rows(r.angle).key("relative").rows(r.relative);
      w.key("loss").array(r.loss.begin(), r.loss.end());
      w.end_object();
    }
    w.end_array();
  }

 private:
  // Run `next_`, in the order of axes_of.
  void start() {
    const auto [p, wu, s] = run_indices(next_++, axes_of(cfg_));
    Run r;
    r.placement = cfg_.placements[p], r.warmup = cfg_.warmups[wu], r.seed = cfg_.seeds[s];
    TrainConfig t = cfg_.base;
    t.model.placement = r.placement, t.warmup = r.warmup, t.seed = r.seed;
    run_ = std::make_unique<TrainRun>(t);
    groups_ = weight_groups(detail::TrainRunAccess::model(*run_));
    if (group_names_.empty())
      for (const WeightGroup& g : groups_) group_names_.push_back(g.name);
    r.angle.resize(groups_.size()), r.relative.resize(groups_.size());
    out_.push_back(std::move(r));
  }

  void finish() {
    Run& r = out_.back();
    r.status = to_string(run_->status());
    r.stop_step = run_->stop_step();
    r.loss = run_->loss();
    units_ += cfg_.base.steps - run_->steps_done();  // a run that stopped early counts as done
    run_.reset();
  }

  Config cfg_;
  std::unique_ptr<TrainRun> run_;
  std::vector<WeightGroup> groups_;
  std::vector<std::string> group_names_;
  std::vector<float> before_;
  size_t next_ = 0;
  double units_ = 0;
  std::vector<Run> out_;
};

}  // namespace

ExperimentInfo angular_update_info() { return info_of<AngularUpdate>(); }

}  // namespace lnx::exp
