// gpu_phase_diagram.cpp — the phase diagram's runs as GpuTrainBatches; see gpu_phase_diagram.h.
#include "gpu_phase_diagram.h"

#include <algorithm>

#include "../json.h"
#include "../train_common.h"
#include "device_batch.h"

namespace lnx::gpu {

GpuPhaseDiagram::GpuPhaseDiagram(const std::string& config_json, int max_batch)
    : cfg_(exp::phase_config_from_json(config_json)), plan_(cfg_), max_batch_(max_batch) {
  if (max_batch < 1) throw ArgumentError("max_batch must be >= 1");
  // shapes in the order their first run comes in the plan's execution order (by depth)
  std::vector<std::string> keys;
  for (size_t i : plan_.order()) {
    const std::string key = detail::train_shape_key(plan_.train_config(i));
    const size_t s = std::find(keys.begin(), keys.end(), key) - keys.begin();
    if (s == keys.size()) keys.push_back(key), shapes_.emplace_back();
    shapes_[s].push_back(i);
  }
  landed_.assign(plan_.run_count(), 0);
  for (size_t i = 0; i < plan_.run_count(); ++i) total_ += static_cast<double>(plan_.layers(i)) * cfg_.base.steps;
  check();
  fill();
}
GpuPhaseDiagram::~GpuPhaseDiagram() = default;

double GpuPhaseDiagram::step(int k) {
  if (k < 1) throw ArgumentError("step(k): k must be >= 1");
  sync();
  for (Live& l : live_) {
    l.batch->step(k);
    made_[l.made].dispatches = l.batch->dispatches_per_step();
  }
  return progress();
}

bool GpuPhaseDiagram::done() {
  sync();
  return live_.empty() && shape_ >= shapes_.size();
}

double GpuPhaseDiagram::progress() const {
  if (live_.empty() && shape_ >= shapes_.size()) return 1.0;
  double done = 0;
  for (size_t i = 0; i < plan_.run_count(); ++i)
    done += static_cast<double>(plan_.layers(i)) * (plan_.finished(i) ? cfg_.base.steps : landed_[i]);
  return std::min(0.999, done / total_);
}

std::string GpuPhaseDiagram::result_json() {
  if (!done()) throw ArgumentError("phase-diagram: result requested before the experiment is done");
  return exp::phase_result_json(cfg_, plan_, "webgpu");
}

std::string GpuPhaseDiagram::batches_json() const {
  json::Writer w;
  w.begin_array();
  for (const Made& m : made_)
    w.begin_object().key("runs").value(m.runs).key("dispatches").value(m.dispatches).end_object();
  w.end_array();
  return w.str();
}

// Feeds each live run's landed losses to the rule; halts the runs it settles; frees the batches
// whose runs are all settled; starts the next.
void GpuPhaseDiagram::sync() {
  for (Live& l : live_)
    for (size_t j = 0; j < l.runs.size(); ++j) {
      const size_t i = l.runs[j];
      if (plan_.finished(i)) continue;
      const int r = static_cast<int>(j);
      const std::vector<float>& loss = l.batch->loss(r);
      landed_[i] = static_cast<int>(loss.size());
      if (plan_.record(i, loss, l.batch->status(r), l.batch->stop_step(r))) l.batch->halt(r);
    }
  live_.erase(std::remove_if(live_.begin(), live_.end(),
                             [&](const Live& l) {
                               return std::all_of(l.runs.begin(), l.runs.end(),
                                                  [&](size_t i) { return plan_.finished(i); });
                             }),
              live_.end());
  fill();
}

int GpuPhaseDiagram::live_runs() const {
  int n = 0;
  for (const Live& l : live_) n += static_cast<int>(l.runs.size());
  return n;
}

// The next shape's runs as one batch, while it fits beside the live runs (a shape larger than
// kMaxLive or max_batch goes in parts, the first once nothing else is live); a batch the device's
// buffer limits refuse is made smaller.
void GpuPhaseDiagram::fill() {
  while (shape_ < shapes_.size()) {
    const std::vector<size_t>& runs = shapes_[shape_];
    const int left = static_cast<int>(runs.size() - taken_), live = live_runs();
    int size = std::min({left, max_batch_, kMaxLive});
    if (live > 0 && live + size > kMaxLive) return;
    const std::vector<size_t> want(runs.begin() + taken_, runs.begin() + taken_ + size);
    std::unique_ptr<GpuTrainBatch> batch;
    while (!batch) {
      std::vector<TrainConfig> cfgs;
      for (int j = 0; j < size; ++j) cfgs.push_back(plan_.train_config(want[j]));
      try {
        batch = std::make_unique<GpuTrainBatch>(cfgs, kReadbackEvery);
      } catch (const BatchTooLarge& e) {
        if (e.max_runs >= size) throw;
        size = e.max_runs;
      }
    }
    live_.push_back({std::move(batch), std::vector<size_t>(want.begin(), want.begin() + size), made_.size()});
    made_.push_back({size});
    taken_ += size;
    if (taken_ == runs.size()) ++shape_, taken_ = 0;
  }
}

}  // namespace lnx::gpu
