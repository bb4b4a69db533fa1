// op_gradcheck_test.cpp — every op's hand-written backward against central finite differences, in
// double, one op at a time (gradcheck_test.cpp checks the whole model; this file says which op broke).
//
// Method, for an op out = f(inputs): a fixed random R (lnx::Rng) defines the scalar loss
// ℒ = Σ R ⊙ out, so dℒ/dout = R is what goes into the backward. Each differentiable input and
// parameter is then perturbed entry by entry (h = 1e-5) and compared per tensor with
// ‖g − g_fd‖ / max(‖g‖, ‖g_fd‖) < 1e-6 (as gradcheck_test.cpp; a correct op lands near 1e-10), and
// ‖g‖ must not be (nearly) zero, so no check passes vacuously. Cross-entropy returns ℒ itself.
// Backward outputs are pre-filled: with random values where the op accumulates (+=, the value it
// adds is checked), with NaN where it overwrites (a read of the old value would poison the check).
// Shapes are small and odd (no multiple of a SIMD width); linear also runs the GEMM's other paths.
// Leaves out: float (rounding would swamp the FD), Adam (no gradient), the GPU backend.
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "cpu_backend.h"
#include "gemm.h"
#include "ops/attention.h"
#include "ops/cross_entropy.h"
#include "ops/dyt.h"
#include "ops/gate.h"
#include "ops/layernorm.h"
#include "ops/linear.h"
#include "ops/reduce.h"
#include "ops/relu.h"
#include "rng.h"
#include "thread_pool.h"

