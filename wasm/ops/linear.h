// linear.h — Linear layer y = x·Wᵀ + b (PyTorch layout: W is (out, in)), forward and backward.
// Dimension letters: N rows (tokens), IC input width, OC output width. All row-major.
#pragma once
#include "../gemm.h"
#include "reduce.h"

namespace lnx::ops {

// out (N,OC) = inp (N,IC) · W (OC,IC)ᵀ + b (OC); b may be null.
template <class T>
void linear_forward(T* out, const T* inp, const T* W, const T* b, int N, int IC, int OC) {
  gemm<T>(false, true, N, OC, IC, T(1), inp, IC, W, IC, T(0), out, OC);
  if (b) add_row_vector(out, b, N, OC);
}

// Reverses out = inp·Wᵀ + b.
//   dinp (N,IC) = dout·W          (overwritten when accumulate_dinp is false, else +=); may be null
//   dW   (OC,IC) += doutᵀ·inp     ; may be null (gradient not wanted)
//   db   (OC)   += Σ_rows dout    ; may be null
template <class T>
void linear_backward(T* dinp, T* dW, T* db, const T* dout, const T* inp, const T* W, int N, int IC, int OC,
                     bool accumulate_dinp) {
  if (dinp) gemm<T>(false, false, N, IC, OC, T(1), dout, OC, W, IC, accumulate_dinp ? T(1) : T(0), dinp, IC);
  if (dW) gemm<T>(true, false, OC, IC, N, T(1), dout, OC, inp, IC, T(1), dW, IC);
  if (db) add_column_sums(db, dout, N, OC);
}

}  // namespace lnx::ops
