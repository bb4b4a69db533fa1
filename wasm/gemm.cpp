// gemm.cpp — see gemm.h. Measurements and the reasons for each choice: bench/README-gemm.md.
#include "gemm.h"

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <type_traits>
#include <vector>

#if defined(__GNUC__) && !defined(__clang__)
// GCC 12 flags -Wmaybe-uninitialized inside its own AVX-512 intrinsic headers (the deliberately
// undefined operand of _mm512_extractf64x4_pd) when Eigen's double kernels are inlined here.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <Eigen/Core>

#include "profile.h"
#include "thread_pool.h"

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#define LNX_GEMM_SIMD128 1
#else
#define LNX_GEMM_SIMD128 0
#endif
// The FMA flavour (lnx-st-fma, lnx-mt-fma): this file compiled with -mrelaxed-simd, so the kernel
// can also run with f32x4.relaxed_madd; which one runs is set at run time (set_gemm_fma).
#if LNX_GEMM_SIMD128 && defined(__wasm_relaxed_simd__)
#define LNX_GEMM_RELAXED 1
#else
#define LNX_GEMM_RELAXED 0
#endif
// The native float tile for x86 with AVX-512 (wasm/gemm_avx512.h): -march=native on such a core.
#if !LNX_GEMM_SIMD128 && defined(__AVX512F__)
#define LNX_GEMM_AVX512 1
#include "gemm_avx512.h"
#else
#define LNX_GEMM_AVX512 0
#endif
// Either of the engine's own tiles (tiled_gemm below); Eigen does the rest.
#define LNX_GEMM_TILED (LNX_GEMM_SIMD128 || LNX_GEMM_AVX512)

