// toy_claims_test.cpp — the article's toy warm-up claims (Figure 4), on a shortened run: the article's
// settings (8 layers, d = 128, 8 × 64 tokens, Adam β = (0.9, 0.98)) for 200 of the 500 steps, seed 0.
// The full 500-step, 2-seed grid and its comparison with the article are in docs/reproduction.md.
//
// Per-step losses on the plateau scatter by ±0.2 (a fresh batch every step), so claims are checked
// on a 10-step moving average. The claim that Post-LN with a 300-step warm-up still stalls at peak lr
// 3e-3 does not reproduce with these settings (docs/reproduction.md) and is not asserted.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "api.h"
#include "json.h"

namespace lnx {
namespace {

// One test (ctest runs every gtest case in its own process; five cases would train the grid five times).
TEST(ToyClaims, ShortenedGridReproducesTheArticlesClaims) {
  set_threads(0);
  GridConfig g;
  g.base.steps = 200;
  g.seeds = {0};
  GridRun run(g);
  while (!run.done()) run.step(25);
  const json::Value result = json::parse(run.result_json());
  const double plateau = result.obj.at("plateau_entropy").num;
  // 10-step moving average of the loss ending at `step` (1-based).
  auto avg = [&](const std::string& norm, int warmup, double lr, int step) {
    for (const auto& r : result.obj.at("runs").arr) {
      const auto& o = r.obj;
      if (o.at("placement").str == norm && o.at("warmup").num == warmup && std::fabs(o.at("lr").num - lr) < 1e-12) {
        EXPECT_EQ(o.at("status").str, "ok") << norm << " " << warmup << " " << lr;
        const auto& loss = o.at("loss").arr;
        double s = 0;
        for (int t = step - 10; t < step; ++t) s += loss.at(t).num;
        return s / 10;
      }
    }
    ADD_FAILURE() << "run missing";
    return double(NAN);
  };

  // The plateau is the stationary entropy, between ln 4 and ln 256 (article: 5.38).
  EXPECT_GT(plateau, 5.3);
  EXPECT_LT(plateau, std::log(256.0));

  // Post-LN without warm-up sits on the frequency plateau at both learning rates.
  for (double lr : {1e-3, 3e-3})
    for (int step = 50; step <= 200; step += 10)
      EXPECT_NEAR(avg("post", 0, lr, step), plateau, 0.15) << lr << " @" << step;

  // Pre-LN without warm-up is well down by step 100 (article: 2.3).
  EXPECT_LT(avg("pre", 0, 1e-3, 100), 2.5);
  EXPECT_LT(avg("pre", 0, 3e-3, 200), 2.0);

  // Post-LN with warm-up waits on the plateau, then drops sharply.
  EXPECT_NEAR(avg("post", 300, 1e-3, 100), plateau, 0.15);
  EXPECT_LT(avg("post", 300, 1e-3, 200), plateau - 1.5);

  // Warm-up only delays Pre-LN: later (article: ~100 steps), not somewhere else.
  EXPECT_GT(avg("pre", 300, 1e-3, 50), avg("pre", 0, 1e-3, 50) + 1.0);
  EXPECT_LT(avg("pre", 300, 1e-3, 200), 2.5);
}

}  // namespace
}  // namespace lnx
