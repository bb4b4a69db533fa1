// experiment_test.cpp — the experiments on the article's inferences (wasm/experiments/): each runs at
// a tiny setting and writes its document; bad input to every field is refused naming the field;
// and each measures what it says, checked by a property that holds whatever the article claims
// (Adam's first step, the perturbation's linear regime, the probe Figure 3c reproduces, …).
#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <string>

#include "api.h"
#include "experiments/experiment.h"
#include "experiments/measure.h"
#include "json.h"
#include "model.h"
#include "optim/adam.h"
#include "optim/radam.h"
#include "placements/placement.h"
#include "placements/presets.h"
#include "placements/spec.h"
#include "rng.h"
#include "text_data.h"
#include "train_access.h"

// The sharpness experiment's estimator (wasm/experiments/sharpness.cpp, external linkage for these
// tests): the top eigenvalue of S·H·S from Hessian-vector products, by the Lanczos iteration.
namespace lnx::exp {
using Hvp = std::function<void(const std::vector<double>& v, std::vector<double>& hv)>;
double top_eigenvalue(const Hvp& hvp, const std::vector<double>& s, const std::vector<double>& q0, int max_products,
                      double tol, int* products);
}  // namespace lnx::exp

// The angular-update experiment's measurement (wasm/experiments/angular_update.cpp, external linkage
// for these tests): a layer's weight groups, and the angle and relative size of a step on one.
namespace lnx::exp {
struct WeightGroup {
  std::string name;
  std::vector<TensorRef> tensors;
};
std::vector<WeightGroup> weight_groups(const Transformer<float>& m);
void angular_update(const std::vector<float>& a, const std::vector<float>& b, const WeightGroup& g, double& angle,
                    double& relative);
}  // namespace lnx::exp

namespace {

using lnx::json::Value;

const char* kTiny = R"("d": 16, "d_ff": 32, "vocab": 32, "seq": 8, "batch": 2)";

Value run(const std::string& name, const std::string& extra) {
  lnx::ExperimentRun r(name, std::string("{") + kTiny + (extra.empty() ? "" : ", " + extra) + "}");
  double last = -1;
  int guard = 0;
  while (!r.done()) {
    const double p = r.step(1);
    EXPECT_GE(p, last) << name << ": progress went back";
    last = p;
    if (++guard > 100000) ADD_FAILURE() << name << ": never done";
    if (guard > 100000) break;
  }
  EXPECT_EQ(r.progress(), 1.0);
  const Value v = lnx::json::parse(r.result_json());
  EXPECT_EQ(v.obj.at("experiment").str, name);
  EXPECT_TRUE(v.obj.count("engine") && v.obj.count("config"));
  return v;
}

// Experiment `name` with config `cfg` is refused: an ArgumentError whose message holds each of `words`.
void expect_refused(const std::string& name, const std::string& cfg, const std::vector<std::string>& words) {
  try {
    lnx::ExperimentRun r(name, cfg);
    ADD_FAILURE() << name << ": " << cfg << " was accepted";
  } catch (const lnx::ArgumentError& e) {
    for (const std::string& w : words)
      EXPECT_NE(std::string(e.what()).find(w), std::string::npos) << name << ": " << cfg << ": " << e.what();
  }
}

TEST(Experiments, RegistryNamesEveryExperimentOnceAndRefusesUnknownNames) {
  const auto names = lnx::experiment_names();
  EXPECT_EQ(names,
            (std::vector<std::string>{"adam-first-step", "step-size", "output-sensitivity", "warmup-length",
                                      "plateau-share", "tied-output", "depth-factors", "sharpness", "phase-diagram",
                                      "init-profile", "lr-sensitivity", "real-text", "angular-update"}));
  try {
    lnx::ExperimentRun r("nope", "{}");
    FAIL() << "an unknown experiment was accepted";
  } catch (const lnx::ArgumentError& e) {
    EXPECT_NE(std::string(e.what()).find("experiment must be one of \"adam-first-step\""), std::string::npos)
        << e.what();
  }
}

TEST(Experiments, ResultBeforeDoneIsRefused) {
  lnx::ExperimentRun r("output-sensitivity", std::string("{") + kTiny + R"(, "depths": [1, 2], "seeds": [0]})");
  EXPECT_THROW(r.result_json(), lnx::ArgumentError);
  EXPECT_THROW(r.step(0), lnx::ArgumentError);
}

// Every field of every experiment: values outside its bounds, non-finite numbers, unknown choices
// and unknown keys are refused with a message that names the field.
TEST(Experiments, BadInputToEveryFieldNamesTheField) {
  const Value schema = lnx::json::parse(lnx::schema_json());
  int checked = 0;
  for (const Value& e : schema.obj.at("experiments").arr) {
    const std::string name = e.obj.at("name").str;
    for (const Value& f : e.obj.at("config").obj.at("fields").arr) {
      const std::string key = f.obj.at("name").str, type = f.obj.at("type").str;
      std::vector<std::string> bad;
      const bool list = type.find("list") != std::string::npos;
      auto wrap = [&](const std::string& x) { return list ? "[" + x + "]" : x; };
      if (type.rfind("choice", 0) == 0 || type.rfind("enum", 0) == 0) {
        bad = {wrap("\"nope\""), wrap("3")};
      } else if (type == "object") {  // a placement spec
        bad = {"3", "[]", "\"pre\"", R"({"nope": 1})", R"({"name": 3})", R"({"attention": {"norm_input": 2}})"};
      } else {
        const double hi = f.obj.at("max").num;
        bad = {wrap("1e999"), wrap("-1e999"), wrap("\"1\""), wrap(std::to_string(hi * 2 + 1)), wrap("-1")};
        if (f.obj.at("min").num > 0 || f.obj.at("min_exclusive").b) bad.push_back(wrap("0"));
      }
      if (list) bad.push_back("[]");
      for (const std::string& v : bad) {
        try {
          lnx::ExperimentRun r(name, "{\"" + key + "\": " + v + "}");
          ADD_FAILURE() << name << ": " << key << " = " << v << " was accepted";
        } catch (const lnx::ArgumentError& err) {
          EXPECT_NE(std::string(err.what()).find(key), std::string::npos)
              << name << ": " << key << " = " << v << ": " << err.what();
        }
        ++checked;
      }
    }
    EXPECT_THROW(lnx::ExperimentRun(name, R"({"no_such_key": 1})"), lnx::ArgumentError);
  }
  EXPECT_GT(checked, 150);
}

TEST(Experiments, ModelTooLargeNamesTheKnobsToLower) {
  expect_refused("output-sensitivity", R"({"d": 4096, "d_ff": 16384, "depths": [64]})",
                 {"depth 64 too large", "lower depths, d"});
}

// Adam's first step is lr·g/(|g| + ε): a coordinate moves by lr when |g| ≫ ε and never by more, so
// every tensor's ‖Δθ‖/(lr·√n) is at most 1, and 1 for tensors whose every coordinate has a gradient
// (Wv, the embedding). The key bias bk moves by almost nothing: its gradient is zero up to rounding
// (adding a constant to every score of a row leaves the softmax unchanged). The first-order change
// g·Δθ is −lr·‖g‖₁ up to the coordinates with |g| ~ ε.
TEST(Experiments, AdamFirstStepMovesEveryCoordinateByAtMostLr) {
  const Value v = run("adam-first-step", R"("layers": 2, "steps": 3, "placements": ["post", "pre", "peri"])");
  ASSERT_EQ(v.obj.at("runs").arr.size(), 3u);
  for (const Value& run : v.obj.at("runs").arr) {
    const auto& s = run.obj;
    const std::string p = s.at("placement").str;
    EXPECT_EQ(s.at("optimizer").str, "adam");
    EXPECT_EQ(s.at("status").str, "ok");
    ASSERT_EQ(s.at("update_rms").arr.size(), 3u);
    // 1e-4: a float parameter near 1 (a norm's γ) moves by lr only to within its rounding, ~6e-8/lr.
    EXPECT_LE(s.at("update_rms").arr[0].num, 1.0 + 1e-4) << p;
    for (const Value& t : s.at("tensors").arr) {
      const std::string name = t.obj.at("name").str;
      const double r = t.obj.at("step_over_lr").arr[0].num;
      EXPECT_LE(r, 1.0 + 1e-4) << p << " " << name;
      if (name == "E" || name.find(".Wv") != std::string::npos) EXPECT_NEAR(r, 1.0, 1e-4) << p << " " << name;
      if (name.find(".bk") != std::string::npos) EXPECT_LT(r, 0.5) << p << " " << name;
    }
    const auto& f = s.at("first_step").obj;
    EXPECT_NEAR(f.at("predicted_linear").num, f.at("predicted_sign_step").num,
                1e-3 * std::fabs(f.at("predicted_sign_step").num));
    EXPECT_NEAR(f.at("loss_change").num, f.at("loss_after").num - f.at("loss_before").num, 1e-8);  // 9 digits written
    EXPECT_LT(f.at("loss_change").num, 0) << p << ": a small enough first step lowers its own batch's loss";
  }
}

// The counterfactuals, whatever the claim: with the ReZero gate (g₀ = 0) every branch weight's
// step-1 gradient is exactly 0 in every coordinate and its first step is exactly 0 under Adam and
// GI-Adam alike (m̂₁ = 0), while the gates and the embedding move; a tensor with a gradient records
// its RMS. The runs are placements × optimizers, each placement's side by side.
TEST(Experiments, AdamFirstStepReZerosBranchWeightsMoveExactlyZeroAtStepOne) {
  std::string rezero;
  for (const lnx::PlacementPreset& p : lnx::placement_presets())
    if (p.name == "rezero") rezero = p.spec;
  ASSERT_FALSE(rezero.empty());
  const Value v = run("adam-first-step",
                      R"("layers": 2, "steps": 2, "placements": ["pre", "rezero"], "optimizers": ["adam", "gi-adam"], )"
                      R"("placement_spec": )" +
                          rezero);
  const auto& runs = v.obj.at("runs").arr;
  ASSERT_EQ(runs.size(), 4u);
  const char* order[][2] = {{"pre", "adam"}, {"pre", "gi-adam"}, {"rezero", "adam"}, {"rezero", "gi-adam"}};
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(runs[i].obj.at("placement").str, order[i][0]);
    EXPECT_EQ(runs[i].obj.at("optimizer").str, order[i][1]);
    EXPECT_EQ(runs[i].obj.at("status").str, "ok");
  }
  for (size_t i : {2u, 3u}) {
    int branch = 0, moving = 0;
    for (const Value& t : runs[i].obj.at("tensors").arr) {
      const std::string name = t.obj.at("name").str;
      const bool gate = name.find(".gate") != std::string::npos;
      if (name.rfind("layer", 0) == 0 && !gate) {
        ++branch;
        EXPECT_EQ(t.obj.at("zero_grad_share1").num, 1.0) << name;
        EXPECT_EQ(t.obj.at("grad_rms1").num, 0.0) << name;
        EXPECT_EQ(t.obj.at("step_over_lr").arr[0].num, 0.0) << order[i][1] << " " << name;
      } else {
        ++moving;
        EXPECT_GT(t.obj.at("step_over_lr").arr[0].num, 0.1) << order[i][1] << " " << name;
        EXPECT_GT(t.obj.at("grad_rms1").num, 0.0) << name;
      }
    }
    EXPECT_GT(branch, 10);
    EXPECT_GE(moving, 3);  // E and the two gates
  }
  // without a gate no tensor's gradient is 0 everywhere (a ReLU unit off for the whole batch zeroes a
  // share of W1's rows' and W2's columns' coordinates, never a whole tensor's)
  for (size_t i : {0u, 1u})
    for (const Value& t : runs[i].obj.at("tensors").arr)
      EXPECT_LT(t.obj.at("zero_grad_share1").num, 1.0) << t.obj.at("name").str;
}

