// real_text.cpp — `real-text`: do the Post-LN plateau and warm-up's rescue survive real text? The
// toy's Markov chain is the article's own setting; this runs the quick look (docs/reproduction.md,
// "Quick look": 6 layers, batch 2, seq 32, 200 steps, Adam at lr 1e-3, warm-ups 0 and 120, seeds
// 0–3) on byte-level text of the page's article instead (text_data.h: vocab 256, the last tenth of
// each language held out), one grid per language.
//
// Per run its training loss, its validation losses (held-out windows, every eval_every steps and at
// the last) and status; per group (language, placement, warm-up: the seeds together) the escape
// step of the seed-mean training curve (the first step at which its 10-step mean is 0.5 below the
// plateau, as the quick look's claims: measure.h escape_step), with the plateau = the training
// split's unigram entropy, and the seed-mean final validation loss. The verdict is the page's
// (web/src/experiments/verdicts.js realText), fixed before the first full run.
// Leaves out: other optimizers, learning rates and model sizes (Figure 4's lab trains text at any of
// them: data = text), tokenizers.
#include <algorithm>
#include <cmath>
#include <memory>

#include "../api.h"
#include "../config_fields.h"
#include "../configs.h"
#include "../json.h"
#include "../text_data.h"
#include "experiment.h"
#include "grid_sequence.h"
#include "measure.h"

namespace lnx::exp {
namespace {

struct RealText {
  static constexpr const char* kName = "real-text";
  static constexpr const char* kDoc =
      "the quick look's toy runs (placements x warm-ups x seeds) on byte-level text of the page's article, one grid "
      "per language: training and validation losses, escape steps below the text's unigram entropy";
  static constexpr const char* kClaim =
      "Post-LN without warm-up stalls on the plateau and warm-up rescues it, on real text too (the toy's claim, "
      "asked of the article's own text)";

  struct Config {
    TrainConfig base = [] {
      TrainConfig t = quick_look_base(200);
      t.data = "text";
      return t;
    }();
    std::vector<std::string> langs = {"en", "zh"};
    std::vector<std::string> placements = {"post", "pre"};
    std::vector<int> warmups = {0, 120};
    std::vector<uint64_t> seeds = {0, 1, 2, 3};
  };

  static void fields(schema::Schema<Config>& s) {
    using namespace config;
    add_model_fields(s, false, {"vocab"});  // bytes: vocab 256
    add_steps_field(s);
    add_warmup_shape_field(s);
    add_run_fields(s, {"warmup", "seed"});
    schema::add_field(s, eval_every_spec(), &train_member<Config, &TrainConfig::eval_every>);
    schema::add_field(
        s, schema::choice_list_spec("langs", text_lang_names, 3, "the languages of the article's text, one grid each"),
        &own_member<Config, &Config::langs>);
    add_placements_field(s, "the placements");
    add_warmups_field(s, 8);
    add_seeds_field(s, "seeds, one run each", 8);
    s.rules.push_back({"runs", "each language's grid is a valid grid (at most 64 runs, in memory)",
                       [](const Config& c) {
                         for (const auto& l : c.langs) grid_of(c, l).validate();
                       },
                       nullptr});
    s.rules.push_back({"warmup_reaches_peak", "a warm-up longer than the run is allowed, with a warning", nullptr,
                       [](const Config& c) { return warmup_warnings(c.warmups, c.base.steps); }});
  }

  // One language's runs as a grid (GridRun): placement-major, then warm-up, seed.
  static GridConfig grid_of(const Config& c, const std::string& lang) {
    GridConfig g;
    g.base = c.base;
    g.base.text_lang = lang;
    g.placements = c.placements;
    g.warmups = c.warmups;
    g.lrs = {c.base.lr};
    g.seeds = c.seeds;
    return g;
  }

