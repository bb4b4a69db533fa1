// cpu_backend.h — the CPU implementation of the op interface of op_interface.h: host memory, the free
// functions of wasm/ops/ and the GEMM of gemm.h, unchanged. Every op here is the very loop the model
// ran before the interface existed, so CPU results are bit-identical to it.
// Leaves out: the order of the steps of a run (probe_run.h, train_run.h).
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <vector>

#include "gemm.h"
#include "ops/attention.h"
#include "ops/cross_entropy.h"
#include "ops/dyt.h"
#include "ops/gate.h"
#include "ops/layernorm.h"
#include "ops/linear.h"
#include "ops/reduce.h"
#include "ops/relu.h"
#include "ops/rmsnorm.h"
#include "profile.h"
#include "thread_pool.h"

namespace lnx {

template <class T>
struct CpuBackend {
  using Scalar = T;
  using Ptr = T*;
  using CPtr = const T*;
  using Array = std::vector<T>;
  struct IntArray {
    std::vector<int> host;
    void set(const int* v, int n) { host.assign(v, v + n); }
    const int* data() const { return host.data(); }
  };
  using Loss = double;
  static constexpr size_t kAlign = 1;

  static Array array(std::vector<T>&& host) { return std::move(host); }
  static Array zeros(size_t n) { return Array(n, T(0)); }