// GI-Adam's first step, per coordinate, through the training run the experiment observes: v₀ = g₁²,
// so v₁ = g₁² and v̂₁ = g₁²/(1 − β₂), m̂₁ = g₁, and |Δθ| = lr·|g|/(|g|/√(1 − β₂) + ε) to float precision.
TEST(Experiments, GiAdamsFirstStepIsLrTimesGOverGOverSqrtOneMinusBeta2PlusEps) {
  lnx::TrainConfig t;
  t.model.layers = 2, t.model.d = 16, t.model.d_ff = 32, t.model.vocab = 32, t.model.seq = 8, t.model.batch = 2;
  t.optimizer = "gi-adam";
  t.steps = 1, t.lr = 1e-3;
  const double beta2 = t.hyper.at("beta2"), eps = t.hyper.at("eps");
  lnx::TrainRun r(t);
  lnx::Transformer<float>& m = lnx::detail::TrainRunAccess::model(r);
  const std::vector<float> before = m.params();
  r.step(1);
  const std::vector<float>& after = m.params();
  const std::vector<float>& g = m.grads();
  size_t checked = 0;
  for (size_t j = 0; j < before.size(); ++j) {
    const double a = std::fabs(static_cast<double>(g[j]));
    const double want = t.lr * a / (a / std::sqrt(1 - beta2) + eps);
    const double got = std::fabs(static_cast<double>(after[j]) - before[j]);
    // float: the parameter's rounding (an ulp of |θ|) plus the update's own relative error
    const double ulp = std::ldexp(1.0, std::ilogb(std::max(std::fabs(before[j]), 1e-30f)) - 23);
    EXPECT_NEAR(got, want, ulp + 1e-6 * want) << j;
    checked += a > 0;
  }
  EXPECT_GT(checked, before.size() / 2);
}

// Bad input to the counterfactuals' fields is refused naming the field.
TEST(Experiments, AdamFirstStepRefusesBadOptimizersAndSpecs) {
  const auto refused = [](const std::string& cfg, const std::string& field) {
    expect_refused("adam-first-step", cfg, {field});
  };
  refused(R"({"optimizers": ["adam", "lion"]})", "optimizers");
  refused(R"({"optimizers": ["adam", "adam"]})", "optimizers");
  refused(R"({"optimizers": []})", "optimizers");
  refused(R"({"placements": ["rezero"]})", "placements");                                       // no spec defines it
  refused(R"({"placements": ["pre"], "placement_spec": {"name": "mine"}})", "placement_spec");  // a spec no run uses
  refused(R"({"optimizers": ["adam", "sgd"], "beta2": 0.9})", "beta2");  // SGD has no beta2: its runs would ignore it
  refused(
      R"({"placements": ["post", "pre", "peri", "deepnorm", "admin"], "optimizers": ["adam", "sgd", "radam", "gi-adam"]})",
      "runs");
}

// A sign step of size η → 0 leaves the loss where it was; η* is one of the grid's values; a layer's
// step changes the logits.
TEST(Experiments, StepSizeMeasuresTheLossAlongTheSignStep) {
  const Value v = run("step-size", R"("depths": [1, 3], "etas": [1e-7, 1e-3, 1e-2], "seeds": [0, 1])");
  for (const auto& [p, cells] : v.obj.at("placements").obj) {
    ASSERT_EQ(cells.arr.size(), 2u);
    for (const Value& c : cells.arr) {
      const double l0 = c.obj.at("loss0").obj.at("mean").num;
      EXPECT_NEAR(c.obj.at("loss").arr[0].obj.at("mean").num, l0, 1e-3) << p;
      const double star = c.obj.at("eta_star_of_mean").num;
      EXPECT_TRUE(star == 1e-7 || star == 1e-3 || star == 1e-2);
      EXPECT_EQ(c.obj.at("layer_dlogits2").arr.size(), static_cast<size_t>(c.obj.at("layers").num));
      for (const Value& d : c.obj.at("layer_dlogits2").arr) EXPECT_GT(d.obj.at("mean").num, 0);
    }
  }
}

// The robust readings of η*, whatever the curve: on every curve (each seed's and the seed mean's)
// eta_near_best = [lo, hi] holds the argmin and exactly the grid's η within eta_margin·loss0 of the
// lowest loss at its ends (none outside it is); eta_max_useful's loss is at least eta_min_gain·loss0
// below loss0 and no larger η's is; a gain no step reaches gives null.
TEST(Experiments, StepSizeReadsEtaStarAsARange) {
  const std::vector<double> etas = {1e-7, 1e-4, 1e-3, 3e-3, 1e-2, 3e-2, 0.1};
  for (const double margin : {0.0, 0.002, 0.02}) {
    const Value v =
        run("step-size", R"("depths": [1, 3], "etas": [1e-7, 1e-4, 1e-3, 3e-3, 1e-2, 3e-2, 0.1], "seeds": [0, 1],)"
                         R"( "eta_min_gain": 0.01, "eta_margin": )" +
                             std::to_string(margin));
    for (const auto& [p, cells] : v.obj.at("placements").obj)
      for (const Value& c : cells.arr) {
        const auto check = [&](const std::vector<double>& loss, double l0, const Value& r, const std::string& what) {
          const double lo = r.obj.at("eta_near_best").arr[0].num, hi = r.obj.at("eta_near_best").arr[1].num;
          const size_t best = std::min_element(loss.begin(), loss.end()) - loss.begin();
          EXPECT_LE(lo, etas[best]) << what;
          EXPECT_GE(hi, etas[best]) << what;
          for (size_t e = 0; e < etas.size(); ++e) {
            const bool near = loss[e] <= loss[best] + margin * l0 + 1e-7;  // the written losses carry 9 digits
            if (etas[e] == lo || etas[e] == hi) EXPECT_TRUE(near) << what << " eta " << etas[e];
            if (etas[e] < lo || etas[e] > hi)
              EXPECT_FALSE(loss[e] <= loss[best] + margin * l0 - 1e-7) << what << " eta " << etas[e];
          }
          const Value& u = r.obj.at("eta_max_useful");
          if (u.kind == Value::Kind::Null) {
            for (size_t e = 0; e < etas.size(); ++e) EXPECT_GT(loss[e], l0 - 0.01 * l0 - 1e-7) << what;
          } else {
            const size_t k = std::find(etas.begin(), etas.end(), u.num) - etas.begin();
            ASSERT_LT(k, etas.size()) << what;
            EXPECT_LE(loss[k], l0 - 0.01 * l0 + 1e-7) << what;
            for (size_t e = k + 1; e < etas.size(); ++e)
              EXPECT_GT(loss[e], l0 - 0.01 * l0 - 1e-7) << what << " eta " << etas[e];
          }
        };
        std::vector<double> mean;
        for (const Value& x : c.obj.at("loss").arr) mean.push_back(x.obj.at("mean").num);
        check(mean, c.obj.at("loss0").obj.at("mean").num, c, p + " seed mean");
        const auto& seeds = c.obj.at("per_seed").arr;
        ASSERT_EQ(seeds.size(), 2u);
        for (size_t k = 0; k < seeds.size(); ++k) {
          std::vector<double> curve;
          for (const Value& x : c.obj.at("loss").arr) curve.push_back(x.obj.at("per_seed").arr[k].num);
          check(curve, c.obj.at("loss0").obj.at("per_seed").arr[k].num, seeds[k], p + " seed " + std::to_string(k));
        }
      }
  }
  // No sign step removes the whole loss: eta_max_useful is null at a gain of 1·loss0.
  const Value none = run("step-size", R"("depths": [1], "etas": [1e-3, 1e-2], "seeds": [0], "eta_min_gain": 1)");
  for (const auto& [p, cells] : none.obj.at("placements").obj) {
    EXPECT_EQ(cells.arr[0].obj.at("eta_max_useful").kind, Value::Kind::Null) << p;
    EXPECT_EQ(cells.arr[0].obj.at("per_seed").arr[0].obj.at("eta_max_useful").kind, Value::Kind::Null) << p;
  }
  // Bad input to the new fields is refused naming the field.
  for (const char* bad : {R"({"eta_margin": -0.1})", R"({"eta_margin": 2})", R"({"eta_margin": "0.1"})"})
    expect_refused("step-size", bad, {"eta_margin"});
  for (const char* bad : {R"({"eta_min_gain": 0})", R"({"eta_min_gain": 1.5})", R"({"eta_min_gain": [0.1]})"})
    expect_refused("step-size", bad, {"eta_min_gain"});
}

// For a small random perturbation the logits move linearly: doubling δ quadruples dlogits2.
TEST(Experiments, OutputSensitivityIsQuadraticInASmallPerturbation) {
  const std::string base = R"("depths": [2, 4], "seeds": [0, 1], "placements": ["post", "pre", "deepnorm", "admin"])";
  const Value a = run("output-sensitivity", base + R"(, "perturbation": 1e-4)");
  const Value b = run("output-sensitivity", base + R"(, "perturbation": 2e-4)");
  for (const char* p : {"post", "pre", "deepnorm", "admin"}) {
    const auto& da = a.obj.at("placements").obj.at(p).obj.at("depths").arr;
    const auto& db = b.obj.at("placements").obj.at(p).obj.at("depths").arr;
    for (size_t i = 0; i < da.size(); ++i)
      EXPECT_NEAR(db[i].obj.at("dlogits2").obj.at("mean").num / da[i].obj.at("dlogits2").obj.at("mean").num, 4.0, 0.05)
          << p;
    EXPECT_TRUE(std::isfinite(a.obj.at("placements").obj.at(p).obj.at("slope").num));
  }
  const Value l = run("output-sensitivity", base + R"(, "perturb": "layers", "perturbation_kind": "sign_gradient")");
  EXPECT_EQ(l.obj.at("config").obj.at("perturb").str, "layers");
}

