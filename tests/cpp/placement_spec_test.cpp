// placement_spec_test.cpp — a placement from a JSON spec (placements/spec.h). Every registered
// placement written as a spec computes what the registry's computes, to the last bit: the model's
// initial parameters, a forward and backward pass, a short training trajectory, the probe and a
// grid. Then the spec's own formulas (CompleteP's branch scale, T-Fixup's and the zero init), the
// gradient check through them, and every refusal, each naming the field (the options of
// placement_ops_test.cpp too: DyT's alpha0, ReZero's g0 and per, qk_norm, b2t where it means nothing,
// 10⁶-character strings); and the CLI's, with every preset file run from it.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "api.h"
#include "cli_run.h"
#include "json.h"
#include "model.h"
#include "model_gradcheck.h"
#include "placements/placement.h"
#include "placements/spec.h"

namespace lnx {
namespace {

const char* kSpecName = "as-spec";

std::string quoted(const std::string& s) {
  json::Writer w;
  w.value(s);
  return w.str();
}

// The engine's registered placements, by name (a test may register more; these are the engine's).
std::vector<std::string> engine_placements() { return {"post", "pre", "peri", "deepnorm", "admin"}; }

class SpecMatchesRegistry : public testing::TestWithParam<std::string> {
 protected:
  std::string spec() const { return placement_spec_json(placement(GetParam()), kSpecName); }
};

TEST_P(SpecMatchesRegistry, ParametersAndOnePassAreBitIdentical) {
  for (NormType norm : {NormType::LayerNorm, NormType::RmsNorm})
    for (int layers : {1, 3}) {
      ModelConfig a{layers, 16, 24, 13, 6, 2, GetParam(), Attention::Causal};
      a.norm_type = norm;
      ModelConfig b = a;
      b.placement = kSpecName;
      b.placement_spec = spec();
      Transformer<float> ma(a, 5), mb(b, 5);
      ASSERT_EQ(ma.params().size(), mb.params().size());
      EXPECT_EQ(0, std::memcmp(ma.params().data(), mb.params().data(), ma.params().size() * sizeof(float)));
      std::vector<int> tok(12), tgt(12);
      for (int i = 0; i < 12; ++i) tok[i] = (3 * i + 1) % 13, tgt[i] = (5 * i + 2) % 13;
      const float la = ma.forward(tok.data(), tgt.data()), lb = mb.forward(tok.data(), tgt.data());
      EXPECT_EQ(0, std::memcmp(&la, &lb, sizeof la));
      ma.zero_grad(), mb.zero_grad();
      ma.backward(), mb.backward();
      EXPECT_EQ(0, std::memcmp(ma.grads().data(), mb.grads().data(), ma.grads().size() * sizeof(float)))
          << GetParam() << " L=" << layers;
    }
}

TEST_P(SpecMatchesRegistry, TrainingTrajectoryIsBitIdentical) {
  const std::string model = R"("layers":3,"d":16,"d_ff":32,"vocab":32,"seq":8,"batch":4,"steps":8,"warmup":2)";
  TrainRun a(train_config_from_json("{" + model + R"(,"placement":")" + GetParam() + "\"}"));
  TrainRun b(
      train_config_from_json("{" + model + R"(,"placement":")" + kSpecName + R"(","placement_spec":)" + spec() + "}"));
  a.step(8), b.step(8);
  ASSERT_EQ(a.status(), RunStatus::Ok);
  ASSERT_EQ(a.loss().size(), 8u);
  EXPECT_EQ(0, std::memcmp(a.loss().data(), b.loss().data(), a.loss().size() * sizeof(float)));
  ASSERT_EQ(a.grad_norm().size(), b.grad_norm().size());
  EXPECT_EQ(0, std::memcmp(a.grad_norm().data(), b.grad_norm().data(), a.grad_norm().size() * sizeof(float)));
  // The document carries the spec (canonical) and reads back to the same config.
  const json::Value doc = json::parse(b.result_json());
  EXPECT_EQ(doc.obj.at("config").obj.at("placement_spec").obj.at("name").str, kSpecName);
  EXPECT_EQ(json::parse(a.result_json()).obj.at("config").obj.count("placement_spec"), 0u);
}

TEST_P(SpecMatchesRegistry, ProbeAndGridAreBitIdentical) {
  const std::string model = R"("layers":2,"d":16,"d_ff":32,"vocab":32,"seq":8,"batch":2)";
  const json::Value probe = json::parse(run_probe_json(probe_config_from_json(
      "{" + model + R"(,"placements":[")" + GetParam() + R"(",")" + kSpecName + R"("],"placement_spec":)" + spec() +
      R"(,"seeds":[0,1],"batches":2,"depth_batches":1,"depths":[2,3]})")));
  const auto& ps = probe.obj.at("placements").obj;
  auto text = [](const json::Value& v) {  // every statistic the probe writes, in one string
    std::string out;
    for (const auto& kv : v.obj) {
      out += kv.first + ":";
      for (const auto& kv2 : kv.second.obj)
        for (const auto& e : kv2.second.arr) out += std::to_string(e.num) + ",";
    }
    return out;
  };
  EXPECT_EQ(text(ps.at(GetParam())), text(ps.at(kSpecName)));
  EXPECT_EQ(ps.at(GetParam()).obj.at("final_ln_gain").obj.at("mean").num,
            ps.at(kSpecName).obj.at("final_ln_gain").obj.at("mean").num);

  GridRun grid(grid_config_from_json("{" + model + R"(,"placements":[")" + GetParam() + R"(",")" + kSpecName +
                                     R"("],"placement_spec":)" + spec() +
                                     R"(,"warmups":[0],"lrs":[0.003],"seeds":[0],"steps":5})"));
  while (!grid.done()) grid.step(5);
  const json::Value g = json::parse(grid.result_json());
  const auto& runs = g.obj.at("runs").arr;
  ASSERT_EQ(runs.size(), 2u);
  for (const char* series : {"loss", "grad_norm"}) {
    const auto& x = runs[0].obj.at(series).arr;
    const auto& y = runs[1].obj.at(series).arr;
    ASSERT_EQ(x.size(), 5u);
    for (size_t i = 0; i < x.size(); ++i) EXPECT_EQ(x[i].num, y[i].num) << series << " " << i;
  }
}

