// thread_pool.h — one persistent pool of worker threads shared by every op of the engine, split into
// teams by nested parallel regions.
//
// Why: creating threads per matmul costs tens of microseconds (more under wasm pthreads, where a
// thread is a Web Worker), so the pool is created once and reused; and a toy training step is a few
// hundred small ops, so a fork-join must cost microseconds, not the tens of a condition variable's
// wake-up: a worker spins on its own mailbox for a while after each task (then sleeps), and the
// thread that forked spins on the join.
//
// Teams. parallel_for splits [0, n) into contiguous chunks, one per thread of the caller's team, and
// the calling thread takes the first chunk itself. Outside any parallel region the team is the whole
// pool (the caller is thread 0). Chunk p of a split over `parts` chunks runs with the threads
// [first + size·p/parts, first + size·(p+1)/parts) of its team as its own team, on the first of them;
// a parallel_for called inside that chunk splits over those threads. So a split into two runs two
// halves of the work each on half of the pool (trainer.cpp's two half-batches, each op of a half on
// its own threads), and a split into as many chunks as there are threads runs its nested calls
// inline (teams of one), as every nested call used to. A pool of size 1 runs everything inline.
// Which thread runs a chunk never changes what the chunk computes: every op splits its work so that
// each output's arithmetic is the same for any split (docs/engine.md, "Threads").
// Leaves out: work stealing, priorities, futures, two outside threads forking at once.
#pragma once
#include <chrono>
#include <functional>
#include <memory>
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
  // The threads a parallel_for called now, on this thread, may split over: the whole pool outside
  // any parallel region, else the team of the chunk this thread runs (1: it would run inline).
  int team_size() const;
  // Calls fn(begin, end, chunk_index) on disjoint chunks covering [0, n); returns when all are done.
  // At most min(team_size(), max_chunks) chunks; chunks never smaller than min_chunk (except the
  // last). An exception thrown by a chunk is rethrown here once every chunk has finished.
  void parallel_for(long n, const std::function<void(long, long, int)>& fn, long min_chunk = 1,
                    int max_chunks = 1 << 30);

 private:
  struct Slot;
  struct Job;
  void worker_loop(int index);
  void run_chunk(Job& job, long begin, long end, int chunk, int team_first, int team_size);
  void finish_chunk(Job& job);
  int size_;
  std::chrono::microseconds spin_;            // how long a wait spins before it sleeps
  std::vector<std::unique_ptr<Slot>> slots_;  // one per thread; [0] is the outside caller's
  std::vector<std::thread> workers_;
};

// The engine-wide pool (resized by lnx::set_threads). Never null.
ThreadPool& pool();
// True while the current thread is executing a parallel_for chunk (or a call that ran inline).
bool in_parallel_region();
// Replaces the engine-wide pool with one of `threads` threads (0 = hardware concurrency).
// Must not be called while a parallel_for is running.
void reset_pool(int threads);
// Upper bound on the pool size in this build: 1 in single-threaded wasm; in threaded wasm the workers
// the module started (one per core, at most LNX_MAX_THREADS = 16) plus the calling thread.
int max_threads();

}  // namespace lnx