// The tied, √d variant is Figure 3c itself: the probe's own numbers for the same model.
TEST(Experiments, TiedOutputReproducesTheProbesDepthSweep) {
  const std::string model = R"("d": 16, "d_ff": 32, "vocab": 32, "seq": 8, "batch": 2)";
  const Value v = run("tied-output", R"("depths": [2, 3], "seeds": [0, 1], "depth_batches": 2)");
  lnx::ProbeConfig pc = lnx::probe_config_from_json(
      "{" + model + R"(, "layers": 2, "depths": [2, 3], "seeds": [0, 1], "depth_batches": 2, "batches": 1})");
  const Value probe = lnx::json::parse(lnx::run_probe_json(pc));
  ASSERT_EQ(v.obj.at("variants").arr.size(), 4u);
  const Value& tied = v.obj.at("variants").arr[0];
  EXPECT_EQ(tied.obj.at("output").str, "tied");
  EXPECT_EQ(tied.obj.at("input_scale").str, "sqrt_d");
  for (const char* p : {"post", "pre"})
    for (const Value& c : tied.obj.at("placements").obj.at(p).obj.at("depths").arr) {
      const std::string L = std::to_string(static_cast<int>(c.obj.at("layers").num));
      EXPECT_EQ(c.obj.at("W2_per_batch").obj.at("mean").num, probe.obj.at("placements")
                                                                 .obj.at(p)
                                                                 .obj.at("lastW2_vs_L")
                                                                 .obj.at(L)
                                                                 .obj.at("W2_per_batch")
                                                                 .obj.at("mean")
                                                                 .num);
      const double pc_ = c.obj.at("p_current").obj.at("mean").num;
      EXPECT_GT(pc_, 0);
      EXPECT_LT(pc_, 1);
    }
}

// Same initialisation, same fixed batch: the share at step 0 does not depend on the warm-up; every
// share is in [0, 1].
TEST(Experiments, PlateauShareIsAShareAndStartsFromTheSameModel) {
  const Value v = run("plateau-share", R"("layers": 2, "steps": 12, "every": 4, "warmups": [0, 8])");
  const auto& runs = v.obj.at("runs").arr;
  ASSERT_EQ(runs.size(), 4u);
  for (const Value& r : runs) {
    ASSERT_EQ(r.obj.at("at").arr.size(), 4u);  // 0, 4, 8, 12
    for (const Value& row : r.obj.at("share").arr) {
      ASSERT_EQ(row.arr.size(), 2u);
      for (const Value& s : row.arr) EXPECT_TRUE(s.num >= 0 && s.num <= 1) << s.num;
    }
    EXPECT_EQ(r.obj.at("loss").arr.size(), 12u);
  }
  EXPECT_EQ(runs[0].obj.at("share").arr[0].arr[0].num, runs[1].obj.at("share").arr[0].arr[0].num);
  EXPECT_NE(runs[0].obj.at("share").arr[3].arr[1].num, runs[1].obj.at("share").arr[3].arr[1].num);
}

TEST(Experiments, WarmupLengthRunsEveryCombinationAtItsOptimizersLr) {
  const Value v = run(
      "warmup-length",
      R"("layers": 1, "steps": 15, "warmups": [0, 5], "lr_factors": [1, 2], "seeds": [0], "optimizers": ["adam", "sgd"])");
  const auto& runs = v.obj.at("runs").arr;
  ASSERT_EQ(runs.size(), 2u * 2 * 2 * 2);
  for (const Value& r : runs) {
    const double f = r.obj.at("optimizer").str == "sgd" ? 0.05 : 1e-3;
    const double lr = r.obj.at("lr").num;
    EXPECT_TRUE(std::fabs(lr - f) < 1e-12 || std::fabs(lr - 2 * f) < 1e-12) << lr;
    EXPECT_EQ(r.obj.at("loss").arr.size(), 15u);
  }
  EXPECT_EQ(v.obj.at("groups").arr.size(), 16u);
  const auto& rt = v.obj.at("radam_rectification").arr;
  ASSERT_EQ(rt.size(), 15u);
  for (int t = 1; t <= 15; ++t)
    EXPECT_NEAR(rt[t - 1].num, lnx::RAdam::rectification(0.98, t), 1e-8);  // written with 9 digits
  EXPECT_EQ(rt[0].num, 0);                                                 // ρ_1 ≤ 5: no adaptive step yet
}

// The warm-up's shape reaches every run: with no warm-up the two shapes are the same runs, with
// one the cosine ramp (slower at first) gives other losses, and the document says which it used.
TEST(Experiments, WarmupLengthTakesTheWarmupShape) {
  const std::string base =
      R"("layers": 1, "steps": 6, "warmups": [0, 5], "lr_factors": [1], "seeds": [0], "optimizers": ["adam"], "placements": ["post"])";
  const Value lin = run("warmup-length", base);
  const Value cos = run("warmup-length", base + R"(, "warmup_shape": "cosine")");
  EXPECT_EQ(lin.obj.at("config").obj.at("warmup_shape").str, "linear");
  EXPECT_EQ(cos.obj.at("config").obj.at("warmup_shape").str, "cosine");
  const auto& a = lin.obj.at("runs").arr;
  const auto& b = cos.obj.at("runs").arr;
  ASSERT_EQ(a.size(), 2u);
  ASSERT_EQ(b.size(), 2u);
  for (size_t i = 0; i < 2; ++i) {
    ASSERT_EQ(a[i].obj.at("warmup").num, b[i].obj.at("warmup").num);
    const auto& la = a[i].obj.at("loss").arr;
    const auto& lb = b[i].obj.at("loss").arr;
    EXPECT_EQ(la[0].num, lb[0].num);  // step 1's loss is the init model's
    bool differ = false;
    for (size_t t = 0; t < la.size(); ++t) differ |= la[t].num != lb[t].num;
    EXPECT_EQ(differ, a[i].obj.at("warmup").num > 0) << "warm-up " << a[i].obj.at("warmup").num;
  }
}

TEST(Experiments, EscapeStepIsTheFirstWindowBelowThePlateau) {
  std::vector<double> flat(30, 5.0), drop(30, 5.0);
  for (size_t t = 12; t < 30; ++t) drop[t] = 3.0;
  EXPECT_EQ(lnx::exp::escape_step(flat, 5.0), 0);
  // The 10-step mean is 5 − 2·k/10 after k low steps; below 4.5 from k = 3, i.e. step 15.
  EXPECT_EQ(lnx::exp::escape_step(drop, 5.0), 15);
  EXPECT_NEAR(lnx::exp::log_log_slope({1, 2, 4}, {3, 6, 12}), 1.0, 1e-12);
  EXPECT_TRUE(std::isnan(lnx::exp::log_log_slope({1}, {1})));
}

}  // namespace

namespace {

// The backward tap reports the true gradients: with an untied output and no input scale, the
// embedding's gradient is the scatter of the gradient at the first sublayer's input (x0 = E[tok]),
// so the tap's dx of layer 1's attention summed into rows must equal grads() of E; and a tap
// changes no number.
TEST(BackwardTap, ReportsTheGradientAtTheModelsInput) {
  lnx::ModelConfig mc;
  mc.layers = 3, mc.d = 8, mc.d_ff = 16, mc.vocab = 11, mc.seq = 5, mc.batch = 2;
  mc.output = lnx::OutputLayer::Untied;
  mc.input_scale = lnx::InputScale::None;
  for (const char* placement : {"post", "pre", "peri"}) {
    mc.placement = placement;
    lnx::Transformer<double> a(mc, 3), b(mc, 3);
    const int N = mc.batch * mc.seq;
    std::vector<int> tok(N), tg(N);
    for (int r = 0; r < N; ++r) tok[r] = (3 * r + 1) % mc.vocab, tg[r] = (5 * r + 2) % mc.vocab;
    std::vector<double> dx0;
    int calls = 0;
    b.set_backward_tap([&](int l, int k, const double* dout, const double* ds, const double* dx) {
      ++calls;
      EXPECT_TRUE(dout && ds && dx);
      if (l == 0 && k == 0) dx0.assign(dx, dx + static_cast<size_t>(N) * mc.d);
    });
    for (auto* m : {&a, &b}) {
      m->zero_grad();
      m->forward(tok.data(), tg.data());
      m->backward(lnx::GradScope::All);
    }
    EXPECT_EQ(calls, 2 * mc.layers) << placement;
    EXPECT_EQ(a.grads(), b.grads()) << placement << ": the tap changed a gradient";
    std::vector<double> scattered(static_cast<size_t>(mc.vocab) * mc.d, 0.0);
    for (int r = 0; r < N; ++r)
      for (int c = 0; c < mc.d; ++c)
        scattered[static_cast<size_t>(tok[r]) * mc.d + c] += dx0[static_cast<size_t>(r) * mc.d + c];
    const lnx::TensorRef& E = b.embedding();
    for (size_t i = 0; i < scattered.size(); ++i)
      EXPECT_NEAR(b.grads()[E.off + i], scattered[i], 1e-12) << placement << " " << i;
  }
}

// depth-factors: Figure 3a at L is the probe's own document for the same model; where no norm
// follows the add (Pre-LN) the norm's factor is exactly 1; every factor is positive and finite.
TEST(Experiments, DepthFactorsReproducesTheProbeAndSeparatesTheFactors) {
  const std::string model = R"("d": 16, "d_ff": 32, "vocab": 32, "seq": 8, "batch": 2, "layers": 3)";
  const Value v = run("depth-factors", R"("layers": 3, "seeds": [0, 1], "batches": 2)");
  const lnx::ProbeConfig pc = lnx::probe_config_from_json(
      "{" + model + R"(, "seeds": [0, 1], "batches": 2, "depth_batches": 1, "depths": [3]})");
  const Value probe = lnx::json::parse(lnx::run_probe_json(pc));
  EXPECT_EQ(v.obj.at("layers").num, 3);
  for (const char* p : {"post", "pre"}) {
    const auto& got = v.obj.at("placements").obj.at(p).obj;
    const auto& want = probe.obj.at("placements").obj.at(p).obj;
    for (const char* stat : {"W2_per_batch", "W2_per_layer"})
      for (size_t l = 0; l < 3; ++l)
        EXPECT_EQ(got.at(stat).obj.at("mean").arr[l].num, want.at(stat).obj.at("mean").arr[l].num) << p << " " << stat;
    const auto& factors = got.at("factors").arr;
    ASSERT_EQ(factors.size(), 3u);
    for (const Value& f : factors)
      for (const char* k : {"attention", "ffn"}) {
        const auto& sub = f.obj.at(k).obj;
        for (const char* which : {"norm_factor", "residual_factor", "factor"}) {
          const double x = sub.at(which).obj.at("mean").num;
          EXPECT_TRUE(std::isfinite(x) && x > 0) << p << " " << k << " " << which << " " << x;
        }
        if (std::string(p) == "pre") EXPECT_EQ(sub.at("norm_factor").obj.at("mean").num, 1.0);
      }
    // Appendix F's curve ends at the measured last layer and falls by √(2/3) a layer below it
    const auto& af = got.at("appendix_f_W2_per_batch").arr;
    EXPECT_EQ(af[2].num, got.at("W2_per_batch").obj.at("mean").arr[2].num);
    EXPECT_NEAR(af[1].num / af[2].num, std::sqrt(2.0 / 3.0), 1e-8);  // JSON keeps 9 digits
  }
}

}  // namespace

