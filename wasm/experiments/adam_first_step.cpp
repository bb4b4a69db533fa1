// adam_first_step.cpp — `adam-first-step`: what Adam does with Theorem 1's gradient scale.
//
// The article infers (梯度尺度和 Adam 之间隔着一层, 【推断】) that Adam's first step moves every
// coordinate by about lr whatever the gradient's size: with m̂₁ = g₁ and v̂₁ = g₁², the step is
// −lr·g/(|g| + ε) ≈ −lr·sign(g), so Post-LN's and Pre-LN's √L gap in ‖g‖ does not become a gap in
// step size. Per placement this records, for the first `steps` steps of a toy run: the update's RMS
// over every coordinate divided by the step's lr (for Adam the RMS of m̂/(√v̂ + ε)), the gradient norm,
// each tensor's ‖Δθ‖/(lr·√n), and for step 1 the loss change on its own batch next to the
// first-order predictions −lr·‖g‖₁ (a pure sign step) and g·Δθ (the step actually taken).
//
// Its counterfactuals (issue 30, item 4: where does "the first step ≈ lr·sign(g)" stop holding?): the
// runs are placements × optimizers, and a placement may come from a JSON spec (`placement_spec`, e.g.
// the `rezero` preset, whose gate g₀ = 0 zeroes every branch weight's gradient at init, so Adam's
// m̂₁ = 0 and that weight's first step is 0, not ±lr), and any registered optimizer may run (GI-Adam,
// v₀ = g₁²: its first step is lr·|g|/(|g|/√(1−β₂) + ε) ≈ √(1−β₂)·lr per coordinate). So that a reader
// can see which coordinates had a gradient to take a sign of, each tensor also records its step-1
// gradient RMS and the share of its coordinates whose step-1 gradient is exactly 0.
#include <algorithm>
#include <cmath>
#include <memory>

#include "../api.h"
#include "../config_fields.h"
#include "../configs.h"
#include "../optim/registry.h"
#include "../train_access.h"
#include "../train_common.h"
#include "experiment.h"
#include "measure.h"

namespace lnx::exp {
namespace {

// The registry's optimizer settings, one field per name, for a config that runs a list of optimizers
// (`optimizers`): a setting applies to each listed optimizer that declares it, and one set away from
// its default must be declared by every listed optimizer (else some runs would silently ignore it).
template <class C>
void add_list_hyperparameter_fields(schema::Schema<C>& s) {
  using namespace config;
  std::vector<std::string> seen;
  for (const OwnedHyperparameter& oh : all_hyperparameters()) {
    if (std::find(seen.begin(), seen.end(), oh.h.name) != seen.end()) continue;
    seen.push_back(oh.h.name);
    schema::add_field(s, schema::number_spec(oh.h.name, oh.h.min, oh.h.max, oh.h.min_exclusive, oh.h.doc),
                      &hyperparameter<C>);
  }
  s.rules.push_back({"hyperparameters_match_optimizers",
                     "a setting away from its default belongs to every listed optimizer",
                     [](const C& c) {
                       for (const OwnedHyperparameter& oh : all_hyperparameters()) {
                         if (c.base.hyper.at(oh.h.name) == oh.h.value) continue;
                         for (const std::string& o : c.optimizers) {
                           bool declared = false;
                           for (const OwnedHyperparameter& o2 : all_hyperparameters())
                             declared |= o2.optimizer == o && std::string(o2.h.name) == oh.h.name;
                           if (!declared)
                             throw ArgumentError(std::string(oh.h.name) + " is not a setting of " + o +
                                                 ", which optimizers lists (set it only with optimizers that have it)");
                         }
                       }
                     },
                     nullptr});
}

struct AdamFirstStep {
  static constexpr const char* kName = "adam-first-step";
  static constexpr const char* kDoc =
      "per placement, the first steps of a toy run: update RMS / lr, gradient norm, per-tensor |dtheta|/(lr*sqrt(n)), "
      "and step 1's loss change against -lr*|g|_1; runs over placements x optimizers";
  static constexpr const char* kClaim =
      "Adam's first step moves every coordinate by about lr whatever the gradient's scale, so Theorem 1's sqrt(L) gap "
      "does not become a step-size gap (inferred)";

