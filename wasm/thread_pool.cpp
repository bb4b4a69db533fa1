// thread_pool.cpp — see thread_pool.h.
#include "thread_pool.h"

#include <algorithm>
#include <memory>

#if defined(__EMSCRIPTEN__) && defined(__EMSCRIPTEN_PTHREADS__)
#include <emscripten/em_asm.h>
#endif

namespace lnx {
namespace {
thread_local bool t_in_region = false;
std::unique_ptr<ThreadPool> g_pool;
std::mutex g_pool_mu;

struct RegionGuard {
  bool saved;
  RegionGuard() : saved(t_in_region) { t_in_region = true; }
  ~RegionGuard() { t_in_region = saved; }
};
}  // namespace

bool in_parallel_region() { return t_in_region; }

ThreadPool::ThreadPool(int threads) : size_(std::max(1, threads)) {
  for (int i = 1; i < size_; ++i) workers_.emplace_back([this, i] { worker_loop(i); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  wake_.notify_all();
  for (auto& t : workers_) t.join();
}

void ThreadPool::worker_loop(int index) {
  long seen = 0;
  for (;;) {
    std::pair<long, long> chunk;
    const std::function<void(long, long, int)>* task;
    {
      std::unique_lock<std::mutex> lock(mu_);
      wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
      if (stop_) return;
      seen = generation_;
      if (index >= static_cast<int>(chunks_.size())) continue;  // fewer chunks than threads
      chunk = chunks_[index];
      task = task_;
    }
    {
      RegionGuard guard;
      (*task)(chunk.first, chunk.second, index);
    }
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (--pending_ == 0) done_.notify_one();
    }
  }
}

void ThreadPool::parallel_for(long n, const std::function<void(long, long, int)>& fn, long min_chunk,
                              int max_chunks) {
  if (n <= 0) return;
  long parts = std::min<long>({static_cast<long>(size_), static_cast<long>(max_chunks),
                               std::max<long>(1, n / std::max<long>(1, min_chunk))});
  if (parts <= 1 || t_in_region) {
    RegionGuard guard;
    fn(0, n, 0);
    return;
  }
  std::vector<std::pair<long, long>> chunks;
  for (long p = 0; p < parts; ++p) chunks.emplace_back(n * p / parts, n * (p + 1) / parts);
  {
    std::lock_guard<std::mutex> lock(mu_);
    chunks_ = chunks;
    task_ = &fn;
    pending_ = static_cast<int>(parts) - 1;
    ++generation_;
  }
  wake_.notify_all();
  {
    RegionGuard guard;
    fn(chunks[0].first, chunks[0].second, 0);
  }
  std::unique_lock<std::mutex> lock(mu_);
  done_.wait(lock, [&] { return pending_ == 0; });
  task_ = nullptr;
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
