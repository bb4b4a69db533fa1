// thread_pool_test.cpp — the pool's contract (wasm/thread_pool.h): chunks cover [0, n) once each,
// a nested parallel_for splits over the team of the chunk it runs in (two halves of a pool of 8 are
// two teams of 4, each splitting its nested calls in 4), an inline call keeps its team, an exception
// in any chunk reaches the caller, and a pool larger than the machine (16 threads here on 2 cores)
// finishes deep nesting without losing a wake-up or running a chunk twice.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

#include "thread_pool.h"

namespace lnx {
namespace {

TEST(ThreadPool, ChunksCoverTheRangeOnceWithAtMostOnePerTeamThread) {
  ThreadPool p(4);
  for (long n : {1L, 3L, 4L, 7L, 1000L}) {
    std::vector<int> hits(n, 0);
    std::atomic<int> chunks{0};
    p.parallel_for(n, [&](long b, long e, int) {
      ++chunks;
      for (long i = b; i < e; ++i) ++hits[i];
    });
    for (long i = 0; i < n; ++i) EXPECT_EQ(hits[i], 1) << "n " << n << " i " << i;
    EXPECT_EQ(chunks.load(), std::min<long>(n, 4)) << n;
  }
  std::atomic<int> chunks{0};
  p.parallel_for(
      1000, [&](long, long, int) { ++chunks; }, 300);  // min_chunk bounds the count
  EXPECT_EQ(chunks.load(), 3);
}

// Holds every chunk of a split until all `total` have started: then no chunk can have run on its
// leader in place of its own thread (a leader takes over only chunks not yet started, after its own).
void all_started(std::atomic<int>& started, int total) {
  ++started;
  while (started.load() < total) std::this_thread::yield();
}

TEST(ThreadPool, NestedCallsSplitOverTheirChunksTeam) {
  ThreadPool p(8);
  EXPECT_EQ(p.team_size(), 8);
  std::mutex mu;
  std::vector<int> half_teams(2, 0);
  std::set<std::thread::id> inner_threads;
  std::atomic<int> inner_chunks{0}, halves_started{0};
  std::atomic<int> inner_started[2] = {{0}, {0}};
  p.parallel_for(2, [&](long s, long, int) {
    all_started(halves_started, 2);
    half_teams[s] = p.team_size();
    p.parallel_for(64, [&](long, long, int) {
      all_started(inner_started[s], 4);
      EXPECT_EQ(p.team_size(), 1);  // teams of one: anything deeper runs inline
      ++inner_chunks;
      std::lock_guard<std::mutex> lock(mu);
      inner_threads.insert(std::this_thread::get_id());
    });
  });
  EXPECT_EQ(half_teams, (std::vector<int>{4, 4}));
  EXPECT_EQ(inner_chunks.load(), 8);
  EXPECT_EQ(inner_threads.size(), 8u);  // every thread of the pool, none twice
  EXPECT_EQ(p.team_size(), 8);          // restored outside
}

TEST(ThreadPool, UnevenTeamsAndInlineCallsKeepTheirThreads) {
  ThreadPool p(3);
  std::vector<int> teams(2, 0);
  std::atomic<int> started{0};
  p.parallel_for(2, [&](long s, long, int) {
    all_started(started, 2);
    teams[s] = p.team_size();
  });
  EXPECT_EQ(teams, (std::vector<int>{1, 2}));
  int inline_team = 0;
  p.parallel_for(1, [&](long, long, int) {
    inline_team = p.team_size();
    EXPECT_TRUE(in_parallel_region());
  });
  EXPECT_EQ(inline_team, 3);  // one chunk: it runs on the caller with the whole pool as its team
  EXPECT_FALSE(in_parallel_region());
}

// Threads asleep (idle for a millisecond) are late for a split of tiny chunks, so their leader takes
// over chunks they have not started; still each chunk runs exactly once.
TEST(ThreadPool, ChunksOfLateThreadsRunOnceWhoeverRunsThem) {
  ThreadPool p(4);
  for (int rep = 0; rep < 20; ++rep) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    std::atomic<int> runs[4] = {{0}, {0}, {0}, {0}};
    p.parallel_for(4, [&](long, long, int chunk) { ++runs[chunk]; });
    for (auto& r : runs) EXPECT_EQ(r.load(), 1) << "rep " << rep;
  }
}

TEST(ThreadPool, AChunksExceptionReachesTheCallerAndThePoolGoesOn) {
  ThreadPool p(4);
  for (int bad : {0, 3}) {  // thrown on the calling thread, then on a worker
    EXPECT_THROW(p.parallel_for(4,
                                [&](long b, long, int) {
                                  if (b == bad) throw std::runtime_error("chunk failed");
                                }),
                 std::runtime_error);
  }
  std::atomic<long> sum{0};
  p.parallel_for(100, [&](long b, long e, int) {
    for (long i = b; i < e; ++i) sum += i;
  });
  EXPECT_EQ(sum.load(), 4950);
}

// More threads than cores, nested three deep, many times: every fork joins (a lost wake-up would
// hang here) and every element is computed once.
TEST(ThreadPool, OversubscribedDeepNestingCompletes) {
  ThreadPool p(16);
  for (int rep = 0; rep < 300; ++rep) {
    std::vector<int> cell(2 * 3 * 40, 0);
    p.parallel_for(2, [&](long a0, long a1, int) {
      for (long a = a0; a < a1; ++a)
        p.parallel_for(3, [&](long b0, long b1, int) {
          for (long b = b0; b < b1; ++b)
            p.parallel_for(40, [&](long c0, long c1, int) {
              for (long c = c0; c < c1; ++c) {
                volatile long work = 0;  // long enough for late threads to claim some chunks
                for (int i = 0; i < 500; ++i) work = work + i;
                ++cell[(a * 3 + b) * 40 + c];
              }
            });
        });
    });
    for (int v : cell) ASSERT_EQ(v, 1) << "rep " << rep;
  }
}

}  // namespace
}  // namespace lnx
