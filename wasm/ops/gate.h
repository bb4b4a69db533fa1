// gate.h — a learnable residual gate (ReZero, Bachlechner et al. 2020, arXiv 2003.04887; SkipInit,
// De & Smith 2020), forward and backward: s = x + g·f with g one scalar parameter (g[0]), f the
// sublayer's branch output. No cache beyond f itself, which the model keeps.
//
// With g = 0 (ReZero's start) every branch is switched off: s = x, and since ∂ℒ/∂f = g·∂ℒ/∂s = 0 no
// weight inside the branch gets a gradient; only g does, ∂ℒ/∂g = Σ ∂ℒ/∂s·f over every token and
// coordinate, and the branches wake up once g has moved. Leaves out: a gate per channel (LayerScale).
#pragma once
#include <cstddef>

namespace lnx::ops {

// out (n) = x + g·f
template <class T>
void gate_forward(T* out, const T* x, const T* f, const T* g, size_t n) {
  const T s = g[0];
  for (size_t i = 0; i < n; ++i) out[i] = x[i] + s * f[i];
}

// Reverses the forward's branch term (the skip's ∂ℒ/∂x = ∂ℒ/∂s is the model's to add):
//   df (n) = g·ds            (overwritten)
//   dg (1) += Σ_i ds·f       (may be null; summed in double, in index order)
template <class T>
void gate_backward(T* df, T* dg, const T* ds, const T* f, const T* g, size_t n) {
  const T s = g[0];
  double acc = 0;
  for (size_t i = 0; i < n; ++i) {
    df[i] = s * ds[i];
    acc += static_cast<double>(ds[i]) * f[i];
  }
  if (dg) dg[0] += static_cast<T>(acc);
}

}  // namespace lnx::ops
