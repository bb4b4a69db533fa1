// schedule_test.cpp — the learning rate at step t (wasm/optim/schedule.h) for each warm-up shape.
#include <gtest/gtest.h>

#include <cmath>

#include "api.h"
#include "optim/schedule.h"

namespace lnx {
namespace {

TrainConfig with(int warmup, WarmupShape shape) {
  TrainConfig c;
  c.lr = 2e-3;
  c.warmup = warmup;
  c.warmup_shape = shape;
  return c;
}

TEST(Schedule, LinearRisesInEqualStepsToThePeak) {
  const TrainConfig c = with(100, WarmupShape::Linear);
  EXPECT_DOUBLE_EQ(scheduled_lr(c, 1), 2e-5);
  EXPECT_DOUBLE_EQ(scheduled_lr(c, 50), 1e-3);
  EXPECT_DOUBLE_EQ(scheduled_lr(c, 100), 2e-3);
  EXPECT_DOUBLE_EQ(scheduled_lr(c, 101), 2e-3);
}

TEST(Schedule, CosineIsAHalfCosineRampOfTheSameLength) {
  const TrainConfig c = with(100, WarmupShape::Cosine), lin = with(100, WarmupShape::Linear);
  EXPECT_DOUBLE_EQ(scheduled_lr(c, 1), 2e-3 * 0.5 * (1 - std::cos(M_PI / 100)));
  EXPECT_NEAR(scheduled_lr(c, 50), 1e-3, 1e-15);  // the midpoint: half the peak, as linear
  EXPECT_DOUBLE_EQ(scheduled_lr(c, 100), 2e-3);
  EXPECT_DOUBLE_EQ(scheduled_lr(c, 200), 2e-3);
  for (int t = 1; t < 50; ++t) EXPECT_LT(scheduled_lr(c, t), scheduled_lr(lin, t)) << t;    // slower at first
  for (int t = 51; t < 100; ++t) EXPECT_GT(scheduled_lr(c, t), scheduled_lr(lin, t)) << t;  // then faster
  for (int t = 2; t <= 100; ++t) EXPECT_GT(scheduled_lr(c, t), scheduled_lr(c, t - 1)) << t;
}

TEST(Schedule, NoWarmupIsThePeakFromStepOneWhateverTheShape) {
  for (WarmupShape s : {WarmupShape::Linear, WarmupShape::Cosine}) EXPECT_DOUBLE_EQ(scheduled_lr(with(0, s), 1), 2e-3);
}

TEST(Schedule, TheShapeIsAConfigFieldWithLinearAsDefault) {
  EXPECT_EQ(train_config_from_json("{}").warmup_shape, WarmupShape::Linear);
  EXPECT_EQ(train_config_from_json(R"({"warmup_shape":"cosine"})").warmup_shape, WarmupShape::Cosine);
  EXPECT_THROW(train_config_from_json(R"({"warmup_shape":"exponential"})"), ArgumentError);
  EXPECT_EQ(grid_config_from_json(R"({"warmup_shape":"cosine"})").base.warmup_shape, WarmupShape::Cosine);
}

}  // namespace
}  // namespace lnx