namespace lnx {
namespace {

using Vec = std::vector<double>;

constexpr double kStep = 1e-5;     // truncation ~h² ≈ 1e-10, rounding ~ε/h ≈ 1e-11
constexpr double kBound = 1e-6;    // on the relative error per tensor
constexpr double kMinNorm = 1e-6;  // below this ‖g‖ the check would say nothing

Vec normal(Rng& rng, size_t n, double scale = 1.0, double shift = 0.0) {
  Vec v(n);
  for (double& x : v) x = shift + scale * rng.normal();
  return v;
}
Vec nans(size_t n) { return Vec(n, std::numeric_limits<double>::quiet_NaN()); }
double dot(const Vec& a, const Vec& b) {
  double s = 0;
  for (size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
  return s;
}
// What an accumulating backward added to its pre-filled output.
Vec added(const Vec& after, const Vec& before) {
  Vec d(after.size());
  for (size_t i = 0; i < d.size(); ++i) d[i] = after[i] - before[i];
  return d;
}

struct GradError {
  double rel, g_norm, fd_norm;
};

// Central differences of loss() over every entry of param (restored exactly afterwards), compared
// with the analytic gradient: ‖g − g_fd‖ / max(‖g‖, ‖g_fd‖).
GradError grad_error(Vec& param, const Vec& analytic, const std::function<double()>& loss) {
  double diff2 = 0, a2 = 0, f2 = 0;
  for (size_t i = 0; i < param.size(); ++i) {
    const double saved = param[i];
    param[i] = saved + kStep;
    const double lp = loss();
    param[i] = saved - kStep;
    const double lm = loss();
    param[i] = saved;
    const double fd = (lp - lm) / (2 * kStep);
    diff2 += (analytic[i] - fd) * (analytic[i] - fd);
    a2 += analytic[i] * analytic[i];
    f2 += fd * fd;
  }
  const double rel = std::sqrt(diff2) / std::max({std::sqrt(a2), std::sqrt(f2), 1e-30});
  return {rel, std::sqrt(a2), std::sqrt(f2)};
}

void check_grad(const std::string& name, Vec& param, const Vec& analytic, const std::function<double()>& loss) {
  ASSERT_EQ(param.size(), analytic.size()) << name;
  const GradError e = grad_error(param, analytic, loss);
  std::printf("[ fd-check ] %-44s rel %.2e  |g| %.3g\n", name.c_str(), e.rel, e.g_norm);
  EXPECT_LT(e.rel, kBound) << name << ": relative error " << e.rel << " (|g| = " << e.g_norm
                           << ", |g_fd| = " << e.fd_norm << ")";
  EXPECT_GT(e.g_norm, kMinNorm) << name << ": gradient is (nearly) zero, the check would be vacuous";
}

std::string shape(std::initializer_list<int> dims) {
  std::string s;
  for (int d : dims) s += (s.empty() ? "" : "x") + std::to_string(d);
  return s;
}

// Sends gemm's calls down its thread-split path (row blocks of 16, column blocks of 48, the last
// block taking the remainder) on a 2-thread pool, although the shapes are far below the 2 MFLOP at
// which it would split by itself; restores the pool size and the threshold.
class ForceGemmSplit {
 public:
  ForceGemmSplit() : threads_(pool().size()), threshold_(gemm_detail::parallel_threshold()) {
    reset_pool(2);
    gemm_detail::set_parallel_threshold(0);
  }
  ~ForceGemmSplit() {
    gemm_detail::set_parallel_threshold(threshold_);
    reset_pool(threads_);
  }

 private:
  int threads_;
  double threshold_;
};

// out = inp·Wᵀ + b. dW and db accumulate; dinp accumulates only with accumulate_dinp, else it is
// overwritten. Shapes reach every path of the double GEMM (native: Eigen): 5x7→3 Eigen's lazy
// coefficient product (M+N+K < 20), 1 row its GEMV, 13x11→97 and 150x5→7 its packed GEBP kernel,
// 33x19→97 with ForceGemmSplit gemm.cpp's row split (dinp, dW) and column split (forward).
TEST(OpGradCheck, LinearInputWeightAndBiasGradientsMatchAndDinpAccumulatesOnlyWhenAsked) {
  struct Case {
    int N, IC, OC;
    bool bias, accumulate, split;
  };
  const Case cases[] = {
      {5, 7, 3, true, false, false},   {5, 7, 3, true, true, false},   {5, 7, 3, false, false, false},
      {5, 7, 3, false, true, false},   {1, 23, 17, true, true, false}, {13, 11, 97, true, false, false},
      {150, 5, 7, false, true, false}, {33, 19, 97, true, true, true}, {33, 19, 97, false, false, true}};
  uint64_t seed = 100;
  for (const Case& c : cases) {
    const std::string tag = "linear " + shape({c.N, c.IC, c.OC}) + (c.bias ? " bias" : " nobias") +
                            (c.accumulate ? " acc" : " overwrite") + (c.split ? " split" : "");
    SCOPED_TRACE(tag);
    std::optional<ForceGemmSplit> split;
    if (c.split) split.emplace();
    Rng rng(++seed);
    Vec inp = normal(rng, size_t(c.N) * c.IC), W = normal(rng, size_t(c.OC) * c.IC, 0.5), b = normal(rng, c.OC);
    const Vec R = normal(rng, size_t(c.N) * c.OC);
    Vec out(R.size());
    auto loss = [&] {
      ops::linear_forward(out.data(), inp.data(), W.data(), c.bias ? b.data() : nullptr, c.N, c.IC, c.OC);
      return dot(R, out);
    };
    loss();
    const Vec dinp0 = c.accumulate ? normal(rng, inp.size()) : nans(inp.size());
    const Vec dW0 = normal(rng, W.size()), db0 = normal(rng, b.size());
    Vec dinp = dinp0, dW = dW0, db = db0;
    ops::linear_backward(dinp.data(), dW.data(), c.bias ? db.data() : nullptr, R.data(), inp.data(), W.data(), c.N,
                         c.IC, c.OC, c.accumulate);
    check_grad(tag + " inp", inp, c.accumulate ? added(dinp, dinp0) : dinp, loss);
    check_grad(tag + " W", W, added(dW, dW0), loss);
    if (c.bias) check_grad(tag + " b", b, added(db, db0), loss);
  }
}

// out = res + inp·Wᵀ + b (a sublayer's sum, CpuBackend's linear_forward_residual): the model's backward
// is linear_backward's for inp, W and b, and the identity for res; both checked against its forward.
TEST(OpGradCheck, LinearOntoAResidualHasTheLinearGradientsAndPassesTheResidualThrough) {
  using Cpu = CpuBackend<double>;
  const int N = 13, IC = 11, OC = 17;
  Rng rng(150);
  Vec inp = normal(rng, size_t(N) * IC), W = normal(rng, size_t(OC) * IC, 0.5), b = normal(rng, OC),
      res = normal(rng, size_t(N) * OC);
  const Vec R = normal(rng, res.size());
  Vec out(R.size());
  auto loss = [&] {
    Cpu::linear_forward_residual(out.data(), res.data(), inp.data(), W.data(), b.data(), N, IC, OC);
    return dot(R, out);
  };
  Vec dinp(inp.size()), dW(W.size(), 0.0), db(b.size(), 0.0);
  ops::linear_backward(dinp.data(), dW.data(), db.data(), R.data(), inp.data(), W.data(), N, IC, OC, false);
  check_grad("linear onto a residual inp", inp, dinp, loss);
  check_grad("linear onto a residual W", W, dW, loss);
  check_grad("linear onto a residual b", b, db, loss);
  check_grad("linear onto a residual res", res, R, loss);
}

// out = softmax(q kᵀ/√d) v per sequence; the backward overwrites dq, dk, dv. On a 4-thread pool,
// so that 1×37 and 2×48 split each sequence into blocks of rows (ops/attention.h: more threads than
// sequences, whole 16-row units, the last block taking the remainder).
TEST(OpGradCheck, AttentionQueryKeyValueGradientsMatchCausalAndBidirectional) {
  struct Case {
    int B, n, d;
  };
  const int threads = pool().size();
  reset_pool(4);
  uint64_t seed = 200;
  for (const Case& c : {Case{3, 5, 7}, Case{1, 9, 3}, Case{1, 37, 5}, Case{2, 48, 4}})
    for (bool causal : {false, true}) {
      const std::string tag =
          std::string("attention ") + shape({c.B, c.n, c.d}) + (causal ? " causal" : " bidirectional");
      SCOPED_TRACE(tag);
      Rng rng(++seed);
      const size_t sz = size_t(c.B) * c.n * c.d;
      Vec q = normal(rng, sz), k = normal(rng, sz), v = normal(rng, sz);
      const Vec R = normal(rng, sz);
      Vec out(sz), P(size_t(c.B) * c.n * c.n);
      auto loss = [&] {
        ops::attention_forward(out.data(), P.data(), q.data(), k.data(), v.data(), c.B, c.n, c.d, causal);
        return dot(R, out);
      };
      loss();
      Vec dq = nans(sz), dk = nans(sz), dv = nans(sz);
      ops::attention_backward(dq.data(), dk.data(), dv.data(), R.data(), q.data(), k.data(), v.data(), P.data(), c.B,
                              c.n, c.d);
      check_grad(tag + " q", q, dq, loss);
      check_grad(tag + " k", k, dk, loss);
      check_grad(tag + " v", v, dv, loss);
    }
  reset_pool(threads);
}

// out = (inp − mean)·rstd·γ + β; the backward accumulates into dinp, dgamma and dbeta. 33x67 splits
// both of the backward's loops over the 2-thread pool (rows by 16, columns by 32).
TEST(OpGradCheck, LayerNormInputGammaBetaGradientsMatchAndAllAccumulate) {
  struct Case {
    int N, C;
  };
  uint64_t seed = 300;
  for (const Case& c : {Case{5, 7}, Case{33, 67}}) {
    const std::string tag = "layernorm " + shape({c.N, c.C});
    SCOPED_TRACE(tag);
    Rng rng(++seed);
    Vec inp = normal(rng, size_t(c.N) * c.C, 1.5, 0.7);
    Vec gamma = normal(rng, c.C, 0.3, 1.0), beta = normal(rng, c.C, 0.3);
    const Vec R = normal(rng, inp.size());
    Vec out(inp.size()), mean(c.N), rstd(c.N);
    auto loss = [&] {
      ops::layernorm_forward(out.data(), mean.data(), rstd.data(), inp.data(), gamma.data(), beta.data(), c.N, c.C);
      return dot(R, out);
    };
    loss();
    const Vec dinp0 = normal(rng, inp.size()), dgamma0 = normal(rng, c.C), dbeta0 = normal(rng, c.C);
    Vec dinp = dinp0, dgamma = dgamma0, dbeta = dbeta0;
    ops::layernorm_backward(dinp.data(), dgamma.data(), dbeta.data(), R.data(), inp.data(), mean.data(), rstd.data(),
                            gamma.data(), c.N, c.C);
    check_grad(tag + " inp", inp, added(dinp, dinp0), loss);
    check_grad(tag + " gamma", gamma, added(dgamma, dgamma0), loss);
    check_grad(tag + " beta", beta, added(dbeta, dbeta0), loss);
  }
}

// DyT: the input, γ, β and the scalar α; every gradient accumulates. The inputs are wide enough that
// some rows saturate (|α·x| > 3), and α is away from its 0.5 start.
TEST(OpGradCheck, DyTInputGammaBetaAlphaGradientsMatchAndAllAccumulate) {
  struct Case {
    int N, C;
    double alpha;
  };
  uint64_t seed = 350;
  for (const Case& c : {Case{5, 7, 0.5}, Case{33, 67, 1.3}}) {
    const std::string tag = "dyt " + shape({c.N, c.C});
    SCOPED_TRACE(tag);
    Rng rng(++seed);
    Vec inp = normal(rng, size_t(c.N) * c.C, 2.5, 0.4);
    Vec gamma = normal(rng, c.C, 0.3, 1.0), beta = normal(rng, c.C, 0.3), alpha = {c.alpha};
    const Vec R = normal(rng, inp.size());
    Vec out(inp.size()), act(inp.size());
    auto loss = [&] {
      ops::dyt_forward(out.data(), act.data(), inp.data(), gamma.data(), beta.data(), alpha.data(), c.N, c.C);
      return dot(R, out);
    };
    loss();
    const Vec dinp0 = normal(rng, inp.size()), dgamma0 = normal(rng, c.C), dbeta0 = normal(rng, c.C);
    const Vec dalpha0 = normal(rng, 1);
    Vec dinp = dinp0, dgamma = dgamma0, dbeta = dbeta0, dalpha = dalpha0;
    ops::dyt_backward(dinp.data(), dgamma.data(), dbeta.data(), dalpha.data(), R.data(), inp.data(), act.data(),
                      gamma.data(), alpha.data(), c.N, c.C);
    check_grad(tag + " inp", inp, added(dinp, dinp0), loss);
    check_grad(tag + " gamma", gamma, added(dgamma, dgamma0), loss);
    check_grad(tag + " beta", beta, added(dbeta, dbeta0), loss);
    check_grad(tag + " alpha", alpha, added(dalpha, dalpha0), loss);
    // without parameter gradients the input gradient is the same (the cache recomputed first: the
    // checks above left the last perturbed input's act in it)
    loss();
    Vec dinp_only = dinp0;
    ops::dyt_backward<double>(dinp_only.data(), nullptr, nullptr, nullptr, R.data(), inp.data(), act.data(),
                              gamma.data(), alpha.data(), c.N, c.C);
    EXPECT_EQ(dinp_only, dinp);
  }
}

// The residual gate s = x + g·f: x's gradient is the model's (ds itself), f's is g·ds (overwritten),
// g's is Σ ds·f (accumulated). Checked at g = 0 (ReZero's start: f's gradient is then exactly 0,
// so only the value is compared) and away from it.
TEST(OpGradCheck, GateBranchAndGateGradientsMatchAtZeroAndAwayFromIt) {
  uint64_t seed = 370;
  for (double g0 : {0.0, -0.37}) {
    const size_t n = 211;
    const std::string tag = "gate g0=" + std::to_string(g0);
    SCOPED_TRACE(tag);
    Rng rng(++seed);
    Vec x = normal(rng, n), f = normal(rng, n), g = {g0};
    const Vec R = normal(rng, n);
    Vec out(n);
    auto loss = [&] {
      ops::gate_forward(out.data(), x.data(), f.data(), g.data(), n);
      return dot(R, out);
    };
    loss();
    Vec df = nans(n);
    const Vec dg0 = normal(rng, 1);
    Vec dg = dg0;
    ops::gate_backward(df.data(), dg.data(), R.data(), f.data(), g.data(), n);
    check_grad(tag + " g", g, added(dg, dg0), loss);
    if (g0 != 0.0) {
      check_grad(tag + " f", f, df, loss);
    } else {
      for (double v : df) ASSERT_EQ(v, 0.0);  // a closed gate passes no gradient into its branch
    }
    Vec df_only = nans(n);
    ops::gate_backward<double>(df_only.data(), nullptr, R.data(), f.data(), g.data(), n);
    EXPECT_EQ(df_only, df);
  }
}

// ℒ = mean_r −log softmax(logits)[r, target r]; the backward overwrites dlogits. The second case
// shifts every logit by 20 (the max subtraction must keep it exact) and repeats targets.
TEST(OpGradCheck, CrossEntropyLogitGradientsMatchWithTargetsFixed) {
  struct Case {
    int N, V;
    double shift;
  };
  uint64_t seed = 400;
  for (const Case& c : {Case{5, 7, 0.0}, Case{37, 11, 20.0}}) {
    const std::string tag = "cross_entropy " + shape({c.N, c.V}) + (c.shift != 0 ? " shifted" : "");
    SCOPED_TRACE(tag);
    Rng rng(++seed);
    Vec logits = normal(rng, size_t(c.N) * c.V, 2.0, c.shift);
    std::vector<int> target(c.N);
    for (int& t : target) t = static_cast<int>(rng.below(c.V));
    Vec probs(logits.size());
    auto loss = [&] { return ops::cross_entropy_forward(probs.data(), logits.data(), target.data(), c.N, c.V); };
    loss();
    Vec dlogits = nans(logits.size());
    ops::cross_entropy_backward(dlogits.data(), probs.data(), target.data(), c.N, c.V);
    check_grad(tag + " logits", logits, dlogits, loss);
  }
}

// out = max(inp, 0); the backward overwrites dinp. Inputs stay ≥ 0.2 away from the kink at 0.
TEST(OpGradCheck, ReluInputGradientMatchesAwayFromZero) {
  Rng rng(500);
  const long n = 37;
  Vec inp(n);
  for (double& x : inp) x = (rng.uniform() < 0.5 ? -1 : 1) * (0.2 + std::abs(rng.normal()));
  const Vec R = normal(rng, n);
  Vec out(n);
  auto loss = [&] {
    ops::relu_forward(out.data(), inp.data(), n);
    return dot(R, out);
  };
  loss();
  Vec dinp = nans(n);
  ops::relu_backward(dinp.data(), R.data(), inp.data(), n);
  check_grad("relu 37 inp", inp, dinp, loss);
}

// x0 = √d·E[tok]; the backward accumulates into dE, summing the rows of tokens that repeat.
// 23x37 splits the backward's column loop over the 2-thread pool (columns by 16).
TEST(OpGradCheck, EmbeddingGradientMatchesAndSumsRowsOfRepeatedTokens) {
  using Cpu = CpuBackend<double>;
  struct Case {
    int N, d, V;
  };
  uint64_t seed = 600;
  for (const Case& c : {Case{9, 7, 5}, Case{23, 37, 6}}) {
    const std::string tag = "embed " + shape({c.N, c.d, c.V});
    SCOPED_TRACE(tag);
    Rng rng(++seed);
    std::vector<int> tok(c.N);
    for (int r = 0; r < c.N; ++r) tok[r] = r < 4 ? 3 : static_cast<int>(rng.below(c.V));  // token 3 four times at least
    Cpu::IntArray tokens;
    tokens.set(tok.data(), c.N);
    Vec E = normal(rng, size_t(c.V) * c.d);
    const Vec R = normal(rng, size_t(c.N) * c.d);
    Vec x0(R.size());
    auto loss = [&] {
      Cpu::embed_forward(x0.data(), E.data(), tokens, c.N, c.d, c.V, std::sqrt(double(c.d)));
      return dot(R, x0);
    };
    loss();
    const Vec dE0 = normal(rng, E.size());
    Vec dE = dE0;
    Cpu::embed_backward(dE.data(), R.data(), tokens, c.N, c.d, c.V, std::sqrt(double(c.d)));
    check_grad(tag + " E", E, added(dE, dE0), loss);
  }
}

// out = x + b on every row (add_row_vector); reduce.h's add_column_sums is its b backward
// (db += Σ_rows dout, accumulating). x's gradient is dout itself, with no code of its own; it is
// checked so that the forward is seen to pass x through unchanged. 131x67 splits both loops.
TEST(OpGradCheck, AddRowVectorBiasGradientIsTheAccumulatedColumnSum) {
  struct Case {
    int N, C;
  };
  uint64_t seed = 700;
  for (const Case& c : {Case{5, 7}, Case{131, 67}}) {
    const std::string tag = "add_row_vector " + shape({c.N, c.C});
    SCOPED_TRACE(tag);
    Rng rng(++seed);
    Vec x = normal(rng, size_t(c.N) * c.C), b = normal(rng, c.C);
    const Vec R = normal(rng, x.size());
    Vec out(x.size());
    auto loss = [&] {
      out = x;
      ops::add_row_vector(out.data(), b.data(), c.N, c.C);
      return dot(R, out);
    };
    const Vec db0 = normal(rng, c.C);
    Vec db = db0;
    ops::add_column_sums(db.data(), R.data(), c.N, c.C);
    check_grad(tag + " b", b, added(db, db0), loss);
    check_grad(tag + " x", x, R, loss);
  }
}

// The checker itself: a gradient off by one part in a thousand, and a parameter the loss ignores
// (g = g_fd = 0, metric 0), must each fail check_grad.
TEST(OpGradCheck, CheckerRejectsAGradientScaledBy1001AndAVacuousZeroGradient) {
  Rng rng(800);
  const int B = 2, n = 5, d = 7;
  const size_t sz = size_t(B) * n * d;
  Vec q = normal(rng, sz), k = normal(rng, sz), v = normal(rng, sz);
  const Vec R = normal(rng, sz);
  Vec out(sz), P(size_t(B) * n * n);
  auto loss = [&] {
    ops::attention_forward(out.data(), P.data(), q.data(), k.data(), v.data(), B, n, d, false);
    return dot(R, out);
  };
  loss();
  Vec dq(sz), dk(sz), dv(sz);
  ops::attention_backward(dq.data(), dk.data(), dv.data(), R.data(), q.data(), k.data(), v.data(), P.data(), B, n, d);
  Vec wrong = dq;
  for (double& g : wrong) g *= 1.001;

  const GradError right = grad_error(q, dq, loss), off = grad_error(q, wrong, loss);
  EXPECT_LT(right.rel, kBound);
  EXPECT_GT(off.rel, kBound);
  EXPECT_NEAR(off.rel, 0.001 / 1.001, 1e-5);  // the error is the scaling, not FD noise
  EXPECT_NONFATAL_FAILURE(check_grad("attention q scaled by 1.001", q, wrong, loss), "relative error");

  Vec ignored(3, 0.5);
  const Vec zero(3, 0.0);
  EXPECT_NONFATAL_FAILURE(check_grad("a parameter the loss ignores", ignored, zero, loss), "vacuous");
}

}  // namespace
}  // namespace lnx
