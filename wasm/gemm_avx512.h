// gemm_avx512.h — the native float GEMM tile for x86 cores with AVX-512, included by gemm.cpp
// only, which splits a call over threads and cuts K into blocks (kc_block) around it. The
// WebAssembly builds have their own SIMD128 tile in gemm.cpp; everything else uses Eigen.
//
// Why not Eigen: at the toy's shapes (256 rows per half-batch, N and K of 128 to 512) Eigen's float
// kernel reaches 150-175 GFLOP/s on one AVX-512 Zen 5 core, this tile 215-245 (bench/README-gemm.md),
// and the native step is measured against PyTorch's OpenBLAS in `npm run bench` (issue 13). The same
// tile at AVX2 width (8 floats, 6 rows) gained nothing over Eigen's AVX2 kernel, which already runs
// near the 256-bit FMA peak (103-126 against 110-128 GFLOP/s, -march=haswell on the same core), so
// AVX2 builds keep Eigen.
//
// Register tile: MR = 8 rows × NR = 32 columns of C (two zmm vectors), so 16 of the 32 zmm registers
// accumulate. Per k: two vector loads of op(B), MR broadcasts of op(A) from memory (vbroadcastss, a
// load µop, no shuffle) and 2·MR fused multiply-adds; two FMA pipes then stay busy (16 independent
// chains ≥ 2 pipes × latency 4).
// op(A) is never packed: element (i, k) is read at A + i·rs + k·ks, (rs, ks) = (lda, 1), or (1, lda)
// for a transposed A. op(B) is read in place when it is B itself and N is a whole number of tiles
// (gemm.cpp BSource); otherwise pack_b copies it into zero-padded NR-column panels.
// Summation: each element is one chain of fused multiply-adds over its K block in increasing k;
// which tile or thread computes it changes nothing, so 1 and N threads give the same bits. The bits
// differ from Eigen's (fused vs separate roundings, another order), as AVX2 builds' bits differ
// from AVX-512 builds'.
#pragma once

#include <immintrin.h>

#include <algorithm>
#include <cstddef>

