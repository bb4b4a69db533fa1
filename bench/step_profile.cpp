// step_profile.cpp — where a toy training step's time goes, op by op (the per-op table of
// `npm run bench`). Built from the engine's sources with LNX_PROFILE defined (wasm/profile.h), natively
// (build/step_profile) and as Node programs (build-wasm/step_profile-st.js, -mt.js); never part of
// the engine, its tests or the page.
//
//   step_profile [threads=N] [steps=N] [warm=N] ['<train config json>']
//   step_profile clock      (native x86-64 only) the core's clock now, from a timed chain of
//                           dependent integer adds (one per cycle): the clock the SIMD128 limit of
//                           16 flop per cycle per core is quoted at. A VM's /proc/cpuinfo often
//                           shows the nominal clock, not the one the core runs at.
//
// Runs `warm` untimed steps (V8 tiers up, caches fill), then `steps` timed ones, and prints one JSON
// object: the wall time per step, and per op the calling thread's exclusive seconds per step and
// calls per step (profile.h: a GEMM inside attention counts as "gemm"). "gemm" over the step is the
// share of the step the matrix products take; the rest is what fusing the non-GEMM work can win.
// With two threads or more an even batch runs its halves at once, each on half of the threads: the
// table is the main thread's half (with four or more, each op as the main thread lived it: its own
// part and its wait for the other parts of its team), and "unprofiled" holds its waits for the
// other half.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "api.h"
#include "profile.h"
#include "thread_pool.h"

namespace {

double wall() { return lnx::profile::now(); }

long flag(int argc, char** argv, const char* key, long fallback) {
  const size_t n = std::strlen(key);
  for (int i = 1; i < argc; ++i)
    if (std::strncmp(argv[i], key, n) == 0 && argv[i][n] == '=') return std::strtol(argv[i] + n + 1, nullptr, 10);
  return fallback;
}

#if defined(__x86_64__)
// GHz: 4·2²⁴ dependent adds (latency 1 cycle each) over the time they take; the best of 5.
double clock_ghz() {
  double best = 0;
  for (int rep = 0; rep < 5; ++rep) {
    unsigned long x = 0;
    const long n = 1L << 24;
    const double t0 = wall();
    for (long i = 0; i < n; ++i)
      asm volatile("add %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\tadd %1, %0" : "+r"(x) : "r"(i));
    const double dt = wall() - t0;
    best = std::max(best, 4.0 * n / dt / 1e9);
  }
  return best;
}
#endif

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "clock") == 0) {
#if defined(__x86_64__)
    std::printf("{\"clock_ghz\":%.4g}\n", clock_ghz());
    return 0;
#else
    std::fprintf(stderr, "step_profile: clock is measured on x86-64 only\n");
    return 1;
#endif
  }
  const int threads = static_cast<int>(flag(argc, argv, "threads", 1));
  const int steps = static_cast<int>(flag(argc, argv, "steps", 20));
  const int warm = static_cast<int>(flag(argc, argv, "warm", 3));
  std::string config = "{}";
  for (int i = 1; i < argc; ++i)
    if (argv[i][0] == '{') config = argv[i];
  try {
    lnx::set_threads(threads);
    lnx::TrainConfig cfg = lnx::train_config_from_json(config);
    cfg.steps = warm + steps;
    lnx::TrainRun run(cfg);
    run.step(warm);
    lnx::profile::reset();
    const double t0 = wall();
    const int done = run.step(steps) - warm;
    const double seconds = wall() - t0;
    if (done != steps) {
      std::fprintf(stderr, "step_profile: the run stopped after %d of %d timed steps (%s)\n", done, steps,
                   lnx::to_string(run.status()));
      return 1;
    }
    double profiled = 0;
    std::printf("{\"flavour\":\"%s\",\"threads\":%d,\"steps\":%d,\"seconds_per_step\":%.9g,\"ops\":[",
                lnx::build_flavour().c_str(), lnx::pool().size(), steps, seconds / steps);
    bool first = true;
    for (const lnx::profile::Row& r : lnx::profile::table()) {
      profiled += r.seconds;
      std::printf("%s{\"op\":\"%s\",\"seconds_per_step\":%.9g,\"calls_per_step\":%.6g}", first ? "" : ",", r.op,
                  r.seconds / steps, static_cast<double>(r.calls) / steps);
      first = false;
    }
    std::printf("%s{\"op\":\"unprofiled\",\"seconds_per_step\":%.9g,\"calls_per_step\":0}]}\n", first ? "" : ",",
                (seconds - profiled) / steps);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "step_profile: %s\n", e.what());
    return 1;
  }
  return 0;
}
