// thread_pool.cpp — see thread_pool.h.
//
// Each thread has a Slot: a mailbox (the chunk a leader posted to it, published by bumping the
// posting number in `state`) and a mutex and condition variable to sleep on. A leader posts chunk p
// to the first thread of that chunk's team, runs chunk 0 itself, then runs any posted chunk that its
// thread has not claimed yet (the `taken` bit of `state`: whoever sets it runs the chunk), then
// waits for the job's count of unfinished chunks to reach 0. Both waits (a worker for its next
// chunk, a leader for its join) spin first, for kSpin (much less in a pool larger than the machine),
// and only then sleep: between the ops of a step the gaps are microseconds, and a condition
// variable's wake-up costs tens of them (bench/gemm_bench's "pool fork-join"). A sleeper sets its
// flag before its last look at the counter and the waker reads the flag after changing the counter
// (both sequentially consistent), so a wake-up is never lost.
#include "thread_pool.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <mutex>

#if defined(__EMSCRIPTEN__) && defined(__EMSCRIPTEN_PTHREADS__)
#include <emscripten/em_asm.h>
#include <emscripten/threading.h>
#endif
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace lnx {

struct ThreadPool::Job {
  const std::function<void(long, long, int)>* fn;
  std::atomic<int> remaining;  // chunks not finished, the leader's own excluded
  int leader;                  // the slot of the thread that waits for them
  std::atomic<bool> failed{false};
  std::exception_ptr error;  // the first chunk's exception, written by whoever set `failed`
};

struct alignas(64) ThreadPool::Slot {
  // (posting number << 1) | taken: a leader writes the chunk below, then bumps the number with
  // `taken` clear; whoever sets `taken` first (the owner, or the leader when the owner is late) runs
  // the chunk, and only that thread reads the fields.
  std::atomic<uint64_t> state{0};
  Job* job = nullptr;
  long begin = 0, end = 0;
  int chunk = 0, team_first = 0, team_size = 1;
  std::atomic<bool> idle_sleeping{false};  // the owner sleeps waiting for a posting
  std::atomic<bool> join_sleeping{false};  // the owner sleeps waiting for its job's chunks
  std::atomic<bool> stop{false};
  std::mutex mu;
  std::condition_variable cv;
};

namespace {

// What the current thread may split over (thread_pool.h, "Teams"). `pool` is null outside any region.
struct Region {
  const ThreadPool* pool = nullptr;
  int first = 0, size = 0;
  bool in_chunk = false;
};
thread_local Region t_region;

struct RegionGuard {
  Region saved;
  RegionGuard(const ThreadPool* p, int first, int size) : saved(t_region) { t_region = {p, first, size, true}; }
  ~RegionGuard() { t_region = saved; }
};

std::unique_ptr<ThreadPool> g_pool;
std::mutex g_pool_mu;

// How long a waiting thread spins before it sleeps: longer than the gaps between the ops of a step
// (microseconds), short enough that idle workers leave the cores within a fraction of a millisecond.
// A pool with more threads than the machine has cores spins only for the first 256 looks (a few
// microseconds): there a spinning thread holds the core that the one it waits for needs.
constexpr std::chrono::microseconds kSpin{200};
constexpr std::chrono::microseconds kSpinOversubscribed{0};

inline void relax() {
#if defined(__x86_64__) || defined(__i386__)
  _mm_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

// Lets another thread have this core for a moment, so that a spinning thread does not hold up the
// one it waits for when the machine has more runnable threads than cores (other processes, or a
// pool larger than the machine). Natively sched_yield, which costs little when no one else wants
// the core. Under wasm pthreads sched_yield does nothing; a thread leaves its core only by
// blocking, so it naps (Atomics.wait with a timeout of 20 µs on a word nobody changes), and only
// after kNapAfter of spinning, since a nap is far longer than the gaps between the ops of a step.
#if defined(__EMSCRIPTEN__) && defined(__EMSCRIPTEN_PTHREADS__)
constexpr std::chrono::microseconds kNapAfter{50};
inline void give_core_away() {
  static uint32_t never = 0;
  emscripten_futex_wait(&never, 0, 0.02);
}
#else
constexpr std::chrono::microseconds kNapAfter{0};
inline void give_core_away() { std::this_thread::yield(); }
#endif

// Spins until done() or `spin` has passed; true when done() held. Every 256 looks it checks the
// clock and, past kNapAfter, gives the core away for a moment.
template <class Done>
bool spin_until(std::chrono::microseconds spin, const Done& done) {
  using Clock = std::chrono::steady_clock;
  const Clock::time_point start = Clock::now(), nap_from = start + kNapAfter, until = start + spin;
  for (unsigned i = 1;; ++i) {
    if (done()) return true;
    relax();
    if (i % 256 == 0) {
      const Clock::time_point now = Clock::now();
      if (now > until) return false;
      if (now >= nap_from) give_core_away();
    }
  }
}

}  // namespace

bool in_parallel_region() { return t_region.in_chunk; }

ThreadPool::ThreadPool(int threads)
    : size_(std::max(1, threads)),
      spin_(std::thread::hardware_concurrency() > 0 &&
                    static_cast<unsigned>(size_) > std::thread::hardware_concurrency()
                ? kSpinOversubscribed
                : kSpin) {
  for (int i = 0; i < size_; ++i) slots_.push_back(std::make_unique<Slot>());
  for (int i = 1; i < size_; ++i) workers_.emplace_back([this, i] { worker_loop(i); });
}

ThreadPool::~ThreadPool() {
  for (int i = 1; i < size_; ++i) {
    Slot& s = *slots_[i];
    s.stop.store(true);
    std::lock_guard<std::mutex> lock(s.mu);
    s.cv.notify_all();
  }
  for (auto& t : workers_) t.join();
}

int ThreadPool::team_size() const { return t_region.pool == this ? t_region.size : size_; }

void ThreadPool::worker_loop(int index) {
  Slot& s = *slots_[index];
  uint64_t seen = 0;  // the last posting this thread looked at
  for (;;) {
    auto posted = [&] {
      return (s.state.load(std::memory_order_acquire) >> 1) != seen || s.stop.load(std::memory_order_relaxed);
    };
    if (!spin_until(spin_, posted)) {
      std::unique_lock<std::mutex> lock(s.mu);
      s.idle_sleeping.store(true);
      while ((s.state.load() >> 1) == seen && !s.stop.load()) s.cv.wait(lock);
      s.idle_sleeping.store(false);
    }
    if (s.stop.load()) return;
    uint64_t st = s.state.load(std::memory_order_acquire);
    seen = st >> 1;
    if ((st & 1) || !s.state.compare_exchange_strong(st, st | 1)) continue;  // its leader ran it
    Job& job = *s.job;
    run_chunk(job, s.begin, s.end, s.chunk, s.team_first, s.team_size);
    finish_chunk(job);
  }
}

void ThreadPool::run_chunk(Job& job, long begin, long end, int chunk, int team_first, int team_size) {
  RegionGuard guard(this, team_first, team_size);
  try {
    (*job.fn)(begin, end, chunk);
  } catch (...) {
    if (!job.failed.exchange(true)) job.error = std::current_exception();
  }
}

// Counts a worker's chunk as done and wakes its leader if it sleeps. The job lives on the leader's
// stack: nothing of it is touched after the count reaches 0.
void ThreadPool::finish_chunk(Job& job) {
  Slot& leader = *slots_[job.leader];
  if (job.remaining.fetch_sub(1) == 1 && leader.join_sleeping.load()) {
    std::lock_guard<std::mutex> lock(leader.mu);
    leader.cv.notify_all();
  }
}

void ThreadPool::parallel_for(long n, const std::function<void(long, long, int)>& fn, long min_chunk, int max_chunks) {
  if (n <= 0) return;
  const bool inside = t_region.pool == this;
  const int first = inside ? t_region.first : 0, team = inside ? t_region.size : size_;
  const long parts = std::min<long>(
      {static_cast<long>(team), static_cast<long>(max_chunks), std::max<long>(1, n / std::max<long>(1, min_chunk))});
  if (parts <= 1) {  // inline, keeping the team for the calls nested inside
    RegionGuard guard(this, first, team);
    fn(0, n, 0);
    return;
  }
  Job job;
  job.fn = &fn;
  job.remaining.store(static_cast<int>(parts) - 1, std::memory_order_relaxed);
  job.leader = first;
  auto team_of = [&](long p) { return first + static_cast<int>(team * p / parts); };
  for (long p = 1; p < parts; ++p) {
    Slot& s = *slots_[team_of(p)];
    s.job = &job;
    s.begin = n * p / parts;
    s.end = n * (p + 1) / parts;
    s.chunk = static_cast<int>(p);
    s.team_first = team_of(p);
    s.team_size = team_of(p + 1) - team_of(p);
    s.state.store(((s.state.load(std::memory_order_relaxed) >> 1) + 1) << 1);
    if (s.idle_sleeping.load()) {
      std::lock_guard<std::mutex> lock(s.mu);
      s.cv.notify_all();
    }
  }
  const int own_team = team_of(1) - first;
  run_chunk(job, 0, n / parts, 0, first, own_team);
  // Chunks whose thread has not started them yet (asleep, or not on a core) run here, on this
  // chunk's team: the join never waits for a thread to wake up, only for work under way.
  for (long p = 1; p < parts; ++p) {
    Slot& s = *slots_[team_of(p)];
    uint64_t st = s.state.load(std::memory_order_acquire);
    if (!(st & 1) && s.state.compare_exchange_strong(st, st | 1)) {
      run_chunk(job, n * p / parts, n * (p + 1) / parts, static_cast<int>(p), first, own_team);
      job.remaining.fetch_sub(1);
    }
  }
  auto joined = [&] { return job.remaining.load(std::memory_order_acquire) == 0; };
  if (!spin_until(spin_, joined)) {
    Slot& me = *slots_[first];
    std::unique_lock<std::mutex> lock(me.mu);
    me.join_sleeping.store(true);
    while (job.remaining.load() != 0) me.cv.wait(lock);
    me.join_sleeping.store(false);
  }
  if (job.failed.load()) std::rethrow_exception(job.error);
}

// The most threads a pool may have. Under wasm pthreads every thread but the caller is a Web Worker
// that must be started before a join can block: the module starts a pool of them (PTHREAD_POOL_SIZE
// in CMakeLists.txt, one per core up to LNX_MAX_THREADS), and the engine uses at most that many
// plus the calling thread, so asking for more threads than the machine has never deadlocks. A
// single-threaded wasm build cannot start threads at all.
int max_threads() {
#if defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)
  return 1;
#elif defined(__EMSCRIPTEN__)
  // Read once, on the thread that makes pools (before any engine thread took a worker).
  static const int workers = EM_ASM_INT({ return PThread.unusedWorkers.length + PThread.runningWorkers.length; });
  return std::max(1, std::min(LNX_MAX_THREADS, workers + 1));
#elif defined(LNX_MAX_THREADS)
  return LNX_MAX_THREADS;
#else
  return 256;
#endif
}

int default_threads() {
  return std::min(max_threads(), static_cast<int>(std::max(1u, std::thread::hardware_concurrency())));
}

ThreadPool& pool() {
  std::lock_guard<std::mutex> lock(g_pool_mu);
  if (!g_pool) g_pool = std::make_unique<ThreadPool>(default_threads());
  return *g_pool;
}

void reset_pool(int threads) {
  std::lock_guard<std::mutex> lock(g_pool_mu);
  g_pool.reset();
  g_pool = std::make_unique<ThreadPool>(threads > 0 ? std::min(threads, max_threads()) : default_threads());
}

}  // namespace lnx