namespace {

std::vector<double> normal_vector(size_t n, uint64_t seed) {
  lnx::Rng rng(seed);
  std::vector<double> x(n);
  for (double& a : x) a = rng.normal();
  return x;
}

// H = Q·diag(eig)·Qᵀ with a random orthogonal Q; its products, exact.
lnx::exp::Hvp quadratic(const std::vector<double>& eig, uint64_t seed) {
  const int n = static_cast<int>(eig.size());
  Eigen::MatrixXd g(n, n);
  lnx::Rng rng(seed);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) g(i, j) = rng.normal();
  const Eigen::MatrixXd q = Eigen::HouseholderQR<Eigen::MatrixXd>(g).householderQ();
  const Eigen::VectorXd d = Eigen::Map<const Eigen::VectorXd>(eig.data(), n);
  const Eigen::MatrixXd h = q * d.asDiagonal() * q.transpose();
  return [h](const std::vector<double>& v, std::vector<double>& hv) {
    hv.resize(v.size());
    Eigen::Map<Eigen::VectorXd>(hv.data(), hv.size()) = h * Eigen::Map<const Eigen::VectorXd>(v.data(), v.size());
  };
}

// On a quadratic with known eigenvalues the estimate is the top one (the largest, not the largest in
// magnitude: the spectra with a dominant negative eigenvalue are the case power iteration gets wrong),
// within the stopping tolerance; with P = I (s = 1) it is λ_max(H) itself.
TEST(Sharpness, TheEstimateRecoversTheTopEigenvalueOfAKnownQuadratic) {
  const size_t n = 60;
  const std::vector<double> ones(n, 1.0);
  struct Case {
    double top, second, bottom;
  };
  for (const Case& c : {Case{10, 3, -1}, Case{3, 1, -40}, Case{5, 4.5, -20}, Case{-2, -3, -50}}) {
    std::vector<double> eig(n);
    eig[0] = c.top, eig[1] = c.second, eig[n - 1] = c.bottom;
    for (size_t i = 2; i + 1 < n; ++i) eig[i] = c.bottom + (c.second - c.bottom) * (i - 1.0) / (n - 2);  // inside
    int products = 0;
    const double got = lnx::exp::top_eigenvalue(quadratic(eig, 3), ones, normal_vector(n, 4), 200, 1e-8, &products);
    EXPECT_NEAR(got, c.top, 1e-6 * std::fabs(c.top)) << c.top << " " << c.second << " " << c.bottom;
    EXPECT_LE(products, 60) << "Lanczos on " << n << " dimensions ends by n products (in exact arithmetic)";
  }
}

// λ_max(P⁻¹H) for a diagonal P, on a quadratic whose H is diagonal, is max_i h_i/p_i; and P = I
// reduces to plain λ_max(H).
TEST(Sharpness, ThePreconditionedEstimateIsTheTopEigenvalueOfPInverseH) {
  const std::vector<double> h = {4, 1, -30, 0.5, 2};
  const std::vector<double> p = {2, 0.01, 1, 0.1, 8};  // P⁻¹H: 2, 100, -30, 5, 0.25
  const lnx::exp::Hvp hvp = [&](const std::vector<double>& v, std::vector<double>& hv) {
    hv.resize(v.size());
    for (size_t i = 0; i < v.size(); ++i) hv[i] = h[i] * v[i];
  };
  std::vector<double> s(5), ones(5, 1.0);
  for (size_t i = 0; i < 5; ++i) s[i] = 1 / std::sqrt(p[i]);
  EXPECT_NEAR(lnx::exp::top_eigenvalue(hvp, s, normal_vector(5, 1), 50, 1e-10, nullptr), 100, 1e-8);
  EXPECT_NEAR(lnx::exp::top_eigenvalue(hvp, ones, normal_vector(5, 1), 50, 1e-10, nullptr), 4, 1e-9);
}

// On a real (tiny) Transformer: the estimate from directional central differences of the gradient,
// as the experiment takes them, equals the top eigenvalue of S·H·S computed from the full Hessian
// (column by column, symmetrised, Eigen's solver), with P = I and with a random diagonal P.
TEST(Sharpness, OnATinyTransformerTheEstimateIsTheFullHessiansTopEigenvalue) {
  lnx::ModelConfig mc{1, 4, 8, 5, 3, 2, "post", lnx::Attention::Causal};
  lnx::Transformer<double> m(mc, 2);
  const size_t n = m.params().size();
  std::vector<int> in(mc.batch * mc.seq), tg(in.size());
  lnx::Rng rng(8);
  for (size_t i = 0; i < in.size(); ++i)
    in[i] = static_cast<int>(rng.below(mc.vocab)), tg[i] = static_cast<int>(rng.below(mc.vocab));
  for (double& x : m.params()) x += 0.2 * rng.normal();  // away from the init's symmetries (γ = 1, β = 0)
  const std::vector<double> theta = m.params();
  auto grad = [&](const std::vector<double>& x) {
    m.params() = x;
    m.forward(in.data(), tg.data());
    m.zero_grad();
    m.backward(lnx::GradScope::All);
    return m.grads();
  };
  const double h = 1e-6;
  Eigen::MatrixXd H(n, n);
  for (size_t j = 0; j < n; ++j) {
    std::vector<double> a = theta, b = theta;
    a[j] += h, b[j] -= h;
    const auto ga = grad(a), gb = grad(b);
    for (size_t i = 0; i < n; ++i) H(i, j) = (ga[i] - gb[i]) / (2 * h);
  }
  H = 0.5 * (H + H.transpose()).eval();
  const lnx::exp::Hvp directional = [&](const std::vector<double>& v, std::vector<double>& hv) {
    double nv = 0;
    for (double x : v) nv += x * x;
    nv = std::sqrt(nv);
    std::vector<double> a = theta, b = theta;
    for (size_t i = 0; i < n; ++i) a[i] += h * v[i] / nv, b[i] -= h * v[i] / nv;
    const auto ga = grad(a), gb = grad(b);
    hv.resize(n);
    for (size_t i = 0; i < n; ++i) hv[i] = (ga[i] - gb[i]) * nv / (2 * h);
  };
  std::vector<double> ones(n, 1.0), s(n);
  for (double& x : s) x = std::exp(rng.normal());  // P^{-1/2} spread over a few e-folds
  for (const auto* sv : {&ones, &s}) {
    const Eigen::VectorXd d = Eigen::Map<const Eigen::VectorXd>(sv->data(), n);
    const Eigen::MatrixXd A = d.asDiagonal() * H * d.asDiagonal();
    const double want = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(A).eigenvalues()(n - 1);
    const double got = lnx::exp::top_eigenvalue(directional, *sv, normal_vector(n, 9), 300, 1e-9, nullptr);
    EXPECT_NEAR(got, want, 1e-5 * std::fabs(want)) << (sv == &ones ? "P = I" : "random P");
  }
}

// The experiment: one document per run, measured at step 1 and every `every` steps, the threshold
// that of Adam at the step's lr, and at step 1 (the same θ₀ and batch for both) GI-Adam's estimate is
// Adam's divided by a factor in [1, 1/√(1−β2)]: its P_ii = (1−β1)(|g_i|/√(1−β2) + ε) is Adam's
// (1−β1)(|g_i| + ε) times a factor in that range, which bounds λ_max(P⁻¹H)'s change when positive.
TEST(Sharpness, MeasuresEveryRunAtItsStepsAgainstTheThreshold) {
  const Value v =
      run("sharpness",
          R"("layers": 2, "steps": 12, "every": 5, "warmups": [0, 6], "seeds": [3], "placements": ["post", "pre"])");
  const auto& runs = v.obj.at("runs").arr;
  ASSERT_EQ(runs.size(), 2u * 2 * 2);
  const lnx::Hyperparameters hp = lnx::default_hyperparameters();
  for (const Value& r : runs) {
    ASSERT_EQ(r.obj.at("status").str, "ok");
    const auto& steps = r.obj.at("steps").arr;
    ASSERT_EQ(steps.size(), 3u);
    EXPECT_EQ(steps[0].num, 1);
    EXPECT_EQ(steps[1].num, 5);
    EXPECT_EQ(steps[2].num, 10);
    EXPECT_EQ(r.obj.at("loss").arr.size(), 12u);
    const int w = static_cast<int>(r.obj.at("warmup").num);
    for (size_t i = 0; i < steps.size(); ++i) {
      const double t = steps[i].num, lr = w > 0 && t <= w ? 1e-3 * t / w : 1e-3;
      EXPECT_NEAR(r.obj.at("lr").arr[i].num, lr, 1e-12);
      EXPECT_NEAR(r.obj.at("threshold").arr[i].num, lnx::Adam::stability_threshold(hp, lr),
                  1e-6 * lnx::Adam::stability_threshold(hp, lr));
      EXPECT_TRUE(std::isfinite(r.obj.at("sharpness").arr[i].num));
      EXPECT_GE(r.obj.at("iterations").arr[i].num, 1);
    }
  }
  auto find = [&](const std::string& p, const std::string& o, int w) -> const Value& {
    for (const Value& r : runs)
      if (r.obj.at("placement").str == p && r.obj.at("optimizer").str == o && r.obj.at("warmup").num == w) return r;
    throw std::runtime_error("no run");
  };
  for (const char* p : {"post", "pre"}) {
    const double adam = find(p, "adam", 0).obj.at("sharpness").arr[0].num,
                 gi = find(p, "gi-adam", 0).obj.at("sharpness").arr[0].num;
    ASSERT_GT(adam, 0) << p;
    EXPECT_GE(adam / gi, 1 - 1e-2) << p;  // within the estimates' tolerance (lanczos_tol)
    EXPECT_LE(adam / gi, 1 / std::sqrt(1 - 0.98) * (1 + 1e-2)) << p;
    // the warm-up changes the lr, not step 1's point or state: the same estimate
    EXPECT_NEAR(find(p, "adam", 6).obj.at("sharpness").arr[0].num, adam, 1e-9 * adam) << p;
  }
}