  struct Config {
    TrainConfig base = [] {
      TrainConfig t;
      t.steps = 50;
      return t;
    }();
    std::vector<std::string> placements = {"post", "pre"};
    std::vector<std::string> optimizers = {"adam"};
  };

  // The runs' axes: each placement's runs side by side, one per optimizer.
  static std::array<size_t, 2> axes_of(const Config& c) { return {c.placements.size(), c.optimizers.size()}; }

  static void fields(schema::Schema<Config>& s) {
    using namespace config;
    add_model_fields(s, false);
    add_placement_spec_field(s);
    add_steps_field(s);
    add_warmup_shape_field(s);
    add_chain_fields(s);
    schema::add_field(s,
                      schema::choice_list_spec("optimizers", optimizer_names, 8,
                                               "the optimizers, one run per placement each (a setting below applies "
                                               "to each listed optimizer that declares it)"),
                      &own_member<Config, &Config::optimizers>);
    add_list_hyperparameter_fields(s);
    add_run_fields(s);
    add_spec_placements_field(s, 16, "the placements (placement_spec's name too), one run per optimizer each");
    s.rules.push_back({"runs", "at most 16 runs (placements x optimizers)",
                       [](const Config& c) {
                         const size_t n = run_count_of(axes_of(c));
                         if (n > 16)
                           throw ArgumentError("placements x optimizers is " + std::to_string(n) +
                                               " runs; at most 16 allowed");
                       },
                       nullptr});
    s.rules.push_back({"steps_recorded", "at most 1000 steps (every tensor's series is kept)",
                       [](const Config& c) {
                         if (c.base.steps > 1000)
                           throw ArgumentError("steps = " + std::to_string(c.base.steps) +
                                               " is out of range [1, 1000] for " + kName);
                       },
                       nullptr});
    s.rules.push_back({"model_fits_in_memory", "the model, its gradients and the optimizer's state fit in 1 GiB",
                       [](const Config& c) { check_size(c.base.model, 3, "model", kModelKnobs); }, nullptr});
  }

  struct Series {
    std::string placement, optimizer, status = "running";
    std::vector<std::string> names;
    std::vector<size_t> sizes;
    std::vector<double> grad_rms1, zero_grad_share1;  // per tensor, at step 1
    std::vector<double> update_rms, grad_norm, lr;
    std::vector<std::vector<double>> per_tensor;  // [tensor][step]
    double loss_before = NAN, loss_after = NAN, pred_sign = NAN, pred_linear = NAN, grad_l1 = NAN;
  };

  explicit AdamFirstStep(const Config& c) : cfg_(c) {}

  void step_once() {
    if (!run_) start();
    one_step();
  }
  bool done() const { return out_.size() == run_count_of(axes_of(cfg_)) && !run_; }
  double progress() const {
    const double per = cfg_.base.steps;
    const double got = (out_.size() - (run_ ? 1 : 0)) * per + (run_ ? out_.back().lr.size() : 0);
    return done() ? 1.0 : std::min(0.999, got / (per * run_count_of(axes_of(cfg_))));
  }

  void write(json::Writer& w) const {
    w.key("runs").begin_array();
    for (const Series& s : out_) {
      w.begin_object();
      w.key("placement").value(s.placement).key("optimizer").value(s.optimizer);
      w.key("status").value(s.status);
      w.key("update_rms").array(s.update_rms.begin(), s.update_rms.end());
      w.key("grad_norm").array(s.grad_norm.begin(), s.grad_norm.end());
      w.key("lr_schedule").array(s.lr.begin(), s.lr.end());
      w.key("tensors").begin_array();
      for (size_t i = 0; i < s.names.size(); ++i) {
        w.begin_object().key("name").value(s.names[i]).key("size").value(static_cast<long long>(s.sizes[i]));
        w.key("grad_rms1").value(i < s.grad_rms1.size() ? s.grad_rms1[i] : NAN);
        w.key("zero_grad_share1").value(i < s.zero_grad_share1.size() ? s.zero_grad_share1[i] : NAN);
        w.key("step_over_lr").array(s.per_tensor[i].begin(), s.per_tensor[i].end()).end_object();
      }
      w.end_array();
      w.key("first_step").begin_object();
      w.key("loss_before").value(s.loss_before).key("loss_after").value(s.loss_after);
      w.key("loss_change").value(s.loss_after - s.loss_before);
      w.key("grad_l1").value(s.grad_l1);
      w.key("predicted_sign_step").value(s.pred_sign).key("predicted_linear").value(s.pred_linear);
      w.end_object();
      w.end_object();
    }
    w.end_array();
  }

