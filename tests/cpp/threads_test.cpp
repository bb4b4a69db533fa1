// threads_test.cpp — any thread count gives the same bits: a training run, the grid (with more runs
// than threads and with fewer, where each run has a team of threads of its own), the probe and the
// single-run experiments (plateau-share, adam-first-step, sharpness), on 1, 2, 3, 4 and 16 threads
// (16 oversubscribes a small machine: this checks bits, not speed). The matrix products' parallel
// threshold is set to 0 so that every product splits over its team, as the article's sizes do; the
// models are small but their rows split into several chunks of every element-wise op.
#include <gtest/gtest.h>

#include <regex>
#include <string>
#include <vector>

#include "api.h"
#include "gemm.h"
#include "json.h"

namespace lnx {
namespace {

const int kThreads[] = {1, 2, 3, 4, 16};

// A result document without its engine block's thread count (the one thing allowed to differ).
std::string without_threads(const std::string& doc) {
  static const std::regex threads("\"threads\":[0-9]+");
  EXPECT_TRUE(std::regex_search(doc, threads));
  return std::regex_replace(doc, threads, "");
}

// Runs `job` once per thread count with every product split, and returns what each gave.
template <class Job>
auto for_each_thread_count(const Job& job) {
  const double threshold = gemm_detail::parallel_threshold();
  gemm_detail::set_parallel_threshold(0);
  std::vector<decltype(job())> out;
  for (int t : kThreads) {
    set_threads(t);
    out.push_back(job());
  }
  gemm_detail::set_parallel_threshold(threshold);
  set_threads(1);
  return out;
}

TrainConfig small_train() {
  TrainConfig c;
  c.model = {2, 64, 256, 64, 32, 8, "pre", Attention::Causal};
  c.steps = 12;
  return c;
}

TEST(Threads, TrainingCurveIsBitIdenticalOnOneTwoThreeFourAndSixteenThreads) {
  for (const char* placement : {"pre", "post"}) {
    TrainConfig c = small_train();
    c.model.placement = placement;
    const auto runs = for_each_thread_count([&] {
      TrainRun r(c);
      r.step(c.steps);
      EXPECT_EQ(r.loss().size(), static_cast<size_t>(c.steps));
      return without_threads(r.result_json());
    });
    for (size_t i = 1; i < runs.size(); ++i)
      EXPECT_EQ(runs[0], runs[i]) << placement << ", " << kThreads[i] << " threads";
  }
}

// 4 runs: on 1–3 threads a thread advances one run or more, on 4 one each, on 16 each run has a
// team of four, which splits each op of its two halves.
TEST(Threads, GridIsBitIdenticalOnOneTwoThreeFourAndSixteenThreads) {
  const std::string cfg =
      R"({"layers":2,"d":64,"d_ff":256,"vocab":64,"seq":32,"batch":8,"steps":8,"placements":["pre"],"warmups":[0,4],"lrs":[0.001,0.003],"seeds":[0]})";
  const auto grids = for_each_thread_count([&] {
    GridRun g(grid_config_from_json(cfg));
    while (!g.done()) g.step(3);
    return without_threads(g.result_json());
  });
  for (size_t i = 1; i < grids.size(); ++i) EXPECT_EQ(grids[0], grids[i]) << kThreads[i] << " threads";
}

// A grid of one run holds no other run's state: its halves run at once on a replica, as a TrainRun's
// do (trainer.cpp). Its curve is the TrainRun's, to the bit, on every thread count.
TEST(Threads, GridOfOneRunIsTheTrainingRunOnOneTwoThreeFourAndSixteenThreads) {
  const std::string cfg =
      R"({"layers":2,"d":64,"d_ff":256,"vocab":64,"seq":32,"batch":8,"attention":"causal","steps":12,"placements":["pre"],"warmups":[4],"lrs":[0.003],"seeds":[1]})";
  TrainConfig c = small_train();
  c.warmup = 4;
  c.lr = 0.003;
  c.seed = 1;
  static const std::regex curve("\"loss\":\\[[^\\]]*\\],\"grad_norm\":\\[[^\\]]*\\]");
  auto curve_of = [](const std::string& doc) {
    std::smatch m;
    EXPECT_TRUE(std::regex_search(doc, m, curve)) << doc.substr(0, 200);
    return m.str();
  };
  const auto both = for_each_thread_count([&] {
    GridRun g(grid_config_from_json(cfg));
    while (!g.done()) g.step(5);
    TrainRun r(c);
    r.step(c.steps);
    return std::make_pair(curve_of(g.result_json()), curve_of(r.result_json()));
  });
  for (size_t i = 0; i < both.size(); ++i) {
    EXPECT_EQ(both[i].first, both[i].second) << kThreads[i] << " threads";
    EXPECT_EQ(both[0].first, both[i].first) << kThreads[i] << " threads";
  }
}

TEST(Threads, ProbeIsBitIdenticalOnOneTwoThreeFourAndSixteenThreads) {
  const std::string cfg =
      R"({"layers":3,"d":64,"d_ff":256,"vocab":64,"seq":32,"batch":4,"seeds":[0,1],"batches":2,"depth_batches":2,"depths":[2,3]})";
  const auto docs = for_each_thread_count([&] { return without_threads(run_probe_json(probe_config_from_json(cfg))); });
  for (size_t i = 1; i < docs.size(); ++i) EXPECT_EQ(docs[0], docs[i]) << kThreads[i] << " threads";
}

TEST(Threads, SingleRunExperimentsAreBitIdenticalOnOneTwoThreeFourAndSixteenThreads) {
  const std::string model = R"("layers":2,"d":64,"d_ff":256,"vocab":64,"seq":32,"batch":8)";
  const std::pair<const char*, std::string> cases[] = {
      {"plateau-share", "{" + model + R"(,"steps":8,"every":4,"warmups":[0,4]})"},
      {"adam-first-step", "{" + model + R"(,"steps":4})"},
      // a training run on teams, and Lanczos products on a double model whose ops split too; at a
      // quarter of the tokens (4 × 16: 4 rows a thread at 16 threads), since each Lanczos step is two
      // gradients in double (as tests/wasm/threads.test.ts): at 8 × 32 and 6 Lanczos steps it was
      // most of this test's time
      {"sharpness",
       R"({"layers":2,"d":64,"d_ff":256,"vocab":64,"seq":16,"batch":4,"steps":4,"every":2,"placements":["post"],"optimizers":["adam","gi-adam"],"warmups":[0],"seeds":[0],"lanczos_steps":4})"},
  };
  for (const auto& [name, cfg] : cases) {
    const auto docs = for_each_thread_count([&, name = name, cfg = cfg] {
      ExperimentRun r(name, cfg);
      while (!r.done()) r.step(1);
      return without_threads(r.result_json());
    });
    for (size_t i = 1; i < docs.size(); ++i) EXPECT_EQ(docs[0], docs[i]) << name << ", " << kThreads[i] << " threads";
  }
}

}  // namespace
}  // namespace lnx
