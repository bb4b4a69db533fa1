// plan_run.h — the TrainRun config of run i of a grid_plan_json document, as the page's WebGPU grid
// takes it (gpu-grid.ts); for the tests that drive a grid's runs one by one.
#pragma once
#include <string>

#include "api.h"
#include "json.h"

namespace lnx::test {

inline TrainConfig plan_train(const json::Value& plan, int i) {
  json::Writer w;
  w.begin_object();
  for (const auto& kv : plan.obj.at("runs").arr.at(i).obj.at("train").obj) {
    w.key(kv.first);
    if (kv.second.kind == json::Value::Kind::String) w.value(kv.second.str);
    else w.value(kv.second.num);
  }
  w.end_object();
  return train_config_from_json(w.str());
}

}  // namespace lnx::test
