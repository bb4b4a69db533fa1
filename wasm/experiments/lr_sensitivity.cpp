// lr_sensitivity.cpp — `lr-sensitivity`: final loss against peak lr per placement, and the largest
// attention logit over steps (Wortsman et al. 2023, arXiv 2309.14322: at high learning rates the
// attention logits of a Pre-LN Transformer grow and its loss degrades; a LayerNorm on q and k, the
// `qknorm` preset, keeps them bounded and lowers the LR sensitivity; issue 30, item 5).
//
// Runs: placements × peak lrs × seeds, each the Figure-4 toy run (TrainRun, trainer.cpp) at the
// config's warm-up, advanced in parallel over the pool (one step each per unit of work, as in
// phase-diagram; each run draws its model and batches from its own seed, so its numbers are the same
// for any thread count). Per run:
//   loss0        the loss at init: the mean cross-entropy of the initial weights over kEvalBatches
//                fixed batches of the chain (stream kStreamFixedBatch of the run's seed; the same
//                batches for every lr, so the same ℓ₀ for every lr of a placement and seed);
//   final_loss   the same loss of the final weights on the same batches (null when the trainer
//                stopped the run: a non-finite loss or one above 4·ln V);
//   max_logit    the largest attention logit (measure.h max_attention_logit: max over layers,
//                sequences, rows and the columns they see of |q·k|/√d) of the forward pass of step t
//                on step t's training batch, the weights after t − 1 updates, at step 1 (the init),
//                every `every` steps, the last step and the step the trainer stopped it at; `at`
//                lists those steps;
//   curve        its training loss, decimated to at most 100 bucket means (as phase-diagram's).
// Per placement: ℓ₀ (the seeds' mean), the capped loss per lr (the seeds' mean of min(final, ℓ₀),
// a stopped run counting as ℓ₀), the best capped loss and its lr, and the LR sensitivity of that
// curve (measure.h lr_sensitivity: the mean over the lrs of the capped loss minus the best), also
// per seed.
#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>

#include "../api.h"
#include "../config_fields.h"
#include "../configs.h"
#include "../json.h"
#include "../placements/presets.h"
#include "../thread_pool.h"
#include "../train_access.h"
#include "../train_common.h"
#include "experiment.h"
#include "measure.h"

namespace lnx::exp {
namespace {

constexpr int kEvalBatches = 4;  // fixed batches for ℓ₀ and the final loss
constexpr size_t kMaxRuns = 128;
constexpr int kMaxRecordings = 1000;

struct LrSensitivity {
  static constexpr const char* kName = "lr-sensitivity";
  static constexpr const char* kDoc =
      "toy runs over placements x peak lrs x seeds: the final loss on fixed batches against the peak lr, Wortsman et "
      "al.'s LR sensitivity E_lr[min(loss, loss0) - best], and the largest attention logit |q.k|/sqrt(d) every k steps";
  static constexpr const char* kClaim =
      "a LayerNorm on q and k (QK-norm) lowers Pre-LN's sensitivity to the learning rate and keeps its attention "
      "logits bounded (Wortsman et al. 2023; beyond the article, after its Pre-LN / large-lr discussion)";

  struct Config {
    TrainConfig base = [] {
      TrainConfig t;
      t.model.layers = 4;
      t.steps = 300;
      t.warmup = 15;
      t.model.placement_spec = qknorm_spec();
      return t;
    }();
    std::vector<std::string> placements = {"pre", "qknorm"};
    std::vector<double> lrs = {3e-4, 1e-3, 3e-3, 1e-2, 3e-2, 0.1, 0.3};
    std::vector<uint64_t> seeds = {0};
    int every = 10;
  };

  // The `qknorm` preset (placements/presets/qknorm.json), the default placement_spec.
  static const std::string& qknorm_spec() {
    static const std::string spec = [] {
      for (const PlacementPreset& p : placement_presets())
        if (p.name == "qknorm") return p.spec;
      throw std::logic_error("lr-sensitivity: the qknorm preset is missing");
    }();
    return spec;
  }

  // The runs' axes (runs_ lists them in this order).
  static std::array<size_t, 3> axes_of(const Config& c) { return {c.placements.size(), c.lrs.size(), c.seeds.size()}; }

