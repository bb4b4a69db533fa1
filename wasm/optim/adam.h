// adam.h — Adam (Kingma & Ba 2015), written as in PyTorch's documentation, no weight decay:
//   m = β1·m + (1−β1)·g ; v = β2·v + (1−β2)·g² ; m̂ = m/(1−β1ᵗ) ; v̂ = v/(1−β2ᵗ) ; θ −= lr·m̂/(√v̂ + ε)
// with t counted from 1. At t = 1, m̂/√v̂ = g/|g|: the first step moves every coordinate by ≈ lr
// whatever the gradient's scale (the article's "sign-like first step"). The optimizer seam is
// optimizer.h.
#pragma once
#include <cmath>
#include <vector>

#include "optimizer.h"

namespace lnx {

struct Adam {
  static constexpr const char* kName = "adam";
  static constexpr const char* kDoc = "Adam (PyTorch's formula, bias-corrected, no weight decay)";
  static constexpr int kStates = 2;  // m, v
  static constexpr int kCoefficients = 8;
  static constexpr double kSuggestedLr = 1e-3;  // a peak lr at which the toy learns (the lab's default)

  static std::vector<Hyperparameter> hyperparameters() {
    return {{"beta1", 0.9, 0, 0.999999, false, "Adam: decay of the first-moment estimate m"},
            {"beta2", 0.98, 0, 0.999999999, false, "Adam: decay of the second-moment estimate v"},
            {"eps", 1e-8, 0, 1, true, "Adam: added to sqrt(v-hat) in the denominator"}};
  }

  // k[0..4] = {β1, 1−β1, β2, 1−β2, 1/(1−β1ᵗ)}: the moments' coefficients (RAdam's too); the bias
  // correction in double, then T.
  template <class T>
  static void moment_coefficients(const Hyperparameters& h, long t, T* k) {
    const double beta1 = h.at("beta1"), beta2 = h.at("beta2");
    k[0] = T(beta1), k[1] = T(1) - k[0];
    k[2] = T(beta2), k[3] = T(1) - k[2];
    k[4] = T(1.0 / (1.0 - std::pow(beta1, static_cast<double>(t))));
  }

  // k = {β1, 1−β1, β2, 1−β2, 1/(1−β1ᵗ), 1/(1−β2ᵗ), lr, ε}
  template <class T>
  static void coefficients(const Hyperparameters& h, double lr, long t, T* k) {
    moment_coefficients(h, t, k);
    k[5] = T(1.0 / (1.0 - std::pow(h.at("beta2"), static_cast<double>(t))));
    k[6] = T(lr), k[7] = T(h.at("eps"));
  }

  // m = β1·m + (1−β1)·g ; v = β2·v + (1−β2)·g² (RAdam's too), on scalars: inlined into loops that
  // the compiler vectorises.
  template <class T>
  static void update_moments(T& m, T& v, T g, T b1, T c1, T b2, T c2) {
    m = b1 * m + c1 * g;
    v = b2 * v + c2 * g * g;
  }

  // Restrict-qualified pointers and the coefficients held in locals let the compiler vectorise the
  // loop (f32x4 in wasm); each element sees the same operations in the same order as the scalar
  // loop, and SIMD sqrt and division are correctly rounded, so results are bit-identical to it.
  template <class T>
  static void update(long i0, long i1, T* param, const T* grad, T* const* s, const T* k) {
    T* __restrict p = param;
    const T* __restrict g = grad;
    T* __restrict m = s[0];
    T* __restrict v = s[1];
    const T b1 = k[0], c1 = k[1], b2 = k[2], c2 = k[3], bc1 = k[4], bc2 = k[5], lr = k[6], eps = k[7];
    for (long i = i0; i < i1; ++i) {
      update_moments(m[i], v[i], g[i], b1, c1, b2, c2);
      p[i] -= lr * (m[i] * bc1) / (std::sqrt(v[i] * bc2) + eps);
    }
  }

  static constexpr const char* kWgsl = R"(
  s0[i] = k(0u) * s0[i] + k(1u) * g;
  s1[i] = k(2u) * s1[i] + k(3u) * g * g;
  let m_hat = s0[i] * k(4u);
  let v_hat = s1[i] * k(5u);
  param[i] -= k(6u) * m_hat / (sqrt(v_hat) + k(7u));
)";
};

}  // namespace lnx
