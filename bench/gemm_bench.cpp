// gemm_bench.cpp — correctness test and benchmark for lnx::gemm (wasm/gemm.h).
//
//   gemm_bench            correctness test, then the benchmark table
//   gemm_bench test       correctness test only (exit code 1 on any mismatch)
//   gemm_bench bench      benchmark only
//   gemm_bench sweep      1 vs N threads at growing sizes (for the parallel threshold)
//   options: quick (fewer/shorter runs), reps=N (timed runs per cell, median reported),
//            ms=T (minimum milliseconds per timed run), threads=N (max threads to bench),
//            timer=cpu (process CPU time instead of wall time: for single-thread numbers on a busy box),
//            only=toy|quick|probe|stride|misc (one group of shapes), fma (the FMA kernel: -fma builds only)
//
// The test checks every float kernel the build has (Eigen, and the engine's own tile: SIMD128 in
// wasm, AVX-512 natively where -march has it) plus the Auto dispatch and gemm<double>, on 1 thread
// and on the pool with the parallel threshold forced to 0, against a naive double-precision
// reference: M,N,K over {1,3,17,64,129} (all 125 triples) and a few larger/odd shapes (K up to
// 1100 to cross KC blocks), all four transposition cases, several alpha/beta pairs, leading
// dimensions larger than the width (padding holds NaN in A/B and a sentinel in C that must
// survive), and NaN in C when beta == 0 (must not propagate).
// It also checks that the multi-threaded results (pools of 2, 3 and 16 threads, as many as the build
// can start) are bit-identical to the single-threaded one.
// Build recipes: bench/README-gemm.md.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "gemm.h"
#include "thread_pool.h"

#if defined(__EMSCRIPTEN__)
#include <emscripten.h>
#if defined(__EMSCRIPTEN_PTHREADS__)
#include <emscripten/threading.h>
#endif
// Process CPU seconds (user+system, all threads) under Node; -1 in a browser. (JavaScript, which
// clang-format would take for C++.)
// clang-format off
EM_JS(double, js_cpu_seconds, (), {
  if (typeof process !== 'undefined' && process.cpuUsage) {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1e6;
  }
  return -1;
});
// clang-format on
#else
#include <time.h>
#endif

using lnx::gemm_detail::Kernel;

