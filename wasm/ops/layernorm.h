// layernorm.h — LayerNorm over the last dimension, forward and backward (eps = 1e-5, biased variance,
// as torch.nn.LayerNorm). The cache keeps mean and rstd = 1/sqrt(var + eps) per row.
//
// Geometry (Lemma 3 of Xiong et al. 2020): with γ = 1, β = 0 the output is y/‖y‖·√d for the centred
// input y, so the Jacobian is (√d/‖y‖)(I − ŷŷᵀ)(I − 11ᵀ/d): the backward pass multiplies the incoming
// gradient by rstd ≈ √d/‖y‖ after two projections. That scalar is the whole story of the article.
#pragma once
#include <cmath>

#include "../thread_pool.h"

namespace lnx::ops {

constexpr double kLayerNormEps = 1e-5;

// out (N,C) = (inp − mean)·rstd·γ + β ; mean, rstd (N) are written for the backward.
template <class T>
void layernorm_forward(T* out, T* mean, T* rstd, const T* inp, const T* gamma, const T* beta, int N, int C) {
  pool().parallel_for(
      N,
      [&](long r0, long r1, int) {
        for (long r = r0; r < r1; ++r) {
          const T* x = inp + r * C;
          T m = 0;
          for (int c = 0; c < C; ++c) m += x[c];
          m /= C;
          T v = 0;
          for (int c = 0; c < C; ++c) v += (x[c] - m) * (x[c] - m);
          v /= C;
          const T s = T(1) / std::sqrt(v + T(kLayerNormEps));
          T* y = out + r * C;
          for (int c = 0; c < C; ++c) y[c] = (x[c] - m) * s * gamma[c] + beta[c];
          mean[r] = m;
          rstd[r] = s;
        }
      },
      16);
}

// Reverses the forward.
//   dinp (N,C) += rstd·(g − mean(g) − x̂·mean(g·x̂)) with g = dout·γ, x̂ = (inp − mean)·rstd
//   dgamma (C) += Σ_r dout·x̂ ; dbeta (C) += Σ_r dout   (both may be null)
template <class T>
void layernorm_backward(T* dinp, T* dgamma, T* dbeta, const T* dout, const T* inp, const T* mean, const T* rstd,
                        const T* gamma, int N, int C) {
  pool().parallel_for(
      N,
      [&](long r0, long r1, int) {
        for (long r = r0; r < r1; ++r) {
          const T* x = inp + r * C;
          const T* dy = dout + r * C;
          const T m = mean[r], s = rstd[r];
          T g_mean = 0, gx_mean = 0;
          for (int c = 0; c < C; ++c) {
            const T g = dy[c] * gamma[c];
            g_mean += g;
            gx_mean += g * (x[c] - m) * s;
          }
          g_mean /= C;
          gx_mean /= C;
          T* dx = dinp + r * C;
          for (int c = 0; c < C; ++c) dx[c] += s * (dy[c] * gamma[c] - g_mean - (x[c] - m) * s * gx_mean);
        }
      },
      16);
  if (!dgamma && !dbeta) return;
  // Split over columns so each column's sum over rows has a fixed order (thread-count independent).
  pool().parallel_for(
      C,
      [&](long c0, long c1, int) {
        for (int r = 0; r < N; ++r) {
          const T* x = inp + static_cast<long>(r) * C;
          const T* dy = dout + static_cast<long>(r) * C;
          for (long c = c0; c < c1; ++c) {
            if (dgamma) dgamma[c] += dy[c] * (x[c] - mean[r]) * rstd[r];
            if (dbeta) dbeta[c] += dy[c];
          }
        }
      },
      32);
}

}  // namespace lnx::ops