INSTANTIATE_TEST_SUITE_P(Engine, SpecMatchesRegistry, testing::ValuesIn(engine_placements()),
                         [](const testing::TestParamInfo<std::string>& i) { return i.param; });

TEST(PlacementSpec, ARegisteredPlacementRoundTripsThroughItsSpec) {
  for (const std::string& n : engine_placements()) {
    const std::string s = placement_spec_json(placement(n), "x");
    EXPECT_EQ(placement_spec_json(read_placement_spec(s)->p), s) << n;
  }
}

TEST(PlacementSpec, TheFormulasSayWhatTheirPapersSay) {
  const int L = 6;
  const InitScale tfixup{InitScale::Kind::TFixup}, zero{InitScale::Kind::Zero};
  EXPECT_EQ(tfixup(WeightRole::Value, L), std::pow(54.0, -0.25));
  EXPECT_EQ(tfixup(WeightRole::FfnOut, L), std::pow(54.0, -0.25));
  EXPECT_EQ(tfixup(WeightRole::Query, L), 1.0);
  EXPECT_EQ(zero(WeightRole::Value, L), 0.0);
  EXPECT_EQ(zero(WeightRole::FfnOut, L), 0.0);
  EXPECT_EQ(zero(WeightRole::FfnIn, L), 1.0);
  ResidualScale cp{ResidualScale::Kind::CompleteP, 2, 1};
  EXPECT_EQ(cp.skip(L), 1.0);
  EXPECT_DOUBLE_EQ(cp.branch(L), 2.0 / 6.0);
  EXPECT_EQ(ResidualScale{ResidualScale::Kind::DeepNet}.skip(L), std::pow(12.0, 0.25));
  EXPECT_EQ(ResidualScale{ResidualScale::Kind::DeepNet}.branch(L), 1.0);
}

