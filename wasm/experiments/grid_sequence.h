// grid_sequence.h — the experiments that train one grid (GridRun) per key, one grid after another
// (warmup-length: a grid per optimizer; real-text: a grid per language): the stepping, the progress,
// the Grid documents of the grids done, a run's loss curve out of them, and the seed-mean curve their
// groups take. Leaves out what each experiment makes of the runs (its groups, keys and extra series).
#pragma once
#include <algorithm>
#include <memory>
#include <vector>

#include "../api.h"
#include "../json.h"

namespace lnx::exp {

// `count` grids run one after another; grid k's config comes from the caller (`make(k)`), so the
// sequence holds no reference to the experiment's config.
class GridSequence {
 public:
  explicit GridSequence(size_t count) : count_(count) {}

  // A unit of work: one step of every unfinished run of the current grid (made by `make(k)` when it starts).
  template <class Make>
  void step_once(Make make) {
    if (!grid_) grid_ = std::make_unique<GridRun>(make(docs_.size()));
    grid_->step(1);
    if (grid_->done()) docs_.push_back(json::parse(grid_->result_json())), grid_.reset();
  }
  bool done() const { return docs_.size() >= count_; }
  double progress() const {
    if (done()) return 1.0;
    return std::min(0.999, (docs_.size() + (grid_ ? grid_->progress() : 0.0)) / count_);
  }
  // The Grid documents of the grids done, in order ({"config","plateau_entropy","runs"}).
  const std::vector<json::Value>& docs() const { return docs_; }

 private:
  size_t count_;
  std::unique_ptr<GridRun> grid_;
  std::vector<json::Value> docs_;
};

// A run's training loss per step, from a run of a Grid document.
inline std::vector<double> loss_of(const json::Value& run) {
  std::vector<double> loss;
  for (const auto& x : run.obj.at("loss").arr) loss.push_back(x.num);
  return loss;
}

// The mean over seeds of equally long curves, step by step (empty for none).
inline std::vector<double> seed_mean(const std::vector<std::vector<double>>& curves) {
  std::vector<double> mean;
  if (curves.empty()) return mean;
  for (size_t t = 0; t < curves.front().size(); ++t) {
    double s = 0;
    for (const auto& c : curves) s += c[t];
    mean.push_back(s / curves.size());
  }
  return mean;
}

}  // namespace lnx::exp
