// api.h — the one public C++ API of the ln-explorable engine.
//
// Everything the CLI (`lnx`), the Embind module (wasm/bindings.cpp) and the tests call lives here:
// reading and checking configs, the steppable init-time probe (Figures 2 and 3), the steppable toy
// trainer and grid (Figure 4) and the experiments. The config structs, enums and errors they take
// are config.h's, below the model: the engine's own headers include that one, never this one. Results come out as JSON
// strings whose schema is documented in docs/json-schema.md. No Eigen type crosses this header.
#pragma once
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "config.h"

namespace lnx {

std::string engine_version();  // semantic version of the engine, recorded in every JSON result
std::string build_flavour();   // "native", "wasm-mt", "wasm-st", "wasm-mt-fma" or "wasm-st-fma"

// Every config's fields (name, type, default, bounds, doc), the placements, the placement presets
// (placements/presets.h) and the optimizers, as one JSON document (`lnx schema --json`,
// `schemaJson()`; docs/json-schema.md is generated from it).
std::string schema_json();

// Size of the shared thread pool used by every op (GEMM row blocks, per-sequence attention, grid runs).
// 0 = hardware concurrency. Results do not depend on it beyond float rounding.
void set_threads(int n);
int threads();

// Registers the article's text in `lang` ("en" or "zh"), the bytes of public/data/text/article.<lang>.txt,
// for runs with data = text (text_data.h); ArgumentError for another language or empty bytes.
void set_text_corpus(const std::string& lang, const std::string& bytes);
// Records why the text of `lang` is not there, in the loader's terms (the CLI's --text-dir: a missing
// or empty file); a run that needs it is refused with that reason, naming text_lang.
void set_text_corpus_missing(const std::string& lang, const std::string& why);

// ---- Init-time probe (Figures 2 and 3) -------------------------------------------------------
ProbeConfig probe_config_from_json(const std::string& json);  // missing keys keep their defaults

class ProbeRun {
 public:
  explicit ProbeRun(const ProbeConfig&);
  ~ProbeRun();
  // Advance by at most `batches` forward/backward passes; returns the fraction done in [0, 1].
  double step(int batches);
  bool done() const;
  double progress() const;
  std::string result_json() const;  // valid only when done()
  // Hand-off (a probe that lost its GPU goes on on the CPU). handoff_json: the jobs (a placement, a
  // seed and a depth each, in plan order) whose statistics have come in, and what they measured.
  // continue_from, before the first step: take those jobs as `backend` measured them and go on from
  // the next one; the result then says so ("handoff"). Each job draws its own model and batches from
  // its seed, so the jobs run here are the ones an uninterrupted probe would run. ArgumentError
  // when the hand-off does not fit this probe.
  std::string handoff_json() const;
  void continue_from(const std::string& handoff_json, const std::string& backend);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};
std::string run_probe_json(const ProbeConfig&);

// ---- Toy warm-up experiment (Figure 4) -------------------------------------------------------
TrainConfig train_config_from_json(const std::string& json);

namespace detail {
struct TrainRunAccess;  // the experiments' look inside a CPU run (train_access.h)
}

class TrainRun {
 public:
  explicit TrainRun(const TrainConfig&);
  ~TrainRun();
  int step(int k);  // advance up to k optimizer steps; returns steps completed so far
  int steps_done() const;
  RunStatus status() const;  // Running until `steps` are done; NaN / Diverged stop it early
  int stop_step() const;     // the 1-based step that stopped a NaN / Diverged run, else 0
  const std::vector<float>& loss() const;
  const std::vector<float>& grad_norm() const;
  const std::vector<float>& lr() const;
  std::string result_json(int from = 0) const;  // {"config","loss","grad_norm","lr_schedule","status","stop_step"}
  double plateau_entropy() const;  // entropy of the chain's stationary distribution, or the text's unigram entropy
  // data = text: the steps after which the validation loss was measured, and the loss (text_data.h);
  // empty for the Markov chain.
  std::vector<int> val_steps() const;
  std::vector<float> val_loss() const;

