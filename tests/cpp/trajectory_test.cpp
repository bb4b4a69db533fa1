// trajectory_test.cpp — the native build against the pinned short loss trajectories
// (tests/fixtures/trajectories.json, one per placement × optimizer, per model knob, per placement
// preset and spec option; made by the WebAssembly engine, scripts/gen-fixtures.mjs). Native last
// bits depend on the CPU (AVX2 vs AVX-512 kernels), so the comparison is to float precision; the
// wasm test (tests/wasm/trajectories.test.ts) is bit for bit.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>

#include "api.h"
#include "json.h"

#ifndef LNX_SOURCE_DIR
#error "LNX_SOURCE_DIR must name the repository (CMakeLists.txt sets it)"
#endif

namespace lnx {
namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// A fixture's value back to JSON text (a config, and the placement spec object inside one).
void write(json::Writer& w, const json::Value& v) {
  switch (v.kind) {
    case json::Value::Kind::Object:
      w.begin_object();
      for (const auto& kv : v.obj) write(w.key(kv.first), kv.second);
      w.end_object();
      break;
    case json::Value::Kind::Array:
      w.begin_array();
      for (const auto& e : v.arr) write(w, e);
      w.end_array();
      break;
    case json::Value::Kind::String:
      w.value(v.str);
      break;
    case json::Value::Kind::Bool:
      w.value(v.b);
      break;
    case json::Value::Kind::Null:
      w.null();
      break;
    default:
      w.exact(v.num);
  }
}
std::string config_json(const json::Value& c) {
  json::Writer w;
  write(w, c);
  return w.str();
}

TEST(Trajectory, NativeBuildFollowsThePinnedTrajectories) {
  const std::string text = read_file(std::string(LNX_SOURCE_DIR) + "/tests/fixtures/trajectories.json");
  ASSERT_FALSE(text.empty()) << "tests/fixtures/trajectories.json missing";
  const json::Value fixture = json::parse(text);
  for (const char* lang : {"en", "zh"})  // the texts of the data = text runs
    set_text_corpus(lang, read_file(std::string(LNX_SOURCE_DIR) + "/public/data/text/article." + lang + ".txt"));
  size_t checked = 0;
  for (int threads : {1, 2}) {
    set_threads(threads);
    for (const json::Value& r : fixture.obj.at("runs").arr) {
      TrainRun run(train_config_from_json(config_json(r.obj.at("config"))));
      run.step(1000);
      const std::string name =
          r.obj.at("config").obj.at("placement").str + "/" + r.obj.at("config").obj.at("optimizer").str;
      ASSERT_EQ(run.status(), RunStatus::Ok) << name;
      const auto& loss = r.obj.at("loss").arr;
      const auto& gn = r.obj.at("grad_norm").arr;
      ASSERT_EQ(run.loss().size(), loss.size()) << name;
      // Measured native (AVX2) vs wasm: ≤ 1.2e-7 relative over 10 steps; the bound leaves room for
      // other CPUs' kernels without letting a changed formula through (a changed step moves the
      // loss by far more).
      for (size_t t = 0; t < loss.size(); ++t) {
        EXPECT_NEAR(run.loss()[t], loss[t].num, 1e-4 * std::fabs(loss[t].num)) << name << " step " << t + 1;
        EXPECT_NEAR(run.grad_norm()[t], gn[t].num, 1e-4 * std::fabs(gn[t].num)) << name << " step " << t + 1;
      }
      const auto val = r.obj.find("val_loss");  // a text run's validation losses
      ASSERT_EQ(run.val_loss().size(), val == r.obj.end() ? 0 : val->second.arr.size()) << name;
      for (size_t i = 0; i < run.val_loss().size(); ++i)
        EXPECT_NEAR(run.val_loss()[i], val->second.arr[i].num, 1e-4 * std::fabs(val->second.arr[i].num)) << name;
      ++checked;
    }
  }
  EXPECT_GE(checked, 8u);
}

}  // namespace
}  // namespace lnx
