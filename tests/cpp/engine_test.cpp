// engine_test.cpp — behaviour of the public API (api.h): the probe reproduces the Lemma-2
// bookkeeping, the half-batch split equals the whole batch to float rounding (that results do not
// depend on the thread count at all is threads_test.cpp's), the PRNG is
// pinned (the wasm build must draw the same numbers), the trainer's schedule and NaN handling, and
// every invalid argument is refused with ArgumentError before anything is allocated.
#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "api.h"
#include "json.h"
#include "markov.h"
#include "model.h"
#include "plan_run.h"
#include "rng.h"

namespace lnx {
namespace {

json::Value probe(int threads, const std::string& cfg) {
  set_threads(threads);
  return json::parse(run_probe_json(probe_config_from_json(cfg)));
}

const char* kSmallProbe =
    R"({"layers":3,"d":32,"d_ff":64,"vocab":50,"seq":8,"batch":4,"seeds":[0,1],"batches":3,"depth_batches":2,"depths":[2,3]})";

// The half-batch split is only a change of summation order: the first step's loss and gradient
// norm equal those of one forward/backward over the whole batch (same init, same sampled batch),
// to float rounding (measured ≤ 1e-6 relative; bound 1e-5). Odd batches are not split.
TEST(Trainer, HalfBatchStepEqualsTheWholeBatchStep) {
  for (int batch : {4, 3}) {
    TrainConfig c;
    c.model = {2, 32, 64, 64, 16, batch, "post", Attention::Causal};
    c.steps = 1;
    c.seed = 7;
    for (int threads : {1, 2}) {
      set_threads(threads);
      TrainRun run(c);
      run.step(1);
      MarkovChain chain(c.model.vocab, c.successors, c.chain_seed);
      Rng rng(stream_seed(c.seed, kStreamBatches));
      std::vector<int> in, tgt;
      chain.sample(rng, c.model.batch, c.model.seq, in, tgt);
      Transformer<float> whole(c.model, c.seed);
      whole.zero_grad();
      const double l = whole.forward(in.data(), tgt.data());
      whole.backward(GradScope::All);
      double ss = 0;
      for (float g : whole.grads()) ss += static_cast<double>(g) * g;
      EXPECT_NEAR(run.loss()[0], l, 1e-5 * l) << "batch " << batch << ", threads " << threads;
      EXPECT_NEAR(run.grad_norm()[0], std::sqrt(ss), 1e-5 * std::sqrt(ss)) << "batch " << batch;
    }
  }
  set_threads(1);
}

TEST(Probe, PostLnStreamStaysNear1Point44AndPreLnGrowsWithinTheLemma2Band) {
  // d_ff = 2d with Xavier init: Post-LN ‖x5‖²/d ≈ 1 + 4/9 in every layer (article, "residual stream").
  auto v = probe(
      0,
      R"({"layers":4,"d":128,"d_ff":256,"vocab":200,"seq":16,"batch":8,"seeds":[0,1],"batches":3,"depth_batches":1,"depths":[4]})");
  const auto& post = v.obj.at("placements").obj.at("post").obj.at("norm2_over_d").obj.at("mean").arr;
  for (const auto& x : post) EXPECT_NEAR(x.num, 1 + 4.0 / 9, 0.12);
  const auto& pre = v.obj.at("placements").obj.at("pre").obj.at("norm2_over_d").obj.at("mean").arr;
  for (size_t l = 0; l < pre.size(); ++l) {
    EXPECT_GT(pre[l].num, 1 + (l + 1) / 2.0 - 0.1) << l;  // Lemma 2 lower edge (with sampling slack)
    EXPECT_LT(pre[l].num, 1 + 1.5 * (l + 1)) << l;
    if (l) EXPECT_GT(pre[l].num, pre[l - 1].num);
  }
  const double gain = v.obj.at("placements").obj.at("pre").obj.at("final_ln_gain").obj.at("mean").num;
  EXPECT_NEAR(gain, 1 / std::sqrt(pre.back().num), 0.02);
}

TEST(Probe, IsSteppableAndReportsMonotoneProgress) {
  ProbeRun run(probe_config_from_json(kSmallProbe));
  double last = 0;
  int steps = 0;
  EXPECT_THROW(run.result_json(), ArgumentError);
  while (!run.done()) {
    double f = run.step(2);
    EXPECT_GE(f, last);
    last = f;
    ++steps;
  }
  EXPECT_DOUBLE_EQ(last, 1.0);
  EXPECT_GT(steps, 3);
  EXPECT_EQ(json::parse(run.result_json()).obj.at("placements").obj.at("post").obj.at("lastW2_vs_L").obj.size(), 2u);
}

// Golden values: the wasm build (tests/wasm) must draw exactly these.
TEST(Rng, IsPinned) {
  Rng r(42);
  EXPECT_EQ(r.next_u64(), 0x15780b2e0c2ec716ULL);
  EXPECT_EQ(r.next_u64(), 0x6104d9866d113a7eULL);
  EXPECT_EQ(r.next_u64(), 0xae17533239e499a1ULL);
  Rng n(stream_seed(0, kStreamModel));
  for (double expect : {0.81952343029090324, -0.81859425568909927, -0.9137960749225994, 0.074872966236953997})
    EXPECT_NEAR(n.normal(), expect, 1e-15);
  Rng b(7);
  for (uint32_t expect : {700u, 278u, 839u, 981u}) EXPECT_EQ(b.below(1000), expect);
}

TEST(Markov, SuccessorsAreDistinctAndTheEntropySitsBelowLnV) {
  MarkovChain chain(256, 4, 1234);
  for (int t = 0; t < 256; ++t) {
    std::set<int> s;
    for (int k = 0; k < 4; ++k) s.insert(chain.successor(t, k));
    EXPECT_EQ(s.size(), 4u);
  }
  const double h = chain.stationary_entropy();
  EXPECT_GT(h, 5.2);
  EXPECT_LT(h, std::log(256.0));
}

TEST(Trainer, WarmupScheduleIsLinearThenConstant) {
  TrainConfig c;
  c.model = {1, 16, 32, 32, 8, 2, "pre", Attention::Causal};
  c.steps = 8;
  c.warmup = 4;
  c.lr = 2e-3;
  TrainRun run(c);
  run.step(100);
  EXPECT_EQ(run.status(), RunStatus::Ok);
  const std::vector<float> expect = {5e-4f, 1e-3f, 1.5e-3f, 2e-3f, 2e-3f, 2e-3f, 2e-3f, 2e-3f};
  ASSERT_EQ(run.lr().size(), expect.size());
  for (size_t i = 0; i < expect.size(); ++i) EXPECT_FLOAT_EQ(run.lr()[i], expect[i]);
}

TEST(Trainer, SameSeedSameCurveDifferentSeedDifferentCurve) {
  TrainConfig c;
  c.model = {2, 16, 32, 32, 8, 2, "post", Attention::Causal};
  c.steps = 5;
  TrainRun a(c), b(c);
  a.step(5), b.step(5);
  EXPECT_EQ(a.loss(), b.loss());
  c.seed = 1;
  TrainRun e(c);
  e.step(5);
  EXPECT_NE(a.loss(), e.loss());
}

TEST(Trainer, StreamingJsonReturnsTheTail) {
  TrainConfig c;
  c.model = {1, 16, 32, 32, 8, 2, "pre", Attention::Causal};
  c.steps = 6;
  TrainRun run(c);
  run.step(6);
  auto v = json::parse(run.result_json(4));
  EXPECT_EQ(v.obj.at("from").num, 4);
  EXPECT_EQ(v.obj.at("loss").arr.size(), 2u);
  EXPECT_EQ(v.obj.at("status").str, "ok");
  EXPECT_EQ(v.obj.at("stop_step").kind, json::Value::Kind::Null);
}

// A Post-LN model at lr 1 blows up (losses in the tens to thousands, still finite): the run must stop
// as "diverged" at that step and record no number for it.
TEST(Trainer, ABlownUpRunStopsAsDivergedAtThatStep) {
  TrainConfig c;
  c.model = {2, 32, 64, 64, 16, 2, "post", Attention::Causal};
  c.steps = 200;
  c.lr = 1.0;
  TrainRun run(c);
  run.step(200);
  ASSERT_EQ(run.status(), RunStatus::Diverged);
  EXPECT_GT(run.stop_step(), 1);
  EXPECT_EQ(static_cast<int>(run.loss().size()), run.stop_step() - 1);
  for (float l : run.loss()) EXPECT_LE(l, 4 * std::log(64.0));
  auto v = json::parse(run.result_json());
  EXPECT_EQ(v.obj.at("status").str, "diverged");
  EXPECT_EQ(v.obj.at("stop_step").num, run.stop_step());
  EXPECT_EQ(run.step(10), run.stop_step() - 1);  // a stopped run does not move again
}

// The Grid document of runs advanced one at a time (the page's WebGPU grid) is the document GridRun
// writes, whether each run's Train document arrives whole or in tails.
TEST(GridDocument, AssemblesTheSameDocumentAsGridRun) {
  set_threads(2);
  const std::string cfg =
      R"({"layers":2,"d":16,"d_ff":32,"vocab":32,"seq":8,"batch":2,"steps":9,"warmups":[0,4],"lrs":[0.001],"seeds":[0,1]})";
  GridRun grid(grid_config_from_json(cfg));
  while (!grid.done()) grid.step(4);
  GridDocument doc(grid_config_from_json(cfg));
  const json::Value plan = json::parse(grid_plan_json(cfg));
  ASSERT_EQ(doc.runs(), static_cast<int>(plan.obj.at("runs").arr.size()));
  for (int i = 0; i < doc.runs(); ++i) {
    TrainRun run(test::plan_train(plan, i));
    while (run.status() == RunStatus::Running) {
      run.step(4);
      doc.append(i, run.result_json(doc.steps_held(i)));  // tails, as the page streams them
    }
    doc.append(i, run.result_json(0));  // a whole document again is harmless
  }
  EXPECT_TRUE(doc.done());
  EXPECT_EQ(doc.result_json(0, nullptr), grid.result_json(0));
  EXPECT_EQ(doc.result_json(5, nullptr), grid.result_json(5));
  EXPECT_THROW(doc.append(99, "{}"), ArgumentError);
  EXPECT_THROW(doc.append(0, R"({"status":"ok","from":50,"loss":[],"grad_norm":[],"lr_schedule":[]})"), ArgumentError);
  EXPECT_THROW(doc.append(0, R"({"status":"sideways","from":0,"loss":[],"grad_norm":[],"lr_schedule":[]})"),
               ArgumentError);
}

TEST(Validation, RefusesBadArguments) {
  const char* bad[] = {R"({"layers":0})",
                       R"({"layers":-3})",
                       R"({"layers":1.5})",
                       R"({"layers":"six"})",
                       R"({"layers":1e400})",
                       R"({"d":100000})",
                       R"({"seeds":[]})",
                       R"({"seeds":5})",
                       R"({"seeds":[0,0]})",
                       R"({"seeds":[-1]})",
                       R"({"depths":[]})",
                       R"({"depths":[6,6]})",
                       R"({"depths":[6,8,10,12,14,16,18,20,22,24,26,28,30,32,34,36,38]})",
                       R"({"layer":6})",
                       R"({"attention":"sideways"})",
                       R"({"d":4096,"d_ff":16384,"layers":64})",
                       R"({"layers":6)",
                       R"([1,2])",
                       R"({"layers":6} trailing)",
                       R"({"batches":NaN})",
                       R"({"batches":Infinity})",
                       R"({"vocab":1})",
                       R"({"attention":"<script>alert(1)</script>"})"};
  for (const char* cfg : bad) EXPECT_THROW(probe_config_from_json(cfg), ArgumentError) << cfg;
  const char* bad_train[] = {
      R"({"lr":0})",      R"({"lr":-1})",   R"({"lr":1e9})", R"({"placement":"mid"})", R"({"steps":0})",
      R"({"warmup":-1})", R"({"beta1":1})", R"({"eps":0})",  R"({"successors":1000})", R"({"seed":-1})"};
  for (const char* cfg : bad_train) EXPECT_THROW(train_config_from_json(cfg), ArgumentError) << cfg;
  const char* bad_grid[] = {R"({"seeds":[0,1,2,3,4,5,6,7,8]})", R"({"placements":["post","post"]})",
                            R"({"lrs":[0.001,"x"]})", R"({"warmups":[]})", R"({"placements":["pre","both"]})"};
  for (const char* cfg : bad_grid) EXPECT_THROW(grid_config_from_json(cfg), ArgumentError) << cfg;
  EXPECT_THROW(set_threads(-1), ArgumentError);
}

// GridRun builds every run before its first step: their weights, gradients and moments must fit
// together (a grid of 60 runs of a 500 MB model passed the per-run rule and ran out of memory).
TEST(Validation, AGridWhoseRunsTogetherDoNotFitIsRefusedBeforeAnythingIsAllocated) {
  const std::string model =
      R"("layers":24,"d":512,"d_ff":512,"batch":8,"seq":128,"steps":10,"lrs":[0.001,0.003],)";  // 2 lrs
  try {
    grid_config_from_json(
        "{" + model + R"("placements":["post","pre","peri","deepnorm","admin"],"warmups":[0,100,300],"seeds":[0,1]})");
    FAIL() << "a 60-run grid of a 500 MB model was accepted";
  } catch (const ArgumentError& e) {
    EXPECT_NE(std::string(e.what()).find("grid too large: its 60 runs"), std::string::npos) << e.what();
  }
  // the same model, two runs (two lrs): 2 x 507 MB of state fits in 1.5 GiB; eight do not
  EXPECT_NO_THROW(grid_config_from_json("{" + model + R"("placements":["post"],"warmups":[0],"seeds":[0]})"));
  EXPECT_THROW(grid_config_from_json("{" + model + R"("placements":["post","pre"],"warmups":[0,100],"seeds":[0]})"),
               ArgumentError);
  // the article's grid is far from the limit
  EXPECT_NO_THROW(grid_config_from_json("{}"));
}

// check_config_json answers every form's rules across fields in one call, naming the rule it breaks.
TEST(Validation, CheckConfigNamesTheRuleItBreaksAndNeverThrowsForABadConfig) {
  auto check = [](const char* kind, const std::string& cfg) { return json::parse(check_config_json(kind, cfg)); };
  const std::string big = R"("layers":24,"d":512,"d_ff":512,"batch":8,"seq":128,"steps":10,"lrs":[0.001,0.003],)";
  const json::Value grid = check(
      "grid",
      "{" + big + R"("placements":["post","pre","peri","deepnorm","admin"],"warmups":[0,100,300],"seeds":[0,1]})");
  EXPECT_FALSE(grid.obj.at("ok").b);
  EXPECT_EQ(grid.obj.at("rule").str, "grid_fits_in_memory");
  EXPECT_NE(grid.obj.at("message").str.find("grid too large"), std::string::npos);

  const json::Value many = check(
      "grid",
      R"({"placements":["post","pre","peri","deepnorm","admin"],"warmups":[0,100,300],"lrs":[0.001,0.003],"seeds":[0,1,2,3]})");
  EXPECT_FALSE(many.obj.at("ok").b);
  EXPECT_EQ(many.obj.at("rule").str, "grid_size");

  const json::Value probe = check("probe", R"({"d":512,"d_ff":2048,"batch":2,"seq":32,"depths":[2,40]})");
  EXPECT_FALSE(probe.obj.at("ok").b);
  EXPECT_EQ(probe.obj.at("rule").str, "probe_fits_in_memory");

  const json::Value field = check("grid", R"({"steps":0})");  // a single field's bound: no rule
  EXPECT_FALSE(field.obj.at("ok").b);
  EXPECT_EQ(field.obj.count("rule"), 0u);
  EXPECT_NE(field.obj.at("message").str.find("steps"), std::string::npos);

  const json::Value warm = check("grid", R"({"steps":50,"warmups":[0,100]})");
  EXPECT_TRUE(warm.obj.at("ok").b);
  ASSERT_EQ(warm.obj.at("warnings").arr.size(), 1u);
  EXPECT_EQ(warm.obj.at("warnings").arr[0].obj.at("rule").str, "warmup_reaches_peak");
  EXPECT_NE(warm.obj.at("warnings").arr[0].obj.at("message").str.find("longer than the run"), std::string::npos);

  EXPECT_TRUE(check("grid", "{}").obj.at("ok").b);
  EXPECT_TRUE(check("probe", "{}").obj.at("ok").b);
  EXPECT_TRUE(check("train", "{}").obj.at("ok").b);
  EXPECT_FALSE(check("grid", "{not json").obj.at("ok").b);
  EXPECT_FALSE(check("tensor", "{}").obj.at("ok").b);

  // an experiment's config, by the experiment's name: its own rules, as ExperimentRun would refuse it
  EXPECT_TRUE(check("tied-output", "{}").obj.at("ok").b);
  const json::Value tied = check("tied-output", R"({"d":4096,"d_ff":16384,"vocab":65536,"depths":[64]})");
  EXPECT_FALSE(tied.obj.at("ok").b);
  EXPECT_EQ(tied.obj.at("rule").str, "probe_fits_in_memory");  // the nested probe's rule keeps its name
  EXPECT_THROW(ExperimentRun("tied-output", R"({"d":4096,"d_ff":16384,"vocab":65536,"depths":[64]})"), ArgumentError);
  EXPECT_FALSE(check("step-size", R"({"depths":[0]})").obj.at("ok").b);
  EXPECT_NE(check("tensor", "{}").obj.at("message").str.find("step-size"), std::string::npos);  // names the experiments
}

TEST(Validation, ErrorMessagesNameTheProblemAndNeverEchoMarkup) {
  try {
    probe_config_from_json(R"({"<b>x</b>":1})");
    FAIL();
  } catch (const ArgumentError& e) {
    std::string m = e.what();
    EXPECT_NE(m.find("unknown config key"), std::string::npos) << m;
    EXPECT_EQ(m.find('<'), std::string::npos) << m;
  }
  try {
    probe_config_from_json(R"({"d":4096,"d_ff":16384,"layers":64})");
    FAIL();
  } catch (const ArgumentError& e) {
    EXPECT_NE(std::string(e.what()).find("MiB"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace lnx
