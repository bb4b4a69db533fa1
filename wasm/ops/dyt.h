// dyt.h — Dynamic Tanh (Zhu, Chen, He, LeCun, Liu 2025, "Transformers without Normalization", arXiv
// 2503.10622), forward and backward: the elementwise stand-in for a norm, y = γ·tanh(α·x) + β, with
// α one learnable scalar per DyT (initialised to α₀, the placement's alpha0) and γ (C), β (C) per
// channel (initialised 1 and 0, as the paper's code). The cache keeps act = tanh(α·x) (N,C).
//
// Geometry: unlike LayerNorm's √d/‖x‖ (Lemma 3 of Xiong et al. 2020) there is no division by the
// row's norm: around 0 the gain is α (the Jacobian is diag(γ·α·(1 − act²))), and large inputs
// saturate at ±γ instead of being rescaled. Leaves out: the paper's per-block α₀ choices for LLMs.
#pragma once
#include <cmath>
#include <vector>

#include "../thread_pool.h"

namespace lnx::ops {

// out (N,C) = γ·act + β with act (N,C) = tanh(α·inp); α is alpha[0].
template <class T>
void dyt_forward(T* out, T* act, const T* inp, const T* gamma, const T* beta, const T* alpha, int N, int C) {
  const T a = alpha[0];
  pool().parallel_for(
      N,
      [&](long r0, long r1, int) {
        for (long r = r0; r < r1; ++r)
          for (int c = 0; c < C; ++c) {
            const long i = r * C + c;
            const T t = std::tanh(a * inp[i]);
            act[i] = t;
            out[i] = gamma[c] * t + beta[c];
          }
      },
      16);
}

// Reverses the forward (the derivative of tanh(αx) is α·(1 − act²) in x and x·(1 − act²) in α):
//   dinp (N,C) += dout·γ·α·(1 − act²)
//   dgamma (C) += Σ_r dout·act ; dbeta (C) += Σ_r dout ; dalpha (1) += Σ_{r,c} dout·γ·inp·(1 − act²)
// The parameter gradients may be null (all three or none). dalpha is summed in double, per row and
// then over rows in order, so it does not depend on the thread count.
template <class T>
void dyt_backward(T* dinp, T* dgamma, T* dbeta, T* dalpha, const T* dout, const T* inp, const T* act, const T* gamma,
                  const T* alpha, int N, int C) {
  const T a = alpha[0];
  std::vector<double> row_dalpha(dalpha ? N : 0);
  pool().parallel_for(
      N,
      [&](long r0, long r1, int) {
        for (long r = r0; r < r1; ++r) {
          double da = 0;
          for (int c = 0; c < C; ++c) {
            const long i = r * C + c;
            const T g = dout[i] * gamma[c] * (T(1) - act[i] * act[i]);  // d/d(α·x)
            dinp[i] += g * a;
            da += static_cast<double>(g) * inp[i];
          }
          if (dalpha) row_dalpha[r] = da;
        }
      },
      16);
  if (!dgamma && !dbeta && !dalpha) return;
  double da = 0;
  for (int r = 0; r < N; ++r) da += row_dalpha[r];
  dalpha[0] += static_cast<T>(da);
  // Split over columns so each column's sum over rows has a fixed order (thread-count independent).
  pool().parallel_for(
      C,
      [&](long c0, long c1, int) {
        for (int r = 0; r < N; ++r) {
          const T* t = act + static_cast<long>(r) * C;
          const T* dy = dout + static_cast<long>(r) * C;
          for (long c = c0; c < c1; ++c) {
            dgamma[c] += dy[c] * t[c];
            dbeta[c] += dy[c];
          }
        }
      },
      32);
}

}  // namespace lnx::ops
