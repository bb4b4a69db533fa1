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

  static const schema::Schema<Config>& schema() {
    static const schema::Schema<Config> s = [] {
      using namespace config;
      schema::Schema<Config> s{kName, kDoc, {}, {}};
      add_model_fields(s, false, {"layers"});
      add_chain_fields(s);
      schema::add_field(s, schema::choice_list_spec("placements", placement_names, 16, "the placements to measure"),
                          &own_member<Config, &Config::placements>);
      schema::add_field(s, schema::int_list_spec("depths", 1, 64, 16, "the depths L"), &own_member<Config, &Config::depths>);
      schema::add_field(s, schema::uint_list_spec("seeds", kMaxSeed, 16, "seeds, one model, batch and perturbation each"),
                          &own_member<Config, &Config::seeds>);
      schema::add_field(s, schema::number_spec("perturbation", 0, 1, true, "the perturbation's size delta per coordinate"),
                          &own_member<Config, &Config::perturbation>);
      schema::add_field(s, schema::enum_spec("perturbation_kind", {"random", "sign_gradient"},
                                            "delta*N(0,1) per coordinate, or -delta*sign(g) (Adam's first step at lr delta)"),
                          &own_member<Config, &Config::perturbation_kind>);
      schema::add_field(s, schema::enum_spec("perturb", {"all", "layers"},
                                            "every parameter, or only the layers' (not the embedding, final norm or output matrix)"),
                          &own_member<Config, &Config::perturb>);
      s.rules.push_back({"fits_in_memory", "the model at every depth fits in 1 GiB",
                         [](const Config& c) {
                           ModelConfig m = c.base.model;
                           for (int L : c.depths) {
                             m.layers = L;
                             check_size(m, 2, "the model at depth " + std::to_string(L), "depths, d, d_ff, vocab, seq or batch");
                           }
                         },
                         nullptr});
      return s;
    }();
    return s;
  }

  explicit OutputSensitivity(const Config& c) : cfg_(c), chain_(c.base.model.vocab, c.base.successors, c.base.chain_seed) {
    for (const auto& p : c.placements)
      for (int L : c.depths) jobs_.push_back({p, L}), total_ += L * static_cast<double>(c.seeds.size());
    out_.resize(jobs_.size());
  }

  double step(int work) {
    for (int k = 0; k < work && !done(); ++k) run_seed();
    return progress();
  }
  bool done() const { return job_ >= jobs_.size(); }
  double progress() const { return done() ? 1.0 : std::min(0.999, done_ / total_); }

  void write(json::Writer& w) const {
    w.key("placements").begin_object();
    for (const auto& p : cfg_.placements) {
      std::vector<double> Ls, means;
      w.key(p).begin_object().key("depths").begin_array();
      for (size_t j = 0; j < jobs_.size(); ++j) {
        if (jobs_[j].placement != p) continue;
        w.begin_object().key("layers").value(jobs_[j].layers).key("dlogits2");
        write_mean_std(w, out_[j]);
        w.end_object();
        Ls.push_back(jobs_[j].layers);
        means.push_back(mean_std(out_[j]).mean);
      }
      w.end_array();
      w.key("slope").value(log_log_slope(Ls, means));
      w.key("growth").value(means.size() > 1 && means.front() > 0 ? means.back() / means.front() : NAN);
      w.end_object();
    }
    w.end_object();
  }

 private:
  struct Job {
    std::string placement;
    int layers;
  };

  void run_seed() {
    const Job& j = jobs_[job_];
    const uint64_t seed = cfg_.seeds[seed_];
    ModelConfig mc = cfg_.base.model;
    mc.placement = j.placement;
    mc.layers = j.layers;
    Transformer<float> m(mc, seed);
    Rng rng(stream_seed(seed, kStreamBatches));
    std::vector<int> in, tg;
    chain_.sample(rng, mc.batch, mc.seq, in, tg);
    const size_t NV = static_cast<size_t>(mc.batch) * mc.seq * mc.vocab;
    m.forward(in.data(), tg.data());
    const std::vector<float> logits0(m.logits(), m.logits() + NV);
    const std::vector<TensorRef> tensors = cfg_.perturb == Perturbed::All ? tensors_of(m) : layer_tensors_of(m);
    if (cfg_.perturbation_kind == PerturbationKind::SignGradient) {
      m.zero_grad();
      m.backward(GradScope::All);
      const std::vector<float> theta0 = m.params();
      sign_step(m.params(), theta0, m.grads(), tensors, cfg_.perturbation);
    } else {
      Rng noise(stream_seed(seed, kStreamPerturbation));
      std::vector<float>& p = m.params();
      for (const TensorRef& t : tensors)
        for (size_t i = t.off; i < t.off + t.size(); ++i) p[i] += static_cast<float>(cfg_.perturbation * noise.normal());
    }
    m.forward(in.data(), tg.data());
    out_[job_].push_back(mean_sq_diff(m.logits(), logits0.data(), NV));
    done_ += j.layers;
    if (++seed_ == cfg_.seeds.size()) seed_ = 0, ++job_;
  }

  Config cfg_;
  MarkovChain chain_;
  std::vector<Job> jobs_;
  std::vector<std::vector<double>> out_;  // [job][seed]
  size_t job_ = 0, seed_ = 0;
  double done_ = 0, total_ = 0;
};

}  // namespace

ExperimentInfo output_sensitivity_info() { return info_of<OutputSensitivity>(); }

}  // namespace lnx::exp
