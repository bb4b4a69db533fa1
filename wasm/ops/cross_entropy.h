// cross_entropy.h — softmax cross-entropy averaged over N rows, forward and backward.
// The forward keeps the probabilities (N, V) as the cache; the loss is accumulated in double.
#pragma once
#include <algorithm>
#include <cmath>
#include <vector>

#include "../thread_pool.h"

namespace lnx::ops {

// probs (N,V) = softmax(logits); returns mean_r −log probs[r, target[r]].
template <class T>
double cross_entropy_forward(T* probs, const T* logits, const int* target, int N, int V) {
  std::vector<double> row_loss(N);
  pool().parallel_for(
      N,
      [&](long r0, long r1, int) {
        for (long r = r0; r < r1; ++r) {
          const T* z = logits + r * V;
          T* p = probs + r * V;
          T mx = z[0];
          for (int c = 1; c < V; ++c) mx = std::max(mx, z[c]);
          T sum = 0;
          for (int c = 0; c < V; ++c) sum += (p[c] = std::exp(z[c] - mx));
          const T inv = T(1) / sum;
          for (int c = 0; c < V; ++c) p[c] *= inv;
          // −log p_t computed from the logits (log-sum-exp) so a tiny p_t does not underflow to inf.
          row_loss[r] =
              static_cast<double>(mx) + std::log(static_cast<double>(sum)) - static_cast<double>(z[target[r]]);
        }
      },
      16);
  double total = 0;
  for (double l : row_loss) total += l;  // fixed order: thread-count independent
  return total / N;
}

// dlogits (N,V) = (probs − onehot(target)) / N  (overwrites).
template <class T>
void cross_entropy_backward(T* dlogits, const T* probs, const int* target, int N, int V) {
  const T inv_n = T(1) / T(N);
  pool().parallel_for(
      N,
      [&](long r0, long r1, int) {
        for (long r = r0; r < r1; ++r) {
          const T* p = probs + r * V;
          T* g = dlogits + r * V;
          for (int c = 0; c < V; ++c) g[c] = p[c] * inv_n;
          g[target[r]] -= inv_n;
        }
      },
      16);
}

}  // namespace lnx::ops