  // Hand-off. Every `steps` steps (0 = never, the default) the run copies its state into a checkpoint,
  // which take_checkpoint moves out (false when none is new since the last take).
  void set_checkpoint_every(int steps);
  bool take_checkpoint(TrainCheckpoint& out);
  // Before the first step: continues what `backend` computed of this same run. series_json is the
  // run as a document holds it (a Train document or a Grid document's run: "status", "stop_step",
  // "from" = 0, "loss", "grad_norm", "lr_schedule"). A finished run ("ok", "nan", "diverged") is
  // taken as it is; a running one continues from `checkpoint` (its series cut at checkpoint->step),
  // or from step 1 when there is none. The result then says which steps came from `backend`
  // ("handoff"). ArgumentError when the document or the checkpoint does not fit this run.
  void continue_from(const std::string& series_json, const TrainCheckpoint* checkpoint, const std::string& backend);

 private:
  friend class GridRun;  // the grid shares per-thread workspaces between its runs
  friend struct detail::TrainRunAccess;
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

GridConfig grid_config_from_json(const std::string& json);

// The grid expanded without running it: {"config": the grid's config object as in GridRun's result,
// "runs": [{"placement","warmup","lr","seed","train": a TrainRun config}]}, in GridRun's run order.
// Validates like GridRun. For backends that run the grid's runs themselves (WebGPU, one run at a time).
std::string grid_plan_json(const std::string& config_json);

// Would the engine take this config? `kind` is "probe", "train", "grid" or an experiment's name
// ("step-size": the config of ExperimentRun). Never throws for a bad
// config: returns {"ok": true, "warnings": [{"rule", "message"}]} or {"ok": false, "message": the error the
// run would fail with, "rule": the rule across fields it breaks (absent for a single field's error)}.
// One call for every form's rules across fields (memory, run count, a warm-up longer than the run),
// so the page asks the engine instead of re-implementing them (`checkConfigJson`).
std::string check_config_json(const std::string& kind, const std::string& config_json);

class GridRun {
 public:
  explicit GridRun(const GridConfig&);
  ~GridRun();
  double step(int k);  // advance every unfinished run by up to k steps, runs in parallel
  bool done() const;
  double progress() const;
  std::string result_json(int from = 0) const;  // {"config","plateau_entropy","runs":[…]}
  // TrainRun::continue_from for run `run` (grid_plan_json's order); run_json is that run of a Grid
  // document (its placement, warm-up, lr and seed must be this run's).
  void continue_run(int run, const std::string& run_json, const TrainCheckpoint* checkpoint,
                    const std::string& backend);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// The Grid document of a grid whose runs the caller advances itself (the page's WebGPU grid, which
// schedules one GpuTrainRun per run of grid_plan_json): each run's Train document, or its tail from
// `from`, is appended as it arrives, and result_json writes the same Grid document as GridRun.
class GridDocument {
 public:
  explicit GridDocument(const GridConfig&);
  ~GridDocument();
  int runs() const;
  int steps_held(int run) const;  // the length of the run's series so far
  // A Train document of run `run` (plan order) whose arrays start at its "from" (≤ steps_held(run)).
  void append(int run, const std::string& train_json);
  bool done() const;  // every run has a final status
  double progress() const;
  std::string result_json(int from, const char* backend) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// ---- Experiments on the article's own inferences (experiments/, docs/experiments.md) ----------
// Each has a name (`lnx exp NAME`), a config schema of its own (in schema_json()) and a result
// document {"experiment","engine","config",…} (docs/json-schema.md). CPU only.
std::vector<std::string> experiment_names();

class ExperimentRun {
 public:
  // ArgumentError for an unknown name or an invalid config (missing keys keep their defaults).
  ExperimentRun(const std::string& name, const std::string& config_json);
  ~ExperimentRun();
  double step(int work);  // advance by at most `work` units (≥ 1); returns the progress
  bool done() const;
  double progress() const;
  std::string result_json() const;  // valid only when done()
 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace lnx
