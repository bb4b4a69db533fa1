// profile_test.cpp — the step profile's counters (wasm/profile.h): exclusive times, call counts, one
// table per thread. The header is compiled in here with LNX_PROFILE, as the benchmark builds it.
#define LNX_PROFILE 1
#include "profile.h"

#include <gtest/gtest.h>

#include <cstring>
#include <thread>

namespace {

void spin(double seconds) {
  const double end = lnx::profile::now() + seconds;
  while (lnx::profile::now() < end) {
  }
}

const lnx::profile::Row* row(const char* op) {
  for (const auto& r : lnx::profile::table())
    if (std::strcmp(r.op, op) == 0) return &r;
  return nullptr;
}

TEST(Profile, ATimeLeavesOutTheScopesOpenedInsideIt) {
  lnx::profile::reset();
  const double t0 = lnx::profile::now();
  {
    LNX_PROFILE_SCOPE("outer");
    spin(0.002);
    for (int i = 0; i < 3; ++i) {
      LNX_PROFILE_SCOPE("inner");
      spin(0.001);
    }
  }
  const double wall = lnx::profile::now() - t0;
  const auto* outer = row("outer");
  const auto* inner = row("inner");
  ASSERT_NE(outer, nullptr);
  ASSERT_NE(inner, nullptr);
  EXPECT_EQ(outer->calls, 1);
  EXPECT_EQ(inner->calls, 3);
  EXPECT_GE(inner->seconds, 0.003);
  EXPECT_GE(outer->seconds, 0.002);
  // Inclusive, "outer" would hold nearly all of `wall`; exclusive, it leaves the 3 ms of "inner" out.
  EXPECT_LE(outer->seconds, wall - 0.003);
  EXPECT_LE(outer->seconds + inner->seconds, wall);
}

TEST(Profile, EachThreadKeepsItsOwnTable) {
  lnx::profile::reset();
  { LNX_PROFILE_SCOPE("here"); }
  std::thread([] {
    LNX_PROFILE_SCOPE("there");
    EXPECT_EQ(row("here"), nullptr);
  }).join();
  EXPECT_NE(row("here"), nullptr);
  EXPECT_EQ(row("there"), nullptr);
  lnx::profile::reset();
  EXPECT_TRUE(lnx::profile::table().empty());
}

}  // namespace
