// placement_test.cpp — the placement seam proven by use: two placements defined and registered here
// only (the engine never names them) run through everything that takes a placement by name — the
// model's gradient check, a training run, the probe and the grid, the schema — with no engine file
// touched. Each exercises what Post and Pre leave unused: norms on a sublayer's input and on its
// branch output, a residual scale α ≠ 1 and an init scale β ≠ 1 (DeepNet-like).
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "api.h"
#include "json.h"
#include "model_gradcheck.h"
#include "placements/placement.h"

namespace lnx {
namespace {

// Peri-LN-like: a norm on each sublayer's input and on its output before the add, and a final norm.
const Placement kPeriTest = {
    "peri-test",
    "Peri-LN (test)",
    "LN on each sublayer's input and output, and a final LN",
    /*attention=*/{true, true, false},
    /*ffn=*/{true, true, false},
    /*final_norm=*/true,
};

// DeepNorm-like: Post-LN with x <- LN(α·x + F(x)), α = (2L)^¼, and Xavier std times β = (8L)^−¼ on
// the value and FFN weights.
const Placement kDeepTest = {
    "deep-test",
    "DeepNorm (test)",
    "Post-LN with a residual scale and a smaller init",
    /*attention=*/{false, false, true},
    /*ffn=*/{false, false, true},
    /*final_norm=*/false,
    /*residual_scale=*/{ResidualScale::Kind::DeepNet},
    /*init_scale=*/{InitScale::Kind::DeepNet},
};

// Registered once per test process (ctest runs each test in its own).
void register_test_placements() {
  static const bool once = [] {
    register_placement(kPeriTest);
    register_placement(kDeepTest);
    return true;
  }();
  (void)once;
}

class TestPlacement : public testing::TestWithParam<const char*> {
 protected:
  void SetUp() override { register_test_placements(); }
};

TEST_P(TestPlacement, GradientsMatchFiniteDifferences) {
  for (Attention a : {Attention::Bidirectional, Attention::Causal}) {
    ModelConfig cfg{2, 8, 12, 11, 5, 2, GetParam(), a};
    EXPECT_EQ(testing_support::check_model_gradients(cfg), testing_support::expected_tensors(cfg));
  }
}

TEST_P(TestPlacement, TrainsProbesAndRunsInAGridByName) {
  const std::string name = GetParam();
  const std::string model = R"("layers":2,"d":16,"d_ff":32,"vocab":32,"seq":8,"batch":2)";
  TrainRun run(train_config_from_json("{" + model + R"(,"placement":")" + name + R"(","steps":5})"));
  run.step(5);
  ASSERT_EQ(run.status(), RunStatus::Ok);
  for (float l : run.loss()) EXPECT_TRUE(std::isfinite(l));
  EXPECT_EQ(json::parse(run.result_json()).obj.at("config").obj.at("placement").str, name);

  const json::Value probe = json::parse(
      run_probe_json(probe_config_from_json("{" + model + R"(,"placements":["post",")" + name +
                                            R"("],"seeds":[0],"batches":2,"depth_batches":1,"depths":[2]})")));
  ASSERT_TRUE(probe.obj.at("placements").obj.count(name));
  EXPECT_EQ(probe.obj.at("placements").obj.at(name).obj.at("norm2_over_d").obj.at("mean").arr.size(), 2u);

  GridRun grid(grid_config_from_json("{" + model + R"(,"placements":[")" + name +
                                     R"("],"warmups":[0],"lrs":[0.001],"seeds":[0],"steps":3})"));
  while (!grid.done()) grid.step(3);
  const json::Value g = json::parse(grid.result_json());
  ASSERT_EQ(g.obj.at("runs").arr.size(), 1u);
  EXPECT_EQ(g.obj.at("runs").arr[0].obj.at("placement").str, name);
  EXPECT_EQ(g.obj.at("runs").arr[0].obj.at("status").str, "ok");
}

TEST_P(TestPlacement, TheSchemaListsItAsAChoice) {
  const json::Value s = json::parse(schema_json());
  bool listed = false;
  for (const auto& p : s.obj.at("placements").arr) listed |= p.obj.at("name").str == GetParam();
  EXPECT_TRUE(listed);
}

INSTANTIATE_TEST_SUITE_P(RegisteredByTheTest, TestPlacement, testing::Values("peri-test", "deep-test"),
                         [](const testing::TestParamInfo<const char*>& i) {
                           return std::string(i.param).substr(0, 4);
                         });

TEST(PlacementRegistry, RefusesUnknownAndDuplicateNames) {
  register_test_placements();
  EXPECT_THROW(placement("sideways"), ArgumentError);
  EXPECT_THROW(register_placement(kPeriTest), ArgumentError);
  try {
    train_config_from_json(R"({"placement":"sideways"})");
    FAIL();
  } catch (const ArgumentError& e) {
    EXPECT_NE(std::string(e.what()).find("\"post\""), std::string::npos) << e.what();
  }
}

// α and β change the model (they are not silently ignored): the same seed, a different first loss.
TEST(PlacementRegistry, ResidualAndInitScalesChangeTheModel) {
  register_test_placements();
  auto first_loss = [](const char* p) {
    TrainRun r(train_config_from_json(
        std::string(R"({"layers":4,"d":16,"d_ff":32,"vocab":32,"seq":8,"batch":2,"steps":1,"placement":")") + p +
        "\"}"));
    r.step(1);
    return r.loss().at(0);
  };
  EXPECT_NE(first_loss("post"), first_loss("deep-test"));
}

}  // namespace
}  // namespace lnx
