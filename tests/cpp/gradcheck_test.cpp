// gradcheck_test.cpp — the hand-written backward against central finite differences, in double,
// for every parameter tensor of every registered placement and both attention modes
// (model_gradcheck.h has the method and the bound).
#include <gtest/gtest.h>

#include <cctype>
#include <string>
#include <tuple>
#include <vector>

#include "model.h"
#include "model_gradcheck.h"

namespace lnx {
namespace {

using Case = std::tuple<std::string, Attention>;

std::string name(const testing::TestParamInfo<Case>& info) {
  std::string n = std::get<0>(info.param) + "_" + to_string(std::get<1>(info.param));
  for (char& c : n)
    if (!isalnum(static_cast<unsigned char>(c))) c = '_';
  return n;
}

class GradCheck : public testing::TestWithParam<Case> {};

TEST_P(GradCheck, EveryParameterTensorMatchesFiniteDifferences) {
  ModelConfig cfg{2, 8, 12, 11, 5, 2, std::get<0>(GetParam()), std::get<1>(GetParam())};
  EXPECT_EQ(testing_support::check_model_gradients(cfg), testing_support::expected_tensors(cfg));
}

// Every placement in the engine's registry (read when the test binary starts, before any test
// registers its own), both attention masks.
INSTANTIATE_TEST_SUITE_P(EnginePlacements, GradCheck,
                         testing::Combine(testing::ValuesIn(placement_names()),
                                          testing::Values(Attention::Bidirectional, Attention::Causal)),
                         name);

// The model's knobs (ModelConfig: norm type, final norm, output layer, input scale), each away from
// its default on a placement that has a final norm and on one that has none.
struct Knobs {
  const char* name;
  NormType norm_type;
  FinalNorm final_norm;
  OutputLayer output;
  InputScale input_scale;
};
class KnobGradCheck : public testing::TestWithParam<std::tuple<std::string, Knobs>> {};

TEST_P(KnobGradCheck, EveryParameterTensorMatchesFiniteDifferences) {
  const Knobs& k = std::get<1>(GetParam());
  ModelConfig cfg{2, 8, 12, 11, 5, 2, std::get<0>(GetParam()), Attention::Causal};
  cfg.norm_type = k.norm_type, cfg.final_norm = k.final_norm, cfg.output = k.output, cfg.input_scale = k.input_scale;
  EXPECT_EQ(testing_support::check_model_gradients(cfg), testing_support::expected_tensors(cfg));
}

INSTANTIATE_TEST_SUITE_P(
    Knobs, KnobGradCheck,
    testing::Combine(
        testing::Values("post", "pre"),
        testing::Values(Knobs{"rmsnorm", NormType::RmsNorm, FinalNorm::Auto, OutputLayer::Tied, InputScale::SqrtD},
                        Knobs{"final_on", NormType::LayerNorm, FinalNorm::On, OutputLayer::Tied, InputScale::SqrtD},
                        Knobs{"final_off", NormType::LayerNorm, FinalNorm::Off, OutputLayer::Tied, InputScale::SqrtD},
                        Knobs{"untied", NormType::LayerNorm, FinalNorm::Auto, OutputLayer::Untied, InputScale::SqrtD},
                        Knobs{"unscaled_input", NormType::LayerNorm, FinalNorm::Auto, OutputLayer::Tied,
                              InputScale::None},
                        Knobs{"all", NormType::RmsNorm, FinalNorm::On, OutputLayer::Untied, InputScale::None})),
    [](const testing::TestParamInfo<std::tuple<std::string, Knobs>>& i) {
      return std::get<0>(i.param) + "_" + std::get<1>(i.param).name;
    });

// The probe's reduced backward (W² only, or the last W² only) must give exactly the W² gradients of
// the full backward (model_gradcheck.h).
TEST(GradScope, ReducedBackwardGivesTheSameW2Gradients) {
  for (const char* pl : {"post", "pre"})
    testing_support::expect_reduced_backward_matches(ModelConfig{3, 16, 24, 13, 6, 2, pl, Attention::Bidirectional});
}

}  // namespace
}  // namespace lnx
