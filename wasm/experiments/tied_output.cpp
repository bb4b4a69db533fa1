// tied_output.cpp — `tied-output`: is the embedding's share in the output why Pre-LN's last-layer
// gradient falls faster than 1/√L? (the article's 第一处是下降的速度, 【猜测】)
//
// Figure 3c's sweep — the last layer's W² gradient against depth, both statistics, measured by the
// probe itself (ProbeRun, probe.cpp) — for the four models {tied, untied output} × {x0 = √d·E[tok],
// x0 = E[tok]}, and the initial model's mean probability of the current token (the input token at
// each position; with a tied output and √d input, the logit of the current token carries ‖x0‖²-sized
// weight through the residual stream). With the tied, √d model this is exactly Figure 3c. Each
// placement also gets the log–log slope of the per-batch statistic against L (−½ for 1/√L).
#include <algorithm>
#include <cmath>
#include <map>
#include <memory>

#include "../api.h"
#include "../config_fields.h"
#include "../configs.h"
#include "../json.h"
#include "../probe_common.h"
#include "experiment.h"
#include "measure.h"

namespace lnx::exp {
namespace {

struct TiedOutput {
  static constexpr const char* kName = "tied-output";
  static constexpr const char* kDoc =
      "Figure 3c's last-layer W2 gradient against depth for tied/untied output with and without the sqrt(d) input "
      "scale, and the init model's probability of the current token";
  static constexpr const char* kClaim =
      "Pre-LN's last-layer gradient falls faster than 1/sqrt(L) because of the embedding's share in the output (a "
      "guess)";

  struct Config {
    ModelConfig model;  // the probe's model (api.h: d 512, V 1000, bidirectional)
    std::vector<std::string> placements = {"post", "pre"};
    std::vector<uint64_t> seeds = {0, 1, 2};
    int depth_batches = 5;
    std::vector<int> depths = {6, 8, 10, 12, 14};
  };

  static void fields(schema::Schema<Config>& s) {
    using namespace config;
    add_model_fields(s, false, {"layers", "output", "input_scale"});
    add_sweep_fields(s, "seeds, one model (and batch stream) each");
    schema::add_field(s, schema::int_spec("depth_batches", 1, 1000, "batches per seed and depth"),
                      &own_member<Config, &Config::depth_batches>);
    s.rules.push_back({"fits_in_memory", "the model at every depth fits in 1 GiB (untied: one more V x d matrix)",
                       [](const Config& c) { probe_of(c, OutputLayer::Untied, InputScale::SqrtD).validate(); },
                       nullptr});
  }

  // The probe of one variant: only the depth sweep matters (the per-layer job runs one batch at the
  // smallest depth).
  static ProbeConfig probe_of(const Config& c, OutputLayer out, InputScale in) {
    ProbeConfig p;
    p.model = c.model;
    p.model.output = out;
    p.model.input_scale = in;
    p.model.layers = *std::min_element(c.depths.begin(), c.depths.end());
    p.placements = c.placements;
    p.seeds = c.seeds;
    p.batches = 1;
    p.depth_batches = c.depth_batches;
    p.depths = c.depths;
    return p;
  }

  // A variant's current-token passes: placement-major, then depth, seed.
  static std::array<size_t, 3> passes_of(const Config& c) {
    return {c.placements.size(), c.depths.size(), c.seeds.size()};
  }

  struct Variant {
    OutputLayer output;
    InputScale input_scale;
    std::string probe_json;
    std::map<std::string, std::map<int, std::vector<double>>> p_current;  // placement → L → [seed]
  };

  explicit TiedOutput(const Config& c) : cfg_(c) {
    for (OutputLayer o : {OutputLayer::Tied, OutputLayer::Untied})
      for (InputScale i : {InputScale::SqrtD, InputScale::None}) variants_.push_back({o, i, "", {}});
  }