  static void fields(schema::Schema<Config>& s) {
    using namespace config;
    add_model_fields(s, false);
    add_placement_spec_field(s);
    add_shared_train_fields(s);
    add_run_fields(s, {"lr", "seed"});
    schema::add_field(
        s, schema::choice_list_spec("placements", placement_names, 4, "the placements (placement_spec's name too)"),
        &own_member<Config, &Config::placements>, &spec_choice<Config>);
    // a spec no run uses is refused (config_fields.h add_spec_used_rule), but for the default one:
    // placements ["pre"] runs Pre-LN alone
    s.rules.push_back(
        {"placement_spec_is_used",
         "a placement_spec's placement is one the config runs (by its name), but for the default (qknorm)",
         [](const Config& c) {
           if (c.base.model.placement_spec == qknorm_spec()) return;
           const std::vector<std::string> name = spec_choice(c);
           if (!name.empty() && std::find(c.placements.begin(), c.placements.end(), name[0]) == c.placements.end())
             throw ArgumentError("placement_spec defines the placement \"" + name[0] +
                                 "\", which placements does not name (add \"" + name[0] + "\" to it)");
         },
         nullptr});
    schema::add_field(
        s,
        schema::number_list_spec("lrs", 0, 10, true, 12,
                                 "the peak learning rates (a log-spaced grid: the sensitivity is their mean)"),
        &own_member<Config, &Config::lrs>);
    add_seeds_field(s, "seeds, one run per placement and lr each", 8);
    schema::add_field(s, schema::int_spec("every", 1, kMaxSteps, "record the largest attention logit every k steps"),
                      &own_member<Config, &Config::every>);
    add_runs_rule<LrSensitivity>(s, kMaxRuns, kName, " (placements x lrs x seeds)");
    s.rules.push_back({"recordings", "at most 1000 logit recordings per run",
                       [](const Config& c) {
                         if (c.base.steps / c.every > kMaxRecordings)
                           throw ArgumentError("steps / every = " + std::to_string(c.base.steps / c.every) +
                                               " recordings per run; at most 1000 allowed (raise every)");
                       },
                       nullptr});
    s.rules.push_back({"model_fits_in_memory",
                       "the model, its gradients, the optimizer's state and a copy fit in 1 GiB",
                       [](const Config& c) { check_size(c.base.model, 3, "model", kModelKnobs); }, nullptr});
    s.rules.push_back({"warmup_reaches_peak", "a warm-up longer than the run is allowed, with a warning", nullptr,
                       [](const Config& c) { return warmup_warnings({c.base.warmup}, c.base.steps); }});
  }

  struct Run {
    size_t placement, lr;
    uint64_t seed;
    std::unique_ptr<TrainRun> run;
    std::unique_ptr<Transformer<float>> eval;  // the run's shape: evaluates ℓ₀, the final loss, the logits
    std::vector<int> in, tg;                   // kEvalBatches fixed batches, one after the other
    bool finished = false;
    std::string status;  // "ok", "nan", "diverged"
    int stop_step = 0;
    double loss0 = NAN, final_loss = NAN;
    std::vector<int> at;
    std::vector<double> logit;
    std::vector<float> loss;
  };

  explicit LrSensitivity(const Config& c) : cfg_(c) {
    for (size_t p = 0; p < c.placements.size(); ++p)
      for (size_t i = 0; i < c.lrs.size(); ++i)
        for (uint64_t s : c.seeds) runs_.push_back(Run{p, i, s, nullptr, nullptr, {}, {}});
    total_ = static_cast<double>(runs_.size()) * c.base.steps;
    plateau_ = MarkovChain(c.base.model.vocab, c.base.successors, c.base.chain_seed).stationary_entropy();
  }

  // A unit: one step of each live run (up to the pool's size, started in run order), in parallel.
  void step_once() {
    const size_t width = static_cast<size_t>(std::max(1, pool().size()));
    while (live_.size() < width && next_ < runs_.size()) live_.push_back(&start(runs_[next_++]));
    pool().parallel_for(static_cast<long>(live_.size()), [&](long a, long b, int) {
      for (long i = a; i < b; ++i) advance(*live_[i]);
    });
    for (Run* r : live_) {
      done_ += 1;
      if (r->finished) done_ += cfg_.base.steps - r->stop_step, r->run.reset(), r->eval.reset();
    }
    live_.erase(std::remove_if(live_.begin(), live_.end(), [](const Run* r) { return r->finished; }), live_.end());
  }
  bool done() const { return next_ >= runs_.size() && live_.empty(); }
  double progress() const { return done() ? 1.0 : std::min(0.999, done_ / total_); }

  void write(json::Writer& w) const {
    const double V = cfg_.base.model.vocab;
    w.key("plateau_entropy").value(plateau_);
    w.key("uniform_loss").value(std::log(V));
    w.key("eval_batches").value(kEvalBatches);
    w.key("placements").begin_array();
    for (size_t p = 0; p < cfg_.placements.size(); ++p) write_placement(w, p);
    w.end_array();
    w.key("runs").begin_array();
    for (const Run& r : runs_) write_run(w, r);
    w.end_array();
  }

 private:
  Run& start(Run& r) const {
    TrainConfig t = cfg_.base;
    detail::set_run_placement(t.model, cfg_.placements[r.placement]);
    t.lr = cfg_.lrs[r.lr];
    t.seed = r.seed;
    r.run = std::make_unique<TrainRun>(t);
    r.eval = std::make_unique<Transformer<float>>(t.model, t.seed);
    const MarkovChain chain(t.model.vocab, t.successors, t.chain_seed);
    Rng rng(stream_seed(r.seed, kStreamFixedBatch));
    std::vector<int> in, tg;
    for (int k = 0; k < kEvalBatches; ++k) {
      chain.sample(rng, t.model.batch, t.model.seq, in, tg);
      r.in.insert(r.in.end(), in.begin(), in.end());
      r.tg.insert(r.tg.end(), tg.begin(), tg.end());
    }
    return r;
  }