namespace lnx::gemm_avx512 {

using vec = __m512;
constexpr int kLanes = 16;
constexpr int kMR = 8;
constexpr const char* kName = "avx512-8x32-fma";
inline vec load(const float* p) { return _mm512_loadu_ps(p); }
inline void store(float* p, vec v) { _mm512_storeu_ps(p, v); }
inline vec splat(float x) { return _mm512_set1_ps(x); }
inline vec zero() { return _mm512_setzero_ps(); }
inline vec fma(vec a, vec b, vec c) { return _mm512_fmadd_ps(a, b, c); }
inline vec mul(vec a, vec b) { return _mm512_mul_ps(a, b); }
inline vec add(vec a, vec b) { return _mm512_add_ps(a, b); }
constexpr int kNR = 2 * kLanes;

// dst[c·ld_dst + r] = src[r·ld_src + c] for an 8×8 block (AVX: unpack, shuffle, swap 128-bit halves).
inline void transpose8x8(const float* src, std::ptrdiff_t ld_src, float* dst, std::ptrdiff_t ld_dst) {
  __m256 r[8], t[8];
  for (int i = 0; i < 8; ++i) r[i] = _mm256_loadu_ps(src + i * ld_src);
  for (int i = 0; i < 8; i += 2)
    t[i] = _mm256_unpacklo_ps(r[i], r[i + 1]), t[i + 1] = _mm256_unpackhi_ps(r[i], r[i + 1]);
  for (int i = 0; i < 8; i += 4) {
    r[i + 0] = _mm256_shuffle_ps(t[i], t[i + 2], _MM_SHUFFLE(1, 0, 1, 0));
    r[i + 1] = _mm256_shuffle_ps(t[i], t[i + 2], _MM_SHUFFLE(3, 2, 3, 2));
    r[i + 2] = _mm256_shuffle_ps(t[i + 1], t[i + 3], _MM_SHUFFLE(1, 0, 1, 0));
    r[i + 3] = _mm256_shuffle_ps(t[i + 1], t[i + 3], _MM_SHUFFLE(3, 2, 3, 2));
  }
  for (int i = 0; i < 4; ++i) {
    _mm256_storeu_ps(dst + i * ld_dst, _mm256_permute2f128_ps(r[i], r[i + 4], 0x20));
    _mm256_storeu_ps(dst + (i + 4) * ld_dst, _mm256_permute2f128_ps(r[i], r[i + 4], 0x31));
  }
}

// Packs panels [j0, j1) of op(B)[k0:k0+kc, 0:N] (NR columns each): panel j at out + j·kc·NR,
// [k·NR + col], zero past N. Same layout as the SIMD128 tile's pack_b, wider.
inline void pack_b(bool tB, const float* B, int ldb, int k0, int kc, int N, int j0, int j1, float* out) {
  const std::ptrdiff_t lb = ldb, panel = static_cast<std::ptrdiff_t>(kc) * kNR;
  for (int j = j0; j < j1; ++j) {
    float* o = out + j * panel;
    const int n0 = j * kNR, nv = std::min(kNR, N - n0);
    if (!tB) {  // op(B)[k][n] = B[k·ldb + n]: rows of B, nv floats each
      for (int k = 0; k < kc; ++k, o += kNR) {
        const float* src = B + (k0 + k) * lb + n0;
        for (int q = 0; q < kNR; ++q) o[q] = q < nv ? src[q] : 0.0f;
      }
      continue;
    }
    // op(B)[k][n] = B[n·ldb + k]: 8 of the panel's rows of B at a time, read along k and turned
    // 8×8 at a time (the scalar copy made the toy's small-M NT calls half as fast as Eigen's).
    for (int q = 0; q < kNR; q += 8) {
      const int rows = std::max(0, std::min(8, nv - q));
      int k = 0;
      if (rows == 8) {
        const float* src = B + (n0 + q) * lb + k0;
        for (; k + 8 <= kc; k += 8) transpose8x8(src + k, lb, o + k * kNR + q, kNR);
      }
      for (; k < kc; ++k) {
        for (int r = 0; r < 8; ++r) o[k * kNR + q + r] = r < rows ? B[(n0 + q + r) * lb + k0 + k] : 0.0f;
      }
    }
  }
}

// One tile of C: R rows (R ≤ MR) × nr columns (nr ≤ NR) from a kc-long block:
// C = alpha·Σ_k A(r,k)·B(k,:) + beta·C, beta == 0: C is not read.
// a: op(A)(0, 0) of the tile, (rs, ks) its row and k strides; b: the panel's row k = 0, bk its k stride.
template <int R>
inline void tile(int kc, const float* a, std::ptrdiff_t rs, std::ptrdiff_t ks, const float* __restrict b,
                 std::ptrdiff_t bk, float* c, std::ptrdiff_t ldc, int nr, float alpha, float beta) {
  vec acc0[R], acc1[R];
  for (int r = 0; r < R; ++r) acc0[r] = acc1[r] = zero();
  for (int k = 0; k < kc; ++k, a += ks, b += bk) {
    const vec b0 = load(b), b1 = load(b + kLanes);
    for (int r = 0; r < R; ++r) {
      const vec ar = splat(a[r * rs]);
      acc0[r] = fma(ar, b0, acc0[r]);
      acc1[r] = fma(ar, b1, acc1[r]);
    }
  }
  if (alpha != 1.0f) {
    const vec va = splat(alpha);
    for (int r = 0; r < R; ++r) acc0[r] = mul(acc0[r], va), acc1[r] = mul(acc1[r], va);
  }
  const vec vb = splat(beta);
  auto update = [&](float* p, vec v) {  // beta·C added after alpha·acc, as the SIMD128 tile does
    if (beta == 0.0f) return store(p, v);
    store(p, add(v, beta == 1.0f ? load(p) : mul(vb, load(p))));
  };
  if (nr == kNR) {
    for (int r = 0; r < R; ++r) update(c + r * ldc, acc0[r]), update(c + r * ldc + kLanes, acc1[r]);
    return;
  }
  // A ragged right edge: through a full-width row buffer, so the valid columns get the same
  // operations as in a whole tile.
  alignas(64) float row[kNR] = {};
  for (int r = 0; r < R; ++r) {
    float* cr = c + r * ldc;
    if (beta != 0.0f) std::copy(cr, cr + nr, row);
    update(row, acc0[r]);
    update(row + kLanes, acc1[r]);
    for (int q = 0; q < nr; ++q) cr[q] = row[q];
  }
}

// The tile for `rows` (1..MR) rows: a whole tile, or the bottom edge.
template <int R = kMR>
inline void tile_rows(int rows, int kc, const float* a, std::ptrdiff_t rs, std::ptrdiff_t ks, const float* b,
                      std::ptrdiff_t bk, float* c, std::ptrdiff_t ldc, int nr, float alpha, float beta) {
  if constexpr (R > 1) {
    if (rows < R) return tile_rows<R - 1>(rows, kc, a, rs, ks, b, bk, c, ldc, nr, alpha, beta);
  }
  tile<R>(kc, a, rs, ks, b, bk, c, ldc, nr, alpha, beta);
}

}  // namespace lnx::gemm_avx512
