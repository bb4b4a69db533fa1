// kernels.h — host-side launchers of the WGSL kernels in wasm/gpu/*.wgsl, one function per entry
// point, with the CPU op's argument order (outputs first, then inputs, then dimensions). Each
// computes the uniforms, the bindings (checked against the device's binding limit) and the grid.
// Pointers are device positions: a buffer id and an element offset that must be 64-aligned (the
// 256-byte storage binding alignment); the model's allocator guarantees it.
// Leaves out: the order in which the model calls them (gpu_backend.h, model_impl.h).
#pragma once
#include <cstddef>
#include <cstdint>

#include "device.h"

namespace lnx::gpu {

// A position in device memory: buffer id and element offset (floats or ints).
struct Ptr {
  uint32_t buf = 0;
  size_t off = 0;
  Ptr operator+(size_t k) const { return {buf, off + k}; }
  explicit operator bool() const { return buf != 0; }
};
inline Ptr at(const Buffer& b, size_t off = 0) { return {b.id(), off}; }

// C = alpha·op(A)·op(B) + beta·C (gemm.h semantics), `batch` times with element strides sA, sB, sC;
// then, with `bias` (N values, batch 1 only), C[i][j] += bias[j] in the same dispatch: the same bits
// as add_row_vector after it. With `aux` (batch 1 only): RowSums, aux (M) += Σ_k op(A)[i][k], the same bits
// as column_sums(aux, A, K, M) for tA (a Linear's bias gradient); Relu, aux (like C) = ReLU(C), as
// relu_forward. With `cin` (batch 1 only, like C): BetaC, beta·C reads C's elements from cin, not C;
// ReluMask, C = cin > 0 ? C : 0, as relu_backward (matmul.wgsl).
enum class MatmulAux : uint32_t { None = 0, RowSums = 1, Relu = 2 };
enum class MatmulCin : uint32_t { None = 0, BetaC = 1, ReluMask = 2 };
void matmul(bool tA, bool tB, int M, int N, int K, float alpha, Ptr A, int lda, Ptr B, int ldb, float beta, Ptr C,
            int ldc, int batch = 1, size_t sA = 0, size_t sB = 0, size_t sC = 0, Ptr bias = Ptr{}, Ptr aux = Ptr{},
            MatmulAux aux_mode = MatmulAux::None, Ptr cin = Ptr{}, MatmulCin cin_mode = MatmulCin::None);
// true when matmul() takes the vec4 path for these arguments (for tests and the benchmark)
bool matmul_uses_vec4(bool tA, bool tB, int M, int N, int K, int lda, int ldb, int batch, size_t sA, size_t sB);

void layernorm_forward(Ptr out, Ptr mean, Ptr rstd, Ptr inp, Ptr gamma, Ptr beta, int N, int C);
void layernorm_backward(Ptr dinp, Ptr dout, Ptr inp, Ptr mean, Ptr rstd, Ptr gamma, int N, int C);
void layernorm_param_backward(Ptr dgamma, Ptr dbeta, Ptr dout, Ptr inp, Ptr mean, Ptr rstd, int N, int C);

void rmsnorm_forward(Ptr out, Ptr rstd, Ptr inp, Ptr gamma, int N, int C);
void rmsnorm_backward(Ptr dinp, Ptr dout, Ptr inp, Ptr rstd, Ptr gamma, int N, int C);
void rmsnorm_param_backward(Ptr dgamma, Ptr dout, Ptr inp, Ptr rstd, int N, int C);

void dyt_forward(Ptr out, Ptr act, Ptr inp, Ptr gamma, Ptr beta, Ptr alpha, int N, int C);
void dyt_backward(Ptr dinp, Ptr dout, Ptr act, Ptr gamma, Ptr alpha, int N, int C);
void dyt_param_backward(Ptr dgamma, Ptr dbeta, Ptr dout, Ptr act, int N, int C);
void dyt_alpha_backward(Ptr dalpha, Ptr dout, Ptr inp, Ptr act, Ptr gamma, int N, int C);  // dα += Σ …

void gate_forward(Ptr out, Ptr x, Ptr f, Ptr g, size_t n);  // out = x + g[0]·f
void gate_scale(Ptr out, Ptr x, Ptr g, size_t n);           // out = g[0]·x

void softmax_forward(Ptr S, int rows, int n, bool causal);  // in place, rows of n
void softmax_backward(Ptr dS, Ptr P, int rows, int n);      // in place on dS (holding dP)

void cross_entropy_forward(Ptr probs, Ptr row_loss, Ptr logits, Ptr target, int N, int V);
void cross_entropy_backward(Ptr dlogits, Ptr probs, Ptr target, int N, int V);

void embed_forward(Ptr x0, Ptr E, Ptr tokens, int N, int d, int V, float scale);     // x0 = scale·E[tok]
void embed_backward(Ptr dE, Ptr dx0, Ptr tokens, int N, int d, int V, float scale);  // dE[tok] += scale·dx0

void relu_forward(Ptr out, Ptr inp, size_t n);
void relu_backward(Ptr dinp, Ptr dout, Ptr inp, size_t n);
void add(Ptr out, Ptr a, Ptr b, size_t n);
void copy(Ptr dst, Ptr src, size_t n);
void scale(Ptr dst, Ptr src, float alpha, size_t n);  // dst = alpha·src
void fill(Ptr dst, size_t n, float value);
void accumulate(Ptr dst, Ptr src, size_t n);      // dst += src
void add_row_vector(Ptr x, Ptr b, int N, int C);  // x (N,C) += b (C)
void column_sums(Ptr acc, Ptr x, int N, int C);   // acc (C) += Σ_r x[r, :]

// dst[slot] = (accum ? dst[slot] : 0) + scale·f(Σ x²) with f = sqrt when root, else identity.
void sumsq(Ptr dst, uint32_t slot, Ptr x, size_t n, float scale, bool root, bool accum);
// dst[slot] = (accum ? dst[slot] : 0) + scale·Σ x
void sum(Ptr dst, uint32_t slot, Ptr x, size_t n, float scale, bool accum);
// dst[slot] = (accum ? dst[slot] : 0) + Σ x·y
void dot(Ptr dst, uint32_t slot, Ptr x, Ptr y, size_t n, bool accum);

// One optimizer step over n parameters (optim/optimizer.h; optimizer.wgsl is the frame): `body` is
// the optimizer's WGSL statements, `states` its n_states state arrays, k its n_k (≤ 12) per-step
// coefficients; `name` keys the kernel. Skipped when stats[flag] ≠ 0.
void optimizer_update(const char* name, const char* body, Ptr param, Ptr grad, const Ptr* states, int n_states,
                      size_t n, const float* k, int n_k, Ptr stats, uint32_t flag);
// stats[flag] = 1 when stats[loss_slot] or stats[norm_slot] is not finite, or the loss > limit;
// stats holds stats_n floats.
void check_step(Ptr stats, size_t stats_n, uint32_t flag, uint32_t loss_slot, uint32_t norm_slot, float limit);

}  // namespace lnx::gpu
