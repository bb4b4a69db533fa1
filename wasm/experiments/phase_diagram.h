// phase_diagram.h — the phase diagram's plan, outcome rule and document, whatever trains its runs:
// the `phase-diagram` experiment on the CPU engine (phase_diagram.cpp: TrainRuns over the thread
// pool) and on WebGPU (gpu/gpu_phase_diagram.cpp: the runs of one shape as one GpuTrainBatch). Both
// feed each run's recorded losses to the same PhasePlan::record, which applies the rule written in
// phase_diagram.cpp's header (trained / plateau / diverged, early exit `settle` steps past the escape
// step), and write the document with the same PhasePlan::write, so there is one copy of the rule.
// A runner may learn a run's losses late and in chunks (the GPU reads them back every few steps and
// records steps ahead of them): record() reads each new step as the CPU runner reads it right after
// that step, so a run settled at step k keeps its first k losses whatever it computed past them.
// Leaves out: the runners themselves (threads, batches, readbacks).
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "../config.h"
#include "../json.h"

namespace lnx::exp {

enum class EarlyExit { On, Off };

// The experiment's config (its schema: phase_diagram.cpp PhaseDiagram::fields).
struct PhaseConfig {
  TrainConfig base = [] {
    TrainConfig t;
    t.model.seq = 32, t.model.batch = 2;
    t.steps = 300;
    return t;
  }();
  std::vector<std::string> placements = {"post", "pre", "deepnorm", "peri"};
  std::vector<int> depths = {2, 4, 8, 16};
  std::vector<double> lrs = {1e-3, 3e-3, 1e-2, 3e-2, 0.1};
  std::vector<int> warmups = {0, 100};
  std::vector<uint64_t> seeds = {0};
  EarlyExit early_exit = EarlyExit::On;
  int settle = 50;
};

// The cells and runs of a phase diagram, each run's record, and the document.
class PhasePlan {
 public:
  explicit PhasePlan(const PhaseConfig& c);
  size_t run_count() const { return runs_.size(); }
  // Run i's TrainRun config (its placement, depth, peak lr, warm-up and seed over the base config).
  TrainConfig train_config(size_t run) const;
  int layers(size_t run) const { return runs_[run].layers; }
  // The runs in execution order: by depth (stable), so runs advanced together cost about the same.
  const std::vector<size_t>& order() const { return order_; }
  // Reads what run i's trainer has recorded so far: `loss`, its recorded losses from step 1 (a series
  // that only grows between calls), and the trainer's status and stopping step once those have
  // landed. True once the run's outcome is settled (then later calls change nothing).
  bool record(size_t run, const std::vector<float>& loss, RunStatus status, int trainer_stop_step);
  bool finished(size_t run) const { return !runs_[run].stopped.empty(); }
  // The step run i stopped at (finished runs; phase_diagram.cpp's header: `stop_step`).
  int stop_step(size_t run) const { return runs_[run].stop_step; }
  int steps() const { return cfg_.base.steps; }
  // The document's own keys (after "experiment", "engine" and "config"), every run finished.
  void write(json::Writer& w) const;

 private:
  struct Run {
    size_t cell;
    uint64_t seed;
    int layers;
    std::string stopped;  // "end", "settled", "nan", "diverged"; empty while running
    int escape = 0;       // 1-based escape step, 0 = never
    int stop_step = 0;    // the last step it took (the trainer's stopping step for nan / diverged)
    int seen = 0;         // losses read so far
    std::vector<float> loss;
  };
  struct Cell {
    std::string placement;
    int warmup, layers;
    double lr;
  };
  static const char* outcome(const Run& r);
  static double final_loss(const Run& r);
  void write_cell(json::Writer& w, size_t i) const;
  static void write_run(json::Writer& w, const Run& r);

  PhaseConfig cfg_;
  std::vector<Cell> cells_;
  std::vector<Run> runs_;
  std::vector<size_t> order_;
  double plateau_ = 0;
};

// The experiment's config from JSON, parsed and checked by its schema (as `lnx exp phase-diagram`
// and ExperimentRun take it: ArgumentError / RuleError naming the field).
PhaseConfig phase_config_from_json(const std::string& json);
// The whole `phase-diagram` document of a finished plan, as ExperimentRun writes it, with
// "engine": {…, "backend": backend} when backend is not null.
std::string phase_result_json(const PhaseConfig& c, const PhasePlan& plan, const char* backend);

}  // namespace lnx::exp