// The spec's own paths through the model, checked against finite differences in double.
TEST(PlacementSpec, GradientsMatchFiniteDifferencesThroughTheSpecsFormulas) {
  const char* specs[] = {
      R"({"name":"cp-pre","attention":{"norm_input":true},"ffn":{"norm_input":true},"final_norm":true,"residual_scale":{"kind":"completep","L_base":1,"a":1}})",
      R"({"name":"cp-peri","attention":{"norm_input":true,"norm_branch":true},"ffn":{"norm_input":true,"norm_branch":true},"final_norm":true,"residual_scale":{"kind":"completep","L_base":3,"a":0.5},"init_scale":"tfixup"})",
      R"({"name":"cp-post","attention":{"norm_after":true},"ffn":{"norm_after":true},"residual_scale":{"kind":"completep","L_base":1,"a":1},"norm":"rmsnorm"})",
  };
  for (const char* s : specs) {
    ModelConfig cfg{2, 8, 12, 11, 5, 2, read_placement_spec(std::string(s))->name, Attention::Causal};
    cfg.placement_spec = placement_spec_json(read_placement_spec(std::string(s))->p);
    EXPECT_EQ(testing_support::check_model_gradients(cfg), testing_support::expected_tensors(cfg)) << s;
  }
}

TEST(PlacementSpec, ASpecsNormOverridesTheConfigs) {
  ModelConfig cfg{2, 8, 12, 11, 5, 2, "rms", Attention::Causal};
  cfg.placement_spec = placement_spec_json(
      read_placement_spec(std::string(R"({"name":"rms","attention":{"norm_after":true},"norm":"rmsnorm"})"))->p);
  Transformer<float> m(cfg, 1);
  bool any_beta = false;
  for (const auto& [name, t] : m.named_tensors()) any_beta |= name.find(".beta") != std::string::npos;
  EXPECT_FALSE(any_beta);  // RMSNorm has no β, though the config says layernorm
}

TEST(PlacementSpec, ZeroInitStartsEveryBranchAtZeroAndStillLearns) {
  const std::string spec =
      R"({"name":"zero-pre","attention":{"norm_input":true},"ffn":{"norm_input":true},"final_norm":true,"init_scale":"zero"})";
  ModelConfig cfg{2, 8, 12, 11, 5, 2, "zero-pre", Attention::Causal};
  cfg.placement_spec = placement_spec_json(read_placement_spec(spec)->p);
  Transformer<float> m(cfg, 3);
  for (int l = 0; l < 2; ++l)
    for (const TensorRef* t : {&m.layer(l).Wv, &m.layer(l).W2})
      for (size_t i = 0; i < t->size(); ++i) ASSERT_EQ(m.param(*t)[i], 0.0f);
  TrainRun run(train_config_from_json(
      R"({"layers":2,"d":16,"d_ff":32,"vocab":32,"seq":8,"batch":4,"steps":20,"placement":"zero-pre","placement_spec":)" +
      quoted(spec) + "}"));
  run.step(20);
  ASSERT_EQ(run.status(), RunStatus::Ok);
  EXPECT_LT(run.loss().back(), run.loss().front());
}