// An estimate that misses its tolerance (here forced by a step h = 0.3, far into the nonlinear
// regime) is done again at h/10, then h/100: the document gives the step each estimate used, and an
// estimate at a smaller step counts the products of its earlier, unconverged attempts too.
TEST(Sharpness, AnUnconvergedEstimateIsRetriedWithASmallerStep) {
  const Value v = run(
      "sharpness",
      R"("layers": 2, "steps": 6, "every": 3, "warmups": [0, 3], "seeds": [0], "placements": ["post"], "fd_step": 0.3, "lanczos_steps": 30)");
  int retried = 0;
  for (const Value& r : v.obj.at("runs").arr) {
    const auto& h = r.obj.at("fd_step").arr;
    ASSERT_EQ(h.size(), r.obj.at("steps").arr.size());
    for (size_t i = 0; i < h.size(); ++i) {
      const double k = std::round(std::log10(0.3 / h[i].num));
      EXPECT_TRUE(k >= 0 && k <= 2 && std::fabs(h[i].num - 0.3 / std::pow(10, k)) < 1e-12) << h[i].num;
      if (k > 0) {
        ++retried;
        EXPECT_GT(r.obj.at("iterations").arr[i].num, 30 * k) << "the earlier attempts' products are counted";
      } else {
        EXPECT_LE(r.obj.at("iterations").arr[i].num, 30);
        EXPECT_EQ(r.obj.at("converged").arr[i].num, 1) << "an unconverged estimate at the first step is retried";
      }
    }
  }
  EXPECT_GT(retried, 0) << "h = 0.3 should leave some estimate unconverged (the retry path is exercised)";
}

// Only the optimizers that state a preconditioner are offered; the message names the field.
TEST(Sharpness, RefusesAnOptimizerWithoutAPreconditioner) {
  expect_refused("sharpness", R"({"optimizers": ["adam", "sgd"]})", {"optimizers", "gi-adam"});
}

}  // namespace

// ---- real-text ----
// One grid per language on its text: every run's validation losses at eval_every and the last step;
// each group's escape step is measure.h's on its seed-mean training curve, below the text's unigram
// entropy; a language whose text is not loaded is refused before any run, naming text_lang.
TEST(Experiments, RealTextRunsAGridPerLanguageOnItsText) {
  std::string text;
  lnx::Rng rng(5);
  for (int i = 0; i < 3000; ++i) text += static_cast<char>('a' + rng.below(i % 2 ? 4 : 20));
  lnx::set_text_corpus("en", text);
  const std::string cfg =
      R"({"layers": 1, "d": 16, "d_ff": 32, "seq": 8, "batch": 2, "steps": 30, "eval_every": 10, "lr": 0.01,
                              "langs": ["en"], "placements": ["post", "pre"], "warmups": [0, 10], "seeds": [0, 1]})";
  lnx::ExperimentRun r("real-text", cfg);
  while (!r.done()) r.step(1);
  const Value v = lnx::json::parse(r.result_json());
  const double plateau = lnx::TextData({{"en", text}}, 8).unigram_entropy();
  ASSERT_EQ(v.obj.at("texts").arr.size(), 1u);
  EXPECT_NEAR(v.obj.at("texts").arr[0].obj.at("unigram_entropy").num, plateau, 1e-6);
  EXPECT_EQ(v.obj.at("texts").arr[0].obj.at("parts").arr[0].obj.at("bytes").num, 3000);
  const auto& runs = v.obj.at("runs").arr;
  ASSERT_EQ(runs.size(), 8u);
  for (const Value& run : runs) {
    EXPECT_EQ(run.obj.at("lang").str, "en");
    ASSERT_EQ(run.obj.at("val_step").arr.size(), 3u);
    EXPECT_EQ(run.obj.at("val_step").arr[2].num, 30);
    EXPECT_EQ(run.obj.at("loss").arr.size(), 30u);
  }
  const auto& groups = v.obj.at("groups").arr;
  ASSERT_EQ(groups.size(), 4u);
  for (size_t g = 0; g < groups.size(); ++g) {
    std::vector<double> mean(30, 0.0);
    double val = 0;
    for (size_t k = 0; k < 2; ++k) {  // a group's seeds are consecutive runs
      const Value& run = runs[2 * g + k];
      for (size_t t = 0; t < 30; ++t) mean[t] += run.obj.at("loss").arr[t].num / 2;
      val += run.obj.at("val_loss").arr.back().num / 2;
    }
    const int e = lnx::exp::escape_step(mean, plateau);
    const Value& esc = groups[g].obj.at("escape_step");
    if (e > 0) EXPECT_EQ(esc.num, e) << g;
    else EXPECT_EQ(esc.kind, Value::Kind::Null) << g;
    EXPECT_NEAR(groups[g].obj.at("final_val").num, val, 1e-6) << g;
  }
  lnx::forget_text_corpora();
  expect_refused("real-text", R"({"langs": ["zh"]})", {"text_lang = zh"});  // a language without its text
}

namespace {

// A document's text with every number to the last bit (for bit-for-bit comparisons).
std::string dump(const Value& v) {
  char buf[32];
  switch (v.kind) {
    case Value::Kind::Null:
      return "null";
    case Value::Kind::Bool:
      return v.b ? "true" : "false";
    case Value::Kind::Number:
      std::snprintf(buf, sizeof buf, "%.17g", v.num);
      return buf;
    case Value::Kind::String:
      return '"' + v.str + '"';
    case Value::Kind::Array: {
      std::string out = "[";
      for (const Value& x : v.arr) out += dump(x) + ",";
      return out + "]";
    }
    case Value::Kind::Object: {
      std::string out = "{";
      for (const auto& [k, x] : v.obj) out += k + ":" + dump(x) + ",";
      return out + "}";
    }
  }
  return "";
}

// The numbers of one placement in an init-profile document: the probe's and the sensitivity's.
std::string init_profile_numbers(const Value& v, const std::string& placement) {
  const Value probe = v.obj.at("probe").obj.at("placements").obj.at(placement);
  const Value sens = v.obj.at("sensitivity").obj.at(placement);
  return dump(probe) + "|" + dump(sens);
}

}  // namespace

// A registered placement written as a spec (under another name) gives that placement's numbers bit
// for bit, in the probe and in the sensitivity: the composer's presets draw what the figures draw.
TEST(InitProfile, ARegisteredPlacementAsASpecGivesItsNumbersBitForBit) {
  for (const std::string& name : lnx::placement_names()) {
    const std::string spec = lnx::placement_spec_json(lnx::placement(name), "mine");
    const Value v =
        run("init-profile", R"("layers": 3, "depths": [1, 3], "seeds": [0, 1], "batches": 2, "depth_batches": 2, )"
                            R"("placements": [")" +
                                name + R"(", "mine"], "placement_spec": )" + spec);
    EXPECT_EQ(init_profile_numbers(v, name), init_profile_numbers(v, "mine")) << name;
  }
}

// Its probe is the probe (Figures 2–3) and its sensitivity is output-sensitivity's, at the same setting.
TEST(InitProfile, MeasuresWhatTheProbeAndOutputSensitivityMeasure) {
  const std::string model = std::string("{") + kTiny + R"(, "layers": 3, "attention": "causal")";
  const Value v = run(
      "init-profile",
      R"("layers": 3, "depths": [1, 2], "seeds": [0, 1], "batches": 2, "depth_batches": 3, "placements": ["post", "pre"])");
  const Value probe = lnx::json::parse(lnx::run_probe_json(lnx::probe_config_from_json(
      model +
      R"(, "depths": [1, 2], "seeds": [0, 1], "batches": 2, "depth_batches": 3, "placements": ["post", "pre"]})")));
  const Value sens = run("output-sensitivity", R"("depths": [1, 2], "seeds": [0, 1], "placements": ["post", "pre"])");
  for (const char* p : {"post", "pre"}) {
    EXPECT_EQ(dump(v.obj.at("probe").obj.at("placements").obj.at(p)), dump(probe.obj.at("placements").obj.at(p))) << p;
    const Value& a = v.obj.at("sensitivity").obj.at(p).obj.at("depths");
    const Value& b = sens.obj.at("placements").obj.at(p).obj.at("depths");
    ASSERT_EQ(a.arr.size(), 2u);
    for (size_t i = 0; i < 2; ++i) EXPECT_EQ(dump(a.arr[i]), dump(b.arr[i])) << p;
  }
}

// At its default (the composer's) size it shows Figure 3c's reference: Pre-LN's last-layer gradient
// falls with depth at init, Post-LN's falls less (or grows), and Post-LN's output is the more
// sensitive at the deepest depth.
TEST(InitProfile, AtTheComposersSizePreLnsLastLayerGradientFallsWithDepth) {
  lnx::ExperimentRun r("init-profile", "{}");
  while (!r.done()) r.step(64);
  const Value v = lnx::json::parse(r.result_json());
  auto last = [&](const char* p, const char* L) {
    return v.obj.at("probe")
        .obj.at("placements")
        .obj.at(p)
        .obj.at("lastW2_vs_L")
        .obj.at(L)
        .obj.at("W2_per_layer")
        .obj.at("mean")
        .num;
  };
  EXPECT_LT(last("pre", "16"), last("pre", "2"));
  EXPECT_GT(last("post", "16") / last("post", "2"), last("pre", "16") / last("pre", "2"));
  auto sens = [&](const char* p) {
    return v.obj.at("sensitivity").obj.at(p).obj.at("depths").arr.back().obj.at("dlogits2").obj.at("mean").num;
  };
  EXPECT_GT(sens("post"), sens("pre"));
}

