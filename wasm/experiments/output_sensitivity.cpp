// output_sensitivity.cpp — `output-sensitivity`: how much the output moves when every weight moves a
// little, against depth (Liu et al. 2020, "Understanding the Difficulty of Training Transformers",
// §4: Post-LN's output change grows like O(L), Pre-LN's like O(log L), Admin's ω brings Post-LN back
// to O(log L)).
//
// Per placement, depth L and seed, at initialisation: the logits of one toy batch; then the same
// batch after a fixed small perturbation of the parameters, and `dlogits2`, the mean over the N·V
// logits of their squared change. The perturbation (`perturbation_kind`): `random`, every coordinate
// plus δ·ξ with ξ ~ N(0, 1) from the engine's PRNG (a stream of its own per seed), or
// `sign_gradient`, every coordinate minus δ·sign(g) — Adam's first step at lr δ. `perturb` chooses
// every parameter (`all`) or only the layers' tensors (`layers`: the embedding, the final norm and an
// untied output matrix stay), which separates the depth-dependent part from the embedding's direct
// effect on a tied output. Each placement also gets the least-squares slope of log dlogits2 on
// log L over the depths (a power law's exponent: 1 for O(L)).
#include <algorithm>
#include <cmath>
#include <memory>

#include "../api.h"
#include "../config_fields.h"
#include "../configs.h"
#include "experiment.h"
#include "measure.h"

namespace lnx::exp {
namespace {

enum class PerturbationKind : int { Random = 0, SignGradient = 1 };
enum class Perturbed : int { All = 0, Layers = 1 };

struct OutputSensitivity {
  static constexpr const char* kName = "output-sensitivity";
  static constexpr const char* kDoc =
      "at init, per placement and depth: the mean squared change of the logits after a fixed small perturbation of the "
      "weights, and its log-log slope against L";
  static constexpr const char* kClaim =
      "output sensitivity grows with depth for Post-LN, slowly for Pre-LN: O(L) against O(log L) (Liu et al. 2020)";

  struct Config {
    TrainConfig base;
    std::vector<std::string> placements = placement_names();
    std::vector<int> depths = {2, 4, 8, 16, 32};
    std::vector<uint64_t> seeds = {0, 1, 2};
    double perturbation = 1e-3;
    PerturbationKind perturbation_kind = PerturbationKind::Random;
    Perturbed perturb = Perturbed::All;
  };

  static void fields(schema::Schema<Config>& s) {
    using namespace config;
    add_toy_depth_sweep_fields(s, "seeds, one model, batch and perturbation each");
    schema::add_field(s,
                      schema::number_spec("perturbation", 0, 1, true, "the perturbation's size delta per coordinate"),
                      &own_member<Config, &Config::perturbation>);
    schema::add_field(
        s,
        schema::enum_spec("perturbation_kind", {"random", "sign_gradient"},
                          "delta*N(0,1) per coordinate, or -delta*sign(g) (Adam's first step at lr delta)"),
        &own_member<Config, &Config::perturbation_kind>);
    schema::add_field(
        s,
        schema::enum_spec("perturb", {"all", "layers"},
                          "every parameter, or only the layers' (not the embedding, final norm or output matrix)"),
        &own_member<Config, &Config::perturb>);
  }

  explicit OutputSensitivity(const Config& c)
      : cfg_(c),
        chain_(c.base.model.vocab, c.base.successors, c.base.chain_seed),
        sweep_(c.placements, c.depths, c.seeds.size(), [](int) { return 2; }),
        out_(sweep_.jobs().size()) {}

  void step_once() { run_seed(); }
  bool done() const { return sweep_.done(); }
  double progress() const { return sweep_.progress(); }

  void write(json::Writer& w) const {
    w.key("placements").begin_object();
    for (const auto& p : cfg_.placements) {
      w.key(p).begin_object();
      const std::vector<double> means = write_sensitivity_depths(w, sweep_, out_, p);
      w.key("growth").value(means.size() > 1 && means.front() > 0 ? means.back() / means.front() : NAN);
      w.end_object();
    }
    w.end_object();
  }

 private:
  void run_seed() {
    const uint64_t seed = cfg_.seeds[sweep_.seed_index()];
    InitModel im(cfg_.base.model, sweep_.job().placement, sweep_.job().layers, seed, chain_);
    out_[sweep_.job_index()].push_back(logit_change(im, [&](Transformer<float>& m) {
      const std::vector<TensorRef> tensors = cfg_.perturb == Perturbed::All ? tensors_of(m) : layer_tensors_of(m);
      if (cfg_.perturbation_kind == PerturbationKind::SignGradient) {
        m.zero_grad();
        m.backward(GradScope::All);
        const std::vector<float> theta0 = m.params();
        sign_step(m.params(), theta0, m.grads(), tensors, cfg_.perturbation);
      } else {
        perturb_randomly(m.params(), tensors, cfg_.perturbation, seed);
      }
    }));
    sweep_.advance();
  }

  Config cfg_;
  MarkovChain chain_;
  DepthSweep sweep_;
  std::vector<std::vector<double>> out_;  // [job][seed]
};

}  // namespace

ExperimentInfo output_sensitivity_info() { return info_of<OutputSensitivity>(); }

}  // namespace lnx::exp
