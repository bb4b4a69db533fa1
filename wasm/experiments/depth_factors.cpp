// depth-factors: does Appendix F's exponential decay of Post-LN's gradient with depth survive once
// the residual Jacobian is counted? (the article's 梯度沿深度的分布)
//
// Appendix F of Xiong et al. (2020) follows the gradient from the output down to layer l through the
// L − l layers above it: each layer's LayerNorm after the FFN add sees an input of squared length
// ≈ 3/2·d, so by Lemma 3 it scales the gradient by ≈ √(2/3), giving a (2/3)^((L−l)/2) decay. The
// article's objection: the gradient also crosses the residual add's Jacobian I + ∂F/∂x, and going
// back through the FFN branch (the transposed random matrices, the same half of ReLU's mask) grows
// the squared length by the same 3/2 the forward pass did, so a layer multiplies by 3/2 · 2/3 = 1
// and the gradient is flat in depth.
//
// Two measurements at init, on the probe's model at depth L (24 by default), per placement and seed:
//   1. Figure 3a at L: per layer, the W² gradient, both statistics, from the probe itself (ProbeRun).
//   2. The two factors apart, per layer and sublayer, from one backward pass per batch (the model's
//      backward tap, model.h): the norm's factor ‖ds‖/‖dout‖ (gradient at the residual sum over the
//      gradient at the norm's output; 1 where no norm follows the add) and the residual factor
//      ‖dx‖/‖ds‖ (gradient at the sublayer's input over the gradient at the sum: I + ∂F/∂x, with a
//      norm on the branch's input where the placement has one), and their product, the sublayer's
//      whole factor ‖dx‖/‖dout‖. Norms are Frobenius norms over the batch's N × d gradient; each
//      ratio is averaged over the batches, then over seeds (mean and std).
// The batches are the probe's (uniform random tokens from the seed's batch stream), so both parts
// see the same inputs. Appendix F's prediction is written next to the measurement: the last layer's
// W² gradient times (2/3)^((L−l)/2).
#include <cmath>
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

constexpr int kSublayers = 2;  // kAttention, kFfn (model.h)
const char* const kSublayerName[kSublayers] = {"attention", "ffn"};

struct DepthFactors {
  static constexpr const char* kName = "depth-factors";
  static constexpr const char* kDoc =
      "at init, at depth L: Figure 3a's per-layer W2 gradient, and per layer and sublayer the norm's factor and the "
      "residual Jacobian's factor on the gradient, measured apart";
  static constexpr const char* kClaim =
      "Appendix F's exponential decay omits the residual Jacobian: at init Post-LN's gradient is flat in depth (an "
      "inference)";

  struct Config {
    ModelConfig model = [] {  // the probe's model (api.h: d 512, V 1000, bidirectional) at depth 24
      ModelConfig m;
      m.layers = 24;
      return m;
    }();
    std::vector<std::string> placements = {"post", "pre"};
    std::vector<uint64_t> seeds = {0, 1, 2};
    int batches = 10;
  };

  static void fields(schema::Schema<Config>& s) {
    using namespace config;
    add_model_fields(s, false);
    add_placements_field(s);
    add_seeds_field(s, "seeds, one model (and batch stream) each");
    schema::add_field(s, schema::int_spec("batches", 1, 1000, "batches per seed, for each of the two measurements"),
                      &own_member<Config, &Config::batches>);
    s.rules.push_back(
        {"fits_in_memory", "the model fits in 1 GiB", [](const Config& c) { probe_of(c).validate(); }, nullptr});
  }

  // Figure 3a at depth L: the probe's per-layer job; its depth sweep is one batch at L itself.
  static ProbeConfig probe_of(const Config& c) {
    ProbeConfig p;
    p.model = c.model;
    p.placements = c.placements;
    p.seeds = c.seeds;
    p.batches = c.batches;
    p.depth_batches = 1;
    p.depths = {c.model.layers};
    return p;
  }

  // Per layer and sublayer: the sums over the batches of the three ratios of one seed.
  struct Ratios {
    std::vector<double> norm, residual, whole;  // [l·2 + k]
  };

  // The factor passes' jobs: placement-major, then seed.
  static std::array<size_t, 2> jobs_of(const Config& c) { return {c.placements.size(), c.seeds.size()}; }

  explicit DepthFactors(const Config& c) : cfg_(c) {}

  // A unit: one probe batch, or one factor pass (a forward and a backward).
  void step_once() {
    if (!probe_json_.empty()) return factor_pass();
    if (!probe_) probe_ = std::make_unique<ProbeRun>(probe_of(cfg_));
    probe_->step(1);
    if (probe_->done()) probe_json_ = probe_->result_json(), probe_.reset();
  }
  bool done() const { return !probe_json_.empty() && job_ >= run_count_of(jobs_of(cfg_)); }
  double progress() const {
    if (done()) return 1.0;
    const double passes = static_cast<double>(run_count_of(jobs_of(cfg_)) * cfg_.batches);
    if (probe_json_.empty()) return 0.5 * (probe_ ? probe_->progress() : 0.0);
    return std::min(0.999, 0.5 + 0.5 * (job_ * cfg_.batches + batch_) / passes);
  }

