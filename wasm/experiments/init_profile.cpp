// init_profile.cpp — `init-profile`: everything the page's placement composer draws about a
// placement at initialisation, in one call small enough to redraw in about a second (docs/experiments.md,
// "init-profile"). For each placement of `placements` (registered names and/or placement_spec's name):
//   probe         the init-time probe of Figures 2 and 3 (probe.cpp), run as ProbeRun runs it: the
//                 residual stream ‖x_l‖²/d per layer with Lemma 2's band, the W² gradient per layer
//                 (the paper's ‖mean ∂ℒ/∂W²‖ and the per-batch mean), and the last layer's W²
//                 gradient against depth; its document is embedded as it is, so Figures 2–3's
//                 transforms read it
//   sensitivity   the output's change under a fixed small random perturbation of every weight
//                 against depth, as output-sensitivity measures it (perturbation_kind random,
//                 perturb all): the mean over the N·V logits of their squared change, its mean and
//                 spread over the seeds, and the log-log slope against L
// Its default model is small (L = 6, d = 32, d_ff = 128, V = 64, n = 16, B = 4) so that a change of
// the composed placement recomputes within the composer's 1 s target (`npm run bench`).
// Leaves out: training (the composer's "Train it" runs the grid), other perturbations.
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

struct InitProfile {
  static constexpr const char* kName = "init-profile";
  static constexpr const char* kDoc =
      "at init, per placement (a registered one or placement_spec's): the probe of Figures 2-3 (residual stream and W2 "
      "gradient per layer, last layer's W2 gradient against depth) and the output's sensitivity to a small random "
      "perturbation against depth; small enough for the composer to redraw it live";
  static constexpr const char* kClaim =
      "the placement sets the gradient scale at init: Post-LN's last-layer gradient does not fall with depth, Pre-LN's "
      "falls like 1/sqrt(L) (Theorem 1, Figure 3c)";

  static TrainConfig small_base() {
    TrainConfig t;
    t.model = ModelConfig{6, 32, 128, 64, 16, 4, "post", Attention::Causal};
    return t;
  }

  struct Config {
    TrainConfig base = small_base();
    std::vector<std::string> placements = {"post", "pre"};
    std::vector<uint64_t> seeds = {0, 1, 2};
    int batches = 4;
    int depth_batches = 4;
    std::vector<int> depths = {2, 4, 6, 8, 12, 16};
    double perturbation = 1e-3;
  };

  static void fields(schema::Schema<Config>& s) {
    using namespace config;
    using C = Config;
    add_model_fields(s, false);
    add_placement_spec_field(s);
    add_chain_fields(s);
    add_spec_placements_field(s, 16, "the placements to measure (placement_spec's name too)");
    add_seeds_field(s, "seeds, one model (and batch stream) each");
    schema::add_field(s, schema::int_spec("batches", 1, 1000, "batches per seed for the per-layer statistics"),
                      &own_member<C, &C::batches>);
    schema::add_field(
        s, schema::int_spec("depth_batches", 1, 1000, "batches per seed for the last layer's gradient against depth"),
        &own_member<C, &C::depth_batches>);
    add_depths_field(s, 16, "the depths L of the last-layer sweep and of the sensitivity");
    schema::add_field(
        s, schema::number_spec("perturbation", 0, 1, true, "the random perturbation's size delta per coordinate"),
        &own_member<C, &C::perturbation>);
    s.rules.push_back({"fits_in_memory", "the model at `layers` and at every depth fits in 1 GiB",
                       [](const C& c) {
                         check_size(c.base.model, 2, "model", kModelKnobs);
                         check_depths_fit(c.base.model, c.depths);
                       },
                       nullptr});
  }

  static ProbeConfig probe_config(const Config& c) {
    ProbeConfig p;
    p.model = c.base.model;
    p.placements = c.placements;
    p.seeds = c.seeds;
    p.batches = c.batches;
    p.depth_batches = c.depth_batches;
    p.depths = c.depths;
    return p;
  }

  explicit InitProfile(const Config& c)
      : cfg_(c),
        probe_(probe_config(c)),
        chain_(c.base.model.vocab, c.base.successors, c.base.chain_seed),
        sweep_(c.placements, c.depths, c.seeds.size(), [](int) { return 2; }),
        out_(sweep_.jobs().size()) {
    // Progress: the probe's passes (each ∝ its depth) against the sensitivity's two forwards per job.
    double sum_depths = 0;
    for (int L : c.depths) sum_depths += L;
    const double per_seed_probe = 3.0 * (c.batches * c.base.model.layers + c.depth_batches * sum_depths);
    const double per_seed_sens = 2.0 * sum_depths;
    probe_share_ = per_seed_probe / (per_seed_probe + per_seed_sens);
  }

  // One probe pass while the probe runs, then one seed of one (placement, depth) of the sensitivity.
  void step_once() {
    if (!probe_.done()) probe_.step(1);
    else run_sensitivity();
  }
  bool done() const { return probe_.done() && sweep_.done(); }
  double progress() const {
    if (done()) return 1.0;
    return std::min(0.999, probe_share_ * probe_.progress() + (1 - probe_share_) * sweep_.progress());
  }

  void write(json::Writer& w) const {
    w.key("probe").raw(probe_.result_json());
    w.key("sensitivity").begin_object();
    for (const auto& p : cfg_.placements) {
      w.key(p).begin_object();
      write_sensitivity_depths(w, sweep_, out_, p);
      w.end_object();
    }
    w.end_object();
  }

 private:
  // output_sensitivity.cpp's random perturbation of every parameter, on the same batch and stream.
  void run_sensitivity() {
    const uint64_t seed = cfg_.seeds[sweep_.seed_index()];
    InitModel im(cfg_.base.model, sweep_.job().placement, sweep_.job().layers, seed, chain_);
    out_[sweep_.job_index()].push_back(logit_change(
        im, [&](Transformer<float>& m) { perturb_randomly(m.params(), tensors_of(m), cfg_.perturbation, seed); }));
    sweep_.advance();
  }

  Config cfg_;
  ProbeRun probe_;
  MarkovChain chain_;
  DepthSweep sweep_;
  std::vector<std::vector<double>> out_;  // [job][seed]
  double probe_share_ = 0.5;
};

}  // namespace

ExperimentInfo init_profile_info() { return info_of<InitProfile>(); }

}  // namespace lnx::exp
