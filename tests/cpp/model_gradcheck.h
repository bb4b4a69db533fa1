// model_gradcheck.h — the whole model's hand-written backward against central finite differences,
// in double, for every parameter tensor; shared by gradcheck_test.cpp (the engine's placements),
// placement_test.cpp (placements registered by the test only), placement_spec_test.cpp and
// placement_ops_test.cpp (placements from specs). Also the check that the probe's reduced backward
// changes no W² gradient.
//
// Metric per tensor: ‖g − g_fd‖ / max(‖g‖, ‖g_fd‖) (normalised, stable where entries cross zero,
// as in ggml's test-backend-ops). Step h = 1e-5 gives a truncation error ~h² ≈ 1e-10 and a rounding
// error ~ε/h ≈ 1e-11, so a correct backward lands near 1e-9; the acceptance bound is 1e-6.
#pragma once
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "model.h"
#include "placements/spec.h"
#include "rng.h"

namespace lnx::testing_support {

// Checks every tensor; returns how many were checked.
// Central differences are meaningless across ReLU's kink: a pre-activation within about 1e-3 of 0
// (what a step h moves it by, amplified by the norms) makes the estimate jump. The inputs are drawn
// again, from the next seed, until every pre-activation is at least that far from 0.
constexpr double kKinkMargin = 1e-3;

inline int check_model_gradients(const ModelConfig& cfg) {
  Transformer<double> model(cfg, 7);
  const int N = cfg.batch * cfg.seq;
  const size_t NF = static_cast<size_t>(N) * cfg.d_ff;
  std::vector<int> tokens(N), targets(N);
  const std::vector<double> init = model.params();
  for (uint64_t draw = 0;; ++draw) {
    if (draw == 50) {
      ADD_FAILURE() << "no draw keeps the ReLU inputs away from the kink";
      return 0;
    }
    model.params() = init;
    // Move γ, β and the biases away from their initial 1/0 so their gradients are generic.
    Rng rng(99 + draw);
    for (auto& [nm, t] : model.named_tensors())
      if (t.cols == 1)
        for (size_t i = 0; i < t.size(); ++i) model.param(t)[i] += 0.3 * rng.normal();
    for (int r = 0; r < N; ++r)
      tokens[r] = static_cast<int>(rng.below(cfg.vocab)), targets[r] = static_cast<int>(rng.below(cfg.vocab));
    model.forward(tokens.data(), targets.data());
    double nearest = 1e30;
    for (int l = 0; l < cfg.layers; ++l)
      for (size_t i = 0; i < NF; ++i) nearest = std::min(nearest, std::fabs(model.ffn_preactivation(l)[i]));
    if (nearest >= kKinkMargin) break;
  }

  model.zero_grad();
  model.forward(tokens.data(), targets.data());
  model.backward(GradScope::All);
  const std::vector<double> analytic = model.grads();

  const double h = 1e-5;
  int checked = 0;
  for (auto& [nm, t] : model.named_tensors()) {
    double diff2 = 0, a2 = 0, f2 = 0;
    for (size_t i = 0; i < t.size(); ++i) {
      double& p = model.param(t)[i];
      const double saved = p;
      p = saved + h;
      const double lp = model.forward(tokens.data(), targets.data());
      p = saved - h;
      const double lm = model.forward(tokens.data(), targets.data());
      p = saved;
      const double fd = (lp - lm) / (2 * h);
      const double an = analytic[t.off + i];
      diff2 += (fd - an) * (fd - an);
      a2 += an * an;
      f2 += fd * fd;
    }
    ++checked;
    // The key bias adds q·b_k to every score of a row, and softmax ignores a constant shift: its
    // gradient is exactly zero. With a QK-norm the key bias is normed away from a shift, and the k
    // norm's β is the shift instead. Both estimates must then be zero up to rounding.
    auto ends_with = [&](const char* tail) {
      const size_t n = std::char_traits<char>::length(tail);
      return nm.size() >= n && nm.compare(nm.size() - n, n, tail) == 0;
    };
    const bool qk_norm = resolve_placement(cfg.placement, cfg.placement_spec)->qk_norm != NormKind::None;
    const bool key_bias = qk_norm ? ends_with(".knorm.beta") : ends_with("bk");
    if (key_bias) {
      EXPECT_LT(std::sqrt(a2), 1e-12) << nm;
      EXPECT_LT(std::sqrt(f2), 1e-8) << nm;
      continue;
    }
    const double rel = std::sqrt(diff2) / std::max({std::sqrt(a2), std::sqrt(f2), 1e-30});
    EXPECT_LT(rel, 1e-6) << cfg.placement << " " << nm << ": relative error " << rel << " (|g| = " << std::sqrt(a2)
                         << ")";
    EXPECT_GT(std::sqrt(a2), 1e-6) << cfg.placement << " " << nm
                                   << ": gradient is (nearly) zero, the check would be vacuous";
  }
  return checked;
}

// The probe's reduced backward (W² only, or the last W² only) must give exactly the W² gradients of
// the full backward: it skips work, never changes a number.
inline void expect_reduced_backward_matches(const ModelConfig& cfg) {
  Transformer<double> model(cfg, 3);
  const int N = cfg.batch * cfg.seq;
  std::vector<int> tokens(N), targets(N);
  for (int r = 0; r < N; ++r) tokens[r] = r % cfg.vocab, targets[r] = (r + 1) % cfg.vocab;
  auto w2 = [&](GradScope scope, int l) {
    model.zero_grad();
    model.forward(tokens.data(), targets.data());
    model.backward(scope);
    const TensorRef& t = model.layer(l).W2;
    return std::vector<double>(model.grad(t), model.grad(t) + t.size());
  };
  for (int l = 0; l < cfg.layers; ++l)
    EXPECT_EQ(w2(GradScope::All, l), w2(GradScope::W2Only, l)) << cfg.placement << " " << l;
  EXPECT_EQ(w2(GradScope::All, cfg.layers - 1), w2(GradScope::LastW2Only, cfg.layers - 1)) << cfg.placement;
}

// The number of parameter tensors a norm of this kind has: γ and β (LayerNorm), γ (RMSNorm), γ, β
// and α (DyT), none (none).
inline int norm_tensors(NormKind k) {
  switch (k) {
    case NormKind::RmsNorm:
      return 1;
    case NormKind::DyT:
      return 3;
    case NormKind::None:
      return 0;
    default:
      return 2;
  }
}

// The number of parameter tensors a model has: E, 10 per layer (Wq, bq, Wk, bk, Wv, bv, W1, b1, W2,
// b2), each norm's (norm_tensors) and the final norm's if there is one, a QK-norm's two norms, a
// gate per sublayer (or per layer), and U if untied.
inline int expected_tensors(const ModelConfig& cfg) {
  const std::shared_ptr<const Placement> pl = resolve_placement(cfg.placement, cfg.placement_spec);
  const Placement& p = *pl;
  const int per_norm = norm_tensors(Transformer<double>::norm_kind(cfg, p));
  const bool final_norm = cfg.final_norm == FinalNorm::Auto ? p.final_norm : cfg.final_norm == FinalNorm::On;
  const int qk = 2 * norm_tensors(p.qk_norm);
  const int gates = p.residual_scale.learnable() ? (p.residual_scale.per_layer ? 1 : 2) : 0;
  return 1 + cfg.layers * (10 + per_norm * (p.attention.norms() + p.ffn.norms()) + qk + gates) +
         (final_norm ? per_norm : 0) + (cfg.output == OutputLayer::Untied ? 1 : 0);
}

}  // namespace lnx::testing_support
