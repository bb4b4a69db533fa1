// attention.h — single-head scaled dot-product attention over each sequence, forward and backward.
// Dimension letters: B sequences, n tokens per sequence, d width. q, k, v, out are (B·n, d) row-major;
// the cache P holds the softmax probabilities (B, n, n). Scores are scaled by 1/√d (the reference
// model has one head of width d). Causal masking hides keys j > i. The work splits over sequences,
// and over blocks of rows within a sequence when the calling thread's team has more threads than
// there are sequences (a half-batch of the toy is 4 sequences); the small per-block GEMMs run on
// the block's thread. A block of rows of a GEMM is computed exactly as those rows of the whole
// product (gemm.h), so the blocks never change a bit.
#pragma once
#include <algorithm>
#include <cmath>
#include <vector>

#include "../gemm.h"
#include "../thread_pool.h"

namespace lnx::ops {

// Blocks of rows per sequence: enough for every thread of the team to have one, each a whole number
// of 16-row units (the last block takes the remainder), as gemm.cpp splits a product's rows: a block
// is never a single row, and gemm's own blocks stay aligned.
constexpr int kAttentionRowUnit = 16;
inline int attention_row_blocks(int B, int n) {
  const int per_sequence = (pool().team_size() + B - 1) / B;
  return std::max(1, std::min(per_sequence, n / kAttentionRowUnit));
}

// Calls f(b, r0, r1) for rows [r0, r1) of sequence b, over B·blocks pieces split across the team.
template <class F>
void for_each_row_block(int B, int n, int blocks, const F& f) {
  const int units = std::max(1, n / kAttentionRowUnit);
  pool().parallel_for(
      static_cast<long>(B) * blocks,
      [&](long u0, long u1, int) {
        for (long u = u0; u < u1; ++u) {
          const int b = static_cast<int>(u / blocks), blk = static_cast<int>(u % blocks);
          const int r0 = units * blk / blocks * kAttentionRowUnit;
          const int r1 = blk + 1 == blocks ? n : units * (blk + 1) / blocks * kAttentionRowUnit;
          f(b, r0, r1);
        }
      },
      1);
}

template <class T>
void attention_forward(T* out, T* P, const T* q, const T* k, const T* v, int B, int n, int d, bool causal) {
  const T scale = T(1) / std::sqrt(T(d));
  for_each_row_block(B, n, attention_row_blocks(B, n), [&](int b, int i0, int i1) {
    const long off = static_cast<long>(b) * n * d;
    T* Pb = P + static_cast<long>(b) * n * n;
    // S[i0:i1] = q[i0:i1] kᵀ / √d  (rows, n)
    gemm<T>(false, true, i1 - i0, n, d, scale, q + off + static_cast<long>(i0) * d, d, k + off, d, T(0),
            Pb + static_cast<long>(i0) * n, n);
    for (int i = i0; i < i1; ++i) {  // row-wise softmax, masked
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
    // out[i0:i1] = P[i0:i1] v  (rows, d)
    gemm<T>(false, false, i1 - i0, d, n, T(1), Pb + static_cast<long>(i0) * n, n, v + off, d, T(0),
            out + off + static_cast<long>(i0) * d, d);
  });
}

// Reverses out = softmax(q kᵀ/√d) v. Overwrites dq, dk, dv (B·n, d).
//   dP = dout vᵀ ; dv = Pᵀ dout ; dS = P ∘ (dP − rowsum(dP ∘ P)) ; dq = dS k/√d ; dk = dSᵀ q/√d
// In two passes over blocks of rows: the rows i of dP, dS and dq; then the rows j of dv and dk, each a
// sum over every row i of P and dS (dS is kept for the whole batch in between).
template <class T>
void attention_backward(T* dq, T* dk, T* dv, const T* dout, const T* q, const T* k, const T* v, const T* P, int B,
                        int n, int d) {
  const T scale = T(1) / std::sqrt(T(d));
  const int blocks = attention_row_blocks(B, n);
  std::vector<T> dS(static_cast<size_t>(B) * n * n);
  for_each_row_block(B, n, blocks, [&](int b, int i0, int i1) {
    const long off = static_cast<long>(b) * n * d;
    const T* Pb = P + static_cast<long>(b) * n * n;
    T* dSb = dS.data() + static_cast<long>(b) * n * n;
    const int rows = i1 - i0;
    gemm<T>(false, true, rows, n, d, T(1), dout + off + static_cast<long>(i0) * d, d, v + off, d, T(0),
            dSb + static_cast<long>(i0) * n, n);  // dP[i0:i1]
    for (int i = i0; i < i1; ++i) {
      T* row = dSb + static_cast<long>(i) * n;
      const T* prow = Pb + static_cast<long>(i) * n;
      T dot = 0;
      for (int j = 0; j < n; ++j) dot += row[j] * prow[j];
      for (int j = 0; j < n; ++j) row[j] = prow[j] * (row[j] - dot);  // masked entries have P = 0
    }
    gemm<T>(false, false, rows, d, n, scale, dSb + static_cast<long>(i0) * n, n, k + off, d, T(0),
            dq + off + static_cast<long>(i0) * d, d);
  });
  for_each_row_block(B, n, blocks, [&](int b, int j0, int j1) {
    const long off = static_cast<long>(b) * n * d;
    const T* Pb = P + static_cast<long>(b) * n * n;
    const T* dSb = dS.data() + static_cast<long>(b) * n * n;
    const int rows = j1 - j0;
    // rows j0..j1 of Pᵀ and dSᵀ are columns j0..j1 of P and dS
    gemm<T>(true, false, rows, d, n, T(1), Pb + j0, n, dout + off, d, T(0), dv + off + static_cast<long>(j0) * d, d);
    gemm<T>(true, false, rows, d, n, scale, dSb + j0, n, q + off, d, T(0), dk + off + static_cast<long>(j0) * d, d);
  });
}

}  // namespace lnx::ops
