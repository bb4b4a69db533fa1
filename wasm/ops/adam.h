// adam.h — Adam (Kingma & Ba), written as in PyTorch's documentation, no weight decay:
//   m = β1·m + (1−β1)·g ; v = β2·v + (1−β2)·g² ; m̂ = m/(1−β1ᵗ) ; v̂ = v/(1−β2ᵗ) ; θ −= lr·m̂/(√v̂ + ε)
// with t counted from 1. At t = 1, m̂/√v̂ = g/|g|: the first step moves every coordinate by ≈ lr
// whatever the gradient's scale (the article's "sign-like first step").
#pragma once
#include <cmath>

#include "../thread_pool.h"

namespace lnx::ops {

template <class T>
void adam_update(T* param, const T* grad, T* m, T* v, long n, double lr, double beta1, double beta2, double eps,
                 long t) {
  const T b1 = T(beta1), b2 = T(beta2);
  const T c1 = T(1.0 / (1.0 - std::pow(beta1, static_cast<double>(t))));
  const T c2 = T(1.0 / (1.0 - std::pow(beta2, static_cast<double>(t))));
  const T step = T(lr), e = T(eps);
  pool().parallel_for(n, [&](long i0, long i1, int) {
    for (long i = i0; i < i1; ++i) {
      const T g = grad[i];
      m[i] = b1 * m[i] + (T(1) - b1) * g;
      v[i] = b2 * v[i] + (T(1) - b2) * g * g;
      const T m_hat = m[i] * c1;
      const T v_hat = v[i] * c2;
      param[i] -= step * m_hat / (std::sqrt(v_hat) + e);
    }
  }, 1 << 14);
}

}  // namespace lnx::ops