  static void gemm(bool tA, bool tB, int M, int N, int K, T alpha, CPtr A, int lda, CPtr B, int ldb, T beta, Ptr C,
                   int ldc) {
    lnx::gemm<T>(tA, tB, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
  }
  static void linear_forward(Ptr out, CPtr inp, CPtr W, CPtr b, int N, int IC, int OC) {
    LNX_PROFILE_SCOPE("linear_forward");
    ops::linear_forward(out, inp, W, b, N, IC, OC);
  }
  static void linear_forward_residual(Ptr out, CPtr res, CPtr inp, CPtr W, CPtr b, int N, int IC, int OC) {
    copy(out, res, static_cast<size_t>(N) * OC);
    gemm(false, true, N, OC, IC, T(1), inp, IC, W, IC, T(1), out, OC);
    add_row_vector(out, b, N, OC);
  }
  static void linear_relu_forward(Ptr pre, Ptr h, CPtr inp, CPtr W, CPtr b, int N, int IC, int OC) {
    linear_forward(pre, inp, W, b, N, IC, OC);
    relu_forward(h, pre, static_cast<long>(N) * OC);
  }
  static void linear_backward_relu(Ptr d_pre, Ptr d_h, Ptr dW, Ptr db, CPtr dout, CPtr inp, CPtr W, CPtr pre, int N,
                                   int IC, int OC) {
    linear_backward(d_h, dW, db, dout, inp, W, N, IC, OC, false);
    relu_backward(d_pre, d_h, pre, static_cast<long>(N) * IC);
  }
  static void linear_backward(Ptr dinp, Ptr dW, Ptr db, CPtr dout, CPtr inp, CPtr W, int N, int IC, int OC,
                              bool accumulate_dinp) {
    LNX_PROFILE_SCOPE("linear_backward");
    ops::linear_backward<T>(dinp, dW, db, dout, inp, W, N, IC, OC, accumulate_dinp);
  }
  static void add_row_vector(Ptr x, CPtr b, int N, int C) {
    LNX_PROFILE_SCOPE("add_row_vector");
    ops::add_row_vector(x, b, N, C);
  }
  static void relu_forward(Ptr out, CPtr inp, long n) {
    LNX_PROFILE_SCOPE("relu_forward");
    ops::relu_forward(out, inp, n);
  }
  static void relu_backward(Ptr dinp, CPtr dout, CPtr inp, long n) {
    LNX_PROFILE_SCOPE("relu_backward");
    ops::relu_backward(dinp, dout, inp, n);
  }
  static void layernorm_forward(Ptr out, Ptr mean, Ptr rstd, CPtr inp, CPtr gamma, CPtr beta, int N, int C) {
    LNX_PROFILE_SCOPE("layernorm_forward");
    ops::layernorm_forward(out, mean, rstd, inp, gamma, beta, N, C);
  }
  static void layernorm_backward(Ptr dinp, Ptr dgamma, Ptr dbeta, CPtr dout, CPtr inp, CPtr mean, CPtr rstd, CPtr gamma,
                                 int N, int C) {
    LNX_PROFILE_SCOPE("layernorm_backward");
    ops::layernorm_backward(dinp, dgamma, dbeta, dout, inp, mean, rstd, gamma, N, C);
  }
  static void rmsnorm_forward(Ptr out, Ptr rstd, CPtr inp, CPtr gamma, int N, int C) {
    LNX_PROFILE_SCOPE("rmsnorm_forward");
    ops::rmsnorm_forward(out, rstd, inp, gamma, N, C);
  }
  static void rmsnorm_backward(Ptr dinp, Ptr dgamma, CPtr dout, CPtr inp, CPtr rstd, CPtr gamma, int N, int C) {
    LNX_PROFILE_SCOPE("rmsnorm_backward");
    ops::rmsnorm_backward(dinp, dgamma, dout, inp, rstd, gamma, N, C);
  }
  static void dyt_forward(Ptr out, Ptr act, CPtr inp, CPtr gamma, CPtr beta, CPtr alpha, int N, int C) {
    LNX_PROFILE_SCOPE("dyt_forward");
    ops::dyt_forward(out, act, inp, gamma, beta, alpha, N, C);
  }
  static void dyt_backward(Ptr dinp, Ptr dgamma, Ptr dbeta, Ptr dalpha, CPtr dout, CPtr inp, CPtr act, CPtr gamma,
                           CPtr alpha, int N, int C) {
    LNX_PROFILE_SCOPE("dyt_backward");
    ops::dyt_backward(dinp, dgamma, dbeta, dalpha, dout, inp, act, gamma, alpha, N, C);
  }
  static void gate_forward(Ptr out, CPtr x, CPtr f, CPtr g, size_t n) {
    LNX_PROFILE_SCOPE("gate_forward");
    ops::gate_forward(out, x, f, g, n);
  }
  static void gate_backward(Ptr df, Ptr dg, CPtr ds, CPtr f, CPtr g, size_t n) {
    LNX_PROFILE_SCOPE("gate_backward");
    ops::gate_backward(df, dg, ds, f, g, n);
  }
  static void attention_forward(Ptr out, Ptr P, CPtr q, CPtr k, CPtr v, int B, int n, int d, bool causal) {
    LNX_PROFILE_SCOPE("attention_forward");
    ops::attention_forward(out, P, q, k, v, B, n, d, causal);
  }
  static void attention_backward(Ptr dq, Ptr dk, Ptr dv, CPtr dout, CPtr q, CPtr k, CPtr v, CPtr P, int B, int n,
                                 int d) {
    LNX_PROFILE_SCOPE("attention_backward");
    ops::attention_backward(dq, dk, dv, dout, q, k, v, P, B, n, d);
  }
  static double cross_entropy_forward(Ptr probs, CPtr logits, const IntArray& target, int N, int V) {
    LNX_PROFILE_SCOPE("cross_entropy_forward");
    return ops::cross_entropy_forward(probs, logits, target.data(), N, V);
  }
  static void cross_entropy_backward(Ptr dlogits, CPtr probs, const IntArray& target, int N, int V) {
    LNX_PROFILE_SCOPE("cross_entropy_backward");
    ops::cross_entropy_backward(dlogits, probs, target.data(), N, V);
  }

  // x0 (N,d) = scale·E[tok] (E is (V,d)); the model's scale is √d (or 1, ModelConfig::input_scale).
  static void embed_forward(Ptr x0, CPtr E, const IntArray& tokens, int N, int d, int /*V*/, T scale) {
    LNX_PROFILE_SCOPE("embed_forward");
    const int* tok = tokens.data();
    pool().parallel_for(
        N,
        [&](long r0, long r1, int) {
          for (long r = r0; r < r1; ++r)
            for (int c = 0; c < d; ++c)
              x0[static_cast<size_t>(r) * d + c] = scale * E[static_cast<size_t>(tok[r]) * d + c];
        },
        16);
  }
  // dE[tok] += scale·dx0. Split over columns so rows that share a token are summed in a fixed order
  // whatever the thread count.
  static void embed_backward(Ptr dE, CPtr dx0, const IntArray& tokens, int N, int d, int /*V*/, T scale) {
    LNX_PROFILE_SCOPE("embed_backward");
    const int* tok = tokens.data();
    pool().parallel_for(
        d,
        [&](long c0, long c1, int) {
          for (int r = 0; r < N; ++r)
            for (long c = c0; c < c1; ++c)
              dE[static_cast<size_t>(tok[r]) * d + c] += scale * dx0[static_cast<size_t>(r) * d + c];
        },
        16);
  }

  // One optimizer step (optim/optimizer.h) over n parameters: O::update on fixed-size chunks;
  // skipped when the run's halt flag stats[flag] is set (check_step).
  template <class O>
  static void optimizer_update(Ptr param, CPtr grad, Ptr const* states, size_t n, const T* k,
                               const std::vector<double>& stats, uint32_t flag) {
    if (stats[flag] != 0) return;
    optimizer_update<O>(param, grad, states, n, k);
  }
  template <class O>
  static void optimizer_update(Ptr param, CPtr grad, Ptr const* states, size_t n, const T* k) {
    LNX_PROFILE_SCOPE("optimizer_update");
    pool().parallel_for(
        static_cast<long>(n), [&](long i0, long i1, int) { O::update(i0, i1, param, grad, states, k); }, 1 << 14);
  }

  // ---- run statistics and readback (probe_run.h, train_run.h; op_interface.h) ----
  // On the CPU statistics are host doubles, summed in a fixed order, and a readback has landed at once.
  using Stats = std::vector<double>;
  using Accum = std::vector<double>;
  struct Readback {
    std::vector<double> values;
  };
  static Stats stats(size_t n) { return Stats(n, 0.0); }
  static Accum accum(size_t n) { return Accum(n, 0.0); }
  static void set_loss_target(Stats&, uint32_t) {}  // the CPU's forward() returns the loss
  static void accumulate_sum(Accum& acc, CPtr x, size_t n) {
    double* a = acc.data();
    elementwise(n, [=](long i0, long i1) {
      for (long i = i0; i < i1; ++i) a[i] += x[i];
    });
  }
  // s[slot] += ‖x‖₂
  static void add_norm(Stats& s, uint32_t slot, CPtr x, size_t n) {
    double ss = 0;
    for (size_t i = 0; i < n; ++i) ss += static_cast<double>(x[i]) * x[i];
    s[slot] += std::sqrt(ss);
  }
  // s[slot] += ‖x‖²/cols averaged over the rows
  static void add_mean_square(Stats& s, uint32_t slot, CPtr x, int rows, int cols) {
    double ss = 0;
    for (size_t i = 0; i < static_cast<size_t>(rows) * cols; ++i) ss += static_cast<double>(x[i]) * x[i];
    s[slot] += ss / cols / rows;
  }
  // s[slot] = ‖acc / count‖₂ (acc is divided in place)
  static void norm_of_mean(Stats& s, uint32_t slot, Accum& acc, size_t n, double count) {
    double ss = 0;
    for (size_t i = 0; i < n; ++i) {
      acc[i] /= count;
      ss += acc[i] * acc[i];
    }
    s[slot] = std::sqrt(ss);
  }
  // s[slot] = ‖g‖₂, summed in double over fixed blocks (partial sums in parallel, then added in
  // block order), so the value does not depend on the thread count.
  static void grad_norm(Stats& s, uint32_t slot, CPtr g, size_t size) {
    LNX_PROFILE_SCOPE("grad_norm");
    blocked_norm(s, slot, size, [g](long i) { return g[i]; });
  }
  // out = (a + b)·½ and s[slot] = ‖out‖₂ in one pass over memory (the CPU's two half-batches,
  // trainer.cpp); the same blocks and order as grad_norm, so the norm is the one grad_norm(out) gives.
  // out may be a or b.
  static void mean_and_norm(Stats& s, uint32_t slot, Ptr out, CPtr a, CPtr b, size_t size) {
    LNX_PROFILE_SCOPE("mean_and_norm");
    blocked_norm(s, slot, size, [=](long i) { return out[i] = (a[i] + b[i]) * T(0.5); });
  }
  // s[flag] = 1 when the loss or the gradient norm is not finite or the loss is above `limit`.
  static void check_step(Stats& s, uint32_t flag, uint32_t loss_slot, uint32_t norm_slot, double limit) {
    const double l = s[loss_slot], gn = s[norm_slot];
    if (!std::isfinite(l) || !std::isfinite(gn) || l > limit) s[flag] = 1;
  }
  static std::unique_ptr<Readback> read(const Stats& s, size_t first, size_t count) {
    return std::make_unique<Readback>(Readback{std::vector<double>(s.begin() + first, s.begin() + first + count)});
  }
  static bool landed(Readback&) { return true; }
  static double value(const Readback& r, size_t i) { return r.values[i]; }
  static void flush() {}
  // A whole array copied to host floats (a run's checkpoint, train_run.h): at once on the CPU.
  struct ArrayRead {};
  static std::unique_ptr<ArrayRead> read_array(const Array& a, float* dst) {
    std::copy(a.begin(), a.end(), dst);
    return std::make_unique<ArrayRead>();
  }
  static bool landed(ArrayRead&) { return true; }
  static void write_array(Array& a, const float* src) { std::copy(src, src + a.size(), a.begin()); }

  // s[slot] = √(Σ value(i)²) over i < size in double: per block of 2¹⁴ in index order, the blocks'
  // sums then added in block order (one order whatever the thread count). A block's sum is one chain
  // of dependent double adds, so a thread runs four blocks' chains interleaved: four times the adds
  // in flight, and each block still sums its own elements in the same order (the same bits).
  template <class F>
  static void blocked_norm(Stats& s, uint32_t slot, size_t size, const F& value) {
    constexpr long kBlock = 1 << 14;
    const long n = static_cast<long>(size), blocks = (n + kBlock - 1) / kBlock;
    std::vector<double> partial(blocks, 0.0);
    pool().parallel_for(blocks, [&](long b0, long b1, int) {
      long b = b0;
      for (; b + 4 <= b1 && (b + 4) * kBlock <= n; b += 4) {  // four whole blocks
        double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
        for (long i = b * kBlock, e = i + kBlock; i < e; ++i) {
          const double x0 = value(i), x1 = value(i + kBlock), x2 = value(i + 2 * kBlock), x3 = value(i + 3 * kBlock);
          s0 += x0 * x0, s1 += x1 * x1, s2 += x2 * x2, s3 += x3 * x3;
        }
        partial[b] = s0, partial[b + 1] = s1, partial[b + 2] = s2, partial[b + 3] = s3;
      }
      for (; b < b1; ++b) {
        double ss = 0;
        for (long i = b * kBlock, e = std::min(n, i + kBlock); i < e; ++i) {
          const double x = value(i);
          ss += x * x;
        }
        partial[b] = ss;
      }
    });
    double ss = 0;
    for (double x : partial) ss += x;
    s[slot] = std::sqrt(ss);
  }

  // Element-wise ops, split over the team in blocks of at least kElementChunk elements (each element
  // is computed alone, so the split cannot change a bit).
  static constexpr long kElementChunk = 1 << 12;
  template <class F>
  static void elementwise(size_t n, const F& f) {
    pool().parallel_for(
        static_cast<long>(n), [&](long i0, long i1, int) { f(i0, i1); }, kElementChunk);
  }
  static void add(Ptr out, CPtr a, CPtr b, size_t n) {
    LNX_PROFILE_SCOPE("add");
    elementwise(n, [=](long i0, long i1) {
      for (long i = i0; i < i1; ++i) out[i] = a[i] + b[i];
    });
  }
  static void accumulate(Ptr dst, CPtr src, size_t n) {
    LNX_PROFILE_SCOPE("accumulate");
    elementwise(n, [=](long i0, long i1) {
      for (long i = i0; i < i1; ++i) dst[i] += src[i];
    });
  }
  static void scale(Ptr dst, CPtr src, T alpha, size_t n) {
    LNX_PROFILE_SCOPE("scale");
    elementwise(n, [=](long i0, long i1) {
      for (long i = i0; i < i1; ++i) dst[i] = alpha * src[i];
    });
  }
  static void copy(Ptr dst, CPtr src, size_t n) {
    LNX_PROFILE_SCOPE("copy");
    elementwise(n, [=](long i0, long i1) { std::copy(src + i0, src + i1, dst + i0); });
  }
  static void zero(Ptr dst, size_t n) {
    LNX_PROFILE_SCOPE("zero");
    elementwise(n, [=](long i0, long i1) { std::fill(dst + i0, dst + i1, T(0)); });
  }
};

}  // namespace lnx
