// placement_ops_test.cpp — the spec options that add ops to the model (placements/spec.h): DyT and
// the identity as the norm, a QK-norm, ReZero's learnable gate (per sublayer or per layer) and the
// B2T skip. Each option, and a combination of all of them, through the whole model's gradient check
// in double (ops/ have their own in op_gradcheck_test.cpp); what each does to the model, to the
// numbers; the presets (placements/presets.h): each loads and runs a training step. The refusals are
// in placement_spec_test.cpp with the others.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "api.h"
#include "json.h"
#include "model.h"
#include "model_gradcheck.h"
#include "placements/presets.h"
#include "placements/spec.h"

namespace lnx {
namespace {

// A model config running the spec `spec` (given without its name: it is called "opt").
ModelConfig spec_config(const std::string& spec, Attention a = Attention::Causal, int layers = 2) {
  const std::string text = "{\"name\":\"opt\"" + std::string(spec == "{}" ? "" : ",") + spec.substr(1);
  ModelConfig cfg{layers, 8, 12, 11, 5, 2, "opt", a};
  cfg.placement_spec = placement_spec_json(read_placement_spec(text)->p);
  return cfg;
}

// The option specs the gradient check runs, each on the sublayer layout where it means something.
const std::map<std::string, std::string>& option_specs() {
  static const std::map<std::string, std::string> specs = {
      {"dyt_pre", R"({"attention":{"norm_input":true},"ffn":{"norm_input":true},"final_norm":true,"norm":"dyt"})"},
      {"dyt_post_alpha",
       R"({"attention":{"norm_after":true},"ffn":{"norm_after":true},"norm":{"kind":"dyt","alpha0":1.5}})"},
      {"dyt_peri",
       R"({"attention":{"norm_input":true,"norm_branch":true},"ffn":{"norm_input":true,"norm_branch":true},"final_norm":true,"norm":"dyt"})"},
      {"none_pre", R"({"attention":{"norm_input":true},"ffn":{"norm_input":true},"final_norm":true,"norm":"none"})"},
      {"none_post", R"({"attention":{"norm_after":true},"ffn":{"norm_after":true},"norm":"none"})"},
      {"qk_layernorm_post", R"({"attention":{"norm_after":true},"ffn":{"norm_after":true},"qk_norm":"layernorm"})"},
      {"qk_rmsnorm_pre",
       R"({"attention":{"norm_input":true},"ffn":{"norm_input":true},"final_norm":true,"qk_norm":"rmsnorm"})"},
      {"rezero_sublayer", R"({"residual_scale":"rezero"})"},
      {"rezero_layer_pre",
       R"({"attention":{"norm_input":true},"ffn":{"norm_input":true},"final_norm":true,"residual_scale":{"kind":"rezero","g0":0.2,"per":"layer"}})"},
      {"rezero_branch_norm",
       R"({"attention":{"norm_branch":true},"ffn":{"norm_branch":true},"residual_scale":"rezero"})"},
      {"b2t", R"({"attention":{"norm_after":true},"ffn":{"norm_after":true},"b2t":true})"},
      {"b2t_ffn_only_deepnet",
       R"({"ffn":{"norm_after":true},"residual_scale":"deepnet","init_scale":"deepnet","b2t":true})"},
      {"all_post",
       R"({"attention":{"norm_after":true},"ffn":{"norm_branch":true,"norm_after":true},"norm":"dyt","qk_norm":"rmsnorm","residual_scale":{"kind":"rezero","g0":0.5,"per":"layer"},"b2t":true})"},
      {"all_pre",
       R"({"attention":{"norm_input":true},"ffn":{"norm_input":true},"final_norm":true,"norm":{"kind":"dyt","alpha0":0.8},"qk_norm":"layernorm","residual_scale":"rezero","init_scale":"tfixup"})"},
  };
  return specs;
}

class OptionGradCheck : public testing::TestWithParam<std::string> {};

// Every tensor of every option's model against central differences in double (model_gradcheck.h:
// γ, β, α and the gates are moved off their start first, so g = 0's switched-off branches are open).
TEST_P(OptionGradCheck, EveryParameterTensorMatchesFiniteDifferences) {
  for (Attention a : {Attention::Bidirectional, Attention::Causal}) {
    const ModelConfig cfg = spec_config(option_specs().at(GetParam()), a);
    EXPECT_EQ(testing_support::check_model_gradients(cfg), testing_support::expected_tensors(cfg)) << to_string(a);
  }
}

std::vector<std::string> option_names() {
  std::vector<std::string> out;
  for (const auto& kv : option_specs()) out.push_back(kv.first);
  return out;
}
INSTANTIATE_TEST_SUITE_P(Options, OptionGradCheck, testing::ValuesIn(option_names()),
                         [](const testing::TestParamInfo<std::string>& i) { return i.param; });

// The tensors each option adds, by name.
TEST(PlacementOps, EachOptionAddsTheTensorsItNames) {
  auto names = [](const std::string& spec) {
    Transformer<float> m(spec_config(spec), 1);
    std::vector<std::string> out;
    for (const auto& [n, t] : m.named_tensors())
      if (n.rfind("layer1.", 0) == 0 || n.rfind("final.", 0) == 0) out.push_back(n);
    return out;
  };
  const std::vector<std::string> base = {"layer1.Wq", "layer1.bq", "layer1.Wk", "layer1.bk", "layer1.Wv",
                                         "layer1.bv", "layer1.W1", "layer1.b1", "layer1.W2", "layer1.b2"};
  auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> v = base;
    v.insert(v.end(), extra.begin(), extra.end());
    return v;
  };
  EXPECT_EQ(names(option_specs().at("dyt_pre")),
            with({"layer1.ln1.gamma", "layer1.ln1.beta", "layer1.ln1.alpha", "layer1.ln2.gamma", "layer1.ln2.beta",
                  "layer1.ln2.alpha", "final.gamma", "final.beta", "final.alpha"}));
  EXPECT_EQ(names(option_specs().at("none_pre")), base);  // the identity has no parameters
  EXPECT_EQ(names(option_specs().at("qk_rmsnorm_pre")),
            with({"layer1.ln1.gamma", "layer1.ln1.beta", "layer1.ln2.gamma", "layer1.ln2.beta", "layer1.qnorm.gamma",
                  "layer1.knorm.gamma", "final.gamma", "final.beta"}));  // the slots keep the config's LayerNorm
  EXPECT_EQ(names(option_specs().at("rezero_sublayer")), with({"layer1.gate1", "layer1.gate2"}));
  EXPECT_EQ(names(R"({"residual_scale":{"kind":"rezero","per":"layer"}})"), with({"layer1.gate"}));
  EXPECT_EQ(names(option_specs().at("b2t")),
            with({"layer1.ln1.gamma", "layer1.ln1.beta", "layer1.ln2.gamma", "layer1.ln2.beta"}));
}

// Their initial values: γ 1, β 0, DyT's α = alpha0, the gates g0; no random draw, so every other
// tensor is what the same placement without the option draws.
TEST(PlacementOps, NewParametersStartAtTheirConstantsAndDrawNothing) {
  const ModelConfig cfg = spec_config(option_specs().at("all_pre"));
  Transformer<float> m(cfg, 3);
  Transformer<float> plain(
      spec_config(
          R"({"attention":{"norm_input":true},"ffn":{"norm_input":true},"final_norm":true,"init_scale":"tfixup"})"),
      3);
  std::map<std::string, TensorRef> other;
  for (const auto& [n, t] : plain.named_tensors()) other[n] = t;
  for (const auto& [n, t] : m.named_tensors()) {
    const float* v = m.param(t);
    if (n.find(".alpha") != std::string::npos) {
      EXPECT_EQ(v[0], 0.8f) << n;
    } else if (n.find(".gate") != std::string::npos) {
      EXPECT_EQ(v[0], 0.0f) << n;
    } else if (n.find(".gamma") != std::string::npos || n.find(".beta") != std::string::npos) {
      for (size_t i = 0; i < t.size(); ++i) ASSERT_EQ(v[i], n.find(".gamma") != std::string::npos ? 1.0f : 0.0f) << n;
    } else {
      ASSERT_TRUE(other.count(n)) << n;
      EXPECT_EQ(0, std::memcmp(v, plain.param(other[n]), t.size() * sizeof(float))) << n;
    }
  }
}

std::vector<int> tokens(int n, int vocab, int mul, int add) {
  std::vector<int> v(n);
  for (int i = 0; i < n; ++i) v[i] = (mul * i + add) % vocab;
  return v;
}

// ReZero at g = 0 (SkipInit's observation): every sublayer is the identity, so the model is the
// embedding and the output layer alone, and no weight inside a branch gets a gradient, only the
// gates do.
TEST(PlacementOps, AClosedGateMakesEachSublayerTheIdentityAndOnlyTheGatesLearnAtFirst) {
  const ModelConfig cfg = spec_config(option_specs().at("rezero_sublayer"), Attention::Causal, 3);
  Transformer<double> m(cfg, 4);
  const int N = cfg.batch * cfg.seq;
  const std::vector<int> tok = tokens(N, cfg.vocab, 3, 1), tgt = tokens(N, cfg.vocab, 5, 2);
  m.zero_grad();
  m.forward(tok.data(), tgt.data());
  // the last layer's output is x0 = √d·E[tok]
  const double s = std::sqrt(double(cfg.d));
  for (int r = 0; r < N; ++r)
    for (int c = 0; c < cfg.d; ++c)
      ASSERT_EQ(m.last_output()[r * cfg.d + c], s * m.param(m.embedding())[tok[r] * cfg.d + c]);
  m.backward();
  for (const auto& [n, t] : m.named_tensors()) {
    double sq = 0;
    for (size_t i = 0; i < t.size(); ++i) sq += m.grad(t)[i] * m.grad(t)[i];
    if (n == "E") continue;
    if (n.find(".gate") != std::string::npos) EXPECT_GT(sq, 0.0) << n;
    else EXPECT_EQ(sq, 0.0) << n;
  }
}

// "norm": "none" makes every slot the identity: the same numbers as the spec without the slots.
TEST(PlacementOps, NoneIsTheIdentityInEverySlot) {
  const ModelConfig a = spec_config(
      R"({"attention":{"norm_input":true,"norm_branch":true,"norm_after":true},"ffn":{"norm_input":true,"norm_branch":true,"norm_after":true},"final_norm":true,"norm":"none"})");
  const ModelConfig b = spec_config(R"({})");
  Transformer<double> ma(a, 6), mb(b, 6);
  const int N = a.batch * a.seq;
  const std::vector<int> tok = tokens(N, a.vocab, 3, 1), tgt = tokens(N, a.vocab, 5, 2);
  // the same up to the order of the FFN's additions (b adds its output inside the GEMM)
  const double la = ma.forward(tok.data(), tgt.data()), lb = mb.forward(tok.data(), tgt.data());
  EXPECT_NEAR(la, lb, 1e-12 * std::fabs(lb));
  ma.zero_grad(), mb.zero_grad();
  ma.backward(), mb.backward();
  const auto ta = ma.named_tensors(), tb = mb.named_tensors();
  ASSERT_EQ(ta.size(), tb.size());
  for (size_t i = 0; i < ta.size(); ++i) {
    ASSERT_EQ(ta[i].first, tb[i].first);
    for (size_t k = 0; k < ta[i].second.size(); ++k) {
      const double y = mb.grad(tb[i].second)[k];
      ASSERT_NEAR(ma.grad(ta[i].second)[k], y, 1e-10 * (std::fabs(y) + 1e-3)) << ta[i].first << " " << k;
    }
  }
}

// B2T adds nothing but the skip: in a one-layer model the stream before the last norm is Post-LN's
// plus the layer's input x0, and the parameters are Post-LN's.
TEST(PlacementOps, B2TAddsTheLayersInputBeforeTheLastNorm) {
  ModelConfig post{1, 8, 12, 11, 5, 2, "post", Attention::Causal};
  const ModelConfig b2t = spec_config(option_specs().at("b2t"), Attention::Causal, 1);
  Transformer<float> mp(post, 2), mb(b2t, 2);
  ASSERT_EQ(mp.params().size(), mb.params().size());
  EXPECT_EQ(0, std::memcmp(mp.params().data(), mb.params().data(), mp.params().size() * sizeof(float)));
  const int N = post.batch * post.seq;
  const std::vector<int> tok = tokens(N, post.vocab, 3, 1), tgt = tokens(N, post.vocab, 5, 2);
  mp.forward(tok.data(), tgt.data());
  mb.forward(tok.data(), tgt.data());
  const float s = std::sqrt(8.0f);
  for (int r = 0; r < N; ++r)
    for (int c = 0; c < 8; ++c) {
      volatile float x0 = s * mp.param(mp.embedding())[tok[r] * 8 + c];  // rounded as the model rounds it
      ASSERT_EQ(mb.stream(0)[r * 8 + c], mp.stream(0)[r * 8 + c] + x0) << r << "," << c;
    }
}

// The probe's reduced backward (W² only) gives the full backward's W² gradients with every option.
TEST(PlacementOps, ReducedBackwardGivesTheSameW2Gradients) {
  testing_support::expect_reduced_backward_matches(
      spec_config(option_specs().at("all_post"), Attention::Bidirectional, 3));
  testing_support::expect_reduced_backward_matches(
      spec_config(option_specs().at("all_pre"), Attention::Bidirectional, 3));
}

// A learnable gate trains with plain SGD at the lab's suggested lr: nothing refuses it (docs/engine.md,
// "A learnable gate and SGD", has the measurement behind that decision).
TEST(PlacementOps, ALearnableGateTrainsWithSgd) {
  for (const char* per : {"sublayer", "layer"}) {
    TrainRun run(train_config_from_json(
        R"({"layers":2,"d":32,"d_ff":64,"vocab":32,"seq":16,"batch":4,"steps":40,"optimizer":"sgd","lr":0.05,)"
        R"("placement":"rz","placement_spec":{"name":"rz","residual_scale":{"kind":"rezero","per":")" +
        std::string(per) + R"("}}})"));
    run.step(40);
    ASSERT_EQ(run.status(), RunStatus::Ok) << per;
    EXPECT_LT(run.loss().back(), run.loss().front() - 0.5) << per;
  }
}

