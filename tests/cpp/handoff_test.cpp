// handoff_test.cpp — a run continued from a checkpoint (TrainRun::continue_from, GridRun::continue_run;
// train_run.h "Hand-off") is the run that was never interrupted: on the CPU both halves run the same
// float operations in the same order, so the continued curve is bit-identical to the uninterrupted one,
// for each optimizer (their state arrays are in the checkpoint). The page uses this to continue a
// WebGPU grid on the CPU after a lost device; there the two halves agree to float rounding (the Node
// GPU harness, tests/gpu-node). Bad documents and checkpoints are refused with ArgumentError.
// A probe hands over the jobs whose statistics came in (ProbeRun::continue_from): each job draws its
// model and batches from its own seed, so the continued probe's document equals the uninterrupted one.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "api.h"
#include "json.h"
#include "optim/registry.h"
#include "plan_run.h"

namespace lnx {
namespace {

TrainConfig tiny(const std::string& optimizer) {
  TrainConfig c;
  c.model = {2, 16, 32, 32, 8, 4, "post", Attention::Causal};
  c.steps = 20;
  c.warmup = 6;
  c.optimizer = optimizer;
  return c;
}

// Runs `c` for `at` steps with checkpoints every `every`; returns the last checkpoint and the run's
// document at that moment.
std::pair<TrainCheckpoint, std::string> interrupted(const TrainConfig& c, int at, int every) {
  TrainRun r(c);
  r.set_checkpoint_every(every);
  TrainCheckpoint last, got;
  for (int t = 0; t < at; ++t) {
    r.step(1);
    if (r.take_checkpoint(got)) last = got;
  }
  return {last, r.result_json(0)};
}

class HandoffPerOptimizer : public ::testing::TestWithParam<std::string> {};

TEST_P(HandoffPerOptimizer, AContinuedRunIsBitIdenticalToTheUninterruptedOne) {
  set_threads(1);
  const TrainConfig c = tiny(GetParam());
  TrainRun whole(c);
  whole.step(c.steps);
  ASSERT_EQ(whole.status(), RunStatus::Ok);

  auto [ckpt, doc] = interrupted(c, 17, 5);  // checkpoints at 5, 10, 15; the document holds 17 steps
  ASSERT_EQ(ckpt.step, 15);
  TrainRun cont(c);
  cont.continue_from(doc, &ckpt, "webgpu");
  EXPECT_EQ(cont.steps_done(), 15);
  cont.step(c.steps);
  EXPECT_EQ(cont.status(), RunStatus::Ok);
  EXPECT_EQ(cont.loss(), whole.loss());
  EXPECT_EQ(cont.grad_norm(), whole.grad_norm());
  EXPECT_EQ(cont.lr(), whole.lr());
  const json::Value v = json::parse(cont.result_json(0));
  EXPECT_EQ(v.obj.at("handoff").obj.at("backend").str, "webgpu");
  EXPECT_EQ(v.obj.at("handoff").obj.at("steps").num, 15);
  EXPECT_EQ(json::parse(whole.result_json(0)).obj.count("handoff"), 0u);  // none when nothing was handed over
}

// Every registered optimizer (GI-Adam's first-step initialisation must not repeat after a hand-off).
INSTANTIATE_TEST_SUITE_P(EveryOptimizer, HandoffPerOptimizer, ::testing::ValuesIn(optimizer_names()));

TEST(Handoff, ACheckpointIsPackedWithoutBackendPadding) {
  const TrainConfig c = tiny("adam");
  auto [ckpt, doc] = interrupted(c, 5, 5);
  ASSERT_EQ(ckpt.step, 5);
  // V·d + per layer 4 d² + 2 d·d_ff + biases and norms: counted from the model's named tensors;
  // here only that params, m and v are three equal parts.
  ASSERT_EQ(ckpt.values.size() % 3, 0u);
  const size_t n = ckpt.values.size() / 3;
  EXPECT_GT(n, 32u * 16);
  bool v_positive = true;
  for (size_t i = 2 * n; i < 3 * n; ++i) v_positive = v_positive && ckpt.values[i] >= 0;
  EXPECT_TRUE(v_positive);  // the third part is Adam's second moment
}

TEST(Handoff, AFinishedRunIsTakenAsItIs) {
  const TrainConfig c = tiny("adam");
  TrainRun done(c);
  done.step(c.steps);
  TrainRun adopted(c);
  adopted.continue_from(done.result_json(0), nullptr, "webgpu");
  EXPECT_EQ(adopted.status(), RunStatus::Ok);
  EXPECT_EQ(adopted.loss(), done.loss());
  EXPECT_EQ(json::parse(adopted.result_json(0)).obj.at("handoff").obj.at("steps").num, c.steps);
}

TEST(Handoff, RefusesWhatDoesNotFitTheRun) {
  const TrainConfig c = tiny("adam");
  auto [ckpt, doc] = interrupted(c, 12, 5);
  {
    TrainConfig other = c;
    other.lr = 3e-3;  // another schedule: its document is not this run's
    TrainRun r(other);
    EXPECT_THROW(r.continue_from(doc, &ckpt, "webgpu"), ArgumentError);
  }
  {
    TrainConfig sgd = c;
    sgd.optimizer = "sgd";  // one state array instead of two: the checkpoint has the wrong size
    TrainRun r(sgd);
    EXPECT_THROW(r.continue_from(doc, &ckpt, "webgpu"), ArgumentError);
  }
  {
    TrainCheckpoint late = ckpt;
    late.step = 13;  // after the 12 steps the document holds
    TrainRun r(c);
    EXPECT_THROW(r.continue_from(doc, &late, "webgpu"), ArgumentError);
  }
  {
    TrainRun r(c);
    r.step(1);
    EXPECT_THROW(r.continue_from(doc, &ckpt, "webgpu"), ArgumentError);  // only before the first step
  }
  TrainRun r(c);
  EXPECT_THROW(r.continue_from("[]", &ckpt, "webgpu"), ArgumentError);
  EXPECT_THROW(r.continue_from(R"({"status":"ok","from":0,"loss":[1],"grad_norm":[1],"lr_schedule":[0.0001666]})",
                               nullptr, "webgpu"),
               ArgumentError);   // "ok" after 1 of 20 steps
  EXPECT_EQ(r.steps_done(), 0);  // nothing was changed by the refusals
}

// A grid interrupted with run 0 finished, run 1 checkpointed and run 2 not started continues to the
// document of the grid that ran through.
TEST(Handoff, AGridContinuesRunByRun) {
  set_threads(2);
  const std::string cfg =
      R"({"layers":2,"d":16,"d_ff":32,"vocab":32,"seq":8,"batch":2,"steps":12,"warmups":[0,4],"lrs":[0.001],"seeds":[0]})";
  GridRun whole(grid_config_from_json(cfg));
  while (!whole.done()) whole.step(5);
  const json::Value plan = json::parse(grid_plan_json(cfg));
  const auto& runs = plan.obj.at("runs").arr;
  ASSERT_EQ(runs.size(), 4u);
  auto train = [&](int i) { return test::plan_train(plan, i); };
  // the document of a run as a Grid document holds it: identity keys and its series
  auto as_grid_run = [&](int i, const std::string& train_doc) {
    json::Value v = json::parse(train_doc);
    json::Writer w;
    w.begin_object();
    w.key("placement").value(runs[i].obj.at("placement").str).key("warmup").value(runs[i].obj.at("warmup").num);
    w.key("lr").value(runs[i].obj.at("lr").num).key("seed").value(runs[i].obj.at("seed").num);
    w.key("status").value(v.obj.at("status").str).key("stop_step").null().key("from").value(0);
    for (const char* k : {"loss", "grad_norm", "lr_schedule"}) {
      std::vector<double> xs;
      for (const auto& x : v.obj.at(k).arr) xs.push_back(x.num);
      w.key(k).array(xs.begin(), xs.end());
    }
    w.end_object();
    return w.str();
  };
  TrainRun r0(train(0));
  r0.step(12);
  auto [ckpt1, doc1] = interrupted(train(1), 9, 4);  // checkpoint at step 8
  ASSERT_EQ(ckpt1.step, 8);

  GridRun cont(grid_config_from_json(cfg));
  cont.continue_run(0, as_grid_run(0, r0.result_json(0)), nullptr, "webgpu");
  cont.continue_run(1, as_grid_run(1, doc1), &ckpt1, "webgpu");
  EXPECT_THROW(cont.continue_run(2, as_grid_run(1, doc1), &ckpt1, "webgpu"), ArgumentError);  // run 1's document
  EXPECT_THROW(cont.continue_run(7, as_grid_run(1, doc1), &ckpt1, "webgpu"), ArgumentError);
  while (!cont.done()) cont.step(5);
  const json::Value a = json::parse(whole.result_json(0)), b = json::parse(cont.result_json(0));
  for (size_t i = 0; i < 4; ++i) {
    const auto &ra = a.obj.at("runs").arr[i].obj, &rb = b.obj.at("runs").arr[i].obj;
    for (const char* k : {"loss", "grad_norm", "lr_schedule", "status"}) {
      ASSERT_EQ(ra.at(k).kind, rb.at(k).kind) << i << k;
      if (ra.at(k).kind == json::Value::Kind::Array) {
        ASSERT_EQ(ra.at(k).arr.size(), rb.at(k).arr.size()) << i << k;
        for (size_t j = 0; j < ra.at(k).arr.size(); ++j)
          EXPECT_EQ(ra.at(k).arr[j].num, rb.at(k).arr[j].num) << i << k << j;
      } else {
        EXPECT_EQ(ra.at(k).str, rb.at(k).str);
      }
    }
  }
  EXPECT_EQ(b.obj.at("runs").arr[0].obj.at("handoff").obj.at("steps").num, 12);
  EXPECT_EQ(b.obj.at("runs").arr[1].obj.at("handoff").obj.at("steps").num, 8);
  EXPECT_EQ(b.obj.at("runs").arr[2].obj.count("handoff"), 0u);
}

// A probe interrupted after each number of batches, handed over and finished by another ProbeRun,
// writes the uninterrupted probe's document: every job the first one finished is taken to the last
// bit, the rest are run again from their own seeds.
TEST(ProbeHandoff, ContinuedProbeEqualsTheUninterruptedOne) {
  const ProbeConfig cfg = probe_config_from_json(
      R"({"layers":3,"d":16,"d_ff":32,"vocab":20,"seq":8,"batch":2,"seeds":[3,5],"batches":2,"depth_batches":1,"depths":[2,4]})");
  ProbeRun whole(cfg);
  while (!whole.done()) whole.step(100);
  json::Value want = json::parse(whole.result_json());
  const int total = 2 * 2 * (2 + 2 * 1);  // placements × seeds × (batches + depths × depth_batches)
  for (int at : {0, 1, 2, 3, 5, 8, total - 1, total}) {
    ProbeRun first(cfg);
    if (at) first.step(at);
    const std::string h = first.handoff_json();
    ProbeRun cont(cfg);
    cont.continue_from(h, "webgpu");
    while (!cont.done()) cont.step(3);
    json::Value got = json::parse(cont.result_json());
    const int jobs = static_cast<int>(json::parse(h).obj.at("jobs").num);
    if (jobs > 0) {
      const auto& ho = got.obj.at("handoff").obj;
      EXPECT_EQ(ho.at("backend").str, "webgpu");
      EXPECT_EQ(ho.at("jobs").num, jobs);
      EXPECT_EQ(ho.at("of").num, 2 * 2 * 3);
      got.obj.erase("handoff");
    } else {
      EXPECT_EQ(got.obj.count("handoff"), 0u) << at;
    }
    EXPECT_EQ(got.obj.at("placements").obj.at("post").obj.at("W2_per_layer").obj.at("mean").arr.size(), 3u);
    // the same document: compare the placements' numbers to the last bit
    for (const char* p : {"post", "pre"}) {
      const auto &a = want.obj.at("placements").obj.at(p).obj, &b = got.obj.at("placements").obj.at(p).obj;
      for (const char* k : {"W2_per_layer", "W2_per_batch", "norm2_over_d"})
        for (const char* m : {"mean", "std"})
          for (size_t l = 0; l < 3; ++l)
            EXPECT_EQ(a.at(k).obj.at(m).arr[l].num, b.at(k).obj.at(m).arr[l].num) << at << p << k << m << l;
      for (const char* L : {"2", "4"})
        for (const char* k : {"W2_per_layer", "W2_per_batch"})
          EXPECT_EQ(a.at("lastW2_vs_L").obj.at(L).obj.at(k).obj.at("mean").num,
                    b.at("lastW2_vs_L").obj.at(L).obj.at(k).obj.at("mean").num)
              << at << p << L << k;
      EXPECT_EQ(a.at("final_ln_gain").obj.at("mean").num, b.at("final_ln_gain").obj.at("mean").num);
    }
  }
}

TEST(ProbeHandoff, RefusesWhatDoesNotFit) {
  const char* small =
      R"({"layers":2,"d":16,"d_ff":32,"vocab":20,"seq":8,"batch":2,"seeds":[0],"batches":1,"depth_batches":1,"depths":[2]})";
  ProbeRun a(probe_config_from_json(small));
  a.step(3);
  const std::string h = a.handoff_json();
  // another probe's plan: three layers, another seed list, another placement list
  for (
      const char* other :
      {R"({"layers":3,"d":16,"d_ff":32,"vocab":20,"seq":8,"batch":2,"seeds":[0],"batches":1,"depth_batches":1,"depths":[2]})",
       R"({"layers":2,"d":16,"d_ff":32,"vocab":20,"seq":8,"batch":2,"seeds":[0,1],"batches":1,"depth_batches":1,"depths":[2]})",
       R"({"layers":2,"d":16,"d_ff":32,"vocab":20,"seq":8,"batch":2,"seeds":[0],"batches":1,"depth_batches":1,"depths":[2],"placements":["pre"]})"}) {
    ProbeRun b(probe_config_from_json(other));
    EXPECT_THROW(b.continue_from(h, "webgpu"), ArgumentError) << other;
  }
  ProbeRun c(probe_config_from_json(small));
  for (const char* bad :
       {"", "[]", R"({"jobs":99,"seeds":{}})", R"({"jobs":1})", R"({"jobs":1,"seeds":{"post":[{}],"pre":[{}]}})"})
    EXPECT_THROW(c.continue_from(bad, "webgpu"), ArgumentError) << bad;
  ProbeRun d(probe_config_from_json(small));
  d.step(1);
  EXPECT_THROW(d.continue_from(h, "webgpu"), ArgumentError);  // only before the first step
  ProbeRun e(probe_config_from_json(small));
  e.continue_from(h, "webgpu");
  while (!e.done()) e.step(1);
  EXPECT_GT(json::parse(e.result_json()).obj.at("handoff").obj.at("jobs").num, 0);
}

}  // namespace
}  // namespace lnx
