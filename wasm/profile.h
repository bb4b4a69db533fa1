// profile.h — per-op wall-time counters for the step profile (bench/step_profile.cpp, the per-op
// table of `npm run bench`). Compiled in only where LNX_PROFILE is defined (the benchmark's own
// build of the engine); everywhere else LNX_PROFILE_SCOPE expands to nothing, so the engine, its
// tests and its WebAssembly modules pay nothing for it.
//
// Times are exclusive: a scope's time leaves out the scopes opened inside it on the same thread (a
// GEMM inside attention counts as "gemm", not as "attention"), so the rows of a table add up to the
// time spent inside scopes. Each thread has its own table; a report reads the calling thread's,
// whose time is the step's wall time as that thread lived it (waits for other threads included).
// Leaves out: worker threads' tables, nesting (a flat table per op name), anything but wall time.
#pragma once

#ifdef LNX_PROFILE
#include <chrono>
#include <string>
#include <vector>

namespace lnx::profile {

struct Row {
  const char* op;      // a string literal: rows are keyed by its address
  double seconds = 0;  // exclusive time
  long calls = 0;
};

inline std::vector<Row>& table() {
  static thread_local std::vector<Row> rows;
  return rows;
}

inline double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

class Scope {
 public:
  explicit Scope(const char* op) : op_(op), parent_(current()), start_(now()) { current() = this; }
  ~Scope() {
    const double total = now() - start_;
    add(op_, total - children_);
    if (parent_) parent_->children_ += total;
    current() = parent_;
  }
  Scope(const Scope&) = delete;
  Scope& operator=(const Scope&) = delete;

 private:
  static Scope*& current() {
    static thread_local Scope* s = nullptr;
    return s;
  }
  static void add(const char* op, double seconds) {
    for (Row& r : table())
      if (r.op == op) {
        r.seconds += seconds, ++r.calls;
        return;
      }
    table().push_back({op, seconds, 1});
  }
  const char* op_;
  Scope* parent_;
  double start_;
  double children_ = 0;
};

inline void reset() { table().clear(); }

}  // namespace lnx::profile

#define LNX_PROFILE_CAT2(a, b) a##b
#define LNX_PROFILE_CAT(a, b) LNX_PROFILE_CAT2(a, b)
#define LNX_PROFILE_SCOPE(op) ::lnx::profile::Scope LNX_PROFILE_CAT(lnx_profile_scope_, __LINE__)(op)
#else
#define LNX_PROFILE_SCOPE(op) ((void)0)
#endif