  explicit RealText(const Config& c) : cfg_(c), grids_(c.langs.size()) {
    for (const auto& l : cfg_.langs) TextData::of(l, cfg_.base.model.seq);  // a missing text is refused now
  }

  // A unit: one step of every unfinished run of the current language's grid.
  void step_once() {
    grids_.step_once([&](size_t l) { return grid_of(cfg_, cfg_.langs[l]); });
  }
  bool done() const { return grids_.done(); }
  double progress() const { return grids_.progress(); }

  void write(json::Writer& w) const {
    struct Group {
      std::string lang, placement;
      int warmup;
      std::vector<std::vector<double>> curves;
      std::vector<double> final_val;
    };
    std::vector<Group> groups;
    std::vector<double> plateaus;
    w.key("texts").begin_array();
    const std::vector<json::Value>& docs = grids_.docs();
    for (size_t l = 0; l < docs.size(); ++l) {
      const json::Value& g = docs[l];
      plateaus.push_back(g.obj.at("plateau_entropy").num);
      w.begin_object().key("lang").value(cfg_.langs[l]).key("unigram_entropy").value(plateaus.back());
      w.key("parts");
      TextData::of(cfg_.langs[l], cfg_.base.model.seq)->write(w);
      w.end_object();
    }
    w.end_array();
    w.key("uniform_loss").value(std::log(256.0));
    w.key("runs").begin_array();
    for (size_t l = 0; l < docs.size(); ++l) {
      for (const auto& r : docs[l].obj.at("runs").arr) {
        std::vector<double> loss = loss_of(r);
        const std::string placement = r.obj.at("placement").str;
        const int warmup = static_cast<int>(r.obj.at("warmup").num);
        const bool ok = r.obj.at("status").str == "ok";
        w.begin_object().key("lang").value(cfg_.langs[l]).key("placement").value(placement);
        w.key("warmup")
            .value(warmup)
            .key("seed")
            .value(r.obj.at("seed").num)
            .key("status")
            .value(r.obj.at("status").str);
        write_escape_step(w, loss, plateaus[l]);
        w.key("loss").array(loss.begin(), loss.end());
        w.key("val_step").begin_array();
        for (const auto& x : r.obj.at("val_step").arr) w.value(x.num);
        w.end_array().key("val_loss").begin_array();
        for (const auto& x : r.obj.at("val_loss").arr) w.value(x.num);
        w.end_array().end_object();
        auto it = std::find_if(groups.begin(), groups.end(), [&](const Group& q) {
          return q.lang == cfg_.langs[l] && q.placement == placement && q.warmup == warmup;
        });
        if (it == groups.end()) groups.push_back({cfg_.langs[l], placement, warmup, {}, {}}), it = groups.end() - 1;
        const auto& val = r.obj.at("val_loss").arr;
        if (ok) it->curves.push_back(std::move(loss)), it->final_val.push_back(val.back().num);
      }
    }
    w.end_array();
    w.key("groups").begin_array();
    for (const Group& q : groups) {
      const double plateau = plateaus[std::find(cfg_.langs.begin(), cfg_.langs.end(), q.lang) - cfg_.langs.begin()];
      w.begin_object().key("lang").value(q.lang).key("placement").value(q.placement).key("warmup").value(q.warmup);
      w.key("seeds_ok").value(static_cast<int>(q.curves.size()));
      const bool all = q.curves.size() == cfg_.seeds.size();
      write_escape_step(w, all ? seed_mean(q.curves) : std::vector<double>{},
                        plateau);  // null unless every seed ran to the end
      w.key("final_val");
      if (all) {
        double s = 0;
        for (double v : q.final_val) s += v;
        w.value(s / q.final_val.size());
      } else {
        w.null();
      }
      w.end_object();
    }
    w.end_array();
  }

 private:
  Config cfg_;
  GridSequence grids_;  // one grid per language
};

}  // namespace

ExperimentInfo real_text_info() { return info_of<RealText>(); }

}  // namespace lnx::exp
