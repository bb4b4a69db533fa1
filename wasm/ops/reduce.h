// reduce.h — small row/column helpers shared by the ops: bias add and column sums.
// Column sums are split over columns (never over rows), so every sum runs over rows in the same
// order whatever the number of threads: bias and γ/β gradients are bit-identical for 1 or 2 threads.
#pragma once
#include "../thread_pool.h"

namespace lnx::ops {

// x (N,C) += b (C) on every row.
template <class T>
void add_row_vector(T* x, const T* b, int N, int C) {
  pool().parallel_for(
      N,
      [&](long r0, long r1, int) {
        for (long r = r0; r < r1; ++r) {
          T* row = x + r * C;
          for (int c = 0; c < C; ++c) row[c] += b[c];
        }
      },
      64);
}

// acc (C) += Σ_r x (N,C)[r, :].
template <class T>
void add_column_sums(T* acc, const T* x, int N, int C) {
  pool().parallel_for(
      C,
      [&](long c0, long c1, int) {
        for (int r = 0; r < N; ++r) {
          const T* row = x + static_cast<long>(r) * C;
          for (long c = c0; c < c1; ++c) acc[c] += row[c];
        }
      },
      32);
}

}  // namespace lnx::ops