namespace {

struct Variant {
  const char* name;
  Kernel kernel;
};

std::vector<Variant> float_variants() {
  std::vector<Variant> v{{"auto", Kernel::Auto}, {"eigen", Kernel::Eigen}};
  if (lnx::gemm_detail::has_tiled_kernel()) {  // SIMD128 in wasm, AVX-512 natively
    v.push_back({"tiled", Kernel::Tiled});
    v.push_back({"packed-b", Kernel::TiledPackedB});     // the same tile, op(B) always packed
    v.push_back({"in-place-b", Kernel::TiledInPlaceB});  // op(B) read in place wherever it can be
  }
  return v;
}

int max_threads() {
#if defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)
  return 1;
#else
  return static_cast<int>(std::max(1u, std::min(2u, std::thread::hardware_concurrency())));
#endif
}

// ------------------------------------------------------------------------------------------------
// Correctness
// ------------------------------------------------------------------------------------------------
struct Case {
  bool tA, tB;
  int M, N, K;
  double alpha, beta;
  int pad;  // extra leading-dimension elements
};

template <class T>
struct Problem {
  int lda, ldb, ldc, arows, acols, brows, bcols;
  std::vector<T> A, B, C0;
  std::vector<double> ref, bound;
};

const float kSentinel = 12345.0f;

template <class T>
Problem<T> make_problem(const Case& c, std::mt19937& rng) {
  Problem<T> p;
  p.arows = c.tA ? c.K : c.M;
  p.acols = c.tA ? c.M : c.K;
  p.brows = c.tB ? c.N : c.K;
  p.bcols = c.tB ? c.K : c.N;
  p.lda = p.acols + c.pad;
  p.ldb = p.bcols + c.pad + (c.pad ? 1 : 0);
  p.ldc = c.N + c.pad + (c.pad ? 2 : 0);
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  const T nan = std::numeric_limits<T>::quiet_NaN();
  p.A.assign(static_cast<size_t>(p.arows) * p.lda, nan);  // padding stays NaN: must never be read
  p.B.assign(static_cast<size_t>(p.brows) * p.ldb, nan);
  p.C0.assign(static_cast<size_t>(c.M) * p.ldc, static_cast<T>(kSentinel));
  for (int i = 0; i < p.arows; ++i)
    for (int j = 0; j < p.acols; ++j) p.A[i * p.lda + j] = static_cast<T>(U(rng));
  for (int i = 0; i < p.brows; ++i)
    for (int j = 0; j < p.bcols; ++j) p.B[i * p.ldb + j] = static_cast<T>(U(rng));
  for (int i = 0; i < c.M; ++i)
    for (int j = 0; j < c.N; ++j) p.C0[i * p.ldc + j] = c.beta == 0 ? nan : static_cast<T>(U(rng));
  p.ref.assign(static_cast<size_t>(c.M) * c.N, 0.0);
  p.bound.assign(static_cast<size_t>(c.M) * c.N, 0.0);
  for (int i = 0; i < c.M; ++i) {
    for (int j = 0; j < c.N; ++j) {
      double s = 0, sa = 0;
      for (int k = 0; k < c.K; ++k) {
        const double a = c.tA ? p.A[k * p.lda + i] : p.A[i * p.lda + k];
        const double b = c.tB ? p.B[j * p.ldb + k] : p.B[k * p.ldb + j];
        s += a * b;
        sa += std::fabs(a * b);
      }
      const double c0 = c.beta == 0 ? 0.0 : static_cast<double>(p.C0[i * p.ldc + j]);
      p.ref[i * c.N + j] = c.alpha * s + c.beta * c0;
      // Forward error bound of recursive summation, with a factor-2 margin: (K+4)*eps*|terms|.
      const double eps = std::numeric_limits<T>::epsilon();
      p.bound[i * c.N + j] = (c.K + 4) * eps * (std::fabs(c.alpha) * sa + std::fabs(c.beta * c0)) + 1e-30;
    }
  }
  return p;
}

template <class T>
bool check(const Case& c, const Problem<T>& p, const std::vector<T>& C, const char* what) {
  for (int i = 0; i < c.M; ++i) {
    for (int j = 0; j < p.ldc; ++j) {
      const double got = C[i * p.ldc + j];
      bool ok;
      double want;
      if (j >= c.N) {
        want = kSentinel;
        ok = got == kSentinel;
      } else {
        want = p.ref[i * c.N + j];
        ok = std::isfinite(got) && std::fabs(got - want) <= p.bound[i * c.N + j];
      }
      if (!ok) {
        std::printf("FAIL %s: tA=%d tB=%d M=%d N=%d K=%d alpha=%g beta=%g pad=%d at (%d,%d): got %.9g want %.9g\n",
                    what, c.tA, c.tB, c.M, c.N, c.K, c.alpha, c.beta, c.pad, i, j, got, want);
        return false;
      }
    }
  }
  return true;
}

template <class T>
std::vector<T> run_case(const Case& c, const Problem<T>& p) {
  std::vector<T> C = p.C0;
  lnx::gemm<T>(c.tA, c.tB, c.M, c.N, c.K, static_cast<T>(c.alpha), p.A.data(), p.lda, p.B.data(), p.ldb,
               static_cast<T>(c.beta), C.data(), p.ldc);
  return C;
}

// Case c on 1 thread, then on each pool of `pools` with the parallel threshold at 0 (every product
// splits), each result checked as "<name>/<threads>t"; returns how many pool results differ from the
// 1-thread one in any bit.
template <class T>
int check_on_pools(const Case& c, const Problem<T>& p, const std::string& name, const std::vector<int>& pools,
                   int& checked, int& failures) {
  lnx::reset_pool(1);
  const std::vector<T> c1 = run_case(c, p);
  ++checked;
  if (!check(c, p, c1, (name + "/1t").c_str())) ++failures;
  int bit_diff = 0;
  for (int t : pools) {
    lnx::reset_pool(t);
    lnx::gemm_detail::set_parallel_threshold(0);
    const std::vector<T> c2 = run_case(c, p);
    lnx::gemm_detail::set_parallel_threshold(-1);
    ++checked;
    if (!check(c, p, c2, (name + "/" + std::to_string(t) + "t").c_str())) ++failures;
    if (std::memcmp(c1.data(), c2.data(), c1.size() * sizeof(T)) != 0) ++bit_diff;
  }
  return bit_diff;
}

int run_tests(bool quick) {
  std::vector<Case> cases;
  const int sizes[] = {1, 3, 17, 64, 129};
  const double ab[][2] = {{1, 0}, {1, 1}, {0.5, -2}, {-1.5, 0}, {2, 0.25}, {0, 0.5}};
  int idx = 0;
  for (int M : sizes)
    for (int N : sizes)
      for (int K : sizes)
        for (int t = 0; t < 4; ++t, ++idx) {
          const double* p = ab[idx % 5];  // (0, beta) is covered once below
          cases.push_back({(t & 1) != 0, (t & 2) != 0, M, N, K, p[0], p[1], (idx / 3) % 3 == 0 ? 0 : 3 + idx % 5});
        }
  // Larger and odd shapes: multiple KC blocks, multiple MC blocks, column-split paths.
  const int big[][3] = {{200, 72, 1100}, {37, 300, 513}, {8, 1000, 40}, {517, 9, 33}, {300, 300, 300}, {2, 2, 2000}};
  for (auto& s : big)
    for (int t = 0; t < 4; ++t, ++idx) {
      const double* p = ab[idx % 5];
      cases.push_back({(t & 1) != 0, (t & 2) != 0, s[0], s[1], s[2], p[0], p[1], idx % 2 ? 5 : 0});
    }
  // B's rows 4 KiB apart (ldb = N + pad + 1 = 1024 floats): packed, not read in place (gemm.cpp)
  for (int t = 0; t < 4; t += 2) cases.push_back({t != 0, false, 40, 1016, 70, 1.0, 0.5, 7});
  cases.push_back({false, false, 70, 1024, 33, 1.0, 0.0, 0});
  cases.push_back({false, true, 33, 17, 9, 0.0, 0.5, 2});
  cases.push_back({true, false, 17, 33, 0, 1.0, 0.0, 1});
  cases.push_back({false, false, 5, 7, 0, 1.0, 2.0, 0});
  if (quick) {
    std::vector<Case> q;
    for (size_t i = 0; i < cases.size(); i += 7) q.push_back(cases[i]);
    cases.swap(q);
  }

  const int threads = max_threads();
  // Pools the multi-threaded results are compared on: an even, an odd and a wide split (as many as
  // this build can start: in threaded wasm one thread per core plus the caller).
  std::vector<int> pools;
  if (threads > 1)
    for (int t : {2, 3, 16})
      if (t <= lnx::max_threads() && (pools.empty() || t > pools.back())) pools.push_back(t);
  std::mt19937 rng(12345);
  int failures = 0, checked = 0, bit_diff_simd = 0, bit_diff_eigen = 0, bit_diff_double = 0, bit_diff_pack = 0;
  for (const Case& c : cases) {
    const Problem<float> pf = make_problem<float>(c, rng);
    for (const Variant& v : float_variants()) {
      lnx::gemm_detail::force_kernel(v.kernel);
      (v.kernel == Kernel::Eigen ? bit_diff_eigen : bit_diff_simd) +=
          check_on_pools(c, pf, v.name, pools, checked, failures);
    }
    // The tile reads op(B) in place or packs it (gemm.cpp, BSource: by shape and stride); either
    // way the same products in the same order, so the same bits, which the engine relies on. (A
    // transposed B is always packed: nothing to compare.)
    if (lnx::gemm_detail::has_tiled_kernel() && !c.tB) {
      lnx::reset_pool(1);
      lnx::gemm_detail::force_kernel(Kernel::TiledInPlaceB);
      const std::vector<float> in_place = run_case(c, pf);
      lnx::gemm_detail::force_kernel(Kernel::TiledPackedB);
      const std::vector<float> packed = run_case(c, pf);
      if (std::memcmp(in_place.data(), packed.data(), in_place.size() * sizeof(float)) != 0) ++bit_diff_pack;
    }
    lnx::gemm_detail::force_kernel(Kernel::Auto);
    const Problem<double> pd = make_problem<double>(c, rng);
    bit_diff_double += check_on_pools(c, pd, "double", pools, checked, failures);
  }
  lnx::gemm_detail::force_kernel(Kernel::Auto);
  lnx::reset_pool(threads);
  std::printf("test: %zu cases, %d results checked, %d failures\n", cases.size(), checked, failures);
  if (lnx::gemm_detail::has_tiled_kernel()) {
    std::printf("bitwise op(B) read in place vs packed: %d differing results (of the cases with B not transposed)\n",
                bit_diff_pack);
    if (bit_diff_pack) {
      std::printf("FAIL: reading op(B) in place changed the bits\n");
      ++failures;
    }
  }
  if (threads > 1) {
    std::string counts;
    for (int t : pools) counts += (counts.empty() ? "" : ", ") + std::to_string(t);
    std::printf(
        "bitwise 1 vs %s threads (threshold forced to 0): float-auto/tiled differing results: %d, "
        "eigen-float: %d, double: %d (of %zu cases on each)\n",
        counts.c_str(), bit_diff_simd, bit_diff_eigen, bit_diff_double, cases.size());
    // The dispatch claims 1-vs-N bit identity for float (gemm.h); a difference is a failure.
    if (bit_diff_simd || bit_diff_eigen || bit_diff_double) {
      std::printf("FAIL: multi-threaded result not bit-identical to single-threaded\n");
      ++failures;
    }
  }
  return failures;
}

// ------------------------------------------------------------------------------------------------
// Benchmark
// ------------------------------------------------------------------------------------------------
struct Shape {
  const char* model;
  const char* what;
  int M, N, K;
  bool tA, tB;
};

const Shape kShapes[] = {
    // toy: T=512, d=128, d_ff=512, V=256
    {"toy", "fwd QKV x*W^T", 512, 128, 128, false, true},
    {"toy", "fwd W1 x*W^T", 512, 512, 128, false, true},
    {"toy", "fwd W2 x*W^T", 512, 128, 512, false, true},
    {"toy", "fwd logits x*W^T", 512, 256, 128, false, true},
    {"toy", "bwd dx=dy*W (QKV)", 512, 128, 128, false, false},
    {"toy", "bwd dx=dy*W (W1)", 512, 128, 512, false, false},
    {"toy", "bwd dx=dy*W (W2)", 512, 512, 128, false, false},
    {"toy", "bwd dx=dy*W (logits)", 512, 128, 256, false, false},
    {"toy", "dW=dy^T*x (QKV)", 128, 128, 512, true, false},
    {"toy", "dW=dy^T*x (W1)", 512, 128, 512, true, false},
    {"toy", "dW=dy^T*x (W2)", 128, 512, 512, true, false},
    {"toy", "dW=dy^T*x (logits)", 256, 128, 512, true, false},
    {"toy", "attn S=Q*K^T", 64, 64, 128, false, true},
    {"toy", "attn O=P*V", 64, 128, 64, false, false},
    {"toy", "attn dV=P^T*dO", 64, 128, 64, true, false},
    // quick: the lab's quick look, one half-batch of T=32 tokens (B=2, n=32), d=128, d_ff=512, V=256
    {"quick", "fwd QKV x*W^T", 32, 128, 128, false, true},
    {"quick", "fwd W1 x*W^T", 32, 512, 128, false, true},
    {"quick", "fwd W2 x*W^T", 32, 128, 512, false, true},
    {"quick", "fwd logits x*W^T", 32, 256, 128, false, true},
    {"quick", "bwd dx=dy*W (QKV)", 32, 128, 128, false, false},
    {"quick", "bwd dx=dy*W (W1)", 32, 128, 512, false, false},
    {"quick", "bwd dx=dy*W (W2)", 32, 512, 128, false, false},
    {"quick", "bwd dx=dy*W (logits)", 32, 128, 256, false, false},
    {"quick", "dW=dy^T*x (QKV)", 128, 128, 32, true, false},
    {"quick", "dW=dy^T*x (W1)", 512, 128, 32, true, false},
    {"quick", "dW=dy^T*x (W2)", 128, 512, 32, true, false},
    {"quick", "dW=dy^T*x (logits)", 256, 128, 32, true, false},
    {"quick", "attn S=Q*K^T", 32, 32, 128, false, true},
    {"quick", "attn O=P*V", 32, 128, 32, false, false},
    // probe: T=256, d=512, d_ff=1024, V=1000
    {"probe", "fwd QKV x*W^T", 256, 512, 512, false, true},
    {"probe", "fwd W1 x*W^T", 256, 1024, 512, false, true},
    {"probe", "fwd W2 x*W^T", 256, 512, 1024, false, true},
    {"probe", "fwd logits x*W^T", 256, 1000, 512, false, true},
    {"probe", "bwd dx=dy*W (QKV)", 256, 512, 512, false, false},
    {"probe", "bwd dx=dy*W (W1)", 256, 512, 1024, false, false},
    {"probe", "bwd dx=dy*W (W2)", 256, 1024, 512, false, false},
    {"probe", "bwd dx=dy*W (logits)", 256, 512, 1000, false, false},
    {"probe", "dW=dy^T*x (QKV)", 512, 512, 256, true, false},
    {"probe", "dW=dy^T*x (W1)", 1024, 512, 256, true, false},
    {"probe", "dW=dy^T*x (W2)", 512, 1024, 256, true, false},
    {"probe", "dW=dy^T*x (logits)", 1000, 512, 256, true, false},
    {"probe", "attn S=Q*K^T", 32, 32, 512, false, true},
    {"probe", "attn O=P*V", 32, 512, 32, false, false},
    {"probe", "attn dV=P^T*dO", 32, 512, 32, true, false},
    // stride: op(B) that could be read in place (NN/TN, N a whole number of 8-column panels) at row
    // strides (ldb = N) of 2, 3, 4, 5, 6 and 8 KiB: where reading B in place loses to packing it (gemm.cpp)
    {"stride", "NN ldb 512", 256, 512, 512, false, false},
    {"stride", "NN ldb 768", 256, 768, 512, false, false},
    {"stride", "NN ldb 1024", 32, 1024, 256, false, false},
    {"stride", "NN ldb 1024", 64, 1024, 512, false, false},
    {"stride", "NN ldb 1024", 256, 1024, 512, false, false},
    {"stride", "NN ldb 1024", 256, 1024, 64, false, false},
    {"stride", "NN ldb 1280", 256, 1280, 512, false, false},
    {"stride", "NN ldb 1536", 256, 1536, 512, false, false},
    {"stride", "NN ldb 2048", 32, 2048, 512, false, false},
    {"stride", "NN ldb 2048", 256, 2048, 512, false, false},
    {"stride", "TN ldb 512", 128, 512, 32, true, false},
    {"stride", "TN ldb 512", 128, 512, 512, true, false},
    {"stride", "TN ldb 1024", 32, 1024, 32, true, false},
    {"stride", "TN ldb 1024", 128, 1024, 32, true, false},
    {"stride", "TN ldb 1024", 128, 1024, 256, true, false},
    {"stride", "TN ldb 1024", 512, 1024, 256, true, false},
    {"stride", "TN ldb 1280", 512, 1280, 256, true, false},
    {"stride", "TN ldb 1536", 512, 1536, 256, true, false},
    {"stride", "TN ldb 2048", 512, 2048, 256, true, false},
    // small/odd calls (not in the trainer's list; they decide the small-size dispatch)
    {"misc", "row vector", 1, 256, 128, false, true},
    {"misc", "2 rows", 2, 256, 128, false, true},
    {"misc", "3 rows", 3, 256, 128, false, true},
    {"misc", "column vector", 256, 1, 128, false, false},
    {"misc", "2 columns", 256, 2, 128, false, false},
    {"misc", "4 columns", 256, 4, 128, false, false},
    {"misc", "7 columns", 256, 7, 128, false, true},
    {"misc", "tiny", 8, 8, 8, false, false},
    {"misc", "odd", 17, 33, 65, true, true},
};

bool g_cpu_timer = false;  // timer=cpu: process CPU time instead of wall time (for a busy machine)

double wall_s() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

double now_s() {
  if (g_cpu_timer) {
#if defined(__EMSCRIPTEN__)
    const double c = js_cpu_seconds();
    if (c >= 0) return c;
#else
    timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
#endif
  }
  return wall_s();
}

// Median GFLOP/s over `reps` timed runs, each at least `min_ms` long.
double bench_one(const Shape& s, int reps, double min_ms) {
  if (s.M <= 0) return 0;
  const int arows = s.tA ? s.K : s.M, acols = s.tA ? s.M : s.K;
  const int brows = s.tB ? s.N : s.K, bcols = s.tB ? s.K : s.N;
  std::vector<float> A(static_cast<size_t>(arows) * acols), B(static_cast<size_t>(brows) * bcols),
      C(static_cast<size_t>(s.M) * s.N);
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> U(-1, 1);
  for (auto& x : A) x = U(rng);
  for (auto& x : B) x = U(rng);
  auto call = [&] {
    lnx::gemm<float>(s.tA, s.tB, s.M, s.N, s.K, 1.0f, A.data(), acols, B.data(), bcols, 0.0f, C.data(), s.N);
  };
  const double flops = 2.0 * s.M * s.N * s.K;
  // Warm up (also lets the wasm tier-up finish) and size the inner loop.
  int inner = 1;
  double t0 = now_s();
  call();
  while (now_s() - t0 < 0.02) call();
  for (;;) {
    t0 = now_s();
    for (int i = 0; i < inner; ++i) call();
    if ((now_s() - t0) * 1e3 >= min_ms) break;
    inner *= 2;
  }
  std::vector<double> g;
  for (int r = 0; r < reps; ++r) {
    t0 = now_s();
    for (int i = 0; i < inner; ++i) call();
    g.push_back(flops * inner / (now_s() - t0) * 1e-9);
  }
  std::sort(g.begin(), g.end());
  return g[g.size() / 2];
}

// The fork-join benchmark's barrier waits as the pool's own waits do (thread_pool.cpp, spin_until): it
// lets the thread it waits for have this core if that thread needs it. Natively sched_yield at every
// look. Wasm pthreads have no sched_yield (a spin there holds the core until the OS takes it, which on
// a busy machine made the median fork-join milliseconds), so it spins 50 µs and then naps 20 µs
// (Atomics.wait with a timeout) every 256 looks: napping at once would measure the nap's length.
#if defined(__EMSCRIPTEN_PTHREADS__)
constexpr double kNapAfterS = 50e-6;
void give_core_away() {
  static uint32_t never = 0;
  emscripten_futex_wait(&never, 0, 0.02);
}
#else
constexpr double kNapAfterS = 0;
void give_core_away() { std::this_thread::yield(); }
#endif

void wait_until_started(const std::atomic<int>& started, int n) {
  const double t0 = wall_s();
  for (unsigned i = 1; started.load() < n; ++i)
    if (kNapAfterS == 0 || (i % 256 == 0 && wall_s() - t0 >= kNapAfterS)) give_core_away();
}

void run_bench(bool quick, int reps, double min_ms, int maxt, const char* only) {
  std::vector<Variant> vars = float_variants();
  std::vector<int> threads{1};
  if (maxt > 1) threads.push_back(maxt);
  // Fork-join latency of the pool, median of many: a parallel_for whose chunks only wait until every
  // chunk has started (so each runs on its own thread: a leader takes over only chunks not started
  // when it is done with its own), from the call to its return.
  if (maxt > 1) {
    lnx::reset_pool(maxt);
    std::vector<double> us;
    for (int r = 0; r < 2000; ++r) {
      std::atomic<int> started{0};
      const double t0 = wall_s();
      lnx::pool().parallel_for(maxt, [&](long, long, int) {
        ++started;
        wait_until_started(started, maxt);
      });
      us.push_back((wall_s() - t0) * 1e6);
    }
    std::sort(us.begin(), us.end());
    std::printf("pool fork-join, %d threads, every thread started: median %.1f us, p90 %.1f us\n", maxt,
                us[us.size() / 2], us[us.size() * 9 / 10]);
  }
  // Global warm-up: in a browser the module starts on V8's baseline compiler (Liftoff) and tiers
  // up to the optimising one in the background; without this the first cells measure Liftoff.
  {
    lnx::reset_pool(1);
    const Shape w{"warmup", "", 256, 256, 256, false, true};
    for (const Variant& v : vars) {
      lnx::gemm_detail::force_kernel(v.kernel);
      bench_one(w, 3, 100);
    }
  }
  std::printf("kernel: %s; GFLOP/s, median of %d runs of >= %.0f ms (%s time)\n\n", lnx::gemm_kernel_name(), reps,
              min_ms, g_cpu_timer ? "process CPU" : "wall");
  std::printf("| model | matmul | op | M×N×K |");
  for (int t : threads)
    for (const Variant& v : vars) std::printf(" %s %dt |", v.name, t);
  std::printf("\n|---|---|---|---|");
  for (size_t i = 0; i < threads.size() * vars.size(); ++i) std::printf("---|");
  std::printf("\n");
  for (const Shape& s : kShapes) {
    if (quick && (std::strcmp(s.model, "probe") == 0 || std::strcmp(s.model, "stride") == 0)) continue;
    if (only && std::strcmp(s.model, only) != 0) continue;
    const char* op = s.tA ? (s.tB ? "TT" : "TN") : (s.tB ? "NT" : "NN");
    std::printf("| %s | %s | %s | %d×%d×%d |", s.model, s.what, op, s.M, s.N, s.K);
    std::fflush(stdout);
    for (int t : threads) {
      lnx::reset_pool(t);
      for (const Variant& v : vars) {
        lnx::gemm_detail::force_kernel(v.kernel);
        std::printf(" %.1f |", bench_one(s, reps, min_ms));
        std::fflush(stdout);
      }
    }
    std::printf("\n");
  }
  lnx::gemm_detail::force_kernel(Kernel::Auto);
}

// Fork-join crossover: the Auto kernel at square-ish sizes on 1 thread and on the pool with the
// parallel threshold forced to 0, to pick kDefaultParallelThreshold.
void run_sweep(int reps, double min_ms, int maxt) {
  if (maxt < 2) return;
  std::printf("\nthreshold sweep (auto kernel, threshold forced to 0 for the %dt column)\n", maxt);
  std::printf("| M×N×K | MFLOP | 1t GFLOP/s | %dt GFLOP/s | speedup |\n|---|---|---|---|---|\n", maxt);
  const int dims[][3] = {{32, 32, 64},    {64, 64, 64},    {64, 64, 128},   {64, 128, 128}, {128, 128, 128},
                         {128, 128, 256}, {256, 128, 128}, {256, 256, 128}, {512, 128, 128}};
  for (auto& d : dims) {
    const Shape s{"sweep", "", d[0], d[1], d[2], false, true};
    lnx::reset_pool(1);
    const double g1 = bench_one(s, reps, min_ms);
    lnx::reset_pool(maxt);
    lnx::gemm_detail::set_parallel_threshold(0);
    const double g2 = bench_one(s, reps, min_ms);
    lnx::gemm_detail::set_parallel_threshold(-1);
    std::printf("| %d×%d×%d | %.2f | %.1f | %.1f | %.2f |\n", d[0], d[1], d[2], 2e-6 * d[0] * d[1] * d[2], g1, g2,
                g2 / g1);
    std::fflush(stdout);
  }
}

}  // namespace

