// rmsnorm.h — RMSNorm over the last dimension (Zhang & Sennrich 2019), forward and backward:
// LayerNorm without the centring and without β, y = x·rstd·γ with rstd = 1/sqrt(mean(x²) + eps)
// (eps = 1e-5, as layernorm.h). The cache keeps rstd per row.
//
// Geometry: with γ = 1 the output is x/‖x‖·√d, the same √d/‖x‖ gain as LayerNorm (Lemma 3 of Xiong
// et al. 2020) with one projection fewer: the Jacobian is (√d/‖x‖)(I − x̂x̂ᵀ), x̂ = x/‖x‖.
#pragma once
#include <cmath>

#include "../thread_pool.h"
#include "layernorm.h"

namespace lnx::ops {

// out (N,C) = inp·rstd·γ ; rstd (N) is written for the backward.
template <class T>
void rmsnorm_forward(T* out, T* rstd, const T* inp, const T* gamma, int N, int C) {
  pool().parallel_for(
      N,
      [&](long r0, long r1, int) {
        for (long r = r0; r < r1; ++r) {
          const T* x = inp + r * C;
          T ss = 0;
          for (int c = 0; c < C; ++c) ss += x[c] * x[c];
          const T s = T(1) / std::sqrt(ss / C + T(kLayerNormEps));
          T* y = out + r * C;
          for (int c = 0; c < C; ++c) y[c] = x[c] * s * gamma[c];
          rstd[r] = s;
        }
      },
      16);
}

// Reverses the forward.
//   dinp (N,C) += rstd·(g − x̂·mean(g·x̂)) with g = dout·γ, x̂ = inp·rstd
//   dgamma (C) += Σ_r dout·x̂   (may be null)
template <class T>
void rmsnorm_backward(T* dinp, T* dgamma, const T* dout, const T* inp, const T* rstd, const T* gamma, int N, int C) {
  pool().parallel_for(
      N,
      [&](long r0, long r1, int) {
        for (long r = r0; r < r1; ++r) {
          const T* x = inp + r * C;
          const T* dy = dout + r * C;
          const T s = rstd[r];
          T gx_mean = 0;
          for (int c = 0; c < C; ++c) gx_mean += dy[c] * gamma[c] * x[c] * s;
          gx_mean /= C;
          T* dx = dinp + r * C;
          for (int c = 0; c < C; ++c) dx[c] += s * (dy[c] * gamma[c] - x[c] * s * gx_mean);
        }
      },
      16);
  if (!dgamma) return;
  // Split over columns so each column's sum over rows has a fixed order (thread-count independent).
  pool().parallel_for(
      C,
      [&](long c0, long c1, int) {
        for (int r = 0; r < N; ++r) {
          const T* x = inp + static_cast<long>(r) * C;
          const T* dy = dout + static_cast<long>(r) * C;
          for (long c = c0; c < c1; ++c) dgamma[c] += dy[c] * x[c] * rstd[r];
        }
      },
      32);
}

}  // namespace lnx::ops
