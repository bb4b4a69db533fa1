// measure.h — what several experiments do to a model at a point of its training: evaluate a batch
// with given parameters, step some of its tensors along sign(g), perturb it, compare logits, find a
// curve's escape from the plateau. Pure helpers over Transformer<float>; no experiment state.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "../markov.h"
#include "../model.h"
#include "../rng.h"
#include "../stats.h"

namespace lnx::exp {

// Streams of the engine's PRNG the experiments draw from, apart from the model's and the batches'.
enum ExperimentStream : uint64_t { kStreamPerturbation = 101, kStreamFixedBatch = 102 };

// The tensors of a model that the experiments step or perturb: every parameter tensor, or only
// those of layer `l` (0-based).
inline std::vector<TensorRef> tensors_of(const Transformer<float>& m, int layer = -1) {
  std::vector<TensorRef> out;
  const std::string prefix = "layer" + std::to_string(layer + 1) + ".";
  for (const auto& [name, t] : m.named_tensors())
    if (layer < 0 || name.rfind(prefix, 0) == 0) out.push_back(t);
  return out;
}

// The tensors of the layers only (no embedding, final norm or output matrix).
inline std::vector<TensorRef> layer_tensors_of(const Transformer<float>& m) {
  std::vector<TensorRef> out;
  for (const auto& [name, t] : m.named_tensors())
    if (name.rfind("layer", 0) == 0) out.push_back(t);
  return out;
}

// θ ← θ0 − η·sign(g) on `tensors` (every other parameter θ0): Adam's first step, when ε ≪ |g|.
inline void sign_step(std::vector<float>& params, const std::vector<float>& theta0, const std::vector<float>& grad,
                      const std::vector<TensorRef>& tensors, double eta) {
  params = theta0;
  const float e = static_cast<float>(eta);
  for (const TensorRef& t : tensors)
    for (size_t i = t.off; i < t.off + t.size(); ++i) params[i] -= grad[i] > 0 ? e : grad[i] < 0 ? -e : 0.0f;
}

// Mean over the N·V entries of (a − b)².
inline double mean_sq_diff(const float* a, const float* b, size_t n) {
  double s = 0;
  for (size_t i = 0; i < n; ++i) {
    const double d = static_cast<double>(a[i]) - b[i];
    s += d * d;
  }
  return n ? s / static_cast<double>(n) : 0;
}

// ‖v‖₁ over `tensors`.
inline double l1_norm(const std::vector<float>& v, const std::vector<TensorRef>& tensors) {
  double s = 0;
  for (const TensorRef& t : tensors)
    for (size_t i = t.off; i < t.off + t.size(); ++i) s += std::fabs(static_cast<double>(v[i]));
  return s;
}

// The first step at which the `window`-step mean of a loss curve is `drop` below the plateau, or 0
// when it never is (the experiments' and the quick look's escape step; scripts/quick-look-search.mjs).
inline int escape_step(const std::vector<double>& loss, double plateau, int window = 10, double drop = 0.5) {
  double s = 0;
  for (size_t t = 0; t < loss.size(); ++t) {
    s += loss[t];
    if (t >= static_cast<size_t>(window)) s -= loss[t - window];
    if (t + 1 >= static_cast<size_t>(window) && s / window < plateau - drop) return static_cast<int>(t + 1);
  }
  return 0;
}

// The key "escape_step" with a loss curve's escape step, or null when it never escapes (warmup-length's
// and real-text's runs and groups).
inline void write_escape_step(json::Writer& w, const std::vector<double>& loss, double plateau) {
  const int e = escape_step(loss, plateau);
  w.key("escape_step");
  if (e > 0) w.value(e);
  else w.null();
}

// A loss curve to draw (phase-diagram's and lr-sensitivity's runs): at most `points` means of `every`
// consecutive recorded losses (the last bucket may be shorter), point k at step
// min((k + 1)·every, loss.size()), each rounded to 1e-4. curve_every gives `every` (the caller writes
// it under its own key); write_curve writes the array at the key the caller has just written.
constexpr int kCurvePoints = 100;
inline size_t curve_every(size_t n, int points = kCurvePoints) {
  return std::max<size_t>(1, (n + points - 1) / points);
}
inline void write_curve(json::Writer& w, const std::vector<float>& loss, size_t every) {
  const size_t n = loss.size();
  w.begin_array();
  for (size_t a = 0; a < n; a += every) {
    const size_t b = std::min(n, a + every);
    double s = 0;
    for (size_t t = a; t < b; ++t) s += loss[t];
    w.value(std::round(1e4 * s / (b - a)) / 1e4);  // a curve to draw: 4 decimals
  }
  w.end_array();
}

// The largest attention logit of the model's last forward pass: the max over its layers, sequences,
// rows i and the columns j row i sees (j ≤ i with causal attention) of |q_i·k_j|/√d, with q and k as
// the attention read them (after a QK-norm; model.h attention_q/k; one head of width d), in double.
// NaN when any of them is not finite.
inline double max_attention_logit(const Transformer<float>& m) {
  const ModelConfig& c = m.config();
  const int n = c.seq, d = c.d;
  const bool causal = c.attention == Attention::Causal;
  const double scale = 1 / std::sqrt(static_cast<double>(d));
  double mx = 0;
  for (int l = 0; l < c.layers; ++l) {
    const float *q = m.attention_q(l), *k = m.attention_k(l);
    for (int b = 0; b < c.batch; ++b)
      for (int i = 0; i < n; ++i) {
        const float* qi = q + (static_cast<size_t>(b) * n + i) * d;
        for (int j = 0; j <= (causal ? i : n - 1); ++j) {
          const float* kj = k + (static_cast<size_t>(b) * n + j) * d;
          double s = 0;
          for (int e = 0; e < d; ++e) s += static_cast<double>(qi[e]) * kj[e];
          const double a = std::fabs(s) * scale;
          if (!std::isfinite(a)) return NAN;
          mx = std::max(mx, a);
        }
      }
  }
  return mx;
}

// Wortsman et al. 2023 (arXiv 2309.14322, §2.2)'s LR sensitivity of final losses ℓ(η) over a grid of
// learning rates: E_η[min(ℓ(η), ℓ₀) − min_η ℓ(η)], ℓ₀ the loss at init, the expectation the mean over
// the grid (a log-spaced grid: the mean under a log-uniform η). A loss that is not finite (a run that
// diverged) counts as ℓ₀, as does any loss above it; the best loss is taken over the same capped
// values. 0 for a flat curve (and for none); never negative.
inline double lr_sensitivity(const std::vector<double>& loss, double loss0) {
  if (loss.empty()) return 0;
  double sum = 0, best = loss0;
  for (double l : loss) {
    const double capped = std::isfinite(l) ? std::min(l, loss0) : loss0;
    sum += capped, best = std::min(best, capped);
  }
  return sum / static_cast<double>(loss.size()) - best;
}

// Least-squares slope of log y against log x (a power law's exponent); NaN with fewer than 2 points.
inline double log_log_slope(const std::vector<double>& x, const std::vector<double>& y) {
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  int n = 0;
  for (size_t i = 0; i < x.size() && i < y.size(); ++i) {
    if (!(x[i] > 0) || !(y[i] > 0)) continue;
    const double a = std::log(x[i]), b = std::log(y[i]);
    sx += a, sy += b, sxx += a * a, sxy += a * b, ++n;
  }
  if (n < 2) return NAN;
  return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

// The (placement, depth) × seed sweep of the init-time experiments: one unit of work is one seed
// of one job, in job order (placement-major, then depth), costed ∝ `passes(L)`·L for progress.
class DepthSweep {
 public:
  struct Job {
    std::string placement;
    int layers;
  };
  template <class Passes>
  DepthSweep(const std::vector<std::string>& placements, const std::vector<int>& depths, size_t seeds, Passes passes)
      : seeds_(seeds) {
    for (const auto& p : placements)
      for (int L : depths) {
        jobs_.push_back({p, L});
        cost_.push_back(static_cast<double>(L) * passes(L));
        total_ += cost_.back() * seeds;
      }
  }
  bool done() const { return job_ >= jobs_.size(); }
  double progress() const { return done() ? 1.0 : std::min(0.999, done_ / total_); }
  const Job& job() const { return jobs_[job_]; }
  size_t job_index() const { return job_; }
  size_t seed_index() const { return seed_; }
  const std::vector<Job>& jobs() const { return jobs_; }
  void advance() {
    done_ += cost_[job_];
    if (++seed_ == seeds_) seed_ = 0, ++job_;
  }

 private:
  std::vector<Job> jobs_;
  std::vector<double> cost_;
  size_t seeds_, job_ = 0, seed_ = 0;
  double done_ = 0, total_ = 0;
};

// A freshly initialised model of `placement` and depth L (seed `seed`), and one toy batch of the
// chain from the seed's batch stream (the same batch for every placement and depth).
struct InitModel {
  InitModel(ModelConfig mc, const std::string& placement, int layers, uint64_t seed, const MarkovChain& chain)
      : model((mc.placement = placement, mc.layers = layers, mc), seed) {
    Rng rng(stream_seed(seed, kStreamBatches));
    chain.sample(rng, mc.batch, mc.seq, in, tg);
  }
  double forward() { return model.forward(in.data(), tg.data()); }
  size_t logits_size() const {
    const ModelConfig& c = model.config();
    return static_cast<size_t>(c.batch) * c.seq * c.vocab;
  }
  Transformer<float> model;
  std::vector<int> in, tg;
};

// The output's sensitivity at init (output_sensitivity.cpp, init_profile.cpp): the mean squared change
// of the logits on im's batch when `perturb(model)` changes the parameters after the first forward.
template <class Perturb>
double logit_change(InitModel& im, Perturb perturb) {
  Transformer<float>& m = im.model;
  const size_t NV = im.logits_size();
  im.forward();
  const std::vector<float> logits0(m.logits(), m.logits() + NV);
  perturb(m);
  im.forward();
  return mean_sq_diff(m.logits(), logits0.data(), NV);
}

// θ += δ·N(0, 1) on `tensors`, the noise from the seed's perturbation stream.
inline void perturb_randomly(std::vector<float>& params, const std::vector<TensorRef>& tensors, double delta,
                             uint64_t seed) {
  Rng noise(stream_seed(seed, kStreamPerturbation));
  for (const TensorRef& t : tensors)
    for (size_t i = t.off; i < t.off + t.size(); ++i) params[i] += static_cast<float>(delta * noise.normal());
}

inline void write_mean_std(json::Writer& w, const std::vector<double>& xs) {
  const MeanStd m = mean_std(xs);
  w.begin_object()
      .key("mean")
      .value(m.mean)
      .key("std")
      .value(m.std)
      .key("per_seed")
      .array(xs.begin(), xs.end())
      .end_object();
}

// One placement's logit changes against depth, as logit_change measured them per job of `sweep` and
// seed (out[job][seed]): "depths": [{"layers", "dlogits2": mean/std/per_seed}, …] in the sweep's order,
// then "slope", the log-log slope of the means against L. Returns the means.
inline std::vector<double> write_sensitivity_depths(json::Writer& w, const DepthSweep& sweep,
                                                    const std::vector<std::vector<double>>& out,
                                                    const std::string& placement) {
  std::vector<double> Ls, means;
  w.key("depths").begin_array();
  const auto& jobs = sweep.jobs();
  for (size_t j = 0; j < jobs.size(); ++j) {
    if (jobs[j].placement != placement) continue;
    w.begin_object().key("layers").value(jobs[j].layers).key("dlogits2");
    write_mean_std(w, out[j]);
    w.end_object();
    Ls.push_back(jobs[j].layers);
    means.push_back(mean_std(out[j]).mean);
  }
  w.end_array();
  w.key("slope").value(log_log_slope(Ls, means));
  return means;
}

}  // namespace lnx::exp