int main(int argc, char** argv) {
  bool do_test = true, do_bench = true, quick = false, do_sweep = false;
  int reps = 7, maxt = max_threads();
  double min_ms = 40;
  std::string only;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "test") do_bench = false;
    else if (a == "sweep") do_sweep = true, do_test = false, do_bench = false;
    else if (a == "bench") do_test = false;
    else if (a == "quick") quick = true;
    else if (a.rfind("reps=", 0) == 0) reps = std::atoi(a.c_str() + 5);
    else if (a.rfind("ms=", 0) == 0) min_ms = std::atof(a.c_str() + 3);
    else if (a == "timer=cpu") g_cpu_timer = true;
    else if (a == "fma") {
      if (!lnx::gemm_fma_available()) {
        std::printf("fma: this build has no FMA kernel (the -fma flavour has)\n");
        return 2;
      }
      lnx::set_gemm_fma(true);
    } else if (a.rfind("only=", 0) == 0) only = a.substr(5);
    else if (a.rfind("threads=", 0) == 0) maxt = std::min(maxt, std::atoi(a.c_str() + 8));
    else {
      std::printf("unknown argument %s\n", a.c_str());
      return 2;
    }
  }
  if (quick) {
    reps = std::min(reps, 3);
    min_ms = std::min(min_ms, 15.0);
  }
  std::printf("gemm_kernel_name: %s, max threads: %d\n", lnx::gemm_kernel_name(), maxt);
  int failures = 0;
  if (do_test) failures = run_tests(quick);
  if (do_bench) run_bench(quick, reps, min_ms, maxt, only.empty() ? nullptr : only.c_str());
  if (do_sweep) run_sweep(reps, min_ms, maxt);
  if (failures) {
    std::printf("gemm_bench: %d FAILURES\n", failures);
    return 1;
  }
  return 0;
}