// Every preset is a valid spec that trains a step; the registry's come first, as specs that compute
// what the registered placement computes (placement_spec_test.cpp checks that bit for bit).
TEST(PlacementPresets, EachLoadsAndRunsATrainingStep) {
  const std::vector<PlacementPreset>& presets = placement_presets();
  std::vector<std::string> names;
  for (const PlacementPreset& p : presets) {
    names.push_back(p.name);
    SCOPED_TRACE(p.name);
    EXPECT_EQ(read_placement_spec(p.spec)->name, p.name);
    EXPECT_EQ(placement_spec_json(read_placement_spec(p.spec)->p), p.spec);  // canonical
    TrainRun run(
        train_config_from_json(R"({"layers":2,"d":16,"d_ff":32,"vocab":32,"seq":8,"batch":2,"steps":1,"placement":")" +
                               p.name + R"(","placement_spec":)" + p.spec + "}"));
    run.step(1);
    ASSERT_EQ(run.status(), RunStatus::Ok);
    ASSERT_EQ(run.loss().size(), 1u);
    EXPECT_TRUE(std::isfinite(run.loss()[0]));
  }
  const std::vector<std::string> want = {"post-spec", "pre-spec", "peri-spec", "deepnorm-spec", "admin-spec", "b2t",
                                         "completep", "dyt",      "qknorm",    "rezero",        "tfixup"};
  EXPECT_EQ(names, want);
  for (const PlacementPreset& p : presets)
    EXPECT_EQ(p.source, p.name.size() > 5 && p.name.compare(p.name.size() - 5, 5, "-spec") == 0
                            ? std::string("registry")
                            : "presets/" + p.name + ".json");
}