// Each bad spec is refused with a message that names the field.
TEST(PlacementSpec, BadSpecsAreRefusedNamingTheField) {
  const std::string base =
      R"("layers":2,"d":16,"d_ff":32,"vocab":32,"seq":8,"batch":2,"placement":"custom","placement_spec":)";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {R"({"residual_scale":{"kind":"completep","L_base":4,"a":0}})",
       "placement_spec.residual_scale.a = 0 is out of range (0, 4]"},
      {R"({"residual_scale":{"kind":"completep","L_base":-1,"a":1}})",
       "placement_spec.residual_scale.L_base = -1 is out of range"},
      {R"({"residual_scale":{"kind":"completep","L_base":0}})",
       "placement_spec.residual_scale.L_base = 0 is out of range"},
      {R"({"residual_scale":{"kind":"deepnet","a":1}})",
       "placement_spec.residual_scale: L_base and a belong to \"completep\""},
      {R"({"residual_scale":{"L_base":2}})", "placement_spec.residual_scale.kind is missing"},
      {R"({"residual_scale":"two"})",
       "placement_spec.residual_scale must be \"one\", \"admin\", \"deepnet\", \"completep\" or \"rezero\""},
      {R"({"residual_scale":2})", "placement_spec.residual_scale must be"},
      {R"({"init_scale":"fixup"})",
       "placement_spec.init_scale must be \"xavier\", \"deepnet\", \"tfixup\" or \"zero\""},
      {R"({"norm":"batchnorm"})", "placement_spec.norm must be \"layernorm\", \"rmsnorm\", \"dyt\" or \"none\""},
      {R"({"norm":1})", "placement_spec.norm must be"},
      // DyT's α₀: positive and finite, a number, and only for DyT
      {R"({"norm":{"kind":"dyt","alpha0":0}})", "placement_spec.norm.alpha0 = 0 is out of range (0, 10]"},
      {R"({"norm":{"kind":"dyt","alpha0":-0.5}})", "placement_spec.norm.alpha0 = -0.5 is out of range (0, 10]"},
      {R"({"norm":{"kind":"dyt","alpha0":11}})", "placement_spec.norm.alpha0 = 11 is out of range (0, 10]"},
      {R"({"norm":{"kind":"dyt","alpha0":1e999}})", "(the value of \"alpha0\")"},
      {R"({"norm":{"kind":"dyt","alpha0":"0.5"}})", "placement_spec.norm.alpha0 must be a number"},
      {R"({"norm":{"kind":"rmsnorm","alpha0":0.5}})", "placement_spec.norm: alpha0 belongs to \"dyt\""},
      {R"({"norm":{"alpha0":0.5}})", "placement_spec.norm.kind is missing"},
      {R"({"norm":{"kind":"tanh"}})",
       "placement_spec.norm.kind must be \"layernorm\", \"rmsnorm\", \"dyt\" or \"none\""},
      {R"({"norm":{"kind":"dyt","alpha":0.5}})",
       "unknown key \"alpha\" in placement_spec.norm (known keys: kind, alpha0)"},
      {R"({"norm":[0.5]})", "placement_spec.norm must be"},
      // ReZero's g0: finite, in [0, 4], a number, and only for the gate
      {R"({"residual_scale":{"kind":"rezero","g0":-0.1}})",
       "placement_spec.residual_scale.g0 = -0.1 is out of range [0, 4]"},
      {R"({"residual_scale":{"kind":"rezero","g0":5}})", "placement_spec.residual_scale.g0 = 5 is out of range [0, 4]"},
      {R"({"residual_scale":{"kind":"rezero","g0":-1e999}})", "(the value of \"g0\")"},
      {R"({"residual_scale":{"kind":"rezero","g0":null,"per":"block"}})",
       "placement_spec.residual_scale.per must be \"sublayer\" or \"layer\""},
      {R"({"residual_scale":{"kind":"rezero","g0":true}})", "placement_spec.residual_scale.g0 must be a number"},
      {R"({"residual_scale":{"kind":"one","g0":0}})", "placement_spec.residual_scale: g0 and per belong to \"rezero\""},
      {R"({"residual_scale":{"kind":"completep","per":"layer"}})",
       "placement_spec.residual_scale: g0 and per belong to \"rezero\""},
      {R"({"residual_scale":{"kind":"rezero","L_base":2}})",
       "placement_spec.residual_scale: L_base and a belong to \"completep\""},
      // a gate at 0 over branches that start at 0: nothing in a layer would ever get a gradient
      {R"({"residual_scale":"rezero","init_scale":"zero"})",
       "placement_spec.residual_scale.g0 = 0 with init_scale \"zero\": each branch starts as the zero function"},
      {R"({"residual_scale":{"kind":"rezero","g0":0,"per":"layer"},"init_scale":"zero"})",
       "the layers never train, whatever the optimizer"},
      // the QK-norm's kind
      {R"({"qk_norm":"dyt"})", "placement_spec.qk_norm must be \"none\", \"layernorm\" or \"rmsnorm\""},
      {R"({"qk_norm":true})", "placement_spec.qk_norm must be \"none\", \"layernorm\" or \"rmsnorm\""},
      // B2T where it has no meaning, or of the wrong type
      {R"({"b2t":true})", "placement_spec.b2t needs a norm after the FFN's residual add (ffn.norm_after: true)"},
      {R"({"attention":{"norm_after":true},"ffn":{"norm_input":true},"b2t":true})",
       "placement_spec.b2t needs a norm after the FFN's residual add"},
      {R"({"ffn":{"norm_after":true},"norm":"none","b2t":true})",
       "placement_spec.b2t skips the layer's norms but norm is \"none\""},
      {R"({"ffn":{"norm_after":true},"b2t":"yes"})", "placement_spec.b2t must be true or false"},
      {R"({"ffn":{"norm_after":true},"b2t":1})", "placement_spec.b2t must be true or false"},
      // 10⁶-character strings inside an otherwise good spec: refused, named, never echoed
      {R"({"norm":")" + std::string(1000000, 'd') + R"("})", "placement_spec.norm must be"},
      {R"({"norm":{"kind":")" + std::string(1000000, 'd') + R"("}})", "placement_spec.norm.kind must be"},
      {R"({"qk_norm":")" + std::string(1000000, 'q') + R"("})", "placement_spec.qk_norm must be"},
      {R"({"residual_scale":{"kind":"rezero","per":")" + std::string(1000000, 'l') + R"("}})",
       "placement_spec.residual_scale.per must be"},
      {R"({"residual_scale":")" + std::string(1000000, 'r') + R"("})", "placement_spec.residual_scale must be"},
      {R"({")" + std::string(1000000, 'k') + R"(":true})",
       "unknown key \"kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk...\" in placement_spec"},
      {R"({"ffn":{"norm_after":1}})", "placement_spec.ffn.norm_after must be true or false"},
      {R"({"final_norm":"yes"})", "placement_spec.final_norm must be true or false"},
      {R"({"attention":[true]})", "placement_spec.attention must be an object"},
      {R"({"attention":{"norm_inptu":true}})", "unknown key \"norm_inptu\" in placement_spec.attention"},
      {R"({"nrom":"rmsnorm"})", "unknown key \"nrom\" in placement_spec (known keys: name, label"},
      {R"({"name":"post"})", "placement_spec.name = \"post\" is a registered placement"},
      {R"({"name":"Bad <b>"})", "placement_spec.name may hold only a-z, 0-9"},
      {R"({"name":""})", "placement_spec.name must have 1 to 32 characters"},
      {R"({"name":7})", "placement_spec.name must be a string"},
      {R"({"label":"<script>"})", "placement_spec.label may hold only printable ASCII"},
      {R"(5)", "placement_spec must be an object (or a string holding one)"},
      {R"([1])", "placement_spec must be an object (or a string holding one)"},
      {quoted(R"({"name":)"), "placement_spec is not a JSON object ("},
      {quoted("not json"), "placement_spec is not a JSON object ("},
      {quoted(std::string(1000000, ' ')), "placement_spec has 1000000 characters; at most 4096 allowed"},
  };
  for (const auto& [spec, message] : cases) {
    try {
      train_config_from_json("{" + base + spec + "}");
      ADD_FAILURE() << "accepted: " << spec.substr(0, 80);
    } catch (const ArgumentError& e) {
      EXPECT_NE(std::string(e.what()).find(message), std::string::npos)
          << spec.substr(0, 80) << "\n  got: " << e.what();
      EXPECT_EQ(std::string(e.what()).find('<'), std::string::npos) << e.what();              // no markup echoed
      EXPECT_LT(std::string(e.what()).size(), 400u) << std::string(e.what()).substr(0, 200);  // nor a long string
    }
  }
}

