// toy_claims_test.cpp — the article's toy warm-up claims (Figure 4), on a shortened run: the issue's
// settings (8 layers, d = 128, 8 × 64 tokens, Adam β = (0.9, 0.98)) for 200 of the 500 steps, seed 0.
// The full 500-step, 2-seed grid and its comparison with the article are in docs/reproduction.md.
//
// Per-step losses on the plateau scatter by ±0.2 (a fresh batch every step), so claims are checked
// on a 10-step moving average. The claim that Post-LN with a 300-step warm-up still stalls at peak lr
// 3e-3 does not reproduce with these settings (docs/reproduction.md) and is not asserted.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>

#include "api.h"
#include "json.h"

namespace lnx {
namespace {

class ToyClaims : public testing::Test {
 protected:
  static void SetUpTestSuite() {
    set_threads(0);
    GridConfig g;
    g.base.steps = 200;
    g.seeds = {0};
    GridRun run(g);
    while (!run.done()) run.step(25);
    result_ = new json::Value(json::parse(run.result_json()));
  }
  static void TearDownTestSuite() { delete result_; }

  static double plateau() { return result_->obj.at("plateau_entropy").num; }
  // 10-step moving average of the loss ending at `step` (1-based).
  static double avg(const std::string& norm, int warmup, double lr, int step) {
    for (const auto& r : result_->obj.at("runs").arr) {
      const auto& o = r.obj;
      if (o.at("norm").str == norm && o.at("warmup").num == warmup && std::fabs(o.at("lr").num - lr) < 1e-12) {
        EXPECT_EQ(o.at("status").str, "ok") << norm << " " << warmup << " " << lr;
        const auto& loss = o.at("loss").arr;
        double s = 0;
        for (int t = step - 10; t < step; ++t) s += loss.at(t).num;
        return s / 10;
      }
    }
    ADD_FAILURE() << "run missing";
    return NAN;
  }
  static json::Value* result_;
};
json::Value* ToyClaims::result_ = nullptr;

TEST_F(ToyClaims, PlateauIsTheStationaryEntropyBetweenLn4AndLn256) {
  EXPECT_GT(plateau(), 5.3);
  EXPECT_LT(plateau(), std::log(256.0));
}

TEST_F(ToyClaims, PostLnWithoutWarmupSitsOnTheFrequencyPlateauAtBothLearningRates) {
  for (double lr : {1e-3, 3e-3})
    for (int step = 50; step <= 200; step += 10) EXPECT_NEAR(avg("post", 0, lr, step), plateau(), 0.15) << lr << " @" << step;
}

TEST_F(ToyClaims, PreLnWithoutWarmupIsWellDownByStep100) {
  EXPECT_LT(avg("pre", 0, 1e-3, 100), 2.5);  // article: 2.3
  EXPECT_LT(avg("pre", 0, 3e-3, 200), 2.0);
}

TEST_F(ToyClaims, PostLnWithWarmupWaitsOnThePlateauThenDropsSharply) {
  EXPECT_NEAR(avg("post", 300, 1e-3, 100), plateau(), 0.15);
  EXPECT_LT(avg("post", 300, 1e-3, 200), plateau() - 1.5);
}

TEST_F(ToyClaims, WarmupOnlyDelaysPreLn) {
  // With warm-up Pre-LN gets there later (article: ~100 steps), not to a different place.
  EXPECT_GT(avg("pre", 300, 1e-3, 50), avg("pre", 0, 1e-3, 50) + 1.0);
  EXPECT_LT(avg("pre", 300, 1e-3, 200), 2.5);
}

}  // namespace
}  // namespace lnx
