// layernorm_test.cpp — the LayerNorm facts the article builds on: scale invariance LN(10x) = LN(x),
// output length √d, and Lemma 3: the Jacobian equals (√d/‖y‖)(I − ŷŷᵀ)(I − 11ᵀ/d) with spectral norm
// √d/‖y‖ (y the centred input), checked against finite differences; and Lemma 1 (ReLU halves the
// expected squared length of a Gaussian vector).
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>
#include <vector>

#include "ops/layernorm.h"
#include "ops/relu.h"
#include "rng.h"

namespace lnx {
namespace {

constexpr int d = 24;

std::vector<double> layernorm(const std::vector<double>& x) {
  std::vector<double> y(d), g(d, 1.0), b(d, 0.0);
  double m, s;
  ops::layernorm_forward(y.data(), &m, &s, x.data(), g.data(), b.data(), 1, d);
  return y;
}

std::vector<double> random_vector(Rng& rng, double scale) {
  std::vector<double> x(d);
  for (double& v : x) v = scale * rng.normal() + 0.7;  // non-zero mean on purpose
  return x;
}

TEST(LayerNorm, IsScaleInvariant) {
  Rng rng(1);
  auto x = random_vector(rng, 1.0);
  auto x10 = x;
  for (double& v : x10) v *= 10;
  auto y = layernorm(x), y10 = layernorm(x10);
  // Exact without eps; with eps = 1e-5 and σ ≈ 1 the outputs differ by ≈ eps/(2σ²)·|y| ≈ 1e-5.
  for (int i = 0; i < d; ++i) EXPECT_NEAR(y[i], y10[i], 3e-5);
}

TEST(LayerNorm, OutputLiesOnTheSphereOfRadiusSqrtD) {
  Rng rng(2);
  for (double scale : {0.5, 1.0, 30.0}) {
    auto y = layernorm(random_vector(rng, scale));
    double n2 = 0, mean = 0;
    for (double v : y) n2 += v * v, mean += v;
    EXPECT_NEAR(std::sqrt(n2), std::sqrt(double(d)), 1e-4 * std::sqrt(double(d)));
    EXPECT_NEAR(mean, 0.0, 1e-9);
  }
}

// Lemma 3: J = (√d/‖y‖)(I − ŷŷᵀ)(I − 11ᵀ/d); ‖J‖₂ = √d/‖y‖. A short input gets a large gain.
TEST(LayerNorm, Lemma3JacobianMatchesFiniteDifferences) {
  Rng rng(3);
  for (double scale : {0.3, 1.0, 8.0}) {
    auto x = random_vector(rng, scale);
    Eigen::MatrixXd J_fd(d, d);
    const double h = 1e-6;
    for (int j = 0; j < d; ++j) {
      auto xp = x, xm = x;
      xp[j] += h, xm[j] -= h;
      auto yp = layernorm(xp), ym = layernorm(xm);
      for (int i = 0; i < d; ++i) J_fd(i, j) = (yp[i] - ym[i]) / (2 * h);
    }
    Eigen::VectorXd y = Eigen::Map<Eigen::VectorXd>(x.data(), d);
    y.array() -= y.mean();
    const double ny = y.norm();
    const Eigen::MatrixXd I = Eigen::MatrixXd::Identity(d, d);
    const Eigen::MatrixXd one = Eigen::MatrixXd::Ones(d, d) / d;
    // eps = 1e-5 in the LN shifts the gain by a relative ~eps·d/(2‖y‖²); use the exact σ the LN sees.
    const double gain = 1.0 / std::sqrt(ny * ny / d + ops::kLayerNormEps);
    const Eigen::MatrixXd J = gain * (I - y * y.transpose() / (ny * ny + d * ops::kLayerNormEps)) * (I - one);
    EXPECT_LT((J - J_fd).norm() / J.norm(), 1e-6) << "scale " << scale;
    Eigen::JacobiSVD<Eigen::MatrixXd> svd(J_fd);
    EXPECT_NEAR(svd.singularValues()(0), std::sqrt(double(d)) / ny, 1e-3 * std::sqrt(double(d)) / ny) << scale;

    // The backward op computes Jᵀ·v.
    Eigen::VectorXd v(d);
    for (int i = 0; i < d; ++i) v(i) = rng.normal();
    std::vector<double> dx(d, 0.0), g(d, 1.0);
    double m, s;
    std::vector<double> out(d), b(d, 0.0);
    ops::layernorm_forward(out.data(), &m, &s, x.data(), g.data(), b.data(), 1, d);
    ops::layernorm_backward<double>(dx.data(), nullptr, nullptr, v.data(), x.data(), &m, &s, g.data(), 1, d);
    Eigen::VectorXd expect = J_fd.transpose() * v;
    for (int i = 0; i < d; ++i) EXPECT_NEAR(dx[i], expect(i), 1e-6 * expect.norm());
  }
}

// Lemma 1: for x ~ N(0, σ²I_d), E‖ReLU(x)‖² = σ²d/2 (Monte Carlo with the engine's own sampler).
TEST(Relu, Lemma1HalvesTheExpectedSquaredLength) {
  Rng rng(4);
  const int dim = 256, trials = 4000;
  const double sigma = 1.7;
  std::vector<double> x(dim), y(dim);
  double acc = 0;
  for (int t = 0; t < trials; ++t) {
    for (double& v : x) v = sigma * rng.normal();
    ops::relu_forward(y.data(), x.data(), dim);
    for (double v : y) acc += v * v;
  }
  const double mean = acc / trials, expect = sigma * sigma * dim / 2;
  // Var‖ReLU(x)‖² = dim·σ⁴·(3/2 − 1/4); the standard error of the mean is ~0.25% of the value here.
  EXPECT_NEAR(mean, expect, 0.015 * expect);
}

}  // namespace
}  // namespace lnx