  // The mean loss of the eval model's weights over the fixed batches.
  static double eval_loss(Run& r) {
    const size_t per = r.in.size() / kEvalBatches;
    double s = 0;
    for (int k = 0; k < kEvalBatches; ++k) s += r.eval->forward(r.in.data() + k * per, r.tg.data() + k * per);
    return s / kEvalBatches;
  }

  // One step of a run: ℓ₀ before its first, the logit of the step's forward pass when it falls due
  // (the weights before the step, on the step's batch), the final loss when the run ends.
  void advance(Run& r) const {
    Transformer<float>& model = detail::TrainRunAccess::model(*r.run);
    if (r.run->steps_done() == 0) {
      r.eval->params() = model.params();
      r.loss0 = eval_loss(r);
    }
    const int t = r.run->steps_done() + 1;
    r.eval->params() = model.params();  // the weights step t's forward pass sees
    r.run->step(1);
    const RunStatus s = r.run->status();
    if (t == 1 || t % cfg_.every == 0 || s != RunStatus::Running) {
      r.eval->forward(detail::TrainRunAccess::last_inputs(*r.run).data(),
                      detail::TrainRunAccess::last_targets(*r.run).data());
      r.at.push_back(t);
      r.logit.push_back(max_attention_logit(*r.eval));
    }
    if (s == RunStatus::Running) return;
    r.finished = true;
    r.status = to_string(s);
    r.loss = r.run->loss();
    r.stop_step = r.run->stop_step() > 0 ? r.run->stop_step() : t;
    if (s == RunStatus::Ok) {
      r.eval->params() = model.params();
      r.final_loss = eval_loss(r);
    }
  }

  static double capped(const Run& r) { return std::isfinite(r.final_loss) ? std::min(r.final_loss, r.loss0) : r.loss0; }

  void write_placement(json::Writer& w, size_t p) const {
    const size_t S = cfg_.seeds.size();
    std::vector<double> loss0s, curve;  // curve: the seeds' mean capped loss per lr
    std::vector<std::vector<double>> per_seed(S);
    w.begin_object().key("placement").value(cfg_.placements[p]);
    w.key("cells").begin_array();
    for (size_t i = 0; i < cfg_.lrs.size(); ++i) {
      std::vector<double> finals, caps;
      int stopped = 0;
      double logit = 0, logit0 = 0;
      for (size_t k = 0; k < S; ++k) {
        const Run& r = runs_[(p * cfg_.lrs.size() + i) * S + k];
        if (i == 0) loss0s.push_back(r.loss0);
        if (std::isfinite(r.final_loss)) finals.push_back(r.final_loss);
        else ++stopped;
        caps.push_back(capped(r));
        per_seed[k].push_back(r.final_loss);
        for (double x : r.logit)
          if (std::isfinite(x)) logit = std::max(logit, x);
        if (!r.logit.empty() && std::isfinite(r.logit[0])) logit0 = std::max(logit0, r.logit[0]);
      }
      curve.push_back(mean_std(caps).mean);
      w.begin_object().key("lr").value(cfg_.lrs[i]);
      w.key("final_loss");
      if (finals.empty()) w.null();
      else w.value(mean_std(finals).mean);
      w.key("capped_loss").value(curve.back()).key("stopped").value(stopped);
      w.key("max_logit").value(logit).key("logit_at_init").value(logit0);
      w.end_object();
    }
    w.end_array();
    const double loss0 = mean_std(loss0s).mean;
    const size_t best = static_cast<size_t>(std::min_element(curve.begin(), curve.end()) - curve.begin());
    w.key("loss0").value(loss0).key("best_loss").value(curve[best]).key("best_lr").value(cfg_.lrs[best]);
    w.key("sensitivity").value(lr_sensitivity(curve, loss0));
    w.key("sensitivity_per_seed").begin_array();
    for (size_t k = 0; k < S; ++k) w.value(lr_sensitivity(per_seed[k], loss0s[k]));
    w.end_array();
    w.end_object();
  }

  void write_run(json::Writer& w, const Run& r) const {
    w.begin_object().key("placement").value(cfg_.placements[r.placement]).key("lr").value(cfg_.lrs[r.lr]);
    w.key("seed").value(r.seed).key("status").value(r.status).key("stop_step").value(r.stop_step);
    w.key("loss0").value(r.loss0).key("final_loss").value(r.final_loss);  // null when stopped
    w.key("at").array(r.at.begin(), r.at.end());
    w.key("max_logit").array(r.logit.begin(), r.logit.end());
    // The curve: means of `every` consecutive recorded losses, to 1e-4 (measure.h write_curve).
    const size_t every = curve_every(r.loss.size());
    w.key("curve_every").value(static_cast<int>(every));
    w.key("curve");
    write_curve(w, r.loss, every);
    w.end_object();
  }

  Config cfg_;
  std::vector<Run> runs_;
  size_t next_ = 0;
  std::vector<Run*> live_;
  double plateau_ = 0, done_ = 0, total_ = 0;
};

}  // namespace

ExperimentInfo lr_sensitivity_info() { return info_of<LrSensitivity>(); }

}  // namespace lnx::exp