TEST(PlacementPresets, TheSchemaListsThemWithTheirSpecs) {
  const json::Value s = json::parse(schema_json());
  const auto& list = s.obj.at("placement_presets").arr;
  ASSERT_EQ(list.size(), placement_presets().size());
  for (size_t i = 0; i < list.size(); ++i) {
    EXPECT_EQ(list[i].obj.at("name").str, placement_presets()[i].name);
    EXPECT_EQ(list[i].obj.at("spec").obj.at("name").str, placement_presets()[i].name);
    EXPECT_FALSE(list[i].obj.at("label").str.empty());
    EXPECT_FALSE(list[i].obj.at("doc").str.empty());
  }
}

// What each literature preset says, to the formula (docs/engine.md's table).
TEST(PlacementPresets, TheLiteraturesPresetsSayWhatTheirPapersSay) {
  std::map<std::string, std::shared_ptr<const SpecPlacement>> by;
  for (const PlacementPreset& p : placement_presets()) by[p.name] = read_placement_spec(p.spec);
  const Placement& b2t = by.at("b2t")->p;
  EXPECT_TRUE(b2t.b2t && b2t.attention.norm_after && b2t.ffn.norm_after && !b2t.final_norm);
  const Placement& rz = by.at("rezero")->p;
  EXPECT_TRUE(rz.residual_scale.learnable() && rz.residual_scale.per_layer && rz.residual_scale.g0 == 0);
  EXPECT_EQ(rz.attention.norms() + rz.ffn.norms(), 0);
  EXPECT_FALSE(rz.final_norm);
  const Placement& tf = by.at("tfixup")->p;
  EXPECT_EQ(tf.init_scale.kind, InitScale::Kind::TFixup);
  EXPECT_EQ(tf.attention.norms() + tf.ffn.norms(), 0);
  const Placement& dyt = by.at("dyt")->p;
  EXPECT_TRUE(dyt.norm == NormKind::DyT && dyt.alpha0 == 0.5 && dyt.final_norm && dyt.attention.norm_input);
  const Placement& cp = by.at("completep")->p;
  EXPECT_EQ(cp.residual_scale.kind, ResidualScale::Kind::CompleteP);
  EXPECT_EQ(cp.residual_scale.a, 1.0);
  const Placement& qk = by.at("qknorm")->p;
  EXPECT_EQ(qk.qk_norm, NormKind::LayerNorm);
}

}  // namespace
}  // namespace lnx