 private:
  void start() {
    const auto [p, o] = run_indices(out_.size(), axes_of(cfg_));
    TrainConfig t = cfg_.base;
    detail::set_run_placement(t.model, cfg_.placements[p]);
    t.optimizer = cfg_.optimizers[o];
    run_ = std::make_unique<TrainRun>(t);
    eval_ = std::make_unique<Transformer<float>>(t.model, t.seed);
    Series s;
    s.placement = t.model.placement;
    s.optimizer = t.optimizer;
    for (const auto& [name, ref] : eval_->named_tensors()) {
      s.names.push_back(name);
      s.sizes.push_back(ref.size());
      refs_.push_back(ref);
    }
    s.per_tensor.resize(refs_.size());
    out_.push_back(std::move(s));
  }

  // The loss of the full batch `in`/`out` at parameters p (on a model of the config's own shape).
  double loss_at(const std::vector<float>& p, const std::vector<int>& in, const std::vector<int>& tg) {
    eval_->params() = p;
    return eval_->forward(in.data(), tg.data());
  }

  void one_step() {
    Series& s = out_.back();
    Transformer<float>& m = detail::TrainRunAccess::model(*run_);
    const std::vector<float> before = m.params();
    const int t = static_cast<int>(s.lr.size()) + 1;
    run_->step(1);
    if (run_->steps_done() < t) {  // the step stopped the run (nan or diverged): its update is not recorded
      s.status = to_string(run_->status());
      finish();
      return;
    }
    const double lr = run_->lr()[t - 1];
    const std::vector<float>& after = m.params();
    const std::vector<float>& g = m.grads();
    double sum_sq = 0, n_all = 0;
    for (size_t i = 0; i < refs_.size(); ++i) {
      double ss = 0;
      for (size_t j = refs_[i].off; j < refs_[i].off + refs_[i].size(); ++j) {
        const double d = static_cast<double>(after[j]) - before[j];
        ss += d * d;
      }
      s.per_tensor[i].push_back(std::sqrt(ss / refs_[i].size()) / lr);
      sum_sq += ss, n_all += refs_[i].size();
    }
    s.update_rms.push_back(std::sqrt(sum_sq / n_all) / lr);
    s.grad_norm.push_back(run_->grad_norm()[t - 1]);
    s.lr.push_back(lr);
    if (t == 1) {
      const auto& in = detail::TrainRunAccess::last_inputs(*run_);
      const auto& tg = detail::TrainRunAccess::last_targets(*run_);
      s.loss_before = loss_at(before, in, tg);
      s.loss_after = loss_at(after, in, tg);
      s.grad_l1 = l1_norm(g, refs_);
      s.pred_sign = -lr * s.grad_l1;
      double lin = 0;
      for (const TensorRef& r : refs_)
        for (size_t j = r.off; j < r.off + r.size(); ++j)
          lin += static_cast<double>(g[j]) * (static_cast<double>(after[j]) - before[j]);
      s.pred_linear = lin;
      for (const TensorRef& r : refs_) {
        double ss = 0, zeros = 0;
        for (size_t j = r.off; j < r.off + r.size(); ++j) ss += static_cast<double>(g[j]) * g[j], zeros += g[j] == 0.0f;
        s.grad_rms1.push_back(std::sqrt(ss / r.size()));
        s.zero_grad_share1.push_back(zeros / r.size());
      }
    }
    if (run_->status() != RunStatus::Running) {
      s.status = to_string(run_->status());
      finish();
    }
  }

  void finish() {
    run_.reset();
    eval_.reset();
    refs_.clear();
  }

  Config cfg_;
  std::unique_ptr<TrainRun> run_;
  std::unique_ptr<Transformer<float>> eval_;
  std::vector<TensorRef> refs_;
  std::vector<Series> out_;
};

}  // namespace

ExperimentInfo adam_first_step_info() { return info_of<AdamFirstStep>(); }

}  // namespace lnx::exp
