// step_size.cpp — `step-size`: does the final LN shrink an update's effect on the output as it
// shrinks the gradient? (the article's Adam section, 【推断】: under Adam the mechanism lives in
// function space.)
//
// At initialisation, per placement, depth L and seed: the gradient g of one toy batch; the loss of
// the same batch along θ − η·sign(g) (Adam's first step at lr η, every coordinate moved by η) for η
// on the config's grid, and `eta_star`, the η of the lowest loss; and per layer l, the mean squared
// change of the logits when only layer l's tensors take the sign step at `layer_eta`. If Pre-LN's
// final LN damped an update's effect, its η* would grow with L and its per-layer ‖Δlogits‖² would
// fall with L; Post-LN's would not.
#include <algorithm>
#include <cmath>
#include <memory>

#include "../config_fields.h"
#include "../configs.h"
#include "experiment.h"
#include "measure.h"

namespace lnx::exp {
namespace {

struct StepSize {
  static constexpr const char* kName = "step-size";
  static constexpr const char* kDoc =
      "at init, per placement and depth: the loss along theta - eta*sign(g) over a grid of eta, eta_star, and per layer "
      "the mean squared change of the logits when only that layer steps";
  static constexpr const char* kClaim =
      "under Adam the mechanism lives in function space: the final LN shrinks an update's effect on the output as it "
      "shrinks the gradient (inferred)";

  struct Config {
    TrainConfig base;
    std::vector<std::string> placements = {"post", "pre"};
    std::vector<int> depths = {2, 4, 8, 16};
    std::vector<double> etas = {1e-4, 2e-4, 5e-4, 1e-3, 2e-3, 5e-3, 1e-2, 2e-2, 3e-2};
    double layer_eta = 1e-3;
    std::vector<uint64_t> seeds = {0, 1};
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
      schema::add_field(s, schema::number_list_spec("etas", 0, 1, true, 32, "the sign-step sizes eta (Adam's lr)"),
                          &own_member<Config, &Config::etas>);
      schema::add_field(s, schema::number_spec("layer_eta", 0, 1, true, "the step size of the one-layer steps"),
                          &own_member<Config, &Config::layer_eta>);
      schema::add_field(s, schema::uint_list_spec("seeds", kMaxSeed, 16, "seeds, one model (and batch) each"),
                          &own_member<Config, &Config::seeds>);
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

  // What one (placement, depth) measured, over seeds.
  struct Cell {
    std::vector<double> loss0;                    // [seed]
    std::vector<std::vector<double>> loss;        // [eta][seed]
    std::vector<double> eta_star;                 // [seed]
    std::vector<std::vector<double>> layer_dlogits2;  // [layer][seed]
  };

  explicit StepSize(const Config& c) : cfg_(c), chain_(c.base.model.vocab, c.base.successors, c.base.chain_seed) {
    for (const auto& p : c.placements)
      for (int L : c.depths) {
        jobs_.push_back({p, L});
        total_ += static_cast<double>(L) * (1 + c.etas.size() + L) * c.seeds.size();
      }
    cells_.resize(jobs_.size());
  }

  double step(int work) {
    for (int k = 0; k < work && !done(); ++k) run_seed();
    return progress();
  }
  bool done() const { return job_ >= jobs_.size(); }
  double progress() const { return done() ? 1.0 : std::min(0.999, done_ / total_); }

  void write(json::Writer& w) const {
    w.key("plateau_entropy").value(chain_.stationary_entropy());
    w.key("placements").begin_object();
    for (const auto& p : cfg_.placements) {
      w.key(p).begin_array();
      for (size_t j = 0; j < jobs_.size(); ++j) {
        if (jobs_[j].placement != p) continue;
        const Cell& c = cells_[j];
        w.begin_object().key("layers").value(jobs_[j].layers);
        w.key("loss0");
        write_mean_std(w, c.loss0);
        std::vector<double> mean_curve;
        w.key("loss").begin_array();
        for (const auto& xs : c.loss) {
          write_mean_std(w, xs);
          mean_curve.push_back(mean_std(xs).mean);
        }
        w.end_array();
        w.key("eta_star");
        write_mean_std(w, c.eta_star);
        const size_t best = std::min_element(mean_curve.begin(), mean_curve.end()) - mean_curve.begin();
        w.key("eta_star_of_mean").value(cfg_.etas[best]);
        w.key("layer_dlogits2").begin_array();
        for (const auto& xs : c.layer_dlogits2) write_mean_std(w, xs);
        w.end_array();
        w.end_object();
      }
      w.end_array();
    }
    w.end_object();
  }

 private:
  struct Job {
    std::string placement;
    int layers;
  };

  // One seed of the current job: 1 + |etas| + L forward passes.
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
    Cell& c = cells_[job_];
    if (c.loss.empty()) c.loss.resize(cfg_.etas.size()), c.layer_dlogits2.resize(j.layers);
    const double l0 = m.forward(in.data(), tg.data());
    const std::vector<float> logits0(m.logits(), m.logits() + NV);
    m.zero_grad();
    m.backward(GradScope::All);
    const std::vector<float> theta0 = m.params(), g = m.grads();
    c.loss0.push_back(l0);
    const std::vector<TensorRef> all = tensors_of(m);
    double best = INFINITY, best_eta = cfg_.etas[0];
    for (size_t e = 0; e < cfg_.etas.size(); ++e) {
      sign_step(m.params(), theta0, g, all, cfg_.etas[e]);
      const double l = m.forward(in.data(), tg.data());
      c.loss[e].push_back(l);
      if (l < best) best = l, best_eta = cfg_.etas[e];
    }
    c.eta_star.push_back(best_eta);
    for (int l = 0; l < j.layers; ++l) {
      sign_step(m.params(), theta0, g, tensors_of(m, l), cfg_.layer_eta);
      m.forward(in.data(), tg.data());
      c.layer_dlogits2[l].push_back(mean_sq_diff(m.logits(), logits0.data(), NV));
    }
    done_ += static_cast<double>(j.layers) * (1 + cfg_.etas.size() + j.layers);
    if (++seed_ == cfg_.seeds.size()) seed_ = 0, ++job_;
  }

  Config cfg_;
  MarkovChain chain_;
  std::vector<Job> jobs_;
  std::vector<Cell> cells_;
  size_t job_ = 0, seed_ = 0;
  double done_ = 0, total_ = 0;
};

}  // namespace

ExperimentInfo step_size_info() { return info_of<StepSize>(); }

}  // namespace lnx::exp
