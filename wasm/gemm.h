// gemm.h — the engine's one matrix-multiply entry point (float hot path, double for checks).
//
// C = alpha * op(A) * op(B) + beta * C, all row-major with leading dimensions.
// op(A) is M×K (A is M×K, or K×M when transA); op(B) is K×N (B is K×N, or N×K when transB).
// beta == 0 means C is overwritten (never read, so NaNs in C are not propagated).
// Parallel over row or column blocks of C with the calling thread's team of lnx::pool()
// (whichever split packs less); runs inline when the team is one thread, or in fewer parts when the
// problem is small enough that a fork-join costs more than it saves.
//
// Kernels (see bench/README-gemm.md for the measurements behind the choice):
//  - wasm (-msimd128): float uses a register-blocked 4×8 SIMD128 micro-kernel on packed A/B panels
//    ("xnn-style"), except thin shapes (M == 1 or N <= 3), which go to Eigen's GEMV-like paths;
//    double uses Eigen's SSE path translated to SIMD128.
//  - native float, where -march has AVX-512: an 8×32 FMA tile that reads op(A) in place
//    (wasm/gemm_avx512.h); thin shapes as in wasm go to Eigen.
//  - everything else (native double, native float without AVX-512): Eigen, vectorised for
//    whatever -march the build uses.
// Determinism: every element's k-summation order depends only on K, never on the thread split,
// so results with 1 and N threads are bit-identical (checked by bench/gemm_bench.cpp).
#pragma once

namespace lnx {

template <class T>
void gemm(bool transA, bool transB, int M, int N, int K, T alpha, const T* A, int lda, const T* B, int ldb, T beta,
          T* C, int ldc);

extern template void gemm<float>(bool, bool, int, int, int, float, const float*, int, const float*, int, float, float*,
                                 int);
extern template void gemm<double>(bool, bool, int, int, int, double, const double*, int, const double*, int, double,
                                  double*, int);

// Name of the float kernel the dispatcher uses for large problems, e.g. "xnn-style-4x8-simd128",
// "avx512-8x32-fma".
const char* gemm_kernel_name();

// The FMA flavour (docs/engine.md, "Flavours"): builds whose GEMM was compiled with -mrelaxed-simd
// can run the float kernel with fused multiply-adds (f32x4.relaxed_madd). Off by default: it changes
// the last bits, and differently on CPUs with and without FMA3, so a run that must reproduce the
// precomputed documents keeps it off. set_gemm_fma(true) is ignored where it is not available.
bool gemm_fma_available();
void set_gemm_fma(bool on);
bool gemm_fma();

// Benchmark/test hooks. The engine never calls these.
namespace gemm_detail {
enum class Kernel { Auto = 0, Eigen = 1, Tiled = 2, TiledPackedB = 3, TiledInPlaceB = 4 };
// Forces one float kernel for every call (Auto restores shape dispatch). Tiled is the build's own
// tile (SIMD128 in wasm, AVX-512 natively) for every shape, thin ones too; it falls back to Eigen
// where the build has none (native without AVX-512). TiledPackedB is Tiled that packs op(B) even
// where the tile would read it in place (gemm.cpp, BSource): the benchmark's baseline;
// TiledInPlaceB reads op(B) in place wherever its layout allows, at any row stride.
void force_kernel(Kernel k);
bool has_tiled_kernel();
// Minimum 2*M*N*K (flops) per part when a call is split over the pool's threads (0: split over every
// thread of the team whatever the size); < 0 restores the default.
void set_parallel_threshold(double flops);
double parallel_threshold();
}  // namespace gemm_detail

}  // namespace lnx