// A rule across the spec's keys is answered with its name (the page's words for it are keyed by it),
// through any config that holds the spec, and the schema lists each rule.
TEST(PlacementSpec, ItsRulesAcrossKeysAreNamedToTheFormsAndListed) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {R"({"b2t":true})", "b2t_needs_norm_after"},
      {R"({"ffn":{"norm_after":true},"norm":"none","b2t":true})", "b2t_needs_norms"},
      {R"({"residual_scale":"rezero","init_scale":"zero"})", "gate_over_zero_branches"},
  };
  const json::Value listed = json::parse(schema_json()).obj.at("placement_spec_rules");
  ASSERT_EQ(listed.arr.size(), cases.size());
  for (size_t i = 0; i < cases.size(); ++i) {
    const auto& [spec, rule] = cases[i];
    EXPECT_EQ(listed.arr[i].obj.at("name").str, rule);
    for (const auto& [kind, config] : std::vector<std::pair<std::string, std::string>>{
             {"init-profile", R"({"placements":["custom"],"placement_spec":)" + spec + "}"},
             {"grid", R"({"placements":["custom"],"placement_spec":)" + spec + "}"},
             {"train", R"({"placement":"custom","placement_spec":)" + spec + "}"}}) {
      const json::Value answer = json::parse(check_config_json(kind, config));
      EXPECT_FALSE(answer.obj.at("ok").b) << kind << " " << spec;
      ASSERT_TRUE(answer.obj.count("rule")) << kind << " " << spec << ": " << answer.obj.at("message").str;
      EXPECT_EQ(answer.obj.at("rule").str, rule) << kind;
    }
  }
}