namespace lnx {
namespace {

// A call is split into at most flops / threshold parts (flops = 2*M*N*K), so each part has at least
// this much work: 1 MFLOP, 6 µs natively and 20 µs in wasm, against a fork-join of about a
// microsecond while the team's threads spin (thread_pool.cpp). Below 2 MFLOP a call runs on the
// calling thread. (With the pool's former condition-variable wake-ups, tens of µs, 2 threads paid
// only from 8–16 MFLOP: bench/README-gemm.md.)
constexpr double kDefaultParallelThreshold = 1.0e6;
std::atomic<int> g_force{0};
std::atomic<double> g_threshold{kDefaultParallelThreshold};
std::atomic<bool> g_fma{false};

template <class T>
void scale_c(int M, int N, T beta, T* C, int ldc) {
  for (int i = 0; i < M; ++i) {
    T* c = C + static_cast<std::ptrdiff_t>(i) * ldc;
    if (beta == T(0)) {
      for (int j = 0; j < N; ++j) c[j] = T(0);
    } else if (beta != T(1)) {
      for (int j = 0; j < N; ++j) c[j] *= beta;
    }
  }
}

// How a call is split over the pool: number of chunks, and whether by rows or columns.
struct Split {
  int parts = 1;
  bool by_rows = true;
};

// Chunk boundaries are multiples of row_unit (col_unit) and the last chunk takes the remainder, so
// every chunk holds at least one whole unit (kernel tile / Eigen block).
Split choose_split(int M, int N, int K, int row_unit, int col_unit) {
  Split s;
  const double flops = 2.0 * M * N * K, per_part = g_threshold.load(std::memory_order_relaxed);
  // the threads of this thread's team (1 inside a chunk of a split as wide as the pool), fewer
  // for a small call
  const int threads = static_cast<int>(std::min<double>(pool().team_size(), per_part > 0 ? flops / per_part : 1e9));
  if (threads <= 1) return s;
  const int row_units = M / row_unit;
  const int col_units = N / col_unit;
  const int p_rows = std::min(threads, row_units), p_cols = std::min(threads, col_units);
  // Packing on the critical path, in floats. A row split packs all of op(B) (K×N: the SIMD kernel
  // does it once before the fork, Eigen in every block) plus M×K/p of op(A) per thread; a column
  // split packs all of op(A) in every thread plus K×N/p of op(B). Pick the cheaper (rows on a tie):
  // e.g. the toy's dW = dyᵀ·x with M=128, N=K=512 is 1.1× on 2 threads split by rows.
  const double inf = 1e300;
  const double rows_cost = p_rows >= 2 ? double(K) * N + double(M) * K / p_rows : inf;
  const double cols_cost = p_cols >= 2 ? double(M) * K + double(K) * N / p_cols : inf;
  if (rows_cost >= inf && cols_cost >= inf) return s;
  s.by_rows = rows_cost <= cols_cost;
  s.parts = s.by_rows ? p_rows : p_cols;
  return s;
}

// Runs f(begin, end) over chunks of [0, n) whose boundaries are multiples of unit (last chunk
// ends at n) on up to `parts` pool threads.
template <class F>
void run_split(int n, int unit, int parts, const F& f) {
  const long units = std::max(1, n / unit);
  pool().parallel_for(
      units, [&](long b, long e, int) { f(static_cast<int>(b) * unit, e == units ? n : static_cast<int>(e) * unit); },
      1, parts);
}

// ---------------------------------------------------------------------------------------------
// Eigen (double everywhere; float on native and as the wasm fallback).
// ---------------------------------------------------------------------------------------------
template <class T>
void eigen_block(bool tA, bool tB, int M, int N, int K, T alpha, const T* A, int lda, const T* B, int ldb, T beta, T* C,
                 int ldc) {
  using Mat = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  using Stride = Eigen::OuterStride<>;
  Eigen::Map<Mat, 0, Stride> c(C, M, N, Stride(ldc));
  if (beta == T(0)) {
    c.setZero();
  } else if (beta != T(1)) {
    c *= beta;
  }
  Eigen::Map<const Mat, 0, Stride> a(A, tA ? K : M, tA ? M : K, Stride(lda));
  Eigen::Map<const Mat, 0, Stride> b(B, tB ? N : K, tB ? K : N, Stride(ldb));
  if (!tA && !tB) {
    c.noalias() += alpha * a * b;
  } else if (!tA) {
    c.noalias() += alpha * a * b.transpose();
  } else if (!tB) {
    c.noalias() += alpha * a.transpose() * b;
  } else {
    c.noalias() += alpha * a.transpose() * b.transpose();
  }
}

// Splits C into row blocks of whole 16-row units, or column blocks of whole 48-column units.
// Eigen computes a row-major C as C^T = op(B)^T op(A)^T, so our columns are its register-tile
// rows (mr = 3 packets: 12 floats on SSE/SIMD128, 48 on AVX-512) and our rows its nr=4 columns.
// With boundaries on multiples of those, and Eigen's K blocking depending only on K, every element
// is produced by the same micro-kernel path with the same k order as in the unsplit call (and no
// block is small enough to fall into Eigen's GEMV/lazy paths), so 1 vs N threads is bit-identical;
// bench/gemm_bench.cpp checks this.
template <class T>
void eigen_gemm(bool tA, bool tB, int M, int N, int K, T alpha, const T* A, int lda, const T* B, int ldb, T beta, T* C,
                int ldc) {
  constexpr int kRowUnit = 16, kColUnit = 48;
  const Split s = choose_split(M, N, K, kRowUnit, kColUnit);
  if (s.parts <= 1) {
    eigen_block(tA, tB, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
    return;
  }
  const std::ptrdiff_t la = lda, lb = ldb, lc = ldc;
  if (s.by_rows) {
    run_split(M, kRowUnit, s.parts, [&](int r0, int r1) {
      eigen_block(tA, tB, r1 - r0, N, K, alpha, tA ? A + r0 : A + r0 * la, lda, B, ldb, beta, C + r0 * lc, ldc);
    });
  } else {
    run_split(N, kColUnit, s.parts, [&](int c0, int c1) {
      eigen_block(tA, tB, M, c1 - c0, K, alpha, A, lda, tB ? B + c0 * lb : B + c0, ldb, beta, C + c0, ldc);
    });
  }
}

#if LNX_GEMM_TILED
// ---------------------------------------------------------------------------------------------
// What the engine's own float tiles share (SIMD128 in wasm, AVX-512 in native builds): K blocks, where
// op(B) is read from, and the driver that packs op(B) and splits C over the pool (tiled_gemm).
// ---------------------------------------------------------------------------------------------
constexpr int kKcMax = 512;  // K block; every toy/probe K except 1000/1024 fits in one

thread_local std::vector<float> t_bpack;

float* grow(std::vector<float>& v, std::size_t n) {
  if (v.size() < n) v.resize(n);
  return v.data();
}

// KC blocking: depends only on K (never on the split), so per-element summation order is fixed.
int kc_block(int K) {
  const int blocks = (K + kKcMax - 1) / kKcMax;
  return (K + blocks - 1) / blocks;
}

// Where the micro-kernel reads op(B): packed panels (pack_b), or B itself when op(B) = B and N is a
// whole number of panels, since then panel j at row k is already NR contiguous floats, B[k·ldb + NR·j].
// Reading in place skips a copy of all of B per call, which for the toy's half-batches (32 rows of
// C per call, so each packed value is used only 32 times) is a fifth of the call. Same products, same
// order: the bits do not change.
// Except when B's rows are 4 KiB or more apart (ldb >= 1024 floats: d_ff = 1024 for the probe's dx
// through W2 and its dW2): each of a panel's kc rows then sits on a page of its own, and at a whole
// number of 4 KiB in the same L1 cache sets, where they evict each other. Reading such a B in place
// ran at half speed at 4 KiB (`gemm_bench bench only=stride`, Zen 5: SIMD128 25-26 against 55-56
// GFLOP/s packed at M = 256; AVX-512 190 against 239) and 3-27% slower at 5 and 6 KiB (natively
// 0-19%); at M = 32 the two were even (natively in place 6% ahead once). Such a B is packed.
template <int kNR>
struct BSource {
  const float* base;
  bool packed;
  int ldb, npanels;
  const float* panel(int k0, int kc, int j) const {
    return packed ? base + static_cast<std::ptrdiff_t>(k0) * npanels * kNR + static_cast<std::ptrdiff_t>(j) * kc * kNR
                  : base + static_cast<std::ptrdiff_t>(k0) * ldb + static_cast<std::ptrdiff_t>(j) * kNR;
  }
  std::ptrdiff_t k_step() const { return packed ? kNR : ldb; }
};

#endif  // LNX_GEMM_TILED

#if LNX_GEMM_SIMD128
// ---------------------------------------------------------------------------------------------
// SIMD128 float kernel: MR×8 register tile (MR rows × two f32x4), packed panels, loadsplat of A.
//
// op(B) is packed once per call into 8-column panels, k-major (for each k the 8 values of the
// panel's columns are contiguous), zero-padded to a multiple of 8 columns; when op(B) = B and N is a
// multiple of 8 it is already in that form (row k of B, stride ldb) and is read in place (BSource).
// op(A) is packed per thread in MC-row blocks into MR-row panels, k-major (MR values per k),
// zero-padded. Packing absorbs all four transposition cases, so there is one micro-kernel.
// The micro-kernel keeps 2*MR accumulators; per k it does MR load32_splat + 2 v128 loads and
// 2*MR f32x4 mul + add, or (FMA flavour, set_gemm_fma) 2*MR relaxed_madd: V8 emits vfmadd*ps where
// the CPU has FMA3 and mul+add where it has not, so its last bits depend on the CPU.
// K is cut into KC blocks that depend only on K; each element accumulates k in increasing order
// within a block and blocks are added to C in order, so any row/column split gives the same bits.
// ---------------------------------------------------------------------------------------------
constexpr int kMR = 4;                    // rows per register tile
constexpr int kNR = 8;                    // columns per register tile (two f32x4)
constexpr int kABlockBytes = 128 * 1024;  // packed A block (MC×KC floats) kept hot in L2

thread_local std::vector<float> t_apack;

inline void transpose4(v128_t& r0, v128_t& r1, v128_t& r2, v128_t& r3) {
  const v128_t t0 = wasm_i32x4_shuffle(r0, r1, 0, 4, 1, 5);
  const v128_t t1 = wasm_i32x4_shuffle(r0, r1, 2, 6, 3, 7);
  const v128_t t2 = wasm_i32x4_shuffle(r2, r3, 0, 4, 1, 5);
  const v128_t t3 = wasm_i32x4_shuffle(r2, r3, 2, 6, 3, 7);
  r0 = wasm_i32x4_shuffle(t0, t2, 0, 1, 4, 5);
  r1 = wasm_i32x4_shuffle(t0, t2, 2, 3, 6, 7);
  r2 = wasm_i32x4_shuffle(t1, t3, 0, 1, 4, 5);
  r3 = wasm_i32x4_shuffle(t1, t3, 2, 3, 6, 7);
}

// Packs panels [j0, j1) of op(B)[k0:k0+kc, 0:N] (8 columns each): panel j at out + j*kc*8,
// [k*8 + col], zero-padded past N.
void pack_b(bool tB, const float* B, int ldb, int k0, int kc, int N, int j0, int j1, float* out) {
  const std::ptrdiff_t lb = ldb;
  const std::ptrdiff_t panel = static_cast<std::ptrdiff_t>(kc) * kNR;
  const int full = std::min(j1, N / kNR), rem = N - (N / kNR) * kNR;
  const bool tail = rem != 0 && j1 * kNR > N;
  if (!tB) {
    // op(B)[k][n] = B[k*ldb + n]. Row by row, so B is read sequentially (reading one panel's
    // column strip down all k instead strides by ldb and thrashes L1 sets when ldb is 2^n).
    for (int k = 0; k < kc; ++k) {
      const float* src = B + (k0 + k) * lb + j0 * kNR;
      float* o = out + j0 * panel + k * kNR;
      for (int j = j0; j < full; ++j, src += kNR, o += panel) {
        wasm_v128_store(o, wasm_v128_load(src));
        wasm_v128_store(o + 4, wasm_v128_load(src + 4));
      }
      if (tail) {
        for (int q = 0; q < kNR; ++q) o[q] = q < rem ? src[q] : 0.0f;
      }
    }
    return;
  }
  // op(B)[k][n] = B[n*ldb + k]: rows n0..n0+7 of B are read along k and transposed 4×4 at a time.
  for (int j = j0; j < j1; ++j) {
    float* o = out + j * panel;
    const int n0 = j * kNR, nv = std::min(kNR, N - n0);
    const float* r[kNR];
    for (int q = 0; q < kNR; ++q) r[q] = q < nv ? B + (n0 + q) * lb + k0 : nullptr;
    int k = 0;
    if (nv == kNR) {
      for (; k + 4 <= kc; k += 4, o += 4 * kNR) {
        v128_t a0 = wasm_v128_load(r[0] + k), a1 = wasm_v128_load(r[1] + k);
        v128_t a2 = wasm_v128_load(r[2] + k), a3 = wasm_v128_load(r[3] + k);
        v128_t b0 = wasm_v128_load(r[4] + k), b1 = wasm_v128_load(r[5] + k);
        v128_t b2 = wasm_v128_load(r[6] + k), b3 = wasm_v128_load(r[7] + k);
        transpose4(a0, a1, a2, a3);
        transpose4(b0, b1, b2, b3);
        wasm_v128_store(o + 0, a0);
        wasm_v128_store(o + 4, b0);
        wasm_v128_store(o + 8, a1);
        wasm_v128_store(o + 12, b1);
        wasm_v128_store(o + 16, a2);
        wasm_v128_store(o + 20, b2);
        wasm_v128_store(o + 24, a3);
        wasm_v128_store(o + 28, b3);
      }
    }
    for (; k < kc; ++k, o += kNR) {
      for (int q = 0; q < kNR; ++q) o[q] = r[q] ? r[q][k] : 0.0f;
    }
  }
}

// Packs op(A)[i0:i0+mc, k0:k0+kc] into panels of kMR rows: panel p at out + p*kc*kMR, [k*kMR + r].
void pack_a(bool tA, const float* A, int lda, int i0, int mc, int k0, int kc, float* out) {
  const std::ptrdiff_t la = lda;
  const std::ptrdiff_t panel = static_cast<std::ptrdiff_t>(kc) * kMR;
  const int full = mc / kMR, rem = mc - full * kMR;
  if (tA) {
    // op(A)[i][k] = A[k*lda + i]: row k of A holds kMR contiguous values for every panel; walk A
    // row by row (sequential reads) and scatter into the panels.
    for (int k = 0; k < kc; ++k) {
      const float* src = A + (k0 + k) * la + i0;
      float* o = out + k * kMR;
      for (int p = 0; p < full; ++p, src += kMR, o += panel) {
        if (kMR % 4 == 0) {
          for (int q = 0; q < kMR; q += 4) wasm_v128_store(o + q, wasm_v128_load(src + q));
        } else {
          for (int q = 0; q < kMR; ++q) o[q] = src[q];
        }
      }
      if (rem) {
        for (int q = 0; q < kMR; ++q) o[q] = q < rem ? src[q] : 0.0f;
      }
    }
    return;
  }
  // op(A)[i][k] = A[i*lda + k]: kMR rows read along k, transposed 4×4 at a time.
  for (int p = 0; p * kMR < mc; ++p) {
    float* o = out + p * panel;
    const int r0 = i0 + p * kMR, rv = std::min(kMR, mc - p * kMR);
    const float* r[kMR];
    for (int q = 0; q < kMR; ++q) r[q] = q < rv ? A + (r0 + q) * la + k0 : nullptr;
    int k = 0;
    if (rv == kMR && kMR == 4) {
      for (; k + 4 <= kc; k += 4, o += 4 * kMR) {
        v128_t a0 = wasm_v128_load(r[0] + k), a1 = wasm_v128_load(r[1] + k);
        v128_t a2 = wasm_v128_load(r[2] + k), a3 = wasm_v128_load(r[3] + k);
        transpose4(a0, a1, a2, a3);
        wasm_v128_store(o + 0, a0);
        wasm_v128_store(o + 4, a1);
        wasm_v128_store(o + 8, a2);
        wasm_v128_store(o + 12, a3);
      }
    }
    for (; k < kc; ++k, o += kMR) {
      for (int q = 0; q < kMR; ++q) o[q] = r[q] ? r[q][k] : 0.0f;
    }
  }
}

// acc + a*b: two roundings, or (Fma) f32x4.relaxed_madd. Emscripten 3.1.6's clang 14 has only the
// pre-standard builtin, which emits the prototype opcode; it is called with its operands in the
// standard order (a·b + c) and scripts/wasm-relaxed-fma.mjs renumbers the opcode after linking.
template <bool Fma>
__attribute__((always_inline)) inline v128_t madd(v128_t acc, v128_t a, v128_t b) {
#if LNX_GEMM_RELAXED
  if constexpr (Fma) return __builtin_wasm_fma_f32x4(a, b, acc);
#endif
  return wasm_f32x4_add(acc, wasm_f32x4_mul(a, b));
}

// C tile (mr×nr valid of kMR×8) = alpha*acc + beta*C; beta == 0: C not read.
// The scalar edge path does the same float operations in the same order as the vector path.
// Inlined into simd_region: as a separate (noinline) function it measured slower on V8.
// b steps by `bk` floats per k: kNR in a packed panel, ldb when the kernel reads op(B) in place.
template <bool Fma>
__attribute__((always_inline)) inline void micro_kernel(int kc, const float* __restrict a, const float* __restrict b,
                                                        std::ptrdiff_t bk, float* c, int ldc, int mr, int nr,
                                                        float alpha, float beta) {
  v128_t acc0[kMR], acc1[kMR];
#pragma clang loop unroll(full)
  for (int r = 0; r < kMR; ++r) acc0[r] = acc1[r] = wasm_f32x4_const_splat(0.0f);
    // One k step per iteration: two B vectors, kMR A splats (v128.load32_splat -> vbroadcastss),
    // 2*kMR f32x4 mul+add into 8 accumulators. The loop is deliberately NOT unrolled: clang hoists
    // the loads of an unrolled body to its top (2-8 steps' worth of splats/B vectors live at once),
    // and V8's x64 backend (15 usable xmm registers, and one GP register per distinct load_splat
    // offset) then spills accumulators; unroll 2/4/8 measured 25-60% slower in the full GEMM.
#pragma clang loop unroll(disable)
  for (int k = 0; k < kc; ++k) {
    const v128_t b0 = wasm_v128_load(b);
    const v128_t b1 = wasm_v128_load(b + 4);
#pragma clang loop unroll(full)
    for (int r = 0; r < kMR; ++r) {
      const v128_t ar = wasm_v128_load32_splat(a + r);
      acc0[r] = madd<Fma>(acc0[r], ar, b0);
      acc1[r] = madd<Fma>(acc1[r], ar, b1);
    }
    a += kMR;
    b += bk;
  }
  if (alpha != 1.0f) {
    const v128_t va = wasm_f32x4_splat(alpha);
    for (int r = 0; r < kMR; ++r) {
      acc0[r] = wasm_f32x4_mul(acc0[r], va);
      acc1[r] = wasm_f32x4_mul(acc1[r], va);
    }
  }
  const std::ptrdiff_t lc = ldc;
  if (mr == kMR && nr == kNR) {
    if (beta == 0.0f) {
      for (int r = 0; r < kMR; ++r) {
        wasm_v128_store(c + r * lc, acc0[r]);
        wasm_v128_store(c + r * lc + 4, acc1[r]);
      }
    } else if (beta == 1.0f) {
      for (int r = 0; r < kMR; ++r) {
        float* cr = c + r * lc;
        wasm_v128_store(cr, wasm_f32x4_add(acc0[r], wasm_v128_load(cr)));
        wasm_v128_store(cr + 4, wasm_f32x4_add(acc1[r], wasm_v128_load(cr + 4)));
      }
    } else {
      const v128_t vb = wasm_f32x4_splat(beta);
      for (int r = 0; r < kMR; ++r) {
        float* cr = c + r * lc;
        wasm_v128_store(cr, wasm_f32x4_add(acc0[r], wasm_f32x4_mul(vb, wasm_v128_load(cr))));
        wasm_v128_store(cr + 4, wasm_f32x4_add(acc1[r], wasm_f32x4_mul(vb, wasm_v128_load(cr + 4))));
      }
    }
    return;
  }
  alignas(16) float t[kMR * kNR];
  for (int r = 0; r < kMR; ++r) {
    wasm_v128_store(t + r * kNR, acc0[r]);
    wasm_v128_store(t + r * kNR + 4, acc1[r]);
  }
  for (int r = 0; r < mr; ++r) {
    float* cr = c + r * lc;
    const float* tr = t + r * kNR;
    if (beta == 0.0f) {
      for (int q = 0; q < nr; ++q) cr[q] = tr[q];
    } else if (beta == 1.0f) {
      for (int q = 0; q < nr; ++q) cr[q] = tr[q] + cr[q];
    } else {
      for (int q = 0; q < nr; ++q) cr[q] = tr[q] + beta * cr[q];
    }
  }
}

// Computes rows [m0, m1) × panel columns [j0, j1) of C from op(B) (all K blocks).
template <bool Fma>
void simd_region(bool tA, int N, int K, float alpha, const float* A, int lda, const BSource<kNR>& bsrc, float beta,
                 float* C, int ldc, int m0, int m1, int j0, int j1) {
  const int kcb = kc_block(K);
  const std::ptrdiff_t lc = ldc;
  const int mcb = std::max(kMR, (kABlockBytes / (4 * kcb)) / kMR * kMR);
  float* apack = grow(t_apack, static_cast<std::size_t>(mcb + kMR) * kcb);
  for (int k0 = 0; k0 < K; k0 += kcb) {
    const int kc = std::min(kcb, K - k0);
    const float beta_k = k0 == 0 ? beta : 1.0f;
    for (int i0 = m0; i0 < m1; i0 += mcb) {
      const int mc = std::min(mcb, m1 - i0);
      pack_a(tA, A, lda, i0, mc, k0, kc, apack);
      for (int j = j0; j < j1; ++j) {
        const float* bp = bsrc.panel(k0, kc, j);
        const int nr = std::min(kNR, N - j * kNR);
        for (int p = 0; p * kMR < mc; ++p) {
          const int mr = std::min(kMR, mc - p * kMR);
          micro_kernel<Fma>(kc, apack + static_cast<std::ptrdiff_t>(p) * kc * kMR, bp, bsrc.k_step(),
                            C + (i0 + p * kMR) * lc + j * kNR, ldc, mr, nr, alpha, beta_k);
        }
      }
    }
  }
}

// The SIMD128 tile as tiled_gemm takes it.
template <bool Fma>
struct Simd128Tiles {
  static constexpr int MR = kMR, NR = kNR;
  static void pack_b(bool tB, const float* B, int ldb, int k0, int kc, int N, int j0, int j1, float* out) {
    ::lnx::pack_b(tB, B, ldb, k0, kc, N, j0, j1, out);
  }
  static void region(bool tA, int N, int K, float alpha, const float* A, int lda, const BSource<NR>& bsrc, float beta,
                     float* C, int ldc, int m0, int m1, int j0, int j1) {
    simd_region<Fma>(tA, N, K, alpha, A, lda, bsrc, beta, C, ldc, m0, m1, j0, j1);
  }
};
#endif  // LNX_GEMM_SIMD128

#if LNX_GEMM_AVX512
// ---------------------------------------------------------------------------------------------
// The native AVX-512 tile (wasm/gemm_avx512.h) as tiled_gemm takes it. op(A) is read in place, so the
// rows are cut into MC blocks only to keep the rows being read (MC × KC floats) in L2 while every
// panel of op(B) passes over them.
// ---------------------------------------------------------------------------------------------
struct Avx512Tiles {
  static constexpr int MR = gemm_avx512::kMR, NR = gemm_avx512::kNR;
  static constexpr int kABlockBytes = 256 * 1024;
  static void pack_b(bool tB, const float* B, int ldb, int k0, int kc, int N, int j0, int j1, float* out) {
    gemm_avx512::pack_b(tB, B, ldb, k0, kc, N, j0, j1, out);
  }
  static void region(bool tA, int N, int K, float alpha, const float* A, int lda, const BSource<NR>& bsrc, float beta,
                     float* C, int ldc, int m0, int m1, int j0, int j1) {
    const int kcb = kc_block(K);
    const std::ptrdiff_t lc = ldc, la = lda;
    const std::ptrdiff_t rs = tA ? 1 : la, ks = tA ? la : 1;  // op(A)(i, k) at A + i·rs + k·ks
    const int mcb = std::max(MR, (kABlockBytes / (4 * kcb)) / MR * MR);
    for (int k0 = 0; k0 < K; k0 += kcb) {
      const int kc = std::min(kcb, K - k0);
      const float beta_k = k0 == 0 ? beta : 1.0f;
      for (int i0 = m0; i0 < m1; i0 += mcb) {
        const int i1 = std::min(m1, i0 + mcb);
        for (int j = j0; j < j1; ++j) {
          const float* bp = bsrc.panel(k0, kc, j);
          const int nr = std::min(NR, N - j * NR);
          for (int i = i0; i < i1; i += MR) {
            gemm_avx512::tile_rows(std::min(MR, i1 - i), kc, A + i * rs + k0 * ks, rs, ks, bp, bsrc.k_step(),
                                   C + i * lc + j * NR, lc, nr, alpha, beta_k);
          }
        }
      }
    }
  }
};
#endif  // LNX_GEMM_AVX512

#if LNX_GEMM_TILED
// C = alpha·op(A)·op(B) + beta·C with one of the engine's own tiles. op(B) is read as it is
// (BSource) or packed, all K blocks, into a buffer the threads share (written before the fork, or
// by each thread for its own disjoint panels); C is split by whole tiles of rows or of columns.
template <class Tiles>
void tiled_gemm(bool tA, bool tB, int M, int N, int K, float alpha, const float* A, int lda, const float* B, int ldb,
                float beta, float* C, int ldc) {
  constexpr int MR = Tiles::MR, NR = Tiles::NR;
  const int npanels = (N + NR - 1) / NR;
  const int kcb = kc_block(K);
  const Split s = choose_split(M, N, K, MR, NR);
  const auto force = static_cast<gemm_detail::Kernel>(g_force.load(std::memory_order_relaxed));
  const bool in_place = !tB && N % NR == 0 && force != gemm_detail::Kernel::TiledPackedB &&
                        (ldb < 1024 || force == gemm_detail::Kernel::TiledInPlaceB);
  float* bpack = in_place ? nullptr : grow(t_bpack, static_cast<std::size_t>(K) * npanels * NR);
  const BSource<NR> src = in_place ? BSource<NR>{B, false, ldb, npanels} : BSource<NR>{bpack, true, ldb, npanels};
  auto pack_panels = [&](int j0, int j1) {
    if (in_place) return;
    for (int k0 = 0; k0 < K; k0 += kcb) {
      const int kc = std::min(kcb, K - k0);
      Tiles::pack_b(tB, B, ldb, k0, kc, N, j0, j1, bpack + static_cast<std::ptrdiff_t>(k0) * npanels * NR);
    }
  };
  if (s.parts <= 1) {
    pack_panels(0, npanels);
    Tiles::region(tA, N, K, alpha, A, lda, src, beta, C, ldc, 0, M, 0, npanels);
  } else if (s.by_rows) {
    pack_panels(0, npanels);  // every thread reads all of B: pack it once, before the fork
    run_split(M, MR, s.parts,
              [&](int r0, int r1) { Tiles::region(tA, N, K, alpha, A, lda, src, beta, C, ldc, r0, r1, 0, npanels); });
  } else {
    run_split(npanels, 1, s.parts, [&](int j0, int j1) {
      pack_panels(j0, j1);  // each thread packs only its own panels
      Tiles::region(tA, N, K, alpha, A, lda, src, beta, C, ldc, 0, M, j0, j1);
    });
  }
}
#endif  // LNX_GEMM_TILED

}  // namespace

template <class T>
void gemm(bool transA, bool transB, int M, int N, int K, T alpha, const T* A, int lda, const T* B, int ldb, T beta,
          T* C, int ldc) {
  LNX_PROFILE_SCOPE("gemm");
  if (M <= 0 || N <= 0) return;
  if (K <= 0 || alpha == T(0)) {
    scale_c(M, N, beta, C, ldc);
    return;
  }
#if LNX_GEMM_TILED
  if (std::is_same<T, float>::value) {
    const auto force = static_cast<gemm_detail::Kernel>(g_force.load(std::memory_order_relaxed));
    // Shape dispatch: a tile wastes most of its work on a single row or column (plus packing op(B)
    // that is used once); Eigen's GEMV-like paths win there (SIMD128 4×8 tile, measured: M=1 17 vs 7,
    // N=1 16 vs 5, N=2 15 vs 9, N=4 tie, M=2 10 vs 15 GFLOP/s).
    const bool thin = M == 1 || N <= 3;
    if (force == gemm_detail::Kernel::Tiled || force == gemm_detail::Kernel::TiledPackedB ||
        force == gemm_detail::Kernel::TiledInPlaceB || (force == gemm_detail::Kernel::Auto && !thin)) {
#if LNX_GEMM_RELAXED
      auto* run =
          g_fma.load(std::memory_order_relaxed) ? &tiled_gemm<Simd128Tiles<true>> : &tiled_gemm<Simd128Tiles<false>>;
#elif LNX_GEMM_SIMD128
      auto* run = &tiled_gemm<Simd128Tiles<false>>;
#else
      auto* run = &tiled_gemm<Avx512Tiles>;
#endif
      run(transA, transB, M, N, K, static_cast<float>(alpha), reinterpret_cast<const float*>(A), lda,
          reinterpret_cast<const float*>(B), ldb, static_cast<float>(beta), reinterpret_cast<float*>(C), ldc);
      return;
    }
  }
#endif
  eigen_gemm(transA, transB, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}

template void gemm<float>(bool, bool, int, int, int, float, const float*, int, const float*, int, float, float*, int);
template void gemm<double>(bool, bool, int, int, int, double, const double*, int, const double*, int, double, double*,
                           int);

const char* gemm_kernel_name() {
#if LNX_GEMM_SIMD128
  if (g_force.load() == static_cast<int>(gemm_detail::Kernel::Eigen)) return "eigen-sse-simd128";
  return LNX_GEMM_RELAXED && g_fma.load() ? "xnn-style-4x8-simd128-relaxed-fma" : "xnn-style-4x8-simd128";
#elif LNX_GEMM_AVX512
  return g_force.load() == static_cast<int>(gemm_detail::Kernel::Eigen) ? "eigen-avx512" : gemm_avx512::kName;
#elif defined(EIGEN_VECTORIZE_AVX512)
  return "eigen-avx512";
#elif defined(EIGEN_VECTORIZE_AVX2)
  return "eigen-avx2";
#elif defined(EIGEN_VECTORIZE_AVX)
  return "eigen-avx";
#elif defined(EIGEN_VECTORIZE_SSE2)
  return "eigen-sse";
#else
  return "eigen-scalar";
#endif
}

bool gemm_fma_available() { return LNX_GEMM_RELAXED != 0; }
void set_gemm_fma(bool on) { g_fma.store(on && LNX_GEMM_RELAXED); }
bool gemm_fma() { return g_fma.load(); }

namespace gemm_detail {
void force_kernel(Kernel k) { g_force.store(static_cast<int>(k)); }
bool has_tiled_kernel() { return LNX_GEMM_TILED != 0; }
void set_parallel_threshold(double flops) { g_threshold.store(flops < 0 ? kDefaultParallelThreshold : flops); }
double parallel_threshold() { return g_threshold.load(); }
}  // namespace gemm_detail

}  // namespace lnx
