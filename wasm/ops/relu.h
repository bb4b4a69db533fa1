// relu.h — ReLU, forward and backward. Lemma 1: for x ~ N(0, σ²I), E‖ReLU(x)‖² = σ²d/2.
#pragma once
#include "../thread_pool.h"

namespace lnx::ops {

template <class T>
void relu_forward(T* out, const T* inp, long n) {
  pool().parallel_for(n, [&](long i0, long i1, int) {
    for (long i = i0; i < i1; ++i) out[i] = inp[i] > T(0) ? inp[i] : T(0);
  }, 1 << 14);
}

// dinp = dout where the forward input was positive, else 0 (overwrites).
template <class T>
void relu_backward(T* dinp, const T* dout, const T* inp, long n) {
  pool().parallel_for(n, [&](long i0, long i1, int) {
    for (long i = i0; i < i1; ++i) dinp[i] = inp[i] > T(0) ? dout[i] : T(0);
  }, 1 << 14);
}

}  // namespace lnx::ops
