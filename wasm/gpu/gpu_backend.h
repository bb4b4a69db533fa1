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
#include <memory>
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
  static void linear_forward_residual(Ptr out, Ptr res, Ptr inp, Ptr W, Ptr b, int N, int IC, int OC);
  static void linear_relu_forward(Ptr pre, Ptr h, Ptr inp, Ptr W, Ptr b, int N, int IC, int OC);
  static void linear_backward_relu(Ptr d_pre, Ptr d_h, Ptr dW, Ptr db, Ptr dout, Ptr inp, Ptr W, Ptr pre, int N, int IC,
                                   int OC);
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
  static void rmsnorm_forward(Ptr out, Ptr rstd, Ptr inp, Ptr gamma, int N, int C) {
    gpu::rmsnorm_forward(out, rstd, inp, gamma, N, C);
  }
  static void rmsnorm_backward(Ptr dinp, Ptr dgamma, Ptr dout, Ptr inp, Ptr rstd, Ptr gamma, int N, int C) {
    gpu::rmsnorm_backward(dinp, dout, inp, rstd, gamma, N, C);
    if (dgamma) gpu::rmsnorm_param_backward(dgamma, dout, inp, rstd, N, C);
  }
  static void dyt_forward(Ptr out, Ptr act, Ptr inp, Ptr gamma, Ptr beta, Ptr alpha, int N, int C) {
    gpu::dyt_forward(out, act, inp, gamma, beta, alpha, N, C);
  }
  static void dyt_backward(Ptr dinp, Ptr dgamma, Ptr dbeta, Ptr dalpha, Ptr dout, Ptr inp, Ptr act, Ptr gamma,
                           Ptr alpha, int N, int C);
  static void gate_forward(Ptr out, Ptr x, Ptr f, Ptr g, size_t n) { gpu::gate_forward(out, x, f, g, n); }
  static void gate_backward(Ptr df, Ptr dg, Ptr ds, Ptr f, Ptr g, size_t n) {
    gpu::gate_scale(df, ds, g, n);
    if (dg) gpu::dot(dg, 0, ds, f, n, true);
  }
  static void attention_forward(Ptr out, Ptr P, Ptr q, Ptr k, Ptr v, int B, int n, int d, bool causal);
  static void attention_backward(Ptr dq, Ptr dk, Ptr dv, Ptr dout, Ptr q, Ptr k, Ptr v, Ptr P, int B, int n, int d);
  static void cross_entropy_forward(Ptr probs, Ptr logits, const IntArray& target, int N, int V);
  static void cross_entropy_backward(Ptr dlogits, Ptr probs, const IntArray& target, int N, int V) {
    gpu::cross_entropy_backward(dlogits, probs, target.data(), N, V);
  }
  static void embed_forward(Ptr x0, Ptr E, const IntArray& tokens, int N, int d, int V, float scale) {
    gpu::embed_forward(x0, E, tokens.data(), N, d, V, scale);
  }
  static void embed_backward(Ptr dE, Ptr dx0, const IntArray& tokens, int N, int d, int V, float scale) {
    gpu::embed_backward(dE, dx0, tokens.data(), N, d, V, scale);
  }
  static void add(Ptr out, Ptr a, Ptr b, size_t n) { gpu::add(out, a, b, n); }
  // One optimizer step (optim/optimizer.h) over n parameters, skipped when stats[flag] ≠ 0.
  template <class O>
  static void optimizer_update(Ptr param, Ptr grad, const Ptr* states, size_t n, const float* k,
                               const gpu::Array& stats, uint32_t flag) {
    gpu::optimizer_update(O::kName, O::kWgsl, param, grad, states, O::kStates, n, k, O::kCoefficients, stats.data(),
                          flag);
  }
  static void accumulate(Ptr dst, Ptr src, size_t n) { gpu::accumulate(dst, src, n); }

  // ---- run statistics and readback (probe_run.h, train_run.h; op_interface.h) ----
  // Statistics stay in a small device buffer (reduce.wgsl) until an asynchronous readback lands.
  using Stats = gpu::Array;
  using Accum = gpu::Array;
  struct Readback {
    uint32_t ticket = 0;  // 0 once landed
    std::vector<float> values;
    Readback() = default;
    Readback(const Readback&) = delete;
    Readback& operator=(const Readback&) = delete;
    ~Readback() {
      if (ticket) forget(ticket);
    }
  };
  static Stats stats(size_t n) { return Array(n); }  // device buffers start zeroed
  static Accum accum(size_t n) { return Array(n); }
  static void set_loss_target(Stats& s, uint32_t slot) { set_loss_target(s.data(), slot); }
  static void accumulate_sum(Accum& acc, Ptr x, size_t n) { gpu::accumulate(acc.data(), x, n); }
  static void add_norm(Stats& s, uint32_t slot, Ptr x, size_t n) { sumsq(s.data(), slot, x, n, 1.f, true, true); }
  static void add_mean_square(Stats& s, uint32_t slot, Ptr x, int rows, int cols) {
    sumsq(s.data(), slot, x, static_cast<size_t>(rows) * cols, 1.f / (static_cast<float>(cols) * rows), false, true);
  }
  static void norm_of_mean(Stats& s, uint32_t slot, Accum& acc, size_t n, double count) {
    sumsq(s.data(), slot, acc.data(), n, static_cast<float>(1.0 / count), true, false);
  }
  static void grad_norm(Stats& s, uint32_t slot, Ptr g, size_t n) { sumsq(s.data(), slot, g, n, 1.f, true, false); }
  static void check_step(Stats& s, uint32_t flag, uint32_t loss_slot, uint32_t norm_slot, double limit) {
    gpu::check_step(s.data(), s.size(), flag, loss_slot, norm_slot, static_cast<float>(limit));
  }
  static std::unique_ptr<Readback> read(const Stats& s, size_t first, size_t count) {
    auto r = std::make_unique<Readback>();
    r->values.resize(count);
    r->ticket = gpu::read(s.buffer(), first * 4, count * 4, r->values.data());
    return r;
  }
  // Throws DeviceError when the readback failed (a lost device).
  static bool landed(Readback& r) { return landed_ticket(r.ticket); }
  // True once `ticket` has landed (then set to 0); throws DeviceError when it failed.
  static bool landed_ticket(uint32_t& ticket) {
    if (!ticket) return true;
    const int state = read_state(ticket);
    if (state < 0) {
      check();
      throw DeviceError("a GPU readback failed");
    }
    if (state == 1) ticket = 0;
    return state == 1;
  }
  static double value(const Readback& r, size_t i) { return r.values[i]; }
  static void flush() { submit(); }
  // A whole array read back asynchronously into caller-owned host floats (a run's checkpoint,
  // train_run.h); `dst` must stay valid while the ArrayRead lives (its destructor forgets the ticket).
  struct ArrayRead {
    uint32_t ticket = 0;  // 0 once landed
    ArrayRead() = default;
    ArrayRead(const ArrayRead&) = delete;
    ArrayRead& operator=(const ArrayRead&) = delete;
    ~ArrayRead() {
      if (ticket) forget(ticket);
    }
  };
  static std::unique_ptr<ArrayRead> read_array(const Array& a, float* dst) {
    auto r = std::make_unique<ArrayRead>();
    r->ticket = gpu::read(a.buffer(), 0, a.size() * 4, dst);
    return r;
  }
  // Throws DeviceError when the readback failed (a lost device).
  static bool landed(ArrayRead& r) { return landed_ticket(r.ticket); }
  static void write_array(Array& a, const float* src) { a.buffer().write(0, src, a.size() * 4); }
  static void scale(Ptr dst, Ptr src, float alpha, size_t n) { gpu::scale(dst, src, alpha, n); }
  static void copy(Ptr dst, Ptr src, size_t n) { gpu::copy(dst, src, n); }
  static void zero(Ptr dst, size_t n) { gpu::fill(dst, n, 0.f); }
};

}  // namespace lnx::gpu
