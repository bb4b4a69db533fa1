// radam.h — Rectified Adam (Liu et al. 2019, "On the Variance of the Adaptive Learning Rate and
// Beyond"), as torch.optim.RAdam (no weight decay): Adam's moments, and while the variance of the
// adaptive step is intractable (ρ_t ≤ 5) an un-adapted step θ −= lr·m̂ (momentum SGD on the
// bias-corrected mean), afterwards θ −= lr·r_t·m̂·√(1−β2ᵗ)/(√v + ε) with the rectification
//   ρ∞ = 2/(1−β2) − 1,  ρ_t = ρ∞ − 2t·β2ᵗ/(1−β2ᵗ),  r_t = √((ρ_t−4)(ρ_t−2)ρ∞ / ((ρ∞−4)(ρ∞−2)ρ_t)).
// This is torch's variant; the RAdam repository's `degenerated_to_sgd=False` (and Transformer-Clinic's
// fairseq copy of it) skips the update instead while ρ_t is small. r_t rises from 0 towards 1 over
// roughly 2/(1−β2) steps, the built-in warm-up the article contrasts with a scheduled one.
// The optimizer seam is optimizer.h; beta1, beta2 and eps are the settings Adam has, shared.
#pragma once
#include <cmath>
#include <vector>

#include "adam.h"
#include "optimizer.h"

namespace lnx {

struct RAdam : AdamFamily {  // Adam's states, settings and suggested lr
  static constexpr const char* kName = "radam";
  static constexpr const char* kDoc =
      "RAdam (torch.optim.RAdam: un-adapted momentum steps while rho_t <= 5, then rectified Adam steps)";
  static constexpr int kCoefficients = 8;

  // ρ_t and r_t of step t (r_t = 0 while ρ_t ≤ 5: no adaptive step yet).
  static double rho(double beta2, long t) {
    const double b2t = std::pow(beta2, static_cast<double>(t));
    return 2 / (1 - beta2) - 1 - 2 * t * b2t / (1 - b2t);
  }
  static double rectification(double beta2, long t) {
    const double rho_inf = 2 / (1 - beta2) - 1, r = rho(beta2, t);
    if (!(r > 5)) return 0;
    return std::sqrt((r - 4) * (r - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * r));
  }

  // k = {β1, 1−β1, β2, 1−β2, 1/(1−β1ᵗ), lr, ε, r_t·√(1−β2ᵗ) or 0 (no adaptive step yet)}
  template <class T>
  static void coefficients(const Hyperparameters& h, double lr, long t, T* k) {
    Adam::moment_coefficients(h, t, k);  // k[0..4]: β1, 1−β1, β2, 1−β2, 1/(1−β1ᵗ)
    const double beta2 = h.at("beta2");
    k[5] = T(lr), k[6] = T(h.at("eps"));
    k[7] = T(rectification(beta2, t) * std::sqrt(1.0 - std::pow(beta2, static_cast<double>(t))));
  }

  template <class T>
  // Vectorisable as Adam::update is (adam.h); the rectified/un-adapted choice is the same for every
  // element of a step, so it is taken once outside the loop.
  static void update(long i0, long i1, T* param, const T* grad, T* const* s, const T* k) {
    T* __restrict p = param;
    const T* __restrict g = grad;
    T* __restrict m = s[0];
    T* __restrict v = s[1];
    const T b1 = k[0], c1 = k[1], b2 = k[2], c2 = k[3], bc1 = k[4], lr = k[5], eps = k[6], r = k[7];
    if (r > T(0)) {
      for (long i = i0; i < i1; ++i) {
        Adam::update_moments(m[i], v[i], g[i], b1, c1, b2, c2);
        p[i] -= lr * r * (m[i] * bc1) / (std::sqrt(v[i]) + eps);
      }
    } else {
      for (long i = i0; i < i1; ++i) {
        Adam::update_moments(m[i], v[i], g[i], b1, c1, b2, c2);
        p[i] -= lr * (m[i] * bc1);
      }
    }
  }

  static constexpr const char* kWgsl = LNX_ADAM_MOMENTS_WGSL R"(
  param[i] -= select(k(5u) * m_hat, k(5u) * k(7u) * m_hat / (sqrt(s1[i]) + k(6u)), k(7u) > 0.0);
)";
};

}  // namespace lnx
