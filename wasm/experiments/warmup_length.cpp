// warmup_length.cpp — `warmup-length`: when does Post-LN leave the plateau, against the warm-up's
// length and the optimizer? (the article's reading of the paper's Fig. 4, 【推断】: failure needs both
// large, noisy early updates and output sensitivity; warm-up, RAdam and Pre-LN each remove one.)
//
// The toy runs of placements × optimizers × warm-ups × lr factors × seeds; a run's peak lr is the
// factor times its optimizer's suggested lr (optim/: 1e-3 for Adam and RAdam, so factors 1 and 3
// are the article's 1e-3 and 3e-3; SGD's own scale otherwise). Per run its loss curve and
// `escape_step`, the first step at which the 10-step mean loss is 0.5 below the plateau (null when
// it never is); per group (all but the seed) the escape step of the seed-mean curve; and RAdam's
// rectification r_t per step (optim/radam.h, torch's variant: un-adapted steps while ρ_t ≤ 5).
// Defaults: the quick-look model (docs/reproduction.md, "Quick look"), 400 steps.
#include <algorithm>
#include <cmath>
#include <memory>

#include "../api.h"
#include "../config_fields.h"
#include "../configs.h"
#include "../json.h"
#include "../optim/radam.h"
#include "../optim/registry.h"
#include "experiment.h"
#include "grid_sequence.h"
#include "measure.h"

namespace lnx::exp {
namespace {

struct WarmupLength {
  static constexpr const char* kName = "warmup-length";
  static constexpr const char* kDoc =
      "toy runs over placements x optimizers x warm-up lengths x lr factors x seeds: loss curves, escape steps, and "
      "RAdam's rectification per step";
  static constexpr const char* kClaim =
      "failure needs both large, noisy early updates and output sensitivity; warm-up, RAdam and Pre-LN each remove one "
      "(inferred)";

  struct Config {
    TrainConfig base = quick_look_base(400);
    std::vector<std::string> placements = {"post", "pre"};
    std::vector<std::string> optimizers = {"adam", "radam", "sgd"};
    std::vector<int> warmups = {0, 25, 50, 100, 300};
    std::vector<double> lr_factors = {1, 3};
    std::vector<uint64_t> seeds = {0, 1};
  };

  static void fields(schema::Schema<Config>& s) {
    using namespace config;
    add_model_fields(s, false);
    add_steps_field(s);
    add_warmup_shape_field(s);
    add_chain_fields(s);
    add_placements_field(s, "the placements");
    schema::add_field(
        s, schema::choice_list_spec("optimizers", optimizer_names, 8, "the optimizers, each at its default settings"),
        &own_member<Config, &Config::optimizers>);
    add_warmups_field(s, 16);
    schema::add_field(
        s, schema::number_list_spec("lr_factors", 0, 1000, true, 8, "peak lr = factor x the optimizer's suggested lr"),
        &own_member<Config, &Config::lr_factors>);
    add_seeds_field(s, "seeds, one run each", 8);
    s.rules.push_back(
        {"runs", "at most 64 runs per optimizer and 512 in all",
         [](const Config& c) {
           for (const auto& o : c.optimizers) grid_of(c, o).validate();
           const size_t n =
               c.optimizers.size() * c.placements.size() * c.warmups.size() * c.lr_factors.size() * c.seeds.size();
           if (n > 512) throw ArgumentError("the experiment has " + std::to_string(n) + " runs; at most 512 allowed");
         },
         nullptr});
  }

  static double suggested_lr(const std::string& o) {
    double lr = 0;
    with_optimizer(o, [&](auto opt) { lr = decltype(opt)::kSuggestedLr; });
    return lr;
  }

  // One optimizer's runs as a grid (GridRun): placement-major, then warm-up, lr, seed.
  static GridConfig grid_of(const Config& c, const std::string& optimizer) {
    GridConfig g;
    g.base = c.base;
    g.base.optimizer = optimizer;
    g.placements = c.placements;
    g.warmups = c.warmups;
    g.lrs.clear();
    for (double f : c.lr_factors) g.lrs.push_back(f * suggested_lr(optimizer));
    g.seeds = c.seeds;
    return g;
  }

  explicit WarmupLength(const Config& c) : cfg_(c), grids_(c.optimizers.size()) {}

  // A unit: one step of every unfinished run of the current optimizer's grid.
  void step_once() {
    grids_.step_once([&](size_t o) { return grid_of(cfg_, cfg_.optimizers[o]); });
  }
  bool done() const { return grids_.done(); }
  double progress() const { return grids_.progress(); }

  void write(json::Writer& w) const {
    double plateau = 0;
    w.key("runs").begin_array();
    struct Group {
      std::string placement, optimizer;
      int warmup;
      double lr;
      std::vector<std::vector<double>> curves;
    };
    std::vector<Group> groups;
    for (size_t o = 0; o < grids_.docs().size(); ++o) {
      const json::Value& g = grids_.docs()[o];
      plateau = g.obj.at("plateau_entropy").num;
      for (const auto& r : g.obj.at("runs").arr) {
        std::vector<double> loss = loss_of(r);
        const std::string placement = r.obj.at("placement").str;
        const int warmup = static_cast<int>(r.obj.at("warmup").num);
        const double lr = r.obj.at("lr").num;
        w.begin_object().key("placement").value(placement).key("optimizer").value(cfg_.optimizers[o]);
        w.key("warmup").value(warmup).key("lr").value(lr).key("seed").value(r.obj.at("seed").num);
        w.key("status").value(r.obj.at("status").str);
        write_escape_step(w, loss, plateau);
        w.key("loss").array(loss.begin(), loss.end());
        w.end_object();
        auto it = std::find_if(groups.begin(), groups.end(), [&](const Group& q) {
          return q.placement == placement && q.optimizer == cfg_.optimizers[o] && q.warmup == warmup && q.lr == lr;
        });
        if (it == groups.end())
          groups.push_back({placement, cfg_.optimizers[o], warmup, lr, {}}), it = groups.end() - 1;
        if (r.obj.at("status").str == "ok") it->curves.push_back(std::move(loss));
      }
    }
    w.end_array();
    w.key("plateau_entropy").value(plateau);
    w.key("groups").begin_array();
    for (const Group& q : groups) {
      w.begin_object().key("placement").value(q.placement).key("optimizer").value(q.optimizer);
      w.key("warmup").value(q.warmup).key("lr").value(q.lr).key("seeds_ok").value(static_cast<int>(q.curves.size()));
      const std::vector<double> mean =
          q.curves.size() == cfg_.seeds.size() ? seed_mean(q.curves) : std::vector<double>{};
      write_escape_step(w, mean, plateau);  // null unless every seed ran to the end
      w.end_object();
    }
    w.end_array();
    const double beta2 = cfg_.base.hyper.at("beta2");
    w.key("radam_rectification").begin_array();
    for (int t = 1; t <= cfg_.base.steps; ++t) w.value(RAdam::rectification(beta2, t));
    w.end_array();
  }

 private:
  Config cfg_;
  GridSequence grids_;  // one grid per optimizer
};

}  // namespace

ExperimentInfo warmup_length_info() { return info_of<WarmupLength>(); }

}  // namespace lnx::exp
