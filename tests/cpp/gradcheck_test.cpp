// gradcheck_test.cpp — the hand-written backward against central finite differences, in double,
// for every parameter tensor of both placements and both attention modes.
//
// Metric per tensor: ‖g − g_fd‖ / max(‖g‖, ‖g_fd‖) (normalised, stable where entries cross zero,
// as in ggml's test-backend-ops). Step h = 1e-5 gives a truncation error ~h² ≈ 1e-10 and a rounding
// error ~ε/h ≈ 1e-11, so a correct backward lands near 1e-9; the acceptance bound is 1e-6.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "model.h"
#include "rng.h"

namespace lnx {
namespace {

struct Case {
  Norm norm;
  Attention attention;
};

std::string name(const testing::TestParamInfo<Case>& info) {
  return std::string(to_string(info.param.norm)) + "_" + to_string(info.param.attention);
}

class GradCheck : public testing::TestWithParam<Case> {};

TEST_P(GradCheck, EveryParameterTensorMatchesFiniteDifferences) {
  ModelConfig cfg{2, 8, 12, 11, 5, 2, GetParam().norm, GetParam().attention};
  Transformer<double> model(cfg, 7);
  // Move γ, β and the biases away from their initial 1/0 so their gradients are generic.
  Rng rng(99);
  for (auto& [nm, t] : model.named_tensors())
    if (t.cols == 1)
      for (size_t i = 0; i < t.size(); ++i) model.param(t)[i] += 0.3 * rng.normal();
  const int N = cfg.batch * cfg.seq;
  std::vector<int> tokens(N), targets(N);
  for (int r = 0; r < N; ++r) tokens[r] = static_cast<int>(rng.below(cfg.vocab)), targets[r] = static_cast<int>(rng.below(cfg.vocab));

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
    if (nm.size() > 2 && nm.compare(nm.size() - 2, 2, "bk") == 0) {
      // The key bias adds q·b_k to every score of a row, and softmax ignores a constant shift:
      // its gradient is exactly zero. Both estimates must be zero up to rounding.
      EXPECT_LT(std::sqrt(a2), 1e-12) << nm;
      EXPECT_LT(std::sqrt(f2), 1e-8) << nm;
      continue;
    }
    const double rel = std::sqrt(diff2) / std::max({std::sqrt(a2), std::sqrt(f2), 1e-30});
    EXPECT_LT(rel, 1e-6) << nm << ": relative error " << rel << " (|g| = " << std::sqrt(a2) << ")";
    EXPECT_GT(std::sqrt(a2), 1e-6) << nm << ": gradient is (nearly) zero, the check would be vacuous";
  }
  EXPECT_EQ(checked, 1 + 14 * cfg.layers + (cfg.norm == Norm::Pre ? 2 : 0));
}

INSTANTIATE_TEST_SUITE_P(AllPlacements, GradCheck,
                         testing::Values(Case{Norm::Post, Attention::Bidirectional}, Case{Norm::Post, Attention::Causal},
                                         Case{Norm::Pre, Attention::Bidirectional}, Case{Norm::Pre, Attention::Causal}),
                         name);

// The probe's reduced backward (W² only, or the last W² only) must give exactly the W² gradients of
// the full backward: it skips work, never changes a number.
TEST(GradScope, ReducedBackwardGivesTheSameW2Gradients) {
  for (Norm norm : {Norm::Post, Norm::Pre}) {
    ModelConfig cfg{3, 16, 24, 13, 6, 2, norm, Attention::Bidirectional};
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
    for (int l = 0; l < cfg.layers; ++l) EXPECT_EQ(w2(GradScope::All, l), w2(GradScope::W2Only, l)) << l;
    EXPECT_EQ(w2(GradScope::All, cfg.layers - 1), w2(GradScope::LastW2Only, cfg.layers - 1));
  }
}

}  // namespace
}  // namespace lnx
