// attention.h — single-head scaled dot-product attention over each sequence, forward and backward.
// Dimension letters: B sequences, n tokens per sequence, d width. q, k, v, out are (B·n, d) row-major;
// the cache P holds the softmax probabilities (B, n, n). Scores are scaled by 1/√d (the reference
// model has one head of width d). Causal masking hides keys j > i. Sequences run in parallel; the
// small per-sequence GEMMs run inline inside the parallel region.
#pragma once
#include <algorithm>
#include <cmath>
#include <vector>

#include "../gemm.h"
#include "../thread_pool.h"

namespace lnx::ops {

template <class T>
void attention_forward(T* out, T* P, const T* q, const T* k, const T* v, int B, int n, int d, bool causal) {
  const T scale = T(1) / std::sqrt(T(d));
  pool().parallel_for(B, [&](long b0, long b1, int) {
    for (long b = b0; b < b1; ++b) {
      const long off = b * n * d;
      T* Pb = P + b * n * n;
      // S = q kᵀ / √d  (n, n)
      gemm<T>(false, true, n, n, d, scale, q + off, d, k + off, d, T(0), Pb, n);
      for (int i = 0; i < n; ++i) {  // row-wise softmax, masked
        T* row = Pb + static_cast<long>(i) * n;
        const int last = causal ? i : n - 1;
        T mx = row[0];
        for (int j = 1; j <= last; ++j) mx = std::max(mx, row[j]);
        T sum = 0;
        for (int j = 0; j <= last; ++j) sum += (row[j] = std::exp(row[j] - mx));
        const T inv = T(1) / sum;
        for (int j = 0; j <= last; ++j) row[j] *= inv;
        for (int j = last + 1; j < n; ++j) row[j] = T(0);
      }
      // out = P v  (n, d)
      gemm<T>(false, false, n, d, n, T(1), Pb, n, v + off, d, T(0), out + off, d);
    }
  }, 1);
}

// Reverses out = softmax(q kᵀ/√d) v. Overwrites dq, dk, dv (B·n, d).
//   dP = dout vᵀ ; dv = Pᵀ dout ; dS = P ∘ (dP − rowsum(dP ∘ P)) ; dq = dS k/√d ; dk = dSᵀ q/√d
template <class T>
void attention_backward(T* dq, T* dk, T* dv, const T* dout, const T* q, const T* k, const T* v, const T* P, int B,
                        int n, int d) {
  const T scale = T(1) / std::sqrt(T(d));
  pool().parallel_for(B, [&](long b0, long b1, int) {
    std::vector<T> dS(static_cast<size_t>(n) * n);
    for (long b = b0; b < b1; ++b) {
      const long off = b * n * d;
      const T* Pb = P + b * n * n;
      gemm<T>(false, true, n, n, d, T(1), dout + off, d, v + off, d, T(0), dS.data(), n);  // dP
      gemm<T>(true, false, n, d, n, T(1), Pb, n, dout + off, d, T(0), dv + off, d);
      for (int i = 0; i < n; ++i) {
        T* row = dS.data() + static_cast<long>(i) * n;
        const T* prow = Pb + static_cast<long>(i) * n;
        T dot = 0;
        for (int j = 0; j < n; ++j) dot += row[j] * prow[j];
        for (int j = 0; j < n; ++j) row[j] = prow[j] * (row[j] - dot);  // masked entries have P = 0
      }
      gemm<T>(false, false, n, d, n, scale, dS.data(), n, k + off, d, T(0), dq + off, d);
      gemm<T>(true, false, n, d, n, scale, dS.data(), n, q + off, d, T(0), dk + off, d);
    }
  }, 1);
}

}  // namespace lnx::ops