TEST(PlacementSpec, ASpecMustBeRunAndItsNameIsAChoiceOnlyWithIt) {
  const std::string model = R"("layers":2,"d":16,"d_ff":32,"vocab":32,"seq":8,"batch":2)";
  auto refused = [](auto make, const std::string& message) {
    try {
      make();
      ADD_FAILURE() << "accepted; expected: " << message;
    } catch (const ArgumentError& e) {
      EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what();
    }
  };
  refused([&] { train_config_from_json("{" + model + R"(,"placement_spec":{"name":"mine"}})"); },
          "placement_spec defines the placement \"mine\", which placement does not name");
  refused([&] { probe_config_from_json("{" + model + R"(,"placement_spec":{"name":"mine"}})"); },
          "placement_spec defines the placement \"mine\", which placements does not name");
  refused([&] { grid_config_from_json("{" + model + R"(,"placement_spec":{},"placements":["post"]})"); },
          "placement_spec defines the placement \"custom\", which placements does not name");
  refused([&] { probe_config_from_json("{" + model + R"(,"placements":["post","custom"]})"); },
          "placements entry must be");
  refused([&] { train_config_from_json("{" + model + R"(,"placement":"custom"})"); }, "placement must be");
  // with the spec its name is a choice; a string holding the spec is read the same as the object
  EXPECT_NO_THROW(probe_config_from_json("{" + model + R"(,"placements":["post","custom"],"placement_spec":{}})"));
  const TrainConfig a =
      train_config_from_json("{" + model + R"(,"placement":"custom","placement_spec":{"ffn":{"norm_after":true}}})");
  const TrainConfig b = train_config_from_json("{" + model + R"(,"placement":"custom","placement_spec":)" +
                                               quoted(R"({"ffn":{"norm_after":true}})") + "}");
  EXPECT_EQ(a.model.placement_spec, b.model.placement_spec);
  // "" and null mean no spec
  EXPECT_EQ(train_config_from_json("{" + model + R"(,"placement_spec":""})").model.placement_spec, "");
  EXPECT_EQ(train_config_from_json("{" + model + R"(,"placement_spec":null})").model.placement_spec, "");
}

#ifdef LNX_CLI
// `lnx … --placement-spec FILE`: a good file runs; a bad one, a missing one and a malformed one
// exit with code 2 and a message naming the flag or the field.
using test::Cli;
using test::run_cli;
using test::write_temp;

TEST(PlacementSpecCli, ProbeTrainAndGridTakeASpecFile) {
  const std::string f = write_temp(
      "sandwich.json", R"({"name":"sandwich","label":"Sandwich-LN","attention":{"norm_input":true,"norm_branch":true},)"
                       R"("ffn":{"norm_input":true,"norm_branch":true},"final_norm":true})");
  const std::string model = " --layers 2 --d 16 --d-ff 32 --vocab 32 --seq 8 --batch 2";
  Cli probe = run_cli("probe --placement-spec '" + f +
                      "' --placements post,sandwich --seeds 0 --batches 1 --depth-batches 1 --depths 2" + model);
  EXPECT_EQ(probe.rc, 0) << probe.out;
  EXPECT_NE(probe.out.find("Sandwich-LN"), std::string::npos) << probe.out;
  Cli train = run_cli("train --placement-spec '" + f + "' --placement sandwich --steps 3 --json" + model);
  EXPECT_EQ(train.rc, 0) << train.out;
  EXPECT_EQ(json::parse(train.out).obj.at("config").obj.at("placement_spec").obj.at("label").str, "Sandwich-LN");
  Cli grid = run_cli("grid --placement-spec '" + f +
                     "' --placements sandwich --warmups 0 --lrs 0.001 --seeds 0 --steps 2 --json" + model);
  EXPECT_EQ(grid.rc, 0) << grid.out;
}