  void write(json::Writer& w) const {
    const int L = cfg_.model.layers;
    const json::Value probe = json::parse(probe_json_);
    w.key("layers").value(L);
    w.key("appendix_f_layer_factor").value(std::sqrt(2.0 / 3.0));
    w.key("placements").begin_object();
    for (size_t pi = 0; pi < cfg_.placements.size(); ++pi) {
      const std::string& p = cfg_.placements[pi];
      const auto& doc = probe.obj.at("placements").obj.at(p).obj;
      w.key(p).begin_object();
      // 1. Figure 3a at L, and Appendix F's decay from the last layer down
      std::vector<double> per_batch;
      for (const char* stat : {"W2_per_batch", "W2_per_layer"}) {
        const auto& ms = doc.at(stat).obj;
        w.key(stat).begin_object();
        w.key("mean").begin_array();
        for (const auto& x : ms.at("mean").arr) w.value(x.num);
        w.end_array().key("std").begin_array();
        for (const auto& x : ms.at("std").arr) w.value(x.num);
        w.end_array().end_object();
      }
      for (const auto& x : doc.at("W2_per_batch").obj.at("mean").arr) per_batch.push_back(x.num);
      w.key("appendix_f_W2_per_batch").begin_array();
      for (int l = 1; l <= L; ++l) w.value(per_batch.back() * std::pow(2.0 / 3.0, 0.5 * (L - l)));
      w.end_array();
      w.key("first_over_last").value(per_batch.front() / per_batch.back());
      w.key("appendix_f_first_over_last").value(std::pow(2.0 / 3.0, 0.5 * (L - 1)));
      // 2. the factors, per layer: each sublayer's three ratios and the layer's product
      w.key("factors").begin_array();
      double log_norm = 0, log_residual = 0, log_whole = 0;
      for (int l = 0; l < L; ++l) {
        w.begin_object().key("layer").value(l + 1);
        std::vector<double> layer(cfg_.seeds.size(), 1.0);
        for (int k = 0; k < kSublayers; ++k) {
          const size_t i = static_cast<size_t>(l) * kSublayers + k;
          std::vector<double> nf, rf, wf;
          for (size_t si = 0; si < cfg_.seeds.size(); ++si) {
            const Ratios& r = ratios_[pi * cfg_.seeds.size() + si];
            nf.push_back(r.norm[i] / cfg_.batches);
            rf.push_back(r.residual[i] / cfg_.batches);
            wf.push_back(r.whole[i] / cfg_.batches);
            layer[si] *= wf.back();
          }
          w.key(kSublayerName[k]).begin_object();
          w.key("norm_factor");
          write_mean_std(w, nf);
          w.key("residual_factor");
          write_mean_std(w, rf);
          w.key("factor");
          write_mean_std(w, wf);
          w.end_object();
          if (l > 0) {
            log_norm += std::log(mean_std(nf).mean);
            log_residual += std::log(mean_std(rf).mean);
            log_whole += std::log(mean_std(wf).mean);
          }
        }
        w.key("layer_factor");
        write_mean_std(w, layer);
        w.end_object();
      }
      w.end_array();
      // Over layers 2 … L, the ones the gradient crosses between the output side and layer 1: the
      // geometric mean per layer of each factor (Appendix F: √(2/3) for the norms, 1 for the rest).
      const double n = std::max(1, L - 1);
      w.key("geomean_per_layer").begin_object();
      w.key("norm_factor").value(std::exp(log_norm / n));
      w.key("residual_factor").value(std::exp(log_residual / n));
      w.key("factor").value(std::exp(log_whole / n));
      w.end_object();
      w.end_object();
    }
    w.end_object();
  }

 private:
  void factor_pass() {
    const auto [pi, si] = run_indices(job_, jobs_of(cfg_));
    const std::string& p = cfg_.placements[pi];
    const uint64_t seed = cfg_.seeds[si];
    if (!model_) {
      ModelConfig mc = cfg_.model;
      mc.placement = p;
      model_ = std::make_unique<Transformer<float>>(mc, seed);
      rng_ = std::make_unique<Rng>(stream_seed(seed, kStreamBatches));
      const size_t n = static_cast<size_t>(cfg_.model.layers) * kSublayers;
      ratios_.push_back({std::vector<double>(n), std::vector<double>(n), std::vector<double>(n)});
      const size_t Nd = static_cast<size_t>(mc.batch) * mc.seq * mc.d;
      model_->set_backward_tap([this, Nd](int l, int k, const float* dout, const float* ds, const float* dx) {
        const double go = frobenius(dout, Nd), gs = frobenius(ds, Nd), gx = frobenius(dx, Nd);
        Ratios& r = ratios_.back();
        const size_t i = static_cast<size_t>(l) * kSublayers + k;
        r.norm[i] += gs / go;
        r.residual[i] += gx / gs;
        r.whole[i] += gx / go;
      });
    }
    const ModelConfig& mc = model_->config();
    detail::probe_batch(*rng_, mc.batch * mc.seq, mc.vocab, in_, tg_);
    model_->zero_grad();
    model_->forward(in_.data(), tg_.data());
    model_->backward(GradScope::All);
    if (++batch_ == cfg_.batches) batch_ = 0, ++job_, model_.reset(), rng_.reset();
  }
  static double frobenius(const float* x, size_t n) {
    double s = 0;
    for (size_t i = 0; i < n; ++i) s += static_cast<double>(x[i]) * x[i];
    return std::sqrt(s);
  }

  Config cfg_;
  std::unique_ptr<ProbeRun> probe_;
  std::string probe_json_;
  std::unique_ptr<Transformer<float>> model_;
  std::unique_ptr<Rng> rng_;
  std::vector<int> in_, tg_;
  std::vector<Ratios> ratios_;  // [placement · seeds + seed]
  size_t job_ = 0;
  int batch_ = 0;
};

}  // namespace

ExperimentInfo depth_factors_info() { return info_of<DepthFactors>(); }

}  // namespace lnx::exp