  // A unit: a probe step of 1 batch, or one forward pass for the current-token probability.
  void step_once() {
    Variant& v = variants_[var_];
    if (!probe_ && v.probe_json.empty()) probe_ = std::make_unique<ProbeRun>(probe_of(cfg_, v.output, v.input_scale));
    if (!probe_) return current_token_pass(v);
    probe_->step(1);
    if (probe_->done()) v.probe_json = probe_->result_json(), probe_.reset();
  }
  bool done() const { return var_ >= variants_.size(); }
  double progress() const {
    if (done()) return 1.0;
    const double per_variant = 1.0 / variants_.size();
    const double passes = static_cast<double>(run_count_of(passes_of(cfg_)));
    const Variant& v = variants_[var_];
    const double within = v.probe_json.empty() ? 0.9 * (probe_ ? probe_->progress() : 0.0) : 0.9 + 0.1 * pass_ / passes;
    return std::min(0.999, (var_ + within) * per_variant);
  }

  void write(json::Writer& w) const {
    w.key("uniform_p").value(1.0 / cfg_.model.vocab);
    w.key("variants").begin_array();
    for (const Variant& v : variants_) {
      const json::Value probe = json::parse(v.probe_json);
      w.begin_object();
      w.key("output").value(v.output == OutputLayer::Tied ? "tied" : "untied");
      w.key("input_scale").value(v.input_scale == InputScale::SqrtD ? "sqrt_d" : "none");
      w.key("placements").begin_object();
      for (const auto& p : cfg_.placements) {
        const auto& sweep = probe.obj.at("placements").obj.at(p).obj.at("lastW2_vs_L").obj;
        std::vector<double> Ls, per_batch;
        w.key(p).begin_object().key("depths").begin_array();
        for (int L : cfg_.depths) {
          const auto& cell = sweep.at(std::to_string(L)).obj;
          w.begin_object().key("layers").value(L);
          for (const char* stat : {"W2_per_batch", "W2_per_layer"}) {
            const auto& ms = cell.at(stat).obj;
            w.key(stat)
                .begin_object()
                .key("mean")
                .value(ms.at("mean").num)
                .key("std")
                .value(ms.at("std").num)
                .end_object();
          }
          w.key("p_current");
          write_mean_std(w, v.p_current.at(p).at(L));
          w.end_object();
          Ls.push_back(L);
          per_batch.push_back(cell.at("W2_per_batch").obj.at("mean").num);
        }
        w.end_array();
        w.key("slope_per_batch").value(log_log_slope(Ls, per_batch));
        w.end_object();
      }
      w.end_object().end_object();
    }
    w.end_array();
  }

 private:
  // The mean over a probe batch of the init model's probability of the token at each position.
  void current_token_pass(Variant& v) {
    const auto [pi, li, si] = run_indices(pass_, passes_of(cfg_));
    const std::string& p = cfg_.placements[pi];
    const int L = cfg_.depths[li];
    const uint64_t seed = cfg_.seeds[si];
    ModelConfig mc = probe_of(cfg_, v.output, v.input_scale).model;
    mc.placement = p;
    mc.layers = L;
    Transformer<float> m(mc, seed);
    Rng rng(stream_seed(seed, kStreamBatches));
    std::vector<int> in, tg;
    const int N = mc.batch * mc.seq;
    detail::probe_batch(rng, N, mc.vocab, in, tg);
    m.forward(in.data(), tg.data());
    double s = 0;
    for (int r = 0; r < N; ++r) s += m.probs()[static_cast<size_t>(r) * mc.vocab + in[r]];
    v.p_current[p][L].push_back(s / N);
    if (++pass_ == run_count_of(passes_of(cfg_))) pass_ = 0, ++var_;
  }

  Config cfg_;
  std::vector<Variant> variants_;
  std::unique_ptr<ProbeRun> probe_;
  size_t var_ = 0, pass_ = 0;
};

}  // namespace

ExperimentInfo tied_output_info() { return info_of<TiedOutput>(); }

}  // namespace lnx::exp