// Each literature preset file runs as it is (wasm/placements/presets/, placements/presets.h).
TEST(PlacementSpecCli, EveryPresetFileTrainsFromTheCommandLine) {
  const std::string model = " --layers 2 --d 16 --d-ff 32 --vocab 32 --seq 8 --batch 2";
  for (const char* name : {"b2t", "completep", "dyt", "qknorm", "rezero", "tfixup"}) {
    const std::string file = std::string(LNX_SOURCE_DIR) + "/wasm/placements/presets/" + name + ".json";
    Cli train = run_cli("train --placement-spec '" + file + "' --placement " + name + " --steps 2 --json" + model);
    ASSERT_EQ(train.rc, 0) << name << "\n" << train.out;
    EXPECT_EQ(json::parse(train.out).obj.at("status").str, "ok") << name;
  }
}

TEST(PlacementSpecCli, BadSpecFilesExitWithCode2AndNameTheField) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"probe --placement-spec '" +
           write_temp("a0.json", R"({"residual_scale":{"kind":"completep","L_base":4,"a":0}})") +
           "' --placements custom",
       "placement_spec.residual_scale.a = 0 is out of range"},
      {"grid --placement-spec '" + write_temp("norm.json", R"({"norm":"groupnorm"})") + "' --placements custom",
       "placement_spec.norm must be"},
      {"train --placement-spec '" + write_temp("bad.json", R"({"name":)") + "' --placement custom",
       "placement_spec is not a JSON object"},
      {"train --placement-spec '" + write_temp("unknown.json", R"({"sublayers":2})") + "' --placement custom",
       "unknown key \"sublayers\" in placement_spec"},
      {"probe --placement-spec '" + testing::TempDir() + "no-such-file.json' --placements custom",
       "--placement-spec: cannot read the file"},
      {"probe --placement-spec '" + write_temp("unused.json", "{}") + "'",
       "placement_spec defines the placement \"custom\", which placements does not name"},
      {"train --placement-spec '" + write_temp("alpha0.json", R"({"norm":{"kind":"dyt","alpha0":0}})") +
           "' --placement custom",
       "placement_spec.norm.alpha0 = 0 is out of range (0, 10]"},
      {"probe --placement-spec '" + write_temp("norm.json", R"({"norm":"tanh"})") + "' --placements custom",
       "placement_spec.norm must be \"layernorm\", \"rmsnorm\", \"dyt\" or \"none\""},
      {"grid --placement-spec '" + write_temp("g0.json", R"({"residual_scale":{"kind":"rezero","g0":-1}})") +
           "' --placements custom",
       "placement_spec.residual_scale.g0 = -1 is out of range [0, 4]"},
      {"train --placement-spec '" + write_temp("qk.json", R"({"qk_norm":"batchnorm"})") + "' --placement custom",
       "placement_spec.qk_norm must be"},
      {"train --placement-spec '" + write_temp("b2t.json", R"({"attention":{"norm_input":true},"b2t":true})") +
           "' --placement custom",
       "placement_spec.b2t needs a norm after the FFN's residual add"},
      {"train --placement-spec '" + write_temp("b2ttype.json", R"({"ffn":{"norm_after":true},"b2t":"on"})") +
           "' --placement custom",
       "placement_spec.b2t must be true or false"},
      {"train --placement-spec '" + write_temp("long.json", R"({"qk_norm":")" + std::string(1000000, 'q') + R"("})") +
           "' --placement custom",
       "characters; at most 4096 allowed"},
  };
  for (const auto& [args, message] : cases) {
    const Cli r = run_cli(args);
    EXPECT_EQ(r.rc, 2) << args << "\n" << r.out;
    EXPECT_NE(r.out.find(message), std::string::npos) << args << "\n" << r.out;
  }
}
#endif

}  // namespace
}  // namespace lnx
