// train_access.h — what the experiments (experiments/) read inside a CPU TrainRun besides its
// series: the model being trained (its parameters are the run's current weights, its gradient the
// last step's) and the batch of the last step. Internal to the engine.
// Leaves out: writing into a run (an experiment observes a run; it never changes one).
#pragma once
#include <vector>

#include "api.h"
#include "model.h"

namespace lnx::detail {

struct TrainRunAccess {
  // The run's model. Its batch is the run's half-batch (trainer.cpp), so evaluate other batches on
  // a model of one's own shape with these parameters copied in.
  static Transformer<float>& model(TrainRun& r);
  static const std::vector<int>& last_inputs(const TrainRun& r);
  static const std::vector<int>& last_targets(const TrainRun& r);
};

}  // namespace lnx::detail
