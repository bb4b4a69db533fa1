// train_common.h — what the CPU toy run (trainer.cpp, its documents in train_documents.cpp) and the GPU one
// (gpu/gpu_train.cpp) share, so both follow the same schedule and stopping rule and write the same document
// (docs/json-schema.md, "Train"): the divergence threshold and the JSON (the schedule is optim/schedule.h).
// Leaves out: the training step itself, written once over the backend in train_run.h.
#pragma once
#include <cmath>
#include <string>
#include <vector>

#include "config.h"
#include "json.h"
#include "optim/schedule.h"
#include "placements/spec.h"
#include "text_data.h"

namespace lnx::detail {

// A loss above this stops the run as "diverged" (4·ln V: a model that started near ln V and is now
// confidently wrong).
inline double diverge_loss(const TrainConfig& c) { return 4 * std::log(static_cast<double>(c.model.vocab)); }

// {"version","build","threads"} plus "backend" when non-null ("webgpu") and "fma": true when the
// FMA flavour's fused GEMM kernel computed the document (every document's engine block: probe too).
void write_engine(json::Writer& w, const char* backend);
// A number as the documents print it (for messages).
std::string number_text(double x);
// Throws unless `run` indexes one of a grid's `count` runs (GridDocument, GridRun::continue_run).
void check_run_index(int run, size_t count);
// The grid's config object, as its documents and its plan write it.
void write_grid_config(json::Writer& w, const GridConfig& g);

// One run of a sweep (the grid, an experiment) trains `placement`: the run's model config names it
// and carries the sweep's placement_spec only when the spec defines that placement, so the other
// runs are those of a sweep without the spec (a run config with a spec it does not run is refused:
// configs.cpp's placement_spec_is_used).
inline void set_run_placement(ModelConfig& m, const std::string& placement) {
  m.placement = placement;
  if (!m.placement_spec.empty() && placement_spec_name(m.placement_spec) != placement) m.placement_spec.clear();
}

// Calls f(train config) for every run of the grid, in the grid's order: placement-major, then
// warm-up, then lr, then seed; each run's placement as set_run_placement sets it.
template <class F>
void for_each_grid_run(const GridConfig& g, F&& f) {
  for (const std::string& placement : g.placements)
    for (int warmup : g.warmups)
      for (double lr : g.lrs)
        for (uint64_t seed : g.seeds) {
          TrainConfig t = g.base;
          set_run_placement(t.model, placement);
          t.warmup = warmup;
          t.lr = lr;
          t.seed = seed;
          f(t);
        }
}
// The text a run learns (data = text; ArgumentError naming text_lang when it is not loaded), or null
// for the Markov chain.
std::shared_ptr<const TextData> text_of(const TrainConfig& c);
// The plateau line of a run's data: the chain's stationary entropy, or the text's unigram entropy.
double data_plateau(const TrainConfig& c);
// plateau_entropy, optimal_loss (the chain's ln successors; the text has none) and uniform_loss, and
// for text the texts it learns ("text": TextData::write).
void write_reference_losses(json::Writer& w, double plateau, const TrainConfig& c);
// A text run's validation losses: after step[i], the mean loss over the held-out windows.
struct ValSeries {
  std::vector<int> step;
  std::vector<float> loss;
};
// Which leading steps of a run another backend computed (TrainRun::continue_from); steps = 0: none.
struct Handoff {
  std::string backend;
  int steps = 0;
};
// status, stop_step, steps_done, from, the arrays from index `from` on, and "handoff" when there was one.
// A text run's validation losses go out whole (val_step, val_loss: a few dozen points) whatever `from` is.
void write_series(json::Writer& w, int from, RunStatus status, int stop_step, const std::vector<float>& loss,
                  const std::vector<float>& grad_norm, const std::vector<float>& lr, const Handoff* handoff = nullptr,
                  const ValSeries* val = nullptr);
// A run's series as a document holds them (what write_series wrote): GridDocument::append reads a
// Train document's tail with it, TrainRun::continue_from a whole run.
struct Series {
  int from = 0;
  RunStatus status = RunStatus::Running;
  int stop_step = 0;
  std::vector<float> loss, grad_norm, lr;
};
// ArgumentError (in the reader's terms) for a missing or mistyped key or unequal lengths.
Series parse_series(const json::Value& v);
// One run of a Grid document, as the writer sees it.
struct GridRunView {
  const TrainConfig* train;  // its placement, warm-up, lr and seed
  RunStatus status;
  int stop_step;
  const std::vector<float>* loss;
  const std::vector<float>* grad_norm;
  const std::vector<float>* lr;
  const Handoff* handoff = nullptr;
  const ValSeries* val = nullptr;  // a text run's validation losses
};
// The fraction of a grid's steps done; a stopped run counts as complete.
double grid_progress(const GridConfig& g, const std::vector<GridRunView>& runs);
// The whole Grid document (GridRun::result_json, GridDocument::result_json).
std::string grid_result_json(const GridConfig& g, double plateau, const std::vector<GridRunView>& runs, int from,
                             const char* backend);
RunStatus parse_run_status(const std::string& s);
// What makes two runs record the same work on a backend: the config with what only the host feeds
// a run set aside (learning rate and warm-up, seed, chain, the optimizer's coefficients). Runs with
// equal keys can share a batch (gpu/gpu_train_batch.h); the grid plan numbers them ("shape").
std::string train_shape_key(const TrainConfig& c);

// The whole document of TrainRun::result_json.
std::string train_result_json(const TrainConfig& c, double plateau, RunStatus status, int stop_step,
                              const std::vector<float>& loss, const std::vector<float>& grad_norm,
                              const std::vector<float>& lr, int from, const char* backend,
                              const Handoff* handoff = nullptr, const ValSeries* val = nullptr);

}  // namespace lnx::detail
