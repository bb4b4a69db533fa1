// gpu_backend.h — the WebGPU implementation of the op interface of backend.h: float tensors in
// device buffers, every op one or a few WGSL dispatches (kernels.h), nothing read back. The model
// of model_impl.h runs on it unchanged as Model<gpu::GpuBackend>.
//
// The cross-entropy forward cannot return the loss (that would need a readback): it writes the
// mean into the float at loss_target() (set by the caller: the trainer's history buffer, or a
// scratch slot), and Loss is void. Parameter tensors are 64-float aligned (kAlign), the storage
// binding alignment, so any tensor of the flat parameter buffer can be bound on its own.
// Leaves out: f16, mixed precision, multiple devices, sub-allocating activations from one buffer.
#pragma once
#include <vector>

#include "device.h"
#include "kernels.h"

namespace lnx::gpu {

// Owning float storage on the device.
class Array {
 public:
  Array() = default;
  explicit Array(size_t n) : buf_(n * 4), n_(n) {}
  Ptr data() const { return at(buf_); }
  size_t size() const { return n_; }
  const Buffer& buffer() const { return buf_; }
 private:
  Buffer buf_;
  size_t n_ = 0;
};

// Token ids (or targets) on the device; set() uploads.
class IntArray {
 public:
  void set(const int* v, int n);
  Ptr data() const { return at(buf_); }
 private:
  Buffer buf_;
  int n_ = 0;
};

struct GpuBackend {
  using Scalar = float;
  using Ptr = gpu::Ptr;
  using CPtr = gpu::Ptr;
  using Array = gpu::Array;
  using IntArray = gpu::IntArray;
  using Loss = void;
  static constexpr size_t kAlign = kAlignBytes / 4;

  // Where cross_entropy_forward writes the mean loss: dst[slot].
  static void set_loss_target(Ptr dst, uint32_t slot);

  static Array array(std::vector<float>&& host);
  static Array zeros(size_t n) { return Array(n); }

  static void gemm(bool tA, bool tB, int M, int N, int K, float alpha, Ptr A, int lda, Ptr B, int ldb, float beta,
                   Ptr C, int ldc) {
    matmul(tA, tB, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
  }
  static void linear_forward(Ptr out, Ptr inp, Ptr W, Ptr b, int N, int IC, int OC);
  static void linear_backward(Ptr dinp, Ptr dW, Ptr db, Ptr dout, Ptr inp, Ptr W, int N, int IC, int OC,
                              bool accumulate_dinp);
  static void add_row_vector(Ptr x, Ptr b, int N, int C) { gpu::add_row_vector(x, b, N, C); }
  static void relu_forward(Ptr out, Ptr inp, long n) { gpu::relu_forward(out, inp, n); }
  static void relu_backward(Ptr dinp, Ptr dout, Ptr inp, long n) { gpu::relu_backward(dinp, dout, inp, n); }
  static void layernorm_forward(Ptr out, Ptr mean, Ptr rstd, Ptr inp, Ptr gamma, Ptr beta, int N, int C) {
    gpu::layernorm_forward(out, mean, rstd, inp, gamma, beta, N, C);
  }
  static void layernorm_backward(Ptr dinp, Ptr dgamma, Ptr dbeta, Ptr dout, Ptr inp, Ptr mean, Ptr rstd, Ptr gamma,
                                 int N, int C);
  static void attention_forward(Ptr out, Ptr P, Ptr q, Ptr k, Ptr v, int B, int n, int d, bool causal);
  static void attention_backward(Ptr dq, Ptr dk, Ptr dv, Ptr dout, Ptr q, Ptr k, Ptr v, Ptr P, int B, int n, int d);
  static void cross_entropy_forward(Ptr probs, Ptr logits, const IntArray& target, int N, int V);
  static void cross_entropy_backward(Ptr dlogits, Ptr probs, const IntArray& target, int N, int V) {
    gpu::cross_entropy_backward(dlogits, probs, target.data(), N, V);
  }
  static void embed_forward(Ptr x0, Ptr E, const IntArray& tokens, int N, int d, int V) {
    gpu::embed_forward(x0, E, tokens.data(), N, d, V);
  }
  static void embed_backward(Ptr dE, Ptr dx0, const IntArray& tokens, int N, int d, int V) {
    gpu::embed_backward(dE, dx0, tokens.data(), N, d, V);
  }
  static void add(Ptr out, Ptr a, Ptr b, size_t n) { gpu::add(out, a, b, n); }
  // One optimizer step (optim/optimizer.h) over n parameters, skipped when stats[flag] ≠ 0.
  template <class O>
  static void optimizer_update(Ptr param, Ptr grad, const Ptr* states, size_t n, const float* k, Ptr stats,
                               uint32_t flag) {
    gpu::optimizer_update(O::kName, O::kWgsl, param, grad, states, O::kStates, n, k, O::kCoefficients, stats, flag);
  }
  static void accumulate(Ptr dst, Ptr src, size_t n) { gpu::accumulate(dst, src, n); }
  static void scale(Ptr dst, Ptr src, float alpha, size_t n) { gpu::scale(dst, src, alpha, n); }
  static void copy(Ptr dst, Ptr src, size_t n) { gpu::copy(dst, src, n); }
  static void zero(Ptr dst, size_t n) { gpu::fill(dst, n, 0.f); }
};

}  // namespace lnx::gpu