// A bad spec is refused naming its key; a spec no placement of the list names is refused too.
TEST(InitProfile, BadSpecsAreRefusedNamingTheField) {
  auto message = [](const std::string& config) {
    try {
      lnx::ExperimentRun r("init-profile", config);
    } catch (const lnx::ArgumentError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_NE(
      message(
          R"({"placements": ["c"], "placement_spec": {"name": "c", "residual_scale": {"kind": "completep", "a": 0}}})")
          .find("placement_spec.residual_scale.a"),
      std::string::npos);
  EXPECT_NE(message(R"({"placements": ["c"], "placement_spec": {"name": "c", "norm": "batchnorm"}})")
                .find("placement_spec.norm"),
            std::string::npos);
  EXPECT_NE(message(R"({"placements": ["c"], "placement_spec": {"name": "c", "final_norm": 1}})")
                .find("placement_spec.final_norm"),
            std::string::npos);
  EXPECT_NE(message(R"({"placements": ["post"], "placement_spec": {"name": "c"}})").find("placement_spec"),
            std::string::npos);
  EXPECT_NE(message(R"({"placements": ["post"], "placement_spec": ")" + std::string(1000000, 'x') + "\"}")
                .find("placement_spec"),
            std::string::npos);
}

// ---- phase-diagram ----
namespace {
// The tiny toy over post and pre at depths 1 and 2: lr 1e-7 cannot move the model, 10 blows it up,
// 1e-2 trains it (it leaves the plateau at steps 48–69). Runs of at most 100 steps: their curves are
// their losses (to 4 decimals).
const char* kPhase =
    R"("placements": ["post", "pre"], "depths": [1, 2], "lrs": [1e-7, 1e-2, 10], "warmups": [0], "seeds": [0], "steps": 100, "settle": 20)";

const Value& cell_of(const Value& doc, const std::string& placement, int layers, double lr) {
  for (const Value& c : doc.obj.at("cells").arr)
    if (c.obj.at("placement").str == placement && c.obj.at("layers").num == layers && c.obj.at("lr").num == lr)
      return c;
  throw std::runtime_error("no such cell");
}
std::vector<double> curve_of(const Value& run) {
  std::vector<double> out;
  for (const Value& x : run.obj.at("curve").arr) out.push_back(x.num);
  return out;
}
}  // namespace

// The stated rule, whatever the claims: a run whose lr cannot move the model stays on the plateau
// (or above it) to its last step; an absurd lr is stopped by the trainer (diverged); a run that
// leaves the plateau is trained, and with early exit it stops `settle` steps after its escape step.
TEST(Experiments, PhaseDiagramClassifiesTinyAbsurdAndWorkingLrs) {
  const Value v = run("phase-diagram", kPhase);
  EXPECT_EQ(v.obj.at("cells").arr.size(), 2u * 2 * 3);
  EXPECT_NEAR(v.obj.at("divergence_loss").num, 4 * std::log(32.0), 1e-6);
  EXPECT_NEAR(v.obj.at("uniform_loss").num, std::log(32.0), 1e-6);
  EXPECT_EQ(v.obj.at("escape").obj.at("margin").num, 0.5);
  for (const char* p : {"post", "pre"})
    for (int L : {1, 2}) {
      const Value& tiny = cell_of(v, p, L, 1e-7);
      EXPECT_EQ(tiny.obj.at("outcome").str, "plateau") << p << L;
      EXPECT_EQ(tiny.obj.at("runs").arr[0].obj.at("stopped").str, "end");
      EXPECT_EQ(tiny.obj.at("runs").arr[0].obj.at("stop_step").num, 100);
      EXPECT_TRUE(tiny.obj.at("escape_step").kind == Value::Kind::Null);
      const Value& absurd = cell_of(v, p, L, 10);
      EXPECT_EQ(absurd.obj.at("outcome").str, "diverged") << p << L;
      const std::string why = absurd.obj.at("runs").arr[0].obj.at("stopped").str;
      EXPECT_TRUE(why == "diverged" || why == "nan") << why;
      EXPECT_TRUE(absurd.obj.at("final_loss").kind == Value::Kind::Null);  // the cell's mean leaves diverged runs out
      const Value& ok = cell_of(v, p, L, 1e-2);
      const Value& r = ok.obj.at("runs").arr[0];
      EXPECT_EQ(ok.obj.at("outcome").str, "trained") << p << L;
      EXPECT_EQ(r.obj.at("stopped").str, "settled");
      EXPECT_EQ(r.obj.at("stop_step").num, r.obj.at("escape_step").num + 20);
      EXPECT_EQ(ok.obj.at("escape_step").num, r.obj.at("escape_step").num);
      EXPECT_LT(r.obj.at("final_loss").num, v.obj.at("plateau_entropy").num - 0.5);
      // the escape step is measure.h's on the run's losses (a short run's curve is its losses)
      const std::vector<double> loss = curve_of(r);
      ASSERT_EQ(loss.size(), static_cast<size_t>(r.obj.at("stop_step").num));
      EXPECT_EQ(lnx::exp::escape_step(loss, v.obj.at("plateau_entropy").num), r.obj.at("escape_step").num);
    }
}

// Early exit stops a run once its outcome is settled and changes nothing else: on every cell above
// the full runs (early_exit off) have the same outcome and escape step, and the early run's losses
// are the first steps of the full run's, bit for bit.
TEST(Experiments, PhaseDiagramEarlyExitGivesTheFullRunsOutcome) {
  const Value early = run("phase-diagram", kPhase);
  const Value full = run("phase-diagram", std::string(kPhase) + R"(, "early_exit": "off")");
  const auto& a = early.obj.at("cells").arr;
  const auto& b = full.obj.at("cells").arr;
  ASSERT_EQ(a.size(), b.size());
  int settled = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].obj.at("outcome").str, b[i].obj.at("outcome").str) << i;
    const Value &ra = a[i].obj.at("runs").arr[0], &rb = b[i].obj.at("runs").arr[0];
    EXPECT_EQ(ra.obj.at("escape_step").num, rb.obj.at("escape_step").num) << i;
    EXPECT_NE(rb.obj.at("stopped").str, "settled");
    settled += ra.obj.at("stopped").str == "settled";
    const std::vector<double> ca = curve_of(ra), cb = curve_of(rb);
    ASSERT_LE(ca.size(), cb.size());
    for (size_t t = 0; t < ca.size(); ++t) EXPECT_EQ(ca[t], cb[t]) << i << " step " << t + 1;
  }
  EXPECT_EQ(settled, 4);  // the trained cells stopped early
}

// Each run draws everything from its own seed, so the document does not depend on how many runs
// advance at once (the pool's size), and a cell's seeds are each a run of their own.
TEST(Experiments, PhaseDiagramIsTheSameForAnyThreadCount) {
  const std::string cfg =
      R"("placements": ["post", "pre"], "depths": [2, 1], "lrs": [1e-2, 3e-3], "warmups": [0, 10], "seeds": [0, 1], "steps": 60)";
  std::string cells[3];
  for (int k = 0; k < 3; ++k) {
    lnx::set_threads(k + 1);
    const Value v = run("phase-diagram", cfg);
    std::string s;
    for (const Value& c : v.obj.at("cells").arr)
      for (const Value& r : c.obj.at("runs").arr)
        for (const Value& x : r.obj.at("curve").arr) s += std::to_string(x.num) + ",";
    cells[k] = s;
    const Value& c0 = v.obj.at("cells").arr[0];
    EXPECT_EQ(c0.obj.at("runs").arr.size(), 2u);
    EXPECT_NE(curve_of(c0.obj.at("runs").arr[0]), curve_of(c0.obj.at("runs").arr[1]));  // two seeds, two runs
  }
  lnx::set_threads(1);
  EXPECT_EQ(cells[0], cells[1]);
  EXPECT_EQ(cells[0], cells[2]);
}

// A cell's outcome is its seeds' majority, 'mixed' when none has more than half; the curve has at
// most 100 points, each the mean of `every` losses.
TEST(Experiments, PhaseDiagramCellsAndCurves) {
  const Value v =
      run("phase-diagram",
          R"("placements": ["pre"], "depths": [1], "lrs": [1e-7], "warmups": [0], "seeds": [0, 1, 2], "steps": 450)");
  const Value& c = v.obj.at("cells").arr.at(0);
  EXPECT_EQ(c.obj.at("outcome").str, "plateau");
  EXPECT_EQ(c.obj.at("counts").obj.at("plateau").num, 3);
  for (const Value& r : c.obj.at("runs").arr) {
    EXPECT_EQ(r.obj.at("every").num, 5);  // ⌈450 / 100⌉
    EXPECT_EQ(r.obj.at("curve").arr.size(), 90u);
  }
  // whatever each seed does, the cell's outcome is the majority of its runs' outcomes
  // (near the edges: at lr 1e-2 escapes come at steps 45–57, at 0.7 some seeds diverge)
  const Value m = run(
      "phase-diagram",
      R"("placements": ["post", "pre"], "depths": [1, 2], "lrs": [1e-2, 0.7], "warmups": [0], "seeds": [0, 1], "steps": 60, "settle": 1)");
  int mixed = 0;
  for (const Value& mc : m.obj.at("cells").arr) {
    std::map<std::string, int> n;
    for (const Value& r : mc.obj.at("runs").arr) ++n[r.obj.at("outcome").str];
    std::string want = "mixed";
    for (const auto& [o, k] : n)
      if (2 * k > 2) want = o;
    EXPECT_EQ(mc.obj.at("outcome").str, want);
    for (const char* o : {"trained", "plateau", "diverged"}) EXPECT_EQ(mc.obj.at("counts").obj.at(o).num, n[o]) << o;
    mixed += want == "mixed";
  }
  EXPECT_GT(mixed, 0) << "no cell of this setting had its seeds disagree: the majority rule went untried";
}

// Progress is the share of the work done, each step weighted by its run's depth: runs of depths 1
// and 2, 10 steps each (30 units of work), one at a time on one thread; a run that stops early
// counts its skipped steps as done.
TEST(Experiments, PhaseDiagramProgressIsTheWorkDone) {
  lnx::set_threads(1);
  lnx::ExperimentRun r(
      "phase-diagram",
      std::string("{") + kTiny +
          R"(, "placements": ["post"], "depths": [2, 1], "lrs": [1e-7], "warmups": [0], "seeds": [0], "steps": 10})");
  std::vector<double> p;
  while (!r.done()) p.push_back(r.step(1));
  ASSERT_EQ(p.size(), 20u);
  EXPECT_NEAR(p[4], 5.0 / 30, 1e-12);    // the depth-1 run first (by depth), half way
  EXPECT_NEAR(p[9], 10.0 / 30, 1e-12);   // it has ended
  EXPECT_NEAR(p[14], 20.0 / 30, 1e-12);  // the depth-2 run half way
  EXPECT_EQ(p.back(), 1.0);
  lnx::ExperimentRun e(
      "phase-diagram",
      std::string("{") + kTiny +
          R"(, "placements": ["pre"], "depths": [1], "lrs": [10], "warmups": [0], "seeds": [0], "steps": 10})");
  EXPECT_EQ(e.step(1), 0.1);    // step 1: a tenth
  while (!e.done()) e.step(1);  // lr 10 diverges within a few steps: the rest is skipped, and done
  EXPECT_EQ(e.progress(), 1.0);
}

