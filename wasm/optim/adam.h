// adam.h — Adam (Kingma & Ba 2015), written as in PyTorch's documentation, no weight decay:
//   m = β1·m + (1−β1)·g ; v = β2·v + (1−β2)·g² ; m̂ = m/(1−β1ᵗ) ; v̂ = v/(1−β2ᵗ) ; θ −= lr·m̂/(√v̂ + ε)
// with t counted from 1. At t = 1, m̂/√v̂ = g/|g|: the first step moves every coordinate by ≈ lr
// whatever the gradient's scale (the article's "sign-like first step"). The optimizer seam is
// optimizer.h. Besides the update it states the preconditioner and the stability threshold the
// `sharpness` experiment measures against (Cohen et al. 2022; gi_adam.h shares them).
#pragma once
#include <cmath>
#include <vector>

#include "optimizer.h"

namespace lnx {

// What Adam and its variants (radam.h, gi_adam.h) share: the two moment buffers, the settings and
// the suggested peak lr.
struct AdamFamily {
  static constexpr int kStates = 2;             // m, v
  static constexpr double kSuggestedLr = 1e-3;  // a peak lr at which the toy learns (the lab's default)

  static std::vector<Hyperparameter> hyperparameters() {
    return {{"beta1", 0.9, 0, 0.999999, false, "Adam: decay of the first-moment estimate m"},
            {"beta2", 0.98, 0, 0.999999999, false, "Adam: decay of the second-moment estimate v"},
            {"eps", 1e-8, 0, 1, true, "Adam: added to sqrt(v-hat) in the denominator"}};
  }
};

// The moments' update in WGSL (Adam::update_moments), then m̂ = m/(1−β1ᵗ): the first statements of
// the kWgsl of Adam and of its variants, which read k(0..4) as Adam::moment_coefficients writes them.
// A macro (plain literals: a raw string cannot span a macro's lines) so that each optimizer's
// kWgsl stays one string literal.
#define LNX_ADAM_MOMENTS_WGSL                  \
  "\n  s0[i] = k(0u) * s0[i] + k(1u) * g;"     \
  "\n  s1[i] = k(2u) * s1[i] + k(3u) * g * g;" \
  "\n  let m_hat = s0[i] * k(4u);"

struct Adam : AdamFamily {
  static constexpr const char* kName = "adam";
  static constexpr const char* kDoc = "Adam (PyTorch's formula, bias-corrected, no weight decay)";
  static constexpr int kCoefficients = 8;

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

  static constexpr const char* kWgsl = LNX_ADAM_MOMENTS_WGSL R"(
  let v_hat = s1[i] * k(5u);
  param[i] -= k(6u) * m_hat / (sqrt(v_hat) + k(7u));
)";

  // ---- what the `sharpness` experiment asks of an optimizer (optional members; optimizer.h) ----
  // Step t as preconditioned gradient descent with momentum, θ −= lr·P⁻¹·m with m the EMA of g
  // (Cohen et al. 2022, "Adaptive Gradient Methods at the Edge of Stability", §2): the 1/(1−β1ᵗ)
  // of m̂ is folded into P, so P_ii = (1−β1ᵗ)·(√v̂_i + ε) with v̂ = v/(1−β2ᵗ), read from the state
  // after step t (s[1] = v). Computed in double from the stored float state.
  template <class T>
  static double preconditioner(const Hyperparameters& h, long t, const T* const* s, size_t i) {
    const double beta1 = h.at("beta1"), beta2 = h.at("beta2"), tt = static_cast<double>(t);
    const double v_hat = static_cast<double>(s[1][i]) / (1.0 - std::pow(beta2, tt));
    return (1.0 - std::pow(beta1, tt)) * (std::sqrt(v_hat) + h.at("eps"));
  }
  // A quadratic with Hessian H is stable under that iteration while λ_max(P⁻¹H) < (2 + 2β1)/((1 − β1)·lr)
  // (38/lr at β1 = 0.9; Cohen et al. 2022, the threshold of EMA-style heavy-ball momentum).
  static double stability_threshold(const Hyperparameters& h, double lr) {
    const double beta1 = h.at("beta1");
    return (2 + 2 * beta1) / ((1 - beta1) * lr);
  }
};

}  // namespace lnx
