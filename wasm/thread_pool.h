// thread_pool.h — one persistent pool of worker threads shared by every op of the engine.
//
// Why: creating threads per matmul costs tens of microseconds (more under wasm pthreads, where a
// thread is a Web Worker), so the pool is created once and reused. parallel_for splits [0, n) into
// contiguous chunks, one per thread, and the calling thread takes the first chunk itself, so a
// pool of size 1 runs everything inline. Nested calls from inside a task run inline too (no
// deadlock, no oversubscription). Leaves out: work stealing, priorities, futures.
#pragma once
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace lnx {

class ThreadPool {
 public:
  explicit ThreadPool(int threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  int size() const { return size_; }
  // Calls fn(begin, end, chunk_index) on disjoint chunks covering [0, n); returns when all are done.
  // At most min(size(), max_chunks) chunks; chunks never smaller than min_chunk (except the last).
  void parallel_for(long n, const std::function<void(long, long, int)>& fn, long min_chunk = 1,
                    int max_chunks = 1 << 30);

 private:
  void worker_loop(int index);
  int size_;
  std::vector<std::thread> workers_;
  std::mutex mu_;
  std::condition_variable wake_, done_;
  const std::function<void(long, long, int)>* task_ = nullptr;
  std::vector<std::pair<long, long>> chunks_;
  long generation_ = 0;
  int pending_ = 0;
  bool stop_ = false;
};

// The engine-wide pool (resized by lnx::set_threads). Never null.
ThreadPool& pool();
// True while the current thread is executing a parallel_for chunk (used to run nested calls inline).
bool in_parallel_region();
// Replaces the engine-wide pool with one of `threads` threads (0 = hardware concurrency).
// Must not be called while a parallel_for is running.
void reset_pool(int threads);
// Upper bound on the pool size in this build: 1 in single-threaded wasm; in threaded wasm the workers
// the module started (one per core, at most LNX_MAX_THREADS = 16) plus the calling thread.
int max_threads();

}  // namespace lnx
