// gpu_backend.cpp — the composite ops of GpuBackend (gpu_backend.h): Linear, LayerNorm and DyT
// backward, attention and the cross-entropy forward, each a short sequence of kernels mirroring the CPU op.
#include "gpu_backend.h"

#include <cmath>
#include <stdexcept>

namespace lnx::gpu {
namespace {

// Scratch for the intermediates the CPU ops keep on the stack (device.h: a batched run's own).
Ptr scratch(Scratch key, size_t n) { return at(scratch_buffer(key, n * 4)); }
Ptr g_loss_dst;
uint32_t g_loss_slot = 0;

}  // namespace

void IntArray::set(const int* v, int n) {
  if (buf_.bytes() < static_cast<size_t>(n) * 4) buf_ = Buffer(static_cast<size_t>(n) * 4);
  n_ = n;
  buf_.write(0, v, static_cast<size_t>(n) * 4);
}

void GpuBackend::set_loss_target(Ptr dst, uint32_t slot) {
  g_loss_dst = dst;
  g_loss_slot = slot;
}

Array GpuBackend::array(std::vector<float>&& host) {
  Array a(host.size());
  a.buffer().write(0, host.data(), host.size() * 4);
  return a;
}

// out (N,OC) = inp (N,IC) · W (OC,IC)ᵀ + b
void GpuBackend::linear_forward(Ptr out, Ptr inp, Ptr W, Ptr b, int N, int IC, int OC) {
  matmul(false, true, N, OC, IC, 1.f, inp, IC, W, IC, 0.f, out, OC, 1, 0, 0, 0, b);  // + b in the same dispatch
}

// out = res + inp·Wᵀ + b in one dispatch: the matmul reads β·C from res (the CPU's copy, GEMM with
// β = 1, then the bias: the same operations in the same order)
void GpuBackend::linear_forward_residual(Ptr out, Ptr res, Ptr inp, Ptr W, Ptr b, int N, int IC, int OC) {
  matmul(false, true, N, OC, IC, 1.f, inp, IC, W, IC, 1.f, out, OC, 1, 0, 0, 0, b, Ptr{}, MatmulAux::None, res,
         MatmulCin::BetaC);
}

// pre = inp·Wᵀ + b, h = ReLU(pre) in one dispatch (the CPU's linear_forward then relu_forward)
void GpuBackend::linear_relu_forward(Ptr pre, Ptr h, Ptr inp, Ptr W, Ptr b, int N, int IC, int OC) {
  matmul(false, true, N, OC, IC, 1.f, inp, IC, W, IC, 0.f, pre, OC, 1, 0, 0, 0, b, h, MatmulAux::Relu);
}

// linear_backward with dinp masked by ReLU's forward input: d_pre = pre > 0 ? dout·W : 0 written
// directly (d_h is not written: only the CPU needs it between its two ops), dW and db as there
void GpuBackend::linear_backward_relu(Ptr d_pre, Ptr d_h, Ptr dW, Ptr db, Ptr dout, Ptr inp, Ptr W, Ptr pre, int N,
                                      int IC, int OC) {
  (void)d_h;
  matmul(false, false, N, IC, OC, 1.f, dout, OC, W, IC, 0.f, d_pre, IC, 1, 0, 0, 0, Ptr{}, Ptr{}, MatmulAux::None, pre,
         MatmulCin::ReluMask);
  linear_backward(Ptr{}, dW, db, dout, inp, W, N, IC, OC, false);
}

// dinp = dout·W (or +=), dW += doutᵀ·inp, db += Σ_rows dout (in dW's dispatch: the rows of doutᵀ summed
// as column_sums sums them)
void GpuBackend::linear_backward(Ptr dinp, Ptr dW, Ptr db, Ptr dout, Ptr inp, Ptr W, int N, int IC, int OC,
                                 bool accumulate_dinp) {
  if (dinp) matmul(false, false, N, IC, OC, 1.f, dout, OC, W, IC, accumulate_dinp ? 1.f : 0.f, dinp, IC);
  if (dW)
    matmul(true, false, OC, IC, N, 1.f, dout, OC, inp, IC, 1.f, dW, IC, 1, 0, 0, 0, Ptr{}, db, MatmulAux::RowSums);
  else if (db) column_sums(db, dout, N, OC);
}

void GpuBackend::layernorm_backward(Ptr dinp, Ptr dgamma, Ptr dbeta, Ptr dout, Ptr inp, Ptr mean, Ptr rstd, Ptr gamma,
                                    int N, int C) {
  gpu::layernorm_backward(dinp, dout, inp, mean, rstd, gamma, N, C);
  if (!dgamma && !dbeta) return;
  if (!dgamma || !dbeta) throw std::logic_error("GpuBackend::layernorm_backward wants dγ and dβ together");
  layernorm_param_backward(dgamma, dbeta, dout, inp, mean, rstd, N, C);
}

void GpuBackend::dyt_backward(Ptr dinp, Ptr dgamma, Ptr dbeta, Ptr dalpha, Ptr dout, Ptr inp, Ptr act, Ptr gamma,
                              Ptr alpha, int N, int C) {
  gpu::dyt_backward(dinp, dout, act, gamma, alpha, N, C);
  if (!dgamma && !dbeta && !dalpha) return;
  if (!dgamma || !dbeta || !dalpha) throw std::logic_error("GpuBackend::dyt_backward wants dγ, dβ and dα together");
  dyt_param_backward(dgamma, dbeta, dout, act, N, C);
  dyt_alpha_backward(dalpha, dout, inp, act, gamma, N, C);
}

// Per sequence b: P = softmax(q kᵀ/√d) (masked), out = P v — batched over B with strides.
void GpuBackend::attention_forward(Ptr out, Ptr P, Ptr q, Ptr k, Ptr v, int B, int n, int d, bool causal) {
  const float scale = 1.f / std::sqrt(static_cast<float>(d));
  const size_t nd = static_cast<size_t>(n) * d, nn = static_cast<size_t>(n) * n;
  matmul(false, true, n, n, d, scale, q, d, k, d, 0.f, P, n, B, nd, nd, nn);
  softmax_forward(P, B * n, n, causal);
  matmul(false, false, n, d, n, 1.f, P, n, v, d, 0.f, out, d, B, nn, nd, nd);
}

//   dP = dout vᵀ ; dv = Pᵀ dout ; dS = P ∘ (dP − rowsum(dP ∘ P)) ; dq = dS k/√d ; dk = dSᵀ q/√d
void GpuBackend::attention_backward(Ptr dq, Ptr dk, Ptr dv, Ptr dout, Ptr q, Ptr k, Ptr v, Ptr P, int B, int n, int d) {
  const float scale = 1.f / std::sqrt(static_cast<float>(d));
  const size_t nd = static_cast<size_t>(n) * d, nn = static_cast<size_t>(n) * n;
  const Ptr dS = scratch(Scratch::Scores, B * nn);
  matmul(false, true, n, n, d, 1.f, dout, d, v, d, 0.f, dS, n, B, nd, nd, nn);
  matmul(true, false, n, d, n, 1.f, P, n, dout, d, 0.f, dv, d, B, nn, nd, nd);
  softmax_backward(dS, P, B * n, n);
  matmul(false, false, n, d, n, scale, dS, n, k, d, 0.f, dq, d, B, nn, nd, nd);
  matmul(true, false, n, d, n, scale, dS, n, q, d, 0.f, dk, d, B, nn, nd, nd);
}

// probs = softmax(logits); loss_target = mean over rows of −log probs[target].
void GpuBackend::cross_entropy_forward(Ptr probs, Ptr logits, const IntArray& target, int N, int V) {
  if (!g_loss_dst) throw std::logic_error("GpuBackend: set_loss_target() before the forward pass");
  const Ptr rows = scratch(Scratch::RowLoss, N);
  gpu::cross_entropy_forward(probs, rows, logits, target.data(), N, V);
  sum(g_loss_dst, g_loss_slot, rows, N, 1.f / static_cast<float>(N), false);
}

}  // namespace lnx::gpu
