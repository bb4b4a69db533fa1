// probe_common.h — what the CPU probe (probe.cpp) and the GPU one (gpu/gpu_probe.cpp) share, so both
// run the same jobs on the same batches and write the same document (docs/json-schema.md, "Probe"):
// the job plan, the batch sampler, the per-seed results, the JSON writer.
// Leaves out: the measurements themselves, written once over the backend in probe_run.h.
#pragma once
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "config.h"
#include "rng.h"

namespace lnx::detail {

struct ProbeJob {
  std::string placement;
  int seed_index;  // the position of the seed in the config's list
  uint64_t seed;
  int layers;
  int batches;
  bool depth_sweep;  // true: only the last layer's W², for lastW2_vs_L
};

// The jobs in the order they run (per placement, per seed: the full model, then each depth) and
// the relative cost of one batch of each, for progress.
struct ProbePlan {
  explicit ProbePlan(const ProbeConfig& cfg);
  std::vector<ProbeJob> jobs;
  std::vector<double> job_cost;
  double total_cost = 0;
};

// What one (placement, seed) measured.
struct SeedResult {
  std::vector<double> w2_paper, w2_batch, norm2;     // per layer
  std::map<int, std::pair<double, double>> last_w2;  // depth → (paper, per-batch)
};

// N fresh random tokens and their targets (t+1) mod V.
void probe_batch(Rng& rng, int N, int V, std::vector<int>& tokens, std::vector<int>& targets);

using ProbeResults = std::map<std::string, std::vector<SeedResult>>;  // placement → per seed

// Where a probe that lost its GPU went on: its first `jobs` jobs (of `of`) were measured on `backend`.
struct ProbeHandoff {
  std::string backend;
  size_t jobs = 0, of = 0;
};

// The Probe document; "engine" gets a "backend" key when backend is non-null ("webgpu"), and the
// document a "handoff" when some of its jobs came from another backend.
std::string probe_result_json(const ProbeConfig& cfg, const ProbeResults& results, const char* backend,
                              const ProbeHandoff* handoff = nullptr);

// The hand-off of a probe between backends: the first `jobs` jobs of the plan and what they
// measured, numbers written to the last bit ({"jobs", "seeds": {placement: [{"w2_paper", "w2_batch",
// "norm2", "last_w2": [[L, paper, per batch]]}]}}).
std::string probe_handoff_json(const ProbeConfig& cfg, const ProbeResults& results, size_t jobs);
// Reads such a document into `out` and returns its job count; ArgumentError, in the caller's terms,
// when it does not fit this probe's plan (other placements, seeds, depths or sizes).
size_t probe_handoff_read(const std::string& json, const ProbeConfig& cfg, const ProbePlan& plan, ProbeResults& out);

}  // namespace lnx::detail