// A spec's placement beside registered ones (`lnx exp phase-diagram --placement-spec F --placements
// pre,F's name`): only the spec's runs carry the spec, so the registered placements' cells are those
// of a diagram without it, and a registered placement written as a spec gives its cells bit for bit.
TEST(Experiments, PhaseDiagramRunsASpecBesideRegisteredPlacements) {
  const std::string sweep =
      R"("depths": [1, 2], "lrs": [1e-2, 10], "warmups": [0, 10], "seeds": [0], "steps": 40, "settle": 5)";
  const auto cells_of = [](const Value& v, const std::string& placement) {
    std::string out;
    for (const Value& c : v.obj.at("cells").arr)
      if (c.obj.at("placement").str == placement) {
        Value copy = c;
        copy.obj.erase("placement");
        out += dump(copy) + "\n";
      }
    return out;
  };
  const Value plain = run("phase-diagram", sweep + R"(, "placements": ["post", "pre"])");
  const std::string spec = lnx::placement_spec_json(lnx::placement("pre"), "mine");
  const Value v = run("phase-diagram", sweep + R"(, "placements": ["post", "pre", "mine"], "placement_spec": )" + spec);
  EXPECT_EQ(v.obj.at("cells").arr.size(), 3u * 2 * 2 * 2);
  EXPECT_FALSE(cells_of(v, "mine").empty());
  EXPECT_EQ(cells_of(v, "post"), cells_of(plain, "post"));
  EXPECT_EQ(cells_of(v, "pre"), cells_of(plain, "pre"));
  EXPECT_EQ(cells_of(v, "mine"), cells_of(plain, "pre"));
  // a spec that is not a registered placement (the qknorm preset) trains beside them too
  std::string qknorm;
  for (const lnx::PlacementPreset& p : lnx::placement_presets())
    if (p.name == "qknorm") qknorm = p.spec;
  ASSERT_FALSE(qknorm.empty());
  const Value q = run("phase-diagram", sweep + R"(, "placements": ["pre", "qknorm"], "placement_spec": )" + qknorm);
  EXPECT_EQ(cells_of(q, "pre"), cells_of(plain, "pre"));
  EXPECT_EQ(q.obj.at("cells").arr.size(), 2u * 2 * 2 * 2);
}

// The sweep's own rules name what to change.
TEST(Experiments, PhaseDiagramRefusesTooManyRunsAndAnUnusedSpec) {
  expect_refused("phase-diagram",
                 R"({"depths": [1, 2, 3, 4, 5, 6, 7, 8], "lrs": [1, 2, 3, 4, 5, 6, 7, 8], "seeds": [0, 1, 2]})",
                 {"1536 runs", "at most 512"});
  expect_refused("phase-diagram", R"({"placement_spec": {"name": "mine"}, "placements": ["post"]})",
                 {"placement_spec", "placements"});
  expect_refused("phase-diagram", R"({"d": 4096, "d_ff": 16384, "depths": [64]})", {"depth 64 too large"});
}

// ---- lr-sensitivity (Wortsman et al. 2023) ----

namespace {
std::string preset_spec(const std::string& name) {
  for (const lnx::PlacementPreset& p : lnx::placement_presets())
    if (p.name == name) return p.spec;
  return "";
}

// Row-wise LayerNorm in double: (x − mean)/√(var + eps)·γ + β.
std::vector<double> layernorm_rows(const std::vector<double>& x, int rows, int C, const float* g, const float* b) {
  std::vector<double> y(x.size());
  for (int r = 0; r < rows; ++r) {
    double m = 0, v = 0;
    for (int c = 0; c < C; ++c) m += x[r * C + c];
    m /= C;
    for (int c = 0; c < C; ++c) v += (x[r * C + c] - m) * (x[r * C + c] - m);
    v /= C;
    const double s = 1 / std::sqrt(v + 1e-5);
    for (int c = 0; c < C; ++c) y[r * C + c] = (x[r * C + c] - m) * s * g[c] + b[c];
  }
  return y;
}
}  // namespace

// The largest attention logit, written out from the weights: a one-layer Pre-LN model (with and
// without a QK-norm, causal and bidirectional) with every parameter drawn at random (so that the
// norms' γ and β matter), x0 = √d·E[tok], u = LN1(x0), q = u·Wqᵀ + bq (then LN_q), k likewise,
// max over sequences, rows and the columns each row sees of |q_i·k_j|/√d. The model has no position
// embedding, so each batch is also run with its sequences reversed: the pair with the largest |q·k|
// then sits on the other side of the diagonal, and in one of the two the causal mask hides it.
TEST(LrSensitivity, MaxAttentionLogitIsTheDirectComputation) {
  const int N = 16, d = 16, n = 8;
  int hidden = 0;  // causal cases where the mask hides the largest |q·k|
  for (const std::string placement : {"pre", "qknorm"})
    for (const lnx::Attention att : {lnx::Attention::Causal, lnx::Attention::Bidirectional})
      for (uint64_t draw = 0; draw < 3; ++draw)
        for (const bool reversed : {false, true}) {
          lnx::ModelConfig mc{1, d, 32, 32, n, 2, "pre", att};
          if (placement == "qknorm") mc.placement = "qknorm", mc.placement_spec = preset_spec("qknorm");
          lnx::Transformer<float> m(mc, 3);
          lnx::Rng rng(77 + draw);
          for (float& p : m.params()) p = static_cast<float>(0.7 * rng.normal());
          std::vector<int> in(N), tg(N);
          for (int i = 0; i < N; ++i) in[i] = static_cast<int>(rng.below(32)), tg[i] = static_cast<int>(rng.below(32));
          if (reversed)
            for (int b = 0; b < 2; ++b) std::reverse(in.begin() + b * n, in.begin() + (b + 1) * n);
          m.forward(in.data(), tg.data());
          std::map<std::string, const float*> T;
          for (const auto& [name, t] : m.named_tensors()) T[name] = m.params().data() + t.off;
          std::vector<double> x0(N * d);
          for (int i = 0; i < N; ++i)
            for (int c = 0; c < d; ++c) x0[i * d + c] = std::sqrt(double(d)) * T["E"][in[i] * d + c];
          const std::vector<double> u = layernorm_rows(x0, N, d, T["layer1.ln1.gamma"], T["layer1.ln1.beta"]);
          auto project = [&](const float* W, const float* b) {
            std::vector<double> y(N * d);
            for (int i = 0; i < N; ++i)
              for (int o = 0; o < d; ++o) {
                double s = b[o];
                for (int c = 0; c < d; ++c) s += u[i * d + c] * W[o * d + c];
                y[i * d + o] = s;
              }
            return y;
          };
          std::vector<double> q = project(T["layer1.Wq"], T["layer1.bq"]), k = project(T["layer1.Wk"], T["layer1.bk"]);
          if (placement == "qknorm") {
            ASSERT_TRUE(T.count("layer1.qnorm.gamma") && T.count("layer1.knorm.beta"));
            q = layernorm_rows(q, N, d, T["layer1.qnorm.gamma"], T["layer1.qnorm.beta"]);
            k = layernorm_rows(k, N, d, T["layer1.knorm.gamma"], T["layer1.knorm.beta"]);
          }
          double want = 0, want_masked = 0;
          for (int b = 0; b < 2; ++b)
            for (int i = 0; i < n; ++i)
              for (int j = 0; j < n; ++j) {
                double s = 0;
                for (int c = 0; c < d; ++c) s += q[(b * n + i) * d + c] * k[(b * n + j) * d + c];
                const double a = std::fabs(s) / std::sqrt(double(d));
                want = std::max(want, a);
                if (j <= i) want_masked = std::max(want_masked, a);
              }
          const double got = lnx::exp::max_attention_logit(m);
          const double expect = att == lnx::Attention::Causal ? want_masked : want;
          EXPECT_NEAR(got, expect, 1e-4 * expect) << placement << " " << lnx::to_string(att) << " draw " << draw;
          EXPECT_GT(expect, 0.1);
          hidden += att == lnx::Attention::Causal && want_masked < want;
        }
  EXPECT_GE(hidden, 3) << "the mask rarely hid a larger logit: the causal case went untried";
}

// Wortsman et al.'s number: the mean over the grid of min(ℓ, ℓ₀) minus the best; 0 for a flat curve;
// a diverged run (not finite) and a loss above ℓ₀ count as ℓ₀.
TEST(LrSensitivity, TheNumberIsTheMeanExcessOfTheCappedCurve) {
  using lnx::exp::lr_sensitivity;
  EXPECT_EQ(lr_sensitivity({2.5, 2.5, 2.5, 2.5}, 5.0), 0.0);
  EXPECT_EQ(lr_sensitivity({7, 8, NAN}, 5.0), 0.0);  // nothing below ℓ₀: flat at ℓ₀
  EXPECT_EQ(lr_sensitivity({}, 5.0), 0.0);
  EXPECT_NEAR(lr_sensitivity({1, 2, 3}, 10), 1.0, 1e-12);
  EXPECT_NEAR(lr_sensitivity({1, NAN, 9, 3}, 5), (1 + 5 + 5 + 3) / 4.0 - 1, 1e-12);
  EXPECT_NEAR(lr_sensitivity({INFINITY, 2}, 4), (4 + 2) / 2.0 - 2, 1e-12);
}

// A run at lr → 0 ends where it started (its final loss is ℓ₀, on the same fixed batches), one at an
// absurd lr is stopped and counts as ℓ₀, one at a working lr ends below ℓ₀; ℓ₀ and the step-1 logit
// are the same for every lr of a seed; the document's sensitivity is lr_sensitivity of its cells.
TEST(LrSensitivity, TinyLrEndsAtLoss0AndAbsurdLrCountsAsLoss0) {
  const Value v =
      run("lr-sensitivity",
          R"("layers": 1, "steps": 30, "warmup": 0, "every": 10, "lrs": [1e-9, 1e-2, 10], "seeds": [0, 1], )"
          R"("placements": ["pre", "qknorm"], "placement_spec": )" +
              preset_spec("qknorm"));
  EXPECT_EQ(v.obj.at("eval_batches").num, 4);
  EXPECT_NEAR(v.obj.at("uniform_loss").num, std::log(32.0), 1e-7);
  const auto& runs = v.obj.at("runs").arr;
  ASSERT_EQ(runs.size(), 2u * 3 * 2);
  std::map<std::string, double> loss0, logit0;
  for (const Value& r : runs) {
    const std::string key = r.obj.at("placement").str + std::to_string(r.obj.at("seed").num);
    const double lr = r.obj.at("lr").num, l0 = r.obj.at("loss0").num;
    if (!loss0.count(key)) loss0[key] = l0, logit0[key] = r.obj.at("max_logit").arr.at(0).num;
    EXPECT_EQ(l0, loss0[key]) << key << " lr " << lr;
    EXPECT_EQ(r.obj.at("max_logit").arr.at(0).num, logit0[key]) << key << " lr " << lr;
    EXPECT_EQ(r.obj.at("at").arr.at(0).num, 1);
    if (lr == 10) {
      EXPECT_NE(r.obj.at("status").str, "ok");
      EXPECT_TRUE(r.obj.at("final_loss").kind == Value::Kind::Null);
      EXPECT_EQ(r.obj.at("at").arr.back().num, r.obj.at("stop_step").num);  // the stopping step is recorded
      continue;
    }
    EXPECT_EQ(r.obj.at("status").str, "ok");
    std::vector<double> at;
    for (const Value& x : r.obj.at("at").arr) at.push_back(x.num);
    EXPECT_EQ(at, (std::vector<double>{1, 10, 20, 30}));
    if (lr == 1e-9) EXPECT_NEAR(r.obj.at("final_loss").num, l0, 1e-5) << key;
    else EXPECT_LT(r.obj.at("final_loss").num, l0 - 0.05) << key;
  }
  for (const Value& p : v.obj.at("placements").arr) {
    std::vector<double> capped;
    for (const Value& c : p.obj.at("cells").arr) capped.push_back(c.obj.at("capped_loss").num);
    const double l0 = p.obj.at("loss0").num;
    EXPECT_NEAR(capped[0], l0, 1e-5);
    EXPECT_EQ(capped[2], l0);  // both seeds stopped: ℓ₀
    EXPECT_EQ(p.obj.at("cells").arr[2].obj.at("stopped").num, 2);
    EXPECT_EQ(p.obj.at("best_lr").num, 1e-2);
    EXPECT_EQ(p.obj.at("best_loss").num, capped[1]);
    EXPECT_NEAR(p.obj.at("sensitivity").num, lnx::exp::lr_sensitivity(capped, l0), 1e-7);  // the document has 9 digits
    EXPECT_NEAR(p.obj.at("sensitivity").num, (l0 + capped[1] + l0) / 3 - capped[1], 1e-5);
    EXPECT_EQ(p.obj.at("sensitivity_per_seed").arr.size(), 2u);
  }
}

// Each run draws everything from its own seed: the document is the same for any thread count.
TEST(LrSensitivity, IsTheSameForAnyThreadCount) {
  std::string docs[2];
  for (int k = 0; k < 2; ++k) {
    lnx::set_threads(k + 1);
    const Value v =
        run("lr-sensitivity", R"("layers": 2, "steps": 20, "every": 5, "lrs": [1e-2, 0.3], "seeds": [0, 1])");
    std::string s;
    for (const Value& r : v.obj.at("runs").arr) {
      for (const Value& x : r.obj.at("max_logit").arr) s += std::to_string(x.num) + ",";
      for (const Value& x : r.obj.at("curve").arr) s += std::to_string(x.num) + ",";
      s += std::to_string(r.obj.at("final_loss").num) + ";";
    }
    docs[k] = s;
  }
  lnx::set_threads(1);
  EXPECT_EQ(docs[0], docs[1]);
}

TEST(LrSensitivity, RefusesTooManyRunsTooManyRecordingsAndAnUnusedSpec) {
  auto refused = [](const std::string& cfg, const std::vector<std::string>& words) {
    expect_refused("lr-sensitivity", cfg, words);
  };
  refused(
      R"({"placements": ["pre", "post", "peri"], "lrs": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0.1, 0.2], "seeds": [0, 1, 2, 3]})",
      {"144 runs", "at most 128"});
  refused(R"({"steps": 5000, "every": 1})", {"every", "at most 1000"});
  refused(R"({"placement_spec": {"name": "mine"}, "placements": ["pre"]})", {"placement_spec", "placements"});
  // the default spec is the qknorm preset, which Pre-LN alone may leave unused
  EXPECT_NO_THROW(lnx::ExperimentRun("lr-sensitivity", R"({"placements": ["pre"]})"));
  const Value schema = lnx::json::parse(lnx::schema_json());
  for (const Value& e : schema.obj.at("experiments").arr)
    if (e.obj.at("name").str == "lr-sensitivity")
      for (const Value& f : e.obj.at("config").obj.at("fields").arr)
        if (f.obj.at("name").str == "placement_spec") EXPECT_EQ(f.obj.at("default").obj.at("name").str, "qknorm");
}

// ---- angular-update ------------------------------------------------------------------------------

// The angle of a step from two snapshots of a group, as the brief's formula reads, in double.
double arccos_angle(const std::vector<float>& a, const std::vector<float>& b, const lnx::exp::WeightGroup& g) {
  double ab = 0, aa = 0, bb = 0;
  for (const lnx::TensorRef& t : g.tensors)
    for (size_t i = t.off; i < t.off + t.size(); ++i)
      ab += double(a[i]) * b[i], aa += double(a[i]) * a[i], bb += double(b[i]) * b[i];
  return std::acos(std::min(1.0, ab / std::sqrt(aa * bb)));
}

TEST(AngularUpdate, AnUnchangedOrRescaledGroupTurnsByZeroAndKnownAnglesReadAsSuch) {
  lnx::ModelConfig mc;
  mc.layers = 2, mc.d = 8, mc.d_ff = 16, mc.vocab = 16, mc.seq = 4, mc.batch = 1;
  lnx::Transformer<float> m(mc, 3);
  const auto groups = lnx::exp::weight_groups(m);
  ASSERT_EQ(groups.size(), 4u);
  EXPECT_EQ(groups[0].name, "layer1.attn");
  EXPECT_EQ(groups[3].name, "layer2.ffn");
  EXPECT_EQ(groups[0].tensors.size(), 3u);  // Wq, Wk, Wv
  EXPECT_EQ(groups[1].tensors.size(), 2u);  // W1, W2
  const std::vector<float> a = m.params();
  std::vector<float> twice = a;
  for (float& x : twice) x *= 2;  // exact in float
  for (const auto& g : groups) {
    double angle = -1, rel = -1;
    lnx::exp::angular_update(a, a, g, angle, rel);  // lr = 0: no step
    EXPECT_EQ(angle, 0.0) << g.name;
    EXPECT_EQ(rel, 0.0) << g.name;
    lnx::exp::angular_update(a, twice, g, angle, rel);
    EXPECT_EQ(angle, 0.0) << g.name;
    EXPECT_DOUBLE_EQ(rel, 1.0) << g.name;
  }
  // a group of one 2-vector (Wq of d = 1 is not a size the model takes): place it by hand
  lnx::exp::WeightGroup g{"two", {lnx::TensorRef{0, 1, 2}}};
  for (double deg : {1e-6, 0.5, 30.0, 90.0, 150.0, 180.0}) {
    const double r = deg * M_PI / 180;
    std::vector<float> x = {1.0f, 0.0f}, y = {static_cast<float>(std::cos(r)), static_cast<float>(std::sin(r))};
    double angle, rel;
    lnx::exp::angular_update(x, y, g, angle, rel);
    EXPECT_NEAR(angle, r, 1e-7 * std::max(1.0, r)) << deg;
    EXPECT_NEAR(rel, 2 * std::sin(r / 2), 1e-7) << deg;
  }
}

// Every recorded angle is the one computed from the run's parameters before and after that step
// (the same TrainRun, snapshot by snapshot, arccos in double); the first step of a run with a
// T-step linear warm-up at peak lr turns each group by what a run at lr/T without warm-up does
// (Adam's first step is lr(1)·g/(|g| + ε), lr(1) = lr/T); a smaller lr turns it by less.
TEST(AngularUpdate, EachAngleIsTheOneOfTwoSnapshotsAndWarmupsFirstStepIsLrOverT) {
  const Value v =
      run("angular-update",
          R"("layers": 2, "steps": 6, "placements": ["post", "deepnorm"], "warmups": [0, 4], "seeds": [5])");
  const auto& runs = v.obj.at("runs").arr;
  ASSERT_EQ(runs.size(), 4u);
  const auto& names = v.obj.at("groups").arr;
  ASSERT_EQ(names.size(), 4u);
  for (const Value& r : runs) {
    lnx::TrainConfig t;
    t.model.d = 16, t.model.d_ff = 32, t.model.vocab = 32, t.model.seq = 8, t.model.batch = 2, t.model.layers = 2;
    t.steps = 6, t.seed = 5, t.warmup = static_cast<int>(r.obj.at("warmup").num);
    t.model.placement = r.obj.at("placement").str;
    lnx::TrainRun tr(t);
    const auto groups = lnx::exp::weight_groups(lnx::detail::TrainRunAccess::model(tr));
    const auto& angle = r.obj.at("angle").arr;
    const auto& rel = r.obj.at("relative").arr;
    ASSERT_EQ(angle.size(), groups.size());
    for (int step = 0; step < 6; ++step) {
      const std::vector<float> before = lnx::detail::TrainRunAccess::model(tr).params();
      tr.step(1);
      const std::vector<float>& after = lnx::detail::TrainRunAccess::model(tr).params();
      for (size_t g = 0; g < groups.size(); ++g) {
        EXPECT_EQ(names[g].str, groups[g].name);
        const double want = arccos_angle(before, after, groups[g]);
        const double got = angle[g].arr.at(step).num;
        EXPECT_GT(got, 0) << g << " " << step;
        EXPECT_NEAR(got, want, 1e-6 * want + 1e-9)
            << r.obj.at("placement").str << " group " << g << " step " << step + 1;
        double dd = 0, aa = 0;
        for (const lnx::TensorRef& tt : groups[g].tensors)
          for (size_t i = tt.off; i < tt.off + tt.size(); ++i)
            dd += std::pow(double(after[i]) - before[i], 2), aa += double(before[i]) * before[i];
        EXPECT_NEAR(rel[g].arr.at(step).num, std::sqrt(dd / aa), 1e-6 * std::sqrt(dd / aa));
      }
    }
    EXPECT_EQ(r.obj.at("loss").arr.size(), 6u);
    EXPECT_EQ(r.obj.at("status").str, "ok");
  }
  // warm-up 4 at lr 1e-3: step 1 at lr 2.5e-4, as a run at 2.5e-4 without warm-up
  const Value w =
      run("angular-update", R"("layers": 2, "steps": 2, "placements": ["post"], "warmups": [4], "seeds": [5])");
  const Value l =
      run("angular-update",
          R"("layers": 2, "steps": 2, "placements": ["post"], "warmups": [0], "seeds": [5], "lr": 0.00025)");
  const Value full =
      run("angular-update", R"("layers": 2, "steps": 2, "placements": ["post"], "warmups": [0], "seeds": [5])");
  for (size_t g = 0; g < 4; ++g) {
    const double a_w = w.obj.at("runs").arr[0].obj.at("angle").arr[g].arr[0].num;
    const double a_l = l.obj.at("runs").arr[0].obj.at("angle").arr[g].arr[0].num;
    const double a_full = full.obj.at("runs").arr[0].obj.at("angle").arr[g].arr[0].num;
    EXPECT_NEAR(a_w, a_l, 1e-6 * a_l) << g;
    EXPECT_NEAR(a_full / a_l, 4.0, 0.05) << g;  // ≈ lr·√n/‖W‖ at this size: 4 times the lr, 4 times the angle
  }
}

TEST(AngularUpdate, RefusesTooManyRunsAndStepsNamingTheField) {
  auto refused = [](const std::string& cfg, const std::vector<std::string>& words) {
    expect_refused("angular-update", cfg, words);
  };
  refused(R"({"seeds": [0, 1, 2, 3, 4, 5, 6, 7], "warmups": [0, 1, 2, 3]})", {"96 runs", "at most 64"});
  refused(R"({"steps": 1001})", {"steps", "at most 1000"});
  refused(R"({"warmups": [-1]})", {"warmups"});
  refused(R"({"seeds": []})", {"seeds"});
  refused(R"({"placements": ["nope"]})", {"placements"});
  refused(R"({"lr": 0})", {"lr"});
}
